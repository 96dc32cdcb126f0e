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
 * block) and the half-warp coalescing rules, handed to the host's common
 * model. What no later generation shares is handled here:
 *   - one instruction unit that issues every warp instruction over four
 *     clocks, so integer, floating-point and memory instructions share it;
 *   - shared memory: conflicts resolved per half-warp with one broadcast word
 *     per request, 64- and 128-bit accesses split into 32-bit requests, the
 *     serialised passes holding the instruction unit;
 *   - the constant cache: one request per distinct address in a half-warp;
 *   - the texture caches: L1 per SM (32-byte lines), L2 per memory partition;
 *   - features a 1.x device lacks: double precision before 1.3, atomics
 *     before 1.1 (global, 32-bit) and 1.2 (shared memory, 64-bit).
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

static const gp_plugin_t DESCRIPTOR;

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
/* CUDA C Programming Guide (3.x-4.2) §5.2.3: a 1.x multiprocessor issues
   one instruction per warp over four clock cycles, whatever the instruction
   (integer and floating-point arithmetic, memory, branch, barrier); the
   special-function and double-precision units then work on while the next
   instructions issue. */
#define ISSUE_CYCLES_PER_WARP_INSTR 4.0
/* Shared memory of a 1.x SM, fixed (PG42 Tab F-2); also the range a random
   shared-memory pattern spreads over when the access gives no footprint. */
#define SHARED_BYTES_1X 16384u

/* -------------------------------------------------------------- the rules */

/* Occupancy calculator, 1.0/1.1 (XLS, XLS-M, OCC-H7): registers allocated
   per block, warps rounded up to even, the block's registers rounded up to
   256; at most 124 registers per thread in the spreadsheet (the largest
   multiple of 4 below Wong's measured 128); shared memory in 512-byte units;
   8 blocks per SM; the 16 KiB of shared memory is fixed (no carve-out). */
static const gp_alloc_rules_t ALLOC_10 = {
    .reg_granularity = GP_REG_ALLOC_BLOCK,
    .reg_alloc_unit = 256,
    .warp_alloc_granularity = 2,
    .max_regs_per_thread = 124,
    .smem_alloc_unit = 512,
    .max_blocks_per_sm = 8,
};

/* 1.2/1.3: as 1.0/1.1 but the block's registers round up to 512 (XLS). */
static const gp_alloc_rules_t ALLOC_12 = {
    .reg_granularity = GP_REG_ALLOC_BLOCK,
    .reg_alloc_unit = 512,
    .warp_alloc_granularity = 2,
    .max_regs_per_thread = 124,
    .smem_alloc_unit = 512,
    .max_blocks_per_sm = 8,
};

/* Global memory, 1.0/1.1 (PG42 F.3.2.1): a half-warp coalesces only when
   thread k reads word k of one aligned segment of 64 bytes (4-byte words),
   128 bytes (8-byte words) or two of 128 bytes (16-byte words); otherwise
   every thread gets its own 32-byte transaction. 1- and 2-byte words never
   coalesce. No cache in front of global or local memory (PG42 F.3.1).
   Shared memory: 16 banks of 32 bits, conflicts per half-warp (F.3.3). */
static const gp_mem_rules_t MEM_10 = {
    .coalesce_threads = HALF_WARP,
    .segment_bytes = {32, 32, 64, 128, 128},
    .min_segment_bytes = 0, /* no shrinking */
    .strict_coalescing = 1,
    .has_l2 = 0,
    .l1_caches_global = 0,
    .l1_segment_bytes = 0,
    .local_in_l1 = 0,
    .banks = BANKS_1X,
    .bank_bytes = BANK_WORD_BYTES,
    .bank_threads = HALF_WARP,
    .has_async_copy = 0,
    .atomics_in_l2 = 0,
};

/* Global memory, 1.2/1.3 (PG42 F.3.2.2): any pattern within a half-warp;
   one transaction per segment touched (32 bytes for 1-byte words, 64 for
   2-byte, 128 for 4-, 8- and 16-byte words), each halved while only its
   lower or upper half is used, down to 32 bytes. */
