/*
 * blockcost.c - the cost of one block: the core's walk over a kernel's ops.
 *
 * A block's warps each run the kernel's ops in program order. Walking the
 * ops gives, per warp: the cycles each SM pipe is busy, the instructions
 * issued, the bytes moved at each memory level, and the critical path (the
 * dependent latencies a warp cannot hide by itself). For `res.blocks` blocks
 * sharing an SM the time is then a smooth maximum of
 *   - the latency term: the critical path of one warp,
 *   - the throughput term: all resident blocks' demand on the busiest pipe,
 *   - the memory term: their DRAM (or L2) bytes over this SM's share of the
 *     bandwidth.
 * A smooth maximum (a p-norm) rather than max() because a pipe or memory
 * channel near saturation delays requests by queueing: the measured time of
 * a kernel whose latency and bandwidth terms are equal is well above either
 * (Volkov, "Understanding Latency Hiding on GPUs", PhD thesis, UC Berkeley
 * 2016, ch. 4-6, shows the gradual knee for arithmetic and memory).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "blockcost.h"
#include "coalesce.h"
#include "constants.h"
#include "fitted.h"
#include "opcost.h"
#include "opmemo.h"
#include "util.h"

/* Loads of one loop body walk() follows for a store that writes their
   buffer back (seg_sum_t.carry); later ones are not followed. */
#define CARRY_LOADS 16

/* Per-warp totals of a run of ops. */
typedef struct seg_sum {
    double pipe[GP_PIPE_COUNT]; /* SM cycles of each pipe */
    double instr;               /* warp instructions */
    double chain;               /* critical path, cycles */
    double mem_chain;           /* part of chain waiting on memory */
    /* of mem_chain, the loads' expected wait beyond an L1 hit (the miss
       share times the miss's extra cycles) and those extra cycles in full:
       a batch of a loop's iterations waits for its first miss (add_loop) */
    double mem_exp, mem_gap;
    double l1, l2, dram;        /* bytes */
    /* of dram, the loads' bytes, and those of loads that read whole lines
       (reads_lines): a stream's reads beyond its writes run at the DRAM's
       read-only rate (dram_time) */
    double dram_load, dram_stream;
    double l2_req;              /* the L2's time beyond l2, as bytes (not in flight) */
    double l1_hold;             /* L1 line-cycles the loads' misses hold */
    double store;               /* SM cycles of the store path towards L2 */
    /* loads of an iteration: registers per thread their values need, and
       whether one waits for a load of the previous iteration (a pointer
       chase): then iterations cannot overlap (not scaled by seg_add) */
    double load_regs;
    int carried;
    /* the ops, their bodies' included, hold a global or local load (not
       one of the read-only path: space texture or constant), a global
       atomic or an asynchronous copy (hoists_across_barriers); and the ops
       hold a loop or divergent body (a walk's own, not summed) */
    int coherent, nested;
    /* the ops' global and texture load instructions, their bodies' left
       out (a walk's own, not summed: a body with a body of its own never
       hoists its loads) */
    double gloads;
    /* the fewest loads in flight one of those loads allows (gp_op_t.in_flight,
       0: none says); a walk's own, not summed */
    double window;
    /* of a loop body, the latency of its global loads of a buffer that a
       later store or atomic of the body writes: nvcc keeps the next trip's
       loads of that buffer behind the store (the two may name one word) and
       the store waits for the value it writes or tests, so each trip waits
       for those loads in full (add_loop) */
    double carry;
    /* a loop body's integer ops (gp_op_t GP_OP_INT): the induction chain of
       its addresses and counters, beside the rest (walk) */
    double int_chain;
    /* part of chain a block's warps spend waiting at its barriers for the
       loads of the phase before (no warp of the block issues meanwhile),
       and whether the ops hold a barrier */
    double stall;
    /* of stall, the part outside loops (depth 0): the blocks resident
       together reach that barrier together and wait there together */
    double stall_top;
    int barrier;
    /* the loads that end the ops (after their last arithmetic op, loop or
       barrier): the chain they add, the lines they bring to the block and
       the chance that none comes from DRAM; a walk's own, not summed */
    double tail_wait, tail_lines, tail_lnone; /* tail_lnone: the chance's log */
    /* registers per thread the ops' arithmetic chains keep live across
       their loads (body_accumulators); a walk's own, not summed */
    double acc_regs;
    /* of a loop body, what the next trip's loads read beside this trip's
       (next_trip_lines): the log of the chance that none of the DRAM runs
       they open apart from this trip's comes from DRAM, and the DRAM lines
       they add to this trip's runs; a walk's own, not summed */
    double copy_lnone, copy_run_lines;
    /* of a loop body, the arithmetic chain that works on the trip's own
       loaded values (after its last load, before the op that ends the
       trip's chain: the accumulator) and the most chains one of those ops
       keeps live (walk); the unrolled copies run it side by side
       (add_loop); a walk's own, not summed */
    double fresh, fresh_regs;
    /* of a loop body, the chain other than memory waits from the first op
       after a load to the trip's end; -1: no op after a load uses its value
       in the trip (none that is neither a load nor integer work: a chase
       whose loads wait only for each other waits after the branch) (walk,
       add_loop) */
    double consumed;
    /* top level: what the block's last warp waits beyond one warp's chain
       for the slowest line of the block's last straight-line loads (walk) */
    double exit_wait;
    /* the ops' last wait for loads: the chain it adds, the lines one warp's
       loads bring in it and the log of the chance that none of them comes
       from DRAM, whatever follows (flush_group); a walk's own, not summed */
    double last_wait, last_lines, last_lnone;
    /* last_lnone for the loop's trips after its first (rereads_sectors):
       the sectors a trip reads again came in an earlier trip */
    double last_xlnone;
} seg_sum_t;

/* Everything a walk needs. */
typedef struct walk_ctx {
    const gp_plugin_t *plugin;
    const gp_generation_t *gen;
    const gp_device_t *dev;
    const gp_kernel_t *kernel;
    const gp_occupancy_t *occ;
    const gp_residency_t *res;
    char *err;
    size_t errlen;
    gp_op_memo_t *memo; /* the kernel's op costs kept across residencies; NULL: none */
    double trips; /* the trips of the loop whose body is walked; 0: none */
} walk_ctx_t;

/*
 * 1 when a warp's request of load op uses at least half of every line
 * (l1_line_bytes) it touches (the sample's first warp instance, its lines
 * counted as gp_coalesce_lanes counts line-sized segments; without a
 * sample, a unit or small-stride pattern of at least half a line a warp):
 * a stream of whole lines, which the DRAM serves at its read-only rate
 * where nothing is written meanwhile (dram_time). Drawn and random
 * addresses are not (their DRAM cost is sparse_read_bytes', measured at
 * the copy's rate).
 */
static int reads_lines(const gp_device_t *dev, const gp_op_t *op)
{
    const gp_access_t *a = &op->access;
    const gp_lane_sample_t *sm = a->sample;
    uint32_t e = a->elem_bytes ? a->elem_bytes : 4, line = dev->l1_line_bytes ? dev->l1_line_bytes : 128;
    if (sm && sm->drawn)
        return 0;
    if (sm && sm->byte_offset && sm->lanes > 0) {
        gp_coalesce_rule_t by_line = {0, line, line, 0};
        uint32_t i, n = GP_MIN(sm->lanes, 64u), act = 0;
        double lines = gp_coalesce_lanes(sm->byte_offset, n, e, &by_line, NULL);
        for (i = 0; i < n; i++)
            act += sm->byte_offset[i] >= 0;
        return lines > 0 && (double)act * e >= 0.5 * line * lines;
    }
    if (a->pattern == GP_PATTERN_UNIT)
        return 32.0 * e >= 0.5 * line;
    if (a->pattern == GP_PATTERN_STRIDE)
        return fabs((double)a->stride_elems) * e <= 8 && 32.0 * e >= 0.5 * line;
    return 0;
}

/* a's traffic (bytes, L2 time, L1 lines held, store-path cycles) as if b's
   were moved once where seg_add moved it `paths` times: the paths of a
   divergent region run one after another, each moving its threads' share */
static void seg_one_pass_traffic(seg_sum_t *a, const seg_sum_t *b, double paths)
{
    a->l1 += b->l1 - b->l1 * paths;
    a->l2 += b->l2 - b->l2 * paths;
    a->l2_req += b->l2_req - b->l2_req * paths;
    a->l1_hold += b->l1_hold - b->l1_hold * paths;
    a->dram += b->dram - b->dram * paths;
    a->dram_load += b->dram_load - b->dram_load * paths;
    a->dram_stream += b->dram_stream - b->dram_stream * paths;
    a->store += b->store - b->store * paths;
}

/* a += b * f */
static void seg_add(seg_sum_t *a, const seg_sum_t *b, double f)
{
    int p;
    for (p = 0; p < GP_PIPE_COUNT; p++)
        a->pipe[p] += b->pipe[p] * f;
    a->instr += b->instr * f;
    a->chain += b->chain * f;
    a->mem_chain += b->mem_chain * f;
    a->mem_exp += b->mem_exp * f;
    a->mem_gap += b->mem_gap * f;
    a->l1 += b->l1 * f;
    a->l2 += b->l2 * f;
    a->l2_req += b->l2_req * f;
    a->l1_hold += b->l1_hold * f;
    a->dram += b->dram * f;
    a->dram_load += b->dram_load * f;
    a->dram_stream += b->dram_stream * f;
    a->store += b->store * f;
    a->int_chain += b->int_chain * f;
    a->stall += b->stall * f;
    a->stall_top += b->stall_top * f;
    a->barrier |= b->barrier;
    a->load_regs = GP_MAX(a->load_regs, b->load_regs);
    a->carried |= b->carried;
    a->coherent |= b->coherent;
    a->carry += b->carry * f;
}

/* Cycles one warp's own instruction keeps its scheduler's pipes busy. */
static double warp_pipe_cycles(const gp_device_t *d, const gp_op_cost_t *c)
{
    double m = 0;
    int p;
    for (p = 0; p < GP_PIPE_COUNT; p++)
        m = GP_MAX(m, c->pipe_cycles[p]);
    return m * (double)d->schedulers_per_sm;
}

/*
 * Warp instructions of `count` of op: the count itself, except for tensor
 * work, whose count is flops per thread: its instructions are the issue
 * slots its cost takes over one instruction's slot (a fp16 m16n8k16 mma.sync
 * is 128 flops per thread). Counting flops as instructions would keep a loop
 * of mma.sync from being unrolled (GP_UNROLL_TARGET_INSTRUCTIONS), which
 * nvcc does: bench_smem's mma loop of 2 HMMA.16816 per trip is unrolled 28
 * times in its SASS ([sources: h200-cal] run7/smem sass_counts_smem.txt).
 */
static double op_instructions(const walk_ctx_t *cx, const gp_op_t *op, const gp_op_cost_t *c,
                              double count)
{
    double slot;
    /* tensor work counts flops, a special-function call its guard too
       (GP_SFU_CALL_GUARD_INSTRUCTIONS; not a bare MUFU, gp_op_t.sfu_bare):
       their instructions are the issue slots their cost takes */
    if (op->kind != GP_OP_TENSOR && op->kind != GP_OP_SFU)
        return count;
    slot = gp_issue_cycles(cx->gen, cx->dev, op);
    return slot > 0 && c->pipe_cycles[GP_PIPE_ISSUE] > 0
               ? count * c->pipe_cycles[GP_PIPE_ISSUE] / slot
               : count;
}

static int is_load(uint32_t kind)
{
    return kind == GP_OP_LOAD;
}

/* 1 for the arithmetic that works on a trip's own loaded values in the
   unrolled copies' own registers (seg_sum_t.fresh). */
static int fresh_kind(uint32_t kind)
{
    return kind == GP_OP_FP32 || kind == GP_OP_FP64 || kind == GP_OP_FP16 ||
           kind == GP_OP_SFU || kind == GP_OP_CONV || kind == GP_OP_FDIV || kind == GP_OP_RCP;
}

static int walk(const walk_ctx_t *cx, const gp_op_t *ops, uint32_t n, int depth,
                seg_sum_t *out);

/*
 * Loads in flight together (memory-level parallelism of straight-line code).
 * A warp issues in order and stalls only when an instruction needs a value
 * that is not back yet (the scoreboard); nvcc hoists independent loads above
 * the arithmetic that consumes earlier ones, so the loads of a straight run of
 * code overlap each other and the interleaved arithmetic ([sources:
 * volkov2010] "Better performance at lower occupancy", ILP and memory; the
 * loads of one warp between two dependences are the MWP of [sources:
 * hong2009] sec. 3). A batch of loads costs the chain one latency, its
 * longest; the arithmetic chain adds beside it, since the accumulation that
 * consumes the loads (s += c * x) is serial. A batch closes when
 *  - its values would need more registers than the launch has for loads in
 *    flight (regs per thread above GP_MLP_BASE_REGS),
 *  - its bytes past L1 would exceed the warp's share of what the SM keeps in
 *    flight (GP_MLP_INFLIGHT_BYTES_PER_THREAD per thread slot, shared by the
 *    resident warps), as for loop iterations (loop_mlp_depth),
 *  - a load's address comes from an earlier load's value (`depends`),
 *  - the straight run ends: a loop, a divergent branch, a branch, a barrier,
 *    an atomic, an asynchronous copy or a store (a load the compiler cannot
 *    prove apart from a store's address stays below it).
 * The mlp rows of the H200 calibration table (bench_mlp.cu, raw output in
 * validation/h200/measured/run5) show it: 49 independent loads each followed
 * by an FMA take 6.5x (L2) and 6.9x (DRAM) less time than the same loads
 * chained, and the SASS keeps about 20 of them in flight in 32 registers:
 * 32 - GP_MLP_BASE_REGS [sources: h200-cal] mlp rows.
 */
