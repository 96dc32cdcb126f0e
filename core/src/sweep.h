/*
 * sweep.h - predict one workload script over a grid of parameter values and
 * devices, in parallel.
 *
 * A sweep has axes (one per -p parameter: a single value, a list "a,b,c" or a
 * range "A:B:STEP" / "A:B:*FACTOR") and devices. Its points are every
 * combination, numbered device-major and then in axis order with the last
 * axis varying fastest, so point i always means the same configuration.
 *
 * Each worker thread owns one compiled gp_script_t and re-evaluates it per
 * point (gp_script_eval runs the compiled chunk in a fresh environment);
 * devices and plugins are loaded once by the caller and shared read-only (the
 * engine and the plugins are pure functions of their inputs). Results land
 * in the caller's array at their point's position, so the output does not
 * depend on the number of threads.
 *
 * A point whose launch cannot run on its device (too many threads per block,
 * too much shared memory, ...) is a result with an error message, not a
 * failure. A script error (syntax, a failed assert, an undeclared -p key)
 * fails the run: gp_sweep_run returns -1 and names the first failing point.
 */
#ifndef GP_SWEEP_H
#define GP_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "gpuperf/plugin.h"
#include "script.h"
#include "util.h"
#include "workload.h"

#define GP_SWEEP_MAX_POINTS 10000000ULL /* devices x combinations */
#define GP_SWEEP_MAX_AXES 64            /* -p parameters, swept or fixed */
#define GP_SWEEP_MAX_THREADS 1024

/* One parameter: its name and the values it takes. */
typedef struct gp_sweep_axis {
    char name[GP_WL_NAME_MAX];
    char **values;    /* text handed to the script, one per value (owned) */
    double *numbers;  /* the numeric value, or NaN for a text value (owned) */
    uint32_t n_values;
} gp_sweep_axis_t;

/*
 * Parse "key=SPEC" into *out: SPEC is one value ("256", "2^20", a word for a
 * string parameter), a comma list ("2^20,2^24,2^28") or a range of numbers
 * "A:B:STEP" (A, A+STEP, ... up to B inclusive; "A:B" steps by 1) or
 * "A:B:*F" (A, A*F, A*F^2, ... up to B). Numbers are normalised ("2^10"
 * becomes "1024"). More than GP_SWEEP_MAX_POINTS values is an error.
 * Returns 0, or -1 with err naming the option; *out is then empty.
 */
int gp_sweep_axis_parse(const char *arg, gp_sweep_axis_t *out, gp_err_t *err);

/* Release what an axis owns and zero it. Safe on a zeroed axis. */
void gp_sweep_axis_free(gp_sweep_axis_t *a);

/* What one point predicted. */
typedef struct gp_sweep_result {
    double total_us;        /* first submission to last completion */
    uint32_t launches;      /* kernel launches in the workload */
    uint32_t commands;      /* launches and copies; 0: nothing ran, no bound */
    /* of the longest command; bound, blocks_per_sm, limiter and occupancy
       are those of a launch and 0 when that command is a copy */
    uint32_t bound;         /* gp_bound_t */
    uint32_t blocks_per_sm;
    uint32_t limiter;       /* gp_limiter_t */
    double occupancy;       /* 0..1 */
    int is_copy;            /* the longest command is a copy */
    char *error;            /* NULL, or why the point cannot run (owned) */
} gp_sweep_result_t;

typedef struct gp_sweep gp_sweep_t;

/*
 * Prepare a sweep: compile the script once per thread (n_threads 0: one per
 * online processor). devs, archs and axes are borrowed and must outlive the
 * sweep. Fails when the grid has more than
 * GP_SWEEP_MAX_POINTS points, when an axis is given twice, or when the script
 * does not compile. Returns NULL with err set.
 */
gp_sweep_t *gp_sweep_new(const char *script, const gp_script_opts_t *opts,
                         const gp_device_t *devs, const gp_arch_t *const *archs,
                         uint32_t n_devices, const gp_sweep_axis_t *axes, uint32_t n_axes,
                         unsigned n_threads, gp_err_t *err);

/* Number of points (devices x combinations of axis values). */
uint64_t gp_sweep_points(const gp_sweep_t *s);

/* Threads the sweep runs on. */
unsigned gp_sweep_threads(const gp_sweep_t *s);

/* Point `index`: its device index and the value index on each axis
   (value_idx has n_axes entries). */
void gp_sweep_point(const gp_sweep_t *s, uint64_t index, uint32_t *device,
                    uint32_t *value_idx);

/* Progress: points finished so far out of `total` in this run. Called from
   the thread that called gp_sweep_run only, about every 100 ms. */
typedef void (*gp_sweep_progress_fn)(void *ud, uint64_t done, uint64_t total);

/*
 * Predict points [first, first + count) into results[0 .. count). Returns 0;
 * or -1 with err set ("point N (device, k=v ...): script.lua:LINE: ...") on a
 * script error; points that did not run are then zero, and all are still
 * released with gp_sweep_results_clear. The first failing point in index order is
 * reported whatever the number of threads.
 */
int gp_sweep_run(gp_sweep_t *s, uint64_t first, uint64_t count, gp_sweep_result_t *results,
                 gp_sweep_progress_fn progress, void *ud, gp_err_t *err);

/* Free the error messages of `count` results and zero them. */
void gp_sweep_results_clear(gp_sweep_result_t *results, uint64_t count);

/* Release the sweep and its compiled scripts. NULL is fine. */
void gp_sweep_free(gp_sweep_t *s);

#endif /* GP_SWEEP_H */
