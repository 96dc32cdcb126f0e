/*
 * conformance_cost.c - the op-cost and block-cost checks of the conformance
 * run: a catalogue of small kernels (every op class, memory space and access
 * pattern, loops, divergence) on a few launch shapes, each block cost
 * compared with the cost of the same block with more work, more residency,
 * a faster clock, more bandwidth or a worse access pattern.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "conformance_internal.h"

#define MAX_OPS 8
#define NONE_BUF UINT32_MAX
/* Buffers of the catalogue's kernels (indices 0..4) */
#define WARM_BUFFERS 5
/* Footprint of a random access: large enough to miss every cache. */
#define RANDOM_FOOTPRINT_BYTES (64.0 * 1024 * 1024)

/* One kernel of the catalogue. */
typedef struct kdef {
    const char *name;
    int optional; /* uses what some generations lack: op_cost may refuse it */
    uint32_t bank_bytes; /* launch.bank_bytes */
    uint32_t n_ops;
    gp_op_t ops[MAX_OPS];
} kdef_t;

/* Op initialisers. */
#define ARITH(k, n, i) {.kind = (k), .count = (n), .ilp = (i)}
#define MEM(k, sp, pat, elem, stride, off, buf)                                          \
    {.kind = (k), .count = 1, .ilp = 1, .space = (sp),                                  \
     .access = {.elem_bytes = (elem), .pattern = (pat), .stride_elems = (stride),        \
                .offset_elems = (off), .buffer = (buf)}}
#define GLD(elem) MEM(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, elem, 1, 0, 0)
#define GST(elem) MEM(GP_OP_STORE, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, elem, 1, 0, 1)
#define SLD(pat, elem, stride) MEM(GP_OP_LOAD, GP_SPACE_SHARED, pat, elem, stride, 0, NONE_BUF)
#define SST(elem) MEM(GP_OP_STORE, GP_SPACE_SHARED, GP_PATTERN_UNIT, elem, 1, 0, NONE_BUF)
#define LOOP(n, len) {.kind = GP_OP_LOOP, .count = (n), .ilp = 1, .body_len = (len)}
#define DIVERGE(n, len) {.kind = GP_OP_DIVERGE, .count = (n), .ilp = 1, .body_len = (len)}
#define TENSOR(t) {.kind = GP_OP_TENSOR, .count = 4096, .ilp = 1, .tensor_type = (t)}
#define ATOMIC(sp, scope)                                                                \
    {.kind = GP_OP_ATOMIC, .count = 1, .ilp = 1, .space = (sp),                         \
     .access = {.elem_bytes = 4, .pattern = GP_PATTERN_UNIT, .stride_elems = 1,           \
                .buffer = (sp) == GP_SPACE_GLOBAL ? 2 : NONE_BUF, .atomic_scope = (scope)}}

