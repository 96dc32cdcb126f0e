/*
 * test_plugin_fermi_kepler.c - the fermi-kepler plugin (compute capability
 * 2.0-3.7): its devices, NVIDIA's occupancy rules (by hand from the CUDA 7
 * and current cuda_occupancy.h formulas, and against the current header
 * itself where it is installed), the L1/shared split, warp issue, the
 * global-memory cache modes, the read-only cache and the bank modes.
 */
#include "test_common.h"

#include <math.h>

#include "arch.h"
#include "device.h"
#include "engine.h"
#include "workload.h"

#define FK_DEVICES_N 5
static const char *const FK_DEVICES[FK_DEVICES_N] = {
    "geforce-gtx-480", "geforce-gtx-580", "geforce-gtx-680", "tesla-k20x", "tesla-k40",
};

/* A device by name (the test fails if it does not load). */
static void open_dev(const char *name, gp_device_t *dev, const gp_arch_t **arch)
{
    gp_err_t err;
    if (gp_device_open(name, dev, arch, &err))
        fail_msg("%s", err.msg);
}

/* A device from the text of `base` with one line replaced; rc of the load. */
static int load_variant(const char *base, const char *prefix, const char *line,
                        gp_device_t *dev, const gp_arch_t **arch, gp_err_t *err)
{
    char path[256], *text, *out;
    int rc;
    snprintf(path, sizeof path, "devices/%s.ini", base);
    text = tc_read(path);
    out = tc_replace_line(text, prefix, line);
    rc = gp_device_load_text("t.ini", out, strlen(out), dev, arch, err);
    free(out);
    free(text);
    return rc;
}

/* A Fermi 2.1 SM (GF104/GF114: 48 lanes, dual dispatch) on the GTX 480 file. */
static void open_cc21(gp_device_t *dev, const gp_arch_t **arch)
{
    char *text = tc_read("devices/geforce-gtx-480.ini"), *a, *b, *c;
    gp_err_t err;
    a = tc_replace_line(text, "compute_capability", "compute_capability = 2.1");
    b = tc_replace_line(a, "dispatch_per_scheduler", "dispatch_per_scheduler = 2");
    c = tc_replace_line(b, "fp32_lanes", "fp32_lanes = 48");
    if (gp_device_load_text("cc21.ini", c, strlen(c), dev, arch, &err))
        fail_msg("%s", err.msg);
    free(a);
    free(b);
    free(c);
    free(text);
}

/* A Kepler 3.7 SMX (GK210: 128 Ki registers, 112 KiB shared) on the K20X file. */
static void open_cc37(gp_device_t *dev, const gp_arch_t **arch)
{
    char *text = tc_read("devices/tesla-k20x.ini"), *a, *b, *c, *d;
    gp_err_t err;
    a = tc_replace_line(text, "compute_capability", "compute_capability = 3.7");
    b = tc_replace_line(a, "registers_per_sm", "registers_per_sm = 131072");
    c = tc_replace_line(b, "shared_memory_per_sm_bytes", "shared_memory_per_sm_bytes = 114688");
    d = tc_replace_line(c, "l1_shared_bytes", "l1_shared_bytes = 131072");
    if (gp_device_load_text("cc37.ini", d, strlen(d), dev, arch, &err))
        fail_msg("%s", err.msg);
    free(a);
    free(b);
    free(c);
    free(d);
    free(text);
}

/* A one-dimensional launch. */
static gp_launch_t launch_of(uint32_t threads, uint32_t regs, uint64_t smem, uint32_t pref)
{
    gp_launch_t l;
    memset(&l, 0, sizeof l);
    l.block.x = threads;
    l.block.y = l.block.z = 1;
    l.grid.x = 1000;
    l.grid.y = l.grid.z = 1;
    l.threads_per_block = threads;
    l.regs_per_thread = regs;
    l.static_smem_bytes = smem;
    l.cache_pref = pref;
    l.carveout_percent = -1;
    return l;
}

static gp_occupancy_t occ_on(const gp_device_t *dev, const gp_arch_t *arch, uint32_t threads,
                             uint32_t regs, uint64_t smem, uint32_t pref)
{
    gp_launch_t l = launch_of(threads, regs, smem, pref);
    gp_occupancy_t o;
    gp_err_t err;
    if (gp_arch_occupancy(arch, dev, &l, &o, &err))
        fail_msg("%s", err.msg);
    return o;
}

/* ----------------------------------------------------------------- devices */

static void test_devices_load(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < FK_DEVICES_N; i++) {
        gp_device_t dev;
        const gp_arch_t *arch;
        gp_arch_info_t info;
        gp_err_t err;
        open_dev(FK_DEVICES[i], &dev, &arch);
        assert_string_equal(arch->plugin->name, "fermi-kepler");
        assert_string_equal(dev.arch, "fermi-kepler");
        assert_int_equal(gp_arch_info(arch, &dev, &info, &err), 0);
        /* PG42 Table F-2: 16 resident grids on 2.x and 3.0; PG-3x: 32 on 3.5 */
        assert_int_equal(info.max_concurrent_kernels, dev.cc_major == 3 && dev.cc_minor >= 5
                                                           ? 32u : 16u);
    }
}

