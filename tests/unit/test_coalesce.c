/*
 * test_coalesce.c - the coalescing module (coalesce.c): transactions and
 * bank passes from lane addresses, the pattern shorthands against the
 * arithmetic they replaced (coalesce_reference.h), and hand-built samples.
 */
#include <math.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch.h"
#include "coalesce.h"
#include "coalesce_reference.h"
#include "device.h"
#include "test_common.h"

/* An access of the given shape. */
static gp_access_t acc(uint32_t pattern, uint32_t elem, int64_t stride, int64_t offset,
                       uint64_t footprint)
{
    gp_access_t a;
    memset(&a, 0, sizeof a);
    a.pattern = pattern;
    a.elem_bytes = elem;
    a.stride_elems = stride;
    a.offset_elems = offset;
    a.footprint_bytes = footprint;
    return a;
}

/* Every pattern shorthand, element size, stride, offset and generation's
   coalescing rule gives the transactions and bytes it gave before. */
static void test_patterns_as_before(void **state)
{
    static const struct {
        uint32_t threads, seg, min_seg, strict;
    } rules[] = {
        {16, 32, 32, 1},  {16, 64, 64, 1},   {16, 128, 128, 1}, /* 1.0/1.1 */
        {16, 32, 32, 0},  {16, 64, 32, 0},   {16, 128, 32, 0},  /* 1.2/1.3 */
        {32, 32, 32, 0},  {32, 128, 128, 0}, {32, 64, 64, 0},   /* sectors, lines, fetch */
        {8, 64, 64, 0},
    };
    static const uint32_t elems[] = {1, 2, 4, 8, 16};
    long cases = 0;
    size_t r, e;
    int pattern;
    int64_t stride, offset;
    (void)state;
    for (r = 0; r < GP_ARRAY_LEN(rules); r++)
        for (e = 0; e < GP_ARRAY_LEN(elems); e++)
            for (pattern = 0; pattern < GP_PATTERN_COUNT; pattern++)
                for (stride = -5; stride <= 70; stride += (stride < 4 ? 1 : 7))
                    for (offset = -67; offset <= 67; offset += 7) {
                        gp_access_t a = acc((uint32_t)pattern, elems[e], stride, offset,
                                            (uint64_t)1 << (10 + (offset & 15)));
                        gp_coalesce_rule_t cr = {rules[r].threads, rules[r].seg,
                                                 rules[r].min_seg, rules[r].strict};
                        double ob = 0, nb = 0;
                        double o = ref_warp_transactions(32, rules[r].threads, rules[r].strict,
                                                         &a, rules[r].seg, rules[r].min_seg,
                                                         &ob);
                        double n = gp_coalesce_access(&a, 32, &cr, &nb);
                        if (o != n || ob != nb)
                            fail_msg("pattern %d elem %u stride %lld offset %lld rule %zu: "
                                     "before %g txn %g B, now %g txn %g B",
                                     pattern, elems[e], (long long)stride, (long long)offset, r,
                                     o, ob, n, nb);
                        cases++;
                    }
    assert_true(cases > 30000);
}

/* Bank passes of every pattern as the core and the 1.x rules counted them. */
static void test_banks_as_before(void **state)
{
    static const uint32_t elems[] = {1, 2, 4, 8, 16};
    gp_bank_rule_t core4 = {32, 4, 32, GP_BANK_BROADCAST_ANY, GP_BANK_WIDE_PHASES, 0};
    gp_bank_rule_t core8 = {32, 8, 32, GP_BANK_BROADCAST_ANY, GP_BANK_WIDE_PHASES, 0};
    gp_bank_rule_t toy16 = {16, 8, 32, GP_BANK_BROADCAST_ANY, GP_BANK_WIDE_PHASES, 0};
    gp_bank_rule_t tesla = {16, 4, 16, GP_BANK_BROADCAST_ONE, GP_BANK_WIDE_WORD_REQUESTS, 0};
    long cases = 0;
    size_t e;
    int pattern;
    int64_t stride, offset;
    (void)state;
    for (e = 0; e < GP_ARRAY_LEN(elems); e++)
        for (pattern = 0; pattern < GP_PATTERN_COUNT; pattern++)
            for (stride = -3; stride <= 66; stride++)
                for (offset = -9; offset <= 40; offset += 7) {
                    gp_access_t a = acc((uint32_t)pattern, elems[e], stride, offset,
                                        pattern == GP_PATTERN_RANDOM && offset > 0 ? 4096 : 0);
                    double o4 = ref_core_passes(&a, 32, 32, 32, 4);
                    double o8 = ref_core_passes(&a, 32, 32, 32, 8);
                    double o16 = ref_core_passes(&a, 32, 32, 16, 8);
                    double ot = ref_tesla_passes(&a, 32);
                    assert_true(gp_bank_passes_access(&a, 32, &core4, 0, 0) == o4);
                    assert_true(gp_bank_passes_access(&a, 32, &core8, 0, 0) == o8);
                    assert_true(gp_bank_passes_access(&a, 32, &toy16, 0, 0) == o16);
                    if (gp_bank_passes_access(&a, 32, &tesla, 1, 16384) != ot)
                        fail_msg("1.x: pattern %d elem %u stride %lld offset %lld: before %g, "
                                 "now %g",
                                 pattern, elems[e], (long long)stride, (long long)offset, ot,
                                 gp_bank_passes_access(&a, 32, &tesla, 1, 16384));
                    cases++;
                }
    assert_true(cases > 6000);
}

