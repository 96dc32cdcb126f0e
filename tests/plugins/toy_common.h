/*
 * toy_common.h - a minimal working plugin the test plugins start from: one
 * generation described as data, the core doing the rest. Each test plugin
 * defines TOY_NAME and may override TOY_* macros.
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

static const gp_alloc_rules_t TOY_RULES = {
    .reg_granularity = GP_REG_ALLOC_WARP, .reg_alloc_unit = 256, .warp_alloc_granularity = 4,
    .max_regs_per_thread = 255, .smem_alloc_unit = 128,
    .carveout_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, .n_carveouts = 10};

static const gp_mem_rules_t TOY_MEM = {
    .coalesce_threads = 32, .segment_bytes = {32, 32, 32, 32, 32}, .min_segment_bytes = 32,
    .has_l2 = 1, .l1_global = GP_L1_GLOBAL_DEFAULT_ON, .l1_global_writes = 1,
    .l1_segment_bytes = 32, .local_in_l1 = 1, .banks = 32, .bank_bytes = 4, .bank_threads = 32,
    .atomics_in_l2 = 1};

static const gp_generation_t TOY_GENS[] = {
    {.cc = {9, 0},
     .alloc = &TOY_RULES,
#ifndef TOY_NO_MEM
     .mem = &TOY_MEM,
#endif
     .info = {.max_concurrent_kernels = 4}},
};

#ifdef TOY_NAN_OCCUPANCY
/* An occupancy whose fraction is not a number. */
static int toy_occupancy(const gp_host_t *h, const gp_generation_t *g, const gp_device_t *d,
                         const gp_launch_t *l, gp_occupancy_t *o, char *e, size_t n)
{
    (void)h, (void)g, (void)e, (void)n;
    o->blocks_per_sm = 1;
    o->warps_per_block = (uint32_t)((l->threads_per_block + d->warp_size - 1) / d->warp_size);
    o->active_warps = o->warps_per_block;
    o->max_warps = d->max_threads_per_sm / d->warp_size;
    o->limiter = GP_LIMIT_BLOCKS;
    o->occupancy = NAN;
    return 0;
}
#endif

#ifdef TOY_NEGATIVE_TIME
/* A block that ends before it starts. */
static int toy_block_cost(const gp_host_t *h, const gp_generation_t *g, const gp_device_t *d,
                          const gp_kernel_t *k, const gp_occupancy_t *occ,
                          const gp_residency_t *r, gp_block_cost_t *out, char *e, size_t n)
{
    (void)h, (void)g, (void)d, (void)k, (void)occ, (void)r, (void)e, (void)n;
    out->time_cycles = -1;
    return 0;
}
#endif

#ifdef TOY_PARAMS
static const gp_param_spec_t TOY_PARAM_LIST[] = {
    {"slowdown_factor", 0.5, 10, 1.0, 0, "an optional key with a default"},
    {"mystery_cycles", 0, 1000, 0, 1, "required by the toy"},
};
#endif

static const gp_plugin_t DESCRIPTOR = {
    .abi_major = TOY_ABI_MAJOR,
    .abi_minor = TOY_ABI_MINOR,
    .name = TOY_NAME,
    .description = "test plugin",
    .version = "0",
    .gens = TOY_GENS,
    .n_gens = 1,
#ifdef TOY_PARAMS
    .params = TOY_PARAM_LIST,
    .n_params = 2,
#endif
#ifdef TOY_NAN_OCCUPANCY
    .occupancy = toy_occupancy,
#endif
#ifdef TOY_NEGATIVE_TIME
    .block_cost = toy_block_cost,
#endif
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
