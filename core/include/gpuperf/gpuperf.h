/*
 * gpuperf.h - the public interface of libgpuperf, the library behind the
 * gpuperf command: predict how long CUDA kernels take on NVIDIA GPUs from a
 * workload script (LuaJIT), a device file (INI) and the device's
 * architecture plugin (a shared object), without the GPU.
 *
 * This header is all an embedding program includes; the library exports the
 * functions declared here (marked GP_API) and nothing else. Build against it
 * with `pkg-config --cflags --libs gpuperf`; examples/embed/embed.c is a
 * complete program.
 *
 * Conventions (the same everywhere below):
 *   - Functions returning int return 0 on success and -1 on failure; on
 *     failure the caller's gp_error_t (which may be NULL) holds one message,
 *     "where: what is wrong[; what to do]", e.g. "devices/x.ini:12: unknown
 *     key 'sm_cont' (did you mean sm_count?)". The library never prints and
 *     never exits.
 *   - Whoever opens frees: every object returned through a `**out` pointer is
 *     released with the matching _close or _free function, which accept NULL.
 *     Strings a function hands out (const char *) belong to the object they
 *     came from and live as long as it.
 *   - Times are microseconds (_us), sizes bytes (_bytes).
 *   - Objects may be used from several threads as long as each object is used
 *     by one thread at a time; plugins, once loaded, are shared and stay
 *     loaded for the life of the process.
 *
 * Where things are found: a device name ("h200-sxm") is looked up on the
 * device search path ($GPUPERF_DEVICE_PATH, colon-separated, then the
 * installed and the source devices/ folders); anything containing '/' or
 * ending in .ini is a path. The device file's `arch =` names its plugin,
 * looked up as NAME.so on the plugin search path ($GPUPERF_PLUGIN_PATH, then
 * the plugins installed beside the library's prefix).
 */
#ifndef GPUPERF_GPUPERF_H
#define GPUPERF_GPUPERF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the exported functions (the library is built with hidden
   visibility and an export list naming exactly these). */
#if defined(__GNUC__) || defined(__clang__)
#define GP_API __attribute__((visibility("default")))
#else
#define GP_API
#endif

/* ------------------------------------------------------------ basics */

/* A caller-owned error message. */
typedef struct gp_error {
    char msg[1024];
} gp_error_t;

/* The library's version, "MAJOR.MINOR.PATCH". Never NULL. */
GP_API const char *gp_version(void);

/* Parse a number as scripts, -p parameters and tables write them: a decimal
   or hexadecimal literal or a small expression (+ - * / ^ and parentheses),
   e.g. "2^24", "4*2^20", "1e6". NaN and infinities are refused. */
GP_API int gp_number_parse(const char *text, double *out, gp_error_t *err);

/* ------------------------------------------------------------ devices */

/* A device file with its plugin loaded. Opaque. */
typedef struct gp_gpu gp_gpu_t;

/*
 * Open a device by name or path and load its plugin (once per process).
 * Every key of the file is checked (unknown, duplicate, missing, malformed
 * or out-of-range values are errors with file:line). On success *out is a
 * new gp_gpu_t the caller releases with gp_gpu_close; on failure *out is NULL.
 */
GP_API int gp_gpu_open(const char *name_or_path, gp_gpu_t **out, gp_error_t *err);

/* Release a device. NULL is fine. The plugin stays loaded. */
GP_API void gp_gpu_close(gp_gpu_t *gpu);

/* What a device is; the strings belong to the gp_gpu_t. */
typedef struct gp_gpu_info {
    const char *id;      /* file base name, "h200-sxm" */
    const char *name;    /* display name, "NVIDIA H200 SXM" */
    const char *arch;    /* plugin name, "hopper" */
    const char *plugin_path; /* the plugin file loaded */
    unsigned cc_major, cc_minor; /* compute capability */
    unsigned sm_count, warp_size;
    unsigned max_threads_per_block, max_registers_per_thread;
    uint64_t shared_memory_per_sm_bytes;
    double core_clock_mhz;
    double dram_bandwidth_gbps;
    uint64_t l2_bytes;
} gp_gpu_info_t;