static void test_check_device_rejects(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_err_t err;
    (void)state;
    /* the GK110B opt-in is a 3.5 fact; on GK104 it is an error */
    assert_int_equal(load_variant("geforce-gtx-680", "block_launch_cycles",
                                  "block_launch_cycles = 150\n[arch]\nglobal_l1_optin = 1",
                                  &dev, &arch, &err), -1);
    assert_contains(err.msg, "global_l1_optin = 1 describes a compute capability 3.5 part");
    assert_int_equal(load_variant("geforce-gtx-480", "compute_capability",
                                  "compute_capability = 3.2", &dev, &arch, &err), -1);
    assert_contains(err.msg, "not served by plugin 'fermi-kepler'");
}

/* --------------------------------------------------------------- occupancy */

/* 2.0 (GTX 480) by hand from the CUDA 7.0 cuda_occupancy.h formulas:
   regs per warp = roundup(regs x 32, 64, or 128 for 21/22/29/30/37/38/45/46);
   warps by registers = floor(32768 / 2 / per_warp) x 2; blocks = that /
   warps per block, limited by 48 / warps per block and 8 blocks; shared
   memory in 128-byte units over the 48 KiB (or 16 KiB when L1 is preferred
   and the block fits) configuration. */
static void test_occupancy_20_by_hand(void **state)
{
    static const struct {
        uint32_t threads, regs;
        uint64_t smem;
        uint32_t pref, blocks, limiter, regs_alloc;
    } v[] = {
        /* 20 regs: 640/warp, 25 warps per half: 50 -> by warps 48/8 = 6 */
        {256, 20, 0, 0, 6, GP_LIMIT_WARPS, 8 * 640},
        /* 21 regs: 672 -> 768 (quirk), 21 per half: 42 warps / 8 = 5 */
        {256, 21, 0, 0, 5, GP_LIMIT_REGISTERS, 8 * 768},
        /* 21 regs, 9 warps: 42 / 9 = 4 (704 per warp would give 46 / 9 = 5) */
        {288, 21, 0, 0, 4, GP_LIMIT_REGISTERS, 9 * 768},
        /* 23 regs: 736 -> 768 by the 64 unit; not in the list */
        {288, 23, 0, 0, 4, GP_LIMIT_REGISTERS, 9 * 768},
        /* 22 regs, 11 warps: 42 / 11 = 3 */
        {352, 22, 0, 0, 3, GP_LIMIT_REGISTERS, 11 * 768},
        /* 20 regs, 11 warps: 50 / 11 = 4 = 48 / 11 */
        {352, 20, 0, 0, 4, GP_LIMIT_WARPS, 11 * 640},
        /* 37 regs: 1184 -> 1280; 12 per half: 24 / 5 = 4 */
        {160, 37, 0, 0, 4, GP_LIMIT_REGISTERS, 5 * 1280},
        /* 63 regs: 2016 -> 2048; 8 per half: 16 / 8 = 2 */
        {256, 63, 0, 0, 2, GP_LIMIT_REGISTERS, 8 * 2048},
        /* 1-warp blocks: the 8-block limit; 10 x 32 = 320, a multiple of 64 */
        {32, 10, 0, 0, 8, GP_LIMIT_BLOCKS, 320},
        /* 32 regs x 1024 threads = 32768: exactly one block */
        {1024, 32, 0, 0, 1, GP_LIMIT_WARPS, 32768},
        /* shared memory: 12 KiB per block over 48 KiB */
        {128, 16, 12288, GP_CACHE_PREFER_NONE, 4, GP_LIMIT_SHARED_MEMORY, 4 * 512},
        /* prefer L1: 16 KiB of shared memory */
        {128, 16, 12288, GP_CACHE_PREFER_L1, 1, GP_LIMIT_SHARED_MEMORY, 4 * 512},
        /* prefer equal: 2.x has no 32/32 split, it stays 48 KiB */
        {128, 16, 12288, GP_CACHE_PREFER_EQUAL, 4, GP_LIMIT_SHARED_MEMORY, 4 * 512},
        /* prefer L1 but 20 KiB does not fit 16: the 48 KiB configuration */
        {128, 16, 20480, GP_CACHE_PREFER_L1, 2, GP_LIMIT_SHARED_MEMORY, 4 * 512},
        /* 100 bytes round to 128: 48 KiB / 128 = 384 -> blocks limit */
        {64, 8, 100, 0, 8, GP_LIMIT_BLOCKS, 2 * 256},
    };
    gp_device_t dev;
    const gp_arch_t *arch;
    size_t i;
    (void)state;
    open_dev("geforce-gtx-480", &dev, &arch);
    for (i = 0; i < GP_ARRAY_LEN(v); i++) {
        gp_occupancy_t o = occ_on(&dev, arch, v[i].threads, v[i].regs, v[i].smem, v[i].pref);
        if (o.blocks_per_sm != v[i].blocks || o.limiter != v[i].limiter ||
            o.regs_per_block_allocated != v[i].regs_alloc)
            fail_msg("2.0 vector %zu (%u threads, %u regs, %llu smem, pref %u): %u blocks "
                     "(%s), %u regs; expected %u (%s), %u",
                     i, v[i].threads, v[i].regs, (unsigned long long)v[i].smem, v[i].pref,
                     o.blocks_per_sm, gp_limiter_name(o.limiter), o.regs_per_block_allocated,
                     v[i].blocks, gp_limiter_name(v[i].limiter), v[i].regs_alloc);
    }
}

