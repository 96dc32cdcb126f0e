/*
 * cmd_validate.c - `gpuperf validate`: predicted against measured, for one
 * or several validation tables. Reading, predicting and scoring are the
 * library's (gp_table_*, gp_score_* of gpuperf/gpuperf.h); this file parses
 * the command line, prints text or JSON, and applies the thresholds.
 */
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gpuperf/gpuperf.h"

/* Exit statuses, as every command (cli.h). */
#define EXIT_FAIL 1
#define EXIT_USAGE 2

/* Most tables in one run; widest a wrapped text column gets. */
#define MAX_TABLES 32
#define PARAMS_COLUMNS 40
#define MAX_CELLS 12

#define GP_MAX_INT(a, b) ((a) > (b) ? (a) : (b))
#define GP_ARRAY_LEN_INT(a) (sizeof(a) / sizeof((a)[0]))

/* The command's entry points (the command table in main.c declares them
   through cli.h; this file needs nothing else of it). */
int gp_cmd_validate(int argc, char **argv);
void gp_help_validate(FILE *out);

/* Options. */
typedef struct vopts {
    int json;
    double max_mape;       /* <0: no check */
    double max_ratio;      /* <0: no check */
    double min_within_2x;  /* fraction, <0: no check */
    double within_factor;  /* --min-within FACTOR:FRACTION; 0: none */
    double min_within;
    int check_order;
    int max_order_errors;
    int lofo;              /* --leave-one-family-out */
    gp_score_opts_t score;
    const char *sets[MAX_TABLES];
    int n_sets;
} vopts_t;

/* One table of the run. */
typedef struct vtab {
    const char *path;
    char set[256];
    gp_table_t *t;
    gp_score_t *s;
} vtab_t;

