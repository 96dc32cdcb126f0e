/*
 * toyarch.c - an example gpuperf plugin for an imaginary GPU architecture,
 * "toyarch", compute capability 99.0. Read it from top to bottom: it is the
 * smallest complete plugin, and each part says which piece of the ABI
 * (gpuperf/plugin.h) it shows. docs/plugins.md is the reference.
 *
 * The imaginary architecture: SMs like a recent NVIDIA GPU's (32-thread
 * warps, four schedulers, a unified L1/shared array, an L2), with two
 * differences a device file can tune in its [arch] section:
 *   - it has no special-function units: sin, exp, rsqrt, ... run as a short
 *     polynomial of fp32 instructions (sfu_emulation_instructions of them);
 *   - global loads go through L1 only when the card is built with
 *     l1_caches_global = 1 (as with -dlcm=ca on Kepler).
 * Everything else is the host's common model: gpuperf's standard occupancy
 * calculation, op cost and block cost, fed with toyarch's rules as data.
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

/* The descriptor is defined at the end; the block-cost callback needs its
   address to hand to the host's common model. */
static const gp_plugin_t DESCRIPTOR;

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
/* Facet 1: SM resources (occupancy)                                         */
/* ------------------------------------------------------------------------ */

/*
 * Allocation rules as data, for the host's occupancy_standard(): registers
 * per warp in units of 256 over four sub-partitions, shared memory in
 * 128-byte units, at most 32 blocks, the shared-memory carve-outs the SM can
 * be configured with (KiB, ascending). The device file supplies the sizes
 * (registers_per_sm, shared_memory_per_sm_bytes, max_threads_per_sm...).
 */
static const gp_alloc_rules_t RULES = {
    .reg_granularity = GP_REG_ALLOC_WARP,
    .reg_alloc_unit = 256,
    .warp_alloc_granularity = 4,
    .max_regs_per_thread = 255,
    .smem_alloc_unit = 128,
    .max_blocks_per_sm = 32,
    .carveout_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228},
    .n_carveouts = 10,
};

/*
 * How many blocks of a launch fit on one SM, and what limits them. A launch
 * that cannot run at all is still an answer (blocks_per_sm 0, a limiter
 * such as GP_LIMIT_BLOCK_SIZE and a detail): return 0 for it. Return
 * non-zero only when the plugin itself cannot answer, after writing a
 * one-line reason into err.
 */
static int toyarch_occupancy(const gp_host_t *host, const gp_device_t *dev,
                             const gp_launch_t *launch, gp_occupancy_t *out, char *err,
                             size_t errlen)
{
    return host->occupancy_standard(dev, launch, &RULES, out, err, errlen);
}

/* ------------------------------------------------------------------------ */
/* Facets 2 and 3: warp scheduling and memory (the cost of one op)           */
/* ------------------------------------------------------------------------ */

/*
 * Memory rules as data, for the host's op_cost_standard(): per-warp
 * coalescing into 32-byte sectors, an L2, 32 banks of 4 bytes, atomics in
 * L2, asynchronous global-to-shared copies. Two variants: global loads
 * through L1, or not (the [arch] key l1_caches_global picks one).
 */
#define TOYARCH_MEM_COMMON                                                              \
    .coalesce_threads = 32, .segment_bytes = {32, 32, 32, 32, 32},                      \
    .min_segment_bytes = 32, .has_l2 = 1, .l1_segment_bytes = 32, .local_in_l1 = 1,     \
    .banks = 32, .bank_bytes = 4, .bank_threads = 32, .has_async_copy = 1,              \
    .atomics_in_l2 = 1

static const gp_mem_rules_t MEM_L1 = {TOYARCH_MEM_COMMON, .l1_caches_global = 1};
static const gp_mem_rules_t MEM_L2_ONLY = {TOYARCH_MEM_COMMON, .l1_caches_global = 0};

/*
 * toyarch's own rule: a transcendental is n dependent fp32 instructions (a
 * polynomial evaluated by Horner's rule). Units, as everywhere in the ABI:
 * pipe_cycles are SM cycles a pipe is busy for one warp-wide instruction
 * (the pipe serves one cycle per cycle per SM), latency_cycles is the wait
 * before a dependent instruction may issue.
 */
static void emulated_sfu_cost(const gp_device_t *dev, gp_op_cost_t *out)
{
    double n = dev->arch_params[P_SFU_EMULATION_INSTRUCTIONS];
    memset(out, 0, sizeof *out);
    /* n fp32 instructions of one warp: warp_size results each, fp32_lanes
       results per clock per SM */
    out->pipe_cycles[GP_PIPE_FP32] = n * dev->warp_size / dev->fp32_lanes;
    /* each takes an issue slot; the SM issues schedulers x dispatch per clock */
    out->pipe_cycles[GP_PIPE_ISSUE] =
        n / ((double)dev->schedulers_per_sm * (double)dev->dispatch_per_scheduler);
    /* Horner's rule: every step waits for the one before */
    out->latency_cycles = n * dev->fp32_cycles;
}