#define GP_GROUP_LINES 64
typedef struct load_group {
    double latency; /* the longest, cycles */
    double exp, gap; /* its wait beyond `hit`: expected (group_expected), on a miss */
    double hit, missed; /* the group's wait where every load hits L1, and where
                           each misses as its stream may */
    double busy;    /* L1 cycles of its requests so far: the next one waits behind them */
    double regs;    /* registers per thread its values hold */
    double loads;   /* its load instructions (a thread's) */
    double miss;    /* bytes past L1 per warp */
    int adjacent;   /* 1 while the last op walked was one of its loads */
    /* the slowest of its DRAM runs (group_slowest): the device's wait per
       doubling of the runs, the lines of its sampled loads (first sampled
       warp; buffer and line), the runs of its other loads, the most runs of
       one load and the chance that no run comes from DRAM */
    double per_doubling, runs_other, runs_one, lnone; /* lnone: the chance's log */
    double drawn_line, drawn_runs; /* the device's wait per drawn line beyond
                                      one load's; the lines its drawn loads read */
    uint32_t n_lines;
    /* the lines its warp's loads bring, and the log of the chance that none
       comes from DRAM (seg_sum_t.last_lines) */
    double w_lines, w_lnone, w_xlnone; /* w_xlnone: as w_lnone, after the first trip */
    int stored; /* a store walked while its loads were in flight */
    /* its streams' misses, a buffer's loads one stream: the buffer, the
       chance of a miss a trip and the group's wait on it (n_miss of them) */
    uint32_t n_miss;
    uint32_t line_buf[GP_GROUP_LINES];
    int64_t line_at[GP_GROUP_LINES];
    uint32_t miss_buf[GP_GROUP_LINES];
    double miss_p[GP_GROUP_LINES], miss_wait[GP_GROUP_LINES];
} load_group_t;

/* The group's expected wait: the expectation of its longest wait where
   each stream misses on its own chance and the group waits `hit` where
   none does, the streams taken from the longest wait down. */
static double group_expected(const load_group_t *g)
{
    double none = 1, e = 0;
    unsigned char taken[GP_GROUP_LINES] = {0};
    uint32_t i, k, n = g->n_miss;
    for (k = 0; k < n; k++) {
        uint32_t best = n;
        for (i = 0; i < n; i++)
            if (!taken[i] && (best == n || g->miss_wait[i] > g->miss_wait[best]))
                best = i;
        taken[best] = 1;
        e += none * g->miss_p[best] * GP_MAX(g->miss_wait[best], g->hit);
        none *= 1 - g->miss_p[best];
    }
    return e + none * g->hit;
}

/* The wait a group adds beyond its longest load for the slowest of its DRAM
   runs (group_slowest): per doubling of the runs its loads read together
   (runs: lines whose preceding line of the same buffer it does not read)
   over the most one load reads, and dram_drawn_line_cycles a line its
   drawn loads read beyond that most, weighted by the chance that one comes
   from DRAM. */
static double group_slow(const load_group_t *g)
{
    double runs = g->runs_other, q = -expm1(g->lnone);
    uint32_t i, j;
    if (!(g->per_doubling > 0) || !(q > 0))
        return 0;
    for (i = 0; i < g->n_lines; i++) {
        for (j = 0; j < g->n_lines; j++)
            if (g->line_buf[j] == g->line_buf[i] && g->line_at[j] == g->line_at[i] - 1)
                break;
        runs += j == g->n_lines;
    }
    if (!(runs > g->runs_one))
        return 0;
    return q * (g->per_doubling * (log2(runs) - log2(g->runs_one)) +
                g->drawn_line * GP_MAX(0.0, g->drawn_runs - g->runs_one));
}

/* Put a pending load group on the chain. */
static void flush_group(load_group_t *g, seg_sum_t *out)
{
    double wait = g->latency + group_slow(g);
    out->chain += wait;
    out->mem_chain += wait;
    if (wait > 0) {
        out->last_wait = wait;
        out->last_lines = g->w_lines;
        out->last_lnone = g->w_lnone;
        out->last_xlnone = g->w_xlnone;
    }
    g->w_lines = g->w_lnone = g->w_xlnone = 0;
    out->mem_exp += g->exp;
    out->mem_gap += g->gap;
    g->latency = g->busy = g->regs = g->miss = g->loads = 0;
    g->hit = g->missed = 0;
    g->exp = g->gap = 0;
    g->adjacent = 0;
    g->per_doubling = g->runs_other = g->runs_one = g->lnone = 0;
    g->drawn_line = g->drawn_runs = 0;
    g->n_lines = 0;
    g->stored = 0;
    g->n_miss = 0;
}

/*
 * A warp waits for the slowest line of its loads in flight together, not
 * only of each request's: lines of different DRAM runs (runs of consecutive
 * lines, each from one page) come back with their own latencies, so a batch
 * of loads waits dram_batch_log2_cycles per doubling of the runs the batch
 * reads beyond the most one of its loads reads (its own slowest lane is in
 * its latency: opcost.c lines_latency), as a block waits for its slowest
 * line at a barrier (block_slowest). bench_gridstride's loops of L loads a
 * trip, each load one line of its own page, at one warp per SM take 53, 115
 * and 143 cycles a trip more than the model's trip without the rule for
 * L = 2, 4 and 8 (51.0 per doubling, least squares), while L loads on L
 * consecutive lines (one run) take none more ([sources: h200-cal]
 * run10/gridstride gs4 and near4 rows, W = 1). Lines a load draws at random
 * (gpuperf.random: its own page and bank each) wait as the random lines of
 * one request do, dram_lines_log2_cycles per doubling: bench_scatter's
 * trips of L = 1, 2, 4, 8 random loads from DRAM less the same from L2
 * (the loads' own issue) take 75.8, 161.7 and 236.0 cycles more than one,
 * 79.1 per doubling, against that constant's 88.7 ([sources: h200-cal]
 * run10/scatter scatter_cycles.csv). Each drawn load's lines are its own:
 * the sampler names the same offsets for every op of a sampled warp, where
 * the independent draws the ops stand for almost never meet (matching them
 * counted 35 runs for bench_scatter's 4 gathers of 32 lines, not 128). The
 * drawn lines also queue behind each other on their way to DRAM: the same
 * loops with 32 lines a gather (a = 32, one warp per SM) take 1271.2,
 * 1499.0, 1899.9 and 2593.9 clock64 cycles a trip for L = 1, 2, 4, 8,
 * 4.71 cycles a line beyond one gather's on top of 88.7 per doubling
 * (dram_drawn_line_cycles, least squares). Adds op's lines or runs to the
 * group.
 */
static void group_slowest(const walk_ctx_t *cx, load_group_t *g, const gp_op_t *op,
                          const gp_op_cost_t *c, double count, double l1m)
{
    const gp_device_t *d = cx->dev;
    const gp_lane_sample_t *sm = op->access.sample;
    double own = GP_MAX(c->lines, 1.0);
    uint32_t line = d->l1_line_bytes ? d->l1_line_bytes : 128, i, j;
    double per = sm && sm->drawn && d->dram_lines_log2_cycles > 0 ? d->dram_lines_log2_cycles
                                                                  : d->dram_batch_log2_cycles;
    if (!(per > 0) || !(count > 0))
        return;
    if (!(g->per_doubling > 0))
        g->lnone = 0;
    g->per_doubling = GP_MAX(g->per_doubling, per);
    if (sm && sm->drawn) {
        /* a load of a draws group waits on none of the lines an earlier one
           of the group asked for (its L1 hits, opcost.c draw_group_cover) */
        double fresh = op->draw_group ? 1 - GP_MAX(0.0, GP_MIN(1.0, c->l1_hit)) : 1;
        g->drawn_line = d->dram_drawn_line_cycles;
        g->drawn_runs += own * count * fresh;
    }
    if (l1m < 0) /* l1m: log(1 - the op's DRAM share), 0 where it has none */
        g->lnone += own * count * l1m;
    g->runs_one = GP_MAX(g->runs_one, own);
    if (count == 1 && sm && sm->byte_offset && sm->lanes > 0 && sm->n_warps > 0 && !sm->drawn) {
        int64_t last = -1;
        for (i = 0; i < sm->lanes; i++) {
            int64_t off = sm->byte_offset[i], ln;
            if (off < 0)
                continue;
            ln = off / line;
            if (ln == last) /* a coalesced request's lanes share lines */
                continue;
            last = ln;
            for (j = 0; j < g->n_lines; j++)
                if (g->line_buf[j] == op->access.buffer && g->line_at[j] == ln)
                    break;
            if (j == g->n_lines && g->n_lines < GP_GROUP_LINES) {
                g->line_buf[g->n_lines] = op->access.buffer;
                g->line_at[g->n_lines++] = ln;
            }
        }
    } else
        g->runs_other += own * count;
}

/*
 * Where op's lines at the next trip of its innermost loop lie against this
 * trip's: 0 the same lines (a row walk `a[r * m + k]` stepping through its
 * sectors), 1 new lines less than dram_run_span_bytes from this trip's (a
 * stream of consecutive lines, or trips up to 512 bytes apart on the H200:
 * one DRAM run that grows by a copy's lines), 2 new lines further away (a
 * column walk `a[k * n + r]`, a block's copy loop stepping 1 KiB or more at
 * a time: each trip opens runs of its own, the block's other warps reading
 * the lines between barely shorten the wait; 0: anything but the next line
 * is further). The unrolled copies whose loads
 * are in flight together then wait for the run's further lines
 * (dram_run_line_cycles each) or for the slowest of their runs
 * (dram_batch_log2_cycles per doubling; add_loop). The H200's warps reading
 * one line a trip `pitch` bytes apart, 4 or 8 trips in flight, take about
 * the same time at pitches of 128 to 512 bytes, and 8 to 16% more from
 * 1 KiB on, and a block's copy loop whose warps read the lines between
 * one warp's trips only 2 to 8% less ([sources: h200-cal] run18/colwalk
 * p_u4, p_u8, b_u* rows). From the sample's first warp and its next-trip
 * instance.
 */
/* The byte offsets of a sample's first warp (*a) and of the same warp one
   trip of the innermost named loop later (*b); 0 where the sample has no
   such instance. */
static int next_trip_offsets(const gp_lane_sample_t *s, const int64_t **a, const int64_t **b)
{
    if (!s || !s->byte_offset || s->lanes == 0 || s->next_iteration == 0 ||
        s->next_iteration >= s->n_warps)
        return 0;
    *a = s->byte_offset;
    *b = s->byte_offset + (size_t)s->next_iteration * s->lanes;
    return 1;
}

/* Whether every sector the sample's first warp reads one trip of the
   innermost named loop later is a sector it reads this trip: the loop
   reads the same sectors again (1), or not or not known (0). A load without
   an index function reads the same elements every trip. */
static int rereads_sectors(const walk_ctx_t *cx, const gp_op_t *op)
{
    const gp_lane_sample_t *s = op->access.sample;
    uint32_t sector = cx->dev->sector_bytes ? cx->dev->sector_bytes : 32, l, m;
    const int64_t *a, *b;
    if (!s)
        return op->access.pattern != GP_PATTERN_RANDOM;
    if (!next_trip_offsets(s, &a, &b))
        return 0;
    for (l = 0; l < s->lanes; l++) {
        if (b[l] < 0)
            continue;
        for (m = 0; m < s->lanes; m++)
            if (a[m] >= 0 && a[m] / sector == b[l] / sector)
                break;
        if (m == s->lanes)
            return 0;
    }
    return 1;
}

/* log(1 - share) of a load's lines coming from DRAM in a trip after the
   loop's first, where `dram` is its share over all the loop's trips and
   l1m its log: a loop that reads the same lines every trip brings each
   line from DRAM at most once for the first, so the later trips share
   what the first does not account for (dram x trips - 1 of trips - 1);
   a loop that reads new lines keeps its mean. */
static double later_trips_l1m(const walk_ctx_t *cx, const gp_op_t *op, double dram, double l1m)
{
    double t = cx->trips, later;
    if (!(l1m < 0))
        return 0;
    if (!(t > 1) || !rereads_sectors(cx, op))
        return l1m;
    later = (dram * t - 1) / (t - 1);
    return later <= 0 ? 0 : later >= 1 ? -INFINITY : log1p(-later);
}

static int next_trip_lines(const walk_ctx_t *cx, const gp_op_t *op)
{
    const gp_lane_sample_t *s = op->access.sample;
    uint32_t line = cx->dev->l1_line_bytes ? cx->dev->l1_line_bytes : 128, l;
    /* lines closer than this to one of this trip's share its runs */
    int64_t near = cx->dev->dram_run_span_bytes > 0
                       ? (int64_t)ceil(cx->dev->dram_run_span_bytes / line)
                       : 2;
    const int64_t *a, *b;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    int where = 0;
    if (!next_trip_offsets(s, &a, &b))
        return 0;
    for (l = 0; l < s->lanes; l++)
        if (a[l] >= 0) {
            lo = GP_MIN(lo, a[l] / line);
            hi = GP_MAX(hi, a[l] / line);
        }
    if (lo > hi)
        return 0;
    for (l = 0; l < s->lanes; l++) {
        int64_t x = b[l] / line;
        if (b[l] < 0)
            continue;
        if (x <= lo - near || x >= hi + near)
            return 2;
        if (x < lo || x > hi)
            where = 1;
    }
    return where;
}

/*
 * Registers per thread the arithmetic chains of ops[0..n) (not the bodies
 * of their loops) keep live while the loads of the run are in flight: each
 * of an op's `ilp` independent chains (an accumulator, `s += x` of a loaded
 * value) holds its value in a register from one link to the next, one per
 * chain for 4-byte values (fp32, fp16 and half2, conversions, special
 * functions), two for fp64. The ops of a run continue the same chains (an
 * op waits for the result of the op before it), so the most chains of one
 * op count, not their sum. Integer ops (addresses, counters) are in
 * GP_MLP_BASE_REGS; tensor fragments are not counted (their registers are
 * not known from the flops).
 */