/* Print "gpuperf validate: message" to stderr; returns status. */
static int fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(int status, const char *fmt, ...)
{
    va_list ap;
    fputs("gpuperf validate: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return status;
}

/* ------------------------------------------------------------ text tables */

/* A text table: a header and rows of cells, columns as wide as their
   widest cell; a column with a cap wraps longer cells at spaces onto
   continuation lines (so nothing is ever cut). */
typedef struct ttab {
    int ncols;
    const char *head[MAX_CELLS];
    int right[MAX_CELLS]; /* right-aligned (numbers) */
    int cap[MAX_CELLS];   /* 0: no cap */
    char *(*cells)[MAX_CELLS];
    int n, alloc;
    int width[MAX_CELLS];
} ttab_t;

/* Append a row (cells are copied). */
static void ttab_add(ttab_t *t, const char *const *cells)
{
    int c;
    if (t->n == t->alloc) {
        int a = t->alloc ? t->alloc * 2 : 32;
        void *p = realloc(t->cells, (size_t)a * sizeof *t->cells);
        if (!p)
            return; /* the row is left out; the totals still hold */
        t->cells = p;
        t->alloc = a;
    }
    for (c = 0; c < t->ncols; c++)
        t->cells[t->n][c] = strdup(cells[c] ? cells[c] : "");
    t->n++;
}

/* The next piece of `s` that fits in `w` columns (at least one word, cut
   inside a word only when it alone is wider); returns its length and sets
   *next past the spaces that follow. */
static size_t piece(const char *s, int w, const char **next)
{
    size_t len = strlen(s), end = 0, i;
    if (w <= 0 || len <= (size_t)w) {
        *next = s + len;
        return len;
    }
    for (i = 0; i <= (size_t)w; i++)
        if (s[i] == ' ')
            end = i;
    if (end == 0)
        end = (size_t)w;
    *next = s + end;
    while (**next == ' ')
        (*next)++;
    return end;
}

/* Print the table with two spaces between columns. */
static void ttab_print(ttab_t *t, const char *indent)
{
    int c, r;
    for (c = 0; c < t->ncols; c++) {
        int w = (int)strlen(t->head[c]);
        for (r = 0; r < t->n; r++)
            w = GP_MAX_INT(w, (int)strlen(t->cells[r][c]));
        t->width[c] = t->cap[c] && w > t->cap[c] ? t->cap[c] : w;
    }
    printf("%s", indent);
    for (c = 0; c < t->ncols; c++) {
        if (t->right[c])
            printf("%*s", t->width[c], t->head[c]);
        else if (c + 1 < t->ncols)
            printf("%-*s", t->width[c], t->head[c]);
        else
            printf("%s", t->head[c]);
        if (c + 1 < t->ncols)
            printf("  ");
    }
    printf("\n");
    for (r = 0; r < t->n; r++) {
        const char *rest[MAX_CELLS];
        int more = 1;
        for (c = 0; c < t->ncols; c++)
            rest[c] = t->cells[r][c];
        while (more) {
            int last = t->ncols - 1;
            if (rest[0] != t->cells[r][0]) /* a continuation line: stop at its last text */
                while (last > 0 && !*rest[last])
                    last--;
            more = 0;
            printf("%s", indent);
            for (c = 0; c <= last; c++) {
                const char *next;
                size_t len = piece(rest[c], t->cap[c] ? t->width[c] : 0, &next);
                int pad = t->width[c] - (int)len;
                if (t->right[c])
                    printf("%*s%.*s", pad > 0 ? pad : 0, "", (int)len, rest[c]);
                else if (c < last)
                    printf("%.*s%*s", (int)len, rest[c], pad > 0 ? pad : 0, "");
                else
                    printf("%.*s", (int)len, rest[c]);
                if (c < last)
                    printf("  ");
                rest[c] = next;
                more |= *next != '\0';
            }
            printf("\n");
        }
    }
}

static void ttab_free(ttab_t *t)
{
    int r, c;
    for (r = 0; r < t->n; r++)
        for (c = 0; c < t->ncols; c++)
            free(t->cells[r][c]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------ reports */

/* Stats of a group of one table. */
static void stats(const vtab_t *v, const vopts_t *o, unsigned kinds, const char *family,
                  gp_score_stats_t *st)
{
    gp_score_filter_t f = {kinds, family, o->within_factor};
    gp_score_stats(v->s, &f, st);
}

/* "N rows, P predicted, mean absolute error X%, W within 2x, E ordering errors". */
static void stats_text(char *out, size_t size, const gp_score_stats_t *st, const vopts_t *o,
                       int speedups)
{
    int len = snprintf(out, size, "%u rows, %u predicted, mean absolute %serror %.1f%%, %u within 2x",
                       st->rows, st->predicted, speedups ? "speedup " : "", st->mape_pct,
                       st->within_2x);
    if (o->within_factor > 0 && len > 0 && (size_t)len < size)
        len += snprintf(out + len, size - (size_t)len, ", %u within %gx", st->within,
                        st->within_factor);
    if (len > 0 && (size_t)len < size)
        snprintf(out + len, size - (size_t)len, ", %u ordering errors", st->order_errors);
}

/* The text columns of a times row. */
static void times_cells(const gp_score_row_t *r, int has_kind, const char **cells, char *meas,
                        char *pred, char *err)
{
    int c = 0;
    snprintf(meas, 32, "%.3f", r->measured);
    snprintf(pred, 32, r->ok ? "%.3f" : "failed", r->predicted);
    snprintf(err, 32, r->ok ? "%+.1f%%" : "", r->error_pct);
    cells[c++] = r->row.device;
    cells[c++] = r->row.family;
    cells[c++] = r->row.name;
    cells[c++] = r->row.params;
    if (has_kind)
        cells[c++] = gp_row_kind_name(r->row.kind);
    cells[c++] = meas;
    cells[c++] = pred;
    cells[c++] = err;
    cells[c] = r->ok ? r->bound : "see stderr";
}

/* The rows of one table of kinds `kinds` as a text table. */
static void times_rows(const vtab_t *v, unsigned kinds, const char *indent)
{
    static const char *const head[] = {"device", "family", "name", "params", "kind",
                                       "measured_us", "predicted_us", "error", "bound"};
    int has_kind = gp_table_has_kind(v->t), c, n = 0;
    ttab_t t;
    size_t i;
    memset(&t, 0, sizeof t);
    for (c = 0; c < 9; c++) {
        if (c == 4 && !has_kind)
            continue;
        t.head[n] = head[c];
        t.right[n] = c >= 5 && c <= 7;
        t.cap[n] = c == 3 ? PARAMS_COLUMNS : 0;
        n++;
    }
    t.ncols = n;
    for (i = 0; i < gp_score_count(v->s); i++) {
        const gp_score_row_t *r = gp_score_row(v->s, i);
        const char *cells[MAX_CELLS];
        char m[32], p[32], e[32];
        if (!((kinds >> r->row.kind) & 1))
            continue;
        times_cells(r, has_kind, cells, m, p, e);
        ttab_add(&t, cells);
    }
    ttab_print(&t, indent);
    ttab_free(&t);
}

/* Families in table order, each once, of rows matching kinds. */
static int families(const vtab_t *v, unsigned kinds, const char **out, int max)
{
    int n = 0, k;
    size_t i;
    for (i = 0; i < gp_score_count(v->s) && n < max; i++) {
        const gp_score_row_t *r = gp_score_row(v->s, i);
        if (!((kinds >> r->row.kind) & 1))
            continue;
        for (k = 0; k < n && strcmp(out[k], r->row.family); k++)
            ;
        if (k == n)
            out[n++] = r->row.family;
    }
    return n;
}

static int cmp_abs_err(const void *x, const void *y)
{
    const gp_score_row_t *a = *(const gp_score_row_t *const *)x;
    const gp_score_row_t *b = *(const gp_score_row_t *const *)y;
    double ea = fabs(a->error_pct), eb = fabs(b->error_pct);
    return (ea < eb) - (ea > eb);
}

#define PREDICTION_KINDS ((1u << GP_KIND_INDEPENDENT) | (1u << GP_KIND_SCALED))
#define CONSISTENCY_KINDS (1u << GP_KIND_CONSISTENCY)

/* The text report of a times table. */
static void times_text(const vtab_t *v, const vopts_t *o)
{
    const char *fams[512];
    const gp_score_row_t **sorted;
    gp_score_stats_t st;
    char line[256];
    size_t i, n_sorted = 0, n = gp_score_count(v->s), a, b;
    int k, nf;
    stats(v, o, CONSISTENCY_KINDS, NULL, &st);
    times_rows(v, PREDICTION_KINDS, "");
    if (st.rows) {
        printf("\nconsistency rows (restate a device-file input; not in the headline):\n");
        times_rows(v, CONSISTENCY_KINDS, "  ");
    }
    printf("\nper family (independent rows, mean absolute percentage error):\n");
    nf = families(v, GP_SCORE_HEADLINE, fams, (int)GP_ARRAY_LEN_INT(fams));
    for (k = 0; k < nf; k++) {
        stats(v, o, GP_SCORE_HEADLINE, fams[k], &st);
        printf("  %-14s %3u rows  %6.1f%%\n", fams[k], st.predicted, st.mape_pct);
    }
    if (gp_table_has_kind(v->t)) {
        printf("\nper kind:\n");
        for (k = 0; k < GP_KIND_COUNT; k++) {
            stats(v, o, 1u << k, NULL, &st);
            stats_text(line, sizeof line, &st, o, 0);
            printf("  %-12s %s\n", gp_row_kind_name((gp_row_kind_t)k), line);
        }
    }
    sorted = calloc(n ? n : 1, sizeof *sorted);
    for (i = 0; sorted && i < n; i++) {
        const gp_score_row_t *r = gp_score_row(v->s, i);
        if (r->ok && r->row.kind != GP_KIND_CONSISTENCY)
            sorted[n_sorted++] = r;
    }
    if (sorted && n_sorted) {
        qsort(sorted, n_sorted, sizeof *sorted, cmp_abs_err);
        printf("\nworst rows:\n");
        for (i = 0; i < n_sorted && i < 5; i++)
            printf("  %+7.1f%%  %s %s %s [%s]\n", sorted[i]->error_pct, sorted[i]->row.device,
                   sorted[i]->row.family, sorted[i]->row.name, sorted[i]->row.params);
    }
    free(sorted);
    stats(v, o, 0, NULL, &st);
    if (st.order_errors) {
        printf("\nsweeps predicted in the wrong order (%u pairs):\n", st.order_errors);
        for (i = 0; gp_score_order_error(v->s, i, &a, &b) == 0; i++) {
            const gp_score_row_t *f = gp_score_row(v->s, a), *s = gp_score_row(v->s, b);
            printf("  %s %s %s: [%s] measured %.2f < [%s] %.2f, predicted %.2f >= %.2f\n",
                   f->row.device, f->row.family, f->row.name, f->row.params, f->measured,
                   s->row.params, s->measured, f->predicted, s->predicted);
        }
    }
    stats_text(line, sizeof line, &st, o, 0);
    printf("\noverall: %s\n", line);
    stats(v, o, GP_SCORE_HEADLINE, NULL, &st);
    stats_text(line, sizeof line, &st, o, 0);
    printf("headline (independent rows): %s\n", line);
}

/* The text report of a speedup table. */
static void speedups_text(const vtab_t *v, const vopts_t *o)
{
    static const char *const head[] = {"name", "old_device", "old_params", "new_device",
                                       "new_params", "measured", "predicted", "error", "order"};
    gp_score_stats_t st;
    char line[256];
    ttab_t t;
    size_t i;
    int c;
    if (gp_score_count(v->s) == 0) {
        printf("no rows yet: each row is one kernel timed on two GPUs (old_device and\n"
               "new_device); the report compares the predicted speedup old/new with the\n"
               "measured one\n");
        return;
    }
    memset(&t, 0, sizeof t);
    t.ncols = 9;
    for (c = 0; c < 9; c++) {
        t.head[c] = head[c];
        t.right[c] = c >= 5 && c <= 7;
        t.cap[c] = c == 2 || c == 4 ? PARAMS_COLUMNS / 2 : 0;
    }
    for (i = 0; i < gp_score_count(v->s); i++) {
        const gp_score_row_t *r = gp_score_row(v->s, i);
        const char *cells[MAX_CELLS];
        char m[32], p[32], e[32];
        snprintf(m, sizeof m, "%.2fx", r->measured);
        snprintf(p, sizeof p, r->ok ? "%.2fx" : "failed", r->predicted);
        snprintf(e, sizeof e, r->ok ? "%+.1f%%" : "", r->error_pct);
        cells[0] = r->row.name;
        cells[1] = r->row.old_device;
        cells[2] = r->row.old_params;
        cells[3] = r->row.new_device;
        cells[4] = r->row.new_params;
        cells[5] = m;
        cells[6] = p;
        cells[7] = e;
        cells[8] = !r->ok ? "see stderr" : r->order_ok ? "ok" : "reversed";
        ttab_add(&t, cells);
    }
    ttab_print(&t, "");
    ttab_free(&t);
    stats(v, o, 0, NULL, &st);
    stats_text(line, sizeof line, &st, o, 1);
    printf("\noverall: %s\n", line);
    stats(v, o, GP_SCORE_HEADLINE, NULL, &st);
    stats_text(line, sizeof line, &st, o, 1);
    printf("headline (independent rows): %s\n", line);
}

/* ------------------------------------------------------------ JSON */

/* Stats as a JSON object. */
static cJSON *stats_json(const gp_score_stats_t *st, const vopts_t *o)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "rows", st->rows);
    cJSON_AddNumberToObject(j, "predicted", st->predicted);
    cJSON_AddNumberToObject(j, "mape_pct", st->mape_pct);
    cJSON_AddNumberToObject(j, "within_2x", st->within_2x);
    if (o->within_factor > 0) {
        cJSON_AddNumberToObject(j, "within_factor", st->within_factor);
        cJSON_AddNumberToObject(j, "within", st->within);
    }
    cJSON_AddNumberToObject(j, "worst_ratio", st->worst_ratio);
    cJSON_AddNumberToObject(j, "order_errors", st->order_errors);
    return j;
}

/* One row as JSON. */
static cJSON *row_json(const gp_table_t *t, const gp_score_row_t *r)
{
    cJSON *j = cJSON_CreateObject();
    const gp_table_row_t *w = &r->row;
    cJSON_AddNumberToObject(j, "line", (double)w->line);
    if (gp_table_form(t) == GP_TABLE_TIMES) {
        cJSON_AddStringToObject(j, "device", w->device);
        cJSON_AddStringToObject(j, "family", w->family);
        cJSON_AddStringToObject(j, "name", w->name);
        cJSON_AddStringToObject(j, "params", w->params);
        cJSON_AddStringToObject(j, "script", w->script);
        cJSON_AddStringToObject(j, "script_params", w->script_params);
        cJSON_AddStringToObject(j, "kind", gp_row_kind_name(w->kind));
        cJSON_AddStringToObject(j, "source", w->source);
        cJSON_AddNumberToObject(j, "measured_us", r->measured);
        cJSON_AddNumberToObject(j, "divide_by", w->divide_by);
        if (r->ok) {
            cJSON_AddNumberToObject(j, "predicted_us", r->predicted);
            cJSON_AddNumberToObject(j, "error_pct", r->error_pct);
            cJSON_AddNumberToObject(j, "ratio", r->ratio);
            cJSON_AddStringToObject(j, "bound", r->bound);
        }
    } else {
        cJSON_AddStringToObject(j, "name", w->name);
        cJSON_AddStringToObject(j, "family", w->family);
        cJSON_AddStringToObject(j, "script", w->script);
        cJSON_AddStringToObject(j, "kind", gp_row_kind_name(w->kind));
        cJSON_AddStringToObject(j, "source", w->source);
        cJSON_AddStringToObject(j, "old_device", w->old_device);
        cJSON_AddStringToObject(j, "old_params", w->old_params);
        cJSON_AddNumberToObject(j, "old_measured_us", w->old_measured_us);
        cJSON_AddStringToObject(j, "new_device", w->new_device);
        cJSON_AddStringToObject(j, "new_params", w->new_params);
        cJSON_AddNumberToObject(j, "new_measured_us", w->new_measured_us);
        cJSON_AddNumberToObject(j, "measured_speedup", r->measured);
        if (r->ok) {
            cJSON_AddNumberToObject(j, "old_predicted_us", r->old_predicted_us);
            cJSON_AddNumberToObject(j, "new_predicted_us", r->new_predicted_us);
            cJSON_AddNumberToObject(j, "predicted_speedup", r->predicted);
            cJSON_AddNumberToObject(j, "error_pct", r->error_pct);
            cJSON_AddNumberToObject(j, "ratio", r->ratio);
            cJSON_AddBoolToObject(j, "order_ok", r->order_ok);
        }
    }
    if (!r->ok)
        cJSON_AddStringToObject(j, "error", r->error);
    return j;
}

/* One table's report as JSON. */
static cJSON *table_json(const vtab_t *v, const vopts_t *o)
{
    cJSON *doc = cJSON_CreateObject(), *rows, *fams, *kinds, *pairs;
    const char *names[512];
    gp_score_stats_t st;
    size_t i, a, b;
    int k, nf;
    cJSON_AddStringToObject(doc, "table", v->path);
    cJSON_AddStringToObject(doc, "set", v->set);
    cJSON_AddStringToObject(doc, "form",
                            gp_table_form(v->t) == GP_TABLE_TIMES ? "times" : "speedups");
    rows = cJSON_AddArrayToObject(doc, "rows");
    for (i = 0; i < gp_score_count(v->s); i++)
        cJSON_AddItemToArray(rows, row_json(v->t, gp_score_row(v->s, i)));
    fams = cJSON_AddObjectToObject(doc, "families");
    nf = families(v, GP_SCORE_HEADLINE, names, (int)GP_ARRAY_LEN_INT(names));
    for (k = 0; k < nf; k++) {
        stats(v, o, GP_SCORE_HEADLINE, names[k], &st);
        cJSON_AddItemToObject(fams, names[k], stats_json(&st, o));
    }
    kinds = cJSON_AddObjectToObject(doc, "kinds");
    for (k = 0; k < GP_KIND_COUNT; k++) {
        stats(v, o, 1u << k, NULL, &st);
        cJSON_AddItemToObject(kinds, gp_row_kind_name((gp_row_kind_t)k), stats_json(&st, o));
    }
    pairs = cJSON_AddArrayToObject(doc, "order_errors");
    for (i = 0; gp_score_order_error(v->s, i, &a, &b) == 0; i++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "faster_measured_line", (double)gp_score_row(v->s, a)->row.line);
        cJSON_AddNumberToObject(p, "slower_measured_line", (double)gp_score_row(v->s, b)->row.line);
        cJSON_AddItemToArray(pairs, p);
    }
    stats(v, o, 0, NULL, &st);
    cJSON_AddItemToObject(doc, "overall", stats_json(&st, o));
    stats(v, o, GP_SCORE_HEADLINE, NULL, &st);
    cJSON_AddItemToObject(doc, "headline", stats_json(&st, o));
    return doc;
}

