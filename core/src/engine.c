/*
 * engine.c - event-driven simulation of a workload on one or more devices.
 *
 * Actors: the host, which issues the workload's commands in order (each
 * launch or copy costs it launch_overhead_us; a synchronize blocks it); the
 * queues, whose commands run in order after their dependencies (a stream is
 * a queue; the legacy default stream is one queue per device, which waits
 * for, and is waited on by, every other stream of its device; events add
 * dependencies); on each GPU the SMs (engine_gpu.c), the copy engines and
 * the peer links between GPUs.
 *
 * A command becomes ready when the last command it depends on finishes
 * (each keeps a count and the finished one walks its dependents), so an
 * event costs time in proportion to the work that is ready, not to the
 * length of the workload. Ready launches start in issue order while the
 * GPU's concurrency limit allows; where the GPU takes launches from fewer
 * hardware queues than there are streams (gp_arch_info_t.kernel_queues) a
 * launch also waits for every earlier one in its queue. Ready copies start
 * in issue order when their engine (or, between GPUs, both directions of
 * the link they use) is free.
 */
#include "engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

#define MAX_SAMPLES 200000
/* Most hardware queues modelled per device (streams map onto them). */
#define MAX_KERNEL_QUEUES 1024

typedef gp_eng_sim_t sim_t;
typedef gp_eng_gpu_t gpu_t;
typedef gp_eng_node_t node_t;
typedef gp_eng_kern_t kern_t;
typedef gp_eng_idx_t idx_t;

double gp_eng_tol(double t)
{
    return GP_ENG_EPS * GP_MAX(1.0, fabs(t));
}

/* ------------------------------------------------------------ index sets */

/* Room for one more index in x. */
static int idx_reserve(sim_t *s, idx_t *x)
{
    if (x->n == x->cap) {
        uint32_t cap = x->cap ? x->cap * 2 : 16;
        uint32_t *v = realloc(x->v, cap * sizeof *v);
        if (!v)
            return gp_err_set(s->err, "out of memory");
        x->v = v;
        x->cap = cap;
    }
    return 0;
}

/* Push v onto the min-heap x. */
static int heap_push(sim_t *s, idx_t *x, uint32_t v)
{
    uint32_t i;
    if (idx_reserve(s, x))
        return -1;
    i = x->n++;
    while (i > 0 && x->v[(i - 1) / 2] > v) {
        x->v[i] = x->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    x->v[i] = v;
    return 0;
}

/* Remove the smallest index of the min-heap x (not empty). */
static void heap_pop(idx_t *x)
{
    uint32_t i = 0, last = x->v[--x->n];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= x->n)
            break;
        if (c + 1 < x->n && x->v[c + 1] < x->v[c])
            c++;
        if (x->v[c] >= last)
            break;
        x->v[i] = x->v[c];
        i = c;
    }
    if (x->n)
        x->v[i] = last;
}

/* Insert v into the ascending list x (usually at its end). */
static int idx_insert_sorted(sim_t *s, idx_t *x, uint32_t v)
{
    uint32_t i;
    if (idx_reserve(s, x))
        return -1;
    for (i = x->n; i > 0 && x->v[i - 1] > v; i--)
        x->v[i] = x->v[i - 1];
    x->v[i] = v;
    x->n++;
    return 0;
}

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

/* Node ni's dependencies are all done: it may start when its resources
   allow. */
static int node_ready(sim_t *s, uint32_t ni)
{
    node_t *n = &s->nodes[ni];
    gpu_t *u = &s->gpus[n->device];
    if (n->type == GP_CMD_LAUNCH)
        return s->n_kqueues ? 0 : heap_push(s, &u->launches, ni); /* else: its queue */
    if (n->engine == GP_COPY_P2P)
        return idx_insert_sorted(s, &s->p2p_ready, ni);
    return heap_push(s, &u->copies[n->engine], ni);
}