/* Fill *out from an open device. */
GP_API void gp_gpu_info(const gp_gpu_t *gpu, gp_gpu_info_t *out);

/* ------------------------------------------------------------ plugins */

/* One plugin file opened on its own (to check or list it). Opaque. */
typedef struct gp_plugin_file gp_plugin_file_t;

/*
 * Open a plugin file (a path to a .so) and check it as the loader does: one
 * exported symbol, an ABI this library speaks, every required callback.
 * The caller releases *out with gp_plugin_file_close. Devices do not need
 * this: gp_gpu_open loads the plugin their file names.
 */
GP_API int gp_plugin_file_open(const char *path, gp_plugin_file_t **out, gp_error_t *err);

/* Release a plugin file opened with gp_plugin_file_open. NULL is fine. */
GP_API void gp_plugin_file_close(gp_plugin_file_t *p);

/* What a plugin declares; the strings belong to the gp_plugin_file_t. */
typedef struct gp_plugin_info {
    const char *name;        /* "hopper" */
    const char *description;
    const char *path;
    const char *ccs;         /* the compute capabilities served, "9.0" */
    unsigned abi_major, abi_minor;
} gp_plugin_info_t;

/* Fill *out from an open plugin file. */
GP_API void gp_plugin_file_info(const gp_plugin_file_t *p, gp_plugin_info_t *out);

/* ------------------------------------------------------------ predictions */

/* One script parameter, as -p key=value on the command line. Numbers may be
   written 2^24, 4*2^20, 1e6. */
typedef struct gp_param {
    const char *key;
    const char *value;
} gp_param_t;

/* Options of a run; a zeroed struct (or NULL) means the defaults. */
typedef struct gp_run_opts {
    uint64_t instruction_budget; /* Lua VM instructions; 0: default (2e8) */
    uint64_t memory_cap_bytes;   /* memory of the script; 0: default (256 MiB) */
    unsigned gpus;               /* identical GPUs (device NAME*N); 0: as the script says */
} gp_run_opts_t;

/* A script run for a device and predicted. Opaque. */
typedef struct gp_run gp_run_t;

/*
 * Run the workload script at `script_path` for `gpu` with the given
 * parameters (a key the script does not declare is an error listing the
 * declared ones), then predict every launch and copy. The script runs
 * sandboxed under the budget and memory cap of `opts`. Errors in the script
 * read "script.lua:LINE: message". On success the caller releases *out with
 * gp_run_free; on failure *out is NULL.
 */
GP_API int gp_run_script(const gp_gpu_t *gpu, const char *script_path, const gp_param_t *params,
                         size_t n_params, const gp_run_opts_t *opts, gp_run_t **out,
                         gp_error_t *err);

/* Release a run. NULL is fine. */
GP_API void gp_run_free(gp_run_t *run);

/* From the first submission to the last completion, launch overhead
   included, as CUDA events around the work would measure it; where the
   script calls gpuperf.elapsed(start, stop), the interval between those two
   events instead. */
GP_API double gp_run_total_us(const gp_run_t *run);

/* Identical GPUs the run simulated (1 unless the script or opts asked). */
GP_API unsigned gp_run_gpus(const gp_run_t *run);

/* Launches and copies, in program order. */
GP_API size_t gp_run_count(const gp_run_t *run);

/* One launch or copy as predicted; strings belong to the gp_run_t. */
typedef struct gp_run_cmd {
    const char *name;       /* kernel name, or "memcpy H2D" ... */
    const char *type;       /* "launch" or "copy" */
    unsigned stream, device, line; /* stream index, GPU index, script line */
    double submit_us, start_us, end_us, time_us;
    /* launches (0 or "" for copies) */
    uint64_t grid_blocks, threads_per_block;
    unsigned regs_per_thread;
    uint64_t smem_per_block_bytes;   /* static + dynamic */
    unsigned blocks_per_sm, active_warps, max_warps;
    double occupancy;        /* 0..1 */
    const char *limiter;     /* what limits blocks per SM: "warps", "registers", ... */
    const char *bound;       /* what bounds the launch: "dram", "compute", ... */
    double waves;            /* blocks / (blocks_per_sm x SMs) */
    double dram_bytes;       /* the whole launch */
    double l2_bytes;         /* bytes requested from L2 */
    double l2_hit_rate;      /* 0..1 */
    /* copies */
    const char *copy_kind;   /* "h2d", "d2h", "d2d", "p2p"; "" for launches */
    uint64_t copy_bytes;
} gp_run_cmd_t;