/* The catalogue: the ops every generation has first, then the optional. */
static const kdef_t KERNELS[] = {
    {"fp32_chain", 0, 0, 1, {ARITH(GP_OP_FP32, 64, 1)}},
    {"fp32_ilp4", 0, 0, 1, {ARITH(GP_OP_FP32, 64, 4)}},
    {"int", 0, 0, 1, {ARITH(GP_OP_INT, 32, 2)}},
    {"sfu", 0, 0, 1, {ARITH(GP_OP_SFU, 16, 1)}},
    {"conversion", 0, 0, 1, {ARITH(GP_OP_CONV, 8, 1)}},
    {"branch", 0, 0, 1, {ARITH(GP_OP_BRANCH, 8, 1)}},
    {"barrier", 0, 0, 3,
     {ARITH(GP_OP_FP32, 8, 1), ARITH(GP_OP_BARRIER, 1, 1), ARITH(GP_OP_FP32, 8, 1)}},
    {"global_copy", 0, 0, 3, {GLD(4), ARITH(GP_OP_FP32, 2, 1), GST(4)}},
    {"global_sizes", 0, 0, 5, {GLD(1), GLD(2), GLD(8), GLD(16), GST(16)}},
    {"global_stride32", 0, 0, 1,
     {MEM(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_STRIDE, 4, 32, 0, 0)}},
    {"global_misaligned", 0, 0, 2,
     {MEM(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 4, 1, 1, 0), GST(4)}},
    {"global_random", 0, 0, 1,
     {MEM(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_RANDOM, 4, 1, 0, 0)}},
    {"global_broadcast", 0, 0, 1,
     {MEM(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_BROADCAST, 4, 1, 0, 0)}},
    {"shared", 0, 0, 3, {SST(4), ARITH(GP_OP_BARRIER, 1, 1), SLD(GP_PATTERN_UNIT, 4, 1)}},
    {"shared_stride2", 0, 0, 1, {SLD(GP_PATTERN_STRIDE, 4, 2)}},
    {"shared_broadcast", 0, 0, 1, {SLD(GP_PATTERN_BROADCAST, 4, 1)}},
    {"shared_wide", 0, 0, 2, {SLD(GP_PATTERN_UNIT, 8, 1), SLD(GP_PATTERN_UNIT, 16, 1)}},
    {"local", 0, 0, 2,
     {MEM(GP_OP_STORE, GP_SPACE_LOCAL, GP_PATTERN_UNIT, 4, 1, 0, NONE_BUF),
      MEM(GP_OP_LOAD, GP_SPACE_LOCAL, GP_PATTERN_UNIT, 4, 1, 0, NONE_BUF)}},
    {"constant", 0, 0, 2,
     {MEM(GP_OP_LOAD, GP_SPACE_CONSTANT, GP_PATTERN_BROADCAST, 4, 1, 0, 3),
      MEM(GP_OP_LOAD, GP_SPACE_CONSTANT, GP_PATTERN_UNIT, 4, 1, 0, 3)}},
    {"texture", 0, 0, 2,
     {MEM(GP_OP_LOAD, GP_SPACE_TEXTURE, GP_PATTERN_UNIT, 4, 1, 0, 0),
      MEM(GP_OP_LOAD, GP_SPACE_TEXTURE, GP_PATTERN_RANDOM, 4, 1, 0, 4)}},
    {"loop", 0, 0, 4, {LOOP(16, 2), GLD(4), ARITH(GP_OP_FP32, 4, 1), GST(4)}},
    {"diverge", 0, 0, 3, {DIVERGE(2, 2), ARITH(GP_OP_FP32, 8, 1), ARITH(GP_OP_INT, 4, 1)}},
    {"nested", 0, 0, 4, {LOOP(4, 3), DIVERGE(2, 2), LOOP(3, 1), ARITH(GP_OP_FP32, 2, 1)}},
    {"saxpy", 0, 0, 4,
     {GLD(4), MEM(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 4, 1, 0, 1),
      ARITH(GP_OP_FP32, 1, 1), GST(4)}},
    {"stencil", 0, 0, 5,
     {MEM(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 4, 1, -1, 0), GLD(4),
      MEM(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 4, 1, 1, 0), ARITH(GP_OP_FP32, 3, 1),
      GST(4)}},
    {"fp64", 1, 0, 1, {ARITH(GP_OP_FP64, 32, 1)}},
    {"fp16", 1, 0, 1, {ARITH(GP_OP_FP16, 32, 2)}},
    {"tensor_fp16", 1, 0, 1, {TENSOR(GP_TENSOR_FP16)}},
    {"tensor_bf16", 1, 0, 1, {TENSOR(GP_TENSOR_BF16)}},
    {"tensor_tf32", 1, 0, 1, {TENSOR(GP_TENSOR_TF32)}},
    {"tensor_fp64", 1, 0, 1, {TENSOR(GP_TENSOR_FP64)}},
    {"tensor_int8", 1, 0, 1, {TENSOR(GP_TENSOR_INT8)}},
    {"tensor_fp8", 1, 0, 1, {TENSOR(GP_TENSOR_FP8)}},
    {"atomic_distinct", 1, 0, 1, {ATOMIC(GP_SPACE_GLOBAL, GP_ATOMIC_DISTINCT)}},
    {"atomic_per_warp", 1, 0, 1, {ATOMIC(GP_SPACE_GLOBAL, GP_ATOMIC_PER_WARP)}},
    {"atomic_same", 1, 0, 1, {ATOMIC(GP_SPACE_GLOBAL, GP_ATOMIC_SAME)}},
    {"atomic_shared", 1, 0, 1, {ATOMIC(GP_SPACE_SHARED, GP_ATOMIC_PER_WARP)}},
    {"async_copy", 1, 0, 2,
     {MEM(GP_OP_ASYNC_COPY, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 16, 1, 0, 0),
      ARITH(GP_OP_BARRIER, 1, 1)}},
    {"shared_8byte_banks", 1, 8, 1, {SLD(GP_PATTERN_UNIT, 8, 1)}},
};

/* One launch shape of the cost checks. */
typedef struct shape {
    uint64_t threads_warps; /* threads in warps; 0: the device's maximum */
    uint32_t regs;
    uint64_t smem;
} shape_t;

static const shape_t SHAPES[] = {
    {1, 16, 0}, {4, 32, 0}, {8, 32, 4096}, {8, 64, 0}, {0, 32, 0}, {2, 128, 16384},
};

/* Everything the checks of one kernel on one shape need. */
typedef struct cost_ctx {
    const gp_arch_t *a;
    const gp_device_t *dev;
    gp_conf_report_t *r;
    const kdef_t *kd;
    gp_kernel_t k;   /* the kernel, ops pointing into ops[] */
    gp_op_t ops[MAX_OPS];
    gp_occupancy_t occ;
    gp_residency_t res; /* all blocks the occupancy allows, alone on the GPU */
    double base_cycles;
} cost_ctx_t;

