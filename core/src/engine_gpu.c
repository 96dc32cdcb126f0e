/*
 * engine_gpu.c - one GPU in the engine's simulation: its SMs, grouped by
 * identical state; breadth-first placement of blocks, the earlier-launched
 * kernel first, as long as registers, shared memory, warp and block slots
 * remain on an SM; the L2 capacity and DRAM / L2 bandwidth each running
 * kernel gets; cohort progress rates from the plugin's block costs; and the
 * closed-form skip over runs of identical waves.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "opcost.h"

typedef gp_eng_sim_t sim_t;
typedef gp_eng_gpu_t gpu_t;
typedef gp_eng_group_t group_t;
typedef gp_eng_cohort_t cohort_t;
typedef gp_eng_kern_t kern_t;
typedef gp_eng_ws_t ws_entry_t;
typedef gp_eng_cost_t cost_entry_t;

/* ---------------------------------------------------------------- groups */

static void used_resources(const sim_t *s, const group_t *g, uint64_t *warps, uint64_t *blocks,
                           uint64_t *regs, uint64_t *smem)
{
    uint32_t i;
    *warps = *blocks = *regs = *smem = 0;
    for (i = 0; i < g->n_cohorts; i++) {
        const cohort_t *c = &g->cohorts[i];
        const gp_occupancy_t *o = &s->kerns[c->kern].occ;
        *warps += (uint64_t)c->per_sm * o->warps_per_block;
        *blocks += c->per_sm;
        *regs += (uint64_t)c->per_sm * o->regs_per_block_allocated;
        *smem += (uint64_t)c->per_sm * o->smem_per_block_allocated;
    }
}

/* Blocks of kernel ki on each SM of group g (all its cohorts). */
static uint32_t blocks_of(const group_t *g, uint32_t ki)
{
    uint32_t i, n = 0;
    for (i = 0; i < g->n_cohorts; i++)
        if (g->cohorts[i].kern == ki)
            n += g->cohorts[i].per_sm;
    return n;
}

/* Blocks of kernel ki that still fit on each SM of group g: whatever
   registers, shared memory, warp and block slots the resident blocks of
   every kernel leave. */
static uint32_t fit(const sim_t *s, const group_t *g, uint32_t ki)
{
    const kern_t *k = &s->kerns[ki];
    const gp_device_t *d = s->dev;
    uint64_t warps, blocks, regs, smem, same, c, lim;
    used_resources(s, g, &warps, &blocks, &regs, &smem);
    same = blocks_of(g, ki);
    if (g->n_cohorts >= s->max_cohorts)
        return 0;
    c = k->occ.blocks_per_sm > same ? k->occ.blocks_per_sm - same : 0;
    lim = d->max_blocks_per_sm > blocks ? d->max_blocks_per_sm - blocks : 0;
    c = GP_MIN(c, lim);
    lim = (d->max_threads_per_sm / d->warp_size) > warps
              ? (d->max_threads_per_sm / d->warp_size - warps) / k->occ.warps_per_block
              : 0;
    c = GP_MIN(c, lim);
    if (k->occ.regs_per_block_allocated) {
        lim = d->registers_per_sm > regs
                  ? (d->registers_per_sm - regs) / k->occ.regs_per_block_allocated
                  : 0;
        c = GP_MIN(c, lim);
    }
    if (k->occ.smem_per_block_allocated) {
        uint64_t cap = GP_MAX(k->occ.smem_per_sm_configured, d->shared_memory_per_sm_bytes);
        lim = cap > smem ? (cap - smem) / k->occ.smem_per_block_allocated : 0;
        c = GP_MIN(c, lim);
    }
    return (uint32_t)c;
}

