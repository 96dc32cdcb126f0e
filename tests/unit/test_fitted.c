/*
 * test_fitted.c - the registry of row-fitted constants (fitted.c): its
 * values are those of constants.h, an override reaches the model and is
 * dropped by a reset, and the fitting rule finds a minimum, keeps to its
 * range and budget, and keeps the shipped value on a flat cost.
 */
#include "test_common.h"

#include <math.h>

#include "constants.h"
#include "fitted.h"
#include "gpuperf/gpuperf.h"

static void registry_matches_constants(void **state)
{
    int c;
    (void)state;
    assert_true(gp_fit_registry[GP_FIT_BLOCK_RETIRE_SKEW].shipped == GP_BLOCK_RETIRE_SKEW);
    assert_true(gp_fit_registry[GP_FIT_MLP_INFLIGHT_BYTES_PER_THREAD].shipped ==
                GP_MLP_INFLIGHT_BYTES_PER_THREAD);
    for (c = 0; c < GP_FIT_COUNT; c++) {
        const gp_fit_const_t *r = &gp_fit_registry[c];
        assert_non_null(r->name);
        assert_true(r->lo < r->shipped && r->shipped < r->hi);
        assert_true(!r->log_scale || r->lo > 0);
        assert_true(r->families[0] != '\0');
        assert_true(gp_fit_value((gp_fit_id_t)c) == r->shipped);
    }
    assert_true(gp_fit_uses_family(&gp_fit_registry[GP_FIT_BLOCK_RETIRE_SKEW], "alu"));
    assert_true(gp_fit_uses_family(&gp_fit_registry[GP_FIT_BLOCK_RETIRE_SKEW], "stream"));
    assert_false(gp_fit_uses_family(&gp_fit_registry[GP_FIT_BLOCK_RETIRE_SKEW], "str"));
    assert_false(gp_fit_uses_family(&gp_fit_registry[GP_FIT_BLOCK_RETIRE_SKEW], ""));
    assert_true(isnan(gp_fit_value(GP_FIT_COUNT)));
}

/* Predicted time of stream.lua's triad with 1024-thread blocks. */
static double triad_us(void)
{
    gp_param_t kv[] = {{"kernel", "triad"}, {"n", "2^26"}, {"block", "1024"}};
    gp_error_t err;
    gp_gpu_t *gpu;
    gp_run_t *run;
    double us;
    if (gp_gpu_open("h200-sxm", &gpu, &err))
        fail_msg("%s", err.msg);
    if (gp_run_script(gpu, GP_SOURCE_DIR "/scripts/validation/stream.lua", kv, 3, NULL, &run,
                      &err))
        fail_msg("%s", err.msg);
    us = gp_run_total_us(run);
    gp_run_free(run);
    gp_gpu_close(gpu);
    return us;
}

static void override_reaches_the_model(void **state)
{
    double shipped, none, more;
    (void)state;
    shipped = triad_us();
    gp_fit_override(GP_FIT_BLOCK_RETIRE_SKEW, 0.0);
    assert_true(gp_fit_value(GP_FIT_BLOCK_RETIRE_SKEW) == 0.0);
    none = triad_us();
    gp_fit_override(GP_FIT_BLOCK_RETIRE_SKEW, 0.9);
    more = triad_us();
    gp_fit_reset();
    assert_true(gp_fit_value(GP_FIT_BLOCK_RETIRE_SKEW) == GP_BLOCK_RETIRE_SKEW);
    /* a larger skew costs a 1024-thread block more; the reset restores the
       shipped prediction exactly */
    assert_true(none < shipped);
    assert_true(shipped < more);
    assert_true(triad_us() == shipped);
}

typedef struct probe {
    double at;  /* where the cost is least */
    int log;    /* measure the distance in log(value) */
    int flat;   /* a constant cost */
    int evals;
    double lo, hi; /* values seen */
} probe_t;

static double probe_cost(double v, void *ud, int *stop)
{
    probe_t *p = ud;
    double d = p->log ? log(v) - log(p->at) : v - p->at;
    (void)stop;
    p->evals++;
    p->lo = GP_MIN(p->lo, v);
    p->hi = GP_MAX(p->hi, v);
    return p->flat ? 5.0 : 3.0 + d * d;
}

static void search_finds_minimum(void **state)
{
    const gp_fit_const_t lin = {"LIN", 0.3, 0.0, 1.0, 0, "f", ""};
    const gp_fit_const_t lg = {"LOG", 16, 4, 64, 1, "f", ""};
    probe_t p = {0.42, 0, 0, 0, INFINITY, -INFINITY};
    double best, cost;
    int flat;
    (void)state;
    assert_int_equal(gp_fit_search(&lin, probe_cost, &p, &best, &cost, &flat), 0);
    assert_false(flat);
    assert_true(fabs(best - 0.42) < 2e-3);
    assert_int_equal(p.evals, GP_FIT_GRID_POINTS + GP_FIT_GOLDEN_EVALS);
    assert_int_equal(p.evals, GP_LOFO_EVALS);
    assert_true(p.lo >= 0.0 && p.hi <= 1.0);
    /* a log-scaled range */
    p = (probe_t){27.0, 1, 0, 0, INFINITY, -INFINITY};
    assert_int_equal(gp_fit_search(&lg, probe_cost, &p, &best, &cost, &flat), 0);
    assert_true(fabs(log(best / 27.0)) < 5e-3);
    assert_true(p.lo >= 4.0 * (1 - 1e-12) && p.hi <= 64.0 * (1 + 1e-12));
    /* a minimum outside the range: its edge */
    p = (probe_t){-3.0, 0, 0, 0, INFINITY, -INFINITY};
    assert_int_equal(gp_fit_search(&lin, probe_cost, &p, &best, &cost, &flat), 0);
    assert_true(best == 0.0);
    /* a flat cost cannot set the constant: the shipped value */
    p = (probe_t){0.5, 0, 1, 0, INFINITY, -INFINITY};
    assert_int_equal(gp_fit_search(&lin, probe_cost, &p, &best, &cost, &flat), 0);
    assert_true(flat);
    assert_true(best == 0.3);
    assert_true(cost == 5.0);
}

static double stop_cost(double v, void *ud, int *stop)
{
    int *n = ud;
    (void)v;
    if (++*n == 3)
        *stop = 1;
    return 1.0;
}

static void search_stops(void **state)
{
    const gp_fit_const_t lin = {"LIN", 0.3, 0.0, 1.0, 0, "f", ""};
    double best = -1, cost;
    int n = 0, flat;
    (void)state;
    assert_int_equal(gp_fit_search(&lin, stop_cost, &n, &best, &cost, &flat), -1);
    assert_int_equal(n, 3);
    assert_true(best == -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registry_matches_constants),
        cmocka_unit_test(override_reaches_the_model),
        cmocka_unit_test(search_finds_minimum),
        cmocka_unit_test(search_stops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
