/*
 * test_plugin_toyarch.c - the example plugin (examples/plugin) describes a
 * made-up generation with its own coalescing rule, bank count and barrier
 * cost as data, and gpuperf's predictions follow those rules with no change
 * to the core.
 */
#include <math.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch.h"
#include "coalesce.h"
#include "device.h"
#include "test_common.h"

static gp_device_t g_dev;
static const gp_arch_t *g_arch;

static int setup(void **state)
{
    gp_err_t err;
    (void)state;
    setenv("GPUPERF_PLUGIN_PATH", GP_TEST_PLUGIN_DIR ":" GP_BUILD_PLUGIN_DIR, 1);
    if (gp_device_load(GP_SOURCE_DIR "/examples/plugin/toyarch-t1.ini", &g_dev, &g_arch, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return 0;
}

/* The cost of one op of the given kind, space and access on the toy card. */
static gp_op_cost_t cost_of(uint32_t kind, uint32_t space, gp_access_t a)
{
    gp_kernel_t k;
    gp_op_t op;
    gp_occupancy_t occ;
    gp_residency_t res;
    gp_op_cost_t c;
    gp_err_t err;
    char msg[256];
    memset(&k, 0, sizeof k);
    memset(&op, 0, sizeof op);
    memset(&res, 0, sizeof res);
    op.kind = kind;
    op.space = space;
    op.count = 1;
    op.ilp = 1;
    op.access = a;
    k.name = "k";
    k.launch.grid.x = k.launch.grid.y = k.launch.grid.z = 1;
    k.launch.block.x = 256;
    k.launch.block.y = k.launch.block.z = 1;
    k.launch.threads_per_block = 256;
    k.launch.regs_per_thread = 16;
    k.launch.carveout_percent = -1;
    k.ops = &op;
    k.n_ops = 1;
    k.total_blocks = 1;
    res.blocks = 1;
    res.dram_share = res.l2_share = 1;
    assert_int_equal(gp_arch_occupancy(g_arch, &g_dev, &k.launch, &occ, &err), 0);
    if (gp_arch_call_op_cost(g_arch, &g_dev, &k, &op, &occ, &res, &c, msg, sizeof msg))
        fail_msg("op cost: %s", msg);
    return c;
}

/* Half-warps coalesce into 64-byte segments: a contiguous float load is two
   segments of 64 bytes (a 32-byte-sector rule would make it four). */
static void test_coalescing_rule(void **state)
{
    gp_access_t a;
    gp_op_cost_t c;
    (void)state;
    memset(&a, 0, sizeof a);
    a.elem_bytes = 4;
    a.buffer = UINT32_MAX;
    a.footprint_bytes = 1 << 24;
    c = cost_of(GP_OP_LOAD, GP_SPACE_GLOBAL, a);
    assert_true(c.transactions == 2);
    a.pattern = GP_PATTERN_STRIDE;
    a.stride_elems = 16; /* every lane its own 64-byte segment */
    c = cost_of(GP_OP_LOAD, GP_SPACE_GLOBAL, a);
    assert_true(c.transactions == 32);
}

/* 16 banks of 8 bytes: floats 12 bytes apart land in 32 distinct words,
   two per bank (2 passes), where 32 banks of 4 bytes serve them at once;
   contiguous floats share 8-byte words and stay conflict-free. */
static void test_bank_count(void **state)
{
    gp_access_t a;
    gp_op_cost_t c;
    gp_bank_rule_t b32 = {32, 4, 32, GP_BANK_BROADCAST_ANY, GP_BANK_WIDE_PHASES, 0};
    (void)state;
    memset(&a, 0, sizeof a);
    a.elem_bytes = 4;
    a.pattern = GP_PATTERN_STRIDE;
    a.stride_elems = 3;
    c = cost_of(GP_OP_LOAD, GP_SPACE_SHARED, a);
    assert_true(c.transactions == 2);
    assert_true(gp_bank_passes_access(&a, 32, &b32, 0, 0) == 1);
    a.stride_elems = 1;
    c = cost_of(GP_OP_LOAD, GP_SPACE_SHARED, a);
    assert_true(c.transactions == 1);
}

/* A barrier is three round trips of the device's barrier_cycles. */
static void test_barrier_cost(void **state)
{
    gp_access_t a;
    gp_op_cost_t c;
    (void)state;
    memset(&a, 0, sizeof a);
    c = cost_of(GP_OP_BARRIER, 0, a);
    assert_true(c.latency_cycles == 3 * g_dev.barrier_cycles);
}

/* No tensor rules: tensor work is refused with the reason. */
static void test_no_tensor_cores(void **state)
{
    gp_kernel_t k;
    gp_op_t op;
    gp_occupancy_t occ;
    gp_residency_t res;
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    memset(&k, 0, sizeof k);
    memset(&op, 0, sizeof op);
    memset(&occ, 0, sizeof occ);
    memset(&res, 0, sizeof res);
    op.kind = GP_OP_TENSOR;
    op.count = 1;
    k.ops = &op;
    k.n_ops = 1;
    assert_int_not_equal(
        gp_arch_call_op_cost(g_arch, &g_dev, &k, &op, &occ, &res, &c, msg, sizeof msg), 0);
    assert_contains(msg, "has no tensor cores");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coalescing_rule),
        cmocka_unit_test(test_bank_count),
        cmocka_unit_test(test_barrier_cost),
        cmocka_unit_test(test_no_tensor_cores),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
