/*
 * constants.h - every constant of the core model, in one table, each with
 * its source (docs/sources.md keys). Facts of a generation live in its
 * plugin's rule tables; facts of a card in its device file; what is left
 * here belongs to the model itself and holds for every generation.
 */
#ifndef GP_CONSTANTS_H
#define GP_CONSTANTS_H

/* A constant set from calibration rows (its comment says which) is also
   registered in fitted.c with its search range and families, and the model
   reads it through gp_fit_value(): `gpuperf validate --leave-one-family-out`
   refits it without each family in turn. The value stays here. */

/* Block cost (blockcost.c) ------------------------------------------------ */

/* Exponent of the smooth maximum between latency and pipe throughput: pipes
   have fixed service times, so the knee is sharp [sources: volkov2016] ch. 4. */
#define GP_KNEE_P_CORE 4.0
/* Exponent between the core term and memory bandwidth: memory service times
   vary (queueing), so the knee is broad [sources: volkov2016] ch. 5-6. */
#define GP_KNEE_P_MEMORY 2.0
/* The same where the L2, not DRAM, is the memory term that binds: the L2's
   service time varies little, so its knee is as sharp as a pipe's. The H200's
   random-line gathers from 8 MiB the L2 holds, where a trip's latency and the
   L2's request time meet, solve (lat^p + thr^p)^(1/p) = measured for p = 4.1
   (L = 2 loads a trip at 8 warps per SM: 453.5 and 778 cycles, 798.2
   measured), 4.2 (L = 4 at 4 warps: 527.8 and 778, 811.3) and 8.5 (L = 1 at
   8 warps: 414.8 and 389, 437.9) ([sources: h200-cal] run10/scatter
   scatter_cycles.csv; the throughput at sparse_read_l2_bytes) */
#define GP_KNEE_P_L2 4.0
/* A counted loop's control: an add, a compare and a branch per iteration of
   the compiled loop; nvcc unrolls a short body until it holds about 64
   instructions, up to 16 copies (SASS of the H200 validation kernels: 16
   FFMA per iteration for one chain, 64 for four) [sources: h200-cal]. */
#define GP_LOOP_CONTROL_INSTRUCTIONS 3.0
#define GP_UNROLL_TARGET_INSTRUCTIONS 64.0
#define GP_UNROLL_MAX 16.0
/* The copies nvcc makes of a block's tile copy into shared memory, `for (i =
   tid; i < N; i += BS)` with a constant stride: 4, after a remainder loop
   that runs the trips short of a multiple of 4 one at a time (SASS: the
   H200 tiles2 k_ldloop copy loops, run9; the mmasmem k_cp `lp` loops and the
   regblock k_rb copies, run10; PTX of unroll_shapes.cu cp_const_stride: 4
   loads and a remainder's) [sources: h200-cal]. */
#define GP_TILE_COPY_UNROLL 4
/* Registers per thread a loop needs besides the values of its loads in
   flight (pointers, counter, bound, one accumulator): the 12 that ptxas
   gives the calibration's dependent-chain kernels (k_latency, 12 registers
   in validation/h200/measured/run3/ptxas_cal.txt) [sources: h200-calibrated].
   Only registers above it and above the arithmetic chains beyond the first
   (blockcost.c body_accumulators) hold the loads of unrolled iterations, and
   the loads a straight run of code keeps in flight: the SASS of bench_mlp's
   49-tap kernel (32 registers, one FFMA chain) holds 19 to 20 loads in
   flight, 32 - 12 (validation/h200/measured/run5/sass_mlp.txt.gz);
   bench_uniform2's 16 loads a trip into 16 accumulators (32 registers)
   rotate 4 value registers (32 - 12 - 15 = 5 a batch: 4 batches), and 3
   of its 8 float4 loads into 8 accumulators are in flight ((33 - 12 - 7) / 4) (run9/uniform2 sass_uniform2.txt.gz)
   [sources: h200-cal]. */
#define GP_MLP_BASE_REGS 12.0
/* Load instructions a thread keeps in flight where nvcc issues a loop's
   read-only loads of later unrolled trips ahead of the earlier trips'
   barriers (blockcost.c hoists_across_barriers): 10, the SASS of
   bench_tiles2's k_ldloop<1, 1, 0> (one LDG.E.CONSTANT a trip, 16 trips
   unrolled, 32 registers) on sm_90, its loads of 10 trips issued before the
   first trip's BAR.SYNC [sources: h100-cal] benches/tiles2_nostamp
   (sass_tiles2.txt.gz). */
