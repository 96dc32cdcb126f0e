/*
 * fermi_kepler.c - the architecture plugin for compute capabilities 2.0 and
 * 2.1 (Fermi: GF100/GF110, GF104/GF114) and 3.0, 3.5 and 3.7 (Kepler: GK104,
 * GK110/GK110B, GK210).
 *
 * One plugin, the differences as data: a row of GENS per compute capability
 * holds its allocation rules (NVIDIA's occupancy rules), its warp-issue
 * facts and its memory rules; the functions below only pick a row and the
 * memory rules for an access, and correct the host's common op cost where
 * these generations issue or bank differently. Every timing number (lanes,
 * latencies, bandwidths) comes from the device file.
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
#include <string.h>

#include "gpuperf/plugin.h"

static const gp_plugin_t DESCRIPTOR;

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
   8 blocks; shared memory in 128-byte units; 48/16 KiB shared memory/L1 or 16/48
   (cudaOccSMemPerMultiprocessor: minCacheSize 16 KiB, maxCacheSize 48 KiB).
   63 registers per thread: PG42 Table F-2. */
static const gp_alloc_rules_t ALLOC_2X = {
    .reg_granularity = GP_REG_ALLOC_WARP,
    .reg_alloc_unit = 64,
    .warp_alloc_granularity = 2,
    .max_regs_per_thread = 63,
    .smem_alloc_unit = 128,
    .max_blocks_per_sm = 8,
    .reg_alt_list = {21, 22, 29, 30, 37, 38, 45, 46},
    .reg_alloc_unit_alt = 128,
    .cache_config_split = 1,
    .l1_min_kib = 16,
    .l1_max_kib = 48,
};

/* OCC-H12, computeMajor 3: registers per warp in units of 256 over four
   sub-partitions; 16 blocks; 256-byte shared-memory units; L1 16, 32 or
   48 KiB (cudaOccSMemPreference). 63 registers per thread on 3.0 (PG42
   Table F-2), 255 on 3.5/3.7 (OCC-H12 cudaOccRegAllocationMaxPerThread). */
#define ALLOC_3X(max_regs)                                                        \
    {                                                                             \
        .reg_granularity = GP_REG_ALLOC_WARP, .reg_alloc_unit = 256,              \
        .warp_alloc_granularity = 4, .max_regs_per_thread = (max_regs),           \
        .smem_alloc_unit = 256, .max_blocks_per_sm = 16, .cache_config_split = 1, \
        .l1_min_kib = 16, .l1_max_kib = 48,                                       \
    }
static const gp_alloc_rules_t ALLOC_30 = ALLOC_3X(63);
static const gp_alloc_rules_t ALLOC_35 = ALLOC_3X(255);

/* ------------------------------------------------------------------------ */
/* Memory rules                                                              */
/* ------------------------------------------------------------------------ */

/* What every table shares: per-warp coalescing (PG42 F.4.2, F.5.2), an L2
   in front of DRAM, local memory cached in L1 with 128-byte lines (NSVSE),
   32 banks of 4 bytes resolved per warp (PG42 F.4.3; Kepler's default
   32-bit mode, PG-3x), global atomics performed in L2 (WP-Fermi, 3p; the
   same L2 atomic units on Kepler), no cp.async (an 8.0 feature). */
#define FK_MEM_COMMON                                                             \
    .coalesce_threads = 32, .has_l2 = 1, .local_in_l1 = 1, .banks = 32,           \
    .bank_bytes = 4, .bank_threads = 32, .has_async_copy = 0, .atomics_in_l2 = 1

/* Global loads cached in L1 and L2: 128-byte lines and 128-byte
   transactions (PG42 F.4.2, the 2.x default "-dlcm=ca"; Kepler's opt-in
   uses the same 128-byte L1 lines, JiaT Tab 3.1: K80 L1 fetch 128 B). */
static const gp_mem_rules_t MEM_L1_LINES = {
    FK_MEM_COMMON,
    .segment_bytes = {128, 128, 128, 128, 128},
    .min_segment_bytes = 128,
    .l1_caches_global = 1,
    .l1_segment_bytes = 128,
};

/* L2 only: 32-byte segments (PG42 F.4.2 "-dlcm=cg"; the 3.x default for
   global loads, PG42 F.5.2). Also stores (they invalidate the L1 line and
   are written to L2 in 32-byte segments, NSVSE), atomics, local memory
   (128-byte L1 lines through l1_segment_bytes) and constants. */