static const gp_mem_rules_t MEM_12 = {
    .coalesce_threads = HALF_WARP,
    .segment_bytes = {32, 64, 128, 128, 128},
    .min_segment_bytes = 32,
    .strict_coalescing = 0,
    .has_l2 = 0,
    .l1_caches_global = 0,
    .l1_segment_bytes = 0,
    .local_in_l1 = 0,
    .banks = BANKS_1X,
    .bank_bytes = BANK_WORD_BYTES,
    .bank_threads = HALF_WARP,
    .has_async_copy = 0,
    .atomics_in_l2 = 0,
};

/* One compute capability: its rules and what its device files must say. */
typedef struct tesla_cc {
    uint32_t major, minor;
    const gp_alloc_rules_t *alloc;
    const gp_mem_rules_t *mem;
    uint32_t registers_per_sm;   /* PG42 Tab F-2 */
    uint32_t max_threads_per_sm; /* PG42 Tab F-2: 24 or 32 warps */
    uint32_t fp64;               /* one DP unit per SM (PG42 F.3.1; 1.3 only) */
    uint32_t global_atomics;     /* 32-bit atomics on global memory (Tab F-1) */
    uint32_t wide_atomics;       /* shared-memory and 64-bit atomics (Tab F-1) */
} tesla_cc_t;

static const tesla_cc_t CCS[] = {
    {1, 0, &ALLOC_10, &MEM_10, 8192, 768, 0, 0, 0},
    {1, 1, &ALLOC_10, &MEM_10, 8192, 768, 0, 1, 0},
    {1, 2, &ALLOC_12, &MEM_12, 16384, 1024, 0, 1, 1},
    {1, 3, &ALLOC_12, &MEM_12, 16384, 1024, 1, 1, 1},
};
#define N_CCS (sizeof CCS / sizeof CCS[0])

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

/* The rules of a device's compute capability, or NULL. */
static const tesla_cc_t *cc_of(const gp_device_t *dev)
{
    size_t i;
    for (i = 0; i < N_CCS; i++)
        if (CCS[i].major == dev->cc_major && CCS[i].minor == dev->cc_minor)
            return &CCS[i];
    return NULL;
}

/* The rules for dev, or an error naming it. */
static const tesla_cc_t *rules_for(const gp_device_t *dev, char *err, size_t errlen)
{
    const tesla_cc_t *c = cc_of(dev);
    if (!c)
        snprintf(err, errlen, "%s is compute capability %u.%u; the tesla plugin serves 1.0-1.3",
                 dev->name, dev->cc_major, dev->cc_minor);
    return c;
}

/* ---------------------------------------------------------- access helpers */

/* Addresses stay within +-2^62 bytes, so differences between them cannot
   overflow. */
#define TESLA_ADDR_LIMIT (INT64_C(1) << 62)

/* elem x (offset + t x stride) in bytes, saturated at +-TESLA_ADDR_LIMIT. */
static int64_t tesla_addr(int64_t offset, int64_t t, int64_t stride, int64_t elem)
{
    int64_t el, addr;
    if (__builtin_mul_overflow(t, stride, &el) || __builtin_add_overflow(el, offset, &el) ||
        __builtin_mul_overflow(el, elem, &addr))
        return (stride < 0 || (stride == 0 && offset < 0)) ? -TESLA_ADDR_LIMIT
                                                           : TESLA_ADDR_LIMIT;
    return addr > TESLA_ADDR_LIMIT ? TESLA_ADDR_LIMIT
                                   : addr < -TESLA_ADDR_LIMIT ? -TESLA_ADDR_LIMIT : addr;
}

/* Byte address thread t touches (relative to a 256-byte aligned base). A
   random pattern picks a fixed pseudo-random element of the footprint
   (Knuth's multiplicative hash), so results are reproducible. */
static int64_t thread_addr(const gp_access_t *a, uint32_t t, uint64_t footprint)
{
    int64_t e = a->elem_bytes ? (int64_t)a->elem_bytes : 4;
    switch (a->pattern) {
    case GP_PATTERN_STRIDE:
        return tesla_addr(a->offset_elems, t, a->stride_elems, e);
    case GP_PATTERN_BROADCAST:
        return tesla_addr(a->offset_elems, 0, 0, e);
    case GP_PATTERN_RANDOM: {
        uint64_t n = footprint / (uint64_t)e;
        if (n == 0)
            n = 1;
        return (int64_t)(((uint64_t)t * 2654435761u) % n) * e;
    }
    default:
        return tesla_addr(a->offset_elems, t, 1, e);
    }
}

/* Floor division for possibly negative numerators. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Accesses of one op by the whole grid, in bytes: threads x count x size x
   the trip counts of the loops around it (how often a cache sees its
   footprint). */
