/*
 * bench_util.c - timing, statistics, child processes and validation tables
 * for gpuperf-bench.
 */
#include "bench_util.h"

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

int bench_read_table(const char *path, bench_row_t **rows, size_t *n_rows, gp_err_t *err)
{
    gp_table_t *t;
    gp_error_t e;
    size_t i;
    int rc = -1;
    if (gp_table_read(path, &t, &e))
        return gp_err_set(err, "%s", e.msg);
    if (gp_table_form(t) != GP_TABLE_TIMES) {
        gp_err_set(err, "%s: a speedup table; the benchmark times a table of kernel times",
                   path);
        goto out;
    }
    for (i = 0; i < gp_table_count(t); i++) {
        bench_row_t *row, *grown;
        gp_table_row_t r;
        gp_table_row(t, i, &r);
        if (!*r.script_path) {
            gp_err_set(err, "%s:%ld: script '%s' not found", path, r.line, r.script);
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
        row->line = r.line;
        row->divide_by = r.divide_by;
        row->measured_us = r.measured_us;
        if (gp_strlcpy(row->device, r.device, sizeof row->device) ||
            gp_strlcpy(row->params, r.script_params, sizeof row->params) ||
            gp_strlcpy(row->script, r.script_path, sizeof row->script)) {
            gp_err_set(err, "%s:%ld: a field too long for the benchmark", path, r.line);
            goto out;
        }
        (*n_rows)++;
    }
    rc = 0;
out:
    gp_table_free(t);
    return rc;
}