/* The 2.x register quirk on its own: every listed count allocates in units
   of 128, its neighbours in units of 64. */
static void test_register_quirk(void **state)
{
    static const uint32_t listed[] = {21, 22, 29, 30, 37, 38, 45, 46};
    gp_device_t dev;
    const gp_arch_t *arch;
    size_t i;
    (void)state;
    open_dev("geforce-gtx-580", &dev, &arch);
    for (i = 0; i < GP_ARRAY_LEN(listed); i++) {
        uint32_t r = listed[i];
        gp_occupancy_t o = occ_on(&dev, arch, 32, r, 0, 0);
        uint32_t by128 = (r * 32 + 127) / 128 * 128;
        uint32_t by64 = (r * 32 + 63) / 64 * 64;
        assert_true(by128 > by64); /* the quirk costs registers */
        assert_int_equal(o.regs_per_block_allocated, by128);
    }
    assert_int_equal(occ_on(&dev, arch, 32, 20, 0, 0).regs_per_block_allocated, 640);
    assert_int_equal(occ_on(&dev, arch, 32, 23, 0, 0).regs_per_block_allocated, 768);
    assert_int_equal(occ_on(&dev, arch, 32, 31, 0, 0).regs_per_block_allocated, 1024);
    /* Kepler has no quirk: 21 x 32 = 672 -> 768 by the 256 unit */
    open_dev("tesla-k20x", &dev, &arch);
    assert_int_equal(occ_on(&dev, arch, 32, 21, 0, 0).regs_per_block_allocated, 768);
    assert_int_equal(occ_on(&dev, arch, 32, 24, 0, 0).regs_per_block_allocated, 768);
}

/* 3.5 (Tesla K20X) by hand from the current cuda_occupancy.h: 256-register
   units, four sub-partitions of 16384, 64 warps, 16 blocks, 256-byte shared
   units, 16/32/48 KiB L1. */
static void test_occupancy_35_by_hand(void **state)
{
    static const struct {
        uint32_t threads, regs;
        uint64_t smem;
        uint32_t pref, blocks, limiter;
    } v[] = {
        {256, 32, 0, 0, 8, GP_LIMIT_WARPS},       /* 1024/warp: 16 per sub = 64 */
        {256, 37, 0, 0, 6, GP_LIMIT_REGISTERS},   /* 1184 -> 1280: 12 per sub: 48/8 */
        {320, 72, 0, 0, 2, GP_LIMIT_REGISTERS},   /* 2304: 7 per sub: 28 / 10 */
        {256, 255, 0, 0, 1, GP_LIMIT_REGISTERS},  /* 8160 -> 8192: 2 per sub: 8/8 */
        {96, 32, 0, 0, 16, GP_LIMIT_BLOCKS},      /* 64 warps / 3 = 21 > 16 */
        {64, 20, 0, 0, 16, GP_LIMIT_BLOCKS},
        {1024, 64, 0, 0, 1, GP_LIMIT_REGISTERS},  /* 2048: 8 per sub = 32 warps */
        {128, 16, 12288, GP_CACHE_PREFER_NONE, 4, GP_LIMIT_SHARED_MEMORY},
        {128, 16, 12288, GP_CACHE_PREFER_L1, 1, GP_LIMIT_SHARED_MEMORY},   /* 16 KiB */
        {128, 16, 12288, GP_CACHE_PREFER_EQUAL, 2, GP_LIMIT_SHARED_MEMORY}, /* 32 KiB */
        {128, 16, 20000, GP_CACHE_PREFER_L1, 2, GP_LIMIT_SHARED_MEMORY}, /* 20224 > 16K */
    };
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_occupancy_t o;
    size_t i;
    (void)state;
    open_dev("tesla-k20x", &dev, &arch);
    for (i = 0; i < GP_ARRAY_LEN(v); i++) {
        o = occ_on(&dev, arch, v[i].threads, v[i].regs, v[i].smem, v[i].pref);
        if (o.blocks_per_sm != v[i].blocks || o.limiter != v[i].limiter)
            fail_msg("3.5 vector %zu: %u blocks (%s), expected %u (%s)", i, o.blocks_per_sm,
                     gp_limiter_name(o.limiter), v[i].blocks, gp_limiter_name(v[i].limiter));
    }
    /* 63 registers per thread on 3.0, 255 on 3.5 */
    o = occ_on(&dev, arch, 128, 64, 0, 0);
    assert_true(o.blocks_per_sm > 0);
    open_dev("geforce-gtx-680", &dev, &arch);
    o = occ_on(&dev, arch, 128, 64, 0, 0);
    assert_int_equal(o.blocks_per_sm, 0);
    assert_int_equal(o.limiter, GP_LIMIT_REGS_PER_THREAD);
    open_dev("geforce-gtx-480", &dev, &arch);
    o = occ_on(&dev, arch, 128, 64, 0, 0);
    assert_int_equal(o.limiter, GP_LIMIT_REGS_PER_THREAD);
    o = occ_on(&dev, arch, 1024, 33, 0, 0); /* 1088 x 32 warps = 34816 > 32768 */
    assert_int_equal(o.limiter, GP_LIMIT_REGS_PER_BLOCK);
}

