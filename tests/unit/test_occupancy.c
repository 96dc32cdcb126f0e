/*
 * test_occupancy.c - the core's occupancy calculation (occupancy.c), plus the
 * coalescing, bank conflicts and cache reuse.
 */
#include "test_common.h"

#include <math.h>

#include "device.h"
#include "coalesce.h"
#include "opcost.h"

static gp_device_t g_dev;
static const gp_arch_t *g_arch;

static int setup(void **state)
{
    gp_err_t err;
    (void)state;
    return gp_device_open("h200-sxm", &g_dev, &g_arch, &err);
}

static gp_occupancy_t occ_of(uint32_t threads, uint32_t regs, uint64_t smem, uint64_t dyn)
{
    gp_launch_t l;
    gp_occupancy_t o;
    gp_err_t err;
    memset(&l, 0, sizeof l);
    l.block.x = threads;
    l.block.y = l.block.z = 1;
    l.grid.x = l.grid.y = l.grid.z = 1;
    l.threads_per_block = threads;
    l.regs_per_thread = regs;
    l.static_smem_bytes = smem;
    l.dynamic_smem_bytes = dyn;
    l.carveout_percent = -1;
    if (gp_arch_occupancy(g_arch, &g_dev, &l, &o, &err))
        fail_msg("%s", err.msg);
    return o;
}

/* Blocks per SM the H200's runtime reported for the calibration kernels
   (cudaOccupancyMaxActiveBlocksPerMultiprocessor; validation/h200). */
static void test_h200_runtime_vectors(void **state)
{
    static const struct {
        uint32_t threads, regs;
        uint64_t smem, dyn;
        uint32_t want;
    } v[] = {
        {256, 8, 0, 0, 8},          {32, 12, 0, 0, 32},        {64, 12, 0, 0, 32},
        {128, 12, 0, 0, 16},        {256, 12, 0, 0, 8},        {512, 12, 0, 0, 4},
        {1024, 12, 0, 0, 2},        {256, 14, 0, 0, 8},        {256, 10, 0, 0, 8},
        {256, 10, 0, 232448, 1},    {256, 16, 0, 232448, 1},   {256, 10, 0, 115712, 2},
        {256, 16, 0, 115712, 2},    {256, 10, 0, 57344, 4},    {256, 16, 0, 57344, 4},
        {256, 10, 0, 27648, 8},     {256, 16, 0, 27648, 8},    {64, 16, 0, 0, 32},
        {128, 16, 0, 0, 16},        {1024, 16, 0, 0, 2},       {256, 25, 8192, 0, 8},
        {128, 14, 0, 512, 16},      {256, 14, 0, 1024, 8},     {512, 14, 0, 2048, 4},
        {256, 32, 2048, 0, 8},      {32, 4, 0, 0, 32},         {512, 10, 0, 8192, 4},
    };
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(v); i++) {
        gp_occupancy_t o = occ_of(v[i].threads, v[i].regs, v[i].smem, v[i].dyn);
        if (o.blocks_per_sm != v[i].want)
            fail_msg("threads %u regs %u smem %llu dyn %llu: %u blocks, runtime said %u",
                     v[i].threads, v[i].regs, (unsigned long long)v[i].smem,
                     (unsigned long long)v[i].dyn, o.blocks_per_sm, v[i].want);
    }
}

static void test_limiters(void **state)
{
    gp_occupancy_t o;
    (void)state;
    o = occ_of(256, 32, 0, 0);
    assert_int_equal(o.blocks_per_sm, 8);
    assert_int_equal(o.limiter, GP_LIMIT_WARPS);
    assert_int_equal(o.active_warps, 64);
    assert_true(o.occupancy == 1.0);
    o = occ_of(256, 128, 0, 0); /* 128 x 32 = 4096 per warp: 4 warps per sub-partition */
    assert_int_equal(o.blocks_per_sm, 2);
    assert_int_equal(o.limiter, GP_LIMIT_REGISTERS);
    assert_int_equal(o.regs_per_block_allocated, 32768);
    o = occ_of(32, 16, 0, 0);
    assert_int_equal(o.limiter, GP_LIMIT_BLOCKS);
    assert_int_equal(o.blocks_per_sm, 32);
    o = occ_of(256, 16, 100000, 0);
    assert_int_equal(o.limiter, GP_LIMIT_SHARED_MEMORY);
    assert_int_equal(o.blocks_per_sm, 2);
    assert_int_equal(o.smem_per_block_allocated, 101120); /* +1 KiB reserved, 128-B units */
    o = occ_of(256, 16, 20000, 0); /* carve-out: 228 KiB step */
    assert_int_equal(o.smem_per_sm_configured, 233472);
}

/* An H200 launch of `grid` blocks of `threads` (16 registers) with `dyn`
   bytes of dynamic shared memory and a carve-out preference (-1: none). */
