/*
 * tesla.c - the architecture plugin for compute capabilities 1.0 to 1.3 (the
 * Tesla architecture: G80, G9x and GT200; GeForce 8800 GTX, GeForce GTX 280,
 * Tesla C1060).
 *
 * A 1.x SM has 8 scalar cores, 2 special-function units, one double-precision
 * unit on 1.3 only, one warp scheduler and 16 KiB of shared memory in 16
 * banks; nothing caches global or local memory, only the constant and texture
 * caches (Programming Guide 4.2, F.3.1). The rules are data per compute
 * capability: NVIDIA's occupancy-calculator rules (registers allocated per
 * block), the half-warp coalescing rules, the banks (a half-warp at a time,
 * one broadcast word per pass, wide accesses as 32-bit requests), the
 * single instruction unit that issues every warp instruction over four
 * clocks and is held by serialised shared-memory passes, and the features a
 * 1.x device lacks (double precision before 1.3, atomics before 1.1, shared
 * and 64-bit atomics before 1.2). Code only for what no data can say:
 *   - the constant cache: one request per distinct address in a half-warp,
 *     with a second cache level;
 *   - the texture caches: L1 per SM (32-byte lines), L2 per memory partition.
 * Sources are entries of docs/sources.md ([sources: key]): PG42 (CUDA C
 * Programming Guide 4.2, Appendix F and Tables F-1/F-2), XLS / XLS-M (the
 * occupancy calculator spreadsheet), OCC-H7 (cuda_occupancy.h, CUDA 7.0),
 * Wong (Wong et al., ISPASS 2010, GTX 280 microbenchmarks); and V. Volkov,
 * "Understanding Latency Hiding on GPUs", PhD thesis, UC Berkeley 2016.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpuperf/plugin.h"

#include "../common/op_rules.h"

/* PG42 F.3.2, F.3.3, 5.3.2.4: coalescing, bank conflicts and the constant
   cache work on half-warps. */
#define HALF_WARP 16u
/* PG42 F.3.3: 16 shared-memory banks, 32 bits wide. */
#define BANKS_1X 16u
#define BANK_WORD_BYTES 4u
/* Wong §V: the texture L1 caches 32-byte lines. */
#define TEX_LINE_BYTES 32u
/* Wong §V: the constant L1 caches 64-byte lines; what one miss fetches. */
#define CONST_LINE_BYTES 64.0

/* -------------------------------------------------------------- the rules */

/* Occupancy calculator, 1.0/1.1 (XLS, XLS-M, OCC-H7): registers allocated
   per block, warps rounded up to even, the block's registers rounded up to
   256; at most 124 registers per thread in the spreadsheet (the largest
   multiple of 4 below Wong's measured 128); shared memory in 512-byte units;
   the 16 KiB of shared memory is fixed (no carve-out). */
static const gp_alloc_rules_t ALLOC_10 = {
    .reg_granularity = GP_REG_ALLOC_BLOCK,
    .reg_alloc_unit = 256,
    .warp_alloc_granularity = 2,
    .max_regs_per_thread = 124,
    .smem_alloc_unit = 512,
};

/* 1.2/1.3: as 1.0/1.1 but the block's registers round up to 512 (XLS). */
static const gp_alloc_rules_t ALLOC_12 = {
    .reg_granularity = GP_REG_ALLOC_BLOCK,
    .reg_alloc_unit = 512,
    .warp_alloc_granularity = 2,
    .max_regs_per_thread = 124,
    .smem_alloc_unit = 512,
};

/* What both tables share: coalescing per half-warp; no cache in front of
   global or local memory (PG42 F.3.1; a "ca" launch is honoured as the
   model always has); 16 banks of 32 bits, conflicts per half-warp with one
   broadcast word per pass, 64- and 128-bit accesses as one 32-bit request
   per word (PG42 F.3.3; Programming Guide 2.3 §5.1.2.5); a random pattern
   picks elements of the footprint; atomics on shared memory and 64-bit
   atomics from 1.2 on (PG42 Table F-1). */
#define TESLA_MEM_COMMON                                                          \
    .coalesce_threads = HALF_WARP, .has_l2 = 0, .l1_global = GP_L1_GLOBAL_OPTIN,  \
    .l1_global_writes = 1, .local_in_l1 = 0, .banks = BANKS_1X,                   \
    .bank_bytes = BANK_WORD_BYTES, .bank_threads = HALF_WARP,                     \
    .bank_broadcast = GP_BANK_BROADCAST_ONE, .bank_wide = GP_BANK_WIDE_WORD_REQUESTS, \
    .bank_random_by_element = 1, .shared_atomics_since = {1, 2},                  \
    .wide_atomics_since = {1, 2}