/* "kernel K; launch ...; residency ...; what" for a violation. */
static void describe(const cost_ctx_t *c, const gp_residency_t *res, const char *what,
                     char *out, size_t size)
{
    char l[600], rs[300];
    gp_conf_describe_launch(&c->k.launch, l, sizeof l);
    gp_conf_describe_res(res, rs, sizeof rs);
    if (snprintf(out, size, "kernel %s; %s; %s%s%s", c->kd->name, l, rs, *what ? "; " : "",
                 what) >= (int)size && size > 4)
        memcpy(out + size - 4, "...", 4); /* show that the description was cut */
}

/* Fill footprints the way a script's defaults would. */
static void fill_footprints(gp_op_t *ops, uint32_t n, double grid_threads)
{
    uint32_t i;
    for (i = 0; i < n; i++) {
        gp_access_t *acc = &ops[i].access;
        double stride;
        if (ops[i].kind != GP_OP_LOAD && ops[i].kind != GP_OP_STORE &&
            ops[i].kind != GP_OP_ATOMIC && ops[i].kind != GP_OP_ASYNC_COPY)
            continue;
        stride = acc->pattern == GP_PATTERN_STRIDE ? fabs((double)acc->stride_elems) : 1;
        if (ops[i].space == GP_SPACE_SHARED)
            acc->footprint_bytes = 0;
        else if (acc->pattern == GP_PATTERN_RANDOM)
            acc->footprint_bytes = (uint64_t)RANDOM_FOOTPRINT_BYTES;
        else if (acc->pattern == GP_PATTERN_BROADCAST || ops[i].space == GP_SPACE_CONSTANT)
            acc->footprint_bytes = ops[i].space == GP_SPACE_CONSTANT ? 4096 : acc->elem_bytes;
        else
            acc->footprint_bytes = (uint64_t)(grid_threads * acc->elem_bytes * stride);
    }
}

/* A block cost, checked for validity; -1 when it failed or is invalid. */
static int cost(cost_ctx_t *c, const gp_device_t *dev, const gp_kernel_t *k,
                const gp_residency_t *res, const char *what, double *cycles)
{
    gp_block_cost_t b;
    char msg[512], in[1200];
    int p, bad = 0;
    c->r->calls++;
    gp_conf_case(c->r, GP_CONF_BLOCK_CALL);
    if (gp_conf_call_block_cost(c->a, dev, k, &c->occ, res, &b, msg, sizeof msg) != 0) {
        describe(c, res, what, in, sizeof in);
        gp_conf_violate(c->r, GP_CONF_BLOCK_CALL, c->dev, in, "block_cost failed: %s",
                        *msg ? msg : "(no reason given)");
        return -1;
    }
    gp_conf_case(c->r, GP_CONF_BLOCK_VALID);
    describe(c, res, what, in, sizeof in);
    if (!(isfinite(b.time_cycles) && b.time_cycles > 0)) {
        gp_conf_violate(c->r, GP_CONF_BLOCK_VALID, c->dev, in,
                        "block time %g cycles; it must be positive and finite", b.time_cycles);
        bad = 1;
    }
    {
        const struct {
            const char *name;
            double v;
        } f[] = {{"latency_cycles", b.latency_cycles},
                 {"throughput_cycles", b.throughput_cycles},
                 {"memory_cycles", b.memory_cycles},
                 {"warp_instructions", b.warp_instructions},
                 {"l1_bytes", b.l1_bytes},
                 {"l2_bytes", b.l2_bytes},
                 {"dram_bytes", b.dram_bytes}};
        size_t i;
        for (i = 0; i < GP_ARRAY_LEN(f); i++)
            if (!(isfinite(f[i].v) && f[i].v >= 0)) {
                gp_conf_violate(c->r, GP_CONF_BLOCK_VALID, c->dev, in,
                                "%s = %g; it must be finite and >= 0", f[i].name, f[i].v);
                bad = 1;
            }
        for (p = 0; p < GP_PIPE_COUNT; p++)
            if (!(isfinite(b.pipe_cycles[p]) && b.pipe_cycles[p] >= 0)) {
                gp_conf_violate(c->r, GP_CONF_BLOCK_VALID, c->dev, in,
                                "pipe_cycles[%s] = %g; it must be finite and >= 0",
                                gp_pipe_name((uint32_t)p), b.pipe_cycles[p]);
                bad = 1;
            }
    }
    if (b.bound >= GP_BOUND_COUNT || b.bound_pipe >= GP_PIPE_COUNT) {
        gp_conf_violate(c->r, GP_CONF_BLOCK_VALID, c->dev, in,
                        "bound %u / bound_pipe %u: not a gp_bound_t / gp_pipe_t", b.bound,
                        b.bound_pipe);
        bad = 1;
    }
    *cycles = b.time_cycles;
    return bad ? -1 : 0;
}

