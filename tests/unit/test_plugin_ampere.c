/*
 * test_plugin_ampere.c - the ampere plugin (compute capability 8.0, 8.6, 8.7,
 * 8.9): occupancy by cuda_occupancy.h's rules per minor version (checked
 * against the header itself where it is installed), the design seed's worked
 * example, carve-outs, the FP32/INT32 sharing of 8.6/8.7/8.9, tensor-core
 * instructions, asynchronous copies, device checks and the shipped devices.
 */
#include "test_common.h"

#include <math.h>

#include "device.h"
#include "coalesce.h"
#include "opcost.h"

#include "test_cuda_occ.h"

/* A device loaded by name (devices/NAME.ini), failing the test otherwise. */
static void open_dev(const char *name, gp_device_t *dev, const gp_arch_t **arch)
{
    gp_err_t err;
    if (gp_device_open(name, dev, arch, &err))
        fail_msg("%s", err.msg);
    assert_string_equal((*arch)->plugin->name, "ampere");
}

/* A device from a shipped file with some lines replaced: pairs of (line
   prefix, new line), NULL-terminated. Returns 0 or -1 with err set. */
static int load_edited(const char *file, const char *const *edits, gp_device_t *dev,
                       const gp_arch_t **arch, gp_err_t *err)
{
    char path[256], *text;
    int rc, i;
    snprintf(path, sizeof path, "devices/%s.ini", file);
    text = tc_read(path);
    for (i = 0; edits[i]; i += 2) {
        char *next = tc_replace_line(text, edits[i], edits[i + 1]);
        free(text);
        text = next;
    }
    rc = gp_device_load_text(file, text, strlen(text), dev, arch, err);
    free(text);
    return rc;
}

/* An 8.9 device (AD10x SM: 1536 threads, 24 blocks) and an 8.7 one (GA10B:
   GA100's 192 KiB array, 1536 threads, 16 blocks), made from shipped files. */
static void open_89(gp_device_t *dev, const gp_arch_t **arch)
{
    static const char *const edits[] = {"compute_capability", "compute_capability = 8.9",
                                        "max_blocks_per_sm", "max_blocks_per_sm = 24", NULL};
    gp_err_t err;
    if (load_edited("geforce-rtx-3090", edits, dev, arch, &err))
        fail_msg("%s", err.msg);
}

