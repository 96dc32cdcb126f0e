/*
 * test_occupancy_parity.c - gpuperf's blocks per SM against NVIDIA's own
 * computation, for every shipped device:
 *   - compute capability 3.0 and later: cudaOccMaxActiveBlocksPerMultiprocessor
 *     of the CUDA toolkit's cuda_occupancy.h (compiled in where CMake found
 *     it, GP_CUDA_OCCUPANCY_H) on random launch configurations, and
 *     cudaOccMaxPotentialOccupancyBlockSize against the calculator's best
 *     block size (core/src/occupancy_search.c);
 *   - 1.x: the occupancy calculator spreadsheet's formula, and 2.x: the
 *     CUDA 7.0 cuda_occupancy.h formula, both re-implemented here from the
 *     published text ([sources: xls-m], [sources: occ-h7]) with the
 *     spreadsheet's own GPU data table, so they also cross-check the
 *     plugins' rule tables and the device files.
 * Hand-worked single vectors live beside each plugin (test_plugin_tesla.c:
 * test_worked_example, test_occupancy_vectors; test_plugin_fermi_kepler.c:
 * test_occupancy_20_by_hand, test_register_quirk, test_occupancy_35_by_hand;
 * test_plugin_ampere.c); this file checks the reference formulas on the
 * published examples, then compares in bulk.
 */
#include "test_common.h"

#include <dirent.h>
#include <limits.h>

#include "arch.h"
#include "device.h"
#include "occupancy_search.h"

#include "test_cuda_occ.h"

/* Random configurations per device of compute capability 3.0 and later,
   per pass (default preferences; random cache and carve-out preferences). */
#define RANDOM_PER_DEVICE 5000
/* Random configurations per 1.x / 2.x device, on top of the full grid. */
#define RANDOM_PER_OLD_DEVICE 20000
/* Kernels per device for the best-block-size comparison. */
#define BEST_PER_DEVICE 300
#define MAX_DEVICES 64

/* The shipped devices this test covers; every one must be found. */
static const char *const NEW_DEVICES[] = {"geforce-gtx-680", "tesla-k20x", "tesla-k40",
                                          "a100-sxm4-40gb", "a100-sxm4-80gb",
                                          "geforce-rtx-3090", "seed-20sm", "h100-sxm",
                                          "h200-sxm"};
static const char *const OLD_DEVICES[] = {"geforce-8800-gtx", "tesla-c1060", "geforce-gtx-280",
                                          "geforce-gtx-480", "geforce-gtx-580"};

typedef struct loaded {
    gp_device_t dev;
    const gp_arch_t *arch;
} loaded_t;

static loaded_t g_dev[MAX_DEVICES];
static size_t g_n_dev;

/* ------------------------------------------------------------ fixtures */

