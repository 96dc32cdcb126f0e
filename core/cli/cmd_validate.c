/*
 * cmd_validate.c - `gpuperf validate`: predicted against measured times.
 *
 * A validation table is CSV (read with libcsv) with at least the columns
 * device,family,name,params,script,script_params,measured_us and optionally
 * divide_by (the prediction's total is divided by it, for per-launch
 * figures) and source. Each row runs its script on its device and compares.
 */
#include <csv.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define MAX_COLS 32
#define MAX_ROWS 100000
#define MAX_FIELD 2048

/* One table row as read. */
typedef struct vrow {
    char *f[MAX_COLS];
    int nf;
    long line;
} vrow_t;

/* The CSV being read. */
typedef struct vtable {
    vrow_t *rows;
    int n, cap;
    vrow_t cur;
    long line;
    int oom;
} vtable_t;

/* libcsv field callback. */
static void on_field(void *s, size_t len, void *ud)
{
    vtable_t *t = ud;
    char *v;
    if (t->cur.nf >= MAX_COLS || len > MAX_FIELD) {
        t->cur.nf = MAX_COLS + 1; /* marks the row as malformed */
        return;
    }
    v = malloc(len + 1);
    if (!v) {
        t->oom = 1;
        return;
    }
    memcpy(v, s, len);
    v[len] = '\0';
    t->cur.f[t->cur.nf++] = v;
}

/* libcsv row callback. */
static void on_row(int c, void *ud)
{
    vtable_t *t = ud;
    (void)c;
    t->line++;
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 64;
        vrow_t *r = cap <= MAX_ROWS ? realloc(t->rows, (size_t)cap * sizeof *r) : NULL;
        if (!r) {
            t->oom = 1;
            return;
        }
        t->rows = r;
        t->cap = cap;
    }
    t->cur.line = t->line;
    t->rows[t->n++] = t->cur;
    memset(&t->cur, 0, sizeof t->cur);
}

static void table_free(vtable_t *t)
{
    int i, j;
    for (i = 0; i < t->n; i++)
        for (j = 0; j < t->rows[i].nf && j < MAX_COLS; j++)
            free(t->rows[i].f[j]);
    for (j = 0; j < t->cur.nf && j < MAX_COLS; j++)
        free(t->cur.f[j]);
    free(t->rows);
}

/* Read a CSV file; comment lines (starting with '#') are skipped. */
static int read_table(const char *path, vtable_t *t, gp_err_t *err)
{
    char *data = NULL, *p;
    size_t len;
    struct csv_parser csv;
    memset(t, 0, sizeof *t);
    if (gp_read_file(path, 64u << 20, &data, &len, err))
        return -1;
    if (memchr(data, '\0', len)) {
        free(data);
        return gp_err_set(err, "%s: binary data in a CSV table", path);
    }
    if (csv_init(&csv, CSV_APPEND_NULL) != 0) {
        free(data);
        return gp_err_set(err, "%s: cannot start the CSV parser", path);
    }
    /* blank out comment lines, keeping the newlines so line numbers hold */
    for (p = data; p && *p;) {
        char *eol = strchr(p, '\n');
        if (*p == '#')
            memset(p, ' ', eol ? (size_t)(eol - p) : strlen(p));
        p = eol ? eol + 1 : NULL;
    }
    {
        /* feed line by line so each row's line number is known */
        char *line = data;
        long lineno = 0;
        while (line && *line) {
            char *eol = strchr(line, '\n');
            size_t n = eol ? (size_t)(eol - line + 1) : strlen(line);
            lineno++;
            if (strspn(line, " \t\r") == n - (eol ? 1 : 0)) { /* blank */
                line = eol ? eol + 1 : NULL;
                continue;
            }
            t->line = lineno - 1;
            if (csv_parse(&csv, line, n, on_field, on_row, t) != n) {
                gp_err_set(err, "%s:%ld: %s", path, lineno, csv_strerror(csv_error(&csv)));
                csv_free(&csv);
                free(data);
                return -1;
            }
            line = eol ? eol + 1 : NULL;
        }
        t->line = lineno - 1;
    }
    csv_fini(&csv, on_field, on_row, t);
    csv_free(&csv);
    free(data);
    if (t->oom)
        return gp_err_set(err, "%s: too large (out of memory or more than %d rows)", path,
                          MAX_ROWS);
    return 0;
}