/* Fill *out with command i (0 <= i < gp_run_count). Returns 0, or -1 when i
   is out of range. */
GP_API int gp_run_cmd(const gp_run_t *run, size_t i, gp_run_cmd_t *out);

/* ------------------------------------------------------------ occupancy */

/*
 * A kernel as the occupancy calculator sees it: a 1-D block. Its dynamic
 * shared memory is dynamic_smem_bytes + threads x smem_per_thread_bytes (a
 * kernel whose shared memory grows with the block, like the
 * blockSizeToDynamicSMemSize of cudaOccupancyMaxPotentialBlockSizeVariableSMem).
 */
typedef struct gp_occ_config {
    uint64_t threads;               /* threads per block */
    uint32_t regs;                  /* registers per thread */
    uint64_t static_smem_bytes;
    uint64_t dynamic_smem_bytes;
    uint64_t smem_per_thread_bytes;
    uint32_t cache_pref;            /* 0 none, 1 prefer shared, 2 prefer L1, 3 equal */
    int32_t carveout_percent;       /* -1: the default carve-out */
} gp_occ_config_t;

/* Occupancy of one configuration on one SM. */
typedef struct gp_occ_result {
    unsigned blocks_per_sm;   /* 0: the launch cannot run (see limiter, detail) */
    unsigned warps_per_block, active_warps, max_warps;
    double occupancy;         /* active_warps / max_warps, 0..1 */
    const char *limiter;      /* static string: "warps", "blocks", "registers",
                                 "shared_memory", "barriers", or why it cannot run */
    /* blocks per SM each resource alone allows (UINT32_MAX: no limit) */
    unsigned limit_warps, limit_blocks, limit_registers, limit_shared_memory, limit_barriers;
    unsigned regs_per_block_allocated;
    uint64_t smem_per_block_allocated, smem_per_sm_configured;
    char detail[160];         /* a launch that cannot run: what broke, by how much */
} gp_occ_result_t;

/* Occupancy of `cfg` on `gpu`, by the rules of its generation (its plugin).
   A launch that cannot run is a result (blocks_per_sm 0), not an error;
   -1 only when the plugin fails. */
GP_API int gp_occ_compute(const gp_gpu_t *gpu, const gp_occ_config_t *cfg, gp_occ_result_t *out,
                          gp_error_t *err);

/* The block size with the highest occupancy for cfg's registers and shared
   memory (cfg->threads is ignored). */
typedef struct gp_occ_block_size {
    uint64_t threads;          /* the smallest such block size; 0: none runs */
    uint64_t threads_largest;  /* the largest such: cudaOccupancyMaxPotentialBlockSize's answer */
    gp_occ_result_t occ;       /* of `threads` */
    uint64_t min_grid_blocks;  /* blocks that fill every SM at `threads` */
    uint64_t min_grid_blocks_largest; /* the same at threads_largest (CUDA's minGridSize) */
    uint64_t limit_threads;    /* the largest block size tried */
} gp_occ_block_size_t;

/* Try every multiple of the warp size up to the device's limit. */
GP_API int gp_occ_best_block_size(const gp_gpu_t *gpu, const gp_occ_config_t *cfg,
                                  gp_occ_block_size_t *out, gp_error_t *err);

/* What the calculator may change, one at a time; COMBINED: several, tried
   only when no single one does it. */
typedef enum gp_occ_knob {
    GP_OCC_KNOB_REGS = 0, /* registers per thread */
    GP_OCC_KNOB_SMEM,     /* shared memory per block, bytes in all */
    GP_OCC_KNOB_THREADS,  /* threads per block */
    GP_OCC_KNOB_COMBINED,
    GP_OCC_KNOB_COUNT
} gp_occ_knob_t;

