/*
 * test_opcost.c - the core's op cost: warp operations and division (the
 * plugins' op rules and the measured device keys), the integer and
 * conversion rates, barriers by warps, atomic contention, and the L1
 * load rate and a global load's issue.
 */
#include "test_common.h"

#include <math.h>

#include "constants.h"
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

/* Cost of one op in a kernel of 16384 blocks of `warps` warps whose buffers
   0 .. n_buffers-1 an earlier launch left `warm` bytes of in L2 (NULL:
   none); returns the status. */
/* The cost of ops[at] in a kernel of the n ops ops[0..n), blocks of `warps`
   warps, one resident a SM, 16384 of them. */
static int cost_in(const gp_device_t *d, const gp_generation_t *g, gp_op_t *ops, uint32_t n,
                   uint32_t at, uint32_t warps, uint64_t *warm, uint32_t n_buffers,
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
    k.ops = ops;
    k.n_ops = n;
    k.l2_warm_bytes = warm;
    k.n_buffers = warm ? n_buffers : 0;
    o.warps_per_block = warps;
    o.blocks_per_sm = 1;
    o.active_warps = warps;
    o.max_warps = 64;
    r.blocks = 1;
    r.active_sms = d->sm_count;
    r.dram_share = r.l2_share = 1.0 / d->sm_count;
    msg[0] = '\0';
    return gp_op_cost_default(g, d, &k, &ops[at], &o, &r, c, msg, len);
}

static int cost_warm(const gp_device_t *d, const gp_generation_t *g, gp_op_t *op, uint32_t warps,
                     uint64_t *warm, uint32_t n_buffers, gp_op_cost_t *c, char *msg, size_t len)
{
    return cost_in(d, g, op, 1, 0, warps, warm, n_buffers, c, msg, len);
}

/* The same without warm bytes. */
static int cost(const gp_device_t *d, const gp_generation_t *g, gp_op_t *op, uint32_t warps,
                gp_op_cost_t *c, char *msg, size_t len)
{
    return cost_warm(d, g, op, warps, NULL, 0, c, msg, len);
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

/* The L2 atomic units a footprint of f bytes keeps busy on the H200 (no
   partition floor: f of at least two lines). */
static double units_busy(const gp_device_t *d, double f)
{
    return GP_MAX(1.0, d->atomic_l2_units * (1 - exp(-f / (d->atomic_unit_bytes * d->atomic_l2_units))));
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
    double per_cycle, prev = INFINITY, least;
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
    /* one word per warp: 32 updates of one word per request, spread over
       the L2 atomic units that the resident blocks' words keep busy (one
       block per SM here: 132 x 8 words, not the grid's 16384 x 8) */
    op.access.atomic_scope = GP_ATOMIC_PER_WARP;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.l2_bytes - 32 / d.atomic_same_address_per_cycle /
                                      units_busy(&d, d.sm_count * 8.0 * 4) * per_cycle) < 1e-6);
    /* bins: none costs more than one bin nor less than 2^22 (in between
       the cost need not fall: 32 random bins of one line cost more than 8
       of one sector, as measured, run7 atom global_hash rows) */
    op.access.atomic_scope = GP_ATOMIC_DISTINCT;
    op.access.bins = 1u << 22;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    least = c.l2_bytes;
    for (bins = 1; bins <= (1u << 22); bins *= 4) {
        op.access.bins = bins;
        assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
        assert_true(c.l2_bytes <= prev + 1e-9 && c.l2_bytes >= 0.98 * least); /* drawn steps */
        if (bins == 1)
            prev = c.l2_bytes;
    }
    op.access.bins = 1; /* one bin: the single address */
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.l2_bytes - 1 / d.atomic_uniform_f32_warps_per_cycle * per_cycle) < 1e-6);
}

/* A lane sample of `warps` warps of 32 lanes at the byte offsets `off`,
   the launch touching `fp` bytes; drawn: offsets drawn over `fp` bytes. */
static void sample_init(gp_lane_sample_t *s, const int64_t *off, uint32_t warps, uint64_t fp,
                        int drawn)
{
    memset(s, 0, sizeof *s);
    s->n_warps = warps;
    s->lanes = 32;
    s->byte_offset = off;
    s->grid_footprint_bytes = fp;
    s->drawn = (uint32_t)drawn;
    s->drawn_range_bytes = drawn ? fp : 0;
    s->drawn_span_bytes = drawn ? fp : 0;
}

/* An atomic op whose lanes address the byte offsets `off` (one warp),
   drawn from data, over a grid footprint of `fp` bytes. */
static int atomic_sample_cost(const gp_device_t *d, const gp_generation_t *g, uint32_t op_kind,
                              const int64_t *off, uint64_t fp, gp_op_cost_t *c)
{
    gp_op_t op = op_of(GP_OP_ATOMIC);
    gp_lane_sample_t s;
    char msg[256];
    sample_init(&s, off, 1, fp, 1);
    s.drawn_range_bytes = s.drawn_span_bytes = 0;
    op.space = GP_SPACE_GLOBAL;
    op.access.elem_bytes = 4;
    op.access.footprint_bytes = fp;
    op.access.atomic_op = op_kind;
    op.access.sample = &s;
    return cost(d, g, &op, 8, c, msg, sizeof msg);
}

/* A special-function op's latency in a chain is the call as compiled by
   default (run12 mufu: rsqrtf's FSETP, @P FMUL, MUFU.RSQ, @P FMUL, 39.0
   cycles) where the card gives it, with the guard's three FP32
   instructions issued beside the MUFU; the MUFU instruction's alone
   otherwise, and for gpuperf.mufu (sfu_bare). */
static void test_sfu_call_latency(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_SFU);
    gp_op_cost_t c, bare;
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.sfu_call_cycles > d.sfu_cycles);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.latency_cycles - d.sfu_call_cycles) < 1e-9);
    d.sfu_call_cycles = 0;
    assert_int_equal(cost(&d, g, &op, 8, &bare, msg, sizeof msg), 0);
    assert_true(fabs(bare.latency_cycles - d.sfu_cycles) < 1e-9);
    assert_true(fabs(bare.pipe_cycles[GP_PIPE_SFU] - c.pipe_cycles[GP_PIPE_SFU]) < 1e-12);
    assert_true(bare.pipe_cycles[GP_PIPE_FP32] == 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_FP32] - 3 * 32 / d.fp32_lanes) < 1e-12);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_ISSUE] - 4 * bare.pipe_cycles[GP_PIPE_ISSUE]) < 1e-12);
    /* gpuperf.mufu: the MUFU instruction alone, whatever the card gives */
    open_dev("h200-sxm", &d, &a, &g);
    op.sfu_bare = 1;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.latency_cycles - d.sfu_cycles) < 1e-9);
    assert_true(c.pipe_cycles[GP_PIPE_FP32] == 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_ISSUE] - bare.pipe_cycles[GP_PIPE_ISSUE]) < 1e-12);
}

/* A store of one warp whose lanes' offsets `off` were drawn at random from
   `range` bytes of draws spreading over `span` bytes; `warm` bytes of the
   buffer are in the L2 from an earlier launch. */
static gp_op_cost_t drawn_store_cost(const gp_device_t *d, const gp_generation_t *g,
                                     const int64_t *off, uint32_t elem, uint64_t range,
                                     uint64_t span, uint64_t warm, int drawn)
{
    gp_op_t op = op_of(GP_OP_STORE);
    gp_lane_sample_t s;
    gp_op_cost_t c;
    uint64_t w[1] = {warm};
    char msg[256];
    sample_init(&s, off, 1, range, drawn);
    s.drawn_span_bytes = drawn ? span : 0;
    op.space = GP_SPACE_GLOBAL;
    op.access.buffer = 0;
    op.access.elem_bytes = elem;
    op.access.footprint_bytes = range;
    op.access.pattern = GP_PATTERN_RANDOM;
    op.access.sample = &s;
    assert_int_equal(cost_warm(d, g, &op, 8, w, 1, &c, msg, sizeof msg), 0);
    return c;
}

/* A store of `warps` sampled warps (32 lanes each) at the offsets `off`,
   computed by an index formula (not drawn), the launch writing `fp` bytes. */
static gp_op_cost_t formula_store_cost(const gp_device_t *d, const gp_generation_t *g,
                                       const int64_t *off, uint32_t warps, uint64_t fp)
{
    gp_op_t op = op_of(GP_OP_STORE);
    gp_lane_sample_t s;
    gp_op_cost_t c;
    uint64_t w[1] = {0};
    char msg[256];
    sample_init(&s, off, warps, fp, 0);
    op.space = GP_SPACE_GLOBAL;
    op.access.buffer = 0;
    op.access.elem_bytes = 4;
    op.access.footprint_bytes = fp;
    op.access.sample = &s;
    assert_int_equal(cost_warm(d, g, &op, 8, w, 1, &c, msg, sizeof msg), 0);
    return c;
}

/* A load of one warp whose 32 lanes read the drawn offsets `off`, drawn
   over `range` bytes. */
static gp_op_cost_t drawn_load_cost(const gp_device_t *d, const gp_generation_t *g,
                                    const int64_t *off, uint64_t range)
{
    gp_op_t op = op_of(GP_OP_LOAD);
    gp_lane_sample_t s;
    gp_op_cost_t c;
    char msg[256];
    sample_init(&s, off, 1, range, 1);
    op.space = GP_SPACE_GLOBAL;
    op.access.elem_bytes = 4;
    op.access.footprint_bytes = range;
    op.access.pattern = GP_PATTERN_RANDOM;
    op.access.sample = &s;
    assert_int_equal(cost(d, g, &op, 8, &c, msg, sizeof msg), 0);
    return c;
}

/* A warp request of 32 random lines over a span beyond
   request_tlb_reach_bytes waits request_tlb_line_cycles a line for the
   share 1 - reach / span of its lines that miss translation (run13/tlb
   gather_lat rows); within the reach, or on a card without the keys,
   nothing. */
