/*
 * test_conformance.c - the conformance run of `gpuperf plugin-check`: the
 * table of checks, the report, descriptor checks, choosing devices, and the
 * callback checks on a good plugin and on plugins broken on purpose.
 */
#include "test_common.h"

#include "arch.h"
#include "conformance.h"
#include "conformance_internal.h"
#include "device.h"

/* Open a plugin file of the build or the test plugins. */
static void open_plugin(const char *dir, const char *file, gp_arch_t *a)
{
    char path[4096];
    gp_err_t err;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (gp_arch_open_file(path, a, &err))
        fail_msg("%s", err.msg);
}

/* Load a device by name. */
static void load_device(const char *name, gp_device_t *dev)
{
    const gp_arch_t *arch;
    gp_err_t err;
    if (gp_device_open(name, dev, &arch, &err))
        fail_msg("%s", err.msg);
}

/* Index of a check by id, or -1. */
static int check_index(const char *id)
{
    const gp_conf_check_t *c = gp_conf_checks();
    int i;
    for (i = 0; i < GP_CONF_N_CHECKS; i++)
        if (strcmp(c[i].id, id) == 0)
            return i;
    return -1;
}

/* 1 if a kept violation of `check` has `what` in its text. */
static int kept_has(const gp_conf_report_t *r, uint32_t check, const char *what)
{
    size_t i;
    for (i = 0; i < r->n_kept; i++)
        if (r->kept[i].check == check && strstr(r->kept[i].what, what))
            return 1;
    return 0;
}

static void test_check_table(void **state)
{
    const gp_conf_check_t *c = gp_conf_checks();
    int i, j;
    (void)state;
    for (i = 0; i < GP_CONF_N_CHECKS; i++) {
        assert_non_null(c[i].id);
        assert_non_null(c[i].requires);
        assert_true(strlen(c[i].requires) > 20);
        for (j = 0; j < i; j++)
            assert_string_not_equal(c[i].id, c[j].id);
    }
    assert_int_equal(check_index("occupancy.monotonic"), GP_CONF_OCC_MONOTONIC);
    assert_int_equal(check_index("block_cost.more_work"), GP_CONF_MORE_WORK);
}

static void test_report_keeps_the_first_violations(void **state)
{
    gp_conf_report_t r;
    gp_device_t dev;
    int i;
    (void)state;
    memset(&dev, 0, sizeof dev);
    strcpy(dev.id, "card");
    gp_conf_report_init(&r, 2);
    for (i = 0; i < 5; i++)
        gp_conf_violate(&r, GP_CONF_CLOCK, &dev, "inputs", "violation %d", i);
    gp_conf_violate(&r, GP_CONF_PURE, NULL, "x", "other");
    gp_conf_note(&r, "a note %s", "here");
    assert_int_equal(r.violations[GP_CONF_CLOCK], 5);
    assert_int_equal(gp_conf_total_violations(&r), 6);
    assert_int_equal(r.n_kept, 3); /* 2 of the clock check, 1 of the other */
    assert_string_equal(r.kept[1].what, "violation 1");
    assert_string_equal(r.kept[1].device, "card");
    assert_string_equal(r.kept[2].device, "");
    assert_int_equal(r.n_notes, 1);
    assert_string_equal(r.notes[0], "a note here");
    gp_conf_report_free(&r);
    assert_null(r.kept);
}

static void test_tesla_conforms(void **state)
{
    gp_arch_t a;
    gp_device_t dev;
    gp_conf_report_t r;
    int c;
    (void)state;
    open_plugin(GP_BUILD_PLUGIN_DIR, "tesla.so", &a);
    load_device("tesla-c1060", &dev);
    gp_conf_report_init(&r, 0);
    gp_conf_descriptor(&a, a.path, &r);
    gp_conf_run_device(&a, &dev, &r);
    for (c = 0; c < GP_CONF_N_CHECKS; c++)
        if (r.violations[c])
            fail_msg("%s: %llu violations, first: %s (%s)", gp_conf_checks()[c].id,
                     (unsigned long long)r.violations[c], r.n_kept ? r.kept[0].what : "",
                     r.n_kept ? r.kept[0].inputs : "");
    assert_true(r.cases[GP_CONF_OCC_MONOTONIC] > 10000);
    assert_true(r.cases[GP_CONF_MORE_WORK] > 100);
    assert_true(r.cases[GP_CONF_OCC_IMPOSSIBLE] > 100);
    assert_true(r.refusals > 0); /* tensor ops, async copies on 1.3 */
    assert_string_equal(gp_conf_current(), "");
    gp_conf_report_free(&r);
    gp_arch_close(&a);
}

