/*
 * toyarch.c - an example gpuperf plugin for an imaginary GPU architecture,
 * "toyarch", compute capability 99.0. Read it from top to bottom: it is the
 * smallest complete plugin, and each part says which piece of the ABI
 * (gpuperf/plugin.h) it shows. docs/plugins.md is the reference.
 *
 * The imaginary architecture: SMs like a recent NVIDIA GPU's (32-thread
 * warps, four schedulers, a unified L1/shared array, an L2), with rules of
 * its own, all given as data in its generation table:
 *   - coalescing by half-warps into 64-byte segments;
 *   - 16 shared-memory banks of 8 bytes;
 *   - a barrier takes three round trips through the barrier unit;
 * and two differences a device file can tune in its [arch] section:
 *   - it has no special-function units: sin, exp, rsqrt, ... run as a short
 *     polynomial of fp32 instructions (sfu_emulation_instructions of them),
 *     the one rule that needs code (an op_cost callback);
 *   - global loads go through L1 only when the card is built with
 *     l1_caches_global = 1.
 * Everything else is gpuperf's own occupancy, op cost and block cost, fed
 * with toyarch's rules.
 *
 * Build it out of tree against an installed gpuperf (see CMakeLists.txt):
 *     cmake -S . -B build && cmake --build build
 * then point gpuperf at it and at a device file that names it:
 *     GPUPERF_PLUGIN_PATH=$PWD/build gpuperf plugins
 *     GPUPERF_PLUGIN_PATH=$PWD/build gpuperf predict --device toyarch-t1.ini \
 *         PREFIX/share/gpuperf/scripts/saxpy.lua
 *     gpuperf plugin-check build/toyarch.so --device toyarch-t1.ini
 */
#include <stdio.h>
#include <string.h>

/* The one header a plugin needs; `pkg-config --cflags gpuperf-plugin`
   points the compiler at it. Include nothing of gpuperf's besides. */
#include <gpuperf/plugin.h>

/* ------------------------------------------------------------------------ */
/* [arch] keys: device-file settings that only this plugin knows             */
/* ------------------------------------------------------------------------ */

/*
 * A plugin declares the keys of its device files' [arch] section in
 * gp_plugin_t.params. gpuperf checks each key's range (and that required
 * keys are present) when it loads a device file, and hands the values to
 * every callback in dev->arch_params[i], in the order declared here; a key
 * that a file leaves out holds its default. Put the unit in the name.
 */
enum { P_SFU_EMULATION_INSTRUCTIONS = 0, P_L1_CACHES_GLOBAL, N_PARAMS };

static const gp_param_spec_t PARAMS[N_PARAMS] = {
    [P_SFU_EMULATION_INSTRUCTIONS] = {
        .key = "sfu_emulation_instructions",
        .min = 1,
        .max = 64,
        .default_value = 12,
        .required = 0,
        .help = "fp32 instructions one transcendental (sin, exp, rsqrt) takes in software",
    },
    [P_L1_CACHES_GLOBAL] = {
        .key = "l1_caches_global",
        .min = 0,
        .max = 1,
        .default_value = 1,
        .required = 0,
        .help = "1: global loads are cached in L1; 0: L2 only",
    },
};

/* ------------------------------------------------------------------------ */
/* The generation, as data                                                   */
/* ------------------------------------------------------------------------ */

/*
 * Allocation rules, for gpuperf's occupancy calculation: registers per warp
 * in units of 256 over four sub-partitions, shared memory in 128-byte
 * units, the shared-memory carve-outs the SM can be configured with (KiB,
 * ascending). The device file supplies the sizes (registers_per_sm,
 * shared_memory_per_sm_bytes, max_threads_per_sm, max_blocks_per_sm...).
 */
static const gp_alloc_rules_t ALLOC = {
    .reg_granularity = GP_REG_ALLOC_WARP,
    .reg_alloc_unit = 256,
    .warp_alloc_granularity = 4,
    .max_regs_per_thread = 255,
    .smem_alloc_unit = 128,
    .carveout_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228},
    .n_carveouts = 10,
};

/*
 * Memory rules, for gpuperf's op cost: toyarch coalesces a half-warp (16
 * threads) at a time into 64-byte segments; its L1 fetches 64 bytes from
 * an L2; global loads use L1 where the [arch] key l1_caches_global says so;
 * 16 banks of 8 bytes resolve a whole warp; atomics are done in L2.
 */
