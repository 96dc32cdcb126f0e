/*
 * blockcost.h - the cost of one block of a kernel at a residency: the
 * core's walk over the kernel's ops (blockcost.c), each op costed by
 * gp_op_cost, combined into latency, pipe-throughput and memory terms.
 */
#ifndef GP_BLOCKCOST_H
#define GP_BLOCKCOST_H

#include "gpuperf/plugin.h"
#include "opmemo.h"

/* The block cost of `kernel` on `dev` (generation `gen` of plugin `plugin`)
   with res->blocks blocks sharing an SM, never less than the same kernel's
   with every load independent (blockcost.c independent_floor). 0, or -1
   with err. */
int gp_block_cost_default(const gp_plugin_t *plugin, const gp_generation_t *gen,
                          const gp_device_t *dev, const gp_kernel_t *kernel,
                          const gp_occupancy_t *occ, const gp_residency_t *res,
                          gp_block_cost_t *out, char *err, size_t errlen);

/* The same, with the kernel's op costs kept in memo (the caller's; NULL:
   none) for the next residency of the same running kernel. */
int gp_block_cost_memo(const gp_plugin_t *plugin, const gp_generation_t *gen,
                       const gp_device_t *dev, const gp_kernel_t *kernel,
                       const gp_occupancy_t *occ, const gp_residency_t *res, gp_op_memo_t *memo,
                       gp_block_cost_t *out, char *err, size_t errlen);

#endif /* GP_BLOCKCOST_H */
