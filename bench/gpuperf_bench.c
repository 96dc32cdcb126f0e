/*
 * gpuperf_bench.c - how fast gpuperf answers, for the build at hand.
 *
 * Measures, each as the median of several runs on CLOCK_MONOTONIC: one
 * occupancy query; one prediction of a single saxpy launch with a small grid
 * (1000 blocks) and with 2^31-1 blocks, through the library and as whole
 * gpuperf processes; every row of a validation table; a cross-generation
 * compare of every shipped script on every shipped device; sweep throughput.
 * Prints a table and the targets each figure is held to; --json FILE writes
 * the same figures as JSON.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"
#include "bench_util.h"
#include "device.h"
#include "engine.h"
#include "script.h"
#include "sweep.h"
#include "validate.h"

#ifndef GP_BENCH_BUILD_TYPE
#define GP_BENCH_BUILD_TYPE "unknown"
#endif

#define MAX_RESULTS 32
#define MAX_TABLES 8
#define MAX_LIST 64           /* scripts or devices of the compare */
#define SMALL_N "256000"      /* saxpy n: 1000 blocks of 256 threads */
#define HUGE_N "549755813632" /* 256 x (2^31 - 1): 2^31-1 blocks of 256 */
#define SWEEP_BLOCK "block=32:1024:32"
#define SWEEP_N "n=2^20:2^22:2^14"
#define TARGET_BLOCKS_RATIO 2.0  /* 2^31-1 blocks cost at most 2x 1000 blocks */
#define TARGET_PROCESS_MS 50.0   /* one whole-process prediction */
#define TARGET_SWEEP_RATE 100000 /* points per second per core */
#define WARMUP_S 0.5             /* predictions run before the first figure */

/* One figure. */
typedef struct result {
    const char *key;  /* JSON name */
    char what[128];   /* table label */
    const char *unit; /* of median/min/max */
    bench_stats_t st;
    double iterations; /* operations per sample */
    char note[256];
    int failed;
} result_t;

/* Settings and collected figures. */
typedef struct bench {
    const char *gpuperf;   /* the binary for whole-process figures */
    const char *source;    /* the source tree: scripts/, devices/ */
    const char *tables[MAX_TABLES];
    int n_tables, tables_default;
    int runs, process_runs;
    double target_s;       /* each sample lasts about this long */
    result_t res[MAX_RESULTS];
    int n_res;
    gp_device_t h200;
    const gp_arch_t *h200_arch;
    char saxpy[4096];
    double h200_measured_us, h200_measured_all_us;
    size_t table_rows;
} bench_t;

/* A loop of `iters` operations; returns 0 or -1 with err set. */
typedef int (*op_fn)(void *ctx, long iters, gp_err_t *err);

