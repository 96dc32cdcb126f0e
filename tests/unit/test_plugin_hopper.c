/*
 * test_plugin_hopper.c - the hopper plugin (compute capability 9.0): its
 * generation data (allocation rules, checked against cuda_occupancy.h where
 * it is installed; two block barriers per resident-block slot; 32-byte
 * sectors; the L2's two partitions; match and warp reduce available; the
 * mma.sync shapes) and the shipped H200 device.
 */
#include "test_common.h"

#include <math.h>

#include "device.h"
#include "opcost.h"

#include "test_cuda_occ.h"

/* A device loaded by name (devices/NAME.ini), failing the test otherwise. */
static void open_dev(const char *name, gp_device_t *dev, const gp_arch_t **arch)
{
    gp_err_t err;
    if (gp_device_open(name, dev, arch, &err))
        fail_msg("%s", err.msg);
    assert_string_equal((*arch)->plugin->name, "hopper");
}

/* A one-dimensional launch. */
static gp_launch_t launch_of(uint32_t threads, uint32_t regs, uint64_t smem, uint64_t dyn,
                             int32_t carveout)
{
    gp_launch_t l;
    memset(&l, 0, sizeof l);
    l.block.x = threads;
    l.block.y = l.block.z = 1;
    l.grid.x = l.grid.y = l.grid.z = 1;
    l.threads_per_block = threads;
    l.regs_per_thread = regs;
    l.static_smem_bytes = smem;
    l.dynamic_smem_bytes = dyn;
    l.carveout_percent = carveout;
    return l;
}

static gp_occupancy_t occ_of(const gp_device_t *dev, const gp_arch_t *arch, uint32_t threads,
                             uint32_t regs, uint64_t smem, uint64_t dyn, int32_t carveout)
{
    gp_launch_t l = launch_of(threads, regs, smem, dyn, carveout);
    gp_occupancy_t o;
    gp_err_t err;
    if (gp_arch_occupancy(arch, dev, &l, &o, &err))
        fail_msg("%s", err.msg);
    return o;
}

