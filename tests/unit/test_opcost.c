/*
 * test_opcost.c - the core's op cost: warp operations and division (the
 * plugins' op rules and the measured device keys), the integer and
 * conversion rates, barriers by warps, atomic contention, and the L1
 * load rate.
 */
#include "test_common.h"

#include <math.h>

#include "arch.h"
#include "device.h"
#include "opcost.h"

static void open_dev(const char *name, gp_device_t *dev, const gp_arch_t **arch,
                     const gp_generation_t **gen)
{
    gp_err_t err;
    if (gp_device_open(name, dev, arch, &err))
        fail_msg("%s", err.msg);
    *gen = gp_arch_generation(*arch, dev->cc_major, dev->cc_minor);
    assert_non_null(*gen);
}

/* Cost of one op in a 256-thread kernel of `blocks` blocks; returns the status. */
static int cost(const gp_device_t *d, const gp_generation_t *g, gp_op_t *op, uint32_t warps,
                gp_op_cost_t *c, char *msg, size_t len)
{
    gp_kernel_t k;
    gp_occupancy_t o;
    gp_residency_t r;
    memset(&k, 0, sizeof k);
    memset(&o, 0, sizeof o);
    memset(&r, 0, sizeof r);
    k.name = "k";
    k.launch.threads_per_block = warps * 32;
    k.launch.block.x = warps * 32;
    k.launch.grid.x = 16384;
    k.total_blocks = 16384;
    k.ops = op;
    k.n_ops = 1;
    o.warps_per_block = warps;
    o.blocks_per_sm = 1;
    o.active_warps = warps;
    o.max_warps = 64;
    r.blocks = 1;
    r.active_sms = d->sm_count;
    r.dram_share = r.l2_share = 1.0 / d->sm_count;
    msg[0] = '\0';
    return gp_op_cost_default(g, d, &k, op, &o, &r, c, msg, len);
}

static gp_op_t op_of(uint32_t kind)
{
    gp_op_t op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    op.count = 1;
    op.ilp = 1;
    op.access.buffer = UINT32_MAX;
    return op;
}

/* A missing instruction is refused with the capability it needs. */
static void test_availability(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op;
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    open_dev("geforce-8800-gtx", &d, &a, &g);
    op = op_of(GP_OP_SHFL);
    assert_int_not_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_contains(msg, "shfl needs compute capability 3.0; geforce-8800-gtx is 1.0");
    op = op_of(GP_OP_VOTE);
    assert_int_not_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_contains(msg, "needs compute capability 1.2");
    op = op_of(GP_OP_IDIV); /* everywhere: nvcc's sequence on the integer pipe */
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_INT] - 23 * 32 / d.int32_lanes) < 1e-9);
    open_dev("geforce-gtx-280", &d, &a, &g);
    op = op_of(GP_OP_VOTE);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    open_dev("tesla-k40", &d, &a, &g);
    op = op_of(GP_OP_MATCH);
    assert_int_not_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_contains(msg, "needs compute capability 7.0");
    op = op_of(GP_OP_SHFL); /* 32 per clock per SM (throughput table) */
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_LDST] - 1.0) < 1e-9);
    open_dev("a100-sxm4-40gb", &d, &a, &g);
    op = op_of(GP_OP_WARP_REDUCE);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    op = op_of(GP_OP_RCP); /* one SFU instruction */
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SFU] - 32 / d.sfu_lanes) < 1e-9);
}

/* A card that measured an op: its rate and latency replace the rule's. */
static void test_measured_keys(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op;
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.shfl_lanes > 0 && d.graph_launch_us > 0);
    op = op_of(GP_OP_SHFL);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_LDST] - 32 / d.shfl_lanes) < 1e-9);
    assert_true(c.latency_cycles == d.shfl_cycles);
    op = op_of(GP_OP_IDIV);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_INT] - 32 / d.idiv_lanes) < 1e-9);
    assert_true(c.latency_cycles == d.idiv_cycles);
    /* gpuperf.int at the add/logic rate, about twice IMAD's */
    op = op_of(GP_OP_INT);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(c.pipe_cycles[GP_PIPE_INT] < 0.6 * 32 / d.int32_lanes);
    /* gpuperf.imul at the measured IMAD rate and latency */
    op.int_mul = 1;
    assert_true(d.int32_mul_lanes > 0 && d.int32_mul_cycles > 0);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_INT] - 32 / d.int32_mul_lanes) < 1e-9);
    assert_true(c.latency_cycles == d.int32_mul_cycles);
    /* a conversion: half F2I on the conversion pipe, half I2F */
    op = op_of(GP_OP_CONV);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_CONV] - 0.5 * 32 / d.f2i_lanes) < 1e-9);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_INT] - 0.5 * 32 / d.i2f_lanes) < 1e-9);
}

