/*
 * test_plugin_tesla.c - the tesla plugin (compute capability 1.0-1.3): the
 * occupancy calculator's 1.x rules, half-warp coalescing under both rule
 * sets, shared-memory bank conflicts per half-warp with one broadcast word,
 * the constant cache, divergence, the 1.x feature limits and the device-file
 * checks.
 */
#include "test_common.h"

#include <math.h>

#include "arch.h"
#include "device.h"
#include "script.h"
#include "workload.h"

static gp_device_t g_g80;   /* geforce-8800-gtx, 1.0 */
static gp_device_t g_gt200; /* tesla-c1060, 1.3 */
static const gp_arch_t *g_arch;

static int setup(void **state)
{
    gp_err_t err;
    const gp_arch_t *other;
    (void)state;
    if (gp_device_open("geforce-8800-gtx", &g_g80, &g_arch, &err) ||
        gp_device_open("tesla-c1060", &g_gt200, &other, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return other == g_arch ? 0 : -1;
}

/* A launch of `threads` threads per block, 1-D. */
static gp_launch_t launch_of(uint32_t threads, uint32_t regs, uint64_t smem)
{
    gp_launch_t l;
    memset(&l, 0, sizeof l);
    l.block.x = threads;
    l.block.y = l.block.z = 1;
    l.grid.x = 1024;
    l.grid.y = l.grid.z = 1;
    l.threads_per_block = threads;
    l.regs_per_thread = regs;
    l.static_smem_bytes = smem;
    l.carveout_percent = -1;
    return l;
}

static gp_occupancy_t occ_on(const gp_device_t *d, uint32_t threads, uint32_t regs,
                             uint64_t smem)
{
    gp_launch_t l = launch_of(threads, regs, smem);
    gp_occupancy_t o;
    gp_err_t err;
    if (gp_arch_occupancy(g_arch, d, &l, &o, &err))
        fail_msg("%s", err.msg);
    return o;
}

/* A worked example of the spreadsheet formula ([sources: xls-m]): CC 1.3, 128 threads,
   17 registers, no shared memory. The spreadsheet rounds the block's 2176
   registers up to 2560: 6 blocks, 24 warps, 75 %. PyCUDA does not round and
   would say 7 blocks (87.5 %); the plugin follows the spreadsheet. */
static void test_worked_example(void **state)
{
    gp_occupancy_t o = occ_on(&g_gt200, 128, 17, 0);
    uint32_t pycuda_blocks = g_gt200.registers_per_sm / (4 * 32 * 17);
    (void)state;
    assert_int_equal(o.regs_per_block_allocated, 2560);
    assert_int_equal(o.blocks_per_sm, 6);
    assert_int_equal(o.active_warps, 24);
    assert_int_equal(o.max_warps, 32);
    assert_true(fabs(o.occupancy - 0.75) < 1e-12);
    assert_int_equal(o.limiter, GP_LIMIT_REGISTERS);
    assert_int_equal(pycuda_blocks, 7);
    assert_true(o.blocks_per_sm != pycuda_blocks);
}

/* Occupancy vectors computed with the spreadsheet formula ([sources: xls-m]). */
static void test_occupancy_vectors(void **state)
{
    static const struct {
        int gt200;
        uint32_t threads, regs;
        uint64_t smem;
        uint32_t blocks, regs_alloc, limiter;
    } v[] = {
        /* 1.0: 8192 registers in units of 256, 24 warps */
        {0, 256, 10, 0, 3, 2560, GP_LIMIT_WARPS},      /* 100 % */
        {0, 128, 16, 0, 4, 2048, GP_LIMIT_REGISTERS},  /* 16 of 24 warps */
        {0, 96, 20, 0, 3, 2560, GP_LIMIT_REGISTERS},   /* 3 warps count as 4 */
        {0, 96, 21, 0, 2, 2816, GP_LIMIT_REGISTERS},   /* 2688 -> 2816 */
        {0, 64, 8, 4000, 4, 512, GP_LIMIT_SHARED_MEMORY}, /* 4000 -> 4096 bytes */
        {0, 32, 4, 0, 8, 256, GP_LIMIT_BLOCKS},        /* 1 warp counts as 2 */
        {0, 512, 16, 0, 1, 8192, GP_LIMIT_WARPS},
        {0, 384, 10, 0, 2, 3840, GP_LIMIT_WARPS},
        /* 1.3: 16384 registers in units of 512, 32 warps */
        {1, 256, 16, 0, 4, 4096, GP_LIMIT_WARPS},
        {1, 256, 17, 0, 3, 4608, GP_LIMIT_REGISTERS},  /* 4352 -> 4608 */
        {1, 192, 20, 0, 4, 4096, GP_LIMIT_REGISTERS},  /* 3840 -> 4096 */
        {1, 64, 124, 0, 2, 8192, GP_LIMIT_REGISTERS},  /* 7936 -> 8192 */
        {1, 128, 8, 0, 8, 1024, GP_LIMIT_WARPS},       /* warps and blocks both 8 */
        {1, 64, 8, 0, 8, 512, GP_LIMIT_BLOCKS},
        {1, 128, 8, 8193, 1, 1024, GP_LIMIT_SHARED_MEMORY}, /* 8704 bytes */
        {1, 128, 8, 16384, 1, 1024, GP_LIMIT_SHARED_MEMORY},
        {1, 32, 10, 2048, 8, 1024, GP_LIMIT_SHARED_MEMORY}, /* smem and blocks: 8 */
    };
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(v); i++) {
        gp_occupancy_t o = occ_on(v[i].gt200 ? &g_gt200 : &g_g80, v[i].threads, v[i].regs,
                                  v[i].smem);
        if (o.blocks_per_sm != v[i].blocks || o.regs_per_block_allocated != v[i].regs_alloc ||
            o.limiter != v[i].limiter)
            fail_msg("vector %zu (%u threads, %u regs, %llu smem): %u blocks, %u registers, "
                     "limiter %u; want %u, %u, %u",
                     i, v[i].threads, v[i].regs, (unsigned long long)v[i].smem,
                     o.blocks_per_sm, o.regs_per_block_allocated, o.limiter, v[i].blocks,
                     v[i].regs_alloc, v[i].limiter);
    }
}

/* 1.1 allocates like 1.0 and 1.2 like 1.3 (XLS). */
static void test_occupancy_minor_versions(void **state)
{
    gp_device_t d11 = g_g80, d12 = g_gt200;
    gp_device_t d12_small = g_g80; /* 1.0's 8192 registers, 1.2's unit of 512 */
    (void)state;
    d11.cc_minor = 1;
    d12.cc_minor = 2;
    d12_small.cc_minor = 2;
    assert_int_equal(occ_on(&d11, 96, 21, 0).regs_per_block_allocated, 2816);
    assert_int_equal(occ_on(&d12, 96, 21, 0).regs_per_block_allocated, 3072);
    /* 64 threads x 20 registers = 1280: 6 blocks in units of 256, 5 in 512 */
    assert_int_equal(occ_on(&g_g80, 64, 20, 0).blocks_per_sm, 6);
    assert_int_equal(occ_on(&d12_small, 64, 20, 0).blocks_per_sm, 5);
}

/* Launches a 1.x SM cannot run, and why. */
static void test_impossible_launches(void **state)
{
    gp_occupancy_t o;
    gp_launch_t l;
    gp_err_t err;
    (void)state;
    o = occ_on(&g_gt200, 513, 10, 0);
    assert_int_equal(o.blocks_per_sm, 0);
    assert_int_equal(o.limiter, GP_LIMIT_BLOCK_SIZE);
    assert_contains(o.detail, "513 threads per block exceed the maximum of 512 (by 1)");
    o = occ_on(&g_g80, 64, 125, 0);
    assert_int_equal(o.limiter, GP_LIMIT_REGS_PER_THREAD);
    assert_contains(o.detail, "125 registers per thread exceed the maximum of 124 (by 1)");
    o = occ_on(&g_gt200, 128, 8, 16385);
    assert_int_equal(o.limiter, GP_LIMIT_SMEM_PER_BLOCK);
    assert_contains(o.detail, "at most 16384");
    o = occ_on(&g_g80, 512, 17, 0); /* 16 warps x 32 x 17 = 8704 > 8192 */
    assert_int_equal(o.limiter, GP_LIMIT_REGS_PER_BLOCK);
    assert_contains(o.detail, "8704 registers");
    l = launch_of(64, 10, 0);
    l.grid.z = 2; /* 1.x grids are two-dimensional */
    assert_int_equal(gp_arch_occupancy(g_arch, &g_g80, &l, &o, &err), 0);
    assert_int_equal(o.limiter, GP_LIMIT_GRID);
    l = launch_of(64, 10, 0);
    l.block.x = 1;
    l.block.z = 64;
    l.threads_per_block = 64;
    assert_int_equal(gp_arch_occupancy(g_arch, &g_g80, &l, &o, &err), 0);
    assert_int_equal(o.blocks_per_sm, 8);
    l.block.x = 2;
    l.block.z = 65;
    l.threads_per_block = 130;
    assert_int_equal(gp_arch_occupancy(g_arch, &g_g80, &l, &o, &err), 0);
    assert_int_equal(o.limiter, GP_LIMIT_BLOCK_SIZE);
}

/* ------------------------------------------------------------ op costs */

/* A kernel of 1024 blocks of 256 threads holding one op. */
typedef struct one_op {
    gp_op_t op;
    gp_kernel_t k;
    gp_occupancy_t occ;
    gp_residency_t res;
} one_op_t;

static void one_op_init(one_op_t *x, const gp_device_t *d, uint32_t kind, uint32_t space)
{
    gp_err_t err;
    memset(x, 0, sizeof *x);
    x->op.kind = kind;
    x->op.space = space;
    x->op.count = 1;
    x->op.ilp = 1;
    x->op.access.elem_bytes = 4;
    x->op.access.pattern = GP_PATTERN_UNIT;
    x->op.access.footprint_bytes = 1u << 30;
    x->op.access.buffer = UINT32_MAX;
    x->k.name = "k";
    x->k.launch = launch_of(256, 16, 0);
    x->k.ops = &x->op;
    x->k.n_ops = 1;
    x->k.total_blocks = 1024;
    if (gp_arch_occupancy(g_arch, d, &x->k.launch, &x->occ, &err))
        fail_msg("%s", err.msg);
    x->res.blocks = x->occ.blocks_per_sm;
    x->res.warps_sm = x->occ.active_warps;
    x->res.active_sms = d->sm_count;
    x->res.dram_share = 1.0 / d->sm_count;
    x->res.l2_share = x->res.dram_share;
}

/* The plugin's cost of x's op on d; returns the callback's status and puts
   its message in msg. */
static int cost(one_op_t *x, const gp_device_t *d, gp_op_cost_t *c, char *msg, size_t len)
{
    memset(c, 0, sizeof *c);
    msg[0] = '\0';
    return gp_arch_call_op_cost(g_arch, d, &x->k, &x->op, &x->occ, &x->res, c, msg, len);
}

/* Transactions and DRAM bytes of one warp-wide global load. */
static void global_load(const gp_device_t *d, uint32_t elem, uint32_t pattern, int64_t stride,
                        int64_t offset, double *txn, double *bytes)
{
    one_op_t x;
    gp_op_cost_t c;
    char msg[256];
    one_op_init(&x, d, GP_OP_LOAD, GP_SPACE_GLOBAL);
    x.op.access.elem_bytes = elem;
    x.op.access.pattern = pattern;
    x.op.access.stride_elems = stride;
    x.op.access.offset_elems = offset;
    if (cost(&x, d, &c, msg, sizeof msg))
        fail_msg("%s", msg);
    assert_true(c.l1_bytes == 0 && c.l2_bytes == 0); /* nothing caches global memory */
    assert_true(c.latency_cycles == d->dram_cycles);
    *txn = c.transactions;
    *bytes = c.dram_bytes;
}

/* Coalescing of a warp (two half-warps) under both rule sets (PG42 F.3.2). */
static void test_coalescing(void **state)
{
    static const struct {
        uint32_t elem, pattern;
        int64_t stride, offset;
        double txn10, bytes10; /* strict 1.0/1.1 rule */
        double txn13, bytes13; /* 1.2/1.3 segments */
    } v[] = {
        /* aligned 32-bit words: one 64-byte segment per half-warp on 1.0, a
           128-byte segment halved to 64 on 1.3 */
        {4, GP_PATTERN_UNIT, 1, 0, 2, 128, 2, 128},
        /* misaligned by one word: 1.0 falls back to 16 x 32 bytes per
           half-warp; 1.3 needs 128, then 64 + 32 */
        {4, GP_PATTERN_UNIT, 1, 1, 32, 1024, 3, 224},
        /* permuted within the segment (thread k reads word 15 - k): 1.0
           refuses, 1.3 does not care about order */
        {4, GP_PATTERN_STRIDE, -1, 15, 32, 1024, 2, 128},
        /* stride 2: each half-warp spans 128 bytes */
        {4, GP_PATTERN_STRIDE, 2, 0, 32, 1024, 2, 256},
        /* stride 16 (64 bytes): two threads per 128-byte segment */
        {4, GP_PATTERN_STRIDE, 16, 0, 32, 1024, 16, 2048},
        /* stride 32: every thread alone in a segment shrunk to 32 bytes */
        {4, GP_PATTERN_STRIDE, 32, 0, 32, 1024, 32, 1024},
        /* 8-bit words never coalesce on 1.0; a 32-byte segment on 1.3 */
        {1, GP_PATTERN_UNIT, 1, 0, 32, 1024, 2, 64},
        /* 16-bit words: 1.3 uses 64-byte segments, shrunk to 32 */
        {2, GP_PATTERN_UNIT, 1, 0, 32, 1024, 2, 64},
        /* 64-bit words: one 128-byte segment per half-warp on both */
        {8, GP_PATTERN_UNIT, 1, 0, 2, 256, 2, 256},
        /* 64-bit words misaligned by one: strict fallback on 1.0 */
        {8, GP_PATTERN_UNIT, 1, 1, 32, 1024, 4, 320},
        /* 128-bit words: two 128-byte segments per half-warp */
        {16, GP_PATTERN_UNIT, 1, 0, 4, 512, 4, 512},
        /* one word for the whole warp: 1.0 serialises, 1.3 one segment */
        {4, GP_PATTERN_BROADCAST, 0, 5, 32, 1024, 2, 64},
    };
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(v); i++) {
        double t10, b10, t13, b13;
        global_load(&g_g80, v[i].elem, v[i].pattern, v[i].stride, v[i].offset, &t10, &b10);
        global_load(&g_gt200, v[i].elem, v[i].pattern, v[i].stride, v[i].offset, &t13, &b13);
        if (t10 != v[i].txn10 || b10 != v[i].bytes10 || t13 != v[i].txn13 ||
            b13 != v[i].bytes13)
            fail_msg("case %zu (%u-byte words, pattern %u, stride %lld, offset %lld): 1.0 %g "
                     "txn %g B, 1.3 %g txn %g B; want 1.0 %g/%g, 1.3 %g/%g",
                     i, v[i].elem, v[i].pattern, (long long)v[i].stride,
                     (long long)v[i].offset, t10, b10, t13, b13, v[i].txn10, v[i].bytes10,
                     v[i].txn13, v[i].bytes13);
    }
}