/* Append an empty group of n SMs to GPU u; returns its index or -1. */
static int new_group(sim_t *s, gpu_t *u, uint32_t n)
{
    group_t *g;
    if (u->n_groups == u->cap_groups) {
        uint32_t cap = u->cap_groups * 2 + 4, i;
        group_t *ng = realloc(u->groups, cap * sizeof *ng);
        if (!ng)
            return gp_err_set(s->err, "out of memory");
        u->groups = ng;
        if (!u->cohort_block) { /* the first groups: one block */
            u->cohort_block = malloc((size_t)cap * s->max_cohorts * sizeof(cohort_t));
            if (!u->cohort_block)
                return gp_err_set(s->err, "out of memory");
            u->cohort_block_len = cap * s->max_cohorts;
        }
        for (i = u->cap_groups; i < cap; i++) {
            /* entries below n_cohorts only */
            if (u->cap_groups == 0)
                ng[i].cohorts = u->cohort_block + (size_t)i * s->max_cohorts;
            else
                ng[i].cohorts = malloc(s->max_cohorts * sizeof(cohort_t));
            if (!ng[i].cohorts) {
                u->groups = ng;
                u->cap_groups = i;
                return gp_err_set(s->err, "out of memory");
            }
            ng[i].n_cohorts = 0;
            ng[i].n_sms = 0;
        }
        u->groups = ng;
        u->cap_groups = cap;
    }
    g = &u->groups[u->n_groups];
    g->n_sms = n;
    g->n_cohorts = 0;
    return (int)u->n_groups++;
}

/* Split x SMs off group gi of GPU u into a new group with the same state. */
static int split_group(sim_t *s, gpu_t *u, uint32_t gi, uint32_t x)
{
    int ni = new_group(s, u, x);
    group_t *g, *n;
    if (ni < 0)
        return -1;
    g = &u->groups[gi];
    n = &u->groups[ni];
    memcpy(n->cohorts, g->cohorts, g->n_cohorts * sizeof(cohort_t));
    n->n_cohorts = g->n_cohorts;
    g->n_sms -= x;
    return ni;
}

/* Put per_sm blocks of kernel ki on every SM of group gi of GPU u. */
static void place(sim_t *s, gpu_t *u, uint32_t gi, uint32_t ki, uint32_t per_sm)
{
    group_t *g = &u->groups[gi];
    cohort_t *c;
    kern_t *k = &s->kerns[ki];
    uint64_t n = (uint64_t)per_sm * g->n_sms;
    if (per_sm == 0 || g->n_sms == 0)
        return;
    c = &g->cohorts[g->n_cohorts++];
    memset(c, 0, sizeof *c);
    c->kern = ki;
    c->per_sm = per_sm;
    c->remaining = 1;
    k->left -= n;
    k->running += n;
    if (!k->started) {
        k->started = 1;
        k->start = s->now;
        s->nodes[k->node].start = s->now;
    }
}

/* Breadth-first placement of kernel ki's remaining blocks on its GPU. */
int gp_eng_dispatch(sim_t *s, uint32_t ki)
{
    kern_t *k = &s->kerns[ki];
    gpu_t *u = &s->gpus[k->device];
    uint32_t gi, n0 = u->n_groups, L, maxcap = 0;
    uint32_t caps[4096];
    uint64_t total = 0;
    if (k->left == 0 || k->hold_until > s->now + gp_eng_tol(s->now))
        return 0;
    if (n0 > GP_ARRAY_LEN(caps))
        n0 = GP_ARRAY_LEN(caps);
    for (gi = 0; gi < n0; gi++) {
        caps[gi] = fit(s, &u->groups[gi], ki);
        total += (uint64_t)caps[gi] * u->groups[gi].n_sms;
        maxcap = GP_MAX(maxcap, caps[gi]);
    }
    if (total == 0)
        return 0;
    if (k->left >= total) {
        for (gi = 0; gi < n0; gi++)
            place(s, u, gi, ki, caps[gi]);
        return 0;
    }
    /* smallest level L with sum n_g * min(cap_g, L) >= left */
    for (L = 1; L <= maxcap; L++) {
        uint64_t f = 0;
        for (gi = 0; gi < n0; gi++)
            f += (uint64_t)GP_MIN(caps[gi], L) * u->groups[gi].n_sms;
        if (f >= k->left)
            break;
    }
    {
        uint64_t base = 0, r;
        for (gi = 0; gi < n0; gi++)
            base += (uint64_t)GP_MIN(caps[gi], L - 1) * u->groups[gi].n_sms;
        r = k->left - base;
        for (gi = 0; gi < n0; gi++) {
            uint32_t lo = GP_MIN(caps[gi], L - 1);
            if (caps[gi] >= L && r > 0) {
                uint32_t x = (uint32_t)GP_MIN(r, (uint64_t)u->groups[gi].n_sms);
                if (x < u->groups[gi].n_sms) {
                    int ni = split_group(s, u, gi, x);
                    if (ni < 0)
                        return -1;
                    place(s, u, (uint32_t)ni, ki, L);
                } else {
                    lo = L;
                }
                r -= x;
            }
            place(s, u, gi, ki, lo);
        }
    }
    return 0;
}