/* Load every .ini file of the source tree's devices folder. */
static int setup(void **state)
{
    char path[4096];
    DIR *dir;
    struct dirent *e;
    (void)state;
    snprintf(path, sizeof path, "%s/devices", GP_SOURCE_DIR);
    dir = opendir(path);
    if (!dir)
        return -1;
    while ((e = readdir(dir)) != NULL && g_n_dev < MAX_DEVICES) {
        char name[256];
        size_t len = strlen(e->d_name);
        gp_err_t err;
        if (len < 5 || strcmp(e->d_name + len - 4, ".ini") != 0 || len - 4 >= sizeof name)
            continue;
        memcpy(name, e->d_name, len - 4);
        name[len - 4] = '\0';
        if (gp_device_open(name, &g_dev[g_n_dev].dev, &g_dev[g_n_dev].arch, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            closedir(dir);
            return -1;
        }
        g_n_dev++;
    }
    closedir(dir);
    return 0;
}

/* The loaded device called `id`, or NULL. */
static const loaded_t *find(const char *id)
{
    size_t i;
    for (i = 0; i < g_n_dev; i++)
        if (strcmp(g_dev[i].dev.id, id) == 0)
            return &g_dev[i];
    return NULL;
}

/* ----------------------------------------------------------- randomness */

/* xorshift64*: deterministic, so a failure can be replayed. */
static uint64_t g_rng = 0x9e3779b97f4a7c15ull;

/* The next pseudo-random number. */
static uint64_t rnd(void)
{
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return g_rng * 2685821657736338717ull;
}

/* Uniform in [lo, hi]. */
static uint64_t rnd_in(uint64_t lo, uint64_t hi)
{
    return lo + rnd() % (hi - lo + 1);
}

/* A random launch for d: threads 1-1024, registers 1-255, shared memory from 0 to beyond the opt-in per-block limit, split
   between static (at most the default per-block limit, as nvcc allows) and
   dynamic. With `prefs`, a random cache preference and carve-out too. */
static gp_occ_config_t random_config(const gp_device_t *d, int prefs)
{
    gp_occ_config_t c;
    uint64_t limit = d->shared_memory_per_block_optin_bytes, total, kind = rnd() % 10;
    memset(&c, 0, sizeof c);
    c.threads = rnd_in(1, 1024);
    /* mostly within the device's own limit (63 on 3.0), sometimes up to 255 */
    c.regs = (uint32_t)rnd_in(1, rnd() % 5 ? GP_MIN(255, d->max_registers_per_thread) : 255);
    if (kind < 3)
        total = rnd_in(0, 4096); /* small: registers and warps decide */
    else if (kind < 8)
        total = rnd_in(0, limit + limit / 8);
    else if (kind < 9)
        total = rnd_in(limit > 1024 ? limit - 1024 : 0, limit + 1024); /* around the limit */
    else
        total = rnd_in(d->shared_memory_per_block_bytes - 1024,
                       d->shared_memory_per_block_bytes + 1024); /* around 48 KiB */
    switch (rnd() % 3) {
    case 0: /* all static where it may be */
        c.static_smem_bytes = GP_MIN(total, d->shared_memory_per_block_bytes);
        break;
    case 1: /* all dynamic */
        c.static_smem_bytes = 0;
        break;
    default:
        c.static_smem_bytes = rnd_in(0, GP_MIN(total, d->shared_memory_per_block_bytes));
        break;
    }
    c.dynamic_smem_bytes = total - c.static_smem_bytes;
    c.cache_pref = prefs ? (uint32_t)rnd_in(0, 3) : GP_CACHE_PREFER_NONE;
    c.carveout_percent = prefs && rnd() % 2 ? (int32_t)rnd_in(0, 100) : -1;
    return c;
}

/* gpuperf's occupancy of a configuration (fails the test on a plugin error). */
static gp_occupancy_t ours(const loaded_t *l, const gp_occ_config_t *c)
{
    gp_occ_target_t t = {&l->dev, l->arch};
    gp_occupancy_t o;
    gp_err_t err;
    if (gp_occ_eval(&t, c, &o, &err))
        fail_msg("%s: %s", l->dev.id, err.msg);
    return o;
}

/* "h200-sxm: 256 threads, 32 regs, 0 static + 0 dynamic, cache 0, carve-out -1". */
static void config_text(char *out, size_t size, const loaded_t *l, const gp_occ_config_t *c)
{
    snprintf(out, size,
             "%s (%u.%u): %llu threads, %u regs, %llu static + %llu dynamic bytes "
             "(+%llu per thread), cache %u, carve-out %d",
             l->dev.id, l->dev.cc_major, l->dev.cc_minor, (unsigned long long)c->threads,
             c->regs, (unsigned long long)c->static_smem_bytes,
             (unsigned long long)c->dynamic_smem_bytes,
             (unsigned long long)c->smem_per_thread_bytes, c->cache_pref, c->carveout_percent);
}

/* ------------------------------------------------- 1.x: the spreadsheet */

/* The spreadsheet's "GPU Data" sheet (v5.1, as XLS-M embeds it) for one
   compute capability; independent of the device files and plugins. */
typedef struct xls_gpu {
    uint32_t cc, warps_per_sm, blocks_per_sm, smem_per_sm, regs_per_sm, reg_unit,
        max_regs_per_thread, smem_unit, warp_gran, max_block;
} xls_gpu_t;

static const xls_gpu_t XLS[] = {
    {10, 24, 8, 16384, 8192, 256, 124, 512, 2, 512},
    {11, 24, 8, 16384, 8192, 256, 124, 512, 2, 512},
    {12, 32, 8, 16384, 16384, 512, 124, 512, 2, 512},
    {13, 32, 8, 16384, 16384, 512, 124, 512, 2, 512},
    {20, 48, 8, 49152, 32768, 64, 63, 128, 2, 1024},
    {21, 48, 8, 49152, 32768, 64, 63, 128, 2, 1024},
};

/* The spreadsheet row of a device's compute capability, or NULL. */
static const xls_gpu_t *xls_of(const gp_device_t *d)
{
    size_t i;
    for (i = 0; i < GP_ARRAY_LEN(XLS); i++)
        if (XLS[i].cc == d->cc_major * 10 + d->cc_minor)
            return &XLS[i];
    return NULL;
}

/* x rounded up to a multiple of unit. */
static uint64_t up(uint64_t x, uint64_t unit)
{
    return (x + unit - 1) / unit * unit;
}

/*
 * Blocks per SM by the spreadsheet (1.x): registers allocated per block,
 * the block's warps rounded up to even, rounded up to the unit (B39);
 * shared memory in units of 512 (B40); the warp limit counts the block's
 * own warps (D38); above 124 registers per thread nothing runs (D39). A
 * block above the maximum block size cannot run at all (row 14).
 */
static uint32_t ref_1x(const xls_gpu_t *g, uint64_t threads, uint32_t regs, uint64_t smem,
                       uint32_t *regs_alloc)
{
    uint64_t warps = (threads + 31) / 32, by_warps, by_regs, by_smem, b;
    *regs_alloc = (uint32_t)up(up(warps, g->warp_gran) * 32 * regs, g->reg_unit);
    if (threads > g->max_block)
        return 0;
    by_warps = GP_MIN(g->blocks_per_sm, g->warps_per_sm / warps);
    by_regs = regs == 0 ? g->blocks_per_sm
              : regs > g->max_regs_per_thread ? 0
                                              : g->regs_per_sm / *regs_alloc;
    by_smem = smem == 0 ? g->blocks_per_sm : g->smem_per_sm / up(smem, g->smem_unit);
    b = GP_MIN(by_warps, GP_MIN(by_regs, by_smem));
    return (uint32_t)b;
}

/*
 * Blocks per SM by the CUDA 7.0 cuda_occupancy.h (2.x): registers per warp
 * rounded to 64, or 128 for 21, 22, 29, 30, 37, 38, 45 and 46 per thread;
 * warps per sub-partition (two) by registers; the hardware check rounds the
 * block's warps up to the sub-partitions; shared memory in units of 128
 * over 48 KiB, or 16 KiB when L1 is preferred and the block fits; 8 blocks.
 * The header has no per-thread register check: 63 is the compiler's limit
 * on 2.x (PG42 Table F-2), applied here as gpuperf applies it.
 */
static uint32_t ref_2x(const xls_gpu_t *g, uint64_t threads, uint32_t regs, uint64_t smem,
                       uint32_t cache_pref, uint32_t *regs_alloc)
{
    static const uint32_t quirk[] = {21, 22, 29, 30, 37, 38, 45, 46};
    const uint64_t subs = 2, l1_min = 16384, l1_max = 49152;
    uint64_t warps = (threads + 31) / 32, unit = g->reg_unit, per_warp, assumed, by_warps,
             by_regs, by_smem, smem_alloc, pref_bytes, sm_bytes;
    size_t i;
    for (i = 0; i < GP_ARRAY_LEN(quirk); i++)
        if (regs == quirk[i])
            unit = 128;
    per_warp = up((uint64_t)regs * 32, unit);
    *regs_alloc = (uint32_t)(per_warp * warps);
    assumed = per_warp * up(warps, subs);
    if (threads > g->max_block || regs > g->max_regs_per_thread)
        return 0;
    by_warps = g->warps_per_sm / warps;
    if (assumed > g->regs_per_sm || *regs_alloc > g->regs_per_sm)
        by_regs = 0;
    else
        by_regs = per_warp ? (g->regs_per_sm / subs / per_warp) * subs / warps : UINT32_MAX;
    smem_alloc = up(smem, 128);
    pref_bytes = cache_pref == GP_CACHE_PREFER_L1 ? g->smem_per_sm + l1_min - l1_max
                                                  : g->smem_per_sm; /* equal keeps 48 KiB */
    sm_bytes = pref_bytes >= smem_alloc ? pref_bytes : g->smem_per_sm;
    if (smem_alloc > g->smem_per_sm)
        by_smem = 0;
    else
        by_smem = smem_alloc ? sm_bytes / smem_alloc : UINT32_MAX;
    return (uint32_t)GP_MIN(GP_MIN(by_warps, (uint64_t)g->blocks_per_sm),
                            GP_MIN(by_regs, by_smem));
}

/* The reference for a 1.x or 2.x device. */
static uint32_t ref_blocks(const gp_device_t *d, const gp_occ_config_t *c, uint32_t *regs_alloc)
{
    const xls_gpu_t *g = xls_of(d);
    uint64_t smem = gp_occ_smem_bytes(c);
    if (!g)
        fail_msg("%s: compute capability %u.%u has no spreadsheet row", d->id, d->cc_major,
                 d->cc_minor);
    if (d->cc_major == 1)
        return ref_1x(g, c->threads, c->regs, smem, regs_alloc);
    return ref_2x(g, c->threads, c->regs, smem, c->cache_pref, regs_alloc);
}

/* The reference formulas themselves reproduce the published examples. */
static void test_reference_formulas(void **state)
{
    const xls_gpu_t *cc13 = &XLS[3], *cc10 = &XLS[0], *cc20 = &XLS[4];
    uint32_t alloc;
    (void)state;
    /* [sources: xls-m] worked by hand: CC 1.3, 128 threads, 17 registers: 2176 -> 2560 registers,
       6 blocks, 24 of 32 warps (75 %); PyCUDA's 7 would be wrong */
    assert_int_equal(ref_1x(cc13, 128, 17, 0, &alloc), 6);
    assert_int_equal(alloc, 2560);
    /* 1.0: one warp allocates like two (Wong's 64-thread quantum) */
    assert_int_equal(ref_1x(cc10, 32, 4, 0, &alloc), 8);
    assert_int_equal(alloc, 256);
    assert_int_equal(ref_1x(cc10, 96, 21, 0, &alloc), 2); /* 2688 -> 2816 */
    /* 2.x quirk (OCC-H7): 21 registers allocate 768 per warp, 20 only 640 */
    assert_int_equal(ref_2x(cc20, 256, 20, 0, 0, &alloc), 6);
    assert_int_equal(alloc, 8 * 640);
    assert_int_equal(ref_2x(cc20, 256, 21, 0, 0, &alloc), 5);
    assert_int_equal(alloc, 8 * 768);
    assert_int_equal(ref_2x(cc20, 256, 23, 0, 0, &alloc), 5); /* 736 -> 768 by 64 */
    /* the hardware check: 32 warps x 1088 registers > 32768 */
    assert_int_equal(ref_2x(cc20, 1024, 33, 0, 0, &alloc), 0);
    assert_int_equal(ref_2x(cc20, 1024, 32, 0, 0, &alloc), 1);
    /* prefer L1: 16 KiB of shared memory unless the block needs more */
    assert_int_equal(ref_2x(cc20, 128, 16, 12288, GP_CACHE_PREFER_L1, &alloc), 1);
    assert_int_equal(ref_2x(cc20, 128, 16, 20480, GP_CACHE_PREFER_L1, &alloc), 2);
}

/* The device files agree with the spreadsheet's GPU data. */
static void test_old_devices_match_spreadsheet(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(OLD_DEVICES); i++) {
        const loaded_t *l = find(OLD_DEVICES[i]);
        const xls_gpu_t *g;
        if (!l)
            fail_msg("devices/%s.ini is missing", OLD_DEVICES[i]);
        g = xls_of(&l->dev);
        assert_non_null(g);
        assert_int_equal(l->dev.max_threads_per_sm / l->dev.warp_size, g->warps_per_sm);
        assert_int_equal(l->dev.max_blocks_per_sm, g->blocks_per_sm);
        assert_int_equal(l->dev.registers_per_sm, g->regs_per_sm);
        assert_int_equal(l->dev.shared_memory_per_sm_bytes, g->smem_per_sm);
        assert_int_equal(l->dev.max_registers_per_thread, g->max_regs_per_thread);
        assert_int_equal(l->dev.max_threads_per_block, g->max_block);
    }
}