/* A barrier waits longer the more warps the block has, and takes the SM's
   barrier unit per warp. */
static void test_barrier_by_warps(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_BARRIER);
    gp_op_cost_t c8, c32;
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_int_equal(cost(&d, g, &op, 8, &c8, msg, sizeof msg), 0);
    assert_int_equal(cost(&d, g, &op, 32, &c32, msg, sizeof msg), 0);
    assert_true(fabs(c8.latency_cycles - (9.2 + 1.8 * 8)) < 1e-9);
    assert_true(fabs(c32.latency_cycles - (9.2 + 1.8 * 32)) < 1e-9);
    assert_true(c8.pipe_cycles[GP_PIPE_ISSUE] == d.barrier_per_warp_cycles);
}

/* Global atomics: one address for the grid is bound by its serialisation;
   more addresses (bins) never cost more. */
static void test_atomic_contention(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_ATOMIC);
    gp_op_cost_t c;
    char msg[256];
    double per_cycle, prev = INFINITY;
    uint64_t bins;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    per_cycle = d.l2_bandwidth_gbps * 1e3 / d.core_clock_mhz;
    op.space = GP_SPACE_GLOBAL;
    op.access.elem_bytes = 4;
    op.access.footprint_bytes = 4;
    /* a float add: one atomic per lane (not aggregated), serialised on one
       address at the float rate */
    op.access.atomic_op = GP_ATOMIC_OP_FADD;
    op.access.atomic_scope = GP_ATOMIC_SAME;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.l2_bytes - 1 / d.atomic_uniform_f32_warps_per_cycle * per_cycle) < 1e-6);
    op.access.atomic_scope = GP_ATOMIC_PER_WARP;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.l2_bytes - 32 / d.atomic_warp_address_per_cycle * per_cycle) < 1e-6);
    op.access.atomic_scope = GP_ATOMIC_DISTINCT;
    for (bins = 1; bins <= (1u << 22); bins *= 4) {
        op.access.bins = bins;
        assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
        assert_true(c.l2_bytes <= prev + 1e-9);
        prev = c.l2_bytes;
    }
    op.access.bins = 1; /* one bin: the single address */
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.l2_bytes - 1 / d.atomic_uniform_f32_warps_per_cycle * per_cycle) < 1e-6);
}

/* Integer atomics whose warp names one address aggregate (8.0 on): one
   atomic per warp at the measured uniform rate, plus the warp reduce for an
   add of a value; one address per warp spreads to the all-distinct rate. */
