/*
 * script.h - the Lua (LuaJIT) workload front end.
 *
 * A script runs sandboxed in a state of its own: only the safe parts of the
 * base, string, table and math libraries, one namespaced global `gpuperf`,
 * and `require` of .lua files in the script's own folder. An instruction
 * budget and a memory cap end runaway scripts. Every error message starts
 * with "script.lua:LINE:" and carries a traceback.
 *
 * A gp_script_t is compiled once and may be evaluated many times (sweeps):
 * each evaluation runs the chunk in a fresh global environment.
 */
#ifndef GP_SCRIPT_H
#define GP_SCRIPT_H

#include <stddef.h>
#include <stdint.h>

#include "gpuperf/plugin.h"
#include "util.h"
#include "workload.h"

/* Default limits (command-line options may change them). */
#define GP_SCRIPT_DEFAULT_BUDGET 200000000ULL      /* VM instructions */
#define GP_SCRIPT_DEFAULT_MEMORY (256ULL << 20)    /* bytes */

/* One -p key=value given on the command line. */
typedef struct gp_param_kv {
    const char *key;
    const char *value; /* text as given; numbers accept 2^24, 4*2^20, 1e6 */
    /* optional: what gp_parse_number reads from value, where the caller has
       read it already (a sweep, once per value instead of once per point);
       NULL: the script reads value itself */
    const double *number;
} gp_param_kv_t;

typedef struct gp_script_opts {
    uint64_t instruction_budget; /* 0: default */
    uint64_t memory_cap_bytes;   /* 0: default */
} gp_script_opts_t;

typedef struct gp_script gp_script_t;

/* Load and compile a script. Returns NULL with err set on failure
   (missing file, syntax error as "file:line: message"). */
gp_script_t *gp_script_open(const char *path, const gp_script_opts_t *opts,
                            gp_err_t *err);

/*
 * Run the script for one device and parameter set, filling *out (which the
 * caller frees with gp_workload_free). `dev` is what the script reads as
 * gpuperf.device. A -p key the script does not declare is an error that
 * lists the declared ones. Returns 0, or -1 with err set; *out is left
 * empty on error.
 */
int gp_script_eval(gp_script_t *s, const gp_device_t *dev,
                   const gp_param_kv_t *params, size_t n_params,
                   gp_workload_t *out, gp_err_t *err);

/*
 * Evaluate the script for n identical devices (1..GP_WL_MAX_DEVICES) from
 * now on: gpuperf.device_count reads n, commands may target devices 0..n-1,
 * and the workload's n_devices is n. 0 restores the default (one device,
 * which a script may change with gpuperf.use_devices). Returns 0, or -1 with
 * err set when n is out of range.
 */
int gp_script_set_devices(gp_script_t *s, uint32_t n, gp_err_t *err);

/* Close the script and its Lua state. NULL is fine. */
void gp_script_close(gp_script_t *s);

/* Convenience: open, eval once, close. */
int gp_script_run(const char *path, const gp_script_opts_t *opts,
                  const gp_device_t *dev, const gp_param_kv_t *params,
                  size_t n_params, gp_workload_t *out, gp_err_t *err);

#endif /* GP_SCRIPT_H */