/* One change and what it gives. */
typedef struct gp_occ_change {
    int found;                 /* 0: no value of this knob (alone) does it */
    uint64_t value;            /* the new registers / bytes / threads */
    uint64_t values[GP_OCC_KNOB_COMBINED]; /* COMBINED: each knob's new value */
    uint32_t changed;          /* COMBINED: bit (1 << knob) per knob changed */
    gp_occ_result_t occ;       /* with the change */
    char advice[320];          /* "use at most 40 registers per thread for 3 blocks per SM
                                  (from 2), ..." */
} gp_occ_change_t;

/*
 * For a configuration that runs: per knob the smallest change that raises
 * the active warps (the next occupancy step). For one that cannot run: per
 * knob the largest smaller value that makes it run. out[k] for each knob k;
 * out[GP_OCC_KNOB_COMBINED] only when no knob alone does it. A
 * configuration already at 100% has no step (every found is 0).
 */
GP_API int gp_occ_next_steps(const gp_gpu_t *gpu, const gp_occ_config_t *cfg,
                             gp_occ_change_t out[GP_OCC_KNOB_COUNT], gp_error_t *err);

/* ------------------------------------------------------------ validation */

/*
 * A validation table: CSV read with libcsv, '#' lines are comments. Two
 * forms, told apart by the header:
 *
 * times (GP_TABLE_TIMES): columns device, family, name, params, script,
 *   script_params, measured_us; optional divide_by (the prediction is divided
 *   by it, for per-launch figures), source (where the figure came from) and
 *   kind (independent, scaled, consistency; empty or absent: independent).
 *   device may be NAME*N for N identical GPUs.
 *
 * speedups (GP_TABLE_SPEEDUPS): exactly the columns name, script,
 *   old_device, old_params, old_measured_us, new_device, new_params,
 *   new_measured_us, source: one kernel timed on two GPUs; the speedup is
 *   old / new.
 *
 * script_params / old_params / new_params are space-separated key=value
 * pairs. Scripts are found as given, or relative to the table's folder and
 * its ancestors.
 */
typedef struct gp_table gp_table_t;

typedef enum gp_table_form {
    GP_TABLE_TIMES = 0,
    GP_TABLE_SPEEDUPS
} gp_table_form_t;

/* How a row relates to the device file. */
typedef enum gp_row_kind {
    GP_KIND_INDEPENDENT = 0, /* same card, conditions as measured, not a device-file input */
    GP_KIND_SCALED,          /* moved from another card or clock */
    GP_KIND_CONSISTENCY,     /* restates a device-file input */
    GP_KIND_COUNT
} gp_row_kind_t;

/* "independent", "scaled", "consistency". */
GP_API const char *gp_row_kind_name(gp_row_kind_t kind);

/*
 * Read and check a table: the header, the number of fields of every row, a
 * malformed number or kind are errors "path:line: ...". Rows are not run
 * here. The caller releases *out with gp_table_free.
 */
GP_API int gp_table_read(const char *path, gp_table_t **out, gp_error_t *err);

/* Release a table. NULL is fine. */
GP_API void gp_table_free(gp_table_t *t);

GP_API gp_table_form_t gp_table_form(const gp_table_t *t);
GP_API const char *gp_table_path(const gp_table_t *t);
/* 1 when the table has a kind column. */
GP_API int gp_table_has_kind(const gp_table_t *t);
/* Data rows (the header not counted). */
GP_API size_t gp_table_count(const gp_table_t *t);

/* One data row; every string belongs to the table ("" when absent). */
typedef struct gp_table_row {
    long line;               /* line in the file */
    gp_row_kind_t kind;
    const char *family, *name, *params, *source, *script;
    const char *script_path; /* the script as found ("" if not found) */
    /* times */
    const char *device, *script_params;
    double measured_us, divide_by; /* divide_by 1 when absent */
    /* speedups */
    const char *old_device, *old_params, *new_device, *new_params;
    double old_measured_us, new_measured_us;
} gp_table_row_t;