/* Node ni was just submitted with the dependencies in s->deps. */
static int submit(sim_t *s, uint32_t ni)
{
    node_t *n = &s->nodes[ni];
    uint32_t i;
    n->waiting = 0;
    n->deps_end = 0;
    for (i = 0; i < s->n_deps; i++) {
        node_t *d = &s->nodes[s->deps[i]];
        if (d->state == GP_N_DONE) {
            n->deps_end = GP_MAX(n->deps_end, d->end);
            continue;
        }
        if (s->n_edges == s->cap_edges) {
            uint32_t cap = s->cap_edges ? s->cap_edges * 2 : 256;
            uint32_t *a = realloc(s->edge_node, cap * sizeof *a);
            uint32_t *b = a ? realloc(s->edge_next, cap * sizeof *b) : NULL;
            if (a)
                s->edge_node = a;
            if (!b)
                return gp_err_set(s->err, "out of memory");
            s->edge_next = b;
            s->cap_edges = cap;
        }
        s->edge_node[s->n_edges] = ni;
        s->edge_next[s->n_edges] = d->first_dependent;
        d->first_dependent = s->n_edges++;
        n->waiting++;
    }
    if (n->type == GP_CMD_LAUNCH && s->n_kqueues) {
        /* its place in the hardware queue, behind every earlier launch */
        gpu_t *u = &s->gpus[n->device];
        uint32_t q = n->stream % s->n_kqueues;
        n->hwq_next = UINT32_MAX;
        if (u->hwq_tail[q] == UINT32_MAX)
            u->hwq_head[q] = ni;
        else
            s->nodes[u->hwq_tail[q]].hwq_next = ni;
        u->hwq_tail[q] = ni;
    }
    return n->waiting == 0 ? node_ready(s, ni) : 0;
}

/* Node ni finished at `end`: its dependents may become ready. */
static int node_done(sim_t *s, uint32_t ni, double end)
{
    node_t *n = &s->nodes[ni];
    uint32_t e;
    n->state = GP_N_DONE;
    n->end = end;
    s->n_done++;
    if (n->type == GP_CMD_LAUNCH)
        s->gpus[n->device].kernels_active--;
    for (e = n->first_dependent; e != UINT32_MAX; e = s->edge_next[e]) {
        node_t *w = &s->nodes[s->edge_node[e]];
        w->deps_end = GP_MAX(w->deps_end, n->end);
        if (--w->waiting == 0 && node_ready(s, s->edge_node[e]))
            return -1;
    }
    return 0;
}

void gp_eng_kernel_done(sim_t *s, uint32_t ki)
{
    /* an allocation failure here only delays dependents: it cannot lose
       work, and the loop reports a stall instead of a wrong time */
    free(s->kerns[ki].cache);
    s->kerns[ki].cache = NULL;
    (void)node_done(s, s->kerns[ki].node, s->now);
}

/* --------------------------------------------------------------- the host */

/* The queue of stream st for a command on device d. */
static uint32_t queue_of(const sim_t *s, uint32_t st, uint32_t d)
{
    if (st != 0)
        return st;
    if (d == 0 || d >= s->n_dev)
        return 0;
    return s->wl->n_streams + d - 1;
}

/* Dependencies of a new command on queue q of device d (queue order, the
   legacy default stream of the device), into s->deps. */
static int add_queue_deps(sim_t *s, uint32_t q, uint32_t d)
{
    uint32_t i, def = queue_of(s, 0, d);
    s->n_deps = 0;
    if (s->queue_last[q] >= 0 && push_dep(s, (uint32_t)s->queue_last[q]))
        return -1;
    if (q == def) {
        for (i = 1; i < s->wl->n_streams; i++)
            if (s->queue_last[i] >= 0 && s->queue_dev[i] == d &&
                push_dep(s, (uint32_t)s->queue_last[i]))
                return -1;
    } else if (s->queue_last[def] >= 0 && push_dep(s, (uint32_t)s->queue_last[def])) {
        return -1;
    }
    for (i = 0; i < s->n_pending_waits[q]; i++)
        if (push_dep(s, s->pending_waits[q][i]))
            return -1;
    s->n_pending_waits[q] = 0;
    return 0;
}

