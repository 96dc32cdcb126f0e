/*
 * engine.c - event-driven simulation of a workload on one device.
 *
 * Actors: the host, which issues the workload's commands in order (each
 * launch or copy costs it launch_overhead_us; a synchronize blocks it); the
 * streams, whose commands run in order after their dependencies (the legacy
 * default stream waits for, and is waited on by, every other stream; events
 * add dependencies); the SMs, onto which the block scheduler places blocks
 * breadth-first, the earlier-launched kernel first, as long as registers,
 * shared memory, warp and block slots remain; and the copy engines.
 *
 * SMs in identical states form a group, so a wave of identical blocks over
 * all SMs is a single cohort; a run of identical waves with nothing else
 * happening is skipped in closed form. A cohort's progress rate comes from
 * the plugin's block cost at the current residency and is recomputed when
 * the residency changes (blocks of another kernel arriving or leaving).
 */
#include "engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

#define EPS 1e-12
#define COST_CACHE 16
#define MAX_SAMPLES 200000

enum node_state { N_PENDING = 0, N_SUBMITTED, N_ACTIVE, N_DONE };

/* One command in flight. */
typedef struct node {
    uint32_t cmd, type, stream;
    int state;
    double submit, ready, start, end;
    uint32_t dep_off, n_deps;
    int32_t kern;   /* index into kerns for launches, else -1 */
    int engine;     /* copy engine for copies */
    double copy_us; /* duration of a copy */
} node_t;

/* A cached block cost at one residency. */
typedef struct cost_entry {
    uint32_t blocks, warps_sm, active_sms;
    int valid;
    double time_cycles;
    gp_block_cost_t cost;
} cost_entry_t;

/* A kernel that has been activated (its blocks may dispatch). */
typedef struct kern {
    uint32_t node;
    const gp_kernel_t *k;
    gp_occupancy_t occ;
    uint64_t left;        /* blocks not yet dispatched */
    uint64_t running;     /* blocks on SMs */
    int started, cost_set;
    double start;
    gp_block_cost_t cost; /* at the first full dispatch */
    uint32_t cost_per_sm;
    cost_entry_t cache[COST_CACHE];
    uint32_t cache_next;
} kern_t;

/* Blocks of one kernel started together on every SM of a group. */
typedef struct cohort {
    uint32_t kern;
    uint32_t per_sm;
    double remaining; /* fraction of the blocks' work left */
    double rate;      /* fraction per us */
} cohort_t;

/* SMs in identical states. */
typedef struct group {
    uint32_t n_sms;
    uint32_t n_cohorts;
    cohort_t *cohorts; /* capacity: max_blocks_per_sm */
} group_t;

/* The whole simulation. */
typedef struct sim {
    const gp_device_t *dev;
    const gp_arch_t *arch;
    const gp_workload_t *wl;
    gp_arch_info_t info;
    double cycle_us;
    node_t *nodes;
    uint32_t n_nodes;
    uint32_t *cmd_node; /* workload command -> node, UINT32_MAX if none */
    uint32_t *deps;
    uint32_t n_deps, cap_deps;
    kern_t *kerns;
    uint32_t n_kerns;
    group_t *groups;
    uint32_t n_groups, cap_groups;
    uint32_t max_cohorts;
    double engine_free[GP_COPY_KIND_COUNT];
    /* host */
    uint32_t host_next;
    double host_time;
    int host_blocked;
    /* stream bookkeeping at submission time */
    int64_t *stream_last;  /* last node of each stream, -1 none */
    int64_t last_default;  /* last node on the default stream */
    int64_t *event_marker; /* node an event waits for; -1: already complete */
    uint32_t **pending_waits;
    uint32_t *n_pending_waits;
    double now;
    uint64_t events;
    gp_sample_t *samples;
    uint32_t n_samples, cap_samples;
    int want_samples;
    gp_err_t *err;
} sim_t;

/* ------------------------------------------------------------ dependencies */

static int push_dep(sim_t *s, uint32_t dep)
{
    if (s->n_deps == s->cap_deps) {
        uint32_t cap = s->cap_deps ? s->cap_deps * 2 : 256;
        uint32_t *d = realloc(s->deps, cap * sizeof *d);
        if (!d)
            return gp_err_set(s->err, "out of memory");
        s->deps = d;
        s->cap_deps = cap;
    }
    s->deps[s->n_deps++] = dep;
    return 0;
}