/* A new figure. */
static result_t *add_result(bench_t *b, const char *key, const char *unit, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static result_t *add_result(bench_t *b, const char *key, const char *unit, const char *fmt, ...)
{
    result_t *r = &b->res[b->n_res < MAX_RESULTS - 1 ? b->n_res++ : b->n_res];
    va_list ap;
    memset(r, 0, sizeof *r);
    r->key = key;
    r->unit = unit;
    va_start(ap, fmt);
    vsnprintf(r->what, sizeof r->what, fmt, ap);
    va_end(ap);
    return r;
}

/* Mark a figure as failed with the reason. */
static void fail_result(result_t *r, const gp_err_t *err)
{
    r->failed = 1;
    snprintf(r->note, sizeof r->note, "failed: %.230s", err->msg);
}

/*
 * Time fn: find an iteration count whose run lasts about target_s, then take
 * `runs` samples of the time per operation, scaled by `scale` (1e6: us).
 */
static int measure(bench_t *b, op_fn fn, void *ctx, double scale, result_t *r)
{
    double samples[64], t;
    long iters = 1;
    int i, runs = b->runs < 64 ? b->runs : 64;
    gp_err_t err;
    for (;;) {
        double t0 = bench_now_s();
        if (fn(ctx, iters, &err)) {
            fail_result(r, &err);
            return -1;
        }
        t = bench_now_s() - t0;
        if (t >= b->target_s / 4 || iters >= (1L << 30))
            break;
        iters *= 4;
    }
    if (t < b->target_s && t > 0)
        iters = (long)ceil((double)iters * b->target_s / t);
    for (i = 0; i < runs; i++) {
        double t0 = bench_now_s();
        if (fn(ctx, iters, &err)) {
            fail_result(r, &err);
            return -1;
        }
        samples[i] = (bench_now_s() - t0) / (double)iters * scale;
    }
    bench_stats(samples, runs, &r->st);
    r->iterations = (double)iters;
    return 0;
}

/* Time a sequence of child processes `runs` times (wall clock of the whole
   sequence, ms); exit status 0 expected unless any_status. */
static int measure_processes(bench_t *b, char *const *const argvs[], int n_cmds, int any_status,
                             result_t *r)
{
    double samples[64];
    int i, k, status, runs = b->process_runs < 64 ? b->process_runs : 64;
    gp_err_t err;
    for (i = -1; i < runs; i++) { /* one warm-up run: page cache, dynamic linker */
        double total = 0, wall;
        for (k = 0; k < n_cmds; k++) {
            char *const *argv = argvs[k];
            if (bench_spawn(argv, &wall, &status, &err)) {
                fail_result(r, &err);
                return -1;
            }
            if (status != 0 && !any_status) {
                gp_err_set(&err, "exit status %d from '%s %s ...'; run it by hand to see why",
                           status, argv[0], argv[1]);
                fail_result(r, &err);
                return -1;
            }
            total += wall;
        }
        if (i >= 0)
            samples[i] = total * 1e3;
    }
    bench_stats(samples, runs, &r->st);
    r->iterations = n_cmds;
    return 0;
}

/* One child process, timed `runs` times. */
static int measure_process(bench_t *b, char *const argv[], int any_status, result_t *r)
{
    char *const *const argvs[1] = {argv};
    return measure_processes(b, argvs, 1, any_status, r);
}

/* ------------------------------------------------------------ occupancy */

/* Occupancy queries over a few launch shapes. */
typedef struct occ_ctx {
    bench_t *b;
    uint64_t sink;
} occ_ctx_t;

static int op_occupancy(void *vctx, long iters, gp_err_t *err)
{
    occ_ctx_t *c = vctx;
    gp_launch_t l;
    gp_occupancy_t o;
    long i;
    memset(&l, 0, sizeof l);
    l.grid.x = 1000;
    l.grid.y = l.grid.z = l.block.y = l.block.z = 1;
    l.carveout_percent = -1;
    for (i = 0; i < iters; i++) {
        l.block.x = l.threads_per_block = 32u << (i & 5); /* 32 .. 1024 */
        l.regs_per_thread = 16 + (uint32_t)(i & 63);
        l.static_smem_bytes = (uint64_t)(i & 7) * 4096;
        if (gp_arch_occupancy(c->b->h200_arch, &c->b->h200, &l, &o, err))
            return -1;
        c->sink += o.blocks_per_sm;
    }
    return 0;
}

static void bench_occupancy(bench_t *b)
{
    occ_ctx_t c = {b, 0};
    result_t *r = add_result(b, "occupancy_query_us", "us",
                             "occupancy query (gp_arch_occupancy, h200-sxm)");
    measure(b, op_occupancy, &c, 1e6, r);
}

/* ----------------------------------------------------------- prediction */

/* One saxpy launch: script compiled once, or a workload built once. */
typedef struct predict_ctx {
    bench_t *b;
    gp_script_t *script;
    gp_param_kv_t kv[2];
    gp_workload_t wl; /* for engine-only timing */
    int mode;         /* 0: eval + predict, 1: predict only, 2: open + eval + predict */
    uint64_t events;
} predict_ctx_t;

static int op_predict(void *vctx, long iters, gp_err_t *err)
{
    predict_ctx_t *c = vctx;
    long i;
    for (i = 0; i < iters; i++) {
        gp_workload_t wl;
        gp_prediction_t p;
        if (c->mode == 1) {
            if (gp_predict(&c->b->h200, c->b->h200_arch, &c->wl, NULL, &p, err))
                return -1;
        } else {
            gp_script_t *s = c->script;
            if (c->mode == 2 && !(s = gp_script_open(c->b->saxpy, NULL, err)))
                return -1;
            if (gp_script_eval(s, &c->b->h200, c->kv, 2, &wl, err)) {
                if (c->mode == 2)
                    gp_script_close(s);
                return -1;
            }
            if (c->mode == 2)
                gp_script_close(s);
            if (gp_predict(&c->b->h200, c->b->h200_arch, &wl, NULL, &p, err)) {
                gp_workload_free(&wl);
                return -1;
            }
            gp_workload_free(&wl);
        }
        c->events = p.events;
        gp_prediction_free(&p);
    }
    return 0;
}

/* Run predictions for WARMUP_S before the first figure, so that the first
   one is not paid for a cold processor (clock ramp, caches, page faults). */
static void warm_up(bench_t *b)
{
    predict_ctx_t c;
    gp_err_t err;
    double t0 = bench_now_s();
    memset(&c, 0, sizeof c);
    c.b = b;
    c.kv[0].key = "n";
    c.kv[0].value = SMALL_N;
    c.kv[1].key = "block";
    c.kv[1].value = "256";
    c.script = gp_script_open(b->saxpy, NULL, &err);
    if (!c.script)
        return; /* the figures themselves will report it */
    while (bench_now_s() - t0 < WARMUP_S && op_predict(&c, 100, &err) == 0)
        ;
    gp_script_close(c.script);
}

/* Library figures for one grid size; returns the eval+predict result. */
static result_t *bench_predict_lib(bench_t *b, const char *n, const char *label,
                                   const char *key_eval, const char *key_engine,
                                   const char *key_cold)
{
    predict_ctx_t c;
    result_t *r_eval, *r_engine, *r_cold;
    gp_err_t err;
    memset(&c, 0, sizeof c);
    c.b = b;
    c.kv[0].key = "n";
    c.kv[0].value = n;
    c.kv[1].key = "block";
    c.kv[1].value = "256";
    r_eval = add_result(b, key_eval, "us", "predict saxpy, %s: script eval + predict", label);
    r_engine = add_result(b, key_engine, "us", "predict saxpy, %s: engine only", label);
    r_cold = add_result(b, key_cold, "us", "predict saxpy, %s: compile + eval + predict", label);
    c.script = gp_script_open(b->saxpy, NULL, &err);
    if (!c.script || gp_script_eval(c.script, &b->h200, c.kv, 2, &c.wl, &err)) {
        fail_result(r_eval, &err);
        fail_result(r_engine, &err);
        fail_result(r_cold, &err);
        gp_script_close(c.script);
        return r_eval;
    }
    c.mode = 0;
    measure(b, op_predict, &c, 1e6, r_eval);
    snprintf(r_eval->note, sizeof r_eval->note, "%llu simulation events",
             (unsigned long long)c.events);
    c.mode = 1;
    measure(b, op_predict, &c, 1e6, r_engine);
    c.mode = 2;
    measure(b, op_predict, &c, 1e6, r_cold);
    gp_workload_free(&c.wl);
    gp_script_close(c.script);
    return r_eval;
}

/* Whole gpuperf processes predicting saxpy with n elements. */
static result_t *bench_predict_process(bench_t *b, const char *n, const char *label,
                                       const char *key)
{
    char param[64];
    char *argv[] = {(char *)b->gpuperf, "predict", "--device", "h200-sxm", b->saxpy, "-p", param,
                    NULL};
    result_t *r = add_result(b, key, "ms", "gpuperf predict process, saxpy %s", label);
    snprintf(param, sizeof param, "n=%s", n);
    measure_process(b, argv, 0, r);
    return r;
}

/* ----------------------------------------------------- validation table */

/* All rows of the validation tables. */
typedef struct table_ctx {
    bench_t *b;
    bench_row_t *rows;
    size_t n;
    int cached; /* devices and scripts opened once, outside the timing */
    gp_device_t *devs;
    const gp_arch_t **archs;
    gp_script_t **scripts;
    size_t failed;
    char first_error[200];
} table_ctx_t;

/* Predict one row with what is open (cached) or opening everything. */
static int predict_row(table_ctx_t *c, size_t i, gp_err_t *err)
{
    gp_param_t split[32];
    gp_param_kv_t kv[32];
    char params[sizeof c->rows[i].params];
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_workload_t wl;
    gp_prediction_t p;
    int n, k, rc;
    gp_strlcpy(params, c->rows[i].params, sizeof params);
    n = gp_validate_split_params(params, split, 32);
    if (n < 0)
        return gp_err_set(err, "line %ld: bad script_params", c->rows[i].line);
    for (k = 0; k < n; k++) {
        kv[k].key = split[k].key;
        kv[k].value = split[k].value;
        kv[k].number = NULL;
    }
    if (c->cached) {
        rc = gp_script_eval(c->scripts[i], &c->devs[i], kv, (size_t)n, &wl, err);
        if (rc == 0)
            rc = gp_predict(&c->devs[i], c->archs[i], &wl, NULL, &p, err);
        else
            return -1;
    } else {
        if (gp_device_open(c->rows[i].device, &dev, &arch, err) ||
            gp_script_run(c->rows[i].script, NULL, &dev, kv, (size_t)n, &wl, err))
            return -1;
        rc = gp_predict(&dev, arch, &wl, NULL, &p, err);
    }
    gp_workload_free(&wl);
    if (rc == 0)
        gp_prediction_free(&p);
    return rc;
}

static int op_table(void *vctx, long iters, gp_err_t *err)
{
    table_ctx_t *c = vctx;
    long it;
    size_t i;
    (void)err;
    for (it = 0; it < iters; it++) {
        c->failed = 0;
        for (i = 0; i < c->n; i++) {
            gp_err_t e;
            if (predict_row(c, i, &e)) { /* a row that fails still took its time */
                if (c->failed++ == 0)
                    snprintf(c->first_error, sizeof c->first_error, "%.190s", e.msg);
            }
        }
    }
    return 0;
}

static void bench_table(bench_t *b)
{
    table_ctx_t c;
    result_t *r_open, *r_cached, *r_proc;
    gp_err_t err;
    int t;
    size_t i;
    char tables[512] = "";
    memset(&c, 0, sizeof c);
    c.b = b;
    for (t = 0; t < b->n_tables; t++) {
        const char *base = strrchr(b->tables[t], '/');
        size_t len = strlen(tables);
        snprintf(tables + len, sizeof tables - len, "%s%s", t ? "+" : "",
                 base ? base + 1 : b->tables[t]);
    }
    r_open = add_result(b, "table_library_ms", "ms", "validation table (%s), library", tables);
    r_cached = add_result(b, "table_library_cached_ms", "ms",
                          "validation table, library, devices+scripts opened once");
    r_proc = add_result(b, "table_process_ms", "ms", "gpuperf validate process, same table%s",
                        b->n_tables > 1 ? "s" : "");
    for (t = 0; t < b->n_tables; t++)
        if (bench_read_table(b->tables[t], &c.rows, &c.n, &err)) {
            fail_result(r_open, &err);
            fail_result(r_cached, &err);
            fail_result(r_proc, &err);
            free(c.rows);
            return;
        }
    b->table_rows = c.n;
    for (i = 0; i < c.n; i++) {
        b->h200_measured_us += c.rows[i].measured_us;
        b->h200_measured_all_us += c.rows[i].measured_us * c.rows[i].divide_by;
    }
    measure(b, op_table, &c, 1e3, r_open);
    snprintf(r_open->note, sizeof r_open->note, "%zu rows, %zu failed%s%s", c.n, c.failed,
             c.failed ? ": " : "", c.failed ? c.first_error : "");
    /* the same rows with every device and script opened beforehand */
    c.devs = calloc(c.n ? c.n : 1, sizeof *c.devs);
    c.archs = calloc(c.n ? c.n : 1, sizeof *c.archs);
    c.scripts = calloc(c.n ? c.n : 1, sizeof *c.scripts);
    if (!c.devs || !c.archs || !c.scripts) {
        gp_err_set(&err, "out of memory");
        fail_result(r_cached, &err);
    } else {
        for (i = 0; i < c.n; i++)
            if (gp_device_open(c.rows[i].device, &c.devs[i], &c.archs[i], &err) ||
                !(c.scripts[i] = gp_script_open(c.rows[i].script, NULL, &err)))
                break;
        if (i < c.n) {
            fail_result(r_cached, &err);
        } else {
            c.cached = 1;
            measure(b, op_table, &c, 1e3, r_cached);
        }
    }
    for (i = 0; c.scripts && i < c.n; i++)
        gp_script_close(c.scripts[i]);
    free(c.scripts);
    free(c.devs);
    free(c.archs);
    free(c.rows);
    /* whole processes: one gpuperf validate per table; a row that does not
       predict makes validate exit 1, and it is still timed */
    {
        char *argv[MAX_TABLES][4];
        char *const *argvs[MAX_TABLES];
        for (t = 0; t < b->n_tables; t++) {
            argv[t][0] = (char *)b->gpuperf;
            argv[t][1] = "validate";
            argv[t][2] = (char *)b->tables[t];
            argv[t][3] = NULL;
            argvs[t] = argv[t];
        }
        measure_processes(b, (char *const *const *)argvs, b->n_tables, 1, r_proc);
    }
}

/* -------------------------------------------------------------- compare */

/* Sorted *.ext file paths of a folder (at most MAX_LIST). */
static int list_files(const char *dir, const char *ext, char paths[][4096], int max)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0, i, j;
    size_t el = strlen(ext);
    if (!d)
        return 0;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len > el && strcmp(e->d_name + len - el, ext) == 0)
            snprintf(paths[n++], 4096, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    for (i = 1; i < n; i++) /* insertion sort: few names */
        for (j = i; j > 0 && strcmp(paths[j - 1], paths[j]) > 0; j--) {
            char tmp[4096];
            memcpy(tmp, paths[j], sizeof tmp);
            memcpy(paths[j], paths[j - 1], sizeof tmp);
            memcpy(paths[j - 1], tmp, sizeof tmp);
        }
    return n;
}