/* Column indexes. */
enum { C_DEVICE, C_FAMILY, C_NAME, C_PARAMS, C_SCRIPT, C_SPARAMS, C_MEASURED, C_DIVIDE,
       C_SOURCE, C_COUNT };
static const char *const COLS[C_COUNT] = {"device", "family", "name", "params", "script",
                                          "script_params", "measured_us", "divide_by",
                                          "source"};

/* One evaluated row. */
typedef struct vres {
    const vrow_t *row;
    double measured, predicted, err_pct, ratio;
    int ok;
    char bound[24];
    char error[1100];
} vres_t;

/* Find a script: as given, or relative to the table's folder and its
   ancestors (tables name scripts from the project root). */
static int find_script(const char *table, const char *script, char *out, size_t size)
{
    struct stat st;
    char dir[GP_PATH_MAX];
    int up;
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

/* Evaluate one row. */
static void eval_row(const char *table, const vrow_t *r, const int *col, const gp_script_opts_t *so,
                     vres_t *res)
{
    gp_cli_device_t d;
    gp_err_t err;
    gp_workload_t wl;
    gp_prediction_t pred;
    gp_param_kv_t kv[32];
    size_t nkv = 0;
    char sp[MAX_FIELD + 1], path[GP_PATH_MAX], *save = NULL, *tok;
    double divide = 1, measured;
    memset(res, 0, sizeof *res);
    res->row = r;
    if (gp_parse_number(r->f[col[C_MEASURED]], &measured, &err) || !(measured > 0)) {
        snprintf(res->error, sizeof res->error, "measured_us '%s' is not a positive number",
                 r->f[col[C_MEASURED]]);
        return;
    }
    res->measured = measured;
    if (col[C_DIVIDE] >= 0 && col[C_DIVIDE] < r->nf && r->f[col[C_DIVIDE]][0]) {
        if (gp_parse_number(r->f[col[C_DIVIDE]], &divide, &err) || !(divide > 0)) {
            snprintf(res->error, sizeof res->error, "divide_by '%s' is not a positive number",
                     r->f[col[C_DIVIDE]]);
            return;
        }
    }
    gp_strlcpy(sp, r->f[col[C_SPARAMS]], sizeof sp);
    for (tok = strtok_r(sp, " \t;", &save); tok; tok = strtok_r(NULL, " \t;", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok || nkv >= GP_ARRAY_LEN(kv)) {
            snprintf(res->error, sizeof res->error,
                     "script_params '%s': write space-separated key=value pairs",
                     r->f[col[C_SPARAMS]]);
            return;
        }
        *eq = '\0';
        kv[nkv].key = tok;
        kv[nkv].value = eq + 1;
        nkv++;
    }
    if (find_script(table, r->f[col[C_SCRIPT]], path, sizeof path)) {
        snprintf(res->error, sizeof res->error, "script '%s' not found (relative to the table "
                 "or the current folder)", r->f[col[C_SCRIPT]]);
        return;
    }
    memset(&d, 0, sizeof d);
    if (gp_device_open(r->f[col[C_DEVICE]], &d.dev, &d.arch, &err)) {
        snprintf(res->error, sizeof res->error, "%s", err.msg);
        return;
    }
    if (gp_script_run(path, so, &d.dev, kv, nkv, &wl, &err)) {
        snprintf(res->error, sizeof res->error, "%s", err.msg);
        return;
    }
    if (gp_predict(&d.dev, d.arch, &wl, NULL, &pred, &err)) {
        snprintf(res->error, sizeof res->error, "%s", err.msg);
        gp_workload_free(&wl);
        return;
    }
    res->predicted = pred.total_us / divide;
    if (!(res->predicted > 0)) {
        /* nothing to compare with (a ratio would be infinite) */
        snprintf(res->error, sizeof res->error,
                 "the script launches and copies nothing (predicted %g us); check "
                 "script_params",
                 res->predicted);
        gp_prediction_free(&pred);
        gp_workload_free(&wl);
        return;
    }
    if (pred.n_cmds > 0) {
        /* the bound of the longest launch */
        uint32_t i, best = 0;
        for (i = 1; i < pred.n_cmds; i++)
            if (pred.cmds[i].time_us > pred.cmds[best].time_us)
                best = i;
        gp_strlcpy(res->bound,
                   pred.cmds[best].type == GP_CMD_LAUNCH ? gp_bound_name(pred.cmds[best].bound)
                                                         : "copy",
                   sizeof res->bound);
    }
    res->err_pct = (res->predicted - measured) / measured * 100;
    res->ratio = res->predicted > measured ? res->predicted / measured : measured / res->predicted;
    res->ok = 1;
    gp_prediction_free(&pred);
    gp_workload_free(&wl);
}

/* Options. */
typedef struct vopts {
    int json;
    double max_mape;  /* <0: no check */
    double max_ratio; /* <0: no check */
    int check_order;
    int max_order_errors; /* with check_order: errors tolerated */
    double order_tolerance_pct;
    const char *family;
    const char *source;   /* only rows whose source contains this */
} vopts_t;

/* Order errors within sweeps: rows of one (device, family, name) whose
   measured times differ by more than the tolerance must be predicted in the
   same order. Returns the number of wrongly ordered pairs. */
static int order_errors(vres_t *res, int n, const int *col, double tol_pct, FILE *out)
{
    int i, j, bad = 0;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            const vrow_t *a = res[i].row, *b = res[j].row;
            double dm, dp;
            if (!res[i].ok || !res[j].ok || strcmp(a->f[col[C_DEVICE]], b->f[col[C_DEVICE]]) ||
                strcmp(a->f[col[C_FAMILY]], b->f[col[C_FAMILY]]) ||
                strcmp(a->f[col[C_NAME]], b->f[col[C_NAME]]))
                continue;
            dm = res[j].measured - res[i].measured;
            dp = res[j].predicted - res[i].predicted;
            if (fabs(dm) <= tol_pct / 100 * GP_MIN(res[i].measured, res[j].measured))
                continue;
            if ((dm > 0) != (dp > 0)) {
                bad++;
                if (out)
                    fprintf(out, "  order: %s %s [%s] measured %.2f < %.2f but predicted %.2f >= %.2f (%s)\n",
                            a->f[col[C_FAMILY]], a->f[col[C_NAME]],
                            dm > 0 ? a->f[col[C_PARAMS]] : b->f[col[C_PARAMS]],
                            GP_MIN(res[i].measured, res[j].measured),
                            GP_MAX(res[i].measured, res[j].measured),
                            dm > 0 ? res[i].predicted : res[j].predicted,
                            dm > 0 ? res[j].predicted : res[i].predicted,
                            dm > 0 ? b->f[col[C_PARAMS]] : a->f[col[C_PARAMS]]);
            }
        }
    return bad;
}