/* The L1/shared split sets both occupancy and the L1 the launch can use. */
static void test_cache_split_l1_size(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_occupancy_t o;
    (void)state;
    open_dev("geforce-gtx-480", &dev, &arch);
    o = occ_on(&dev, arch, 256, 16, 0, GP_CACHE_PREFER_NONE);
    assert_int_equal(o.smem_per_sm_configured, 49152);
    assert_int_equal(o.l1_bytes_available, 16384);
    o = occ_on(&dev, arch, 256, 16, 0, GP_CACHE_PREFER_L1);
    assert_int_equal(o.smem_per_sm_configured, 16384);
    assert_int_equal(o.l1_bytes_available, 49152);
    o = occ_on(&dev, arch, 256, 16, 0, GP_CACHE_PREFER_EQUAL); /* no 32/32 on Fermi */
    assert_int_equal(o.l1_bytes_available, 16384);
    open_dev("tesla-k20x", &dev, &arch);
    o = occ_on(&dev, arch, 256, 16, 0, GP_CACHE_PREFER_EQUAL);
    assert_int_equal(o.smem_per_sm_configured, 32768);
    assert_int_equal(o.l1_bytes_available, 32768);
    o = occ_on(&dev, arch, 256, 16, 0, GP_CACHE_PREFER_L1);
    assert_int_equal(o.l1_bytes_available, 49152);
    o = occ_on(&dev, arch, 256, 16, 40000, GP_CACHE_PREFER_L1); /* needs the 48 KiB split */
    assert_int_equal(o.l1_bytes_available, 16384);
    open_cc37(&dev, &arch); /* GK210: 112/16, 96/32, 80/48 */
    o = occ_on(&dev, arch, 256, 16, 0, GP_CACHE_PREFER_NONE);
    assert_int_equal(o.smem_per_sm_configured, 114688);
    o = occ_on(&dev, arch, 256, 16, 0, GP_CACHE_PREFER_EQUAL);
    assert_int_equal(o.smem_per_sm_configured, 98304);
    o = occ_on(&dev, arch, 256, 16, 0, GP_CACHE_PREFER_L1);
    assert_int_equal(o.smem_per_sm_configured, 81920);
    assert_int_equal(o.l1_bytes_available, 49152);
}

#include "test_cuda_occ.h"

#ifdef GP_CUDA_OCCUPANCY_H
/* Blocks per SM from NVIDIA's own header for a gp_device_t. */
static int header_blocks(const gp_device_t *d, uint32_t threads, uint32_t regs, uint64_t smem,
                         uint32_t pref)
{
    cudaOccDeviceProp p = gp_test_occ_prop(d);
    cudaOccFuncAttributes a;
    cudaOccDeviceState s;
    cudaOccResult r;
    static const cudaOccCacheConfig prefs[] = {CACHE_PREFER_NONE, CACHE_PREFER_SHARED,
                                               CACHE_PREFER_L1, CACHE_PREFER_EQUAL};
    memset(&a, 0, sizeof a);
    memset(&s, 0, sizeof s);
    memset(&r, 0, sizeof r);
    a.maxThreadsPerBlock = (int)d->max_threads_per_block;
    a.numRegs = (int)regs;
    a.sharedSizeBytes = smem;
    a.partitionedGCConfig = PARTITIONED_GC_OFF;
    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
    a.maxDynamicSharedSizeBytes = d->shared_memory_per_block_bytes;
    s.cacheConfig = prefs[pref];
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, (int)threads, 0) !=
        CUDA_OCC_SUCCESS)
        return -1;
    return r.activeBlocksPerMultiprocessor;
}

/* Compare every combination with the header for one 3.x device. */
static void compare_with_header(const gp_device_t *dev, const gp_arch_t *arch)
{
    static const uint32_t regs[] = {0, 16, 21, 32, 37, 40, 48, 63, 64, 96, 128, 168, 255};
    static const uint64_t smem[] = {0, 1, 1000, 4096, 12288, 16385, 20000, 33000, 49152};
    uint32_t t, p;
    size_t ri, si;
    unsigned long n = 0;
    for (t = 32; t <= 1024; t += 32)
        for (ri = 0; ri < GP_ARRAY_LEN(regs); ri++) {
            if (regs[ri] > dev->max_registers_per_thread)
                continue; /* the header knows 255 only; 3.0 stops at 63 */
            for (si = 0; si < GP_ARRAY_LEN(smem); si++)
                for (p = 0; p < 4; p++) {
                    int want = header_blocks(dev, t, regs[ri], smem[si], p);
                    gp_occupancy_t o = occ_on(dev, arch, t, regs[ri], smem[si], p);
                    if (want < 0)
                        fail_msg("cuda_occupancy.h rejected %u.%u", dev->cc_major,
                                 dev->cc_minor);
                    if ((int)o.blocks_per_sm != want)
                        fail_msg("%u.%u: %u threads, %u regs, %llu smem, pref %u: %u blocks, "
                                 "cuda_occupancy.h says %d",
                                 dev->cc_major, dev->cc_minor, t, regs[ri],
                                 (unsigned long long)smem[si], p, o.blocks_per_sm, want);
                    n++;
                }
        }
    assert_true(n > 1000);
}
#endif