/* Local memory is uncached on 1.x: a spill goes to DRAM. */
static void test_local_uncached(void **state)
{
    one_op_t x;
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    one_op_init(&x, &g_gt200, GP_OP_LOAD, GP_SPACE_LOCAL);
    assert_int_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
    assert_true(c.l1_bytes == 0 && c.dram_bytes == 128);
    assert_true(c.latency_cycles == g_gt200.dram_cycles);
}

/* Passes of one warp-wide shared-memory load on d. */
static double shared_passes(const gp_device_t *d, uint32_t elem, uint32_t pattern,
                            int64_t stride, int64_t offset, double *latency, double *pipe)
{
    one_op_t x;
    gp_op_cost_t c;
    char msg[256];
    one_op_init(&x, d, GP_OP_LOAD, GP_SPACE_SHARED);
    x.op.access.elem_bytes = elem;
    x.op.access.pattern = pattern;
    x.op.access.stride_elems = stride;
    x.op.access.offset_elems = offset;
    x.op.access.footprint_bytes = 0;
    if (cost(&x, d, &c, msg, sizeof msg))
        fail_msg("%s", msg);
    if (latency)
        *latency = c.latency_cycles;
    if (pipe)
        *pipe = c.pipe_cycles[GP_PIPE_SHARED];
    return c.transactions;
}