static void test_request_tlb_wait(void **state)
{
    gp_device_t d, none;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_cost_t c, c0;
    int64_t off[32];
    uint64_t big = 8ull << 30;
    double want;
    int l;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.request_tlb_reach_bytes > 0 && d.request_tlb_line_cycles > 0);
    none = d;
    none.request_tlb_reach_bytes = 0;
    none.request_tlb_line_cycles = 0;
    for (l = 0; l < 32; l++)
        off[l] = (int64_t)(l * 2654435761ull % (big / 128)) * 128;
    c = drawn_load_cost(&d, g, off, big);
    c0 = drawn_load_cost(&none, g, off, big);
    want = (1 - c.l1_hit) * 32 * d.request_tlb_line_cycles *
           (1 - (double)d.request_tlb_reach_bytes / (double)big);
    assert_true(want > 100);
    assert_true(fabs(c.latency_cycles - c0.latency_cycles - want) < 1e-6);
    for (l = 0; l < 32; l++) /* the same lines within 32 MiB */
        off[l] = off[l] % (32 << 20);
    c = drawn_load_cost(&d, g, off, 32u << 20);
    c0 = drawn_load_cost(&none, g, off, 32u << 20);
    assert_true(fabs(c.latency_cycles - c0.latency_cycles) < 1e-9);
}

/* Random lines that reach DRAM over a span beyond tlb_dram_reach_bytes
   cost tlb_dram_line_bytes more DRAM time each, times the share 1 - reach /
   span of their pages the translation misses (run13/tlb gather_thr rows):
   a drawn gather's extra grows with that share; a drawn store's 32 lines
   cost exactly 32 times it; within the reach, or on a card without the
   keys, or for a stream over the same span, nothing. */
static void test_tlb_dram_bytes(void **state)
{
    gp_device_t d, none;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_cost_t c, c0, c1, c10;
    int64_t off[32], off1[32];
    uint64_t big = 8ull << 30, gib = 1ull << 30, small = 128ull << 20;
    double m8, m1, want;
    int l;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.tlb_dram_line_bytes > 0 && d.tlb_dram_reach_bytes > 0);
    assert_true((double)d.tlb_dram_reach_bytes > (double)small);
    none = d;
    none.tlb_dram_line_bytes = 0;
    none.tlb_dram_reach_bytes = 0;
    m8 = 1 - (double)d.tlb_dram_reach_bytes / (double)big;
    m1 = 1 - (double)d.tlb_dram_reach_bytes / (double)gib;
    for (l = 0; l < 32; l++) {
        off[l] = (int64_t)(l * 2654435761ull % (big / 128)) * 128;
        off1[l] = off[l] % (int64_t)gib;
    }
    /* loads: the extra over the load's own DRAM bytes follows 1 - reach / span */
    c = drawn_load_cost(&d, g, off, big);
    c0 = drawn_load_cost(&none, g, off, big);
    c1 = drawn_load_cost(&d, g, off1, gib);
    c10 = drawn_load_cost(&none, g, off1, gib);
    assert_true(c0.dram_bytes > 0 && c10.dram_bytes > 0);
    assert_true(c.dram_bytes > c0.dram_bytes && c1.dram_bytes > c10.dram_bytes);
    assert_true(fabs((c.dram_bytes / c0.dram_bytes - 1) / (c1.dram_bytes / c10.dram_bytes - 1) -
                     m8 / m1) < 1e-9);
    /* stores: 32 lines, each its own */
    c = drawn_store_cost(&d, g, off, 4, big, big, 0, 1);
    c0 = drawn_store_cost(&none, g, off, 4, big, big, 0, 1);
    want = 32 * d.tlb_dram_line_bytes * m8;
    assert_true(want > 100);
    assert_true(fabs(c.dram_bytes - c0.dram_bytes - want) < 1e-6);
    /* within the reach: nothing */
    for (l = 0; l < 32; l++)
        off1[l] = off[l] % (int64_t)small;
    c = drawn_load_cost(&d, g, off1, small);
    c0 = drawn_load_cost(&none, g, off1, small);
    assert_true(fabs(c.dram_bytes - c0.dram_bytes) < 1e-9);
    /* a coalesced stream over 8 GiB: its lines share pages */
    {
        gp_op_t op = op_of(GP_OP_LOAD);
        char msg[256];
        op.space = GP_SPACE_GLOBAL;
        op.access.elem_bytes = 4;
        op.access.footprint_bytes = big;
        op.access.pattern = GP_PATTERN_UNIT;
        assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
        assert_int_equal(cost(&none, g, &op, 8, &c0, msg, sizeof msg), 0);
        assert_true(c0.dram_bytes > 0);
        assert_true(fabs(c.dram_bytes - c0.dram_bytes) < 1e-9);
    }
}

/* Latency of a coalesced 4-byte load in a launch of `blocks` blocks of one
   warp, the L2 cold. */
static double load_latency_blocks(const gp_device_t *d, const gp_generation_t *g, uint64_t blocks)
{
    gp_kernel_t k;
    gp_occupancy_t o;
    gp_residency_t r;
    gp_op_cost_t c;
    gp_op_t op = op_of(GP_OP_LOAD);
    char msg[256];
    op.space = GP_SPACE_GLOBAL;
    op.access.elem_bytes = 4;
    op.access.pattern = GP_PATTERN_UNIT;
    op.access.buffer = 0;
    op.access.footprint_bytes = blocks * 128;
    memset(&k, 0, sizeof k);
    memset(&o, 0, sizeof o);
    memset(&r, 0, sizeof r);
    k.name = "k";
    k.launch.threads_per_block = 32;
    k.launch.block.x = 32;
    k.launch.grid.x = (uint32_t)blocks;
    k.total_blocks = blocks;
    k.ops = &op;
    k.n_ops = 1;
    o.warps_per_block = 1;
    o.blocks_per_sm = 1;
    o.active_warps = 1;
    o.max_warps = 64;
    r.blocks = 1;
    r.active_sms = (uint32_t)GP_MIN((double)blocks, (double)d->sm_count);
    r.dram_share = r.l2_share = 1.0 / d->sm_count;
    assert_int_equal(gp_op_cost_default(g, d, &k, &op, &o, &r, &c, msg, sizeof msg), 0);
    return c.latency_cycles;
}

/* A launch whose SMs all wait on loads ends with the slowest SM: over every
   SM a load waits the slowest SM's DRAM latency (dram_slowest_sm_ratio, the
   run7 chase cycles), on one SM a typical one's, and between, the expected
   slowest of the SMs it runs on; a card without the keys has every SM
   alike. */
static void test_slowest_sm_latency(void **state)
{
    gp_device_t d, none;
    const gp_arch_t *a;
    const gp_generation_t *g;
    double one, two, all, all0, one0;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.l2_slowest_sm_ratio > 1 && d.dram_slowest_sm_ratio > 1);
    none = d;
    none.l2_slowest_sm_ratio = none.dram_slowest_sm_ratio = 0;
    one = load_latency_blocks(&d, g, 1);
    two = load_latency_blocks(&d, g, 2);
    all = load_latency_blocks(&d, g, 16384);
    one0 = load_latency_blocks(&none, g, 1);
    all0 = load_latency_blocks(&none, g, 16384);
    assert_true(fabs(one - one0) < 1e-9);  /* one SM: the typical latency */
    assert_true(one < two && two < all);   /* more SMs, a slower slowest */
    /* a cold coalesced load misses to DRAM: all SMs, the slowest's latency */
    assert_true(fabs(all / all0 - d.dram_slowest_sm_ratio) < 0.01);
}

/* A gather whose lanes each read one sector of a line of their own costs
   the L2 sparse_read_l2_bytes a line that misses L1 (run10/scatter ws=l2:
   87 lines a clock), as L2 time beside its sectors' bytes, not as bytes in
   flight; lanes that read the four sectors of their lines run at the L2's
   bandwidth (no request time), and a card without the key has none. */
static void test_read_request_time(void **state)
{
    gp_device_t d, none;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_cost_t c, c0;
    int64_t own[32], words[32], whole[32];
    uint64_t range = 8ull << 20;
    int l;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.sparse_read_l2_bytes > d.sector_bytes);
    none = d;
    none.sparse_read_l2_bytes = 0;
    for (l = 0; l < 32; l++) {
        own[l] = (int64_t)(l * 7919 + 13) * 128;                      /* word 0 of its line */
        words[l] = (int64_t)((l / 4) * 104729 + 5) * 128 + 4 * (l % 4); /* 4 lanes a sector */
        whole[l] = (int64_t)((l / 4) * 104729 + 5) * 128 + 32 * (l % 4); /* 4 sectors a line */
    }
    /* beside it, the early first touches' fills join the L2's time on
       both cards alike (gather_first_granules): the key's part is the
       difference */
    c = drawn_load_cost(&d, g, own, range);
    c0 = drawn_load_cost(&none, g, own, range);
    assert_true(c.l2_bytes > 0 && fabs(c.l2_bytes - c0.l2_bytes) < 1e-9);
    assert_true(c0.l2_request_bytes >= 0 && c0.l2_request_bytes < c.l2_request_bytes);
    /* the share that misses L1: l2_bytes over its 32 sectors' bytes */
    assert_true(fabs(c.l2_request_bytes - c0.l2_request_bytes -
                     c.l2_bytes / (32.0 * d.sector_bytes) * 32 *
                         (d.sparse_read_l2_bytes - d.sector_bytes)) < 1e-6);
    c = drawn_load_cost(&d, g, words, range);
    c0 = drawn_load_cost(&none, g, words, range);
    assert_true(fabs(c.l2_request_bytes - c0.l2_request_bytes -
                     c.l2_bytes / (8.0 * d.sector_bytes) * 8 *
                         (d.sparse_read_l2_bytes - d.sector_bytes)) < 1e-6);
    c = drawn_load_cost(&d, g, whole, range);
    c0 = drawn_load_cost(&none, g, whole, range);
    assert_true(c.l2_bytes > 0 && fabs(c.l2_request_bytes - c0.l2_request_bytes) < 1e-9);
}

