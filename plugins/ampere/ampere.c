/*
 * ampere.c - the architecture plugin for compute capability 8.x: GA100
 * (8.0: A100), GA10x (8.6: RTX 30xx, A40), GA10B (8.7: Jetson Orin) and
 * AD10x (8.9: RTX 40xx, L40).
 *
 * What Ampere shares with Hopper (warp-granular register allocation, 32-byte
 * sectors, a unified L1/shared array with carve-out steps, cp.async) is the
 * host's common model, driven by the rule tables below, one row per minor
 * version. What Ampere does differently is handled here:
 *   - on 8.6, 8.7 and 8.9 half of the 128 FP32 lanes are the INT32 lanes, so
 *     integer instructions consume FP32 issue capacity;
 *   - tensor-core work is counted in flops but issued as mma.sync
 *     instructions of a fixed shape per operand type, and the operand types
 *     differ by chip (FP64 only on GA100, FP8 only on AD10x);
 *   - cp.async moves 4, 8 or 16 bytes per thread.
 * Sources are cited by their keys in docs/sources.md ([sources: key], lower
 * case): OCC-H12 (cuda_occupancy.h), PG-L (Programming Guide,
 * Table 27 and section 8.x), WP-GA102 (GA102 whitepaper), PTX (PTX ISA).
 */
#include <stdio.h>
#include <string.h>

#include "gpuperf/plugin.h"

static const gp_plugin_t DESCRIPTOR;

/* Tensor types as bits of ampere_cc_t.tensor_types. */
#define TT(t) (1u << (t))

/* One compute capability: its allocation rules and what sets it apart. */
typedef struct ampere_cc {
    uint32_t minor;
    const char *chips;
    gp_alloc_rules_t alloc;
    /* 1: the INT32 lanes are half of the FP32 lanes (one of the two 16-lane
       datapaths per sub-partition runs FP32 or INT32), so an INT32
       instruction also occupies FP32 capacity */
    uint32_t int_shares_fp32;
    uint32_t tensor_types; /* TT(gp_tensor_type_t) the tensor cores execute */
} ampere_cc_t;

/*
 * SM resources exactly as cuda_occupancy.h (CUDA 12/13; OCC-H12) computes
 * them for major 8:
 *   cudaOccRegAllocationGranularity      256 registers per warp
 *   cudaOccSubPartitionsPerMultiprocessor 4
 *   cudaOccSMemAllocationGranularity     128 bytes (plus the per-block
 *                                        reservation the device file gives)
 *   cudaOccMaxBlocksPerMultiprocessor    32 (minor 0), 24 (minor 9),
 *                                        16 (every other minor: 8.6, 8.7)
 *   cudaOccAlignUpShmemSizeVoltaPlus     0, 8, 16, 32, 64, 100, 132, 164 KiB
 *                                        (minor 0 and 7), else up to 100 KiB
 *   block barriers                       no limit: cudaOccMaxActive-
 *                                        BlocksPerMultiprocessor applies
 *                                        its barrier limit from major 9 on
 * 255 registers per thread is the Programming Guide's limit (PG-L Table 27);
 * the header's internal constant (256) admits no more registers in practice.
 */