static double body_accumulators(const gp_op_t *ops, uint32_t n)
{
    double acc = 0;
    uint32_t i = 0;
    while (i < n) {
        const gp_op_t *op = &ops[i];
        double chains = op->ilp >= 1 ? floor(op->ilp) : 1;
        if (op->kind == GP_OP_LOOP || op->kind == GP_OP_DIVERGE) {
            i += 1 + (op->body_len < n - i - 1 ? op->body_len : n - i - 1);
            continue;
        }
        if (op->count > 0 && (op->kind == GP_OP_FP32 || op->kind == GP_OP_FP16 ||
                              op->kind == GP_OP_SFU || op->kind == GP_OP_CONV))
            acc = GP_MAX(acc, GP_MIN(chains, op->count));
        else if (op->count > 0 && op->kind == GP_OP_FP64)
            acc = GP_MAX(acc, 2 * GP_MIN(chains, op->count));
        i++;
    }
    return acc;
}

/* Registers per thread the launch has for load values in flight beside
   GP_MLP_BASE_REGS and `acc` registers of live arithmetic chains
   (body_accumulators; 0: no limit known), and bytes past L1 one warp may
   have in flight (0: no limit). ptxas gives a run's load values only what
   the chains leave: bench_uniform2's trip of 16 float loads into 16
   accumulators (32 registers) rotates 4 value registers and waits 4
   latencies a trip (1194 cycles from L2, against 294 to 339 for 1 to 8
   loads), and 8 float4 loads into 8 accumulators (33 registers) keep 3 in
   flight: (33 - 12 - 8) / 4 ([sources: h200-cal] run9/uniform2
   uniform2_cycles.csv, sass_uniform2.txt.gz). */
static double mlp_regs(const walk_ctx_t *cx, double acc)
{
    double regs = (double)cx->kernel->launch.regs_per_thread;
    return regs > 0 ? GP_MAX(regs - GP_MLP_BASE_REGS - GP_MAX(acc - 1, 0.0), 1.0) : 0;
}

static double mlp_warp_bytes(const walk_ctx_t *cx)
{
    double warps;
    if (cx->occ->max_warps == 0)
        return 0;
    warps = GP_MAX((double)cx->res->warps_sm, (double)cx->occ->warps_per_block);
    return (double)cx->occ->max_warps * cx->dev->warp_size *
           gp_fit_value(GP_FIT_MLP_INFLIGHT_BYTES_PER_THREAD) / GP_MAX(warps, 1.0);
}

/* 1 for the ops of a straight stretch of loads and the arithmetic between
   them: independent global or texture loads and the integer and floating
   arithmetic that computes their addresses or works on their values. */
static int stretch_op(const gp_op_t *o)
{
    switch (o->kind) {
    case GP_OP_LOAD:
        return !o->access.depends &&
               (o->space == GP_SPACE_GLOBAL || o->space == GP_SPACE_TEXTURE);
    case GP_OP_INT:
    case GP_OP_FP32:
    case GP_OP_FP16:
    case GP_OP_FP64:
    case GP_OP_CONV:
        return 1;
    default:
        return 0;
    }
}

/* 1 when loads a and b are taps of one row: the same buffer, sampled alike,
   every active lane's two addresses less than `near` bytes apart (one
   pointer at immediate offsets, as a stencil's -1, 0, +1 taps). */
static int same_row(const gp_op_t *a, const gp_op_t *b, int64_t near)
{
    const gp_lane_sample_t *sa = a->access.sample, *sb = b->access.sample;
    uint32_t k, m;
    int active = 0;
    if (!sa || !sb || sa->drawn || sb->drawn || !sa->byte_offset || !sb->byte_offset ||
        sa->n_warps != sb->n_warps || sa->lanes != sb->lanes ||
        a->access.buffer != b->access.buffer || a->access.buffer == UINT32_MAX)
        return 0;
    m = sa->n_warps * sa->lanes;
    for (k = 0; k < m; k++) {
        int64_t x = sa->byte_offset[k], y = sb->byte_offset[k];
        if (x < 0 || y < 0)
            continue;
        if (x - y >= near || y - x >= near)
            return 0;
        active = 1;
    }
    return active;
}

/*
 * Registers the row address of load ops[i] holds while its stretch
 * (stretch_op) issues: 2 (a 64-bit pointer, [sources: ptx] 64-bit
 * addressing) when ops[i] is the first load of a row that a later load of
 * the stretch shares, and not on the stretch's first row, whose address is
 * the base every run counts; 0 otherwise. Taps of one row lie within a
 * sector of each other (same_row) and issue at immediate offsets from the
 * row's pointer, which stays live until the row's last tap issues; a row of
 * one load frees its pointer as it issues. The H200's 27-point stencil
 * (bench_st3d k_st<5>, 32 registers, nine rows of three taps a run-time
 * pitch apart) issues 14 of its 27 loads before the first FADD, where the
 * 9-tap sets of nine rows of one tap (yz9, 25 registers) or three rows of
 * three (plane9, 24) issue all of theirs ([sources: h200-cal] run23/st3d,
 * sass_st3d.txt.gz); bench_misalign's 16 loads a line apart from one pointer
 * (each its own row) issue together (run19/misalign).
 */
static double row_address_regs(const walk_ctx_t *cx, const gp_op_t *ops, uint32_t n, uint32_t i)
{
    int64_t near = cx->dev->sector_bytes ? (int64_t)cx->dev->sector_bytes : 32;
    uint32_t j, first = i;
    int rows_before = 0;
    if (i >= n || ops[i].kind != GP_OP_LOAD || !stretch_op(&ops[i]))
        return 0;
    while (first > 0 && stretch_op(&ops[first - 1]))
        first--;
    for (j = first; j < i; j++) {
        if (ops[j].kind != GP_OP_LOAD)
            continue;
        if (same_row(&ops[j], &ops[i], near))
            return 0; /* its row is open already */
        rows_before = 1;
    }
    if (!rows_before)
        return 0;
    for (j = i + 1; j < n && stretch_op(&ops[j]); j++)
        if (ops[j].kind == GP_OP_LOAD && same_row(&ops[j], &ops[i], near))
            return 2;
    return 0;
}

/*
 * 1 when the run of adjacent independent loads that starts at ops[i] fits
 * the launch's registers with all its values in flight: beside the `acc`
 * registers of the arithmetic chains (body_accumulators), the 64-bit
 * address they share (2 registers, [sources: ptx] 64-bit addressing) and
 * the addresses of the further rows several of its loads share
 * (row_address_regs). ptxas
 * reports the registers that hold such a run (the stream triad's two loads
 * and its FFMA in 12 registers), so its loads issue together whatever the
 * loop's base (GP_MLP_BASE_REGS). A run that cannot fit (bench_uniform2's
 * 16 float values and 16 accumulators in 32 registers) is cut as any
 * batch is, by the registers above the base and the chains (mlp_regs).
 */
static int run_fits(const walk_ctx_t *cx, const gp_op_t *ops, uint32_t n, uint32_t i,
                    double acc)
{
    double regs = (double)cx->kernel->launch.regs_per_thread, need = 0;
    if (!(regs > 0))
        return 1;
    for (; i < n && ops[i].kind == GP_OP_LOAD && !ops[i].access.depends; i++)
        need += (ops[i].count > 0 ? ops[i].count : 0) *
                    ceil((double)ops[i].access.elem_bytes / 4.0) +
                row_address_regs(cx, ops, n, i);
    return need + acc + 2 <= regs;
}

/* Add an independent load (latency, registers, bytes past L1) to the pending
   group. A load right after another issues with it, as the script lists
   them (the registers ptxas reports already hold both); one that the
   compiler must hoist over arithmetic to join the group joins only while
   the group fits the registers and bytes in flight, else the group closes
   and the load starts the next. */
static void group_add(const walk_ctx_t *cx, load_group_t *g, uint32_t buffer, double latency,
                      double exp, double gap, double regs, double miss, double busy, double acc,
                      int held, double loads, uint32_t in_flight, seg_sum_t *out)
{
    double cap_regs = mlp_regs(cx, acc), cap_bytes = mlp_warp_bytes(cx);
    if (g->regs > 0 && !(g->adjacent && held) &&
        ((cap_regs > 0 && g->regs + regs > cap_regs) ||
         (cap_bytes > 0 && miss > 0 && g->miss + miss > cap_bytes)))
        flush_group(g, out);
    /* the loads the script says the compiled code keeps in flight
       (gp_op_t.in_flight, from its SASS) bound the group whatever the
       registers would hold */
    if (g->loads > 0 && in_flight > 0 && g->loads + loads > (double)in_flight)
        flush_group(g, out);
    /* the L1 serves a warp's requests one after another: a load leaves it
       behind those of the group issued before it, for the L1 cycles of
       their hits (`busy`; the unrolled bench_tiles bcast loops,
       [sources: h200-cal] run8/tiles: four float4 warp-uniform loads of one
       warp wait 3 x 5.38 cycles more than one; bench_uniform2's loops of 1
       to 8 coalesced L1 hits a trip, one warp per SM, 47 to 101 cycles a
       trip, run9/uniform2, and bench_uniform's few-address loads, run9).
       The group waits for its longest load, expected, on hits and on the
       misses of its streams: a load that waits behind the others' L1 cycles
       does not hide an earlier load's miss. The loads of one buffer miss
       together (a stencil's taps cross into a new line at one step); the
       streams of different buffers miss each on its own, so the group
       waits for the longest of the misses that happen, not the longest
       miss as often as the likeliest stream misses: the naive SGEMM's
       `#pragma unroll 1` loop, whose B load misses L1 every step and whose
       A load of four rows a new line in eight, takes 430 cycles a step at
       n = 1024 with 8x32 blocks ([sources: h200-cal] run21/naive
       naive_8x32_u1: the rows' long A waits every step, 945 cycles, where B's
       hits no longer cover them). */
    g->hit = GP_MAX(g->hit, latency - exp + g->busy);
    g->missed = GP_MAX(g->missed, latency - exp + gap + g->busy);
    if (gap > 0) {
        double p = GP_MIN(exp / gap, 1.0), w = latency - exp + gap + g->busy;
        uint32_t i;
        for (i = 0; i < g->n_miss && g->miss_buf[i] != buffer; i++)
            ;
        if (i == g->n_miss && g->n_miss < GP_GROUP_LINES) {
            g->miss_buf[i] = buffer;
            g->miss_p[i] = p;
            g->miss_wait[i] = w;
            g->n_miss++;
        } else { /* the buffer's stream (past GP_GROUP_LINES buffers: the last one's) */
            i = GP_MIN(i, g->n_miss - 1);
            g->miss_p[i] = GP_MAX(g->miss_p[i], p);
            g->miss_wait[i] = GP_MAX(g->miss_wait[i], w);
        }
    }
    g->gap = g->missed - g->hit;
    g->exp = GP_MAX(0.0, group_expected(g) - g->hit);
    g->latency = g->hit + g->exp;
    g->busy += busy;
    g->regs += regs;
    g->loads += loads;
    g->miss += miss;
    g->adjacent = 1;
}

/*
 * 1 for the ops that end a straight run of code for the loads around them.
 * A store to shared memory does not: no global, local or texture load can
 * alias it (another state space), so nvcc hoists the next copies' loads above
 * it and a tile copy written as load, store, load, store waits for its loads
 * together, as far as the registers go. In bench_tiles2's unrolled copies
 * (k_tile ld=un and co, k_ldloop u=1) every LDG of the trip issues before the
 * first STS, and a trip of 1, 2, 4 or 8 loads per thread (one batch) takes
 * 908, 997, 1267 and 1503 cycles from DRAM, not 1, 2, 4, 8 latencies
 * ([sources: h200-cal] run9/tiles2 tiles2_cycles.csv, sass_tiles2.txt.gz).
 */
static int ends_straight_run(const gp_op_t *op)
{
    uint32_t kind = op->kind;
    if (kind == GP_OP_STORE && op->space == GP_SPACE_SHARED)
        return 0;
    return kind == GP_OP_BARRIER || kind == GP_OP_STORE || kind == GP_OP_ATOMIC ||
           kind == GP_OP_ASYNC_COPY || kind == GP_OP_BRANCH;
}

/*
 * 1 when the branch at ops[i] guards what nvcc if-converts: up to the next
 * branch or the end of the body, only loads and arithmetic (no store,
 * atomic, barrier, asynchronous copy, loop or divergent body). ptxas
 * predicates such a body (an ISETP, then @P LDG and @P FFMA) and issues its
 * loads with those around it, also across the copies of an unrolled loop:
 * bench_guard's `if (c >= 0) s += v[e] * x[c]` runs as fast as the loop
 * without the guard (124.3 against 124.5 us at 2^20 rows, 10.56 against
 * 10.62 at 2^16; [sources: h200-cal] run15/guard, sass_guard.txt.gz). A
 * guarded body that stores (the staged stencil's halo load and its shared
 * store, bench_tiles3) stays a branch, and the loads after it wait apart.
 */
static int predicated_branch(const gp_op_t *ops, uint32_t i, uint32_t n)
{
    uint32_t j;
    for (j = i + 1; j < n && ops[j].kind != GP_OP_BRANCH; j++) {
        uint32_t kind = ops[j].kind;
        if (kind == GP_OP_STORE || kind == GP_OP_ATOMIC || kind == GP_OP_BARRIER ||
            kind == GP_OP_ASYNC_COPY || kind == GP_OP_LOOP || kind == GP_OP_DIVERGE)
            return 0;
    }
    return 1;
}

/*
 * 1 when the first op after ops[i] that is not integer work is a load whose
 * address is not an earlier load's value: the integer ops between compute
 * its address, which waits for none of the loads in flight before it, so
 * the warp issues them while those are out and they cost the chain their
 * issue, not their latency. bench_scatter's trips of L random loads, each
 * behind its own 7 integer ops (LCG step, line, address), one warp per SM,
 * take 335.7, 349.2, 372.5 and 410.2 cycles from L2 for L = 1, 2, 4, 8
 * (about 11 a further load: its instructions' issue), where 7 integer
 * latencies a further load would add 31 ([sources: h200-cal]
 * run10/scatter scatter_cycles.csv, sass_scatter.txt.gz).
 */
static int next_load_independent(const gp_op_t *ops, uint32_t i, uint32_t n)
{
    uint32_t j;
    for (j = i + 1; j < n && ops[j].kind == GP_OP_INT; j++)
        ;
    return j < n && is_load(ops[j].kind) && !ops[j].access.depends;
}

