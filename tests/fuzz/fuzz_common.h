/*
 * fuzz_common.h - what the fuzz harnesses share: the invariants every result
 * must keep, and a set of kernels built in C that exercise a device through
 * its plugin (occupancy, the engine, the block-cost model).
 *
 * A broken invariant is a finding: fz_fail() prints it and aborts, which
 * libFuzzer reports as a crash and the corpus replay test as a failure.
 * An input gpuperf rejects with a clear message is not a finding.
 */
#ifndef GP_FUZZ_COMMON_H
#define GP_FUZZ_COMMON_H

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "device.h"
#include "engine.h"
#include "workload.h"

/* Report a broken invariant and abort. */
static inline void fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static inline void fz_fail(const char *fmt, ...)
{
    va_list ap;
    fputs("gpuperf fuzz: invariant broken: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/* The largest input a harness reads; larger ones are skipped. */
#define FZ_MAX_INPUT 65536

/* The input as a heap copy of exactly `size` bytes, so that a read past its
   end is caught; NULL (the harness skips it) when it is larger than
   FZ_MAX_INPUT or memory is short. The caller frees it. */
static inline char *fz_copy_input(const uint8_t *data, size_t size)
{
    char *text;
    if (size > FZ_MAX_INPUT)
        return NULL;
    text = malloc(size ? size : 1);
    if (text && size)
        memcpy(text, data, size);
    return text;
}

/* 1 if x is a finite number >= 0. */
static inline int fz_ok(double x)
{
    return isfinite(x) && x >= 0;
}

/* An error message must be there, and must not report a number that the
   model itself made non-finite (that would be a model bug, not bad input).
   The words are looked for outside quotes: a kernel, buffer or file name the
   script chose ('non-finite', "nan") is quoted in the message and says
   nothing about the model's numbers. */
static inline void fz_check_error(const char *what, const char *msg)
{
    char bare[sizeof ((gp_err_t *)0)->msg];
    size_t i, j, n = 0;
    if (!msg[0])
        fz_fail("%s failed without a message", what);
    for (i = 0; msg[i] && n + 1 < sizeof bare; i++) {
        /* a quote that opens after a non-word character and closes before
           one is a name; an apostrophe inside a word (the launch's) is not */
        if ((msg[i] == '\'' || msg[i] == '"') && (i == 0 || !isalnum((unsigned char)msg[i - 1]))) {
            for (j = i + 1; msg[j] && !(msg[j] == msg[i] && !isalnum((unsigned char)msg[j + 1])); j++)
                ;
            if (msg[j]) {
                bare[n++] = ' '; /* the name's place: the words around it stay apart */
                i = j;
                continue;
            }
        }
        bare[n++] = msg[i];
    }
    bare[n] = '\0';
    if (strstr(bare, "non-finite") || strstr(bare, " nan ") || strstr(bare, " of nan") ||
        strstr(bare, " inf ") || strstr(bare, " of inf") || strstr(bare, "-nan"))
        fz_fail("%s: a computed number is not finite: %s", what, msg);
    /* the engine's own words (engine.c advance), not a name the script chose
       that says them */
    if (strstr(msg, ": the simulation stalled (a dependency that never completes"))
        fz_fail("%s: the engine stalled: %s", what, msg);
}

/* The occupancy a plugin returned for a launch it accepted must be possible
   on the device. */
static inline void fz_check_occupancy(const gp_device_t *d, const gp_launch_t *l,
                               const gp_occupancy_t *o)
{
    uint64_t smem = l->static_smem_bytes + l->dynamic_smem_bytes;
    if (!(o->occupancy >= 0 && o->occupancy <= 1.0) || o->limiter >= GP_LIMIT_COUNT)
        fz_fail("occupancy %g, limiter %u", o->occupancy, o->limiter);
    if (o->blocks_per_sm == 0) {
        if (!o->detail[0])
            fz_fail("an impossible launch without a reason (limiter %u)", o->limiter);
        return;
    }
    if (o->blocks_per_sm > d->max_blocks_per_sm)
        fz_fail("%u blocks per SM, the device allows %u", o->blocks_per_sm,
                d->max_blocks_per_sm);
    if ((uint64_t)o->active_warps * d->warp_size > d->max_threads_per_sm)
        fz_fail("%u active warps of %u threads on an SM of %u threads", o->active_warps,
                d->warp_size, d->max_threads_per_sm);
    if (l->threads_per_block > d->max_threads_per_block || l->block.x > d->max_block_x ||
        l->block.y > d->max_block_y || l->block.z > d->max_block_z)
        fz_fail("a block (%llu,%llu,%llu) beyond the device's limits runs",
                (unsigned long long)l->block.x, (unsigned long long)l->block.y,
                (unsigned long long)l->block.z);
    if (l->grid.x > d->max_grid_x || l->grid.y > d->max_grid_y || l->grid.z > d->max_grid_z ||
        !l->grid.x || !l->grid.y || !l->grid.z)
        fz_fail("a grid beyond the device's limits runs");
    if (l->regs_per_thread > d->max_registers_per_thread)
        fz_fail("%u registers per thread run (max %u)", l->regs_per_thread,
                d->max_registers_per_thread);
    if (smem < l->static_smem_bytes || smem > d->shared_memory_per_block_optin_bytes)
        fz_fail("a block with %llu+%llu bytes of shared memory runs (opt-in limit %llu)",
                (unsigned long long)l->static_smem_bytes,
                (unsigned long long)l->dynamic_smem_bytes,
                (unsigned long long)d->shared_memory_per_block_optin_bytes);
    if ((uint64_t)o->blocks_per_sm * o->regs_per_block_allocated > d->registers_per_sm)
        fz_fail("%u blocks of %u registers on an SM of %u", o->blocks_per_sm,
                o->regs_per_block_allocated, d->registers_per_sm);
}

/* A prediction must be made of finite, ordered, non-negative times. */
static inline void fz_check_prediction(const gp_device_t *d, const gp_workload_t *wl,
                                const gp_prediction_t *p)
{
    uint32_t i;
    /* (an interval between two events may outlast the GPU's work: a record
       on an idle stream completes when the host issues it) */
    if (!fz_ok(p->total_us) || !fz_ok(p->run_us) || (!wl->elapsed.line && p->total_us != p->run_us))
        fz_fail("%s on %s: total %g us, whole run %g us", wl->script, d->id, p->total_us,
                p->run_us);
    for (i = 0; i < p->n_cmds; i++) {
        const gp_cmd_result_t *r = &p->cmds[i];
        if (!fz_ok(r->submit_us) || !fz_ok(r->start_us) || !fz_ok(r->end_us) ||
            !fz_ok(r->time_us) || r->end_us + 1e-9 < r->start_us || r->end_us > p->run_us)
            fz_fail("%s on %s: command %u: submit %g start %g end %g time %g (whole run %g)",
                    wl->script, d->id, i, r->submit_us, r->start_us, r->end_us, r->time_us,
                    p->run_us);
        if (r->type != GP_CMD_LAUNCH)
            continue;
        if (r->occ.blocks_per_sm == 0 || !(r->occ.occupancy > 0 && r->occ.occupancy <= 1))
            fz_fail("%s on %s: launch %u ran with %u blocks per SM, occupancy %g", wl->script,
                    d->id, i, r->occ.blocks_per_sm, r->occ.occupancy);
        if (!(isfinite(r->cost.time_cycles) && r->cost.time_cycles > 0) ||
            !fz_ok(r->cost.latency_cycles) || !fz_ok(r->cost.throughput_cycles) ||
            !fz_ok(r->cost.memory_cycles) || !fz_ok(r->cost.warp_instructions) ||
            !fz_ok(r->waves) || !fz_ok(r->dram_bytes) || !fz_ok(r->l2_bytes) ||
            !fz_ok(r->warp_instructions) || r->bound >= GP_BOUND_COUNT)
            fz_fail("%s on %s: launch %u: block %g cycles (latency %g, throughput %g, memory "
                    "%g), waves %g, dram %g, l2 %g, instructions %g, bound %u",
                    wl->script, d->id, i, r->cost.time_cycles, r->cost.latency_cycles,
                    r->cost.throughput_cycles, r->cost.memory_cycles, r->waves, r->dram_bytes,
                    r->l2_bytes, r->warp_instructions, r->bound);
    }
}

/* ------------------------------------------------------ kernels built in C */

/* An arithmetic or barrier op. */
static inline gp_op_t fz_op(uint32_t kind, double count, double ilp)
{
    gp_op_t op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    op.count = count;
    op.ilp = ilp;
    op.access.buffer = UINT32_MAX;
    op.line = 1;
    return op;
}

/* A memory op. */
static inline gp_op_t fz_mem(uint32_t kind, uint32_t space, uint32_t pattern, uint32_t elem,
                      int64_t stride, int64_t offset, uint64_t footprint)
{
    gp_op_t op = fz_op(kind, 1, 1);
    op.space = space;
    op.access.pattern = pattern;
    op.access.elem_bytes = elem;
    op.access.stride_elems = stride;
    op.access.offset_elems = offset;
    op.access.footprint_bytes = footprint;
    return op;
}

/* A loop or diverge owning the next body_len ops. */
static inline gp_op_t fz_body(uint32_t kind, double count, uint32_t body_len)
{
    gp_op_t op = fz_op(kind, count, 1);
    op.body_len = body_len;
    return op;
}

/* Predict one launch (shape l, ops) on the device and check the result. */
static inline void fz_predict_launch(const gp_device_t *dev, const gp_arch_t *arch,
                              const char *name, const gp_launch_t *l, const gp_op_t *ops,
                              uint32_t n_ops)
{
    gp_stream_t stream;
    gp_command_t cmd;
    gp_workload_t wl;
    gp_prediction_t pred;
    gp_err_t err;
    memset(&stream, 0, sizeof stream);
    strcpy(stream.name, "default");
    memset(&cmd, 0, sizeof cmd);
    cmd.type = GP_CMD_LAUNCH;
    cmd.line = 1;
    cmd.kernel.name = name;
    cmd.kernel.launch = *l;
    cmd.kernel.ops = ops;
    cmd.kernel.n_ops = n_ops;
    cmd.kernel.line = 1;
    cmd.kernel.total_blocks = gp_mul_sat_u64(gp_mul_sat_u64(l->grid.x, l->grid.y), l->grid.z);
    memset(&wl, 0, sizeof wl);
    snprintf(wl.script, sizeof wl.script, "fuzz:%s", name);
    wl.streams = &stream;
    wl.n_streams = 1;
    wl.n_devices = 1;
    wl.cmds = &cmd;
    wl.n_cmds = 1;
    err.msg[0] = '\0';
    if (gp_predict(dev, arch, &wl, NULL, &pred, &err) != 0) {
        fz_check_error(wl.script, err.msg);
        return;
    }
    fz_check_prediction(dev, &wl, &pred);
    gp_prediction_free(&pred);
}

/* A launch of grid g and block b. */
static inline gp_launch_t fz_launch(uint64_t gx, uint64_t gy, uint64_t gz, uint64_t bx,
                             uint32_t regs, uint64_t smem)
{
    gp_launch_t l;
    memset(&l, 0, sizeof l);
    l.grid.x = gx;
    l.grid.y = gy;
    l.grid.z = gz;
    l.block.x = bx;
    l.block.y = l.block.z = 1;
    l.threads_per_block = bx;
    l.regs_per_thread = regs;
    l.static_smem_bytes = smem;
    l.carveout_percent = -1;
    return l;
}

/* Copies on two streams with events and synchronisation. */
static inline void fz_predict_copies(const gp_device_t *dev, const gp_arch_t *arch)
{
    gp_stream_t streams[2];
    gp_command_t cmds[9];
    gp_workload_t wl;
    gp_prediction_t pred;
    gp_err_t err;
    uint32_t i;
    memset(streams, 0, sizeof streams);
    strcpy(streams[0].name, "default");
    strcpy(streams[1].name, "s1");
    memset(cmds, 0, sizeof cmds);
    for (i = 0; i < 4; i++) {
        cmds[i].type = GP_CMD_COPY;
        cmds[i].copy_kind = i;
        cmds[i].copy_bytes = i == 3 ? 1 : (uint64_t)1e18;
        cmds[i].stream = i & 1;
        cmds[i].peer_device = i == GP_COPY_P2P ? 1 : 0;
    }
    cmds[4].type = GP_CMD_RECORD;
    cmds[4].stream = 1;
    cmds[5].type = GP_CMD_WAIT;
    cmds[5].stream = 0;
    cmds[6].type = GP_CMD_SYNC;
    cmds[6].stream = 1;
    cmds[7].type = GP_CMD_COPY;
    cmds[7].copy_kind = GP_COPY_H2D;
    cmds[7].copy_bytes = 0;
    cmds[8].type = GP_CMD_SYNC;
    cmds[8].stream = UINT32_MAX;
    memset(&wl, 0, sizeof wl);
    strcpy(wl.script, "fuzz:copies");
    wl.streams = streams;
    wl.n_streams = 2;
    wl.n_events = 1;
    wl.n_devices = 2;
    wl.cmds = cmds;
    wl.n_cmds = 9;
    if (gp_predict(dev, arch, &wl, NULL, &pred, &err) != 0) {
        fz_check_error(wl.script, err.msg);
        return;
    }
    fz_check_prediction(dev, &wl, &pred);
    gp_prediction_free(&pred);
}

/*
 * Exercise a device that loaded: occupancy of edge launches, and the
 * prediction of kernels using every kind of op, from the smallest launch
 * to the largest grid the device allows.
 */
static inline void fz_exercise_device(const gp_device_t *d, const gp_arch_t *arch)
{
    const double big = 1e18;
    uint64_t gb = (uint64_t)1 << 30;
    gp_op_t alu[] = {fz_op(GP_OP_FP32, 100, 4), fz_op(GP_OP_INT, 10, 1),
                     fz_op(GP_OP_SFU, 2, 1),    fz_op(GP_OP_CONV, 1, 1),
                     fz_op(GP_OP_BRANCH, 1, 1), fz_op(GP_OP_FP16, 5, 2)};
    gp_op_t mem[] = {
        fz_mem(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 4, 1, 0, gb),
        fz_mem(GP_OP_STORE, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 4, 1, 0, gb),
        fz_mem(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_STRIDE, 8, 32, 0, gb),
        fz_mem(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_STRIDE, 16, -(1LL << 40), 1LL << 45,
               (uint64_t)big),
        fz_mem(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_RANDOM, 16, 1, 0, (uint64_t)big),
        fz_mem(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_BROADCAST, 4, 1, 0, 4),
        fz_mem(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 2, 1, 3, 1),
        fz_mem(GP_OP_LOAD, GP_SPACE_TEXTURE, GP_PATTERN_UNIT, 4, 1, 0, gb),
        fz_mem(GP_OP_LOAD, GP_SPACE_CONSTANT, GP_PATTERN_BROADCAST, 4, 1, 0, 65536),
        fz_mem(GP_OP_LOAD, GP_SPACE_LOCAL, GP_PATTERN_UNIT, 8, 1, 0, 0),
        fz_mem(GP_OP_STORE, GP_SPACE_LOCAL, GP_PATTERN_UNIT, 8, 1, 0, 0)};
    gp_op_t shared[] = {fz_mem(GP_OP_LOAD, GP_SPACE_SHARED, GP_PATTERN_STRIDE, 4, 2, 0, 0),
                        fz_mem(GP_OP_STORE, GP_SPACE_SHARED, GP_PATTERN_UNIT, 8, 1, 0, 0),
                        fz_mem(GP_OP_LOAD, GP_SPACE_SHARED, GP_PATTERN_RANDOM, 16, 1, 0, 0),
                        fz_mem(GP_OP_ATOMIC, GP_SPACE_SHARED, GP_PATTERN_UNIT, 4, 1, 0, 0),
                        fz_op(GP_OP_BARRIER, 2, 1)};
    gp_op_t atomics[] = {fz_mem(GP_OP_ATOMIC, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 4, 1, 0, gb),
                         fz_mem(GP_OP_ATOMIC, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 8, 1, 0, gb),
                         fz_mem(GP_OP_ATOMIC, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 4, 1, 0, 4)};
    gp_op_t control[] = {fz_body(GP_OP_LOOP, 1e6, 3),
                         fz_mem(GP_OP_LOAD, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 4, 1, 0, gb),
                         fz_op(GP_OP_FP32, 8, 1),
                         fz_body(GP_OP_DIVERGE, 32, 1),
                         fz_op(GP_OP_INT, 3, 1),
                         fz_op(GP_OP_BARRIER, 1, 1)};
    gp_op_t deep[33];
    gp_op_t fp64[] = {fz_op(GP_OP_FP64, 10, 1)};
    gp_op_t tensor[] = {fz_op(GP_OP_TENSOR, 4096, 1)};
    gp_op_t async[] = {fz_mem(GP_OP_ASYNC_COPY, GP_SPACE_GLOBAL, GP_PATTERN_UNIT, 16, 1, 0, gb)};
    gp_op_t barrier[] = {fz_op(GP_OP_BARRIER, 1, 1)};
    gp_launch_t shapes[5];
    uint64_t bx = GP_MIN((uint64_t)d->max_block_x, (uint64_t)d->max_threads_per_block);
    uint64_t optin = d->shared_memory_per_block_optin_bytes;
    size_t s, t;
    uint32_t i;
    /* atomics: distinct, per warp, same address */
    atomics[1].access.atomic_scope = GP_ATOMIC_PER_WARP;
    atomics[2].access.atomic_scope = GP_ATOMIC_SAME;
    shared[3].access.atomic_scope = GP_ATOMIC_SAME;
    /* 32 nested loops whose trips multiply to 1e18 */
    for (i = 0; i < 32; i++)
        deep[i] = fz_body(GP_OP_LOOP, i == 0 ? big / 2147483648.0 : 2, 32 - i);
    deep[32] = fz_op(GP_OP_FP32, big, 1);

    shapes[0] = fz_launch(1000, 1, 1, 256, 32, 0);
    shapes[1] = fz_launch(1, 1, 1, 1, 0, 0);
    /* the largest grid and block the device allows */
    shapes[2] = fz_launch(d->max_grid_x, d->max_grid_y, d->max_grid_z, bx, 16, 0);
    shapes[3] = fz_launch((uint64_t)d->sm_count * d->max_blocks_per_sm + 1, 1, 1,
                          d->warp_size, d->max_registers_per_thread, optin);
    shapes[4] = fz_launch(d->sm_count, 1, 1, 128, 64, optin / 2 + 1);
    shapes[4].carveout_percent = 50;
    shapes[4].cache_pref = GP_CACHE_PREFER_L1;
    for (s = 0; s < GP_ARRAY_LEN(shapes); s++) {
        gp_occupancy_t occ;
        gp_err_t err;
        if (gp_arch_occupancy(arch, d, &shapes[s], &occ, &err) == 0)
            fz_check_occupancy(d, &shapes[s], &occ);
        else
            fz_check_error("occupancy", err.msg);
    }
    for (s = 0; s < GP_ARRAY_LEN(shapes); s++) {
        static const char *const names[] = {"alu", "memory", "shared", "atomics", "control",
                                            "deep", "fp64", "tensor", "async", "barrier",
                                            "empty"};
        const gp_op_t *lists[] = {alu, mem, shared, atomics, control, deep, fp64, tensor,
                                  async, barrier, NULL};
        const uint32_t lens[] = {GP_ARRAY_LEN(alu), GP_ARRAY_LEN(mem), GP_ARRAY_LEN(shared),
                                 GP_ARRAY_LEN(atomics), GP_ARRAY_LEN(control),
                                 GP_ARRAY_LEN(deep), 1, 1, 1, 1, 0};
        for (t = 0; t < GP_ARRAY_LEN(names); t++) {
            /* the biggest launches only with a few kinds of work: each is
               simulated in closed form anyway */
            if (s == 2 && t != 1 && t != 5 && t != 10)
                continue;
            fz_predict_launch(d, arch, names[t], &shapes[s], lists[t], lens[t]);
        }
    }
    for (i = 0; i < GP_TENSOR_TYPE_COUNT; i++) {
        tensor[0].tensor_type = i;
        fz_predict_launch(d, arch, "tensor", &shapes[0], tensor, 1);
    }
    fz_predict_copies(d, arch);
}

#endif /* GP_FUZZ_COMMON_H */