/* Drop empty groups' distinction: merge groups of GPU u in identical states. */
static void merge_groups(sim_t *s, gpu_t *u)
{
    uint32_t i, j;
    for (i = 0; i < u->n_groups; i++) {
        group_t *a = &u->groups[i];
        if (a->n_sms == 0)
            continue;
        for (j = i + 1; j < u->n_groups; j++) {
            group_t *b = &u->groups[j];
            uint32_t c;
            int same;
            if (b->n_sms == 0 || b->n_cohorts != a->n_cohorts)
                continue;
            same = 1;
            for (c = 0; c < a->n_cohorts && same; c++)
                same = a->cohorts[c].kern == b->cohorts[c].kern &&
                       a->cohorts[c].per_sm == b->cohorts[c].per_sm &&
                       fabs(a->cohorts[c].remaining - b->cohorts[c].remaining) < 1e-9;
            if (same) {
                a->n_sms += b->n_sms;
                b->n_sms = 0;
            }
        }
    }
    /* compact */
    for (i = 0, j = 0; i < u->n_groups; i++) {
        if (u->groups[i].n_sms == 0)
            continue;
        if (i != j) {
            group_t tmp = u->groups[j];
            u->groups[j] = u->groups[i];
            u->groups[i] = tmp;
        }
        j++;
    }
    if (j == 0 && u->n_groups > 0) {
        /* keep one (idle) group holding every SM */
        u->groups[0].n_sms = s->dev->sm_count;
        u->groups[0].n_cohorts = 0;
        j = 1;
    }
    u->n_groups = j;
}

/* --------------------------------------------------------------- costs */

uint32_t gp_eng_active_sms(const gpu_t *u)
{
    uint32_t i, n = 0;
    for (i = 0; i < u->n_groups; i++)
        if (u->groups[i].n_cohorts)
            n += u->groups[i].n_sms;
    return n;
}

/* Block cost of kernel ki at a residency and memory share, cached. */
static int block_cost(sim_t *s, uint32_t ki, uint32_t blocks, uint32_t warps_sm,
                      uint32_t act, double dram_share, double l2_share, double l2_capacity,
                      const gp_block_cost_t **out)
{
    kern_t *k = &s->kerns[ki];
    gp_residency_t res;
    cost_entry_t *e;
    uint32_t i;
    if (!k->cache) {
        /* per kernel slot (running kernels) only: a workload of a million
           launches must not hold a million caches */
        k->cache = malloc(GP_ENG_COST_CACHE * sizeof *k->cache);
        if (!k->cache)
            return gp_err_set(s->err, "out of memory");
        for (i = 0; i < GP_ENG_COST_CACHE; i++)
            k->cache[i].valid = 0;
    }
    for (i = 0; i < GP_ENG_COST_CACHE; i++) {
        e = &k->cache[i];
        if (e->valid && e->blocks == blocks && e->warps_sm == warps_sm && e->active_sms == act &&
            e->dram_share == dram_share && e->l2_share == l2_share &&
            e->l2_capacity == l2_capacity) {
            *out = &e->cost;
            return 0;
        }
    }
    e = &k->cache[k->cache_next];
    k->cache_next = (k->cache_next + 1) % GP_ENG_COST_CACHE;
    memset(&res, 0, sizeof res);
    res.blocks = blocks;
    res.warps_sm = warps_sm;
    res.active_sms = act;
    res.dram_share = dram_share;
    res.l2_share = l2_share;
    res.l2_capacity_bytes = l2_capacity;
    e->valid = 0;
    if (gp_arch_block_cost_memo(s->arch, s->dev, k->k, &k->occ, &res, &k->memo, &e->cost,
                                s->err)) {
        const gp_command_t *c = s->nodes[k->node].c;
        return gp_err_prefix(s->err, "%s:%u: launch '%s'", s->wl->script, c->line, k->k->name);
    }
    e->valid = 1;
    e->blocks = blocks;
    e->warps_sm = warps_sm;
    e->active_sms = act;
    e->dram_share = dram_share;
    e->l2_share = l2_share;
    e->l2_capacity = l2_capacity;
    *out = &e->cost;
    return 0;
}

