/*
 * test_arch.c - the plugin loader: good and broken plugins, checked calls.
 */
#include "test_common.h"

#include "arch.h"
#include "device.h"

/* Open a test plugin by file name and expect failure containing want. */
static void expect_refused(const char *file, const char *want)
{
    char path[4096];
    gp_arch_t a;
    gp_err_t err;
    snprintf(path, sizeof path, "%s/%s", GP_TEST_PLUGIN_DIR, file);
    assert_int_equal(gp_arch_open_file(path, &a, &err), -1);
    assert_contains(err.msg, path);
    assert_contains(err.msg, want);
    assert_null(a.handle);
}

static void test_refuses_broken_plugins(void **state)
{
    (void)state;
    expect_refused("notalib.so", "not a loadable plugin");
    expect_refused("nosym.so", "no 'gpuperf_plugin' symbol: not a gpuperf plugin");
    expect_refused("badabi.so", "plugin ABI 99.0, but gpuperf speaks ABI 2.0");
    expect_refused("newminor.so", "is newer than gpuperf's");
    expect_refused("nocallback.so", "generation 9.0 lacks its memory rules");
    expect_refused("badname.so", "descriptor name is missing or not [a-z0-9_-]+");
    expect_refused("nulldesc.so", "returned no descriptor");
    expect_refused("missing.so", "not a loadable plugin");
}

static void test_hopper_loads(void **state)
{
    gp_err_t err;
    const gp_arch_t *a = gp_arch_get("hopper", &err);
    const gp_arch_t *b;
    char ccs[64];
    (void)state;
    assert_non_null(a);
    assert_string_equal(a->plugin->name, "hopper");
    assert_int_equal(a->plugin->abi_major, GP_ABI_MAJOR);
    assert_true(gp_arch_serves(a, 9, 0));
    assert_false(gp_arch_serves(a, 8, 0));
    gp_arch_ccs_text(a, ccs, sizeof ccs);
    assert_string_equal(ccs, "9.0");
    b = gp_arch_get("hopper", &err); /* cached: the same registry entry */
    assert_ptr_equal(a, b);
    assert_null(gp_arch_get("nonexistent", &err));
    assert_contains(err.msg, "no plugin named 'nonexistent'");
    assert_null(gp_arch_get("../hopper", &err));
}

/* Counts what the scan reports. */
typedef struct scan_count {
    int ok, bad, toy, badabi_reason;
} scan_count_t;

static void on_plugin(void *ud, const char *path, const gp_arch_t *a, const char *error)
{
    scan_count_t *c = ud;
    (void)path;
    if (a) {
        c->ok++;
        c->toy += strcmp(a->plugin->name, "toy") == 0;
    } else {
        c->bad++;
        c->badabi_reason += strstr(error, "ABI 99.0") != NULL;
    }
}

static void test_scan_survives_broken_plugins(void **state)
{
    scan_count_t c = {0, 0, 0, 0};
    (void)state;
    setenv("GPUPERF_PLUGIN_PATH", GP_TEST_PLUGIN_DIR, 1);
    gp_arch_scan(on_plugin, &c);
    setenv("GPUPERF_PLUGIN_PATH", GP_BUILD_PLUGIN_DIR, 1);
    assert_int_equal(c.toy, 1);
    assert_true(c.ok >= 3); /* toy, negtime, nanocc (and the build's plugins) */
    assert_true(c.bad >= 7);
    assert_int_equal(c.badabi_reason, 1);
}

/* A device file for the toy plugin with the given [arch] lines. */
static int load_toy_device(const char *arch_lines, gp_device_t *dev, const gp_arch_t **a,
                           gp_err_t *err)
{
    char *base = tc_read("devices/h200-sxm.ini");
    char *t1 = tc_replace_line(base, "arch", "arch = toy");
    size_t n = strlen(t1) + strlen(arch_lines) + 16;
    char *text = malloc(n);
    int rc;
    snprintf(text, n, "%s\n[arch]\n%s", t1, arch_lines);
    rc = gp_device_load_text("toy.ini", text, strlen(text), dev, a, err);
    free(text);
    free(t1);
    free(base);
    return rc;
}