/* Cost of `instr` control instructions (branch class) through the plugin. */
static int add_control(const walk_ctx_t *cx, double instr, seg_sum_t *s)
{
    gp_op_t op;
    gp_op_cost_t c;
    char msg[256] = "";
    int p;
    memset(&op, 0, sizeof op);
    op.kind = GP_OP_BRANCH;
    op.count = 1;
    op.ilp = 1;
    memset(&c, 0, sizeof c);
    if (gp_op_cost(cx->plugin, cx->gen, cx->dev, cx->kernel, &op, cx->occ, cx->res, &c, msg,
                   sizeof msg) != 0) {
        msg[sizeof msg - 1] = '\0';
        snprintf(cx->err, cx->errlen, "loop control: %s", *msg ? msg : "op_cost failed");
        return -1;
    }
    for (p = 0; p < GP_PIPE_COUNT; p++)
        if (isfinite(c.pipe_cycles[p]) && c.pipe_cycles[p] > 0)
            s->pipe[p] += instr * c.pipe_cycles[p];
    s->instr += instr;
    return 0;
}

/*
 * Extra wait at a barrier: the warps of a block that share a scheduler issue
 * one at a time, so the last of them reaches the barrier after the others
 * have issued the phase's instructions.
 */
static double barrier_wait(const walk_ctx_t *cx, double phase_instructions)
{
    const gp_device_t *d = cx->dev;
    double per_scheduler = ceil((double)cx->occ->warps_per_block / d->schedulers_per_sm);
    return GP_MAX(per_scheduler - 1, 0.0) * phase_instructions / d->dispatch_per_scheduler;
}

/* Registers per thread one unrolled copy of a loop body holds: its loads'
   values and the chains of the arithmetic on them (seg_sum_t.fresh_regs).
   A single chain on the loaded value (one live value: u = f(u)) works in
   the load's own register, so the copy holds its load's registers alone:
   bench_overlap's copies of one float and a chain of 4 or 12 FFMA on it run
   4 side by side in 17 registers and 8 in 25 ([sources: h200-cal]
   run17/overlap, overlap.csv: 61.0, 34.0, 19.0, 13.4 cycles a trip at 1, 2,
   4, 8 copies), where the sum allowed 2 (the family 15.4% -> 12.3%). Chains
   that keep several values live beside the load's (the n-body loop's
   dx, dy, dz) hold both: its copies, which the registers would allow three
   of, run two by two (run10/loopchain nbody_auto: -6..-10% at 1 to 8 warps
   against -24..-36% with one register fewer a copy). */
static double copy_regs(const seg_sum_t *body)
{
    if (body->fresh_regs <= 1 && body->load_regs >= 1)
        return body->load_regs;
    return body->load_regs + body->fresh_regs;
}

/* The unrolled copies of a loop body the launch's registers hold side by
   side (mlp_regs over copy_regs); INFINITY where no limit is known. */
static double register_copies(const walk_ctx_t *cx, const seg_sum_t *body)
{
    double cap = mlp_regs(cx, body->acc_regs), per = copy_regs(body);
    return cap > 0 && per > 0 ? floor(cap / per) : INFINITY;
}

/*
 * 1 when nvcc issues the loads of a loop body's later unrolled copies ahead
 * of the earlier copies' barriers: every global load of the body is on the
 * read-only path (space texture: LDG.E.CONSTANT from a `const __restrict__`
 * pointer, which no store of the kernel writes, so a barrier orders
 * nothing for it), and the body is straight (no loop or branch region of
 * its own between its copies). Coherent loads, atomics and asynchronous
 * copies stay behind the barrier, and so does every load of a trip that
 * reads clock64 through an asm with a "memory" clobber (its script states
 * those loads as global: docs/workloads.md). A body whose loads are all
 * from shared memory reads what the barrier publishes: its trips stay
 * apart. Where global loads do pass, the trip's own shared loads, whose
 * wait is small beside theirs, are divided with them. The copies in
 * flight are those of any unrolled loop (loop_mlp_depth), and at most
 * GP_HOIST_LOADS load instructions a thread. bench_tiles2's ldloop trips
 * on the H100 (a copy of L floats a thread into shared memory,
 * __syncthreads, a shared read, __syncthreads; 64 trips; the copy written
 * out with `#pragma unroll`) take 11.0, 16.4, 28.3, 50.7 and 84.5 us for
 * 132 blocks at L = 1, 2, 4, 8, 16, where the model's one wait a trip gave
 * 37.8, 40.6, 44.2, 50.1, 61.9 ([sources: h100-cal] benches/tiles2_nostamp, ldloop
 * rows; SASS counts sass_counts_tiles2.txt.gz: 29 unrolled copies at
 * L = 1 and 2, 5 at 4, 3 at 8, 1 at 16).
 */
static int hoists_across_barriers(const seg_sum_t *body)
{
    return body->gloads > 0 && !body->coherent && !body->nested;
}

/*
 * Iterations of a loop whose loads are in flight together (memory-level
 * parallelism). nvcc unrolls the loop (`unroll` copies) and issues the
 * copies' loads together, so a warp waits for memory once per `unroll`
 * iterations instead of every iteration; fewer when
 *  - registers run short: every load in flight holds its value in registers
 *    (copy_regs: the body's load_regs per iteration and the chains of the
 *    arithmetic on them) beside the GP_MLP_BASE_REGS any
 *    loop needs, out of the launch's registers per thread;
 *  - the SM's outstanding requests run short: the SM holds at least
 *    GP_MLP_INFLIGHT_BYTES_PER_THREAD for each of its thread slots in flight
 *    (more than Little's law needs to reach the DRAM bandwidth,
 *    [sources: little1961], [sources: volkov2016] ch. 5), shared by the warps
 *    resident on the SM; past that the memory term binds anyway.
 * 1 when a load waits for the previous iteration's (a pointer chase).
 */
static double loop_mlp_depth(const walk_ctx_t *cx, const seg_sum_t *body, double unroll)
{
    double depth = unroll, cap_bytes = mlp_warp_bytes(cx);
    double miss = body->l2 > 0 ? body->l2 : body->dram; /* bytes past L1, per warp iteration */
    /* a barrier in the body keeps the next iteration's loads behind it,
       unless they are all on the read-only path in a straight body
       (hoists_across_barriers) */
    if (body->carried || !(body->mem_chain > 0) ||
        (body->barrier && !hoists_across_barriers(body)))
        return 1;
    if (body->load_regs > 0)
        depth = GP_MIN(depth, register_copies(cx, body));
    if (body->barrier) /* its loads pass the barriers: gloads > 0 */
        depth = GP_MIN(depth, GP_MAX(1.0, GP_HOIST_LOADS / body->gloads));
    /* the copies whose loads fit the loads the script says are in flight */
    if (body->window > 0 && body->gloads > 0)
        depth = GP_MIN(depth, GP_MAX(1.0, floor(body->window / body->gloads)));
    if (miss > 0 && cap_bytes > 0)
        depth = GP_MIN(depth, cap_bytes / miss);
    return GP_MAX(depth, 1.0);
}

/*
 * Times a loop of `trips` iterations waits for its loads, `depth` of them
 * in flight together (loop_mlp_depth). At least once: the loads of a loop of
 * fewer trips than copies still wait one latency together, as a straight
 * copy does. A loop the source pins to `unroll` copies, as nvcc compiles a
 * loop whose trip count is a run-time value (`for (i = tid; i < n; i +=
 * 256)`: 4 copies), runs the trips that do not fill a copy one at a
 * time first, each waiting for its own load: bench_tiles2's copy loops
 * `for (i = tid; i < L*256; i += 256)` of L = 1, 2, 4, 8, 16 trips take
 * 1002, 1809, 1415, 2263 and 3806 cycles a trip from DRAM (1, 2, 1, 2 and 4
 * waits; 527, 844, 675, 987, 1625 from L2), their SASS a remainder loop
 * before the unrolled one ([sources: h200-cal] run9/tiles2 ldloop rows,
 * sass_tiles2.txt.gz, k_ldloop<L, 0>).
 */
static double loop_waits(double trips, double unroll, double depth, uint32_t pinned)
{
    if (!(trips > 0))
        return 0;
    if (pinned > 1 && trips >= 1) {
        double full = floor(trips / unroll);
        return full * unroll / depth + (trips - full * unroll);
    }
    return GP_MAX(trips / depth, GP_MIN(trips, 1.0));
}

/* 1 where the sample's next warp of the block (sample.next_warp) reads,
   at the origin's iterations, the elements that follow the origin warp's
   last one: lane l of warp 1 at the origin warp's last offset plus
   (l + 1) elements, as `i = threadIdx.x + blockDim.x j` gives. */
static int row_neighbour(const gp_lane_sample_t *s)
{
    const int64_t *a, *b;
    int64_t last = INT64_MIN, first = INT64_MIN, step = 0;
    uint32_t l;
    if (!s || !s->byte_offset || s->next_warp == 0 || s->next_warp >= s->n_warps ||
        s->lanes < 2)
        return 0;
    a = s->byte_offset;
    b = s->byte_offset + (size_t)s->next_warp * s->lanes;
    if (a[0] < 0 || a[1] < 0 || b[0] < 0)
        return 0;
    step = a[1] - a[0];
    if (step <= 0)
        return 0;
    for (l = 0; l < s->lanes; l++) {
        if (a[l] < 0 || a[l] != a[0] + (int64_t)l * step)
            return 0;
        last = a[l];
    }
    first = b[0];
    return first == last + step;
}

/*
 * 1 when `loop` steps by a run-time value to an index bound, which nvcc does
 * not unroll. With block 0: a grid-stride loop, `for (i = gid; i < n; i +=
 * gridDim.x * blockDim.x)`: its stride is a run-time value
 * and its bound an index, so it cannot count the trips. Told from the
 * script: the loop pins no `unroll`, its trips are not a whole number (the
 * threads run different counts, the mean is described) and a load or store
 * of its own body steps from one trip to the next by exactly the grid's
 * threads on every active lane. A counted loop (`for (k = 0; k < m; ++k)`,
 * m a whole number of trips) is unrolled whatever its stride: a column walk
 * with as many rows as the grid has threads strides alike. nvcc 13 compiles
 * the grid-stride sum with one load a trip (bench_gridstride's k_nat,
 * [sources: h200-cal] run10/gridstride, sass_gridstride.txt.gz) and the
 * column walk with 16 copies (run18/colwalk); the PTX of
 * validation/h200/bench/unroll_shapes.cu shows the same for each form.
 * With block 1: a block's pass over its own row, `for (c = threadIdx.x; c <
 * cols; c += blockDim.x)`, whole trips or not: no barrier in its body, a
 * load or store stepping by the block's threads on every active lane, the
 * block's next warp reading on where the first ends (row_neighbour) and the
 * blocks' rows their own (the grid's footprint at least
 * GP_BLOCK_ROW_DISJOINT of theirs added up), where a column walk whose
 * pitch is the block's threads has its warps or blocks on rows of their
 * own. One LDG a trip in the SASS of bench_passes' k_pbd ([sources:
 * h100-cal] run63/passes_bstride) and unroll_shapes.cu's bs_rt; a constant
 * stride gives 4 copies, which the script states (`unroll = 4`).
 */
static int stride_loop(const walk_ctx_t *cx, const gp_op_t *loop, int block)
{
    uint64_t blocks = cx->kernel->total_blocks, tpb = cx->kernel->launch.threads_per_block;
    double trips = loop->count;
    int64_t threads;
    uint32_t i;
    /* a grid whose threads' bytes a step could not be counted in 64 bits
       strides beyond any buffer */
    if (loop->unroll || !(trips > 1) || (!block && trips == floor(trips)) || blocks == 0 ||
        tpb == 0 || blocks > (uint64_t)INT64_MAX / 16 / tpb)
        return 0;
    threads = (int64_t)(block ? tpb : blocks * tpb);
    if (block) /* a row's pass is straight work; a loop of barrier phases is counted */
        for (i = 1; i <= loop->body_len; i++)
            if (loop[i].kind == GP_OP_BARRIER)
                return 0;
    for (i = 1; i <= loop->body_len; i++) {
        const gp_op_t *op = &loop[i];
        const gp_lane_sample_t *s = op->access.sample;
        const int64_t *a, *b;
        int64_t step;
        uint32_t l;
        int active = 0, same = 1;
        if (op->kind == GP_OP_LOOP || op->kind == GP_OP_DIVERGE) {
            i += op->body_len; /* a nested body's ops step along their own loop */
            continue;
        }
        if ((op->kind != GP_OP_LOAD && op->kind != GP_OP_STORE) || (s && s->drawn) ||
            !next_trip_offsets(s, &a, &b))
            continue;
        /* a block's own row: its next warp reads on where the first ends
           at the same trip (the block's threads tile the row), and the
           blocks' footprints do not overlap (a column walk whose pitch is
           the block's threads steps alike, its warps or blocks reading
           rows of their own or each other's) */
        if (block && (!row_neighbour(s) ||
                      !((double)s->grid_footprint_bytes >=
                        GP_BLOCK_ROW_DISJOINT * (double)blocks *
                            (double)s->block_footprint_bytes)))
            continue;
        step = threads * (int64_t)(op->access.elem_bytes ? op->access.elem_bytes : 4);
        for (l = 0; l < s->lanes; l++)
            if (a[l] >= 0 && b[l] >= 0) {
                active = 1;
                same &= b[l] - a[l] == step;
            }
        if (active && same)
            return 1;
    }
    return 0;
}

/*
 * 1 when `loop` is a block's tile copy into shared memory, `for (i = tid; i <
 * N; i += 256) s[i] = g[...]`: the loop pins no `unroll` and its body is one
 * straight run (nothing in it ends_straight_run, no nested loop or divergent
 * body) that loads from global memory and stores to shared memory, with only
 * arithmetic beside (a `gpuperf.loop{16, var = "a", body = {load, int,
 * shared_store}}` of index `tid + 256 a`). nvcc
 * unrolls it GP_TILE_COPY_UNROLL times, the trips short of a whole number of
 * copies run first one at a time, whatever the trip count (nvcc does not know
 * that every thread runs the same number), and the copies' loads wait
 * together: the SASS of the tiles2, mmasmem and regblock copy loops, which
 * their scripts pin with `unroll = 4`. A stride of `blockDim.x` (a run-time
 * value) nvcc does not unroll (`unroll = 1`: bench_attnq's copy), nor a
 * counted copy with constant bounds, which it unrolls whole (`unroll =
 * trips`); the script says so.
 */
