/*
 * occupancy_search.h - occupancy of one configuration and the searches of
 * the occupancy calculator: the best block size (what
 * cudaOccupancyMaxPotentialBlockSize answers), the change that reaches the
 * next occupancy step, and the fix of a launch that cannot run.
 *
 * Every number comes from the device's plugin (gp_arch_occupancy); nothing
 * here knows a generation's rules. Searches try candidate values and ask the
 * plugin, so they stay exact for any plugin. Nothing here prints or
 * allocates.
 */
#ifndef GP_OCCUPANCY_SEARCH_H
#define GP_OCCUPANCY_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "gpuperf/gpuperf.h"
#include "device.h"
#include "util.h"

/* gp_occ_config_t and gp_occ_knob_t are public (gpuperf/gpuperf.h). */

/* A device with its plugin. */
typedef struct gp_occ_target {
    const gp_device_t *dev;
    const gp_arch_t *arch;
} gp_occ_target_t;

/* Shared memory per block the configuration asks for: static + dynamic +
   threads x per-thread (saturating). */
uint64_t gp_occ_smem_bytes(const gp_occ_config_t *c);

/* The launch a configuration describes: a 1-D block, a one-block grid. */
void gp_occ_launch(const gp_occ_config_t *c, gp_launch_t *out);

/* Occupancy of a configuration (an impossible launch is a result with
   blocks_per_sm 0). Returns 0, or -1 with err set when the plugin fails. */
int gp_occ_eval(const gp_occ_target_t *t, const gp_occ_config_t *c, gp_occupancy_t *out,
                gp_err_t *err);

/* The same configuration with `smem_bytes` of shared memory per block in
   all: the dynamic part shrinks first, then the static part. */
gp_occ_config_t gp_occ_with_smem(const gp_occ_config_t *c, uint64_t smem_bytes);

/* The block size with the highest occupancy. */
typedef struct gp_occ_best {
    uint64_t threads;         /* the smallest such block size; 0: no size runs */
    uint64_t threads_largest; /* the largest such: the answer of
                                 cudaOccupancyMaxPotentialBlockSize, which
                                 keeps the first maximum of a downward scan */
    gp_occupancy_t occ;       /* of `threads` */
    uint64_t min_grid_blocks; /* blocks_per_sm x SMs: a grid that fills the GPU */
    uint64_t min_grid_blocks_largest; /* the same for threads_largest (the
                                         minGridSize CUDA answers) */
    uint64_t limit_threads;   /* the largest block size tried */
} gp_occ_best_t;

/*
 * Try every multiple of the warp size up to the device's threads-per-block
 * limit (with that block size's per-thread shared memory) and keep the
 * highest active-warp count.
 */
int gp_occ_best_block(const gp_occ_target_t *t, const gp_occ_config_t *c, gp_occ_best_t *out,
                      gp_err_t *err);

/* The JSON name of a knob: registers_per_thread, shared_memory_per_block,
   threads_per_block, combined. */
const char *gp_occ_knob_name(gp_occ_knob_t k);

/* One change of one knob and the occupancy it gives. */
typedef struct gp_occ_step {
    int found;          /* 0: no value of this knob alone does it */
    uint64_t value;     /* the new registers / bytes / threads */
    /* GP_OCC_KNOB_COMBINED: the new value of each single knob, and which of
       them change (bit 1 << gp_occ_knob_t) */
    uint64_t values[GP_OCC_KNOB_COMBINED];
    uint32_t changed;
    gp_occupancy_t occ; /* with that value */
} gp_occ_step_t;

/*
 * For a configuration that runs: per knob, the smallest change that raises
 * the active warps (registers and shared memory: the largest smaller value
 * that does; threads: the nearest multiple of the warp size that does, the
 * smaller on a tie). For one that cannot run: per knob, the largest smaller
 * value that makes it run. When no knob alone does it, GP_OCC_KNOB_COMBINED
 * changes them one after the other, each as little as the search allows
 * with the knobs after it out of the way (no registers, no shared memory):
 * for a launch that runs, registers then shared memory; for one that
 * cannot, threads, registers, then shared memory. `now` is the
 * configuration's own occupancy.
 */
int gp_occ_advise(const gp_occ_target_t *t, const gp_occ_config_t *c, const gp_occupancy_t *now,
                  gp_occ_step_t steps[GP_OCC_KNOB_COUNT], gp_err_t *err);

/* One sentence for a step: "use at most 40 registers per thread for 3
   blocks per SM (from 2)" or, for a fix, "use at most 255 registers per
   thread: 1 block per SM". */
void gp_occ_step_text(char *out, size_t size, gp_occ_knob_t k, const gp_occ_step_t *s,
                      const gp_occupancy_t *now);

#endif /* GP_OCCUPANCY_SEARCH_H */
