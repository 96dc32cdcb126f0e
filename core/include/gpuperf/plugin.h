/*
 * gpuperf/plugin.h - the architecture plugin ABI.
 *
 * This header is everything a plugin author needs. A plugin is a shared
 * object that exports exactly one symbol, GP_PLUGIN_SYMBOL, a function that
 * returns a pointer to a constant gp_plugin_t descriptor. The descriptor
 * starts with the ABI version the plugin was built against; the loader checks
 * it (and every required callback) before it calls anything else.
 *
 * What a generation *does* (allocation rules, warp issue, coalescing, caches)
 * lives in a plugin; what a particular card *has* (SM count, clocks,
 * bandwidths, latencies) lives in its device file and reaches the plugin as a
 * const gp_device_t. Plugins call back into gpuperf only through the const
 * gp_host_t they are handed, so they need no symbols from the executable.
 *
 * Versioning promise: within one GP_ABI_MAJOR, structs only grow at the end
 * (into their reserved space) and gp_host_t only gains function pointers at
 * its end. The loader refuses a plugin whose major differs from the host's or
 * whose minor is newer than the host's.
 *
 * Units: every field carries its unit in its name (_cycles, _bytes, _us,
 * _gbps, _mhz). "cycles" are SM (shader) clock cycles at core_clock_mhz.
 * Callbacks are pure functions of their inputs: they keep no state between
 * calls, allocate nothing the caller must free and may be called from several
 * threads at once. They return 0 on success, or non-zero after writing a
 * one-line reason (no trailing newline) into err (errlen bytes, always
 * NUL-terminated).
 */
#ifndef GPUPERF_PLUGIN_H
#define GPUPERF_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version of this header. */
#define GP_ABI_MAJOR 2
#define GP_ABI_MINOR 0

/* Name of the one symbol a plugin exports; its type is gp_plugin_entry_fn. */
#define GP_PLUGIN_SYMBOL "gpuperf_plugin"

/* Marks the entry point as exported even under -fvisibility=hidden. */
#if defined(__GNUC__)
#define GP_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define GP_PLUGIN_EXPORT
#endif

/* Limits of the fixed-size fields below. */
#define GP_NAME_MAX 64        /* device and plugin names, with the NUL */
#define GP_MAX_CCS 16         /* compute capabilities one plugin may serve */
#define GP_MAX_ARCH_PARAMS 32 /* plugin-declared device keys ([arch] section) */

/* ------------------------------------------------------------------------ */
/* Device: what one card has (read from its INI file, validated by gpuperf)  */
/* ------------------------------------------------------------------------ */

/*
 * A device as loaded from devices/NAME.ini. All values are validated before a
 * plugin sees them: counts are positive where the key is required, optional
 * keys that a file leaves out are 0 (meaning "the card has none" or "not
 * known"). Section and key names in the INI file match the field names below
 * (for example [memory] dram_bandwidth_gbps).
 */