/* Add a wait of queue q on node dep. */
static int add_pending_wait(sim_t *s, uint32_t q, uint32_t dep)
{
    uint32_t *w = realloc(s->pending_waits[q], (s->n_pending_waits[q] + 1) * sizeof *w);
    if (!w)
        return gp_err_set(s->err, "out of memory");
    s->pending_waits[q] = w;
    w[s->n_pending_waits[q]++] = dep;
    return 0;
}

/* Duration of a copy into *us; an error naming the script line when the
   device file lacks the bandwidth the copy needs. */
static int copy_duration(const sim_t *s, const gp_command_t *c, double *us)
{
    const gp_device_t *d = s->dev;
    double bytes = (double)c->copy_bytes;
    const char *key = "pcie_bandwidth_gbps";
    if (c->copy_kind == GP_COPY_D2D) {
        /* done by a copy kernel: a launch, then read and write at DRAM speed */
        *us = d->launch_latency_us + 2 * bytes / (d->dram_sustained_gbps * 1e3);
        return 0;
    }
    if (c->copy_kind == GP_COPY_P2P) {
        /* nvlink_bandwidth_gbps is one direction of the link: a copy each
           way at once gets the full figure each */
        if (d->nvlink_bandwidth_gbps > 0) {
            *us = d->nvlink_latency_us + bytes / (d->nvlink_bandwidth_gbps * 1e3);
            return 0;
        }
        key = "nvlink_bandwidth_gbps or pcie_bandwidth_gbps"; /* then over PCIe */
    }
    if (!(d->pcie_bandwidth_gbps > 0))
        return gp_err_set(s->err,
                          "%s:%u: %s copy: device %s has no %s in its file; copies need it "
                          "(add it under [memory] with its source)",
                          s->wl->script, c->line,
                          c->copy_kind == GP_COPY_P2P  ? "p2p"
                          : c->copy_kind == GP_COPY_D2H ? "d2h"
                                                        : "h2d",
                          d->id, key);
    *us = d->pcie_latency_us + bytes / (d->pcie_bandwidth_gbps * 1e3);
    return 0;
}

/* A synchronize: 1 when what it waits for is done, with *t its latest end. */
static int sync_done(const sim_t *s, const gp_command_t *c, double *t)
{
    uint32_t q, want = UINT32_MAX;
    int all_dev = c->device == UINT32_MAX || s->n_dev == 1;
    *t = 0;
    if (c->stream != UINT32_MAX)
        want = queue_of(s, c->stream < s->wl->n_streams ? c->stream : 0, c->device);
    for (q = 0; q < s->n_queues; q++) {
        const node_t *d;
        if (want != UINT32_MAX ? q != want : (!all_dev && s->queue_dev[q] != c->device))
            continue;
        if (s->queue_last[q] < 0)
            continue;
        d = &s->nodes[s->queue_last[q]];
        if (d->state != GP_N_DONE)
            return 0;
        *t = GP_MAX(*t, d->end);
    }
    return 1;
}

