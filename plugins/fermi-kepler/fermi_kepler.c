/*
 * fermi_kepler.c - the architecture plugin for compute capabilities 2.0 and
 * 2.1 (Fermi: GF100/GF110, GF104/GF114) and 3.0, 3.5 and 3.7 (Kepler: GK104,
 * GK110/GK110B, GK210).
 *
 * One plugin, the differences as data: a row of GENS per compute capability
 * holds its allocation rules (NVIDIA's occupancy rules), its issue rules,
 * its memory rules and its concurrency. The only code is a check of the
 * device file's one [arch] key. Every timing number (lanes, latencies,
 * bandwidths) comes from the device file.
 *
 * Source keys are entries of docs/sources.md ([sources: key], lower case):
 *   OCC-H7   cuda_occupancy.h of CUDA 7.0 (the last with 2.x rules)
 *   OCC-H12  cuda_occupancy.h of CUDA 12/13 (3.x rules)
 *   PG42     CUDA C Programming Guide 4.2, Appendix F (F.4: 2.x, F.5: 3.0)
 *   PG-3x    CUDA C Programming Guide, "Compute Capability 3.x"
 *   PG-5.2.3 CUDA C Programming Guide (4.x-7 editions) section 5.2.3,
 *            "Multiprocessor Level": issue rates per compute capability
 *   PG-T6    Programming Guide throughput table, CUDA 6 edition
 *   NSVSE    Nsight Visual Studio Edition, "Memory Statistics" pages
 *   MTG      Maxwell Tuning Guide 1.4.2.1 (global L1 opt-in on GK110B)
 *   WP-Fermi NVIDIA Fermi whitepaper, through secondary summaries (3p)
 *   Mei      Mei & Chu, TPDS 2017 (Kepler read-only cache lines, Tab 5)
 *   JiaT     Jia et al. 2019, Tab 3.1 (K80 L1 fetch size)
 */
#include <stdio.h>

#include "gpuperf/plugin.h"

#include "../common/op_rules.h"

/* ------------------------------------------------------------------------ */
/* [arch] keys of the device files                                           */
/* ------------------------------------------------------------------------ */

enum { P_GLOBAL_L1_OPTIN = 0, N_PARAMS };

/* GK110 (Tesla K20X) keeps global loads out of L1; GK110B (Tesla K40) lets a
   program opt in with -Xptxas -dlcm=ca (MTG: "the opt-in mechanism is the
   same as with GK110B"). Which 3.5 part is which is a fact of the card. */
static const gp_param_spec_t PARAMS[N_PARAMS] = {
    [P_GLOBAL_L1_OPTIN] = {"global_l1_optin", 0, 1, 0, 0,
                           "1: global loads may opt in to L1 (-dlcm=ca), as on GK110B "
                           "(Tesla K40); compute capability 3.5 only"},
};

/* ------------------------------------------------------------------------ */
/* SM resources: NVIDIA's occupancy rules                                    */
/* ------------------------------------------------------------------------ */

/* OCC-H7, computeMajor 2: registers per warp in units of 64, or 128 for 21,
   22, 29, 30, 37, 38, 45 and 46 registers per thread; two sub-partitions;
   shared memory in 128-byte units; 48/16 KiB shared/L1 or 16/48
   (cudaOccSMemPerMultiprocessor: minCacheSize 16 KiB, maxCacheSize 48 KiB),
   and cudaFuncCachePreferEqual keeps the 48/16 split. 63 registers per
   thread: PG42 Table F-2. */
static const gp_alloc_rules_t ALLOC_2X = {
    .reg_granularity = GP_REG_ALLOC_WARP,
    .reg_alloc_unit = 64,
    .warp_alloc_granularity = 2,
    .max_regs_per_thread = 63,
    .smem_alloc_unit = 128,
    .reg_alt_list = {21, 22, 29, 30, 37, 38, 45, 46},
    .reg_alloc_unit_alt = 128,
    .cache_config_split = 1,
    .l1_min_kib = 16,
    .l1_max_kib = 48,
    .equal_is_shared = 1,
};

/* OCC-H12, computeMajor 3: registers per warp in units of 256 over four
   sub-partitions; 256-byte shared-memory units; L1 16, 32 or 48 KiB
   (cudaOccSMemPreference). 63 registers per thread on 3.0 (PG42 Table F-2),
   255 on 3.5/3.7 (OCC-H12 cudaOccRegAllocationMaxPerThread). */
