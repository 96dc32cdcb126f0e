/*
 * toy_common.h - a minimal working plugin the test plugins start from.
 * Each test plugin defines TOY_NAME and may override TOY_* macros.
 */
#include <math.h>
#include <string.h>

#include "gpuperf/plugin.h"

#ifndef TOY_ABI_MAJOR
#define TOY_ABI_MAJOR GP_ABI_MAJOR
#endif
#ifndef TOY_ABI_MINOR
#define TOY_ABI_MINOR GP_ABI_MINOR
#endif

static const gp_plugin_t DESCRIPTOR;

static const gp_alloc_rules_t TOY_RULES = {
    .reg_granularity = GP_REG_ALLOC_WARP, .reg_alloc_unit = 256, .warp_alloc_granularity = 4,
    .max_regs_per_thread = 255, .smem_alloc_unit = 128,
    .carveout_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, .n_carveouts = 10};

static const gp_mem_rules_t TOY_MEM = {
    .coalesce_threads = 32, .segment_bytes = {32, 32, 32, 32, 32}, .min_segment_bytes = 32,
    .has_l2 = 1, .l1_caches_global = 1, .l1_segment_bytes = 32, .local_in_l1 = 1, .banks = 32,
    .bank_bytes = 4, .bank_threads = 32, .atomics_in_l2 = 1};

static int toy_occupancy(const gp_host_t *h, const gp_device_t *d, const gp_launch_t *l,
                         gp_occupancy_t *o, char *e, size_t n)
{
    int rc = h->occupancy_standard(d, l, &TOY_RULES, o, e, n);
#ifdef TOY_NAN_OCCUPANCY
    o->occupancy = NAN;
#endif
    return rc;
}

#ifndef TOY_NO_OP_COST
static int toy_op_cost(const gp_host_t *h, const gp_device_t *d, const gp_kernel_t *k,
                       const gp_op_t *op, const gp_occupancy_t *occ, const gp_residency_t *r,
                       gp_op_cost_t *out, char *e, size_t n)
{
    return h->op_cost_standard(d, k, op, occ, r, &TOY_MEM, out, e, n);
}
#endif

static int toy_block_cost(const gp_host_t *h, const gp_device_t *d, const gp_kernel_t *k,
                          const gp_occupancy_t *occ, const gp_residency_t *r,
                          gp_block_cost_t *out, char *e, size_t n)
{
    int rc = h->block_cost_standard(&DESCRIPTOR, d, k, occ, r, out, e, n);
#ifdef TOY_NEGATIVE_TIME
    out->time_cycles = -1;
#endif
    /* [arch] slowdown_factor scales every block (the toy's one rule) */
    if (DESCRIPTOR.n_params > 0)
        out->time_cycles *= d->arch_params[0];
    return rc;
}

static int toy_arch_info(const gp_host_t *h, const gp_device_t *d, gp_arch_info_t *o, char *e,
                         size_t n)
{
    (void)h;
    (void)d;
    (void)e;
    (void)n;
    memset(o, 0, sizeof *o);
    o->max_concurrent_kernels = 4;
    return 0;
}

#ifdef TOY_PARAMS
static const gp_param_spec_t TOY_PARAM_LIST[] = {
    {"slowdown_factor", 0.5, 10, 1.0, 0, "multiplies every block time"},
    {"mystery_cycles", 0, 1000, 0, 1, "required by the toy"},
};
#endif

static const gp_plugin_t DESCRIPTOR = {
    .abi_major = TOY_ABI_MAJOR,
    .abi_minor = TOY_ABI_MINOR,
    .name = TOY_NAME,
    .description = "test plugin",
    .version = "0",
    .n_ccs = 1,
    .ccs = {{9, 0}},
#ifdef TOY_PARAMS
    .params = TOY_PARAM_LIST,
    .n_params = 2,
#endif
    .occupancy = toy_occupancy,
#ifndef TOY_NO_OP_COST
    .op_cost = toy_op_cost,
#endif
    .block_cost = toy_block_cost,
    .arch_info = toy_arch_info,
};

#ifndef TOY_NULL_DESCRIPTOR
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return &DESCRIPTOR;
}
#else
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return NULL;
}
#endif
