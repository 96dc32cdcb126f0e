/*
 * validate.c - validation tables: read (libcsv), check, predict every row,
 * score predicted against measured (see gpuperf/gpuperf.h for the forms).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "validate.h"

#include "csvfile.h"
#include "fitted.h"
#include "paths.h"
#include "util.h"
#include "workload.h"

/* Columns of the two forms. */
enum {
    C_DEVICE, C_FAMILY, C_NAME, C_PARAMS, C_SCRIPT, C_SPARAMS, C_MEASURED, C_DIVIDE, C_SOURCE,
    C_KIND, C_OLD_DEVICE, C_OLD_PARAMS, C_OLD_MEASURED, C_NEW_DEVICE, C_NEW_PARAMS,
    C_NEW_MEASURED, C_COUNT
};
static const char *const COLS[C_COUNT] = {
    "device",     "family",          "name",       "params",     "script",
    "script_params", "measured_us",  "divide_by",  "source",     "kind",
    "old_device", "old_params",      "old_measured_us", "new_device", "new_params",
    "new_measured_us"};
/* Required columns per form, ending in -1. */
static const int REQ_TIMES[] = {C_DEVICE, C_FAMILY, C_NAME, C_PARAMS, C_SCRIPT, C_SPARAMS,
                                C_MEASURED, -1};
static const int REQ_SPEEDUPS[] = {C_NAME, C_SCRIPT, C_OLD_DEVICE, C_OLD_PARAMS, C_OLD_MEASURED,
                                   C_NEW_DEVICE, C_NEW_PARAMS, C_NEW_MEASURED, C_SOURCE, -1};

struct gp_table {
    char path[GP_PATH_MAX];
    gp_table_form_t form;
    int col[C_COUNT];
    gp_csv_t recs;
    gp_table_row_t *rows;
    char **script_paths; /* one per row, owned */
    size_t n;
};

/* Pairs of wrongly ordered sweep rows. */
typedef struct pair {
    size_t fast, slow;
} pair_t;

struct gp_score {
    const gp_table_t *t;
    gp_score_row_t *rows;
    size_t n;
    pair_t *pairs;
    size_t n_pairs;
};

static const char *const KINDS[GP_KIND_COUNT] = {"independent", "scaled", "consistency"};

GP_API int gp_number_parse(const char *text, double *out, gp_error_t *err)
{
    gp_err_t e;
    if (gp_parse_number(text, out, &e)) {
        if (err)
            gp_strlcpy(err->msg, e.msg, sizeof err->msg);
        return -1;
    }
    return 0;
}

GP_API const char *gp_row_kind_name(gp_row_kind_t kind)
{
    return (unsigned)kind < GP_KIND_COUNT ? KINDS[kind] : "?";
}

/* ------------------------------------------------------------ reading */

/* Find a script: as given, or relative to the table's folder and its
   ancestors (tables name scripts from the project root). */
static int find_script(const char *table, const char *script, char *out, size_t size)
{
    struct stat st;
    char dir[GP_PATH_MAX];
    int up;
    if (!*script)
        return -1;
    if (stat(script, &st) == 0 && S_ISREG(st.st_mode))
        return gp_strlcpy(out, script, size);
    if (script[0] == '/')
        return -1;
    gp_strlcpy(dir, table, sizeof dir);
    for (up = 0; up < 6; up++) {
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        else
            strcpy(dir, ".");
        if (gp_snprintf(out, size, "%s/%s", dir, script) == 0 && stat(out, &st) == 0 &&
            S_ISREG(st.st_mode))
            return 0;
        if (!slash)
            break;
    }
    return -1;
}

/* Field c of record r, "" when the column is absent (every record is as
   wide as the header: csvfile.h). */
static const char *field(const gp_table_t *t, const gp_csv_rec_t *r, int c)
{
    return t->col[c] >= 0 ? r->f[t->col[c]] : "";
}

/* A positive number in column c of record r, or an error naming it. */
static int positive(const gp_table_t *t, const gp_csv_rec_t *r, int c, double *out, gp_err_t *err)
{
    gp_err_t e;
    const char *s = field(t, r, c);
    if (gp_parse_number(s, out, &e) || !(*out > 0))
        return gp_err_set(err, "%s:%ld: %s '%s' is not a positive number", t->path, r->line,
                          COLS[c], s);
    return 0;
}