static void test_plugin_descriptor(void **state)
{
    gp_err_t err;
    const gp_arch_t *a = gp_arch_get("hopper", &err);
    gp_device_t dev;
    gp_arch_info_t info;
    char ccs[64];
    (void)state;
    assert_non_null(a);
    gp_arch_ccs_text(a, ccs, sizeof ccs);
    assert_string_equal(ccs, "9.0");
    assert_true(gp_arch_serves(a, 9, 0));
    assert_false(gp_arch_serves(a, 8, 0));
    assert_false(gp_arch_serves(a, 9, 1));
    open_dev("h200-sxm", &dev, &a);
    if (gp_arch_info(a, &dev, &info, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(info.max_concurrent_kernels, 128);
}

/* The shipped H200 loads with the values its rows depend on. */
static void test_devices(void **state)
{
    gp_device_t dev;
    const gp_arch_t *a;
    (void)state;
    open_dev("h200-sxm", &dev, &a);
    assert_int_equal(dev.cc_major, 9);
    assert_int_equal(dev.cc_minor, 0);
    assert_int_equal(dev.sm_count, 132);
    assert_int_equal(dev.max_threads_per_sm, 2048);
    assert_int_equal(dev.max_blocks_per_sm, 32);
    assert_int_equal(dev.shared_memory_per_sm_bytes, 233472);
    assert_int_equal(dev.l1_shared_bytes, 262144);
    assert_int_equal(dev.reserved_shared_memory_per_block_bytes, 1024);
}

/* The allocation rules of 9.0 (cuda_occupancy.h): warp-granular registers
   in 256s, 128-byte shared memory, carve-outs up to 228 KiB. */
static void test_alloc_rules(void **state)
{
    static const uint32_t carve[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    gp_err_t err;
    const gp_arch_t *a = gp_arch_get("hopper", &err);
    const gp_generation_t *g;
    size_t i;
    (void)state;
    assert_non_null(a);
    g = gp_arch_generation(a, 9, 0);
    assert_non_null(g);
    assert_int_equal(g->alloc->reg_granularity, GP_REG_ALLOC_WARP);
    assert_int_equal(g->alloc->reg_alloc_unit, 256);
    assert_int_equal(g->alloc->warp_alloc_granularity, 4);
    assert_int_equal(g->alloc->max_regs_per_thread, 255);
    assert_int_equal(g->alloc->smem_alloc_unit, 128);
    assert_int_equal(g->alloc->n_carveouts, GP_ARRAY_LEN(carve));
    for (i = 0; i < GP_ARRAY_LEN(carve); i++)
        assert_int_equal(g->alloc->carveout_kib[i], carve[i]);
    assert_int_equal(g->alloc->barriers_per_block_slot, 2);
}

/* Worked configurations: registers, shared memory and threads each limit. */
static void test_occupancy_vectors(void **state)
{
    gp_device_t dev;
    const gp_arch_t *a;
    gp_occupancy_t o;
    (void)state;
    open_dev("h200-sxm", &dev, &a);
    o = occ_of(&dev, a, 256, 32, 0, 0, -1); /* 8 warps x 1024 regs: 8 blocks fill 64 warps */
    assert_int_equal(o.blocks_per_sm, 8);
    assert_int_equal(o.active_warps, 64);
    o = occ_of(&dev, a, 256, 64, 0, 0, -1); /* 2048 regs a warp: 32 warps of 65536 */
    assert_int_equal(o.blocks_per_sm, 4);
    o = occ_of(&dev, a, 32, 16, 0, 0, -1); /* the 32-block limit */
    assert_int_equal(o.blocks_per_sm, 32);
    /* 100 KiB a block (+1 KiB reserved) in the 228 KiB carve-out: 2 blocks */
    o = occ_of(&dev, a, 128, 32, 0, 100 * 1024, -1);
    assert_int_equal(o.blocks_per_sm, 2);
}

/* Two block barriers per resident-block slot: 32 slots give 64 barriers. */
static void test_barriers_per_sm(void **state)
{
    gp_device_t dev;
    const gp_arch_t *a;
    gp_launch_t l = launch_of(32, 16, 0, 0, -1);
    gp_occupancy_t o;
    gp_err_t err;
    (void)state;
    open_dev("h200-sxm", &dev, &a);
    l.barriers_per_block = 16;
    if (gp_arch_occupancy(a, &dev, &l, &o, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(o.limit_barriers, 32 * 2 / 16);
    assert_int_equal(o.blocks_per_sm, 4);
    l.barriers_per_block = 1;
    if (gp_arch_occupancy(a, &dev, &l, &o, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(o.blocks_per_sm, 32);
}

#ifdef GP_CUDA_OCCUPANCY_H
/* Blocks per SM as cuda_occupancy.h computes them for a device; -1 when the
   header rejects the input. */
static int header_blocks(const gp_device_t *d, uint32_t threads, uint32_t regs, uint64_t dyn,
                         int carveout)
{
    cudaOccDeviceProp p = gp_test_occ_prop(d);
    cudaOccFuncAttributes f;
    cudaOccDeviceState s;
    cudaOccResult r;
    memset(&f, 0, sizeof f);
    memset(&s, 0, sizeof s);
    memset(&r, 0, sizeof r);
    f.maxThreadsPerBlock = 1024;
    f.numRegs = (int)regs;
    f.partitionedGCConfig = PARTITIONED_GC_OFF;
    f.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    f.maxDynamicSharedSizeBytes = dyn;
    f.numBlockBarriers = 1;
    s.cacheConfig = CACHE_PREFER_NONE;
    s.carveoutConfig = carveout;
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &f, &s, (int)threads, dyn) !=
        CUDA_OCC_SUCCESS)
        return -1;
    return r.activeBlocksPerMultiprocessor;
}
#endif

/* A grid of launches against the header's answer for the H200. */
static void test_against_cuda_occupancy_h(void **state)
{
#ifdef GP_CUDA_OCCUPANCY_H
    static const uint32_t threads[] = {32, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1024};
    static const uint32_t regs[] = {0, 8, 16, 24, 32, 40, 48, 64, 72, 96, 128, 168, 200, 255};
    static const uint64_t dyn[] = {0,      1,      1024,   8192,   20000,  49152,  70000,
                                   101376, 132000, 166912, 200000, 232448, 232449};
    static const int carve[] = {-1, 0, 9, 25, 50, 75, 100};
    gp_device_t dev;
    const gp_arch_t *a;
    size_t t, r, d, c;
    unsigned checked = 0;
    (void)state;
    open_dev("h200-sxm", &dev, &a);
    for (t = 0; t < GP_ARRAY_LEN(threads); t++)
        for (r = 0; r < GP_ARRAY_LEN(regs); r++)
            for (d = 0; d < GP_ARRAY_LEN(dyn); d++)
                for (c = 0; c < GP_ARRAY_LEN(carve); c++) {
                    int want = header_blocks(&dev, threads[t], regs[r], dyn[d], carve[c]);
                    gp_occupancy_t o;
                    if (want < 0)
                        continue;
                    o = occ_of(&dev, a, threads[t], regs[r], 0, dyn[d], carve[c]);
                    if ((int)o.blocks_per_sm != want)
                        fail_msg("%u threads, %u regs, %llu dynamic smem, carve-out %d: plugin "
                                 "%u blocks, cuda_occupancy.h %d",
                                 threads[t], regs[r], (unsigned long long)dyn[d], carve[c],
                                 o.blocks_per_sm, want);
                    checked++;
                }
    assert_true(checked > 5000);
#else
    (void)state;
    skip(); /* no cuda_occupancy.h (GPUPERF_CUDA_OCCUPANCY_H) */
#endif
}

/* ------------------------------------------------------------ op costs */

/* A kernel of `blocks` blocks of `threads` running ops[0..n). */
static gp_kernel_t kernel_of(const gp_op_t *ops, uint32_t n, uint32_t threads, uint64_t blocks)
{
    gp_kernel_t k;
    memset(&k, 0, sizeof k);
    k.name = "k";
    k.launch = launch_of(threads, 32, 0, 0, -1);
    k.launch.grid.x = blocks;
    k.ops = ops;
    k.n_ops = n;
    k.total_blocks = blocks;
    return k;
}

/* The residency of a full SM running only this kernel. */
static gp_residency_t full_sm(const gp_device_t *dev, const gp_occupancy_t *o)
{
    gp_residency_t r;
    memset(&r, 0, sizeof r);
    r.blocks = o->blocks_per_sm;
    r.warps_sm = o->active_warps;
    r.active_sms = dev->sm_count;
    r.dram_share = 1.0 / dev->sm_count;
    r.l2_share = r.dram_share;
    r.l2_capacity_bytes = (double)dev->l2_bytes;
    return r;
}

/* The plugin's cost of ops[i] in kernel k; returns the plugin's status. */
static int cost_of(const gp_device_t *dev, const gp_arch_t *a, const gp_kernel_t *k,
                   uint32_t i, gp_op_cost_t *c, char *msg, size_t len)
{
    gp_occupancy_t o = occ_of(dev, a, (uint32_t)k->launch.threads_per_block,
                              k->launch.regs_per_thread, 0, 0, -1);
    gp_residency_t r = full_sm(dev, &o);
    memset(c, 0, sizeof *c);
    msg[0] = '\0';
    return gp_arch_call_op_cost(a, dev, k, &k->ops[i], &o, &r, c, msg, len);
}

/* Global memory: 32-byte sectors; the L2 is two partitions. */
static void test_memory_rules(void **state)
{
    gp_device_t dev;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t ops[1];
    gp_kernel_t k;
    gp_op_cost_t c;
    char msg[256];
    size_t i;
    (void)state;
    open_dev("h200-sxm", &dev, &a);
    g = gp_arch_generation(a, 9, 0);
    assert_non_null(g);
    for (i = 0; i < 5; i++)
        assert_int_equal(g->mem->segment_bytes[i], 32);
    assert_int_equal(g->mem->l2_partitions, 2);
    assert_true(g->mem->has_l2);
    memset(ops, 0, sizeof ops);
    ops[0].kind = GP_OP_LOAD;
    ops[0].count = 1;
    ops[0].space = GP_SPACE_GLOBAL;
    ops[0].access.elem_bytes = 4;
    ops[0].access.pattern = GP_PATTERN_UNIT;
    ops[0].access.footprint_bytes = 1000ull * 256 * 4;
    k = kernel_of(ops, 1, 256, 1000);
    assert_int_equal(cost_of(&dev, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(c.transactions == 4 && c.l2_bytes == 128); /* 128 bytes in 4 sectors */
    ops[0].access.pattern = GP_PATTERN_STRIDE;
    ops[0].access.stride_elems = 32;
    assert_int_equal(cost_of(&dev, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(c.transactions == 32 && c.l2_bytes == 32 * 32); /* a sector a lane */
}

/* __match_*_sync (7.0+) and __reduce_*_sync (8.0+) exist on 9.0, at the
   rates the shared rules give. */
static void test_warp_ops_available(void **state)
{
    static const uint32_t kinds[] = {GP_OP_MATCH, GP_OP_WARP_REDUCE, GP_OP_SHFL, GP_OP_VOTE};
    gp_device_t dev;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t ops[1];
    gp_kernel_t k;
    gp_op_cost_t c;
    char msg[256];
    size_t i;
    (void)state;
    open_dev("h200-sxm", &dev, &a);
    g = gp_arch_generation(a, 9, 0);
    assert_non_null(g->ops);
    assert_int_equal(g->ops[GP_OP_MATCH].since.major, 7);
    assert_int_equal(g->ops[GP_OP_WARP_REDUCE].since.major, 8);
    for (i = 0; i < GP_ARRAY_LEN(kinds); i++) {
        memset(ops, 0, sizeof ops);
        ops[0].kind = kinds[i];
        ops[0].count = 8;
        ops[0].ilp = 1;
        k = kernel_of(ops, 1, 256, 1000);
        if (cost_of(&dev, a, &k, 0, &c, msg, sizeof msg))
            fail_msg("op kind %u: %s", kinds[i], msg);
        assert_true(c.latency_cycles > 0);
    }
}

/* mma.sync keeps the 8.x shapes, FP8 included; every type has a rate. */
static void test_tensor_shapes(void **state)
{
    static const struct {
        uint32_t type, m, n, k;
    } v[] = {{GP_TENSOR_FP16, 16, 8, 16}, {GP_TENSOR_BF16, 16, 8, 16},
             {GP_TENSOR_TF32, 16, 8, 8},  {GP_TENSOR_FP64, 8, 8, 4},
             {GP_TENSOR_INT8, 16, 8, 32}, {GP_TENSOR_FP8, 16, 8, 32}};
    gp_device_t dev;
    const gp_arch_t *a;
    const gp_generation_t *g;
    gp_op_t ops[1];
    gp_kernel_t k;
    gp_op_cost_t c;
    char msg[256];
    size_t i;
    (void)state;
    open_dev("h200-sxm", &dev, &a);
    g = gp_arch_generation(a, 9, 0);
    assert_non_null(g->tensor);
    assert_true(g->tensor->default_latency_cycles == 32);
    for (i = 0; i < GP_ARRAY_LEN(v); i++) {
        const gp_mma_shape_t *s = &g->tensor->shape[v[i].type];
        double flops = 2.0 * v[i].m * v[i].n * v[i].k; /* one warp instruction */
        assert_int_equal(s->m, v[i].m);
        assert_int_equal(s->n, v[i].n);
        assert_int_equal(s->k, v[i].k);
        memset(ops, 0, sizeof ops);
        ops[0].kind = GP_OP_TENSOR;
        ops[0].count = flops / 32; /* one instruction's flops per thread */
        ops[0].tensor_type = v[i].type;
        k = kernel_of(ops, 1, 256, 1000);
        if (cost_of(&dev, a, &k, 0, &c, msg, sizeof msg))
            fail_msg("tensor type %u: %s", v[i].type, msg);
        /* one issue slot (a quarter cycle of the SM's four) per instruction */
        assert_true(fabs(c.pipe_cycles[GP_PIPE_ISSUE] * ops[0].count - 0.25) < 1e-12);
        assert_true(c.pipe_cycles[GP_PIPE_TENSOR] > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plugin_descriptor),
        cmocka_unit_test(test_devices),
        cmocka_unit_test(test_alloc_rules),
        cmocka_unit_test(test_occupancy_vectors),
        cmocka_unit_test(test_barriers_per_sm),
        cmocka_unit_test(test_against_cuda_occupancy_h),
        cmocka_unit_test(test_memory_rules),
        cmocka_unit_test(test_warp_ops_available),
        cmocka_unit_test(test_tensor_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