/* Compare a variant's time with the base: `no_faster` (1) says the variant
   must not take less time, 0 that it must not take more. */
static void compare(cost_ctx_t *c, uint32_t check, const gp_residency_t *res, double base,
                    double variant, int no_faster, const char *what)
{
    char in[1200];
    gp_conf_case(c->r, check);
    if (no_faster ? variant < base * (1 - GP_CONF_REL_EPS)
                  : variant > base * (1 + GP_CONF_REL_EPS)) {
        describe(c, res, "", in, sizeof in);
        gp_conf_violate(c->r, check, c->dev, in, "%s: %.6g cycles, against %.6g before (%+.3g%%)",
                        what, variant, base, (variant / base - 1) * 100);
    }
}

/* Every op's cost on its own; 1 when an op was refused (the kernel is then
   not costed further), 0 otherwise. */
static int check_ops(cost_ctx_t *c)
{
    uint32_t i;
    int refused = 0;
    for (i = 0; i < c->k.n_ops; i++) {
        const gp_op_t *op = &c->ops[i];
        gp_op_cost_t oc;
        char msg[512], in[1200], od[400];
        int p, busy = 0;
        if (op->kind == GP_OP_LOOP || op->kind == GP_OP_DIVERGE)
            continue;
        gp_conf_describe_op(op, od, sizeof od);
        c->r->calls++;
        gp_conf_case(c->r, GP_CONF_OP_CALL);
        if (gp_conf_call_op_cost(c->a, c->dev, &c->k, op, &c->occ, &c->res, &oc, msg,
                                 sizeof msg) != 0) {
            refused = 1;
            describe(c, &c->res, od, in, sizeof in);
            if (!c->kd->optional)
                gp_conf_violate(c->r, GP_CONF_OP_CALL, c->dev, in,
                                "op_cost refused an op every generation has: %s",
                                *msg ? msg : "(no reason given)");
            else if (!*msg)
                gp_conf_violate(c->r, GP_CONF_OP_CALL, c->dev, in,
                                "op_cost refused an op without saying why");
            else
                c->r->refusals++;
            continue;
        }
        gp_conf_case(c->r, GP_CONF_OP_VALID);
        describe(c, &c->res, od, in, sizeof in);
        for (p = 0; p < GP_PIPE_COUNT; p++) {
            if (!(isfinite(oc.pipe_cycles[p]) && oc.pipe_cycles[p] >= 0))
                gp_conf_violate(c->r, GP_CONF_OP_VALID, c->dev, in,
                                "pipe_cycles[%s] = %g; it must be finite and >= 0",
                                gp_pipe_name((uint32_t)p), oc.pipe_cycles[p]);
            busy |= oc.pipe_cycles[p] > 0;
        }
        {
            const struct {
                const char *name;
                double v;
            } f[] = {{"latency_cycles", oc.latency_cycles}, {"l1_bytes", oc.l1_bytes},
                     {"l2_bytes", oc.l2_bytes},             {"dram_bytes", oc.dram_bytes},
                     {"transactions", oc.transactions}};
            size_t j;
            for (j = 0; j < GP_ARRAY_LEN(f); j++)
                if (!(isfinite(f[j].v) && f[j].v >= 0))
                    gp_conf_violate(c->r, GP_CONF_OP_VALID, c->dev, in,
                                    "%s = %g; it must be finite and >= 0", f[j].name, f[j].v);
        }
        if (!busy && !(oc.latency_cycles > 0))
            gp_conf_violate(c->r, GP_CONF_OP_VALID, c->dev, in,
                            "the op costs nothing: no pipe is busy and its latency is 0");
        if (op->space == GP_SPACE_GLOBAL &&
            (op->kind == GP_OP_LOAD || op->kind == GP_OP_STORE) &&
            !(oc.l1_bytes + oc.l2_bytes + oc.dram_bytes > 0))
            gp_conf_violate(c->r, GP_CONF_OP_VALID, c->dev, in,
                            "a global access that moves no bytes (l1, l2 and dram all 0)");
    }
    return refused;
}

/* Time of the kernel with its ops replaced by the n_ops of `ops`. */
static int variant_cost(cost_ctx_t *c, const gp_device_t *dev, const gp_op_t *ops,
                        uint32_t n_ops, const gp_residency_t *res, const char *what,
                        double *cycles)
{
    gp_kernel_t k = c->k;
    k.ops = ops;
    k.n_ops = n_ops;
    return cost(c, dev, &k, res, what, cycles);
}

/* More work: each op's count doubled, each loop's trips doubled, one more
   divergent path, a loop of arithmetic appended. */
