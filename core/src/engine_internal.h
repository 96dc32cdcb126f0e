/*
 * engine_internal.h - what the two halves of the engine share; not a public
 * API (that is engine.h).
 *
 * engine.c      the commands: the host issuing them, queues (streams and
 *               each device's legacy default stream), events, dependencies,
 *               copy engines and peer links, the event loop, the results
 * engine_gpu.c  each GPU: SMs in groups, breadth-first block dispatch with
 *               resource accounting, the memory shares of concurrent
 *               kernels, progress rates from the plugin's block costs,
 *               retiring blocks, closed-form skips of identical waves
 */
#ifndef GP_ENGINE_INTERNAL_H
#define GP_ENGINE_INTERNAL_H

#include <stdint.h>

#include "engine.h"

#define GP_ENG_EPS 1e-12
#define GP_ENG_COST_CACHE 16

enum gp_eng_node_state { GP_N_PENDING = 0, GP_N_SUBMITTED, GP_N_ACTIVE, GP_N_DONE };

/* One launch or copy. */
typedef struct gp_eng_node {
    uint32_t cmd, type, stream, device, peer;
    int state;
    double submit, ready, start, end;
    uint32_t waiting;         /* dependencies not done yet */
    double deps_end;          /* latest end of the done ones */
    uint32_t first_dependent; /* edge list of the nodes waiting for it */
    uint32_t hwq_next;        /* next launch in its hardware queue */
    int32_t kern;             /* index into kerns for launches, else -1 */
    int engine;               /* gp_copy_kind_t: the engine of a copy */
    double copy_us;           /* duration of a copy */
} gp_eng_node_t;

/* A cached block cost at one residency and memory share. */
typedef struct gp_eng_cost {
    uint32_t blocks, warps_sm, active_sms;
    int valid;
    double dram_share, l2_share, l2_capacity;
    gp_block_cost_t cost;
} gp_eng_cost_t;

/* A buffer a kernel touches and the bytes of it. */
typedef struct gp_eng_ws {
    uint32_t buffer;
    double bytes;
} gp_eng_ws_t;

/* A kernel launch and, once active, its blocks' progress. */
typedef struct gp_eng_kern {
    uint32_t node, device;
    const gp_kernel_t *k;
    gp_occupancy_t occ;
    uint64_t left;        /* blocks not yet dispatched */
    uint64_t running;     /* blocks on SMs */
    int started, cost_set;
    double start;
    gp_block_cost_t cost; /* at the fullest residency */
    uint32_t cost_per_sm;
    gp_eng_cost_t *cache; /* GP_ENG_COST_CACHE entries while it runs, else NULL */
    uint32_t cache_next;
    /* working set: the buffers it touches (into sim.ws) and other bytes */
    uint32_t ws_off, n_ws;
    double ws_anon, ws_bytes;
    /* memory shares while running, recomputed at every event */
    uint32_t mark, sms;
    double l2_capacity, dram_share, l2_share, dram_demand, l2_demand;
    /* traffic as it ran */
    double dram_done, l2_done;
} gp_eng_kern_t;

/* Blocks of one kernel started together on every SM of a group. */
typedef struct gp_eng_cohort {
    uint32_t kern;
    uint32_t per_sm;
    double remaining;      /* fraction of the blocks' work left */
    double rate;           /* fraction per us */
    double dram_pb, l2_pb; /* traffic per block at the current rate */
} gp_eng_cohort_t;

/* SMs in identical states. */
typedef struct gp_eng_group {
    uint32_t n_sms;
    uint32_t n_cohorts;
    gp_eng_cohort_t *cohorts; /* capacity: sim.max_cohorts */
} gp_eng_group_t;

/* Node indices: a min-heap, or a plain list. */
typedef struct gp_eng_idx {
    uint32_t *v;
    uint32_t n, cap;
} gp_eng_idx_t;

/* One GPU: its SMs, engines and links, and the work waiting for them. */
typedef struct gp_eng_gpu {
    gp_eng_group_t *groups;
    uint32_t n_groups, cap_groups;
    double engine_free[GP_COPY_KIND_COUNT];
    double link_out_free, link_in_free; /* peer link, each direction */
    uint32_t kernels_active;            /* launches started, not done */
    gp_eng_idx_t launches;              /* ready launches (heap) */
    gp_eng_idx_t copies[GP_COPY_P2P];   /* ready copies per engine (heaps) */
    uint32_t *hwq_head, *hwq_tail;      /* per hardware queue (kernel_queues) */
} gp_eng_gpu_t;