/* Fill *out with data row i. Returns 0, or -1 when i is out of range. */
GP_API int gp_table_row(const gp_table_t *t, size_t i, gp_table_row_t *out);

/* A scored table. Opaque. */
typedef struct gp_score gp_score_t;

/* Which rows to score and the limits of their scripts; zeroed: all rows. */
typedef struct gp_score_opts {
    const char *family;          /* only this family (NULL: all) */
    const char *source;          /* only rows whose source contains this (NULL: all) */
    uint64_t instruction_budget; /* as gp_run_opts_t */
    uint64_t memory_cap_bytes;
    double order_tolerance_pct;  /* measured times within this count as ties; 0: 3 */
} gp_score_opts_t;

/* One scored row. */
typedef struct gp_score_row {
    gp_table_row_t row;
    int ok;                /* 0: it could not be predicted, see error */
    char error[1280];      /* "path:line: what" */
    double measured;       /* measured_us, or the measured speedup */
    double predicted;      /* predicted_us, or the predicted speedup */
    double error_pct;      /* (predicted - measured) / measured x 100 */
    double ratio;          /* max(predicted/measured, measured/predicted) >= 1 */
    const char *bound;     /* times: what bounds the longest launch ("copy" for a copy) */
    /* speedups: the predicted times on each card, and whether the prediction
       puts the new card on the same side of 1 as the measurement */
    double old_predicted_us, new_predicted_us;
    int order_ok;
} gp_score_row_t;

/*
 * Predict every selected row (each row's own device, script and parameters;
 * a row that cannot be predicted is kept with ok 0 and its error). Returns
 * 0, or -1 only when memory runs out. The caller releases *out with
 * gp_score_free; *out keeps a pointer to `t`, which must outlive it.
 */
GP_API int gp_score_table(const gp_table_t *t, const gp_score_opts_t *opts, gp_score_t **out,
                          gp_error_t *err);

/* Release a score. NULL is fine. */
GP_API void gp_score_free(gp_score_t *s);

/* Scored rows, in table order. */
GP_API size_t gp_score_count(const gp_score_t *s);
/* Row i, or NULL when out of range; it belongs to the score. */
GP_API const gp_score_row_t *gp_score_row(const gp_score_t *s, size_t i);

/* A group of rows to summarise. */
typedef struct gp_score_filter {
    unsigned kinds;        /* bit (1 << gp_row_kind_t) per kind; 0: every kind */
    const char *family;    /* NULL: every family */
    double within_factor;  /* also count rows within this factor (0: 2) */
} gp_score_filter_t;

/* Accuracy of a group. */
typedef struct gp_score_stats {
    unsigned rows;         /* rows in the group */
    unsigned predicted;    /* of them predicted */
    double mape_pct;       /* mean |error_pct| of the predicted rows (0 when none) */
    unsigned within_2x;    /* rows with ratio <= 2 */
    unsigned within;       /* rows with ratio <= within_factor */
    double within_factor;
    double worst_ratio;    /* the largest ratio (1 when none) */
    unsigned order_errors; /* times: pairs of a sweep (same device, family, name)
                              whose measured times differ by more than the tolerance
                              but are predicted the other way round; speedups: rows
                              with order_ok 0 */
} gp_score_stats_t;

/* Summarise the rows matching `f` (NULL: all rows). */
GP_API void gp_score_stats(const gp_score_t *s, const gp_score_filter_t *f,
                           gp_score_stats_t *out);

/* The headline group of a table: its independent rows. */
#define GP_SCORE_HEADLINE (1u << GP_KIND_INDEPENDENT)

/* Times tables: the i-th wrongly ordered pair of sweep rows (indexes of
   gp_score_row, *faster_measured first). Returns 0, or -1 past the end. */
GP_API int gp_score_order_error(const gp_score_t *s, size_t i, size_t *faster_measured,
                                size_t *slower_measured);

/* ------------------------------------------------------------ leave one family out */