/* The kernels with blocks on GPU u, into s->run_list; returns how many. */
static uint32_t running_kernels(sim_t *s, const gpu_t *u)
{
    uint32_t gi, ci, n = 0;
    s->epoch++;
    for (gi = 0; gi < u->n_groups; gi++) {
        const group_t *g = &u->groups[gi];
        for (ci = 0; ci < g->n_cohorts; ci++) {
            kern_t *k = &s->kerns[g->cohorts[ci].kern];
            if (k->mark == s->epoch)
                continue;
            k->mark = s->epoch;
            k->sms = 0;
            k->dram_demand = k->l2_demand = 0;
            s->run_list[n++] = g->cohorts[ci].kern;
        }
    }
    return n;
}

/*
 * L2 capacity of each running kernel: the whole L2 while the buffers they
 * touch fit in it together; otherwise shares in proportion to each kernel's
 * working set (its buffers' bytes), so that kernels streaming through more
 * data claim more of the cache, as under LRU-like replacement. Kernels that
 * touch one buffer count its bytes once: the sum of their footprints, at
 * most the buffer's size (exact when each touches all of it, or disjoint
 * parts such as the halves of an image).
 */
static void l2_capacities(sim_t *s, uint32_t n)
{
    double l2 = (double)s->dev->l2_bytes, total = 0;
    uint32_t i, j;
    s->epoch++;
    for (i = 0; i < n; i++) {
        const kern_t *k = &s->kerns[s->run_list[i]];
        total += k->ws_anon;
        for (j = 0; j < k->n_ws; j++) {
            const ws_entry_t *w = &k->ws[j];
            double size = (double)s->wl->buffers[w->buffer].bytes, before;
            if (s->buf_mark[w->buffer] != s->epoch) {
                s->buf_mark[w->buffer] = s->epoch;
                s->buf_bytes[w->buffer] = 0;
            }
            before = GP_MIN(s->buf_bytes[w->buffer], size);
            s->buf_bytes[w->buffer] += w->bytes;
            total += GP_MIN(s->buf_bytes[w->buffer], size) - before;
        }
    }
    for (i = 0; i < n; i++) {
        kern_t *k = &s->kerns[s->run_list[i]];
        k->l2_capacity =
            n < 2 || total <= l2 || !(k->ws_bytes > 0) ? l2 : l2 * k->ws_bytes / total;
    }
}

/*
 * DRAM and L2 bandwidth shares of the running kernels (fractions per SM).
 * Alone, a kernel's SMs split the bandwidth evenly (1 / active SMs). With
 * others, each kernel's demand - the bytes per cycle its SMs would move with
 * that even split - sets its part of the whole, which its SMs then split: the
 * shares add up to the GPU's bandwidth, and a compute-bound kernel leaves
 * most of it to a memory-bound neighbour.
 */
