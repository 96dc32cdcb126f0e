/*
 * ampere.c - the architecture plugin for compute capability 8.x: GA100
 * (8.0: A100), GA10x (8.6: RTX 30xx, A40), GA10B (8.7: Jetson Orin) and
 * AD10x (8.9: RTX 40xx, L40).
 *
 * Ampere is data only. What it shares with Hopper (the sectored memory
 * system, the occupancy units, the mma.sync shapes) comes from
 * ../common/sectored.h; what sets each minor version apart is in its row
 * below: the block limit and carve-out steps, whether the INT32 lanes are a
 * share of the FP32 lanes, and which tensor-core operand types exist.
 */
#include "gpuperf/plugin.h"

#include "../common/op_rules.h"
#include "../common/sectored.h"

/* Warp operations and division ([../common/op_rules.h]). */
static const gp_op_rule_t OPS_8X[GP_OP_KIND_COUNT] = {GP_WARP_OP_RULES};

/* Carve-out steps, cudaOccAlignUpShmemSizeVoltaPlus of cuda_occupancy.h
   ([sources: occ-h12]): up to 164 KiB on GA100 and GA10B (which has
   GA100's 192 KiB L1/shared array), up to 100 KiB on GA10x and AD10x.
   No block-barrier limit: it applies from major 9 on. */
static const gp_alloc_rules_t ALLOC_164 = {GP_SECTORED_ALLOC_UNITS,
                                           .carveout_kib = {0, 8, 16, 32, 64, 100, 132, 164},
                                           .n_carveouts = 8};
static const gp_alloc_rules_t ALLOC_100 = {
    GP_SECTORED_ALLOC_UNITS, .carveout_kib = {0, 8, 16, 32, 64, 100}, .n_carveouts = 6};

/* From CUDA 9 on nvcc aggregates the atomics of a warp on one address into
   one per warp ([sources: nvidia-warp-aggregated], the note at the top);
   the integer add of a value does it with a warp reduce (redux.sync, sm_80
   on: [sources: ptx] "redux.sync"), so gpuperf takes it from 8.0 on. */
static const gp_mem_rules_t MEM_8X = {GP_SECTORED_MEM_FIELDS, .bank_wide = GP_BANK_WIDE_PHASES,
                                      .aggregates_uniform_atomics = 1};

/* GA10x, GA10B and AD10x: 128 FP32 lanes of which 64 also run INT32 (one of
   the two 16-lane datapaths per sub-partition runs FP32 or INT32;
   [sources: pg-l] "Compute Capability 8.x"; [sources: wp-ga102]), so an
   INT32 instruction also takes FP32 capacity. GA100 has separate INT32
   lanes. */
static const gp_issue_rules_t ISSUE_SHARED_INT = {.int_takes_fp32 = 1};

/* Tensor operand types per chip ([sources: ptx]: mma .f64 m8n8k4 on
   sm_80 only among 8.x, .e4m3/.e5m2 from sm_89). */
#define FP64_HINT "FP64 MMA is a GA100, 8.0, feature"
#define FP8_HINT "FP8 MMA arrived with 8.9"
static const gp_tensor_rules_t TENSOR_GA100 = {
    .shape = {GP_MMA_SYNC_16BIT, GP_MMA_SYNC_FP64},
    .missing_hint = {[GP_TENSOR_FP8] = FP8_HINT},
};
static const gp_tensor_rules_t TENSOR_GA10X = {
    .shape = {GP_MMA_SYNC_16BIT},
    .missing_hint = {[GP_TENSOR_FP64] = FP64_HINT, [GP_TENSOR_FP8] = FP8_HINT},
};
static const gp_tensor_rules_t TENSOR_AD10X = {
    .shape = {GP_MMA_SYNC_16BIT, GP_MMA_SYNC_FP8},
    .missing_hint = {[GP_TENSOR_FP64] = FP64_HINT},
};

#define INFO_8X {.max_concurrent_kernels = GP_CONCURRENT_KERNELS_7X}

static const gp_generation_t GENS[] = {
    {.cc = {8, 0}, .chips = "GA100", .alloc = &ALLOC_164, .mem = &MEM_8X, .ops = OPS_8X,
     .tensor = &TENSOR_GA100, .info = INFO_8X},
    {.cc = {8, 6}, .chips = "GA10x", .alloc = &ALLOC_100, .mem = &MEM_8X, .ops = OPS_8X,
     .issue = &ISSUE_SHARED_INT, .tensor = &TENSOR_GA10X, .info = INFO_8X},
    {.cc = {8, 7}, .chips = "GA10B", .alloc = &ALLOC_164, .mem = &MEM_8X, .ops = OPS_8X,
     .issue = &ISSUE_SHARED_INT, .tensor = &TENSOR_GA10X, .info = INFO_8X},
    {.cc = {8, 9}, .chips = "AD10x", .alloc = &ALLOC_100, .mem = &MEM_8X, .ops = OPS_8X,
     .issue = &ISSUE_SHARED_INT, .tensor = &TENSOR_AD10X, .info = INFO_8X},
};

static const gp_plugin_t DESCRIPTOR = {
    .abi_major = GP_ABI_MAJOR,
    .abi_minor = GP_ABI_MINOR,
    .name = "ampere",
    .description = "NVIDIA Ampere and Ada (GA100, GA10x, GA10B, AD10x), compute capability "
                   "8.0, 8.6, 8.7, 8.9",
    .version = "2.0",
    .gens = GENS,
    .n_gens = sizeof GENS / sizeof GENS[0],
};

/* The one exported symbol. */
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return &DESCRIPTOR;
}
