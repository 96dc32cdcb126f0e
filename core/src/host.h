/*
 * host.h - the host services handed to plugins (gp_host_t) and the shared
 * model arithmetic behind them. Plugins reach these only through gp_host();
 * the core and tests may call them directly.
 */
#ifndef GP_HOST_H
#define GP_HOST_H

#include "gpuperf/plugin.h"

/* The occupancy computation of NVIDIA's calculators, parameterised by rules. */
int gp_occupancy_standard(const gp_device_t *dev, const gp_launch_t *launch,
                          const gp_alloc_rules_t *rules, gp_occupancy_t *out,
                          char *err, size_t errlen);

/* Distinct segments touched by `threads` threads (see gp_host_t.coalesce). */
double gp_coalesce(const gp_access_t *acc, uint32_t threads, uint32_t segment_bytes,
                   uint32_t min_segment_bytes, double *bytes);

/* Shared-memory passes of one access (see gp_host_t.bank_conflicts). */
double gp_bank_conflicts(const gp_access_t *acc, uint32_t threads, uint32_t banks,
                         uint32_t bank_bytes);

/* Hit fraction of re-reads in a cache (see gp_host_t.reuse_hit_rate). */
double gp_reuse_hit_rate(double footprint_bytes, double accessed_bytes, double cache_bytes);

/* The common block-cost model (model.c). */
int gp_block_cost_standard(const gp_plugin_t *plugin, const gp_device_t *dev,
                           const gp_kernel_t *kernel, const gp_occupancy_t *occ,
                           const gp_residency_t *res, gp_block_cost_t *out, char *err,
                           size_t errlen);

/* The common op cost (opcost.c). */
int gp_op_cost_standard(const gp_device_t *dev, const gp_kernel_t *kernel, const gp_op_t *op,
                        const gp_occupancy_t *occ, const gp_residency_t *res,
                        const gp_mem_rules_t *rules, gp_op_cost_t *out, char *err,
                        size_t errlen);

/* Accesses per thread of one op over the whole grid, bytes (for reuse). */
double gp_op_grid_bytes(const gp_kernel_t *kernel, const gp_op_t *op);

#endif /* GP_HOST_H */