/* Print a JSON document to stdout. */
static void print_json(cJSON *doc)
{
    char *s = doc ? cJSON_Print(doc) : NULL;
    if (s) {
        fputs(s, stdout);
        fputc('\n', stdout);
        cJSON_free(s);
    }
}

/* ------------------------------------------------------------ gates */

/* Apply the thresholds to a table's headline rows; returns 1 if one fails. */
static int gates(const vtab_t *v, const vopts_t *o)
{
    gp_score_stats_t st;
    int bad = 0;
    const char *what = gp_table_form(v->t) == GP_TABLE_SPEEDUPS ? "speedup " : "";
    stats(v, o, GP_SCORE_HEADLINE, NULL, &st);
    if (st.rows == 0)
        return 0;
    if (o->max_mape >= 0 && st.mape_pct > o->max_mape) {
        fail(EXIT_FAIL, "%s (%s): mean absolute %serror %.2f%% exceeds --max-mape %g%%", v->set,
             v->path, what, st.mape_pct, o->max_mape);
        bad = 1;
    }
    if (o->max_ratio > 0 && st.worst_ratio > o->max_ratio) {
        unsigned n = 0;
        size_t i;
        for (i = 0; i < gp_score_count(v->s); i++) {
            const gp_score_row_t *r = gp_score_row(v->s, i);
            n += r->ok && r->row.kind == GP_KIND_INDEPENDENT && r->ratio > o->max_ratio;
        }
        fail(EXIT_FAIL, "%s (%s): %u rows are off by more than %gx (--max-ratio)", v->set,
             v->path, n, o->max_ratio);
        bad = 1;
    }
    if (o->min_within_2x >= 0 && st.within_2x < o->min_within_2x * st.rows) {
        fail(EXIT_FAIL, "%s (%s): %u of %u rows within 2x (%.3f), below --min-within-2x %g",
             v->set, v->path, st.within_2x, st.rows, (double)st.within_2x / st.rows,
             o->min_within_2x);
        bad = 1;
    }
    if (o->within_factor > 0 && st.within < o->min_within * st.rows) {
        fail(EXIT_FAIL, "%s (%s): %u of %u rows within %gx (%.3f), below --min-within %g:%g",
             v->set, v->path, st.within, st.rows, o->within_factor,
             (double)st.within / st.rows, o->within_factor, o->min_within);
        bad = 1;
    }
    if (o->check_order && st.order_errors > (unsigned)o->max_order_errors) {
        fail(EXIT_FAIL, "%s (%s): %u %s (%d allowed, --max-order-errors)", v->set, v->path,
             st.order_errors,
             gp_table_form(v->t) == GP_TABLE_SPEEDUPS
                 ? "speedups predicted on the wrong side of 1x"
                 : "pairs of sweep rows predicted in the wrong order",
             o->max_order_errors);
        bad = 1;
    }
    return bad;
}