/* Check the header and find the columns. */
static int read_header(gp_table_t *t, gp_err_t *err)
{
    const gp_csv_rec_t *h = &t->recs.r[0];
    const int *req;
    int i, j;
    for (i = 0; i < C_COUNT; i++) {
        t->col[i] = -1;
        for (j = 0; j < h->nf; j++)
            if (strcmp(h->f[j], COLS[i]) == 0) {
                if (t->col[i] >= 0)
                    return gp_err_set(err, "%s:%ld: column '%s' appears twice", t->path,
                                      h->line, COLS[i]);
                t->col[i] = j;
            }
    }
    t->form = t->col[C_OLD_DEVICE] >= 0 || t->col[C_NEW_DEVICE] >= 0 ? GP_TABLE_SPEEDUPS
                                                                      : GP_TABLE_TIMES;
    req = t->form == GP_TABLE_SPEEDUPS ? REQ_SPEEDUPS : REQ_TIMES;
    for (i = 0; req[i] >= 0; i++)
        if (t->col[req[i]] < 0)
            return gp_err_set(
                err, "%s:%ld: the header lacks column '%s' (%s)", t->path, h->line,
                COLS[req[i]],
                t->form == GP_TABLE_SPEEDUPS
                    ? "a speedup table has name, script, old_device, old_params, "
                      "old_measured_us, new_device, new_params, new_measured_us, source; "
                      "optional family, kind"
                    : "needs device, family, name, params, script, script_params, "
                      "measured_us; optional divide_by, source, kind");
    return 0;
}

/* Fill rows[i] from record r. */
static int read_row(gp_table_t *t, const gp_csv_rec_t *r, size_t i, gp_err_t *err)
{
    gp_table_row_t *row = &t->rows[i];
    char path[GP_PATH_MAX];
    const char *kind;
    int k;
    memset(row, 0, sizeof *row);
    row->line = r->line;
    row->family = field(t, r, C_FAMILY);
    row->name = field(t, r, C_NAME);
    row->params = field(t, r, C_PARAMS);
    row->source = field(t, r, C_SOURCE);
    row->script = field(t, r, C_SCRIPT);
    row->device = field(t, r, C_DEVICE);
    row->script_params = field(t, r, C_SPARAMS);
    row->old_device = field(t, r, C_OLD_DEVICE);
    row->old_params = field(t, r, C_OLD_PARAMS);
    row->new_device = field(t, r, C_NEW_DEVICE);
    row->new_params = field(t, r, C_NEW_PARAMS);
    row->divide_by = 1;
    kind = field(t, r, C_KIND);
    row->kind = GP_KIND_INDEPENDENT;
    if (*kind) {
        for (k = 0; k < GP_KIND_COUNT && strcmp(kind, KINDS[k]); k++)
            ;
        if (k == GP_KIND_COUNT)
            return gp_err_set(err, "%s:%ld: kind '%s': write independent, scaled or "
                              "consistency (empty: independent)",
                              t->path, r->line, kind);
        row->kind = (gp_row_kind_t)k;
    }
    if (t->form == GP_TABLE_TIMES) {
        if (positive(t, r, C_MEASURED, &row->measured_us, err))
            return -1;
        if (*field(t, r, C_DIVIDE) && positive(t, r, C_DIVIDE, &row->divide_by, err))
            return -1;
    } else if (positive(t, r, C_OLD_MEASURED, &row->old_measured_us, err) ||
               positive(t, r, C_NEW_MEASURED, &row->new_measured_us, err)) {
        return -1;
    }
    if (find_script(t->path, row->script, path, sizeof path))
        path[0] = '\0';
    t->script_paths[i] = strdup(path);
    if (!t->script_paths[i])
        return gp_err_set(err, "out of memory");
    row->script_path = t->script_paths[i];
    return 0;
}

