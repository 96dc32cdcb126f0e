/*
 * evil.c - a plugin that misbehaves on demand, for the robustness tests.
 *
 * It serves compute capability 9.0 and declares one [arch] key, `mode`; a
 * device file naming it picks how it lies (EVIL_* below). Mode 0 behaves.
 * Whatever it returns, gpuperf must answer with a clean error that names
 * the plugin, and never use the bad number.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpuperf/plugin.h"

enum {
    EVIL_NONE = 0,
    EVIL_OCC_FAIL_SILENT = 1,  /* occupancy fails without a reason */
    EVIL_OCC_TOO_MANY = 2,     /* more blocks per SM than the device has slots */
    EVIL_OCC_NO_WARPS = 3,     /* blocks, but zero warps per block */
    EVIL_OCC_NEGATIVE = 4,     /* occupancy below zero */
    EVIL_OP_NAN_LATENCY = 5,   /* op_cost: NaN latency */
    EVIL_OP_NEG_PIPE = 6,      /* op_cost: negative busy cycles */
    EVIL_OP_INF_BYTES = 7,     /* op_cost: infinite DRAM traffic */
    EVIL_OP_FAIL = 8,          /* op_cost fails with a message */
    EVIL_BLOCK_ZERO = 9,       /* block_cost: 0 cycles */
    EVIL_BLOCK_INF = 10,       /* block_cost: infinite time */
    EVIL_BLOCK_NAN = 11,       /* block_cost: NaN time */
    EVIL_BLOCK_NAN_LATENCY = 12, /* block_cost: a good time, NaN latency */
    EVIL_BLOCK_NEG_BYTES = 13, /* block_cost: negative DRAM bytes */
    EVIL_BLOCK_BAD_BOUND = 14, /* block_cost: a bound gpuperf does not know */
    EVIL_UNUSED_15 = 15,       /* behaves (generation facts are data) */
    EVIL_CHECK_REJECT = 16,    /* check_device refuses every device */
    EVIL_LONG_MESSAGE = 17,    /* op_cost fails, filling err without a NUL */
    EVIL_OCC_DETAIL_FULL = 18, /* an impossible launch, detail without a NUL */
    EVIL_MODES
};

static const gp_alloc_rules_t RULES = {
    .reg_granularity = GP_REG_ALLOC_WARP, .reg_alloc_unit = 256, .warp_alloc_granularity = 4,
    .max_regs_per_thread = 255, .smem_alloc_unit = 128,
    .carveout_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, .n_carveouts = 10};

static const gp_mem_rules_t MEM = {
    .coalesce_threads = 32, .segment_bytes = {32, 32, 32, 32, 32}, .min_segment_bytes = 32,
    .has_l2 = 1, .l1_global = GP_L1_GLOBAL_DEFAULT_ON, .l1_global_writes = 1,
    .l1_segment_bytes = 32, .local_in_l1 = 1, .banks = 32, .bank_bytes = 4, .bank_threads = 32,
    .atomics_in_l2 = 1};

static const gp_generation_t GENS[] = {
    {.cc = {9, 0}, .alloc = &RULES, .mem = &MEM, .info = {.max_concurrent_kernels = 4}},
};

/* The mode the device file asked for. */
static int mode(const gp_device_t *d)
{
    return (int)d->arch_params[0];
}

/* Lies about occupancy in the occupancy modes; the core answers otherwise. */
static int evil_occupancy(const gp_host_t *h, const gp_generation_t *g, const gp_device_t *d,
                          const gp_launch_t *l, gp_occupancy_t *o, char *e, size_t n)
{
    uint32_t warps = (uint32_t)((l->threads_per_block + d->warp_size - 1) / d->warp_size);
    (void)h, (void)g, (void)e, (void)n;
    o->blocks_per_sm = 8;
    o->warps_per_block = warps;
    o->active_warps = 8 * warps;
    o->max_warps = d->max_threads_per_sm / d->warp_size;
    o->occupancy = o->max_warps ? (double)o->active_warps / o->max_warps : 0;
    o->limiter = GP_LIMIT_WARPS;
    o->limit_warps = o->limit_blocks = o->limit_registers = o->limit_shared_memory =
        o->limit_barriers = 1;
    switch (mode(d)) {
    case EVIL_OCC_FAIL_SILENT: return -1;
    case EVIL_OCC_TOO_MANY: o->blocks_per_sm = 1000000; return 0;
    case EVIL_OCC_NO_WARPS: o->warps_per_block = 0; return 0;
    case EVIL_OCC_NEGATIVE: o->occupancy = -0.5; return 0;
    case EVIL_OCC_DETAIL_FULL:
        o->blocks_per_sm = 0;
        o->occupancy = 0;
        o->limiter = GP_LIMIT_BLOCK_SIZE;
        memset(o->detail, 'x', sizeof o->detail);
        return 0;
    default: return GP_DEFAULT;
    }
}

