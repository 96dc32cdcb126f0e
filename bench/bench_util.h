/*
 * bench_util.h - timing, statistics, child processes and validation tables
 * for gpuperf-bench.
 */
#ifndef GP_BENCH_UTIL_H
#define GP_BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "gpuperf/gpuperf.h"
#include "util.h"

/* Seconds on CLOCK_MONOTONIC. */
double bench_now_s(void);

/* Median, minimum and maximum of n samples (sorts them in place). */
typedef struct bench_stats {
    double median, min, max;
    int n;
} bench_stats_t;
void bench_stats(double *samples, int n, bench_stats_t *out);

/*
 * Run argv[0] (a path) with argv, stdin from /dev/null and stdout/stderr
 * thrown away; wall seconds from just before the start to just after the
 * child is reaped, and its exit status. Returns 0, or -1 with err set when
 * it cannot start or dies of a signal.
 */
int bench_spawn(char *const argv[], double *wall_s, int *exit_status, gp_err_t *err);

/* One row of a validation table: the fields gpuperf validate uses. */
typedef struct bench_row {
    char device[128];
    char script[1024];   /* resolved path */
    char params[2048];   /* space-separated key=value */
    double measured_us;
    double divide_by;
    long line;
} bench_row_t;

/*
 * Read a validation table of kernel times with the library's reader
 * (gp_table_read: the same checks and script resolution as gpuperf
 * validate). Appends to *rows (realloc'd).
 */
int bench_read_table(const char *path, bench_row_t **rows, size_t *n_rows, gp_err_t *err);

#endif /* GP_BENCH_UTIL_H */