typedef struct gp_device {
    /* [device] */
    char name[GP_NAME_MAX];      /* display name, e.g. "NVIDIA H200 SXM" */
    char id[GP_NAME_MAX];        /* file base name, e.g. "h200-sxm" */
    char arch[GP_NAME_MAX];      /* plugin name, e.g. "hopper" */
    uint32_t cc_major, cc_minor; /* compute capability */
    uint32_t sm_count;
    double core_clock_mhz;   /* SM (shader) clock: one "cycle" everywhere */
    double memory_clock_mhz; /* informational */

    /* [sm] */
    uint32_t warp_size;
    uint32_t max_threads_per_block;
    uint32_t max_threads_per_sm;
    uint32_t max_blocks_per_sm;
    uint32_t registers_per_sm;
    uint32_t max_registers_per_block;
    uint32_t max_registers_per_thread;
    uint32_t schedulers_per_sm;
    uint32_t dispatch_per_scheduler; /* instructions a scheduler issues per cycle */
    uint64_t shared_memory_per_sm_bytes;     /* largest shared-memory carve-out */
    uint64_t shared_memory_per_block_bytes;  /* default per-block limit */
    uint64_t shared_memory_per_block_optin_bytes; /* opt-in limit (>= default) */
    uint64_t reserved_shared_memory_per_block_bytes;
    uint64_t l1_shared_bytes; /* unified L1 + shared array; 0 if separate */
    uint64_t l1_bytes;        /* L1 for global loads when not unified; 0 none */
    uint64_t max_grid_x, max_grid_y, max_grid_z;
    uint32_t max_block_x, max_block_y, max_block_z;

    /* [throughput]: results per clock per SM */
    double fp32_lanes;
    double fp64_lanes;
    double fp16_lanes;
    double int32_lanes;
    double sfu_lanes;
    double conversion_lanes;
    double ldst_lanes;
    double shared_memory_bytes_per_clock;
    double tensor_fp16_flops_per_clock; /* dense, per SM; 0: no tensor cores */
    double tensor_bf16_flops_per_clock;
    double tensor_tf32_flops_per_clock;
    double tensor_fp64_flops_per_clock;
    double tensor_int8_ops_per_clock;
    double tensor_fp8_flops_per_clock;

    /* [memory] */
    uint64_t dram_bytes;
    double dram_bandwidth_gbps;   /* theoretical peak, GB/s (1e9 bytes) */
    double dram_sustained_gbps;   /* measured streaming ceiling (read+write) */
    uint64_t l2_bytes;
    double l2_bandwidth_gbps;
    uint32_t sector_bytes;        /* smallest memory transaction */
    uint32_t l1_line_bytes;
    uint32_t dram_fetch_bytes;    /* bytes DRAM delivers per L2 miss */
    uint64_t readonly_cache_bytes; /* texture / read-only data cache per SM */
    uint64_t constant_cache_bytes; /* per SM */
    double pcie_bandwidth_gbps;   /* host link, one direction */
    double pcie_latency_us;
    double nvlink_bandwidth_gbps; /* peer link, one direction; 0: none */
    double nvlink_latency_us;
    /* DRAM bytes one 4-byte read costs when a warp's reads lie 32, 64, 128
       and 256 bytes apart (measured; row-buffer and fetch-granule effects);
       0: not known, sectors cost dram_fetch_bytes */
    double sparse_read_bytes[4];

    /* [latency]: dependent-issue latencies, cycles */
    double fp32_cycles;
    double fp64_cycles;
    double fp16_cycles;
    double int32_cycles;
    double sfu_cycles;
    double conversion_cycles;
    double branch_cycles;
    double shared_memory_cycles;
    double l1_hit_cycles;
    double l2_hit_cycles;
    double dram_cycles;
    double constant_cycles;
    double barrier_cycles;
    double atomic_cycles;
    double tensor_cycles;

    /* [launch] */
    double launch_overhead_us;  /* host time per launch, back to back */
    double launch_latency_us;   /* from submission until the kernel runs and
                                   its completion is seen, for a null kernel */
    double block_launch_cycles; /* per-SM cost of starting one block */

    /* [arch]: the keys the plugin declared in gp_plugin_t.params, in order;
       a key the file leaves out holds the declared default. */
    double arch_params[GP_MAX_ARCH_PARAMS];

    /* [launch], added within ABI 1 (taken from the reserved space) */
    double graph_launch_us; /* host time to launch a CUDA graph; 0: not known */
    double graph_node_us;   /* host time per node of a launched graph; 0: not known */

    /* Added within ABI 2 (the reserved space, then growing at the end).
       Measured rates and latencies of instructions the pipe classes above do
       not tell apart; 0: not known, the generation's rule applies. */
    /* [throughput]: results per clock per SM */
    double shfl_lanes, shfl_down_lanes, vote_lanes, vote_all_lanes, match_lanes,
        warp_reduce_lanes;
    double int32_add_lanes, int32_logic_lanes, int32_shift_lanes, int32_mul_lanes;
    double idiv_lanes, imod_lanes, fdiv_lanes, rcp_lanes, rcp_fast_lanes;
    double f2i_lanes, i2f_lanes, f2h_lanes;
    /* [throughput]: SM cycles per warp-wide shared-memory atomic to distinct
       words, and per further lane that hits a word another lane hits */
    double shared_atomic_cycles, shared_atomic_conflict_cycles;
    /* [latency]: dependent-issue latencies, cycles */
    double shfl_cycles, shfl_down_cycles, vote_cycles, vote_all_cycles, match_cycles,
        warp_reduce_cycles;
    double int32_add_cycles, int32_logic_cycles, int32_shift_cycles, int32_mul_cycles;
    double idiv_cycles, imod_cycles, fdiv_cycles, rcp_cycles, rcp_fast_cycles;
    double f2i_cycles, i2f_cycles, f2h_cycles;
    /* [latency]: a block barrier, above the work around it: a fixed part and
       a part per warp of the block; a dependent fp32 atomic on one word */
    double barrier_base_cycles, barrier_per_warp_cycles;
    double atomic_f32_cycles;
    /* [memory]: global atomics the whole GPU completes per SM cycle: all on
       one address, one address per warp (distinct between warps), every
       thread its own address */
    double atomic_same_address_per_cycle, atomic_warp_address_per_cycle,
        atomic_distinct_per_cycle;

    /* [latency], added within ABI 2 (taken from the reserved space): the
       latency of an L2 hit whose line lies beyond the near L2 partition (a
       random chase over more than one partition), of a random DRAM access
       (rows and pages missed), the extra cycles of an address-translation
       miss, and the bytes the TLBs map without one; 0: not known / none */
    double l2_random_cycles;
    double dram_random_cycles;
    double tlb_miss_cycles;
    uint64_t tlb_reach_bytes;

    /* [memory], added within ABI 2 (the reserved space, then growing at the
       end): warp-level global atomics the whole GPU completes per SM cycle
       when the whole grid adds to one word whose address is warp-uniform
       (a kernel argument), by what the lanes add: an int value (result
       unused), the constant 1 (result unused), the constant 1 with the
       result used (a queue append), a float value; 0: not known */
    double atomic_uniform_warps_per_cycle, atomic_uniform_inc_warps_per_cycle,
        atomic_uniform_result_warps_per_cycle, atomic_uniform_f32_warps_per_cycle;
    /* [throughput]: SM cycles per warp-wide shared-memory increment by a
       constant with the result unused (one ATOMS.POPC.INC on sm_90), whatever
       the lanes per address; 0: not known */
    double shared_atomic_inc_cycles;
    /* [throughput], added within ABI 2 (taken from the reserved space): the
       bytes per SM cycle the L1 returns to the warps' loads that hit it
       (128-byte requests, all resident warps loading); 0: not known, a line
       per clock (l1_line_bytes) */
    double l1_load_bytes_per_cycle;

    /* [launch], added within ABI 2 (taken from the reserved space): the
       shortest time from one block's start to the next one's on an SM slot
       whose block must leave before the next can start (dispatch, shared
       memory allocation, warp start, a minimal block's load, store and exit,
       resources released); 0: not known (block_launch_cycles alone) */
    double block_turnaround_cycles;

    /* [launch], added within ABI 2 (taken from the reserved space; later keys
       grow the struct at its end): the shortest time from a kernel's end to
       the start of a kernel that depends on it and is already submitted, in
       a stream (or through an event) and between the kernel nodes of a
       replayed graph; 0: not known (none) */
    double kernel_dep_gap_us;
    double graph_dep_gap_us;

    /* [memory], added within ABI 2 (growing at the end): how global atomics
       spread over the L2's atomic units: the units that serve a large
       footprint in parallel, and the bytes of a footprint per unit (a
       footprint of F bytes keeps units (1 - exp(-F / (bytes units))) busy);
       0: not known (the per-address rates above alone) */
    double atomic_l2_units, atomic_unit_bytes;

    /* Added within ABI 2 (growing at the end): the lines of one warp request.
       [latency] cycles a request waits per line beyond its first when it
       hits L1 (l1_line_cycles), per further line on one bank column (lines
       read at one offset: l1_bank_pass_cycles), per line beyond the first
       past L1 (l2_line_cycles), and per doubling of its lines at DRAM (the
       slowest of the lanes' DRAM latencies: dram_lines_log2_cycles).
       [throughput] SM cycles the L1 is busy per bank pass
       (l1_bank_pass_issue_cycles) and per line (l1_line_issue_cycles) of a
       request. [memory] a chase through drawn addresses hits L1 wholly while
       its lines per SM stay within l1_chase_full_fraction of the L1 data
       capacity, and not at all from l1_chase_none_fraction on (linearly
       between). 0: not known (no such cost; the footprint rule). */
    double l1_line_cycles, l1_bank_pass_cycles, l2_line_cycles, dram_lines_log2_cycles;
    double l1_bank_pass_issue_cycles, l1_line_issue_cycles;
    double l1_chase_full_fraction, l1_chase_none_fraction;
    /* [throughput], added within ABI 2 (growing the struct at its end): the
       bytes per SM cycle an SM's global stores send towards the L2, counted
       32 per sector a store request writes and 32 more per 128-byte line in
       which it writes part of a sector; 0: not known (a line per clock) */
    double l1_store_bytes_per_cycle;

    /* [device], added within ABI 2 (growing the struct at its end): the SM
       clock while a kernel issues tensor-core (mma) instructions, where the
       card runs them below core_clock_mhz; 0: not known (core_clock_mhz) */
    double tensor_clock_mhz;

    /* [latency], added within ABI 2 (growing the struct at its end): the
       cycles a taken loop branch adds to a warp's dependency chain once per
       unrolled iteration (the fetch after the branch); 0: not known (none) */
    double branch_taken_cycles;

    /* Added within ABI 2 (growing the struct at its end): a warp-uniform
       global load (every active lane reads one address) that hits L1.
       [latency] its latency with a 4-byte element (l1_uniform_hit_cycles)
       and what each further 4-byte word of the element adds
       (l1_uniform_word_cycles); [throughput] the SM cycles the L1 is busy
       per such request of a 4-byte element (l1_uniform_issue_cycles; each
       further word l1_bank_pass_issue_cycles more). 0: not known (an
       ordinary L1 hit) */
    double l1_uniform_hit_cycles, l1_uniform_word_cycles, l1_uniform_issue_cycles;
    /* Added within ABI 2 (growing the struct at its end): a float atomicAdd
       on shared memory, which sm_90 compiles to a compare-and-swap loop
       (LDS, FADD, ATOMS.CAST.SPIN, retry while it failed): [throughput] SM
       cycles of the shared pipe per warp iteration of the loop in which a
       lane's swap succeeds (shared_cas_cycles) and per iteration in which
       every lane's fails, another warp having written the word first
       (shared_cas_fail_cycles); 0: not known (a shared atomic's costs) */
    double shared_cas_cycles, shared_cas_fail_cycles;
    /* [launch], added within ABI 2 (growing the struct at its end): the
       cycles a block slot that another block will take spends per block
       beyond the block's own work (its warps' start and exit, the release
       of its resources, the next block's dispatch onto the slot): they add
       to the block's dependency chain, not beside it; 0: not known (none:
       block_turnaround_cycles alone) */
    double block_slot_overhead_cycles;
    /* [latency], added within ABI 2 (growing the struct at its end): the
       cycles a warp request served by DRAM waits per line beyond the first
       of each run of consecutive lines it reads (a run comes from one DRAM
       page: its lines follow one another, where lines of different runs
       wait for the slowest, dram_lines_log2_cycles per doubling of the
       runs); 0: not known (every line counts as its own run) */
    double dram_run_line_cycles;
    /* [latency], added within ABI 2: the cycles a warp's loads in flight
       together (a batch) wait per doubling of the DRAM runs they read
       together beyond the most one of them reads: the slowest of their
       runs; 0: not known (each load's own) */
    double dram_batch_log2_cycles;
    /* [memory], added within ABI 2: what a launch leaves in L2 for the
       launches after it, by the bytes it touched: all of it up to
       l2_carry_full_bytes, none from l2_carry_none_bytes on, and the share
       between them falling linearly (a kernel streaming through a buffer
       near the L2's size leaves little of it for the next kernel, whatever
       the L2 keeps for its own re-reads); both 0: not known (the L2's
       capacity, least recently used first) */
    uint64_t l2_carry_full_bytes, l2_carry_none_bytes;
    /* [memory], added within ABI 2: DRAM time of a store to a line no other
       store of the launch writes and the L2 does not hold (drawn
       addresses), as the bytes a stream moves meanwhile at
       dram_sustained_gbps: a write of part of a sector (the sector is
       read, merged and written back), of whole sectors (each), of a whole
       128-byte line; all 0: not known (the fetch granule, as a read) */
    double sparse_write_bytes_partial, sparse_write_bytes_sector, sparse_write_bytes_line;
    /* [memory], added within ABI 2: the L2's time for such a store, as the
       bytes it moves meanwhile at l2_bandwidth_gbps: a request of up to a
       sector, a whole line; 0: not known (its sectors' bytes) */
    double sparse_write_l2_bytes, sparse_write_l2_line_bytes;
    /* [latency], added within ABI 2: the chain latency of a special
       function as nvcc compiles it by default (rsqrtf, __expf, exp2f,
       __logf: FSETP, @P FMUL, MUFU, @P FMUL, the denormal guard around the
       MUFU instruction); 0: not known (sfu_cycles, the MUFU alone) */
    double sfu_call_cycles;
    /* [latency], added within ABI 2: address translation of a warp's
       request whose lines lie at random over a span beyond what the SM
       keeps translated for its requests: each line's page misses with
       chance 1 - request_tlb_reach_bytes / span and adds
       request_tlb_line_cycles to the request's wait (the misses of one
       request follow one another; a lone lane's miss costs that once, not
       tlb_miss_cycles' walk); both 0: not known (no such cost) */
    uint64_t request_tlb_reach_bytes;
    double request_tlb_line_cycles;
    /* [launch], added within ABI 2: a launch that waits in its stream
       behind the benchmark's L2 flush (a memset the GPU is still running
       when the host issues the launch) starts this long after the flush
       ends, the host's submission hidden behind it; 0: not known
       (launch_latency_us from its issue) */
    double launch_queued_us;
    /* [memory], added within ABI 2: the share of the L2 such a flush (a
       write of a scratch buffer larger than the L2) leaves dirty; a launch
       after it writes back the dirty lines its own lines push out, at
       dram_sustained_gbps, less those its stores leave dirty in their
       place; 0: not known (a flush leaves the L2 clean) */
    double l2_flush_dirty_fraction;
    /* [launch], added within ABI 2: the first launch after such a flush
       that touches device memory waits this long before its first blocks
       run (its first misses: the translations and lines the scratch
       buffer left in the way); 0: not known (no wait) */
    double flush_first_touch_us;
    /* [latency], added within ABI 2: lines a warp reads together count as
       one DRAM run while they lie within this many bytes of one another: the
       unrolled copies of a loop whose trips step less than this through a
       buffer read one run, copies further apart each their own, and the
       batch waits for the slowest (dram_batch_log2_cycles); 0: not known
       (only lines next to each other share a run) */
    double dram_run_span_bytes;
    /* [latency], added within ABI 2: the cycles apart at which the L1
       returns one warp's hits of loads in flight together: each further
       load of such a group waits this behind the one before, or its L1
       cycles where those are longer; 0: not known (the L1 cycles) */
    double l1_return_cycles;
    /* [latency], added within ABI 2: the cycles a warp's loads in flight
       together that draw their lines at random wait per line they draw
       beyond the most one of them draws (the lines queue behind each other
       on their way to DRAM, beside dram_lines_log2_cycles' slowest lane);
       0: not known (none) */
    double dram_drawn_line_cycles;
    /* [memory], added within ABI 2: the L2's time for a read request of a
       line of which the request reads one sector, as bytes at
       l2_bandwidth_gbps (the L2 serves so many such requests a clock,
       however few bytes each asks for); 0: not known (its sector's bytes) */
    double sparse_read_l2_bytes;
    /* [latency], added within ABI 2: the cycles a load's miss holds its
       line of the SM's L1 (which keeps a line for each miss in flight) when
       the L2 serves it, and when DRAM does, under load: the L1's lines over
       these bound the misses an SM has in flight; 0: not known (no bound) */
    double l1_miss_hold_l2_cycles, l1_miss_hold_dram_cycles;
    /* [latency], added within ABI 2: the L2 hit and DRAM latencies of a
       launch on every SM over those of one on a single SM (l2_hit_cycles,
       dram_cycles): the SMs sit at different distances from the L2 and the
       memory controllers, and a launch whose SMs all wait on loads ends
       with the slowest of them; 0: not known (1, every SM alike) */
    double l2_slowest_sm_ratio, dram_slowest_sm_ratio;
    /* [memory], added within ABI 2: the share of the L2's capacity that
       reads drawn at random from every SM keep their lines in (each L2
       partition keeps its own copy of the lines its SMs read); 0: not
       known (the whole L2) */
    double l2_drawn_capacity_fraction;
    /* [memory], added within ABI 2: the lines a set of that share holds
       for such reads (the ways, as the softness of the capacity's edge
       measures them: lines fall into sets at random); 0: not known (one
       set, a sharp edge) */
    double l2_drawn_ways;
    /* [sm], added within ABI 2: 1 where the card's driver does not let the
       carve-out preference bound the blocks of a launch that uses no shared
       memory (the SM holds them as its other limits allow, where
       cuda_occupancy.h counts the per-block reservation against the
       preferred carve-out); 0: not known (the calculator's rule) */
    uint32_t smemless_free_of_carveout;
    /* [latency], added within ABI 2: the cycles apart at which the L1
       returns one warp's warp-uniform loads in flight together (every lane
       one address), whether each hit or waited with the others of its
       sector for the sector's fill; 0: not known (l1_return_cycles, for
       their hits alone) */
    double l1_uniform_return_cycles;
    /* [throughput], added within ABI 2: scheduler cycles a warp's global,
       local or texture-path load holds its scheduler's issue, where an
       ordinary instruction takes one; 0: not known (one slot) */
    double global_load_issue_cycles;
    /* [memory], added within ABI 2: a random line that n store
       instructions write together (one draw: a struct's fields stored
       word by word) costs DRAM (1 + this log2 n) times what the line's
       bytes cost written by one (sparse_write_bytes_*); 0: not known
       (the line's bytes alone) */
    double sparse_write_stores_log2;
    /* [throughput], added within ABI 2: the share of a shared atomic's
       first pass (shared_atomic_inc_cycles or shared_atomic_cycles) that
       also holds the SM's integer pipe, so that the integer work beside
       shared atomics adds to them in part rather than hiding behind them;
       0: not known (none) */
    double shared_atomic_int_share;
    /* [latency], added within ABI 2: the cycles ptxas keeps between the
       compare that sets a loop's exit predicate (ISETP) and the branch that
       reads it, counted in the stall cycles of the instructions between,
       which a wait for a load's value does not shorten; 0: not known (the
       loop's control runs beside its body) */
    double predicate_branch_cycles;
    /* [memory], added within ABI 2: GB/s a read-only stream sustains
       (whole lines read, nothing written); 0: not known (reads go at
       dram_sustained_gbps, the copy's rate, as everything else) */
    double dram_read_gbps;
    /* [memory], added within ABI 2: the DRAM time, as bytes at
       dram_sustained_gbps, that translating a line's address adds to a
       random line that reaches DRAM when its access spans more than
       tlb_dram_reach_bytes (times 1 - reach / span: the share of its pages
       the translation does not keep); 0: not known (none) */
    double tlb_dram_line_bytes;
    uint64_t tlb_dram_reach_bytes;
    /* [memory], added within ABI 2: the L2's time for a random store's
       request to a line whose bytes are all whole sectors (the sector
       replaced, no bytes merged), as bytes at l2_bandwidth_gbps, in place of
       sparse_write_l2_bytes; 0: not known (sparse_write_l2_bytes) */
    double sparse_write_l2_sector_bytes;
} gp_device_t;