static int bandwidth_shares(sim_t *s, gpu_t *u, uint32_t n, uint32_t act)
{
    double even = act ? 1.0 / act : 1.0, sum_dram = 0, sum_l2 = 0;
    uint32_t gi, i;
    for (gi = 0; gi < u->n_groups; gi++) {
        group_t *g = &u->groups[gi];
        uint64_t warps, blocks, regs, smem;
        used_resources(s, g, &warps, &blocks, &regs, &smem);
        s->epoch++;
        for (i = 0; i < g->n_cohorts; i++) {
            uint32_t ki = g->cohorts[i].kern, same;
            kern_t *k = &s->kerns[ki];
            const gp_block_cost_t *bc;
            double t;
            if (k->mark == s->epoch) /* counted for this group already */
                continue;
            k->mark = s->epoch;
            k->sms += g->n_sms;
            if (n < 2)
                continue;
            same = blocks_of(g, ki);
            if (block_cost(s, ki, same, (uint32_t)warps, act, even, even, k->l2_capacity, &bc))
                return -1;
            t = GP_MAX(bc->time_cycles, 1e-9);
            k->dram_demand += g->n_sms * same * bc->dram_bytes / t;
            k->l2_demand += g->n_sms * same * bc->l2_bytes / t;
        }
    }
    for (i = 0; i < n; i++) {
        sum_dram += s->kerns[s->run_list[i]].dram_demand;
        sum_l2 += s->kerns[s->run_list[i]].l2_demand;
    }
    for (i = 0; i < n; i++) {
        kern_t *k = &s->kerns[s->run_list[i]];
        double sms = GP_MAX(k->sms, 1u);
        k->dram_share = n < 2 || !(sum_dram > 0) ? even : k->dram_demand / sum_dram / sms;
        k->l2_share = n < 2 || !(sum_l2 > 0) ? even : k->l2_demand / sum_l2 / sms;
    }
    return 0;
}

/* Whether a kernel running on GPU u (index d) has blocks left to dispatch:
   a block slot that empties will be refilled. */
static int refill_pending(const sim_t *s, uint32_t d)
{
    uint32_t i;
    for (i = 0; i < s->dispatching.n; i++)
        if (s->kerns[s->dispatching.v[i]].device == d && s->kerns[s->dispatching.v[i]].left > 0)
            return 1;
    return 0;
}

/* Recompute every cohort's progress rate on GPU u for the current residency
   and memory shares. */
static int update_gpu_rates(sim_t *s, gpu_t *u)
{
    uint32_t gi, ci, act = gp_eng_active_sms(u), n = running_kernels(s, u);
    /* the slot's turnaround counts only when another block will take the
       slot: the last blocks' exit and the kernel's completion are part of
       launch_latency_us (a null kernel's time between two events) */
    int refill = refill_pending(s, (uint32_t)(u - s->gpus));
    double turnaround = refill ? s->dev->block_turnaround_cycles : 0.0;
    if (n == 0)
        return 0;
    l2_capacities(s, n);
    if (bandwidth_shares(s, u, n, act))
        return -1;
    for (gi = 0; gi < u->n_groups; gi++) {
        group_t *g = &u->groups[gi];
        uint64_t warps, blocks, regs, smem;
        used_resources(s, g, &warps, &blocks, &regs, &smem);
        for (ci = 0; ci < g->n_cohorts; ci++) {
            cohort_t *c = &g->cohorts[ci];
            kern_t *k = &s->kerns[c->kern];
            const gp_block_cost_t *bc = NULL;
            uint32_t same = blocks_of(g, c->kern);
            double dur, min_period;
            if (block_cost(s, c->kern, same, (uint32_t)warps, act, k->dram_share, k->l2_share,
                           k->l2_capacity, &bc))
                return -1;
            /* the SM starts one block per block_launch_cycles, whichever
               kernel it belongs to: blocks resident together cannot turn
               over faster than that (alone: this cohort's blocks); and a
               slot to be refilled cannot turn over faster than the
               start-to-start period of a minimal block on it */
            min_period = GP_MAX((double)blocks * s->dev->block_launch_cycles, turnaround);
            /* a slot to be refilled also spends the slot's own overhead per
               block (block_slot_overhead_cycles, on the block's chain) */
            dur = GP_MAX(refill && bc->refill_time_cycles > 0 ? bc->refill_time_cycles
                                                              : bc->time_cycles,
                         min_period);
            c->rate = 1.0 / (dur * s->cycle_us);
            c->dram_pb = bc->dram_bytes;
            c->l2_pb = bc->l2_bytes;
            /* report the cost at the fullest residency the kernel reaches */
            if (!k->cost_set || same > k->cost_per_sm) {
                k->cost = *bc;
                k->cost_per_sm = same;
                k->cost_set = 1;
                if (min_period > bc->time_cycles)
                    k->cost.bound = GP_BOUND_LAUNCH;
            }
        }
    }
    return 0;
}