static void test_hopper_occupancy_conforms(void **state)
{
    gp_arch_t a;
    gp_device_t dev;
    gp_conf_report_t r;
    (void)state;
    open_plugin(GP_BUILD_PLUGIN_DIR, "hopper.so", &a);
    load_device("h200-sxm", &dev);
    gp_conf_report_init(&r, 0);
    gp_conf_run_device(&a, &dev, &r);
    assert_int_equal(r.violations[GP_CONF_OCC_CALL], 0);
    assert_int_equal(r.violations[GP_CONF_OCC_FIELDS], 0);
    assert_int_equal(r.violations[GP_CONF_OCC_HARDWARE], 0);
    assert_int_equal(r.violations[GP_CONF_OCC_LIMITER], 0);
    assert_int_equal(r.violations[GP_CONF_OCC_IMPOSSIBLE], 0);
    assert_int_equal(r.violations[GP_CONF_OCC_MONOTONIC], 0);
    assert_int_equal(r.violations[GP_CONF_BLOCK_VALID], 0);
    assert_int_equal(r.violations[GP_CONF_CLOCK], 0);
    assert_int_equal(r.violations[GP_CONF_BANDWIDTH], 0);
    assert_int_equal(r.violations[GP_CONF_RESIDENCY], 0);
    assert_int_equal(r.violations[GP_CONF_ACCESS], 0);
    gp_conf_report_free(&r);
    gp_arch_close(&a);
}

static void test_negtime_is_caught(void **state)
{
    gp_arch_t a;
    gp_device_t dev;
    gp_conf_report_t r;
    (void)state;
    open_plugin(GP_TEST_PLUGIN_DIR, "negtime.so", &a);
    load_device("h200-sxm", &dev);
    gp_conf_report_init(&r, 3);
    gp_conf_run_device(&a, &dev, &r);
    assert_true(r.violations[GP_CONF_BLOCK_VALID] > 0);
    assert_true(kept_has(&r, GP_CONF_BLOCK_VALID, "block time -1 cycles"));
    assert_int_equal(r.violations[GP_CONF_OCC_FIELDS], 0);
    gp_conf_report_free(&r);
    gp_arch_close(&a);
}

static void test_nanocc_is_caught(void **state)
{
    gp_arch_t a;
    gp_device_t dev;
    gp_conf_report_t r;
    (void)state;
    open_plugin(GP_TEST_PLUGIN_DIR, "nanocc.so", &a);
    load_device("h100-sxm", &dev);
    gp_conf_report_init(&r, 3);
    gp_conf_run_device(&a, &dev, &r);
    assert_true(r.violations[GP_CONF_OCC_FIELDS] > 0);
    assert_true(kept_has(&r, GP_CONF_OCC_FIELDS, "occupancy is nan"));
    assert_contains(r.kept[0].inputs, "threads=");
    gp_conf_report_free(&r);
    gp_arch_close(&a);
}

static void test_descriptor_file_name(void **state)
{
    gp_arch_t a;
    gp_conf_report_t r;
    (void)state;
    open_plugin(GP_BUILD_PLUGIN_DIR, "hopper.so", &a);
    gp_conf_report_init(&r, 0);
    gp_conf_descriptor(&a, "/somewhere/hopper.so", &r);
    assert_int_equal(gp_conf_total_violations(&r), 0);
    gp_conf_descriptor(&a, "/somewhere/hopper-v2.so", &r);
    assert_int_equal(r.violations[GP_CONF_FILE_NAME], 1);
    assert_true(kept_has(&r, GP_CONF_FILE_NAME, "the file is named hopper-v2.so"));
    gp_conf_report_free(&r);
    gp_arch_close(&a);
}