/* ------------------------------------------------------------------------ */
/* Kernels: launch shape and per-thread work (from a workload script)        */
/* ------------------------------------------------------------------------ */

typedef struct gp_dim3 {
    uint64_t x, y, z;
} gp_dim3_t;

/* L1/shared split preference (cudaFuncSetCacheConfig). */
typedef enum gp_cache_pref {
    GP_CACHE_PREFER_NONE = 0,
    GP_CACHE_PREFER_SHARED = 1,
    GP_CACHE_PREFER_L1 = 2,
    GP_CACHE_PREFER_EQUAL = 3
} gp_cache_pref_t;

/* How global loads are cached (-Xptxas -dlcm=...). */
typedef enum gp_global_cache {
    GP_GLOBAL_CACHE_DEFAULT = 0, /* the generation's default */
    GP_GLOBAL_CACHE_ALL = 1,     /* "ca": L1 and L2 */
    GP_GLOBAL_CACHE_L2 = 2       /* "cg": L2 only */
} gp_global_cache_t;

/*
 * The launch shape: everything occupancy depends on. block and grid are the
 * dimensions as written in the launch; threads_per_block is their product.
 */
typedef struct gp_launch {
    gp_dim3_t grid;
    gp_dim3_t block;
    uint64_t threads_per_block;
    uint32_t regs_per_thread;
    uint64_t static_smem_bytes;
    uint64_t dynamic_smem_bytes;
    uint32_t cache_pref;       /* gp_cache_pref_t */
    int32_t carveout_percent;  /* -1: default; 0..100: shared-memory carve-out */
    uint32_t global_cache;     /* gp_global_cache_t */
    uint32_t bank_bytes;       /* 0: the generation's; 4 or 8 where selectable */
    uint32_t barriers_per_block; /* block barriers the kernel uses; 0 or 1 usual */
    uint32_t reserved[15];
} gp_launch_t;