/* A gather's lanes draw over a range: a request waits on DRAM where one of
   its lanes touches a fetch granule first, and the first touches come in
   the launch's first draws, so the share of requests that wait there is
   the occupancy count's (G / x over x = draws per granule, G the sum of
   y^j / j for j = 1 .. 32 lanes, y = 1 - e^-x), not the lanes' average
   share of first touches compounded over the request (run29/gfoot: 8
   warps a SM gathering from 4 MiB, 155 us predicted that way, 65 us
   measured). Beyond the L2, every request has a lane that misses. */
static void test_gather_first_touches(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_cost_t c;
    int64_t off[32];
    uint64_t range = 4u << 20, big = 8ull << 30;
    double x, y, yj = 1, sum = 0, lane;
    int l;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    for (l = 0; l < 32; l++)
        off[l] = (int64_t)(l * 2654435761ull % (range / 128)) * 128;
    c = drawn_load_cost(&d, g, off, range);
    /* 16384 blocks of 8 warps, one draw a lane, over 64-byte granules */
    x = 16384.0 * 256 / ((double)range / GP_MAX(d.sector_bytes, d.dram_fetch_bytes));
    y = -expm1(-x);
    for (l = 1; l <= 32; l++) {
        yj *= y;
        sum += yj / l;
    }
    lane = (double)range / (16384.0 * 256 * 4); /* a lane's first touches, as elements */
    assert_true(1 - pow(1 - lane, 32) > 0.99);   /* compounded: every request */
    assert_true(fabs(c.dram_hit - sum / x) < 0.01 * sum / x);
    assert_true(c.dram_hit > 0.01 && c.dram_hit < 0.1);
    for (l = 0; l < 32; l++)
        off[l] = (int64_t)(l * 2654435761ull % (big / 128)) * 128;
    c = drawn_load_cost(&d, g, off, big);
    assert_true(c.dram_hit > 0.99);
}

/* Reads drawn at random re-visit the L2 at granule level: a line is held
   as the capacity's share of the lines the draws reach (C / F), a 64-byte
   granule of a 128-byte line with 1 - (1 - C / F)^(1/2), and from every SM
   in l2_drawn_capacity_fraction of the L2 (run29/gfoot: 64 MiB 29-30% L2
   hits). Checked on the DRAM traffic of a gather over 8 MiB with the L2
   made 7.5 MiB: none re-visits with a 1 KiB L2, a share r of its reads
   does, and the share f of the L2 keeps fewer of them; with an L2 that
   keeps the buffer whole only the granules' first touches reach DRAM. */
static void test_drawn_l2_granules(void **state)
{
    gp_device_t d, whole, none;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_cost_t c0, c1, c2;
    int64_t off[32];
    uint64_t range = 8u << 20;
    double f, k1, k2, r;
    int l;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    f = d.l2_drawn_capacity_fraction;
    assert_true(f > 0 && f < 1 && d.dram_fetch_bytes == 64);
    d.l2_bytes = range / 16 * 15;
    d.l2_drawn_ways = 0; /* one set: the sharp edge */
    whole = d;
    whole.l2_drawn_capacity_fraction = 0;
    none = d;
    none.l2_bytes = 1024;
    for (l = 0; l < 32; l++)
        off[l] = (int64_t)(l * 2654435761ull % (range / 4)) * 4;
    c0 = drawn_load_cost(&none, g, off, range);
    c1 = drawn_load_cost(&whole, g, off, range);
    c2 = drawn_load_cost(&d, g, off, range);
    k1 = 1 - pow(1 - 15.0 / 16, 0.5);
    k2 = 1 - pow(1 - f * 15.0 / 16, 0.5);
    r = (1 - c1.dram_bytes / c0.dram_bytes) / k1;
    assert_true(c0.dram_bytes > c2.dram_bytes && c2.dram_bytes > c1.dram_bytes);
    assert_true(r > 0.1 && r < 1);
    /* the share f keeps fewer re-visits than the whole L2 would: within
       what the two edges give (the traffic of the re-visits the L2 keeps
       comes by granules, gather_first_granules, so it is not linear in the
       kept share) */
    assert_true(1 - c2.dram_bytes / c0.dram_bytes > 0.5 * r * k2 &&
                1 - c2.dram_bytes / c0.dram_bytes < r * k2);
    /* an L2 that keeps the whole buffer: DRAM reads its granules once, the
       first touches of the launch's 16384 x 256 draws over range / 64
       granules, (1 - e^{-x}) / x of the draws (run31, run33 ncu_gfoot.csv) */
    {
        gp_device_t all = d;
        double x = 16384.0 * 256 / ((double)range / all.dram_fetch_bytes);
        all.l2_bytes = range * 8;
        all.l2_drawn_capacity_fraction = 0;
        all.l2_drawn_ways = 1e4;
        c1 = drawn_load_cost(&all, g, off, range);
        assert_true(fabs(c1.dram_bytes / c0.dram_bytes - -expm1(-x) / x) < 1e-3 / x);
    }
    /* lines fall into sets of l2_drawn_ways at random: within the share's
       capacity some sets overflow (fewer hits than one set gives), and
       sets of many ways come back to the one set's hits */
    d.l2_bytes = range * 2;
    c1 = drawn_load_cost(&d, g, off, range); /* 8 MiB in f x 16 MiB: one set holds it */
    d.l2_drawn_ways = 40;
    c2 = drawn_load_cost(&d, g, off, range);
    d.l2_drawn_ways = 1e4;
    c0 = drawn_load_cost(&d, g, off, range);
    assert_true(c2.dram_bytes > c1.dram_bytes * 1.01);
    assert_true(fabs(c0.dram_bytes - c1.dram_bytes) < 1e-6 * c1.dram_bytes + 1e-9);
}

/* Random stores (run12 scatterw): each line a warp writes is an isolated
   DRAM write where the draws name more lines than the L2 holds: part of a
   sector (read, merged, written back), whole sectors, a whole line each
   cost their measured bytes' worth, and the L2 a request per line (one of
   whole sectors less than one that merges part of a sector); lines an
   earlier launch left in the L2 cost no DRAM; draws over a few regions
   (a radix sort's digits) leave their lines to be completed in the L2. */
static void test_drawn_stores(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    int64_t own[32], sect[32], line[32], far[64], col[64];
    uint64_t range = (1u << 21) * 4ull, span = 256ull << 20;
    gp_op_cost_t c;
    int l;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    d.tlb_dram_line_bytes = 0; /* the translation's share: test_tlb_dram_bytes */
    d.tlb_dram_reach_bytes = 0;
    assert_true(d.sparse_write_bytes_partial > d.sparse_write_bytes_sector);
    for (l = 0; l < 32; l++) {
        own[l] = (int64_t)(l * 7919 + 13) * 128 + 4 * (l % 8); /* own line, part of a sector */
        sect[l] = (int64_t)((l / 8) * 104729 + 5) * 128 + 4 * (l % 8); /* 8 lanes: a sector */
        line[l] = (int64_t)4099 * 128 + 4 * l;                         /* one whole line */
    }
    c = drawn_store_cost(&d, g, own, 4, range, span, 0, 1);
    assert_true(fabs(c.dram_bytes - 32 * d.sparse_write_bytes_partial) < 1e-6);
    assert_true(fabs(c.l2_bytes - 32 * d.sparse_write_l2_bytes) < 1e-6);
    c = drawn_store_cost(&d, g, sect, 4, range, span, 0, 1);
    assert_true(fabs(c.dram_bytes - 4 * d.sparse_write_bytes_sector) < 1e-6);
    /* whole sectors: the L2 replaces them, a cheaper request than a merge */
    assert_true(d.sparse_write_l2_sector_bytes > 0 &&
                d.sparse_write_l2_sector_bytes < d.sparse_write_l2_bytes);
    assert_true(fabs(c.l2_bytes - 4 * d.sparse_write_l2_sector_bytes) < 1e-6);
    d.sparse_write_l2_sector_bytes = 0; /* not known: any request of up to a sector */
    c = drawn_store_cost(&d, g, sect, 4, range, span, 0, 1);
    assert_true(fabs(c.l2_bytes - 4 * d.sparse_write_l2_bytes) < 1e-6);
    c = drawn_store_cost(&d, g, line, 4, range, span, 0, 1);
    assert_true(fabs(c.dram_bytes - d.sparse_write_bytes_line) < 1e-6);
    assert_true(fabs(c.l2_bytes - d.sparse_write_l2_line_bytes) < 1e-6);
    /* the buffer in L2 already (8 MiB, read before): no DRAM */
    c = drawn_store_cost(&d, g, own, 4, 65536 * 4, 8u << 20, 8u << 20, 1);
    assert_true(c.dram_bytes < 1e-9);
    assert_true(fabs(c.l2_bytes - 32 * d.sparse_write_l2_bytes) < 1e-6);
    /* 256 regions drawn: the generic cost, far below the isolated one */
    c = drawn_store_cost(&d, g, own, 4, 1024, 64u << 20, 0, 1);
    assert_true(c.dram_bytes > 0 && c.dram_bytes < 32 * d.sparse_write_bytes_sector);
    /* not drawn, the lanes scattered as draws would be (a permutation by an
       LCG over 4 GB): isolated as well, however few or many the stores; the
       block's next warp on its first warp's lines (a transpose's column
       writes), or lanes sharing lines, are not */
    for (l = 0; l < 32; l++) {
        far[l] = (int64_t)(l * 1000003 + 13) * 128 + 4 * (l % 8);
        far[32 + l] = (int64_t)(l * 1000003 + 500001) * 128;   /* warp 1: lines of its own */
        col[l] = (int64_t)l * 32768;                             /* a column, 8192 floats a row */
        col[32 + l] = (int64_t)l * 32768 + 4;                    /* warp 1: the next row */
    }
    c = formula_store_cost(&d, g, far, 2, range);
    assert_true(fabs(c.dram_bytes - 32 * d.sparse_write_bytes_partial) < 1e-6);
    c = formula_store_cost(&d, g, far, 2, 1ull << 32);
    assert_true(fabs(c.dram_bytes - 32 * d.sparse_write_bytes_partial) < 1e-6);
    c = formula_store_cost(&d, g, col, 2, 256ull << 20);
    assert_true(c.dram_bytes < 32 * d.sparse_write_bytes_sector);
    c = formula_store_cost(&d, g, sect, 1, 4 * 8);
    assert_true(c.dram_bytes < 4 * d.sparse_write_bytes_sector);
    /* a card that does not give the keys: the generic cost */
    d.sparse_write_bytes_partial = d.sparse_write_bytes_sector = d.sparse_write_bytes_line = 0;
    c = drawn_store_cost(&d, g, own, 4, range, span, 0, 1);
    assert_true(c.dram_bytes > 0 && c.dram_bytes < 32 * 116);
}