/* Every script on every device. */
typedef struct compare_ctx {
    gp_script_t *scripts[MAX_LIST];
    int n_scripts;
    gp_device_t devs[MAX_LIST];
    const gp_arch_t *archs[MAX_LIST];
    int n_devs;
} compare_ctx_t;

static int op_compare(void *vctx, long iters, gp_err_t *err)
{
    compare_ctx_t *c = vctx;
    long it;
    int s, d;
    for (it = 0; it < iters; it++)
        for (s = 0; s < c->n_scripts; s++)
            for (d = 0; d < c->n_devs; d++) {
                gp_workload_t wl;
                gp_prediction_t p;
                if (gp_script_eval(c->scripts[s], &c->devs[d], NULL, 0, &wl, err))
                    return -1;
                if (gp_predict(&c->devs[d], c->archs[d], &wl, NULL, &p, err)) {
                    gp_workload_free(&wl);
                    return -1;
                }
                gp_workload_free(&wl);
                gp_prediction_free(&p);
            }
    return 0;
}

static void bench_compare(bench_t *b)
{
    static char scripts[MAX_LIST][4096], devices[MAX_LIST][4096];
    char dir[4096], list[8192] = "";
    compare_ctx_t *c = calloc(1, sizeof *c);
    result_t *r_lib = add_result(b, "compare_library_ms", "ms",
                                 "compare: every script x every device, library");
    result_t *r_proc = add_result(b, "compare_process_ms", "ms",
                                  "compare: one gpuperf compare process per script, summed");
    gp_err_t err;
    int i, ns, nd;
    if (!c) {
        gp_err_set(&err, "out of memory");
        fail_result(r_lib, &err);
        return;
    }
    snprintf(dir, sizeof dir, "%s/scripts", b->source);
    ns = list_files(dir, ".lua", scripts, MAX_LIST);
    snprintf(dir, sizeof dir, "%s/devices", b->source);
    nd = list_files(dir, ".ini", devices, MAX_LIST);
    for (i = 0; i < nd; i++) {
        size_t len = strlen(list);
        if (gp_device_open(devices[i], &c->devs[i], &c->archs[i], &err))
            break;
        snprintf(list + len, sizeof list - len, "%s%s", i ? "," : "", c->devs[i].id);
    }
    c->n_devs = i;
    for (i = 0; i < ns && c->n_devs == nd; i++)
        if (!(c->scripts[i] = gp_script_open(scripts[i], NULL, &err)))
            break;
    c->n_scripts = i;
    if (c->n_devs < nd || c->n_scripts < ns || ns == 0 || nd == 0) {
        if (ns == 0 || nd == 0)
            gp_err_set(&err, "no scripts/*.lua or devices/*.ini under %s", b->source);
        fail_result(r_lib, &err);
        fail_result(r_proc, &err);
    } else {
        static char *argv[MAX_LIST][6];
        char *const *argvs[MAX_LIST];
        measure(b, op_compare, c, 1e3, r_lib);
        snprintf(r_lib->note, sizeof r_lib->note, "%d scripts x %d devices = %d predictions",
                 ns, nd, ns * nd);
        for (i = 0; i < ns; i++) {
            argv[i][0] = (char *)b->gpuperf;
            argv[i][1] = "compare";
            argv[i][2] = "--devices";
            argv[i][3] = list;
            argv[i][4] = scripts[i];
            argv[i][5] = NULL;
            argvs[i] = argv[i];
        }
        if (measure_processes(b, (char *const *const *)argvs, ns, 0, r_proc) == 0)
            snprintf(r_proc->note, sizeof r_proc->note, "%d processes, %d devices each", ns,
                     nd);
    }
    for (i = 0; i < c->n_scripts; i++)
        gp_script_close(c->scripts[i]);
    free(c);
}