/* ------------------------------------------------------------ leave one family out */

/* "0.3", "4..64 (log)" and the like. */
static void lofo_range(const gp_lofo_const_t *c, char *out, size_t size)
{
    snprintf(out, size, "%g..%g%s", c->lo, c->hi, c->log_scale ? " (log)" : "");
}

/* The text report of a leave-one-family-out run. */
static void lofo_text(const vtab_t *v, const gp_lofo_t *l)
{
    static const char *const chead[] = {"constant", "shipped", "range", "set from",
                                        "rows", "refit on all"};
    static const char *const fhead[] = {"family", "rows", "shipped", "left out", "change",
                                        "constants without the family"};
    const gp_lofo_family_t *all = gp_lofo_overall(l);
    size_t i, c, nc = gp_lofo_const_count(l);
    unsigned kept = 0;
    ttab_t t;
    printf("leave one family out: %s (%s)\n\n", v->set, v->path);
    printf("row-fitted constants (constants.h; each refitted by its rule: the value in its\n"
           "range with the least mean absolute percentage error over the rows of the\n"
           "families it was set from: a grid over the range, then golden section, %d\n"
           "predictions of those rows per fit):\n",
           GP_LOFO_EVALS);
    memset(&t, 0, sizeof t);
    t.ncols = 6;
    for (c = 0; c < 6; c++) {
        t.head[c] = chead[c];
        t.right[c] = c == 1 || c == 4 || c == 5;
    }
    for (i = 0; i < nc; i++) {
        const gp_lofo_const_t *k = gp_lofo_const(l, i);
        const char *cells[MAX_CELLS];
        char sh[32], rg[64], nr[32], ra[32];
        snprintf(sh, sizeof sh, "%g", k->shipped);
        lofo_range(k, rg, sizeof rg);
        snprintf(nr, sizeof nr, "%u", k->fit_rows);
        snprintf(ra, sizeof ra, !k->fit_rows ? "-" : k->refit_all_flat ? "flat" : "%.3g",
                 k->refit_all);
        cells[0] = k->name;
        cells[1] = sh;
        cells[2] = rg;
        cells[3] = k->families;
        cells[4] = nr;
        cells[5] = ra;
        ttab_add(&t, cells);
    }
    ttab_print(&t, "  ");
    ttab_free(&t);

    printf("\nper family left out (independent rows, mean absolute percentage error with\n"
           "the shipped constants and with those refitted without the family):\n");
    memset(&t, 0, sizeof t);
    t.ncols = 6;
    for (c = 0; c < 6; c++) {
        t.head[c] = fhead[c];
        t.right[c] = c >= 1 && c <= 4;
        t.cap[c] = c == 5 ? 60 : 0;
    }
    for (i = 0; i < gp_lofo_family_count(l); i++) {
        const gp_lofo_family_t *f = gp_lofo_family(l, i);
        const char *cells[MAX_CELLS];
        char nr[32], ms[32], ml[32], ch[32], vals[1024];
        size_t len = 0;
        snprintf(nr, sizeof nr, "%u", f->predicted);
        snprintf(ms, sizeof ms, "%.1f%%", f->mape_shipped_pct);
        snprintf(ml, sizeof ml, "%.1f%%", f->mape_lofo_pct);
        snprintf(ch, sizeof ch, f->refitted ? "%+.1f" : "0", f->mape_lofo_pct - f->mape_shipped_pct);
        vals[0] = '\0';
        for (c = 0; c < nc && f->how[c] == GP_LOFO_SHIPPED; c++)
            ;
        if (c == nc) {
            snprintf(vals, sizeof vals, "shipped (none set from it)");
            kept++;
        }
        for (c = 0; c < nc; c++) {
            int w;
            if (f->how[c] == GP_LOFO_SHIPPED)
                continue;
            if (f->how[c] == GP_LOFO_FLAT)
                w = snprintf(vals + len, sizeof vals - len, "%s%s flat on %u rows: shipped",
                             len ? "; " : "", gp_lofo_const(l, c)->name, f->fit_rows[c]);
            else
                w = snprintf(vals + len, sizeof vals - len, "%s%s=%.3g (%u rows%s)",
                             len ? "; " : "", gp_lofo_const(l, c)->name, f->values[c],
                             f->fit_rows[c],
                             f->how[c] == GP_LOFO_REFIT_OTHERS ? " of every other family" : "");
            if (w > 0 && (size_t)w < sizeof vals - len)
                len += (size_t)w;
        }
        cells[0] = f->family;
        cells[1] = nr;
        cells[2] = ms;
        cells[3] = ml;
        cells[4] = ch;
        cells[5] = vals;
        ttab_add(&t, cells);
    }
    ttab_print(&t, "  ");
    ttab_free(&t);
    printf("\noverall: %u rows, %u predicted, mean absolute error %.1f%% shipped, %.1f%% with "
           "each family left out; %u and %u within 2x\n",
           all->rows, all->predicted, all->mape_shipped_pct, all->mape_lofo_pct,
           all->within_2x_shipped, all->within_2x_lofo);
    printf("%u families no constant was set from keep the shipped constants: their numbers\n"
           "are identical by construction. A constant whose only family is left out is\n"
           "refitted on every other family's rows; one whose fitting rows give the same\n"
           "error at every value tried (flat) cannot be set by them and stays shipped.\n",
           kept);
}