static void test_devices_found_adapted_synthesised(void **state)
{
    gp_arch_t a;
    gp_conf_report_t r;
    gp_conf_device_t *devs;
    size_t n, i;
    gp_err_t err;
    int synth = 0;
    const char *names[] = {"h200-sxm"};
    const char *bad[] = {"tesla-c1060"};
    (void)state;
    /* fermi-kepler: its own files and a copy for 3.7 */
    open_plugin(GP_BUILD_PLUGIN_DIR, "fermi-kepler.so", &a);
    gp_conf_report_init(&r, 0);
    assert_int_equal(gp_conf_devices(&a, NULL, 0, &devs, &n, &r, &err), 0);
    assert_true(n >= 5);
    for (i = 0; i < n; i++) {
        assert_string_equal(devs[i].dev.arch, "fermi-kepler");
        if (devs[i].dev.cc_major == 3 && devs[i].dev.cc_minor == 7) {
            synth++;
            assert_contains(devs[i].origin, "synthesised");
            assert_contains(devs[i].dev.id, "@3.7");
        }
    }
    assert_int_equal(synth, 1);
    assert_true(r.n_notes >= 2);
    free(devs);
    gp_conf_report_free(&r);
    gp_arch_close(&a);

    /* a device of another plugin, adapted; an unserved one refused */
    open_plugin(GP_TEST_PLUGIN_DIR, "toy.so", &a);
    gp_conf_report_init(&r, 0);
    assert_int_equal(gp_conf_devices(&a, names, 1, &devs, &n, &r, &err), 0);
    assert_int_equal(n, 1);
    assert_string_equal(devs[0].dev.arch, "toy");
    assert_true(devs[0].dev.arch_params[0] == 1.0); /* toy's default slowdown_factor */
    assert_contains(devs[0].origin, "written for 'hopper'");
    free(devs);
    assert_int_equal(gp_conf_devices(&a, bad, 1, &devs, &n, &r, &err), -1);
    assert_contains(err.msg, "compute capability 1.3 is not served by plugin 'toy'");
    assert_null(devs);
    gp_conf_report_free(&r);
    gp_arch_close(&a);
}

static void test_describe(void **state)
{
    gp_launch_t l = gp_conf_launch(256, 32, 4096, 100);
    gp_op_t op;
    gp_residency_t res;
    char buf[600];
    (void)state;
    gp_conf_describe_launch(&l, buf, sizeof buf);
    assert_contains(buf, "threads=256 (block 256x1x1, grid 100x1x1) regs=32 smem=0+4096");
    memset(&op, 0, sizeof op);
    op.kind = GP_OP_LOAD;
    op.space = GP_SPACE_SHARED;
    op.access.pattern = GP_PATTERN_STRIDE;
    op.access.stride_elems = 2;
    op.access.elem_bytes = 4;
    op.count = 3;
    op.ilp = 1;
    gp_conf_describe_op(&op, buf, sizeof buf);
    assert_contains(buf, "load shared stride elem=4 stride=2");
    assert_contains(buf, "count=3");
    memset(&res, 0, sizeof res);
    res.blocks = 4;
    gp_conf_describe_res(&res, buf, sizeof buf);
    assert_contains(buf, "residency blocks=4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_table),
        cmocka_unit_test(test_report_keeps_the_first_violations),
        cmocka_unit_test(test_tesla_conforms),
        cmocka_unit_test(test_hopper_occupancy_conforms),
        cmocka_unit_test(test_negtime_is_caught),
        cmocka_unit_test(test_nanocc_is_caught),
        cmocka_unit_test(test_descriptor_file_name),
        cmocka_unit_test(test_devices_found_adapted_synthesised),
        cmocka_unit_test(test_describe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