/* Bank conflicts per half-warp over 16 banks (PG42 F.3.3). */
static void test_bank_conflicts(void **state)
{
    double lat, pipe;
    (void)state;
    /* consecutive words: threads k and k+16 share a bank, but they belong
       to different half-warps and never conflict */
    assert_true(shared_passes(&g_gt200, 4, GP_PATTERN_UNIT, 1, 0, &lat, &pipe) == 2);
    assert_true(lat == g_gt200.shared_memory_cycles);
    assert_true(pipe == 4); /* 2 passes x 2 clocks: 4 clocks per warp */
    assert_true(shared_passes(&g_gt200, 4, GP_PATTERN_STRIDE, 2, 0, &lat, &pipe) == 4);
    assert_true(lat == g_gt200.shared_memory_cycles + 4);
    assert_true(pipe == 8);
    assert_true(shared_passes(&g_gt200, 4, GP_PATTERN_STRIDE, 8, 0, NULL, NULL) == 16);
    assert_true(shared_passes(&g_gt200, 4, GP_PATTERN_STRIDE, 16, 0, NULL, NULL) == 32);
    assert_true(shared_passes(&g_gt200, 4, GP_PATTERN_STRIDE, 32, 0, NULL, NULL) == 32);
    assert_true(shared_passes(&g_gt200, 4, GP_PATTERN_STRIDE, 17, 0, NULL, NULL) == 2);
    assert_true(shared_passes(&g_gt200, 4, GP_PATTERN_STRIDE, 3, 0, NULL, NULL) == 2);
    /* one word for everyone: the broadcast */
    assert_true(shared_passes(&g_gt200, 4, GP_PATTERN_BROADCAST, 0, 9, NULL, NULL) == 2);
    /* 64-bit words: two 32-bit requests, each a 2-way conflict */
    assert_true(shared_passes(&g_gt200, 8, GP_PATTERN_UNIT, 1, 0, NULL, NULL) == 8);
    /* 128-bit words: four requests, each 4-way */
    assert_true(shared_passes(&g_gt200, 16, GP_PATTERN_UNIT, 1, 0, NULL, NULL) == 32);
    /* bytes: four threads in one word; only one word is broadcast per pass,
       so the other banks serve one byte address each: 4 passes */
    assert_true(shared_passes(&g_g80, 1, GP_PATTERN_UNIT, 1, 0, NULL, NULL) == 8);
    assert_true(shared_passes(&g_g80, 1, GP_PATTERN_STRIDE, 4, 0, NULL, NULL) == 2);
    assert_true(shared_passes(&g_g80, 2, GP_PATTERN_UNIT, 1, 0, NULL, NULL) == 4);
}