/* Compare one configuration with the reference; counts mismatches. */
static void old_compare(const loaded_t *l, const gp_occ_config_t *c, unsigned long *n,
                        unsigned long *bad)
{
    uint32_t alloc, want = ref_blocks(&l->dev, c, &alloc);
    gp_occupancy_t o = ours(l, c);
    (*n)++;
    if (o.blocks_per_sm != want || (want > 0 && o.regs_per_block_allocated != alloc)) {
        char what[256];
        config_text(what, sizeof what, l, c);
        if (++*bad <= 10)
            print_message("MISMATCH %s: gpuperf %u blocks (%u registers), reference %u (%u)\n",
                          what, o.blocks_per_sm, o.regs_per_block_allocated, want, alloc);
    }
}

/* 1.x and 2.x: every block size and register count without shared memory,
   then random configurations with shared memory and cache preferences. */
static void test_old_generations(void **state)
{
    unsigned long total = 0, bad = 0;
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(OLD_DEVICES); i++) {
        const loaded_t *l = find(OLD_DEVICES[i]);
        unsigned long n = 0;
        uint64_t th;
        uint32_t r;
        int k;
        if (!l)
            fail_msg("devices/%s.ini is missing", OLD_DEVICES[i]);
        for (th = 1; th <= 1024; th++)
            for (r = 0; r <= l->dev.max_registers_per_thread + 2; r++) {
                gp_occ_config_t c;
                memset(&c, 0, sizeof c);
                c.threads = th;
                c.regs = r;
                c.carveout_percent = -1;
                old_compare(l, &c, &n, &bad);
            }
        for (k = 0; k < RANDOM_PER_OLD_DEVICE; k++) {
            gp_occ_config_t c = random_config(&l->dev, 1);
            c.carveout_percent = -1; /* no carve-outs before 7.0 */
            c.regs = (uint32_t)rnd_in(0, l->dev.max_registers_per_thread + 4);
            old_compare(l, &c, &n, &bad);
        }
        print_message("%-18s %u.%u: %lu configurations against the %s\n", l->dev.id,
                      l->dev.cc_major, l->dev.cc_minor, n,
                      l->dev.cc_major == 1 ? "spreadsheet" : "CUDA 7 cuda_occupancy.h");
        total += n;
    }
    print_message("1.x/2.x: %lu configurations compared, %lu disagree\n", total, bad);
    assert_int_equal(bad, 0);
    assert_true(total > 100000);
}