static const gp_mem_rules_t MEM = {
    .coalesce_threads = 16,
    .segment_bytes = {64, 64, 64, 64, 64},
    .min_segment_bytes = 64,
    .has_l2 = 1,
    .l1_global = GP_L1_GLOBAL_IF_PARAM,
    .l1_global_optin_param = P_L1_CACHES_GLOBAL + 1,
    .l1_global_writes = 1,
    .l1_segment_bytes = 64,
    .local_in_l1 = 1,
    .banks = 16,
    .bank_bytes = 8,
    .bank_threads = 32,
    .bank_broadcast = GP_BANK_BROADCAST_ANY,
    .bank_wide = GP_BANK_WIDE_PHASES,
    .atomics_in_l2 = 1,
};

/* Ops whose cost differs from gpuperf's default: a barrier is three
   dependent round trips (arrive, combine, release) of the device's
   barrier_cycles. An op the architecture lacks would say since = {...}. */
static const gp_op_rule_t OPS[GP_OP_KIND_COUNT] = {
    [GP_OP_BARRIER] = {.instructions = 3},
};

/* One generation, compute capability 99.0; up to 64 kernels at once, a
   hardware queue per stream. No tensor rules: toyarch has no tensor cores,
   and gpuperf refuses tensor work on it with that reason. */
static const gp_generation_t GENS[] = {
    {.cc = {99, 0},
     .chips = "toyarch",
     .alloc = &ALLOC,
     .mem = &MEM,
     .ops = OPS,
     .info = {.max_concurrent_kernels = 64, .kernel_queues = 0}},
};

/* ------------------------------------------------------------------------ */
/* The one rule that needs code                                              */
/* ------------------------------------------------------------------------ */

/*
 * The cost of one warp-wide instance of an op (never LOOP or DIVERGE:
 * gpuperf walks those). A transcendental is n dependent fp32 instructions
 * (a polynomial evaluated by Horner's rule), n from the device file; every
 * other op is left to gpuperf (GP_DEFAULT). Units, as everywhere in the
 * ABI: pipe_cycles are SM cycles a pipe is busy for one warp-wide
 * instruction (the pipe serves one cycle per cycle per SM), latency_cycles
 * is the wait before a dependent instruction may issue.
 */
static int toyarch_op_cost(const gp_host_t *host, const gp_generation_t *gen,
                           const gp_device_t *dev, const gp_kernel_t *kernel,
                           const gp_op_t *op, const gp_occupancy_t *occ,
                           const gp_residency_t *res, gp_op_cost_t *out, char *err,
                           size_t errlen)
{
    double n = dev->arch_params[P_SFU_EMULATION_INSTRUCTIONS];
    (void)host, (void)gen, (void)kernel, (void)occ, (void)res, (void)err, (void)errlen;
    if (op->kind != GP_OP_SFU)
        return GP_DEFAULT;
    /* n fp32 instructions of one warp: warp_size results each, fp32_lanes
       results per clock per SM */
    out->pipe_cycles[GP_PIPE_FP32] = n * dev->warp_size / dev->fp32_lanes;
    /* each takes an issue slot; the SM issues schedulers x dispatch per clock */
    out->pipe_cycles[GP_PIPE_ISSUE] =
        n / ((double)dev->schedulers_per_sm * (double)dev->dispatch_per_scheduler);
    /* Horner's rule: every step waits for the one before */
    out->latency_cycles = n * dev->fp32_cycles;
    return 0;
}

/*
 * Optional: checks of a device file beyond gpuperf's own schema, run when
 * the file is loaded. Refuse what the rules above assume is different;
 * gpuperf reports the message with the file's name.
 */
static int toyarch_check_device(const gp_host_t *host, const gp_generation_t *gen,
                                const gp_device_t *dev, char *err, size_t errlen)
{
    (void)host, (void)gen;
    if (dev->l2_bytes == 0) {
        snprintf(err, errlen, "[memory] l2_bytes = 0; toyarch caches global memory in an L2");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The descriptor and the entry point                                        */
/* ------------------------------------------------------------------------ */

/*
 * The descriptor starts with the ABI version this file was compiled
 * against; gpuperf refuses a plugin of another major version or of a newer
 * minor. Its generation table is the model; callbacks left NULL are
 * gpuperf's own.
 */
static const gp_plugin_t DESCRIPTOR = {
    .abi_major = GP_ABI_MAJOR,
    .abi_minor = GP_ABI_MINOR,
    .name = "toyarch",
    .description = "example plugin: an imaginary GPU with half-warp coalescing, 16 banks "
                   "and emulated transcendentals",
    .version = "2.0",
    .gens = GENS,
    .n_gens = sizeof GENS / sizeof GENS[0],
    .params = PARAMS,
    .n_params = N_PARAMS,
    .op_cost = toyarch_op_cost,
    .check_device = toyarch_check_device,
};

/* The one exported symbol: gpuperf dlopen()s toyarch.so, looks it up by
   name (GP_PLUGIN_SYMBOL) and calls it once. */
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return &DESCRIPTOR;
}