static const gp_mem_rules_t MEM_L2_SECTORS = {
    FK_MEM_COMMON,
    .segment_bytes = {32, 32, 32, 32, 32},
    .min_segment_bytes = 32,
    .l1_caches_global = 0,
    .l1_segment_bytes = 128,
};

/* The texture path, and on 3.5/3.7 the read-only data cache (__ldg): 32-byte
   lines (NSVSE: texture transactions are 32 bytes; Mei Tab 5: Kepler
   read-only cache lines of 32 B). Its size is the device's
   readonly_cache_bytes. */
static const gp_mem_rules_t MEM_TEXTURE = {
    FK_MEM_COMMON,
    .segment_bytes = {32, 32, 32, 32, 32},
    .min_segment_bytes = 32,
    .l1_caches_global = 0,
    .l1_segment_bytes = 32,
};

/* ------------------------------------------------------------------------ */
/* The generations                                                           */
/* ------------------------------------------------------------------------ */

/* Whether global loads are cached in L1. */
typedef enum fk_l1_global {
    FK_L1_DEFAULT_ON = 0,   /* cached unless the launch asks for "cg" */
    FK_L1_NEVER = 1,        /* L1 serves local memory only; "ca" has no effect */
    FK_L1_OPTIN = 2,        /* L2 only unless the launch asks for "ca" */
    FK_L1_OPTIN_IF_PART = 3 /* as OPTIN where the device's global_l1_optin is 1 */
} fk_l1_global_t;

/* Everything one compute capability does differently. */
typedef struct fk_gen {
    uint32_t major, minor;
    const gp_alloc_rules_t *alloc;
    uint32_t schedulers;         /* warp schedulers per SM */
    uint32_t dispatch;           /* dispatch units per scheduler */
    /* shader clocks between two issue slots of one scheduler: Fermi's
       schedulers run at half the shader ("hot") clock */
    uint32_t issue_interval_cycles;
    uint32_t fp64_blocks_other_scheduler; /* 2.0 */
    uint32_t l1_global;          /* fk_l1_global_t */
    uint32_t equal_split;        /* cudaFuncCachePreferEqual: a 32/32 split */
    uint32_t bank_mode_configurable; /* cudaDeviceSetSharedMemConfig works */
    uint32_t bank_width_bytes;   /* bytes a bank delivers per pass */
    /* accesses of at least this many bytes per thread cost one extra pass
       per quarter-warp (0: none) */
    uint32_t wide_access_extra_pass_bytes;
    uint32_t max_concurrent_kernels;
    uint32_t kernel_queues;      /* hardware launch queues; 0: one per stream */
} fk_gen_t;

/*
 * Sources, column by column:
 *   schedulers/dispatch: PG42 F.4.1 (2 schedulers; 2.1 issues two
 *     instructions per scheduler), PG42 F.5.1 and PG-3x (4 schedulers, two
 *     independent instructions each);
 *   issue interval: PG-5.2.3 - "one instruction per warp over two clock
 *     cycles for two warps at a time" (2.0), "a pair of instructions per warp
 *     over two clock cycles for two warps at a time" (2.1), "a pair of
 *     instructions per warp over one clock cycle for four warps at a time"
 *     (3.x);
 *   fp64 blocking: PG42 F.4.1 - on 2.0 a double-precision instruction
 *     issued by one scheduler keeps the other from issuing;
 *   L1 for global loads: PG42 F.4.2 (2.x: on by default), PG42 F.5.2 (3.0:
 *     local memory only), PG-3x and MTG (3.5: opt-in on some parts, GK110B;
 *     3.7: opt-in);
 *   splits: OCC-H7 (2.x: Equal is Shared), OCC-H12 (3.x: 16/32/48 KiB L1);
 *   banks: PG42 F.4.3 (2.x: 32 bits per bank per two clocks; 128-bit
 *     accesses add one way per quarter-warp), PG-3x (3.x: 64 bits per bank
 *     per clock, 32- or 64-bit bank mode);
 *   concurrent kernels: PG42 Table F-2 (16 resident grids on 2.x and 3.0)
 *     and PG-3x (32 on 3.5/3.7, Hyper-Q);
 *   kernel queues: one hardware queue before Hyper-Q (3.5): Programming Guide,
 *     "Implicit Synchronization"; Rennich, NVIDIA streams webinar, 2011.
 */