/* Bad op costs in the op modes. */
static int evil_op_cost(const gp_host_t *h, const gp_generation_t *g, const gp_device_t *d,
                        const gp_kernel_t *k, const gp_op_t *op, const gp_occupancy_t *occ,
                        const gp_residency_t *r, gp_op_cost_t *out, char *e, size_t n)
{
    (void)h, (void)g, (void)k, (void)op, (void)occ, (void)r;
    out->pipe_cycles[GP_PIPE_FP32] = 1;
    out->latency_cycles = 4;
    switch (mode(d)) {
    case EVIL_OP_NAN_LATENCY: out->latency_cycles = NAN; return 0;
    case EVIL_OP_NEG_PIPE: out->pipe_cycles[GP_PIPE_FP32] = -4; return 0;
    case EVIL_OP_INF_BYTES: out->dram_bytes = INFINITY; return 0;
    case EVIL_OP_FAIL: snprintf(e, n, "%s", "evil refuses this op"); return -1;
    case EVIL_LONG_MESSAGE: memset(e, 'y', n); return -1;
    default: return GP_DEFAULT;
    }
}

/* Bad block costs in the block modes. */
static int evil_block_cost(const gp_host_t *h, const gp_generation_t *g, const gp_device_t *d,
                           const gp_kernel_t *k, const gp_occupancy_t *occ,
                           const gp_residency_t *r, gp_block_cost_t *out, char *e, size_t n)
{
    (void)h, (void)g, (void)k, (void)occ, (void)r, (void)e, (void)n;
    out->time_cycles = 1000;
    out->bound_pipe = GP_PIPE_LDST;
    switch (mode(d)) {
    case EVIL_BLOCK_ZERO: out->time_cycles = 0; return 0;
    case EVIL_BLOCK_INF: out->time_cycles = INFINITY; return 0;
    case EVIL_BLOCK_NAN: out->time_cycles = NAN; return 0;
    case EVIL_BLOCK_NAN_LATENCY: out->latency_cycles = NAN; return 0;
    case EVIL_BLOCK_NEG_BYTES: out->dram_bytes = -1; return 0;
    case EVIL_BLOCK_BAD_BOUND: out->bound = 99; return 0;
    default: return GP_DEFAULT;
    }
}

static int evil_check_device(const gp_host_t *h, const gp_generation_t *g, const gp_device_t *d,
                             char *e, size_t n)
{
    (void)h, (void)g;
    if (mode(d) == EVIL_CHECK_REJECT) {
        snprintf(e, n, "%s", "evil rejects every device in mode 16");
        return -1;
    }
    return 0;
}

static const gp_param_spec_t PARAMS[] = {
    {"mode", 0, EVIL_MODES - 1, 0, 0, "how the plugin misbehaves (0: it does not)"},
};

static const gp_plugin_t DESCRIPTOR = {
    .abi_major = GP_ABI_MAJOR,
    .abi_minor = GP_ABI_MINOR,
    .name = "evil",
    .description = "test plugin that returns bad numbers on demand",
    .version = "0",
    .gens = GENS,
    .n_gens = 1,
    .params = PARAMS,
    .n_params = 1,
    .occupancy = evil_occupancy,
    .op_cost = evil_op_cost,
    .block_cost = evil_block_cost,
    .check_device = evil_check_device,
};

GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return &DESCRIPTOR;
}