/* 9.0's result groups (GP_BANK_WIDE_RESULT_GROUPS, 256 result bytes per
   group): the passes the H200 measured (bench_smem `lds`, `wmma_lds`), where
   fixed phases differ only for broadcasts and half-warp duplicates. */
static void test_result_groups(void **state)
{
    gp_bank_rule_t groups = {32, 4, 32, GP_BANK_BROADCAST_ANY, GP_BANK_WIDE_RESULT_GROUPS, 256};
    gp_bank_rule_t phases = {32, 4, 32, GP_BANK_BROADCAST_ANY, GP_BANK_WIDE_PHASES, 0};
    static const struct {
        uint32_t elem;
        int64_t lane_bytes; /* byte stride between lanes; 0: broadcast */
        double groups, phases;
    } cases[] = {
        {4, 4, 1, 1},    {4, 0, 1, 1},   {4, 8, 2, 2},    {4, 16, 4, 4},   /* LDS.32 */
        {8, 8, 2, 2},    {8, 0, 1, 2},   {8, 16, 4, 4},   {8, 32, 8, 8},   /* LDS.64 */
        {16, 16, 4, 4},  {16, 0, 2, 4},  {16, 32, 8, 8},  {16, 64, 16, 16}, /* LDS.128 */
    };
    int64_t off[32];
    size_t c;
    uint32_t t;
    (void)state;
    for (c = 0; c < GP_ARRAY_LEN(cases); c++) {
        for (t = 0; t < 32; t++)
            off[t] = (int64_t)t * cases[c].lane_bytes;
        if (gp_bank_passes_lanes(off, 32, cases[c].elem, &groups) != cases[c].groups ||
            gp_bank_passes_lanes(off, 32, cases[c].elem, &phases) != cases[c].phases)
            fail_msg("%u bytes, %lld apart: %g and %g passes, expected %g and %g",
                     cases[c].elem, (long long)cases[c].lane_bytes,
                     gp_bank_passes_lanes(off, 32, cases[c].elem, &groups),
                     gp_bank_passes_lanes(off, 32, cases[c].elem, &phases), cases[c].groups,
                     cases[c].phases);
    }
    /* a float4 read of a 16x16-thread block's row (two rows per warp, one
       address each): one pass per half-warp, not one per quarter */
    for (t = 0; t < 32; t++)
        off[t] = (int64_t)(t / 16) * 32;
    assert_true(gp_bank_passes_lanes(off, 32, 16, &groups) == 2);
    assert_true(gp_bank_passes_lanes(off, 32, 16, &phases) == 4);
    /* ldmatrix.x4 of a 16x16 fp16 tile: lane l gives row l % 16, column
       8 * (l / 16); rows 32 bytes apart conflict two ways (8 passes), 48
       bytes apart they do not (4) */
    for (t = 0; t < 32; t++)
        off[t] = (int64_t)(t % 16) * 32 + (int64_t)(t / 16) * 16;
    assert_true(gp_bank_passes_lanes(off, 32, 16, &groups) == 8);
    for (t = 0; t < 32; t++)
        off[t] = (int64_t)(t % 16) * 48 + (int64_t)(t / 16) * 16;
    assert_true(gp_bank_passes_lanes(off, 32, 16, &groups) == 4);
}

/* A warp over two 16-lane rows of a row-major float matrix (pitch 4096 B)
   makes two 64-byte runs: 4 sectors on a sectored L1, 2 lines of 128
   bytes, never one 128-byte run. */