/* Kinds of per-thread work. */
typedef enum gp_op_kind {
    GP_OP_FP32 = 0,  /* fp32 add/mul/fma */
    GP_OP_FP64,      /* fp64 add/mul/fma */
    GP_OP_FP16,      /* half-precision arithmetic (not tensor) */
    GP_OP_INT,       /* 32-bit integer / logic / compare */
    GP_OP_SFU,       /* transcendental: sin, exp, rsqrt, ... */
    GP_OP_CONV,      /* type conversion */
    GP_OP_BRANCH,    /* branch / control */
    GP_OP_BARRIER,   /* __syncthreads */
    GP_OP_TENSOR,    /* matrix (tensor-core) work, see gp_op_t.tensor_type */
    GP_OP_LOAD,      /* memory load, see gp_op_t.space and .access */
    GP_OP_STORE,     /* memory store */
    GP_OP_ATOMIC,    /* read-modify-write */
    GP_OP_ASYNC_COPY,/* global -> shared copy without registers (8.0+) */
    GP_OP_LOOP,      /* repeat the next body_len ops count times */
    GP_OP_DIVERGE,   /* the warp splits into count paths; each runs the body */
    GP_OP_SHFL,      /* warp shuffle (__shfl*_sync) */
    GP_OP_VOTE,      /* warp vote / ballot (__all/__any/__ballot_sync) */
    GP_OP_MATCH,     /* __match_any_sync / __match_all_sync (7.0+) */
    GP_OP_WARP_REDUCE, /* __reduce_*_sync over a warp (8.0+) */
    GP_OP_IDIV,      /* 32-bit integer divide or modulo */
    GP_OP_FDIV,      /* fp32 division (IEEE, the '/' operator) */
    GP_OP_RCP,       /* fp32 reciprocal (approximate, __frcp_rn / 1.0f/x fast) */
    GP_OP_KIND_COUNT
} gp_op_kind_t;

/* Memory spaces for GP_OP_LOAD / STORE / ATOMIC. */
typedef enum gp_space {
    GP_SPACE_GLOBAL = 0,
    GP_SPACE_SHARED,
    GP_SPACE_LOCAL,
    GP_SPACE_CONSTANT,
    GP_SPACE_TEXTURE, /* read-only / texture path */
    GP_SPACE_COUNT
} gp_space_t;

/* Address patterns across the threads of a warp. */
typedef enum gp_pattern {
    GP_PATTERN_UNIT = 0,   /* thread i touches element i (+ offset) */
    GP_PATTERN_STRIDE,     /* thread i touches element i*stride (+ offset) */
    GP_PATTERN_RANDOM,     /* independent random elements in the footprint */
    GP_PATTERN_BROADCAST,  /* every thread of the warp touches one element */
    GP_PATTERN_COUNT
} gp_pattern_t;

/* Address sharing of atomics. */
typedef enum gp_atomic_scope {
    GP_ATOMIC_DISTINCT = 0, /* every thread its own address */
    GP_ATOMIC_PER_WARP,     /* one address per warp */
    GP_ATOMIC_SAME          /* every thread of the grid one address */
} gp_atomic_scope_t;

/* What an atomic adds (gp_access_t.atomic_op). */
typedef enum gp_atomic_op {
    GP_ATOMIC_OP_ADD = 0, /* an integer add of a run-time value (atomicAdd(p, v)) */
    GP_ATOMIC_OP_INC,     /* an integer add of a constant (atomicAdd(p, 1)) */
    GP_ATOMIC_OP_FADD     /* a floating-point add */
} gp_atomic_op_t;

/* How an atomic's address and result are used (gp_access_t.atomic_flags). */
enum {
    /* the returned value is used (ATOM on sm_90: a round trip the next op
       waits for, the old values sent back); without it the result is
       discarded (RED: fire and forget) */
    GP_ATOMIC_RESULT = 1u << 0,
    /* the address comes from data (a loaded value, a hash): the compiler
       cannot prove a warp's lanes agree, so it never aggregates them, even
       when they do */
    GP_ATOMIC_FROM_DATA = 1u << 1
};

/* Tensor-core operand types. */
typedef enum gp_tensor_type {
    GP_TENSOR_FP16 = 0,
    GP_TENSOR_BF16,
    GP_TENSOR_TF32,
    GP_TENSOR_FP64,
    GP_TENSOR_INT8,
    GP_TENSOR_FP8,
    GP_TENSOR_TYPE_COUNT
} gp_tensor_type_t;

/*
 * Addresses sampled from a script's index function. For each sampled warp
 * instance (one warp of a sampled block at a sampled loop iteration) the byte
 * offset, from the start of the buffer, that every lane touches. A negative
 * offset marks an inactive lane. Owned by the workload; valid while the
 * kernel is.
 */
typedef struct gp_lane_sample {
    uint32_t n_warps;            /* warp instances sampled */
    uint32_t lanes;              /* offsets per warp instance (the warp size) */
    const int64_t *byte_offset;  /* n_warps * lanes entries */
    uint64_t warp_footprint_bytes;  /* distinct bytes one warp touches over the kernel */
    uint64_t block_footprint_bytes; /* distinct bytes one block touches over the kernel */
    uint64_t grid_footprint_bytes;  /* distinct bytes the whole launch touches */
    /* the sampled warp instance that is the first one (instance 0: warp 0
       of block 0 at iteration 0 of every named loop) one iteration later
       along the innermost named loop; 0: none (no named loop, or one trip) */
    uint32_t next_iteration;
    uint32_t drawn;              /* 1: the offsets are draws of gpuperf.random */
    /* the widest range of byte offsets one lane of the origin warp covers
       over the sampled iterations of the named loops (0: no named loop):
       how far apart in the buffer a thread's own reads lie */
    uint64_t loop_span_bytes;
    /* drawn: the bytes of the range gpuperf.random draws from (the
       buffer's where smaller); 0 otherwise */
    uint64_t drawn_range_bytes;
    /* the share of the launch's warps with an active lane: where a sampled
       warp has none (a guard), every warp of the block evaluated at the
       sample's positions of the other axes, since the sampled warps stand
       mostly at warp 0; 1 where every sampled warp has one; 0: not known
       (the sampled warps' share) (added within ABI 2, from the reserved
       space) */
    double issuing;
    /* drawn: the bytes the indices spread over as the draws run through
       their range (a draw scaled to a node's first word: the nodes'
       bytes, not the draws' count of elements); 0: as drawn_range_bytes
       (added within ABI 2; the core allocates samples) */
    uint64_t drawn_span_bytes;
    /* drawn: the share of consecutive draws that name distinct elements
       (`r - r % 16`: 1/16); 0: not known, as 1 (added within ABI 2) */
    double drawn_distinct;
    /* the sampled warp instance that is the origin's next warp of the same
       block (warp 1 of block 0, at the origin's iterations); 0: none (a
       block of one warp) (added within ABI 2; the core allocates samples) */
    uint32_t next_warp;
} gp_lane_sample_t;