/* The script's explicit conflict degree, per half-warp. */
static void test_explicit_conflicts(void **state)
{
    one_op_t x;
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    one_op_init(&x, &g_g80, GP_OP_STORE, GP_SPACE_SHARED);
    x.op.access.conflict_ways = 4;
    assert_int_equal(cost(&x, &g_g80, &c, msg, sizeof msg), 0);
    assert_true(c.transactions == 8);
    assert_true(c.pipe_cycles[GP_PIPE_SHARED] == 16);
    /* the serialised passes hold the single instruction unit */
    assert_true(c.pipe_cycles[GP_PIPE_ISSUE] == 16);
    x.op.access.conflict_ways = 1;
    assert_int_equal(cost(&x, &g_g80, &c, msg, sizeof msg), 0);
    assert_true(c.pipe_cycles[GP_PIPE_ISSUE] == 4);
}

/* The most bank passes of a warp's request (two half-warps) among the
   shared-memory ops of the first launch of tesla_reduction.lua's `kernel`
   on the 8800 GTX, from the addresses its index functions give. */
static double reduction_passes(const char *kernel)
{
    char path[1024], value[8];
    gp_param_kv_t kv = {"kernel", value, NULL};
    gp_workload_t wl;
    gp_err_t err;
    const gp_kernel_t *k;
    gp_occupancy_t occ;
    gp_residency_t res;
    double most = 0;
    uint32_t i;
    snprintf(path, sizeof path, "%s/scripts/validation/published/tesla_reduction.lua",
             GP_SOURCE_DIR);
    snprintf(value, sizeof value, "%s", kernel);
    if (gp_script_run(path, NULL, &g_g80, &kv, 1, &wl, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(wl.cmds[0].type, GP_CMD_LAUNCH);
    k = &wl.cmds[0].kernel;
    if (gp_arch_occupancy(g_arch, &g_g80, &k->launch, &occ, &err))
        fail_msg("%s", err.msg);
    memset(&res, 0, sizeof res);
    res.blocks = occ.blocks_per_sm;
    res.warps_sm = occ.active_warps;
    res.active_sms = g_g80.sm_count;
    res.dram_share = res.l2_share = 1.0 / g_g80.sm_count;
    for (i = 0; i < k->n_ops; i++) {
        gp_op_cost_t c;
        char msg[256];
        if (k->ops[i].space != GP_SPACE_SHARED)
            continue;
        assert_non_null(k->ops[i].access.sample); /* every shared op is indexed */
        if (gp_arch_call_op_cost(g_arch, &g_g80, k, &k->ops[i], &occ, &res, &c, msg,
                                 sizeof msg))
            fail_msg("%s", msg);
        most = GP_MAX(most, c.transactions);
    }
    gp_workload_free(&wl);
    return most;
}

/* Harris's reduction kernels ([sources: harris-reduction]) as index
   functions: kernel 2's `index = 2*s*tid` puts 2, 4, .. 16 threads of a
   half-warp in one bank; kernel 1's `tid % (2*s) == 0` (divergent, but
   one word per bank) and kernel 3's sequential `tid < s` never do. */
static void test_reduction_bank_conflicts(void **state)
{
    (void)state;
    assert_true(reduction_passes("1") <= 2);
    assert_true(reduction_passes("2") > 2);
    assert_true(reduction_passes("3") <= 2);
}

/* The constant cache serialises the distinct addresses of a half-warp. */
static void test_constant_cache(void **state)
{
    one_op_t x;
    gp_op_cost_t c;
    char msg[256];
    double lat_bcast;
    (void)state;
    one_op_init(&x, &g_gt200, GP_OP_LOAD, GP_SPACE_CONSTANT);
    x.op.access.pattern = GP_PATTERN_BROADCAST;
    x.op.access.footprint_bytes = 256;
    assert_int_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
    assert_true(c.transactions == 2);
    assert_true(c.latency_cycles == g_gt200.constant_cycles);
    assert_true(c.dram_bytes == 0);
    lat_bcast = c.latency_cycles;
    x.op.access.pattern = GP_PATTERN_UNIT; /* 16 addresses per half-warp */
    assert_int_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
    assert_true(c.transactions == 32);
    assert_true(c.pipe_cycles[GP_PIPE_L1] == 32 * 16 / g_gt200.ldst_lanes);
    assert_true(c.latency_cycles == lat_bcast + 30 * 2);
    /* a table larger than every constant cache level is read from DRAM */
    x.op.access.pattern = GP_PATTERN_BROADCAST;
    x.op.access.footprint_bytes = 65536;
    assert_int_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
    assert_true(c.dram_bytes > 0 && c.latency_cycles > 8 * g_gt200.constant_cycles);
    x.op.kind = GP_OP_STORE;
    assert_int_not_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
    assert_contains(msg, "read-only");
}

/* Texture fetches: the L1 hit latency for a small, re-read table, the
   texture L2 and DRAM beyond it (Wong section V). */
static void test_texture_cache(void **state)
{
    one_op_t x;
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    one_op_init(&x, &g_gt200, GP_OP_LOAD, GP_SPACE_TEXTURE);
    x.op.count = 1e6;
    x.op.access.footprint_bytes = 1024;
    assert_int_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.latency_cycles - g_gt200.l1_hit_cycles) < 1);
    x.op.access.footprint_bytes = 1u << 30; /* streamed once: every fetch misses */
    x.op.count = 1;
    assert_int_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
    assert_true(c.latency_cycles == g_gt200.arch_params[2]);
    assert_true(c.dram_bytes == 128 && c.transactions == 4);
}