static void test_two_rows_are_two_runs(void **state)
{
    int64_t off[32];
    gp_lane_sample_t s;
    gp_access_t a = acc(GP_PATTERN_UNIT, 4, 0, 0, 0);
    gp_coalesce_rule_t sectors = {32, 32, 32, 0}, lines = {32, 128, 128, 0};
    double bytes = 0;
    uint32_t t;
    (void)state;
    for (t = 0; t < 32; t++)
        off[t] = (int64_t)(t / 16) * 4096 + (int64_t)(t % 16) * 4 + 256;
    assert_true(gp_coalesce_lanes(off, 32, 4, &sectors, &bytes) == 4 && bytes == 128);
    assert_true(gp_coalesce_lanes(off, 32, 4, &lines, &bytes) == 2 && bytes == 256);
    /* the same as a sampled access; the unit pattern alone is one line */
    memset(&s, 0, sizeof s);
    s.n_warps = 1;
    s.lanes = 32;
    s.byte_offset = off;
    a.sample = &s;
    assert_true(gp_coalesce_access(&a, 32, &lines, &bytes) == 2 && bytes == 256);
    a.sample = NULL;
    assert_true(gp_coalesce_access(&a, 32, &lines, &bytes) == 1 && bytes == 128);
}

/* Samples average over their warps; inactive lanes cost nothing. */
static void test_samples_average_and_inactive_lanes(void **state)
{
    int64_t off[64];
    gp_lane_sample_t s;
    gp_access_t a = acc(GP_PATTERN_UNIT, 4, 0, 0, 0);
    gp_coalesce_rule_t sectors = {32, 32, 32, 0};
    gp_bank_rule_t banks = {32, 4, 32, GP_BANK_BROADCAST_ANY, GP_BANK_WIDE_PHASES, 0};
    double bytes = 0;
    uint32_t t;
    (void)state;
    for (t = 0; t < 32; t++) {
        off[t] = (int64_t)t * 4;          /* warp 0: contiguous, 4 sectors */
        off[32 + t] = (int64_t)t * 128;   /* warp 1: a sector each, 32 ways on bank 0 */
    }
    memset(&s, 0, sizeof s);
    s.n_warps = 2;
    s.lanes = 32;
    s.byte_offset = off;
    a.sample = &s;
    assert_true(gp_coalesce_access(&a, 32, &sectors, &bytes) == 18 && bytes == 18 * 32);
    assert_true(gp_bank_passes_access(&a, 32, &banks, 0, 0) == (1 + 32) / 2.0);
    for (t = 8; t < 32; t++)
        off[32 + t] = -1; /* only 8 lanes of warp 1 run */
    assert_true(gp_coalesce_lanes(off + 32, 32, 4, &sectors, &bytes) == 8);
    assert_true(gp_bank_passes_lanes(off + 32, 32, 4, &banks) == 8);
}

/* The later steps of a tree reduction: the warps whose lanes all skip the
   access (only warp 0 of four has active lanes, 2-way conflicted) do not
   dilute the passes of the one that runs it; the op's count carries the
   share of warps. A sample without any active lane costs one pass. */
static void test_bank_passes_of_issuing_warps(void **state)
{
    int64_t off[4 * 32];
    gp_lane_sample_t s;
    gp_access_t a = acc(GP_PATTERN_UNIT, 4, 0, 0, 0);
    gp_bank_rule_t banks = {32, 4, 32, GP_BANK_BROADCAST_ANY, GP_BANK_WIDE_PHASES, 0};
    uint32_t t;
    (void)state;
    for (t = 0; t < 4 * 32; t++)
        off[t] = t < 32 ? (int64_t)t * 8 : -1; /* sd[2 t], t < 32: 2 ways */
    memset(&s, 0, sizeof s);
    s.n_warps = 4;
    s.lanes = 32;
    s.byte_offset = off;
    a.sample = &s;
    assert_true(gp_bank_passes_lanes(off, 32, 4, &banks) == 2);
    assert_true(gp_bank_passes_access(&a, 32, &banks, 0, 0) == 2);
    for (t = 0; t < 32; t++)
        off[t] = -1;
    assert_true(gp_bank_passes_access(&a, 32, &banks, 0, 0) == 1);
}

/* Warp-uniform accesses: the broadcast pattern; a sample whose active lanes
   of every warp share one offset (inactive warps aside); not one whose warp
   spreads, nor one lane alone. */
