/*
 * conformance_occ.c - the occupancy checks of the conformance run: a grid of
 * launch shapes (threads per block, registers per thread, shared memory per
 * block, cache preferences and carve-outs) on one device, each result
 * checked on its own and along each axis of the grid.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "conformance_internal.h"

/* Values along one axis of the grid. */
#define MAX_AXIS 160

typedef struct axis {
    uint64_t v[MAX_AXIS];
    size_t n;
} axis_t;

/* What every check of one device needs. */
typedef struct occ_ctx {
    const gp_arch_t *a;
    const gp_device_t *dev;
    gp_conf_report_t *r;
    uint64_t warp;
} occ_ctx_t;

/* A cache preference / carve-out variant of a launch. */
typedef struct pref {
    uint32_t cache_pref;
    int32_t carveout_percent;
} pref_t;

static const pref_t PREFS[] = {
    {GP_CACHE_PREFER_NONE, -1}, {GP_CACHE_PREFER_SHARED, -1}, {GP_CACHE_PREFER_L1, -1},
    {GP_CACHE_PREFER_EQUAL, -1}, {GP_CACHE_PREFER_NONE, 0},   {GP_CACHE_PREFER_NONE, 50},
    {GP_CACHE_PREFER_NONE, 100},
};

/* Add v to an axis, keeping it sorted and without duplicates. */
static void axis_add(axis_t *ax, uint64_t v)
{
    size_t i, j;
    for (i = 0; i < ax->n && ax->v[i] < v; i++)
        ;
    if ((i < ax->n && ax->v[i] == v) || ax->n == MAX_AXIS)
        return;
    for (j = ax->n; j > i; j--)
        ax->v[j] = ax->v[j - 1];
    ax->v[i] = v;
    ax->n++;
}

/* Threads per block: around the warp size, multiples of it, the maximum and
   one past it. */
static void threads_axis(const gp_device_t *d, axis_t *ax)
{
    static const uint32_t warps[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64};
    uint64_t w = d->warp_size, max = d->max_threads_per_block;
    size_t i;
    memset(ax, 0, sizeof *ax);
    axis_add(ax, 1);
    if (w > 1)
        axis_add(ax, w - 1);
    axis_add(ax, w + 1);
    for (i = 0; i < GP_ARRAY_LEN(warps); i++)
        if (warps[i] * w <= max)
            axis_add(ax, warps[i] * w);
    axis_add(ax, max - (max > 1));
    axis_add(ax, max);
    axis_add(ax, max + 1);
}

/* Registers per thread: every value to 32, then coarser, the maximum and one
   past it. */
static void regs_axis(const gp_device_t *d, axis_t *ax)
{
    uint64_t max = d->max_registers_per_thread, v;
    memset(ax, 0, sizeof *ax);
    for (v = 1; v <= 32 && v <= max; v++)
        axis_add(ax, v);
    for (v = 34; v <= 64 && v <= max; v += 2)
        axis_add(ax, v);
    for (v = 68; v <= max; v += 4)
        axis_add(ax, v);
    axis_add(ax, max);
    axis_add(ax, max + 1);
}

/* Shared memory per block: small sizes, the device's limits and one past. */
static void smem_axis(const gp_device_t *d, axis_t *ax)
{
    static const uint64_t fixed[] = {0, 1, 128, 1000, 1024, 2048, 4096, 8192, 12288, 16384,
                                     24576, 32768, 40960, 49152, 65536, 98304, 131072};
    uint64_t def = d->shared_memory_per_block_bytes, opt = d->shared_memory_per_block_optin_bytes;
    size_t i;
    memset(ax, 0, sizeof *ax);
    for (i = 0; i < GP_ARRAY_LEN(fixed); i++)
        if (fixed[i] <= opt + 1)
            axis_add(ax, fixed[i]);
    axis_add(ax, def);
    axis_add(ax, def + 1);
    axis_add(ax, opt / 2);
    axis_add(ax, opt > 1024 ? opt - 1024 : opt);
    axis_add(ax, opt);
    axis_add(ax, opt + 1);
    axis_add(ax, d->shared_memory_per_sm_bytes + 1);
}