GP_API int gp_table_read(const char *path, gp_table_t **out, gp_error_t *errp)
{
    gp_table_t *t;
    gp_err_t err;
    size_t i;
    *out = NULL;
    t = calloc(1, sizeof *t);
    if (!t || gp_strlcpy(t->path, path, sizeof t->path)) {
        free(t);
        gp_err_set(&err, "%s: out of memory or path too long", path);
        goto fail_msg;
    }
    if (gp_csv_read(path, GP_TABLE_MAX_ROWS + 1, &t->recs, &err))
        goto fail;
    if (t->recs.n < 1) {
        gp_err_set(&err, "%s: empty table (no header line)", path);
        goto fail;
    }
    if (read_header(t, &err))
        goto fail;
    t->n = (size_t)t->recs.n - 1;
    t->rows = calloc(t->n ? t->n : 1, sizeof *t->rows);
    t->script_paths = calloc(t->n ? t->n : 1, sizeof *t->script_paths);
    if (!t->rows || !t->script_paths) {
        gp_err_set(&err, "%s: out of memory", path);
        goto fail;
    }
    for (i = 0; i < t->n; i++)
        if (read_row(t, &t->recs.r[i + 1], i, &err))
            goto fail;
    *out = t;
    return 0;
fail:
    gp_table_free(t);
fail_msg:
    if (errp)
        gp_strlcpy(errp->msg, err.msg, sizeof errp->msg);
    return -1;
}

GP_API void gp_table_free(gp_table_t *t)
{
    size_t i;
    if (!t)
        return;
    for (i = 0; t->script_paths && i < t->n; i++)
        free(t->script_paths[i]);
    free(t->script_paths);
    free(t->rows);
    gp_csv_free(&t->recs);
    free(t);
}

GP_API gp_table_form_t gp_table_form(const gp_table_t *t)
{
    return t->form;
}

GP_API const char *gp_table_path(const gp_table_t *t)
{
    return t->path;
}

GP_API int gp_table_has_kind(const gp_table_t *t)
{
    return t->col[C_KIND] >= 0;
}

GP_API size_t gp_table_count(const gp_table_t *t)
{
    return t->n;
}

GP_API int gp_table_row(const gp_table_t *t, size_t i, gp_table_row_t *out)
{
    if (i >= t->n) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    *out = t->rows[i];
    return 0;
}

/* ------------------------------------------------------------ scoring */

int gp_validate_device_spec(const char *spec, char *name, size_t size, unsigned *count,
                            gp_error_t *err)
{
    const char *star = strrchr(spec, '*');
    gp_err_t e;
    double n;
    *count = 0;
    if (!star) {
        if (!gp_strlcpy(name, spec, size))
            return 0;
        if (err)
            gp_snprintf(err->msg, sizeof err->msg, "device '%s': name too long", spec);
        return -1;
    }
    if (star == spec || (size_t)(star - spec) >= size || gp_parse_number(star + 1, &n, &e) ||
        n != floor(n) || n < 1 || n > GP_WL_MAX_DEVICES) {
        if (err)
            gp_snprintf(err->msg, sizeof err->msg,
                     "device '%s': write NAME or NAME*N with N identical GPUs, 1..%d", spec,
                     GP_WL_MAX_DEVICES);
        return -1;
    }
    memcpy(name, spec, (size_t)(star - spec));
    name[star - spec] = '\0';
    *count = (unsigned)n;
    return 0;
}

int gp_validate_split_params(char *text, gp_param_t *out, int max)
{
    char *save = NULL, *tok;
    int n = 0;
    for (tok = strtok_r(text, " \t;", &save); tok; tok = strtok_r(NULL, " \t;", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok || n >= max)
            return -1;
        *eq = '\0';
        out[n].key = tok;
        out[n].value = eq + 1;
        n++;
    }
    return n;
}

/* Predict `script` (found at script_path) with params on the device spec;
   the total and the bound of the longest command. */
