/*
 * fitted.c - the registry of row-fitted model constants (see fitted.h), the
 * thread's overrides of a validation run, and the fitting rule.
 */
#include "fitted.h"

#include <math.h>
#include <string.h>

#include "constants.h"

const gp_fit_const_t gp_fit_registry[GP_FIT_COUNT] = {
    [GP_FIT_BLOCK_RETIRE_SKEW] = {"GP_BLOCK_RETIRE_SKEW", GP_BLOCK_RETIRE_SKEW, 0.0, 1.0, 0,
                                  "stream alu",
                                  "block-size sweeps: triad bs=32..1024, fma_ilp4 bs=64..1024"},
    [GP_FIT_MLP_INFLIGHT_BYTES_PER_THREAD] = {"GP_MLP_INFLIGHT_BYTES_PER_THREAD",
                                              GP_MLP_INFLIGHT_BYTES_PER_THREAD, 4.0, 64.0, 1,
                                              "stream", "copy_float4 n=2^28"},
};

/* This thread's overrides (a validation run's; never shared between threads). */
static _Thread_local struct {
    int set;
    double value;
} fit_override[GP_FIT_COUNT];

double gp_fit_value(gp_fit_id_t id)
{
    if ((unsigned)id >= GP_FIT_COUNT)
        return NAN;
    return fit_override[id].set ? fit_override[id].value : gp_fit_registry[id].shipped;
}

void gp_fit_override(gp_fit_id_t id, double value)
{
    if ((unsigned)id >= GP_FIT_COUNT)
        return;
    fit_override[id].set = 1;
    fit_override[id].value = value;
}

void gp_fit_reset(void)
{
    memset(fit_override, 0, sizeof fit_override);
}

int gp_fit_uses_family(const gp_fit_const_t *c, const char *family)
{
    size_t n = strlen(family);
    const char *p = c->families;
    if (!n)
        return 0;
    while (*p) {
        size_t len = strcspn(p, " ");
        if (len == n && strncmp(p, family, n) == 0)
            return 1;
        p += len;
        p += strspn(p, " ");
    }
    return 0;
}

/* Search scale: log(value) or value. */
static double to_scale(const gp_fit_const_t *c, double v)
{
    return c->log_scale ? log(v) : v;
}

static double from_scale(const gp_fit_const_t *c, double x)
{
    return c->log_scale ? exp(x) : x;
}

/* The search's state: the best point so far. */
typedef struct fit_search {
    const gp_fit_const_t *c;
    double (*cost)(double, void *, int *);
    void *ud;
    double best_x, best_cost;
    double first;            /* the first cost evaluated */
    int n, differ, stop;
} fit_search_t;

/* Cost at scale point x, keeping the best (NaN counts as +inf). */
static double eval_at(fit_search_t *s, double x)
{
    double f = s->stop ? INFINITY : s->cost(from_scale(s->c, x), s->ud, &s->stop);
    if (isnan(f))
        f = INFINITY;
    if (s->n++ == 0)
        s->first = f;
    else if (f != s->first)
        s->differ = 1;
    if (f < s->best_cost || (f == s->best_cost && x < s->best_x)) {
        s->best_cost = f;
        s->best_x = x;
    }
    return f;
}

int gp_fit_search(const gp_fit_const_t *c, double (*cost)(double value, void *ud, int *stop),
                  void *ud, double *best, double *best_cost, int *flat)
{
    const double r = (sqrt(5.0) - 1) / 2; /* 0.618... */
    fit_search_t s = {c, cost, ud, NAN, INFINITY, NAN, 0, 0, 0};
    double lo = to_scale(c, c->lo), hi = to_scale(c, c->hi);
    double step = (hi - lo) / (GP_FIT_GRID_POINTS - 1), a, b, x1, x2, f1, f2;
    int i, k = 0;
    double grid_best = INFINITY;
    s.best_x = lo;
    for (i = 0; i < GP_FIT_GRID_POINTS; i++) {
        double f = eval_at(&s, lo + i * step);
        if (f < grid_best) {
            grid_best = f;
            k = i;
        }
    }
    a = lo + (k > 0 ? k - 1 : 0) * step;
    b = lo + (k < GP_FIT_GRID_POINTS - 1 ? k + 1 : k) * step;
    x1 = b - r * (b - a);
    x2 = a + r * (b - a);
    f1 = eval_at(&s, x1);
    f2 = eval_at(&s, x2);
    for (i = 2; i < GP_FIT_GOLDEN_EVALS; i++) {
        if (f1 <= f2) { /* the minimum lies in [a, x2] */
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - r * (b - a);
            f1 = eval_at(&s, x1);
        } else { /* in [x1, b] */
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + r * (b - a);
            f2 = eval_at(&s, x2);
        }
    }
    if (s.stop)
        return -1;
    *flat = !s.differ;
    *best = *flat ? c->shipped : from_scale(c, s.best_x);
    *best_cost = s.best_cost;
    return 0;
}