static void test_atomic_uniform(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_ATOMIC);
    gp_op_cost_t c, f;
    char msg[256];
    double per_cycle;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(g->mem->aggregates_uniform_atomics);
    assert_true(d.atomic_uniform_warps_per_cycle > 0 && d.atomic_uniform_inc_warps_per_cycle > 0);
    per_cycle = d.l2_bandwidth_gbps * 1e3 / d.core_clock_mhz;
    op.space = GP_SPACE_GLOBAL;
    op.access.elem_bytes = 4;
    op.access.footprint_bytes = 4;
    op.access.atomic_scope = GP_ATOMIC_SAME;
    op.access.atomic_op = GP_ATOMIC_OP_FADD;
    assert_int_equal(cost(&d, g, &op, 8, &f, msg, sizeof msg), 0);
    op.access.atomic_op = GP_ATOMIC_OP_ADD;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.l2_bytes - 1 / d.atomic_uniform_warps_per_cycle * per_cycle) < 1e-6);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_INT] - f.pipe_cycles[GP_PIPE_INT] -
                     d.warp_size / d.warp_reduce_lanes) < 1e-9);
    assert_true(fabs(c.latency_cycles - f.latency_cycles - d.warp_reduce_cycles) < 1e-9);
    op.access.atomic_op = GP_ATOMIC_OP_INC;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.l2_bytes - 1 / d.atomic_uniform_inc_warps_per_cycle * per_cycle) < 1e-6);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_INT] - f.pipe_cycles[GP_PIPE_INT]) < 1e-9);
    op.access.atomic_scope = GP_ATOMIC_PER_WARP; /* one RED per warp, all words distinct */
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.l2_bytes - 1 / d.atomic_distinct_per_cycle * per_cycle) < 1e-6);
    op.access.atomic_scope = GP_ATOMIC_DISTINCT; /* not uniform: one per lane */
    op.access.bins = 1024;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    op.access.atomic_op = GP_ATOMIC_OP_ADD;
    assert_int_equal(cost(&d, g, &op, 8, &f, msg, sizeof msg), 0);
    assert_true(fabs(c.l2_bytes - f.l2_bytes) < 1e-9);
    assert_true(c.l2_bytes > 16 / d.atomic_distinct_per_cycle * per_cycle);
}

/* A shared increment by a constant (ATOMS.POPC.INC) costs the measured flat
   cycles whatever the lanes per word. */
static void test_shared_atomic_inc(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_ATOMIC);
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.shared_atomic_inc_cycles > 0);
    op.space = GP_SPACE_SHARED;
    op.access.elem_bytes = 4;
    op.access.atomic_op = GP_ATOMIC_OP_INC;
    op.access.atomic_scope = GP_ATOMIC_SAME;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] - d.shared_atomic_inc_cycles) < 1e-9);
    op.access.atomic_scope = GP_ATOMIC_DISTINCT;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] - d.shared_atomic_inc_cycles) < 1e-9);
}

/* A warp's load of 32 consecutive floats (one 128-byte line) that hits L1
   holds the L1 data path for 128 / l1_load_bytes_per_cycle cycles (the
   H200's measured rate); a card without the key moves a line a clock, and
   stores keep the line a clock. */
static void test_l1_load_rate(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_LOAD);
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.l1_load_bytes_per_cycle > 0 && d.l1_load_bytes_per_cycle < d.l1_line_bytes);
    op.space = GP_SPACE_TEXTURE;
    op.access.elem_bytes = 4;
    op.access.pattern = GP_PATTERN_UNIT;
    op.access.buffer = 0;
    op.access.footprint_bytes = 16384;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_L1] - 128 / d.l1_load_bytes_per_cycle) < 1e-9);
    op.space = GP_SPACE_GLOBAL;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_L1] - 128 / d.l1_load_bytes_per_cycle) < 1e-9);
    d.l1_load_bytes_per_cycle = 0;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_L1] - 1.0) < 1e-9);
    /* above a line a clock, the line stands */
    d.l1_load_bytes_per_cycle = 4096;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_L1] - 1.0) < 1e-9);
}

/* An atomic whose lane sample leaves every lane of some warps inactive (the
   index function gives nil): those warps branch around it and cost nothing
   at the memory system or the shared pipe; the others cost what a warp of
   the same sharing costs. */