/* ---------------------------------------------------------------- sweep */

/* The sweep throughput on `threads` threads, in points per second. */
static void bench_sweep_lib(bench_t *b, unsigned threads, result_t *r)
{
    gp_sweep_axis_t axes[2];
    gp_sweep_t *sw = NULL;
    gp_sweep_result_t *res = NULL;
    const gp_arch_t *archs[1] = {b->h200_arch};
    double samples[64];
    int i, runs = b->runs < 64 ? b->runs : 64;
    uint64_t points = 0;
    gp_err_t err;
    memset(axes, 0, sizeof axes);
    if (gp_sweep_axis_parse(SWEEP_BLOCK, &axes[0], &err) ||
        gp_sweep_axis_parse(SWEEP_N, &axes[1], &err) ||
        !(sw = gp_sweep_new(b->saxpy, NULL, &b->h200, archs, 1, axes, 2, threads, &err))) {
        fail_result(r, &err);
        goto out;
    }
    points = gp_sweep_points(sw);
    res = calloc(points, sizeof *res);
    if (!res) {
        gp_err_set(&err, "out of memory");
        fail_result(r, &err);
        goto out;
    }
    for (i = -1; i < runs; i++) { /* one warm-up run */
        double t0 = bench_now_s();
        if (gp_sweep_run(sw, 0, points, res, NULL, NULL, &err)) {
            fail_result(r, &err);
            goto out;
        }
        if (i >= 0)
            samples[i] = (double)points / (bench_now_s() - t0) / (double)threads;
        gp_sweep_results_clear(res, points);
    }
    bench_stats(samples, runs, &r->st);
    r->iterations = (double)points;
    snprintf(r->note, sizeof r->note, "%llu points (saxpy, %s, %s) on %u thread%s",
             (unsigned long long)points, SWEEP_BLOCK, SWEEP_N, threads, threads > 1 ? "s" : "");
out:
    free(res);
    gp_sweep_free(sw);
    gp_sweep_axis_free(&axes[0]);
    gp_sweep_axis_free(&axes[1]);
}

