/*
 * conformance.h - the conformance run of `gpuperf plugin-check`: call every
 * callback of one plugin on a grid of launch shapes, kernels and devices and
 * check the invariants that every sane timing model keeps.
 *
 * A run is: gp_conf_report_init, gp_conf_descriptor (the descriptor beyond
 * what the loader checks), gp_conf_devices (the devices to check on, found
 * on the device search path or given), gp_conf_run_device for each, then the
 * caller prints the report and frees it with gp_conf_report_free. The
 * library prints nothing. A run keeps the call in progress in a process-wide
 * slot (gp_conf_current) so a crash handler of the program can say which
 * inputs made the plugin crash; one run at a time per process.
 *
 * The checks and what each one asks of a plugin are the table returned by
 * gp_conf_checks (docs/plugins.md explains them too).
 */
#ifndef GP_CONFORMANCE_H
#define GP_CONFORMANCE_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "gpuperf/plugin.h"
#include "util.h"

/* The invariants, in the order they are reported. */
typedef enum gp_conf_check_id {
    GP_CONF_DESCRIPTOR = 0,  /* descriptor fields beyond the loader's checks */
    GP_CONF_FILE_NAME,       /* the file is NAME.so, so `arch = NAME` finds it */
    GP_CONF_ARCH_INFO,       /* arch_info succeeds with sane facts */
    GP_CONF_PURE,            /* the same inputs give the same answer */
    GP_CONF_OCC_CALL,        /* occupancy never fails: an impossible launch is a result */
    GP_CONF_OCC_FIELDS,      /* the result's fields agree with each other */
    GP_CONF_OCC_HARDWARE,    /* resident blocks fit the SM's warps, blocks, registers, smem */
    GP_CONF_OCC_LIMITER,     /* limiter and per-resource limits agree with blocks_per_sm */
    GP_CONF_OCC_IMPOSSIBLE,  /* launches beyond the device's limits get 0 blocks */
    GP_CONF_OCC_MONOTONIC,   /* more registers, shared memory or threads: never more blocks */
    GP_CONF_OP_CALL,         /* op_cost accepts every op every generation has */
    GP_CONF_OP_VALID,        /* op costs finite, not negative, and not free */
    GP_CONF_BLOCK_CALL,      /* block_cost accepts kernels of such ops */
    GP_CONF_BLOCK_VALID,     /* block times positive and finite, bound known */
    GP_CONF_MORE_WORK,       /* doubling work never lowers the block time */
    GP_CONF_RESIDENCY,       /* more blocks or warps on the SM never finish sooner */
    GP_CONF_CLOCK,           /* a faster SM clock never slower in wall time */
    GP_CONF_BANDWIDTH,       /* more bandwidth, bandwidth share or L2 never slower */
    GP_CONF_ACCESS,          /* strides, bank conflicts, less ILP never faster */
    GP_CONF_N_CHECKS
} gp_conf_check_id_t;

/* One invariant: a stable id ("occupancy.monotonic") and what it requires. */
typedef struct gp_conf_check {
    const char *id;
    const char *requires;
} gp_conf_check_t;

/* The table of checks, GP_CONF_N_CHECKS entries. */
const gp_conf_check_t *gp_conf_checks(void);

/* One violation: which check, on which device, what broke, with what inputs. */
typedef struct gp_conf_violation {
    uint32_t check; /* gp_conf_check_id_t */
    char device[GP_NAME_MAX];
    char what[400];
    char inputs[600];
} gp_conf_violation_t;

/* What a run found. Owns its arrays; free with gp_conf_report_free. */
typedef struct gp_conf_report {
    uint64_t cases[GP_CONF_N_CHECKS];      /* inputs each check examined */
    uint64_t violations[GP_CONF_N_CHECKS]; /* how many broke it */
    gp_conf_violation_t *kept; /* the first max_kept of each check and device */
    size_t n_kept, cap_kept;
    uint32_t max_kept;
    char (*notes)[400]; /* things worth knowing that are not violations */
    size_t n_notes, cap_notes;
    uint64_t calls;     /* callback calls made */
    uint64_t refusals;  /* optional ops refused with a reason (allowed) */
    uint32_t n_devices; /* devices checked */
} gp_conf_report_t;

/* Start an empty report keeping at most max_kept violations per check and
   device (0: 5). */
void gp_conf_report_init(gp_conf_report_t *r, uint32_t max_kept);

/* Release what the report owns. */
void gp_conf_report_free(gp_conf_report_t *r);

/* Total violations of a report. */
uint64_t gp_conf_total_violations(const gp_conf_report_t *r);

/* Descriptor checks beyond the loader's: the file's name, the version and
   description, duplicate compute capabilities and [arch] keys, a stable
   entry point. `path` is the file the plugin was opened from. */
void gp_conf_descriptor(const gp_arch_t *a, const char *path, gp_conf_report_t *r);

/* A device to check on, and where it came from. */
typedef struct gp_conf_device {
    gp_device_t dev;
    char origin[400]; /* "devices/h200-sxm.ini", or how it was made */
} gp_conf_device_t;

/*
 * The devices to check plugin `a` on. With names (n_names > 0; device names
 * or .ini paths) each is loaded; a device written for another plugin is
 * adapted (its arch set to this plugin, [arch] keys at their defaults) when
 * this plugin serves its compute capability, else it is an error. Without
 * names: for every compute capability the plugin serves, the device files on
 * the search path that name the plugin; else those of that capability that
 * name another plugin, adapted; else a copy of a device of another
 * capability with compute_capability changed. Adapted and synthesised
 * devices must pass the plugin's check_device; each choice is noted in r.
 * On success *out is a malloc'd array of *n devices (caller frees); 0
 * devices is an error.
 */
int gp_conf_devices(const gp_arch_t *a, const char *const *names, size_t n_names,
                    gp_conf_device_t **out, size_t *n, gp_conf_report_t *r, gp_err_t *err);

/* Run every callback check of plugin `a` on one device. */
void gp_conf_run_device(const gp_arch_t *a, const gp_device_t *dev, gp_conf_report_t *r);

/* The callback call in progress ("" when none), for a crash handler. */
const char *gp_conf_current(void);

#endif /* GP_CONFORMANCE_H */