static int tile_copy_loop(const gp_op_t *loop)
{
    uint32_t i;
    int loads = 0, stores = 0;
    if (loop->unroll || !(loop->count >= 1))
        return 0;
    for (i = 1; i <= loop->body_len; i++) {
        const gp_op_t *op = &loop[i];
        if (ends_straight_run(op) || op->kind == GP_OP_LOOP || op->kind == GP_OP_DIVERGE)
            return 0; /* a barrier, branch, atomic, async copy, global store, nested body */
        if (op->kind == GP_OP_LOAD) {
            if (op->space != GP_SPACE_GLOBAL && op->space != GP_SPACE_TEXTURE)
                return 0;
            loads = 1;
        }
        stores |= op->kind == GP_OP_STORE;
    }
    return loads && stores;
}

/* The copies the source pins for `loop`, or that nvcc makes of its shape
   (a grid-stride loop: 1; a tile copy: GP_TILE_COPY_UNROLL); 0: as nvcc
   unrolls a short body by itself. */
static uint32_t loop_pinned(const walk_ctx_t *cx, const gp_op_t *loop)
{
    if (loop->unroll)
        return loop->unroll;
    if (stride_loop(cx, loop, 0))
        return 1;
    if (tile_copy_loop(loop))
        return GP_TILE_COPY_UNROLL;
    return stride_loop(cx, loop, 1) ? 1 : 0;
}

/* Fold `trips` iterations of `body` into out, with the loop's control.
   pinned: the copies the source pins (`#pragma unroll N`, the loop's
   `unroll`), 0: as nvcc unrolls a short body by itself. */
static int add_loop(const walk_ctx_t *cx, const seg_sum_t *body, double trips, uint32_t pinned,
                    seg_sum_t *out, double *batch, double *nwaits, double *wait_extra)
{
    const gp_device_t *d = cx->dev;
    double unroll = floor(GP_UNROLL_TARGET_INSTRUCTIONS / GP_MAX(body->instr, 1.0));
    double branch = d->branch_cycles > 0 ? d->branch_cycles : d->int32_cycles;
    double depth, waits;
    seg_sum_t b = *body;
    unroll = pinned ? (double)pinned : GP_MIN(GP_MAX(unroll, 1.0), GP_UNROLL_MAX);
    /* the loads of `depth` iterations wait together: each iteration waits
       1/depth of its memory latency, beside its own arithmetic chain. A
       batch waits for its slowest load: where the iterations' misses are
       the first touches of a stream (a sector every 1 / p trips), a batch
       of depth iterations holds one with probability min(1, depth p), not
       p: the H200's n-body loop, unrolled 4 times by nvcc with its float4
       loads issued two by two (a new 32-byte sector every two trips), waits
       for L2 at every pair: 194.4 cycles a trip from L2 against 82.9 from
       L1 ([sources: h200-cal] run10/loopchain nbody_auto, SASS k_nb<0>) */
    depth = loop_mlp_depth(cx, body, unroll);
    waits = loop_waits(trips, unroll, depth, pinned);
    {
        double mem = body->mem_chain;
        *wait_extra = 0;
        if (depth > 1 && body->mem_gap > 0) {
            *wait_extra = GP_MIN(body->mem_gap, depth * body->mem_exp) - body->mem_exp;
            mem += *wait_extra;
        }
        /* the copies in flight together (next_trip_lines) wait for the
           further lines of the DRAM runs they extend, as a request waits
           for the lines of its run (opcost.c lines_latency), and for the
           slowest of the runs they each open, as the loads of one straight
           run do (group_slowest): dram_batch_log2_cycles per doubling of
           the copies, weighted by the chance that one of them comes from
           DRAM */
        if (depth > 1 && body->copy_run_lines > 0 && d->dram_run_line_cycles > 0)
            mem += (depth - 1) * body->copy_run_lines * d->dram_run_line_cycles;
        if (depth > 1 && body->copy_lnone < 0 && d->dram_batch_log2_cycles > 0)
            mem += -expm1(depth * body->copy_lnone) * d->dram_batch_log2_cycles * log2(depth);
        b.mem_chain = mem * waits / GP_MAX(trips, 1e-300);
        /* the loads a store of the trip writes back to wait in full
           (seg_sum_t.carry): bench_alias's in-place grid-stride loop
           p[i] = p[i] * s + t, its SASS a load and a store per trip in
           turn, takes 759 cycles a trip from DRAM and 316 from L2 with 8
           warps per SM, q[i] = p[i] * s + t 205 and 92 ([sources:
           h200-cal] run10/alias scale rows) */
        if (body->carry > 0 && trips > 0)
            b.mem_chain = GP_MAX(b.mem_chain, GP_MIN(body->carry, mem));
        /* where the copies' loads pass the barriers (loop_mlp_depth), the
           block waits there for them once a batch, as its chain does */
        if (depth > 1 && body->barrier && body->mem_chain > 0)
            b.stall = body->stall * b.mem_chain / body->mem_chain;
    }
    b.carry = 0;
    b.mem_exp = b.mem_gap = 0;
    /* the iterations whose loads the loop's last wait covers */
    *batch = waits > 0 ? GP_MIN(GP_MAX(trips / waits, 1.0), depth) : 0;
    *nwaits = waits;
    b.chain = body->chain - body->mem_chain + b.mem_chain;
    /* the copies' arithmetic on their own loaded values (seg_sum_t.fresh)
       runs side by side, as many copies as the registers hold (copy_regs,
       loop_mlp_depth's rule); the accumulator that ends each copy's chain
       waits for the copy before it. bench_overlap's loop of a warp-uniform
       load, 4 dependent FFMA on it and `acc += u`, one warp per SM, takes
       61.0, 34.0, 19.0 and 13.4 cycles a trip at 1, 2, 4 and 8 copies: the
       one-copy trip over the copies plus the accumulation's 4 ([sources:
       h200-cal] run17/overlap, overlap_cycles.csv). ptxas may run fewer
       side by side than the registers hold: the n-body loop (a float4
       load, body_acc's 15 FADD, FMUL and FFMA around a rsqrtf) unrolled 4
       times in 32 registers runs two by two (82.9 cycles a trip from L1
       against 134.1 for one copy; run10/loopchain nbody_auto, nbody_u1) */
    if (body->fresh > 0 && unroll > 1) {
        double k = GP_MIN(GP_MIN(unroll, GP_MAX(trips, 1.0)), register_copies(cx, body));
        if (k > 1)
            b.chain -= body->fresh * (1 - 1 / k);
    }
    /* the integer induction chain runs beside (walk) */
    b.chain = GP_MAX(b.chain, body->int_chain);
    b.int_chain = 0;
    /* the control chain runs beside the body's own chain; the taken branch
       that closes each unrolled copy stalls the chain while the next
       instructions are fetched (branch_taken_cycles, device file). ptxas
       places the exit compare (ISETP) among the trip's integer updates
       after its loads, before the arithmetic that uses them, and keeps
       predicate_branch_cycles of stall counts between it and the branch;
       the arithmetic's wait for the loads is not a stall count, so a trip
       whose arithmetic after that wait is shorter waits the rest before
       the branch. The H200's k_lc loop of a warp-uniform float and
       `acc += v` (ISETP, FADD with a stall of 12, BRA) takes 68 clock64
       cycles a trip from L1, and with 4 dependent FFMA before the add only
       73; bench_uniform2's trips of 2 and 4 loads hold the last FADD 9
       cycles before the branch ([sources: h200-cal] run10/loopchain
       sass_loopchain.txt.gz, loopchain_cycles.csv; run9/uniform2
       sass_uniform2.txt.gz) */
    {
        double pred = 0;
        if (d->predicate_branch_cycles > 0 && body->consumed >= 0)
            pred = GP_MAX(0.0, d->predicate_branch_cycles - body->consumed);
        b.chain = GP_MAX(b.chain + (d->branch_taken_cycles + pred) / unroll, branch / unroll);
    }
    seg_add(out, &b, trips);
    return add_control(cx, trips * GP_LOOP_CONTROL_INSTRUCTIONS / unroll, out);
}

/*
 * The wait of a block at a barrier for the loads its warps issued in the
 * phase before: the slowest of their `lines` cache lines, not one warp's
 * request. Where any of them comes from DRAM (1 - none: the chance that
 * none does, from each load's DRAM share), the block waits for the slowest
 * of the lines' DRAM latencies, dram_lines_log2_cycles per doubling of the
 * lines (the rule a warp's own request follows for its lanes, [sources:
 * h200-cal] chase rows; the lines of sibling blocks that load the same
 * tile at the same time are misses in flight, no shorter). At least
 * `waited`, what one warp's chain already waits.
 */
static double block_slowest(const walk_ctx_t *cx, double lines, double none, double waited)
{
    const gp_device_t *d = cx->dev;
    double q = 1 - none, slow;
    if (!(lines >= 1) || !(q > 0) || d->dram_lines_log2_cycles <= 0)
        return waited;
    slow = d->dram_cycles + log2(lines) * d->dram_lines_log2_cycles;
    return GP_MAX(waited, q * slow + (1 - q) * waited);
}

/*
 * What a block waits beyond one warp's chain for the slowest of the `lines`
 * its warps' straight-line loads at the top level brought since `since`
 * (the mem_chain when the first of them issued; < 0: none), whether their
 * values were used before or not: each warp waited for its own, and the
 * block goes on (past a barrier, or out of its slot) only after its last
 * warp's (block_slowest). `none`: the log of the chance that no line comes
 * from DRAM.
 */
static double phase_slowest_extra(const walk_ctx_t *cx, double mem_chain, double since,
                                  double lines, double lnone)
{
    double waited;
    if (!(since >= 0) || !(lines > 1))
        return 0;
    waited = mem_chain - since;
    return block_slowest(cx, lines, exp(lnone), waited) - waited;
}

/*
 * What each wait of a copy loop (a loop whose body ends in loads whose values
 * go to shared memory before a barrier: `for (i = tid; i < n; i += 128)`)
 * adds beyond its loads' own latency. The block's warps start the phase
 * together at the barrier before it and issue each wait's loads abreast, and
 * the grid's blocks walk their tiles at the same pace: a line that another
 * block fetches at the same trip is a miss in flight, not an L2 hit. So a
 * wait is a DRAM wait wherever any of the block's `lines` in it comes from
 * DRAM (1 - none; block_slowest's rule), and a warp's wait is for the slowest
 * of its own lines of the batch (its share of `lines`), at
 * dram_lines_log2_cycles per doubling, the rule of a request's lines
 * ([sources: h200-cal] chase rows). The H200's WMMA tile loops ([sources:
 * h200-cal] run10/mmasmem mmasmem_cycles.csv, SASS sass_mmasmem.txt.gz):
 * cp32_w2_lp_mma, 4 + 4 waits a trip of 4 one-line loads per warp, from
 * DRAM, 953 clock64 cycles a wait (this rule 857, the walk before 728);
 * sq_w2_lp_mma, the blocks of a row sharing A's lines and of a column B's
 * (7 of 8 reads re-reads), 825 a wait at n = 512..2048 where the L2 share
 * gave 367. Only the last wait was the block's before (walk, at the barrier).
 */
static double copy_wait_extra(const walk_ctx_t *cx, const seg_sum_t *body, double lines,
                              double none)
{
    double each = body->tail_wait;
    double wpb = cx->occ->warps_per_block ? (double)cx->occ->warps_per_block : 1;
    return block_slowest(cx, GP_MAX(lines / wpb, 1.0), none, each) - each;
}

/* 1 when one of ops[0..n) (bodies included) is a load whose address is an
   earlier load's value. */
static int has_dependent_load(const gp_op_t *ops, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        if (ops[i].kind == GP_OP_LOAD && ops[i].access.depends)
            return 1;
    return 0;
}

/*
 * 1 when a load sits in a lane's or a warp's `if`: an op that only some
 * warps make (count below one) or at most half the lanes of the warps that
 * make it (its sample's active lanes), as a staged stencil's halo,
 * `if (tx == 0) s[ty][0] = in[i - 1]`. ptxas keeps such a load in its
 * branch region (BSSY ... BSYNC), after the stores before it; a store of
 * an earlier load's value waits for that value, so the load issues only
 * when the loads of the batch before it are back (walk). [sources:
 * h200-cal] run8/tiles sass_tiles.txt.gz, k_stencil<32, 8>: LDG, STS, then
 * per halo side a branch, its LDG and its STS, the loads one after another;
 * the stencil_smem rows -21..-32% -> -14..-24%, the tiles2 stencil_*_h0
 * rows (halo in branches) -28..-36% -> -20..-29%; bench_stage's staged
 * tiles without halo loads (run20/stage) are untouched.
 */
static int branch_load(const gp_op_t *op, double count)
{
    const gp_lane_sample_t *s = op->access.sample;
    double n, issuing;
    if (count < 1)
        return 1;
    if (!gp_sample_lanes(s, &n, &issuing))
        return 0;
    return issuing > 0 && n / issuing <= 0.5 * s->lanes;
}