static void bench_sweep(bench_t *b)
{
    long np = sysconf(_SC_NPROCESSORS_ONLN);
    result_t *r1 = add_result(b, "sweep_points_per_s_per_core_1thread", "points/s",
                              "sweep, library, 1 thread: points/s per core");
    result_t *rn = add_result(b, "sweep_points_per_s_per_core_all", "points/s",
                              "sweep, library, %ld threads: points/s per core", np);
    result_t *rp = add_result(b, "sweep_process_points_per_s", "points/s",
                              "gpuperf sweep -j 1 process: points/s");
    char *argv[] = {(char *)b->gpuperf, "sweep", "--devices", "h200-sxm", b->saxpy, "-p",
                    SWEEP_BLOCK, "-p", SWEEP_N, "-j", "1", "-o", "/dev/null", NULL};
    bench_sweep_lib(b, 1, r1);
    bench_sweep_lib(b, np > 0 ? (unsigned)np : 1, rn);
    if (measure_process(b, argv, 0, rp) == 0 && !r1->failed) {
        /* wall ms per process -> points per second */
        double pts = r1->iterations, med = rp->st.median, mn = rp->st.min, mx = rp->st.max;
        rp->st.median = pts / (med / 1e3);
        rp->st.min = pts / (mx / 1e3);
        rp->st.max = pts / (mn / 1e3);
        snprintf(rp->note, sizeof rp->note, "%.0f points, whole process, median %.1f ms", pts,
                 med);
    }
}