/* Arithmetic: 8 SPs, 2 SFUs and the 1.3 DP unit (PG42 F.3.1). */
static void test_arithmetic(void **state)
{
    static const struct {
        uint32_t kind, pipe;
        double cycles;
    } v[] = {
        {GP_OP_FP32, GP_PIPE_FP32, 4},
        {GP_OP_INT, GP_PIPE_INT, 4},
        {GP_OP_SFU, GP_PIPE_SFU, 16},
        {GP_OP_FP64, GP_PIPE_FP64, 32},
    };
    size_t i;
    one_op_t x;
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(v); i++) {
        one_op_init(&x, &g_gt200, v[i].kind, 0);
        assert_int_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
        assert_true(c.pipe_cycles[v[i].pipe] == v[i].cycles);
    }
    assert_true(c.latency_cycles == 48); /* Wong Tab II, DP */
}

/* What a 1.x device lacks is an error naming the device. */
static void test_feature_limits(void **state)
{
    one_op_t x;
    gp_op_cost_t c;
    char msg[256];
    gp_device_t d11 = g_g80;
    (void)state;
    one_op_init(&x, &g_g80, GP_OP_FP64, 0);
    assert_int_not_equal(cost(&x, &g_g80, &c, msg, sizeof msg), 0);
    assert_contains(msg, "fp64 needs compute capability 1.3; geforce-8800-gtx is 1.0");
    one_op_init(&x, &g_g80, GP_OP_ATOMIC, GP_SPACE_GLOBAL);
    assert_int_not_equal(cost(&x, &g_g80, &c, msg, sizeof msg), 0);
    assert_contains(msg, "atomic needs compute capability 1.1");
    d11.cc_minor = 1;
    assert_int_equal(cost(&x, &d11, &c, msg, sizeof msg), 0);
    x.op.access.elem_bytes = 8;
    assert_int_not_equal(cost(&x, &d11, &c, msg, sizeof msg), 0);
    assert_contains(msg, "64-bit atomic needs compute capability 1.2");
    assert_int_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
    x.op.space = GP_SPACE_SHARED;
    x.op.access.elem_bytes = 4;
    assert_int_not_equal(cost(&x, &d11, &c, msg, sizeof msg), 0);
    assert_contains(msg, "shared-memory atomic needs compute capability 1.2");
    x.op.access.atomic_scope = GP_ATOMIC_SAME;
    assert_int_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
    assert_true(c.transactions == 32); /* 16 lanes on one word, per half-warp */
    one_op_init(&x, &g_gt200, GP_OP_TENSOR, 0);
    assert_int_not_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
    assert_contains(msg, "tensor needs compute capability 7.0");
    one_op_init(&x, &g_gt200, GP_OP_ASYNC_COPY, GP_SPACE_GLOBAL);
    assert_int_not_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
    assert_contains(msg, "8.0");
    one_op_init(&x, &g_gt200, GP_OP_LOAD, GP_SPACE_GLOBAL);
    x.op.access.elem_bytes = 3;
    assert_int_not_equal(cost(&x, &g_gt200, &c, msg, sizeof msg), 0);
    assert_contains(msg, "3 bytes per thread");
}

