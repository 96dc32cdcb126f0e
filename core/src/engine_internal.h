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
#include "opmemo.h"

#define GP_ENG_EPS 1e-12
#define GP_ENG_COST_CACHE 16

enum gp_eng_node_state { GP_N_PENDING = 0, GP_N_SUBMITTED, GP_N_ACTIVE, GP_N_DONE };

/*
 * One launch, copy, L2 flush or graph replay in flight. Nodes live in a pool:
 * one is taken when the host issues its command (or when a graph replay
 * starts, for the replay's nodes) and given back once it is done and nothing
 * refers to it any more (`pins` counts the queues, events and waits that
 * do), so the pool holds the work in flight, not the whole workload.
 */
typedef struct gp_eng_node {
    uint64_t seq;             /* creation order: the order of issue */
    const gp_command_t *c;    /* its command (in the workload or a graph) */
    uint32_t cmd;             /* the workload command that issued it */
    uint32_t gnode;           /* index into its graph's commands; UINT32_MAX: none */
    uint32_t type, stream, device, peer;
    int state;
    uint32_t pins;            /* references from queues, events and waits */
    uint32_t res;             /* its result row; UINT32_MAX: none (a replay) */
    double submit, ready, start, end;
    uint32_t waiting;         /* dependencies not done yet */
    uint32_t first_dependent; /* edge list of the nodes waiting for it */
    uint32_t hwq_next;        /* next launch in its hardware queue */
    int32_t kern;             /* launches: its kernel state once active, else -1 */
    int engine;               /* gp_copy_kind_t: the engine of a copy */
    double copy_us;           /* duration of a copy */
    uint32_t parent;          /* the graph replay it belongs to; UINT32_MAX: none */
    uint32_t children;        /* a replay: its nodes not done yet */
    uint32_t next_free;       /* free list of the pool */
} gp_eng_node_t;

/* A cached block cost at one residency and memory share. */
typedef struct gp_eng_cost {
    uint32_t blocks, warps_sm, active_sms;
    int valid;
    double dram_share, l2_share, l2_capacity;
    gp_block_cost_t cost;
} gp_eng_cost_t;

/* A buffer a kernel touches and the bytes of it (its widest footprint),
   the bytes its threads access there over the launch (every op's), and
   when it ends, the bytes it brought into L2 and used once (`fresh`). */
typedef struct gp_eng_ws {
    uint32_t buffer;
    int written; /* a store or an atomic writes it (its lines left dirty) */
    double bytes, accessed, fresh;
} gp_eng_ws_t;

/* A running kernel launch and its blocks' progress: a pool slot taken when
   the launch starts and given back when it ends. */