int gp_eng_update_rates(sim_t *s)
{
    uint32_t d;
    for (d = 0; d < s->n_dev; d++)
        if (update_gpu_rates(s, &s->gpus[d]))
            return -1;
    return 0;
}

/* The one cohort of kernel blocks filling GPU u in a run of identical full
   waves, or NULL when u is idle or in any other state (*busy says which). */
static cohort_t *steady_cohort(sim_t *s, gpu_t *u, int *busy)
{
    group_t *g;
    cohort_t *c;
    kern_t *k;
    uint32_t i;
    *busy = gp_eng_active_sms(u) > 0;
    if (u->n_groups != 1)
        return NULL;
    g = &u->groups[0];
    if (g->n_cohorts != 1 || g->n_sms != s->dev->sm_count)
        return NULL;
    c = &g->cohorts[0];
    k = &s->kerns[c->kern];
    if (c->per_sm != k->occ.blocks_per_sm || c->rate <= 0)
        return NULL;
    /* an older kernel with blocks left would refill first */
    for (i = 0; i < s->dispatching.n && gp_eng_kern_before(s, s->dispatching.v[i], c->kern);
         i++)
        if (s->kerns[s->dispatching.v[i]].device == k->device &&
            s->kerns[s->dispatching.v[i]].left > 0)
            return NULL;
    if (k->left < (uint64_t)c->per_sm * g->n_sms)
        return NULL;
    return c;
}

/* Skip n whole waves of cohort c on GPU u (its traffic counted). */
static void skip_waves(sim_t *s, gpu_t *u, cohort_t *c, uint64_t n)
{
    kern_t *k = &s->kerns[c->kern];
    uint64_t per_wave = (uint64_t)c->per_sm * u->groups[0].n_sms;
    k->left -= n * per_wave;
    k->dram_done += (double)(n * per_wave) * c->dram_pb;
    k->l2_done += (double)(n * per_wave) * c->l2_pb;
}

/* Skip runs of identical full waves: of a kernel alone on a GPU when the
   other GPUs are idle, or of one such kernel on each of several GPUs. */