/* --------------------------------------------------------------- output */

/* The processor's model name from /proc/cpuinfo. */
static void cpu_model(char *out, size_t size)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    gp_strlcpy(out, "unknown", size);
    if (!f)
        return;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                colon += 2;
                colon[strcspn(colon, "\n")] = '\0';
                gp_strlcpy(out, colon, size);
            }
            break;
        }
    fclose(f);
}

/* The figure called key, or NULL. */
static const result_t *find(const bench_t *b, const char *key)
{
    int i;
    for (i = 0; i < b->n_res; i++)
        if (strcmp(b->res[i].key, key) == 0 && !b->res[i].failed)
            return &b->res[i];
    return NULL;
}

/* One target: figure, goal, met or not. */
typedef struct check {
    const char *key, *what;
    double value, target;
    int met, known;
    char text[200];
} check_t;

/* The targets the figures are held to. */
static int make_checks(const bench_t *b, check_t *c)
{
    const result_t *small = find(b, "predict_small_us"), *huge = find(b, "predict_huge_us");
    const result_t *proc = find(b, "process_predict_small_ms");
    const result_t *table = find(b, "table_process_ms");
    const result_t *sweep = find(b, "sweep_points_per_s_per_core_1thread");
    int n = 0;
    memset(c, 0, 4 * sizeof *c);
    c[n].key = "blocks_ratio";
    c[n].what = "2^31-1 blocks vs 1000 blocks, eval + predict";
    if ((c[n].known = small && huge)) {
        c[n].value = huge->st.median / small->st.median;
        c[n].target = TARGET_BLOCKS_RATIO;
        c[n].met = c[n].value <= c[n].target;
        snprintf(c[n].text, sizeof c[n].text, "%.2fx (target <= %.0fx)", c[n].value,
                 c[n].target);
    }
    n++;
    c[n].key = "process_predict_ms";
    c[n].what = "whole gpuperf process, one prediction";
    if ((c[n].known = proc != NULL)) {
        c[n].value = proc->st.median;
        c[n].target = TARGET_PROCESS_MS;
        c[n].met = c[n].value < c[n].target;
        snprintf(c[n].text, sizeof c[n].text, "%.2f ms (target < %.0f ms)", c[n].value,
                 c[n].target);
    }
    n++;
    c[n].key = "table_vs_gpu";
    c[n].what = "validation table (gpuperf validate) vs the GPU running it";
    if ((c[n].known = table && b->h200_measured_us > 0)) {
        c[n].value = table->st.median;
        c[n].target = b->h200_measured_us / 1e3;
        c[n].met = c[n].value < c[n].target;
        snprintf(c[n].text, sizeof c[n].text,
                 "%.1f ms vs %.1f ms measured (sum of measured_us, %zu rows)", c[n].value,
                 c[n].target, b->table_rows);
    }
    n++;
    c[n].key = "sweep_per_core";
    c[n].what = "gpuperf sweep points per second per core (saxpy)";
    if ((c[n].known = sweep != NULL)) {
        c[n].value = sweep->st.median;
        c[n].target = TARGET_SWEEP_RATE;
        c[n].met = c[n].value >= c[n].target;
        snprintf(c[n].text, sizeof c[n].text, "%.0f (target >= %d)", c[n].value,
                 TARGET_SWEEP_RATE);
    }
    n++;
    return n;
}