/*
 * How the threads of a warp address memory for one load/store/atomic.
 * Element i of the buffer lives at byte offset i * elem_bytes from a base
 * aligned to 256 bytes.
 */
typedef struct gp_access {
    uint32_t elem_bytes;     /* bytes per thread per access: 1, 2, 4, 8, 16 */
    uint32_t pattern;        /* gp_pattern_t */
    int64_t stride_elems;    /* GP_PATTERN_STRIDE: elements between threads */
    int64_t offset_elems;    /* misalignment of thread 0, in elements */
    uint64_t footprint_bytes;/* bytes of the buffer this launch touches */
    uint32_t buffer;         /* workload buffer index (UINT32_MAX: none) */
    uint32_t conflict_ways;  /* shared: bank-conflict degree; 0 = derive */
    uint32_t atomic_scope;   /* gp_atomic_scope_t */
    uint32_t depends;        /* 1: the address comes from the previous load's value */
    uint64_t bins;           /* atomics: distinct addresses used uniformly; 0: from pattern */
    const gp_lane_sample_t *sample; /* addresses from an index function; NULL: pattern */
    uint32_t atomic_op;      /* atomics: gp_atomic_op_t (taken from the reserved space) */
    uint32_t atomic_flags;   /* atomics: GP_ATOMIC_RESULT | GP_ATOMIC_FROM_DATA (taken from
                                the reserved space) */
} gp_access_t;

/*
 * One entry of a kernel's per-thread work. Ops form a flat array; LOOP and
 * DIVERGE own the body_len ops that follow them (bodies nest).
 *
 * count: instructions per thread (arithmetic), accesses per thread (memory),
 *        barriers (BARRIER), flops per thread (TENSOR), trip count (LOOP),
 *        paths (DIVERGE: a warp runs the body once per path, one after the
 *        other, each thread taking one path).
 * ilp:   independent dependency chains among these instructions (>= 1). Ops
 *        follow each other in program order: an op waits for the result of
 *        the op before it, except that consecutive loads issue together
 *        (their latencies overlap) unless access.depends says a load's
 *        address is the previous load's value, and stores never make the
 *        next op wait.
 */
typedef struct gp_op {
    uint32_t kind;      /* gp_op_kind_t */
    uint32_t body_len;  /* LOOP / DIVERGE: number of ops in the body */
    double count;
    double ilp;
    uint32_t space;     /* memory ops: gp_space_t */
    uint32_t tensor_type; /* TENSOR: gp_tensor_type_t */
    gp_access_t access; /* memory ops */
    uint32_t line;      /* script line that described the op */
    /* INT: 1 when the instructions are integer multiplies (IMAD, mul.lo,
       mad.lo), which some generations run at a lower rate than adds and
       logic; 0 (the default) for adds, logic and compares */
    uint32_t int_mul;
    /* LOOP: copies of the body the compiled loop holds, as the source pins
       them (`#pragma unroll N`; 1: not unrolled); 0 (the default): the
       model's choice, as nvcc unrolls a short body by itself */
    uint32_t unroll;
    /* SFU: 1 when the op is the MUFU instruction alone (an intrinsic nvcc
       compiles without the denormal guard: __sinf, __cosf, fast math,
       approximate PTX); 0 (the default): a call as nvcc compiles it by
       default, the MUFU and its guard (sfu_call_cycles) (added within ABI
       2, from the reserved space) */
    uint32_t sfu_bare;
    /* LOAD (a chase: access.depends, addresses drawn from gpuperf.random):
       1 when each step draws afresh (a hash of the data: a node may come
       again at any step, as draws with replacement do); 0 (the default):
       the chase walks a cycle (a linked structure: a lane visits no node
       twice before it has been round the whole cycle) (added within ABI 2,
       from the reserved space) */
    uint32_t chase_draws;
    /* LOAD, STORE with an index function that draws from gpuperf.random:
       ops of a kernel with the same non-zero value draw the same values,
       call for call (one index read from data and used for several
       accesses: a struct's fields at a hashed slot, a key and its value;
       the script's `draws` name); 0 (the default): the op draws its own
       (added within ABI 2, from the reserved space) */
    uint32_t draw_group;
    /* LOAD (global or texture, independent): the most loads of its run, this
       one counted, that the compiled code keeps in flight, issued and their
       values not yet used, as the kernel's SASS shows (ptxas may keep fewer
       than the registers would hold: it reads each value a few loads after
       issuing it); 0 (the default): as many as the registers hold (added
       within ABI 2, from the reserved space) */
    uint32_t in_flight;
    uint32_t reserved[1];
} gp_op_t;

/* A kernel launch as the engine hands it to a plugin. */
typedef struct gp_kernel {
    const char *name;
    gp_launch_t launch;
    const gp_op_t *ops;
    uint32_t n_ops;
    uint32_t line;        /* script line of the launch */
    uint64_t total_blocks;/* grid.x * grid.y * grid.z */
    /* bytes of each workload buffer already in L2 when the launch starts
       (left by earlier launches and copies), indexed by buffer; filled for
       the buffers the launch touches, 0 for the others; NULL or n_buffers
       0: a cold L2 */
    const uint64_t *l2_warm_bytes;
    uint32_t n_buffers;
    uint32_t reserved0;
    uint64_t reserved[6];
} gp_kernel_t;

/* ------------------------------------------------------------------------ */
/* Facet 1: SM resources                                                     */
/* ------------------------------------------------------------------------ */

/* What limits the number of resident blocks. */
typedef enum gp_limiter {
    GP_LIMIT_NONE = 0,
    GP_LIMIT_WARPS,       /* thread / warp slots */
    GP_LIMIT_BLOCKS,      /* resident block slots */
    GP_LIMIT_REGISTERS,
    GP_LIMIT_SHARED_MEMORY,
    GP_LIMIT_BARRIERS,
    /* the launch cannot run at all: */
    GP_LIMIT_BLOCK_SIZE,      /* too many threads per block, or a bad dimension */
    GP_LIMIT_REGS_PER_THREAD, /* above the per-thread maximum */
    GP_LIMIT_REGS_PER_BLOCK,  /* above the per-block register file */
    GP_LIMIT_SMEM_PER_BLOCK,  /* above the per-block shared memory */
    GP_LIMIT_GRID,            /* grid dimension above the maximum */
    GP_LIMIT_COUNT
} gp_limiter_t;

