/*
 * hopper.c - the architecture plugin for compute capability 9.0 (GH100:
 * H100, H200).
 *
 * The rules are data: NVIDIA's occupancy rules for 9.0 (cuda_occupancy.h of
 * CUDA 12/13) and the memory system of a sectored, unified L1/shared SM with
 * an L2 in front of HBM. Timing numbers (lanes, latencies, bandwidths) come
 * from the device file; the arithmetic is the host's common model.
 */
#include <string.h>

#include "gpuperf/plugin.h"

static const gp_plugin_t DESCRIPTOR;

/* cuda_occupancy.h, CC 9.x: registers per warp in units of 256 over four
   sub-partitions; 255 registers per thread (Programming Guide, Table
   "Technical Specifications per Compute Capability"); shared memory in 128-byte
   units with the carve-outs 0..228 KiB; two block barriers per block slot. */
static const gp_alloc_rules_t RULES_90 = {
    .reg_granularity = GP_REG_ALLOC_WARP,
    .reg_alloc_unit = 256,
    .warp_alloc_granularity = 4,
    .max_regs_per_thread = 255,
    .smem_alloc_unit = 128,
    .max_blocks_per_sm = 32,
    .carveout_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228},
    .n_carveouts = 10,
    .barriers_per_sm_per_block_slot = 2,
};

/* Hopper's memory system: per-warp coalescing into 32-byte sectors; global
   loads cached in the unified L1 (Programming Guide 9.0 section: "same as
   5.x" sectors, L1 caching default since 6.0); 32 banks of 4 bytes resolved
   per warp; cp.async from 8.0 on; atomics performed in L2. */
static const gp_mem_rules_t MEM_90 = {
    .coalesce_threads = 32,
    .segment_bytes = {32, 32, 32, 32, 32},
    .min_segment_bytes = 32,
    .strict_coalescing = 0,
    .has_l2 = 1,
    .l1_caches_global = 1,
    .l1_segment_bytes = 32,
    .local_in_l1 = 1,
    .banks = 32,
    .bank_bytes = 4,
    .bank_threads = 32,
    .has_async_copy = 1,
    .atomics_in_l2 = 1,
};

/* Facet 1: occupancy by NVIDIA's rules for 9.0. */
static int hopper_occupancy(const gp_host_t *host, const gp_device_t *dev,
                            const gp_launch_t *launch, gp_occupancy_t *out, char *err,
                            size_t errlen)
{
    return host->occupancy_standard(dev, launch, &RULES_90, out, err, errlen);
}

/* Facets 2 and 3: the common op cost under Hopper's memory rules. */
static int hopper_op_cost(const gp_host_t *host, const gp_device_t *dev,
                          const gp_kernel_t *kernel, const gp_op_t *op,
                          const gp_occupancy_t *occ, const gp_residency_t *res,
                          gp_op_cost_t *out, char *err, size_t errlen)
{
    return host->op_cost_standard(dev, kernel, op, occ, res, &MEM_90, out, err, errlen);
}

/* A block's cost: the common model. */
static int hopper_block_cost(const gp_host_t *host, const gp_device_t *dev,
                             const gp_kernel_t *kernel, const gp_occupancy_t *occ,
                             const gp_residency_t *res, gp_block_cost_t *out, char *err,
                             size_t errlen)
{
    return host->block_cost_standard(&DESCRIPTOR, dev, kernel, occ, res, out, err, errlen);
}

/* Up to 128 kernels run at once from compute capability 7.0 on
   (Programming Guide, "Concurrent Kernel Execution" / Table 27). */
static int hopper_arch_info(const gp_host_t *host, const gp_device_t *dev,
                            gp_arch_info_t *out, char *err, size_t errlen)
{
    (void)host;
    (void)dev;
    (void)err;
    (void)errlen;
    memset(out, 0, sizeof *out);
    out->max_concurrent_kernels = 128;
    return 0;
}

static const gp_plugin_t DESCRIPTOR = {
    .abi_major = GP_ABI_MAJOR,
    .abi_minor = GP_ABI_MINOR,
    .name = "hopper",
    .description = "NVIDIA Hopper (GH100: H100, H200), compute capability 9.0",
    .version = "1.0",
    .n_ccs = 1,
    .ccs = {{9, 0}},
    .params = NULL,
    .n_params = 0,
    .occupancy = hopper_occupancy,
    .op_cost = hopper_op_cost,
    .block_cost = hopper_block_cost,
    .arch_info = hopper_arch_info,
    .check_device = NULL,
};

/* The one exported symbol. */
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return &DESCRIPTOR;
}