#define ALLOC_3X(max_regs)                                                        \
    {                                                                             \
        .reg_granularity = GP_REG_ALLOC_WARP, .reg_alloc_unit = 256,              \
        .warp_alloc_granularity = 4, .max_regs_per_thread = (max_regs),           \
        .smem_alloc_unit = 256, .cache_config_split = 1, .l1_min_kib = 16,        \
        .l1_max_kib = 48,                                                         \
    }
static const gp_alloc_rules_t ALLOC_30 = ALLOC_3X(63);
static const gp_alloc_rules_t ALLOC_35 = ALLOC_3X(255);

/* ------------------------------------------------------------------------ */
/* Memory rules                                                              */
/* ------------------------------------------------------------------------ */

/*
 * What every row shares: per-warp coalescing (PG42 F.4.2, F.5.2); on the L2
 * path 32-byte segments (PG42 F.4.2 "-dlcm=cg", the 3.x default for global
 * loads, F.5.2), which stores and atomics always take (they invalidate the
 * L1 line and are written to L2 in 32-byte segments, NSVSE); global loads
 * cached in L1 move whole 128-byte lines (PG42 F.4.2, the 2.x default
 * "-dlcm=ca"; Kepler's opt-in uses the same lines, JiaT Tab 3.1: K80 L1
 * fetch 128 B), as do local memory and constants on an L1 miss (NSVSE);
 * the texture path and on 3.5/3.7 the read-only data cache (__ldg) fetch
 * 32-byte lines (NSVSE; Mei Tab 5); an L2 in front of DRAM; 32 banks
 * resolved per warp (PG42 F.4.3; PG-3x); global atomics performed in L2
 * (WP-Fermi, 3p; the same L2 atomic units on Kepler).
 */
#define FK_MEM_COMMON                                                             \
    .coalesce_threads = 32, .segment_bytes = {32, 32, 32, 32, 32},                \
    .min_segment_bytes = 32, .has_l2 = 1, .l1_global_writes = 0,                  \
    .l1_global_segment_bytes = 128, .l1_segment_bytes = 128,                      \
    .texture_segment_bytes = 32, .local_in_l1 = 1, .banks = 32, .bank_bytes = 4,  \
    .bank_threads = 32, .bank_broadcast = GP_BANK_BROADCAST_ANY,                  \
    .bank_wide = GP_BANK_WIDE_PHASES, .atomics_in_l2 = 1

/* 2.x: global loads cached in L1 unless "cg" (PG42 F.4.2); banks of 32 bits
   per two clocks, the bank size fixed (cudaDeviceSetSharedMemConfig does
   nothing, CUDA Runtime API reference); 128-bit accesses add one pass per
   quarter-warp (PG42 F.4.3). */
static const gp_mem_rules_t MEM_2X = {
    FK_MEM_COMMON,
    .l1_global = GP_L1_GLOBAL_DEFAULT_ON,
    .bank_pass_bytes = 4,
    .wide_extra_pass_bytes = 16,
};

/* 3.x: a bank moves 64 bits per clock whatever the bank mode, and a launch
   picks 32- or 64-bit banks (PG-3x). L1 for global loads: local memory only
   on 3.0 (PG42 F.5.2), opt-in on GK110B parts of 3.5 (PG-3x, MTG) and on
   3.7 (MTG). */
#define FK_MEM_3X .bank_pass_bytes = 8, .bank_bytes_selectable = 1
static const gp_mem_rules_t MEM_30 = {FK_MEM_COMMON, FK_MEM_3X,
                                      .l1_global = GP_L1_GLOBAL_NEVER};
static const gp_mem_rules_t MEM_35 = {FK_MEM_COMMON, FK_MEM_3X,
                                      .l1_global = GP_L1_GLOBAL_OPTIN_IF_PARAM,
                                      .l1_global_optin_param = P_GLOBAL_L1_OPTIN + 1};
static const gp_mem_rules_t MEM_37 = {FK_MEM_COMMON, FK_MEM_3X,
                                      .l1_global = GP_L1_GLOBAL_OPTIN};

/* ------------------------------------------------------------------------ */
/* Issue                                                                     */
/* ------------------------------------------------------------------------ */

