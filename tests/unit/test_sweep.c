/*
 * test_sweep.c - parameter grids (values, lists, ranges, geometric ranges and
 * their errors), point numbering, the point limit, results independent of the
 * number of threads and equal to a direct prediction, points that cannot run,
 * script errors reported at the first failing point, progress.
 */
#include "test_common.h"

#include <math.h>
#include <unistd.h>

#include "device.h"
#include "engine.h"
#include "script.h"
#include "sweep.h"

static gp_device_t g_devs[2];
static const gp_arch_t *g_archs[2];
static char g_saxpy[4096];
static char g_tmpdir[256];

static int setup(void **state)
{
    gp_err_t err;
    (void)state;
    if (gp_device_open("h200-sxm", &g_devs[0], &g_archs[0], &err) ||
        gp_device_open("geforce-8800-gtx", &g_devs[1], &g_archs[1], &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    snprintf(g_saxpy, sizeof g_saxpy, "%s/scripts/saxpy.lua", GP_SOURCE_DIR);
    snprintf(g_tmpdir, sizeof g_tmpdir, "/tmp/gp-test-sweep.XXXXXX");
    return mkdtemp(g_tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[512];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Write a script into the temporary folder; returns its path (static). */
static const char *write_script(const char *name, const char *text)
{
    static char path[512];
    gp_err_t err;
    snprintf(path, sizeof path, "%s/%s", g_tmpdir, name);
    assert_int_equal(gp_write_file_atomic(path, text, strlen(text), &err), 0);
    return path;
}

/* Parse an axis that must be valid. */
static void parse_ok(const char *arg, gp_sweep_axis_t *a)
{
    gp_err_t err;
    if (gp_sweep_axis_parse(arg, a, &err))
        fail_msg("%s: %s", arg, err.msg);
}

/* An axis that must be refused with a message containing `part`. */
static void parse_bad(const char *arg, const char *part)
{
    gp_sweep_axis_t a;
    gp_err_t err;
    assert_int_equal(gp_sweep_axis_parse(arg, &a, &err), -1);
    if (!strstr(err.msg, part))
        fail_msg("%s: '%s' lacks '%s'", arg, err.msg, part);
    assert_int_equal(a.n_values, 0);
    assert_null(a.values);
}

static void test_axis_single_and_list(void **state)
{
    gp_sweep_axis_t a;
    (void)state;
    parse_ok("regs=32", &a);
    assert_string_equal(a.name, "regs");
    assert_int_equal(a.n_values, 1);
    assert_string_equal(a.values[0], "32");
    gp_sweep_axis_free(&a);

    parse_ok("n=2^20,2^24, 4*2^26,0.5", &a);
    assert_int_equal(a.n_values, 4);
    assert_string_equal(a.values[0], "1048576");
    assert_string_equal(a.values[1], "16777216");
    assert_string_equal(a.values[2], "268435456");
    assert_string_equal(a.values[3], "0.5");
    assert_true(a.numbers[1] == 16777216.0);
    gp_sweep_axis_free(&a);

    /* words stay text (string parameters) */
    parse_ok("kernel=copy,triad", &a);
    assert_int_equal(a.n_values, 2);
    assert_string_equal(a.values[1], "triad");
    assert_true(isnan(a.numbers[0]));
    gp_sweep_axis_free(&a);
    gp_sweep_axis_free(&a); /* twice is fine */
}

static void test_axis_ranges(void **state)
{
    gp_sweep_axis_t a;
    (void)state;
    parse_ok("block=32:1024:32", &a);
    assert_int_equal(a.n_values, 32);
    assert_string_equal(a.values[0], "32");
    assert_string_equal(a.values[31], "1024");
    gp_sweep_axis_free(&a);

    parse_ok("block=32:1000:64", &a); /* B not reached exactly: stops below it */
    assert_int_equal(a.n_values, 16);
    assert_string_equal(a.values[15], "992");
    gp_sweep_axis_free(&a);

    parse_ok("x=0:1:0.1", &a); /* decimal steps still reach B */
    assert_int_equal(a.n_values, 11);
    assert_string_equal(a.values[3], "0.3");
    assert_string_equal(a.values[10], "1");
    gp_sweep_axis_free(&a);

    parse_ok("k=3:5", &a); /* step 1 */
    assert_int_equal(a.n_values, 3);
    assert_string_equal(a.values[2], "5");
    gp_sweep_axis_free(&a);

    parse_ok("n=2^16:2^28:*4", &a);
    assert_int_equal(a.n_values, 7);
    assert_string_equal(a.values[0], "65536");
    assert_string_equal(a.values[6], "268435456");
    gp_sweep_axis_free(&a);

    parse_ok("n=7:7:1", &a);
    assert_int_equal(a.n_values, 1);
    gp_sweep_axis_free(&a);
}

static void test_axis_errors(void **state)
{
    (void)state;
    parse_bad("block", "write -p key=VALUE");
    parse_bad("=5", "write -p key=VALUE");
    parse_bad("block=", "write -p key=VALUE");
    parse_bad("block=1024:32:32", "ends (32) below its start (1024)");
    parse_bad("block=32:1024:0", "the step must be > 0");
    parse_bad("block=32:1024:-32", "the step must be > 0");
    parse_bad("block=32:1024:*1", "a factor F > 1");
    parse_bad("block=0:1024:*2", "A > 0");
    parse_bad("block=a:1024:32", "range start");
    parse_bad("block=32:b:32", "range end");
    parse_bad("block=32:1024:c", "range step");
    parse_bad("block=1:2:3:4", "a range is A:B:STEP");
    parse_bad("n=1,,2", "empty value in the list");
    parse_bad("n=1:2^40:1", "more than the limit");
    parse_bad("n=1:2:*1.0000000001", "more than");
    parse_bad("a_name_that_is_far_too_long_to_be_a_parameter_name_of_any_script_at_all=1",
              "longer than");
}

/* A sweep over saxpy: 2 devices x 3 blocks x 2 sizes. */
static gp_sweep_t *saxpy_sweep(gp_sweep_axis_t *axes, unsigned threads)
{
    gp_err_t err;
    gp_sweep_t *s;
    parse_ok("block=128:512:192", &axes[0]); /* 128, 320, 512 */
    parse_ok("n=2^20,2^24", &axes[1]);
    s = gp_sweep_new(g_saxpy, NULL, g_devs, g_archs, 2, axes, 2, threads, &err);
    if (!s)
        fail_msg("%s", err.msg);
    return s;
}

static void test_point_numbering(void **state)
{
    gp_sweep_axis_t axes[2];
    gp_sweep_t *s = saxpy_sweep(axes, 1);
    uint32_t dev, vi[2];
    (void)state;
    assert_int_equal(gp_sweep_points(s), 12);
    gp_sweep_point(s, 0, &dev, vi);
    assert_int_equal(dev, 0);
    assert_int_equal(vi[0], 0);
    assert_int_equal(vi[1], 0);
    gp_sweep_point(s, 1, &dev, vi); /* the last axis varies fastest */
    assert_int_equal(vi[0], 0);
    assert_int_equal(vi[1], 1);
    gp_sweep_point(s, 5, &dev, vi);
    assert_int_equal(dev, 0);
    assert_int_equal(vi[0], 2);
    assert_int_equal(vi[1], 1);
    gp_sweep_point(s, 6, &dev, vi); /* devices outermost */
    assert_int_equal(dev, 1);
    assert_int_equal(vi[0], 0);
    gp_sweep_free(s);
    gp_sweep_axis_free(&axes[0]);
    gp_sweep_axis_free(&axes[1]);
}

/* Progress calls seen. */
typedef struct seen {
    uint64_t last_done, total;
    int calls;
} seen_t;

static void on_progress(void *ud, uint64_t done, uint64_t total)
{
    seen_t *s = ud;
    assert_true(done >= s->last_done);
    assert_true(done <= total);
    s->last_done = done;
    s->total = total;
    s->calls++;
}

static void test_results_match_direct_and_threads(void **state)
{
    gp_sweep_axis_t axes[2];
    gp_sweep_result_t r1[12], r4[12];
    gp_sweep_t *s1 = saxpy_sweep(axes, 1), *s4;
    gp_err_t err;
    seen_t seen = {0, 0, 0};
    uint64_t i;
    (void)state;
    assert_int_equal(gp_sweep_threads(s1), 1);
    assert_int_equal(gp_sweep_run(s1, 0, 12, r1, on_progress, &seen, &err), 0);
    assert_int_equal(seen.last_done, 12);
    assert_int_equal(seen.total, 12);
    s4 = gp_sweep_new(g_saxpy, NULL, g_devs, g_archs, 2, axes, 2, 4, &err);
    assert_non_null(s4);
    assert_int_equal(gp_sweep_threads(s4), 4);
    assert_int_equal(gp_sweep_run(s4, 0, 12, r4, NULL, NULL, &err), 0);
    for (i = 0; i < 12; i++) {
        uint32_t dev, vi[2];
        gp_param_kv_t kv[2];
        gp_workload_t wl;
        gp_prediction_t p;
        assert_null(r1[i].error);
        assert_true(r1[i].total_us > 0);
        /* the same bits whatever the threads */
        assert_memory_equal(&r1[i], &r4[i], sizeof r1[i]);
        /* and the same as predicting the point directly */
        gp_sweep_point(s1, i, &dev, vi);
        kv[0].key = "block";
        kv[0].value = axes[0].values[vi[0]];
        kv[1].key = "n";
        kv[1].value = axes[1].values[vi[1]];
        kv[0].number = kv[1].number = NULL; /* the script reads the text */
        assert_int_equal(gp_script_run(g_saxpy, NULL, &g_devs[dev], kv, 2, &wl, &err), 0);
        assert_int_equal(gp_predict(&g_devs[dev], g_archs[dev], &wl, NULL, &p, &err), 0);
        assert_true(p.total_us == r1[i].total_us);
        assert_int_equal(p.cmds[0].occ.blocks_per_sm, r1[i].blocks_per_sm);
        assert_int_equal(p.cmds[0].bound, r1[i].bound);
        assert_int_equal(r1[i].launches, 1);
        gp_prediction_free(&p);
        gp_workload_free(&wl);
    }
    /* a slice of the points lands at the start of the array */
    assert_int_equal(gp_sweep_run(s4, 7, 3, r4, NULL, NULL, &err), 0);
    assert_true(r4[0].total_us == r1[7].total_us);
    assert_true(r4[2].total_us == r1[9].total_us);
    assert_int_equal(gp_sweep_run(s4, 11, 2, r4, NULL, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "outside"));
    gp_sweep_results_clear(r1, 12);
    gp_sweep_results_clear(r4, 12);
    gp_sweep_free(s1);
    gp_sweep_free(s4);
    gp_sweep_axis_free(&axes[0]);
    gp_sweep_axis_free(&axes[1]);
}

static void test_points_that_cannot_run(void **state)
{
    gp_sweep_axis_t a;
    gp_sweep_result_t r[4];
    gp_sweep_t *s;
    gp_err_t err;
    (void)state;
    parse_ok("block=512:2048:512", &a);
    s = gp_sweep_new(g_saxpy, NULL, g_devs, g_archs, 1, &a, 1, 2, &err);
    assert_non_null(s);
    assert_int_equal(gp_sweep_run(s, 0, 4, r, NULL, NULL, &err), 0);
    assert_null(r[0].error);
    assert_null(r[1].error);
    assert_non_null(r[2].error);
    assert_non_null(strstr(r[2].error, "1536 threads per block exceed the maximum of 1024"));
    assert_non_null(strstr(r[3].error, "saxpy.lua:7:"));
    assert_true(r[3].total_us == 0);
    gp_sweep_results_clear(r, 4);
    assert_null(r[2].error);
    gp_sweep_free(s);
    gp_sweep_axis_free(&a);
}

static void test_script_error_first_point(void **state)
{
    const char *path = write_script(
        "picky.lua", "local n = gpuperf.param('n', 1, 'size')\n"
                     "assert(n % 97 ~= 0, 'n must not be a multiple of 97')\n"
                     "gpuperf.launch{name = 'k', grid = n, block = 32, regs = 8,\n"
                     "  work = {gpuperf.fp32(1)}}\n");
    gp_sweep_axis_t a;
    gp_sweep_result_t *r = calloc(1000, sizeof *r);
    unsigned threads[] = {1, 3, 8};
    size_t t;
    (void)state;
    parse_ok("n=1:1000:1", &a);
    for (t = 0; t < 3; t++) {
        gp_err_t err;
        gp_sweep_t *s = gp_sweep_new(path, NULL, g_devs, g_archs, 1, &a, 1, threads[t], &err);
        assert_non_null(s);
        assert_int_equal(gp_sweep_run(s, 0, 1000, r, NULL, NULL, &err), -1);
        /* the first failing point in index order, named with its values */
        if (!strstr(err.msg, "point 96 (h200-sxm, n=97): ") ||
            !strstr(err.msg, "picky.lua:2: n must not be a multiple of 97"))
            fail_msg("threads %u: %s", threads[t], err.msg);
        assert_true(r[95].total_us > 0);
        gp_sweep_results_clear(r, 1000);
        gp_sweep_free(s);
    }
    free(r);
    gp_sweep_axis_free(&a);
}

static void test_undeclared_parameter(void **state)
{
    gp_sweep_axis_t a;
    gp_sweep_result_t r[2];
    gp_err_t err;
    gp_sweep_t *s;
    (void)state;
    parse_ok("blok=32,64", &a);
    s = gp_sweep_new(g_saxpy, NULL, g_devs, g_archs, 1, &a, 1, 2, &err);
    assert_non_null(s);
    assert_int_equal(gp_sweep_run(s, 0, 2, r, NULL, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "point 0 (h200-sxm, blok=32)"));
    assert_non_null(strstr(err.msg, "declares no parameter 'blok'"));
    gp_sweep_results_clear(r, 2);
    gp_sweep_free(s);
    gp_sweep_axis_free(&a);
}

static void test_new_errors(void **state)
{
    gp_sweep_axis_t axes[3];
    gp_err_t err;
    const char *broken = write_script("broken.lua", "local x = = 1\n");
    (void)state;
    parse_ok("a=1:3000:1", &axes[0]);
    parse_ok("b=1:3000:1", &axes[1]);
    parse_ok("a=1,2", &axes[2]);
    /* 2 devices x 3000 x 3000 = 1.8e7 points */
    assert_null(gp_sweep_new(g_saxpy, NULL, g_devs, g_archs, 2, axes, 2, 1, &err));
    assert_non_null(strstr(err.msg, "18000000 points"));
    assert_non_null(strstr(err.msg, "limit of 10000000"));
    /* one device: 9e6 points is allowed (compiling is all it does yet) */
    {
        gp_sweep_t *s = gp_sweep_new(g_saxpy, NULL, g_devs, g_archs, 1, axes, 2, 1, &err);
        assert_non_null(s);
        assert_int_equal(gp_sweep_points(s), 9000000);
        gp_sweep_free(s);
    }
    gp_sweep_axis_free(&axes[1]);
    axes[1] = axes[2];
    assert_null(gp_sweep_new(g_saxpy, NULL, g_devs, g_archs, 1, axes, 2, 1, &err));
    assert_non_null(strstr(err.msg, "-p a: given twice"));
    assert_null(gp_sweep_new(broken, NULL, g_devs, g_archs, 1, axes, 1, 2, &err));
    assert_non_null(strstr(err.msg, "broken.lua:1:"));
    assert_null(gp_sweep_new(g_saxpy, NULL, g_devs, g_archs, 0, axes, 1, 1, &err));
    assert_null(gp_sweep_new(NULL, NULL, g_devs, g_archs, 1, axes, 1, 1, &err));
    gp_sweep_axis_free(&axes[0]);
    gp_sweep_axis_free(&axes[2]);
    gp_sweep_free(NULL);
}

static void test_no_axes_and_thread_cap(void **state)
{
    gp_sweep_result_t r[2];
    gp_err_t err;
    gp_sweep_t *s = gp_sweep_new(g_saxpy, NULL, g_devs, g_archs, 2, NULL, 0, 16, &err);
    (void)state;
    assert_non_null(s);
    assert_int_equal(gp_sweep_points(s), 2);
    assert_int_equal(gp_sweep_threads(s), 2); /* no more threads than points */
    assert_int_equal(gp_sweep_run(s, 0, 2, r, NULL, NULL, &err), 0);
    assert_true(r[0].total_us > 0 && r[1].total_us > r[0].total_us); /* G80 is slower */
    assert_int_equal(r[0].commands, 1);
    assert_false(r[0].is_copy);
    gp_sweep_results_clear(r, 2);
    assert_int_equal(gp_sweep_run(s, 0, 0, r, NULL, NULL, &err), 0);
    gp_sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axis_single_and_list),
        cmocka_unit_test(test_axis_ranges),
        cmocka_unit_test(test_axis_errors),
        cmocka_unit_test(test_point_numbering),
        cmocka_unit_test(test_results_match_direct_and_threads),
        cmocka_unit_test(test_points_that_cannot_run),
        cmocka_unit_test(test_script_error_first_point),
        cmocka_unit_test(test_undeclared_parameter),
        cmocka_unit_test(test_new_errors),
        cmocka_unit_test(test_no_axes_and_thread_cap),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