/* 1 if every dependency of node n is done; *t gets their latest end. */
static int deps_done(const sim_t *s, const node_t *n, double *t)
{
    uint32_t i;
    double latest = 0;
    for (i = 0; i < n->n_deps; i++) {
        const node_t *d = &s->nodes[s->deps[n->dep_off + i]];
        if (d->state != N_DONE)
            return 0;
        if (d->end > latest)
            latest = d->end;
    }
    *t = latest;
    return 1;
}

/* --------------------------------------------------------------- the host */

/* Dependencies of a new command on stream st (stream order, default stream). */
static int add_stream_deps(sim_t *s, node_t *n, uint32_t st)
{
    uint32_t i;
    n->dep_off = s->n_deps;
    if (s->stream_last[st] >= 0 && push_dep(s, (uint32_t)s->stream_last[st]))
        return -1;
    if (st == 0) {
        for (i = 1; i < s->wl->n_streams; i++)
            if (s->stream_last[i] >= 0 && push_dep(s, (uint32_t)s->stream_last[i]))
                return -1;
    } else if (s->last_default >= 0 && push_dep(s, (uint32_t)s->last_default)) {
        return -1;
    }
    for (i = 0; i < s->n_pending_waits[st]; i++)
        if (push_dep(s, s->pending_waits[st][i]))
            return -1;
    s->n_pending_waits[st] = 0;
    n->n_deps = s->n_deps - n->dep_off;
    return 0;
}

/* Add a wait of stream st on node dep. */
static int add_pending_wait(sim_t *s, uint32_t st, uint32_t dep)
{
    uint32_t *w = realloc(s->pending_waits[st], (s->n_pending_waits[st] + 1) * sizeof *w);
    if (!w)
        return gp_err_set(s->err, "out of memory");
    s->pending_waits[st] = w;
    w[s->n_pending_waits[st]++] = dep;
    return 0;
}

/* Duration of a copy, us. */
static double copy_duration(const gp_device_t *d, const gp_command_t *c)
{
    double bytes = (double)c->copy_bytes;
    switch (c->copy_kind) {
    case GP_COPY_D2D:
        /* done by a copy kernel: a launch, then read and write at DRAM speed */
        return d->launch_latency_us + 2 * bytes / (d->dram_sustained_gbps * 1e3);
    case GP_COPY_P2P:
        if (d->nvlink_bandwidth_gbps > 0)
            return d->nvlink_latency_us + bytes / (d->nvlink_bandwidth_gbps * 1e3);
        return d->pcie_latency_us + bytes / (GP_MAX(d->pcie_bandwidth_gbps, 1e-3) * 1e3);
    default:
        return d->pcie_latency_us + bytes / (GP_MAX(d->pcie_bandwidth_gbps, 1e-3) * 1e3);
    }
}

/* Issue host commands whose time has come; returns 1 if anything changed. */
static int host_step(sim_t *s, int *changed)
{
    const gp_workload_t *wl = s->wl;
    while (s->host_next < wl->n_cmds && s->host_time <= s->now + EPS) {
        const gp_command_t *c = &wl->cmds[s->host_next];
        uint32_t st = c->stream < wl->n_streams ? c->stream : 0;
        if (c->type == GP_CMD_SYNC) {
            double t = 0;
            uint32_t i;
            int done = 1;
            for (i = 0; i < wl->n_streams; i++) {
                int64_t last;
                if (c->stream != UINT32_MAX && c->stream != i)
                    continue;
                last = s->stream_last[i];
                if (last >= 0) {
                    const node_t *d = &s->nodes[last];
                    if (d->state != N_DONE)
                        done = 0;
                    else if (d->end > t)
                        t = d->end;
                }
            }
            if (!done) {
                s->host_blocked = 1;
                return 0;
            }
            s->host_blocked = 0;
            s->host_time = GP_MAX(s->host_time, t);
            s->host_next++;
            *changed = 1;
            if (s->host_time > s->now + EPS)
                return 0;
            continue;
        }
        if (c->type == GP_CMD_WAIT) {
            if (c->event < wl->n_events && s->event_marker[c->event] >= 0 &&
                add_pending_wait(s, st, (uint32_t)s->event_marker[c->event]))
                return -1;
            s->host_next++;
            *changed = 1;
            continue;
        }
        if (c->type == GP_CMD_RECORD) {
            if (c->event < wl->n_events)
                s->event_marker[c->event] = s->stream_last[st];
            s->host_next++;
            *changed = 1;
            continue;
        }
        {
            uint32_t ni = s->cmd_node[s->host_next];
            node_t *n = &s->nodes[ni];
            n->state = N_SUBMITTED;
            n->submit = s->host_time;
            if (add_stream_deps(s, n, st))
                return -1;
            n->ready = s->host_time + (c->type == GP_CMD_LAUNCH ? s->dev->launch_latency_us
                                                                 : 0);
            if (c->type == GP_CMD_COPY)
                n->copy_us = copy_duration(s->dev, c);
            s->stream_last[st] = ni;
            if (st == 0)
                s->last_default = ni;
            s->host_time += s->dev->launch_overhead_us;
            s->host_next++;
            *changed = 1;
        }
    }
    return 0;
}

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