static void test_access_uniform(void **state)
{
    int64_t off[64];
    gp_lane_sample_t s;
    gp_access_t a = acc(GP_PATTERN_BROADCAST, 4, 0, 0, 0);
    uint32_t t;
    (void)state;
    assert_true(gp_access_uniform(&a));
    a.pattern = GP_PATTERN_UNIT;
    assert_false(gp_access_uniform(&a));
    for (t = 0; t < 64; t++)
        off[t] = t < 32 ? 512 : -1; /* warp 0: all lanes one word; warp 1 idle */
    memset(&s, 0, sizeof s);
    s.n_warps = 2;
    s.lanes = 32;
    s.byte_offset = off;
    a.sample = &s;
    assert_true(gp_access_uniform(&a));
    off[5] = 516;
    assert_false(gp_access_uniform(&a));
    for (t = 1; t < 32; t++)
        off[t] = -1; /* lane 0 alone */
    assert_false(gp_access_uniform(&a));
}

/* The strict 1.0/1.1 rule from lane addresses: lane k must read word k of
   an aligned segment; inactive lanes do not break it. */
static void test_strict_rule_from_lanes(void **state)
{
    int64_t off[16];
    gp_coalesce_rule_t strict = {16, 64, 64, 1};
    double bytes = 0;
    uint32_t t;
    (void)state;
    for (t = 0; t < 16; t++)
        off[t] = 128 + (int64_t)t * 4;
    assert_true(gp_coalesce_lanes(off, 16, 4, &strict, &bytes) == 1 && bytes == 64);
    off[3] = -1;
    assert_true(gp_coalesce_lanes(off, 16, 4, &strict, &bytes) == 1);
    off[3] = 128 + 5 * 4; /* lane 3 reads word 5: every lane its own transaction */
    assert_true(gp_coalesce_lanes(off, 16, 4, &strict, &bytes) == 16 && bytes == 16 * 32);
}

/* The op cost takes a sample's addresses: on Fermi's 128-byte L1 lines the
   two-row warp costs two transactions where the unit pattern costs one. */
static void test_op_cost_uses_sample(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_err_t err;
    gp_kernel_t k;
    gp_op_t op;
    gp_occupancy_t occ;
    gp_residency_t res;
    gp_op_cost_t c_unit, c_rows;
    gp_lane_sample_t s;
    int64_t off[32];
    char msg[256];
    uint32_t t;
    (void)state;
    assert_int_equal(gp_device_open("geforce-gtx-480", &dev, &arch, &err), 0);
    memset(&k, 0, sizeof k);
    memset(&op, 0, sizeof op);
    memset(&res, 0, sizeof res);
    op.kind = GP_OP_LOAD;
    op.space = GP_SPACE_GLOBAL;
    op.count = 1;
    op.ilp = 1;
    op.access.elem_bytes = 4;
    op.access.footprint_bytes = 1 << 24;
    op.access.buffer = UINT32_MAX;
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
    assert_int_equal(gp_arch_occupancy(arch, &dev, &k.launch, &occ, &err), 0);
    assert_int_equal(gp_arch_call_op_cost(arch, &dev, &k, &op, &occ, &res, &c_unit, msg,
                                          sizeof msg),
                     0);
    for (t = 0; t < 32; t++)
        off[t] = (int64_t)(t / 16) * 4096 + (int64_t)(t % 16) * 4;
    memset(&s, 0, sizeof s);
    s.n_warps = 1;
    s.lanes = 32;
    s.byte_offset = off;
    s.grid_footprint_bytes = 1 << 24;
    op.access.sample = &s;
    assert_int_equal(gp_arch_call_op_cost(arch, &dev, &k, &op, &occ, &res, &c_rows, msg,
                                          sizeof msg),
                     0);
    assert_true(c_unit.transactions == 1);
    assert_true(c_rows.transactions == 2);
    assert_true(c_rows.l2_bytes == 2 * c_unit.l2_bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_patterns_as_before),
        cmocka_unit_test(test_banks_as_before),
        cmocka_unit_test(test_result_groups),
        cmocka_unit_test(test_two_rows_are_two_runs),
        cmocka_unit_test(test_samples_average_and_inactive_lanes),
        cmocka_unit_test(test_bank_passes_of_issuing_warps),
        cmocka_unit_test(test_access_uniform),
        cmocka_unit_test(test_strict_rule_from_lanes),
        cmocka_unit_test(test_op_cost_uses_sample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