/* A family's leave-one-family-out figures as JSON. */
static cJSON *lofo_family_json(const gp_lofo_t *l, const gp_lofo_family_t *f)
{
    static const char *const how[] = {"shipped", "refit", "refit_on_other_families", "flat"};
    cJSON *j = cJSON_CreateObject(), *cs;
    size_t c;
    if (f->family)
        cJSON_AddStringToObject(j, "family", f->family);
    cJSON_AddNumberToObject(j, "rows", f->rows);
    cJSON_AddNumberToObject(j, "predicted", f->predicted);
    cJSON_AddNumberToObject(j, "mape_shipped_pct", f->mape_shipped_pct);
    cJSON_AddNumberToObject(j, "mape_left_out_pct", f->mape_lofo_pct);
    cJSON_AddNumberToObject(j, "within_2x_shipped", f->within_2x_shipped);
    cJSON_AddNumberToObject(j, "within_2x_left_out", f->within_2x_lofo);
    if (!f->values)
        return j;
    cJSON_AddBoolToObject(j, "refitted", f->refitted);
    cs = cJSON_AddObjectToObject(j, "constants");
    for (c = 0; c < gp_lofo_const_count(l); c++) {
        cJSON *k = cJSON_CreateObject();
        cJSON_AddNumberToObject(k, "value", f->values[c]);
        cJSON_AddStringToObject(k, "how", how[f->how[c]]);
        cJSON_AddNumberToObject(k, "fit_rows", f->fit_rows[c]);
        cJSON_AddItemToObject(cs, gp_lofo_const(l, c)->name, k);
    }
    return j;
}