/* Global memory, 1.0/1.1 (PG42 F.3.2.1): a half-warp coalesces only when
   thread k reads word k of one aligned segment of 64 bytes (4-byte words),
   128 bytes (8-byte words) or two of 128 bytes (16-byte words); otherwise
   every thread gets its own 32-byte transaction. 1- and 2-byte words never
   coalesce. */
static const gp_mem_rules_t MEM_10 = {
    TESLA_MEM_COMMON,
    .segment_bytes = {32, 32, 64, 128, 128},
    .strict_coalescing = 1,
};

/* Global memory, 1.2/1.3 (PG42 F.3.2.2): any pattern within a half-warp;
   one transaction per segment touched (32 bytes for 1-byte words, 64 for
   2-byte, 128 for 4-, 8- and 16-byte words), each halved while only its
   lower or upper half is used, down to 32 bytes. */
static const gp_mem_rules_t MEM_12 = {
    TESLA_MEM_COMMON,
    .segment_bytes = {32, 64, 128, 128, 128},
    .min_segment_bytes = 32,
};

/* CUDA C Programming Guide (3.x-4.2) §5.2.3: a 1.x multiprocessor issues
   one instruction per warp over four clock cycles, whatever the instruction
   (integer and floating-point arithmetic, memory, branch, barrier); the
   special-function and double-precision units then work on while the next
   instructions issue. On 1.x the instruction reads its shared-memory operand
   through the SPs' data path (Volkov, PhD thesis 2016, §4.7), so serialised
   passes hold the unit. */
static const gp_issue_rules_t ISSUE_1X = {.interval_cycles = 4,
                                          .shared_passes_hold_issue = 1};

/* Instructions 1.x lacks: 32-bit global atomics before 1.1 (PG42 Table
   F-1), double precision before 1.3 (PG42 F.3.1), tensor cores (7.0) and
   cp.async (8.0) [sources: pg-l] "Feature Availability". */
static const gp_op_rule_t OPS_1X[GP_OP_KIND_COUNT] = {
    [GP_OP_ATOMIC] = {.since = {1, 1}},
    [GP_OP_FP64] = {.since = {1, 3}},
    [GP_OP_TENSOR] = {.since = {7, 0}},
    [GP_OP_ASYNC_COPY] = {.since = {8, 0}},
    GP_WARP_OP_RULES,
};

/* One kernel at a time: concurrent kernels arrived with 2.0 (PG42 F-1). */
#define INFO_1X {.max_concurrent_kernels = 1}

static const gp_generation_t GENS[] = {
    {.cc = {1, 0}, .chips = "G80", .alloc = &ALLOC_10, .mem = &MEM_10, .issue = &ISSUE_1X,
     .ops = OPS_1X, .info = INFO_1X},
    {.cc = {1, 1}, .chips = "G8x/G9x", .alloc = &ALLOC_10, .mem = &MEM_10, .issue = &ISSUE_1X,
     .ops = OPS_1X, .info = INFO_1X},
    {.cc = {1, 2}, .chips = "GT21x", .alloc = &ALLOC_12, .mem = &MEM_12, .issue = &ISSUE_1X,
     .ops = OPS_1X, .info = INFO_1X},
    {.cc = {1, 3}, .chips = "GT200", .alloc = &ALLOC_12, .mem = &MEM_12, .issue = &ISSUE_1X,
     .ops = OPS_1X, .info = INFO_1X},
};

/* [arch] keys of tesla device files: the texture and constant cache levels
   below the per-SM caches ([memory] readonly_cache_bytes and
   constant_cache_bytes, [latency] l1_hit_cycles and constant_cycles). */
enum {
    P_TEX_L2_BYTES = 0,
    P_TEX_L2_CYCLES,
    P_TEX_MISS_CYCLES,
    P_CONST_L2_BYTES,
    P_CONST_L2_CYCLES,
    P_COUNT
};

static const gp_param_spec_t PARAMS[P_COUNT] = {
    {"texture_l2_bytes", 0, 67108864, 0, 0,
     "texture L2 cache of the whole GPU, bytes (Wong: 256 KiB on GT200); 0: none"},
    {"texture_l2_hit_cycles", 0, 100000, 0, 0,
     "latency of a texture fetch that hits the texture L2; 0: as a miss"},
    {"texture_miss_cycles", 0, 100000, 0, 0,
     "latency of a texture fetch from DRAM; 0: [latency] dram_cycles"},
    {"constant_l2_bytes", 0, 1048576, 0, 0,
     "second-level constant cache seen by one SM, bytes; 0: none"},
    {"constant_l2_hit_cycles", 0, 100000, 0, 0,
     "latency of a constant read that hits the second level; 0: as a miss"},
};

