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
 *
 * Nodes are taken from a pool when the host issues their command and given
 * back when they are done and unreferenced, so memory follows the work in
 * flight. A graph replay is one node in its stream; when its dependencies
 * are done it expands into the graph's nodes (their dependencies worked out
 * once per graph), and it is done when they all are.
 */
#include "engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "occupancy.h"
#include "constants.h"
#include "log.h"

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

/* 1 when node a was issued before node b. */
static int before(const sim_t *s, uint32_t a, uint32_t b)
{
    return s->nodes[a].seq < s->nodes[b].seq;
}

int gp_eng_kern_before(const sim_t *s, uint32_t a, uint32_t b)
{
    return s->kerns[a].seq < s->kerns[b].seq;
}

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

/* Push node v onto the min-heap x (by issue order). */
static int heap_push(sim_t *s, idx_t *x, uint32_t v)
{
    uint32_t i;
    if (idx_reserve(s, x))
        return -1;
    i = x->n++;
    while (i > 0 && before(s, v, x->v[(i - 1) / 2])) {
        x->v[i] = x->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    x->v[i] = v;
    return 0;
}

/* Remove the earliest node of the min-heap x (not empty). */
static void heap_pop(const sim_t *s, idx_t *x)
{
    uint32_t i = 0, last = x->v[--x->n];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= x->n)
            break;
        if (c + 1 < x->n && before(s, x->v[c + 1], x->v[c]))
            c++;
        if (!before(s, x->v[c], last))
            break;
        x->v[i] = x->v[c];
        i = c;
    }
    if (x->n)
        x->v[i] = last;
}

/* Insert v into the list x kept in order by less(s, a, b) (usually at its
   end). */
static int idx_insert_sorted(sim_t *s, idx_t *x, uint32_t v,
                             int (*less)(const sim_t *, uint32_t, uint32_t))
{
    uint32_t i;
    if (idx_reserve(s, x))
        return -1;
    for (i = x->n; i > 0 && less(s, v, x->v[i - 1]); i--)
        x->v[i] = x->v[i - 1];
    x->v[i] = v;
    x->n++;
    return 0;
}

/* Append v to the list x. */
static int idx_push(sim_t *s, idx_t *x, uint32_t v)
{
    if (idx_reserve(s, x))
        return -1;
    x->v[x->n++] = v;
    return 0;
}

/* ------------------------------------------------------------------ pools */

/* Note the pools' size after one grew. */
static void note_pools(sim_t *s)
{
    uint64_t b = (uint64_t)s->cap_nodes * sizeof *s->nodes +
                 (uint64_t)s->cap_kerns * (sizeof *s->kerns + sizeof *s->run_list) +
                 (uint64_t)s->cap_edges * 2 * sizeof *s->edge_node;
    s->peak_bytes = GP_MAX(s->peak_bytes, b);
}

/* A new node for command c (issued by workload command cmd), or UINT32_MAX
   on allocation failure. May move s->nodes. */
static uint32_t node_new(sim_t *s, const gp_command_t *c, uint32_t cmd)
{
    gp_eng_node_t *n;
    uint32_t ni;
    if (s->free_node == UINT32_MAX) {
        uint32_t cap = s->cap_nodes ? s->cap_nodes * 2 : 32, i;
        gp_eng_node_t *nn = s->cap_nodes >= UINT32_MAX / 2
                                ? NULL
                                : realloc(s->nodes, cap * sizeof *nn);
        if (!nn) {
            gp_err_set(s->err, "out of memory");
            return UINT32_MAX;
        }
        s->nodes = nn;
        for (i = cap; i-- > s->cap_nodes;) {
            nn[i].next_free = s->free_node;
            s->free_node = i;
        }
        s->cap_nodes = cap;
        note_pools(s);
    }
    ni = s->free_node;
    n = &s->nodes[ni];
    s->free_node = n->next_free;
    memset(n, 0, sizeof *n);
    n->seq = s->next_seq++;
    n->c = c;
    n->cmd = cmd;
    n->gnode = UINT32_MAX;
    n->type = c->type;
    n->stream = c->stream < s->wl->n_streams ? c->stream : 0;
    n->device = c->device < s->n_dev ? c->device : 0;
    n->kern = -1;
    n->res = UINT32_MAX;
    n->first_dependent = UINT32_MAX;
    n->hwq_next = UINT32_MAX;
    n->parent = UINT32_MAX;
    n->next_free = UINT32_MAX;
    if (c->type == GP_CMD_COPY) {
        n->engine = c->copy_kind < GP_COPY_KIND_COUNT ? (int)c->copy_kind : 0;
        n->peer = c->peer_device < s->n_dev ? c->peer_device : n->device;
    }
    s->n_live++;
    return ni;
}

/* Give node ni back to the pool once it is done and nothing refers to it. */
static void node_release(sim_t *s, uint32_t ni)
{
    gp_eng_node_t *n = &s->nodes[ni];
    if (n->state != GP_N_DONE || n->pins || n->children)
        return;
    n->state = GP_N_PENDING;
    n->next_free = s->free_node;
    s->free_node = ni;
}

/* A queue, event or wait now refers to node ni (UINT32_MAX: none). */
static void pin(sim_t *s, uint32_t ni)
{
    if (ni != UINT32_MAX)
        s->nodes[ni].pins++;
}

/* ... no longer. */
static void unpin(sim_t *s, uint32_t ni)
{
    if (ni == UINT32_MAX)
        return;
    s->nodes[ni].pins--;
    node_release(s, ni);
}

/* A kernel slot for launch node ni, or -1 on allocation failure. May move
   s->kerns. */