/* 3.0, 3.5 and 3.7 against NVIDIA's cuda_occupancy.h (test_cuda_occ.h). */
static void test_occupancy_3x_header(void **state)
{
#ifdef GP_CUDA_OCCUPANCY_H
    gp_device_t dev;
    const gp_arch_t *arch;
    (void)state;
    open_dev("geforce-gtx-680", &dev, &arch);
    compare_with_header(&dev, arch);
    open_dev("tesla-k40", &dev, &arch);
    compare_with_header(&dev, arch);
    open_cc37(&dev, &arch);
    compare_with_header(&dev, arch);
#else
    (void)state;
    skip();
#endif
}

/* ------------------------------------------------------------- op costs */

/* The cost of one warp-wide op in a 1000-block, 256-thread launch. */
static gp_op_cost_t cost_on(const gp_device_t *dev, const gp_arch_t *arch, gp_op_t op,
                            gp_launch_t l, uint32_t pref_for_occ)
{
    gp_kernel_t k;
    gp_occupancy_t occ;
    gp_residency_t res;
    gp_op_cost_t c;
    gp_err_t err;
    char msg[256] = "";
    l.cache_pref = pref_for_occ;
    if (gp_arch_occupancy(arch, dev, &l, &occ, &err))
        fail_msg("%s", err.msg);
    memset(&k, 0, sizeof k);
    k.name = "k";
    k.launch = l;
    k.ops = &op;
    k.n_ops = 1;
    k.total_blocks = l.grid.x * l.grid.y * l.grid.z;
    memset(&res, 0, sizeof res);
    res.blocks = occ.blocks_per_sm;
    res.warps_sm = occ.active_warps;
    res.active_sms = dev->sm_count;
    res.dram_share = res.l2_share = 1.0 / dev->sm_count;
    res.l2_capacity_bytes = (double)dev->l2_bytes;
    memset(&c, 0, sizeof c);
    if (gp_arch_call_op_cost(arch, dev, &k, &op, &occ, &res, &c, msg, sizeof msg))
        fail_msg("op_cost: %s", msg);
    return c;
}

static gp_op_t arith(uint32_t kind, double ilp)
{
    gp_op_t op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    op.count = 1;
    op.ilp = ilp;
    return op;
}

/* A memory op: `elem`-byte words, stride in elements (1: unit), footprint. */
static gp_op_t mem_op(uint32_t kind, uint32_t space, uint32_t elem, int64_t stride,
                      uint64_t footprint, double count)
{
    gp_op_t op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    op.space = space;
    op.count = count;
    op.ilp = 1;
    op.access.elem_bytes = elem;
    op.access.pattern = stride == 1 ? GP_PATTERN_UNIT : GP_PATTERN_STRIDE;
    op.access.stride_elems = stride;
    op.access.footprint_bytes = footprint;
    op.access.buffer = UINT32_MAX;
    return op;
}

/* Cycles op `kind` with `ilp` keeps pipe `pipe` busy on a device. */
static double pipe_of(const gp_device_t *dev, const gp_arch_t *arch, uint32_t kind, double ilp,
                      uint32_t pipe)
{
    return cost_on(dev, arch, arith(kind, ilp), launch_of(256, 16, 0, 0), 0).pipe_cycles[pipe];
}

static void test_issue_rules(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    (void)state;
    /* 2.0: one instruction per scheduler every two shader clocks, two
       schedulers: one SM-wide issue cycle per warp instruction, ILP or not */
    open_dev("geforce-gtx-480", &dev, &arch);
    assert_true(pipe_of(&dev, arch, GP_OP_FP32, 1, GP_PIPE_ISSUE) == 1.0);
    assert_true(pipe_of(&dev, arch, GP_OP_FP32, 4, GP_PIPE_ISSUE) == 1.0);
    /* 2.0: a double-precision instruction takes the other scheduler's slot too */
    assert_true(pipe_of(&dev, arch, GP_OP_FP64, 1, GP_PIPE_ISSUE) == 2.0);
    assert_true(pipe_of(&dev, arch, GP_OP_FP64, 1, GP_PIPE_FP64) == 8.0);
    /* 2.1: pairs need an independent instruction; no fp64 blocking */
    open_cc21(&dev, &arch);
    assert_true(pipe_of(&dev, arch, GP_OP_FP32, 1, GP_PIPE_ISSUE) == 1.0);
    assert_true(pipe_of(&dev, arch, GP_OP_FP32, 2, GP_PIPE_ISSUE) == 0.5);
    assert_true(pipe_of(&dev, arch, GP_OP_FP64, 1, GP_PIPE_ISSUE) == 1.0);
    assert_true(fabs(pipe_of(&dev, arch, GP_OP_FP32, 2, GP_PIPE_FP32) - 32.0 / 48.0) < 1e-12);
    /* 3.x: four schedulers each clock, two dispatch units */
    open_dev("tesla-k20x", &dev, &arch);
    assert_true(pipe_of(&dev, arch, GP_OP_FP32, 1, GP_PIPE_ISSUE) == 0.25);
    assert_true(pipe_of(&dev, arch, GP_OP_FP32, 4, GP_PIPE_ISSUE) == 0.125);
    assert_true(pipe_of(&dev, arch, GP_OP_FP64, 1, GP_PIPE_ISSUE) == 0.25);
    /* FP64 per part: Tesla GK110 64/clk, GK104 8/clk, GeForce GF100 4/clk */
    assert_true(pipe_of(&dev, arch, GP_OP_FP64, 1, GP_PIPE_FP64) == 0.5);
    open_dev("geforce-gtx-680", &dev, &arch);
    assert_true(pipe_of(&dev, arch, GP_OP_FP64, 1, GP_PIPE_FP64) == 4.0);
    assert_true(pipe_of(&dev, arch, GP_OP_SFU, 1, GP_PIPE_SFU) == 1.0);
}