/* ------------------------------------- 3.0 and later: cuda_occupancy.h */

#ifdef GP_CUDA_OCCUPANCY_H

/* The kernel's attributes: a block above the default per-block limit has
   opted in (cudaFuncSetAttribute(MaxDynamicSharedMemorySize, its dynamic
   size)); one __syncthreads barrier, as cudaFuncAttributes converts. */
static cudaOccFuncAttributes occ_attr(const gp_device_t *d, const gp_occ_config_t *c,
                                      uint64_t dyn)
{
    cudaOccFuncAttributes a;
    memset(&a, 0, sizeof a);
    a.maxThreadsPerBlock = (int)d->max_threads_per_block;
    a.numRegs = (int)c->regs;
    a.sharedSizeBytes = c->static_smem_bytes;
    a.partitionedGCConfig = PARTITIONED_GC_OFF;
    if (c->static_smem_bytes + dyn > d->shared_memory_per_block_bytes) {
        a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
        a.maxDynamicSharedSizeBytes = dyn;
    } else {
        a.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
        a.maxDynamicSharedSizeBytes = d->shared_memory_per_block_bytes - c->static_smem_bytes;
    }
    a.numBlockBarriers = 1;
    return a;
}

/* The cache and carve-out preferences. */
static cudaOccDeviceState occ_state(const gp_occ_config_t *c)
{
    cudaOccDeviceState s;
    memset(&s, 0, sizeof s);
    s.cacheConfig = (cudaOccCacheConfig)c->cache_pref;
    s.carveoutConfig = c->carveout_percent;
    return s;
}