/* Walk ops[0..n), the body of one iteration, into *out. */
static int walk(const walk_ctx_t *cx, const gp_op_t *ops, uint32_t n, int depth,
                seg_sum_t *out)
{
    uint32_t i = 0;
    load_group_t g; /* pending loads: their latencies overlap */
    double since_barrier = 0; /* warp instructions since the last barrier */
    int loads_seen = 0;       /* loads walked so far in this body */
    int after_other = 0;      /* a non-integer arithmetic op since the last load */
    /* the loads that end the phase before a barrier (since the last
       arithmetic op or loop: their values go to stores and the barrier):
       mem_chain where they start, the lines they bring to the block and the
       chance that none of them comes from DRAM */
    double tail_mem = 0, tail_lines = 0, tail_lnone = 0; /* tail_lnone: the chance's log */
    /* the copy loops of the phase (copy_wait_extra): what their waits other
       than the barrier's add to the block's chain, and the extra of the
       latest loop's last wait, the barrier's while no copy loop follows */
    double copy_extra = 0, copy_last = 0;
    /* loads that only a share of the warps make (count below 1) add that
       share of their latency to the average warp's chain; at a barrier the
       block waits for the warps that make them: the most such a warp waits
       beyond the average, this phase */
    double phase_short = 0;
    /* the block's exit (depth 0): the straight-line loads since the last
       barrier or loop, whose lines the block's last warps wait for: mem_chain
       before the first of them, their lines and the chance none is a DRAM one */
    double exit_mem = -1, exit_lines = 0, exit_lnone = 0;
    double wpb = cx->occ->warps_per_block ? (double)cx->occ->warps_per_block : 1;
    double acc = body_accumulators(ops, n); /* live arithmetic chains */
    int run_held = 0; /* the current run of adjacent loads fits the registers (run_fits) */
    /* the arithmetic since the body's last load (seg_sum_t.fresh): its
       chain, the latest op's part of it, the most chains one op before
       the latest keeps and the latest's, and whether only arithmetic and
       integer work followed that load */
    double span = 0, span_last = 0, span_live = 0, last_live = 0;
    int span_ok = 0;
    /* seg_sum_t.consumed: the non-memory chain where the first op after
       a load began (-1: none yet); whether a load came; whether an op that
       is neither a load nor integer work came after one (uses its value) */
    double use_from = -1;
    int loaded = 0, used = 0;
    /* a loop body's global loads not yet written back by a store of the
       body: their buffers and latencies (seg_sum_t.carry) */
    uint32_t wb_buf[CARRY_LOADS];
    double wb_lat[CARRY_LOADS];
    int n_wb = 0;
    memset(out, 0, sizeof *out);
    memset(&g, 0, offsetof(load_group_t, line_buf)); /* the lines: n_lines of them */
    out->acc_regs = acc;
    if (depth > GP_MAX_DEPTH) {
        snprintf(cx->err, cx->errlen, "ops nested deeper than %d", GP_MAX_DEPTH);
        return -1;
    }
    while (i < n) {
        const gp_op_t *op = &ops[i];
        double count = op->count > 0 ? op->count : 0;
        double ilp = op->ilp >= 1 ? op->ilp : 1;
        if (op->kind == GP_OP_LOOP || op->kind == GP_OP_DIVERGE) {
            seg_sum_t body;
            uint32_t len = op->body_len;
            if (len > n - i - 1) {
                snprintf(cx->err, cx->errlen, "op %u: body of %u ops runs past the end", i,
                         len);
                return -1;
            }
            flush_group(&g, out);
            const double saved_exit_mem = exit_mem, saved_exit_lines = exit_lines,
                         saved_exit_lnone = exit_lnone;
            exit_mem = -1;
            exit_lines = 0;
            exit_lnone = 0;
            span_ok = 0;
            {
                walk_ctx_t sub = *cx;
                sub.trips = op->kind == GP_OP_LOOP ? count : 0;
                if (walk(&sub, op + 1, len, depth + 1, &body))
                    return -1;
            }
            /* a body that waits for no memory (a shuffle reduction after
               the loads, arithmetic) leaves the block's exit where the
               loads before it put it: its last warp still ends after their
               slowest line, the body's work only follows that wait. The
               same work written out straight (gpuperf.shfl(5),
               gpuperf.fp32(5)) never reset it, and without this a loop of
               five shuffles after a warp's gathers made the kernel 22%
               faster than the gathers alone (plugin-check's
               block_cost.more_work: more work never shortens a block) */
            if (!(body.mem_chain > 0) && !body.barrier) {
                exit_mem = saved_exit_mem;
                exit_lines = saved_exit_lines;
                exit_lnone = saved_exit_lnone;
            }
            if (body.load_regs > 0)
                loads_seen = 1;
            tail_mem = out->mem_chain;
            tail_lines = 0;
            tail_lnone = 0;
            if (op->kind != GP_OP_LOOP)
                copy_extra = copy_last = 0;
            if (op->kind == GP_OP_LOOP) {
                double batch = 0, waits = 0, wait_extra = 0;
                if (add_loop(cx, &body, count, loop_pinned(cx, op), out,
                             &batch, &waits, &wait_extra))
                    return -1;
                /* the block's last warp ends after the slowest line of the
                   loop's last wait, of its iterations over the block's warps
                   (exit_wait, as for straight-line loads): one lane of each
                   warp gathering behind a read of its own takes about 2800
                   cycles a wave of 8 blocks an SM through 16 MiB (the event
                   time less the queued launch, over 15.5 waves), where its
                   median block takes 1952 and one warp's chain gave 2243
                   ([sources: h200-cal] run37/sweepg, sweepg_cycles.csv
                   other_ind A=1; the family's one-lane rows 12.0 -> 6.7%) */
                if (depth == 0 && body.last_lines > 0 && body.last_wait > 0 && batch > 0) {
                    /* one wait for all its trips: the whole wait, with
                       its slowest copies (add_loop's wait_extra); where
                       the loop is all the chain, none before it (0, not
                       the difference's rounding below it) */
                    exit_mem = GP_MAX(0.0, out->mem_chain - body.last_wait -
                                               (batch < count ? 0 : wait_extra));
                    exit_lines = body.last_lines * wpb * batch;
                    exit_lnone = (batch < count ? body.last_xlnone : body.last_lnone) * wpb * batch;
                }
                /* a loop that ends in loads (a copy loop before a barrier)
                   leaves the lines of its last wait's iterations to the
                   block's wait at the barrier, as a straight copy does;
                   each of its waits is the block's (copy_wait_extra) */
                if (body.tail_lines > 0 && body.tail_wait > 0 && batch > 0 && !body.carried) {
                    double per;
                    tail_mem = out->mem_chain - body.tail_wait;
                    tail_lines = body.tail_lines * batch;
                    tail_lnone = body.tail_lnone * batch;
                    per = copy_wait_extra(cx, &body, tail_lines, exp(tail_lnone));
                    copy_extra += copy_last + GP_MAX(waits - 1, 0.0) * per;
                    copy_last = per;
                } else {
                    tail_mem = out->mem_chain;
                    copy_extra = copy_last = 0;
                }
            } else {
                /* paths run one after another; each path's threads move their
                   share of the bytes, so traffic stays that of one pass */
                double paths = count >= 1 ? count : 1;
                seg_add(out, &body, paths);
                seg_one_pass_traffic(out, &body, paths);
                /* a compare and a branch to enter each path */
                if (add_control(cx, paths * GP_DIVERGE_PATH_INSTRUCTIONS, out))
                    return -1;
                tail_mem = out->mem_chain;
            }
            out->nested = 1;
            i += 1 + len;
            continue;
        }
        if (op->kind >= GP_OP_KIND_COUNT) {
            snprintf(cx->err, cx->errlen, "op %u: unknown kind %u", i, op->kind);
            return -1;
        }
        if (count > 0 && is_load(op->kind)) {
            loaded = 1;
        } else if (count > 0 && loaded) {
            if (use_from < 0)
                use_from = out->chain - out->mem_chain;
            if (op->kind != GP_OP_INT)
                used = 1;
        }
        if (count > 0) {
            gp_op_cost_t c; /* gp_op_cost writes all of it */
            char msg[256];
            int p, kept; /* kept: checked below by an earlier walk */
            msg[0] = '\0';
            if (gp_op_memo_cost(cx->memo, cx->plugin, cx->gen, cx->dev, cx->kernel, op, cx->occ,
                                cx->res, &c, &kept, msg, sizeof msg) != 0) {
                msg[sizeof msg - 1] = '\0';
                snprintf(cx->err, cx->errlen, "line %u: %s", op->line,
                         *msg ? msg : "op_cost failed");
                return -1;
            }
            for (p = 0; p < GP_PIPE_COUNT; p++) {
                if (!kept && !(isfinite(c.pipe_cycles[p]) && c.pipe_cycles[p] >= 0)) {
                    snprintf(cx->err, cx->errlen,
                             "op_cost returned %g cycles on pipe %d for the op at line %u",
                             c.pipe_cycles[p], p, op->line);
                    return -1;
                }
                out->pipe[p] += count * c.pipe_cycles[p];
            }
            if (!kept && (!(isfinite(c.latency_cycles) && c.latency_cycles >= 0) ||
                !(isfinite(c.l1_bytes) && c.l1_bytes >= 0) ||
                !(isfinite(c.l2_bytes) && c.l2_bytes >= 0) ||
                !(isfinite(c.l2_request_bytes) && c.l2_request_bytes >= 0) ||
                !(isfinite(c.l1_hold_cycles) && c.l1_hold_cycles >= 0) ||
                !(isfinite(c.dram_bytes) && c.dram_bytes >= 0) ||
                !(isfinite(c.store_cycles) && c.store_cycles >= 0))) {
                snprintf(cx->err, cx->errlen,
                         "op_cost returned a negative or non-finite latency or traffic for "
                         "the op at line %u",
                         op->line);
                return -1;
            }
            out->instr += op_instructions(cx, op, &c, count);
            out->l1 += count * c.l1_bytes;
            out->l2 += count * c.l2_bytes;
            out->l2_req += count * c.l2_request_bytes;
            out->l1_hold += count * c.l1_hold_cycles;
            out->dram += count * c.dram_bytes;
            if (op->kind == GP_OP_LOAD && c.dram_bytes > 0) {
                out->dram_load += count * c.dram_bytes;
                if (reads_lines(cx->dev, op))
                    out->dram_stream += count * c.dram_bytes;
            }
            out->store += count * c.store_cycles;
            if (op->kind == GP_OP_LOAD &&
                (op->space == GP_SPACE_GLOBAL || op->space == GP_SPACE_TEXTURE)) {
                out->gloads += count;
                if (op->in_flight > 0 && (!(out->window > 0) || op->in_flight < out->window))
                    out->window = op->in_flight;
            }
            if (((op->kind == GP_OP_LOAD || op->kind == GP_OP_ATOMIC) &&
                 (op->space == GP_SPACE_GLOBAL || op->space == GP_SPACE_LOCAL)) ||
                op->kind == GP_OP_ASYNC_COPY)
                out->coherent = 1;
            if (op->kind == GP_OP_BARRIER)
                out->chain += barrier_wait(cx, since_barrier);
            since_barrier = op->kind == GP_OP_BARRIER ? 0
                                                      : since_barrier + op_instructions(cx, op, &c, count);
            if (depth > 0 && op->access.buffer != UINT32_MAX &&
                op->space == GP_SPACE_GLOBAL) {
                if (is_load(op->kind) && n_wb < CARRY_LOADS) {
                    wb_buf[n_wb] = op->access.buffer;
                    wb_lat[n_wb++] = count / ilp * c.latency_cycles;
                } else if (op->kind == GP_OP_STORE || op->kind == GP_OP_ATOMIC) {
                    int k, m = 0;
                    for (k = 0; k < n_wb; k++)
                        if (wb_buf[k] == op->access.buffer)
                            out->carry += wb_lat[k];
                        else
                            wb_buf[m] = wb_buf[k], wb_lat[m++] = wb_lat[k];
                    n_wb = m;
                }
            }
            if (is_load(op->kind)) {
                double regs = count * ceil((double)op->access.elem_bytes / 4.0);
                /* its DRAM share and log(1 - share): the chances that none of
                   its lines comes from DRAM multiply, their logs add */
                double dram = GP_MIN(GP_MAX(c.dram_hit, 0.0), 1.0);
                double l1m = dram <= 0 ? 0 : dram >= 1 ? -INFINITY : log1p(-dram);
                if (depth == 0 && exit_mem < 0)
                    exit_mem = out->mem_chain;
                if (op->access.depends) {
                    /* its address is the value of the load before it: it
                       issues when that one's data is back, so their
                       latencies add; its `count` loads are a chain, each
                       the address of the next */
                    flush_group(&g, out);
                    span_ok = 0;
                    if (!loads_seen && depth > 0)
                        out->carried = 1; /* the previous iteration's load */
                    g.latency = count / ilp * c.latency_cycles;
                    g.w_lines = count * GP_MAX(c.lines, 1.0);
                    g.w_lnone = l1m < 0 ? g.w_lines * l1m : 0;
                    g.w_xlnone = g.w_lines * later_trips_l1m(cx, op, dram, l1m);
                    flush_group(&g, out);
                } else {
                    double miss = count * (c.l2_bytes > 0 ? c.l2_bytes : c.dram_bytes);
                    /* a load in a lane's or a warp's `if` after a store of
                       the pending batch waits for the batch: the store
                       needs its value, and the load stays in its branch,
                       behind it (branch_load) */
                    if (g.latency > 0 && g.stored && branch_load(op, count))
                        flush_group(&g, out);
                    span = span_last = span_live = last_live = 0;
                    span_ok = depth > 0;
                    if (!g.adjacent)
                        run_held = run_fits(cx, ops, n, i, acc);
                    if (count < 1 && wpb > 1)
                        phase_short = GP_MAX(phase_short, (1 - count) / ilp * c.latency_cycles);
                    /* a stream's first touches: what a miss adds to an L1
                       hit, expected and in full (add_loop) */
                    double hit = cx->dev->l1_hit_cycles, exp = 0, gap = 0;
                    /* its wait beyond `re` comes in full once in 1 / m
                       trips: re and m as the misses are spread */
                    double re = 0, m = 0;
                    if (hit > 0 && c.stream_miss > 0 && c.latency_cycles > hit) {
                        re = hit;
                        m = GP_MIN(c.stream_miss, 1.0);
                    } else if (depth > 0 && cx->trips > 1 && rereads_sectors(cx, op)) {
                        /* a loop that reads the same sectors every trip
                           misses where its first trips read them: its
                           hits (L1's, or L2's where L1 does not keep them)
                           are its own re-reads, so its misses come
                           together, first, as a stream's first touches
                           do, and a batch of copies that holds them waits
                           for a whole miss, not the trips' mean */
                        double l1 = GP_MAX(0.0, GP_MIN(1.0, c.l1_hit));
                        re = l1 > 0 ? hit : cx->dev->l2_hit_cycles;
                        m = l1 > 0 ? 1 - l1 : dram;
                        if (!(m < 1))
                            m = 0; /* every trip misses: no burst */
                    }
                    if (re > 0 && m > 0 && c.latency_cycles > re) {
                        exp = count / ilp * (c.latency_cycles - re);
                        gap = exp / m;
                    }
                    /* the L1 serves the group's requests one after another
                       (group_add): a warp-uniform load holds it for its passes,
                       another load for its hits' share of its L1 cycles, and
                       a warp's hits come back l1_return_cycles apart at
                       least. A warp-uniform load's data comes back
                       l1_uniform_return_cycles after the one before whether
                       it hit or waited with the others of its sector for the
                       sector's fill: bench_attnq's row loads of d floats, one
                       address a warp, take 8.0 cycles a further float from
                       L1 and 8.06 where every row is the SM's first touch
                       and comes from L2, the first 231 cycles later
                       ([sources: h200-cal] run10/attnq attnq_cycles.csv,
                       d = 16, 32, 64 at 1 to 4 warps per SM) */
                    double hit1 = GP_MAX(0.0, GP_MIN(1.0, c.l1_hit));
                    double ret = 0;
                    if (op->space == GP_SPACE_GLOBAL || op->space == GP_SPACE_TEXTURE)
                        ret = gp_access_uniform(&op->access) &&
                                      cx->dev->l1_uniform_return_cycles > 0
                                  ? cx->dev->l1_uniform_return_cycles
                                  : cx->dev->l1_return_cycles * hit1;
                    /* the values, and a row's address while its taps issue */
                    group_add(cx, &g, op->access.buffer, count / ilp * c.latency_cycles, exp, gap,
                              regs + row_address_regs(cx, ops, n, i), miss,
                              count * GP_MAX(gp_access_uniform(&op->access)
                                                 ? c.pipe_cycles[GP_PIPE_L1]
                                                 : c.pipe_cycles[GP_PIPE_L1] * hit1,
                                             ret),
                              acc, run_held, count, op->in_flight, out);
                    group_slowest(cx, &g, op, &c, count, l1m);
                    if (depth > 0 && l1m < 0) {
                        int next = next_trip_lines(cx, op);
                        if (next == 2)
                            out->copy_lnone += count * l1m;
                        else if (next == 1)
                            out->copy_run_lines += count * GP_MAX(c.lines, 1.0) * dram;
                    }
                }
                out->load_regs += regs;
                loads_seen = 1;
                after_other = 0;
                if (c.lines > 0) {
                    /* its lines, and the log of the chance that none is a DRAM one */
                    double wl = count * c.lines, nl = wl * wpb;
                    double lnone = l1m < 0 && nl > 0 ? nl * l1m : 0;
                    tail_lines += nl;
                    tail_lnone += lnone;
                    if (!op->access.depends) {
                        g.w_lines += wl;
                        g.w_lnone += l1m < 0 && wl > 0 ? wl * l1m : 0;
                        g.w_xlnone += wl > 0 ? wl * later_trips_l1m(cx, op, dram, l1m) : 0;
                    }
                    if (depth == 0 && !op->access.depends) {
                        exit_lines += nl;
                        exit_lnone += lnone;
                    }
                }
            } else {
                if (op->kind == GP_OP_STORE && g.latency > 0)
                    g.stored = 1;
                /* other work runs beside the loads in flight, unless it ends
                   the straight run */
                if (ends_straight_run(op) &&
                    !(op->kind == GP_OP_BRANCH && predicated_branch(ops, i, n)))
                    flush_group(&g, out);
                g.adjacent = 0;
                if (op->kind == GP_OP_BARRIER) {
                    /* the block waits here for the slowest line the phase's
                       last loads bring; no warp of it issues meanwhile. Its
                       loads whose values the phase used already count too,
                       as at the block's exit: the barrier lets the block on
                       only after its last warp has its lines. Without them,
                       a barrier after the arithmetic that used a load hid
                       the block's slowest line that its exit waits for, and
                       made a block faster than the same without the barrier
                       (plugin-check block_cost.more_work) */
                    double waited = out->mem_chain - tail_mem;
                    double slow = block_slowest(cx, tail_lines, exp(tail_lnone), waited);
                    if (depth == 0)
                        slow = GP_MAX(slow, waited + phase_slowest_extra(cx, out->mem_chain,
                                                                         exit_mem, exit_lines,
                                                                         exit_lnone));
                    slow += phase_short;
                    out->chain += slow - waited + copy_extra;
                    out->mem_chain += slow - waited + copy_extra;
                    out->stall += slow + copy_extra;
                    if (depth == 0)
                        out->stall_top += slow + copy_extra;
                    out->barrier = 1;
                    phase_short = 0;
                    exit_mem = -1;
                    exit_lines = 0;
                    exit_lnone = 0;
                }
                /* integer work between a copy's loads and its shared
                   stores (the stores' addresses: LDG, LEA/IMAD, STS in the
                   SASS of a `for (i = tid; ...)` copy) does not consume the
                   loads: the phase still ends in them ([sources: h200-cal]
                   run10/regblock sass_regblock.txt.gz, k_rb<4, 8, 0, 0>) */
                if (op->kind != GP_OP_STORE && op->kind != GP_OP_ASYNC_COPY &&
                    op->kind != GP_OP_INT) {
                    tail_mem = out->mem_chain;
                    tail_lines = 0;
                    tail_lnone = 0;
                    copy_extra = copy_last = 0;
                }
                /* a store, an async copy and an atomic whose result is
                   discarded (RED) never make the next op wait; a used
                   result (ATOM) does, a round trip */
                if (op->kind == GP_OP_STORE || op->kind == GP_OP_ASYNC_COPY ||
                    (op->kind == GP_OP_ATOMIC && !gp_atomic_waits(cx->dev, op)))
                    out->chain += count * warp_pipe_cycles(cx->dev, &c);
                else if (op->kind == GP_OP_INT && depth > 0 && after_other)
                    out->int_chain += GP_MAX(count / ilp * c.latency_cycles,
                                             count * warp_pipe_cycles(cx->dev, &c));
                else if (op->kind == GP_OP_INT && g.regs > 0 && next_load_independent(ops, i, n))
                    out->chain += count * warp_pipe_cycles(cx->dev, &c);
                else {
                    double inc = GP_MAX(count / ilp * c.latency_cycles,
                                        count * warp_pipe_cycles(cx->dev, &c));
                    out->chain += inc;
                    /* a shared atomic whose old value is used is waited for
                       as a load is: an unrolled loop's copies issue theirs
                       together and wait once (the SASS of k_shist<.., 1>:
                       four ATOMS.ADD, then the four adds of their values),
                       so the loop's memory-level parallelism divides the
                       wait. 8 warps per SM, 32 lanes on 32 words: 28.5
                       cycles an atomic a warp where one round trip a copy
                       gives 68 ([sources: h200-cal] run47/shist lane_ret
                       rows). Global ones keep their round trip: no
                       calibration row times them in an unrolled loop; so
                       does a float add's compare-and-swap loop, a branch
                       region of its own that the copies cannot share */
                    if (op->kind == GP_OP_ATOMIC && op->space == GP_SPACE_SHARED &&
                        (op->access.atomic_flags & GP_ATOMIC_RESULT) &&
                        op->access.atomic_op != GP_ATOMIC_OP_FADD)
                        out->mem_chain += inc;
                    if (fresh_kind(op->kind)) {
                        span += inc;
                        span_last = inc;
                        span_live = GP_MAX(span_live, last_live);
                        last_live = GP_MIN(ilp, GP_MAX(count, 1.0));
                    }
                }
                if (!fresh_kind(op->kind) && op->kind != GP_OP_INT)
                    span_ok = 0;
                if (op->kind != GP_OP_INT && op->kind != GP_OP_BARRIER &&
                    op->kind != GP_OP_STORE && op->kind != GP_OP_ATOMIC &&
                    op->kind != GP_OP_ASYNC_COPY)
                    after_other = 1;
            }
        }
        i++;
    }
    flush_group(&g, out);
    out->consumed = used ? out->chain - out->mem_chain - use_from : -1;
    if (span_ok && !out->carried && span > span_last) {
        out->fresh = span - span_last;
        out->fresh_regs = span_live;
    }
    out->tail_wait = out->mem_chain - tail_mem;
    out->tail_lines = tail_lines;
    out->tail_lnone = tail_lnone;
    /* A block frees its slot when its last warp ends: after the slowest of
       the lines its warps' last straight-line loads bring (block_slowest, as
       at a barrier, without a stall: the warps that are done do not wait),
       not one warp's request. The stream triad's block-size sweep and the
       turnover copies (one load per thread, 1 to 32 warps a block) live
       longer the more lines the block waits for ([sources: h200-cal]
       run9/turnover stamps). */
    if (depth == 0)
        out->exit_wait = phase_slowest_extra(cx, out->mem_chain, exit_mem, exit_lines, exit_lnone);
    /* A loop body's trailing integer work (integer ops after the arithmetic
       that consumes its loads: the update of addresses and counters for the
       next trip) runs beside the rest of the chain: nvcc moves the updates
       of later iterations ahead (onto the uniform datapath where they are
       warp-uniform), so an iteration waits for the longer of the two
       (add_loop), not their sum; in bench_smem's ldsfma loop the
       UIADD3/ULOP3 of p = (p + 128) & mask sit between the FFMAs of the
       accumulator chain, which alone sets the time of the trip ([sources:
       h200-cal] run7/smem sass_smem.txt.gz, k_ldsfma<2, 1>). Integer ops
       right after the loads consume them and stay on the chain; where a
       load's address is an earlier load's value (a chase) the integer work
       sits on the chain between the loads. */
    if (depth == 0 || out->carried || has_dependent_load(ops, n)) {
        out->chain += out->int_chain;
        out->int_chain = 0;
    }
    return 0;
}

