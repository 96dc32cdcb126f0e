/*
 * bench_util.c - timing, statistics, child processes and validation tables
 * for gpuperf-bench.
 */
#include "bench_util.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define TABLE_MAX_BYTES (16u << 20)
#define TABLE_MAX_COLS 32

double bench_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* qsort comparator for doubles. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_stats(double *samples, int n, bench_stats_t *out)
{
    memset(out, 0, sizeof *out);
    if (n <= 0)
        return;
    qsort(samples, (size_t)n, sizeof *samples, cmp_double);
    out->n = n;
    out->min = samples[0];
    out->max = samples[n - 1];
    out->median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

int bench_spawn(char *const argv[], double *wall_s, int *exit_status, gp_err_t *err)
{
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int status, rc;
    double t0;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return gp_err_set(err, "%s: cannot prepare the child", argv[0]);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    t0 = bench_now_s();
    rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return gp_err_set(err, "%s: cannot start: %s", argv[0], strerror(rc));
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return gp_err_set(err, "%s: waitpid: %s", argv[0], strerror(errno));
    *wall_s = bench_now_s() - t0;
    if (!WIFEXITED(status))
        return gp_err_set(err, "%s: killed by signal %d", argv[0],
                          WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    *exit_status = WEXITSTATUS(status);
    return 0;
}

/* The CSV being read: rows of fields. */
typedef struct table {
    char ***rows; /* rows[r][c] */
    int *nf;
    long *line;
    size_t n, cap;
    char *cur[TABLE_MAX_COLS];
    int cur_nf;
    long cur_line;
    int bad;
} table_t;

/* libcsv field callback. */
static void on_field(void *s, size_t len, void *ud)
{
    table_t *t = ud;
    char *v;
    if (t->cur_nf >= TABLE_MAX_COLS) {
        t->bad = 1;
        return;
    }
    v = malloc(len + 1);
    if (!v) {
        t->bad = 1;
        return;
    }
    memcpy(v, s, len);
    v[len] = '\0';
    t->cur[t->cur_nf++] = v;
}

/* libcsv row callback. */
static void on_row(int c, void *ud)
{
    table_t *t = ud;
    (void)c;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        char ***r = realloc(t->rows, cap * sizeof *r);
        int *nf = realloc(t->nf, cap * sizeof *nf);
        long *ln = realloc(t->line, cap * sizeof *ln);
        if (r)
            t->rows = r;
        if (nf)
            t->nf = nf;
        if (ln)
            t->line = ln;
        if (!r || !nf || !ln) {
            t->bad = 1;
            return;
        }
        t->cap = cap;
    }
    t->rows[t->n] = malloc(TABLE_MAX_COLS * sizeof(char *));
    if (!t->rows[t->n]) {
        t->bad = 1;
        return;
    }
    memcpy(t->rows[t->n], t->cur, sizeof t->cur);
    t->nf[t->n] = t->cur_nf;
    t->line[t->n] = t->cur_line;
    t->n++;
    t->cur_nf = 0;
}

/* Release the table. */
static void table_free(table_t *t)
{
    size_t r;
    int c;
    for (r = 0; r < t->n; r++) {
        for (c = 0; c < t->nf[r]; c++)
            free(t->rows[r][c]);
        free(t->rows[r]);
    }
    for (c = 0; c < t->cur_nf; c++)
        free(t->cur[c]);
    free(t->rows);
    free(t->nf);
    free(t->line);
}

/* A script path: as given, or relative to the table's folder and its
   ancestors (tables name scripts from the project root). */
static int resolve_script(const char *table, const char *script, char *out, size_t size)
{
    struct stat st;
    char dir[4096];
    int up;
    if (stat(script, &st) == 0 && S_ISREG(st.st_mode))
        return gp_strlcpy(out, script, size);
    if (script[0] == '/')
        return -1;
    gp_strlcpy(dir, table, sizeof dir);
    for (up = 0; up < 6; up++) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            return -1;
        *slash = '\0';
        if (gp_snprintf(out, size, "%s/%s", dir[0] ? dir : "/", script) == 0 &&
            stat(out, &st) == 0 && S_ISREG(st.st_mode))
            return 0;
    }
    return -1;
}