/* The leave-one-family-out report as JSON. */
static cJSON *lofo_json(const vtab_t *v, const gp_lofo_t *l)
{
    cJSON *doc = cJSON_CreateObject(), *cs, *fs;
    size_t i;
    cJSON_AddStringToObject(doc, "table", v->path);
    cJSON_AddStringToObject(doc, "set", v->set);
    cJSON_AddStringToObject(doc, "report", "leave_one_family_out");
    cJSON_AddNumberToObject(doc, "evaluations_per_fit", GP_LOFO_EVALS);
    cs = cJSON_AddArrayToObject(doc, "constants");
    for (i = 0; i < gp_lofo_const_count(l); i++) {
        const gp_lofo_const_t *k = gp_lofo_const(l, i);
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", k->name);
        cJSON_AddNumberToObject(j, "shipped", k->shipped);
        cJSON_AddNumberToObject(j, "lo", k->lo);
        cJSON_AddNumberToObject(j, "hi", k->hi);
        cJSON_AddBoolToObject(j, "log_scale", k->log_scale);
        cJSON_AddStringToObject(j, "families", k->families);
        cJSON_AddStringToObject(j, "rows", k->rows);
        cJSON_AddNumberToObject(j, "fit_rows", k->fit_rows);
        if (k->fit_rows)
            cJSON_AddNumberToObject(j, "refit_all", k->refit_all);
        else
            cJSON_AddNullToObject(j, "refit_all");
        cJSON_AddBoolToObject(j, "refit_all_flat", k->refit_all_flat);
        cJSON_AddItemToArray(cs, j);
    }
    fs = cJSON_AddArrayToObject(doc, "families");
    for (i = 0; i < gp_lofo_family_count(l); i++)
        cJSON_AddItemToArray(fs, lofo_family_json(l, gp_lofo_family(l, i)));
    cJSON_AddItemToObject(doc, "overall", lofo_family_json(l, gp_lofo_overall(l)));
    return doc;
}

/* ------------------------------------------------------------ command */

/* Parse a number option >= 0; -1 after reporting. */
static int number(const char *opt, const char *text, double *out)
{
    gp_error_t err;
    double v;
    if (gp_number_parse(text, &v, &err)) {
        fail(EXIT_USAGE, "%s: %s", opt, err.msg);
        return -1;
    }
    if (!(v >= 0)) {
        fail(EXIT_USAGE, "%s %s: expected a number >= 0", opt, text);
        return -1;
    }
    *out = v;
    return 0;
}