/* Block time of a kernel on d at full occupancy. */
static double block_time(const gp_device_t *d, gp_op_t *ops, uint32_t n)
{
    gp_kernel_t k;
    gp_occupancy_t occ;
    gp_residency_t res;
    gp_block_cost_t bc;
    gp_err_t err;
    memset(&k, 0, sizeof k);
    k.name = "k";
    k.launch = launch_of(256, 16, 0);
    k.ops = ops;
    k.n_ops = n;
    k.total_blocks = 1024;
    if (gp_arch_occupancy(g_arch, d, &k.launch, &occ, &err))
        fail_msg("%s", err.msg);
    memset(&res, 0, sizeof res);
    res.blocks = occ.blocks_per_sm;
    res.warps_sm = occ.active_warps;
    res.active_sms = d->sm_count;
    res.dram_share = res.l2_share = 1.0 / d->sm_count;
    if (gp_arch_block_cost(g_arch, d, &k, &occ, &res, &bc, &err))
        fail_msg("%s", err.msg);
    return bc.time_cycles;
}

/* Divergent paths run one after another (the common walker). */
static void test_divergence(void **state)
{
    gp_op_t ops[2];
    double one, four;
    (void)state;
    memset(ops, 0, sizeof ops);
    ops[0].kind = GP_OP_FP32;
    ops[0].count = 256;
    ops[0].ilp = 4;
    one = block_time(&g_gt200, ops, 1);
    ops[0].kind = GP_OP_DIVERGE;
    ops[0].count = 4;
    ops[0].body_len = 1;
    ops[1].kind = GP_OP_FP32;
    ops[1].count = 256;
    ops[1].ilp = 4;
    four = block_time(&g_gt200, ops, 2);
    assert_true(four / one > 3.9 && four / one < 4.3);
}

