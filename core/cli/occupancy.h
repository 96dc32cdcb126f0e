/*
 * occupancy.h - the occupancy calculator behind `gpuperf occupancy`: one
 * configuration, the best block size, the change that reaches the next
 * occupancy step, the fix of a launch that cannot run, sweeps and charts.
 *
 * The searches live in the library (core/src/occupancy_search.h); the
 * report, sweep and chart functions here write to the stream or file they
 * are given.
 */
#ifndef GP_CLI_OCCUPANCY_H
#define GP_CLI_OCCUPANCY_H

#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "arch.h"
#include "device.h"
#include "util.h"

#include "occupancy_search.h"

/* ---- advice reports (occupancy_advice.c) ---- */

/*
 * Print, after the occupancy report of `c` (whose occupancy is `now`), the
 * fix of a launch that cannot run, and with `suggest` the best block size
 * and the next occupancy step. Returns 0 or -1 with err set.
 */
int gp_occ_advice_text(FILE *out, const gp_occ_target_t *t, const gp_occ_config_t *c,
                       const gp_occupancy_t *now, int suggest, gp_err_t *err);

/* The same as members of the JSON document `doc`: "fixes" for a launch
   that cannot run, "suggest" with `suggest`. */
int gp_occ_advice_json(cJSON *doc, const gp_occ_target_t *t, const gp_occ_config_t *c,
                       const gp_occupancy_t *now, int suggest, gp_err_t *err);

/* ---- sweeps (occupancy_sweep.c) ---- */

/* A value or a range A:B:STEP of one option. */
typedef struct gp_occ_range {
    uint64_t first, last, step; /* a single value: first == last, step 1 */
    int is_range;
} gp_occ_range_t;

/* Number of values in a range. */
uint64_t gp_occ_range_count(const gp_occ_range_t *r);

/*
 * Parse "N" or "A:B:STEP" for option `opt` (numbers as gp_parse_number
 * reads them: 2^10, 48*1024). Values must lie in [min, max]; STEP is at
 * least 1. Returns 0, or -1 with a message naming the option and the
 * accepted values in err.
 */
int gp_occ_range_parse(const char *opt, const char *text, uint64_t min, uint64_t max,
                       gp_occ_range_t *out, gp_err_t *err);

/* The swept options, in the order their rows nest (threads outermost). */
typedef struct gp_occ_sweep {
    gp_occ_range_t threads, regs, smem, dynamic_smem;
} gp_occ_sweep_t;

/* Most rows a sweep may print. */
#define GP_OCC_MAX_ROWS 100000u

/* Rows of a sweep (saturating). */
uint64_t gp_occ_sweep_rows(const gp_occ_sweep_t *s);

/* Print a sweep as a text table (json 0) or one JSON array (json 1) to out,
   starting from `base` (cache and carve-out, per-thread shared memory). */
int gp_occ_sweep_print(FILE *out, const gp_occ_target_t *t, const gp_occ_config_t *base,
                       const gp_occ_sweep_t *s, int json, gp_err_t *err);

/* ---- charts (occupancy_chart.c) ---- */

/* Write the three charts of the spreadsheet (occupancy against threads per
   block, registers per thread and shared memory per block) with `c` marked,
   as one SVG file, atomically. */
int gp_occ_chart_write(const char *path, const gp_occ_target_t *t, const gp_occ_config_t *c,
                       gp_err_t *err);

#endif /* GP_CLI_OCCUPANCY_H */