static void check_more_work(cost_ctx_t *c)
{
    uint32_t i;
    for (i = 0; i < c->k.n_ops; i++) {
        gp_op_t ops[MAX_OPS];
        char what[500], od[400];
        double t;
        memcpy(ops, c->ops, sizeof ops);
        if (ops[i].kind == GP_OP_DIVERGE)
            ops[i].count += 1;
        else
            ops[i].count *= 2;
        gp_conf_describe_op(&c->ops[i], od, sizeof od);
        snprintf(what, sizeof what, "op %u (%s) with %s %g", i, od,
                 ops[i].kind == GP_OP_LOOP      ? "trips"
                 : ops[i].kind == GP_OP_DIVERGE ? "paths"
                                                : "count",
                 ops[i].count);
        if (variant_cost(c, c->dev, ops, c->k.n_ops, &c->res, what, &t) == 0)
            compare(c, GP_CONF_MORE_WORK, &c->res, c->base_cycles, t, 1, what);
    }
    /* an op inserted before each op, inside the loops and paths that hold
       that op: arithmetic (a longer body, whatever its loads),
       conversions, a branch, a barrier, a store, a shared load, and loads of the
       buffer the catalogue's loads read, in every pattern and in the
       widest size (their lines in flight when the
       op's own loads ask for them: a hit on a line still on its way waits
       as long as the miss that brings it; a warp's one element brings one
       sector, not the buffer; a stream moves each sector from DRAM once,
       whichever warp asks first) */
    if (c->k.n_ops + 1 <= MAX_OPS) {
        static const struct {
            gp_op_t op;
            const char *what;
        } extras[] = {
            {ARITH(GP_OP_FP32, 4, 1), "4 fp32 ops"},
            {ARITH(GP_OP_INT, 4, 1), "4 integer ops"},
            {ARITH(GP_OP_SFU, 1, 1), "a special-function op"},
            {GLD(4), "a 4-byte global load of buffer 0"},
            {GLD(16), "a 16-byte global load of buffer 0"},
            {MEM(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_BROADCAST, 4, 1, 0, 0),
             "a warp-uniform global load of buffer 0"},
            {MEM(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_RANDOM, 4, 1, 0, 0),
             "a random global load of buffer 0"},
            {GST(4), "a 4-byte global store"},
            {SLD(GP_PATTERN_UNIT, 4, 1), "a 4-byte shared load"},
            {ARITH(GP_OP_CONV, 2, 1), "2 conversions"},
            {ARITH(GP_OP_BRANCH, 1, 1), "a branch"},
            {ARITH(GP_OP_BARRIER, 1, 1), "a barrier"},
        };
        size_t e;
        for (e = 0; e < GP_ARRAY_LEN(extras); e++)
            for (i = 0; i < c->k.n_ops; i++) {
                gp_op_t ops[MAX_OPS];
                char what[500], od[400];
                uint32_t j;
                double t;
                memcpy(ops, c->ops, i * sizeof *ops);
                ops[i] = extras[e].op;
                memcpy(&ops[i + 1], &c->ops[i], (c->k.n_ops - i) * sizeof *ops);
                for (j = 0; j < i; j++) /* the bodies that hold op i grow by one */
                    if ((ops[j].kind == GP_OP_LOOP || ops[j].kind == GP_OP_DIVERGE) &&
                        j + ops[j].body_len >= i)
                        ops[j].body_len++;
                fill_footprints(&ops[i], 1,
                                (double)c->k.total_blocks * (double)c->k.launch.threads_per_block);
                gp_conf_describe_op(&c->ops[i], od, sizeof od);
                snprintf(what, sizeof what, "%s inserted before op %u (%s)", extras[e].what, i, od);
                if (variant_cost(c, c->dev, ops, c->k.n_ops + 1, &c->res, what, &t) == 0)
                    compare(c, GP_CONF_MORE_WORK, &c->res, c->base_cycles, t, 1, what);
            }
    }
    /* the whole of it twice, in a loop of 2 trips: the second trip reads
       again what the first brought, and the block still waits for the
       first trip's misses, the slowest line of its block among them */
    if (c->k.n_ops + 1 <= MAX_OPS) {
        gp_op_t ops[MAX_OPS];
        const gp_op_t twice = LOOP(2, c->k.n_ops);
        const char *what = "the kernel run twice, in a loop of 2 trips";
        double t;
        ops[0] = twice;
        memcpy(&ops[1], c->ops, c->k.n_ops * sizeof *ops);
        if (variant_cost(c, c->dev, ops, c->k.n_ops + 1, &c->res, what, &t) == 0)
            compare(c, GP_CONF_MORE_WORK, &c->res, c->base_cycles, t, 1, what);
    }
    /* a loop of arithmetic after all of it (a shuffle reduction after a
       warp's loads): the block does the same work and then more */
    if (c->k.n_ops + 2 <= MAX_OPS) {
        gp_op_t ops[MAX_OPS];
        const gp_op_t tail[2] = {LOOP(4, 1), ARITH(GP_OP_FP32, 2, 1)};
        char what[200];
        double t;
        memcpy(ops, c->ops, sizeof ops);
        memcpy(&ops[c->k.n_ops], tail, sizeof tail);
        snprintf(what, sizeof what, "a loop of 4 trips of 2 fp32 ops after op %u", c->k.n_ops - 1);
        if (variant_cost(c, c->dev, ops, c->k.n_ops + 2, &c->res, what, &t) == 0)
            compare(c, GP_CONF_MORE_WORK, &c->res, c->base_cycles, t, 1, what);
    }
}

