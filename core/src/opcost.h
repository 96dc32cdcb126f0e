/*
 * opcost.h - the cost of one warp-wide op (gp_op_cost_t): the core's own
 * arithmetic from the device file and the generation's rules, and the one
 * entry point that lets a plugin's op_cost callback answer first.
 */
#ifndef GP_OPCOST_H
#define GP_OPCOST_H

#include "gpuperf/plugin.h"

/* The cost of one op (never LOOP or DIVERGE) on a device of generation g:
   the plugin's op_cost where it has one and does not defer, else the
   core's; then the generation's issue slot as a floor. */
int gp_op_cost(const gp_plugin_t *p, const gp_generation_t *g, const gp_device_t *d,
               const gp_kernel_t *k, const gp_op_t *op, const gp_occupancy_t *occ,
               const gp_residency_t *res, gp_op_cost_t *out, char *err, size_t errlen);

/* The core's own cost of one op under generation g's rules. */
int gp_op_cost_default(const gp_generation_t *g, const gp_device_t *d, const gp_kernel_t *k,
                       const gp_op_t *op, const gp_occupancy_t *occ, const gp_residency_t *res,
                       gp_op_cost_t *out, char *err, size_t errlen);

/* The part of a residency gp_op_cost_default reads, into *key (every other
   field 0): two residencies with the same key give every op the same core
   cost, which lets a caller keep op costs across the residencies of one
   launch (opmemo.c). A rule that reads another field of the residency must
   copy it here too. */
void gp_op_cost_default_res_key(const gp_residency_t *res, gp_residency_t *key);

/* 0 if the device's generation has the op's instruction, else -1 with a
   message naming the compute capability that brought it. */
int gp_op_available(const gp_generation_t *g, const gp_device_t *d, const gp_op_t *op,
                    char *err, size_t errlen);

/* Issue-pipe cycles one warp instruction of op takes (gp_issue_rules_t). */
double gp_issue_cycles(const gp_generation_t *g, const gp_device_t *d, const gp_op_t *op);

/* Bytes one op accesses over the grid (gp_host_t.op_grid_bytes). */
double gp_op_grid_bytes(const gp_kernel_t *kernel, const gp_op_t *op);

/* Over the warps a sample holds: the active lanes (offsets >= 0) of them all
   into *lanes and the warps with an active lane into *issuing; 0 where the
   sample holds no offsets (both left 0). */
int gp_sample_lanes(const gp_lane_sample_t *s, double *lanes, double *issuing);

/* 1 when the op after atomic `op` waits for it (a used result, or a
   compare-and-swap loop); 0 for a fire-and-forget atomic and other ops. */
int gp_atomic_waits(const gp_device_t *d, const gp_op_t *op);

/* Hit fraction of re-reads in a cache (gp_host_t.reuse_hit_rate). */
double gp_reuse_hit_rate(double footprint_bytes, double accessed_bytes, double cache_bytes);

#endif /* GP_OPCOST_H */