static int32_t kern_new(sim_t *s, uint32_t ni)
{
    kern_t *k;
    uint32_t ki;
    if (s->free_kern == UINT32_MAX) {
        uint32_t cap = s->cap_kerns ? s->cap_kerns * 2 : 16, i;
        kern_t *nk = realloc(s->kerns, cap * sizeof *nk);
        uint32_t *rl = nk ? realloc(s->run_list, cap * sizeof *rl) : NULL;
        if (nk)
            s->kerns = nk;
        if (!rl)
            return gp_err_set(s->err, "out of memory");
        s->run_list = rl;
        for (i = 0; i < s->cap_kerns; i++) /* the slots moved: k points into its slot */
            nk[i].k = &nk[i].kc;
        /* a new slot owns nothing yet; kern_new clears the rest when it is
           taken */
        for (i = cap; i-- > s->cap_kerns;) {
            nk[i].ws = NULL;
            nk[i].cap_ws = 0;
            nk[i].n_ws = 0;
            nk[i].warm = NULL;
            nk[i].cache = NULL;
            memset(&nk[i].memo, 0, sizeof nk[i].memo);
            nk[i].next_free = s->free_kern;
            s->free_kern = i;
        }
        s->cap_kerns = cap;
        note_pools(s);
    }
    ki = s->free_kern;
    k = &s->kerns[ki];
    s->free_kern = k->next_free;
    {
        /* keep what the slot owns (working-set, L2 and cost-cache arrays;
           kern_release left the cache's entries invalid) */
        gp_eng_ws_t *ws = k->ws;
        uint32_t cap_ws = k->cap_ws;
        uint64_t *warm = k->warm;
        gp_eng_cost_t *cache = k->cache;
        gp_op_memo_t memo = k->memo;
        memset(k, 0, sizeof *k);
        k->ws = ws;
        k->cap_ws = cap_ws;
        k->warm = warm;
        k->cache = cache;
        k->memo = memo;
    }
    if (!k->warm && s->wl->n_buffers) {
        k->warm = calloc(s->wl->n_buffers, sizeof *k->warm);
        if (!k->warm) {
            k->next_free = s->free_kern;
            s->free_kern = ki;
            return gp_err_set(s->err, "out of memory");
        }
    }
    k->node = ni;
    k->device = s->nodes[ni].device;
    k->seq = s->nodes[ni].seq;
    k->kc = s->nodes[ni].c->kernel;
    k->kc.l2_warm_bytes = s->wl->n_buffers ? k->warm : NULL;
    k->kc.n_buffers = s->wl->n_buffers;
    k->k = &k->kc;
    k->next_free = UINT32_MAX;
    return (int32_t)ki;
}

/* Give kernel slot ki back (its L2 entries zeroed and its cost cache
   emptied for the next user: the pool holds one cache per slot, so only
   as many as kernels ever ran at once). */
static void kern_release(sim_t *s, uint32_t ki)
{
    kern_t *k = &s->kerns[ki];
    uint32_t j;
    for (j = 0; j < k->n_ws; j++)
        k->warm[k->ws[j].buffer] = 0;
    for (j = 0; k->cache && j < GP_ENG_COST_CACHE; j++)
        k->cache[j].valid = 0;
    gp_op_memo_reset(&k->memo);
    k->next_free = s->free_kern;
    s->free_kern = ki;
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
    switch (n->type) {
    case GP_CMD_LAUNCH:
        if (s->n_kqueues)
            return 0; /* its hardware queue holds it */
        /* ready times of the heap grow with issue order; a launch still
           waiting out a dependency gap joins it when the gap is over */
        if (n->ready > s->now + gp_eng_tol(s->now))
            return idx_push(s, &u->gapped, ni);
        return heap_push(s, &u->launches, ni);
    case GP_CMD_FLUSH_L2:
        return idx_push(s, &s->flushes, ni);
    case GP_CMD_GRAPH:
        return idx_push(s, &s->expand, ni);
    default:
        break;
    }
    if (n->engine == GP_COPY_P2P)
        return idx_insert_sorted(s, &s->p2p_ready, ni, before);
    return heap_push(s, &u->copies[n->engine], ni);
}