/* The whole simulation. */
typedef struct gp_eng_sim {
    const gp_device_t *dev;
    const gp_arch_t *arch;
    const gp_workload_t *wl;
    gp_arch_info_t info;
    double cycle_us;
    uint32_t n_dev;
    gp_eng_gpu_t *gpus;
    gp_eng_node_t *nodes;
    uint32_t n_nodes, n_done;
    uint32_t *cmd_node; /* workload command -> node, UINT32_MAX if none */
    uint32_t *deps;     /* scratch: one node's dependencies at submission */
    uint32_t n_deps, cap_deps;
    uint32_t *edge_node, *edge_next; /* dependents, as linked lists */
    uint32_t n_edges, cap_edges;
    gp_eng_kern_t *kerns;
    uint32_t n_kerns;
    gp_eng_idx_t dispatching; /* active kernels with blocks left, ascending */
    gp_eng_idx_t p2p_ready;   /* ready peer copies, ascending */
    gp_eng_idx_t copies_active;
    gp_eng_ws_t *ws;
    uint32_t n_ws;
    uint32_t max_cohorts;
    uint32_t n_kqueues;       /* hardware queues per GPU; 0: one per stream */
    /* host */
    uint32_t host_next;
    double host_time;
    int host_blocked;
    /* queue bookkeeping at submission time: stream s > 0 is queue s, the
       default stream of device d is queue 0 (d = 0) or n_streams + d - 1 */
    uint32_t n_queues;
    int64_t *queue_last;   /* last node of each queue, -1 none */
    uint32_t *queue_dev;   /* device of each queue's latest command */
    int64_t *event_marker; /* node an event waits for; -1: already complete */
    uint32_t **pending_waits;
    uint32_t *n_pending_waits;
    /* scratch of engine_gpu.c */
    uint32_t *run_list;    /* kernels running on one device */
    uint32_t *buf_mark;    /* per workload buffer */
    double *buf_bytes;
    uint32_t epoch;
    double now;
    uint64_t events;
    gp_sample_t *samples;
    uint32_t n_samples, cap_samples;
    int want_samples;
    gp_err_t *err;
} gp_eng_sim_t;

/* ---------------------------------------------------------- engine.c */

/* Tolerance for comparing times near t: relative, so that huge times (far
   beyond any real run) still compare as equal within their rounding. */
double gp_eng_tol(double t);

/* Kernel ki has no blocks left anywhere: its launch is done now. */
void gp_eng_kernel_done(gp_eng_sim_t *s, uint32_t ki);

/* ------------------------------------------------------ engine_gpu.c */

/* Give GPU u one idle group of every SM; -1 on allocation failure. */
int gp_eng_gpu_init(gp_eng_sim_t *s, gp_eng_gpu_t *u);

/* Release what gp_eng_gpu_init and the simulation allocated for u. */
void gp_eng_gpu_free(gp_eng_gpu_t *u);

/* Work out kernel k's working set from its ops (into s->ws). */
int gp_eng_working_set(gp_eng_sim_t *s, gp_eng_kern_t *k, uint32_t *cap);

/* Place kernel ki's remaining blocks on its GPU where they fit. */
int gp_eng_dispatch(gp_eng_sim_t *s, uint32_t ki);

/* Recompute the memory shares and every cohort's rate on every GPU. */
int gp_eng_update_rates(gp_eng_sim_t *s);

/* SMs of GPU u with resident blocks. */
uint32_t gp_eng_active_sms(const gp_eng_gpu_t *u);

/* Resident warps of GPU u, all SMs. */
uint64_t gp_eng_resident_warps(const gp_eng_sim_t *s, const gp_eng_gpu_t *u);

/* Time until the next cohort finishes (INFINITY: none running). */
double gp_eng_next_cohort(const gp_eng_sim_t *s);

/* Skip runs of identical full waves that end before `room` us from now;
   returns 1 if it moved the clock. */
int gp_eng_fast_forward(gp_eng_sim_t *s, double room);

/* Advance every cohort by dt (the clock is already moved) and retire the
   finished ones. */
void gp_eng_retire(gp_eng_sim_t *s, double dt);

#endif /* GP_ENGINE_INTERNAL_H */