int gp_eng_fast_forward(sim_t *s, double room)
{
    cohort_t *cs[GP_ENGINE_MAX_DEVICES];
    uint32_t d, n_steady = 0, only = 0;
    double horizon = INFINITY, pmax = 0;
    for (d = 0; d < s->n_dev; d++) {
        int busy;
        cs[d] = steady_cohort(s, &s->gpus[d], &busy);
        if (busy && !cs[d])
            return 0;
        if (cs[d]) {
            n_steady++;
            only = d;
        }
    }
    if (n_steady == 0)
        return 0;
    if (n_steady == 1) {
        /* right after a wave was dispatched: skip whole waves */
        cohort_t *c = cs[only];
        kern_t *k = &s->kerns[c->kern];
        uint64_t per_wave = (uint64_t)c->per_sm * s->gpus[only].groups[0].n_sms;
        uint64_t waves = k->left / per_wave;
        double period = 1.0 / c->rate;
        if (c->remaining < 1 - 1e-12)
            return 0;
        if (isfinite(room)) {
            double fit_waves = floor(room / period) - 1;
            if (fit_waves < 1)
                return 0;
            if ((double)waves > fit_waves)
                waves = (uint64_t)fit_waves;
        }
        s->now += (double)waves * period;
        skip_waves(s, &s->gpus[only], c, waves);
        return 1;
    }
    /* several GPUs, each in its own run of waves and phase: advance them all
       by a horizon in which every one only finishes and refills full waves */
    for (d = 0; d < s->n_dev; d++) {
        cohort_t *c = cs[d];
        uint64_t per_wave, waves;
        if (!c)
            continue;
        per_wave = (uint64_t)c->per_sm * s->gpus[d].groups[0].n_sms;
        waves = s->kerns[c->kern].left / per_wave;
        pmax = GP_MAX(pmax, 1.0 / c->rate);
        horizon = GP_MIN(horizon, c->remaining / c->rate + (double)(waves - 1) / c->rate);
    }
    if (isfinite(room))
        horizon = GP_MIN(horizon, room - pmax);
    if (!(horizon > 2 * pmax))
        return 0;
    for (d = 0; d < s->n_dev; d++) {
        cohort_t *c = cs[d];
        double first, done;
        uint64_t j = 0;
        if (!c)
            continue;
        first = c->remaining / c->rate;
        if (horizon >= first) {
            /* the current wave ends, then j - 1 more; the wave after is part done */
            j = 1 + (uint64_t)floor((horizon - first) * c->rate);
            done = (horizon - first) * c->rate - (double)(j - 1);
            {
                kern_t *k = &s->kerns[c->kern];
                uint64_t per_wave = (uint64_t)c->per_sm * s->gpus[d].groups[0].n_sms;
                k->dram_done += (double)per_wave * c->remaining * c->dram_pb;
                k->l2_done += (double)per_wave * c->remaining * c->l2_pb;
                skip_waves(s, &s->gpus[d], c, j - 1);
                /* the wave in progress at the horizon: its blocks left SMs and
                   arrived as one dispatch */
                k->left -= per_wave;
                k->dram_done += (double)per_wave * done * c->dram_pb;
                k->l2_done += (double)per_wave * done * c->l2_pb;
            }
            c->remaining = GP_MAX(1.0 - done, 1e-9);
        } else {
            kern_t *k = &s->kerns[c->kern];
            uint64_t per_wave = (uint64_t)c->per_sm * s->gpus[d].groups[0].n_sms;
            done = horizon * c->rate;
            k->dram_done += (double)per_wave * done * c->dram_pb;
            k->l2_done += (double)per_wave * done * c->l2_pb;
            c->remaining -= done;
        }
    }
    s->now += horizon;
    return 1;
}

/* Retire the cohorts of GPU u that finished by now, advancing the others by dt. */
static void retire_gpu(sim_t *s, gpu_t *u, double dt)
{
    uint32_t gi, ci;
    for (gi = 0; gi < u->n_groups; gi++) {
        group_t *g = &u->groups[gi];
        uint32_t w = 0;
        for (ci = 0; ci < g->n_cohorts; ci++) {
            cohort_t *c = &g->cohorts[ci];
            kern_t *k = &s->kerns[c->kern];
            double blocks = (double)c->per_sm * g->n_sms;
            double done = GP_MIN(c->remaining, c->rate * dt);
            k->dram_done += blocks * done * c->dram_pb;
            k->l2_done += blocks * done * c->l2_pb;
            c->remaining -= c->rate * dt;
            if (c->remaining <= 1e-9) {
                uint64_t n = (uint64_t)c->per_sm * g->n_sms;
                k->running -= GP_MIN(n, k->running);
                if (k->left == 0 && k->running == 0)
                    gp_eng_kernel_done(s, c->kern);
                continue;
            }
            g->cohorts[w++] = *c;
        }
        g->n_cohorts = w;
    }
    merge_groups(s, u);
}

void gp_eng_retire(sim_t *s, double dt)
{
    uint32_t d;
    for (d = 0; d < s->n_dev; d++)
        retire_gpu(s, &s->gpus[d], dt);
}

double gp_eng_next_cohort(const sim_t *s)
{
    double dt = INFINITY;
    uint32_t gi, ci, d;
    for (d = 0; d < s->n_dev; d++)
        for (gi = 0; gi < s->gpus[d].n_groups; gi++)
            for (ci = 0; ci < s->gpus[d].groups[gi].n_cohorts; ci++) {
                const cohort_t *c = &s->gpus[d].groups[gi].cohorts[ci];
                if (c->rate > 0)
                    dt = GP_MIN(dt, c->remaining / c->rate);
            }
    return dt;
}

uint64_t gp_eng_resident_warps(const sim_t *s, const gpu_t *u)
{
    uint64_t all = 0;
    uint32_t gi;
    for (gi = 0; gi < u->n_groups; gi++) {
        uint64_t w, b, r, m;
        used_resources(s, &u->groups[gi], &w, &b, &r, &m);
        all += w * u->groups[gi].n_sms;
    }
    return all;
}