/* Blocks of kernel ki that still fit on each SM of group g. */
static uint32_t fit(const sim_t *s, const group_t *g, uint32_t ki)
{
    const kern_t *k = &s->kerns[ki];
    const gp_device_t *d = s->dev;
    uint64_t warps, blocks, regs, smem, same = 0, c, lim;
    uint32_t i;
    used_resources(s, g, &warps, &blocks, &regs, &smem);
    for (i = 0; i < g->n_cohorts; i++)
        if (g->cohorts[i].kern == ki)
            same += g->cohorts[i].per_sm;
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

/* Append an empty group of n SMs; returns its index or -1. */
static int new_group(sim_t *s, uint32_t n)
{
    group_t *g;
    if (s->n_groups == s->cap_groups) {
        uint32_t cap = s->cap_groups * 2 + 4, i;
        group_t *ng = realloc(s->groups, cap * sizeof *ng);
        if (!ng)
            return gp_err_set(s->err, "out of memory");
        for (i = s->cap_groups; i < cap; i++) {
            ng[i].cohorts = calloc(s->max_cohorts, sizeof(cohort_t));
            if (!ng[i].cohorts) {
                s->groups = ng;
                s->cap_groups = i;
                return gp_err_set(s->err, "out of memory");
            }
            ng[i].n_cohorts = 0;
            ng[i].n_sms = 0;
        }
        s->groups = ng;
        s->cap_groups = cap;
    }
    g = &s->groups[s->n_groups];
    g->n_sms = n;
    g->n_cohorts = 0;
    return (int)s->n_groups++;
}

/* Split x SMs off group gi into a new group with the same state. */
static int split_group(sim_t *s, uint32_t gi, uint32_t x)
{
    int ni = new_group(s, x);
    group_t *g, *n;
    if (ni < 0)
        return -1;
    g = &s->groups[gi];
    n = &s->groups[ni];
    memcpy(n->cohorts, g->cohorts, g->n_cohorts * sizeof(cohort_t));
    n->n_cohorts = g->n_cohorts;
    g->n_sms -= x;
    return ni;
}

/* Put per_sm blocks of kernel ki on every SM of group gi. */
static void place(sim_t *s, uint32_t gi, uint32_t ki, uint32_t per_sm)
{
    group_t *g = &s->groups[gi];
    cohort_t *c;
    kern_t *k = &s->kerns[ki];
    uint64_t n = (uint64_t)per_sm * g->n_sms;
    if (per_sm == 0 || g->n_sms == 0)
        return;
    c = &g->cohorts[g->n_cohorts++];
    c->kern = ki;
    c->per_sm = per_sm;
    c->remaining = 1;
    c->rate = 0;
    k->left -= n;
    k->running += n;
    if (!k->started) {
        k->started = 1;
        k->start = s->now;
        s->nodes[k->node].start = s->now;
    }
}

/* Breadth-first placement of kernel ki's remaining blocks. */
static int dispatch_kernel(sim_t *s, uint32_t ki)
{
    kern_t *k = &s->kerns[ki];
    uint32_t gi, n0 = s->n_groups, L, maxcap = 0;
    uint32_t caps[4096];
    uint64_t total = 0;
    if (k->left == 0)
        return 0;
    if (n0 > GP_ARRAY_LEN(caps))
        n0 = GP_ARRAY_LEN(caps);
    for (gi = 0; gi < n0; gi++) {
        caps[gi] = fit(s, &s->groups[gi], ki);
        total += (uint64_t)caps[gi] * s->groups[gi].n_sms;
        maxcap = GP_MAX(maxcap, caps[gi]);
    }
    if (total == 0)
        return 0;
    if (k->left >= total) {
        for (gi = 0; gi < n0; gi++)
            place(s, gi, ki, caps[gi]);
        return 0;
    }
    /* smallest level L with sum n_g * min(cap_g, L) >= left */
    for (L = 1; L <= maxcap; L++) {
        uint64_t f = 0;
        for (gi = 0; gi < n0; gi++)
            f += (uint64_t)GP_MIN(caps[gi], L) * s->groups[gi].n_sms;
        if (f >= k->left)
            break;
    }
    {
        uint64_t base = 0, r;
        for (gi = 0; gi < n0; gi++)
            base += (uint64_t)GP_MIN(caps[gi], L - 1) * s->groups[gi].n_sms;
        r = k->left - base;
        for (gi = 0; gi < n0; gi++) {
            uint32_t lo = GP_MIN(caps[gi], L - 1);
            if (caps[gi] >= L && r > 0) {
                uint32_t x = (uint32_t)GP_MIN(r, (uint64_t)s->groups[gi].n_sms);
                if (x < s->groups[gi].n_sms) {
                    int ni = split_group(s, gi, x);
                    if (ni < 0)
                        return -1;
                    place(s, (uint32_t)ni, ki, L);
                } else {
                    lo = L;
                }
                r -= x;
            }
            place(s, gi, ki, lo);
        }
    }
    return 0;
}

/* Drop empty groups' distinction: merge groups in identical states. */
static void merge_groups(sim_t *s)
{
    uint32_t i, j;
    for (i = 0; i < s->n_groups; i++) {
        group_t *a = &s->groups[i];
        if (a->n_sms == 0)
            continue;
        for (j = i + 1; j < s->n_groups; j++) {
            group_t *b = &s->groups[j];
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
    for (i = 0, j = 0; i < s->n_groups; i++) {
        if (s->groups[i].n_sms == 0)
            continue;
        if (i != j) {
            group_t tmp = s->groups[j];
            s->groups[j] = s->groups[i];
            s->groups[i] = tmp;
        }
        j++;
    }
    if (j == 0 && s->n_groups > 0) {
        /* keep one (idle) group holding every SM */
        s->groups[0].n_sms = s->dev->sm_count;
        s->groups[0].n_cohorts = 0;
        j = 1;
    }
    s->n_groups = j;
}

/* --------------------------------------------------------------- costs */

static uint32_t active_sms(const sim_t *s)
{
    uint32_t i, n = 0;
    for (i = 0; i < s->n_groups; i++)
        if (s->groups[i].n_cohorts)
            n += s->groups[i].n_sms;
    return n;
}

/* Block cost of kernel ki at a residency, cached. */
static int block_cost(sim_t *s, uint32_t ki, uint32_t blocks, uint32_t warps_sm,
                      uint32_t act, const gp_block_cost_t **out)
{
    kern_t *k = &s->kerns[ki];
    gp_residency_t res;
    cost_entry_t *e;
    uint32_t i;
    for (i = 0; i < COST_CACHE; i++) {
        e = &k->cache[i];
        if (e->valid && e->blocks == blocks && e->warps_sm == warps_sm && e->active_sms == act) {
            *out = &e->cost;
            return 0;
        }
    }
    e = &k->cache[k->cache_next];
    k->cache_next = (k->cache_next + 1) % COST_CACHE;
    memset(&res, 0, sizeof res);
    res.blocks = blocks;
    res.warps_sm = warps_sm;
    res.active_sms = act;
    res.dram_share = act ? 1.0 / act : 1.0;
    res.l2_share = res.dram_share;
    res.l2_capacity_bytes = (double)s->dev->l2_bytes;
    if (gp_arch_block_cost(s->arch, s->dev, k->k, &k->occ, &res, &e->cost, s->err)) {
        const gp_command_t *c = &s->wl->cmds[s->nodes[k->node].cmd];
        return gp_err_prefix(s->err, "%s:%u: launch '%s'", s->wl->script, c->line, k->k->name);
    }
    e->valid = 1;
    e->blocks = blocks;
    e->warps_sm = warps_sm;
    e->active_sms = act;
    *out = &e->cost;
    return 0;
}

/* Recompute every cohort's progress rate for the current residency. */
static int update_rates(sim_t *s)
{
    uint32_t gi, ci, act = active_sms(s);
    for (gi = 0; gi < s->n_groups; gi++) {
        group_t *g = &s->groups[gi];
        uint64_t warps, blocks, regs, smem;
        used_resources(s, g, &warps, &blocks, &regs, &smem);
        for (ci = 0; ci < g->n_cohorts; ci++) {
            cohort_t *c = &g->cohorts[ci];
            kern_t *k = &s->kerns[c->kern];
            const gp_block_cost_t *bc = NULL;
            uint32_t same = 0, j;
            double dur;
            for (j = 0; j < g->n_cohorts; j++)
                if (g->cohorts[j].kern == c->kern)
                    same += g->cohorts[j].per_sm;
            if (block_cost(s, c->kern, same, (uint32_t)warps, act, &bc))
                return -1;
            dur = GP_MAX(bc->time_cycles, c->per_sm * s->dev->block_launch_cycles);
            c->rate = 1.0 / (dur * s->cycle_us);
            /* report the cost at the fullest residency the kernel reaches */
            if (!k->cost_set || same > k->cost_per_sm) {
                k->cost = *bc;
                k->cost_per_sm = same;
                k->cost_set = 1;
                if (c->per_sm * s->dev->block_launch_cycles > bc->time_cycles)
                    k->cost.bound = GP_BOUND_LAUNCH;
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------- the loop */

static void sample(sim_t *s)
{
    gp_sample_t *sm;
    uint32_t gi, kr = 0, i;
    uint64_t warps_all = 0;
    if (!s->want_samples || s->n_samples >= MAX_SAMPLES)
        return;
    if (s->n_samples == s->cap_samples) {
        uint32_t cap = s->cap_samples ? s->cap_samples * 2 : 256;
        gp_sample_t *ns = realloc(s->samples, cap * sizeof *ns);
        if (!ns)
            return;
        s->samples = ns;
        s->cap_samples = cap;
    }
    for (gi = 0; gi < s->n_groups; gi++) {
        uint64_t w, b, r, m;
        used_resources(s, &s->groups[gi], &w, &b, &r, &m);
        warps_all += w * s->groups[gi].n_sms;
    }
    for (i = 0; i < s->n_kerns; i++)
        kr += s->nodes[s->kerns[i].node].state == N_ACTIVE;
    sm = &s->samples[s->n_samples];
    sm->t_us = s->now;
    sm->sms_busy = active_sms(s);
    sm->occupancy = (double)warps_all /
                    ((double)s->dev->sm_count * (s->dev->max_threads_per_sm / s->dev->warp_size));
    sm->kernels_running = kr;
    if (s->n_samples > 0 && fabs(s->samples[s->n_samples - 1].t_us - sm->t_us) < EPS)
        s->samples[s->n_samples - 1] = *sm;
    else
        s->n_samples++;
}

/* Activate a launch node: compute occupancy, refuse impossible launches. */
static int activate_kernel(sim_t *s, node_t *n)
{
    const gp_command_t *c = &s->wl->cmds[n->cmd];
    kern_t *k = &s->kerns[n->kern];
    if (gp_arch_occupancy(s->arch, s->dev, &c->kernel.launch, &k->occ, s->err))
        return gp_err_prefix(s->err, "%s:%u: launch '%s'", s->wl->script, c->line,
                             c->kernel.name);
    if (k->occ.blocks_per_sm == 0)
        return gp_err_set(s->err, "%s:%u: launch '%s' cannot run on %s: %s (limit: %s)",
                          s->wl->script, c->line, c->kernel.name, s->dev->name,
                          k->occ.detail, gp_limiter_name(k->occ.limiter));
    k->left = c->kernel.total_blocks;
    n->state = N_ACTIVE;
    return 0;
}

/* Start nodes whose dependencies are met; returns via *changed. */
static int start_nodes(sim_t *s, int *changed)
{
    uint32_t i, running = 0;
    for (i = 0; i < s->n_kerns; i++)
        running += s->nodes[s->kerns[i].node].state == N_ACTIVE;
    for (i = 0; i < s->n_nodes; i++) {
        node_t *n = &s->nodes[i];
        double t;
        if (n->state != N_SUBMITTED || !deps_done(s, n, &t))
            continue;
        if (n->type == GP_CMD_LAUNCH) {
            if (GP_MAX(n->ready, t) > s->now + EPS)
                continue;
            if (running >= s->info.max_concurrent_kernels)
                continue;
            if (activate_kernel(s, n))
                return -1;
            if (s->kerns[n->kern].left == 0) {
                n->state = N_DONE;
                n->start = n->end = s->now;
            }
            running++;
            *changed = 1;
        } else if (n->type == GP_CMD_COPY) {
            double begin = GP_MAX(GP_MAX(n->ready, t), s->engine_free[n->engine]);
            if (begin > s->now + EPS)
                continue;
            n->state = N_ACTIVE;
            n->start = s->now;
            n->end = s->now + n->copy_us;
            s->engine_free[n->engine] = n->end;
            *changed = 1;
        }
    }
    return 0;
}

/* Earliest future time at which something outside the SMs happens. */
static double next_external(const sim_t *s)
{
    double t = INFINITY;
    uint32_t i;
    if (s->host_next < s->wl->n_cmds && !s->host_blocked && s->host_time > s->now + EPS)
        t = s->host_time;
    for (i = 0; i < s->n_nodes; i++) {
        const node_t *n = &s->nodes[i];
        double d;
        if (n->state == N_ACTIVE && n->type == GP_CMD_COPY && n->end > s->now + EPS)
            t = GP_MIN(t, n->end);
        if (n->state == N_SUBMITTED && deps_done(s, n, &d)) {
            double r = GP_MAX(n->ready, d);
            if (n->type == GP_CMD_COPY)
                r = GP_MAX(r, s->engine_free[n->engine]);
            if (r > s->now + EPS)
                t = GP_MIN(t, r);
        }
    }
    return t;
}

/* Skip runs of identical full waves of a kernel alone on the GPU. */
static void fast_forward(sim_t *s)
{
    group_t *g;
    cohort_t *c;
    kern_t *k;
    uint64_t per_wave, waves;
    double period, room;
    uint32_t i;
    if (s->n_groups != 1)
        return;
    g = &s->groups[0];
    if (g->n_cohorts != 1 || g->n_sms != s->dev->sm_count)
        return;
    c = &g->cohorts[0];
    k = &s->kerns[c->kern];
    if (c->remaining < 1 - 1e-12 || c->per_sm != k->occ.blocks_per_sm || c->rate <= 0)
        return;
    for (i = 0; i < c->kern; i++) /* an older kernel with blocks left would refill first */
        if (s->kerns[i].left > 0)
            return;
    per_wave = (uint64_t)c->per_sm * g->n_sms;
    waves = k->left / per_wave;
    if (waves == 0)
        return;
    period = 1.0 / c->rate;
    room = next_external(s) - s->now;
    if (isfinite(room)) {
        double fit_waves = floor(room / period) - 1;
        if (fit_waves < 1)
            return;
        if ((double)waves > fit_waves)
            waves = (uint64_t)fit_waves;
    }
    s->now += (double)waves * period;
    k->left -= waves * per_wave;
    s->events++;
    sample(s);
}

/* Advance time to the next event and retire what finished. */
static int advance(sim_t *s)
{
    double dt = INFINITY, t_ext = next_external(s);
    uint32_t gi, ci;
    for (gi = 0; gi < s->n_groups; gi++)
        for (ci = 0; ci < s->groups[gi].n_cohorts; ci++) {
            const cohort_t *c = &s->groups[gi].cohorts[ci];
            if (c->rate > 0)
                dt = GP_MIN(dt, c->remaining / c->rate);
        }
    if (isfinite(t_ext))
        dt = GP_MIN(dt, t_ext - s->now);
    if (!isfinite(dt))
        return gp_err_set(s->err,
                          "%s: the simulation stalled (a dependency that never completes: "
                          "an event waited on before it is recorded, or a launch that never "
                          "gets an SM)",
                          s->wl->script);
    if (dt < 0)
        dt = 0;
    s->now += dt;
    s->events++;
    for (gi = 0; gi < s->n_groups; gi++) {
        group_t *g = &s->groups[gi];
        uint32_t w = 0;
        for (ci = 0; ci < g->n_cohorts; ci++) {
            cohort_t *c = &g->cohorts[ci];
            kern_t *k = &s->kerns[c->kern];
            c->remaining -= c->rate * dt;
            if (c->remaining <= 1e-9) {
                uint64_t n = (uint64_t)c->per_sm * g->n_sms;
                k->running -= GP_MIN(n, k->running);
                if (k->left == 0 && k->running == 0) {
                    node_t *nd = &s->nodes[k->node];
                    nd->state = N_DONE;
                    nd->end = s->now;
                }
                continue;
            }
            g->cohorts[w++] = *c;
        }
        g->n_cohorts = w;
    }
    for (gi = 0; gi < s->n_nodes; gi++) {
        node_t *n = &s->nodes[gi];
        if (n->state == N_ACTIVE && n->type == GP_CMD_COPY && n->end <= s->now + EPS)
            n->state = N_DONE;
    }
    merge_groups(s);
    return 0;
}

/* 1 when every command has been issued and completed. */
static int finished(const sim_t *s)
{
    uint32_t i;
    if (s->host_next < s->wl->n_cmds)
        return 0;
    for (i = 0; i < s->n_nodes; i++)
        if (s->nodes[i].state != N_DONE)
            return 0;
    return 1;
}

/* ---------------------------------------------------------- set-up, results */

static void sim_free(sim_t *s)
{
    uint32_t i;
    for (i = 0; i < s->cap_groups; i++)
        free(s->groups[i].cohorts);
    free(s->groups);
    free(s->nodes);
    free(s->cmd_node);
    free(s->deps);
    free(s->kerns);
    free(s->stream_last);
    free(s->event_marker);
    if (s->pending_waits)
        for (i = 0; i < s->wl->n_streams; i++)
            free(s->pending_waits[i]);
    free(s->pending_waits);
    free(s->n_pending_waits);
    free(s->samples);
}

static int sim_init(sim_t *s)
{
    const gp_workload_t *wl = s->wl;
    uint32_t i, nn = 0, nk = 0;
    s->cycle_us = 1.0 / s->dev->core_clock_mhz;
    s->max_cohorts = GP_MAX(s->dev->max_blocks_per_sm, 1u) + 1;
    s->cmd_node = malloc((wl->n_cmds + 1) * sizeof *s->cmd_node);
    s->nodes = calloc(wl->n_cmds + 1, sizeof *s->nodes);
    s->kerns = calloc(wl->n_cmds + 1, sizeof *s->kerns);
    s->stream_last = malloc((wl->n_streams + 1) * sizeof *s->stream_last);
    s->event_marker = malloc((wl->n_events + 1) * sizeof *s->event_marker);
    s->pending_waits = calloc(wl->n_streams + 1, sizeof *s->pending_waits);
    s->n_pending_waits = calloc(wl->n_streams + 1, sizeof *s->n_pending_waits);
    if (!s->cmd_node || !s->nodes || !s->kerns || !s->stream_last || !s->event_marker ||
        !s->pending_waits || !s->n_pending_waits)
        return gp_err_set(s->err, "out of memory");
    for (i = 0; i < wl->n_streams; i++)
        s->stream_last[i] = -1;
    for (i = 0; i < wl->n_events; i++)
        s->event_marker[i] = -1;
    s->last_default = -1;
    for (i = 0; i < wl->n_cmds; i++) {
        const gp_command_t *c = &wl->cmds[i];
        s->cmd_node[i] = UINT32_MAX;
        if (c->type != GP_CMD_LAUNCH && c->type != GP_CMD_COPY)
            continue;
        s->cmd_node[i] = nn;
        s->nodes[nn].cmd = i;
        s->nodes[nn].type = c->type;
        s->nodes[nn].stream = c->stream < wl->n_streams ? c->stream : 0;
        s->nodes[nn].kern = -1;
        if (c->type == GP_CMD_LAUNCH) {
            s->nodes[nn].kern = (int32_t)nk;
            s->kerns[nk].node = nn;
            s->kerns[nk].k = &c->kernel;
            nk++;
        } else {
            s->nodes[nn].engine = c->copy_kind < GP_COPY_KIND_COUNT ? (int)c->copy_kind : 0;
        }
        nn++;
    }
    s->n_nodes = nn;
    s->n_kerns = nk;
    if (new_group(s, s->dev->sm_count) < 0)
        return -1;
    return 0;
}

/* Fill one result row from a finished node. */
static void fill_result(const sim_t *s, const node_t *n, gp_cmd_result_t *r)
{
    const gp_command_t *c = &s->wl->cmds[n->cmd];
    memset(r, 0, sizeof *r);
    r->cmd = n->cmd;
    r->type = n->type;
    r->stream = n->stream;
    r->line = c->line;
    r->device = c->device;
    r->submit_us = n->submit;
    r->start_us = n->start;
    r->end_us = n->end;
    r->time_us = n->end - n->start;
    if (n->type == GP_CMD_LAUNCH) {
        const kern_t *k = &s->kerns[n->kern];
        double blocks = (double)c->kernel.total_blocks;
        gp_strlcpy(r->name, c->kernel.name ? c->kernel.name : "kernel", sizeof r->name);
        r->occ = k->occ;
        r->cost = k->cost;
        r->blocks = c->kernel.total_blocks;
        r->waves = k->occ.blocks_per_sm
                       ? blocks / ((double)k->occ.blocks_per_sm * s->dev->sm_count)
                       : 0;
        r->bound = k->cost.bound;
        r->dram_bytes = k->cost.dram_bytes * blocks;
        r->l2_bytes = k->cost.l2_bytes * blocks;
        r->warp_instructions = k->cost.warp_instructions * blocks;
    } else {
        static const char *const names[] = {"memcpy_h2d", "memcpy_d2h", "memcpy_d2d",
                                            "memcpy_p2p"};
        gp_strlcpy(r->name, c->copy_kind < 4 ? names[c->copy_kind] : "memcpy", sizeof r->name);
        r->copy_kind = c->copy_kind;
        r->copy_bytes = c->copy_bytes;
    }
}

int gp_predict(const gp_device_t *dev, const gp_arch_t *arch, const gp_workload_t *wl,
               const gp_engine_opts_t *opts, gp_prediction_t *out, gp_err_t *err)
{
    sim_t s;
    uint32_t i;
    int rc = -1;
    memset(out, 0, sizeof *out);
    memset(&s, 0, sizeof s);
    s.dev = dev;
    s.arch = arch;
    s.wl = wl;
    s.err = err;
    s.want_samples = opts && opts->samples;
    if (wl->n_streams == 0)
        return gp_err_set(err, "%s: workload has no default stream", wl->script);
    if (gp_arch_info(arch, dev, &s.info, err) || sim_init(&s))
        goto done;
    sample(&s);
    for (;;) {
        int changed = 1, guard = 0;
        while (changed && guard++ < 1000000) {
            changed = 0;
            if (host_step(&s, &changed) || start_nodes(&s, &changed))
                goto done;
            for (i = 0; i < s.n_kerns; i++) {
                uint32_t before = s.n_groups;
                if (s.nodes[s.kerns[i].node].state == N_ACTIVE && s.kerns[i].left > 0) {
                    uint64_t left = s.kerns[i].left;
                    if (dispatch_kernel(&s, i))
                        goto done;
                    changed |= s.kerns[i].left != left || s.n_groups != before;
                }
            }
        }
        if (finished(&s))
            break;
        if (update_rates(&s))
            goto done;
        sample(&s);
        fast_forward(&s);
        if (advance(&s))
            goto done;
    }
    out->n_cmds = 0;
    out->cmds = calloc(s.n_nodes + 1, sizeof *out->cmds);
    if (!out->cmds) {
        gp_err_set(err, "out of memory");
        goto done;
    }
    for (i = 0; i < s.n_nodes; i++) {
        fill_result(&s, &s.nodes[i], &out->cmds[out->n_cmds++]);
        if (s.nodes[i].end > out->total_us)
            out->total_us = s.nodes[i].end;
    }
    sample(&s);
    out->samples = s.samples;
    out->n_samples = s.n_samples;
    s.samples = NULL;
    out->events = s.events;
    rc = 0;
done:
    sim_free(&s);
    if (rc)
        gp_prediction_free(out);
    return rc;
}

void gp_prediction_free(gp_prediction_t *p)
{
    if (!p)
        return;
    free(p->cmds);
    free(p->samples);
    memset(p, 0, sizeof *p);
}