/* Parse the command line into o; the tables are argv[*first..argc). */
static int parse(int argc, char **argv, vopts_t *o, int *first)
{
    static const struct option opts[] = {
        {"json", no_argument, 0, 'j'},
        {"max-mape", required_argument, 0, 'm'},
        {"max-ratio", required_argument, 0, 'r'},
        {"min-within-2x", required_argument, 0, 'w'},
        {"min-within", required_argument, 0, 'W'},
        {"check-order", no_argument, 0, 'o'},
        {"max-order-errors", required_argument, 0, 'e'},
        {"order-tolerance", required_argument, 0, 't'},
        {"family", required_argument, 0, 'f'},
        {"source", required_argument, 0, 's'},
        {"set", required_argument, 0, 'S'},
        {"budget", required_argument, 0, 'b'},
        {"memory-cap", required_argument, 0, 'M'},
        {"leave-one-family-out", no_argument, 0, 'L'},
        {0, 0, 0, 0}};
    double v;
    int c;
    memset(o, 0, sizeof *o);
    o->max_mape = o->max_ratio = o->min_within_2x = -1;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case 'j': o->json = 1; break;
        case 'o': o->check_order = 1; break;
        case 'L': o->lofo = 1; break;
        case 'f': o->score.family = optarg; break;
        case 's': o->score.source = optarg; break;
        case 'S':
            if (o->n_sets == MAX_TABLES)
                return fail(EXIT_USAGE, "--set: at most %d", MAX_TABLES);
            o->sets[o->n_sets++] = optarg;
            break;
        case 'm':
            if (number("--max-mape", optarg, &o->max_mape))
                return EXIT_USAGE;
            break;
        case 'r':
            if (number("--max-ratio", optarg, &o->max_ratio))
                return EXIT_USAGE;
            if (o->max_ratio < 1)
                return fail(EXIT_USAGE, "--max-ratio %s: a factor >= 1 (2: within 2x)", optarg);
            break;
        case 't':
            if (number("--order-tolerance", optarg, &o->score.order_tolerance_pct))
                return EXIT_USAGE;
            break;
        case 'w':
            if (number("--min-within-2x", optarg, &o->min_within_2x))
                return EXIT_USAGE;
            if (o->min_within_2x > 1)
                return fail(EXIT_USAGE, "--min-within-2x %s: a fraction of rows, 0..1 (0.95: "
                            "95%% of rows)", optarg);
            break;
        case 'W': {
            char buf[64], *colon;
            snprintf(buf, sizeof buf, "%s", optarg);
            colon = strchr(buf, ':');
            if (!colon)
                return fail(EXIT_USAGE, "--min-within %s: write FACTOR:FRACTION, e.g. 1.5:0.95 "
                            "(95%% of rows within 1.5x)", optarg);
            *colon = '\0';
            if (number("--min-within FACTOR", buf, &o->within_factor) ||
                number("--min-within FRACTION", colon + 1, &o->min_within))
                return EXIT_USAGE;
            if (o->within_factor < 1 || o->min_within > 1)
                return fail(EXIT_USAGE, "--min-within %s: FACTOR >= 1 and FRACTION 0..1, e.g. "
                            "1.5:0.95", optarg);
            break;
        }
        case 'e':
            if (number("--max-order-errors", optarg, &v))
                return EXIT_USAGE;
            if (v != floor(v) || v > 1e6)
                return fail(EXIT_USAGE, "--max-order-errors %s: a whole number", optarg);
            o->max_order_errors = (int)v;
            o->check_order = 1;
            break;
        case 'b':
        case 'M':
            if (number(c == 'b' ? "--budget" : "--memory-cap", optarg, &v))
                return EXIT_USAGE;
            if (v != floor(v) || v > 1.8e19 || (c == 'M' && (v < 1 || v > 1048576)))
                return fail(EXIT_USAGE, "%s %s: %s", c == 'b' ? "--budget" : "--memory-cap",
                            optarg, c == 'b' ? "a whole number of VM instructions"
                                             : "MiB, 1..1048576");
            if (c == 'b')
                o->score.instruction_budget = (uint64_t)v;
            else
                o->score.memory_cap_bytes = (uint64_t)v << 20;
            break;
        case ':':
            return fail(EXIT_USAGE, "%s needs a value", argv[optind - 1]);
        default:
            return fail(EXIT_USAGE, "unknown option '%s' (see gpuperf validate --help)",
                        argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return fail(EXIT_USAGE, "give one or more tables, e.g. gpuperf validate "
                    "validation/h200/calibration.csv");
    if (argc - optind > MAX_TABLES)
        return fail(EXIT_USAGE, "at most %d tables in one run", MAX_TABLES);
    if (o->n_sets > argc - optind)
        return fail(EXIT_USAGE, "%d --set labels for %d tables: give one per table, in order",
                    o->n_sets, argc - optind);
    if (o->lofo && (o->max_mape >= 0 || o->max_ratio >= 0 || o->min_within_2x >= 0 ||
                    o->within_factor > 0 || o->check_order))
        return fail(EXIT_USAGE, "--leave-one-family-out reports how much each family's "
                    "rows owe to the constants fitted on them; the thresholds (--max-mape, "
                    "--max-ratio, --min-within-2x, --min-within, --check-order) apply to the "
                    "ordinary report: run them without --leave-one-family-out");
    *first = optind;
    return 0;
}

/* The set label of table i: --set, or the file's base name without .csv. */
static void set_label(const vopts_t *o, int i, const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    size_t len;
    if (i < o->n_sets) {
        snprintf(out, size, "%s", o->sets[i]);
        return;
    }
    snprintf(out, size, "%s", base ? base + 1 : path);
    len = strlen(out);
    if (len > 4 && strcmp(out + len - 4, ".csv") == 0)
        out[len - 4] = '\0';
}

int gp_cmd_validate(int argc, char **argv)
{
    vopts_t o;
    vtab_t tabs[MAX_TABLES];
    gp_error_t err;
    int first = 0, n, i, rc = parse(argc, argv, &o, &first);
    cJSON *all = NULL;
    if (rc)
        return rc;
    n = argc - first;
    memset(tabs, 0, sizeof tabs);
    for (i = 0; i < n; i++) {
        tabs[i].path = argv[first + i];
        set_label(&o, i, tabs[i].path, tabs[i].set, sizeof tabs[i].set);
        if (gp_table_read(tabs[i].path, &tabs[i].t, &err)) {
            rc = fail(EXIT_FAIL, "%s", err.msg);
            goto out;
        }
    }
    if (o.json && n > 1)
        all = cJSON_CreateObject();
    for (i = 0; i < n; i++) {
        vtab_t *v = &tabs[i];
        size_t r;
        if (gp_score_table(v->t, &o.score, &v->s, &err)) {
            rc = fail(EXIT_FAIL, "%s", err.msg);
            goto out;
        }
        for (r = 0; r < gp_score_count(v->s); r++)
            if (!gp_score_row(v->s, r)->ok)
                rc = fail(EXIT_FAIL, "%s", gp_score_row(v->s, r)->error);
        if (o.lofo) {
            gp_lofo_t *l;
            cJSON *doc;
            if (gp_lofo_run(v->t, &o.score, &l, &err)) {
                rc = fail(EXIT_FAIL, "%s", err.msg);
                goto out;
            }
            if (!o.json) {
                printf("%s", i ? "\n" : "");
                lofo_text(v, l);
                gp_lofo_free(l);
                continue;
            }
            doc = lofo_json(v, l);
            gp_lofo_free(l);
            if (all)
                cJSON_AddItemToArray(cJSON_GetObjectItem(all, "tables")
                                         ? cJSON_GetObjectItem(all, "tables")
                                         : cJSON_AddArrayToObject(all, "tables"),
                                     doc);
            else
                all = doc;
        } else if (o.json) {
            cJSON *doc = table_json(v, &o);
            if (all)
                cJSON_AddItemToArray(cJSON_GetObjectItem(all, "tables")
                                         ? cJSON_GetObjectItem(all, "tables")
                                         : cJSON_AddArrayToObject(all, "tables"),
                                     doc);
            else
                all = doc;
        } else {
            if (n > 1)
                printf("%s== %s: %s (%zu rows)\n\n", i ? "\n" : "", v->set, v->path,
                       gp_score_count(v->s));
            if (gp_table_form(v->t) == GP_TABLE_TIMES)
                times_text(v, &o);
            else
                speedups_text(v, &o);
        }
    }
    if (!o.json && n > 1 && !o.lofo) {
        int w = 0;
        for (i = 0; i < n; i++)
            w = GP_MAX_INT(w, (int)strlen(tabs[i].set));
        printf("\n== tables (headline: independent rows)\n");
        for (i = 0; i < n; i++) {
            gp_score_stats_t st;
            char line[256];
            stats(&tabs[i], &o, GP_SCORE_HEADLINE, NULL, &st);
            stats_text(line, sizeof line, &st, &o,
                       gp_table_form(tabs[i].t) == GP_TABLE_SPEEDUPS);
            printf("  %-*s  %s\n", w, tabs[i].set, line);
        }
    }
    if (all)
        print_json(all);
    for (i = 0; i < n; i++)
        if (gates(&tabs[i], &o))
            rc = EXIT_FAIL;
out:
    cJSON_Delete(all);
    for (i = 0; i < n; i++) {
        gp_score_free(tabs[i].s);
        gp_table_free(tabs[i].t);
    }
    return rc;
}

void gp_help_validate(FILE *out)
{
    fprintf(out,
            "usage: gpuperf validate TABLE.csv [TABLE.csv ...] [--set LABEL ...] [--json]\n"
            "                        [--max-mape PCT] [--max-ratio R] [--min-within-2x FRAC]\n"
            "                        [--min-within FACTOR:FRAC] [--check-order]\n"
            "                        [--max-order-errors N] [--order-tolerance PCT]\n"
            "                        [--family F] [--source TEXT] [--budget N]\n"
            "                        [--memory-cap MIB]\n"
            "       gpuperf validate --leave-one-family-out TABLE.csv [--json] [--family F]\n"
            "                        [--source TEXT]\n\n"
            "Predicts every row of one or more validation tables and compares it with the\n"
            "measured figure: per row the device, what was measured, the measured and\n"
            "predicted microseconds, the error and what bounds the kernel; then the mean\n"
            "absolute percentage error per family and per kind, the worst rows, sweeps\n"
            "predicted in the wrong order, and the headline: the table's independent rows.\n"
            "It is how you check the model against your own GPU: time your kernels,\n"
            "describe each in a script, list them in a table, and run this.\n\n"
            "A times table is CSV with a header naming at least these columns:\n"
            "  device         device name or .ini path; NAME*N is N identical GPUs\n"
            "  family, name, params   what the row is (free text; rows of one device, family\n"
            "                 and name form a sweep whose order is checked)\n"
            "  script         workload script, relative to the table's folder or an ancestor\n"
            "  script_params  space-separated key=value pairs passed as -p\n"
            "  measured_us    the measured time in microseconds\n"
            "optional: divide_by (the prediction's total is divided by it, for per-launch\n"
            "figures of a script that launches many times), source (where the number came\n"
            "from) and kind:\n"
            "  independent    same card, conditions as measured, not an input of the device\n"
            "                 file (also an empty or absent kind)\n"
            "  scaled         moved from another card or clock\n"
            "  consistency    restates a device-file input: reported apart, never in the\n"
            "                 headline\n"
            "Lines starting with # are comments, blank lines are skipped, every row has\n"
            "as many fields as the header; a field with a comma, a quote or a line break is\n"
            "quoted (\"a, \"\"b\"\"\"), and a quote anywhere else is an error. For example:\n\n"
            "  device,family,name,params,script,script_params,measured_us\n"
            "  h200-sxm,stream,copy,n=2^22,scripts/validation/stream.lua,kernel=copy n=2^22,16.256\n\n"
            "A speedup table (recognised by its header) holds one kernel timed on two GPUs:\n"
            "  name,script,old_device,old_params,old_measured_us,new_device,new_params,\n"
            "  new_measured_us,source   (optional family, kind)\n"
            "and is reported as measured speedup old/new against predicted, the error of\n"
            "the speedup, and whether the prediction puts it on the same side of 1x.\n\n"
            "Several tables are reported one after the other, then one headline line each;\n"
            "--set names them in order (default: the file name, e.g. calibration, evaluation).\n\n"
            "Thresholds for CI apply to each table's headline (independent) rows; one that\n"
            "fails makes the exit status 1 and says which table and by how much:\n"
            "  --max-mape PCT       mean absolute error (of speedups, for a speedup table)\n"
            "                       at most PCT percent\n"
            "  --max-ratio R        no row off by more than a factor R\n"
            "  --min-within-2x F    at least a fraction F of rows within 2x (0.95: 95%%)\n"
            "  --min-within X:F     at least a fraction F of rows within a factor X\n"
            "                       (1.5:0.95: 95%% of rows within 1.5x)\n"
            "  --check-order        no sweep predicted in the wrong order (speedup tables: no\n"
            "                       speedup on the wrong side of 1x)\n"
            "  --max-order-errors N implies --check-order, tolerating N\n"
            "  --order-tolerance P  measured times within P%% count as ties (default 3)\n\n"
            "  --json               one JSON document per table (rows, families, kinds,\n"
            "                       order_errors, overall, headline); several tables:\n"
            "                       {\"tables\": [...]}\n"
            "  --family F           only the rows of family F\n"
            "  --source TEXT        only the rows whose source column contains TEXT\n"
            "  --budget N, --memory-cap MIB   limits of each row's script, as for predict\n\n"
            "Leave one family out (--leave-one-family-out): a few model constants were set\n"
            "from rows of the H200 calibration table (core/src/constants.h names the\n"
            "families). How much does the model owe them? For each family F of a times\n"
            "table, every constant set from F is refitted without F (the value in its\n"
            "range with the least mean absolute error over the rows of its other families;\n"
            "every other family's rows when F was its only one), the other constants keep\n"
            "their shipped values, and F's rows are predicted again. Per family: rows,\n"
            "error with the shipped constants, error with F left out, the refitted values;\n"
            "then the constants (shipped value, range, families, the value refitted on all\n"
            "of them) and every row together. Families no constant was set from are\n"
            "predicted with the shipped constants, so their numbers are identical. A\n"
            "constant whose fitting rows give the same error at every value tried is\n"
            "'flat': those rows cannot set it, and it stays shipped. The refitted values\n"
            "live only inside the run; nothing else (device files, scripts) can change\n"
            "these constants. Each fit predicts its rows %d times; the thresholds do not\n"
            "apply (run them without it). Independent rows only; --family F leaves out F\n"
            "alone; --json: {constants, families, overall}.\n\n"
            "Exit status: 0; 1 when a threshold fails or a row cannot be predicted (the row\n"
            "is reported and the others still run); 2 for a bad command line.\n\n"
            "examples:\n"
            "  gpuperf validate validation/h200/calibration.csv --max-mape 5 --max-ratio 2\n"
            "  gpuperf validate validation/published/*.csv --min-within 1.5:0.9\n"
            "  gpuperf validate validation/cross-generation.csv --check-order\n"
            "  gpuperf validate my-gpu.csv --family stream --check-order --json\n"
            "  gpuperf validate --leave-one-family-out validation/h200/calibration.csv\n",
            GP_LOFO_EVALS);
}