/* The limit occ reports for one limiter (UINT32_MAX for none). */
static uint32_t limit_of(const gp_occupancy_t *o, uint32_t limiter)
{
    switch (limiter) {
    case GP_LIMIT_WARPS: return o->limit_warps;
    case GP_LIMIT_BLOCKS: return o->limit_blocks;
    case GP_LIMIT_REGISTERS: return o->limit_registers;
    case GP_LIMIT_SHARED_MEMORY: return o->limit_shared_memory;
    case GP_LIMIT_BARRIERS: return o->limit_barriers;
    default: return 0;
    }
}

/* Check one result on its own (fields, hardware, limiter, impossible). */
static void check_result(const occ_ctx_t *c, const gp_launch_t *l, const gp_occupancy_t *o)
{
    const gp_device_t *d = c->dev;
    gp_conf_report_t *r = c->r;
    char in[600];
    uint64_t threads = l->threads_per_block, smem = l->static_smem_bytes + l->dynamic_smem_bytes;
    uint64_t wpb = (threads + c->warp - 1) / c->warp;
    uint64_t hw_warps = d->max_threads_per_sm / c->warp;
    int beyond = threads > d->max_threads_per_block ||
                 l->regs_per_thread > d->max_registers_per_thread ||
                 smem > d->shared_memory_per_block_optin_bytes || l->grid.x > d->max_grid_x;
    int minimal = !beyond && threads == c->warp && l->regs_per_thread == 16 && smem == 0 &&
                  16 <= d->max_registers_per_thread;
    static const uint32_t limiters[] = {GP_LIMIT_WARPS, GP_LIMIT_BLOCKS, GP_LIMIT_REGISTERS,
                                        GP_LIMIT_SHARED_MEMORY, GP_LIMIT_BARRIERS};
    size_t i;
    gp_conf_describe_launch(l, in, sizeof in);

    gp_conf_case(r, GP_CONF_OCC_FIELDS);
    if (o->limiter >= GP_LIMIT_COUNT)
        gp_conf_violate(r, GP_CONF_OCC_FIELDS, d, in, "limiter %u is not a gp_limiter_t",
                        o->limiter);
    if (!(isfinite(o->occupancy) && o->occupancy >= 0 && o->occupancy <= 1))
        gp_conf_violate(r, GP_CONF_OCC_FIELDS, d, in, "occupancy is %g; it must lie in 0..1",
                        o->occupancy);
    if (o->blocks_per_sm > 0) {
        if (o->warps_per_block != wpb)
            gp_conf_violate(r, GP_CONF_OCC_FIELDS, d, in,
                            "warps_per_block is %u; %llu threads in warps of %llu make %llu",
                            o->warps_per_block, (unsigned long long)threads,
                            (unsigned long long)c->warp, (unsigned long long)wpb);
        if ((uint64_t)o->active_warps != (uint64_t)o->blocks_per_sm * o->warps_per_block)
            gp_conf_violate(r, GP_CONF_OCC_FIELDS, d, in,
                            "active_warps is %u but blocks_per_sm x warps_per_block = %u x %u",
                            o->active_warps, o->blocks_per_sm, o->warps_per_block);
        if (o->max_warps == 0 ||
            fabs(o->occupancy - (double)o->active_warps / o->max_warps) > 1e-9)
            gp_conf_violate(r, GP_CONF_OCC_FIELDS, d, in,
                            "occupancy is %g but active_warps / max_warps = %u / %u",
                            o->occupancy, o->active_warps, o->max_warps);
    } else if (o->active_warps != 0 || o->occupancy != 0) {
        gp_conf_violate(r, GP_CONF_OCC_FIELDS, d, in,
                        "0 blocks per SM but active_warps %u and occupancy %g (both must be 0)",
                        o->active_warps, o->occupancy);
    }

    gp_conf_case(r, GP_CONF_OCC_LIMITER);
    if (o->blocks_per_sm > 0) {
        if (o->limiter < GP_LIMIT_WARPS || o->limiter > GP_LIMIT_BARRIERS)
            gp_conf_violate(r, GP_CONF_OCC_LIMITER, d, in,
                            "%u blocks per SM with limiter '%s': a launch that runs is "
                            "limited by warps, blocks, registers, shared_memory or barriers",
                            o->blocks_per_sm, gp_limiter_name(o->limiter));
        else if (limit_of(o, o->limiter) != o->blocks_per_sm)
            gp_conf_violate(r, GP_CONF_OCC_LIMITER, d, in,
                            "limiter '%s' but its limit is %u blocks, not blocks_per_sm %u",
                            gp_limiter_name(o->limiter), limit_of(o, o->limiter),
                            o->blocks_per_sm);
        for (i = 0; i < GP_ARRAY_LEN(limiters); i++)
            if (limit_of(o, limiters[i]) < o->blocks_per_sm)
                gp_conf_violate(r, GP_CONF_OCC_LIMITER, d, in,
                                "%u blocks per SM, but the %s alone allow only %u",
                                o->blocks_per_sm, gp_limiter_name(limiters[i]),
                                limit_of(o, limiters[i]));
    } else {
        if (o->limiter < GP_LIMIT_BLOCK_SIZE || o->limiter >= GP_LIMIT_COUNT)
            gp_conf_violate(r, GP_CONF_OCC_LIMITER, d, in,
                            "0 blocks per SM with limiter '%s'; a launch that cannot run names "
                            "why: block_size, registers_per_thread, registers_per_block, "
                            "shared_memory_per_block or grid_size",
                            gp_limiter_name(o->limiter));
        if (!o->detail[0])
            gp_conf_violate(r, GP_CONF_OCC_LIMITER, d, in,
                            "0 blocks per SM without a detail: say what broke and by how much");
    }

    if (o->blocks_per_sm > 0) {
        gp_conf_case(r, GP_CONF_OCC_HARDWARE);
        if (o->blocks_per_sm > d->max_blocks_per_sm)
            gp_conf_violate(r, GP_CONF_OCC_HARDWARE, d, in,
                            "%u blocks per SM; the device has %u block slots", o->blocks_per_sm,
                            d->max_blocks_per_sm);
        if (o->active_warps > o->max_warps || o->max_warps > hw_warps)
            gp_conf_violate(r, GP_CONF_OCC_HARDWARE, d, in,
                            "active_warps %u, max_warps %u; the SM has %llu warp slots "
                            "(max_threads_per_sm / warp_size)",
                            o->active_warps, o->max_warps, (unsigned long long)hw_warps);
        if ((uint64_t)o->regs_per_block_allocated < (uint64_t)l->regs_per_thread * threads)
            gp_conf_violate(r, GP_CONF_OCC_HARDWARE, d, in,
                            "regs_per_block_allocated %u is less than the %llu registers the "
                            "block's threads use",
                            o->regs_per_block_allocated,
                            (unsigned long long)l->regs_per_thread * threads);
        if ((uint64_t)o->blocks_per_sm * o->regs_per_block_allocated > d->registers_per_sm)
            gp_conf_violate(r, GP_CONF_OCC_HARDWARE, d, in,
                            "%u blocks of %u registers exceed the SM's %u registers",
                            o->blocks_per_sm, o->regs_per_block_allocated, d->registers_per_sm);
        if (o->smem_per_block_allocated < smem)
            gp_conf_violate(r, GP_CONF_OCC_HARDWARE, d, in,
                            "smem_per_block_allocated %llu is less than the %llu bytes asked",
                            (unsigned long long)o->smem_per_block_allocated,
                            (unsigned long long)smem);
        if (o->smem_per_sm_configured > d->shared_memory_per_sm_bytes ||
            (double)o->blocks_per_sm * (double)o->smem_per_block_allocated >
                (double)o->smem_per_sm_configured)
            gp_conf_violate(r, GP_CONF_OCC_HARDWARE, d, in,
                            "%u blocks of %llu bytes of shared memory in a carve-out of %llu "
                            "(the SM has %llu)",
                            o->blocks_per_sm, (unsigned long long)o->smem_per_block_allocated,
                            (unsigned long long)o->smem_per_sm_configured,
                            (unsigned long long)d->shared_memory_per_sm_bytes);
    }

    if (beyond || minimal) {
        gp_conf_case(r, GP_CONF_OCC_IMPOSSIBLE);
        if (beyond && o->blocks_per_sm > 0)
            gp_conf_violate(r, GP_CONF_OCC_IMPOSSIBLE, d, in,
                            "%u blocks per SM for a launch beyond the device's limits "
                            "(max_threads_per_block %u, max_registers_per_thread %u, "
                            "shared_memory_per_block_optin_bytes %llu, max_grid_x %llu)",
                            o->blocks_per_sm, d->max_threads_per_block,
                            d->max_registers_per_thread,
                            (unsigned long long)d->shared_memory_per_block_optin_bytes,
                            (unsigned long long)d->max_grid_x);
        if (minimal && o->blocks_per_sm == 0)
            gp_conf_violate(r, GP_CONF_OCC_IMPOSSIBLE, d, in,
                            "one warp of 16-register threads without shared memory cannot "
                            "run (%s: %s)",
                            gp_limiter_name(o->limiter), o->detail);
    }
}