#define GP_HOIST_LOADS 10.0
/* Bytes a thread slot of an SM can have in flight from memory: the 16-byte
   vector load, the widest a thread issues [sources: ptx] ld.v4, which every
   thread of a full SM holds at once when copy_float4 (n=2^28) reaches its
   measured 4.26 TB/s [sources: h200-cal] stream rows; 32 KiB per H200 SM,
   about 3x the 11 KiB Little's law needs for the DRAM bandwidth
   (dram_sustained_gbps x dram_cycles / clock / SMs). A lower bound on the
   outstanding requests an SM tracks; no vendor figure is published. */
#define GP_MLP_INFLIGHT_BYTES_PER_THREAD 16.0
/* Instructions that enter one path of a divergent branch: a compare and a
   branch (first principles: one ISETP and one BRA). */
#define GP_DIVERGE_PATH_INSTRUCTIONS 2.0
/* How far behind the average a block's last warp ends, as a fraction of the
   block's time per unit of the SM's warp slots the block holds; set once
   from the block-size sweeps of the H200 calibration set (triad and fma run
   6% to 16% slower with 512- and 1024-thread blocks than with 256)
   [sources: h200-cal]. It lengthens a block's core term, not its memory
   term (blockcost.c); refitted on those rows so, 0.326. */
#define GP_BLOCK_RETIRE_SKEW 0.3
/* Deepest op nesting the walk follows (scripts are limited to 32). */
#define GP_MAX_DEPTH 64

/* Op cost (opcost.c) ------------------------------------------------------ */

/* Latency of a barrier when a device file gives none: the __syncthreads
   round trip is 36-78 cycles with the clock reads, about 20 of them the
   barrier itself [sources: mei2017] text. */
#define GP_DEFAULT_BARRIER_CYCLES 20.0
/* Spill slots assumed per thread when judging whether local memory stays
   in L1: a model choice (no source measures it); it only decides how soon
   spills leave L1. */
#define GP_LOCAL_SLOTS_PER_THREAD 8.0
/* A load every lane of a warp makes to one element: after the first warp,
   the others find it cached; at least this fraction hits (a model choice,
   the least a second warp can see), and the rest of its requests bring a
   sector each into the caches (opcost.c fetched_bytes). */
#define GP_BROADCAST_MIN_HIT 0.5
/* The L2 keeps 128-byte lines of four 32-byte sectors: a read of one sector
   of a line holds the whole line's place ([sources: nvforum-sectors]; the
   H200 re-reading S MiB one lane per line, one
   sector of each, falls off the L2 at the same sizes as whole lines,
   [sources: h200-cal] run8/reuse sweep rows; random one-sector gathers
   from 256 MiB at 16 to 64 warps per SM, run10/scatter ws=dram rows). */
#define GP_L2_LINE_BYTES 128.0
/* A launch that accesses a buffer more than this many times its footprint
   re-reads it, and the L2 keeps it for the launches after (engine.c
   l2_after_kernel, engine_l2.c gp_eng_l2_carry); once is 1, twice 2: a
   model choice between them ([sources: h200-cal] the mlp ws=l2 rows read
   0.52 (one tap) and 2.1 (four taps) times their 16 MiB a launch; the wback
   rows once). */
#define GP_L2_REREAD_FACTOR 1.5

/* Share of float-to-int conversions (F2I, on the conversion pipe) in a
   gpuperf.conv when the card measures each direction: a model choice, the
   round trip (float to int and back) that conversions mostly come in; the
   other half runs at the int-to-float rate. Matches the alternating F2I/I2F
   measurement: 31.0 results/clock/SM, twice F2I's 16.0 [sources:
   h200-calibrated] run3 conversion_lanes, f2i_lanes, i2f_lanes. */
#define GP_CONV_F2I_SHARE 0.5
/* A special-function call as nvcc compiles it by default (rsqrtf, __expf,
   exp2f, __logf) is the MUFU instruction and its denormal guard: an FSETP and
   two predicated FMULs (an FMUL and an FADD for __logf), three FP32-pipe
   instructions beside it (SASS of bench_mufu's rsqrtf and expf chains,
   validation/h200/measured/run12/mufu, of bench_loopchain's and bench_attnq's
   bodies, and of bench_mathfn, run48/mathfn, where the accurate log2f is 29
   instructions and no MUFU) [sources: h200-cal].
   Counted where the device file gives the call's latency (sfu_call_cycles). */