/* Residency: b blocks then b+1; other kernels' warps added. */
static void check_residency(cost_ctx_t *c)
{
    gp_residency_t res = c->res;
    double prev = 0, t;
    uint32_t b;
    char what[200];
    for (b = 1; b <= c->occ.blocks_per_sm; b++) {
        res.blocks = b;
        res.warps_sm = b * c->occ.warps_per_block;
        snprintf(what, sizeof what, "%u blocks resident instead of %u", b, b - 1);
        if (cost(c, c->dev, &c->k, &res, what, &t))
            return;
        if (b > 1)
            compare(c, GP_CONF_RESIDENCY, &res, prev, t, 1, what);
        prev = t;
    }
    if (c->occ.max_warps > c->res.warps_sm) {
        res = c->res;
        res.warps_sm = c->occ.max_warps;
        snprintf(what, sizeof what, "%u warps of other kernels on the SM",
                 c->occ.max_warps - c->res.warps_sm);
        if (cost(c, c->dev, &c->k, &res, what, &t) == 0)
            compare(c, GP_CONF_RESIDENCY, &res, c->base_cycles, t, 1, what);
    }
}

/* A faster clock; more DRAM and L2 bandwidth, shares and capacity. */
static void check_device_scaling(cost_ctx_t *c)
{
    gp_device_t d = *c->dev;
    gp_residency_t res = c->res;
    double t, base_us = c->base_cycles / c->dev->core_clock_mhz;
    char what[200];

    d.core_clock_mhz = c->dev->core_clock_mhz * 1.25;
    snprintf(what, sizeof what, "core_clock_mhz %g instead of %g (times in us)",
             d.core_clock_mhz, c->dev->core_clock_mhz);
    if (cost(c, &d, &c->k, &c->res, what, &t) == 0)
        compare(c, GP_CONF_CLOCK, &c->res, base_us, t / d.core_clock_mhz, 0, what);

    d = *c->dev;
    d.dram_sustained_gbps *= 2;
    d.dram_bandwidth_gbps *= 2;
    d.dram_read_gbps *= 2;
    snprintf(what, sizeof what,
             "dram_sustained_gbps %g, dram_bandwidth_gbps %g, dram_read_gbps %g (twice)",
             d.dram_sustained_gbps, d.dram_bandwidth_gbps, d.dram_read_gbps);
    if (cost(c, &d, &c->k, &c->res, what, &t) == 0)
        compare(c, GP_CONF_BANDWIDTH, &c->res, c->base_cycles, t, 0, what);

    if (c->dev->l2_bandwidth_gbps > 0) {
        d = *c->dev;
        d.l2_bandwidth_gbps *= 2;
        snprintf(what, sizeof what, "l2_bandwidth_gbps %g (twice)", d.l2_bandwidth_gbps);
        if (cost(c, &d, &c->k, &c->res, what, &t) == 0)
            compare(c, GP_CONF_BANDWIDTH, &c->res, c->base_cycles, t, 0, what);
    }

    res.dram_share = GP_MIN(1.0, c->res.dram_share * 4);
    res.l2_share = GP_MIN(1.0, c->res.l2_share * 4);
    snprintf(what, sizeof what, "4x the DRAM and L2 bandwidth share");
    if (cost(c, c->dev, &c->k, &res, what, &t) == 0)
        compare(c, GP_CONF_BANDWIDTH, &res, c->base_cycles, t, 0, what);

    if (c->dev->l2_bytes > 0) {
        res = c->res;
        res.l2_capacity_bytes = c->res.l2_capacity_bytes / 8;
        snprintf(what, sizeof what, "an eighth of the L2 capacity");
        if (cost(c, c->dev, &c->k, &res, what, &t) == 0)
            compare(c, GP_CONF_BANDWIDTH, &res, c->base_cycles, t, 1, what);
    }

    if (c->dev->l2_bytes > 0) {
        /* every global buffer already in the L2 where it fits (left there
           by an earlier launch): what would come from DRAM hits */
        uint64_t warm[WARM_BUFFERS] = {0};
        gp_kernel_t k = c->k;
        uint32_t i, any = 0;
        for (i = 0; i < k.n_ops; i++) {
            const gp_access_t *acc = &k.ops[i].access;
            if (acc->buffer < WARM_BUFFERS && k.ops[i].space != GP_SPACE_SHARED &&
                acc->footprint_bytes <= c->dev->l2_bytes) {
                warm[acc->buffer] = GP_MAX(warm[acc->buffer], acc->footprint_bytes);
                any |= acc->footprint_bytes > 0;
            }
        }
        if (any) {
            k.l2_warm_bytes = warm;
            k.n_buffers = WARM_BUFFERS;
            snprintf(what, sizeof what, "its buffers already in the L2");
            if (cost(c, c->dev, &k, &c->res, what, &t) == 0)
                compare(c, GP_CONF_BANDWIDTH, &c->res, c->base_cycles, t, 0, what);
        }
    }
}