static double grid_bytes(const gp_kernel_t *k, const gp_op_t *op)
{
    double mult = 1;
    uint32_t i, idx = (uint32_t)(op - k->ops);
    if (idx >= k->n_ops)
        return 0;
    for (i = 0; i < idx; i++)
        if (k->ops[i].kind == GP_OP_LOOP && i + k->ops[i].body_len >= idx)
            mult *= k->ops[i].count > 0 ? k->ops[i].count : 0;
    return (double)k->total_blocks * (double)k->launch.threads_per_block * mult * op->count *
           (op->access.elem_bytes ? op->access.elem_bytes : 4);
}

/* 1 if elem is a size a thread can load or store in one instruction. */
static int valid_elem(uint32_t elem)
{
    return elem == 1 || elem == 2 || elem == 4 || elem == 8 || elem == 16;
}

/* ----------------------------------------------------------- shared memory */

/*
 * Passes one half-warp request of 32-bit-word reads needs (PG42 F.3.3 and
 * the 1.x algorithm of Programming Guide 2.3 §5.1.2.5): each pass serves
 * every thread whose address lies in one broadcast word, plus one address in
 * each other bank. The broadcast word is the one of the lowest-numbered
 * waiting thread (the guide leaves the choice unspecified).
 */
static uint32_t halfwarp_passes(const int64_t *addr, uint32_t n)
{
    const int64_t banks = BANKS_1X;
    int done[HALF_WARP] = {0};
    uint32_t left = n, passes = 0, t, u;
    if (n > HALF_WARP)
        n = left = HALF_WARP;
    while (left > 0) {
        int used[BANKS_1X] = {0};
        int64_t bword = 0;
        int have = 0;
        passes++;
        for (t = 0; t < n; t++) {
            int64_t w = floor_div(addr[t], BANK_WORD_BYTES);
            if (done[t])
                continue;
            if (!have) {
                bword = w;
                have = 1;
                used[(uint32_t)(((w % banks) + banks) % banks)] = 1;
            }
            if (w == bword) {
                done[t] = 1;
                left--;
            }
        }
        for (t = 0; t < n; t++) {
            int64_t w = floor_div(addr[t], BANK_WORD_BYTES);
            uint32_t b = (uint32_t)(((w % banks) + banks) % banks);
            if (done[t] || used[b])
                continue;
            used[b] = 1;
            for (u = t; u < n; u++)
                if (!done[u] && addr[u] == addr[t]) {
                    done[u] = 1;
                    left--;
                }
        }
    }
    return passes;
}

/* Cost of a shared-memory load, store or atomic. Wider than 32 bits, a
   thread's access becomes one 32-bit request per word (PG42 F.3.3: a
   double read by consecutive threads is a 2-way conflict). On 1.x the
   instruction itself reads its shared-memory operand through the SPs' data
   path (there is no separate load/store unit; Volkov, PhD thesis 2016, §4.7:
   shared memory is addressed through special registers), so serialised
   passes hold the instruction unit: tesla_op_cost charges the issue slot
   for the longer of its four clocks and the passes. */
