/*
 * sweep.c - a workload script predicted over a grid of parameters and
 * devices, on a pool of threads (see sweep.h).
 */
#include "sweep.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"

#define SWEEP_CHUNK 16             /* points a worker claims at a time */
#define SWEEP_PROGRESS_NS 100000000 /* 100 ms between progress calls */
#define SWEEP_VALUE_MAX 128        /* characters of one value's text */
#define SWEEP_RANGE_EPS 1e-9       /* relative slack so A:B:STEP reaches B */

struct gp_sweep {
    const gp_device_t *devs;
    const gp_arch_t *const *archs;
    uint32_t n_devices;
    const gp_sweep_axis_t *axes;
    uint32_t n_axes;
    uint64_t combos; /* combinations of axis values per device */
    uint64_t points;
    unsigned n_threads;
    gp_script_t **scripts; /* one per thread */
    /* per axis and value: what gp_parse_number reads from the value's text
       (read once here, not by the script at every point), and whether it
       reads a number there */
    double *parsed[GP_SWEEP_MAX_AXES];
    unsigned char *parsed_ok[GP_SWEEP_MAX_AXES];
};

/* ------------------------------------------------------------------ axes */

/* Text of a number, as short as reads back exactly ("1024", "0.5"). */
static void number_text(double v, char *buf, size_t size)
{
    int prec;
    for (prec = 15; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* A value computed by a range, rounded to 15 significant digits so that
   0 + 3 * 0.1 reads "0.3"; whole numbers below 2^53 stay exact. */
static double range_value(double v)
{
    char buf[64];
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        return v;
    snprintf(buf, sizeof buf, "%.15g", v);
    return strtod(buf, NULL);
}

/* Append one value (text, number or NaN) to an axis being built. */
static int axis_push(gp_sweep_axis_t *a, uint32_t *cap, const char *text, double number,
                     const char *arg, gp_err_t *err)
{
    char buf[SWEEP_VALUE_MAX];
    if (a->n_values >= GP_SWEEP_MAX_POINTS)
        return gp_err_set(err, "-p %s: more than %llu values; raise the step or narrow the "
                               "range",
                          arg, (unsigned long long)GP_SWEEP_MAX_POINTS);
    if (a->n_values == *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 16;
        char **v = realloc(a->values, ncap * sizeof *v);
        double *d;
        if (!v)
            return gp_err_set(err, "-p %s: out of memory", arg);
        a->values = v;
        d = realloc(a->numbers, ncap * sizeof *d);
        if (!d)
            return gp_err_set(err, "-p %s: out of memory", arg);
        a->numbers = d;
        *cap = ncap;
    }
    if (!text) {
        number_text(number, buf, sizeof buf);
        text = buf;
    }
    a->values[a->n_values] = strdup(text);
    if (!a->values[a->n_values])
        return gp_err_set(err, "-p %s: out of memory", arg);
    a->numbers[a->n_values++] = number;
    return 0;
}

/* A:B:STEP, A:B or A:B:*F. */
static int axis_range(gp_sweep_axis_t *a, uint32_t *cap, const char *arg, char *spec,
                      gp_err_t *err)
{
    char *p2 = strchr(spec, ':'), *p3;
    double lo, hi, step = 1;
    int geometric = 0;
    gp_err_t e;
    *p2++ = '\0';
    p3 = strchr(p2, ':');
    if (p3)
        *p3++ = '\0';
    if (p3 && strchr(p3, ':'))
        return gp_err_set(err, "-p %s: a range is A:B:STEP (or A:B:*FACTOR)", arg);
    if (gp_parse_number(spec, &lo, &e))
        return gp_err_set(err, "-p %s: range start: %s", arg, e.msg);
    if (gp_parse_number(p2, &hi, &e))
        return gp_err_set(err, "-p %s: range end: %s", arg, e.msg);
    if (p3) {
        geometric = *p3 == '*';
        if (gp_parse_number(p3 + geometric, &step, &e))
            return gp_err_set(err, "-p %s: range step: %s", arg, e.msg);
    }
    if (hi < lo)
        return gp_err_set(err, "-p %s: the range ends (%g) below its start (%g)", arg, hi, lo);
    if (geometric) {
        double v;
        if (!(step > 1) || !(lo > 0))
            return gp_err_set(err, "-p %s: A:B:*F needs A > 0 and a factor F > 1", arg);
        if (log(hi / lo) / log(step) >= (double)GP_SWEEP_MAX_POINTS)
            return gp_err_set(err, "-p %s: more than %llu values, the limit; raise the factor "
                                   "or narrow the range",
                              arg, (unsigned long long)GP_SWEEP_MAX_POINTS);
        for (v = lo; v <= hi * (1 + SWEEP_RANGE_EPS); v *= step)
            if (axis_push(a, cap, NULL, range_value(v), arg, err))
                return -1;
    } else {
        double n;
        uint64_t i;
        if (!(step > 0))
            return gp_err_set(err, "-p %s: the step must be > 0 (got %g)", arg, step);
        n = floor((hi - lo) / step + SWEEP_RANGE_EPS) + 1;
        if (n > (double)GP_SWEEP_MAX_POINTS)
            return gp_err_set(err, "-p %s: %.0f values, more than the limit of %llu; raise the "
                                   "step or narrow the range",
                              arg, n, (unsigned long long)GP_SWEEP_MAX_POINTS);
        for (i = 0; i < (uint64_t)n; i++)
            if (axis_push(a, cap, NULL, range_value(lo + (double)i * step), arg, err))
                return -1;
    }
    return 0;
}

/* v1,v2,...: numbers are normalised, other words kept as text. */
static int axis_list(gp_sweep_axis_t *a, uint32_t *cap, const char *arg, char *spec,
                     gp_err_t *err)
{
    char *item = spec;
    for (;;) {
        char *comma = strchr(item, ',');
        double v;
        gp_err_t e;
        if (comma)
            *comma = '\0';
        while (*item == ' ')
            item++;
        if (!*item)
            return gp_err_set(err, "-p %s: empty value in the list", arg);
        if (strlen(item) >= SWEEP_VALUE_MAX)
            return gp_err_set(err, "-p %s: a value is longer than %d characters", arg,
                              SWEEP_VALUE_MAX - 1);
        if (gp_parse_number(item, &v, &e) == 0) {
            if (axis_push(a, cap, NULL, v, arg, err))
                return -1;
        } else if (axis_push(a, cap, item, NAN, arg, err)) {
            return -1;
        }
        if (!comma)
            return 0;
        item = comma + 1;
    }
}

int gp_sweep_axis_parse(const char *arg, gp_sweep_axis_t *out, gp_err_t *err)
{
    const char *eq;
    char *spec;
    uint32_t cap = 0;
    int rc;
    memset(out, 0, sizeof *out);
    if (!arg)
        return gp_err_set(err, "-p: no value; write -p key=value");
    eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        return gp_err_set(err, "-p %s: write -p key=VALUE, key=A:B:STEP or key=V1,V2,...", arg);
    if ((size_t)(eq - arg) >= sizeof out->name)
        return gp_err_set(err, "-p %s: parameter name longer than %zu characters", arg,
                          sizeof out->name - 1);
    memcpy(out->name, arg, (size_t)(eq - arg));
    out->name[eq - arg] = '\0';
    spec = strdup(eq + 1);
    if (!spec)
        return gp_err_set(err, "-p %s: out of memory", arg);
    rc = strchr(spec, ':') ? axis_range(out, &cap, arg, spec, err)
                           : axis_list(out, &cap, arg, spec, err);
    free(spec);
    if (rc)
        gp_sweep_axis_free(out);
    return rc;
}

void gp_sweep_axis_free(gp_sweep_axis_t *a)
{
    uint32_t i;
    if (!a)
        return;
    for (i = 0; i < a->n_values; i++)
        free(a->values[i]);
    free(a->values);
    free(a->numbers);
    memset(a, 0, sizeof *a);
}

/* ----------------------------------------------------------------- sweep */

gp_sweep_t *gp_sweep_new(const char *script, const gp_script_opts_t *opts,
                         const gp_device_t *devs, const gp_arch_t *const *archs,
                         uint32_t n_devices, const gp_sweep_axis_t *axes, uint32_t n_axes,
                         unsigned n_threads, gp_err_t *err)
{
    gp_sweep_t *s;
    double points = n_devices;
    uint32_t i, j;
    if (!script || !devs || !archs || n_devices == 0) {
        gp_err_set(err, "sweep: no script or no device");
        return NULL;
    }
    if (n_axes > GP_SWEEP_MAX_AXES || (n_axes && !axes)) {
        gp_err_set(err, "sweep: at most %d parameters", GP_SWEEP_MAX_AXES);
        return NULL;
    }
    for (i = 0; i < n_axes; i++) {
        if (axes[i].n_values == 0) {
            gp_err_set(err, "-p %s: no values", axes[i].name);
            return NULL;
        }
        for (j = 0; j < i; j++)
            if (strcmp(axes[i].name, axes[j].name) == 0) {
                gp_err_set(err, "-p %s: given twice; give each parameter once (as a list "
                                "a,b,c to take several values)",
                           axes[i].name);
                return NULL;
            }
        points *= axes[i].n_values;
    }
    if (points > (double)GP_SWEEP_MAX_POINTS) {
        gp_err_set(err, "the sweep has %.0f points (devices x parameter values), more than the "
                        "limit of %llu; narrow a range, raise its step or sweep in parts",
                   points, (unsigned long long)GP_SWEEP_MAX_POINTS);
        return NULL;
    }
    if (n_threads == 0) {
        long np = sysconf(_SC_NPROCESSORS_ONLN);
        n_threads = np > 0 ? (unsigned)np : 1;
    }
    if (n_threads > GP_SWEEP_MAX_THREADS)
        n_threads = GP_SWEEP_MAX_THREADS;
    if ((double)n_threads > points)
        n_threads = (unsigned)points;
    s = calloc(1, sizeof *s);
    if (!s || !(s->scripts = calloc(n_threads, sizeof *s->scripts))) {
        free(s);
        gp_err_set(err, "sweep: out of memory");
        return NULL;
    }
    s->devs = devs;
    s->archs = archs;
    s->n_devices = n_devices;
    s->axes = axes;
    s->n_axes = n_axes;
    s->points = (uint64_t)points;
    s->combos = s->points / n_devices;
    s->n_threads = n_threads;
    for (i = 0; i < n_axes; i++) {
        s->parsed[i] = malloc(axes[i].n_values * sizeof *s->parsed[i]);
        s->parsed_ok[i] = malloc(axes[i].n_values);
        if (!s->parsed[i] || !s->parsed_ok[i]) {
            gp_sweep_free(s);
            gp_err_set(err, "sweep: out of memory");
            return NULL;
        }
        for (j = 0; j < axes[i].n_values; j++) {
            gp_err_t perr;
            s->parsed_ok[i][j] = gp_parse_number(axes[i].values[j], &s->parsed[i][j], &perr) == 0;
        }
    }
    for (i = 0; i < n_threads; i++) {
        s->scripts[i] = gp_script_open(script, opts, err);
        if (!s->scripts[i]) {
            gp_sweep_free(s);
            return NULL;
        }
    }
    return s;
}

uint64_t gp_sweep_points(const gp_sweep_t *s)
{
    return s ? s->points : 0;
}

unsigned gp_sweep_threads(const gp_sweep_t *s)
{
    return s ? s->n_threads : 0;
}

void gp_sweep_point(const gp_sweep_t *s, uint64_t index, uint32_t *device, uint32_t *value_idx)
{
    uint64_t rest = index % s->combos;
    uint32_t a;
    *device = (uint32_t)(index / s->combos);
    for (a = s->n_axes; a-- > 0;) {
        value_idx[a] = (uint32_t)(rest % s->axes[a].n_values);
        rest /= s->axes[a].n_values;
    }
}

/* State shared by the workers of one run. */
typedef struct sweep_run {
    gp_sweep_t *s;
    uint64_t first, count;
    gp_sweep_result_t *results;
    atomic_uint_fast64_t next; /* next point (relative) to claim */
    atomic_uint_fast64_t done; /* points finished */
    atomic_uint_fast64_t fail; /* lowest failing point (relative), or count */
} sweep_run_t;

/* One worker: its script, its failure. */
typedef struct sweep_worker {
    sweep_run_t *run;
    gp_script_t *script;
    pthread_t thread;
    int started;
    uint64_t fail_at; /* relative index of its first failure, or count */
    gp_err_t err;
    gp_sweep_progress_fn progress; /* the calling thread's worker only */
    void *ud;
} sweep_worker_t;

/* Record a failure at point i (relative) if it is the lowest so far. */
static void note_fail(sweep_worker_t *w, uint64_t i)
{
    uint_fast64_t cur = atomic_load(&w->run->fail);
    while (i < cur && !atomic_compare_exchange_weak(&w->run->fail, &cur, i))
        ;
    if (i < w->fail_at)
        w->fail_at = i;
}

/* Evaluate and predict one point; -1 on a script error (w->err set). */
static int eval_point(sweep_worker_t *w, uint64_t index, gp_param_kv_t *kv,
                      gp_sweep_result_t *r)
{
    const gp_sweep_t *s = w->run->s;
    uint32_t dev, vi[GP_SWEEP_MAX_AXES], a, i, best = 0;
    gp_workload_t wl;
    gp_prediction_t pred;
    gp_err_t perr;
    gp_sweep_point(s, index, &dev, vi);
    for (a = 0; a < s->n_axes; a++) {
        kv[a].key = s->axes[a].name;
        kv[a].value = s->axes[a].values[vi[a]];
        kv[a].number = s->parsed_ok[a][vi[a]] ? &s->parsed[a][vi[a]] : NULL;
    }
    memset(r, 0, sizeof *r);
    if (gp_script_eval(w->script, &s->devs[dev], kv, s->n_axes, &wl, &w->err))
        return -1;
    if (gp_predict(&s->devs[dev], s->archs[dev], &wl, NULL, &pred, &perr)) {
        gp_workload_free(&wl);
        r->error = strdup(perr.msg);
        return r->error ? 0 : gp_err_set(&w->err, "out of memory");
    }
    r->total_us = pred.total_us;
    r->launches = gp_workload_launches(&wl);
    r->commands = pred.n_cmds;
    for (i = 1; i < pred.n_cmds; i++)
        if (pred.cmds[i].time_us > pred.cmds[best].time_us)
            best = i;
    if (pred.n_cmds > 0) {
        const gp_cmd_result_t *c = &pred.cmds[best];
        r->is_copy = c->type != GP_CMD_LAUNCH;
        if (!r->is_copy) {
            r->bound = c->bound;
            r->blocks_per_sm = c->occ.blocks_per_sm;
            r->limiter = c->occ.limiter;
            r->occupancy = c->occ.occupancy;
        }
    }
    gp_prediction_free(&pred);
    gp_workload_free(&wl);
    return 0;
}

/* Nanoseconds on the monotonic clock. */
static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Claim chunks of points until none are left or an earlier point failed. */
static void *worker_main(void *arg)
{
    sweep_worker_t *w = arg;
    sweep_run_t *run = w->run;
    gp_param_kv_t kv[GP_SWEEP_MAX_AXES];
    uint64_t last_ns = w->progress ? now_ns() : 0;
    for (;;) {
        uint64_t i = atomic_fetch_add(&run->next, SWEEP_CHUNK), start = i, end;
        if (i >= run->count || i > atomic_load(&run->fail))
            break;
        end = GP_MIN(i + SWEEP_CHUNK, run->count);
        for (; i < end; i++) {
            /* points before the lowest failure must all run, so the error
               reported is the first in index order whatever the threads */
            if (i > atomic_load(&run->fail))
                break;
            if (eval_point(w, run->first + i, kv, &run->results[i])) {
                note_fail(w, i);
                break;
            }
        }
        atomic_fetch_add(&run->done, i - start);
        if (w->progress && now_ns() - last_ns >= SWEEP_PROGRESS_NS) {
            w->progress(w->ud, atomic_load(&run->done), run->count);
            last_ns = now_ns();
        }
    }
    return NULL;
}

int gp_sweep_run(gp_sweep_t *s, uint64_t first, uint64_t count, gp_sweep_result_t *results,
                 gp_sweep_progress_fn progress, void *ud, gp_err_t *err)
{
    sweep_run_t run;
    sweep_worker_t *w;
    unsigned n, t;
    uint64_t fail;
    if (!s || (count && !results))
        return gp_err_set(err, "sweep: nothing to run");
    if (first > s->points || count > s->points - first)
        return gp_err_set(err, "sweep: points %llu..%llu outside 0..%llu",
                          (unsigned long long)first, (unsigned long long)(first + count),
                          (unsigned long long)s->points);
    if (count == 0)
        return 0;
    memset(results, 0, count * sizeof *results);
    n = s->n_threads;
    if ((uint64_t)n > (count + SWEEP_CHUNK - 1) / SWEEP_CHUNK)
        n = (unsigned)((count + SWEEP_CHUNK - 1) / SWEEP_CHUNK);
    w = calloc(n, sizeof *w);
    if (!w)
        return gp_err_set(err, "sweep: out of memory");
    run.s = s;
    run.first = first;
    run.count = count;
    run.results = results;
    atomic_init(&run.next, 0);
    atomic_init(&run.done, 0);
    atomic_init(&run.fail, count);
    for (t = 0; t < n; t++) {
        w[t].run = &run;
        w[t].script = s->scripts[t];
        w[t].fail_at = count;
    }
    w[0].progress = progress;
    w[0].ud = ud;
    /* a thread that cannot start leaves its share to the others */
    for (t = 1; t < n; t++)
        w[t].started = pthread_create(&w[t].thread, NULL, worker_main, &w[t]) == 0;
    worker_main(&w[0]);
    for (t = 1; t < n; t++)
        if (w[t].started)
            pthread_join(w[t].thread, NULL);
    fail = atomic_load(&run.fail);
    if (fail < count) {
        for (t = 0; t < n; t++)
            if (w[t].fail_at == fail)
                break;
        {
            char where[512];
            uint32_t dev, vi[GP_SWEEP_MAX_AXES], a;
            size_t len;
            gp_sweep_point(s, first + fail, &dev, vi);
            len = (size_t)snprintf(where, sizeof where, "point %llu (%s",
                                   (unsigned long long)(first + fail), s->devs[dev].id);
            for (a = 0; a < s->n_axes && len < sizeof where; a++)
                len += (size_t)snprintf(where + len, sizeof where - len, ", %s=%s",
                                        s->axes[a].name, s->axes[a].values[vi[a]]);
            if (len < sizeof where)
                snprintf(where + len, sizeof where - len, ")");
            if (err)
                *err = w[t].err;
            gp_err_prefix(err, "%s", where);
        }
        free(w);
        return -1;
    }
    if (progress)
        progress(ud, count, count);
    free(w);
    return 0;
}

void gp_sweep_results_clear(gp_sweep_result_t *results, uint64_t count)
{
    uint64_t i;
    if (!results)
        return;
    for (i = 0; i < count; i++)
        free(results[i].error);
    memset(results, 0, count * sizeof *results);
}

void gp_sweep_free(gp_sweep_t *s)
{
    unsigned i;
    if (!s)
        return;
    for (i = 0; i < s->n_threads; i++)
        gp_script_close(s->scripts[i]);
    for (i = 0; i < GP_SWEEP_MAX_AXES; i++) {
        free(s->parsed[i]);
        free(s->parsed_ok[i]);
    }
    free(s->scripts);
    free(s);
}