static void open_87(gp_device_t *dev, const gp_arch_t **arch)
{
    static const char *const edits[] = {"compute_capability", "compute_capability = 8.7",
                                        "max_threads_per_sm", "max_threads_per_sm = 1536",
                                        "max_blocks_per_sm",  "max_blocks_per_sm = 16",
                                        NULL};
    gp_err_t err;
    if (load_edited("a100-sxm4-40gb", edits, dev, arch, &err))
        fail_msg("%s", err.msg);
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
    const gp_arch_t *a = gp_arch_get("ampere", &err);
    gp_device_t dev;
    gp_arch_info_t info;
    char ccs[64];
    (void)state;
    assert_non_null(a);
    gp_arch_ccs_text(a, ccs, sizeof ccs);
    assert_string_equal(ccs, "8.0, 8.6, 8.7, 8.9");
    assert_false(gp_arch_serves(a, 9, 0));
    open_dev("a100-sxm4-40gb", &dev, &a);
    if (gp_arch_info(a, &dev, &info, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(info.max_concurrent_kernels, 128);
}

/* The shipped devices load with the values their rows depend on. */
static void test_devices(void **state)
{
    static const struct {
        const char *name;
        uint32_t minor, sms, threads, blocks;
        uint64_t smem, l1;
    } v[] = {
        {"a100-sxm4-40gb", 0, 108, 2048, 32, 167936, 196608},
        {"a100-sxm4-80gb", 0, 108, 2048, 32, 167936, 196608},
        {"geforce-rtx-3090", 6, 82, 1536, 16, 102400, 131072},
        {"seed-20sm", 0, 20, 2048, 32, 167936, 196608},
    };
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(v); i++) {
        gp_device_t dev;
        const gp_arch_t *a;
        open_dev(v[i].name, &dev, &a);
        assert_int_equal(dev.cc_major, 8);
        assert_int_equal(dev.cc_minor, v[i].minor);
        assert_int_equal(dev.sm_count, v[i].sms);
        assert_int_equal(dev.max_threads_per_sm, v[i].threads);
        assert_int_equal(dev.max_blocks_per_sm, v[i].blocks);
        assert_int_equal(dev.shared_memory_per_sm_bytes, v[i].smem);
        assert_int_equal(dev.l1_shared_bytes, v[i].l1);
        assert_int_equal(dev.reserved_shared_memory_per_block_bytes, 1024);
    }
}

/* The design seed's worked example on its 20-SM A100-class GPU. */
static void test_seed_worked_example(void **state)
{
    gp_device_t dev;
    const gp_arch_t *a;
    gp_occupancy_t o;
    (void)state;
    open_dev("seed-20sm", &dev, &a);
    assert_int_equal(dev.l2_bytes, 40u << 20);
    /* kernel A: 256 threads, 32 registers, no shared memory */
    o = occ_of(&dev, a, 256, 32, 0, 0, -1);
    assert_int_equal(o.blocks_per_sm, 8);
    assert_int_equal(o.limiter, GP_LIMIT_WARPS);
    assert_true(o.occupancy == 1.0);
    /* kernel B: 512 threads, 64 registers, 8 KiB shared memory */
    o = occ_of(&dev, a, 512, 64, 8192, 0, -1);
    assert_int_equal(o.blocks_per_sm, 2);
    assert_int_equal(o.limiter, GP_LIMIT_REGISTERS);
    assert_int_equal(o.regs_per_block_allocated, 32768);
    assert_int_equal(o.smem_per_block_allocated, 9216); /* + 1 KiB reserved */
}

/* Hand-worked vectors from cuda_occupancy.h's formulas, per minor version. */
static void test_occupancy_vectors(void **state)
{
    static const struct {
        const char *dev; /* shipped file, or "8.7" / "8.9" */
        uint32_t threads, regs;
        uint64_t smem, dyn;
        uint32_t want, limiter;
    } v[] = {
        /* 8.0: 2048 threads, 32 blocks, carve-outs to 164 KiB */
        {"a100-sxm4-40gb", 1024, 32, 0, 0, 2, GP_LIMIT_WARPS},
        {"a100-sxm4-40gb", 256, 64, 0, 0, 4, GP_LIMIT_REGISTERS},
        {"a100-sxm4-40gb", 128, 16, 0, 102400, 1, GP_LIMIT_SHARED_MEMORY},
        {"a100-sxm4-40gb", 64, 16, 0, 0, 32, GP_LIMIT_WARPS}, /* warps = blocks = 32 */
        {"a100-sxm4-40gb", 32, 255, 0, 0, 8, GP_LIMIT_REGISTERS},
        {"a100-sxm4-40gb", 256, 16, 0, 50000, 3, GP_LIMIT_SHARED_MEMORY},
        {"a100-sxm4-40gb", 256, 16, 0, 166912, 1, GP_LIMIT_SHARED_MEMORY},
        /* 8.6: 1536 threads, 16 blocks, carve-outs to 100 KiB */
        {"geforce-rtx-3090", 1024, 32, 0, 0, 1, GP_LIMIT_WARPS},
        {"geforce-rtx-3090", 256, 32, 0, 0, 6, GP_LIMIT_WARPS},
        {"geforce-rtx-3090", 64, 16, 0, 0, 16, GP_LIMIT_BLOCKS},
        {"geforce-rtx-3090", 128, 16, 40960, 0, 2, GP_LIMIT_SHARED_MEMORY},
        {"geforce-rtx-3090", 256, 64, 0, 0, 4, GP_LIMIT_REGISTERS},
        {"geforce-rtx-3090", 512, 16, 0, 101376, 1, GP_LIMIT_SHARED_MEMORY},
        {"geforce-rtx-3090", 256, 16, 0, 101377, 0, GP_LIMIT_SMEM_PER_BLOCK},
        /* 8.9: 24 blocks */
        {"8.9", 64, 16, 0, 0, 24, GP_LIMIT_WARPS},
        {"8.9", 32, 16, 0, 0, 24, GP_LIMIT_BLOCKS},
        {"8.9", 128, 16, 0, 0, 12, GP_LIMIT_WARPS},
        /* 8.7: 16 blocks with 8.0's carve-outs */
        {"8.7", 64, 16, 0, 0, 16, GP_LIMIT_BLOCKS},
        {"8.7", 128, 16, 0, 122880, 1, GP_LIMIT_SHARED_MEMORY},
        {"8.7", 128, 16, 0, 65536, 2, GP_LIMIT_SHARED_MEMORY},
    };
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(v); i++) {
        gp_device_t dev;
        const gp_arch_t *a;
        gp_occupancy_t o;
        if (strcmp(v[i].dev, "8.9") == 0)
            open_89(&dev, &a);
        else if (strcmp(v[i].dev, "8.7") == 0)
            open_87(&dev, &a);
        else
            open_dev(v[i].dev, &dev, &a);
        o = occ_of(&dev, a, v[i].threads, v[i].regs, v[i].smem, v[i].dyn, -1);
        if (o.blocks_per_sm != v[i].want || o.limiter != v[i].limiter)
            fail_msg("%s: %u threads, %u regs, %llu + %llu smem: %u blocks (%s), want %u (%s)",
                     v[i].dev, v[i].threads, v[i].regs, (unsigned long long)v[i].smem,
                     (unsigned long long)v[i].dyn, o.blocks_per_sm,
                     gp_limiter_name(o.limiter), v[i].want, gp_limiter_name(v[i].limiter));
    }
}