static int shared_cost(const gp_device_t *d, const tesla_cc_t *c, const gp_op_t *op,
                       gp_op_cost_t *out, char *err, size_t errlen)
{
    const gp_access_t *a = &op->access;
    uint32_t elem = a->elem_bytes ? a->elem_bytes : 4;
    uint32_t words = elem > BANK_WORD_BYTES ? elem / BANK_WORD_BYTES : 1;
    uint32_t halves = d->warp_size / HALF_WARP ? d->warp_size / HALF_WARP : 1, h, j, t;
    uint64_t fp = a->footprint_bytes ? a->footprint_bytes : SHARED_BYTES_1X;
    double passes = 0, pass_cycles;
    int one_word = op->kind == GP_OP_ATOMIC && (a->atomic_scope == GP_ATOMIC_SAME ||
                                                a->atomic_scope == GP_ATOMIC_PER_WARP);
    if (op->kind == GP_OP_ATOMIC && !c->wide_atomics) {
        snprintf(err, errlen,
                 "%s is compute capability %u.%u: atomics on shared memory need 1.2 or newer "
                 "(Programming Guide Table F-1)",
                 d->name, d->cc_major, d->cc_minor);
        return -1;
    }
    for (h = 0; h < halves; h++) {
        if (a->conflict_ways > 0) {
            passes += (double)a->conflict_ways * words;
            continue;
        }
        if (one_word) {
            passes += HALF_WARP; /* every lane updates one word: serialised */
            continue;
        }
        for (j = 0; j < words; j++) {
            int64_t addr[HALF_WARP];
            for (t = 0; t < HALF_WARP; t++)
                addr[t] = thread_addr(a, h * HALF_WARP + t, fp) + (int64_t)j * BANK_WORD_BYTES;
            passes += halfwarp_passes(addr, HALF_WARP);
        }
    }
    /* a pass moves one 32-bit word through each of the 16 banks; a bank
       delivers 32 bits every two clocks (PG42 F.3.3), which the device file
       states as shared_memory_bytes_per_clock */
    pass_cycles = (double)HALF_WARP * BANK_WORD_BYTES / d->shared_memory_bytes_per_clock;
    out->pipe_cycles[GP_PIPE_SHARED] = passes * pass_cycles;
    out->pipe_cycles[GP_PIPE_LDST] = (double)d->warp_size / d->ldst_lanes;
    out->pipe_cycles[GP_PIPE_ISSUE] = passes * pass_cycles; /* serialised in the unit */
    out->latency_cycles = d->shared_memory_cycles + (passes - halves) * pass_cycles;
    if (op->kind == GP_OP_ATOMIC)
        out->latency_cycles *= 2; /* read, then write */
    out->transactions = passes;
    return 0;
}

/* -------------------------------------------------------- constant memory */

/* Distinct 32-bit words the threads t0..t0+n-1 read. */
static double distinct_words(const gp_access_t *a, uint32_t t0, uint32_t n)
{
    uint32_t elem = a->elem_bytes ? a->elem_bytes : 4;
    uint32_t per = elem > BANK_WORD_BYTES ? elem / BANK_WORD_BYTES : 1, t, k, i;
    int64_t w[HALF_WARP * 4];
    uint32_t count = 0;
    if (a->pattern == GP_PATTERN_RANDOM) {
        /* expected distinct elements among n independent picks */
        double m = (double)a->footprint_bytes / elem;
        if (m < 1)
            m = 1;
        return m * (1.0 - pow(1.0 - 1.0 / m, n)) * per;
    }
    for (t = 0; t < n && t < HALF_WARP; t++)
        for (k = 0; k < per; k++) {
            int64_t x = floor_div(thread_addr(a, t0 + t, 0), BANK_WORD_BYTES) + k;
            int dup = 0;
            for (i = 0; i < count; i++)
                dup |= w[i] == x;
            if (!dup)
                w[count++] = x;
        }
    return count;
}

/* Cost of a constant-memory load (PG42 §5.3.2.4, 1.x): a warp's request
   splits into its two half-warps, then into one request per distinct
   address; each is served at the constant cache's rate on a hit, at device
   memory's on a miss. */