/*
 * A block frees its slot only when its last warp ends. Warps of a block finish
 * staggered (the schedulers favour older warps), so while other blocks wait
 * for the slot part of it idles; the loss grows with the block's share of the
 * SM and vanishes when the block is alone (nothing waits for its slot).
 */
static double block_retire_factor(const gp_occupancy_t *occ, double blocks)
{
    double share = occ->max_warps ? (double)occ->warps_per_block / occ->max_warps : 0;
    return 1.0 + gp_fit_value(GP_FIT_BLOCK_RETIRE_SKEW) * share * (blocks - 1) / blocks;
}

/* 1 when every sum of the walk is a finite number. */
static int seg_finite(const seg_sum_t *s)
{
    int p;
    for (p = 0; p < GP_PIPE_COUNT; p++)
        if (!isfinite(s->pipe[p]))
            return 0;
    return isfinite(s->instr) && isfinite(s->chain) && isfinite(s->mem_chain) &&
           isfinite(s->l1) && isfinite(s->l2) && isfinite(s->l2_req) && isfinite(s->l1_hold) &&
           isfinite(s->dram) && isfinite(s->store);
}

/*
 * SM cycles at core_clock_mhz per cycle of the SM's own work. A kernel that
 * issues tensor-core instructions runs its SMs at the device's tensor clock
 * where the device file measured one below the core clock: on the H200 every
 * WMMA kernel of bench_smem, 4 warps waiting on one mma chain as well as 16
 * warps filling the tensor pipe, ran its clock64 cycles at about 1800 MHz
 * against 1980 for the LDS and FFMA kernels beside them ([sources: h200-cal]
 * smem wmma rows, validation/h200/measured/run7/smem), and bench_clock's
 * per-block clock64 / %globaltimer stamps give 1815 MHz for mma loops at 8
 * and 32 warps per SM from 0.5 ms to 1.5 s. No other load lowers the clock:
 * FFMA at the full pipe rate and the SGEMM compute of LDS.128 + FFMA ran 1977
 * to 1980 MHz for 1.5 s at up to 460 W of 700 with no clock event reason
 * ([sources: h200-cal] run9/clock, [sources: nvml-clock-events]), so there is
 * no sustained-clock stretch. Memory traffic keeps its own clocks.
 */
static double core_stretch(const gp_device_t *dev, const seg_sum_t *s)
{
    if (s->pipe[GP_PIPE_TENSOR] > 0 && dev->tensor_clock_mhz > 0 &&
        dev->tensor_clock_mhz < dev->core_clock_mhz)
        return dev->core_clock_mhz / dev->tensor_clock_mhz;
    return 1.0;
}

/* Smooth maximum (a^p + b^p)^(1/p), safe for zeros and huge values. The
   knees the model uses (GP_KNEE_P_CORE and GP_KNEE_P_L2 4, GP_KNEE_P_MEMORY
   2) take products and square roots instead of pow, which every block cost
   calls a few times (docs/speed.md). */
static double pnorm(double a, double b, double p)
{
    double m = GP_MAX(a, b), r;
    if (m <= 0)
        return 0;
    if (!isfinite(m))
        return m * pow(pow(a / m, p) + pow(b / m, p), 1.0 / p);
    r = a == m ? b / m : a / m; /* the smaller term's ratio; the larger's is 1 */
    if (p == 2.0)
        return m * sqrt(1.0 + r * r);
    if (p == 4.0)
        return m * sqrt(sqrt(1.0 + (r * r) * (r * r)));
    return m * pow(1.0 + pow(r, p), 1.0 / p);
}