/* Issue host commands whose time has come. */
static int host_step(sim_t *s, int *changed)
{
    const gp_workload_t *wl = s->wl;
    while (s->host_next < wl->n_cmds && s->host_time <= s->now + gp_eng_tol(s->now)) {
        const gp_command_t *c = &wl->cmds[s->host_next];
        uint32_t st = c->stream < wl->n_streams ? c->stream : 0;
        uint32_t d = c->device < s->n_dev ? c->device : 0;
        uint32_t q = queue_of(s, st, d);
        if (c->type == GP_CMD_SYNC) {
            double t;
            if (!sync_done(s, c, &t)) {
                s->host_blocked = 1;
                return 0;
            }
            s->host_blocked = 0;
            s->host_time = GP_MAX(s->host_time, t);
            s->host_next++;
            *changed = 1;
            if (s->host_time > s->now + gp_eng_tol(s->now))
                return 0;
            continue;
        }
        if (c->type == GP_CMD_WAIT) {
            if (c->event < wl->n_events && s->event_marker[c->event] >= 0 &&
                add_pending_wait(s, q, (uint32_t)s->event_marker[c->event]))
                return -1;
            s->host_next++;
            *changed = 1;
            continue;
        }
        if (c->type == GP_CMD_RECORD) {
            if (c->event < wl->n_events)
                s->event_marker[c->event] = s->queue_last[q];
            s->host_next++;
            *changed = 1;
            continue;
        }
        if (c->type != GP_CMD_LAUNCH && c->type != GP_CMD_COPY) {
            s->host_next++;
            continue;
        }
        {
            uint32_t ni = s->cmd_node[s->host_next];
            node_t *n = &s->nodes[ni];
            n->state = GP_N_SUBMITTED;
            n->submit = s->host_time;
            s->queue_dev[q] = d;
            n->ready = s->host_time + (c->type == GP_CMD_LAUNCH ? s->dev->launch_latency_us
                                                                 : 0);
            if (c->type == GP_CMD_COPY && copy_duration(s, c, &n->copy_us))
                return -1;
            if (add_queue_deps(s, q, d) || submit(s, ni))
                return -1;
            s->queue_last[q] = ni;
            s->host_time += s->dev->launch_overhead_us;
            s->host_next++;
            *changed = 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------- the loop */

/* Record every GPU's state now (one sample each; a later call at the same
   time replaces them). */
static void sample(sim_t *s)
{
    uint32_t d;
    int replace;
    if (!s->want_samples)
        return;
    replace = s->n_samples >= s->n_dev &&
              fabs(s->samples[s->n_samples - s->n_dev].t_us - s->now) < GP_ENG_EPS;
    if (!replace && s->n_samples + s->n_dev > MAX_SAMPLES)
        return;
    if (!replace && s->n_samples + s->n_dev > s->cap_samples) {
        uint32_t cap = s->cap_samples ? s->cap_samples * 2 : 256;
        gp_sample_t *ns;
        while (cap < s->n_samples + s->n_dev)
            cap *= 2;
        ns = realloc(s->samples, cap * sizeof *ns);
        if (!ns)
            return;
        s->samples = ns;
        s->cap_samples = cap;
    }
    if (replace)
        s->n_samples -= s->n_dev;
    for (d = 0; d < s->n_dev; d++) {
        const gpu_t *u = &s->gpus[d];
        gp_sample_t *sm = &s->samples[s->n_samples++];
        sm->t_us = s->now;
        sm->device = d;
        sm->sms_busy = gp_eng_active_sms(u);
        sm->occupancy =
            (double)gp_eng_resident_warps(s, u) /
            ((double)s->dev->sm_count * (s->dev->max_threads_per_sm / s->dev->warp_size));
        sm->kernels_running = u->kernels_active;
    }
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
    n->state = GP_N_ACTIVE;
    n->start = s->now; /* until its first block is placed */
    s->gpus[n->device].kernels_active++;
    if (k->left == 0) {
        return node_done(s, (uint32_t)(n - s->nodes), s->now);
    }
    return idx_insert_sorted(s, &s->dispatching, (uint32_t)n->kern);
}

/* Start the ready launches of GPU d that may start now, in issue order. */
static int start_launches(sim_t *s, uint32_t d, int *changed)
{
    gpu_t *u = &s->gpus[d];
    double limit = s->now + gp_eng_tol(s->now);
    for (;;) {
        uint32_t ni = UINT32_MAX, q;
        if (u->kernels_active >= s->info.max_concurrent_kernels)
            return 0;
        if (!s->n_kqueues) {
            /* ready times grow with issue order: the first decides */
            if (u->launches.n && s->nodes[u->launches.v[0]].ready <= limit) {
                ni = u->launches.v[0];
                heap_pop(&u->launches);
            }
        } else {
            /* the first of each hardware queue, if its dependencies are done */
            for (q = 0; q < s->n_kqueues; q++) {
                uint32_t h = u->hwq_head[q];
                if (h != UINT32_MAX && h < ni && s->nodes[h].waiting == 0 &&
                    s->nodes[h].ready <= limit)
                    ni = h;
            }
            if (ni != UINT32_MAX) {
                q = s->nodes[ni].stream % s->n_kqueues;
                u->hwq_head[q] = s->nodes[ni].hwq_next;
                if (u->hwq_head[q] == UINT32_MAX)
                    u->hwq_tail[q] = UINT32_MAX;
            }
        }
        if (ni == UINT32_MAX)
            return 0;
        if (activate_kernel(s, &s->nodes[ni]))
            return -1;
        *changed = 1;
    }
}

/* Start copy ni now on its engine or link. */
static int start_copy(sim_t *s, uint32_t ni)
{
    node_t *n = &s->nodes[ni];
    n->state = GP_N_ACTIVE;
    n->start = s->now;
    n->end = s->now + n->copy_us;
    if (n->engine == GP_COPY_P2P) {
        s->gpus[n->device].link_out_free = n->end;
        s->gpus[n->peer].link_in_free = n->end;
    } else {
        s->gpus[n->device].engine_free[n->engine] = n->end;
    }
    if (idx_reserve(s, &s->copies_active))
        return -1;
    s->copies_active.v[s->copies_active.n++] = ni;
    return 0;
}

/* Start ready copies whose engine or link is free, in issue order. */
static int start_copies(sim_t *s, int *changed)
{
    double limit = s->now + gp_eng_tol(s->now);
    uint32_t d, e, i, w = 0;
    for (d = 0; d < s->n_dev; d++) {
        gpu_t *u = &s->gpus[d];
        for (e = 0; e < GP_ARRAY_LEN(u->copies); e++)
            while (u->copies[e].n && u->engine_free[e] <= limit) {
                uint32_t ni = u->copies[e].v[0];
                heap_pop(&u->copies[e]);
                if (start_copy(s, ni))
                    return -1;
                *changed = 1;
            }
    }
    /* between GPUs: both the sender's outgoing and the receiver's incoming
       direction of the link must be free */
    for (i = 0; i < s->p2p_ready.n; i++) {
        uint32_t ni = s->p2p_ready.v[i];
        const node_t *n = &s->nodes[ni];
        if (s->gpus[n->device].link_out_free <= limit && s->gpus[n->peer].link_in_free <= limit) {
            if (start_copy(s, ni))
                return -1;
            *changed = 1;
        } else {
            s->p2p_ready.v[w++] = ni;
        }
    }
    s->p2p_ready.n = w;
    return 0;
}

/* Start what may start now. */
static int start_nodes(sim_t *s, int *changed)
{
    uint32_t d;
    for (d = 0; d < s->n_dev; d++)
        if (start_launches(s, d, changed))
            return -1;
    return start_copies(s, changed);
}

/* Earliest future time at which something outside the SMs happens: the
   host's next command, a copy ending, a ready launch's latency elapsing. */
static double next_external(const sim_t *s)
{
    double t = INFINITY, eps = gp_eng_tol(s->now);
    uint32_t i, d, q;
    if (s->host_next < s->wl->n_cmds && !s->host_blocked && s->host_time > s->now + eps)
        t = s->host_time;
    /* a copy ending within rounding of now is retired at once (dt 0) */
    for (i = 0; i < s->copies_active.n; i++)
        t = GP_MIN(t, GP_MAX(s->nodes[s->copies_active.v[i]].end, s->now));
    for (d = 0; d < s->n_dev; d++) {
        const gpu_t *u = &s->gpus[d];
        if (!s->n_kqueues) {
            if (u->launches.n && s->nodes[u->launches.v[0]].ready > s->now + eps)
                t = GP_MIN(t, s->nodes[u->launches.v[0]].ready);
            continue;
        }
        for (q = 0; q < s->n_kqueues; q++) {
            uint32_t h = u->hwq_head[q];
            if (h != UINT32_MAX && s->nodes[h].waiting == 0 && s->nodes[h].ready > s->now + eps)
                t = GP_MIN(t, s->nodes[h].ready);
        }
    }
    return t;
}

/* Advance time to the next event and retire what finished. */
static int advance(sim_t *s)
{
    double dt = gp_eng_next_cohort(s), t_ext = next_external(s);
    uint32_t i, w = 0;
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
    gp_eng_retire(s, dt);
    for (i = 0; i < s->copies_active.n; i++) {
        uint32_t ni = s->copies_active.v[i];
        if (s->nodes[ni].end <= s->now + gp_eng_tol(s->now)) {
            if (node_done(s, ni, s->nodes[ni].end))
                return -1;
        } else {
            s->copies_active.v[w++] = ni;
        }
    }
    s->copies_active.n = w;
    return 0;
}

/* 1 when every command has been issued and completed. */
static int finished(const sim_t *s)
{
    return s->host_next >= s->wl->n_cmds && s->n_done == s->n_nodes;
}

/* Dispatch the blocks of every active kernel, the oldest first; *changed
   when anything moved. */
static int dispatch_all(sim_t *s, int *changed)
{
    uint32_t i, w = 0;
    for (i = 0; i < s->dispatching.n; i++) {
        uint32_t ki = s->dispatching.v[i];
        kern_t *k = &s->kerns[ki];
        uint32_t before = s->gpus[k->device].n_groups;
        uint64_t left = k->left;
        if (gp_eng_dispatch(s, ki))
            return -1;
        *changed |= k->left != left || s->gpus[k->device].n_groups != before;
    }
    for (i = 0; i < s->dispatching.n; i++)
        if (s->kerns[s->dispatching.v[i]].left > 0)
            s->dispatching.v[w++] = s->dispatching.v[i];
    s->dispatching.n = w;
    return 0;
}

/* ---------------------------------------------------------- set-up, results */

static void sim_free(sim_t *s)
{
    uint32_t i, d;
    for (d = 0; s->gpus && d < s->n_dev; d++)
        gp_eng_gpu_free(&s->gpus[d]);
    free(s->gpus);
    free(s->nodes);
    free(s->cmd_node);
    free(s->deps);
    free(s->edge_node);
    free(s->edge_next);
    for (i = 0; s->kerns && i <= s->wl->n_cmds; i++)
        free(s->kerns[i].cache);
    free(s->kerns);
    free(s->dispatching.v);
    free(s->p2p_ready.v);
    free(s->copies_active.v);
    free(s->ws);
    free(s->queue_last);
    free(s->queue_dev);
    free(s->event_marker);
    if (s->pending_waits)
        for (i = 0; i < s->n_queues; i++)
            free(s->pending_waits[i]);
    free(s->pending_waits);
    free(s->n_pending_waits);
    free(s->run_list);
    free(s->buf_mark);
    free(s->buf_bytes);
    free(s->samples);
}

static int sim_init(sim_t *s)
{
    const gp_workload_t *wl = s->wl;
    uint32_t i, d, nn = 0, nk = 0, cap_ws = 0;
    s->cycle_us = 1.0 / s->dev->core_clock_mhz;
    s->max_cohorts = GP_MAX(s->dev->max_blocks_per_sm, 1u) + 1;
    s->n_queues = wl->n_streams + s->n_dev - 1;
    s->n_kqueues = GP_MIN(s->info.kernel_queues, (uint32_t)MAX_KERNEL_QUEUES);
    s->gpus = calloc(s->n_dev, sizeof *s->gpus);
    s->cmd_node = malloc((wl->n_cmds + 1) * sizeof *s->cmd_node);
    s->nodes = calloc(wl->n_cmds + 1, sizeof *s->nodes);
    s->kerns = calloc(wl->n_cmds + 1, sizeof *s->kerns);
    s->run_list = calloc(wl->n_cmds + 1, sizeof *s->run_list);
    s->buf_mark = calloc(wl->n_buffers + 1, sizeof *s->buf_mark);
    s->buf_bytes = calloc(wl->n_buffers + 1, sizeof *s->buf_bytes);
    s->queue_last = malloc((s->n_queues + 1) * sizeof *s->queue_last);
    s->queue_dev = calloc(s->n_queues + 1, sizeof *s->queue_dev);
    s->event_marker = malloc((wl->n_events + 1) * sizeof *s->event_marker);
    s->pending_waits = calloc(s->n_queues + 1, sizeof *s->pending_waits);
    s->n_pending_waits = calloc(s->n_queues + 1, sizeof *s->n_pending_waits);
    if (!s->gpus || !s->cmd_node || !s->nodes || !s->kerns || !s->run_list || !s->buf_mark ||
        !s->buf_bytes || !s->queue_last || !s->queue_dev || !s->event_marker ||
        !s->pending_waits || !s->n_pending_waits)
        return gp_err_set(s->err, "out of memory");
    for (i = 0; i < s->n_queues; i++) {
        s->queue_last[i] = -1;
        s->queue_dev[i] = i >= wl->n_streams ? i - wl->n_streams + 1 : 0;
    }
    for (i = 0; i < wl->n_events; i++)
        s->event_marker[i] = -1;
    for (i = 0; i < wl->n_cmds; i++) {
        const gp_command_t *c = &wl->cmds[i];
        node_t *n = &s->nodes[nn];
        s->cmd_node[i] = UINT32_MAX;
        if (c->type != GP_CMD_LAUNCH && c->type != GP_CMD_COPY)
            continue;
        s->cmd_node[i] = nn;
        n->cmd = i;
        n->type = c->type;
        n->stream = c->stream < wl->n_streams ? c->stream : 0;
        n->device = c->device < s->n_dev ? c->device : 0;
        n->kern = -1;
        n->first_dependent = UINT32_MAX;
        n->hwq_next = UINT32_MAX;
        if (c->type == GP_CMD_LAUNCH) {
            kern_t *k = &s->kerns[nk];
            n->kern = (int32_t)nk;
            k->node = nn;
            k->device = n->device;
            k->k = &c->kernel;
            if (gp_eng_working_set(s, k, &cap_ws))
                return -1;
            nk++;
        } else {
            n->engine = c->copy_kind < GP_COPY_KIND_COUNT ? (int)c->copy_kind : 0;
            n->peer = c->peer_device < s->n_dev ? c->peer_device : n->device;
        }
        nn++;
    }
    s->n_nodes = nn;
    s->n_kerns = nk;
    for (d = 0; d < s->n_dev; d++)
        if (gp_eng_gpu_init(s, &s->gpus[d]))
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
    r->device = n->device;
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
        r->dram_bytes = k->dram_done;
        r->l2_bytes = k->l2_done;
        r->l2_hit_rate = r->l2_bytes > 0 ? GP_MAX(0.0, 1.0 - r->dram_bytes / r->l2_bytes) : 0;
        r->warp_instructions = k->cost.warp_instructions * blocks;
    } else {
        static const char *const names[] = {"memcpy_h2d", "memcpy_d2h", "memcpy_d2d",
                                            "memcpy_p2p"};
        gp_strlcpy(r->name, c->copy_kind < 4 ? names[c->copy_kind] : "memcpy", sizeof r->name);
        r->copy_kind = c->copy_kind;
        r->peer_device = n->peer;
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
    s.n_dev = wl->n_devices ? wl->n_devices : 1;
    if (wl->n_streams == 0)
        return gp_err_set(err, "%s: workload has no default stream", wl->script);
    if (s.n_dev > GP_ENGINE_MAX_DEVICES)
        return gp_err_set(err, "%s: %u devices; gpuperf simulates at most %d", wl->script,
                          s.n_dev, GP_ENGINE_MAX_DEVICES);
    if (gp_arch_info(arch, dev, &s.info, err) || sim_init(&s))
        goto done;
    sample(&s);
    for (;;) {
        int changed = 1, guard = 0;
        while (changed && guard++ < 1000000) {
            changed = 0;
            if (host_step(&s, &changed) || start_nodes(&s, &changed) ||
                dispatch_all(&s, &changed))
                goto done;
        }
        if (finished(&s))
            break;
        if (gp_eng_update_rates(&s))
            goto done;
        sample(&s);
        if (gp_eng_fast_forward(&s, next_external(&s) - s.now)) {
            s.events++;
            sample(&s);
        }
        if (advance(&s))
            goto done;
    }
    out->n_cmds = 0;
    out->n_devices = s.n_dev;
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
