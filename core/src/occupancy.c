/*
 * occupancy.c - how many blocks of a launch fit an SM: NVIDIA's occupancy
 * calculation (the CUDA Occupancy Calculator and cuda_occupancy.h),
 * parameterised by a generation's allocation rules.
 */
#include "occupancy.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "util.h"

/* x / y rounded up, without overflow for any x. */
static uint64_t div_up(uint64_t x, uint64_t y)
{
    return y ? x / y + (x % y != 0) : 0;
}

/* x rounded up to a multiple of y, saturating at UINT64_MAX. */
static uint64_t round_up(uint64_t x, uint64_t y)
{
    return y ? gp_mul_sat_u64(div_up(x, y), y) : x;
}

/* a + b, saturating at UINT64_MAX. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Mark a launch impossible with a reason. */
static int impossible(gp_occupancy_t *out, uint32_t limiter, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int impossible(gp_occupancy_t *out, uint32_t limiter, const char *fmt, ...)
{
    va_list ap;
    out->blocks_per_sm = 0;
    out->active_warps = 0;
    out->occupancy = 0;
    out->limiter = limiter;
    va_start(ap, fmt);
    vsnprintf(out->detail, sizeof out->detail, fmt, ap);
    va_end(ap);
    return 0;
}

/* The carve-out preference of a launch in percent of the SM's shared memory
   (its cache preference where it gives no percentage); -1 for none. */
static int carveout_pref(const gp_launch_t *l)
{
    if (l->carveout_percent >= 0)
        return l->carveout_percent;
    switch (l->cache_pref) {
    case GP_CACHE_PREFER_L1: return 0;
    case GP_CACHE_PREFER_SHARED: return 100;
    case GP_CACHE_PREFER_EQUAL: return 50;
    default: return -1;
    }
}

/* The smallest carve-out step of at least `bytes`; 0 when none is. */
static uint64_t carveout_step(const gp_alloc_rules_t *r, uint64_t bytes)
{
    uint32_t i;
    for (i = 0; i < r->n_carveouts; i++)
        if ((uint64_t)r->carveout_kib[i] * 1024 >= bytes)
            return (uint64_t)r->carveout_kib[i] * 1024;
    return 0;
}

/* Shared memory the SM is configured with for a launch (carve-out rules). */
static int smem_per_sm(const gp_device_t *dev, const gp_launch_t *l, const gp_alloc_rules_t *r,
                       uint64_t allocated, uint64_t *out, char *err, size_t errlen)
{
    uint64_t sm_bytes = dev->shared_memory_per_sm_bytes;
    if (r->n_carveouts > 0) {
        /* a carve-out preference, aligned up to the next step */
        int pref = carveout_pref(l);
        uint64_t want;
        if (pref > 100) {
            snprintf(err, errlen, "carve-out %d%% is above 100%%", pref);
            return -1;
        }
        want = pref < 0 ? sm_bytes : (uint64_t)pref * sm_bytes / 100;
        if (want < allocated)
            want = allocated; /* the preference never stops a block fitting */
        *out = carveout_step(r, want); /* 0: no step is large enough, no block fits */
        return 0;
    }
    if (r->cache_config_split) {
        /* cudaFuncCachePrefer* picks one of a few fixed splits */
        uint64_t high = sm_bytes;
        uint64_t shift = ((uint64_t)r->l1_max_kib - r->l1_min_kib) * 1024;
        uint64_t low = high > shift ? high - shift : 0;
        uint64_t pick;
        switch (l->cache_pref) {
        case GP_CACHE_PREFER_L1: pick = low; break;
        case GP_CACHE_PREFER_EQUAL: pick = (high + low) / 2; break;
        default: pick = high; break;
        }
        *out = pick >= allocated ? pick : high;
        return 0;
    }
    *out = sm_bytes;
    return 0;
}

/*
 * The L1 a launch keeps for caching, per SM: the unified array less the
 * shared memory configured. A launch that states no carve-out preference is
 * counted for occupancy at the largest step (cuda_occupancy.h), but the
 * driver configures the SM with the smallest step that holds what the
 * blocks it runs of the launch allocate, the 1 KiB reserved per block
 * included (`resident_smem`), and the L1 keeps the rest. The H200 measured
 * it: a grid of one 1-thread block with no preference chases a random cycle
 * of 128-byte lines through 256 KiB at 167.8 cycles a hop ([sources:
 * h200-calibrated] run3 calibrate_raw.csv, chase random_128B), as the same
 * chase with the smallest carve-out, 248 KiB of L1 (178.7: [sources:
 * h200-cal] run7 chase_cycles.csv, lanes=1 warps=1, 256K), where past the
 * L1 (384K) a hop takes 280; the largest step (28 KiB of L1), or the 32 KiB
 * step that 32 resident 1-thread blocks would need (224 KiB, past which the
 * 256 KiB cycle keeps nothing), would leave it at 280.
 */
static uint64_t l1_available(const gp_device_t *dev, const gp_launch_t *l,
                             const gp_alloc_rules_t *r, uint64_t sm_smem, uint64_t resident_smem)
{
    uint64_t smem = sm_smem;
    if (!dev->l1_shared_bytes)
        return dev->l1_bytes;
    if (r->n_carveouts > 0 && carveout_pref(l) < 0) {
        uint64_t step = carveout_step(r, resident_smem);
        if (step > 0 && step < smem)
            smem = step;
    }
    return dev->l1_shared_bytes > smem ? dev->l1_shared_bytes - smem : 0;
}

/* `blocks` per SM into out, with the limiter that gives them (the first of
   warps, registers, shared memory, blocks, barriers whose limit they are)
   and the warps and occupancy they keep; out's limits are set. */
static void set_blocks(gp_occupancy_t *out, uint64_t blocks)
{
    if (blocks == out->limit_warps)
        out->limiter = GP_LIMIT_WARPS;
    else if (blocks == out->limit_registers)
        out->limiter = GP_LIMIT_REGISTERS;
    else if (blocks == out->limit_shared_memory)
        out->limiter = GP_LIMIT_SHARED_MEMORY;
    else if (blocks == out->limit_blocks)
        out->limiter = GP_LIMIT_BLOCKS;
    else
        out->limiter = GP_LIMIT_BARRIERS;
    out->blocks_per_sm = (uint32_t)blocks;
    out->active_warps = (uint32_t)(blocks * out->warps_per_block);
    out->occupancy = out->max_warps ? (double)out->active_warps / out->max_warps : 0;
}

int gp_occupancy_compute(const gp_device_t *dev, const gp_launch_t *l,
                         const gp_alloc_rules_t *r, gp_occupancy_t *out, char *err,
                         size_t errlen)
{
    uint64_t threads = l->threads_per_block, warp = dev->warp_size;
    uint64_t warps_pb, max_warps, limit_warps, limit_blocks, limit_regs = UINT32_MAX,
                                                             limit_smem = UINT32_MAX,
                                                             limit_bars = UINT32_MAX;
    uint64_t smem_total, smem_alloc, smem_limit, sm_smem = 0, blocks;
    uint32_t max_regs = r->max_regs_per_thread ? r->max_regs_per_thread
                                               : dev->max_registers_per_thread;
    gp_launch_t pref;
    memset(out, 0, sizeof *out);
    if (l->cache_pref > GP_CACHE_PREFER_EQUAL) {
        snprintf(err, errlen, "cache preference %u is not none, shared, L1 or equal (0..3)",
                 l->cache_pref);
        return -1;
    }
    if (r->equal_is_shared && l->cache_pref == GP_CACHE_PREFER_EQUAL) {
        pref = *l;
        pref.cache_pref = GP_CACHE_PREFER_SHARED;
        l = &pref;
    }
    if (warp == 0 || r->reg_alloc_unit == 0 || r->warp_alloc_granularity == 0 ||
        r->smem_alloc_unit == 0) {
        snprintf(err, errlen, "allocation rules incomplete (zero unit)");
        return -1;
    }
    if (max_regs > dev->max_registers_per_thread)
        max_regs = dev->max_registers_per_thread;
    max_warps = dev->max_threads_per_sm / warp;
    out->max_warps = (uint32_t)max_warps;
    out->limit_warps = out->limit_blocks = out->limit_registers = out->limit_shared_memory =
        out->limit_barriers = UINT32_MAX;

    warps_pb = div_up(threads, warp);
    out->warps_per_block = (uint32_t)GP_MIN(warps_pb, UINT32_MAX);

    /* launch shape */
    if (threads == 0 || l->block.x == 0 || l->block.y == 0 || l->block.z == 0)
        return impossible(out, GP_LIMIT_BLOCK_SIZE, "the block has no threads");
    if (threads > dev->max_threads_per_block)
        return impossible(out, GP_LIMIT_BLOCK_SIZE,
                          "%llu threads per block exceed the maximum of %u (by %llu)",
                          (unsigned long long)threads, dev->max_threads_per_block,
                          (unsigned long long)(threads - dev->max_threads_per_block));
    if (l->block.x > dev->max_block_x || l->block.y > dev->max_block_y ||
        l->block.z > dev->max_block_z)
        return impossible(out, GP_LIMIT_BLOCK_SIZE,
                          "block (%llu, %llu, %llu) exceeds the maximum block dimensions "
                          "(%u, %u, %u)",
                          (unsigned long long)l->block.x, (unsigned long long)l->block.y,
                          (unsigned long long)l->block.z, dev->max_block_x, dev->max_block_y,
                          dev->max_block_z);
    {
        const uint64_t dims[3] = {l->grid.x, l->grid.y, l->grid.z};
        const uint64_t lims[3] = {dev->max_grid_x, dev->max_grid_y, dev->max_grid_z};
        static const char axis[3] = {'x', 'y', 'z'};
        int i;
        for (i = 0; i < 3; i++) {
            if (dims[i] == 0)
                return impossible(out, GP_LIMIT_GRID, "grid.%c is 0: a grid needs a block",
                                  axis[i]);
            if (dims[i] > lims[i])
                return impossible(out, GP_LIMIT_GRID,
                                  "grid.%c = %llu blocks is larger than the hardware allows "
                                  "(at most %llu; the grid may be at most %llu x %llu x %llu)",
                                  axis[i], (unsigned long long)dims[i],
                                  (unsigned long long)lims[i], (unsigned long long)lims[0],
                                  (unsigned long long)lims[1], (unsigned long long)lims[2]);
        }
    }

    /* warps and blocks */
    limit_warps = max_warps / warps_pb;
    limit_blocks = dev->max_blocks_per_sm;

    /* registers */
    if (l->regs_per_thread > max_regs)
        return impossible(out, GP_LIMIT_REGS_PER_THREAD,
                          "%u registers per thread exceed the maximum of %u (by %u)",
                          l->regs_per_thread, max_regs, l->regs_per_thread - max_regs);
    if (r->reg_granularity == GP_REG_ALLOC_BLOCK) {
        uint64_t regs_pb = round_up(round_up(warps_pb, r->warp_alloc_granularity) * warp *
                                        l->regs_per_thread,
                                    r->reg_alloc_unit);
        out->regs_per_block_allocated = (uint32_t)GP_MIN(regs_pb, UINT32_MAX);
        if (regs_pb > dev->max_registers_per_block)
            return impossible(out, GP_LIMIT_REGS_PER_BLOCK,
                              "the block needs %llu registers (%u per thread, warps rounded "
                              "to %u, allocated in units of %u) but an SM has %u",
                              (unsigned long long)regs_pb, l->regs_per_thread,
                              r->warp_alloc_granularity, r->reg_alloc_unit,
                              dev->max_registers_per_block);
        if (regs_pb)
            limit_regs = dev->registers_per_sm / regs_pb;
    } else {
        uint32_t unit = r->reg_alloc_unit, i;
        uint64_t per_warp, per_block, assumed, subs = r->warp_alloc_granularity;
        for (i = 0; i < GP_ARRAY_LEN(r->reg_alt_list) && r->reg_alt_list[i]; i++)
            if (r->reg_alt_list[i] == l->regs_per_thread && r->reg_alloc_unit_alt)
                unit = r->reg_alloc_unit_alt;
        per_warp = round_up((uint64_t)l->regs_per_thread * warp, unit);
        per_block = per_warp * warps_pb;
        assumed = per_warp * round_up(warps_pb, subs); /* the hardware's check */
        out->regs_per_block_allocated = (uint32_t)GP_MIN(per_block, UINT32_MAX);
        if (per_block > dev->max_registers_per_block || assumed > dev->max_registers_per_block)
            return impossible(out, GP_LIMIT_REGS_PER_BLOCK,
                              "the block needs %llu registers (%u per thread rounded to %llu "
                              "per warp, %llu warps counted in groups of %llu) but at most %u "
                              "fit a block",
                              (unsigned long long)GP_MAX(per_block, assumed),
                              l->regs_per_thread, (unsigned long long)per_warp,
                              (unsigned long long)warps_pb, (unsigned long long)subs,
                              dev->max_registers_per_block);
        if (per_warp) {
            uint64_t warps_per_sub = (dev->registers_per_sm / subs) / per_warp;
            limit_regs = warps_per_sub * subs / warps_pb;
        }
    }

    /* shared memory */
    smem_total = add_sat(add_sat(l->static_smem_bytes, l->dynamic_smem_bytes),
                         dev->reserved_shared_memory_per_block_bytes);
    smem_alloc = round_up(smem_total, r->smem_alloc_unit);
    out->smem_per_block_allocated = smem_alloc;
    smem_limit = (smem_total > dev->shared_memory_per_block_bytes
                      ? dev->shared_memory_per_block_optin_bytes
                      : dev->shared_memory_per_block_bytes) +
                 dev->reserved_shared_memory_per_block_bytes;
    if (smem_alloc > smem_limit)
        return impossible(out, GP_LIMIT_SMEM_PER_BLOCK,
                          "the block needs %llu bytes of shared memory (%llu static + %llu "
                          "dynamic + %llu reserved, in units of %u) but a block may have at "
                          "most %llu (by %llu)",
                          (unsigned long long)smem_alloc,
                          (unsigned long long)l->static_smem_bytes,
                          (unsigned long long)l->dynamic_smem_bytes,
                          (unsigned long long)dev->reserved_shared_memory_per_block_bytes,
                          r->smem_alloc_unit, (unsigned long long)smem_limit,
                          (unsigned long long)(smem_alloc - smem_limit));
    if (smem_per_sm(dev, l, r, smem_alloc, &sm_smem, err, errlen))
        return -1;
    out->smem_per_sm_configured = sm_smem;
    if (smem_alloc > 0)
        limit_smem = sm_smem / smem_alloc;
    if (smem_alloc > 0 && limit_smem == 0)
        return impossible(out, GP_LIMIT_SMEM_PER_BLOCK,
                          "the block needs %llu bytes of shared memory but an SM offers %llu",
                          (unsigned long long)smem_alloc,
                          (unsigned long long)dev->shared_memory_per_sm_bytes);

    /* block barriers, a fixed number per resident-block slot */
    if (r->barriers_per_block_slot && l->barriers_per_block > 0)
        limit_bars = limit_blocks * r->barriers_per_block_slot / l->barriers_per_block;

    blocks = GP_MIN(GP_MIN(limit_warps, limit_blocks), GP_MIN(limit_regs, limit_smem));
    blocks = GP_MIN(blocks, limit_bars);
    out->limit_warps = (uint32_t)GP_MIN(limit_warps, UINT32_MAX);
    out->limit_blocks = (uint32_t)GP_MIN(limit_blocks, UINT32_MAX);
    out->limit_registers = (uint32_t)GP_MIN(limit_regs, UINT32_MAX);
    out->limit_shared_memory = (uint32_t)GP_MIN(limit_smem, UINT32_MAX);
    out->limit_barriers = (uint32_t)GP_MIN(limit_bars, UINT32_MAX);
    set_blocks(out, blocks);
    {
        /* the blocks an SM holds at once: at most a fair share of the grid */
        uint64_t grid = gp_mul_sat_u64(gp_mul_sat_u64(l->grid.x, l->grid.y), l->grid.z);
        uint64_t held = GP_MIN(blocks, div_up(grid, GP_MAX(dev->sm_count, 1u)));
        out->l1_bytes_available =
            l1_available(dev, l, r, sm_smem, gp_mul_sat_u64(held, smem_alloc));
    }
    if (blocks == 0)
        return impossible(out, out->limiter, "no block fits an SM (limit: %s)",
                          gp_limiter_name(out->limiter));
    return 0;
}

/*
 * The H200's driver does not bound a launch whose blocks use no shared
 * memory by the carve-out preference, where cuda_occupancy.h and the
 * runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor count the 1 KiB
 * it reserves per block against the preferred carve-out ([sources:
 * h200-cal] run35/carve: blocks of 32 and 64 threads without shared memory
 * under preferences of 0 to 7% run 32 at once on every SM where both
 * answer 8 or 16; the `uniform` rows' 64 warps per SM, 16 blocks of 128
 * threads under preference 0, run as one wave: 186.8 us against 179.9 us
 * for 32 warps, each block's loop 328,110 cycles). Blocks that do use
 * shared memory are left to the calculator's rule (run35/carve holds more
 * than it for some of them, by no rule found yet).
 */
void gp_occupancy_held(const gp_device_t *dev, const gp_launch_t *l, gp_occupancy_t *occ)
{
    uint64_t blocks;
    if (!dev->smemless_free_of_carveout || occ->blocks_per_sm == 0 ||
        occ->limiter != GP_LIMIT_SHARED_MEMORY || l->static_smem_bytes || l->dynamic_smem_bytes)
        return;
    blocks = GP_MIN(GP_MIN(occ->limit_warps, occ->limit_blocks),
                    GP_MIN(occ->limit_registers, occ->limit_barriers));
    if (blocks <= occ->blocks_per_sm)
        return;
    occ->limit_shared_memory = UINT32_MAX; /* no limit below the blocks held */
    set_blocks(occ, blocks);
}