/* Barriers and the arithmetic throughput bound: 4 blocks of 8 warps doing
   1024 FMAs each keep the 8 SPs busy 4 x 8 x 1024 x 4 cycles. */
static void test_fp32_throughput(void **state)
{
    gp_op_t ops[2];
    double t;
    (void)state;
    memset(ops, 0, sizeof ops);
    ops[0].kind = GP_OP_FP32;
    ops[0].count = 1024;
    ops[0].ilp = 4;
    ops[1].kind = GP_OP_BARRIER;
    ops[1].count = 1;
    t = block_time(&g_gt200, ops, 2);
    assert_true(t >= 4 * 8 * 1024 * 4.0 && t < 1.1 * 4 * 8 * 1024 * 4.0);
}

/* Integer and floating-point instructions share the 8 SPs and the one
   instruction unit (a warp instruction issues over 4 clocks): mixing them
   adds their times; a special-function instruction runs on the SFUs while
   the SPs go on. */
static void test_single_issue(void **state)
{
    gp_op_t ops[2];
    double fp, both, sfu;
    (void)state;
    memset(ops, 0, sizeof ops);
    ops[0].kind = GP_OP_FP32;
    ops[0].count = 1024;
    ops[0].ilp = 4;
    fp = block_time(&g_g80, ops, 1);
    ops[1].kind = GP_OP_INT;
    ops[1].count = 1024;
    ops[1].ilp = 4;
    both = block_time(&g_g80, ops, 2);
    assert_true(both / fp > 1.95 && both / fp < 2.05);
    ops[1].kind = GP_OP_SFU;
    ops[1].count = 256; /* 256 x 16 clocks on the SFUs = 1024 x 4 on the SPs */
    sfu = block_time(&g_g80, ops, 2);
    assert_true(sfu / fp > 1.2 && sfu / fp < 1.3); /* 1280 issue slots, not 2048 */
}