static void print_table(const bench_t *b, const char *cpu, long np)
{
    check_t checks[4];
    int i, n;
    printf("gpuperf-bench: %s build, %s, %ld processors; medians of %d runs (%d for processes)\n\n",
           GP_BENCH_BUILD_TYPE, cpu, np, b->runs, b->process_runs);
    printf("%-62s %12s %12s %12s  %s\n", "measurement", "median", "min", "max", "unit");
    for (i = 0; i < b->n_res; i++) {
        const result_t *r = &b->res[i];
        if (r->failed)
            printf("%-62.62s %12s %12s %12s  %-8s %s\n", r->what, "-", "-", "-", r->unit, r->note);
        else
            printf("%-62.62s %12.4g %12.4g %12.4g  %-8s %s\n", r->what, r->st.median, r->st.min,
                   r->st.max, r->unit, r->note);
    }
    if (b->tables_default)
        printf("\n(validation/h200/calibration.csv is absent: the table figures use "
               "validation/published/*.csv)\n");
    if (b->h200_measured_all_us > b->h200_measured_us * 1.0001)
        printf("\nmeasured_us sums to %.1f ms; with the repetitions of divide_by rows, the GPU "
               "ran %.1f ms of kernels\n",
               b->h200_measured_us / 1e3, b->h200_measured_all_us / 1e3);
    n = make_checks(b, checks);
    printf("\ntargets:\n");
    for (i = 0; i < n; i++)
        printf("  %-62s %s%s\n", checks[i].what, checks[i].known ? checks[i].text : "not measured",
               checks[i].known ? (checks[i].met ? "  met" : "  NOT MET") : "");
}

static int write_json(const bench_t *b, const char *path, const char *cpu, long np)
{
    cJSON *doc = cJSON_CreateObject(), *m = cJSON_CreateObject(), *arr = cJSON_CreateArray(),
          *tg = cJSON_CreateObject(), *tabs = cJSON_CreateArray();
    check_t checks[4];
    char *text;
    gp_err_t err;
    int i, n, rc;
    cJSON_AddStringToObject(m, "cpu", cpu);
    cJSON_AddNumberToObject(m, "nproc", (double)np);
    cJSON_AddStringToObject(m, "build_type", GP_BENCH_BUILD_TYPE);
    cJSON_AddItemToObject(doc, "machine", m);
    cJSON_AddNumberToObject(doc, "runs", b->runs);
    cJSON_AddNumberToObject(doc, "process_runs", b->process_runs);
    for (i = 0; i < b->n_tables; i++)
        cJSON_AddItemToArray(tabs, cJSON_CreateString(b->tables[i]));
    cJSON_AddItemToObject(doc, "tables", tabs);
    cJSON_AddNumberToObject(doc, "table_rows", (double)b->table_rows);
    cJSON_AddNumberToObject(doc, "table_measured_us", b->h200_measured_us);
    for (i = 0; i < b->n_res; i++) {
        const result_t *r = &b->res[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", r->key);
        cJSON_AddStringToObject(o, "what", r->what);
        cJSON_AddStringToObject(o, "unit", r->unit);
        if (r->failed) {
            cJSON_AddStringToObject(o, "error", r->note);
        } else {
            cJSON_AddNumberToObject(o, "median", r->st.median);
            cJSON_AddNumberToObject(o, "min", r->st.min);
            cJSON_AddNumberToObject(o, "max", r->st.max);
            cJSON_AddNumberToObject(o, "runs", r->st.n);
            cJSON_AddNumberToObject(o, "iterations", r->iterations);
            if (r->note[0])
                cJSON_AddStringToObject(o, "note", r->note);
        }
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddItemToObject(doc, "results", arr);
    n = make_checks(b, checks);
    for (i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "what", checks[i].what);
        if (checks[i].known) {
            cJSON_AddNumberToObject(o, "value", checks[i].value);
            cJSON_AddNumberToObject(o, "target", checks[i].target);
            cJSON_AddBoolToObject(o, "met", checks[i].met);
        }
        cJSON_AddItemToObject(tg, checks[i].key, o);
    }
    cJSON_AddItemToObject(doc, "targets", tg);
    text = cJSON_Print(doc);
    cJSON_Delete(doc);
    if (!text) {
        fprintf(stderr, "gpuperf-bench: --json %s: out of memory\n", path);
        return -1;
    }
    rc = gp_write_file_atomic(path, text, strlen(text), &err);
    cJSON_free(text);
    if (rc)
        fprintf(stderr, "gpuperf-bench: --json %s\n", err.msg);
    return rc;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpuperf-bench [--json FILE] [--runs N] [--process-runs N] [--quick]\n"
            "                     [--gpuperf PATH] [--source DIR] [--table CSV ...]\n\n"
            "Times gpuperf on this machine and prints medians (with min and max) of:\n"
            "an occupancy query; one saxpy prediction with 1000 and with 2^31-1 blocks\n"
            "(script eval + predict, engine only, compile + eval + predict, and whole\n"
            "gpuperf processes); every row of the validation table(s) in the library and as\n"
            "gpuperf validate; every shipped script on every shipped device; sweep\n"
            "throughput. Then the targets: 2^31-1 blocks within 2x of 1000, a whole process\n"
            "under 50 ms, the table faster than the GPU ran it, 100,000 sweep points per\n"
            "second per core.\n\n"
            "  --json FILE        also write the figures as JSON\n"
            "  --runs N           samples per library figure (default 7)\n"
            "  --process-runs N   samples per whole-process figure (default 21)\n"
            "  --quick            3 runs, shorter samples (a smoke test)\n"
            "  --gpuperf PATH     the gpuperf binary (default: the one of this build)\n"
            "  --source DIR       the source tree with scripts/ and devices/\n"
            "  --table CSV        validation table(s) (default validation/h200/calibration.csv,\n"
            "                     or validation/published/*.csv where it is absent)\n");
}