/* Carve-out steps: 0..164 KiB on 8.0, 0..100 KiB on 8.6; the L1 left over
   is what caches global loads. */
static void test_carveouts(void **state)
{
    gp_device_t a100, rtx;
    const gp_arch_t *a;
    gp_occupancy_t o;
    (void)state;
    open_dev("a100-sxm4-40gb", &a100, &a);
    /* prefer L1: the 1 KiB reservation alone still needs the 8 KiB step
       (cuda_occupancy.h counts it for every block) */
    o = occ_of(&a100, a, 256, 16, 0, 0, 0);
    assert_int_equal(o.smem_per_block_allocated, 1024);
    assert_int_equal(o.smem_per_sm_configured, 8192);
    assert_int_equal(o.l1_bytes_available, 196608 - 8192);
    o = occ_of(&a100, a, 256, 16, 0, 0, 9); /* 9% of 164 KiB -> the 16 KiB step */
    assert_int_equal(o.smem_per_sm_configured, 16384);
    assert_int_equal(o.l1_bytes_available, 196608 - 16384);
    o = occ_of(&a100, a, 256, 16, 0, 20000, 0); /* a block needs 21 KiB: 32 KiB step */
    assert_int_equal(o.smem_per_sm_configured, 32768);
    assert_int_equal(o.blocks_per_sm, 1);
    o = occ_of(&a100, a, 256, 16, 0, 110000, 50); /* 108.5 KiB: the 132 KiB step */
    assert_int_equal(o.smem_per_sm_configured, 132 * 1024);
    /* no preference: occupancy counts the largest step, the L1 keeps what
       the smallest step that holds the resident blocks leaves */
    o = occ_of(&a100, a, 256, 16, 0, 0, -1);
    assert_int_equal(o.smem_per_sm_configured, 164 * 1024);
    assert_int_equal(o.l1_bytes_available, 196608 - 8192); /* one block: 1 KiB */
    o = occ_of(&a100, a, 256, 16, 20000, 0, -1); /* 21120 B a block */
    assert_int_equal(o.smem_per_sm_configured, 164 * 1024);
    assert_int_equal(o.blocks_per_sm, 7);
    assert_int_equal(o.l1_bytes_available, 196608 - 32768); /* one block: the 32 KiB step */
    {
        /* a grid that fills the SMs: 7 x 21120 B resident need the 164 KiB
           step, as the largest; 2 blocks per SM need 64 KiB */
        gp_launch_t l = launch_of(256, 16, 20000, 0, -1);
        gp_err_t err;
        l.grid.x = 108 * 7;
        assert_int_equal(gp_arch_occupancy(a, &a100, &l, &o, &err), 0);
        assert_int_equal(o.blocks_per_sm, 7);
        assert_int_equal(o.l1_bytes_available, 28 * 1024);
        l.grid.x = 108 * 2;
        assert_int_equal(gp_arch_occupancy(a, &a100, &l, &o, &err), 0);
        assert_int_equal(o.blocks_per_sm, 7);
        assert_int_equal(o.smem_per_sm_configured, 164 * 1024);
        assert_int_equal(o.l1_bytes_available, 196608 - 65536);
    }
    open_dev("geforce-rtx-3090", &rtx, &a);
    o = occ_of(&rtx, a, 256, 16, 0, 0, -1);
    assert_int_equal(o.smem_per_sm_configured, 100 * 1024);
    assert_int_equal(o.l1_bytes_available, 131072 - 8192);
    o = occ_of(&rtx, a, 256, 16, 0, 70000, 25); /* 25 KiB preferred, 69.4 KiB needed */
    assert_int_equal(o.smem_per_sm_configured, 100 * 1024);
    o = occ_of(&rtx, a, 256, 16, 0, 40000, 25); /* 40 KiB needed: the 64 KiB step */
    assert_int_equal(o.smem_per_sm_configured, 64 * 1024);
    assert_int_equal(o.blocks_per_sm, 1);
}