static gp_occupancy_t occ_grid(uint64_t grid, uint32_t threads, uint64_t dyn, int32_t carveout)
{
    gp_launch_t l;
    gp_occupancy_t o;
    gp_err_t err;
    memset(&l, 0, sizeof l);
    l.block.x = threads;
    l.block.y = l.block.z = 1;
    l.grid.x = grid;
    l.grid.y = l.grid.z = 1;
    l.threads_per_block = threads;
    l.regs_per_thread = 16;
    l.dynamic_smem_bytes = dyn;
    l.carveout_percent = carveout;
    if (gp_arch_occupancy(g_arch, &g_dev, &l, &o, &err))
        fail_msg("%s", err.msg);
    return o;
}

/* With no carve-out preference occupancy counts the largest step (228 KiB,
   cuda_occupancy.h), but the L1 keeps the 256 KiB array less the smallest
   step that holds the blocks an SM runs at once, the 1 KiB reserved per
   block included (the H200's 256 KiB chase with no preference runs as with
   the smallest carve-out). A preference keeps its own step. */
static void test_l1_by_carveout(void **state)
{
    gp_occupancy_t o;
    (void)state;
    o = occ_grid(132 * 8, 256, 0, -1); /* 8 x 1 KiB: the 8 KiB step */
    assert_int_equal(o.blocks_per_sm, 8);
    assert_int_equal(o.smem_per_sm_configured, 233472);
    assert_int_equal(o.l1_bytes_available, 262144 - 8192);
    o = occ_grid(132 * 32, 32, 0, -1); /* 32 blocks of one warp: 32 KiB */
    assert_int_equal(o.blocks_per_sm, 32);
    assert_int_equal(o.smem_per_sm_configured, 233472);
    assert_int_equal(o.l1_bytes_available, 262144 - 32768);
    o = occ_grid(1, 32, 0, -1); /* one block on the GPU: one on its SM */
    assert_int_equal(o.blocks_per_sm, 32);
    assert_int_equal(o.l1_bytes_available, 262144 - 8192);
    o = occ_grid(132 * 2, 256, 100000, -1); /* 2 x 101120 B: the 228 KiB step */
    assert_int_equal(o.blocks_per_sm, 2);
    assert_int_equal(o.limiter, GP_LIMIT_SHARED_MEMORY);
    assert_int_equal(o.l1_bytes_available, 262144 - 233472);
    o = occ_grid(132, 256, 100000, -1); /* one block per SM: the 100 KiB step */
    assert_int_equal(o.blocks_per_sm, 2);
    assert_int_equal(o.l1_bytes_available, 262144 - 102400);
    /* a preference decides the step, as for occupancy */
    o = occ_grid(132 * 8, 256, 0, 100);
    assert_int_equal(o.smem_per_sm_configured, 233472);
    assert_int_equal(o.l1_bytes_available, 262144 - 233472);
    o = occ_grid(132 * 8, 256, 0, 0); /* one block's 1 KiB: the 8 KiB step */
    assert_int_equal(o.smem_per_sm_configured, 8192);
    assert_int_equal(o.blocks_per_sm, 8);
    assert_int_equal(o.l1_bytes_available, 262144 - 8192);
}

static void test_impossible(void **state)
{
    gp_occupancy_t o;
    (void)state;
    o = occ_of(2048, 16, 0, 0);
    assert_int_equal(o.blocks_per_sm, 0);
    assert_int_equal(o.limiter, GP_LIMIT_BLOCK_SIZE);
    assert_contains(o.detail, "2048 threads per block exceed the maximum of 1024 (by 1024)");
    o = occ_of(256, 300, 0, 0);
    assert_int_equal(o.limiter, GP_LIMIT_REGS_PER_THREAD);
    assert_contains(o.detail, "300 registers per thread exceed the maximum of 255 (by 45)");
    o = occ_of(1024, 255, 0, 0); /* 255 x 32 -> 8192 per warp x 32 warps */
    assert_int_equal(o.limiter, GP_LIMIT_REGS_PER_BLOCK);
    assert_contains(o.detail, "but at most 65536 fit a block");
    o = occ_of(256, 16, 0, 240000);
    assert_int_equal(o.limiter, GP_LIMIT_SMEM_PER_BLOCK);
    assert_contains(o.detail, "a block may have at most 233472");
    o = occ_of(256, 16, 0, 232448); /* exactly the opt-in maximum fits */
    assert_int_equal(o.blocks_per_sm, 1);
}

/* An access of `elem` bytes per thread. */
static gp_access_t acc(uint32_t pattern, uint32_t elem, int64_t stride, int64_t offset)
{
    gp_access_t a;
    memset(&a, 0, sizeof a);
    a.pattern = pattern;
    a.elem_bytes = elem;
    a.stride_elems = stride;
    a.offset_elems = offset;
    a.footprint_bytes = 1 << 30;
    return a;
}

