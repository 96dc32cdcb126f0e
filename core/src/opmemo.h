/*
 * opmemo.h - the op costs of one running kernel, kept across the
 * residencies its block cost is asked at.
 *
 * The engine asks for a kernel's block cost at several residencies (a full
 * wave, a partial one, fewer SMs); each walks the kernel's ops and costs
 * every op again. An op's cost reads little of the residency (the core's
 * model: gp_op_cost_default_res_key; a plugin with its own op_cost: all of
 * it), so where that part is the same the costs are those of the last walk,
 * bit for bit. Builds without NDEBUG cost every op again and check that.
 */
#ifndef GP_OPMEMO_H
#define GP_OPMEMO_H

#include <stddef.h>
#include <stdint.h>

#include "gpuperf/plugin.h"

/* Zeroed: empty. The arrays are the memo's own (gp_op_memo_free). */
typedef struct gp_op_memo {
    const gp_op_t *ops;   /* the kernel's ops the costs are of; NULL: none */
    uint32_t n_ops, cap;  /* ops, and entries cost/have hold */
    gp_residency_t key;   /* the part of the residency the costs read */
    gp_op_cost_t *cost;   /* cap entries: ops[i]'s cost where have[i] */
    unsigned char *have;  /* cap flags, in cost's block */
} gp_op_memo_t;

/* Start a block cost of `kernel` at `res` (plugin `p` costs its ops):
   forgets the costs kept unless they were for the same ops at a residency
   with the same key. A memo that cannot grow keeps nothing (every op is
   costed as without one). */
void gp_op_memo_begin(gp_op_memo_t *m, const gp_plugin_t *p, const gp_kernel_t *kernel,
                      const gp_residency_t *res);

/* gp_op_cost of op (one of the kernel's ops, or another op: not kept)
   through memo m (NULL: none), after gp_op_memo_begin with the same kernel
   and residency; *kept: 1 where the cost is one kept from an earlier walk
   (which checked it: the caller resets the memo when a walk fails), else 0.
   0, or -1 with err. */
int gp_op_memo_cost(gp_op_memo_t *m, const gp_plugin_t *p, const gp_generation_t *g,
                    const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                    const gp_occupancy_t *occ, const gp_residency_t *res, gp_op_cost_t *out,
                    int *kept, char *err, size_t errlen);

/* Forget every cost kept (the kernel slot is given back). */
void gp_op_memo_reset(gp_op_memo_t *m);

/* Free the memo's arrays; it is empty afterwards. */
void gp_op_memo_free(gp_op_memo_t *m);

#endif /* GP_OPMEMO_H */