#define GP_SFU_CALL_GUARD_INSTRUCTIONS 3.0
/* Global atomics over n addresses, each hit by k lanes of a warp, complete
   (n/k)^e times as fast as atomics on one address, up to the all-distinct
   rate: e from the raw sweep of gpuperf-calibrate (u32 atomicAdd, 32 lanes
   on 32 distinct words: 6.57/cycle, on 1024: 54.6, one address: 0.690; one
   address per warp on 1024 words: 5.02; e = 0.65, 0.63, 0.57) [sources:
   h200-calibrated] run3/calibrate_raw.csv atomic_global rows. */
#define GP_ATOMIC_ADDRESS_SPREAD_EXP 0.63

/* Warps drawn to estimate how the lanes of an atomic with `bins = K`
   collide (opcost.c atomic_sharing): 64 warps put the mean steps of K = 8
   within 2% of their expectation (a sampling choice, not a measured figure). */
#define GP_ATOMIC_BINS_WARPS 64
/* Blocks drawn to estimate the most lanes of a block on one of `bins`
   (opcost.c bins_block_most; a sampling choice, not a measured figure: 16
   blocks of 256 lanes put the mean of K = 8 within 2% of 64 blocks'). */
#define GP_ATOMIC_BINS_BLOCKS 16
/* A shared float atomicAdd's compare-and-swap loop on sm_90: the BSSY and
   BSYNC around it, and per iteration LDS, FADD, ATOMS.CAST.SPIN, ISETP and
   BRA (first principles: the loop in
   validation/h200/measured/run7/atom/sass_atom.txt.gz, k_atom_shared f32). */
#define GP_SHARED_CAS_SETUP_INSTRUCTIONS 2.0
#define GP_SHARED_CAS_LOOP_INSTRUCTIONS 5.0
/* Consecutive scalar stores of a warp that complete each other's sectors
   (v[i] stored to out[K t + i], i = 0..K-1, one instruction each) reach the
   L2 as whole sectors when each instruction's sectors lie within at most
   this many 128-byte lines: 4 lines (E = 4 bytes K = 4, E = 8 K = 2) cost
   what one 16-byte store per thread costs, 8 lines (E = 4 K = 8, E = 8
   K = 4, and the spread rows G = 1..4) a request per sector and partial line
   [sources: h200-cal] run7/sectors store_scalar, store_vector, store_spread
   rows. */
#define GP_STORE_MERGE_LINES 4.0

/* A loop whose loads step by the block's threads reads the block's own row
   (blockcost.c stride_loop) where the grid's footprint is at least this
   share of the blocks' footprints added up (disjoint rows; a model choice:
   the sampled footprints are extrapolated, not exact). */
#define GP_BLOCK_ROW_DISJOINT 0.9

/* Lines of consecutive partial-sector stores the SM merges when a block's
   warps, leaving a barrier together, issue them at once: a block of w warps
   whose instructions span l lines each merges this many of its w l lines and
   sends the rest as a request per sector and partial line. The least squares
   of the 22 bench_phase rows whose four 4-byte stores a thread follow a
   barrier (bar4, bar4s, tail_pred, tail_w0, tail_lds: 4 to 32 warps a block;
   16: rms 12.8%, 18: 12.0%, 20: 12.8%); the same stores with no barrier
   before them (copy4s) run as one 16-byte store a thread, and a block of 4
   warps loses almost nothing (133 against 129 us), 8 to 32 warps 1.7 to 2.4
   times the copy's time ([sources: h200-cal] run15/phase). */
#define GP_STORE_MERGE_BURST_LINES 18.0

/* Stores of one `draws` group (gp_op_t.draw_group: several stores at the
   lines one draw picked) whose lines opcost.c drawn_store_traffic joins;
   a larger group counts its first this many (a sizing choice: the fields
   of a struct written word by word, a 32-byte one by eight stores). */
#define GP_DRAW_GROUP_MAX 8

/* Coalescing and banks (coalesce.c) -------------------------------------- */

/* Knuth's multiplicative hash constant, for reproducible pseudo-random lane
   addresses [sources: knuth-taocp3] 6.4. */
#define GP_HASH_MULTIPLIER 2654435761u
/* A random shared-memory pattern without a per-element rule spreads each
   group's lanes over this many bank words (a model choice: wide enough that
   conflicts are those of random draws). */
#define GP_RANDOM_BANK_WORDS 1024u
/* Smallest transaction of an uncoalesced access under the strict rule
   [sources: pg42] F.3.2.1. */
#define GP_STRICT_TXN_BYTES 32u

#endif /* GP_CONSTANTS_H */