/* Default tables: the H200 one, or the published ones. */
static void default_tables(bench_t *b)
{
    static char paths[MAX_TABLES][4096];
    static const char *const published[] = {"ampere", "fermi-kepler", "tesla"};
    struct stat st;
    size_t i;
    snprintf(paths[0], sizeof paths[0], "%s/validation/h200/calibration.csv", b->source);
    if (stat(paths[0], &st) == 0) {
        b->tables[b->n_tables++] = paths[0];
        return;
    }
    b->tables_default = 1;
    for (i = 0; i < sizeof published / sizeof *published; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/validation/published/%s.csv", b->source,
                 published[i]);
        if (stat(paths[i], &st) == 0)
            b->tables[b->n_tables++] = paths[i];
    }
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", required_argument, 0, 'j'},   {"runs", required_argument, 0, 'r'},
        {"process-runs", required_argument, 0, 'P'},
        {"quick", no_argument, 0, 'q'},        {"gpuperf", required_argument, 0, 'g'},
        {"source", required_argument, 0, 's'}, {"table", required_argument, 0, 't'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    static bench_t b;
    const char *json = NULL;
    char cpu[256];
    long np = sysconf(_SC_NPROCESSORS_ONLN);
    gp_err_t err;
    int c, rc = 0, i;
    b.gpuperf = GP_BUILD_DIR "/gpuperf";
    b.source = GP_SOURCE_DIR;
    b.runs = 7;
    b.process_runs = 21;
    b.target_s = 0.05;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'j': json = optarg; break;
        case 'r':
        case 'P': {
            int v = atoi(optarg);
            if (v < 1 || v > 64) {
                fprintf(stderr, "gpuperf-bench: %s %s: a count, 1..64\n",
                        c == 'r' ? "--runs" : "--process-runs", optarg);
                return 2;
            }
            *(c == 'r' ? &b.runs : &b.process_runs) = v;
            break;
        }
        case 'q':
            b.runs = b.process_runs = 3;
            b.target_s = 0.01;
            break;
        case 'g': b.gpuperf = optarg; break;
        case 's': b.source = optarg; break;
        case 't':
            if (b.n_tables >= MAX_TABLES) {
                fprintf(stderr, "gpuperf-bench: at most %d --table\n", MAX_TABLES);
                return 2;
            }
            b.tables[b.n_tables++] = optarg;
            break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gpuperf-bench: unexpected '%s' (see --help)\n", argv[optind]);
        return 2;
    }
    if (access(b.gpuperf, X_OK) != 0) {
        fprintf(stderr, "gpuperf-bench: %s is not an executable; build gpuperf or give "
                        "--gpuperf PATH\n",
                b.gpuperf);
        return 2;
    }
    snprintf(b.saxpy, sizeof b.saxpy, "%s/scripts/saxpy.lua", b.source);
    if (gp_device_open("h200-sxm", &b.h200, &b.h200_arch, &err)) {
        fprintf(stderr, "gpuperf-bench: %s\n", err.msg);
        return 1;
    }
    if (b.n_tables == 0)
        default_tables(&b);
    cpu_model(cpu, sizeof cpu);

    warm_up(&b);
    bench_occupancy(&b);
    bench_predict_lib(&b, SMALL_N, "1000 blocks", "predict_small_us", "engine_small_us",
                      "cold_small_us");
    bench_predict_lib(&b, HUGE_N, "2^31-1 blocks", "predict_huge_us", "engine_huge_us",
                      "cold_huge_us");
    bench_predict_process(&b, SMALL_N, "1000 blocks", "process_predict_small_ms");
    bench_predict_process(&b, HUGE_N, "2^31-1 blocks", "process_predict_huge_ms");
    bench_table(&b);
    bench_compare(&b);
    bench_sweep(&b);

    print_table(&b, cpu, np);
    if (json && write_json(&b, json, cpu, np))
        rc = 1;
    for (i = 0; i < b.n_res; i++)
        if (b.res[i].failed)
            rc = 1;
    gp_arch_unload_all();
    return rc;
}