/*
 * A few model constants were set from rows of the H200 calibration table
 * (constants.h says which, and from which families). The leave-one-family-out
 * run asks how much the model owes to each family: for every family F of a
 * times table, each constant set from F is refitted on the table's rows
 * without F (its fitting rule: the value in its search range with the least
 * mean absolute percentage error over the rows of the families it was set
 * from, F left out; when F was the only one of them in the table, over every
 * other family's rows), the others keep their shipped values, and F's rows
 * are predicted with the refitted constants. Rows that give the same error
 * at every value tried cannot set a constant: it keeps its shipped value
 * (GP_LOFO_FLAT). A family no constant was set from is predicted with the
 * shipped constants: its numbers are those of
 * gp_score_table. Only independent rows are used (rows of opts->source when
 * given; opts->family: report that family alone). The refitted values live
 * only inside the run (this thread); nothing else sees them.
 */
typedef struct gp_lofo gp_lofo_t;

/* A row-fitted constant. */
typedef struct gp_lofo_const {
    const char *name;      /* its macro in constants.h */
    double shipped;        /* the value in constants.h */
    double lo, hi;         /* search range */
    int log_scale;         /* 1: searched in log(value) */
    const char *families;  /* the calibration families it was set from, space-separated */
    const char *rows;      /* which of their rows decided it */
    unsigned fit_rows;     /* rows of those families in the table (0: none; never refitted) */
    double refit_all;      /* the rule on all of them, nothing left out (NaN when fit_rows 0) */
    int refit_all_flat;    /* 1: those rows do not depend on it (refit_all is the shipped value) */
} gp_lofo_const_t;

/* How a constant was set for a family left out. */
typedef enum gp_lofo_how {
    GP_LOFO_SHIPPED = 0,   /* not set from the family: the shipped value */
    GP_LOFO_REFIT,         /* refitted on its other families' rows */
    GP_LOFO_REFIT_OTHERS,  /* the family was its only one here: refitted on every other
                              family's rows */
    GP_LOFO_FLAT           /* the rows it would be refitted on do not depend on it (the
                              same error at every value tried): the shipped value */
} gp_lofo_how_t;

/* One family left out (or, from gp_lofo_overall, every row, each predicted
   with its own family left out; family NULL). */
typedef struct gp_lofo_family {
    const char *family;
    unsigned rows;            /* independent rows */
    unsigned predicted;       /* of them predicted both ways */
    double mape_shipped_pct;  /* with the shipped constants */
    double mape_lofo_pct;     /* with the constants refitted without the family */
    unsigned within_2x_shipped, within_2x_lofo;
    int refitted;             /* 1 when some constant was refitted without the family
                                 (GP_LOFO_REFIT or GP_LOFO_REFIT_OTHERS) */
    /* per constant (gp_lofo_const_count entries; NULL for the overall line) */
    const double *values;     /* the value used */
    const gp_lofo_how_t *how;
    const unsigned *fit_rows; /* rows it was refitted on (0 when shipped) */
} gp_lofo_family_t;

/*
 * Run it on a times table (a speedup table is an error). Returns 0, or -1
 * with err (not a times table, out of memory). Rows that cannot be predicted
 * are left out of the figures; gp_score_table reports them. Each fit costs
 * GP_LOFO_EVALS predictions of its rows. The caller releases *out with
 * gp_lofo_free; *out keeps pointers into `t`, which must outlive it.
 */
#define GP_LOFO_EVALS 23
GP_API int gp_lofo_run(const gp_table_t *t, const gp_score_opts_t *opts, gp_lofo_t **out,
                       gp_error_t *err);
GP_API void gp_lofo_free(gp_lofo_t *l);
GP_API size_t gp_lofo_const_count(const gp_lofo_t *l);
/* Constant i, or NULL past the end. */
GP_API const gp_lofo_const_t *gp_lofo_const(const gp_lofo_t *l, size_t i);
/* Families in table order. */
GP_API size_t gp_lofo_family_count(const gp_lofo_t *l);
/* Family i, or NULL past the end. */
GP_API const gp_lofo_family_t *gp_lofo_family(const gp_lofo_t *l, size_t i);
/* Every reported row together. */
GP_API const gp_lofo_family_t *gp_lofo_overall(const gp_lofo_t *l);

#ifdef __cplusplus
}
#endif

#endif /* GPUPERF_GPUPERF_H */
