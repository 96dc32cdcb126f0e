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

/* One launch or copy, as predicted. */
typedef struct gp_cmd_result {
    char name[GP_WL_NAME_MAX];
    uint32_t cmd;      /* index into the workload's commands */
    uint32_t type;     /* GP_CMD_LAUNCH or GP_CMD_COPY */
    uint32_t stream, line, device;
    double submit_us;  /* host issued it */
    double start_us;   /* first block (or byte) moved */
    double end_us;     /* last block finished */
    double time_us;    /* end - start */
    /* launches only */
    gp_occupancy_t occ;
    gp_block_cost_t cost;   /* of one block in a full wave */
    uint64_t blocks;
    double waves;           /* blocks / (blocks_per_sm * sm_count) */
    uint32_t bound;         /* gp_bound_t for the launch as a whole */
    double dram_bytes;      /* the whole launch, as it ran (shares included) */
    double l2_bytes;        /* bytes requested from L2, the whole launch */
    double l2_hit_rate;     /* 1 - dram_bytes / l2_bytes: what L2 served */
    double warp_instructions; /* the whole launch */
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
    double total_us;        /* from the first submission to the last completion */
    gp_cmd_result_t *cmds;  /* launches and copies, in program order */
    uint32_t n_cmds;
    uint32_t n_devices;     /* GPUs simulated (the workload's n_devices) */
    gp_sample_t *samples;   /* only with opts.samples: one per GPU per event */
    uint32_t n_samples;
    uint64_t events;        /* simulation events processed (for benchmarks) */
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