/* n ops of `kind` sharing the draws group 77, one sampled warp each, every
   lane on a random line of its own of 256 MiB, op q at word q of it (the
   offsets in off, the samples in s). */
static void group_ops(gp_op_t *ops, gp_lane_sample_t *s, int64_t (*off)[32], uint32_t n,
                      uint32_t kind)
{
    uint64_t range = 256ull << 20;
    uint32_t q, l;
    for (q = 0; q < n; q++) {
        for (l = 0; l < 32; l++)
            off[q][l] = (int64_t)(l * 7919 + 13) * 128 + 4 * (int64_t)q; /* own line */
        sample_init(&s[q], off[q], 1, range, 1);
        ops[q] = op_of(kind);
        ops[q].space = GP_SPACE_GLOBAL;
        ops[q].access.buffer = 0;
        ops[q].access.elem_bytes = 4;
        ops[q].access.footprint_bytes = range;
        ops[q].access.pattern = GP_PATTERN_RANDOM;
        ops[q].access.sample = &s[q];
        ops[q].draw_group = 77;
    }
}

/* Word stores that share their draws (a `draws` group, run40 splitw): n of
   them at the lanes' random lines, word q of each lane's piece at 4 q. The
   first's cost, in *c (group: 1, the n stores in one kernel; 0: the first
   alone). */
static void split_store_cost(const gp_device_t *d, const gp_generation_t *g, uint32_t n,
                             int group, gp_op_cost_t *c)
{
    static int64_t off[4][32];
    gp_lane_sample_t s[4];
    gp_op_t ops[4];
    uint64_t warm[1] = {0};
    char msg[256];
    group_ops(ops, s, off, n, GP_OP_STORE);
    assert_int_equal(cost_in(d, g, ops, group ? n : 1, 0, 8, warm, 1, c, msg, sizeof msg), 0);
}

/* Stores that share their draws: each takes the L2 its own requests; DRAM
   writes each line once with the bytes they write together, (1 + key log2
   n) times that, shared among them; without the key the bytes alone. */
static void test_drawn_store_group(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_cost_t alone, two, four;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    d.tlb_dram_line_bytes = 0; /* the translation's share: test_tlb_dram_bytes */
    d.tlb_dram_reach_bytes = 0;
    assert_true(d.sparse_write_stores_log2 > 0);
    split_store_cost(&d, g, 1, 0, &alone);
    split_store_cost(&d, g, 2, 1, &two);
    split_store_cost(&d, g, 4, 1, &four);
    assert_true(fabs(alone.dram_bytes - 32 * d.sparse_write_bytes_partial) < 1e-6);
    /* 8 and 16 bytes of each lane's sector: still part of it */
    assert_true(fabs(two.dram_bytes -
                     32 * d.sparse_write_bytes_partial * (1 + d.sparse_write_stores_log2) / 2) <
                1e-6);
    assert_true(fabs(four.dram_bytes -
                     32 * d.sparse_write_bytes_partial * (1 + 2 * d.sparse_write_stores_log2) / 4) <
                1e-6);
    assert_true(fabs(two.l2_bytes - alone.l2_bytes) < 1e-6);
    assert_true(fabs(four.l2_bytes - 32 * d.sparse_write_l2_bytes) < 1e-6);
    /* no key: the line's bytes, shared */
    d.sparse_write_stores_log2 = 0;
    split_store_cost(&d, g, 4, 1, &four);
    assert_true(fabs(four.dram_bytes - 32 * d.sparse_write_bytes_partial / 4) < 1e-6);
}

/* Loads that share their draws (a struct's fields read one by one at a
   data-made index): the second reads the sectors the first asked for, so
   it hits L1 and asks the L2 and DRAM for nothing more; outside the group
   (draw_group 0) it draws lines of its own and costs what the first does. */
static void test_drawn_load_group(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    static int64_t off[2][32];
    gp_lane_sample_t s[2];
    gp_op_t ops[2];
    gp_op_cost_t first, shared, apart;
    uint64_t warm[1] = {0};
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    group_ops(ops, s, off, 2, GP_OP_LOAD);
    assert_int_equal(cost_in(&d, g, ops, 2, 0, 8, warm, 1, &first, msg, sizeof msg), 0);
    assert_int_equal(cost_in(&d, g, ops, 2, 1, 8, warm, 1, &shared, msg, sizeof msg), 0);
    assert_true(first.dram_bytes > 0 && first.l2_bytes > 0);
    assert_true(shared.dram_bytes < 1e-9 && shared.l2_bytes < 1e-9);
    ops[0].draw_group = ops[1].draw_group = 0;
    assert_int_equal(cost_in(&d, g, ops, 2, 1, 8, warm, 1, &apart, msg, sizeof msg), 0);
    assert_true(apart.dram_bytes > 0.5 * first.dram_bytes);
    assert_true(apart.l2_bytes > 0.5 * first.l2_bytes);
    /* the record as one 16-byte load: what one word costs DRAM (run41 fields
       vec rows: 4, 8 and 16 bytes within 0.3%) */
    ops[0].access.elem_bytes = 16;
    assert_int_equal(cost_in(&d, g, ops, 1, 0, 8, warm, 1, &apart, msg, sizeof msg), 0);
    assert_true(fabs(apart.dram_bytes - first.dram_bytes) < 1e-6 * first.dram_bytes);
}

/* The L2 takes a warp's atomic by sector: the lanes on distinct words of a
   sector go together, the lanes on one word follow one another at the
   one-address rate (run7 atom rows: 32 consecutive words cost 4 updates,
   8 words of one sector with 4 lanes each 4, 32 lanes on one word 32); a
   float add also waits for its sector's previous update at the float rate,
   overlapped across the footprint's sectors. */
static void test_atomic_sector_steps(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_cost_t c;
    int64_t off[32];
    double per_cycle, t1, tf;
    int i;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.atomic_l2_units > 0 && d.atomic_unit_bytes > 0);
    per_cycle = d.l2_bandwidth_gbps * 1e3 / d.core_clock_mhz;
    t1 = 1 / d.atomic_same_address_per_cycle;
    tf = 1 / (d.atomic_uniform_f32_warps_per_cycle * 32);
    for (i = 0; i < 32; i++) /* 32 consecutive words: one line, 4 sectors */
        off[i] = 4 * i;
    assert_int_equal(atomic_sample_cost(&d, g, GP_ATOMIC_OP_INC, off, 128, &c), 0);
    assert_true(fabs(c.l2_bytes - 4 * t1 * per_cycle) < 1e-6);
    assert_int_equal(atomic_sample_cost(&d, g, GP_ATOMIC_OP_FADD, off, 128, &c), 0);
    assert_true(fabs(c.l2_bytes - 4 * t1 * per_cycle) < 1e-6); /* 4 sectors overlap */
    for (i = 0; i < 32; i++) /* 8 words of one sector, 4 lanes each */
        off[i] = 4 * (i % 8);
    assert_int_equal(atomic_sample_cost(&d, g, GP_ATOMIC_OP_INC, off, 32, &c), 0);
    assert_true(fabs(c.l2_bytes - 4 * t1 * per_cycle) < 1e-6);
    assert_int_equal(atomic_sample_cost(&d, g, GP_ATOMIC_OP_FADD, off, 32, &c), 0);
    assert_true(fabs(c.l2_bytes - 4 * tf * per_cycle) < 1e-6); /* waits in its sector */
    for (i = 0; i < 32; i++) /* 32 sectors apart over 1 MiB: the lanes bound it */
        off[i] = 4096 * i;
    assert_int_equal(atomic_sample_cost(&d, g, GP_ATOMIC_OP_INC, off, 1u << 20, &c), 0);
    assert_true(fabs(c.l2_bytes - GP_MAX(32 / d.atomic_distinct_per_cycle,
                                         32 * t1 / units_busy(&d, 1 << 20)) * per_cycle) < 1e-6);
}

/* Bins drawn from data: K bins spread the updates over the units their
   footprint keeps busy (more bins never cost more), one bin is not
   aggregated (the compiler cannot see the lanes agree), and a footprint of
   a line per L2 partition keeps a unit of each busy. */
static void test_atomic_bins_units(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_ATOMIC);
    gp_op_cost_t c, c4, c8;
    char msg[256];
    double per_cycle, t1;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    per_cycle = d.l2_bandwidth_gbps * 1e3 / d.core_clock_mhz;
    t1 = 1 / d.atomic_same_address_per_cycle;
    op.space = GP_SPACE_GLOBAL;
    op.access.elem_bytes = 4;
    op.access.atomic_op = GP_ATOMIC_OP_INC;
    op.access.bins = 1;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.l2_bytes - 32 * t1 * per_cycle) < 1e-6);
    /* 128 bins (512 bytes, 4 lines) against 256 (1 KiB): both on 2 units
       at least, so 128 cost what their steps cost over 2 */
    op.access.bins = 128;
    assert_int_equal(cost(&d, g, &op, 8, &c4, msg, sizeof msg), 0);
    assert_true(c4.l2_bytes <= 32 * t1 / 2 * per_cycle + 1e-9);
    assert_true(c4.l2_bytes > 16 * t1 / 2 * per_cycle);
    op.access.bins = 65536;
    assert_int_equal(cost(&d, g, &op, 8, &c8, msg, sizeof msg), 0);
    assert_true(c8.l2_bytes < c4.l2_bytes / 10);
    assert_true(c8.l2_bytes >= 32 / d.atomic_distinct_per_cycle * per_cycle - 1e-9);
}