#define AMPERE_ALLOC(blocks, ...)                                                \
    {                                                                            \
        .reg_granularity = GP_REG_ALLOC_WARP, .reg_alloc_unit = 256,             \
        .warp_alloc_granularity = 4, .max_regs_per_thread = 255,                 \
        .smem_alloc_unit = 128, .max_blocks_per_sm = (blocks),                   \
        .carveout_kib = {__VA_ARGS__},                                           \
        .n_carveouts = sizeof((uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t),     \
        .barriers_per_sm_per_block_slot = 0,                                     \
    }

static const ampere_cc_t CCS[] = {
    /* GA100: 64 FP32 + 64 INT32 lanes per SM (PG-L 8.x);
       FP16, BF16, TF32, FP64 and INT8 tensor cores (A100 whitepaper; PTX:
       mma .f64 m8n8k4 from sm_80) */
    {0, "GA100", AMPERE_ALLOC(32, 0, 8, 16, 32, 64, 100, 132, 164), 0,
     TT(GP_TENSOR_FP16) | TT(GP_TENSOR_BF16) | TT(GP_TENSOR_TF32) | TT(GP_TENSOR_FP64) |
         TT(GP_TENSOR_INT8)},
    /* GA10x: 128 FP32 lanes of which 64 also run INT32 (PG-L 8.x; WP-GA102:
       "one datapath FP32-only, the other FP32 or INT32"); no FP64 tensor
       core */
    {6, "GA10x", AMPERE_ALLOC(16, 0, 8, 16, 32, 64, 100), 1,
     TT(GP_TENSOR_FP16) | TT(GP_TENSOR_BF16) | TT(GP_TENSOR_TF32) | TT(GP_TENSOR_INT8)},
    /* GA10B (Jetson Orin): the GA10x SM with GA100's 192 KiB L1/shared
       array, hence 8.0's carve-out steps (OCC-H12 treats minor 7 like 0
       there, and like 8.6 for the block limit) */
    {7, "GA10B", AMPERE_ALLOC(16, 0, 8, 16, 32, 64, 100, 132, 164), 1,
     TT(GP_TENSOR_FP16) | TT(GP_TENSOR_BF16) | TT(GP_TENSOR_TF32) | TT(GP_TENSOR_INT8)},
    /* AD10x: the GA10x SM plus FP8 (e4m3/e5m2) tensor cores (PTX: mma
       .e4m3/.e5m2 need sm_89) */
    {9, "AD10x", AMPERE_ALLOC(24, 0, 8, 16, 32, 64, 100), 1,
     TT(GP_TENSOR_FP16) | TT(GP_TENSOR_BF16) | TT(GP_TENSOR_TF32) | TT(GP_TENSOR_INT8) |
         TT(GP_TENSOR_FP8)},
};
#define N_CCS (sizeof CCS / sizeof CCS[0])

/*
 * Ampere's memory system, the same on every minor version: per-warp
 * coalescing into 32-byte sectors, global loads cached in the unified L1
 * with 32-byte fills (BPG 10.2.1; PG-L 8.x "same as 5.x"; JiaT Tab 3.1
 * fetch granularity), local memory in L1, 32 banks of 4 bytes resolved per
 * warp (PG-L 8.x), cp.async global->shared copies (PG-L 8.x "asynchronous
 * data copies"), global atomics performed in L2.
 */
static const gp_mem_rules_t MEM_8X = {
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

/* The mma.sync shape a warp issues for each operand type on 8.x (PTX ISA,
   "Matrix shapes" of mma: m16n8k16 for .f16/.bf16, m16n8k8 for .tf32,
   m8n8k4 for .f64, m16n8k32 for .s8/.u8 and .e4m3/.e5m2). */
static const struct mma_shape {
    uint32_t m, n, k;
} MMA_SHAPE[GP_TENSOR_TYPE_COUNT] = {
    [GP_TENSOR_FP16] = {16, 8, 16}, [GP_TENSOR_BF16] = {16, 8, 16},
    [GP_TENSOR_TF32] = {16, 8, 8},  [GP_TENSOR_FP64] = {8, 8, 4},
    [GP_TENSOR_INT8] = {16, 8, 32}, [GP_TENSOR_FP8] = {16, 8, 32},
};

static const char *const TENSOR_NAME[GP_TENSOR_TYPE_COUNT] = {
    "fp16", "bf16", "tf32", "fp64", "int8", "fp8",
};

/* The rules of the device's compute capability, or NULL. */
static const ampere_cc_t *cc_rules(const gp_device_t *dev)
{
    size_t i;
    if (dev->cc_major != 8)
        return NULL;
    for (i = 0; i < N_CCS; i++)
        if (CCS[i].minor == dev->cc_minor)
            return &CCS[i];
    return NULL;
}

/* The rules, or an error naming the capability. */
static const ampere_cc_t *need_rules(const gp_device_t *dev, char *err, size_t errlen)
{
    const ampere_cc_t *r = cc_rules(dev);
    if (!r)
        snprintf(err, errlen, "%s has compute capability %u.%u; the ampere plugin serves 8.0, "
                 "8.6, 8.7 and 8.9", dev->name, dev->cc_major, dev->cc_minor);
    return r;
}

/* The device file's tensor-core rate for a type, flops per clock per SM. */
static double tensor_rate(const gp_device_t *d, uint32_t type)
{
    switch (type) {
    case GP_TENSOR_FP16: return d->tensor_fp16_flops_per_clock;
    case GP_TENSOR_BF16: return d->tensor_bf16_flops_per_clock;
    case GP_TENSOR_TF32: return d->tensor_tf32_flops_per_clock;
    case GP_TENSOR_FP64: return d->tensor_fp64_flops_per_clock;
    case GP_TENSOR_INT8: return d->tensor_int8_ops_per_clock;
    case GP_TENSOR_FP8: return d->tensor_fp8_flops_per_clock;
    default: return 0;
    }
}

/* Facet 1: occupancy by cuda_occupancy.h's rules for the minor version. */
static int ampere_occupancy(const gp_host_t *host, const gp_device_t *dev,
                            const gp_launch_t *launch, gp_occupancy_t *out, char *err,
                            size_t errlen)
{
    const ampere_cc_t *r = need_rules(dev, err, errlen);
    if (!r)
        return -1;
    return host->occupancy_standard(dev, launch, &r->alloc, out, err, errlen);
}

/*
 * Tensor work. A script counts it in flops per thread; the SM issues it as
 * mma.sync instructions of MMA_SHAPE, each 2mnk flops for the warp. Per
 * thread-flop the tensor pipe is busy warp_size / rate SM cycles (the
 * device's dense rate), the scheduler spends one issue slot per
 * instruction, and a dependent mma waits the device's tensor latency (or,
 * where the device file has none, the instruction's own time on its
 * sub-partition's tensor core, the least it can take).
 */
static int tensor_cost(const ampere_cc_t *r, const gp_device_t *d, const gp_op_t *op,
                       gp_op_cost_t *out, char *err, size_t errlen)
{
    uint32_t t = op->tensor_type;
    double rate, warp = d->warp_size, flops_instr, per_thread, issue, busy;
    if (t >= GP_TENSOR_TYPE_COUNT) {
        snprintf(err, errlen, "unknown tensor type %u", t);
        return -1;
    }
    if (!(r->tensor_types & TT(t))) {
        snprintf(err, errlen,
                 "%s (compute capability 8.%u, %s) has no %s tensor cores%s; describe the "
                 "work with another tensor type or as %s arithmetic",
                 d->name, r->minor, r->chips, TENSOR_NAME[t],
                 t == GP_TENSOR_FP64 ? " (FP64 MMA is a GA100, 8.0, feature)"
                 : t == GP_TENSOR_FP8 ? " (FP8 MMA arrived with 8.9)"
                                      : "",
                 t == GP_TENSOR_FP64 ? "fp64" : "fp32/fp16");
        return -1;
    }
    rate = tensor_rate(d, t);
    if (!(rate > 0)) {
        snprintf(err, errlen,
                 "%s has no %s tensor-core rate: set [throughput] tensor_%s_%s_per_clock in "
                 "its device file",
                 d->name, TENSOR_NAME[t], TENSOR_NAME[t], t == GP_TENSOR_INT8 ? "ops" : "flops");
        return -1;
    }
    flops_instr = 2.0 * MMA_SHAPE[t].m * MMA_SHAPE[t].n * MMA_SHAPE[t].k;
    per_thread = flops_instr / warp;
    issue = 1.0 / ((double)d->schedulers_per_sm * (double)d->dispatch_per_scheduler);
    busy = flops_instr / (rate / (double)d->schedulers_per_sm);
    memset(out, 0, sizeof *out);
    out->pipe_cycles[GP_PIPE_TENSOR] = warp / rate;
    out->pipe_cycles[GP_PIPE_ISSUE] = issue / per_thread;
    out->latency_cycles = (d->tensor_cycles > 0 ? d->tensor_cycles : busy) / per_thread;
    return 0;
}

/* Facets 2 and 3: Ampere's own rules, then the common op cost. */
static int ampere_op_cost(const gp_host_t *host, const gp_device_t *dev,
                          const gp_kernel_t *kernel, const gp_op_t *op,
                          const gp_occupancy_t *occ, const gp_residency_t *res,
                          gp_op_cost_t *out, char *err, size_t errlen)
{
    const ampere_cc_t *r = need_rules(dev, err, errlen);
    uint32_t e = op->access.elem_bytes;
    if (!r)
        return -1;
    if (op->kind == GP_OP_TENSOR)
        return tensor_cost(r, dev, op, out, err, errlen);
    if (op->kind == GP_OP_ASYNC_COPY && !(e == 4 || e == 8 || e == 16)) {
        snprintf(err, errlen,
                 "an asynchronous copy (cp.async) moves 4, 8 or 16 bytes per thread, not %u; "
                 "split it into 16-byte copies",
                 e);
        return -1;
    }
    if (host->op_cost_standard(dev, kernel, op, occ, res, &MEM_8X, out, err, errlen))
        return -1;
    /* 8.6/8.7/8.9: an INT32 instruction runs on the datapath that would
       otherwise take FP32 work, so it also takes one instruction's share of
       the SM's FP32 capacity. With F FP32 and I INT32 instructions the time
       is then max((F + I) / fp32, I / int32) (the busier of the two pipes),
       which is exactly what two datapaths, one of them shared, can do. With
       one dispatch per scheduler per clock the FP32 term equals the issue
       limit, so mixed code runs at one instruction per clock either way; what
       sets 8.6 apart from 8.0 is that INT32 work is not free beside FP32:
       there it halves the FP32 rate, on 8.0 it runs on its own lanes. */
    if (r->int_shares_fp32 && op->kind == GP_OP_INT)
        out->pipe_cycles[GP_PIPE_FP32] += (double)dev->warp_size / dev->fp32_lanes;
    return 0;
}

/* A block's cost: the common model. */
static int ampere_block_cost(const gp_host_t *host, const gp_device_t *dev,
                             const gp_kernel_t *kernel, const gp_occupancy_t *occ,
                             const gp_residency_t *res, gp_block_cost_t *out, char *err,
                             size_t errlen)
{
    return host->block_cost_standard(&DESCRIPTOR, dev, kernel, occ, res, out, err, errlen);
}

/* Up to 128 kernels run at once from compute capability 7.0 on (PG-L Table
   27, "Maximum number of resident grids per device"). */
static int ampere_arch_info(const gp_host_t *host, const gp_device_t *dev,
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

/* A device file must agree with the rules its compute capability implies. */
static int ampere_check_device(const gp_host_t *host, const gp_device_t *dev, char *err,
                               size_t errlen)
{
    const ampere_cc_t *r = need_rules(dev, err, errlen);
    uint64_t max_carve;
    (void)host;
    if (!r)
        return -1;
    max_carve = (uint64_t)r->alloc.carveout_kib[r->alloc.n_carveouts - 1] * 1024;
    if (dev->warp_size != 32) {
        snprintf(err, errlen, "[sm] warp_size = %u; compute capability 8.x has 32-thread warps",
                 dev->warp_size);
        return -1;
    }
    if (dev->schedulers_per_sm != r->alloc.warp_alloc_granularity) {
        snprintf(err, errlen,
                 "[sm] schedulers_per_sm = %u; an 8.x SM has %u sub-partitions, each with one "
                 "scheduler (cuda_occupancy.h allocates registers per sub-partition)",
                 dev->schedulers_per_sm, r->alloc.warp_alloc_granularity);
        return -1;
    }
    if (dev->max_blocks_per_sm != r->alloc.max_blocks_per_sm) {
        snprintf(err, errlen,
                 "[sm] max_blocks_per_sm = %u; compute capability 8.%u allows %u resident "
                 "blocks (cuda_occupancy.h)",
                 dev->max_blocks_per_sm, r->minor, r->alloc.max_blocks_per_sm);
        return -1;
    }
    if (dev->shared_memory_per_sm_bytes > max_carve) {
        snprintf(err, errlen,
                 "[sm] shared_memory_per_sm_bytes = %llu is above the largest carve-out of "
                 "compute capability 8.%u (%llu bytes, %u KiB)",
                 (unsigned long long)dev->shared_memory_per_sm_bytes, r->minor,
                 (unsigned long long)max_carve, (unsigned)(max_carve / 1024));
        return -1;
    }
    if (dev->l1_shared_bytes && dev->l1_shared_bytes < dev->shared_memory_per_sm_bytes) {
        snprintf(err, errlen,
                 "[sm] l1_shared_bytes = %llu is smaller than shared_memory_per_sm_bytes = %llu; "
                 "the unified array holds the whole carve-out",
                 (unsigned long long)dev->l1_shared_bytes,
                 (unsigned long long)dev->shared_memory_per_sm_bytes);
        return -1;
    }
    if (r->int_shares_fp32 && dev->int32_lanes > dev->fp32_lanes) {
        snprintf(err, errlen,
                 "[throughput] int32_lanes = %g exceeds fp32_lanes = %g; on 8.%u the INT32 "
                 "lanes are part of the FP32 lanes",
                 dev->int32_lanes, dev->fp32_lanes, r->minor);
        return -1;
    }
    return 0;
}

static const gp_plugin_t DESCRIPTOR = {
    .abi_major = GP_ABI_MAJOR,
    .abi_minor = GP_ABI_MINOR,
    .name = "ampere",
    .description = "NVIDIA Ampere and Ada (GA100, GA10x, GA10B, AD10x), compute capability "
                   "8.0, 8.6, 8.7, 8.9",
    .version = "1.0",
    .n_ccs = 4,
    .ccs = {{8, 0}, {8, 6}, {8, 7}, {8, 9}},
    .params = NULL,
    .n_params = 0,
    .occupancy = ampere_occupancy,
    .op_cost = ampere_op_cost,
    .block_cost = ampere_block_cost,
    .arch_info = ampere_arch_info,
    .check_device = ampere_check_device,
};

/* The one exported symbol. */
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return &DESCRIPTOR;
}