/* A block's core time: its chain `lat` beside the `thr` cycles its pipes
   are busy. A block's warps waiting together at a barrier (`stall` of the
   chain) leave its pipes idle: its own work cannot fill that wait (the rest
   of its chain overlaps its own pipes' work as usual), only other blocks'
   can. Where every barrier is outside loops (`stall_top` is all of
   `stall`: one phase of loads, a barrier, then the work on the tile) the
   blocks resident together do not fill each other's wait: they started
   together and load alike, so they wait together and resume together.
   Their requests to the SM's one data path (`path`: the shared-memory and
   L1 wavefronts of every resident block, the loads' before the barrier and
   the tile's reads after it) are served in order, so a block leaves after
   its stall and that whole queue. A loop of barrier phases lets the blocks
   drift apart (the scheduler runs one ahead), and their waits interleave
   as above ([sources: h200-cal] run22/tpose: the 32-way conflicted tile
   transpose, 8 blocks an SM, takes its load wait plus every block's
   wavefronts a wave; run8/tiles, run9/tiles2 and tiles3; run24/tconf, the
   tile transpose at 2, 4 and 8 blocks an SM with 2- to 32-way conflicted
   reads, measured after the rule: 3.8% against 12.1% before it). */
static double core_time(double lat, double thr, double stall, double stall_top, double path,
                        double blocks)
{
    double t = pnorm(lat, thr, GP_KNEE_P_CORE);
    if (stall > 0)
        t = GP_MAX(t, stall + pnorm(lat - stall, thr / blocks, GP_KNEE_P_CORE));
    if (stall_top > 0 && stall - stall_top <= 1e-9 * stall)
        t = GP_MAX(t, stall_top + pnorm(lat - stall_top, GP_MAX(path, thr / blocks),
                                        GP_KNEE_P_CORE));
    return t;
}

/* A block's time from its core term beside the memory's: each memory
   resource queues on its own, DRAM and the SM's store path with a broad
   knee (GP_KNEE_P_MEMORY), the L2 and the L1's lines held by misses in
   flight with a sharp one (GP_KNEE_P_L2: their service varies little); the
   largest holds, so that more of any term never shortens the block. */
static double beside_memory(double core, double dram, double l2, double store, double hold)
{
    return GP_MAX(GP_MAX(pnorm(core, dram, GP_KNEE_P_MEMORY), pnorm(core, store, GP_KNEE_P_MEMORY)),
                  GP_MAX(pnorm(core, l2, GP_KNEE_P_L2), pnorm(core, hold, GP_KNEE_P_L2)));
}

int gp_block_cost_default(const gp_plugin_t *plugin, const gp_generation_t *gen,
                          const gp_device_t *dev, const gp_kernel_t *kernel,
                          const gp_occupancy_t *occ, const gp_residency_t *res,
                          gp_block_cost_t *out, char *err, size_t errlen)
{
    return gp_block_cost_memo(plugin, gen, dev, kernel, occ, res, NULL, out, err, errlen);
}

/*
 * A block's DRAM traffic as the bytes a copy moves in the same time (at
 * dram_sustained_gbps): a copy's reads and writes share the bus, which
 * turns around between them ([sources: chatterjee2012]), where a
 * read-only stream of whole lines runs at dram_read_gbps (the H200: 4443
 * against 4218 GB/s, gpuperf-calibrate's 1 GiB float4 read and copy). So
 * the stream's reads beyond the block's own writes (stores and atomics)
 * go at the read rate, and everything else at the copy's: a copy is
 * unchanged and a read-only stream is at the read rate.
 */
static double dram_time(const gp_device_t *dev, const seg_sum_t *s, double warps)
{
    /* the stream's reads are among the loads' bytes, so the excess never
       exceeds the block's bytes */
    double bytes = s->dram * warps, extra;
    if (!(dev->dram_read_gbps > dev->dram_sustained_gbps))
        return bytes;
    extra = GP_MAX(0.0, s->dram_stream - GP_MAX(0.0, s->dram - s->dram_load)) * warps;
    return bytes - extra * (1 - dev->dram_sustained_gbps / dev->dram_read_gbps);
}

/* One walk of the kernel's ops as the script gives them (gp_block_cost_memo
   keeps it at least independent_floor's). */
static int block_cost_once(const gp_plugin_t *plugin, const gp_generation_t *gen,
                           const gp_device_t *dev, const gp_kernel_t *kernel,
                           const gp_occupancy_t *occ, const gp_residency_t *res,
                           gp_op_memo_t *memo, gp_block_cost_t *out, char *err, size_t errlen)
{
    walk_ctx_t cx = {plugin, gen, dev, kernel, occ, res, err, errlen, memo, 0};
    seg_sum_t s;
    double warps = occ->warps_per_block ? occ->warps_per_block : 1;
    double blocks = res->blocks ? res->blocks : 1;
    double mine, others = 1, thr, t_thr = 0, t_lat, t_core, t_dram = 0, t_l2 = 0, t_store, t_mem;
    double t_hold = 0;
    double stall, stall_top, t_blk, path, t_path, retire;
    double cycles_per_s = dev->core_clock_mhz * 1e6;
    int p, busiest = GP_PIPE_ISSUE;
    memset(out, 0, sizeof *out);
    gp_op_memo_begin(memo, plugin, kernel, res);
    if (walk(&cx, kernel->ops, kernel->n_ops, 0, &s)) {
        if (memo)
            gp_op_memo_reset(memo); /* it keeps only costs a walk checked */
        return -1;
    }
    if (!seg_finite(&s)) {
        snprintf(err, errlen,
                 "the work of kernel '%s' is too large to count (more than 1e300 "
                 "instructions, cycles or bytes per warp)",
                 kernel->name ? kernel->name : "?");
        return -1;
    }

    for (p = 0; p < GP_PIPE_COUNT; p++) {
        out->pipe_cycles[p] = s.pipe[p] * warps;
        if (out->pipe_cycles[p] > out->pipe_cycles[busiest])
            busiest = p;
    }
    out->warp_instructions = s.instr * warps;
    out->l1_bytes = s.l1 * warps;
    out->l2_bytes = s.l2 * warps;
    out->dram_bytes = s.dram * warps;

    /* other kernels' warps on the SM compete for the same pipes */
    mine = blocks * warps;
    if (res->warps_sm > mine)
        others = res->warps_sm / mine;
    thr = out->pipe_cycles[busiest];
    /* the block's data-path work: its shared-memory passes, and where the
       L1's cached requests are wavefronts of the same path, those too */
    path = out->pipe_cycles[GP_PIPE_SHARED];
    if (gen->mem && gen->mem->l1_shared_one_path) {
        path += out->pipe_cycles[GP_PIPE_L1];
        if (path > thr) {
            thr = path;
            busiest = out->pipe_cycles[GP_PIPE_SHARED] >= out->pipe_cycles[GP_PIPE_L1]
                          ? GP_PIPE_SHARED
                          : GP_PIPE_L1;
        }
    }
    t_thr = blocks * thr * others * core_stretch(dev, &s);
    t_lat = s.chain * core_stretch(dev, &s);
    /* every resident block's data-path work (core_time) */
    t_path = blocks * path * others * core_stretch(dev, &s);
    stall = GP_MIN(s.stall * core_stretch(dev, &s), t_lat);
    stall_top = GP_MIN(s.stall_top * core_stretch(dev, &s), stall);
    /* the block (not one warp: latency_cycles below) leaves after its
       slowest line */
    t_blk = t_lat + s.exit_wait;

    if (dev->dram_sustained_gbps > 0 && res->dram_share > 0)
        t_dram = blocks * dram_time(dev, &s, warps) /
                 (dev->dram_sustained_gbps * 1e9 * res->dram_share / cycles_per_s);
    t_core = core_time(t_blk, t_thr, stall, stall_top, t_path, blocks);
    if (dev->l2_bandwidth_gbps > 0 && res->l2_share > 0)
        t_l2 = blocks * (out->l2_bytes + s.l2_req * warps) /
               (dev->l2_bandwidth_gbps * 1e9 * res->l2_share / cycles_per_s);
    /* the SM's store path towards the L2, its own resource (opcost.c
       sibling_traffic) */
    t_store = blocks * s.store * warps;
    /* the L1's lines bound the misses the SM has in flight: each holds its
       line while it waits (gp_op_cost_t.l1_hold_cycles), every resident
       block's and the other kernels' alike */
    if (s.l1_hold > 0 && dev->l1_line_bytes > 0 &&
        occ->l1_bytes_available >= dev->l1_line_bytes)
        t_hold = blocks * s.l1_hold * warps * others /
                 ((double)occ->l1_bytes_available / dev->l1_line_bytes);
    t_mem = GP_MAX(GP_MAX(t_dram, t_l2), GP_MAX(t_store, t_hold));

    out->latency_cycles = t_lat;
    out->throughput_cycles = t_thr;
    out->memory_cycles = t_mem;
    /* the block's slot idles while its last warps finish (block_retire_factor):
       that lengthens the SM's own work, its chain and pipes, not the memory
       term, which the other resident blocks' requests keep busy meanwhile.
       The lag shows in a memory-bound block only as far as its core term
       nears the memory term (the knee): the float4 copies of 128- to
       1024-thread blocks take 129.4 to 134.0 us for 512 MiB, where the
       one-element add of 256 to 1024 threads, whose chain is near its
       bytes' time, takes 64.0 to 76.2 us ([sources: h200-cal] turnover
       copy16 and add2, phase copy rows) */
    retire = block_retire_factor(occ, blocks);
    out->time_cycles = beside_memory(t_core * retire, t_dram, t_l2, t_store, t_hold);
    if (out->time_cycles == 0)
        out->time_cycles = 1; /* an empty block still exists for a cycle */
    /* a slot that another block will take spends block_slot_overhead_cycles
       per block beyond the block's work (warp start and exit, release, the
       next dispatch): on the slot's own chain, after the block's latency
       (the pinned turnover rows: one to four blocks per SM, the slot's
       period is the block's chain plus about 250 cycles). The other slots'
       loads keep the memory busy meanwhile, so it does not lengthen the
       memory term: the slot turns over no faster than its chain plus the
       overhead, nor than the block's time with the memory */
    if (dev->block_slot_overhead_cycles > 0) {
        double core_r = core_time(t_blk + dev->block_slot_overhead_cycles, t_thr, stall,
                                  stall_top, t_path, blocks);
        out->refill_time_cycles = GP_MAX(out->time_cycles, core_r * retire);
    }

    /* what bounds it: the largest term */
    out->bound_pipe = (uint32_t)busiest;
    if (t_mem >= t_thr && t_mem >= t_lat && t_hold >= GP_MAX(GP_MAX(t_dram, t_l2), t_store))
        out->bound = GP_BOUND_MEMORY_LATENCY; /* the misses in flight the L1 holds */
    else if (t_mem >= t_thr && t_mem >= t_lat)
        out->bound = t_dram >= t_l2 && t_dram >= t_store ? GP_BOUND_DRAM : GP_BOUND_L2;
    else if (t_thr >= t_lat) {
        switch (busiest) {
        case GP_PIPE_ISSUE: out->bound = GP_BOUND_ISSUE; break;
        case GP_PIPE_SHARED: out->bound = GP_BOUND_SHARED; break;
        case GP_PIPE_L1: out->bound = GP_BOUND_L1; break;
        case GP_PIPE_LDST: out->bound = GP_BOUND_ISSUE; break;
        default: out->bound = GP_BOUND_COMPUTE; break;
        }
    } else {
        out->bound = s.mem_chain * 2 >= s.chain ? GP_BOUND_MEMORY_LATENCY : GP_BOUND_LATENCY;
    }
    return 0;
}

/*
 * A load that depends on the load before it (access.depends) issues after
 * that load's data is back: it only adds a wait, so the block is never
 * faster than the same block with its loads independent. The walk does not
 * keep that by itself: a dependent load takes its own path (a chain, not a
 * batch: no copy_wait_extra, no group_add L1 return), and one first in its
 * loop body is a chase, with a chase's cache model (opcost.c chases). Both
 * are right for what they were set from (the chase, depgather and uniform
 * chn rows), yet each can answer less than the independent loads do: a
 * global_copy block whose load depends gave -4..-7% on the H100 and H200
 * (plugin-check, block_cost.access), and a tile copy of 2 loads a thread
 * into shared memory per barrier step 18.5 us against 76.4 independent
 * (its L2 bytes 1.0 against 8.4 MB: re-visits of a line's other sectors
 * counted as a chase's hits). So the block costs the larger of the two
 * walks. Of the H200 tables, 9 calibration rows (access gather_l2, the
 * sweepg chains: within 0.5 points) and 3 evaluation rows take the
 * independent walk.
 */
static int independent_floor(const gp_plugin_t *plugin, const gp_generation_t *gen,
                             const gp_device_t *dev, const gp_kernel_t *kernel,
                             const gp_occupancy_t *occ, const gp_residency_t *res,
                             gp_block_cost_t *out, char *err, size_t errlen)
{
    uint32_t i, dep = 0;
    gp_kernel_t k;
    gp_op_t *ops;
    gp_block_cost_t alt;
    int rc;
    for (i = 0; i < kernel->n_ops; i++)
        dep += kernel->ops[i].access.depends != 0;
    if (!dep)
        return 0;
    ops = malloc(sizeof *ops * kernel->n_ops);
    if (!ops) {
        snprintf(err, errlen, "out of memory costing kernel '%s'",
                 kernel->name ? kernel->name : "?");
        return -1;
    }
    memcpy(ops, kernel->ops, sizeof *ops * kernel->n_ops);
    for (i = 0; i < kernel->n_ops; i++)
        ops[i].access.depends = 0;
    k = *kernel;
    k.ops = ops;
    /* no memo: it holds the costs of the kernel's own ops */
    rc = block_cost_once(plugin, gen, dev, &k, occ, res, NULL, &alt, err, errlen);
    if (rc == 0 && alt.time_cycles > out->time_cycles)
        *out = alt;
    free(ops);
    return rc;
}

int gp_block_cost_memo(const gp_plugin_t *plugin, const gp_generation_t *gen,
                       const gp_device_t *dev, const gp_kernel_t *kernel,
                       const gp_occupancy_t *occ, const gp_residency_t *res, gp_op_memo_t *memo,
                       gp_block_cost_t *out, char *err, size_t errlen)
{
    if (block_cost_once(plugin, gen, dev, kernel, occ, res, memo, out, err, errlen))
        return -1;
    return independent_floor(plugin, gen, dev, kernel, occ, res, out, err, errlen);
}