/* Occupancy of one launch on one SM. */
typedef struct gp_occupancy {
    uint32_t blocks_per_sm;  /* 0: the launch cannot run; see limiter */
    uint32_t limiter;        /* gp_limiter_t: the binding limit */
    uint32_t warps_per_block;
    uint32_t active_warps;   /* blocks_per_sm * warps_per_block */
    uint32_t max_warps;      /* warp slots per SM */
    double occupancy;        /* active_warps / max_warps, 0..1 */
    /* the limit each resource alone would impose (UINT32_MAX: none) */
    uint32_t limit_warps, limit_blocks, limit_registers, limit_shared_memory,
        limit_barriers;
    uint32_t regs_per_block_allocated;  /* after allocation rounding */
    uint64_t smem_per_block_allocated;  /* after rounding + reservation */
    uint64_t smem_per_sm_configured;    /* the carve-out the launch gets */
    uint64_t l1_bytes_available;        /* L1 left for caching, per SM */
    char detail[160]; /* for a launch that cannot run: what broke, by how much */
    uint64_t reserved[8];
} gp_occupancy_t;

/*
 * A generation's SM allocation rules, as NVIDIA's occupancy calculator
 * applies them (the core's occupancy computation reads them).
 */
typedef enum gp_reg_granularity {
    GP_REG_ALLOC_WARP = 0,  /* registers per warp, warps per SM rounded down */
    GP_REG_ALLOC_BLOCK = 1  /* registers per block: warps rounded up */
} gp_reg_granularity_t;

typedef struct gp_alloc_rules {
    uint32_t reg_granularity;    /* gp_reg_granularity_t */
    uint32_t reg_alloc_unit;     /* registers */
    uint32_t warp_alloc_granularity; /* BLOCK: warps per block rounded up to
                                        this; WARP: sub-partitions per SM */
    uint32_t max_regs_per_thread;    /* occupancy-calculator limit */
    uint32_t smem_alloc_unit;    /* bytes */
    /* registers-per-thread values that allocate in units of
       reg_alloc_unit_alt instead; 0-terminated */
    uint32_t reg_alt_list[16];
    uint32_t reg_alloc_unit_alt;
    /* shared-memory carve-outs the SM can be configured with, KiB ascending,
       0-terminated after the first entry (which may itself be 0); empty
       (n_carveouts 0) for a fixed split */
    uint32_t carveout_kib[16];
    uint32_t n_carveouts;
    /* 1: a cache preference chooses between shared_memory_per_sm_bytes and
       shared_memory_per_sm_bytes - (l1_max - l1_min) */
    uint32_t cache_config_split;
    uint32_t l1_min_kib, l1_max_kib;
    uint32_t equal_is_shared;    /* 1: GP_CACHE_PREFER_EQUAL acts as PREFER_SHARED */
    uint32_t barriers_per_block_slot; /* block barriers per resident-block slot; 0: no limit */
    uint32_t reserved[8];
} gp_alloc_rules_t;

/* ------------------------------------------------------------------------ */
/* Facet 2: warp scheduling                                                  */
/* ------------------------------------------------------------------------ */

/* Execution pipes whose throughput can bound a block. */
typedef enum gp_pipe {
    GP_PIPE_ISSUE = 0, /* the schedulers' issue slots */
    GP_PIPE_FP32,
    GP_PIPE_FP64,
    GP_PIPE_FP16,
    GP_PIPE_INT,
    GP_PIPE_SFU,
    GP_PIPE_CONV,
    GP_PIPE_TENSOR,
    GP_PIPE_LDST,      /* address units / memory instruction issue */
    GP_PIPE_SHARED,    /* shared-memory banks */
    GP_PIPE_L1,        /* L1 / texture data path */
    GP_PIPE_COUNT
} gp_pipe_t;

/*
 * Cost of one warp-wide instruction (or, for memory ops, one warp-wide
 * access), as a generation executes it.
 */
typedef struct gp_op_cost {
    /* SM cycles each pipe is busy for this warp instruction; the pipe's
       capacity is one cycle per cycle per SM */
    double pipe_cycles[GP_PIPE_COUNT];
    double latency_cycles;   /* until a dependent instruction may issue */
    /* memory traffic caused by one warp access, bytes */
    double l1_bytes;         /* served by L1 / texture / constant cache */
    double l2_bytes;         /* requested from L2 (sectors x sector size) */
    double dram_bytes;       /* of which go on to DRAM (misses x fetch size) */
    double transactions;     /* memory transactions / replays, informational */
    /* memory ops: where the op's requests are served, as fractions of its
       requests that sum to 1 (the cache model's answer, for latency chains:
       a dependent load waits l1_hit x L1 + l2_hit x L2 + dram_hit x DRAM
       latency); all 0 for other ops */
    double l1_hit, l2_hit, dram_hit;
    /* global stores: SM cycles the SM's store path towards the L2 is busy
       with this warp instruction's requests (a resource of its own beside
       the L2's and DRAM's bandwidth); 0 for other ops (added within ABI 2,
       taken from the reserved space) */
    double store_cycles;
    /* memory loads: the runs of consecutive cache lines one warp request
       touches (a run's lines come from one DRAM page together), averaged
       over the sampled warps; 0: not known (added within ABI 2, taken from
       the reserved space) */
    double lines;
    /* memory loads: the share of the op's requests that miss L1 as the
       first touches of a stream, one new unit every 1 / stream_miss
       iterations of its loop (its only L1 hits the warp's own re-reads of
       the iteration before); 0: its misses are not known to be spread so
       (added within ABI 2, taken from the reserved space) */
    double stream_miss;
    /* memory loads: the L2's time for the op's requests beyond l2_bytes, as
       bytes at l2_bandwidth_gbps (a request of one sector of a line takes
       the L2 its request's time, sparse_read_l2_bytes); not bytes in
       flight; 0: none (added within ABI 2, taken from the reserved space) */
    double l2_request_bytes;
    /* memory loads: the L1 line-cycles the op's misses hold, a line for
       each L1 line the request misses for as long as it waits
       (l1_miss_hold_*_cycles); 0: none known (added within ABI 2, taken
       from the reserved space) */
    double l1_hold_cycles;
} gp_op_cost_t;

/*
 * What the engine knows about the SM when it asks for a cost: how many
 * blocks and warps are resident, how many SMs are busy, and the share of
 * the GPU's memory system this SM can count on.
 */
typedef struct gp_residency {
    uint32_t blocks;          /* blocks of this kernel on the SM */
    uint32_t warps_sm;        /* resident warps of every kernel on the SM */
    uint32_t active_sms;      /* SMs running any block GPU-wide */
    uint32_t reserved0;
    double dram_share;        /* fraction of DRAM bandwidth for this SM */
    double l2_share;          /* fraction of L2 bandwidth for this SM */
    double l2_capacity_bytes; /* L2 capacity this kernel's data can use */
    uint64_t reserved[8];
} gp_residency_t;

/* ------------------------------------------------------------------------ */
/* Facet 3 (memory) uses gp_op_cost_t too; the block cost combines them.     */
/* ------------------------------------------------------------------------ */

/* What bounds a block. */
typedef enum gp_bound {
    GP_BOUND_LATENCY = 0,   /* dependent chains: too few warps / too little ILP */
    GP_BOUND_ISSUE,         /* instruction issue */
    GP_BOUND_COMPUTE,       /* an arithmetic pipe (fp32, fp64, sfu, tensor...) */
    GP_BOUND_SHARED,        /* shared-memory bandwidth / bank conflicts */
    GP_BOUND_L1,
    GP_BOUND_L2,
    GP_BOUND_DRAM,          /* DRAM bandwidth */
    GP_BOUND_MEMORY_LATENCY,/* memory latency with too little parallelism */
    GP_BOUND_LAUNCH,        /* block dispatch / launch overhead */
    GP_BOUND_COUNT
} gp_bound_t;

/*
 * Cost of one block of a kernel at a given residency: the time from its
 * start to its end while `res.blocks` blocks of the kernel share the SM
 * (the SM finishes res.blocks such blocks in about time_cycles), and the
 * pieces it was built from.
 */