/* gpuperf's limiter as cuda_occupancy.h's limiting-factor bit. */
static unsigned limiter_bit(uint32_t limiter)
{
    switch (limiter) {
    case GP_LIMIT_WARPS: return OCC_LIMIT_WARPS;
    case GP_LIMIT_BLOCKS: return OCC_LIMIT_BLOCKS;
    case GP_LIMIT_REGISTERS: return OCC_LIMIT_REGISTERS;
    case GP_LIMIT_SHARED_MEMORY: return OCC_LIMIT_SHARED_MEMORY;
    case GP_LIMIT_BARRIERS: return OCC_LIMIT_BARRIERS;
    default: return 0;
    }
}

/* Counts of one comparison run. */
typedef struct tally {
    unsigned long compared, bad, refused, impossible;
} tally_t;

/* One configuration against the header. Registers above the device's
   per-thread limit (3.0's 63, which the header, with 255 for every 3.x,
   does not know) are checked to be refused instead. */
static void new_compare(const loaded_t *l, const gp_occ_config_t *c, tally_t *t)
{
    cudaOccDeviceProp p = gp_test_occ_prop(&l->dev);
    cudaOccFuncAttributes a = occ_attr(&l->dev, c, c->dynamic_smem_bytes);
    cudaOccDeviceState s = occ_state(c);
    cudaOccResult r;
    gp_occupancy_t o = ours(l, c);
    char what[256];
    cudaOccError e;
    config_text(what, sizeof what, l, c);
    if (c->regs > l->dev.max_registers_per_thread) {
        if (o.blocks_per_sm != 0 || o.limiter != GP_LIMIT_REGS_PER_THREAD)
            fail_msg("%s: above %u registers per thread it must not run", what,
                     l->dev.max_registers_per_thread);
        t->refused++;
        return;
    }
    memset(&r, 0, sizeof r);
    e = cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, (int)c->threads,
                                                c->dynamic_smem_bytes);
    if (e != CUDA_OCC_SUCCESS)
        fail_msg("%s: cuda_occupancy.h returned error %d", what, (int)e);
    t->compared++;
    if (r.activeBlocksPerMultiprocessor == 0)
        t->impossible++;
    if ((int)o.blocks_per_sm != r.activeBlocksPerMultiprocessor ||
        (o.blocks_per_sm > 0 &&
         ((int)o.regs_per_block_allocated != r.allocatedRegistersPerBlock ||
          o.smem_per_block_allocated != r.allocatedSharedMemPerBlock ||
          !(limiter_bit(o.limiter) & r.limitingFactors)))) {
        if (++t->bad <= 10)
            print_message("MISMATCH %s: gpuperf %u blocks (%u registers, %llu bytes, %s), "
                          "cuda_occupancy.h %d (%d registers, %zu bytes, factors 0x%x)\n",
                          what, o.blocks_per_sm, o.regs_per_block_allocated,
                          (unsigned long long)o.smem_per_block_allocated,
                          gp_limiter_name(o.limiter), r.activeBlocksPerMultiprocessor,
                          r.allocatedRegistersPerBlock, r.allocatedSharedMemPerBlock,
                          r.limitingFactors);
    }
}
#endif