/*
 * PG-5.2.3: "one instruction per warp over two clock cycles for two warps
 * at a time" (2.0), "a pair of instructions per warp over two clock cycles
 * for two warps at a time" (2.1), "a pair of instructions per warp over one
 * clock cycle for four warps at a time" (3.x): Fermi's schedulers run at
 * half the shader clock, and pairing needs an independent instruction of
 * the same warp (ilp >= 2). On 2.0 a double-precision instruction issued by
 * one scheduler keeps the other from issuing (PG42 F.4.1).
 */
static const gp_issue_rules_t ISSUE_20 = {
    .interval_cycles = 2, .pair_needs_ilp = 1, .fp64_takes_all_schedulers = 1};
static const gp_issue_rules_t ISSUE_21 = {.interval_cycles = 2, .pair_needs_ilp = 1};
static const gp_issue_rules_t ISSUE_3X = {.interval_cycles = 1, .pair_needs_ilp = 1};

/* Instructions these generations lack: tensor cores (7.0) and cp.async
   (8.0) [sources: pg-l] "Feature Availability". */
static const gp_op_rule_t OPS[GP_OP_KIND_COUNT] = {
    [GP_OP_TENSOR] = {.since = {7, 0}},
    [GP_OP_ASYNC_COPY] = {.since = {8, 0}},
    GP_WARP_OP_RULES,
};

/* Concurrent kernels: 16 resident grids on 2.x and 3.0 (PG42 Table F-2), 32
   on 3.5/3.7 (PG-3x, Hyper-Q); one hardware launch queue before Hyper-Q
   (Programming Guide, "Implicit Synchronization"; Rennich, NVIDIA streams
   webinar, 2011), a queue per stream after it. */
#define ONE_QUEUE {.max_concurrent_kernels = 16, .kernel_queues = 1}
#define HYPER_Q {.max_concurrent_kernels = 32, .kernel_queues = 0}

static const gp_generation_t GENS[] = {
    {.cc = {2, 0}, .chips = "GF100/GF110", .alloc = &ALLOC_2X, .mem = &MEM_2X,
     .issue = &ISSUE_20, .ops = OPS, .info = ONE_QUEUE},
    {.cc = {2, 1}, .chips = "GF104/GF114", .alloc = &ALLOC_2X, .mem = &MEM_2X,
     .issue = &ISSUE_21, .ops = OPS, .info = ONE_QUEUE},
    {.cc = {3, 0}, .chips = "GK104", .alloc = &ALLOC_30, .mem = &MEM_30, .issue = &ISSUE_3X,
     .ops = OPS, .info = ONE_QUEUE},
    {.cc = {3, 5}, .chips = "GK110/GK110B", .alloc = &ALLOC_35, .mem = &MEM_35,
     .issue = &ISSUE_3X, .ops = OPS, .info = HYPER_Q},
    {.cc = {3, 7}, .chips = "GK210", .alloc = &ALLOC_35, .mem = &MEM_37, .issue = &ISSUE_3X,
     .ops = OPS, .info = HYPER_Q},
};

/* The [arch] key global_l1_optin describes a 3.5 part; elsewhere the
   generation fixes global L1 caching. */
static int fk_check_device(const gp_host_t *host, const gp_generation_t *gen,
                           const gp_device_t *dev, char *err, size_t errlen)
{
    (void)host;
    if (dev->arch_params[P_GLOBAL_L1_OPTIN] >= 1 &&
        gen->mem->l1_global != GP_L1_GLOBAL_OPTIN_IF_PARAM) {
        snprintf(err, errlen,
                 "[arch] global_l1_optin = 1 describes a compute capability 3.5 part "
                 "(GK110B); on %u.%u global L1 caching is fixed by the generation; "
                 "remove the key",
                 dev->cc_major, dev->cc_minor);
        return -1;
    }
    return 0;
}

static const gp_plugin_t DESCRIPTOR = {
    .abi_major = GP_ABI_MAJOR,
    .abi_minor = GP_ABI_MINOR,
    .name = "fermi-kepler",
    .description = "NVIDIA Fermi and Kepler (GF1xx, GK1xx, GK210), compute capability "
                   "2.0-3.7",
    .version = "2.0",
    .gens = GENS,
    .n_gens = sizeof GENS / sizeof GENS[0],
    .params = PARAMS,
    .n_params = N_PARAMS,
    .check_device = fk_check_device,
};

/* The one exported symbol. */
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return &DESCRIPTOR;
}