static int cmp_abs_err(const void *x, const void *y)
{
    const vres_t *a = *(const vres_t *const *)x, *b = *(const vres_t *const *)y;
    double ea = fabs(a->err_pct), eb = fabs(b->err_pct);
    return (ea < eb) - (ea > eb);
}

int gp_cmd_validate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, 0, 'j'},          {"max-mape", required_argument, 0, 'm'},
        {"max-ratio", required_argument, 0, 'r'}, {"check-order", no_argument, 0, 'o'},
        {"order-tolerance", required_argument, 0, 't'},
        {"family", required_argument, 0, 'f'},  {"source", required_argument, 0, 's'},
        {"max-order-errors", required_argument, 0, 'e'},
        {"budget", required_argument, 0, 'b'},  {"memory-cap", required_argument, 0, 'M'},
        {0, 0, 0, 0}};
    vopts_t o = {0, -1, -1, 0, 0, 3.0, NULL, NULL};
    vtable_t t;
    gp_err_t err;
    int col[C_COUNT], i, j, c, n_ok = 0, n_2x = 0, n_rows = 0, n_bad_order = 0, rc = GP_EXIT_OK;
    double sum_ape = 0, mape;
    vres_t *res = NULL, **sorted = NULL;
    gp_script_opts_t so = {0, 0};
    const char *path;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        gp_err_t e;
        switch (c) {
        case 'j': o.json = 1; break;
        case 'o': o.check_order = 1; break;
        case 'f': o.family = optarg; break;
        case 's': o.source = optarg; break;
        case 'b':
            if (gp_cli_parse_u64("validate", "--budget", optarg, &so.instruction_budget))
                return GP_EXIT_USAGE;
            break;
        case 'M':
            if (gp_cli_parse_memory_cap("validate", optarg, &so.memory_cap_bytes))
                return GP_EXIT_USAGE;
            break;
        case 'e': {
            uint64_t v;
            if (gp_cli_parse_u64("validate", "--max-order-errors", optarg, &v))
                return GP_EXIT_USAGE;
            o.max_order_errors = (int)GP_MIN(v, 1000000u);
            o.check_order = 1;
            break;
        }
        case 'm':
        case 'r':
        case 't': {
            double v;
            if (gp_parse_number(optarg, &v, &e) || v < 0)
                return gp_cli_fail("validate", GP_EXIT_USAGE, "%s %s: expected a number >= 0",
                                   argv[optind - 1], optarg);
            if (c == 'm')
                o.max_mape = v;
            else if (c == 'r')
                o.max_ratio = v;
            else
                o.order_tolerance_pct = v;
            break;
        }
        case ':':
            return gp_cli_fail("validate", GP_EXIT_USAGE, "%s needs a value", argv[optind - 1]);
        default:
            return gp_cli_fail("validate", GP_EXIT_USAGE,
                               "unknown option '%s' (see gpuperf validate --help)",
                               argv[optind - 1]);
        }
    }
    if (optind + 1 != argc)
        return gp_cli_fail("validate", GP_EXIT_USAGE,
                           "give one table, e.g. gpuperf validate validation/h200/calibration.csv");
    path = argv[optind];
    if (read_table(path, &t, &err))
        return gp_cli_fail("validate", GP_EXIT_FAIL, "%s", err.msg);
    if (t.n < 1) {
        table_free(&t);
        return gp_cli_fail("validate", GP_EXIT_FAIL, "%s: empty table", path);
    }
    for (i = 0; i < C_COUNT; i++) {
        col[i] = -1;
        for (j = 0; j < t.rows[0].nf && j < MAX_COLS; j++)
            if (strcmp(t.rows[0].f[j], COLS[i]) == 0)
                col[i] = j;
        if (col[i] < 0 && i <= C_MEASURED) {
            rc = gp_cli_fail("validate", GP_EXIT_FAIL,
                             "%s:%ld: the header lacks column '%s' (needs device, family, name, "
                             "params, script, script_params, measured_us; optional divide_by, "
                             "source)",
                             path, t.rows[0].line, COLS[i]);
            table_free(&t);
            return rc;
        }
    }
    res = calloc((size_t)t.n, sizeof *res);
    sorted = calloc((size_t)t.n, sizeof *sorted);
    if (!res || !sorted) {
        free(res);
        free(sorted);
        table_free(&t);
        return gp_cli_fail("validate", GP_EXIT_FAIL, "out of memory");
    }
    for (i = 1; i < t.n; i++) {
        vrow_t *r = &t.rows[i];
        vres_t *v = &res[n_rows];
        if (r->nf > MAX_COLS || r->nf < t.rows[0].nf) {
            rc = gp_cli_fail("validate", GP_EXIT_FAIL, "%s:%ld: %d fields, the header has %d",
                             path, r->line, r->nf > MAX_COLS ? MAX_COLS : r->nf, t.rows[0].nf);
            goto out;
        }
        if (o.family && strcmp(r->f[col[C_FAMILY]], o.family) != 0)
            continue;
        if (o.source && (col[C_SOURCE] < 0 || col[C_SOURCE] >= r->nf ||
                         !strstr(r->f[col[C_SOURCE]], o.source)))
            continue;
        eval_row(path, r, col, &so, v);
        if (!v->ok) {
            char where[64];
            snprintf(where, sizeof where, "%s:%ld", path, r->line);
            fprintf(stderr, "gpuperf validate: %s: %s\n", where, v->error);
            rc = GP_EXIT_FAIL;
        } else {
            n_ok++;
            sum_ape += fabs(v->err_pct);
            n_2x += v->ratio <= 2.0;
            sorted[n_ok - 1] = v;
        }
        n_rows++;
    }
    mape = n_ok ? sum_ape / n_ok : 0;
    qsort(sorted, (size_t)n_ok, sizeof *sorted, cmp_abs_err);
    n_bad_order = order_errors(res, n_rows, col, o.order_tolerance_pct, NULL);

    if (o.json) {
        cJSON *doc = cJSON_CreateObject(), *rows = cJSON_CreateArray(), *fams = cJSON_CreateObject();
        cJSON_AddStringToObject(doc, "table", path);
        for (i = 0; i < n_rows; i++) {
            const vres_t *v = &res[i];
            cJSON *r = cJSON_CreateObject();
            cJSON *fam;
            cJSON_AddNumberToObject(r, "line", (double)v->row->line);
            for (j = 0; j <= C_SPARAMS; j++)
                cJSON_AddStringToObject(r, COLS[j], v->row->f[col[j]]);
            cJSON_AddNumberToObject(r, "measured_us", v->measured);
            if (v->ok) {
                cJSON_AddNumberToObject(r, "predicted_us", v->predicted);
                cJSON_AddNumberToObject(r, "error_pct", v->err_pct);
                cJSON_AddNumberToObject(r, "ratio", v->ratio);
                cJSON_AddStringToObject(r, "bound", v->bound);
            } else {
                cJSON_AddStringToObject(r, "error", v->error);
            }
            cJSON_AddItemToArray(rows, r);
            if (!v->ok)
                continue;
            fam = cJSON_GetObjectItemCaseSensitive(fams, v->row->f[col[C_FAMILY]]);
            if (!fam) {
                fam = cJSON_CreateObject();
                cJSON_AddNumberToObject(fam, "rows", 0);
                cJSON_AddNumberToObject(fam, "sum_ape", 0);
                cJSON_AddItemToObject(fams, v->row->f[col[C_FAMILY]], fam);
            }
            cJSON_SetNumberValue(cJSON_GetObjectItem(fam, "rows"),
                                 cJSON_GetObjectItem(fam, "rows")->valuedouble + 1);
            cJSON_SetNumberValue(cJSON_GetObjectItem(fam, "sum_ape"),
                                 cJSON_GetObjectItem(fam, "sum_ape")->valuedouble +
                                     fabs(v->err_pct));
        }
        {
            cJSON *f;
            cJSON_ArrayForEach(f, fams) {
                double nr = cJSON_GetObjectItem(f, "rows")->valuedouble;
                cJSON_AddNumberToObject(f, "mape_pct",
                                        cJSON_GetObjectItem(f, "sum_ape")->valuedouble / nr);
                cJSON_DeleteItemFromObject(f, "sum_ape");
            }
        }
        cJSON_AddItemToObject(doc, "rows", rows);
        cJSON_AddItemToObject(doc, "families", fams);
        {
            cJSON *ov = cJSON_CreateObject();
            cJSON_AddNumberToObject(ov, "rows", n_rows);
            cJSON_AddNumberToObject(ov, "predicted", n_ok);
            cJSON_AddNumberToObject(ov, "mape_pct", mape);
            cJSON_AddNumberToObject(ov, "within_2x", n_2x);
            cJSON_AddNumberToObject(ov, "order_errors", n_bad_order);
            cJSON_AddItemToObject(doc, "overall", ov);
        }
        gp_print_json(doc);
        cJSON_Delete(doc);
    } else {
        printf("%-10s %-22s %-28s %12s %12s %8s  %s\n", "family", "name", "params",
               "measured_us", "predicted_us", "error", "bound");
        for (i = 0; i < n_rows; i++) {
            const vres_t *v = &res[i];
            if (v->ok)
                printf("%-10.10s %-22.22s %-28.28s %12.3f %12.3f %+7.1f%%  %s\n",
                       v->row->f[col[C_FAMILY]], v->row->f[col[C_NAME]],
                       v->row->f[col[C_PARAMS]], v->measured, v->predicted, v->err_pct,
                       v->bound);
            else
                printf("%-10.10s %-22.22s %-28.28s %12.3f %12s %8s  %s\n",
                       v->row->f[col[C_FAMILY]], v->row->f[col[C_NAME]],
                       v->row->f[col[C_PARAMS]], v->measured, "failed", "", "see stderr");
        }
        printf("\nper family (mean absolute percentage error):\n");
        for (i = 0; i < n_rows; i++) {
            int seen = 0, k, cnt = 0;
            double s = 0;
            const char *fam = res[i].row->f[col[C_FAMILY]];
            for (k = 0; k < i && !seen; k++)
                seen = strcmp(res[k].row->f[col[C_FAMILY]], fam) == 0;
            if (seen)
                continue;
            for (k = i; k < n_rows; k++)
                if (res[k].ok && strcmp(res[k].row->f[col[C_FAMILY]], fam) == 0) {
                    s += fabs(res[k].err_pct);
                    cnt++;
                }
            printf("  %-14s %3d rows  %6.1f%%\n", fam, cnt, cnt ? s / cnt : 0);
        }
        printf("\nworst rows:\n");
        for (i = 0; i < n_ok && i < 5; i++)
            printf("  %+7.1f%%  %s %s [%s]\n", sorted[i]->err_pct, sorted[i]->row->f[col[C_FAMILY]],
                   sorted[i]->row->f[col[C_NAME]], sorted[i]->row->f[col[C_PARAMS]]);
        if (n_bad_order) {
            printf("\nsweeps predicted in the wrong order (%d pairs):\n", n_bad_order);
            order_errors(res, n_rows, col, o.order_tolerance_pct, stdout);
        }
        printf("\noverall: %d rows, %d predicted, mean absolute error %.1f%%, %d within 2x, "
               "%d ordering errors\n",
               n_rows, n_ok, mape, n_2x, n_bad_order);
    }
    if (o.max_mape >= 0 && mape > o.max_mape) {
        fprintf(stderr, "gpuperf validate: mean absolute error %.2f%% exceeds --max-mape %g%%\n",
                mape, o.max_mape);
        rc = GP_EXIT_FAIL;
    }
    if (o.max_ratio > 0) {
        int out = 0;
        for (i = 0; i < n_ok; i++)
            out += sorted[i]->ratio > o.max_ratio;
        if (out) {
            fprintf(stderr, "gpuperf validate: %d rows are off by more than %gx\n", out,
                    o.max_ratio);
            rc = GP_EXIT_FAIL;
        }
    }
    if (o.check_order && n_bad_order > o.max_order_errors) {
        fprintf(stderr,
                "gpuperf validate: %d pairs of sweep rows predicted in the wrong order "
                "(%d allowed)\n",
                n_bad_order, o.max_order_errors);
        rc = GP_EXIT_FAIL;
    }