/* Distinct bytes an access touches over the launch. */
static double footprint_of(const gp_access_t *a)
{
    double fp = a->sample ? (double)a->sample->grid_footprint_bytes : (double)a->footprint_bytes;
    return fp > 0 ? fp : (double)a->elem_bytes;
}

/* -------------------------------------------------------- constant memory */

/* Floor division for possibly negative numerators. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Distinct 32-bit words the lanes off[0..n) read (negative: inactive). */
static double distinct_words(const int64_t *off, uint32_t n, uint32_t elem)
{
    uint32_t per = elem > BANK_WORD_BYTES ? elem / BANK_WORD_BYTES : 1, t, k, i, count = 0;
    int64_t w[HALF_WARP * 4];
    for (t = 0; t < n && t < HALF_WARP; t++)
        for (k = 0; k < per && off[t] >= 0; k++) {
            int64_t x = floor_div(off[t], BANK_WORD_BYTES) + k;
            int dup = 0;
            for (i = 0; i < count; i++)
                dup |= w[i] == x;
            if (!dup)
                w[count++] = x;
        }
    return count;
}

/* Requests one warp's constant read needs: per half-warp, one per distinct
   word (the sampled warps' average where the access has samples). */
static double constant_requests(const gp_host_t *host, const gp_device_t *d,
                                const gp_access_t *a)
{
    uint32_t elem = a->elem_bytes ? a->elem_bytes : 4, halves, h, w;
    uint32_t per = elem > BANK_WORD_BYTES ? elem / BANK_WORD_BYTES : 1;
    int64_t lanes[64];
    double passes = 0;
    halves = d->warp_size / HALF_WARP ? d->warp_size / HALF_WARP : 1;
    if (a->sample && a->sample->n_warps > 0 && a->sample->byte_offset && a->sample->lanes) {
        const gp_lane_sample_t *s = a->sample;
        for (w = 0; w < s->n_warps; w++)
            for (h = 0; h * HALF_WARP < s->lanes; h++)
                passes += distinct_words(s->byte_offset + (size_t)w * s->lanes + h * HALF_WARP,
                                         s->lanes - h * HALF_WARP, elem);
        return passes / s->n_warps;
    }
    if (a->pattern == GP_PATTERN_RANDOM) {
        /* expected distinct elements among HALF_WARP independent picks */
        double m = (double)a->footprint_bytes / elem;
        if (m < 1)
            m = 1;
        return halves * m * (1.0 - pow(1.0 - 1.0 / m, HALF_WARP)) * per;
    }
    for (h = 0; h < halves; h++) {
        host->pattern_lanes(a, h * HALF_WARP, HALF_WARP, 0, lanes);
        passes += distinct_words(lanes, HALF_WARP, elem);
    }
    return passes;
}

/* Cost of a constant-memory load (PG42 §5.3.2.4, 1.x): a warp's request
   splits into its two half-warps, then into one request per distinct
   address; each is served at the constant cache's rate on a hit, at device
   memory's on a miss. */
static int constant_cost(const gp_host_t *host, const gp_device_t *d, const gp_op_t *op,
                         gp_op_cost_t *out, char *err, size_t errlen)
{
    const gp_access_t *a = &op->access;
    uint32_t halves = d->warp_size / HALF_WARP ? d->warp_size / HALF_WARP : 1;
    double passes, pass_cycles, fp, h1, h12, l1 = d->constant_cycles, l2, lat;
    double c1 = (double)d->constant_cache_bytes, c2 = d->arch_params[P_CONST_L2_BYTES];
    if (op->kind != GP_OP_LOAD) {
        snprintf(err, errlen, "constant memory is read-only inside a kernel; use a global store");
        return -1;
    }
    passes = constant_requests(host, d, a);
    fp = footprint_of(a);
    h1 = c1 > 0 ? fmin(1.0, c1 / fp) : 0;
    h12 = c2 > c1 ? fmin(1.0, c2 / fp) : h1;
    if (l1 <= 0)
        l1 = d->dram_cycles;
    l2 = d->arch_params[P_CONST_L2_CYCLES] > 0 ? d->arch_params[P_CONST_L2_CYCLES] : d->dram_cycles;
    lat = h1 * l1 + (h12 - h1) * l2 + (1 - h12) * d->dram_cycles;
    /* one request per half-warp is the full rate (an operand for 16 threads
       every 16 / ldst_lanes clocks); every further distinct address costs
       another such slot and delays the warp by it */
    pass_cycles = (double)HALF_WARP / d->ldst_lanes;
    out->pipe_cycles[GP_PIPE_L1] = passes * pass_cycles;
    out->pipe_cycles[GP_PIPE_LDST] = (double)d->warp_size / d->ldst_lanes;
    out->latency_cycles = lat + (passes - halves) * pass_cycles;
    out->pipe_cycles[GP_PIPE_ISSUE] = passes * pass_cycles; /* serialised in the unit */
    out->l1_bytes = h12 * passes * BANK_WORD_BYTES;
    out->dram_bytes = (1 - h12) * passes * CONST_LINE_BYTES;
    out->transactions = passes;
    return 0;
}

