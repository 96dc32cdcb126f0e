/*
 * test_blockcost.c - the walk over a kernel's ops (blockcost.c):
 * dependent loads add their latencies,
 * independent loads of a straight run overlap each other and the arithmetic
 * (in batches the registers hold; a barrier, store or atomic ends the run),
 * independent loads of unrolled iterations overlap the arithmetic (limited
 * by registers), a pointer chase does not, a block of one thread is never
 * slower than one of 32 doing the same, and a load's latency follows where
 * its data lives.
 */
#include "test_common.h"

#include <math.h>

#include "arch.h"
#include "blockcost.h"
#include "constants.h"
#include "device.h"
#include "fitted.h"
#include "gpuperf/gpuperf.h"
#include "occupancy.h"

static gp_device_t g_dev;
static const gp_arch_t *g_arch;
static const gp_generation_t *g_gen;

static int setup(void **state)
{
    gp_err_t err;
    (void)state;
    if (gp_device_open("h200-sxm", &g_dev, &g_arch, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    g_gen = gp_arch_generation(g_arch, g_dev.cc_major, g_dev.cc_minor);
    return g_gen ? 0 : -1;
}

/* A global load of 4 bytes per thread from buffer 0 (footprint bytes). */
static gp_op_t load(uint32_t pattern, uint64_t footprint, int depends)
{
    gp_op_t op;
    memset(&op, 0, sizeof op);
    op.kind = GP_OP_LOAD;
    op.count = 1;
    op.ilp = 1;
    op.space = GP_SPACE_GLOBAL;
    op.access.elem_bytes = 4;
    op.access.pattern = pattern;
    op.access.stride_elems = 1;
    op.access.footprint_bytes = footprint;
    op.access.buffer = 0;
    op.access.depends = (uint32_t)depends;
    return op;
}

static gp_op_t arith(uint32_t kind, double count)
{
    gp_op_t op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    op.count = count;
    op.ilp = 1;
    return op;
}

static gp_op_t loop(double trips, uint32_t body_len)
{
    gp_op_t op = arith(GP_OP_LOOP, trips);
    op.body_len = body_len;
    return op;
}

/* Block cost of ops in `blocks` blocks of `threads` threads, `regs`
   registers, on one SM whose share of the DRAM's and the L2's bandwidth is
   `share`, `warm` bytes of buffer 0 in the L2 at the launch, on device dev
   of generation gen. */
static gp_block_cost_t cost_share(const gp_device_t *dev, const gp_generation_t *gen,
                                  const gp_op_t *ops, uint32_t n, uint32_t threads, uint32_t regs,
                                  uint32_t blocks, double share, uint64_t warm, uint64_t dyn_smem)
{
    gp_kernel_t k;
    gp_occupancy_t occ;
    gp_residency_t res;
    gp_block_cost_t bc;
    char err[256] = "";
    memset(&k, 0, sizeof k);
    k.name = "k";
    k.launch.grid.x = k.launch.grid.y = k.launch.grid.z = 1;
    k.launch.block.x = threads;
    k.launch.block.y = k.launch.block.z = 1;
    k.launch.threads_per_block = threads;
    k.launch.regs_per_thread = regs;
    k.launch.carveout_percent = dyn_smem ? 0 : -1;
    k.launch.dynamic_smem_bytes = dyn_smem;
    k.ops = ops;
    k.n_ops = n;
    k.total_blocks = 1;
    if (warm) {
        k.l2_warm_bytes = &warm;
        k.n_buffers = 1;
    }
    assert_int_equal(gp_occupancy_compute(dev, &k.launch, gen->alloc, &occ, err, sizeof err), 0);
    memset(&res, 0, sizeof res);
    res.blocks = blocks;
    res.warps_sm = blocks * occ.warps_per_block;
    res.active_sms = 1;
    res.dram_share = share;
    res.l2_share = share;
    res.l2_capacity_bytes = (double)dev->l2_bytes;
    memset(&bc, 0, sizeof bc);
    if (gp_block_cost_default(g_arch->plugin, gen, dev, &k, &occ, &res, &bc, err, sizeof err))
        fail_msg("%s", err);
    return bc;
}

/* The same, alone on its SM among every SM of the device. */
static gp_block_cost_t cost_resident(const gp_device_t *dev, const gp_generation_t *gen,
                                     const gp_op_t *ops, uint32_t n, uint32_t threads,
                                     uint32_t regs, uint32_t blocks)
{
    return cost_share(dev, gen, ops, n, threads, regs, blocks, 1.0 / dev->sm_count, 0, 0);
}

static gp_block_cost_t cost_on(const gp_device_t *dev, const gp_generation_t *gen,
                               const gp_op_t *ops, uint32_t n, uint32_t threads, uint32_t regs)
{
    return cost_resident(dev, gen, ops, n, threads, regs, 1);
}

static gp_block_cost_t cost(const gp_op_t *ops, uint32_t n, uint32_t threads, uint32_t regs)
{
    return cost_on(&g_dev, g_gen, ops, n, threads, regs);
}

/* fp16 tensor work of `flops` per thread in `ilp` independent chains. */
static gp_op_t tensor(double flops, double ilp)
{
    gp_op_t op = arith(GP_OP_TENSOR, flops);
    op.tensor_type = GP_TENSOR_FP16;
    op.ilp = ilp;
    return op;
}

/* A shared-memory load of 4 bytes per thread, conflict-free. */
static gp_op_t shared_load(void)
{
    gp_op_t op = load(GP_PATTERN_UNIT, 0, 0);
    op.space = GP_SPACE_SHARED;
    op.access.buffer = UINT32_MAX;
    return op;
}

/* Four loads, each from the value of the one before, wait four latencies;
   the same loads independent wait about one. */
static void test_dependent_loads_add(void **state)
{
    gp_op_t dep[4], ind[4];
    gp_block_cost_t d, i;
    gp_device_t dev = g_dev;
    uint32_t k;
    (void)state;
    /* the latencies alone: without the DRAM time translation adds to random
       lines over 1 GiB, which binds the independent block by its bytes
       (test_opcost.c test_tlb_dram_bytes) */
    dev.tlb_dram_line_bytes = 0;
    dev.tlb_dram_reach_bytes = 0;
    for (k = 0; k < 4; k++) {
        dep[k] = load(GP_PATTERN_RANDOM, 1u << 30, k > 0);
        ind[k] = load(GP_PATTERN_RANDOM, 1u << 30, 0);
    }
    d = cost_on(&dev, g_gen, dep, 4, 32, 32);
    i = cost_on(&dev, g_gen, ind, 4, 32, 32);
    assert_true(d.latency_cycles > 3.5 * i.latency_cycles);
    assert_true(d.latency_cycles < 4.5 * i.latency_cycles);
    assert_true(i.latency_cycles >= g_dev.dram_cycles * 0.9);
    assert_true(d.time_cycles > 3 * i.time_cycles);
}

/* A chase through 1 GiB waits the DRAM latency per hop, plus the wait for
   the slowest of the warp's 32 lanes (dram_lines_log2_cycles per doubling),
   and does not overlap its iterations; the same loads independent overlap. */
static void test_chase_does_not_overlap(void **state)
{
    gp_op_t chase[2] = {loop(1000, 1), load(GP_PATTERN_RANDOM, 1u << 30, 1)};
    gp_op_t ind[2] = {loop(1000, 1), load(GP_PATTERN_RANDOM, 1u << 30, 0)};
    gp_block_cost_t c, i;
    (void)state;
    c = cost(chase, 2, 32, 32);
    i = cost(ind, 2, 32, 32);
    assert_true(c.latency_cycles >= 1000 * g_dev.dram_cycles * 0.95);
    assert_true(c.latency_cycles <=
                1000 * (g_dev.dram_cycles + 5 * g_dev.dram_lines_log2_cycles) * 1.1);
    assert_true(i.latency_cycles < c.latency_cycles / 8);
    /* a body whose dependent load follows a load of the same iteration
       (a gather) still overlaps across iterations */
    {
        gp_op_t gather[3] = {loop(1000, 2), load(GP_PATTERN_UNIT, 1u << 30, 0),
                             load(GP_PATTERN_RANDOM, 1u << 30, 1)};
        gp_block_cost_t g = cost(gather, 3, 32, 32);
        assert_true(g.latency_cycles < c.latency_cycles / 4);
    }
}

/* Unrolled independent loads overlap the arithmetic: per iteration about
   memory latency / depth + the arithmetic chain; with the registers of no
   more than one iteration in flight, nothing overlaps. */
static void test_unrolled_loads_overlap_arithmetic(void **state)
{
    gp_op_t body[4] = {loop(256, 3), load(GP_PATTERN_UNIT, 1u << 30, 0),
                       load(GP_PATTERN_UNIT, 1u << 30, 0), arith(GP_OP_FP32, 1)};
    gp_block_cost_t wide, tight;
    double serial = 256 * (g_dev.dram_cycles + g_dev.fp32_cycles);
    (void)state;
    wide = cost(body, 4, 256, 64);  /* 52 spare registers: 16 iterations */
    tight = cost(body, 4, 256, 14); /* 2 spare: one iteration's two loads */
    assert_true(tight.latency_cycles >= serial * 0.95);
    assert_true(wide.latency_cycles < serial / 8);
    assert_true(wide.latency_cycles > 256 * g_dev.fp32_cycles);
    assert_true(wide.time_cycles < tight.time_cycles);
}

/* A block of one thread is never slower than one of 32 threads each doing
   the same loop (strictly more work): loads, arithmetic, chases. */
static void test_one_thread_not_slower(void **state)
{
    gp_op_t bodies[3][4] = {
        {loop(1000, 1), load(GP_PATTERN_RANDOM, 1u << 30, 1)},
        {loop(1000, 1), load(GP_PATTERN_UNIT, 1u << 30, 1)},
        {loop(512, 3), load(GP_PATTERN_UNIT, 1u << 24, 0), arith(GP_OP_FP32, 4),
         load(GP_PATTERN_RANDOM, 1u << 22, 0)},
    };
    uint32_t n[3] = {2, 2, 4}, k;
    (void)state;
    for (k = 0; k < 3; k++) {
        gp_block_cost_t one = cost(bodies[k], n[k], 1, 32);
        gp_block_cost_t all = cost(bodies[k], n[k], 32, 32);
        assert_true(one.time_cycles <= all.time_cycles * (1 + 1e-9));
        assert_true(one.latency_cycles <= all.latency_cycles * (1 + 1e-9));
    }
}

/* A straight run of N taps (int, load, FMA), as a fully unrolled
   convolution: the independent loads overlap each other and the arithmetic,
   in batches of as many as the registers above the loop's base hold; with
   `depends` each waits for the one before. Bounded below by the arithmetic
   chain (the FMA accumulation stays serial). */
static void build_taps(gp_op_t *ops, uint32_t taps, int depends)
{
    uint32_t k;
    for (k = 0; k < taps; k++) {
        ops[3 * k] = arith(GP_OP_INT, 2);
        ops[3 * k + 1] = load(GP_PATTERN_UNIT, 1u << 30, depends && k > 0);
        ops[3 * k + 2] = arith(GP_OP_FP32, 1);
    }
}

static void test_straight_loads_overlap_arithmetic(void **state)
{
    gp_op_t ind[3 * 49], dep[3 * 49], arith_only[2];
    gp_block_cost_t i, d, a, i64, narrow;
    (void)state;
    build_taps(ind, 49, 0);
    build_taps(dep, 49, 1);
    arith_only[0] = arith(GP_OP_INT, 2 * 49);
    arith_only[1] = arith(GP_OP_FP32, 49);
    i = cost(ind, 3 * 49, 256, 32); /* 20 spare registers: 3 batches */
    d = cost(dep, 3 * 49, 256, 32);
    a = cost(arith_only, 2, 256, 32);
    /* chained: 49 memory latencies; independent: 3 (49 loads, 20 a batch) */
    assert_true(d.latency_cycles >= 49 * g_dev.dram_cycles * 0.95);
    assert_true(i.latency_cycles < d.latency_cycles / 8);
    assert_true(i.latency_cycles >= 3 * g_dev.dram_cycles * 0.95);
    /* each batch waits for the slowest of its (about 17) DRAM runs too */
    assert_true(i.latency_cycles <= 3 * (g_dev.dram_cycles * 1.05 +
                                         g_dev.dram_batch_log2_cycles * log2(20.0)) +
                                        a.latency_cycles);
    /* never below the arithmetic chain, nor below one latency */
    assert_true(i.latency_cycles >= a.latency_cycles);
    assert_true(i.time_cycles < d.time_cycles);
    /* more registers, fewer batches, down to what the SM keeps in flight:
       52 spare registers hold all 49, but a warp's share of the SM's bytes
       in flight (16 per thread slot, 8 warps) is 32 lines of 128 bytes: 2;
       with no spare register, one load a batch */
    i64 = cost(ind, 3 * 49, 256, 64);
    assert_true(i64.latency_cycles < i.latency_cycles);
    assert_true(i64.latency_cycles >= 2 * g_dev.dram_cycles * 0.95);
    assert_true(i64.latency_cycles <= 2 * (g_dev.dram_cycles * 1.05 +
                                           g_dev.dram_batch_log2_cycles * log2(32.0)) +
                                          a.latency_cycles);
    narrow = cost(ind, 3 * 49, 256, 12);
    assert_true(narrow.latency_cycles >= d.latency_cycles * 0.95);
}

/* A barrier, a store or an atomic ends the straight run: loads on either
   side do not share a batch. Loads listed back to back share one whatever
   the registers (ptxas counted them). */
static void test_straight_run_boundaries(void **state)
{
    uint32_t ends[3] = {GP_OP_BARRIER, GP_OP_STORE, GP_OP_ATOMIC}, k;
    gp_op_t open[5] = {load(GP_PATTERN_UNIT, 1u << 30, 0), arith(GP_OP_FP32, 1),
                       arith(GP_OP_INT, 1), load(GP_PATTERN_UNIT, 1u << 30, 0),
                       arith(GP_OP_FP32, 1)};
    gp_op_t pair[3] = {load(GP_PATTERN_UNIT, 1u << 30, 0), load(GP_PATTERN_UNIT, 1u << 30, 0),
                       arith(GP_OP_FP32, 1)};
    gp_block_cost_t o = cost(open, 5, 256, 32), p;
    (void)state;
    assert_true(o.latency_cycles < 1.5 * g_dev.dram_cycles);
    for (k = 0; k < 3; k++) {
        gp_op_t cut[5];
        gp_block_cost_t c;
        memcpy(cut, open, sizeof cut);
        cut[2] = arith(ends[k], 1);
        if (ends[k] != GP_OP_BARRIER) {
            cut[2].space = GP_SPACE_GLOBAL;
            cut[2].access = open[0].access;
            cut[2].access.buffer = 1;
        }
        c = cost(cut, 5, 256, 32);
        assert_true(c.latency_cycles >= 1.9 * g_dev.dram_cycles);
    }
    p = cost(pair, 3, 256, 12); /* no spare register, yet back to back */
    assert_true(p.latency_cycles < 1.5 * g_dev.dram_cycles);
}

/* A run's loads wait in windows of gp_op_t.in_flight, whatever the
   registers hold: 16 independent DRAM loads in 64 registers wait one
   latency together, 4 at a time four; a window as wide as the run changes
   nothing. In a loop, the copies side by side are those whose loads fit
   the window too. */
static void test_in_flight_window(void **state)
{
    gp_op_t run[17], body[3];
    gp_block_cost_t all, four, wide, l_all, l_two;
    uint32_t k;
    (void)state;
    for (k = 0; k < 16; k++)
        run[k] = load(GP_PATTERN_UNIT, 1u << 30, 0);
    run[16] = arith(GP_OP_FP32, 16);
    all = cost(run, 17, 256, 64);
    for (k = 0; k < 16; k++)
        run[k].in_flight = 4;
    four = cost(run, 17, 256, 64);
    for (k = 0; k < 16; k++)
        run[k].in_flight = 16;
    wide = cost(run, 17, 256, 64);
    assert_true(all.latency_cycles < 1.5 * g_dev.dram_cycles);
    assert_true(four.latency_cycles >= 3.8 * g_dev.dram_cycles);
    assert_true(wide.latency_cycles == all.latency_cycles);
    /* a loop of one load and its add a trip, left to the model's unrolling */
    body[0] = loop(256, 2);
    body[1] = load(GP_PATTERN_UNIT, 1u << 30, 0);
    body[2] = arith(GP_OP_FP32, 1);
    l_all = cost(body, 3, 256, 64);
    body[1].in_flight = 2;
    l_two = cost(body, 3, 256, 64);
    assert_true(l_two.latency_cycles > 1.5 * l_all.latency_cycles);
}

/* A branch whose guarded ops are loads and arithmetic alone is predicated
   by nvcc (`if (c >= 0) s += v[e] * x[c]`): the loads on either side share
   one batch, as with no branch. A branch followed by a store before the
   next branch or the body's end stays a branch: the loads wait apart. */
static void test_predicated_branch(void **state)
{
    gp_op_t open[5] = {load(GP_PATTERN_UNIT, 1u << 30, 0), arith(GP_OP_INT, 1),
                       arith(GP_OP_BRANCH, 1), load(GP_PATTERN_UNIT, 1u << 30, 0),
                       arith(GP_OP_FP32, 1)};
    gp_op_t cut[6];
    gp_block_cost_t o, c;
    (void)state;
    o = cost(open, 5, 256, 32);
    assert_true(o.latency_cycles < 1.5 * g_dev.dram_cycles);
    memcpy(cut, open, sizeof open);
    cut[4] = load(GP_PATTERN_UNIT, 1u << 30, 0); /* a store in the guarded body */
    cut[4].kind = GP_OP_STORE;
    cut[4].access.buffer = 1;
    cut[5] = arith(GP_OP_FP32, 1);
    c = cost(cut, 6, 256, 32);
    assert_true(c.latency_cycles >= 1.9 * g_dev.dram_cycles);
}

/* Tensor work counts its mma.sync instructions, not its flops: 256 fp16
   flops per thread are two m16n8k16 instructions, and a loop of them is
   unrolled, so its chain is the mma latency, not the loop branch's. */
static void test_tensor_instructions(void **state)
{
    gp_op_t one[1] = {tensor(256, 2)};
    gp_op_t body[2] = {loop(1000, 1), tensor(256, 2)};
    gp_block_cost_t c = cost(one, 1, 128, 32), l;
    (void)state;
    assert_true(fabs(c.warp_instructions - 2 * 4) < 1e-9);
    l = cost(body, 2, 128, 32);
    assert_true(g_dev.tensor_cycles > 0 && g_dev.branch_cycles > g_dev.tensor_cycles);
    assert_true(l.latency_cycles < 1000 * (g_dev.tensor_cycles + 2) *
                                       g_dev.core_clock_mhz / g_dev.tensor_clock_mhz);
    assert_true(l.latency_cycles > 1000 * g_dev.tensor_cycles);
}

/* A kernel that issues tensor-core instructions counts its SM cycles at the
   device's tensor clock; one without does not, and a device file without a
   tensor clock keeps the core clock. */
static void test_tensor_clock(void **state)
{
    gp_op_t mma[2] = {loop(1000, 1), tensor(256 * 4, 8)};
    gp_op_t fma[2] = {loop(1000, 1), arith(GP_OP_FP32, 8)};
    gp_device_t plain = g_dev;
    gp_block_cost_t at, base, f, fp;
    double r;
    (void)state;
    assert_true(g_dev.tensor_clock_mhz > 0 && g_dev.tensor_clock_mhz < g_dev.core_clock_mhz);
    plain.tensor_clock_mhz = 0;
    at = cost(mma, 2, 512, 64);
    base = cost_on(&plain, g_gen, mma, 2, 512, 64);
    r = g_dev.core_clock_mhz / g_dev.tensor_clock_mhz;
    assert_true(fabs(at.throughput_cycles - r * base.throughput_cycles) < 1e-6 * at.throughput_cycles);
    assert_true(fabs(at.latency_cycles - r * base.latency_cycles) < 1e-6 * at.latency_cycles);
    f = cost(fma, 2, 512, 64);
    fp = cost_on(&plain, g_gen, fma, 2, 512, 64);
    assert_true(f.time_cycles == fp.time_cycles);
}

/* A one-warp dependent FMA loop (nvcc unrolls it by 16) pays the taken branch
   that closes each unrolled copy: branch_taken_cycles / 16 per iteration
   beside the FMA latency; a device without the key pays none. */
static void test_taken_branch(void **state)
{
    gp_op_t fma[2] = {loop(4000, 1), arith(GP_OP_FP32, 1)};
    gp_device_t plain = g_dev;
    gp_block_cost_t with, without;
    (void)state;
    assert_true(g_dev.branch_taken_cycles > 0);
    plain.branch_taken_cycles = 0;
    with = cost(fma, 2, 32, 16);
    without = cost_on(&plain, g_gen, fma, 2, 32, 16);
    assert_true(fabs(with.latency_cycles - without.latency_cycles -
                     4000 * g_dev.branch_taken_cycles / 16) < 1e-6 * with.latency_cycles);
}

/* A loop pinned to one copy whose arithmetic after its load is shorter than
   predicate_branch_cycles waits the rest before the branch each trip (ptxas
   keeps that many stall cycles between the exit compare and the branch, and
   the arithmetic's wait for the load is none of them): one FADD waits
   predicate_branch_cycles - fp32_cycles more a trip, four dependent FFMA
   none. Integer work between the load and its use counts towards the
   cycles; a load or a store after the use never makes the trip shorter; a
   chase whose loads only wait for each other (the wait comes after the
   branch) and a device without the key pay none. */
static void test_predicate_branch(void **state)
{
    gp_op_t one[3] = {loop(4096, 2), load(GP_PATTERN_UNIT, 16384, 0), arith(GP_OP_FP32, 1)};
    gp_op_t four[3] = {loop(4096, 2), load(GP_PATTERN_UNIT, 16384, 0), arith(GP_OP_FP32, 4)};
    gp_op_t mid[4] = {loop(4096, 3), load(GP_PATTERN_UNIT, 16384, 0), arith(GP_OP_INT, 1),
                      arith(GP_OP_FP32, 1)};
    gp_op_t chase[3] = {loop(4096, 2), load(GP_PATTERN_UNIT, 16384, 1), arith(GP_OP_INT, 1)};
    gp_op_t later[4] = {loop(4096, 3), load(GP_PATTERN_UNIT, 16384, 0), arith(GP_OP_FP32, 1),
                        load(GP_PATTERN_UNIT, 16384, 0)};
    gp_op_t stored[4] = {loop(4096, 3), load(GP_PATTERN_UNIT, 16384, 0), arith(GP_OP_FP32, 1),
                         load(GP_PATTERN_UNIT, 1u << 20, 0)};
    gp_device_t plain = g_dev;
    double extra = g_dev.predicate_branch_cycles - g_dev.fp32_cycles;
    gp_block_cost_t a, b;
    (void)state;
    assert_true(extra > 0);
    stored[3].kind = GP_OP_STORE;
    stored[3].access.buffer = 1;
    one[0].unroll = four[0].unroll = mid[0].unroll = chase[0].unroll = 1;
    later[0].unroll = stored[0].unroll = 1;
    plain.predicate_branch_cycles = 0;
    a = cost(one, 3, 32, 16);
    b = cost_on(&plain, g_gen, one, 3, 32, 16);
    assert_true(fabs(a.latency_cycles - b.latency_cycles - 4096 * extra) < 1e-6 * a.latency_cycles);
    a = cost(four, 3, 32, 16);
    b = cost_on(&plain, g_gen, four, 3, 32, 16);
    assert_true(fabs(a.latency_cycles - b.latency_cycles) < 1e-9 * a.latency_cycles);
    a = cost(mid, 4, 32, 16);
    b = cost_on(&plain, g_gen, mid, 4, 32, 16);
    assert_true(a.latency_cycles - b.latency_cycles < 4096 * extra * (1 - 1e-6));
    a = cost(chase, 3, 32, 16);
    b = cost_on(&plain, g_gen, chase, 3, 32, 16);
    assert_true(fabs(a.latency_cycles - b.latency_cycles) < 1e-9 * a.latency_cycles);
    /* a further load or a store after the use: the trip still waits
       before its branch, and takes no fewer cycles */
    b = cost(one, 3, 32, 16);
    a = cost(later, 4, 32, 16);
    assert_true(a.latency_cycles >= b.latency_cycles * (1 - 1e-9));
    a = cost(stored, 4, 32, 16);
    assert_true(a.latency_cycles >= b.latency_cycles * (1 - 1e-9));
}

/* The DRAM's read-only rate (dram_read_gbps): a stream's reads beyond the
   block's own writes go at it, everything else at dram_sustained_gbps (a
   copy's rate). A read-only float4 stream's memory term shrinks by the
   two rates' ratio, a copy's does not move, a triad's (two reads, one
   write) lies between, scattered reads keep the copy's rate, and a store
   added to the stream never shortens it. */
static void test_dram_read_rate(void **state)
{
    gp_op_t rd[3] = {loop(4096, 2), load(GP_PATTERN_UNIT, 1u << 30, 0), arith(GP_OP_FP32, 1)};
    gp_op_t cp[3] = {loop(4096, 2), load(GP_PATTERN_UNIT, 1u << 30, 0),
                     load(GP_PATTERN_UNIT, 1u << 30, 0)};
    gp_op_t tri[4] = {loop(4096, 3), load(GP_PATTERN_UNIT, 1u << 30, 0),
                      load(GP_PATTERN_UNIT, 1u << 30, 0), load(GP_PATTERN_UNIT, 1u << 30, 0)};
    gp_op_t rnd[3] = {loop(4096, 2), load(GP_PATTERN_RANDOM, 1u << 30, 0),
                      arith(GP_OP_FP32, 1)};
    gp_device_t plain = g_dev;
    double ratio = g_dev.dram_sustained_gbps / g_dev.dram_read_gbps;
    gp_block_cost_t a, b;
    uint32_t i;
    (void)state;
    assert_true(ratio > 0 && ratio < 1);
    plain.dram_read_gbps = 0;
    rd[1].access.elem_bytes = cp[1].access.elem_bytes = cp[2].access.elem_bytes = 16;
    for (i = 1; i < 4; i++)
        tri[i].access.elem_bytes = 16;
    cp[2].kind = GP_OP_STORE;
    cp[2].access.buffer = 1;
    tri[2].access.buffer = 1;
    tri[3].kind = GP_OP_STORE;
    tri[3].access.buffer = 2;
    a = cost_resident(&g_dev, g_gen, rd, 3, 1024, 32, 2);
    b = cost_resident(&plain, g_gen, rd, 3, 1024, 32, 2);
    assert_true(b.memory_cycles > GP_MAX(b.latency_cycles, b.throughput_cycles));
    assert_true(fabs(a.memory_cycles - ratio * b.memory_cycles) < 1e-9 * b.memory_cycles);
    a = cost_resident(&g_dev, g_gen, cp, 3, 1024, 32, 2);
    b = cost_resident(&plain, g_gen, cp, 3, 1024, 32, 2);
    assert_true(fabs(a.memory_cycles - b.memory_cycles) < 1e-9 * b.memory_cycles);
    a = cost_resident(&g_dev, g_gen, tri, 4, 1024, 32, 2);
    b = cost_resident(&plain, g_gen, tri, 4, 1024, 32, 2);
    assert_true(a.memory_cycles < b.memory_cycles * (1 - 1e-6));
    assert_true(a.memory_cycles > ratio * b.memory_cycles * (1 + 1e-6));
    a = cost_resident(&g_dev, g_gen, rnd, 3, 1024, 32, 2);
    b = cost_resident(&plain, g_gen, rnd, 3, 1024, 32, 2);
    assert_true(fabs(a.memory_cycles - b.memory_cycles) < 1e-9 * b.memory_cycles);
    /* the stream with a store of its own: never shorter than without */
    a = cost_resident(&g_dev, g_gen, rd, 3, 1024, 32, 2);
    b = cost_resident(&g_dev, g_gen, cp, 3, 1024, 32, 2);
    assert_true(b.memory_cycles >= a.memory_cycles);
}

/* A loop the source pins to one copy (`#pragma unroll 1`) waits for its load
   every iteration and pays the loop control and the taken branch every
   iteration; left to the model, the same short body is unrolled and the loads
   of the copies wait together (with registers for them). Pinning 4 copies
   gives a chain between the two. */
static void test_pinned_unroll(void **state)
{
    gp_op_t body[3] = {loop(4096, 2), load(GP_PATTERN_UNIT, 1u << 30, 0), arith(GP_OP_FP32, 4)};
    gp_block_cost_t free_, one, four;
    double per_one;
    (void)state;
    free_ = cost(body, 3, 32, 64);
    body[0].unroll = 1;
    one = cost(body, 3, 32, 64);
    body[0].unroll = 4;
    four = cost(body, 3, 32, 64);
    per_one = one.latency_cycles / 4096;
    assert_true(per_one >= g_dev.dram_cycles + 4 * g_dev.fp32_cycles);
    assert_true(per_one <= (g_dev.dram_cycles + 4 * g_dev.fp32_cycles +
                            g_dev.branch_taken_cycles) * 1.2);
    assert_true(four.latency_cycles < one.latency_cycles / 3);
    assert_true(free_.latency_cycles < four.latency_cycles);
    /* the control: 3 instructions per copy, so a quarter with 4 copies */
    assert_true(one.warp_instructions - four.warp_instructions > 0.7 * 4096 * 3);
}

/* A block's tile copy into shared memory, `for (i = tid; i < 16 * 256; i +=
   256) s[i] = g[...]` written without `unroll`, is nvcc's 4-copy loop: the
   same cost as pinned to 4, dearer than 16 copies; a copy to global memory
   keeps the unrolling of a short body. */
static void test_tile_copy_unrolled_four(void **state)
{
    gp_op_t body[4] = {loop(16, 3), load(GP_PATTERN_UNIT, 1u << 30, 0), arith(GP_OP_INT, 3),
                       shared_load()};
    gp_block_cost_t free_, four, sixteen, global_free, global_four;
    (void)state;
    body[3].kind = GP_OP_STORE;
    free_ = cost(body, 4, 256, 32);
    body[0].unroll = 4;
    four = cost(body, 4, 256, 32);
    body[0].unroll = 16;
    sixteen = cost(body, 4, 256, 32);
    assert_true(free_.latency_cycles == four.latency_cycles);
    assert_true(free_.time_cycles == four.time_cycles);
    assert_true(sixteen.latency_cycles < four.latency_cycles - g_dev.dram_cycles);
    body[3] = load(GP_PATTERN_UNIT, 1u << 30, 0);
    body[3].kind = GP_OP_STORE;
    body[3].access.buffer = 1;
    body[0].unroll = 0;
    global_free = cost(body, 4, 256, 32);
    body[0].unroll = 4;
    global_four = cost(body, 4, 256, 32);
    assert_true(global_free.latency_cycles < global_four.latency_cycles);
}

/* A block's slot idles while its last warps finish (block_retire_factor): the
   lag lengthens the SM's own work, not the memory term, which the other
   resident blocks' requests keep busy. Two 1024-thread blocks of a DRAM
   stream, whose lag is 1 + GP_BLOCK_RETIRE_SKEW / 4 (1.075), take about
   their bytes' time with the lag or without it. */
static void test_retire_lag_spares_the_memory_term(void **state)
{
    gp_op_t body[3] = {loop(4096, 2), load(GP_PATTERN_UNIT, 1u << 30, 0),
                       arith(GP_OP_FP32, 1)};
    gp_block_cost_t lagged, prompt;
    (void)state;
    body[1].access.elem_bytes = 16;
    lagged = cost_resident(&g_dev, g_gen, body, 3, 1024, 32, 2);
    gp_fit_override(GP_FIT_BLOCK_RETIRE_SKEW, 0.0);
    prompt = cost_resident(&g_dev, g_gen, body, 3, 1024, 32, 2);
    gp_fit_reset();
    assert_true(GP_MAX(lagged.latency_cycles, lagged.throughput_cycles) <
                0.5 * lagged.memory_cycles);
    assert_true(lagged.time_cycles > prompt.time_cycles);
    assert_true(lagged.time_cycles < 1.02 * prompt.time_cycles);
}

/* The sample of one warp whose 32 lanes read at `off`, drawn at random
   (gpuperf.random) over `range` bytes. */
static void drawn_warp(gp_lane_sample_t *s, const int64_t *off, uint64_t range)
{
    memset(s, 0, sizeof *s);
    s->n_warps = 1;
    s->lanes = 32;
    s->byte_offset = off;
    s->drawn = 1;
    s->drawn_range_bytes = range;
    s->warp_footprint_bytes = s->block_footprint_bytes = s->grid_footprint_bytes = range;
}

/* Cycles a trip of a loop of L gathers, each of 32 random lines drawn from
   256 MiB (gpuperf.random: every lane its own line), one warp, on `dev`.
   The sampler draws the same offsets for every op of a sampled warp, as
   independent ops' draws it stands for never do. */
static double gather_trip(const gp_device_t *dev, uint32_t L)
{
    gp_op_t ops[9];
    gp_lane_sample_t s;
    int64_t off[32];
    uint32_t t;
    for (t = 0; t < 32; t++)
        off[t] = (int64_t)t * 8192 * 128 + 4 * (int64_t)t;
    drawn_warp(&s, off, 1u << 28);
    ops[0] = loop(256, L);
    ops[0].unroll = 1;
    for (t = 1; t <= L; t++) {
        ops[t] = load(GP_PATTERN_UNIT, 1u << 28, 0);
        ops[t].access.sample = &s;
    }
    return cost_on(dev, g_gen, ops, L + 1, 32, 32).latency_cycles / 256;
}

/* A warp's gathers in flight together wait for the slowest of all the lines
   they draw (dram_lines_log2_cycles per doubling beyond one gather's 32),
   each op's draws its own lines however the sample's offsets coincide, and
   the lines queue: dram_drawn_line_cycles a line beyond one gather's
   ([sources: h200-cal] run10/scatter: 1271, 1499, 1900, 2594 cycles a trip
   for 1, 2, 4 and 8 gathers). */
static void test_drawn_lines_queue(void **state)
{
    gp_device_t bare = g_dev;
    double one, four, four_bare;
    (void)state;
    assert_true(g_dev.dram_drawn_line_cycles > 0);
    bare.dram_drawn_line_cycles = 0;
    one = gather_trip(&bare, 1);
    four_bare = gather_trip(&bare, 4);
    four = gather_trip(&g_dev, 4);
    /* two doublings: 128 lines, not the 32 the coinciding samples name */
    assert_true(four_bare - one > 1.8 * g_dev.dram_lines_log2_cycles);
    assert_true(fabs((four - four_bare) / (96 * g_dev.dram_drawn_line_cycles) - 1) < 0.1);
    assert_true(fabs(gather_trip(&g_dev, 1) / one - 1) < 1e-9);
}

/* A block of 32 warps, each gathering 32 random lines of 8 MiB (the L2
   holds them, read before) a trip for 256 trips, on an SM whose share of
   the L2 is `share`. */
static gp_block_cost_t l2_gather_block(double share, uint64_t dyn_smem)
{
    gp_op_t ops[2];
    gp_lane_sample_t s;
    int64_t off[32];
    uint32_t t;
    for (t = 0; t < 32; t++)
        off[t] = (int64_t)t * 2039 * 128;
    drawn_warp(&s, off, 8u << 20);
    ops[0] = loop(256, 1);
    ops[0].unroll = 1;
    ops[1] = load(GP_PATTERN_UNIT, 8u << 20, 0);
    ops[1].access.sample = &s;
    return cost_share(&g_dev, g_gen, ops, 2, 1024, 32, 1, share, 8u << 20, dyn_smem);
}

/* A gather of random lines the L2 holds takes the L2 sparse_read_l2_bytes
   a line of one sector (run10/scatter ws=l2: 87 lines a clock), and where
   the L2 binds, its knee with the rest is p = 4 (GP_KNEE_P_L2), not DRAM's
   p = 2 (scatter's 2 and 4 loads a trip where latency and requests meet). */
static void test_l2_requests_and_knee(void **state)
{
    gp_block_cost_t all;
    double per_line, r;
    (void)state;
    all = l2_gather_block(1.0 / g_dev.sm_count, 0);
    /* SM cycles a line at the L2's request rate, the SM's share of it */
    per_line = g_dev.sparse_read_l2_bytes * g_dev.sm_count * g_dev.core_clock_mhz /
               (g_dev.l2_bandwidth_gbps * 1e3);
    assert_true(all.memory_cycles > 0.9 * 32 * 32 * 256 * per_line);
    assert_true(all.memory_cycles > GP_MAX(all.throughput_cycles, all.latency_cycles));
    r = GP_MAX(all.throughput_cycles, all.latency_cycles) / all.memory_cycles;
    assert_true(r > 0.5); /* where p = 2 and p = 4 differ by 6% or more */
    assert_true(all.time_cycles >= all.memory_cycles);
    /* the core term's own knee is p = 4 too: the three at p = 4 */
    assert_true(all.time_cycles <= pow(pow(all.memory_cycles, 4) + pow(all.latency_cycles, 4) +
                                           pow(all.throughput_cycles, 4),
                                       0.25) *
                                       1.0001);
    assert_true(all.time_cycles < 0.95 * all.memory_cycles * sqrt(1 + r * r));
}

/* The L1 keeps a line for each miss in flight: with 196 KiB of shared
   memory a block (a 228 KiB carve-out, 28 KiB of L1: 224 lines) the same
   gathers run a line every l1_miss_hold_l2_cycles / 224 cycles (1.96 on the
   H200, run28/l1cap), with the largest L1 at the L2's request rate. */
static void test_l1_lines_bound_misses(void **state)
{
    gp_block_cost_t big, small;
    double lines = 32.0 * 32 * 256, want;
    (void)state;
    assert_true(g_dev.l1_miss_hold_l2_cycles > 0);
    big = l2_gather_block(1.0 / g_dev.sm_count, 0);
    small = l2_gather_block(1.0 / g_dev.sm_count, 196u << 10);
    want = lines * g_dev.l1_miss_hold_l2_cycles / ((28u << 10) / g_dev.l1_line_bytes);
    assert_true(small.memory_cycles > 0.95 * want && small.memory_cycles < 1.05 * want);
    assert_true(small.time_cycles > 1.2 * big.time_cycles);
    assert_int_equal(small.bound, GP_BOUND_MEMORY_LATENCY);
    assert_true(big.memory_cycles < 0.9 * want);
}

/* A loop of one coalesced DRAM load a trip, 8 copies in flight, the copies
   `pitch` bytes apart (warp 0's trip 0 and trip 1 in the sample), on `dev`:
   the chain beyond what the copies' runs add on a device without them. */
static double copies_extra(const gp_device_t *dev, int64_t pitch)
{
    gp_op_t body[3] = {loop(2048, 2), load(GP_PATTERN_UNIT, 1u << 30, 0), arith(GP_OP_FP32, 1)};
    gp_lane_sample_t s;
    gp_device_t bare = *dev;
    int64_t off[2 * 32];
    uint32_t t;
    for (t = 0; t < 32; t++) {
        off[t] = (int64_t)(4 * t);
        off[32 + t] = pitch + (int64_t)(4 * t);
    }
    memset(&s, 0, sizeof s);
    s.n_warps = 2;
    s.lanes = 32;
    s.byte_offset = off;
    s.next_iteration = 1;
    s.warp_footprint_bytes = s.block_footprint_bytes = s.grid_footprint_bytes =
        2048 * (uint64_t)pitch;
    body[0].unroll = 8;
    body[1].access.sample = &s;
    bare.dram_batch_log2_cycles = 0;
    bare.dram_run_line_cycles = 0;
    return cost_on(dev, g_gen, body, 3, 32, 64).latency_cycles -
           cost_on(&bare, g_gen, body, 3, 32, 64).latency_cycles;
}

/* The unrolled copies of a loop whose loads are in flight together wait for
   their DRAM runs: trips 128 bytes apart extend one run by a line a copy
   (dram_run_line_cycles each), trips 64 KiB apart open a run each and the
   batch waits for the slowest (dram_batch_log2_cycles per doubling of the
   copies); lines dram_run_span_bytes apart count as one run. */
static void test_copies_wait_for_their_runs(void **state)
{
    gp_device_t adjacent = g_dev;
    double batches = 2048 / 8, near, far;
    (void)state;
    near = copies_extra(&g_dev, 128);
    far = copies_extra(&g_dev, 65536);
    assert_true(near > 0 && far > near);
    assert_true(fabs(near / (batches * 7 * g_dev.dram_run_line_cycles) - 1) < 0.05);
    assert_true(fabs(far / (batches * 3 * g_dev.dram_batch_log2_cycles) - 1) < 0.05);
    /* 512 bytes apart is within the H200's span: one run; without a span
       only the next line continues a run */
    assert_true(g_dev.dram_run_span_bytes > 512);
    assert_true(fabs(copies_extra(&g_dev, 512) / near - 1) < 0.01);
    adjacent.dram_run_span_bytes = 0;
    assert_true(fabs(copies_extra(&adjacent, 512) / far - 1) < 0.01);
    assert_true(fabs(copies_extra(&adjacent, 128) / near - 1) < 0.01);
}

/* Extra cycles a trip of 8 independent coalesced loads that hit L1 waits
   beyond a trip of one, on `dev` (loops not unrolled, one warp). */
static double l1_batch_extra(const gp_device_t *dev)
{
    gp_op_t one[2] = {loop(4096, 1), load(GP_PATTERN_UNIT, 4096, 0)};
    gp_op_t eight[9];
    uint32_t k;
    one[0].unroll = 1;
    eight[0] = loop(4096, 8);
    eight[0].unroll = 1;
    for (k = 1; k < 9; k++)
        eight[k] = load(GP_PATTERN_UNIT, 4096, 0);
    return (cost_on(dev, g_gen, eight, 9, 32, 64).latency_cycles -
            cost_on(dev, g_gen, one, 2, 32, 64).latency_cycles) /
           4096;
}

/* The L1 serves a warp's requests one after another and returns its hits
   l1_return_cycles apart: of 8 independent coalesced loads that hit L1,
   issued together, the last waits behind the other 7 (bench_uniform2: 1 to
   8 loads a trip from L1, one warp per SM, 47 to 101 cycles a trip); with
   no return gap known, behind their L1 cycles. */
static void test_l1_hits_queue_in_a_batch(void **state)
{
    gp_device_t bare = g_dev;
    double line = 128.0 / g_dev.l1_load_bytes_per_cycle, gap = g_dev.l1_return_cycles;
    double with, without;
    (void)state;
    assert_true(g_dev.l1_load_bytes_per_cycle > 0 && gap > line);
    with = l1_batch_extra(&g_dev);
    assert_true(with >= 7 * gap * 0.9);
    assert_true(with <= 7 * gap * 1.2 + 8 * g_dev.l1_line_cycles + 60);
    bare.l1_return_cycles = 0;
    without = l1_batch_extra(&bare);
    assert_true(without >= 7 * line * 0.9 && without < with);
    assert_true(without <= 7 * line * 1.5 + 8 * g_dev.l1_line_cycles + 60);
}

/* Cycles a trip of `n` (1..8) independent warp-uniform loads, one warp,
   loop not unrolled, waits on `dev`: the buffer's `fp` bytes are re-read
   from L1 (a small footprint) or each element read once from the L2 that
   holds them (`warm`). */
static double uniform_trip(const gp_device_t *dev, uint32_t n, uint64_t fp, uint64_t warm)
{
    gp_op_t ops[9];
    uint32_t k;
    ops[0] = loop(4096, n);
    ops[0].unroll = 1;
    for (k = 1; k <= n; k++)
        ops[k] = load(GP_PATTERN_BROADCAST, fp, 0);
    return cost_share(dev, g_gen, ops, n + 1, 32, 64, 1, 1.0 / dev->sm_count, warm, 0)
               .latency_cycles /
           4096;
}

/* A warp's warp-uniform loads come back l1_uniform_return_cycles apart
   whether they hit L1 or wait with the others of their sector for its fill
   from L2: each further load of a trip read once from the L2 adds that gap,
   as one re-read from L1 adds at least it (bench_attnq: 8.00 and 8.06 cycles
   a further float), and the first load's wait alone tells the levels apart;
   without a return figure the further loads add only their L1 cycles. */
static void test_uniform_loads_return_apart_hit_or_not(void **state)
{
    gp_device_t bare = g_dev;
    uint64_t big = 32u << 20; /* held by the L2 */
    double gap = g_dev.l1_uniform_return_cycles, from_l1, from_l2;
    (void)state;
    assert_true(gap > 0);
    from_l1 = uniform_trip(&g_dev, 8, 4096, 0) - uniform_trip(&g_dev, 1, 4096, 0);
    from_l2 = uniform_trip(&g_dev, 8, big, big) - uniform_trip(&g_dev, 1, big, big);
    assert_true(fabs(from_l2 / (7 * gap) - 1) < 0.05);
    assert_true(from_l1 >= 7 * gap * 0.95);
    assert_true(uniform_trip(&g_dev, 1, big, big) - uniform_trip(&g_dev, 1, 4096, 0) >
                0.5 * (g_dev.l2_hit_cycles - g_dev.l1_hit_cycles));
    bare.l1_uniform_return_cycles = bare.l1_return_cycles = 0;
    assert_true(uniform_trip(&bare, 8, big, big) - uniform_trip(&bare, 1, big, big) <
                0.5 * from_l2);
}

/* The unrolled copies of a loop run the arithmetic on their own loaded
   values side by side; only the op that ends the trip's chain (the
   accumulator) waits for the copy before it. A body of a load, 12 dependent
   FMAs and an accumulating add, 4 copies, against the same 13 FMAs as one
   carried chain: 3/4 of the 12 FMAs' latency less a trip, as the registers
   allow; the chain works in its load's register, so registers for two
   loads hold two copies (1/2 less) and for one load none (and fewer of its
   loads in flight). */
static void test_copies_run_their_arithmetic_side_by_side(void **state)
{
    gp_op_t fresh[4] = {loop(4096, 3), shared_load(), arith(GP_OP_FP32, 12),
                        arith(GP_OP_FP32, 1)};
    gp_op_t carried[3] = {loop(4096, 2), shared_load(), arith(GP_OP_FP32, 13)};
    double saved, want = 4096 * 12 * g_dev.fp32_cycles * 0.75;
    (void)state;
    fresh[0].unroll = carried[0].unroll = 4;
    saved = cost(carried, 3, 32, 32).latency_cycles - cost(fresh, 4, 32, 32).latency_cycles;
    assert_true(fabs(saved / want - 1) < 0.05);
    /* 14 registers: 2 above the loop's base, two copies' loads, each chain
       in its load's register */
    saved = cost(carried, 3, 32, 14).latency_cycles - cost(fresh, 4, 32, 14).latency_cycles;
    assert_true(fabs(saved / (want * 2 / 3) - 1) < 0.05);
    /* 13 registers: one copy's load */
    saved = cost(carried, 3, 32, 13).latency_cycles - cost(fresh, 4, 32, 13).latency_cycles;
    assert_true(saved < 1e-9 * want);
    /* pinned to one copy: nothing side by side */
    fresh[0].unroll = carried[0].unroll = 1;
    saved = cost(carried, 3, 32, 32).latency_cycles - cost(fresh, 4, 32, 32).latency_cycles;
    assert_true(fabs(saved) < 1e-9 * want);
}

/* A loop body's trailing integer ops (the address and counter update after
   the arithmetic that consumes the loads) run beside the arithmetic chain:
   a trip waits for the longer of the two; integer ops right after the loads
   consume them and add to the chain. */
static void test_trailing_integer_ops_beside(void **state)
{
    gp_op_t fma[4] = {loop(4096, 3), shared_load(), arith(GP_OP_FP32, 4), arith(GP_OP_INT, 2)};
    gp_op_t fma_only[3] = {loop(4096, 2), shared_load(), arith(GP_OP_FP32, 4)};
    gp_op_t use[3] = {loop(4096, 2), shared_load(), arith(GP_OP_INT, 2)};
    gp_op_t load_only[2] = {loop(4096, 1), shared_load()};
    gp_op_t longer[4] = {loop(4096, 3), shared_load(), arith(GP_OP_FP32, 1),
                         arith(GP_OP_INT, 8)};
    gp_block_cost_t a, b, c, d, e;
    (void)state;
    fma[0].unroll = fma_only[0].unroll = 4; /* the same copies: the same loop overheads */
    a = cost(fma, 4, 32, 32);
    b = cost(fma_only, 3, 32, 32);
    c = cost(use, 3, 32, 32);
    d = cost(load_only, 2, 32, 32);
    e = cost(longer, 4, 32, 32);
    /* beside: the trip costs what the FMA chain alone costs */
    assert_true(fabs(a.latency_cycles - b.latency_cycles) < 1e-9 * b.latency_cycles);
    /* consumers: the integer latency adds to the load's */
    assert_true(c.latency_cycles > d.latency_cycles + 4096 * 2 * g_dev.int32_cycles * 0.9);
    /* the longer of the two sets the trip */
    assert_true(e.latency_cycles > 4096 * 8 * g_dev.int32_cycles * 0.95);
}

/* The integer ops before an independent load compute its address; they do
   not wait for the loads in flight before it, so the warp issues them while
   those are out: a trip of four random loads from L2, each behind its own
   7 integer ops, costs the one-load trip plus the issue of the further
   address arithmetic, not three more integer chains (bench_scatter's ws=l2
   rows: 335.7, 372.5 cycles a trip for 1 and 4 loads). Cold here: DRAM. */
static void test_address_arithmetic_beside_loads(void **state)
{
    gp_op_t one[3] = {loop(64, 2), arith(GP_OP_INT, 7), load(GP_PATTERN_UNIT, 8u << 20, 0)};
    gp_op_t four[9];
    gp_block_cost_t c1, c4;
    double serial = 64 * 3 * 7 * g_dev.int32_cycles, extra;
    uint32_t k;
    (void)state;
    four[0] = loop(64, 8);
    for (k = 0; k < 4; k++) {
        four[1 + 2 * k] = arith(GP_OP_INT, 7);
        four[2 + 2 * k] = load(GP_PATTERN_UNIT, 8u << 20, 0);
        four[2 + 2 * k].access.buffer = k;
    }
    one[0].unroll = four[0].unroll = 1;
    c1 = cost(one, 3, 32, 32);
    c4 = cost(four, 9, 32, 32);
    extra = c4.latency_cycles - c1.latency_cycles;
    /* beyond the wait for the slowest of the four lines from DRAM (two
       doublings), less than half the serial count */
    assert_true(extra > 0);
    assert_true(extra - 64 * 2 * g_dev.dram_batch_log2_cycles < serial / 2);
    /* a load whose address is the value before it keeps its integer ops on
       the chain (a chase) */
    four[8].access.depends = 1;
    assert_true(cost(four, 9, 32, 32).latency_cycles > c4.latency_cycles + serial / 7);
}

/* A tiled loop: each trip its 8 warps load a word each from DRAM, store it
   to shared memory and meet at a barrier. The block waits there for the
   slowest of its 8 requests (dram_lines_log2_cycles per doubling), not for
   one warp's; the next trip's loads stay behind the barrier (no overlap of
   trips), and the block's own arithmetic cannot fill that wait. A load only
   one warp of the block makes (count 1/8) still holds the block for its
   whole latency. */
static void test_barrier_waits_for_block(void **state)
{
    gp_op_t tiled[6] = {loop(64, 5), load(GP_PATTERN_UNIT, 1u << 30, 0), shared_load(),
                        arith(GP_OP_BARRIER, 1), arith(GP_OP_FP32, 64),
                        arith(GP_OP_BARRIER, 1)};
    gp_op_t one[6];
    gp_block_cost_t t, o;
    double trip, slow = g_dev.dram_cycles + 3 * g_dev.dram_lines_log2_cycles;
    (void)state;
    tiled[2].kind = GP_OP_STORE;
    t = cost(tiled, 6, 256, 32);
    trip = t.latency_cycles / 64;
    assert_true(trip >= slow + 64 * g_dev.fp32_cycles);
    assert_true(trip <= 1.3 * (slow + 64 * g_dev.fp32_cycles + 2 * g_dev.barrier_cycles));
    assert_true(t.time_cycles >= t.latency_cycles);
    memcpy(one, tiled, sizeof one);
    one[1].count = 1.0 / 8;
    o = cost(one, 6, 256, 32);
    assert_true(o.latency_cycles >= 0.95 * t.latency_cycles);
}

/* The same tiled loop with its load on the read-only path (space texture:
   a `const __restrict__` input): nvcc issues the loads of later unrolled
   trips ahead of the earlier trips' barriers, so the trips wait together,
   at most GP_HOIST_LOADS load instructions a thread. A coherent load, a
   loop pinned to one copy, a body with a loop of its own, a trip of more
   loads than that and a trip of shared loads alone stay one wait a trip. */
static void test_readonly_loads_pass_barriers(void **state)
{
    gp_op_t tiled[6] = {loop(64, 5), load(GP_PATTERN_UNIT, 1u << 30, 0), shared_load(),
                        arith(GP_OP_BARRIER, 1), arith(GP_OP_FP32, 1),
                        arith(GP_OP_BARRIER, 1)};
    gp_op_t nested[8];
    gp_block_cost_t coh, ro, one, wide_coh, wide_ro, inner_coh, inner_ro;
    (void)state;
    tiled[2].kind = GP_OP_STORE;
    coh = cost(tiled, 6, 256, 32);
    tiled[1].space = GP_SPACE_TEXTURE;
    ro = cost(tiled, 6, 256, 32);
    assert_true(coh.latency_cycles / 64 >= g_dev.dram_cycles);
    assert_true(ro.latency_cycles < coh.latency_cycles / 3);
    assert_true(ro.latency_cycles * GP_HOIST_LOADS >= 0.9 * coh.latency_cycles);
    tiled[0].unroll = 1;
    one = cost(tiled, 6, 256, 32);
    assert_true(fabs(one.latency_cycles - coh.latency_cycles) <= 0.05 * coh.latency_cycles);
    /* 16 loads a trip: more than a thread keeps in flight across barriers */
    tiled[0].unroll = 0;
    tiled[1].count = tiled[2].count = 16;
    tiled[1].ilp = 16;
    wide_ro = cost(tiled, 6, 256, 64);
    tiled[1].space = GP_SPACE_GLOBAL;
    wide_coh = cost(tiled, 6, 256, 64);
    assert_true(wide_ro.latency_cycles == wide_coh.latency_cycles);
    /* the copy as a loop of its own in the trip */
    tiled[1].count = tiled[2].count = 1;
    tiled[1].ilp = 1;
    nested[0] = loop(64, 7);
    nested[1] = loop(2, 2);
    nested[2] = tiled[1];
    nested[3] = tiled[2];
    memcpy(&nested[4], &tiled[3], 3 * sizeof nested[0]);
    nested[7] = arith(GP_OP_INT, 1);
    inner_coh = cost(nested, 8, 256, 32);
    nested[2].space = GP_SPACE_TEXTURE;
    inner_ro = cost(nested, 8, 256, 32);
    assert_true(inner_ro.latency_cycles == inner_coh.latency_cycles);
    /* a trip that reads only shared memory reads what its barrier publishes
       (s[t] = x; sync; x = f(s[t + 1]); sync): each trip waits for its own
       shared load and the arithmetic on it */
    {
        gp_op_t smem[6] = {loop(64, 5), shared_load(), arith(GP_OP_BARRIER, 1),
                           shared_load(), arith(GP_OP_FP32, 2), arith(GP_OP_BARRIER, 1)};
        gp_block_cost_t sm, none;
        smem[1].kind = GP_OP_STORE;
        sm = cost(smem, 6, 1024, 16);
        smem[3] = arith(GP_OP_INT, 1);
        none = cost(smem, 6, 1024, 16);
        /* the read's wait stays in every trip: 17 of its 23 cycles a trip,
           where dividing it among unrolled trips left 0.7 */
        assert_true(sm.latency_cycles - none.latency_cycles >=
                    64 * 0.5 * g_dev.shared_memory_cycles);
    }
}

/* A staged tile's halo: a load that only lane 0 of each warp makes, after
   the shared store of the tile's own load, issues when that load is back
   (ptxas keeps it in its `if`, behind the store, which needs the value);
   the same load made by every lane, or the halo load written before the
   store (hoisted), is in flight beside the first. */
static void test_halo_load_waits_for_store(void **state)
{
    gp_op_t staged[5] = {load(GP_PATTERN_UNIT, 1u << 30, 0), shared_load(),
                         load(GP_PATTERN_UNIT, 1u << 30, 0), shared_load(),
                         arith(GP_OP_BARRIER, 1)};
    gp_op_t hoisted[5];
    gp_lane_sample_t s;
    int64_t off[32];
    gp_block_cost_t halo, full, early;
    uint32_t t;
    (void)state;
    for (t = 0; t < 32; t++)
        off[t] = t == 0 ? 4096 : -1;
    memset(&s, 0, sizeof s);
    s.n_warps = 1;
    s.lanes = 32;
    s.byte_offset = off;
    s.issuing = 1;
    s.warp_footprint_bytes = s.block_footprint_bytes = s.grid_footprint_bytes = 1u << 30;
    staged[1].kind = staged[3].kind = GP_OP_STORE;
    staged[2].access.buffer = 1;
    full = cost(staged, 5, 32, 32);
    staged[2].access.sample = &s;
    halo = cost(staged, 5, 32, 32);
    assert_true(halo.latency_cycles >= full.latency_cycles + 0.5 * g_dev.dram_cycles);
    hoisted[0] = staged[0];
    hoisted[1] = staged[2];
    hoisted[2] = staged[1];
    hoisted[3] = staged[3];
    hoisted[4] = staged[4];
    early = cost(hoisted, 5, 32, 32);
    assert_true(early.latency_cycles < full.latency_cycles + 0.25 * g_dev.dram_cycles);
}

/* 27 loads, then their sum: as nine rows of three taps 4 bytes apart (a
   27-point stencil), the rows' addresses held while their taps issue leave
   32 registers no room for every value, and the loads wait twice where 64
   registers hold them all; as 27 rows of one tap (a pointer each, freed as
   it issues) they wait once in 32 registers as in 64. */
static void test_row_addresses_limit_the_run(void **state)
{
    static int64_t off[2][27][32];
    gp_lane_sample_t smp[2][27];
    gp_op_t ops[2][28];
    gp_block_cost_t bc[2], roomy[2];
    uint32_t v, k, l;
    (void)state;
    for (v = 0; v < 2; v++) {
        for (k = 0; k < 27; k++) {
            for (l = 0; l < 32; l++)
                off[v][k][l] = v == 0 ? (int64_t)(k / 3) * 65536 + (int64_t)(k % 3) * 4 + 4 * l
                                      : (int64_t)k * 65536 + 4 * l;
            memset(&smp[v][k], 0, sizeof smp[v][k]);
            smp[v][k].n_warps = 1;
            smp[v][k].lanes = 32;
            smp[v][k].byte_offset = off[v][k];
            smp[v][k].issuing = 1;
            smp[v][k].warp_footprint_bytes = smp[v][k].block_footprint_bytes =
                smp[v][k].grid_footprint_bytes = 1u << 30;
            ops[v][k] = load(GP_PATTERN_UNIT, 1u << 30, 0);
            ops[v][k].access.sample = &smp[v][k];
        }
        ops[v][27] = arith(GP_OP_FP32, 27);
        bc[v] = cost(ops[v], 28, 32, 32);
        roomy[v] = cost(ops[v], 28, 32, 64);
    }
    assert_true(bc[0].latency_cycles >= roomy[0].latency_cycles + 0.5 * g_dev.dram_cycles);
    assert_true(bc[1].latency_cycles == roomy[1].latency_cycles);
}

/* 100 global atomics of one warp on words of their own: with the result
   discarded (RED) the warp goes on, the chain holds their issue; with the
   result used (ATOM) each is a round trip the next waits for. */
static void test_atomic_result_waits(void **state)
{
    gp_op_t ops[2] = {loop(100, 1), arith(GP_OP_ATOMIC, 1)};
    gp_block_cost_t red, atom;
    (void)state;
    ops[1].space = GP_SPACE_GLOBAL;
    ops[1].access.elem_bytes = 4;
    ops[1].access.footprint_bytes = 1u << 20;
    ops[1].access.buffer = 0;
    ops[1].access.atomic_op = GP_ATOMIC_OP_INC;
    red = cost(ops, 2, 32, 32);
    ops[1].access.atomic_flags = GP_ATOMIC_RESULT;
    atom = cost(ops, 2, 32, 32);
    assert_true(red.latency_cycles < 100 * g_dev.atomic_cycles / 10);
    assert_true(atom.latency_cycles >= 100 * g_dev.atomic_cycles * 0.99);
}

/* On 9.0 shared-memory passes and the L1's cached requests take turns on one
   data path: a loop of both costs their sum; a generation without the rule
   takes the larger. */
static void test_l1_and_shared_one_path(void **state)
{
    gp_op_t both[3] = {loop(4096, 2), shared_load(), load(GP_PATTERN_UNIT, 16384, 0)};
    gp_op_t sh[2] = {loop(4096, 1), shared_load()};
    gp_op_t gl[2] = {loop(4096, 1), load(GP_PATTERN_UNIT, 16384, 0)};
    gp_generation_t apart = *g_gen;
    gp_mem_rules_t mem = *g_gen->mem;
    gp_block_cost_t b, s1, g1, a;
    (void)state;
    assert_true(g_gen->mem->l1_shared_one_path);
    b = cost(both, 3, 1024, 32);
    s1 = cost(sh, 2, 1024, 32);
    g1 = cost(gl, 2, 1024, 32);
    assert_true(b.pipe_cycles[GP_PIPE_SHARED] > 0 && b.pipe_cycles[GP_PIPE_L1] > 0);
    assert_true(fabs(b.throughput_cycles -
                     (b.pipe_cycles[GP_PIPE_SHARED] + b.pipe_cycles[GP_PIPE_L1])) <
                1e-9 * b.throughput_cycles);
    assert_true(b.throughput_cycles > s1.throughput_cycles &&
                b.throughput_cycles > g1.throughput_cycles);
    mem.l1_shared_one_path = 0;
    apart.mem = &mem;
    a = cost_on(&g_dev, &apart, both, 3, 1024, 32);
    assert_true(a.throughput_cycles < b.throughput_cycles);
}

/* One phase of a tile transpose: a load from DRAM into shared memory, the
   barrier, then four 32-way conflicted shared reads. With the barrier
   outside loops the two blocks resident together wait together and then
   queue their reads' wavefronts behind each other: a block takes its DRAM
   wait plus both blocks' data-path work. The same phase as the body of a
   one-trip loop (a loop of barrier phases: the blocks drift apart) fills
   one block's wait with the other's reads, and so does a lone block. */
static void test_top_barrier_blocks_wait_together(void **state)
{
    gp_op_t top[4] = {load(GP_PATTERN_UNIT, 1u << 30, 0), shared_load(),
                      arith(GP_OP_BARRIER, 1), shared_load()};
    gp_op_t looped[5];
    gp_block_cost_t t, l, one;
    double path;
    (void)state;
    top[1].kind = GP_OP_STORE;
    top[3].count = 4;
    top[3].access.conflict_ways = 32;
    looped[0] = loop(1, 4);
    memcpy(looped + 1, top, sizeof top);
    t = cost_resident(&g_dev, g_gen, top, 4, 1024, 16, 2);
    l = cost_resident(&g_dev, g_gen, looped, 5, 1024, 16, 2);
    path = 2 * (t.pipe_cycles[GP_PIPE_SHARED] + t.pipe_cycles[GP_PIPE_L1]);
    assert_true(t.pipe_cycles[GP_PIPE_SHARED] >= 4 * 32 * 32);
    assert_true(t.time_cycles >= g_dev.dram_cycles + path);
    assert_true(l.time_cycles < g_dev.dram_cycles + path);
    one = cost_resident(&g_dev, g_gen, top, 4, 1024, 16, 1);
    assert_true(one.time_cycles < g_dev.dram_cycles + path);
}

/* A launch of `threads`-thread blocks over `blocks` blocks running ops, with
   its occupancy in *occ. */
static gp_kernel_t launch_of(const gp_op_t *ops, uint32_t n, uint32_t threads, uint64_t blocks,
                             gp_occupancy_t *occ)
{
    gp_kernel_t k;
    char err[256] = "";
    memset(&k, 0, sizeof k);
    k.name = "k";
    k.launch.grid.x = (uint32_t)blocks;
    k.launch.grid.y = k.launch.grid.z = 1;
    k.launch.block.x = threads;
    k.launch.block.y = k.launch.block.z = 1;
    k.launch.threads_per_block = threads;
    k.launch.regs_per_thread = 32;
    k.launch.carveout_percent = -1;
    k.ops = ops;
    k.n_ops = n;
    k.total_blocks = blocks;
    assert_int_equal(gp_occupancy_compute(&g_dev, &k.launch, g_gen->alloc, occ, err, sizeof err),
                     0);
    return k;
}

/* The launch of a calibration script that issues a flush and one launch
   (scripts/validation/NAME), with the parameters kv[0..n). */
static gp_run_cmd_t flushed_launch(const char *script, const gp_param_t *kv, size_t n)
{
    char path[512];
    gp_run_cmd_t c;
    gp_error_t err;
    gp_gpu_t *gpu;
    gp_run_t *run;
    snprintf(path, sizeof path, "%s/scripts/validation/%s", GP_SOURCE_DIR, script);
    if (gp_gpu_open("h200-sxm", &gpu, &err))
        fail_msg("%s", err.msg);
    if (gp_run_script(gpu, path, kv, n, NULL, &run, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(gp_run_count(run), 2); /* the flush, the launch */
    assert_int_equal(gp_run_cmd(run, 1, &c), 0);
    gp_run_free(run);
    gp_gpu_close(gpu);
    return c;
}

/* SM cycles a step of scripts/validation/naive.lua's `#pragma unroll 1`
   k loop (bench_naive's k_naive<.., 1>) for n x n and blocks bx wide:
   the launch's time over its n steps and its waves of blocks. */
static double naive_step_cycles(const char *n, const char *bx)
{
    gp_param_t kv[] = {{"n", n}, {"bx", bx}, {"unroll", "1"}, {"regs", "16"}};
    gp_run_cmd_t c = flushed_launch("naive.lua", kv, 4);
    return c.time_us * g_dev.core_clock_mhz / atof(n) / GP_MAX(c.waves, 1.0);
}

/* The 8 warps of a 32x8 block read one line of B a step: each waits for
   the line's fill, L2 or beyond, however much of B the block's earlier
   steps left in its L1 (n = 256: a block's 32 KiB column of B fits; the
   H200 takes 660 to 680 cycles a step, [sources: h200-cal] run21/naive). */
static void test_block_warps_wait_together(void **state)
{
    (void)state;
    assert_true(naive_step_cycles("256", "32") > g_dev.l2_hit_cycles);
    assert_true(naive_step_cycles("256", "16") > g_dev.l2_hit_cycles);
}

/* A group of loads of two buffers that miss L1 each on its own waits for
   the longest miss that happens: 8x32 blocks miss B every step, an L2
   round trip at n = 1024 (the later waves), and their A load's four rows
   one new line in eight steps; a step stays below a DRAM round trip (the
   H200: 430 cycles, run21/naive naive_8x32_u1), where the A load's long
   wait counted every step made it 945. */
static void test_group_waits_for_misses_that_happen(void **state)
{
    double step;
    (void)state;
    step = naive_step_cycles("1024", "8");
    assert_true(step > g_dev.l2_hit_cycles);
    assert_true(step < g_dev.dram_cycles);
}

/* us of scripts/validation/gfoot.lua's random word gathers over fp KiB,
   w warps per SM, L loads a trip (bench_gfoot). */
static double gfoot_us(const char *fp, const char *w, const char *L)
{
    gp_param_t kv[] = {{"fp", fp}, {"w", w}, {"L", L},
                       {"trips", strcmp(L, "4") ? "256" : "64"},
                       {"regs", strcmp(L, "4") ? "14" : "21"}};
    return flushed_launch("gfoot.lua", kv, 5).time_us;
}

/* Loads that all draw their addresses at random: another load's draws are
   not re-reads of this one's, so four loads a trip over 4 MiB take what
   one a trip does for the same draws (the H200: 217.3 and 217.2 us at 32
   warps per SM, [sources: h200-cal] run29/gfoot), where counting them as
   re-reads of the first load's footprint in the SMs' L1s together gave
   the other three 97% hits; over 16 KiB, which an SM's L1 holds, all but
   the first touches hit (18.0 against 64.9 us at 8 warps per SM). */
static void test_drawn_loads_hit_their_own_draws(void **state)
{
    double one = gfoot_us("4096", "32", "1"), four = gfoot_us("4096", "32", "4");
    (void)state;
    assert_true(fabs(four / one - 1) < 0.1);
    assert_true(gfoot_us("16", "8", "1") < 0.5 * gfoot_us("4096", "8", "1"));
}

/* Op costs kept across residencies (opmemo.c) give the block cost, bit for
   bit, that a walk costing every op again gives: at the residencies the
   engine asks for (full wave, one block fewer, a few SMs), at another L2
   capacity (the key changes: costed again) and back; the memo is dropped
   for other ops and after a walk that fails. A kept cost is what the walk uses: a build without NDEBUG
   costs the op again and reports a kept cost that differs, one with NDEBUG
   takes it as kept. */
static void test_op_memo_same_costs(void **state)
{
    gp_op_t ops[6] = {load(GP_PATTERN_UNIT, 64u << 20, 0), load(GP_PATTERN_RANDOM, 1u << 30, 0),
                      loop(8, 2), arith(GP_OP_FP32, 2), load(GP_PATTERN_STRIDE, 8u << 20, 0),
                      arith(GP_OP_INT, 1)};
    gp_op_t other[2] = {load(GP_PATTERN_UNIT, 1u << 20, 0), arith(GP_OP_FP32, 1)};
    gp_occupancy_t occ, occ2;
    gp_kernel_t k, k2;
    gp_op_memo_t memo;
    gp_residency_t res[6];
    gp_block_cost_t with, without;
    char err[256] = "";
    size_t i;
    (void)state;
    ops[4].access.stride_elems = 4;
    ops[2].count = 8;
    k = launch_of(ops, 6, 256, 4096, &occ);
    k2 = launch_of(other, 2, 256, 4096, &occ2);
    memset(res, 0, sizeof res);
    for (i = 0; i < GP_ARRAY_LEN(res); i++) {
        res[i].blocks = occ.blocks_per_sm - (i == 1);
        res[i].warps_sm = res[i].blocks * occ.warps_per_block;
        res[i].active_sms = i == 2 ? 4 : g_dev.sm_count;
        res[i].dram_share = 1.0 / res[i].active_sms;
        res[i].l2_share = 1.0 / res[i].active_sms;
        res[i].l2_capacity_bytes = (double)g_dev.l2_bytes / (i == 3 ? 4 : 1);
    }
    memset(&memo, 0, sizeof memo);
    for (i = 0; i < GP_ARRAY_LEN(res); i++) {
        const gp_kernel_t *kk = i == 4 ? &k2 : &k;
        const gp_occupancy_t *oo = i == 4 ? &occ2 : &occ;
        memset(&with, 0xff, sizeof with);
        memset(&without, 0, sizeof without);
        if (gp_block_cost_memo(g_arch->plugin, g_gen, &g_dev, kk, oo, &res[i], &memo, &with, err,
                               sizeof err) ||
            gp_block_cost_default(g_arch->plugin, g_gen, &g_dev, kk, oo, &res[i], &without, err,
                                  sizeof err))
            fail_msg("residency %zu: %s", i, err);
        assert_memory_equal(&with, &without, sizeof with);
        assert_ptr_equal(memo.ops, kk->ops);
    }
    /* the L2 capacity changed the costs: the memo did not keep them */
    assert_true(gp_block_cost_memo(g_arch->plugin, g_gen, &g_dev, &k, &occ, &res[3], &memo, &with,
                                   err, sizeof err) == 0);
    assert_true(with.dram_bytes != without.dram_bytes || with.time_cycles != without.time_cycles);
    /* a kept cost that is not the op's */
    assert_int_equal(gp_block_cost_memo(g_arch->plugin, g_gen, &g_dev, &k, &occ, &res[0], &memo,
                                        &without, err, sizeof err),
                     0);
    assert_true(memo.have[0]);
    memo.cost[0].dram_bytes *= 2;
    *err = '\0';
#ifndef NDEBUG
    assert_int_equal(gp_block_cost_memo(g_arch->plugin, g_gen, &g_dev, &k, &occ, &res[1], &memo,
                                        &with, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "gp_op_cost_default_res_key misses a field"));
#else
    assert_int_equal(gp_block_cost_memo(g_arch->plugin, g_gen, &g_dev, &k, &occ, &res[0], &memo,
                                        &with, err, sizeof err),
                     0);
    assert_true(with.dram_bytes > without.dram_bytes);
#endif
    gp_op_memo_reset(&memo);
    assert_null(memo.ops);
    /* a walk that fails keeps nothing: kept costs are the checked ones a
       walk skips checking again */
    other[1].kind = GP_OP_KIND_COUNT;
    assert_int_equal(gp_block_cost_memo(g_arch->plugin, g_gen, &g_dev, &k2, &occ2, &res[0], &memo,
                                        &with, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "unknown kind"));
    assert_null(memo.ops);
    gp_op_memo_free(&memo);
    assert_null(memo.cost);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dependent_loads_add),
        cmocka_unit_test(test_chase_does_not_overlap),
        cmocka_unit_test(test_unrolled_loads_overlap_arithmetic),
        cmocka_unit_test(test_one_thread_not_slower),
        cmocka_unit_test(test_straight_loads_overlap_arithmetic),
        cmocka_unit_test(test_straight_run_boundaries),
        cmocka_unit_test(test_in_flight_window),
        cmocka_unit_test(test_predicated_branch),
        cmocka_unit_test(test_tensor_instructions),
        cmocka_unit_test(test_tensor_clock),
        cmocka_unit_test(test_l1_and_shared_one_path),
        cmocka_unit_test(test_top_barrier_blocks_wait_together),
        cmocka_unit_test(test_atomic_result_waits),
        cmocka_unit_test(test_taken_branch),
        cmocka_unit_test(test_predicate_branch),
        cmocka_unit_test(test_dram_read_rate),
        cmocka_unit_test(test_op_memo_same_costs),
        cmocka_unit_test(test_block_warps_wait_together),
        cmocka_unit_test(test_group_waits_for_misses_that_happen),
        cmocka_unit_test(test_drawn_loads_hit_their_own_draws),
        cmocka_unit_test(test_pinned_unroll),
        cmocka_unit_test(test_tile_copy_unrolled_four),
        cmocka_unit_test(test_copies_wait_for_their_runs),
        cmocka_unit_test(test_l1_hits_queue_in_a_batch),
        cmocka_unit_test(test_uniform_loads_return_apart_hit_or_not),
        cmocka_unit_test(test_copies_run_their_arithmetic_side_by_side),
        cmocka_unit_test(test_trailing_integer_ops_beside),
        cmocka_unit_test(test_address_arithmetic_beside_loads),
        cmocka_unit_test(test_barrier_waits_for_block),
        cmocka_unit_test(test_readonly_loads_pass_barriers),
        cmocka_unit_test(test_halo_load_waits_for_store),
        cmocka_unit_test(test_row_addresses_limit_the_run),
        cmocka_unit_test(test_retire_lag_spares_the_memory_term),
        cmocka_unit_test(test_drawn_lines_queue),
        cmocka_unit_test(test_l2_requests_and_knee),
        cmocka_unit_test(test_l1_lines_bound_misses),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