static int predict(const gp_table_row_t *row, const char *spec, const char *params,
                   const char *params_col, const gp_score_opts_t *o, double *total_us, const char **bound,
                   gp_error_t *err)
{
    char name[GP_PATH_MAX], text[GP_CSV_MAX_FIELD + 1];
    gp_param_t kv[32];
    gp_run_opts_t ro;
    gp_gpu_t *gpu;
    gp_run_t *run;
    size_t i, best = 0;
    int n, rc;
    gp_strlcpy(text, params, sizeof text);
    n = gp_validate_split_params(text, kv, (int)GP_ARRAY_LEN(kv));
    if (n < 0) {
        gp_snprintf(err->msg, sizeof err->msg,
                 "%s '%s': write space-separated key=value pairs (at most %d)", params_col,
                 params, (int)GP_ARRAY_LEN(kv));
        return -1;
    }
    if (!*row->script_path) {
        gp_snprintf(err->msg, sizeof err->msg,
                 "script '%s' not found (relative to the table or the current folder)",
                 row->script);
        return -1;
    }
    memset(&ro, 0, sizeof ro);
    ro.instruction_budget = o->instruction_budget;
    ro.memory_cap_bytes = o->memory_cap_bytes;
    if (gp_validate_device_spec(spec, name, sizeof name, &ro.gpus, err) ||
        gp_gpu_open(name, &gpu, err))
        return -1;
    rc = gp_run_script(gpu, row->script_path, kv, (size_t)n, &ro, &run, err);
    gp_gpu_close(gpu);
    if (rc)
        return -1;
    *total_us = gp_run_total_us(run);
    *bound = "";
    for (i = 1; i < gp_run_count(run); i++) {
        gp_run_cmd_t a, b;
        gp_run_cmd(run, i, &a);
        gp_run_cmd(run, best, &b);
        if (a.time_us > b.time_us)
            best = i;
    }
    if (gp_run_count(run)) {
        gp_run_cmd_t c;
        gp_run_cmd(run, best, &c);
        /* bound names are static strings; "copy" for a copy */
        *bound = strcmp(c.type, "copy") == 0 ? "copy" : c.bound;
    }
    gp_run_free(run);
    if (!(*total_us > 0)) {
        gp_snprintf(err->msg, sizeof err->msg,
                 "the script launches and copies nothing (predicted %g us); check %s",
                 *total_us, params_col);
        return -1;
    }
    return 0;
}

/* Predicted against measured: error and ratio. */
static void compare(gp_score_row_t *s)
{
    s->error_pct = (s->predicted - s->measured) / s->measured * 100;
    s->ratio = s->predicted > s->measured ? s->predicted / s->measured
                                          : s->measured / s->predicted;
    s->ok = 1;
}

/* Score one row of either form. */
static void score_row(const gp_table_t *t, const gp_score_opts_t *o, gp_score_row_t *s)
{
    gp_error_t e;
    const char *bound = "";
    s->bound = "";
    if (t->form == GP_TABLE_TIMES) {
        double total;
        s->measured = s->row.measured_us;
        if (predict(&s->row, s->row.device, s->row.script_params, "script_params", o, &total, &bound, &e))
            goto fail;
        s->predicted = total / s->row.divide_by;
        s->bound = bound;
        compare(s);
        return;
    }
    s->measured = s->row.old_measured_us / s->row.new_measured_us;
    if (predict(&s->row, s->row.old_device, s->row.old_params, "old_params", o, &s->old_predicted_us, &bound,
                &e)) {
        gp_snprintf(s->error, sizeof s->error, "%s:%ld: old_device %s: %s", t->path, s->row.line,
                 s->row.old_device, e.msg);
        return;
    }
    if (predict(&s->row, s->row.new_device, s->row.new_params, "new_params", o, &s->new_predicted_us, &bound,
                &e)) {
        gp_snprintf(s->error, sizeof s->error, "%s:%ld: new_device %s: %s", t->path, s->row.line,
                 s->row.new_device, e.msg);
        return;
    }
    s->predicted = s->old_predicted_us / s->new_predicted_us;
    s->order_ok = (s->predicted > 1) == (s->measured > 1);
    compare(s);
    return;
fail:
    gp_snprintf(s->error, sizeof s->error, "%s:%ld: %s", t->path, s->row.line, e.msg);
}

/* Wrongly ordered pairs of sweep rows (times tables): rows of one device,
   family and name whose measured times differ by more than the tolerance
   must be predicted in the same order. */