/* The shipped devices of 3.0 and later are all there. */
static void test_new_devices_present(void **state)
{
    size_t i, n = 0;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(NEW_DEVICES); i++)
        if (!find(NEW_DEVICES[i]))
            fail_msg("devices/%s.ini is missing", NEW_DEVICES[i]);
    for (i = 0; i < g_n_dev; i++)
        n += g_dev[i].dev.cc_major >= 3;
    assert_true(n >= GP_ARRAY_LEN(NEW_DEVICES));
}

/* Random configurations on every device of 3.0 and later (every shipped
   one, not only those named above), default preferences then random ones. */
static void test_against_cuda_occupancy_h(void **state)
{
#ifdef GP_CUDA_OCCUPANCY_H
    tally_t all;
    size_t i;
    int pass, k;
    (void)state;
    memset(&all, 0, sizeof all);
    for (i = 0; i < g_n_dev; i++) {
        const loaded_t *l = &g_dev[i];
        tally_t t;
        if (l->dev.cc_major < 3)
            continue;
        memset(&t, 0, sizeof t);
        for (pass = 0; pass < 2; pass++)
            for (k = 0; k < RANDOM_PER_DEVICE; k++) {
                gp_occ_config_t c = random_config(&l->dev, pass);
                new_compare(l, &c, &t);
            }
        print_message("%-18s %u.%u: %lu compared (%lu cannot run), %lu above %u registers "
                      "refused, %lu disagree\n",
                      l->dev.id, l->dev.cc_major, l->dev.cc_minor, t.compared, t.impossible,
                      t.refused, l->dev.max_registers_per_thread, t.bad);
        all.compared += t.compared;
        all.bad += t.bad;
        all.refused += t.refused;
        all.impossible += t.impossible;
    }
    print_message("3.0+: %lu configurations compared with %s (CUDA_OCC %d.%d), %lu agree "
                  "(%.2f%%); %lu refused above the per-thread register limit\n",
                  all.compared, GP_CUDA_OCCUPANCY_H, __CUDA_OCC_MAJOR__, __CUDA_OCC_MINOR__,
                  all.compared - all.bad,
                  all.compared ? 100.0 * (double)(all.compared - all.bad) / (double)all.compared
                               : 0,
                  all.refused);
    assert_int_equal(all.bad, 0);
    assert_true(all.compared >= 2 * RANDOM_PER_DEVICE * GP_ARRAY_LEN(NEW_DEVICES) / 2);
    assert_true(all.impossible > 0 && all.impossible < all.compared);
#else
    (void)state;
    print_message("cuda_occupancy.h was not found at configure time "
                  "(GPUPERF_CUDA_OCCUPANCY_H): comparison skipped\n");
    skip();
#endif
}