static int constant_cost(const gp_device_t *d, const gp_op_t *op, gp_op_cost_t *out,
                         char *err, size_t errlen)
{
    const gp_access_t *a = &op->access;
    uint32_t halves = d->warp_size / HALF_WARP ? d->warp_size / HALF_WARP : 1, h;
    double passes = 0, pass_cycles, fp, h1, h12, l1 = d->constant_cycles, l2, lat;
    double c1 = (double)d->constant_cache_bytes, c2 = d->arch_params[P_CONST_L2_BYTES];
    if (op->kind != GP_OP_LOAD) {
        snprintf(err, errlen, "constant memory is read-only inside a kernel; use a global store");
        return -1;
    }
    for (h = 0; h < halves; h++)
        passes += distinct_words(a, h * HALF_WARP, HALF_WARP);
    fp = a->footprint_bytes ? (double)a->footprint_bytes : (double)a->elem_bytes;
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
    double bytes = 0, lines, fp, acc, sms, h1, h2 = 0, r2, l1lat, l2lat, miss, l2cap;
    if (op->kind != GP_OP_LOAD) {
        snprintf(err, errlen, "textures are read-only inside a kernel; use a global store");
        return -1;
    }
    lines = host->coalesce(a, d->warp_size, TEX_LINE_BYTES, TEX_LINE_BYTES, &bytes);
    fp = a->footprint_bytes ? (double)a->footprint_bytes : (double)a->elem_bytes;
    acc = grid_bytes(k, op);
    sms = fmin((double)d->sm_count, (double)(k->total_blocks ? k->total_blocks : 1));
    h1 = host->reuse_hit_rate(fp, acc, (double)d->readonly_cache_bytes * sms);
    if (a->pattern == GP_PATTERN_BROADCAST && h1 < 0.5)
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

/* ---------------------------------------------------------------- facets */

/* Facet 1: the occupancy calculator's rules for the device's 1.x. */
static int tesla_occupancy(const gp_host_t *host, const gp_device_t *dev,
                           const gp_launch_t *launch, gp_occupancy_t *out, char *err,
                           size_t errlen)
{
    const tesla_cc_t *c = rules_for(dev, err, errlen);
    if (!c)
        return -1;
    return host->occupancy_standard(dev, launch, c->alloc, out, err, errlen);
}

/* Facets 2 and 3: one warp-wide op. Shared, constant and texture accesses
   and the 1.x feature limits are handled here; everything else is the
   host's common cost under the 1.x memory rules. Every op then takes the
   single instruction unit for its four clocks. */
static int tesla_op_cost(const gp_host_t *host, const gp_device_t *dev,
                         const gp_kernel_t *kernel, const gp_op_t *op,
                         const gp_occupancy_t *occ, const gp_residency_t *res,
                         gp_op_cost_t *out, char *err, size_t errlen)
{
    const tesla_cc_t *c = rules_for(dev, err, errlen);
    int mem = op->kind == GP_OP_LOAD || op->kind == GP_OP_STORE || op->kind == GP_OP_ATOMIC;
    int rc;
    if (!c)
        return -1;
    memset(out, 0, sizeof *out);
    switch (op->kind) {
    case GP_OP_FP64:
        if (!c->fp64) {
            snprintf(err, errlen,
                     "%s is compute capability %u.%u and has no double-precision unit (1.3 "
                     "adds one per SM, Programming Guide F.3.1); describe the work as fp32 or "
                     "pick a 1.3 device such as tesla-c1060",
                     dev->name, dev->cc_major, dev->cc_minor);
            return -1;
        }
        break;
    case GP_OP_TENSOR:
        snprintf(err, errlen,
                 "%s (compute capability %u.%u) has no tensor cores; they arrived with 7.0",
                 dev->name, dev->cc_major, dev->cc_minor);
        return -1;
    case GP_OP_ASYNC_COPY:
        snprintf(err, errlen,
                 "%s (compute capability %u.%u) has no asynchronous global-to-shared copy; "
                 "it arrived with 8.0: describe a load and a shared store instead",
                 dev->name, dev->cc_major, dev->cc_minor);
        return -1;
    default:
        break;
    }
    if (mem && !valid_elem(op->access.elem_bytes)) {
        snprintf(err, errlen, "memory access of %u bytes per thread (1, 2, 4, 8 or 16)",
                 op->access.elem_bytes);
        return -1;
    }
    if (op->kind == GP_OP_ATOMIC && op->space != GP_SPACE_SHARED) {
        if (!c->global_atomics) {
            snprintf(err, errlen,
                     "%s is compute capability %u.%u: atomic functions need 1.1 or newer "
                     "(Programming Guide Table F-1)",
                     dev->name, dev->cc_major, dev->cc_minor);
            return -1;
        }
        if (op->access.elem_bytes > 4 && !c->wide_atomics) {
            snprintf(err, errlen,
                     "%s is compute capability %u.%u: 64-bit atomics on global memory need "
                     "1.2 or newer (Programming Guide Table F-1)",
                     dev->name, dev->cc_major, dev->cc_minor);
            return -1;
        }
    }
    if (mem && op->space == GP_SPACE_SHARED)
        rc = shared_cost(dev, c, op, out, err, errlen);
    else if (mem && op->space == GP_SPACE_CONSTANT)
        rc = constant_cost(dev, op, out, err, errlen);
    else if (mem && op->space == GP_SPACE_TEXTURE)
        rc = texture_cost(host, dev, kernel, op, out, err, errlen);
    else
        rc = host->op_cost_standard(dev, kernel, op, occ, res, c->mem, out, err, errlen);
    /* the instruction unit is held four clocks, or longer while the passes
       of a conflicted shared-memory or constant access serialise */
    if (out->pipe_cycles[GP_PIPE_ISSUE] < ISSUE_CYCLES_PER_WARP_INSTR)
        out->pipe_cycles[GP_PIPE_ISSUE] = ISSUE_CYCLES_PER_WARP_INSTR;
    return rc;
}

/* A block's cost: the common model (it walks the ops through tesla_op_cost;
   divergent paths run one after another). */
static int tesla_block_cost(const gp_host_t *host, const gp_device_t *dev,
                            const gp_kernel_t *kernel, const gp_occupancy_t *occ,
                            const gp_residency_t *res, gp_block_cost_t *out, char *err,
                            size_t errlen)
{
    return host->block_cost_standard(&DESCRIPTOR, dev, kernel, occ, res, out, err, errlen);
}

/* One kernel at a time: concurrent kernels arrived with 2.0 (PG42 F-1). */
static int tesla_arch_info(const gp_host_t *host, const gp_device_t *dev,
                           gp_arch_info_t *out, char *err, size_t errlen)
{
    (void)host;
    (void)dev;
    (void)err;
    (void)errlen;
    memset(out, 0, sizeof *out);
    out->max_concurrent_kernels = 1;
    return 0;
}

/* Device-file checks: the values a 1.x SM fixes (PG42 F.3.1, Tab F-2). */
static int tesla_check_device(const gp_host_t *host, const gp_device_t *d, char *err,
                              size_t errlen)
{
    const tesla_cc_t *c = rules_for(d, err, errlen);
    const char *what = NULL;
    unsigned long long have = 0, want = 0;
    (void)host;
    if (!c)
        return -1;
    if (d->registers_per_sm != c->registers_per_sm)
        what = "[sm] registers_per_sm", have = d->registers_per_sm, want = c->registers_per_sm;
    else if (d->max_threads_per_sm != c->max_threads_per_sm)
        what = "[sm] max_threads_per_sm", have = d->max_threads_per_sm,
        want = c->max_threads_per_sm;
    else if (d->warp_size != 32)
        what = "[sm] warp_size", have = d->warp_size, want = 32;
    else if (d->shared_memory_per_sm_bytes != SHARED_BYTES_1X)
        what = "[sm] shared_memory_per_sm_bytes", have = d->shared_memory_per_sm_bytes,
        want = SHARED_BYTES_1X;
    else if (d->schedulers_per_sm != 1)
        what = "[sm] schedulers_per_sm", have = d->schedulers_per_sm, want = 1;
    else if (d->l2_bytes != 0)
        what = "[memory] l2_bytes (no L2 caches global memory on 1.x)", have = d->l2_bytes,
        want = 0;
    else if (d->l1_bytes != 0 || d->l1_shared_bytes != 0)
        what = "[sm] l1_bytes / l1_shared_bytes (no L1 caches global memory on 1.x)",
        have = d->l1_bytes + d->l1_shared_bytes, want = 0;
    if (what) {
        snprintf(err, errlen, "%s is %llu; compute capability %u.%u has %llu", what, have,
                 d->cc_major, d->cc_minor, want);
        return -1;
    }
    if (d->max_threads_per_block > 512) {
        snprintf(err, errlen, "[sm] max_threads_per_block is %u; 1.x allows at most 512",
                 d->max_threads_per_block);
        return -1;
    }
    if ((d->fp64_lanes > 0) != (c->fp64 != 0)) {
        snprintf(err, errlen,
                 "[throughput] fp64_lanes is %g; compute capability %u.%u has %s", d->fp64_lanes,
                 d->cc_major, d->cc_minor,
                 c->fp64 ? "one double-precision unit per SM (1)" : "none (0)");
        return -1;
    }
    return 0;
}

static const gp_plugin_t DESCRIPTOR = {
    .abi_major = GP_ABI_MAJOR,
    .abi_minor = GP_ABI_MINOR,
    .name = "tesla",
    .description = "NVIDIA Tesla architecture (G80, G9x, GT200), compute capability 1.0-1.3",
    .version = "1.0",
    .n_ccs = 4,
    .ccs = {{1, 0}, {1, 1}, {1, 2}, {1, 3}},
    .params = PARAMS,
    .n_params = P_COUNT,
    .occupancy = tesla_occupancy,
    .op_cost = tesla_op_cost,
    .block_cost = tesla_block_cost,
    .arch_info = tesla_arch_info,
    .check_device = tesla_check_device,
};

/* The one exported symbol. */
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return &DESCRIPTOR;
}