/* Fermi: "ca" (default) fetches 128-byte lines, "cg" 32-byte segments;
   stores always write 32-byte segments. */
static void test_fermi_cache_modes(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_launch_t l = launch_of(256, 16, 0, 0);
    gp_op_cost_t c;
    gp_op_t strided = mem_op(GP_OP_LOAD, GP_SPACE_GLOBAL, 4, 32, 1ull << 30, 1);
    gp_op_t unit = mem_op(GP_OP_LOAD, GP_SPACE_GLOBAL, 4, 1, 1ull << 30, 1);
    (void)state;
    open_dev("geforce-gtx-480", &dev, &arch);
    c = cost_on(&dev, arch, strided, l, 0); /* 32 lines of 128 bytes */
    assert_true(c.transactions == 32 && c.l2_bytes == 4096 && c.dram_bytes == 4096);
    l.global_cache = GP_GLOBAL_CACHE_ALL;
    assert_true(cost_on(&dev, arch, strided, l, 0).l2_bytes == 4096);
    l.global_cache = GP_GLOBAL_CACHE_L2; /* 32 segments of 32 bytes */
    c = cost_on(&dev, arch, strided, l, 0);
    assert_true(c.transactions == 32 && c.l2_bytes == 1024 && c.dram_bytes == 1024);
    /* coalesced: the same 128 bytes either way, one line or four segments */
    assert_true(cost_on(&dev, arch, unit, l, 0).l2_bytes == 128);
    assert_true(cost_on(&dev, arch, unit, l, 0).transactions == 4);
    l.global_cache = GP_GLOBAL_CACHE_DEFAULT;
    assert_true(cost_on(&dev, arch, unit, l, 0).transactions == 1);
    /* stores are not cached in L1: 32-byte segments */
    strided.kind = GP_OP_STORE;
    assert_true(cost_on(&dev, arch, strided, l, 0).l2_bytes == 1024);
}

/* Cached loads reuse the L1 the split leaves: a 512 KiB footprint re-read
   16 times in the same order fits 15 x 48 KiB but not 15 x 16 KiB, where the
   re-reads thrash (LRU). */
static void test_fermi_l1_reuse(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_launch_t l = launch_of(256, 16, 0, 0);
    gp_op_t ld = mem_op(GP_OP_LOAD, GP_SPACE_GLOBAL, 4, 1, 512 * 1024, 16);
    gp_op_cost_t small, big, cg;
    (void)state;
    l.grid.x = 2048; /* 2048 x 256 x 16 x 4 bytes = 32 MiB read */
    open_dev("geforce-gtx-480", &dev, &arch);
    small = cost_on(&dev, arch, ld, l, GP_CACHE_PREFER_NONE);
    big = cost_on(&dev, arch, ld, l, GP_CACHE_PREFER_L1);
    assert_true(small.l1_bytes == 0 && big.l1_bytes > 0);
    assert_true(big.l2_bytes < small.l2_bytes);
    assert_true(big.latency_cycles < small.latency_cycles);
    l.global_cache = GP_GLOBAL_CACHE_L2;
    cg = cost_on(&dev, arch, ld, l, GP_CACHE_PREFER_L1);
    assert_true(cg.l1_bytes == 0);
}

/* Kepler: global loads through L2 only by default; "ca" changes nothing on
   GK104 and GK110, and caches on GK110B (K40) and GK210 (3.7). */
static void test_kepler_global_caching(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_launch_t l = launch_of(256, 16, 0, 0);
    gp_op_t strided = mem_op(GP_OP_LOAD, GP_SPACE_GLOBAL, 4, 32, 1ull << 30, 1);
    gp_op_t reused = mem_op(GP_OP_LOAD, GP_SPACE_GLOBAL, 4, 1, 64 * 1024, 16);
    size_t i;
    static const struct {
        const char *dev;
        double ca_bytes;
    } v[] = {{"geforce-gtx-680", 1024}, {"tesla-k20x", 1024}, {"tesla-k40", 4096}};
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(v); i++) {
        open_dev(v[i].dev, &dev, &arch);
        l.global_cache = GP_GLOBAL_CACHE_DEFAULT;
        assert_true(cost_on(&dev, arch, strided, l, 0).l2_bytes == 1024);
        assert_true(cost_on(&dev, arch, reused, l, 0).l1_bytes == 0);
        l.global_cache = GP_GLOBAL_CACHE_ALL;
        if (cost_on(&dev, arch, strided, l, 0).l2_bytes != v[i].ca_bytes)
            fail_msg("%s with ca: %g L2 bytes, expected %g", v[i].dev,
                     cost_on(&dev, arch, strided, l, 0).l2_bytes, v[i].ca_bytes);
        assert_true((cost_on(&dev, arch, reused, l, 0).l1_bytes > 0) == (v[i].ca_bytes > 1024));
    }
    open_cc37(&dev, &arch);
    l.global_cache = GP_GLOBAL_CACHE_DEFAULT;
    assert_true(cost_on(&dev, arch, strided, l, 0).l2_bytes == 1024);
    l.global_cache = GP_GLOBAL_CACHE_ALL;
    assert_true(cost_on(&dev, arch, strided, l, 0).l2_bytes == 4096);
    /* local memory (spills) is cached in L1 on every Kepler */
    open_dev("tesla-k20x", &dev, &arch);
    reused.space = GP_SPACE_LOCAL;
    l.global_cache = GP_GLOBAL_CACHE_DEFAULT;
    assert_true(cost_on(&dev, arch, reused, l, 0).l1_bytes > 0);
}