/* Drawn bins that favour a few addresses: the L2 line that holds them takes
   most of every warp's updates on its one unit, so a skew onto 4 words of
   one line costs at least its steps there at the one-address rate, not the
   warp's steps spread over the units the footprint keeps busy (the H200's
   histogram of 256 bins, 90% of the bytes on bins 0..3, ran as long as the
   uniform one). Addresses of the thread's position keep the footprint's
   spread (not a drawn sample). */
static void test_atomic_hot_line(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_ATOMIC);
    gp_lane_sample_t s;
    gp_op_cost_t uni, skew, plain;
    char msg[256];
    int64_t off[8 * 32];
    uint64_t x = 12345;
    uint32_t i;
    double per_cycle, t1;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    per_cycle = d.l2_bandwidth_gbps * 1e3 / d.core_clock_mhz;
    t1 = 1 / d.atomic_same_address_per_cycle;
    memset(&s, 0, sizeof s);
    s.n_warps = 8;
    s.lanes = 32;
    s.byte_offset = off;
    s.grid_footprint_bytes = 1024;
    s.drawn = 1;
    s.drawn_range_bytes = 1024;
    op.space = GP_SPACE_GLOBAL;
    op.access.elem_bytes = 4;
    op.access.footprint_bytes = 1024;
    op.access.atomic_op = GP_ATOMIC_OP_INC;
    op.access.sample = &s;
    for (i = 0; i < 8 * 32; i++) { /* uniform over 256 bins */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        off[i] = (int64_t)((x >> 33) % 256) * 4;
    }
    assert_int_equal(cost(&d, g, &op, 8, &uni, msg, sizeof msg), 0);
    for (i = 0; i < 8 * 32; i++) /* 7 lanes of 8 on bins 0..3 */
        if (i % 8 != 7)
            off[i] = (int64_t)(i % 4) * 4;
    assert_int_equal(cost(&d, g, &op, 8, &skew, msg, sizeof msg), 0);
    /* bins 0..3 get 28 lanes a warp: 7 steps on one word, on one line */
    assert_true(skew.l2_bytes >= 7 * t1 * per_cycle - 1e-9);
    assert_true(skew.l2_bytes > 0.8 * uni.l2_bytes);
    /* the same offsets as positions of the thread: the footprint's spread */
    s.drawn = 0;
    assert_int_equal(cost(&d, g, &op, 8, &plain, msg, sizeof msg), 0);
    assert_true(plain.l2_bytes < skew.l2_bytes);
}

/* A warp-aggregated atomic whose count is a share of the lanes (lane 0
   alone: count = 1/32) still costs one atomic per warp once the engine
   scales by the count: the single-address serialisation bounds it; below
   one lane per warp (one per 256-thread block: 1/256) that share of warps. */
static void test_atomic_aggregated_share(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_ATOMIC);
    gp_op_cost_t whole, lane0, block0;
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    op.space = GP_SPACE_GLOBAL;
    op.access.elem_bytes = 4;
    op.access.atomic_op = GP_ATOMIC_OP_ADD;
    op.access.atomic_scope = GP_ATOMIC_SAME;
    assert_int_equal(cost(&d, g, &op, 8, &whole, msg, sizeof msg), 0);
    op.count = 1.0 / 32;
    assert_int_equal(cost(&d, g, &op, 8, &lane0, msg, sizeof msg), 0);
    assert_true(fabs(lane0.l2_bytes * op.count - whole.l2_bytes) < 1e-6);
    op.count = 1.0 / 256;
    assert_int_equal(cost(&d, g, &op, 8, &block0, msg, sizeof msg), 0);
    assert_true(fabs(block0.l2_bytes * op.count - whole.l2_bytes / 8) < 1e-6);
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

/* A shared atomic also holds the integer pipe for shared_atomic_int_share
   of its first pass (not of its bank-conflict passes); a device file
   without the key leaves the integer pipe alone. */
static void test_shared_atomic_int_share(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_ATOMIC);
    gp_op_cost_t c, conflicted;
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.shared_atomic_int_share > 0);
    op.space = GP_SPACE_SHARED;
    op.access.elem_bytes = 4;
    op.access.atomic_op = GP_ATOMIC_OP_INC;
    op.access.atomic_scope = GP_ATOMIC_DISTINCT;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_INT] -
                     d.shared_atomic_int_share * d.shared_atomic_inc_cycles) < 1e-9);
    /* a run-time add: its first pass is shared_atomic_cycles; 32 lanes on
       one word take more passes but no more of the integer pipe */
    op.access.atomic_op = GP_ATOMIC_OP_ADD;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    op.access.atomic_scope = GP_ATOMIC_SAME;
    assert_int_equal(cost(&d, g, &op, 8, &conflicted, msg, sizeof msg), 0);
    assert_true(conflicted.pipe_cycles[GP_PIPE_SHARED] > c.pipe_cycles[GP_PIPE_SHARED] + 1);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_INT] -
                     d.shared_atomic_int_share * d.shared_atomic_cycles) < 1e-9);
    assert_true(fabs(conflicted.pipe_cycles[GP_PIPE_INT] - c.pipe_cycles[GP_PIPE_INT]) < 1e-9);
    d.shared_atomic_int_share = 0;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(c.pipe_cycles[GP_PIPE_INT] == 0);
}

/* A warp's load of 32 consecutive floats, one 128-byte line of a 16 KiB
   buffer, from `space`. */
static gp_op_t line_load(uint32_t space)
{
    gp_op_t op = op_of(GP_OP_LOAD);
    op.space = space;
    op.access.elem_bytes = 4;
    op.access.pattern = GP_PATTERN_UNIT;
    op.access.buffer = 0;
    op.access.footprint_bytes = 16384;
    return op;
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
    gp_op_t op = line_load(GP_SPACE_TEXTURE);
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.l1_load_bytes_per_cycle > 0 && d.l1_load_bytes_per_cycle < d.l1_line_bytes);
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

/* A global or texture-path load holds the issue global_load_issue_cycles
   of a scheduler (the H200's measured 2.47: 0.62 SM cycles with its four
   schedulers), a shared load and a store one slot; a card without the key
   gives a load one slot. */
static void test_global_load_issue(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = line_load(GP_SPACE_GLOBAL);
    gp_op_cost_t c;
    char msg[256];
    double slot;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.global_load_issue_cycles > 1);
    slot = gp_issue_cycles(g, &d, &op);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_ISSUE] - d.global_load_issue_cycles / d.schedulers_per_sm) <
                1e-9);
    assert_true(c.pipe_cycles[GP_PIPE_ISSUE] > slot);
    op.space = GP_SPACE_TEXTURE;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_ISSUE] - d.global_load_issue_cycles / d.schedulers_per_sm) <
                1e-9);
    /* a store keeps its slot (at most: the generation's slot is added
       after the default cost) */
    op.kind = GP_OP_STORE;
    op.space = GP_SPACE_GLOBAL;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(c.pipe_cycles[GP_PIPE_ISSUE] <= slot + 1e-9);
    /* without the key, a load's slot at most, as a store's */
    op.kind = GP_OP_LOAD;
    d.global_load_issue_cycles = 0;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(c.pipe_cycles[GP_PIPE_ISSUE] <= slot + 1e-9);
}

/* A warp-uniform global load that hits L1 (every lane one small element)
   waits l1_uniform_hit_cycles, a float4 one 3 x l1_uniform_word_cycles more,
   and keeps the L1 l1_uniform_issue_cycles (+ l1_bank_pass_issue_cycles per
   further word); a card without the keys takes an ordinary hit. */
static void test_uniform_load(void **state)
{
    gp_device_t d, plain;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_LOAD);
    gp_op_cost_t c4, c16, p4, p16;
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.l1_uniform_hit_cycles > d.l1_hit_cycles && d.l1_uniform_issue_cycles > 0);
    op.space = GP_SPACE_GLOBAL;
    op.access.elem_bytes = 4;
    op.access.pattern = GP_PATTERN_BROADCAST;
    op.access.buffer = 0;
    op.access.footprint_bytes = 8192;
    assert_int_equal(cost(&d, g, &op, 8, &c4, msg, sizeof msg), 0);
    op.access.elem_bytes = 16;
    assert_int_equal(cost(&d, g, &op, 8, &c16, msg, sizeof msg), 0);
    plain = d;
    plain.l1_uniform_hit_cycles = plain.l1_uniform_word_cycles = 0;
    plain.l1_uniform_issue_cycles = 0;
    assert_int_equal(cost(&plain, g, &op, 8, &p16, msg, sizeof msg), 0);
    op.access.elem_bytes = 4;
    assert_int_equal(cost(&plain, g, &op, 8, &p4, msg, sizeof msg), 0);
    assert_true(c4.l1_hit >= 0.5); /* GP_BROADCAST_MIN_HIT: the other warps hit */
    assert_true(fabs((c4.latency_cycles - p4.latency_cycles) -
                     c4.l1_hit * (d.l1_uniform_hit_cycles - d.l1_hit_cycles)) < 1e-9);
    assert_true(fabs((c16.latency_cycles - p16.latency_cycles) -
                     c16.l1_hit * (d.l1_uniform_hit_cycles + 3 * d.l1_uniform_word_cycles -
                                   d.l1_hit_cycles)) < 1e-9);
    assert_true(fabs(c4.pipe_cycles[GP_PIPE_L1] - d.l1_uniform_issue_cycles) < 1e-9);
    assert_true(fabs(c16.pipe_cycles[GP_PIPE_L1] -
                     (d.l1_uniform_issue_cycles + 3 * d.l1_bank_pass_issue_cycles)) < 1e-9);
    assert_true(p4.pipe_cycles[GP_PIPE_L1] < d.l1_uniform_issue_cycles);
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