#ifdef GP_CUDA_OCCUPANCY_H
/* The kernel under test's dynamic shared memory: base + threads x per thread. */
static uint64_t g_dyn_base, g_dyn_per_thread;

/* blockSizeToDynamicSMemSize of the kernel under test. */
static size_t dyn_of_block(int threads)
{
    return (size_t)(g_dyn_base + (uint64_t)threads * g_dyn_per_thread);
}
#endif

/* The calculator's best block size against cudaOccMaxPotentialOccupancyBlockSize
   (which answers the largest of equal block sizes), with shared memory that
   grows with the block. */
static void test_best_block_against_cuda_occupancy_h(void **state)
{
#ifdef GP_CUDA_OCCUPANCY_H
    unsigned long n = 0, bad = 0, none = 0;
    size_t i;
    int k;
    (void)state;
    for (i = 0; i < g_n_dev; i++) {
        const loaded_t *l = &g_dev[i];
        gp_occ_target_t t = {&l->dev, l->arch};
        if (l->dev.cc_major < 3)
            continue;
        for (k = 0; k < BEST_PER_DEVICE; k++) {
            gp_occ_config_t c = random_config(&l->dev, k % 2);
            cudaOccDeviceProp p = gp_test_occ_prop(&l->dev);
            cudaOccFuncAttributes a;
            cudaOccDeviceState s = occ_state(&c);
            gp_occ_best_t best;
            gp_err_t err;
            int grid = 0, block = 0;
            c.regs = (uint32_t)rnd_in(1, l->dev.max_registers_per_thread);
            c.dynamic_smem_bytes /= 4;
            c.smem_per_thread_bytes = k % 3 ? 0 : rnd_in(0, 128);
            g_dyn_base = c.dynamic_smem_bytes;
            g_dyn_per_thread = c.smem_per_thread_bytes;
            /* opted in up to the largest block: the limit is one attribute
               of the function, set once for every block size */
            a = occ_attr(&l->dev, &c, l->dev.shared_memory_per_block_optin_bytes);
            a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
            a.maxDynamicSharedSizeBytes =
                l->dev.shared_memory_per_block_optin_bytes - c.static_smem_bytes;
            if (cudaOccMaxPotentialOccupancyBlockSize(&grid, &block, &p, &a, &s, dyn_of_block,
                                                      0) != CUDA_OCC_SUCCESS)
                fail_msg("%s: cuda_occupancy.h failed", l->dev.id);
            if (gp_occ_best_block(&t, &c, &best, &err))
                fail_msg("%s", err.msg);
            n++;
            none += block == 0;
            if ((uint64_t)block != best.threads_largest ||
                (uint64_t)grid != best.min_grid_blocks_largest ||
                (best.threads && best.threads > best.threads_largest)) {
                char what[256];
                config_text(what, sizeof what, l, &c);
                if (++bad <= 10)
                    print_message("MISMATCH %s: gpuperf %llu..%llu threads, grid %llu; "
                                  "cuda_occupancy.h %d threads, grid %d\n",
                                  what, (unsigned long long)best.threads,
                                  (unsigned long long)best.threads_largest,
                                  (unsigned long long)best.min_grid_blocks_largest, block,
                                  grid);
            }
        }
    }
    print_message("best block size: %lu kernels compared with "
                  "cudaOccMaxPotentialOccupancyBlockSize (%lu run at no size), %lu disagree\n",
                  n, none, bad);
    assert_int_equal(bad, 0);
#else
    (void)state;
    print_message("cuda_occupancy.h was not found at configure time: comparison skipped\n");
    skip();
#endif
}