/* The read-only data cache of 3.5: 48 KiB per SMX with 32-byte lines; GK104's
   texture cache is 8 KiB. */
static void test_readonly_cache(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_launch_t l = launch_of(256, 16, 0, 0);
    gp_op_t tex = mem_op(GP_OP_LOAD, GP_SPACE_TEXTURE, 4, 1, 512 * 1024, 16);
    gp_op_t glob = tex;
    gp_op_t strided = mem_op(GP_OP_LOAD, GP_SPACE_TEXTURE, 4, 32, 1ull << 30, 1);
    gp_op_cost_t k20x, k680, g;
    (void)state;
    l.grid.x = 2048;
    glob.space = GP_SPACE_GLOBAL;
    open_dev("tesla-k20x", &dev, &arch);
    k20x = cost_on(&dev, arch, tex, l, 0);
    g = cost_on(&dev, arch, glob, l, 0);
    assert_true(g.l1_bytes == 0);
    assert_true(k20x.l1_bytes > 0.9 * 32 * 4); /* 14 x 48 KiB hold the 512 KiB */
    assert_true(k20x.l2_bytes < g.l2_bytes);
    assert_true(cost_on(&dev, arch, strided, l, 0).l2_bytes == 1024); /* 32-byte lines */
    open_dev("geforce-gtx-680", &dev, &arch);
    k680 = cost_on(&dev, arch, tex, l, 0);
    assert_true(k680.l1_bytes < 0.5 * k20x.l1_bytes); /* 8 x 8 KiB do not */
}

static double shared_cycles(const gp_device_t *dev, const gp_arch_t *arch, uint32_t elem,
                            int64_t stride, uint32_t bank_bytes, double *latency)
{
    gp_launch_t l = launch_of(256, 16, 0, 0);
    gp_op_cost_t c;
    l.bank_bytes = bank_bytes;
    c = cost_on(dev, arch, mem_op(GP_OP_LOAD, GP_SPACE_SHARED, elem, stride, 4096, 1), l, 0);
    if (latency)
        *latency = c.latency_cycles;
    return c.pipe_cycles[GP_PIPE_SHARED];
}

/* Banks: Fermi 32 x 4 bytes per two clocks with a 128-bit penalty; Kepler
   32 x 8 bytes per clock in 4- or 8-byte mode. */
static void test_banks(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_launch_t l = launch_of(256, 16, 0, 0);
    gp_kernel_t k;
    gp_occupancy_t occ;
    gp_residency_t res;
    gp_op_cost_t c;
    gp_op_t op = mem_op(GP_OP_LOAD, GP_SPACE_SHARED, 4, 1, 4096, 1);
    gp_err_t err;
    char msg[256] = "";
    double lat;
    (void)state;
    open_dev("geforce-gtx-480", &dev, &arch);
    assert_true(shared_cycles(&dev, arch, 4, 1, 0, NULL) == 2.0);
    assert_true(shared_cycles(&dev, arch, 8, 1, 0, NULL) == 4.0); /* two half-warps */
    assert_true(shared_cycles(&dev, arch, 8, 1, 8, NULL) == 4.0); /* no bank mode on 2.x */
    assert_true(shared_cycles(&dev, arch, 16, 1, 0, NULL) == 16.0); /* 4 quarters, 2-way */
    assert_true(shared_cycles(&dev, arch, 4, 2, 0, NULL) == 4.0);  /* 2-way conflict */
    open_dev("tesla-k20x", &dev, &arch);
    assert_true(shared_cycles(&dev, arch, 4, 1, 0, NULL) == 1.0);  /* half a pass idle */
    assert_true(shared_cycles(&dev, arch, 8, 1, 0, NULL) == 2.0);  /* 4-byte mode */
    assert_true(shared_cycles(&dev, arch, 8, 1, 8, NULL) == 1.0);  /* 8-byte mode */
    assert_true(shared_cycles(&dev, arch, 4, 2, 4, NULL) == 2.0);
    assert_true(shared_cycles(&dev, arch, 4, 2, 8, NULL) == 1.0);  /* words 8 bytes apart */
    assert_true(shared_cycles(&dev, arch, 4, 4, 4, &lat) == 4.0); /* 4-way: 3 passes more */
    assert_true(lat == 47 + 3);
    /* a bank size other than 4 or 8 is an error */
    l.bank_bytes = 16;
    if (gp_arch_occupancy(arch, &dev, &l, &occ, &err))
        fail_msg("%s", err.msg);
    memset(&k, 0, sizeof k);
    k.launch = l;
    k.ops = &op;
    k.n_ops = 1;
    k.total_blocks = 1000;
    memset(&res, 0, sizeof res);
    res.blocks = 1;
    res.active_sms = 1;
    res.dram_share = res.l2_share = 1;
    assert_int_not_equal(
        gp_arch_call_op_cost(arch, &dev, &k, &op, &occ, &res, &c, msg, sizeof msg), 0);
    assert_contains(msg, "banks are 4 or 8 bytes wide");
}