/* One kernel at a time on 1.x. */
static void test_arch_info(void **state)
{
    gp_arch_info_t info;
    gp_err_t err;
    (void)state;
    assert_int_equal(gp_arch_info(g_arch, &g_g80, &info, &err), 0);
    assert_int_equal(info.max_concurrent_kernels, 1);
    assert_string_equal(g_arch->plugin->name, "tesla");
    assert_int_equal(g_arch->plugin->n_gens, 4);
    assert_true(gp_arch_serves(g_arch, 1, 2) && !gp_arch_serves(g_arch, 2, 0));
}

/* The three shipped devices load, name the plugin and say what they are. */
static void test_shipped_devices(void **state)
{
    static const char *const names[] = {"geforce-8800-gtx", "tesla-c1060", "geforce-gtx-280"};
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(names); i++) {
        gp_device_t d;
        const gp_arch_t *a;
        gp_err_t err;
        if (gp_device_open(names[i], &d, &a, &err))
            fail_msg("%s", err.msg);
        assert_string_equal(d.arch, "tesla");
        assert_true(d.cc_major == 1 && d.l2_bytes == 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_occupancy_vectors),
        cmocka_unit_test(test_occupancy_minor_versions),
        cmocka_unit_test(test_impossible_launches),
        cmocka_unit_test(test_coalescing),
        cmocka_unit_test(test_local_uncached),
        cmocka_unit_test(test_bank_conflicts),
        cmocka_unit_test(test_explicit_conflicts),
        cmocka_unit_test(test_reduction_bank_conflicts),
        cmocka_unit_test(test_constant_cache),
        cmocka_unit_test(test_texture_cache),
        cmocka_unit_test(test_arithmetic),
        cmocka_unit_test(test_feature_limits),
        cmocka_unit_test(test_divergence),
        cmocka_unit_test(test_fp32_throughput),
        cmocka_unit_test(test_single_issue),
        cmocka_unit_test(test_arch_info),
        cmocka_unit_test(test_shipped_devices),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
