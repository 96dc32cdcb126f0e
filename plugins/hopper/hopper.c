/*
 * hopper.c - the architecture plugin for compute capability 9.0 (GH100:
 * H100, H200).
 *
 * Hopper is data only: NVIDIA's occupancy rules for 9.0, the sectored
 * memory system it shares with 8.x (../common/sectored.h), its mma.sync
 * shapes and its concurrency. Timing numbers (lanes, latencies, bandwidths)
 * come from the device file; the arithmetic is the core's.
 */
#include "gpuperf/plugin.h"

#include "../common/op_rules.h"
#include "../common/sectored.h"

/* Warp operations and division ([../common/op_rules.h]). */
static const gp_op_rule_t OPS_90[GP_OP_KIND_COUNT] = {GP_WARP_OP_RULES};

/* cuda_occupancy.h, CC 9.x ([sources: occ-h12]): the carve-outs 0..228
   KiB and two block barriers per resident-block slot. */
static const gp_alloc_rules_t ALLOC_90 = {
    GP_SECTORED_ALLOC_UNITS,
    .carveout_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228},
    .n_carveouts = 10,
    .barriers_per_block_slot = 2,
};

/* The L2 is two partitions, each caching the data of the SMs in the GPCs
   wired to it, as on the A100 ([sources: wp-a100] "L2 cache"): a working
   set beyond one partition's half is served by the far one. The H200's
   chase sweep shows the step at half the L2: 281 cycles at 4 MiB, 394-437
   at 32 MiB, DRAM at 64 MiB ([sources: h200-calibrated] run3 chase rows). */
/* Warp-uniform atomics aggregate as on 8.x (ampere.c; on the H200 an int
   atomicAdd on a kernel-argument address compiles to REDUX.SUM + one RED
   per warp). */
/* Shared-memory accesses wider than a bank are served in groups of lanes
   whose results come to 256 bytes (16 lanes of LDS.128 or ldmatrix, a whole
   warp of LDS.64), each group taking as many passes as the most distinct
   words one bank holds for it: on the H200 an LDS.64 broadcast takes one
   pass (a cycle), an LDS.128 broadcast two, conflict-free LDS.64 / LDS.128
   two / four, strides of 2 and 4 elements twice and four times that, and
   an ldmatrix.x4 of rows 32 bytes apart eight (48 bytes apart: four)
   ([sources: h200-cal] smem lds*, wmma_lds* rows; the fixed phases of
   GP_BANK_WIDE_PHASES give the broadcasts four and two passes). The L1's
   cached requests and the shared-memory passes are wavefronts of the one
   L1TEX data pipeline ([sources: nvforum-wavefronts]): their cycles add
   (l1_shared_one_path; the calibration set's tiled SGEMM and transposes,
   [sources: h200-cal] app and transpose rows). */
static const gp_mem_rules_t MEM_90 = {GP_SECTORED_MEM_FIELDS, .l2_partitions = 2,
                                      .aggregates_uniform_atomics = 1,
                                      .bank_wide = GP_BANK_WIDE_RESULT_GROUPS,
                                      .bank_result_bytes = 256, .l1_shared_one_path = 1};

/* mma.sync on 9.0 keeps the 8.x shapes. Without a measured latency
   ([latency] tensor_cycles) an instruction is taken to wait 32 cycles: an
   assumption the model has carried since its first version, not a
   measurement; tools/calibrate measures the H200's. */
static const gp_tensor_rules_t TENSOR_90 = {
    .shape = {GP_MMA_SYNC_16BIT, GP_MMA_SYNC_FP64, GP_MMA_SYNC_FP8},
    .default_latency_cycles = 32,
};

static const gp_generation_t GENS[] = {
    {.cc = {9, 0},
     .chips = "GH100",
     .alloc = &ALLOC_90,
     .mem = &MEM_90,
     .ops = OPS_90,
     .tensor = &TENSOR_90,
     .info = {.max_concurrent_kernels = GP_CONCURRENT_KERNELS_7X}},
};

static const gp_plugin_t DESCRIPTOR = {
    .abi_major = GP_ABI_MAJOR,
    .abi_minor = GP_ABI_MINOR,
    .name = "hopper",
    .description = "NVIDIA Hopper (GH100: H100, H200), compute capability 9.0",
    .version = "2.0",
    .gens = GENS,
    .n_gens = sizeof GENS / sizeof GENS[0],
};

/* The one exported symbol. */
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return &DESCRIPTOR;
}