/* The advice keeps its promises on every device, re-evaluated: a step
   raises the active warps, a fix makes the launch run, each reports the
   occupancy it gives, and a register step is the largest count that works. */
static void test_advice_promises(void **state)
{
    unsigned long steps = 0, fixes = 0;
    size_t i;
    int k, knob;
    (void)state;
    for (i = 0; i < g_n_dev; i++) {
        const loaded_t *l = &g_dev[i];
        gp_occ_target_t t = {&l->dev, l->arch};
        for (k = 0; k < 200; k++) {
            gp_occ_config_t c = random_config(&l->dev, 0);
            gp_occ_step_t st[GP_OCC_KNOB_COUNT];
            gp_occupancy_t now;
            gp_err_t err;
            if (k % 2)
                c.regs = (uint32_t)rnd_in(1, l->dev.max_registers_per_thread);
            now = ours(l, &c);
            if (gp_occ_advise(&t, &c, &now, st, &err))
                fail_msg("%s", err.msg);
            for (knob = 0; knob < GP_OCC_KNOB_COUNT; knob++) {
                gp_occ_config_t n = c;
                gp_occupancy_t o;
                if (!st[knob].found)
                    continue;
                if (knob == GP_OCC_KNOB_REGS)
                    n.regs = (uint32_t)st[knob].value;
                else if (knob == GP_OCC_KNOB_SMEM)
                    n = gp_occ_with_smem(&c, st[knob].value);
                else if (knob == GP_OCC_KNOB_THREADS)
                    n.threads = st[knob].value;
                else {
                    n.threads = st[knob].values[GP_OCC_KNOB_THREADS];
                    n.regs = (uint32_t)st[knob].values[GP_OCC_KNOB_REGS];
                    n = gp_occ_with_smem(&n, st[knob].values[GP_OCC_KNOB_SMEM]);
                }
                o = ours(l, &n);
                assert_int_equal(o.blocks_per_sm, st[knob].occ.blocks_per_sm);
                if (now.blocks_per_sm == 0) {
                    assert_true(o.blocks_per_sm > 0);
                    fixes++;
                } else {
                    assert_true(o.active_warps > now.active_warps);
                    steps++;
                }
                /* the register step is the largest count that does it */
                if (knob == GP_OCC_KNOB_REGS) {
                    gp_occupancy_t one_more;
                    n.regs++;
                    one_more = ours(l, &n);
                    if (now.blocks_per_sm == 0)
                        assert_true(n.regs == c.regs || one_more.blocks_per_sm == 0);
                    else
                        assert_true(n.regs == c.regs ||
                                    one_more.active_warps <= now.active_warps);
                }
            }
        }
    }
    print_message("advice: %lu steps and %lu fixes re-evaluated\n", steps, fixes);
    assert_true(steps > 100 && fixes > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_formulas),
        cmocka_unit_test(test_old_devices_match_spreadsheet),
        cmocka_unit_test(test_old_generations),
        cmocka_unit_test(test_new_devices_present),
        cmocka_unit_test(test_against_cuda_occupancy_h),
        cmocka_unit_test(test_best_block_against_cuda_occupancy_h),
        cmocka_unit_test(test_advice_promises),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