/* Occupancy of one launch, checked; -1 when the call failed. */
static int occ(const occ_ctx_t *c, const gp_launch_t *l, gp_occupancy_t *o, int twice)
{
    char msg[512], in[600];
    c->r->calls++;
    gp_conf_case(c->r, GP_CONF_OCC_CALL);
    if (gp_conf_call_occupancy(c->a, c->dev, l, o, msg, sizeof msg) != 0) {
        gp_conf_describe_launch(l, in, sizeof in);
        gp_conf_violate(c->r, GP_CONF_OCC_CALL, c->dev, in, "occupancy failed: %s",
                        *msg ? msg : "(no reason given)");
        return -1;
    }
    check_result(c, l, o);
    if (twice) {
        gp_occupancy_t o2;
        gp_conf_case(c->r, GP_CONF_PURE);
        c->r->calls++;
        if (gp_conf_call_occupancy(c->a, c->dev, l, &o2, msg, sizeof msg) != 0 ||
            o2.blocks_per_sm != o->blocks_per_sm || o2.limiter != o->limiter ||
            o2.active_warps != o->active_warps || o2.max_warps != o->max_warps ||
            memcmp(&o2.occupancy, &o->occupancy, sizeof o->occupancy) != 0) {
            gp_conf_describe_launch(l, in, sizeof in);
            gp_conf_violate(c->r, GP_CONF_PURE, c->dev, in,
                            "occupancy answered %u blocks (%s), then %u blocks (%s)",
                            o->blocks_per_sm, gp_limiter_name(o->limiter), o2.blocks_per_sm,
                            gp_limiter_name(o2.limiter));
        }
    }
    return 0;
}