/* A shared 4-byte atomic of one sampled warp whose 32 lanes address `off`,
   over a footprint of `fp` bytes. */
static gp_op_t shared_atomic_of(gp_lane_sample_t *s, const int64_t *off, uint64_t fp)
{
    gp_op_t op = op_of(GP_OP_ATOMIC);
    sample_init(s, off, 1, fp, 0);
    s->warp_footprint_bytes = s->block_footprint_bytes = fp;
    op.space = GP_SPACE_SHARED;
    op.access.elem_bytes = 4;
    op.access.sample = s;
    return op;
}

/* A shared atomicAdd of a run-time value: the lanes on one word update it
   one after another, so the most lanes on one word set the cost (run3
   calibrate_raw atomic_shared u32_add), not the lanes that share a word
   with another: 16 pairs cost one conflict, not sixteen. An increment by a
   constant whose result is used needs each lane's old value: the same
   ATOMS.ADD, not the flat ATOMS.POPC.INC. */
static void test_shared_atomic_most(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op;
    gp_op_cost_t c, inc;
    gp_lane_sample_t s;
    int64_t off[32];
    char msg[256];
    uint32_t j;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    for (j = 0; j < 32; j++)
        off[j] = (int64_t)(j / 2) * 4; /* two lanes per word */
    op = shared_atomic_of(&s, off, 64);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] -
                     (d.shared_atomic_cycles + d.shared_atomic_conflict_cycles)) < 1e-9);
    op.access.atomic_op = GP_ATOMIC_OP_INC;
    assert_int_equal(cost(&d, g, &op, 8, &inc, msg, sizeof msg), 0);
    assert_true(fabs(inc.pipe_cycles[GP_PIPE_SHARED] - d.shared_atomic_inc_cycles) < 1e-9);
    op.access.atomic_flags = GP_ATOMIC_RESULT;
    assert_int_equal(cost(&d, g, &op, 8, &inc, msg, sizeof msg), 0);
    assert_true(fabs(inc.pipe_cycles[GP_PIPE_SHARED] - c.pipe_cycles[GP_PIPE_SHARED]) < 1e-9);
}

/* Lanes of a shared atomic on different words of one bank queue as lanes on
   one word do (run47/shist): an ATOMS.ADD of 32 lanes on words 32 apart
   (one bank, 32 words) takes the 32 passes of 32 lanes on one word, and an
   ATOMS.POPC.INC a pass per distinct word of the bank (the lanes on one word
   still add in one); 32 consecutive words, one per bank, take one pass
   either way. */
static void test_shared_atomic_banks(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op;
    gp_op_cost_t c;
    gp_lane_sample_t s;
    int64_t off[32];
    char msg[256];
    uint32_t j;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    for (j = 0; j < 32; j++)
        off[j] = (int64_t)j * 128; /* bank 0, 32 words */
    op = shared_atomic_of(&s, off, 32 * 128);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] -
                     (d.shared_atomic_cycles + 31 * d.shared_atomic_conflict_cycles)) < 1e-9);
    op.access.atomic_op = GP_ATOMIC_OP_INC;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] -
                     (d.shared_atomic_inc_cycles + 31 * d.shared_atomic_conflict_cycles)) < 1e-9);
    for (j = 0; j < 32; j++)
        off[j] = (int64_t)(j % 4) * 128; /* bank 0, 4 words, 8 lanes on each */
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] -
                     (d.shared_atomic_inc_cycles + 3 * d.shared_atomic_conflict_cycles)) < 1e-9);
    for (j = 0; j < 32; j++)
        off[j] = (int64_t)j * 4; /* one word a bank */
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] - d.shared_atomic_inc_cycles) < 1e-9);
    op.access.atomic_op = GP_ATOMIC_OP_ADD;
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] - d.shared_atomic_cycles) < 1e-9);
}

/* An address that comes from data is never aggregated: a warp whose lanes
   all name one word costs 32 updates of that word, what `bins = 1` costs,
   far more than the one aggregated atomic the same uniform address costs
   when the compiler can see it. */
static void test_atomic_from_data(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_ATOMIC);
    gp_op_cost_t agg, data, bins;
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    op.space = GP_SPACE_GLOBAL;
    op.access.elem_bytes = 4;
    op.access.footprint_bytes = 4;
    op.access.atomic_op = GP_ATOMIC_OP_INC;
    op.access.atomic_scope = GP_ATOMIC_SAME;
    assert_int_equal(cost(&d, g, &op, 8, &agg, msg, sizeof msg), 0);
    op.access.atomic_flags = GP_ATOMIC_FROM_DATA;
    assert_int_equal(cost(&d, g, &op, 8, &data, msg, sizeof msg), 0);
    op.access.atomic_flags = 0;
    op.access.atomic_scope = GP_ATOMIC_DISTINCT;
    op.access.bins = 1;
    assert_int_equal(cost(&d, g, &op, 8, &bins, msg, sizeof msg), 0);
    assert_true(fabs(data.l2_bytes - bins.l2_bytes) < 1e-9 * bins.l2_bytes);
    assert_true(data.l2_bytes > 20 * agg.l2_bytes);
}

/* A used result (ATOM) sends a sector back per serialised update step: 32
   lanes on one word, 32 sectors; an aggregated atomic's one lane, one. The
   op after it waits for it; after a RED it does not. */
static void test_atomic_result(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_ATOMIC), fma = op_of(GP_OP_FP32);
    gp_op_cost_t red, atom;
    char msg[256];
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    op.space = GP_SPACE_GLOBAL;
    op.access.elem_bytes = 4;
    op.access.footprint_bytes = 4;
    op.access.atomic_op = GP_ATOMIC_OP_INC;
    op.access.bins = 1;
    assert_int_equal(cost(&d, g, &op, 8, &red, msg, sizeof msg), 0);
    assert_int_equal(gp_atomic_waits(&d, &op), 0);
    op.access.atomic_flags = GP_ATOMIC_RESULT;
    assert_int_equal(cost(&d, g, &op, 8, &atom, msg, sizeof msg), 0);
    assert_int_equal(gp_atomic_waits(&d, &op), 1);
    assert_true(fabs(atom.l2_bytes - red.l2_bytes - 32 * d.sector_bytes) < 1e-6);
    op.access.bins = 0;
    op.access.atomic_scope = GP_ATOMIC_SAME; /* aggregated: one lane's value */
    op.access.atomic_flags = 0;
    assert_int_equal(cost(&d, g, &op, 8, &red, msg, sizeof msg), 0);
    op.access.atomic_flags = GP_ATOMIC_RESULT;
    assert_int_equal(cost(&d, g, &op, 8, &atom, msg, sizeof msg), 0);
    assert_true(fabs(atom.l2_bytes - red.l2_bytes - d.sector_bytes) < 1e-6);
    assert_int_equal(gp_atomic_waits(&d, &fma), 0);
}

/* A shared float add is a compare-and-swap loop: 32 lanes of every warp of
   a block on one word take 256 turns, 32 writing (shared_cas_cycles) and
   224 failing (shared_cas_fail_cycles), each issuing the loop's
   instructions and waiting its read, add, swap and branch; a bin every
   lane draws (`bins = 1`) costs the same. Lanes on words of their own take
   one turn at the bank passes; without the device keys the op costs what a
   shared atomic costs, and it does not wait. */
static void test_shared_cas_loop(void **state)
{
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t op = op_of(GP_OP_ATOMIC);
    gp_op_cost_t c, b;
    char msg[256];
    double iter;
    (void)state;
    open_dev("h200-sxm", &d, &a, &g);
    assert_true(d.shared_cas_cycles > 0 && d.shared_cas_fail_cycles > 0);
    iter = 3 * d.shared_memory_cycles + d.fp32_cycles + d.branch_cycles;
    op.space = GP_SPACE_SHARED;
    op.access.elem_bytes = 4;
    op.access.atomic_op = GP_ATOMIC_OP_FADD;
    op.access.atomic_scope = GP_ATOMIC_SAME;
    assert_int_equal(gp_atomic_waits(&d, &op), 1);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] -
                     (32 * d.shared_cas_cycles + 224 * d.shared_cas_fail_cycles)) < 1e-9);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_ISSUE] - gp_issue_cycles(g, &d, &op) * (2 + 5 * 256)) <
                1e-9);
    assert_true(fabs(c.latency_cycles - 256 * iter) < 1e-6);
    op.access.atomic_scope = GP_ATOMIC_DISTINCT;
    op.access.bins = 1;
    assert_int_equal(cost(&d, g, &op, 8, &b, msg, sizeof msg), 0);
    assert_true(fabs(b.pipe_cycles[GP_PIPE_SHARED] - c.pipe_cycles[GP_PIPE_SHARED]) < 1e-9);
    op.access.bins = 0; /* every lane its own word, far from the others' */
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] - d.shared_cas_cycles) < 1e-3);
    assert_true(fabs(c.latency_cycles - iter) < 1e-3 * iter);
    d.shared_cas_cycles = 0;
    assert_int_equal(gp_atomic_waits(&d, &op), 0);
    assert_int_equal(cost(&d, g, &op, 8, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_SHARED] - d.shared_atomic_cycles) < 1e-9);
}

/* ------------------------------------------------------------ partial sectors */

/* K scalar accesses per thread, v[i] = buf[K t + i]: `n` ops of `kind` (the
   last `n_other` of them on buffer 1), op i's lanes at (K t + i) * elem
   bytes, sampled as the index sampler does, at 3 instances of an H200 launch
   of 4096 blocks of 256 threads: warp 0, warp 1 (the warp axis first), then
   block 1; with `loop`, one op in a loop of K trips (element t K + k at
   iteration k) whose instance 2 is iteration 1 of warp 0 instead. */
typedef struct sib_fix {
    gp_device_t d;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_kernel_t k;
    gp_op_t ops[9];
    gp_lane_sample_t s[8];
    int64_t off[8][3 * 32];
    gp_occupancy_t o;
    gp_residency_t r;
} sib_fix_t;

