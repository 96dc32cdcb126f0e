/*
 * sectored.h - rule tables shared by the plugins of generations whose SM has
 * a sectored, unified L1/shared array in front of an L2 (compute capability
 * 8.x and 9.0). One home for what those generations have in common; each
 * plugin adds only what sets its generation apart.
 */
#ifndef GP_PLUGINS_SECTORED_H
#define GP_PLUGINS_SECTORED_H

#include "gpuperf/plugin.h"

/*
 * The memory system: per-warp coalescing into 32-byte sectors; global loads
 * and stores through the unified L1 by default, which fetches 32-byte
 * sectors from L2 ([sources: pg-l] "Global Memory" of compute capability
 * 5.x, which 8.x and 9.0 refer to; [sources: cuda-bpg] 10.2.1; [sources:
 * jia2019] Tab 3.1 fetch granularity); local memory in L1; 32 banks of 4
 * bytes resolved per warp, each word read by several lanes served once
 * ([sources: pg-l] "Shared Memory" of 5.x); cp.async global->shared
 * copies ([sources: pg-l] "Asynchronous Data Copies"); global atomics
 * performed in L2.
 */
#define GP_SECTORED_MEM_FIELDS                                                    \
    .coalesce_threads = 32, .segment_bytes = {32, 32, 32, 32, 32},                \
    .min_segment_bytes = 32, .has_l2 = 1, .l1_global = GP_L1_GLOBAL_DEFAULT_ON,   \
    .l1_global_writes = 1, .l1_segment_bytes = 32, .local_in_l1 = 1, .banks = 32, \
    .bank_bytes = 4, .bank_bytes_selectable = 1, .bank_threads = 32,              \
    .bank_broadcast = GP_BANK_BROADCAST_ANY, .atomics_in_l2 = 1
/* (each plugin names its bank_wide: how accesses wider than a bank split) */
#define GP_SECTORED_MEM_RULES {GP_SECTORED_MEM_FIELDS, .bank_wide = GP_BANK_WIDE_PHASES}

/* The warp-wide mma.sync shapes of compute capability 8.0 and later
   ([sources: ptx] "Matrix shapes" of mma: m16n8k16 for .f16/.bf16,
   m16n8k8 for .tf32, m8n8k4 for .f64, m16n8k32 for .s8/.u8 and
   .e4m3/.e5m2). */
#define GP_MMA_SYNC_16BIT                                                         \
    [GP_TENSOR_FP16] = {16, 8, 16}, [GP_TENSOR_BF16] = {16, 8, 16},               \
    [GP_TENSOR_TF32] = {16, 8, 8}, [GP_TENSOR_INT8] = {16, 8, 32}
#define GP_MMA_SYNC_FP64 [GP_TENSOR_FP64] = {8, 8, 4}
#define GP_MMA_SYNC_FP8 [GP_TENSOR_FP8] = {16, 8, 32}

/* NVIDIA's occupancy rules from compute capability 8.0 on (cuda_occupancy.h
   of CUDA 12/13 [sources: occ-h12]): registers per warp in units of 256
   over four sub-partitions, shared memory in 128-byte units, and 255
   registers per thread ([sources: pg-l] Table "Technical Specifications per
   Compute Capability"). Initialiser fields; a plugin adds its carve-outs. */
#define GP_SECTORED_ALLOC_UNITS                                                   \
    .reg_granularity = GP_REG_ALLOC_WARP, .reg_alloc_unit = 256,                  \
    .warp_alloc_granularity = 4, .max_regs_per_thread = 255, .smem_alloc_unit = 128

/* Up to 128 kernels run at once from compute capability 7.0 on ([sources:
   pg-l] Table "Technical Specifications": maximum resident grids). */
#define GP_CONCURRENT_KERNELS_7X 128

#endif /* GP_PLUGINS_SECTORED_H */
