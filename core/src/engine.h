/*
 * engine.h - predict a workload on a device: occupancy and block costs from
 * the plugin, then an event-driven simulation of the host issuing commands
 * and of the GPU dispatching blocks onto SMs (waves, tails, block dispatch
 * cost, launch overhead, streams running side by side, copy engines).
 *
 * Identical blocks are simulated a wave at a time and whole runs of equal
 * waves are skipped in closed form, so the cost of a prediction does not grow
 * with the number of blocks.
 *
 * Kernels that run at the same time on one GPU share its memory system: each
 * gets a share of the L2 capacity in proportion to the bytes of the buffers
 * it touches (when they do not all fit together), and shares of the DRAM and
 * L2 bandwidth in proportion to the traffic it asks for. A workload may
 * target several identical GPUs (gp_workload_t.n_devices): each has its own
 * SMs, L2, DRAM and copy engines, and peer copies use the link between them.
 *
 * Between launches each GPU's L2 keeps what earlier launches and copies
 * left in it, by buffer and bytes, least recently used first (engine_l2.c);
 * a launch sees it in gp_kernel_t.l2_warm_bytes. A captured graph
 * (gp_graph_t) replayed by GP_CMD_GRAPH runs its nodes with their captured
 * dependencies; the host pays one graph launch plus a cost per node.
 *
 * Memory: the simulation holds the work in flight (nodes and running
 * kernels come from pools and go back when done), plus one result row per
 * launch, copy and flush run; a graph's replays share its commands.
 */
#ifndef GP_ENGINE_H
#define GP_ENGINE_H

#include <stdint.h>

#include "arch.h"
#include "gpuperf/plugin.h"
#include "util.h"
#include "workload.h"

/* Most identical GPUs one prediction simulates. */
#define GP_ENGINE_MAX_DEVICES GP_WL_MAX_DEVICES
/* Most rows (launches, copies and flushes run, graph replays counted node
   by node) one prediction reports: about 200 bytes each. */
#define GP_ENGINE_MAX_ROWS 20000000u

/* What a result keeps of a launch's occupancy (the fields of
   gp_occupancy_t that reports use, under the same names). */
typedef struct gp_occ_brief {
    uint32_t blocks_per_sm;
    uint32_t limiter;       /* gp_limiter_t */
    uint32_t warps_per_block;
    uint32_t active_warps;
    uint32_t max_warps;
    double occupancy;
} gp_occ_brief_t;

/* What a result keeps of a block's cost (fields of gp_block_cost_t). */
typedef struct gp_cost_brief {
    double time_cycles;
    double latency_cycles;
    double throughput_cycles;
    double memory_cycles;
    double warp_instructions; /* per block */
    uint32_t bound, bound_pipe;
} gp_cost_brief_t;

/* One launch, copy or L2 flush, as predicted: one row per run, so a graph
   replayed N times gives N rows per node. */
typedef struct gp_cmd_result {
    const char *name;  /* owned by the prediction */
    uint32_t cmd;      /* index into the workload's commands: the command
                          that issued it (for a graph's node, the replay) */
    uint32_t graph_cmd; /* a graph's node: index into the graph's commands;
                           UINT32_MAX: issued directly */
    uint32_t type;     /* GP_CMD_LAUNCH, GP_CMD_COPY or GP_CMD_FLUSH_L2 */
    uint32_t stream, line, device;
    double submit_us;  /* host issued it */
    double start_us;   /* first block (or byte) moved */
    double end_us;     /* last block finished */
    double time_us;    /* end - start */
    /* launches only */
    const gp_kernel_t *kernel; /* the workload's (valid while the workload is) */
    gp_occ_brief_t occ;
    gp_cost_brief_t cost;   /* of one block in a full wave */
    uint64_t blocks;
    double waves;           /* blocks / (blocks_per_sm * sm_count) */
    uint32_t bound;         /* gp_bound_t for the launch as a whole */
    double dram_bytes;      /* the whole launch, as it ran (shares included),
                               with writeback_bytes */
    double writeback_bytes; /* dirty lines of an L2 flush it wrote back */
    double l2_bytes;        /* bytes requested from L2, the whole launch */
    double l2_hit_rate;     /* 1 - (dram_bytes - writeback_bytes) / l2_bytes:
                               what L2 served */
    double warp_instructions; /* the whole launch */
    double l2_warm_bytes;   /* bytes of the buffers it touches already in L2
                               when it started (left by earlier work) */
    /* copies only */
    uint32_t copy_kind;
    uint32_t peer_device;   /* GP_COPY_P2P: the device the bytes go to */
    uint64_t copy_bytes;
} gp_cmd_result_t;

/* The state of one GPU between events, for timelines. */
typedef struct gp_sample {
    double t_us;
    uint32_t device;
    uint32_t sms_busy;
    double occupancy;       /* resident warps / warp slots, whole GPU */
    uint32_t kernels_running;
} gp_sample_t;

typedef struct gp_prediction {
    double total_us;        /* the script's time: the interval of gpuperf.elapsed
                               where the script declares one, else run_us */
    double run_us;          /* from the first submission to the last completion */
    gp_cmd_result_t *cmds;  /* launches and copies, in program order */
    uint32_t n_cmds;
    uint32_t n_devices;     /* GPUs simulated (the workload's n_devices) */
    gp_sample_t *samples;   /* only with opts.samples: one per GPU per event */
    uint32_t n_samples;
    uint64_t events;        /* simulation events processed (for benchmarks) */
    char *name_pool;        /* the rows' names */
    uint64_t sim_peak_bytes; /* most bytes the simulation's pools (nodes, kernel
                                slots, dependency edges) held: the work in
                                flight, besides the rows */
} gp_prediction_t;

typedef struct gp_engine_opts {
    int samples;            /* record the GPU state at every event */
} gp_engine_opts_t;

/* Predict wl on wl->n_devices identical copies of dev with its plugin. The
   prediction owns its arrays (gp_prediction_free). Errors name the script
   line of the launch. */
int gp_predict(const gp_device_t *dev, const gp_arch_t *arch, const gp_workload_t *wl,
               const gp_engine_opts_t *opts, gp_prediction_t *out, gp_err_t *err);

/* Release a prediction. */
void gp_prediction_free(gp_prediction_t *p);

#endif /* GP_ENGINE_H */