static int find_pairs(gp_score_t *s, double tol_pct)
{
    size_t i, j, cap = 0;
    for (i = 0; i < s->n; i++)
        for (j = i + 1; j < s->n; j++) {
            const gp_score_row_t *a = &s->rows[i], *b = &s->rows[j];
            double dm, dp;
            if (!a->ok || !b->ok || strcmp(a->row.device, b->row.device) ||
                strcmp(a->row.family, b->row.family) || strcmp(a->row.name, b->row.name))
                continue;
            dm = b->measured - a->measured;
            dp = b->predicted - a->predicted;
            if (fabs(dm) <= tol_pct / 100 * GP_MIN(a->measured, b->measured) ||
                (dm > 0) == (dp > 0))
                continue;
            if (s->n_pairs == cap) {
                size_t ncap = cap ? cap * 2 : 16;
                pair_t *p = realloc(s->pairs, ncap * sizeof *p);
                if (!p)
                    return -1;
                s->pairs = p;
                cap = ncap;
            }
            s->pairs[s->n_pairs].fast = dm > 0 ? i : j;
            s->pairs[s->n_pairs].slow = dm > 0 ? j : i;
            s->n_pairs++;
        }
    return 0;
}

GP_API int gp_score_table(const gp_table_t *t, const gp_score_opts_t *opts, gp_score_t **out,
                          gp_error_t *err)
{
    gp_score_opts_t o;
    gp_score_t *s;
    size_t i;
    *out = NULL;
    memset(&o, 0, sizeof o);
    if (opts)
        o = *opts;
    if (!(o.order_tolerance_pct > 0))
        o.order_tolerance_pct = 3.0;
    s = calloc(1, sizeof *s);
    if (s)
        s->rows = calloc(t->n ? t->n : 1, sizeof *s->rows);
    if (!s || !s->rows) {
        free(s);
        if (err)
            gp_snprintf(err->msg, sizeof err->msg, "%s: out of memory", t->path);
        return -1;
    }
    s->t = t;
    for (i = 0; i < t->n; i++) {
        const gp_table_row_t *r = &t->rows[i];
        if (o.family && strcmp(r->family, o.family) != 0)
            continue;
        if (o.source && !strstr(r->source, o.source))
            continue;
        s->rows[s->n].row = *r;
        score_row(t, &o, &s->rows[s->n]);
        s->n++;
    }
    if (t->form == GP_TABLE_TIMES && find_pairs(s, o.order_tolerance_pct)) {
        gp_score_free(s);
        if (err)
            gp_snprintf(err->msg, sizeof err->msg, "%s: out of memory", t->path);
        return -1;
    }
    *out = s;
    return 0;
}

GP_API void gp_score_free(gp_score_t *s)
{
    if (!s)
        return;
    free(s->rows);
    free(s->pairs);
    free(s);
}

GP_API size_t gp_score_count(const gp_score_t *s)
{
    return s->n;
}

GP_API const gp_score_row_t *gp_score_row(const gp_score_t *s, size_t i)
{
    return i < s->n ? &s->rows[i] : NULL;
}

/* 1 when row r is in the group f. */
static int selected(const gp_score_row_t *r, const gp_score_filter_t *f)
{
    if (!f)
        return 1;
    if (f->kinds && !((f->kinds >> r->row.kind) & 1))
        return 0;
    return !f->family || strcmp(r->row.family, f->family) == 0;
}

GP_API void gp_score_stats(const gp_score_t *s, const gp_score_filter_t *f,
                           gp_score_stats_t *out)
{
    double sum = 0;
    size_t i;
    memset(out, 0, sizeof *out);
    out->within_factor = f && f->within_factor > 0 ? f->within_factor : 2.0;
    out->worst_ratio = 1;
    for (i = 0; i < s->n; i++) {
        const gp_score_row_t *r = &s->rows[i];
        if (!selected(r, f))
            continue;
        out->rows++;
        if (!r->ok)
            continue;
        out->predicted++;
        sum += fabs(r->error_pct);
        out->within_2x += r->ratio <= 2.0;
        out->within += r->ratio <= out->within_factor;
        out->worst_ratio = GP_MAX(out->worst_ratio, r->ratio);
        if (s->t->form == GP_TABLE_SPEEDUPS)
            out->order_errors += !r->order_ok;
    }
    out->mape_pct = out->predicted ? sum / out->predicted : 0;
    for (i = 0; i < s->n_pairs; i++)
        out->order_errors += selected(&s->rows[s->pairs[i].fast], f) &&
                             selected(&s->rows[s->pairs[i].slow], f);
}