/* --------------------------------------------------------- texture memory */

/* Cost of a texture fetch (Wong §V, GT200): 32-byte lines in a per-SM L1,
   then the texture L2 of the memory partitions, then DRAM; each level with
   its measured latency. A grid of few blocks only uses the L1s of the SMs
   it runs on. */
static int texture_cost(const gp_host_t *host, const gp_device_t *d, const gp_kernel_t *k,
                        const gp_op_t *op, gp_op_cost_t *out, char *err, size_t errlen)
{
    const gp_access_t *a = &op->access;
    const gp_coalesce_rule_t lines_rule = {0, TEX_LINE_BYTES, TEX_LINE_BYTES, 0};
    double bytes = 0, lines, fp, acc, sms, h1, h2 = 0, r2, l1lat, l2lat, miss, l2cap;
    if (op->kind != GP_OP_LOAD) {
        snprintf(err, errlen, "textures are read-only inside a kernel; use a global store");
        return -1;
    }
    lines = host->coalesce_access(a, d->warp_size, &lines_rule, &bytes);
    fp = footprint_of(a);
    acc = host->op_grid_bytes(k, op);
    sms = fmin((double)d->sm_count, (double)(k->total_blocks ? k->total_blocks : 1));
    h1 = host->reuse_hit_rate(fp, acc, (double)d->readonly_cache_bytes * sms);
    if (a->pattern == GP_PATTERN_BROADCAST && !a->sample && h1 < 0.5)
        h1 = 0.5; /* one element per warp: the other warps hit */
    l2cap = d->arch_params[P_TEX_L2_BYTES];
    if (l2cap > 0 && h1 < 1) {
        r2 = host->reuse_hit_rate(fp, acc, l2cap);
        h2 = fmax(0.0, fmin(1.0, (r2 - h1) / (1 - h1)));
    }
    miss = d->arch_params[P_TEX_MISS_CYCLES] > 0 ? d->arch_params[P_TEX_MISS_CYCLES]
                                                 : d->dram_cycles;
    l2lat = d->arch_params[P_TEX_L2_CYCLES] > 0 ? d->arch_params[P_TEX_L2_CYCLES] : miss;
    l1lat = d->l1_hit_cycles > 0 ? d->l1_hit_cycles : l2lat;
    out->latency_cycles = h1 * l1lat + (1 - h1) * (h2 * l2lat + (1 - h2) * miss);
    out->pipe_cycles[GP_PIPE_LDST] = (double)d->warp_size / d->ldst_lanes;
    out->l1_bytes = h1 * bytes;
    out->l2_bytes = l2cap > 0 ? (1 - h1) * bytes : 0;
    out->dram_bytes = (1 - h1) * (1 - h2) * bytes;
    out->transactions = lines;
    return 0;
}

/* Constant and texture accesses go through 1.x's own caches; every other
   op is the core's under the rules above. */
static int tesla_op_cost(const gp_host_t *host, const gp_generation_t *gen,
                         const gp_device_t *dev, const gp_kernel_t *kernel, const gp_op_t *op,
                         const gp_occupancy_t *occ, const gp_residency_t *res,
                         gp_op_cost_t *out, char *err, size_t errlen)
{
    int mem = op->kind == GP_OP_LOAD || op->kind == GP_OP_STORE || op->kind == GP_OP_ATOMIC;
    (void)gen;
    (void)occ;
    (void)res;
    if (mem && op->space == GP_SPACE_CONSTANT)
        return constant_cost(host, dev, op, out, err, errlen);
    if (mem && op->space == GP_SPACE_TEXTURE)
        return texture_cost(host, dev, kernel, op, out, err, errlen);
    return GP_DEFAULT;
}

static const gp_plugin_t DESCRIPTOR = {
    .abi_major = GP_ABI_MAJOR,
    .abi_minor = GP_ABI_MINOR,
    .name = "tesla",
    .description = "NVIDIA Tesla architecture (G80, G9x, GT200), compute capability 1.0-1.3",
    .version = "2.0",
    .gens = GENS,
    .n_gens = sizeof GENS / sizeof GENS[0],
    .params = PARAMS,
    .n_params = P_COUNT,
    .op_cost = tesla_op_cost,
};

/* The one exported symbol. */
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return &DESCRIPTOR;
}