static void sib_setup(sib_fix_t *f, uint32_t kind, uint32_t K, uint32_t elem, uint32_t n,
                      uint32_t n_other, int loop)
{
    const uint64_t threads = 4096ull * 256;
    static const uint32_t first_thread[3] = {0, 32, 256}; /* warp 0, warp 1, block 1 */
    uint32_t i, w, l, first = loop ? 1 : 0;
    memset(f, 0, sizeof *f);
    open_dev("h200-sxm", &f->d, &f->a, &f->g);
    if (loop) {
        f->ops[0] = op_of(GP_OP_LOOP);
        f->ops[0].count = K;
        f->ops[0].body_len = 1;
        n = 1;
    }
    for (i = 0; i < n; i++) {
        gp_op_t *op = &f->ops[first + i];
        gp_lane_sample_t *s = &f->s[i];
        *op = op_of(kind);
        op->space = GP_SPACE_GLOBAL;
        op->access.elem_bytes = elem;
        op->access.buffer = i >= n - n_other ? 1 : 0;
        op->access.footprint_bytes = threads * K * elem;
        op->access.sample = s;
        s->n_warps = 3;
        s->lanes = 32;
        s->byte_offset = f->off[i];
        s->warp_footprint_bytes = 32ull * K * elem;
        s->block_footprint_bytes = 256ull * K * elem;
        s->grid_footprint_bytes = threads * K * elem;
        s->next_iteration = loop ? 2 : 0;
        for (w = 0; w < 3; w++)
            for (l = 0; l < 32; l++) {
                uint64_t t = (loop && w == 2 ? 0 : first_thread[w]) + l;
                uint32_t e = loop ? (w == 2 ? 1 : 0) : i; /* the element of the thread */
                f->off[i][w * 32 + l] = (int64_t)((K * t + e) * elem);
            }
    }
    f->k.name = "k";
    f->k.launch.threads_per_block = 256;
    f->k.launch.block.x = 256;
    f->k.launch.grid.x = 4096;
    f->k.total_blocks = 4096;
    f->k.ops = f->ops;
    f->k.n_ops = first + n;
    f->o.warps_per_block = 8;
    f->o.blocks_per_sm = 8;
    f->o.active_warps = 64;
    f->o.max_warps = 64;
    f->o.l1_bytes_available = 256 * 1024;
    f->r.blocks = 8;
    f->r.active_sms = f->d.sm_count;
    f->r.dram_share = f->r.l2_share = 1.0 / f->d.sm_count;
}

static gp_op_cost_t sib_cost(sib_fix_t *f, uint32_t i)
{
    gp_op_cost_t c;
    char msg[256] = "";
    memset(&c, 0, sizeof c);
    if (gp_op_cost_default(f->g, &f->d, &f->k, &f->ops[i], &f->o, &f->r, &c, msg, sizeof msg))
        fail_msg("%s", msg);
    return c;
}

/* Four scalar stores per thread, 4 bytes each, K t + i: each instruction
   touches 16 sectors (512 bytes) and writes 4 bytes of every 16; the L2
   merges the four before DRAM, which sees the 512 bytes once: 128 per
   instruction, not 512. */
static void test_sibling_stores_merge(void **state)
{
    sib_fix_t f;
    gp_op_cost_t c, alone;
    double sum = 0;
    uint32_t i;
    (void)state;
    sib_setup(&f, GP_OP_STORE, 4, 4, 1, 0, 0);
    alone = sib_cost(&f, 0);
    assert_true(fabs(alone.transactions - 16) < 1e-9);
    assert_true(fabs(alone.dram_bytes - 512) < 1e-6);
    sib_setup(&f, GP_OP_STORE, 4, 4, 4, 0, 0);
    for (i = 0; i < 4; i++) {
        c = sib_cost(&f, i);
        assert_true(fabs(c.transactions - 16) < 1e-9); /* the instruction is unchanged */
        sum += c.dram_bytes;
    }
    assert_true(fabs(sum - 512) < 1e-6);
    /* 8-byte elements, two per thread: 16 sectors, each half written by
       each instruction */
    sib_setup(&f, GP_OP_STORE, 2, 8, 2, 0, 0);
    c = sib_cost(&f, 1);
    assert_true(fabs(c.transactions - 16) < 1e-9);
    assert_true(fabs(c.dram_bytes - 256) < 1e-6);
}

/* The group answers opcost.c remembers (sector_use, buffer_footprint) are
   keyed by what decides them, not by where the kernel lies: the same
   fixture with each sibling's offsets moved 4 KiB apart (its own sectors,
   nothing merged) costs each store its 512 bytes, and moved back the four
   merge to 128 again. */
static void test_sibling_memo_follows_offsets(void **state)
{
    sib_fix_t f;
    gp_op_cost_t c;
    uint32_t i, j;
    (void)state;
    sib_setup(&f, GP_OP_STORE, 4, 4, 4, 0, 0);
    c = sib_cost(&f, 0);
    assert_true(fabs(c.dram_bytes - 128) < 1e-6);
    for (i = 1; i < 4; i++)
        for (j = 0; j < 3 * 32; j++)
            f.off[i][j] += 4096 * (int64_t)i;
    c = sib_cost(&f, 0);
    assert_true(fabs(c.dram_bytes - 512) < 1e-6);
    for (i = 1; i < 4; i++)
        for (j = 0; j < 3 * 32; j++)
            f.off[i][j] -= 4096 * (int64_t)i;
    c = sib_cost(&f, 0);
    assert_true(fabs(c.dram_bytes - 128) < 1e-6);
}

/* Stores to another buffer complete nothing: the same offsets in buffer 1
   leave each store its full sectors. */
static void test_sibling_stores_other_buffer(void **state)
{
    sib_fix_t f;
    gp_op_cost_t c;
    (void)state;
    sib_setup(&f, GP_OP_STORE, 2, 4, 2, 1, 0); /* op 0 on buffer 0, op 1 on buffer 1 */
    c = sib_cost(&f, 0);
    assert_true(fabs(c.dram_bytes - 256) < 1e-6);
    c = sib_cost(&f, 1);
    assert_true(fabs(c.dram_bytes - 256) < 1e-6);
}

/* A loop of K = 4 trips whose next iteration writes the next 4 bytes of the
   same sectors: the L2 merges the four iterations as it merges four ops. */
static void test_loop_stores_merge(void **state)
{
    sib_fix_t f;
    gp_op_cost_t c;
    (void)state;
    sib_setup(&f, GP_OP_STORE, 4, 4, 1, 0, 1);
    c = sib_cost(&f, 1);
    assert_true(fabs(c.dram_bytes - 128) < 1e-6);
}

/* Four scalar loads per thread: the first of the warp to a sector brings it
   from DRAM into L1, the other three hit it there; L2 and DRAM move the
   512 bytes of the four instructions' sectors once. */
static void test_sibling_loads_hit_l1(void **state)
{
    sib_fix_t f;
    gp_op_cost_t c;
    double l1 = 0, l2 = 0, dram = 0;
    uint32_t i;
    (void)state;
    sib_setup(&f, GP_OP_LOAD, 4, 4, 4, 0, 0);
    for (i = 0; i < 4; i++) {
        c = sib_cost(&f, i);
        l1 += c.l1_bytes;
        l2 += c.l2_bytes;
        dram += c.dram_bytes;
    }
    assert_true(fabs(dram - 512) < 1e-6);
    assert_true(fabs(l2 - 512) < 1e-6);
    assert_true(fabs(l1 - 3 * 512) < 1e-6);
}

/* A store into bytes an earlier launch left in the L2 (write back) stays
   there: no DRAM traffic; the same store cold writes its sectors. */
static void test_store_into_warm_l2(void **state)
{
    sib_fix_t f;
    gp_op_cost_t c;
    uint64_t warm[2];
    (void)state;
    sib_setup(&f, GP_OP_STORE, 1, 4, 1, 0, 0);
    c = sib_cost(&f, 0);
    assert_true(fabs(c.dram_bytes - 128) < 1e-6);
    warm[0] = f.ops[0].access.footprint_bytes;
    warm[1] = 0;
    f.k.l2_warm_bytes = warm;
    f.k.n_buffers = 2;
    c = sib_cost(&f, 0);
    assert_true(c.dram_bytes < 1e-9);
    assert_true(fabs(c.l2_bytes - 128) < 1e-6);
}

/* The store path: each store instruction holds it for a request per sector
   plus one per line it writes partly, 32 bytes each at the card's rate;
   four consecutive scalar stores of 4 bytes (4 lines an instruction) merge
   into whole sectors, eight of 4 bytes (8 lines) do not. */
static void test_store_path_requests(void **state)
{
    sib_fix_t f;
    gp_op_cost_t c;
    double rate;
    (void)state;
    sib_setup(&f, GP_OP_STORE, 4, 4, 4, 0, 0);
    rate = f.d.l1_store_bytes_per_cycle;
    assert_true(rate > 0);
    c = sib_cost(&f, 0); /* 16 sectors x 4 instructions merged into 16 */
    assert_true(fabs(c.store_cycles - 4 * 32 / rate) < 1e-9);
    sib_setup(&f, GP_OP_STORE, 8, 4, 8, 0, 0);
    c = sib_cost(&f, 3); /* 32 sectors, each written partly, in 8 lines */
    assert_true(fabs(c.store_cycles - (32 + 8) * 32 / rate) < 1e-9);
    assert_true(fabs(c.dram_bytes - 1024 / 8.0) < 1e-6); /* still merged in L2 */
    sib_setup(&f, GP_OP_STORE, 1, 4, 1, 0, 0);
    c = sib_cost(&f, 0); /* a whole-sector store: 4 requests */
    assert_true(fabs(c.store_cycles - 4 * 32 / rate) < 1e-9);
    f.d.l1_store_bytes_per_cycle = 0; /* not measured: no store path */
    c = sib_cost(&f, 0);
    assert_true(c.store_cycles == 0);
    /* a load or a barrier between the stores breaks the run: no merge */
    sib_setup(&f, GP_OP_STORE, 4, 4, 4, 0, 0);
    f.ops[4] = f.ops[3];
    f.ops[3] = op_of(GP_OP_BARRIER);
    f.k.n_ops = 5;
    c = sib_cost(&f, 0);
    assert_true(fabs(c.store_cycles - (16 + 4) * 32 / f.d.l1_store_bytes_per_cycle) < 1e-9);
    assert_true(fabs(c.dram_bytes - 128) < 1e-6); /* the L2 merges them all the same */
}