GP_API int gp_score_order_error(const gp_score_t *s, size_t i, size_t *faster_measured,
                                size_t *slower_measured)
{
    if (i >= s->n_pairs)
        return -1;
    *faster_measured = s->pairs[i].fast;
    *slower_measured = s->pairs[i].slow;
    return 0;
}

/* ------------------------------------------------------------ leave one family out */

_Static_assert(GP_LOFO_EVALS == GP_FIT_GRID_POINTS + GP_FIT_GOLDEN_EVALS,
               "GP_LOFO_EVALS is the fitting rule's evaluations");

struct gp_lofo {
    gp_lofo_const_t c[GP_FIT_COUNT];
    gp_lofo_family_t *fams;
    size_t n_fams;
    double *values;          /* n_fams x GP_FIT_COUNT */
    gp_lofo_how_t *how;
    unsigned *fit_rows;
    gp_lofo_family_t overall;
};

/* What a fit and a prediction need. */
typedef struct lofo_ctx {
    const gp_table_t *t;
    gp_score_opts_t o;
    size_t *rows;            /* indexes into t->rows of the rows in play */
    double *shipped_err;     /* per row of t: error_pct with the shipped constants */
    double *lofo_err;        /* per row of t: error_pct with its family left out */
    unsigned char *ok;       /* per row of t: predicted with the shipped constants */
    unsigned char *lofo_ok;  /* per row of t: predicted with its family left out */
    gp_fit_id_t id;          /* the constant a cost evaluation sets */
    const size_t *fit;       /* the rows a fit evaluates */
    size_t n_fit;
} lofo_ctx_t;

/* Predict row i of t with the constants in force: 0 and its error, or -1. */
static int lofo_predict(const lofo_ctx_t *x, size_t i, double *err_pct)
{
    gp_score_row_t s;
    memset(&s, 0, sizeof s);
    s.row = x->t->rows[i];
    score_row(x->t, &x->o, &s);
    if (!s.ok)
        return -1;
    *err_pct = s.error_pct;
    return 0;
}

/* The fitting rule's cost: mean |error| of the fit rows with constant x->id
   at `value` (the others as shipped); +inf when a row cannot be predicted. */
static double lofo_cost(double value, void *ud, int *stop)
{
    const lofo_ctx_t *x = ud;
    double sum = 0, e;
    size_t k;
    (void)stop;
    gp_fit_reset();
    gp_fit_override(x->id, value);
    for (k = 0; k < x->n_fit; k++) {
        if (lofo_predict(x, x->fit[k], &e)) {
            sum = INFINITY;
            break;
        }
        sum += fabs(e);
    }
    gp_fit_reset();
    return sum / (double)x->n_fit;
}

/* Refit constant id on rows[0..n) by the rule; the value (*flat: the rows
   do not depend on it, the shipped value), NaN when n is 0. */
static double lofo_fit(lofo_ctx_t *x, gp_fit_id_t id, const size_t *rows, size_t n, int *flat)
{
    double best, cost;
    *flat = 0;
    if (!n)
        return NAN;
    x->id = id;
    x->fit = rows;
    x->n_fit = n;
    if (gp_fit_search(&gp_fit_registry[id], lofo_cost, x, &best, &cost, flat))
        return NAN;
    return best;
}

/* Add one row's errors to a family's figures (sums, divided at the end). */
static void lofo_add(gp_lofo_family_t *f, double shipped, double lofo)
{
    f->predicted++;
    f->mape_shipped_pct += fabs(shipped);
    f->mape_lofo_pct += fabs(lofo);
    f->within_2x_shipped += shipped <= 100 && shipped >= -50; /* ratio <= 2 */
    f->within_2x_lofo += lofo <= 100 && lofo >= -50;
}

static void lofo_mean(gp_lofo_family_t *f)
{
    if (f->predicted) {
        f->mape_shipped_pct /= f->predicted;
        f->mape_lofo_pct /= f->predicted;
    }
}