typedef struct gp_block_cost {
    double time_cycles;     /* the answer */
    uint32_t bound;         /* gp_bound_t */
    uint32_t bound_pipe;    /* gp_pipe_t, when bound is COMPUTE or ISSUE */
    double latency_cycles;  /* critical path of one warp, alone */
    double throughput_cycles; /* SM pipes busy, for res.blocks blocks */
    double memory_cycles;   /* DRAM / L2 bandwidth time, res.blocks blocks */
    double pipe_cycles[GP_PIPE_COUNT]; /* per block */
    double warp_instructions; /* per block, all warps */
    double l1_bytes, l2_bytes, dram_bytes; /* per block */
    /* added within ABI 2 (taken from the reserved space): the time when the
       block's slot will be refilled by another block (the device's
       block_slot_overhead_cycles on its chain); 0: time_cycles */
    double refill_time_cycles;
    double reserved[7];
} gp_block_cost_t;

/* A compute capability. */
typedef struct gp_cc {
    uint32_t major, minor;
} gp_cc_t;

/*
 * When global accesses go through L1 (gp_mem_rules_t.l1_global). A launch's
 * global_cache ("ca" / "cg") is honoured as each policy says.
 */
typedef enum gp_l1_global {
    GP_L1_GLOBAL_DEFAULT_ON = 0, /* cached unless the launch asks for "cg" */
    GP_L1_GLOBAL_OPTIN = 1,      /* cached only when the launch asks for "ca" */
    GP_L1_GLOBAL_NEVER = 2,      /* L1 serves local memory only; "ca" changes nothing */
    GP_L1_GLOBAL_OPTIN_IF_PARAM = 3, /* as OPTIN where the device's [arch] key
                                        l1_global_optin_param - 1 is >= 1 */
    GP_L1_GLOBAL_IF_PARAM = 4    /* as DEFAULT_ON where that key is >= 1, else NEVER */
} gp_l1_global_t;

/* How shared-memory banks treat lanes that read the same word. */
typedef enum gp_bank_broadcast {
    GP_BANK_BROADCAST_ANY = 0, /* every word read by several lanes is served once */
    GP_BANK_BROADCAST_ONE = 1  /* one broadcast word per pass; other banks serve
                                  one address each */
} gp_bank_broadcast_t;

/* How an access wider than a bank is split. */
typedef enum gp_bank_wide {
    GP_BANK_WIDE_PHASES = 0,       /* lanes split into elem/bank_bytes phases, each
                                      lane's words in its phase */
    GP_BANK_WIDE_WORD_REQUESTS = 1, /* one request per bank word, every lane in each */
    GP_BANK_WIDE_RESULT_GROUPS = 2  /* lanes split into groups whose results come to
                                       bank_result_bytes; each group as many passes
                                       as the most distinct words one bank holds */
} gp_bank_wide_t;

/*
 * Memory rules of a generation, read by the core's op cost. Everything a
 * generation's memory system does differently is a field here.
 */
typedef struct gp_mem_rules {
    uint32_t coalesce_threads;   /* threads coalesced together (32 or 16) */
    uint32_t segment_bytes[5];   /* transaction size for 1, 2, 4, 8 and 16-byte
                                    words on the L2 (uncached) path */
    uint32_t min_segment_bytes;  /* segments shrink while half is unused, down to
                                    this; equal to the segment: never */
    uint32_t strict_coalescing;  /* lane k must read word k of an aligned
                                    segment, else one transaction per lane */
    uint32_t has_l2;             /* an L2 caches global memory */
    uint32_t l1_global;          /* gp_l1_global_t, for global loads */
    uint32_t l1_global_writes;   /* 1: global stores and atomics follow l1_global;
                                    0: they never go through L1 */
    uint32_t l1_global_optin_param; /* GP_L1_GLOBAL_OPTIN_IF_PARAM: [arch] key index + 1 */
    uint32_t l1_global_segment_bytes; /* transaction of an L1-cached global load;
                                         0: segment_bytes (sectored L1) */
    uint32_t l1_segment_bytes;   /* what an L1 miss fetches from L2 */
    uint32_t texture_segment_bytes; /* what a texture-cache miss fetches; 0: l1_segment_bytes */
    uint32_t local_in_l1;        /* local memory (spills) is cached in L1 */
    uint32_t banks;              /* shared-memory banks */
    uint32_t bank_bytes;         /* bytes per bank in the default mode */
    uint32_t bank_bytes_selectable; /* 1: launch.bank_bytes (4 or 8) selects the mode */
    uint32_t bank_threads;       /* threads whose conflicts are resolved together */
    uint32_t bank_broadcast;     /* gp_bank_broadcast_t */
    uint32_t bank_wide;          /* gp_bank_wide_t */
    uint32_t bank_pass_bytes;    /* bytes one bank moves per pass; 0: bank_bytes */
    uint32_t wide_extra_pass_bytes; /* accesses of at least this many bytes per lane
                                       cost elem/bank_bytes more passes; 0: none */
    uint32_t bank_random_by_element; /* random pattern: 1: random elements of the
                                        footprint by lane; 0: the core's spread */
    uint32_t atomics_in_l2;      /* global atomics resolved in L2 (else DRAM) */
    gp_cc_t shared_atomics_since; /* atomics on shared memory; {0, 0}: always */
    gp_cc_t wide_atomics_since;   /* 64-bit atomics; {0, 0}: always */
    /* L2 partitions that each cache the data their SMs use (a working set
       beyond one partition's share is served from the far one, at the
       device's l2_random_cycles); 0 or 1: one uniform L2 */
    uint32_t l2_partitions;
    /* 1: the compiler turns the atomics of a warp whose active lanes all name
       one global address into one atomic per warp (integer add of a value:
       a warp reduce, then one RED; a constant: a vote and a population
       count; the leader's result shared when it is used); 0: one per lane */
    uint32_t aggregates_uniform_atomics;
    /* GP_BANK_WIDE_RESULT_GROUPS: the bytes of results one pass returns to
       the lanes (lanes per group: bank_result_bytes / access bytes, at most
       bank_threads); 0 with any other bank_wide */
    uint32_t bank_result_bytes;
    /* 1: global and local accesses through L1 and shared-memory accesses
       pass one data path (the unified L1/shared array of 7.0 on): their
       cycles add on it; 0: they run beside each other */
    uint32_t l1_shared_one_path;
    uint32_t reserved[6];
} gp_mem_rules_t;

/* How warps issue, for the issue-pipe cost of every instruction. */
typedef struct gp_issue_rules {
    /* SM cycles between two issue slots of one scheduler; 0: 1. One warp
       instruction costs interval / (schedulers x pairing) issue cycles. */
    uint32_t interval_cycles;
    uint32_t pair_needs_ilp;     /* 1: the second dispatch unit needs ilp >= 2 */
    uint32_t fp64_takes_all_schedulers; /* an fp64 instruction blocks every scheduler */
    uint32_t shared_passes_hold_issue;  /* serialised shared passes hold the issue unit */
    uint32_t int_takes_fp32;     /* an int32 instruction also takes fp32 capacity */
    uint32_t reserved[11];
} gp_issue_rules_t;

/* A matrix instruction's shape (m x n x k); all zero: the type is missing. */
typedef struct gp_mma_shape {
    uint32_t m, n, k;
} gp_mma_shape_t;

/* Tensor cores of a generation. */
typedef struct gp_tensor_rules {
    gp_mma_shape_t shape[GP_TENSOR_TYPE_COUNT]; /* per gp_tensor_type_t */
    /* latency of one matrix instruction when the device file has no
       tensor_cycles; 0: the instruction's own time on one scheduler's share
       of the tensor rate */
    double default_latency_cycles;
    const char *missing_hint[GP_TENSOR_TYPE_COUNT]; /* optional: why a type is missing */
    double reserved[8];
} gp_tensor_rules_t;

/*
 * Availability and cost of one op kind in a generation. The instruction
 * exists from compute capability `since` on ({0, 0}: always); a device
 * below it gets "<op> needs compute capability <since>". Arithmetic ops run
 * `instructions` warp instructions on `pipe` at the device's rate and
 * latency for that pipe unless lanes / latency_cycles say otherwise. All
 * zero: the core's own cost for the kind.
 */