static const fk_gen_t GENS[] = {
    /* cc  alloc  sched disp interval fp64 L1-for-global equal bank-mode width wide grids queues */
    {2, 0, &ALLOC_2X, 2, 1, 2, 1, FK_L1_DEFAULT_ON, 0, 0, 4, 16, 16, 1},
    {2, 1, &ALLOC_2X, 2, 2, 2, 0, FK_L1_DEFAULT_ON, 0, 0, 4, 16, 16, 1},
    {3, 0, &ALLOC_30, 4, 2, 1, 0, FK_L1_NEVER, 1, 1, 8, 0, 16, 1},
    {3, 5, &ALLOC_35, 4, 2, 1, 0, FK_L1_OPTIN_IF_PART, 1, 1, 8, 0, 32, 0},
    {3, 7, &ALLOC_35, 4, 2, 1, 0, FK_L1_OPTIN, 1, 1, 8, 0, 32, 0},
};
#define N_GENS (sizeof GENS / sizeof GENS[0])

/* The row of a device's compute capability, or NULL with err set. */
static const fk_gen_t *gen_of(const gp_device_t *dev, char *err, size_t errlen)
{
    size_t i;
    for (i = 0; i < N_GENS; i++)
        if (GENS[i].major == dev->cc_major && GENS[i].minor == dev->cc_minor)
            return &GENS[i];
    snprintf(err, errlen,
             "compute capability %u.%u is not 2.0, 2.1, 3.0, 3.5 or 3.7; set "
             "compute_capability in the device file or pick another plugin",
             dev->cc_major, dev->cc_minor);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Facet 1: SM resources                                                     */
/* ------------------------------------------------------------------------ */

/* Occupancy by NVIDIA's rules; on 2.x a request for an equal split keeps the
   48/16 KiB configuration (OCC-H7 cudaOccSMemPerMultiprocessor). */
static int fk_occupancy(const gp_host_t *host, const gp_device_t *dev,
                        const gp_launch_t *launch, gp_occupancy_t *out, char *err,
                        size_t errlen)
{
    const fk_gen_t *g = gen_of(dev, err, errlen);
    gp_launch_t l;
    if (!g)
        return -1;
    if (launch->cache_pref > GP_CACHE_PREFER_EQUAL) {
        snprintf(err, errlen,
                 "cache preference %u is not none, shared, L1 or equal (0..3)",
                 launch->cache_pref);
        return -1;
    }
    l = *launch;
    if (!g->equal_split && l.cache_pref == GP_CACHE_PREFER_EQUAL)
        l.cache_pref = GP_CACHE_PREFER_SHARED;
    return host->occupancy_standard(dev, &l, g->alloc, out, err, errlen);
}

/* ------------------------------------------------------------------------ */
/* Facets 2 and 3: warp issue and memory                                     */
/* ------------------------------------------------------------------------ */

/* 1 if this launch's global loads go through L1. */
static int global_loads_in_l1(const fk_gen_t *g, const gp_device_t *dev, uint32_t mode)
{
    switch (g->l1_global) {
    case FK_L1_DEFAULT_ON:
        return mode != GP_GLOBAL_CACHE_L2;
    case FK_L1_OPTIN:
        return mode == GP_GLOBAL_CACHE_ALL;
    case FK_L1_OPTIN_IF_PART:
        return mode == GP_GLOBAL_CACHE_ALL && dev->arch_params[P_GLOBAL_L1_OPTIN] >= 1;
    default:
        return 0; /* 3.0: "ca" compiles but changes nothing */
    }
}

/* The memory rules for one op, and the caching mode the host should apply
   (written into the launch copy k). */
static const gp_mem_rules_t *mem_rules_for(const fk_gen_t *g, const gp_device_t *dev,
                                           const gp_op_t *op, gp_kernel_t *k)
{
    if (op->space == GP_SPACE_TEXTURE)
        return &MEM_TEXTURE;
    if (op->space == GP_SPACE_GLOBAL && op->kind == GP_OP_LOAD &&
        global_loads_in_l1(g, dev, k->launch.global_cache)) {
        k->launch.global_cache = GP_GLOBAL_CACHE_ALL;
        return &MEM_L1_LINES;
    }
    k->launch.global_cache = GP_GLOBAL_CACHE_L2;
    return &MEM_L2_SECTORS;
}

/* Issue cost of one warp instruction, in SM cycles of the issue pipe (whose
   capacity is one cycle per cycle). A scheduler offers an issue slot every
   issue_interval_cycles; pairing a second instruction in the same slot needs
   an independent instruction of the same warp (PG-5.2.3: "a pair of
   instructions per warp"), i.e. ilp >= 2. */
static double issue_cycles(const fk_gen_t *g, const gp_device_t *dev, const gp_op_t *op)
{
    double slot = (double)g->issue_interval_cycles / (double)dev->schedulers_per_sm;
    double pair = op->ilp >= 2 ? (double)dev->dispatch_per_scheduler : 1.0;
    if (g->fp64_blocks_other_scheduler && op->kind == GP_OP_FP64)
        return slot * (double)dev->schedulers_per_sm / pair; /* every scheduler's slot */
    return slot / pair;
}

/* Shared-memory timing of these generations: one pass of the banks takes
   warp_size * bank_width / bytes_per_clock cycles whatever the bank mode
   (a Kepler bank moves 64 bits per clock even in 32-bit mode, PG-3x, so a
   pass of 4-byte words uses half of it), and on 2.x 128-bit accesses cost
   one more pass per quarter-warp (PG42 F.4.3). */
static void shared_timing(const fk_gen_t *g, const gp_device_t *dev, const gp_op_t *op,
                          uint32_t bank_bytes, gp_op_cost_t *out)
{
    double passes = out->transactions > 0 ? out->transactions : 1;
    double pass = (double)dev->warp_size * g->bank_width_bytes /
                  dev->shared_memory_bytes_per_clock;
    uint32_t elem = op->access.elem_bytes ? op->access.elem_bytes : 4;
    if (g->wide_access_extra_pass_bytes && elem >= g->wide_access_extra_pass_bytes)
        passes += (double)elem / bank_bytes; /* one per phase (quarter-warp) */
    out->pipe_cycles[GP_PIPE_SHARED] = passes * pass;
    out->latency_cycles = dev->shared_memory_cycles + (passes - 1) * pass;
    if (op->kind == GP_OP_ATOMIC)
        out->latency_cycles *= 2; /* read, then write */
    out->transactions = passes;
}

/* The cost of one warp-wide op: the host's common cost under this
   generation's memory rules, then its issue and bank timing. */
static int fk_op_cost(const gp_host_t *host, const gp_device_t *dev,
                      const gp_kernel_t *kernel, const gp_op_t *op,
                      const gp_occupancy_t *occ, const gp_residency_t *res,
                      gp_op_cost_t *out, char *err, size_t errlen)
{
    const fk_gen_t *g = gen_of(dev, err, errlen);
    const gp_mem_rules_t *mem;
    gp_kernel_t k;
    uint32_t bank_bytes;
    if (!g)
        return -1;
    k = *kernel;
    if (k.launch.bank_bytes != 0 && k.launch.bank_bytes != 4 && k.launch.bank_bytes != 8) {
        snprintf(err, errlen,
                 "shared-memory bank size %u bytes: compute capability %u.%u banks are 4 "
                 "or 8 bytes wide",
                 k.launch.bank_bytes, dev->cc_major, dev->cc_minor);
        return -1;
    }
    /* cudaDeviceSetSharedMemConfig does nothing on devices with a fixed bank
       size (CUDA Runtime API reference): 2.x keeps 4-byte banks */
    if (!g->bank_mode_configurable)
        k.launch.bank_bytes = 0;
    bank_bytes = k.launch.bank_bytes ? k.launch.bank_bytes : 4;
    mem = mem_rules_for(g, dev, op, &k);
    if (host->op_cost_standard(dev, &k, op, occ, res, mem, out, err, errlen))
        return -1;
    out->pipe_cycles[GP_PIPE_ISSUE] = issue_cycles(g, dev, op);
    if ((op->kind == GP_OP_LOAD || op->kind == GP_OP_STORE || op->kind == GP_OP_ATOMIC) &&
        op->space == GP_SPACE_SHARED)
        shared_timing(g, dev, op, bank_bytes, out);
    return 0;
}

/* A block's cost: the common model over this plugin's op costs. */
static int fk_block_cost(const gp_host_t *host, const gp_device_t *dev,
                         const gp_kernel_t *kernel, const gp_occupancy_t *occ,
                         const gp_residency_t *res, gp_block_cost_t *out, char *err,
                         size_t errlen)
{
    return host->block_cost_standard(&DESCRIPTOR, dev, kernel, occ, res, out, err, errlen);
}

/* Generation-wide facts: how many kernels may run at once, and through how
   many hardware queues. Before Hyper-Q (3.5) every stream's launches pass
   through one queue, so a launch waiting on its stream holds back the later
   launches of other streams (Programming Guide, "Implicit Synchronization";
   Rennich, "CUDA C/C++ Streams and Concurrency", NVIDIA webinar, 2011). */
static int fk_arch_info(const gp_host_t *host, const gp_device_t *dev,
                        gp_arch_info_t *out, char *err, size_t errlen)
{
    const fk_gen_t *g = gen_of(dev, err, errlen);
    (void)host;
    if (!g)
        return -1;
    memset(out, 0, sizeof *out);
    out->max_concurrent_kernels = g->max_concurrent_kernels;
    out->kernel_queues = g->kernel_queues;
    return 0;
}

/* Device-file checks: the card must have what its generation's rules
   assume, so a typo cannot silently change the model. */
static int fk_check_device(const gp_host_t *host, const gp_device_t *dev, char *err,
                           size_t errlen)
{
    const fk_gen_t *g = gen_of(dev, err, errlen);
    uint64_t unified;
    (void)host;
    if (!g)
        return -1;
    if (dev->warp_size != 32) {
        snprintf(err, errlen, "[sm] warp_size = %u; compute capability %u.%u has 32",
                 dev->warp_size, dev->cc_major, dev->cc_minor);
        return -1;
    }
    if (dev->schedulers_per_sm != g->schedulers || dev->dispatch_per_scheduler != g->dispatch) {
        snprintf(err, errlen,
                 "[sm] schedulers_per_sm = %u, dispatch_per_scheduler = %u; compute "
                 "capability %u.%u has %u schedulers with %u dispatch unit(s) each",
                 dev->schedulers_per_sm, dev->dispatch_per_scheduler, dev->cc_major,
                 dev->cc_minor, g->schedulers, g->dispatch);
        return -1;
    }
    if (dev->max_registers_per_thread > g->alloc->max_regs_per_thread ||
        dev->max_blocks_per_sm > g->alloc->max_blocks_per_sm) {
        snprintf(err, errlen,
                 "[sm] max_registers_per_thread = %u, max_blocks_per_sm = %u exceed "
                 "compute capability %u.%u's %u and %u",
                 dev->max_registers_per_thread, dev->max_blocks_per_sm, dev->cc_major,
                 dev->cc_minor, g->alloc->max_regs_per_thread, g->alloc->max_blocks_per_sm);
        return -1;
    }
    unified = dev->shared_memory_per_sm_bytes + (uint64_t)g->alloc->l1_min_kib * 1024;
    if (dev->l1_shared_bytes != unified) {
        snprintf(err, errlen,
                 "[sm] l1_shared_bytes = %llu; with %llu bytes of shared memory per SM the "
                 "L1/shared array of compute capability %u.%u is %llu bytes (16 KiB of L1 "
                 "at the largest shared split)",
                 (unsigned long long)dev->l1_shared_bytes,
                 (unsigned long long)dev->shared_memory_per_sm_bytes, dev->cc_major,
                 dev->cc_minor, (unsigned long long)unified);
        return -1;
    }
    if (dev->arch_params[P_GLOBAL_L1_OPTIN] >= 1 && g->l1_global != FK_L1_OPTIN_IF_PART) {
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
    .version = "1.0",
    .n_ccs = 5,
    .ccs = {{2, 0}, {2, 1}, {3, 0}, {3, 5}, {3, 7}},
    .params = PARAMS,
    .n_params = N_PARAMS,
    .occupancy = fk_occupancy,
    .op_cost = fk_op_cost,
    .block_cost = fk_block_cost,
    .arch_info = fk_arch_info,
    .check_device = fk_check_device,
};

/* The one exported symbol. */
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return &DESCRIPTOR;
}