/* ops[at..] of f move up one place and ops[at] becomes `op` (the kernel
   gains an op before them). */
static void sib_insert(sib_fix_t *f, uint32_t at, gp_op_t op)
{
    uint32_t i;
    for (i = f->k.n_ops; i > at; i--)
        f->ops[i] = f->ops[i - 1];
    f->ops[at] = op;
    f->k.n_ops++;
}

/* Four scalar stores of 4 bytes (4 lines an instruction) right after a
   barrier: the block's 8 warps store at once and the SM merges
   GP_STORE_MERGE_BURST_LINES of their 32 lines; the rest leave as a request
   per sector and partial line. A block of 4 warps merges them all, and so
   do stores after a barrier and a global load (the warps drift apart) or
   after a loop of no trip whose body ends with the barrier; inside a loop,
   the barrier that ends the body's previous trip counts. */
static void test_store_burst_after_barrier(void **state)
{
    sib_fix_t f;
    gp_op_cost_t c;
    double rate, burst, merged, m = GP_STORE_MERGE_BURST_LINES / (8 * 4);
    gp_op_t ld;
    (void)state;
    assert_true(m < 1);
    sib_setup(&f, GP_OP_STORE, 4, 4, 4, 0, 0);
    rate = f.d.l1_store_bytes_per_cycle;
    /* the store path's cycles with the burst (m of the 32 lines merged, the
       rest a request per sector and partial line) and with every line merged */
    burst = (m * 4 + (1 - m) * (16 + 4)) * 32 / rate;
    merged = 4 * 32 / rate;
    sib_insert(&f, 0, op_of(GP_OP_BARRIER));
    c = sib_cost(&f, 1);
    assert_true(fabs(c.store_cycles - burst) < 1e-9);
    assert_true(fabs(c.dram_bytes - 128) < 1e-6); /* the L2 merges them all the same */
    f.k.launch.threads_per_block = 128; /* 4 warps: 16 lines, all merged */
    c = sib_cost(&f, 1);
    assert_true(fabs(c.store_cycles - merged) < 1e-9);
    /* a global load between the barrier and the stores */
    sib_setup(&f, GP_OP_STORE, 4, 4, 4, 0, 0);
    ld = f.ops[0];
    ld.kind = GP_OP_LOAD;
    ld.access.buffer = 1;
    sib_insert(&f, 0, ld);
    sib_insert(&f, 0, op_of(GP_OP_BARRIER));
    c = sib_cost(&f, 2);
    assert_true(fabs(c.store_cycles - merged) < 1e-9);
    /* the barrier inside a loop before them: burst when it runs, none when
       the loop has no trip */
    sib_setup(&f, GP_OP_STORE, 4, 4, 4, 0, 0);
    sib_insert(&f, 0, op_of(GP_OP_BARRIER));
    sib_insert(&f, 0, op_of(GP_OP_LOOP));
    f.ops[0].count = 2;
    f.ops[0].body_len = 1;
    c = sib_cost(&f, 2);
    assert_true(fabs(c.store_cycles - burst) < 1e-9);
    f.ops[0].count = 0;
    c = sib_cost(&f, 2);
    assert_true(fabs(c.store_cycles - merged) < 1e-9);
    /* stores at the start of a loop body that ends with the barrier: every
       trip but the first follows the previous one's barrier; a loop of one
       trip has none before its stores */
    sib_setup(&f, GP_OP_STORE, 4, 4, 4, 0, 0);
    sib_insert(&f, 4, op_of(GP_OP_BARRIER));
    sib_insert(&f, 0, op_of(GP_OP_LOOP));
    f.ops[0].count = 2;
    f.ops[0].body_len = 5;
    c = sib_cost(&f, 1);
    assert_true(fabs(c.store_cycles - burst) < 1e-9);
    f.ops[0].count = 1;
    c = sib_cost(&f, 1);
    assert_true(fabs(c.store_cycles - merged) < 1e-9);
}

/* Four scalar loads of a thread's consecutive bytes (a line a request):
   the first computes its address and the L1 returns its line at
   l1_load_bytes_per_cycle; the other three are addressed at immediate
   offsets from its register and come at a line a clock. A lone load keeps
   the measured rate. Requests of four lines (consecutive words) take a
   line a clock either way: the first's arithmetic is the instruction's,
   under its lines' time. */
static void test_offset_sibling_l1_rate(void **state)
{
    sib_fix_t f;
    gp_op_cost_t first, next;
    double lines;
    (void)state;
    sib_setup(&f, GP_OP_LOAD, 4, 1, 4, 0, 0);
    assert_true(f.d.l1_load_bytes_per_cycle > 0 &&
                f.d.l1_load_bytes_per_cycle < f.d.l1_line_bytes);
    first = sib_cost(&f, 0);
    next = sib_cost(&f, 2);
    lines = first.pipe_cycles[GP_PIPE_L1] * f.d.l1_load_bytes_per_cycle / f.d.l1_line_bytes;
    assert_true(lines > 0);
    assert_true(fabs(next.pipe_cycles[GP_PIPE_L1] - lines) < 1e-9);
    /* op 0 alone on buffer 0, ops 1..3 on buffer 1: op 1 is the first of
       its buffer's loads and pays the measured rate like op 0 */
    sib_setup(&f, GP_OP_LOAD, 4, 1, 4, 3, 0);
    first = sib_cost(&f, 0);
    assert_true(fabs(first.pipe_cycles[GP_PIPE_L1] - lines * f.d.l1_line_bytes /
                                                         f.d.l1_load_bytes_per_cycle) < 1e-9);
    next = sib_cost(&f, 1);
    assert_true(fabs(next.pipe_cycles[GP_PIPE_L1] - first.pipe_cycles[GP_PIPE_L1]) < 1e-9);
    next = sib_cost(&f, 3);
    assert_true(fabs(next.pipe_cycles[GP_PIPE_L1] - lines) < 1e-9);
    /* four lines a request: a line a clock, the first as its siblings */
    sib_setup(&f, GP_OP_LOAD, 4, 4, 4, 0, 0);
    first = sib_cost(&f, 0);
    next = sib_cost(&f, 2);
    assert_true(fabs(first.pipe_cycles[GP_PIPE_L1] - 4) < 1e-9);
    assert_true(fabs(next.pipe_cycles[GP_PIPE_L1] - 4) < 1e-9);
}

/* One lane per warp stores a word, the next warp the next word (a warp
   reduction's result): the block's 8 warps complete each sector, so DRAM
   sees an eighth of a sector per instruction, not a sector. */
static void test_block_completes_stores(void **state)
{
    sib_fix_t f;
    gp_op_cost_t c;
    uint32_t w, l;
    (void)state;
    sib_setup(&f, GP_OP_STORE, 1, 4, 1, 0, 0);
    for (w = 0; w < 3; w++)
        for (l = 0; l < 32; l++)
            f.off[0][w * 32 + l] = l == 0 ? (int64_t)(4 * (w == 2 ? 8 : w)) : -1;
    f.s[0].grid_footprint_bytes = f.ops[0].access.footprint_bytes = 4096 * 8 * 4;
    c = sib_cost(&f, 0);
    assert_true(fabs(c.dram_bytes - 64 / 8.0) < 1e-6); /* a 64-byte granule over 8 warps */
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
        cmocka_unit_test(test_atomic_sector_steps),
        cmocka_unit_test(test_atomic_bins_units),
        cmocka_unit_test(test_atomic_aggregated_share),
        cmocka_unit_test(test_shared_wide_broadcast),
        cmocka_unit_test(test_atomic_uniform),
        cmocka_unit_test(test_shared_atomic_inc),
        cmocka_unit_test(test_shared_atomic_int_share),
        cmocka_unit_test(test_atomic_idle_warps),
        cmocka_unit_test(test_shared_atomic_most),
        cmocka_unit_test(test_shared_atomic_banks),
        cmocka_unit_test(test_atomic_from_data),
        cmocka_unit_test(test_atomic_result),
        cmocka_unit_test(test_shared_cas_loop),
        cmocka_unit_test(test_l1_load_rate),
        cmocka_unit_test(test_global_load_issue),
        cmocka_unit_test(test_uniform_load),
        cmocka_unit_test(test_sibling_stores_merge),
        cmocka_unit_test(test_sibling_stores_other_buffer),
        cmocka_unit_test(test_sibling_memo_follows_offsets),
        cmocka_unit_test(test_loop_stores_merge),
        cmocka_unit_test(test_sibling_loads_hit_l1),
        cmocka_unit_test(test_store_into_warm_l2),
        cmocka_unit_test(test_drawn_stores),
        cmocka_unit_test(test_drawn_store_group),
        cmocka_unit_test(test_drawn_load_group),
        cmocka_unit_test(test_atomic_hot_line),
        cmocka_unit_test(test_request_tlb_wait),
        cmocka_unit_test(test_tlb_dram_bytes),
        cmocka_unit_test(test_slowest_sm_latency),
        cmocka_unit_test(test_sfu_call_latency),
        cmocka_unit_test(test_store_path_requests),
        cmocka_unit_test(test_block_completes_stores),
        cmocka_unit_test(test_store_burst_after_barrier),
        cmocka_unit_test(test_offset_sibling_l1_rate),
        cmocka_unit_test(test_read_request_time),
        cmocka_unit_test(test_gather_first_touches),
        cmocka_unit_test(test_drawn_l2_granules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