/* 8.x has no block-barrier limit in cuda_occupancy.h (it starts with 9.0). */
static void test_no_barrier_limit(void **state)
{
    gp_device_t dev;
    const gp_arch_t *a;
    gp_launch_t l = launch_of(32, 16, 0, 0, -1);
    gp_occupancy_t o;
    gp_err_t err;
    (void)state;
    open_dev("a100-sxm4-40gb", &dev, &a);
    l.barriers_per_block = 16;
    if (gp_arch_occupancy(a, &dev, &l, &o, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(o.blocks_per_sm, 32);
    assert_int_equal(o.limit_barriers, UINT32_MAX);
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

/* Every combination of a launch grid against the header, for each minor. */
static void test_against_cuda_occupancy_h(void **state)
{
#ifdef GP_CUDA_OCCUPANCY_H
    static const uint32_t threads[] = {32, 64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024};
    static const uint32_t regs[] = {0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 96, 128, 168, 200, 255};
    static const uint64_t dyn[] = {0,     1,     1024,  8192,  20000,  40000,  48128,
                                   49152, 70000, 99328, 101376, 120000, 166912, 166913};
    static const int carve[] = {-1, 0, 9, 25, 50, 75, 100};
    int which;
    unsigned checked = 0;
    (void)state;
    for (which = 0; which < 4; which++) {
        gp_device_t dev;
        const gp_arch_t *a;
        size_t t, r, d, c;
        if (which == 0)
            open_dev("a100-sxm4-40gb", &dev, &a);
        else if (which == 1)
            open_dev("geforce-rtx-3090", &dev, &a);
        else if (which == 2)
            open_87(&dev, &a);
        else
            open_89(&dev, &a);
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
                            fail_msg("8.%u: %u threads, %u regs, %llu dynamic smem, carve-out "
                                     "%d: plugin %u blocks, cuda_occupancy.h %d",
                                     dev.cc_minor, threads[t], regs[r],
                                     (unsigned long long)dyn[d], carve[c], o.blocks_per_sm,
                                     want);
                        checked++;
                    }
    }
    assert_true(checked > 10000);
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

static gp_op_t arith(uint32_t kind, double count, double ilp)
{
    gp_op_t op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    op.count = count;
    op.ilp = ilp;
    return op;
}

/* One block's cost at full residency. */
static gp_block_cost_t block_cost_of(const gp_device_t *dev, const gp_arch_t *a,
                                     const gp_kernel_t *k)
{
    gp_occupancy_t o = occ_of(dev, a, (uint32_t)k->launch.threads_per_block,
                              k->launch.regs_per_thread, 0, 0, -1);
    gp_residency_t r = full_sm(dev, &o);
    gp_block_cost_t b;
    gp_err_t err;
    if (gp_arch_block_cost(a, dev, k, &o, &r, &b, &err))
        fail_msg("%s", err.msg);
    return b;
}

/* 8.6 (and 8.7, 8.9): INT32 instructions run on the datapath shared with
   FP32, so they take FP32 capacity; on 8.0 the INT32 lanes are separate. */
static void test_int32_shares_fp32(void **state)
{
    gp_device_t a100, rtx, ada, wide;
    const gp_arch_t *a;
    gp_op_t ops[3];
    gp_kernel_t k;
    gp_op_cost_t c;
    char msg[256];
    gp_block_cost_t fp_only, mixed;
    static const char *const dual[] = {"dispatch_per_scheduler", "dispatch_per_scheduler = 2",
                                       NULL};
    gp_err_t err;
    (void)state;
    open_dev("a100-sxm4-40gb", &a100, &a);
    open_dev("geforce-rtx-3090", &rtx, &a);
    open_89(&ada, &a);
    ops[0] = arith(GP_OP_INT, 1, 1);
    k = kernel_of(ops, 1, 256, 1000);
    assert_int_equal(cost_of(&rtx, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(c.pipe_cycles[GP_PIPE_INT] == 32.0 / 64);  /* the shared datapath */
    assert_true(c.pipe_cycles[GP_PIPE_FP32] == 32.0 / 128); /* one FP32 slot */
    assert_int_equal(cost_of(&ada, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(c.pipe_cycles[GP_PIPE_FP32] == 32.0 / 128);
    assert_int_equal(cost_of(&a100, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(c.pipe_cycles[GP_PIPE_INT] == 32.0 / 64);
    assert_true(c.pipe_cycles[GP_PIPE_FP32] == 0); /* GA100: separate INT32 lanes */
    ops[0] = arith(GP_OP_FP32, 1, 1);
    assert_int_equal(cost_of(&rtx, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(c.pipe_cycles[GP_PIPE_FP32] == 32.0 / 128 && c.pipe_cycles[GP_PIPE_INT] == 0);

    /* a throughput-bound loop of 8 FP32 and 8 INT32 instructions per trip,
       against the same loop with the FP32 instructions alone */
    ops[0].kind = GP_OP_LOOP;
    ops[0].count = 2000;
    ops[0].body_len = 2;
    ops[1] = arith(GP_OP_FP32, 8, 8);
    ops[2] = arith(GP_OP_INT, 8, 8);
    k = kernel_of(ops, 3, 256, 1000);
    /* 8.0: the INT32 lanes work beside the FP32 lanes: no slower */
    mixed = block_cost_of(&a100, a, &k);
    k.n_ops = 2;
    ops[0].body_len = 1;
    fp_only = block_cost_of(&a100, a, &k);
    assert_true(fabs(mixed.time_cycles / fp_only.time_cycles - 1.0) < 0.15);
    /* 8.6: every INT32 instruction takes an FP32 slot: twice the time */
    fp_only = block_cost_of(&rtx, a, &k);
    k.n_ops = 3;
    ops[0].body_len = 2;
    mixed = block_cost_of(&rtx, a, &k);
    assert_true(fabs(mixed.time_cycles / fp_only.time_cycles - 2.0) < 0.1);
    /* the INT32 instructions doubled the FP32 pipe's work */
    assert_true(fabs(mixed.pipe_cycles[GP_PIPE_FP32] - 2 * fp_only.pipe_cycles[GP_PIPE_FP32]) <
                1e-6);
    /* with two dispatches per clock the FP32 pipe binds: 24 FP32 + 8 INT32
       instructions take as long as 32 FP32 instructions */
    if (load_edited("geforce-rtx-3090", dual, &wide, &a, &err))
        fail_msg("%s", err.msg);
    ops[1] = arith(GP_OP_FP32, 24, 8);
    mixed = block_cost_of(&wide, a, &k);
    ops[1] = arith(GP_OP_FP32, 32, 8);
    k.n_ops = 2;
    ops[0].body_len = 1;
    fp_only = block_cost_of(&wide, a, &k);
    assert_int_equal(mixed.bound_pipe, GP_PIPE_FP32);
    assert_true(fabs(mixed.pipe_cycles[GP_PIPE_FP32] - fp_only.pipe_cycles[GP_PIPE_FP32]) < 1e-6);
}

/* Tensor work is issued as mma.sync instructions of a fixed shape. */
static void test_tensor_ops(void **state)
{
    gp_device_t a100, rtx, ada;
    const gp_arch_t *a;
    gp_op_t ops[2];
    gp_kernel_t k;
    gp_op_cost_t c;
    gp_block_cost_t b;
    char msg[256];
    double per_block_flops, sm_rate;
    static const char *const fp8[] = {"compute_capability", "compute_capability = 8.9",
                                      "max_blocks_per_sm", "max_blocks_per_sm = 24",
                                      "tensor_int8_ops_per_clock",
                                      "tensor_int8_ops_per_clock = 2048\n"
                                      "tensor_fp8_flops_per_clock = 2048",
                                      NULL};
    gp_err_t err;
    (void)state;
    open_dev("a100-sxm4-40gb", &a100, &a);
    open_dev("geforce-rtx-3090", &rtx, &a);
    memset(ops, 0, sizeof ops);
    ops[0].kind = GP_OP_TENSOR;
    ops[0].count = 128; /* one m16n8k16 mma per thread */
    ops[0].tensor_type = GP_TENSOR_FP16;
    k = kernel_of(ops, 1, 256, 1000);
    assert_int_equal(cost_of(&a100, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(c.pipe_cycles[GP_PIPE_TENSOR] == 32.0 / 2048);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_ISSUE] * 128 - 0.25) < 1e-12); /* 1 issue slot */
    /* no measured latency in the file: the instruction's own 8 cycles on
       its sub-partition's tensor core (4096 flops at 512 per clock) */
    assert_true(fabs(c.latency_cycles * 128 - 8.0) < 1e-9);
    assert_int_equal(cost_of(&rtx, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.latency_cycles * 128 - 32.0) < 1e-9); /* 128 flops/clk/sub-partition */
    /* TF32 (m16n8k8), FP64 (m8n8k4), INT8 (m16n8k32) on GA100 */
    ops[0].tensor_type = GP_TENSOR_TF32;
    assert_int_equal(cost_of(&a100, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_ISSUE] * 64 - 0.25) < 1e-12);
    assert_true(c.pipe_cycles[GP_PIPE_TENSOR] == 32.0 / 1024);
    ops[0].tensor_type = GP_TENSOR_FP64;
    assert_int_equal(cost_of(&a100, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_ISSUE] * 16 - 0.25) < 1e-12);
    assert_true(c.pipe_cycles[GP_PIPE_TENSOR] == 32.0 / 128);
    ops[0].tensor_type = GP_TENSOR_INT8;
    assert_int_equal(cost_of(&a100, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_ISSUE] * 256 - 0.25) < 1e-12);
    /* FP64 MMA is GA100's alone; FP8 arrived with 8.9 */
    ops[0].tensor_type = GP_TENSOR_FP64;
    assert_int_not_equal(cost_of(&rtx, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_contains(msg, "no fp64 tensor cores");
    assert_contains(msg, "GA100");
    ops[0].tensor_type = GP_TENSOR_FP8;
    assert_int_not_equal(cost_of(&a100, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_contains(msg, "no fp8 tensor cores");
    open_89(&ada, &a);
    assert_int_not_equal(cost_of(&ada, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_contains(msg, "tensor_fp8_flops_per_clock");
    if (load_edited("geforce-rtx-3090", fp8, &ada, &a, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(cost_of(&ada, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.pipe_cycles[GP_PIPE_ISSUE] * 256 - 0.25) < 1e-12);
    ops[0].tensor_type = GP_TENSOR_TYPE_COUNT;
    assert_int_not_equal(cost_of(&a100, a, &k, 0, &c, msg, sizeof msg), 0);

    /* a tensor-bound loop runs at the device's dense rate */
    ops[0].kind = GP_OP_LOOP;
    ops[0].count = 1000;
    ops[0].body_len = 1;
    ops[1].kind = GP_OP_TENSOR;
    ops[1].count = 8 * 128; /* eight independent m16n8k16 per trip */
    ops[1].ilp = 8;
    ops[1].tensor_type = GP_TENSOR_FP16;
    k = kernel_of(ops, 2, 256, 1000);
    b = block_cost_of(&a100, a, &k);
    assert_int_equal(b.bound, GP_BOUND_COMPUTE);
    assert_int_equal(b.bound_pipe, GP_PIPE_TENSOR);
    per_block_flops = 256.0 * 1000 * 8 * 128;
    sm_rate = a100.tensor_fp16_flops_per_clock;
    /* 8 blocks share the SM: their work over the SM's rate */
    assert_true(fabs(b.time_cycles / (8 * per_block_flops / sm_rate) - 1.0) < 0.05);
}

/* cp.async: a global -> shared access kind on every 8.x part. */
static void test_async_copy(void **state)
{
    gp_device_t a100, rtx;
    const gp_arch_t *a;
    gp_op_t ops[1];
    gp_kernel_t k;
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    open_dev("a100-sxm4-40gb", &a100, &a);
    open_dev("geforce-rtx-3090", &rtx, &a);
    memset(ops, 0, sizeof ops);
    ops[0].kind = GP_OP_ASYNC_COPY;
    ops[0].count = 1;
    ops[0].space = GP_SPACE_GLOBAL;
    ops[0].access.elem_bytes = 16;
    ops[0].access.pattern = GP_PATTERN_UNIT;
    ops[0].access.footprint_bytes = 1u << 30;
    k = kernel_of(ops, 1, 256, 1000);
    assert_int_equal(cost_of(&a100, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(c.transactions == 16);       /* 512 bytes in 32-byte sectors */
    assert_true(c.l2_bytes == 512);
    assert_true(c.pipe_cycles[GP_PIPE_SHARED] > 0); /* written into shared memory */
    assert_int_equal(cost_of(&rtx, a, &k, 0, &c, msg, sizeof msg), 0);
    ops[0].access.elem_bytes = 4;
    assert_int_equal(cost_of(&rtx, a, &k, 0, &c, msg, sizeof msg), 0);
    ops[0].access.elem_bytes = 2;
    assert_int_not_equal(cost_of(&a100, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_contains(msg, "4, 8 or 16 bytes");
}

/* Global memory: 32-byte sectors, L1 caching with the carve-out's L1. */
static void test_memory_rules(void **state)
{
    gp_device_t dev;
    const gp_arch_t *a;
    gp_op_t ops[1];
    gp_kernel_t k;
    gp_op_cost_t c;
    char msg[256];
    (void)state;
    open_dev("a100-sxm4-40gb", &dev, &a);
    memset(ops, 0, sizeof ops);
    ops[0].kind = GP_OP_LOAD;
    ops[0].count = 1;
    ops[0].space = GP_SPACE_GLOBAL;
    ops[0].access.elem_bytes = 4;
    ops[0].access.pattern = GP_PATTERN_UNIT;
    ops[0].access.footprint_bytes = 1000ull * 256 * 4;
    k = kernel_of(ops, 1, 256, 1000);
    assert_int_equal(cost_of(&dev, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(c.transactions == 4 && c.l2_bytes == 128);
    assert_true(fabs(c.latency_cycles - dev.dram_cycles) < 1e-9); /* read once: DRAM */
    ops[0].access.pattern = GP_PATTERN_STRIDE;
    ops[0].access.stride_elems = 32;
    assert_int_equal(cost_of(&dev, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(c.transactions == 32 && c.l2_bytes == 32 * 32);
    /* a small table read by every thread: L1 hits */
    ops[0].access.pattern = GP_PATTERN_UNIT;
    ops[0].access.stride_elems = 0;
    ops[0].access.footprint_bytes = 4096;
    assert_int_equal(cost_of(&dev, a, &k, 0, &c, msg, sizeof msg), 0);
    assert_true(c.l1_bytes > 0.99 * 128);
    /* all but the table's first reads hit L1; those few come from DRAM */
    assert_true(c.latency_cycles < dev.l1_hit_cycles + 0.01 * dev.dram_cycles);
    assert_true(c.latency_cycles > dev.l1_hit_cycles);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plugin_descriptor),
        cmocka_unit_test(test_devices),
        cmocka_unit_test(test_seed_worked_example),
        cmocka_unit_test(test_occupancy_vectors),
        cmocka_unit_test(test_carveouts),
        cmocka_unit_test(test_no_barrier_limit),
        cmocka_unit_test(test_against_cuda_occupancy_h),
        cmocka_unit_test(test_int32_shares_fp32),
        cmocka_unit_test(test_tensor_ops),
        cmocka_unit_test(test_async_copy),
        cmocka_unit_test(test_memory_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
