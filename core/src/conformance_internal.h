/*
 * conformance_internal.h - what the parts of the conformance run share:
 * recording violations, describing inputs, calling the plugin while the
 * call in progress is known.
 */
#ifndef GP_CONFORMANCE_INTERNAL_H
#define GP_CONFORMANCE_INTERNAL_H

#include "conformance.h"

/* Relative slack for "never lower/higher" comparisons of times: floating
   point sums in a different order may differ in the last bits. */
#define GP_CONF_REL_EPS 1e-9

/* Count one examined case of a check. */
void gp_conf_case(gp_conf_report_t *r, uint32_t check);

/* Record a violation of check on dev, with the inputs (printf format for
   `what`). */
void gp_conf_violate(gp_conf_report_t *r, uint32_t check, const gp_device_t *dev,
                     const char *inputs, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Add a note (printf format). */
void gp_conf_note(gp_conf_report_t *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "threads=256 (256x1x1) regs=32 smem=0+4096 cache=prefer_l1 carveout=50". */
void gp_conf_describe_launch(const gp_launch_t *l, char *out, size_t size);

/* "load global unit elem=4 count=1 ilp=1 ..." */
void gp_conf_describe_op(const gp_op_t *op, char *out, size_t size);

/* "blocks=4 warps_sm=32 active_sms=132 dram_share=0.00758 ..." */
void gp_conf_describe_res(const gp_residency_t *res, char *out, size_t size);

/* Calls into the plugin, with the call in progress recorded. Each returns
   the callback's status; err receives its message (NUL-terminated). */
int gp_conf_call_occupancy(const gp_arch_t *a, const gp_device_t *dev, const gp_launch_t *l,
                           gp_occupancy_t *out, char *err, size_t errlen);
int gp_conf_call_op_cost(const gp_arch_t *a, const gp_device_t *dev, const gp_kernel_t *k,
                         const gp_op_t *op, const gp_occupancy_t *occ,
                         const gp_residency_t *res, gp_op_cost_t *out, char *err,
                         size_t errlen);
int gp_conf_call_block_cost(const gp_arch_t *a, const gp_device_t *dev, const gp_kernel_t *k,
                            const gp_occupancy_t *occ, const gp_residency_t *res,
                            gp_block_cost_t *out, char *err, size_t errlen);
int gp_conf_call_arch_info(const gp_arch_t *a, const gp_device_t *dev, gp_arch_info_t *out,
                           char *err, size_t errlen);

/* A launch of `threads` threads (a 1-D block), regs registers per thread,
   smem bytes of dynamic shared memory, a grid of grid_x blocks. */
gp_launch_t gp_conf_launch(uint64_t threads, uint32_t regs, uint64_t smem, uint64_t grid_x);

/* The parts of a run (conformance_occ.c, conformance_cost.c). */
void gp_conf_run_occupancy(const gp_arch_t *a, const gp_device_t *dev, gp_conf_report_t *r);
void gp_conf_run_costs(const gp_arch_t *a, const gp_device_t *dev, gp_conf_report_t *r);

#endif /* GP_CONFORMANCE_INTERNAL_H */