static void test_plugin_declared_keys(void **state)
{
    gp_device_t dev;
    const gp_arch_t *a;
    gp_err_t err;
    (void)state;
    setenv("GPUPERF_PLUGIN_PATH", GP_TEST_PLUGIN_DIR ":" GP_BUILD_PLUGIN_DIR, 1);
    assert_int_equal(load_toy_device("mystery_cycles = 12\n", &dev, &a, &err), 0);
    assert_true(dev.arch_params[0] == 1.0); /* the default */
    assert_true(dev.arch_params[1] == 12.0);
    assert_int_equal(load_toy_device("mystery_cycles = 12\nslowdown_factor = 2\n", &dev, &a, &err),
                     0);
    assert_true(dev.arch_params[0] == 2.0);
    assert_int_equal(load_toy_device("slowdown_factor = 2\n", &dev, &a, &err), -1);
    assert_contains(err.msg, "[arch] lacks 'mystery_cycles', which plugin 'toy' requires");
    assert_int_equal(load_toy_device("mystery_cycles = 5000\n", &dev, &a, &err), -1);
    assert_contains(err.msg, "out of range (0 to 1000)");
    assert_int_equal(load_toy_device("mystery_cycles = 1\nnope = 1\n", &dev, &a, &err), -1);
    assert_contains(err.msg, "unknown key 'nope' in [arch]");
    setenv("GPUPERF_PLUGIN_PATH", GP_BUILD_PLUGIN_DIR, 1);
}

/* A one-op kernel for the checked-call tests. */
static void one_kernel(gp_kernel_t *k, gp_op_t *op)
{
    memset(k, 0, sizeof *k);
    memset(op, 0, sizeof *op);
    op->kind = GP_OP_FP32;
    op->count = 100;
    op->ilp = 1;
    k->name = "k";
    k->launch.grid.x = k->launch.grid.y = k->launch.grid.z = 1;
    k->launch.block.x = 256;
    k->launch.block.y = k->launch.block.z = 1;
    k->launch.threads_per_block = 256;
    k->launch.regs_per_thread = 32;
    k->launch.carveout_percent = -1;
    k->ops = op;
    k->n_ops = 1;
    k->total_blocks = 1;
}

static void test_checked_calls_reject_bad_results(void **state)
{
    char path[4096];
    gp_arch_t neg, nan_a;
    gp_device_t dev;
    const gp_arch_t *hop;
    gp_err_t err;
    gp_kernel_t k;
    gp_op_t op;
    gp_occupancy_t occ;
    gp_block_cost_t cost;
    gp_residency_t res = {0};
    (void)state;
    assert_int_equal(gp_device_open("h200-sxm", &dev, &hop, &err), 0);
    one_kernel(&k, &op);
    res.blocks = 1;
    res.active_sms = 1;
    res.dram_share = 1;
    res.l2_share = 1;
    snprintf(path, sizeof path, "%s/negtime.so", GP_TEST_PLUGIN_DIR);
    assert_int_equal(gp_arch_open_file(path, &neg, &err), 0);
    assert_int_equal(gp_arch_occupancy(&neg, &dev, &k.launch, &occ, &err), 0);
    assert_int_equal(gp_arch_block_cost(&neg, &dev, &k, &occ, &res, &cost, &err), -1);
    assert_contains(err.msg, "plugin 'negtime' (block_cost) returned a block time of -1 cycles");
    gp_arch_close(&neg);
    snprintf(path, sizeof path, "%s/nanocc.so", GP_TEST_PLUGIN_DIR);
    assert_int_equal(gp_arch_open_file(path, &nan_a, &err), 0);
    assert_int_equal(gp_arch_occupancy(&nan_a, &dev, &k.launch, &occ, &err), -1);
    assert_contains(err.msg, "plugin 'nanocc' (occupancy) returned an impossible result");
    gp_arch_close(&nan_a);
    /* the real plugin passes the same checks */
    assert_int_equal(gp_arch_occupancy(hop, &dev, &k.launch, &occ, &err), 0);
    assert_int_equal(gp_arch_block_cost(hop, &dev, &k, &occ, &res, &cost, &err), 0);
    assert_true(cost.time_cycles > 0);
}

static void test_enum_names(void **state)
{
    (void)state;
    assert_string_equal(gp_limiter_name(GP_LIMIT_REGISTERS), "registers");
    assert_string_equal(gp_bound_name(GP_BOUND_DRAM), "dram");
    assert_string_equal(gp_pipe_name(GP_PIPE_FP64), "fp64");
    assert_string_equal(gp_limiter_name(999), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refuses_broken_plugins),
        cmocka_unit_test(test_hopper_loads),
        cmocka_unit_test(test_scan_survives_broken_plugins),
        cmocka_unit_test(test_plugin_declared_keys),
        cmocka_unit_test(test_checked_calls_reject_bad_results),
        cmocka_unit_test(test_enum_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