typedef struct gp_eng_kern {
    uint32_t node, device;
    uint64_t seq;         /* its node's: launch order */
    const gp_kernel_t *k; /* &kc */
    gp_kernel_t kc;       /* the workload's kernel with the L2 state at its start */
    uint64_t *warm;       /* kc.l2_warm_bytes: n_buffers entries, 0 but for the
                             buffers it touches */
    double l2_warm;       /* their sum */
    gp_occupancy_t occ;
    uint64_t left;        /* blocks not yet dispatched */
    uint64_t running;     /* blocks on SMs */
    int started, cost_set;
    double start;
    gp_block_cost_t cost; /* at the fullest residency */
    uint32_t cost_per_sm;
    gp_eng_cost_t *cache; /* GP_ENG_COST_CACHE entries while it runs, else NULL */
    uint32_t cache_next;
    gp_op_memo_t memo;    /* its op costs, for the block costs at other residencies */
    /* working set: the buffers it touches, in the order of its ops, and
       the bytes of accesses that name no buffer */
    gp_eng_ws_t *ws;
    uint32_t n_ws, cap_ws;
    double ws_anon, ws_anon_written, ws_bytes;
    /* the write-backs of flushed dirty lines its reads push out of the L2
       (bytes), and the time until which they hold its first blocks back */
    double writeback, hold_until;
    /* memory shares while running, recomputed at every event */
    uint32_t mark, sms;
    double l2_capacity, dram_share, l2_share, dram_demand, l2_demand;
    /* traffic as it ran */
    double dram_done, l2_done;
    uint32_t next_free;
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

/* Node indices: a min-heap by issue order, or a plain list. */
typedef struct gp_eng_idx {
    uint32_t *v;
    uint32_t n, cap;
} gp_eng_idx_t;

/*
 * What one GPU's L2 holds between launches: bytes per workload buffer
 * (entry n_buffers stands for the accesses that name no buffer), in a list
 * from the least to the most recently used, whose bytes add up to at most
 * the device's l2_bytes.
 */
typedef struct gp_eng_l2 {
    uint64_t *bytes;   /* n_buffers + 1 */
    uint32_t *prev, *next; /* n_buffers + 2: entry n_buffers + 1 is the list's head */
    uint64_t total;
    double dirty; /* bytes of dirty lines an L2 flush left, of no buffer */
    int flushed;  /* no launch has touched memory since a flush */
} gp_eng_l2_t;

/* One GPU: its SMs, engines and links, and the work waiting for them. */
typedef struct gp_eng_gpu {
    gp_eng_group_t *groups;
    uint32_t n_groups, cap_groups;
    gp_eng_cohort_t *cohort_block; /* the first groups' cohorts, one allocation
                                      (groups move: a group's cohorts are freed
                                      unless they lie in it) */
    uint32_t cohort_block_len;     /* cohorts in it */
    double engine_free[GP_COPY_KIND_COUNT];
    double link_out_free, link_in_free; /* peer link, each direction */
    uint32_t kernels_active;            /* launches started, not done */
    gp_eng_idx_t launches;              /* ready launches (heap) */
    gp_eng_idx_t gapped;                /* launches whose dependencies are done,
                                           waiting out the dependency gap */
    gp_eng_idx_t copies[GP_COPY_P2P];   /* ready copies per engine (heaps) */
    uint32_t *hwq_head, *hwq_tail;      /* per hardware queue (kernel_queues) */
    gp_eng_l2_t l2;
} gp_eng_gpu_t;

/* The dependencies of a graph's nodes, worked out once per prediction. */
typedef struct gp_eng_plan {
    uint32_t n_nodes;
    uint32_t *cmd;     /* node -> index into the graph's commands */
    uint32_t *dep_off; /* node j's predecessors: deps[dep_off[j] .. dep_off[j + 1]) */
    uint32_t *deps;
} gp_eng_plan_t;

/* The whole simulation. */
typedef struct gp_eng_sim {
    const gp_device_t *dev;
    const gp_arch_t *arch;
    const gp_workload_t *wl;
    gp_arch_info_t info;
    double cycle_us;
    uint32_t n_dev;
    gp_eng_gpu_t *gpus;
    /* the node pool */
    gp_eng_node_t *nodes;
    uint32_t cap_nodes, free_node, n_live;
    uint64_t next_seq;
    uint64_t synced_seq; /* nodes issued before the host's last synchronize */
    uint32_t *deps;     /* scratch: one node's dependencies at submission */
    uint32_t n_deps, cap_deps;
    uint32_t *edge_node, *edge_next; /* dependents, as linked lists (a pool) */
    uint32_t cap_edges, free_edge;
    /* the kernel pool */
    gp_eng_kern_t *kerns;
    uint32_t cap_kerns, free_kern;
    gp_eng_idx_t dispatching; /* active kernels with blocks left, in launch order */
    gp_eng_idx_t p2p_ready;   /* ready peer copies, in issue order */
    gp_eng_idx_t copies_active;
    gp_eng_idx_t flushes;     /* ready L2 flushes */
    gp_eng_idx_t expand;      /* graph replays whose dependencies are done */
    gp_eng_plan_t *plans;     /* one per workload graph */
    uint64_t peak_bytes;      /* most bytes the pools held */
    uint32_t *child;          /* scratch: a replay's nodes */
    double graph_launch_us, graph_node_us; /* host costs, after fallbacks */
    uint32_t max_cohorts;
    uint32_t n_kqueues;       /* hardware queues per GPU; 0: one per stream */
    /* host */
    uint32_t host_next;
    double host_time;
    int host_blocked;
    uint32_t next_res;        /* result row of the next command issued */
    /* queue bookkeeping at submission time: stream s > 0 is queue s, the
       default stream of device d is queue 0 (d = 0) or n_streams + d - 1 */
    uint32_t n_queues;
    uint32_t *queue_last;  /* last node of each queue, UINT32_MAX none (pinned) */
    uint32_t *queue_dev;   /* device of each queue's latest command */
    uint32_t *event_marker; /* node an event waits for; UINT32_MAX: complete (pinned) */
    double elapsed_at[2];   /* host time of the last record of gpuperf.elapsed's
                               start and stop events; -1: not recorded */
    uint32_t **pending_waits; /* pinned */
    uint32_t *n_pending_waits;
    /* results */
    gp_cmd_result_t *rows;
    uint32_t n_rows;
    const char **names;    /* per workload command, then per graph command: the
                              row name (in name_pool) */
    uint32_t *graph_name0; /* per graph: its first entry in names */
    char *name_pool;
    /* scratch of engine_gpu.c */
    uint32_t *run_list;    /* kernels running on one device (cap_kerns) */
    uint32_t *buf_mark;    /* per workload buffer */
    double *buf_bytes;
    void *fixed;           /* one block holding the arrays whose size the workload
                              fixes (gpus, plans, the queue and buffer arrays) */
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

/* 1 when kernel a was launched before kernel b. */
int gp_eng_kern_before(const gp_eng_sim_t *s, uint32_t a, uint32_t b);

/* ------------------------------------------------------ engine_gpu.c */

/* Give GPU u one idle group of every SM; -1 on allocation failure. */
int gp_eng_gpu_init(gp_eng_sim_t *s, gp_eng_gpu_t *u);

/* Release what gp_eng_gpu_init and the simulation allocated for u. */
void gp_eng_gpu_free(gp_eng_gpu_t *u);

/* Work out kernel k's working set from its ops (into k->ws). */
int gp_eng_working_set(gp_eng_sim_t *s, gp_eng_kern_t *k);

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

/* ------------------------------------------------------- engine_l2.c */

/* Give GPU u an empty L2 state; -1 on allocation failure. */
int gp_eng_l2_init(gp_eng_sim_t *s, gp_eng_gpu_t *u);

/* Release it. */
void gp_eng_l2_free(gp_eng_gpu_t *u);

/* Bytes of buffer b (n_buffers: no buffer) in the L2 of u. */
uint64_t gp_eng_l2_resident(const gp_eng_gpu_t *u, uint32_t b);

/* Buffer b (n_buffers: no buffer) was just touched, `bytes` of it: they
   become the most recently used (evicting the least recently used beyond
   the capacity). */
void gp_eng_l2_touch(gp_eng_sim_t *s, gp_eng_gpu_t *u, uint32_t b, double bytes);
/* After a launch that brought ws[j].fresh bytes of each of its n buffers
   into the L2 of u, each used once: keep of them the share the launches
   after it find (device l2_carry_*_bytes). */
void gp_eng_l2_carry(gp_eng_sim_t *s, gp_eng_gpu_t *u, const gp_eng_ws_t *ws, uint32_t n);

/* Empty the L2 of u. */
void gp_eng_l2_flush(gp_eng_sim_t *s, gp_eng_gpu_t *u, int clean);

#endif /* GP_ENGINE_INTERNAL_H */