/* Which field of a launch a sweep varies. */
typedef enum sweep_axis { SWEEP_REGS, SWEEP_SMEM, SWEEP_THREADS } sweep_axis_t;

/* Vary one field along its axis; blocks must never rise. */
static void sweep(const occ_ctx_t *c, gp_launch_t base, sweep_axis_t which, const axis_t *ax)
{
    static const char *const names[] = {"registers per thread", "bytes of shared memory",
                                        "threads per block"};
    uint32_t prev_blocks = 0;
    uint64_t prev_v = 0, prev_config = 0;
    int have_prev = 0;
    size_t i;
    for (i = 0; i < ax->n; i++) {
        gp_launch_t l = base;
        gp_occupancy_t o;
        char in[600];
        uint64_t v = ax->v[i];
        switch (which) {
        case SWEEP_REGS: l.regs_per_thread = (uint32_t)v; break;
        case SWEEP_SMEM: l.dynamic_smem_bytes = v; break;
        case SWEEP_THREADS: l.threads_per_block = l.block.x = v; break;
        }
        if (occ(c, &l, &o, i == 0))
            continue;
        /* a cache preference is a preference: the driver picks a larger
           shared-memory configuration when the block does not fit the one
           preferred, so shared memory is compared within one configuration */
        if (which == SWEEP_SMEM && have_prev && o.smem_per_sm_configured != prev_config)
            have_prev = 0;
        gp_conf_case(c->r, GP_CONF_OCC_MONOTONIC);
        if (have_prev && o.blocks_per_sm > prev_blocks) {
            gp_conf_describe_launch(&l, in, sizeof in);
            gp_conf_violate(c->r, GP_CONF_OCC_MONOTONIC, c->dev, in,
                            "%u blocks per SM with %llu %s, but %u with %llu: more %s gave "
                            "more blocks",
                            o.blocks_per_sm, (unsigned long long)v, names[which], prev_blocks,
                            (unsigned long long)prev_v, names[which]);
        }
        prev_blocks = o.blocks_per_sm;
        prev_config = o.smem_per_sm_configured;
        prev_v = v;
        have_prev = 1;
    }
}