/* Worse access patterns, less ILP, a dependent load and a larger random
   footprint never faster. */
static void check_access(cost_ctx_t *c)
{
    static const int64_t strides[] = {2, 8, 32};
    static const uint32_t ways[] = {1, 2, 8};
    uint32_t i;
    size_t j;
    for (i = 0; i < c->k.n_ops; i++) {
        const gp_op_t *op = &c->ops[i];
        gp_op_t ops[MAX_OPS];
        char what[500], od[400];
        double t;
        int mem = op->kind == GP_OP_LOAD || op->kind == GP_OP_STORE;
        gp_conf_describe_op(op, od, sizeof od);
        if (mem && op->space == GP_SPACE_GLOBAL && op->access.pattern == GP_PATTERN_UNIT)
            for (j = 0; j < GP_ARRAY_LEN(strides); j++) {
                memcpy(ops, c->ops, sizeof ops);
                ops[i].access.pattern = GP_PATTERN_STRIDE;
                ops[i].access.stride_elems = strides[j];
                snprintf(what, sizeof what, "op %u (%s) with stride %lld", i, od,
                         (long long)strides[j]);
                if (variant_cost(c, c->dev, ops, c->k.n_ops, &c->res, what, &t) == 0)
                    compare(c, GP_CONF_ACCESS, &c->res, c->base_cycles, t, 1, what);
            }
        if (mem && op->space == GP_SPACE_SHARED && op->access.pattern == GP_PATTERN_UNIT) {
            /* conflict_ways 0 derives the degree (wide words may conflict), so
               the comparison starts from an explicit conflict-free access */
            double prev = 0;
            for (j = 0; j < GP_ARRAY_LEN(ways); j++) {
                memcpy(ops, c->ops, sizeof ops);
                ops[i].access.conflict_ways = ways[j];
                snprintf(what, sizeof what, "op %u (%s) with conflict_ways %u instead of %u", i,
                         od, ways[j], j ? ways[j - 1] : 0);
                if (variant_cost(c, c->dev, ops, c->k.n_ops, &c->res, what, &t))
                    break;
                if (j > 0)
                    compare(c, GP_CONF_ACCESS, &c->res, prev, t, 1, what);
                prev = t;
            }
        }
        if (op->kind == GP_OP_LOAD && op->access.buffer != NONE_BUF && !op->access.depends &&
            (op->space == GP_SPACE_GLOBAL || op->space == GP_SPACE_TEXTURE)) {
            /* its address the value of the load before it (a chase where it
               is a loop body's first): it waits for that load, never less */
            memcpy(ops, c->ops, sizeof ops);
            ops[i].access.depends = 1;
            snprintf(what, sizeof what, "op %u (%s) depending on the load before it", i, od);
            if (variant_cost(c, c->dev, ops, c->k.n_ops, &c->res, what, &t) == 0)
                compare(c, GP_CONF_ACCESS, &c->res, c->base_cycles, t, 1, what);
        }
        if (mem && op->space == GP_SPACE_GLOBAL && op->access.pattern == GP_PATTERN_RANDOM) {
            /* random addresses over more bytes: fewer cache hits, never
               faster; a chase through them (depends) the same */
            static const uint64_t fps[] = {16 << 10, 256 << 10, 4 << 20, 64 << 20, 1 << 30};
            uint32_t dep;
            for (dep = 0; dep <= (op->kind == GP_OP_LOAD); dep++) {
                double prev = 0;
                for (j = 0; j < GP_ARRAY_LEN(fps); j++) {
                    memcpy(ops, c->ops, sizeof ops);
                    ops[i].access.footprint_bytes = fps[j];
                    ops[i].access.depends = dep;
                    snprintf(what, sizeof what, "op %u (%s)%s with footprint %llu instead of %llu",
                             i, od, dep ? " as a chase" : "", (unsigned long long)fps[j],
                             (unsigned long long)(j ? fps[j - 1] : 0));
                    if (variant_cost(c, c->dev, ops, c->k.n_ops, &c->res, what, &t))
                        break;
                    if (j > 0)
                        compare(c, GP_CONF_ACCESS, &c->res, prev, t, 1, what);
                    prev = t;
                }
            }
        }
        if (op->kind <= GP_OP_CONV && op->ilp > 1) {
            memcpy(ops, c->ops, sizeof ops);
            ops[i].ilp = 1;
            snprintf(what, sizeof what, "op %u (%s) with ilp 1", i, od);
            if (variant_cost(c, c->dev, ops, c->k.n_ops, &c->res, what, &t) == 0)
                compare(c, GP_CONF_ACCESS, &c->res, c->base_cycles, t, 1, what);
        }
    }
}