static void test_coalescing(void **state)
{
    double bytes;
    gp_access_t a;
    (void)state;
    a = acc(GP_PATTERN_UNIT, 4, 1, 0);
    assert_true(tc_coalesce(&a, 32, 32, 32, &bytes) == 4 && bytes == 128);
    a = acc(GP_PATTERN_UNIT, 4, 1, 1); /* misaligned by one word: one sector more */
    assert_true(tc_coalesce(&a, 32, 32, 32, &bytes) == 5);
    a = acc(GP_PATTERN_STRIDE, 4, 2, 0);
    assert_true(tc_coalesce(&a, 32, 32, 32, &bytes) == 8);
    a = acc(GP_PATTERN_STRIDE, 4, 8, 0);
    assert_true(tc_coalesce(&a, 32, 32, 32, &bytes) == 32);
    a = acc(GP_PATTERN_STRIDE, 4, 64, 0);
    assert_true(tc_coalesce(&a, 32, 32, 32, &bytes) == 32 && bytes == 1024);
    a = acc(GP_PATTERN_STRIDE, 4, -1, 0); /* reversed */
    assert_true(tc_coalesce(&a, 32, 32, 32, &bytes) == 5);
    a = acc(GP_PATTERN_UNIT, 16, 1, 0);
    assert_true(tc_coalesce(&a, 32, 32, 32, &bytes) == 16 && bytes == 512);
    a = acc(GP_PATTERN_BROADCAST, 4, 0, 7);
    assert_true(tc_coalesce(&a, 32, 32, 32, &bytes) == 1);
    a = acc(GP_PATTERN_RANDOM, 4, 0, 0);
    assert_true(fabs(tc_coalesce(&a, 32, 32, 32, &bytes) - 32) < 0.01);
    /* 1.2/1.3 segments shrink while only half is used */
    a = acc(GP_PATTERN_UNIT, 4, 1, 0);
    assert_true(tc_coalesce(&a, 16, 128, 32, &bytes) == 1 && bytes == 64);
    a = acc(GP_PATTERN_UNIT, 4, 1, 8); /* bytes 32..95 straddle the halves */
    assert_true(tc_coalesce(&a, 16, 128, 32, &bytes) == 1 && bytes == 128);
    a = acc(GP_PATTERN_UNIT, 4, 1, 4); /* bytes 16..79: crosses 64 */
    assert_true(tc_coalesce(&a, 16, 128, 32, &bytes) == 1 && bytes == 128);
    a = acc(GP_PATTERN_UNIT, 4, 1, 24); /* bytes 96..159: two segments, 32 + 32 */
    assert_true(tc_coalesce(&a, 16, 128, 32, &bytes) == 2 && bytes == 64);
}

static void test_bank_conflicts(void **state)
{
    gp_access_t a;
    (void)state;
    a = acc(GP_PATTERN_UNIT, 4, 1, 0);
    assert_true(tc_bank_passes(&a, 32, 32, 4) == 1);
    a = acc(GP_PATTERN_STRIDE, 4, 2, 0);
    assert_true(tc_bank_passes(&a, 32, 32, 4) == 2);
    a = acc(GP_PATTERN_STRIDE, 4, 32, 0);
    assert_true(tc_bank_passes(&a, 32, 32, 4) == 32);
    a = acc(GP_PATTERN_STRIDE, 4, 33, 0); /* padding removes the conflict */
    assert_true(tc_bank_passes(&a, 32, 32, 4) == 1);
    a = acc(GP_PATTERN_BROADCAST, 4, 0, 3);
    assert_true(tc_bank_passes(&a, 32, 32, 4) == 1);
    a = acc(GP_PATTERN_UNIT, 8, 1, 0); /* 64-bit words: two phases */
    assert_true(tc_bank_passes(&a, 32, 32, 4) == 2);
    a = acc(GP_PATTERN_UNIT, 8, 1, 0); /* Kepler's 8-byte banks: one pass */
    assert_true(tc_bank_passes(&a, 32, 32, 8) == 1);
    a = acc(GP_PATTERN_STRIDE, 4, 2, 0); /* 1.x: 16 banks, half-warp */
    assert_true(tc_bank_passes(&a, 16, 16, 4) == 2);
    a.conflict_ways = 7;
    assert_true(tc_bank_passes(&a, 32, 32, 4) == 7);
}

static void test_reuse(void **state)
{
    (void)state;
    assert_true(gp_reuse_hit_rate(100, 100, 1e9) == 0);
    assert_true(fabs(gp_reuse_hit_rate(10, 100, 20) - 0.9) < 1e-12);
    assert_true(fabs(gp_reuse_hit_rate(10, 100, 5) - 0.45) < 1e-12);
    assert_true(gp_reuse_hit_rate(0, 100, 5) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h200_runtime_vectors),
        cmocka_unit_test(test_limiters),
        cmocka_unit_test(test_l1_by_carveout),
        cmocka_unit_test(test_impossible),
        cmocka_unit_test(test_coalescing),
        cmocka_unit_test(test_bank_conflicts),
        cmocka_unit_test(test_reuse),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