void gp_conf_run_occupancy(const gp_arch_t *a, const gp_device_t *dev, gp_conf_report_t *r)
{
    occ_ctx_t c = {a, dev, r, dev->warp_size ? dev->warp_size : 32};
    axis_t th, rg, sm, rg_few, sm_few;
    uint64_t grid = (uint64_t)dev->sm_count * 4;
    size_t p, i, j;
    threads_axis(dev, &th);
    regs_axis(dev, &rg);
    smem_axis(dev, &sm);
    memset(&rg_few, 0, sizeof rg_few);
    memset(&sm_few, 0, sizeof sm_few);
    {
        static const uint64_t few_regs[] = {1, 16, 32, 40, 64, 128};
        for (i = 0; i < GP_ARRAY_LEN(few_regs); i++)
            if (few_regs[i] <= dev->max_registers_per_thread)
                axis_add(&rg_few, few_regs[i]);
        axis_add(&rg_few, dev->max_registers_per_thread);
        axis_add(&sm_few, 0);
        axis_add(&sm_few, 8192);
        axis_add(&sm_few, dev->shared_memory_per_block_bytes);
        axis_add(&sm_few, dev->shared_memory_per_block_optin_bytes);
    }
    if (grid > dev->max_grid_x)
        grid = dev->max_grid_x;
    for (p = 0; p < GP_ARRAY_LEN(PREFS); p++) {
        /* registers along every thread count and a few shared-memory sizes */
        for (i = 0; i < th.n; i++)
            for (j = 0; j < sm_few.n; j++) {
                gp_launch_t l = gp_conf_launch(th.v[i], 1, sm_few.v[j], grid);
                l.cache_pref = PREFS[p].cache_pref;
                l.carveout_percent = PREFS[p].carveout_percent;
                sweep(&c, l, SWEEP_REGS, &rg);
            }
        /* shared memory along every thread count and a few register counts */
        for (i = 0; i < th.n; i++)
            for (j = 0; j < rg_few.n; j++) {
                gp_launch_t l = gp_conf_launch(th.v[i], (uint32_t)rg_few.v[j], 0, grid);
                l.cache_pref = PREFS[p].cache_pref;
                l.carveout_percent = PREFS[p].carveout_percent;
                sweep(&c, l, SWEEP_SMEM, &sm);
            }
        /* threads along a few register counts and shared-memory sizes */
        for (i = 0; i < rg_few.n; i++)
            for (j = 0; j < sm_few.n; j++) {
                gp_launch_t l = gp_conf_launch(1, (uint32_t)rg_few.v[i], sm_few.v[j], grid);
                l.cache_pref = PREFS[p].cache_pref;
                l.carveout_percent = PREFS[p].carveout_percent;
                sweep(&c, l, SWEEP_THREADS, &th);
            }
    }
    /* a grid larger than the device allows */
    if (dev->max_grid_x < UINT64_MAX) {
        gp_launch_t l = gp_conf_launch(dev->warp_size, 16, 0, dev->max_grid_x + 1);
        gp_occupancy_t o;
        occ(&c, &l, &o, 0);
    }
}