/* 1 if the kernel has a global load (its cache mode matters). */
static int has_global_load(const kdef_t *kd)
{
    uint32_t i;
    for (i = 0; i < kd->n_ops; i++)
        if (kd->ops[i].kind == GP_OP_LOAD && kd->ops[i].space == GP_SPACE_GLOBAL)
            return 1;
    return 0;
}

/* All checks of one kernel on one launch. */
static void run_kernel(const gp_arch_t *a, const gp_device_t *dev, gp_conf_report_t *r,
                       const kdef_t *kd, const gp_launch_t *launch)
{
    cost_ctx_t c;
    char msg[512], in[1200];
    double again;
    memset(&c, 0, sizeof c);
    c.a = a;
    c.dev = dev;
    c.r = r;
    c.kd = kd;
    memcpy(c.ops, kd->ops, sizeof c.ops);
    c.k.name = kd->name;
    c.k.launch = *launch;
    c.k.launch.bank_bytes = kd->bank_bytes;
    c.k.ops = c.ops;
    c.k.n_ops = kd->n_ops;
    c.k.total_blocks = launch->grid.x * launch->grid.y * launch->grid.z;
    fill_footprints(c.ops, kd->n_ops,
                    (double)c.k.total_blocks * (double)launch->threads_per_block);
    r->calls++;
    if (gp_conf_call_occupancy(a, dev, &c.k.launch, &c.occ, msg, sizeof msg) != 0 ||
        c.occ.blocks_per_sm == 0 || c.occ.blocks_per_sm > dev->max_blocks_per_sm ||
        c.occ.warps_per_block == 0)
        return; /* the occupancy checks report it; no block runs on such an answer */
    c.res.blocks = c.occ.blocks_per_sm;
    c.res.warps_sm = c.occ.blocks_per_sm * c.occ.warps_per_block;
    c.res.active_sms = dev->sm_count;
    c.res.dram_share = c.res.l2_share = 1.0 / dev->sm_count;
    c.res.l2_capacity_bytes = (double)dev->l2_bytes;
    if (check_ops(&c))
        return;
    if (cost(&c, dev, &c.k, &c.res, "", &c.base_cycles))
        return;
    gp_conf_case(r, GP_CONF_PURE);
    if (cost(&c, dev, &c.k, &c.res, "the same call again", &again) == 0 &&
        memcmp(&again, &c.base_cycles, sizeof again) != 0) {
        describe(&c, &c.res, "", in, sizeof in);
        gp_conf_violate(r, GP_CONF_PURE, dev, in,
                        "block_cost answered %.17g cycles, then %.17g for the same inputs",
                        c.base_cycles, again);
    }
    check_more_work(&c);
    check_residency(&c);
    check_device_scaling(&c);
    check_access(&c);
}

void gp_conf_run_costs(const gp_arch_t *a, const gp_device_t *dev, gp_conf_report_t *r)
{
    static const uint32_t gcache[] = {GP_GLOBAL_CACHE_DEFAULT, GP_GLOBAL_CACHE_ALL,
                                      GP_GLOBAL_CACHE_L2};
    uint64_t w = dev->warp_size ? dev->warp_size : 32;
    uint64_t grid = (uint64_t)dev->sm_count * 8;
    size_t s, k, g;
    if (grid > dev->max_grid_x)
        grid = dev->max_grid_x;
    for (s = 0; s < GP_ARRAY_LEN(SHAPES); s++) {
        uint64_t threads = SHAPES[s].threads_warps ? SHAPES[s].threads_warps * w
                                                   : dev->max_threads_per_block;
        uint32_t regs = GP_MIN(SHAPES[s].regs, dev->max_registers_per_thread);
        uint64_t smem = GP_MIN(SHAPES[s].smem, dev->shared_memory_per_block_bytes);
        gp_launch_t l;
        if (threads > dev->max_threads_per_block)
            threads = dev->max_threads_per_block;
        l = gp_conf_launch(threads, regs, smem, grid);
        for (k = 0; k < GP_ARRAY_LEN(KERNELS); k++)
            for (g = 0; g < (has_global_load(&KERNELS[k]) ? GP_ARRAY_LEN(gcache) : 1); g++) {
                l.global_cache = gcache[g];
                run_kernel(a, dev, r, &KERNELS[k], &l);
            }
    }
}