/*
 * The cost of one warp-wide instance of an op (never LOOP or DIVERGE: the
 * host walks those). Everything but transcendentals goes to the host's
 * common cost under toyarch's memory rules.
 */
static int toyarch_op_cost(const gp_host_t *host, const gp_device_t *dev,
                           const gp_kernel_t *kernel, const gp_op_t *op,
                           const gp_occupancy_t *occ, const gp_residency_t *res,
                           gp_op_cost_t *out, char *err, size_t errlen)
{
    const gp_mem_rules_t *mem =
        dev->arch_params[P_L1_CACHES_GLOBAL] >= 1 ? &MEM_L1 : &MEM_L2_ONLY;
    if (op->kind == GP_OP_SFU) {
        emulated_sfu_cost(dev, out);
        return 0;
    }
    /* An op the architecture cannot run is refused with a reason; gpuperf
       shows it with the script line of the op. */
    if (op->kind == GP_OP_TENSOR) {
        snprintf(err, errlen,
                 "%s (toyarch) has no tensor cores; describe the work as fp32 or fp16",
                 dev->name);
        return -1;
    }
    return host->op_cost_standard(dev, kernel, op, occ, res, mem, out, err, errlen);
}

/*
 * The cost of one block while res->blocks blocks of the kernel share the SM.
 * The host's common model walks the kernel's ops (loops, divergence),
 * calls toyarch_op_cost through the descriptor for each, and combines
 * latency, pipe throughput and memory bandwidth.
 */
static int toyarch_block_cost(const gp_host_t *host, const gp_device_t *dev,
                              const gp_kernel_t *kernel, const gp_occupancy_t *occ,
                              const gp_residency_t *res, gp_block_cost_t *out, char *err,
                              size_t errlen)
{
    return host->block_cost_standard(&DESCRIPTOR, dev, kernel, occ, res, out, err, errlen);
}

/* Generation-wide facts: up to 64 kernels at once, a hardware queue per
   stream. */
static int toyarch_arch_info(const gp_host_t *host, const gp_device_t *dev,
                             gp_arch_info_t *out, char *err, size_t errlen)
{
    (void)host;
    (void)dev;
    (void)err;
    (void)errlen;
    memset(out, 0, sizeof *out);
    out->max_concurrent_kernels = 64;
    out->kernel_queues = 0;
    return 0;
}

/*
 * Optional: checks of a device file beyond gpuperf's own schema, run when
 * the file is loaded. Refuse what the rules above assume is different;
 * gpuperf reports the message with the file's name.
 */
static int toyarch_check_device(const gp_host_t *host, const gp_device_t *dev, char *err,
                                size_t errlen)
{
    (void)host;
    if (dev->warp_size != 32 || dev->schedulers_per_sm != 4) {
        snprintf(err, errlen,
                 "[sm] warp_size = %u, schedulers_per_sm = %u; a toyarch SM has 32-thread "
                 "warps and 4 schedulers",
                 dev->warp_size, dev->schedulers_per_sm);
        return -1;
    }
    if (dev->l2_bytes == 0) {
        snprintf(err, errlen, "[memory] l2_bytes = 0; toyarch caches global memory in an L2");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The descriptor and the one exported symbol                                */
/* ------------------------------------------------------------------------ */

/*
 * What gpuperf reads first. abi_major/abi_minor record the header this file
 * was compiled with: gpuperf refuses another major or a newer minor. The
 * name must equal the file's base name (toyarch.so) and the `arch =` of the
 * device files. Unused fields (reserved[]) stay zero.
 */
static const gp_plugin_t DESCRIPTOR = {
    .abi_major = GP_ABI_MAJOR,
    .abi_minor = GP_ABI_MINOR,
    .name = "toyarch",
    .description = "toyarch, an imaginary GPU without special-function units (example)",
    .version = "1.0",
    .n_ccs = 1,
    .ccs = {{99, 0}},
    .params = PARAMS,
    .n_params = N_PARAMS,
    .occupancy = toyarch_occupancy,
    .op_cost = toyarch_op_cost,
    .block_cost = toyarch_block_cost,
    .arch_info = toyarch_arch_info,
    .check_device = toyarch_check_device,
};

/* gpuperf dlopen()s the file and calls this, its only exported symbol. */
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void)
{
    return &DESCRIPTOR;
}
