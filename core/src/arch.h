/*
 * arch.h - loading architecture plugins and calling them safely.
 *
 * Plugins are shared objects found on the plugin search path (paths.h) as
 * NAME.so. Each is opened with dlopen(RTLD_NOW | RTLD_LOCAL); its single
 * exported symbol GP_PLUGIN_SYMBOL must return a descriptor whose ABI major
 * equals ours, whose minor is not newer, and whose generation tables are
 * complete. A plugin's callbacks are optional: where one is NULL the core's
 * own occupancy (occupancy.h), op cost (opcost.h) and block cost
 * (blockcost.h) run on the generation's rules. Loaded plugins stay loaded for the life of the process (the
 * registry owns them); gp_arch_t pointers handed out remain valid until
 * gp_arch_unload_all().
 */
#ifndef GP_ARCH_H
#define GP_ARCH_H

#include "gpuperf/plugin.h"
#include "opmemo.h"
#include "paths.h"
#include "util.h"

typedef struct gp_arch {
    void *handle;
    const gp_plugin_t *plugin;
    char path[GP_PATH_MAX];
} gp_arch_t;

/* The host services handed to every plugin. */
const gp_host_t *gp_host(void);

/* Open and check one plugin file. On success the caller owns *out and
   releases it with gp_arch_close. */
int gp_arch_open_file(const char *path, gp_arch_t *out, gp_err_t *err);

/* Release a plugin opened with gp_arch_open_file. */
void gp_arch_close(gp_arch_t *a);

/* The plugin called `name`, loaded once from the search path and kept in the
   process-wide registry. NULL with err set when none loads. Thread-safe. */
const gp_arch_t *gp_arch_get(const char *name, gp_err_t *err);

/* Unload every registry plugin (at exit). */
void gp_arch_unload_all(void);

/* Visit every *.so on the plugin search path: `arch` is the opened plugin or
   NULL, with `error` saying why it did not load. Opened plugins are closed
   after the callback. */
typedef void (*gp_arch_scan_fn)(void *ud, const char *path, const gp_arch_t *arch,
                                const char *error);
void gp_arch_scan(gp_arch_scan_fn fn, void *ud);

/* 1 if the plugin serves compute capability major.minor. */
int gp_arch_serves(const gp_arch_t *a, uint32_t major, uint32_t minor);

/* The plugin's generation for compute capability major.minor, or NULL. */
const gp_generation_t *gp_arch_generation(const gp_arch_t *a, uint32_t major, uint32_t minor);

/* "8.0, 8.6, 8.9": the capabilities a plugin serves. */
void gp_arch_ccs_text(const gp_arch_t *a, char *out, size_t size);

/*
 * Unchecked calls, each the plugin's callback where it has one, else the
 * core's own on the device's generation (err: errlen bytes, a reason).
 */
int gp_arch_call_occupancy(const gp_arch_t *a, const gp_device_t *dev,
                           const gp_launch_t *launch, gp_occupancy_t *out, char *err,
                           size_t errlen);
int gp_arch_call_op_cost(const gp_arch_t *a, const gp_device_t *dev, const gp_kernel_t *k,
                         const gp_op_t *op, const gp_occupancy_t *occ,
                         const gp_residency_t *res, gp_op_cost_t *out, char *err,
                         size_t errlen);
int gp_arch_call_block_cost(const gp_arch_t *a, const gp_device_t *dev, const gp_kernel_t *k,
                            const gp_occupancy_t *occ, const gp_residency_t *res,
                            gp_block_cost_t *out, char *err, size_t errlen);
int gp_arch_call_check_device(const gp_arch_t *a, const gp_device_t *dev, char *err,
                              size_t errlen);

/*
 * Checked calls into a plugin: each validates what the plugin returned
 * (ranges, NaN, negative or zero times) and names the plugin in any error.
 */
int gp_arch_occupancy(const gp_arch_t *a, const gp_device_t *dev,
                      const gp_launch_t *launch, gp_occupancy_t *out, gp_err_t *err);
int gp_arch_block_cost(const gp_arch_t *a, const gp_device_t *dev,
                       const gp_kernel_t *k, const gp_occupancy_t *occ,
                       const gp_residency_t *res, gp_block_cost_t *out,
                       gp_err_t *err);
/* The same for a running kernel whose op costs memo keeps across the
   residencies it is asked at (the caller's; NULL: none). */
int gp_arch_block_cost_memo(const gp_arch_t *a, const gp_device_t *dev, const gp_kernel_t *k,
                            const gp_occupancy_t *occ, const gp_residency_t *res,
                            gp_op_memo_t *memo, gp_block_cost_t *out, gp_err_t *err);
int gp_arch_info(const gp_arch_t *a, const gp_device_t *dev, gp_arch_info_t *out,
                 gp_err_t *err);

/* Names for enums, for reports. */
const char *gp_limiter_name(uint32_t limiter);
const char *gp_bound_name(uint32_t bound);
const char *gp_pipe_name(uint32_t pipe);
const char *gp_op_kind_name(uint32_t kind);

#endif /* GP_ARCH_H */