int gp_eng_gpu_init(sim_t *s, gpu_t *u)
{
    if (new_group(s, u, s->dev->sm_count) < 0)
        return -1;
    if (s->n_kqueues) {
        u->hwq_head = malloc(2 * s->n_kqueues * sizeof *u->hwq_head); /* and the tails */
        if (!u->hwq_head)
            return gp_err_set(s->err, "out of memory");
        u->hwq_tail = u->hwq_head + s->n_kqueues;
        memset(u->hwq_head, 0xff, s->n_kqueues * sizeof *u->hwq_head);
        memset(u->hwq_tail, 0xff, s->n_kqueues * sizeof *u->hwq_tail);
    }
    return 0;
}

void gp_eng_gpu_free(gpu_t *u)
{
    uint32_t i;
    for (i = 0; i < u->cap_groups; i++) {
        uintptr_t c = (uintptr_t)u->groups[i].cohorts, b = (uintptr_t)u->cohort_block;
        if (!(c >= b && c < b + u->cohort_block_len * sizeof(cohort_t)))
            free(u->groups[i].cohorts);
    }
    free(u->cohort_block);
    free(u->groups);
    free(u->launches.v);
    free(u->gapped.v);
    for (i = 0; i < GP_ARRAY_LEN(u->copies); i++)
        free(u->copies[i].v);
    free(u->hwq_head); /* (the tails are in its allocation) */
}

/* 1 if op touches device memory through a buffer or a footprint. */
static int touches_memory(const gp_op_t *op)
{
    return (op->kind == GP_OP_LOAD || op->kind == GP_OP_STORE || op->kind == GP_OP_ATOMIC ||
            op->kind == GP_OP_ASYNC_COPY) &&
           (op->space == GP_SPACE_GLOBAL || op->space == GP_SPACE_TEXTURE);
}

/* The working set of a kernel: each buffer it touches once (in the order
   of its first access), with the most bytes any access of it covers, plus
   the footprints of accesses that name no buffer. */
int gp_eng_working_set(sim_t *s, kern_t *k)
{
    const gp_kernel_t *kn = k->k;
    uint32_t i, j;
    k->n_ws = 0;
    k->ws_anon = k->ws_anon_written = 0;
    for (i = 0; i < kn->n_ops; i++) {
        const gp_op_t *op = &kn->ops[i];
        double bytes = (double)op->access.footprint_bytes;
        int written = op->kind == GP_OP_STORE || op->kind == GP_OP_ATOMIC;
        if (!touches_memory(op))
            continue;
        if (op->access.buffer == UINT32_MAX || op->access.buffer >= s->wl->n_buffers) {
            k->ws_anon += bytes;
            if (written)
                k->ws_anon_written += bytes;
            continue;
        }
        for (j = 0; j < k->n_ws; j++)
            if (k->ws[j].buffer == op->access.buffer)
                break;
        if (j < k->n_ws) {
            k->ws[j].bytes = GP_MAX(k->ws[j].bytes, bytes);
            k->ws[j].accessed += gp_op_grid_bytes(kn, op);
            k->ws[j].written |= written;
            continue;
        }
        if (k->n_ws == k->cap_ws) {
            uint32_t nc = k->cap_ws ? k->cap_ws * 2 : 8;
            ws_entry_t *w = realloc(k->ws, nc * sizeof *w);
            if (!w)
                return gp_err_set(s->err, "out of memory");
            k->ws = w;
            k->cap_ws = nc;
        }
        k->ws[k->n_ws].buffer = op->access.buffer;
        k->ws[k->n_ws].written = written;
        k->ws[k->n_ws].bytes = bytes;
        k->ws[k->n_ws].accessed = gp_op_grid_bytes(kn, op);
        k->n_ws++;
    }
    k->ws_bytes = k->ws_anon;
    for (j = 0; j < k->n_ws; j++)
        k->ws_bytes += k->ws[j].bytes;
    return 0;
}