/* Global atomics are performed in L2 on both generations; Kepler's are
   faster because its L2 round trip is (Mei: 198 against 351 cycles). */
static void test_atomics_in_l2(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_launch_t l = launch_of(256, 16, 0, 0);
    gp_op_t at = mem_op(GP_OP_ATOMIC, GP_SPACE_GLOBAL, 4, 1, 4096, 1);
    gp_op_cost_t fermi, kepler;
    (void)state;
    at.access.atomic_scope = GP_ATOMIC_PER_WARP;
    open_dev("geforce-gtx-480", &dev, &arch);
    fermi = cost_on(&dev, arch, at, l, 0);
    open_dev("tesla-k20x", &dev, &arch);
    kepler = cost_on(&dev, arch, at, l, 0);
    assert_true(fermi.l2_bytes == 32 && fermi.dram_bytes == 0);
    assert_true(kepler.l2_bytes == 32 && kepler.dram_bytes == 0);
    assert_true(fermi.latency_cycles == 351 && kepler.latency_cycles == 198);
}

/* --------------------------------------------------------- whole kernels */

/* Predicted time of `blocks` x 256 threads running `fma` FMAs in chains of
   `ilp`, at full occupancy. */
static double fma_time(const gp_device_t *dev, const gp_arch_t *arch, double fma, double ilp)
{
    gp_workload_t wl;
    gp_prediction_t p;
    gp_engine_opts_t o = {0};
    gp_command_t *c;
    gp_op_t *ops = calloc(2, sizeof *ops);
    gp_err_t err;
    double t;
    memset(&wl, 0, sizeof wl);
    strcpy(wl.script, "test.lua");
    wl.n_streams = 1;
    wl.streams = calloc(1, sizeof *wl.streams);
    wl.n_devices = 1;
    wl.cmds = calloc(1, sizeof *wl.cmds);
    wl.n_cmds = 1;
    c = &wl.cmds[0];
    c->type = GP_CMD_LAUNCH;
    c->line = 1;
    ops[0].kind = GP_OP_LOOP;
    ops[0].count = fma / 4;
    ops[0].body_len = 1;
    ops[1].kind = GP_OP_FP32;
    ops[1].count = 4;
    ops[1].ilp = ilp;
    c->kernel.name = strdup("fma");
    c->kernel.ops = ops;
    c->kernel.n_ops = 2;
    c->kernel.launch = launch_of(256, 16, 0, 0);
    c->kernel.launch.grid.x = (uint64_t)dev->sm_count * 8 * 16;
    c->kernel.total_blocks = c->kernel.launch.grid.x;
    if (gp_predict(dev, arch, &wl, &o, &p, &err))
        fail_msg("%s", err.msg);
    t = p.total_us - dev->launch_latency_us;
    gp_prediction_free(&p);
    gp_workload_free(&wl);
    return t;
}

/* Dual dispatch needs ILP: on Kepler four independent chains run about 1.5x
   faster than one (192 lanes against 4 x 32 single-issue); on 2.0 there is
   nothing to pair. */
static void test_dual_issue_end_to_end(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    double r;
    (void)state;
    open_dev("tesla-k20x", &dev, &arch);
    r = fma_time(&dev, arch, 4096, 1) / fma_time(&dev, arch, 4096, 4);
    if (!(r > 1.4 && r < 1.7))
        fail_msg("K20X ilp1/ilp4 = %g, expected about 1.5", r);
    open_dev("geforce-gtx-480", &dev, &arch);
    r = fma_time(&dev, arch, 4096, 1) / fma_time(&dev, arch, 4096, 4);
    if (!(r > 0.99 && r < 1.05))
        fail_msg("GTX 480 ilp1/ilp4 = %g, expected about 1", r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_devices_load),
        cmocka_unit_test(test_check_device_rejects),
        cmocka_unit_test(test_occupancy_20_by_hand),
        cmocka_unit_test(test_register_quirk),
        cmocka_unit_test(test_occupancy_35_by_hand),
        cmocka_unit_test(test_cache_split_l1_size),
        cmocka_unit_test(test_occupancy_3x_header),
        cmocka_unit_test(test_issue_rules),
        cmocka_unit_test(test_fermi_cache_modes),
        cmocka_unit_test(test_fermi_l1_reuse),
        cmocka_unit_test(test_kepler_global_caching),
        cmocka_unit_test(test_readonly_cache),
        cmocka_unit_test(test_banks),
        cmocka_unit_test(test_atomics_in_l2),
        cmocka_unit_test(test_dual_issue_end_to_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