out:
    free(res);
    free(sorted);
    table_free(&t);
    return rc;
}

void gp_help_validate(FILE *out)
{
    fprintf(out,
            "usage: gpuperf validate TABLE.csv [--json] [--max-mape PCT] [--max-ratio R]\n"
            "                        [--check-order] [--max-order-errors N]\n"
            "                        [--order-tolerance PCT] [--family F] [--source TEXT]\n"
            "                        [--budget N] [--memory-cap MIB]\n\n"
            "Predicts every row of a validation table and compares it with the measured time:\n"
            "per row the measured and predicted microseconds and the error, then the mean\n"
            "absolute percentage error per family and overall, the worst rows, how many rows\n"
            "fall within 2x, and sweeps predicted in the wrong order. It is how you check the\n"
            "model against your own GPU: time your kernels, describe each in a script, list\n"
            "them in a table, and run this.\n\n"
            "The table is CSV with a header naming at least these columns:\n"
            "  device         device name or .ini path\n"
            "  family, name, params   what the row is (free text; rows of one family and name\n"
            "                 form a sweep whose order is checked)\n"
            "  script         workload script, relative to the table's folder or an ancestor\n"
            "  script_params  space-separated key=value pairs passed as -p\n"
            "  measured_us    the measured time in microseconds\n"
            "optional: divide_by (the prediction's total is divided by it, for per-launch\n"
            "figures of a script that launches many times) and source (where the number came\n"
            "from). Lines starting with # are comments. For example:\n\n"
            "  device,family,name,params,script,script_params,measured_us\n"
            "  h200-sxm,stream,copy,n=2^22,scripts/validation/stream.lua,kernel=copy n=2^22,16.256\n"
            "  (a row of validation/h200/calibration.csv)\n\n"
            "  --json               one JSON document: rows, families, overall\n"
            "  --max-mape PCT       fail (exit 1) if the mean absolute error exceeds PCT\n"
            "  --max-ratio R        fail if any row is off by more than a factor R\n"
            "  --check-order        fail if a sweep is predicted in the wrong order\n"
            "  --max-order-errors N with --check-order: tolerate N wrongly ordered pairs\n"
            "  --order-tolerance P  measured times within P%% count as ties (default 3)\n"
            "  --family F           only the rows of family F\n"
            "  --source TEXT        only the rows whose source column contains TEXT\n"
            "  --budget N, --memory-cap MIB   limits of each row's script, as for predict\n\n"
            "Exit status: 0, or 1 when a threshold is exceeded or a row cannot be predicted.\n\n"
            "examples:\n"
            "  gpuperf validate validation/h200/calibration.csv --max-mape 10 --max-ratio 2\n"
            "  gpuperf validate my-gpu.csv --family stream --check-order --json\n");
}