typedef struct gp_op_rule {
    gp_cc_t since;           /* first compute capability with the instruction */
    uint32_t pipe;           /* gp_pipe_t; GP_PIPE_ISSUE (0): the kind's own pipe */
    uint32_t reserved0;
    double instructions;     /* dependent warp instructions per op; 0: 1 */
    double lanes;            /* results per clock per SM; 0: the device's for pipe */
    double latency_cycles;   /* latency of one instruction; 0: the device's for pipe */
    double reserved[4];
} gp_op_rule_t;

/* Generation-wide facts the engine needs. */
typedef struct gp_arch_info {
    uint32_t max_concurrent_kernels; /* 1: no concurrent kernels */
    /* Hardware queues the GPU takes kernel launches from (streams map onto
       them in turn). Within a queue launches start in issue order, so one
       that waits for another command holds back every later launch in the
       queue; 0: a queue per stream, no false dependencies. */
    uint32_t kernel_queues;
    uint32_t reserved[14];
} gp_arch_info_t;

/*
 * Everything one compute capability does, as data. The core's occupancy,
 * op cost and block cost read it; a plugin adds a callback only where its
 * generation does something these fields cannot say.
 */
typedef struct gp_generation {
    gp_cc_t cc;              /* the compute capability these rules describe */
    const char *chips;       /* informational, e.g. "GH100" */
    const gp_alloc_rules_t *alloc;
    const gp_mem_rules_t *mem;
    const gp_issue_rules_t *issue;   /* NULL: one slot per scheduler and dispatch unit */
    const gp_tensor_rules_t *tensor; /* NULL: no tensor cores */
    const gp_op_rule_t *ops;         /* GP_OP_KIND_COUNT entries; NULL: all defaults */
    gp_arch_info_t info;
    void *reserved[8];
} gp_generation_t;

/* ------------------------------------------------------------------------ */
/* Host services                                                             */
/* ------------------------------------------------------------------------ */

typedef struct gp_plugin gp_plugin_t;
typedef struct gp_host gp_host_t;

typedef enum gp_log_level {
    GP_LOG_ERROR = 0,
    GP_LOG_WARN = 1,
    GP_LOG_INFO = 2,
    GP_LOG_DEBUG = 3
} gp_log_level_t;

/* Coalescing of one warp's lanes (host->coalesce_lanes). */
typedef struct gp_coalesce_rule {
    uint32_t threads;           /* lanes coalesced together; 0: all */
    uint32_t segment_bytes;     /* transaction size */
    uint32_t min_segment_bytes; /* shrinking limit; 0 or = segment: none */
    uint32_t strict;            /* lane k must read word k of an aligned segment */
} gp_coalesce_rule_t;

/*
 * Services gpuperf offers plugins: logging and the model helpers that a
 * callback may need. Append-only within a major ABI version; check `size`
 * before using a member added after the minor you were built for. None of
 * them calls back into a plugin.
 */
struct gp_host {
    uint32_t abi_major, abi_minor;
    uint32_t size; /* sizeof(gp_host_t) as the host knows it */
    uint32_t reserved0;

    /* Log a message (printf format) in the plugin's name. */
    void (*log)(int level, const char *plugin, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 3, 4)))
#endif
        ;

    /*
     * Byte offsets of the `n` lanes first_lane .. first_lane+n-1 of one warp
     * for a pattern access (unit, stride, broadcast, random), into out[n].
     * Random lanes pick fixed pseudo-random elements of the footprint
     * (footprint_bytes 0: fallback_span_bytes).
     */
    void (*pattern_lanes)(const gp_access_t *acc, uint32_t first_lane, uint32_t n,
                          uint64_t fallback_span_bytes, int64_t *out);

    /*
     * Transactions one warp needs for lane byte offsets off[0..lanes)
     * (negative: inactive) of elem_bytes each under `rule`; their bytes
     * through *bytes.
     */
    double (*coalesce_lanes)(const int64_t *off, uint32_t lanes, uint32_t elem_bytes,
                             const gp_coalesce_rule_t *rule, double *bytes);

    /*
     * Transactions and bytes of one warp access (pattern or sample) under
     * `rule`: averaged over the sampled warps when acc->sample is set, the
     * expected value for a random pattern.
     */
    double (*coalesce_access)(const gp_access_t *acc, uint32_t warp_size,
                              const gp_coalesce_rule_t *rule, double *bytes);

    /* Fraction of a buffer's re-reads that hit in a cache of cache_bytes
       (footprint_bytes distinct bytes, accessed_bytes in total). */
    double (*reuse_hit_rate)(double footprint_bytes, double accessed_bytes,
                             double cache_bytes);

    /* Bytes one op of `kernel` accesses over the whole grid (threads x count
       x element size x the trip counts of the loops around it). */
    double (*op_grid_bytes)(const gp_kernel_t *kernel, const gp_op_t *op);

    void *reserved[24];
};

/* ------------------------------------------------------------------------ */
/* The descriptor                                                            */
/* ------------------------------------------------------------------------ */

/*
 * A device key a plugin adds to the [arch] section of its device files.
 * The value lands in gp_device_t.arch_params[i] for the i-th declared key.
 */
typedef struct gp_param_spec {
    const char *key;   /* e.g. "warp_split_cycles"; unit in the name */
    double min, max;   /* accepted range, inclusive */
    double default_value;
    int required;      /* 1: a device file must set it */
    const char *help;  /* one line */
} gp_param_spec_t;

/* A callback's answer meaning "the core's own result, please": a plugin may
   handle some cases and leave the rest to the core. */
#define GP_DEFAULT 1

struct gp_plugin {
    uint32_t abi_major; /* GP_ABI_MAJOR the plugin was built with */
    uint32_t abi_minor; /* GP_ABI_MINOR the plugin was built with */
    const char *name;        /* matches `arch =` in device files: [a-z0-9-]+ */
    const char *description; /* one line */
    const char *version;     /* the plugin's own version string */
    /* The generations served, one per compute capability (1..GP_MAX_CCS):
       the rules as data. */
    const gp_generation_t *gens;
    uint32_t n_gens;
    const gp_param_spec_t *params; /* [arch] keys; may be NULL */
    uint32_t n_params;

    /*
     * Optional callbacks, only where a generation differs from what its
     * data tells the core; NULL: the core's own. Each gets its generation's
     * row. They return 0 on success, GP_DEFAULT to leave this call to the
     * core, anything else after writing a reason.
     */

    /* Occupancy of a launch (NULL: the core's, from gen->alloc). */
    int (*occupancy)(const gp_host_t *host, const gp_generation_t *gen,
                     const gp_device_t *dev, const gp_launch_t *launch,
                     gp_occupancy_t *out, char *err, size_t errlen);

    /*
     * The cost of one warp-wide instance of `op` (never LOOP or DIVERGE).
     * The core then applies gen->issue (a floor on the issue pipe).
     */
    int (*op_cost)(const gp_host_t *host, const gp_generation_t *gen,
                   const gp_device_t *dev, const gp_kernel_t *kernel, const gp_op_t *op,
                   const gp_occupancy_t *occ, const gp_residency_t *res,
                   gp_op_cost_t *out, char *err, size_t errlen);

    /* The cost of one block at a residency (NULL: the core's walk over the
       kernel's ops). */
    int (*block_cost)(const gp_host_t *host, const gp_generation_t *gen,
                      const gp_device_t *dev, const gp_kernel_t *kernel,
                      const gp_occupancy_t *occ, const gp_residency_t *res,
                      gp_block_cost_t *out, char *err, size_t errlen);

    /* Extra checks of a device file after gpuperf's own (NULL: none). */
    int (*check_device)(const gp_host_t *host, const gp_generation_t *gen,
                        const gp_device_t *dev, char *err, size_t errlen);

    void *reserved[16];
};

/* The type of the exported entry point. */
typedef const gp_plugin_t *(*gp_plugin_entry_fn)(void);

/*
 * Declares the entry point, so a plugin defines it with
 *     GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void) { return &d; }
 * and -Wmissing-prototypes stays quiet.
 */
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUPERF_PLUGIN_H */