/* Leave family f out: refit what was set from it, predict its rows. */
static int lofo_family(lofo_ctx_t *x, gp_lofo_t *l, size_t fi, size_t n_rows, size_t *scratch)
{
    gp_lofo_family_t *f = &l->fams[fi];
    double *v = &l->values[fi * GP_FIT_COUNT];
    gp_lofo_how_t *how = &l->how[fi * GP_FIT_COUNT];
    unsigned *fr = &l->fit_rows[fi * GP_FIT_COUNT];
    size_t k, n;
    int c, flat;
    for (c = 0; c < GP_FIT_COUNT; c++) {
        const gp_fit_const_t *r = &gp_fit_registry[c];
        v[c] = r->shipped;
        how[c] = GP_LOFO_SHIPPED;
        fr[c] = 0;
        if (!l->c[c].fit_rows || !gp_fit_uses_family(r, f->family))
            continue;
        for (n = 0, k = 0; k < n_rows; k++) { /* its families' rows, f left out */
            const gp_table_row_t *row = &x->t->rows[x->rows[k]];
            if (x->ok[x->rows[k]] && strcmp(row->family, f->family) &&
                gp_fit_uses_family(r, row->family))
                scratch[n++] = x->rows[k];
        }
        how[c] = GP_LOFO_REFIT;
        if (!n) { /* f was its only family here: every other family's rows */
            how[c] = GP_LOFO_REFIT_OTHERS;
            for (k = 0; k < n_rows; k++)
                if (x->ok[x->rows[k]] && strcmp(x->t->rows[x->rows[k]].family, f->family))
                    scratch[n++] = x->rows[k];
        }
        if (!n) { /* nothing else in the table: it cannot be refitted */
            how[c] = GP_LOFO_SHIPPED;
            continue;
        }
        v[c] = lofo_fit(x, (gp_fit_id_t)c, scratch, n, &flat);
        if (isnan(v[c]))
            return -1;
        fr[c] = (unsigned)n;
        if (flat)
            how[c] = GP_LOFO_FLAT;
        else
            f->refitted = 1;
    }
    for (k = 0; k < n_rows; k++) {
        size_t i = x->rows[k];
        double e = x->shipped_err[i];
        if (strcmp(x->t->rows[i].family, f->family))
            continue;
        f->rows++;
        if (!x->ok[i])
            continue;
        if (f->refitted) {
            gp_fit_reset();
            for (c = 0; c < GP_FIT_COUNT; c++)
                gp_fit_override((gp_fit_id_t)c, v[c]);
            if (lofo_predict(x, i, &e)) {
                gp_fit_reset();
                continue;
            }
            gp_fit_reset();
        }
        lofo_add(f, x->shipped_err[i], e);
        x->lofo_err[i] = e;
        x->lofo_ok[i] = 1;
    }
    lofo_mean(f);
    f->values = v;
    f->how = how;
    f->fit_rows = fr;
    return 0;
}