static void test_atomic_idle_warps(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_ATOMIC);
    gp_op_cost_t all, quarter;
    gp_lane_sample_t s;
    int64_t off[4 * 32];
    char msg[256];
    uint32_t w, j;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    memset(&s, 0, sizeof s);
    s.n_warps = 4;
    s.lanes = 32;
    s.byte_offset = off;
    s.grid_footprint_bytes = 4;
    s.warp_footprint_bytes = s.block_footprint_bytes = 4;
    for (w = 0; w < 4; w++)
        for (j = 0; j < 32; j++)
            off[w * 32 + j] = j == 7 ? 28 : -1; /* one lane per warp, word 7 */
    op.access.elem_bytes = 4;
    op.access.footprint_bytes = 4;
    op.access.sample = &s;
    op.access.atomic_op = GP_ATOMIC_OP_ADD;
    op.space = GP_SPACE_GLOBAL;
    assert_int_equal(cost(&d, g, &op, 8, &all, msg, sizeof msg), 0);
    for (w = 1; w < 4; w++) /* now only the first of four warps has a lane */
        off[w * 32 + 7] = -1;
    assert_int_equal(cost(&d, g, &op, 8, &quarter, msg, sizeof msg), 0);
    assert_true(all.l2_bytes > 0);
    assert_true(fabs(quarter.l2_bytes - all.l2_bytes / 4) < 1e-6 * all.l2_bytes);
    assert_true(fabs(quarter.transactions - all.transactions / 4) < 1e-9 * all.transactions);
    op.space = GP_SPACE_SHARED;
    op.access.atomic_op = GP_ATOMIC_OP_INC;
    assert_int_equal(cost(&d, g, &op, 8, &quarter, msg, sizeof msg), 0);
    assert_true(fabs(quarter.pipe_cycles[GP_PIPE_SHARED] - d.shared_atomic_inc_cycles / 4) < 1e-9);
    for (w = 1; w < 4; w++)
        off[w * 32 + 7] = 28;
    assert_int_equal(cost(&d, g, &op, 8, &all, msg, sizeof msg), 0);
    assert_true(fabs(all.pipe_cycles[GP_PIPE_SHARED] - d.shared_atomic_inc_cycles) < 1e-9);
}

/* Shared atomics: each lane on a word another lane hits adds the measured
   conflict cost. */
static void test_shared_atomic(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_ATOMIC);
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    op.space = GP_SPACE_SHARED;
    op.access.elem_bytes = 4;
    op.access.atomic_scope = GP_ATOMIC_SAME;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] -
                     (d.shared_atomic_cycles + 31 * d.shared_atomic_conflict_cycles)) < 1e-9);
    op.access.atomic_scope = GP_ATOMIC_DISTINCT;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] - d.shared_atomic_cycles) < 1e-9);
}

/* A warp-wide 16-byte shared-memory broadcast: two passes on 9.0 (256-byte
   result groups, the H200's bench_smem lds128_bcast rows), four on 8.0
   (quarter-warp phases); 8-byte: one and two. */
static void test_shared_wide_broadcast(void **state)
{
    static const struct {
        const char *dev;
        uint32_t elem;
        double passes;
    } cases[] = {{"h200-sxm", 16, 2}, {"h200-sxm", 8, 1}, {"h200-sxm", 4, 1},
                 {"a100-sxm4-40gb", 16, 4}, {"a100-sxm4-40gb", 8, 2}};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gp_device_t d;
        const gp_arch_t *a;
        const gp_generation_t *g;
        gp_op_t op = op_of(GP_OP_LOAD);
        gp_op_cost_t c;
        char msg[256];
        open_dev(cases[i].dev, &d, &a, &g);
        op.space = GP_SPACE_SHARED;
        op.access.elem_bytes = cases[i].elem;
        op.access.pattern = GP_PATTERN_BROADCAST;
        op.access.stride_elems = 1;
        assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
        if (fabs(c.transactions - cases[i].passes) > 1e-9 ||
            fabs(c.pipe_cycles[GP_PIPE_SHARED] - cases[i].passes) > 1e-9)
            fail_msg("%s, %u bytes: %g passes, %g shared cycles; expected %g", cases[i].dev,
                     cases[i].elem, c.transactions, c.pipe_cycles[GP_PIPE_SHARED],
                     cases[i].passes);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_availability),
        cmocka_unit_test(test_measured_keys),
        cmocka_unit_test(test_barrier_by_warps),
        cmocka_unit_test(test_atomic_contention),
        cmocka_unit_test(test_shared_atomic),
        cmocka_unit_test(test_shared_wide_broadcast),
        cmocka_unit_test(test_atomic_uniform),
        cmocka_unit_test(test_shared_atomic_inc),
        cmocka_unit_test(test_atomic_idle_warps),
        cmocka_unit_test(test_l1_load_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