/* Index of a header column, or -1. */
static int column(const table_t *t, const char *name)
{
    int c;
    for (c = 0; c < t->nf[0]; c++)
        if (strcmp(t->rows[0][c], name) == 0)
            return c;
    return -1;
}

int bench_read_table(const char *path, bench_row_t **rows, size_t *n_rows, gp_err_t *err)
{
    char *data = NULL, *line;
    size_t len;
    long lineno = 0;
    struct csv_parser csv;
    table_t t;
    int c_dev, c_script, c_params, c_meas, c_div, rc = -1;
    size_t r;
    memset(&t, 0, sizeof t);
    if (gp_read_file(path, TABLE_MAX_BYTES, &data, &len, err))
        return -1;
    if (csv_init(&csv, CSV_APPEND_NULL) != 0) {
        free(data);
        return gp_err_set(err, "%s: cannot start the CSV parser", path);
    }
    for (line = data; line && *line;) {
        char *eol = strchr(line, '\n');
        size_t n = eol ? (size_t)(eol - line + 1) : strlen(line);
        lineno++;
        if (*line != '#' && strspn(line, " \t\r\n") < n) {
            t.cur_line = lineno;
            if (csv_parse(&csv, line, n, on_field, on_row, &t) != n) {
                gp_err_set(err, "%s:%ld: %s", path, lineno, csv_strerror(csv_error(&csv)));
                goto out;
            }
        }
        line = eol ? eol + 1 : NULL;
    }
    csv_fini(&csv, on_field, on_row, &t);
    if (t.bad || t.n < 1) {
        gp_err_set(err, "%s: %s", path, t.bad ? "too many columns or out of memory" : "empty");
        goto out;
    }
    c_dev = column(&t, "device");
    c_script = column(&t, "script");
    c_params = column(&t, "script_params");
    c_meas = column(&t, "measured_us");
    c_div = column(&t, "divide_by");
    if (c_dev < 0 || c_script < 0 || c_params < 0 || c_meas < 0) {
        gp_err_set(err, "%s: the header needs device, script, script_params and measured_us",
                   path);
        goto out;
    }
    for (r = 1; r < t.n; r++) {
        bench_row_t *row, *grown;
        char *const *f = t.rows[r];
        gp_err_t e;
        if (t.nf[r] < t.nf[0]) {
            gp_err_set(err, "%s:%ld: %d fields, the header has %d", path, t.line[r], t.nf[r],
                       t.nf[0]);
            goto out;
        }
        grown = realloc(*rows, (*n_rows + 1) * sizeof **rows);
        if (!grown) {
            gp_err_set(err, "%s: out of memory", path);
            goto out;
        }
        *rows = grown;
        row = &grown[*n_rows];
        memset(row, 0, sizeof *row);
        row->line = t.line[r];
        row->divide_by = 1;
        gp_strlcpy(row->device, f[c_dev], sizeof row->device);
        gp_strlcpy(row->params, f[c_params], sizeof row->params);
        if (resolve_script(path, f[c_script], row->script, sizeof row->script)) {
            gp_err_set(err, "%s:%ld: script '%s' not found", path, row->line, f[c_script]);
            goto out;
        }
        if (gp_parse_number(f[c_meas], &row->measured_us, &e) ||
            (c_div >= 0 && f[c_div][0] && gp_parse_number(f[c_div], &row->divide_by, &e))) {
            gp_err_set(err, "%s:%ld: %s", path, row->line, e.msg);
            goto out;
        }
        (*n_rows)++;
    }
    rc = 0;
out:
    csv_free(&csv);
    table_free(&t);
    free(data);
    return rc;
}

int bench_split_params(char *text, const char **keys, const char **values, int max)
{
    char *save = NULL, *tok;
    int n = 0;
    for (tok = strtok_r(text, " \t;", &save); tok; tok = strtok_r(NULL, " \t;", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok || n >= max)
            return -1;
        *eq = '\0';
        keys[n] = tok;
        values[n] = eq + 1;
        n++;
    }
    return n;
}