GP_API int gp_lofo_run(const gp_table_t *t, const gp_score_opts_t *opts, gp_lofo_t **out,
                       gp_error_t *err)
{
    lofo_ctx_t x;
    gp_lofo_t *l = NULL;
    size_t i, k, n_rows = 0, *scratch = NULL;
    int c, rc = -1;
    *out = NULL;
    memset(&x, 0, sizeof x);
    if (opts)
        x.o = *opts;
    x.t = t;
    if (t->form != GP_TABLE_TIMES) {
        if (err)
            gp_snprintf(err->msg, sizeof err->msg,
                        "%s: a speedup table; leaving a family out needs a times table "
                        "(device, family, ... measured_us)", t->path);
        return -1;
    }
    l = calloc(1, sizeof *l);
    x.rows = calloc(t->n + 1, sizeof *x.rows);
    scratch = calloc(t->n + 1, sizeof *scratch);
    x.shipped_err = calloc(t->n + 1, sizeof *x.shipped_err);
    x.ok = calloc(t->n + 1, 1);
    x.lofo_err = calloc(t->n + 1, sizeof *x.lofo_err);
    x.lofo_ok = calloc(t->n + 1, 1);
    if (l) {
        l->fams = calloc(t->n + 1, sizeof *l->fams);
        l->values = calloc((t->n + 1) * GP_FIT_COUNT, sizeof *l->values);
        l->how = calloc((t->n + 1) * GP_FIT_COUNT, sizeof *l->how);
        l->fit_rows = calloc((t->n + 1) * GP_FIT_COUNT, sizeof *l->fit_rows);
    }
    if (!l || !x.rows || !scratch || !x.shipped_err || !x.ok || !x.lofo_err || !x.lofo_ok ||
        !l->fams || !l->values ||
        !l->how || !l->fit_rows) {
        if (err)
            gp_snprintf(err->msg, sizeof err->msg, "%s: out of memory", t->path);
        goto out;
    }
    gp_fit_reset();
    /* the rows in play (independent, of the source asked for) and their
       shipped errors; families in table order */
    for (i = 0; i < t->n; i++) {
        const gp_table_row_t *r = &t->rows[i];
        if (r->kind != GP_KIND_INDEPENDENT || (x.o.source && !strstr(r->source, x.o.source)))
            continue;
        x.rows[n_rows++] = i;
        x.ok[i] = lofo_predict(&x, i, &x.shipped_err[i]) == 0;
        for (k = 0; k < l->n_fams && strcmp(l->fams[k].family, r->family); k++)
            ;
        if (k == l->n_fams && (!x.o.family || strcmp(r->family, x.o.family) == 0))
            l->fams[l->n_fams++].family = r->family;
    }
    /* the registry, and each constant refitted with nothing left out */
    for (c = 0; c < GP_FIT_COUNT; c++) {
        const gp_fit_const_t *r = &gp_fit_registry[c];
        gp_lofo_const_t *lc = &l->c[c];
        size_t n = 0;
        lc->name = r->name;
        lc->shipped = r->shipped;
        lc->lo = r->lo;
        lc->hi = r->hi;
        lc->log_scale = r->log_scale;
        lc->families = r->families;
        lc->rows = r->rows;
        for (k = 0; k < n_rows; k++)
            if (x.ok[x.rows[k]] && gp_fit_uses_family(r, t->rows[x.rows[k]].family))
                scratch[n++] = x.rows[k];
        lc->fit_rows = (unsigned)n;
        lc->refit_all = lofo_fit(&x, (gp_fit_id_t)c, scratch, n, &lc->refit_all_flat);
    }
    for (k = 0; k < l->n_fams; k++)
        if (lofo_family(&x, l, k, n_rows, scratch)) {
            if (err)
                gp_snprintf(err->msg, sizeof err->msg, "%s: family '%s': a refit failed",
                            t->path, l->fams[k].family);
            goto out;
        }
    /* every reported row, in table order (as gp_score_stats sums) */
    for (k = 0; k < n_rows; k++) {
        size_t f, r = x.rows[k];
        for (f = 0; f < l->n_fams && strcmp(l->fams[f].family, t->rows[r].family); f++)
            ;
        if (f == l->n_fams)
            continue;
        l->overall.rows++;
        if (x.lofo_ok[r])
            lofo_add(&l->overall, x.shipped_err[r], x.lofo_err[r]);
    }
    lofo_mean(&l->overall);
    *out = l;
    l = NULL;
    rc = 0;
out:
    gp_fit_reset();
    gp_lofo_free(l);
    free(x.rows);
    free(scratch);
    free(x.shipped_err);
    free(x.ok);
    free(x.lofo_err);
    free(x.lofo_ok);
    return rc;
}

GP_API void gp_lofo_free(gp_lofo_t *l)
{
    if (!l)
        return;
    free(l->fams);
    free(l->values);
    free(l->how);
    free(l->fit_rows);
    free(l);
}

GP_API size_t gp_lofo_const_count(const gp_lofo_t *l)
{
    (void)l;
    return GP_FIT_COUNT;
}

GP_API const gp_lofo_const_t *gp_lofo_const(const gp_lofo_t *l, size_t i)
{
    return i < GP_FIT_COUNT ? &l->c[i] : NULL;
}

GP_API size_t gp_lofo_family_count(const gp_lofo_t *l)
{
    return l->n_fams;
}

GP_API const gp_lofo_family_t *gp_lofo_family(const gp_lofo_t *l, size_t i)
{
    return i < l->n_fams ? &l->fams[i] : NULL;
}

GP_API const gp_lofo_family_t *gp_lofo_overall(const gp_lofo_t *l)
{
    return &l->overall;
}