/* Node ni was just created with the dependencies in s->deps. */
static int submit(sim_t *s, uint32_t ni)
{
    node_t *n = &s->nodes[ni];
    uint32_t i;
    n->state = GP_N_SUBMITTED;
    n->waiting = 0;
    for (i = 0; i < s->n_deps; i++) {
        node_t *d = &s->nodes[s->deps[i]];
        uint32_t e;
        if (d->state == GP_N_DONE)
            continue;
        if (s->free_edge == UINT32_MAX) {
            uint32_t cap = s->cap_edges ? s->cap_edges * 2 : 256, j;
            uint32_t *a = realloc(s->edge_node, cap * sizeof *a);
            uint32_t *b = a ? realloc(s->edge_next, cap * sizeof *b) : NULL;
            if (a)
                s->edge_node = a;
            if (!b)
                return gp_err_set(s->err, "out of memory");
            s->edge_next = b;
            for (j = cap; j-- > s->cap_edges;) {
                b[j] = s->free_edge;
                s->free_edge = j;
            }
            s->cap_edges = cap;
            note_pools(s);
        }
        e = s->free_edge;
        s->free_edge = s->edge_next[e];
        s->edge_node[e] = ni;
        s->edge_next[e] = d->first_dependent;
        d->first_dependent = e;
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

static void fill_result(const sim_t *s, const node_t *n, gp_cmd_result_t *r);

/* The shortest time from kernel n's end to the start of kernel w, submitted
   already and waiting for it: the GPU's front end learns that n is done and
   launches w (device file [launch] kernel_dep_gap_us in a stream or through
   an event, graph_dep_gap_us between two kernel nodes of one replay). */
static double dep_gap(const sim_t *s, const node_t *n, const node_t *w)
{
    if (w->parent != UINT32_MAX && w->parent == n->parent)
        return s->dev->graph_dep_gap_us;
    return s->dev->kernel_dep_gap_us;
}

/* Node ni finished at `end`: its row is written, its dependents may become
   ready, its replay may be done. */
static int node_done(sim_t *s, uint32_t ni, double end)
{
    node_t *n = &s->nodes[ni];
    uint32_t e, parent = n->parent;
    int rc = 0;
    n->state = GP_N_DONE;
    n->end = end;
    s->n_live--;
    if (n->res != UINT32_MAX && n->res < s->n_rows)
        fill_result(s, n, &s->rows[n->res]);
    if (n->type == GP_CMD_LAUNCH)
        s->gpus[n->device].kernels_active--;
    for (e = n->first_dependent; e != UINT32_MAX;) {
        uint32_t next = s->edge_next[e];
        node_t *w = &s->nodes[s->edge_node[e]];
        if (n->type == GP_CMD_LAUNCH && w->type == GP_CMD_LAUNCH)
            w->ready = GP_MAX(w->ready, end + dep_gap(s, n, w));
        if (--w->waiting == 0 && !rc && node_ready(s, s->edge_node[e]))
            rc = -1;
        s->edge_next[e] = s->free_edge;
        s->free_edge = e;
        e = next;
    }
    n->first_dependent = UINT32_MAX;
    node_release(s, ni);
    if (parent != UINT32_MAX && --s->nodes[parent].children == 0 && !rc)
        rc = node_done(s, parent, end);
    return rc;
}

/* The L2 after kernel k ran: each buffer it touched, in the order of its
   ops, and the bytes that name no buffer. */
static void l2_after_kernel(sim_t *s, kern_t *k)
{
    gpu_t *u = &s->gpus[k->device];
    uint32_t j;
    for (j = 0; j < k->n_ws; j++) {
        gp_eng_ws_t *w = &k->ws[j];
        /* bytes new to the L2 that the launch does not read again */
        w->fresh = w->accessed > GP_L2_REREAD_FACTOR * w->bytes
                       ? 0
                       : GP_MAX(0.0, w->bytes - (double)gp_eng_l2_resident(u, w->buffer));
        gp_eng_l2_touch(s, u, w->buffer, w->bytes);
    }
    gp_eng_l2_touch(s, u, s->wl->n_buffers, k->ws_anon);
    gp_eng_l2_carry(s, u, k->ws, k->n_ws); /* what the next launches find of them */
}

/* The L2 after copy node n: the buffers it names, on the GPU that holds
   them (a device-to-device copy reads its source through the L2 first). */
static void l2_after_copy(sim_t *s, const node_t *n)
{
    const gp_command_t *c = n->c;
    double bytes = (double)c->copy_bytes;
    uint32_t nb = s->wl->n_buffers, src = c->copy_src - 1, dst = c->copy_dst - 1;
    if (c->copy_kind == GP_COPY_D2D && c->copy_src && src < nb)
        gp_eng_l2_touch(s, &s->gpus[n->device], src, bytes);
    if (!c->copy_dst || dst >= nb)
        return;
    if (c->copy_kind == GP_COPY_P2P)
        gp_eng_l2_touch(s, &s->gpus[n->peer], dst, bytes);
    else if (c->copy_kind == GP_COPY_H2D || c->copy_kind == GP_COPY_D2D)
        gp_eng_l2_touch(s, &s->gpus[n->device], dst, bytes);
}

void gp_eng_kernel_done(sim_t *s, uint32_t ki)
{
    uint32_t ni = s->kerns[ki].node;
    /* the row is written from the kernel's state before the slot goes back;
       an allocation failure in node_done only delays dependents: it cannot
       lose work, and the loop reports a stall instead of a wrong time */
    s->nodes[ni].end = s->now;
    l2_after_kernel(s, &s->kerns[ki]);
    (void)node_done(s, ni, s->now);
    s->nodes[ni].kern = -1;
    kern_release(s, ki);
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
    if (s->queue_last[q] != UINT32_MAX && push_dep(s, s->queue_last[q]))
        return -1;
    if (q == def) {
        for (i = 1; i < s->wl->n_streams; i++)
            if (s->queue_last[i] != UINT32_MAX && s->queue_dev[i] == d &&
                push_dep(s, s->queue_last[i]))
                return -1;
    } else if (s->queue_last[def] != UINT32_MAX && push_dep(s, s->queue_last[def])) {
        return -1;
    }
    for (i = 0; i < s->n_pending_waits[q]; i++)
        if (push_dep(s, s->pending_waits[q][i]))
            return -1;
    return 0;
}

/* The waits of queue q are now dependencies of its newest node. */
static void clear_pending_waits(sim_t *s, uint32_t q)
{
    uint32_t i, n = s->n_pending_waits[q];
    s->n_pending_waits[q] = 0;
    for (i = 0; i < n; i++)
        unpin(s, s->pending_waits[q][i]);
}

/* Add a wait of queue q on node dep. */
static int add_pending_wait(sim_t *s, uint32_t q, uint32_t dep)
{
    uint32_t *w = realloc(s->pending_waits[q], (s->n_pending_waits[q] + 1) * sizeof *w);
    if (!w)
        return gp_err_set(s->err, "out of memory");
    s->pending_waits[q] = w;
    w[s->n_pending_waits[q]++] = dep;
    pin(s, dep);
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

/* The latency of launch node n issued at time t: launch_queued_us when it
   is issued right behind an L2 flush of its stream that the host has not
   waited for (a benchmark's scratch write, which the GPU is still running
   when the launch arrives: it waits in the queue, its submission hidden),
   else launch_latency_us. A graph's nodes keep the graph's timing. */
static double launch_latency(const sim_t *s, const node_t *n)
{
    const gp_command_t *c = n->c;
    uint32_t st = c->stream < s->wl->n_streams ? c->stream : 0;
    uint32_t d = c->device < s->n_dev ? c->device : 0;
    uint32_t p = s->queue_last[queue_of(s, st, d)];
    if (s->dev->launch_queued_us > 0 && n->gnode == UINT32_MAX && p != UINT32_MAX &&
        s->nodes[p].type == GP_CMD_FLUSH_L2 && s->nodes[p].seq >= s->synced_seq)
        return s->dev->launch_queued_us;
    return s->dev->launch_latency_us;
}

/* Timing of a new node issued (or, in a replay, released) at time t. */
static int node_timing(sim_t *s, uint32_t ni, double t)
{
    node_t *n = &s->nodes[ni];
    n->submit = t;
    n->ready = t + (n->type == GP_CMD_LAUNCH ? launch_latency(s, n) : 0);
    if (n->type == GP_CMD_COPY)
        return copy_duration(s, n->c, &n->copy_us);
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
        if (s->queue_last[q] == UINT32_MAX)
            continue;
        d = &s->nodes[s->queue_last[q]];
        if (d->state != GP_N_DONE)
            return 0;
        *t = GP_MAX(*t, d->end);
    }
    return 1;
}

/* Host time a replay of graph g costs. */
static double graph_host_us(const sim_t *s, const gp_graph_t *g)
{
    return s->graph_launch_us + (double)g->n_nodes * s->graph_node_us;
}

/* Issue host commands whose time has come. */
static int host_step(sim_t *s, int *changed)
{
    const gp_workload_t *wl = s->wl;
    while (s->host_next < wl->n_cmds && s->host_time <= s->now + gp_eng_tol(s->now)) {
        const gp_command_t *c = &wl->cmds[s->host_next];
        uint32_t st = c->stream < wl->n_streams ? c->stream : 0;
        uint32_t d = c->device < s->n_dev ? c->device : 0;
        uint32_t q = queue_of(s, st, d), ni;
        double cost = s->dev->launch_overhead_us;
        if (c->type == GP_CMD_SYNC) {
            double t;
            if (!sync_done(s, c, &t)) {
                s->host_blocked = 1;
                return 0;
            }
            s->host_blocked = 0;
            s->synced_seq = s->next_seq;
            s->host_time = GP_MAX(s->host_time, t);
            s->host_next++;
            *changed = 1;
            if (s->host_time > s->now + gp_eng_tol(s->now))
                return 0;
            continue;
        }
        if (c->type == GP_CMD_WAIT) {
            if (c->event < wl->n_events && s->event_marker[c->event] != UINT32_MAX &&
                add_pending_wait(s, q, s->event_marker[c->event]))
                return -1;
            s->host_next++;
            *changed = 1;
            continue;
        }
        if (c->type == GP_CMD_RECORD) {
            if (c->event < wl->n_events) {
                uint32_t old = s->event_marker[c->event];
                s->event_marker[c->event] = s->queue_last[q];
                pin(s, s->queue_last[q]);
                unpin(s, old);
                if (wl->elapsed.line && c->event == wl->elapsed.start)
                    s->elapsed_at[0] = s->host_time;
                if (wl->elapsed.line && c->event == wl->elapsed.stop)
                    s->elapsed_at[1] = s->host_time;
            }
            s->host_next++;
            *changed = 1;
            continue;
        }
        if (c->type != GP_CMD_LAUNCH && c->type != GP_CMD_COPY && c->type != GP_CMD_FLUSH_L2 &&
            c->type != GP_CMD_GRAPH) {
            s->host_next++;
            continue;
        }
        ni = node_new(s, c, s->host_next);
        if (ni == UINT32_MAX)
            return -1;
        s->queue_dev[q] = d;
        if (c->type == GP_CMD_GRAPH) {
            const gp_graph_t *g = &wl->graphs[c->graph];
            s->nodes[ni].res = s->next_res;
            s->next_res += g->n_nodes;
            s->nodes[ni].submit = s->host_time;
            cost = graph_host_us(s, g);
        } else {
            s->nodes[ni].res = s->next_res++;
            if (node_timing(s, ni, s->host_time))
                return -1;
            if (c->type == GP_CMD_FLUSH_L2)
                cost = 0; /* a statement about the cache, not a call */
        }
        if (add_queue_deps(s, q, d) || submit(s, ni))
            return -1;
        clear_pending_waits(s, q);
        pin(s, ni);
        unpin(s, s->queue_last[q]);
        s->queue_last[q] = ni;
        s->host_time += cost;
        s->host_next++;
        *changed = 1;
    }
    return 0;
}

/* --------------------------------------------------------------- graphs */

/* Work out graph gi's dependencies: in each captured stream its nodes run
   in order, after the waits issued on that stream since the previous one
   (for events recorded inside the capture). */
static int plan_graph(sim_t *s, uint32_t gi, uint32_t *qlast, uint32_t *evn)
{
    const gp_graph_t *g = &s->wl->graphs[gi];
    gp_eng_plan_t *p = &s->plans[gi];
    uint32_t j, n = 0, nd = 0, cap = 0, *pend = NULL, *pstream = NULL, n_pend = 0;
    p->n_nodes = g->n_nodes;
    p->cmd = malloc((g->n_nodes + 1) * sizeof *p->cmd);
    p->dep_off = malloc((g->n_nodes + 1) * sizeof *p->dep_off);
    pend = malloc((g->n_cmds + 1) * sizeof *pend);
    pstream = malloc((g->n_cmds + 1) * sizeof *pstream);
    if (!p->cmd || !p->dep_off || !pend || !pstream)
        goto oom;
    for (j = 0; j < g->n_cmds; j++) {
        const gp_command_t *c = &g->cmds[j];
        if (c->stream < s->wl->n_streams)
            qlast[c->stream] = UINT32_MAX;
        if ((c->type == GP_CMD_RECORD || c->type == GP_CMD_WAIT) && c->event < s->wl->n_events)
            evn[c->event] = UINT32_MAX;
    }
    for (j = 0; j < g->n_cmds; j++) {
        const gp_command_t *c = &g->cmds[j];
        uint32_t st = c->stream < s->wl->n_streams ? c->stream : 0, i, w;
        if (c->type == GP_CMD_RECORD && c->event < s->wl->n_events) {
            evn[c->event] = qlast[st];
            continue;
        }
        if (c->type == GP_CMD_WAIT && c->event < s->wl->n_events) {
            if (evn[c->event] != UINT32_MAX) {
                pend[n_pend] = evn[c->event];
                pstream[n_pend++] = st;
            }
            continue;
        }
        if (c->type != GP_CMD_LAUNCH && c->type != GP_CMD_COPY && c->type != GP_CMD_FLUSH_L2)
            continue;
        if (n >= g->n_nodes)
            break;
        p->cmd[n] = j;
        p->dep_off[n] = nd;
        if (nd + n_pend + 1 > cap) {
            uint32_t ncap = (nd + n_pend + 1) * 2;
            uint32_t *nd2 = realloc(p->deps, ncap * sizeof *nd2);
            if (!nd2)
                goto oom;
            p->deps = nd2;
            cap = ncap;
        }
        if (qlast[st] != UINT32_MAX)
            p->deps[nd++] = qlast[st];
        for (i = 0, w = 0; i < n_pend; i++) {
            if (pstream[i] == st) {
                p->deps[nd++] = pend[i];
                continue;
            }
            pend[w] = pend[i];
            pstream[w++] = pstream[i];
        }
        n_pend = w;
        qlast[st] = n++;
    }
    p->dep_off[n] = nd;
    p->n_nodes = n;
    free(pend);
    free(pstream);
    return 0;
oom:
    free(pend);
    free(pstream);
    return gp_err_set(s->err, "out of memory");
}

/* Replay pi's dependencies are done: create the graph's nodes. The host
   releases node j of the graph graph_launch_us + (j + 1) * graph_node_us
   after it issued the replay; each then starts as its captured dependencies
   allow. */
static int expand_graph(sim_t *s, uint32_t pi)
{
    const gp_command_t *pc = s->nodes[pi].c;
    const gp_graph_t *g = &s->wl->graphs[pc->graph];
    const gp_eng_plan_t *p = &s->plans[pc->graph];
    double t0 = s->nodes[pi].submit + s->graph_launch_us;
    uint32_t j, i, base = s->nodes[pi].res;
    s->nodes[pi].res = UINT32_MAX; /* the replay has no row of its own */
    s->nodes[pi].state = GP_N_ACTIVE;
    s->nodes[pi].start = s->now;
    if (p->n_nodes == 0)
        return node_done(s, pi, GP_MAX(s->now, t0));
    s->nodes[pi].children = p->n_nodes;
    for (j = 0; j < p->n_nodes; j++) {
        const gp_command_t *c = &g->cmds[p->cmd[j]];
        uint32_t ni = node_new(s, c, s->nodes[pi].cmd);
        node_t *n;
        if (ni == UINT32_MAX)
            return -1;
        n = &s->nodes[ni];
        n->gnode = p->cmd[j];
        n->parent = pi;
        n->res = base + j;
        n->stream = s->nodes[pi].stream;
        n->device = s->nodes[pi].device;
        n->peer = n->device;
        s->child[j] = ni;
        if (node_timing(s, ni, t0 + (double)(j + 1) * s->graph_node_us))
            return -1;
        s->n_deps = 0;
        for (i = p->dep_off[j]; i < p->dep_off[j + 1]; i++)
            if (push_dep(s, s->child[p->deps[i]]))
                return -1;
        if (submit(s, ni))
            return -1;
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

/* What kernel k waits for after an L2 flush before its first blocks run
   (k->hold_until), and the DRAM bytes of that wait (k->writeback):
   - the first launch after the flush that touches device memory waits
     flush_first_touch_us (its first misses);
   - the flushed lines still dirty in the L2 (of no buffer) that its own
     lines push out: the bytes it brings in (its buffers' footprints less
     what the L2 already holds of them) take the place of as many older
     lines, the dirty flushed ones among them in their share of the L2,
     and their write-backs take DRAM time at dram_sustained_gbps. The
     kernel's own stores are charged as DRAM writes when made, and those
     of them that stay in the L2 (the share of the last L2-full it brings
     in that belongs to buffers it writes, in place or not) are not
     written back meanwhile: that many of the flushed lines are written
     back in their place at no further cost.
   A held kernel has started: the wait is part of its time. */
static void l2_writeback(sim_t *s, kern_t *k)
{
    gpu_t *u = &s->gpus[k->device];
    double cap = (double)s->dev->l2_bytes, fill = k->ws_anon, wrote = k->ws_anon_written;
    double hold = 0, out, stay;
    uint32_t j;
    k->writeback = 0;
    if (u->l2.flushed && k->ws_bytes > 0) {
        u->l2.flushed = 0;
        hold = s->dev->flush_first_touch_us;
    }
    for (j = 0; j < k->n_ws; j++) {
        double f = GP_MAX(0.0, k->ws[j].bytes - (double)k->warm[k->ws[j].buffer]);
        fill += f;
        if (k->ws[j].written)
            wrote += f;
    }
    if (u->l2.dirty > 0 && cap > 0 && fill > 0) {
        out = u->l2.dirty * GP_MIN(1.0, fill / cap);
        stay = GP_MIN(fill, cap) * wrote / fill;
        u->l2.dirty -= out;
        if (out > stay) {
            k->writeback = out - stay;
            hold += k->writeback / (s->dev->dram_sustained_gbps * 1e3);
        }
    }
    k->hold_until = 0;
    if (hold > 0) {
        k->hold_until = s->now + hold;
        k->started = 1;
        k->start = s->now;
        s->nodes[k->node].start = s->now;
    }
}

/* Activate launch node ni: its kernel slot, the L2 state it starts from,
   its occupancy; impossible launches are refused. */
static int activate_kernel(sim_t *s, uint32_t ni)
{
    const gp_command_t *c = s->nodes[ni].c;
    int32_t ki = kern_new(s, ni);
    kern_t *k;
    node_t *n = &s->nodes[ni];
    uint32_t j;
    if (ki < 0)
        return -1;
    n->kern = ki;
    k = &s->kerns[ki];
    if (gp_eng_working_set(s, k))
        return -1;
    for (j = 0; j < k->n_ws; j++) {
        uint64_t w = gp_eng_l2_resident(&s->gpus[k->device], k->ws[j].buffer);
        k->warm[k->ws[j].buffer] = w;
        k->l2_warm += (double)w;
    }
    l2_writeback(s, k);
    if (gp_arch_occupancy(s->arch, s->dev, &c->kernel.launch, &k->occ, s->err))
        return gp_err_prefix(s->err, "%s:%u: launch '%s'", s->wl->script, c->line,
                             c->kernel.name);
    gp_occupancy_held(s->dev, &c->kernel.launch, &k->occ);
    if (k->occ.blocks_per_sm == 0)
        return gp_err_set(s->err, "%s:%u: launch '%s' cannot run on %s: %s (limit: %s)",
                          s->wl->script, c->line, c->kernel.name, s->dev->name,
                          k->occ.detail, gp_limiter_name(k->occ.limiter));
    k->left = c->kernel.total_blocks;
    n->state = GP_N_ACTIVE;
    n->start = s->now; /* until its first block is placed */
    s->gpus[n->device].kernels_active++;
    if (k->left == 0) {
        gp_eng_kernel_done(s, (uint32_t)ki);
        return 0;
    }
    return idx_insert_sorted(s, &s->dispatching, (uint32_t)ki, gp_eng_kern_before);
}

/* Start the ready launches of GPU d that may start now, in issue order. */
static int start_launches(sim_t *s, uint32_t d, int *changed)
{
    gpu_t *u = &s->gpus[d];
    double limit = s->now + gp_eng_tol(s->now);
    for (;;) {
        uint32_t ni = UINT32_MAX, q, i, w;
        if (u->kernels_active >= s->info.max_concurrent_kernels)
            return 0;
        for (i = 0, w = 0; i < u->gapped.n; i++) {
            uint32_t g = u->gapped.v[i];
            if (s->nodes[g].ready <= limit) {
                if (heap_push(s, &u->launches, g))
                    return -1;
            } else {
                u->gapped.v[w++] = g;
            }
        }
        u->gapped.n = w;
        if (!s->n_kqueues) {
            /* ready times grow with issue order: the first decides */
            if (u->launches.n && s->nodes[u->launches.v[0]].ready <= limit) {
                ni = u->launches.v[0];
                heap_pop(s, &u->launches);
            }
        } else {
            /* the first of each hardware queue, if its dependencies are done */
            for (q = 0; q < s->n_kqueues; q++) {
                uint32_t h = u->hwq_head[q];
                if (h != UINT32_MAX && (ni == UINT32_MAX || before(s, h, ni)) &&
                    s->nodes[h].waiting == 0 && s->nodes[h].ready <= limit)
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
        if (activate_kernel(s, ni))
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
    return idx_push(s, &s->copies_active, ni);
}

/* Start ready copies whose engine or link is free, in issue order. */
static int start_copies(sim_t *s, int *changed)
{
    double limit = s->now + gp_eng_tol(s->now);
    uint32_t d, e, i, w = 0;
    for (d = 0; d < s->n_dev; d++) {
        gpu_t *u = &s->gpus[d];
        for (e = 0; e < GP_ARRAY_LEN(u->copies); e++)
            while (u->copies[e].n && u->engine_free[e] <= limit &&
                   s->nodes[u->copies[e].v[0]].ready <= limit) {
                uint32_t ni = u->copies[e].v[0];
                heap_pop(s, &u->copies[e]);
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
        if (s->gpus[n->device].link_out_free <= limit && s->gpus[n->peer].link_in_free <= limit &&
            n->ready <= limit) {
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

/* Run the ready L2 flushes whose time has come, and expand the graph
   replays whose dependencies are done. */
static int start_flushes_and_graphs(sim_t *s, int *changed)
{
    double limit = s->now + gp_eng_tol(s->now);
    uint32_t i, w = 0;
    for (i = 0; i < s->flushes.n; i++) {
        uint32_t ni = s->flushes.v[i];
        node_t *n = &s->nodes[ni];
        if (n->ready > limit) {
            s->flushes.v[w++] = ni;
            continue;
        }
        gp_eng_l2_flush(s, &s->gpus[n->device], (int)n->c->flush_clean);
        n->state = GP_N_ACTIVE;
        n->start = s->now;
        if (node_done(s, ni, s->now))
            return -1;
        *changed = 1;
    }
    s->flushes.n = w;
    /* expanding may make more replays ready (an empty graph is done at
       once): take them one at a time from the front */
    for (i = 0; i < s->expand.n; i++) {
        if (expand_graph(s, s->expand.v[i]))
            return -1;
        *changed = 1;
    }
    s->expand.n = 0;
    return 0;
}

/* Start what may start now. */
static int start_nodes(sim_t *s, int *changed)
{
    uint32_t d;
    if (start_flushes_and_graphs(s, changed))
        return -1;
    for (d = 0; d < s->n_dev; d++)
        if (start_launches(s, d, changed))
            return -1;
    return start_copies(s, changed);
}

/* Earliest future time at which something outside the SMs happens: the
   host's next command, a copy ending, a ready launch's latency elapsing, a
   replay's copy or flush being released. */
static double next_external(const sim_t *s)
{
    double t = INFINITY, eps = gp_eng_tol(s->now);
    uint32_t i, d, q, e;
    if (s->host_next < s->wl->n_cmds && !s->host_blocked && s->host_time > s->now + eps)
        t = s->host_time;
    /* a copy ending within rounding of now is retired at once (dt 0) */
    for (i = 0; i < s->copies_active.n; i++)
        t = GP_MIN(t, GP_MAX(s->nodes[s->copies_active.v[i]].end, s->now));
    for (i = 0; i < s->flushes.n; i++)
        if (s->nodes[s->flushes.v[i]].ready > s->now + eps)
            t = GP_MIN(t, s->nodes[s->flushes.v[i]].ready);
    for (i = 0; i < s->p2p_ready.n; i++)
        if (s->nodes[s->p2p_ready.v[i]].ready > s->now + eps)
            t = GP_MIN(t, s->nodes[s->p2p_ready.v[i]].ready);
    for (i = 0; i < s->dispatching.n; i++) /* held back by write-backs */
        if (s->kerns[s->dispatching.v[i]].hold_until > s->now + eps)
            t = GP_MIN(t, s->kerns[s->dispatching.v[i]].hold_until);
    for (d = 0; d < s->n_dev; d++) {
        const gpu_t *u = &s->gpus[d];
        for (e = 0; e < GP_ARRAY_LEN(u->copies); e++)
            if (u->copies[e].n && s->nodes[u->copies[e].v[0]].ready > s->now + eps)
                t = GP_MIN(t, GP_MAX(s->nodes[u->copies[e].v[0]].ready, u->engine_free[e]));
        for (i = 0; i < u->gapped.n; i++) /* those past their gap wait for a slot */
            if (s->nodes[u->gapped.v[i]].ready > s->now + eps)
                t = GP_MIN(t, s->nodes[u->gapped.v[i]].ready);
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
    uint32_t i, w = 0, n;
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
    n = s->copies_active.n;
    for (i = 0; i < n; i++) {
        uint32_t ni = s->copies_active.v[i];
        if (s->nodes[ni].end <= s->now + gp_eng_tol(s->now)) {
            l2_after_copy(s, &s->nodes[ni]);
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
    return s->host_next >= s->wl->n_cmds && s->n_live == 0;
}

/* Dispatch the blocks of every active kernel, the oldest first; *changed
   when anything moved. */
static int dispatch_all(sim_t *s, int *changed)
{
    uint32_t i, w = 0;
    for (i = 0; i < s->dispatching.n; i++) {
        uint32_t ki = s->dispatching.v[i];
        kern_t *k = &s->kerns[ki];
        uint32_t before_groups = s->gpus[k->device].n_groups;
        uint64_t left = k->left;
        if (gp_eng_dispatch(s, ki))
            return -1;
        *changed |= k->left != left || s->gpus[k->device].n_groups != before_groups;
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
    for (d = 0; s->gpus && d < s->n_dev; d++) {
        gp_eng_gpu_free(&s->gpus[d]);
        gp_eng_l2_free(&s->gpus[d]);
    }
    free(s->nodes);
    free(s->deps);
    free(s->edge_node);
    free(s->edge_next);
    for (i = 0; s->kerns && i < s->cap_kerns; i++) {
        kern_t *k = &s->kerns[i];
        if (k->cache || k->ws || k->warm || k->memo.cost) { /* (most slots never held one) */
            free(k->cache);
            gp_op_memo_free(&k->memo);
            free(k->ws);
            free(k->warm);
        }
    }
    free(s->kerns);
    free(s->dispatching.v);
    free(s->p2p_ready.v);
    free(s->copies_active.v);
    free(s->flushes.v);
    free(s->expand.v);
    for (i = 0; s->plans && i < s->wl->n_graphs; i++) {
        free(s->plans[i].cmd);
        free(s->plans[i].dep_off);
        free(s->plans[i].deps);
    }
    free(s->child);
    if (s->pending_waits)
        for (i = 0; i < s->n_queues; i++)
            free(s->pending_waits[i]);
    free(s->run_list);
    free(s->samples);
    free(s->fixed); /* gpus, plans, names, the queue and buffer arrays */
    free(s->rows);
    free(s->name_pool);
}

/* The host costs of a graph replay, from the device file. Where it lacks
   graph_node_us (0: not known) each node costs launch_overhead_us, as a
   stream launch would, and a missing graph_launch_us adds nothing; a
   warning says so once per prediction. */
static void graph_costs(sim_t *s)
{
    const gp_device_t *d = s->dev;
    int known = d->graph_launch_us > 0 && d->graph_node_us > 0;
    s->graph_launch_us = d->graph_launch_us > 0 ? d->graph_launch_us : 0;
    s->graph_node_us = d->graph_node_us > 0 ? d->graph_node_us : d->launch_overhead_us;
    if (s->wl->n_graphs && !known)
        gp_logf(GP_LOG_WARN, "engine",
                "%s: device %s lacks %s in its [launch] section: graph replays are costed "
                "%s (measure the keys with tools/calibrate and add them with their source)",
                s->wl->script, d->id,
                !(d->graph_launch_us > 0) && !(d->graph_node_us > 0) ? "graph_launch_us and "
                                                                        "graph_node_us"
                : !(d->graph_launch_us > 0)                          ? "graph_launch_us"
                                                                     : "graph_node_us",
                d->graph_node_us > 0 ? "without a cost per graph launch"
                                     : "as one stream launch (launch_overhead_us) per node");
}

/* Entries of s->names: every workload command, then every graph command. */
static uint64_t names_count(const gp_workload_t *wl)
{
    uint64_t n = wl->n_cmds;
    uint32_t gi;
    for (gi = 0; gi < wl->n_graphs; gi++)
        n += wl->graphs[gi].n_cmds;
    return n;
}

/* The rows' names: a copy of each launch's name in one pool, and the fixed
   names of copies and flushes. */
static int name_rows(sim_t *s)
{
    static const char *const copies[] = {"memcpy_h2d", "memcpy_d2h", "memcpy_d2d",
                                         "memcpy_p2p"};
    const gp_workload_t *wl = s->wl;
    size_t bytes = 1, at = 0;
    uint32_t i, j, gi, k = 0;
    /* (names and graph_name0 are zeroed, in sim_init's block of fixed
       arrays: names_count entries) */
    for (gi = 0; gi <= wl->n_graphs; gi++) {
        const gp_command_t *cmds = gi < wl->n_graphs ? wl->graphs[gi].cmds : wl->cmds;
        uint32_t nc = gi < wl->n_graphs ? wl->graphs[gi].n_cmds : wl->n_cmds;
        for (j = 0; j < nc; j++)
            if (cmds[j].type == GP_CMD_LAUNCH)
                bytes += strlen(cmds[j].kernel.name ? cmds[j].kernel.name : "kernel") + 1;
    }
    s->name_pool = malloc(bytes);
    if (!s->name_pool)
        return gp_err_set(s->err, "out of memory");
    /* the workload's own commands first, then each graph's */
    for (gi = 0; gi <= wl->n_graphs; gi++) {
        uint32_t g = gi == 0 ? UINT32_MAX : gi - 1;
        const gp_command_t *cmds = g != UINT32_MAX ? wl->graphs[g].cmds : wl->cmds;
        uint32_t nc = g != UINT32_MAX ? wl->graphs[g].n_cmds : wl->n_cmds;
        if (g != UINT32_MAX)
            s->graph_name0[g] = k;
        for (j = 0; j < nc; j++, k++) {
            const gp_command_t *c = &cmds[j];
            if (c->type == GP_CMD_LAUNCH) {
                const char *nm = c->kernel.name ? c->kernel.name : "kernel";
                size_t len = strlen(nm) + 1;
                memcpy(s->name_pool + at, nm, len);
                s->names[k] = s->name_pool + at;
                at += len;
            } else if (c->type == GP_CMD_COPY) {
                s->names[k] = c->copy_kind < 4 ? copies[c->copy_kind] : "memcpy";
            } else if (c->type == GP_CMD_FLUSH_L2) {
                s->names[k] = "flush_l2";
            }
        }
    }
    (void)i;
    return 0;
}

static int sim_init(sim_t *s)
{
    const gp_workload_t *wl = s->wl;
    uint32_t i, d, max_nodes = 1, *qlast = NULL, *evn = NULL;
    uint64_t rows = gp_workload_instances(wl);
    s->cycle_us = 1.0 / s->dev->core_clock_mhz;
    s->max_cohorts = GP_MAX(s->dev->max_blocks_per_sm, 1u) + 1;
    s->n_queues = wl->n_streams + s->n_dev - 1;
    s->n_kqueues = GP_MIN(s->info.kernel_queues, (uint32_t)MAX_KERNEL_QUEUES);
    s->free_node = s->free_kern = s->free_edge = UINT32_MAX;
    for (i = 0; i < wl->n_cmds; i++)
        if (wl->cmds[i].type == GP_CMD_GRAPH && wl->cmds[i].graph >= wl->n_graphs)
            return gp_err_set(s->err, "%s:%u: a graph launch names graph %u of %u",
                              wl->script, wl->cmds[i].line, wl->cmds[i].graph, wl->n_graphs);
    if (rows > GP_ENGINE_MAX_ROWS)
        return gp_err_set(s->err,
                          "%s: %llu launches, copies and flushes to run (graph replays counted "
                          "node by node); gpuperf predicts at most %u in one run (replay the "
                          "graphs fewer times, or split the workload)",
                          wl->script, (unsigned long long)rows, GP_ENGINE_MAX_ROWS);
    s->n_rows = (uint32_t)rows;
    graph_costs(s);
    {
        /* the arrays of fixed size in one zeroed block (one allocation, not
           ten, per prediction) */
        size_t sz[11], off[11], total = 0;
        sz[0] = (size_t)s->n_dev * sizeof *s->gpus;
        sz[1] = ((size_t)wl->n_buffers + 1) * sizeof *s->buf_mark;
        sz[2] = ((size_t)wl->n_buffers + 1) * sizeof *s->buf_bytes;
        sz[3] = ((size_t)s->n_queues + 1) * sizeof *s->queue_last;
        sz[4] = ((size_t)s->n_queues + 1) * sizeof *s->queue_dev;
        sz[5] = ((size_t)wl->n_events + 1) * sizeof *s->event_marker;
        sz[6] = ((size_t)s->n_queues + 1) * sizeof *s->pending_waits;
        sz[7] = ((size_t)s->n_queues + 1) * sizeof *s->n_pending_waits;
        sz[8] = ((size_t)wl->n_graphs + 1) * sizeof *s->plans;
        sz[9] = ((size_t)names_count(wl) + 1) * sizeof *s->names;
        sz[10] = ((size_t)wl->n_graphs + 1) * sizeof *s->graph_name0;
        for (i = 0; i < 11; i++) {
            off[i] = total;
            total += (sz[i] + 15) & ~(size_t)15; /* each array 16-byte aligned */
        }
        s->fixed = calloc(1, total);
        if (s->fixed) {
            char *b = s->fixed;
            s->gpus = (void *)(b + off[0]);
            s->buf_mark = (void *)(b + off[1]);
            s->buf_bytes = (void *)(b + off[2]);
            s->queue_last = (void *)(b + off[3]);
            s->queue_dev = (void *)(b + off[4]);
            s->event_marker = (void *)(b + off[5]);
            s->pending_waits = (void *)(b + off[6]);
            s->n_pending_waits = (void *)(b + off[7]);
            s->plans = (void *)(b + off[8]);
            s->names = (void *)(b + off[9]);
            s->graph_name0 = (void *)(b + off[10]);
        }
    }
    s->rows = calloc(s->n_rows + 1, sizeof *s->rows);
    if (!s->gpus || !s->rows || !s->buf_mark || !s->buf_bytes || !s->queue_last ||
        !s->queue_dev || !s->event_marker || !s->pending_waits || !s->n_pending_waits ||
        !s->plans)
        return gp_err_set(s->err, "out of memory");
    for (i = 0; i < s->n_queues; i++) {
        s->queue_last[i] = UINT32_MAX;
        s->queue_dev[i] = i >= wl->n_streams ? i - wl->n_streams + 1 : 0;
    }
    for (i = 0; i < wl->n_events; i++)
        s->event_marker[i] = UINT32_MAX;
    s->elapsed_at[0] = s->elapsed_at[1] = -1;
    if (name_rows(s))
        return -1;
    if (wl->n_graphs) {
        qlast = malloc((wl->n_streams + 1) * sizeof *qlast);
        evn = malloc((wl->n_events + 1) * sizeof *evn);
        if (!qlast || !evn) {
            free(qlast);
            free(evn);
            return gp_err_set(s->err, "out of memory");
        }
        for (i = 0; i < wl->n_graphs; i++) {
            if (plan_graph(s, i, qlast, evn)) {
                free(qlast);
                free(evn);
                return -1;
            }
            max_nodes = GP_MAX(max_nodes, s->plans[i].n_nodes);
        }
        free(qlast);
        free(evn);
    }
    s->child = malloc(max_nodes * sizeof *s->child);
    if (!s->child)
        return gp_err_set(s->err, "out of memory");
    for (d = 0; d < s->n_dev; d++) {
        if (gp_eng_gpu_init(s, &s->gpus[d]) || gp_eng_l2_init(s, &s->gpus[d]))
            return -1;
        /* the buffers the script states in this GPU's L2 at the start, in
           the order declared (the last the most recently used) */
        for (i = 0; i < wl->n_buffers; i++)
            if (wl->buffers[i].in_l2 && wl->buffers[i].l2_device == d)
                gp_eng_l2_touch(s, &s->gpus[d], i, (double)wl->buffers[i].bytes);
    }
    return 0;
}

/* Fill one result row from a finished node. */
static void fill_result(const sim_t *s, const node_t *n, gp_cmd_result_t *r)
{
    const gp_command_t *c = n->c;
    memset(r, 0, sizeof *r);
    r->cmd = n->cmd;
    r->graph_cmd = n->gnode;
    r->type = n->type;
    r->stream = n->stream;
    r->line = c->line;
    r->device = n->device;
    r->submit_us = n->submit;
    r->start_us = n->start;
    r->end_us = n->end;
    r->time_us = n->end - n->start;
    r->name = n->gnode == UINT32_MAX
                  ? s->names[n->cmd]
                  : s->names[s->graph_name0[s->wl->cmds[n->cmd].graph] + n->gnode];
    if (!r->name)
        r->name = "?";
    if (n->type == GP_CMD_LAUNCH && n->kern >= 0) {
        const kern_t *k = &s->kerns[n->kern];
        double blocks = (double)c->kernel.total_blocks;
        r->kernel = &c->kernel;
        r->occ.blocks_per_sm = k->occ.blocks_per_sm;
        r->occ.limiter = k->occ.limiter;
        r->occ.warps_per_block = k->occ.warps_per_block;
        r->occ.active_warps = k->occ.active_warps;
        r->occ.max_warps = k->occ.max_warps;
        r->occ.occupancy = k->occ.occupancy;
        r->cost.time_cycles = k->cost.time_cycles;
        r->cost.latency_cycles = k->cost.latency_cycles;
        r->cost.throughput_cycles = k->cost.throughput_cycles;
        r->cost.memory_cycles = k->cost.memory_cycles;
        r->cost.warp_instructions = k->cost.warp_instructions;
        r->cost.bound = k->cost.bound;
        r->cost.bound_pipe = k->cost.bound_pipe;
        r->blocks = c->kernel.total_blocks;
        r->waves = k->occ.blocks_per_sm
                       ? blocks / ((double)k->occ.blocks_per_sm * s->dev->sm_count)
                       : 0;
        r->bound = k->cost.bound;
        r->dram_bytes = k->dram_done + k->writeback;
        r->writeback_bytes = k->writeback;
        r->l2_bytes = k->l2_done;
        r->l2_hit_rate = r->l2_bytes > 0 ? GP_MAX(0.0, 1.0 - k->dram_done / r->l2_bytes) : 0;
        r->warp_instructions = k->cost.warp_instructions * blocks;
        r->l2_warm_bytes = k->l2_warm;
    } else if (n->type == GP_CMD_COPY) {
        r->copy_kind = c->copy_kind;
        r->peer_device = n->peer;
        r->copy_bytes = c->copy_bytes;
    }
}

/*
 * The script's time where it declares one (gpuperf.elapsed): an event
 * completes when the command before it in its stream does, or when the host
 * records it if that stream has nothing left to run, as a CUDA event's
 * timestamp is taken once the stream's work before it is done. The interval
 * runs from the last record of `start` to the last record of `stop`.
 */
static int elapsed_time(const sim_t *s, double *us)
{
    const gp_workload_t *wl = s->wl;
    uint32_t ev[2] = {wl->elapsed.start, wl->elapsed.stop};
    const char *name[2] = {wl->elapsed.start_name, wl->elapsed.stop_name};
    double t[2];
    int j;
    for (j = 0; j < 2; j++) {
        uint32_t m = ev[j] < wl->n_events ? s->event_marker[ev[j]] : UINT32_MAX;
        if (s->elapsed_at[j] < 0)
            return gp_err_set(s->err,
                              "%s:%u: gpuperf.elapsed: event '%s' is never recorded outside a "
                              "graph: record it with gpuperf.record(%s [, stream]) %s the "
                              "commands to time",
                              wl->script, wl->elapsed.line, name[j], name[j],
                              j ? "after" : "before");
        t[j] = GP_MAX(s->elapsed_at[j], m != UINT32_MAX ? s->nodes[m].end : 0.0);
    }
    if (t[1] < t[0] - gp_eng_tol(t[0]))
        return gp_err_set(s->err,
                          "%s:%u: gpuperf.elapsed: event '%s' completes at %.3f us, before "
                          "event '%s' at %.3f us: record the stop event after the commands to "
                          "time, in the stream that runs them",
                          wl->script, wl->elapsed.line, name[1], t[1], name[0], t[0]);
    *us = GP_MAX(0.0, t[1] - t[0]);
    return 0;
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
            /* the skipped waves may have dispatched a kernel's last blocks:
               their slots will not be refilled (block_turnaround_cycles) */
            if (gp_eng_update_rates(&s))
                goto done;
        }
        if (advance(&s))
            goto done;
    }
    out->n_devices = s.n_dev;
    out->cmds = s.rows;
    out->n_cmds = s.n_rows;
    out->name_pool = s.name_pool;
    s.rows = NULL;
    s.name_pool = NULL;
    for (i = 0; i < out->n_cmds; i++)
        if (out->cmds[i].end_us > out->run_us)
            out->run_us = out->cmds[i].end_us;
    out->total_us = out->run_us;
    if (wl->elapsed.line && elapsed_time(&s, &out->total_us))
        goto done;
    sample(&s);
    out->samples = s.samples;
    out->n_samples = s.n_samples;
    s.samples = NULL;
    out->events = s.events;
    out->sim_peak_bytes = s.peak_bytes;
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
    free(p->name_pool);
    memset(p, 0, sizeof *p);
}
