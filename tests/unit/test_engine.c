/*
 * test_engine.c - the dispatch simulation: waves and tails, launch overhead,
 * closed-form skipping of identical waves, streams, events, copies,
 * breadth-first placement, concurrency limits and impossible launches; and
 * kernels sharing a GPU: dispatch order, fragmentation, the hardware queue
 * of 2.x, shared L2 capacity and DRAM bandwidth, copies beside kernels, and
 * several GPUs.
 */
#include "test_common.h"

#include <math.h>

#include "device.h"
#include "engine.h"
#include "workload.h"

static gp_device_t g_dev;
static const gp_arch_t *g_arch;

static int setup(void **state)
{
    gp_err_t err;
    (void)state;
    if (gp_device_open("h200-sxm", &g_dev, &g_arch, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return 0;
}

/* A workload under construction. */
static void wl_init(gp_workload_t *wl, uint32_t streams)
{
    uint32_t i;
    memset(wl, 0, sizeof *wl);
    strcpy(wl->script, "test.lua");
    wl->n_streams = streams;
    wl->streams = calloc(streams, sizeof *wl->streams);
    for (i = 0; i < streams; i++)
        snprintf(wl->streams[i].name, sizeof wl->streams[i].name, "s%u", i);
    wl->n_devices = 1;
    wl->n_events = 4;
}

static gp_command_t *wl_push(gp_workload_t *wl, uint32_t type, uint32_t stream)
{
    gp_command_t *c;
    wl->cmds = realloc(wl->cmds, (wl->n_cmds + 1) * sizeof *wl->cmds);
    c = &wl->cmds[wl->n_cmds++];
    memset(c, 0, sizeof *c);
    c->type = type;
    c->stream = stream;
    c->line = wl->n_cmds;
    return c;
}

/* Launch of `blocks` blocks of `threads`, each thread `fma` dependent FMAs
   (ilp 4), with dynamic shared memory `dyn`. */
static void launch(gp_workload_t *wl, uint32_t stream, uint64_t blocks, uint32_t threads,
                   double fma, uint64_t dyn)
{
    gp_command_t *c = wl_push(wl, GP_CMD_LAUNCH, stream);
    gp_op_t *ops = calloc(2, sizeof *ops);
    uint32_t n = 0;
    char *name = malloc(16);
    snprintf(name, 16, "k%u", wl->n_cmds);
    if (fma > 0) {
        ops[0].kind = GP_OP_LOOP;
        ops[0].count = fma / 4;
        ops[0].body_len = 1;
        ops[1].kind = GP_OP_FP32;
        ops[1].count = 4;
        ops[1].ilp = 4;
        n = 2;
    }
    c->kernel.name = name;
    c->kernel.ops = ops;
    c->kernel.n_ops = n;
    c->kernel.launch.grid.x = blocks;
    c->kernel.launch.grid.y = c->kernel.launch.grid.z = 1;
    c->kernel.launch.block.x = threads;
    c->kernel.launch.block.y = c->kernel.launch.block.z = 1;
    c->kernel.launch.threads_per_block = threads;
    c->kernel.launch.regs_per_thread = 16;
    c->kernel.launch.dynamic_smem_bytes = dyn;
    c->kernel.launch.carveout_percent = -1;
    c->kernel.total_blocks = blocks;
}

static double predict_total(gp_workload_t *wl, gp_prediction_t *p)
{
    gp_err_t err;
    gp_engine_opts_t o = {1};
    if (gp_predict(&g_dev, g_arch, wl, &o, p, &err))
        fail_msg("%s", err.msg);
    return p->total_us;
}

/* Time of one kernel of `blocks` blocks pinned to one block per SM. */
static double one_per_sm(uint64_t blocks)
{
    gp_workload_t wl;
    gp_prediction_t p;
    double t;
    wl_init(&wl, 1);
    launch(&wl, 0, blocks, 256, 32768, 232448);
    t = predict_total(&wl, &p);
    assert_int_equal(p.cmds[0].occ.blocks_per_sm, 1);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
    return t;
}

static void test_waves_and_tails(void **state)
{
    double lat = g_dev.launch_latency_us;
    double t66 = one_per_sm(66), t132 = one_per_sm(132), t133 = one_per_sm(133);
    double t264 = one_per_sm(264), t265 = one_per_sm(265), t528 = one_per_sm(528);
    double wave = t132 - lat;
    (void)state;
    assert_true(wave > 1);
    assert_true(fabs(t66 - t132) < 0.01 * wave);          /* a partial wave costs a wave */
    assert_true(fabs((t133 - lat) - 2 * wave) < 0.01 * wave); /* one block more: a tail */
    assert_true(fabs(t264 - t133) < 0.01 * wave);
    assert_true(fabs((t265 - lat) - 3 * wave) < 0.01 * wave);
    assert_true(fabs((t528 - lat) - 4 * wave) < 0.01 * wave);
}

/* Time of one kernel of `blocks` blocks of `fma` FMAs per thread on device d,
   `dyn` bytes of dynamic shared memory each; *bound gets its bound. */
static double kernel_time_on(const gp_device_t *d, uint64_t blocks, double fma, uint64_t dyn,
                             uint32_t *bpsm, uint32_t *bound)
{
    gp_workload_t wl;
    gp_prediction_t p;
    gp_err_t err;
    gp_engine_opts_t o = {1};
    double t;
    wl_init(&wl, 1);
    launch(&wl, 0, blocks, 256, fma, dyn);
    if (gp_predict(d, g_arch, &wl, &o, &p, &err))
        fail_msg("%s", err.msg);
    t = p.total_us;
    *bpsm = p.cmds[0].occ.blocks_per_sm;
    *bound = p.cmds[0].bound;
    gp_prediction_free(&p);
    gp_workload_free(&wl);
    return t;
}

/* A block slot that will be refilled turns over no faster than
   block_turnaround_cycles; the last wave does not pay it (its exit is part of
   the launch latency); long blocks and full SMs do not see it. */
static void test_block_turnaround(void **state)
{
    gp_device_t none;
    double cyc_us = 1.0 / g_dev.core_clock_mhz, lat = g_dev.launch_latency_us;
    double t1, t64, n1, n64, l1, lnone, f, fnone;
    uint32_t sms = g_dev.sm_count, bpsm, bound;
    gp_device_t dev = g_dev, over;
    (void)state;
    /* the turnaround alone here (the slot overhead: below) */
    dev.block_slot_overhead_cycles = 0;
    none = dev;
    over = dev;
    assert_true(dev.block_turnaround_cycles > 2 * dev.block_launch_cycles);
    none.block_turnaround_cycles = 0;
    /* 4 FMAs per thread, one block per SM: a minimal block */
    t1 = kernel_time_on(&dev, sms, 4, 232448, &bpsm, &bound);
    assert_int_equal(bpsm, 1);
    t64 = kernel_time_on(&dev, 64ull * sms, 4, 232448, &bpsm, &bound);
    assert_string_equal(gp_bound_name(bound), "block_dispatch");
    n1 = kernel_time_on(&none, sms, 4, 232448, &bpsm, &bound);
    n64 = kernel_time_on(&none, 64ull * sms, 4, 232448, &bpsm, &bound);
    /* one wave: the same with or without the turnaround */
    assert_true(fabs(t1 - n1) < 1e-9);
    assert_true(t1 - lat < g_dev.block_turnaround_cycles * cyc_us);
    /* 63 waves more: 63 turnarounds */
    assert_true(fabs((t64 - t1) - 63 * g_dev.block_turnaround_cycles * cyc_us) <
                0.01 * (t64 - t1));
    /* without it, the block launch rate alone */
    assert_true(fabs((n64 - n1) - 63 * g_dev.block_launch_cycles * cyc_us) < 0.01 * (n64 - n1));
    /* long blocks (one wave of 32768 FMAs is far above the turnaround): unchanged */
    l1 = kernel_time_on(&dev, 4ull * sms, 32768, 232448, &bpsm, &bound);
    lnone = kernel_time_on(&none, 4ull * sms, 32768, 232448, &bpsm, &bound);
    assert_true(fabs(l1 - lnone) < 1e-9);
    assert_true(l1 - lat > 4 * g_dev.block_turnaround_cycles * cyc_us);
    /* eight blocks per SM start no faster than 8 x block_launch_cycles, above
       the turnaround: unchanged */
    f = kernel_time_on(&dev, 64ull * 8 * sms, 4, 0, &bpsm, &bound);
    assert_int_equal(bpsm, 8);
    fnone = kernel_time_on(&none, 64ull * 8 * sms, 4, 0, &bpsm, &bound);
    assert_true(fabs(f - fnone) < 1e-9);
    /* a slot overhead adds to each refilled block's chain (within the p-norm
       with its pipes): the three waves of long blocks that are followed by
       another pay at most it, the last none */
    over.block_slot_overhead_cycles = 250;
    f = kernel_time_on(&over, 4ull * sms, 32768, 232448, &bpsm, &bound);
    assert_true(f > l1);
    assert_true(f - l1 <= 3 * 250 * cyc_us * 1.001);
}

static void test_launch_overhead(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    int i;
    double t1, t100;
    (void)state;
    wl_init(&wl, 1);
    launch(&wl, 0, 1, 32, 0, 0);
    t1 = predict_total(&wl, &p);
    /* a null kernel takes the launch latency and next to nothing else */
    assert_true(t1 >= g_dev.launch_latency_us && t1 < g_dev.launch_latency_us + 0.5);
    assert_string_equal(gp_bound_name(p.cmds[0].bound), "block_dispatch");
    gp_prediction_free(&p);
    for (i = 1; i < 100; i++)
        launch(&wl, 0, 1, 32, 0, 0);
    t100 = predict_total(&wl, &p);
    /* back to back, the host's submission rate sets the pace */
    assert_true(fabs(t100 - (99 * g_dev.launch_overhead_us + t1)) < 0.5);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

static void test_largest_grid_is_closed_form(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p, q;
    double t_big, t_small, waves_big, waves_small;
    (void)state;
    wl_init(&wl, 1);
    launch(&wl, 0, 2147483647ull, 256, 64, 0);
    t_big = predict_total(&wl, &p);
    assert_true(p.events < 100); /* whole runs of waves are skipped */
    waves_big = p.cmds[0].waves;
    gp_workload_free(&wl);
    wl_init(&wl, 1);
    launch(&wl, 0, 1000ull * 1056, 256, 64, 0);
    t_small = predict_total(&wl, &q);
    waves_small = q.cmds[0].waves;
    /* the same per-wave time: totals scale with the number of waves */
    assert_true(fabs((t_big - g_dev.launch_latency_us) / ceil(waves_big) /
                         ((t_small - g_dev.launch_latency_us) / ceil(waves_small)) -
                     1) < 0.01);
    gp_prediction_free(&p);
    gp_prediction_free(&q);
    gp_workload_free(&wl);
}

static void test_breadth_first_placement(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    uint32_t i, max_busy = 0;
    (void)state;
    wl_init(&wl, 1);
    launch(&wl, 0, 40, 256, 4096, 0);
    predict_total(&wl, &p);
    for (i = 0; i < p.n_samples; i++)
        max_busy = GP_MAX(max_busy, p.samples[i].sms_busy);
    /* 40 blocks spread over 40 SMs, not packed 8 to an SM */
    assert_int_equal(max_busy, 40);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

static void test_streams_overlap(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    double serial, streams;
    int i;
    (void)state;
    wl_init(&wl, 9);
    for (i = 0; i < 8; i++)
        launch(&wl, 0, 16, 256, 65536, 0);
    serial = predict_total(&wl, &p);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
    wl_init(&wl, 9);
    for (i = 0; i < 8; i++)
        launch(&wl, (uint32_t)i + 1, 16, 256, 65536, 0);
    streams = predict_total(&wl, &p);
    /* 8 x 16 blocks fit the 132 SMs side by side: about one kernel plus
       the host's submissions, instead of eight kernels */
    assert_true(streams < serial / 4);
    assert_true(p.cmds[7].start_us < p.cmds[0].end_us);
    assert_true(fabs(p.cmds[7].submit_us - 7 * g_dev.launch_overhead_us) < 1e-6);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

static void test_default_stream_synchronises(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    (void)state;
    wl_init(&wl, 3);
    launch(&wl, 1, 16, 256, 65536, 0);
    launch(&wl, 0, 16, 256, 4096, 0); /* waits for stream 1 */
    launch(&wl, 2, 16, 256, 4096, 0); /* waits for the default stream */
    predict_total(&wl, &p);
    assert_true(p.cmds[1].start_us >= p.cmds[0].end_us - 1e-9);
    assert_true(p.cmds[2].start_us >= p.cmds[1].end_us - 1e-9);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

static void test_events(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    gp_command_t *c;
    (void)state;
    wl_init(&wl, 3);
    launch(&wl, 1, 16, 256, 65536, 0);
    c = wl_push(&wl, GP_CMD_RECORD, 1);
    c->event = 0;
    c = wl_push(&wl, GP_CMD_WAIT, 2);
    c->event = 0;
    launch(&wl, 2, 16, 256, 4096, 0); /* after the event */
    launch(&wl, 1, 16, 256, 4096, 0); /* stream order: after the first */
    predict_total(&wl, &p);
    assert_true(p.cmds[1].start_us >= p.cmds[0].end_us - 1e-9);
    assert_true(p.cmds[2].start_us >= p.cmds[0].end_us - 1e-9);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

static void test_copies(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    gp_command_t *c;
    double want;
    (void)state;
    wl_init(&wl, 1);
    c = wl_push(&wl, GP_CMD_COPY, 0);
    c->copy_kind = GP_COPY_H2D;
    c->copy_bytes = 1ull << 30;
    predict_total(&wl, &p);
    want = g_dev.pcie_latency_us + (double)(1ull << 30) / (g_dev.pcie_bandwidth_gbps * 1e3);
    assert_true(fabs(p.cmds[0].time_us - want) < 1e-6);
    assert_string_equal(p.cmds[0].name, "memcpy_h2d");
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

static void test_impossible_launch(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    gp_err_t err;
    (void)state;
    wl_init(&wl, 1);
    launch(&wl, 0, 10, 2048, 0, 0);
    assert_int_equal(gp_predict(&g_dev, g_arch, &wl, NULL, &p, &err), -1);
    assert_contains(err.msg, "test.lua:1: launch 'k1' cannot run on NVIDIA H200 SXM");
    assert_contains(err.msg, "2048 threads per block exceed the maximum of 1024");
    gp_workload_free(&wl);
    wl_init(&wl, 1);
    launch(&wl, 0, 2147483648ull, 256, 0, 0);
    assert_int_equal(gp_predict(&g_dev, g_arch, &wl, NULL, &p, &err), -1);
    assert_contains(err.msg, "grid.x = 2147483648 blocks is larger than the hardware allows");
    gp_workload_free(&wl);
    wl_init(&wl, 1);
    launch(&wl, 0, 1, 256, 0, 300000);
    assert_int_equal(gp_predict(&g_dev, g_arch, &wl, NULL, &p, &err), -1);
    assert_contains(err.msg, "shared memory");
    gp_workload_free(&wl);
}

static void test_empty_workload(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    (void)state;
    wl_init(&wl, 1);
    assert_true(predict_total(&wl, &p) == 0);
    assert_int_equal(p.n_cmds, 0);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

/* ------------------------------------------------- sharing the GPU, devices */

/* Open another device (the test fails if it does not load). */
static void open_dev(const char *name, gp_device_t *dev, const gp_arch_t **arch)
{
    gp_err_t err;
    if (gp_device_open(name, dev, arch, &err))
        fail_msg("%s", err.msg);
}

/* A buffer of `bytes`; returns its index. */
static uint32_t add_buffer(gp_workload_t *wl, uint64_t bytes)
{
    gp_buffer_t *b;
    wl->buffers = realloc(wl->buffers, (wl->n_buffers + 1) * sizeof *wl->buffers);
    b = &wl->buffers[wl->n_buffers];
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "buf%u", wl->n_buffers);
    b->bytes = bytes;
    return wl->n_buffers++;
}

/* A launch with its resources and ops (copied) on a stream and device. */
static gp_command_t *launch_ops(gp_workload_t *wl, uint32_t stream, uint32_t device,
                                uint64_t blocks, uint32_t threads, uint32_t regs, uint64_t smem,
                                const gp_op_t *ops, uint32_t n_ops)
{
    gp_command_t *c = wl_push(wl, GP_CMD_LAUNCH, stream);
    gp_op_t *copy = calloc(n_ops + 1, sizeof *copy);
    char *name = malloc(16);
    memcpy(copy, ops, n_ops * sizeof *ops);
    snprintf(name, 16, "k%u", wl->n_cmds);
    c->device = device;
    c->kernel.name = name;
    c->kernel.ops = copy;
    c->kernel.n_ops = n_ops;
    c->kernel.launch.grid.x = blocks;
    c->kernel.launch.grid.y = c->kernel.launch.grid.z = 1;
    c->kernel.launch.block.x = threads;
    c->kernel.launch.block.y = c->kernel.launch.block.z = 1;
    c->kernel.launch.threads_per_block = threads;
    c->kernel.launch.regs_per_thread = regs;
    c->kernel.launch.static_smem_bytes = smem;
    c->kernel.launch.carveout_percent = -1;
    c->kernel.total_blocks = blocks;
    return c;
}

/* `iters` dependent FMAs per thread (ilp 1). */
static uint32_t fma_ops(gp_op_t *ops, double iters)
{
    memset(ops, 0, 2 * sizeof *ops);
    ops[0].kind = GP_OP_LOOP;
    ops[0].count = iters;
    ops[0].body_len = 1;
    ops[1].kind = GP_OP_FP32;
    ops[1].count = 1;
    ops[1].ilp = 1;
    return 2;
}

/* A loop of `trips` over `per_trip` independent unit-stride 16-byte loads of
   buffer buf (footprint bytes). */
static uint32_t stream_ops(gp_op_t *ops, uint32_t buf, uint64_t footprint, double trips,
                           double per_trip)
{
    memset(ops, 0, 2 * sizeof *ops);
    ops[0].kind = GP_OP_LOOP;
    ops[0].count = trips;
    ops[0].body_len = 1;
    ops[1].kind = GP_OP_LOAD;
    ops[1].count = per_trip;
    ops[1].ilp = per_trip;
    ops[1].space = GP_SPACE_GLOBAL;
    ops[1].access.elem_bytes = 16;
    ops[1].access.pattern = GP_PATTERN_UNIT;
    ops[1].access.stride_elems = 1;
    ops[1].access.buffer = buf;
    ops[1].access.footprint_bytes = footprint;
    return 2;
}

/* Predict wl on a given device. */
static double predict_on(const gp_device_t *dev, const gp_arch_t *arch, gp_workload_t *wl,
                         gp_prediction_t *p)
{
    gp_err_t err;
    gp_engine_opts_t o = {1};
    if (gp_predict(dev, arch, wl, &o, p, &err))
        fail_msg("%s", err.msg);
    return p->total_us;
}

/* Most kernels running at once in a prediction's samples (device d). */
static uint32_t max_running(const gp_prediction_t *p, uint32_t d)
{
    uint32_t i, m = 0;
    for (i = 0; i < p->n_samples; i++)
        if (p->samples[i].device == d)
            m = GP_MAX(m, p->samples[i].kernels_running);
    return m;
}

/* Blocks of the earlier-launched kernel go first: a second kernel waits
   for SMs until the first has placed its last blocks. */
static void test_dispatch_order(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    (void)state;
    wl_init(&wl, 3);
    launch(&wl, 1, 264, 256, 32768, 232448); /* two waves, one block per SM */
    launch(&wl, 2, 132, 256, 32768, 232448); /* one wave, launched after */
    predict_total(&wl, &p);
    /* the second kernel gets SMs only when the first's second wave is done */
    assert_true(p.cmds[1].start_us >= p.cmds[0].end_us - 1e-6);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
    /* the other way round, the smaller kernel runs first */
    wl_init(&wl, 3);
    launch(&wl, 2, 132, 256, 32768, 232448);
    launch(&wl, 1, 264, 256, 32768, 232448);
    predict_total(&wl, &p);
    assert_true(p.cmds[1].start_us >= p.cmds[0].end_us - 1e-6);
    assert_true(p.cmds[0].start_us < 6);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

/* The seed's fragmentation example on seed-20sm: kernel A (256 threads, 32
   registers) spreads 2 blocks to an SM; kernel B (512 threads, 64 registers,
   8 KiB shared) would fit 2 per SM alone, but only 1 in what A leaves
   (49152 registers), so half of B's 40 blocks wait for A's to leave. */
static void test_fragmentation(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_workload_t wl;
    gp_prediction_t p;
    gp_op_t ops[2];
    uint32_t n = fma_ops(ops, 16384), i, both = 0;
    double b_alone;
    (void)state;
    open_dev("seed-20sm", &dev, &arch);
    wl_init(&wl, 3);
    launch_ops(&wl, 2, 0, 40, 512, 64, 8192, ops, n);
    b_alone = predict_on(&dev, arch, &wl, &p) - dev.launch_latency_us;
    assert_int_equal(p.cmds[0].occ.blocks_per_sm, 2);
    gp_prediction_free(&p);
    gp_workload_free(&wl);

    wl_init(&wl, 3);
    launch_ops(&wl, 1, 0, 40, 256, 32, 0, ops, n);
    launch_ops(&wl, 2, 0, 40, 512, 64, 8192, ops, n);
    predict_on(&dev, arch, &wl, &p);
    assert_int_equal(p.cmds[0].occ.blocks_per_sm, 8);
    assert_int_equal(p.cmds[1].occ.blocks_per_sm, 2);
    assert_string_equal(gp_limiter_name(p.cmds[1].occ.limiter), "registers");
    /* they overlap ... */
    assert_true(p.cmds[1].start_us < p.cmds[0].end_us);
    /* ... with one B block beside A's two on every SM: 16 + 16 of the 64
       warp slots, where B alone would take 32 */
    for (i = 0; i < p.n_samples; i++)
        if (p.samples[i].kernels_running == 2) {
            assert_int_equal(p.samples[i].sms_busy, 20);
            assert_true(fabs(p.samples[i].occupancy - 0.5) < 1e-9);
            both++;
        }
    assert_true(both > 0);
    /* ... so B runs its blocks in two rounds instead of one */
    assert_true(p.cmds[1].time_us > 1.3 * b_alone);
    assert_true(p.cmds[1].end_us > p.cmds[0].end_us + 0.3 * b_alone);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

/* Kernels running at once: none beside another on 1.x, 16 on Fermi, 32 on
   Kepler 3.5, 128 on Hopper (the plugins' max_concurrent_kernels). */
static void test_concurrency_limit_per_generation(void **state)
{
    static const struct {
        const char *device;
        uint32_t kernels, expect;
    } cases[] = {{"tesla-c1060", 8, 1},  {"geforce-gtx-480", 24, 16}, {"tesla-k20x", 40, 32},
                 {"h200-sxm", 140, 128}, {"h200-sxm", 20, 20}};
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(cases); i++) {
        gp_device_t dev;
        const gp_arch_t *arch;
        gp_workload_t wl;
        gp_prediction_t p;
        gp_op_t ops[2];
        uint32_t k, n = fma_ops(ops, 1 << 20);
        open_dev(cases[i].device, &dev, &arch);
        wl_init(&wl, cases[i].kernels + 1);
        for (k = 0; k < cases[i].kernels; k++)
            launch_ops(&wl, k + 1, 0, 1, 64, 16, 0, ops, n);
        predict_on(&dev, arch, &wl, &p);
        if (max_running(&p, 0) != cases[i].expect)
            fail_msg("%s: %u kernels at once, expected %u", cases[i].device, max_running(&p, 0),
                     cases[i].expect);
        gp_prediction_free(&p);
        gp_workload_free(&wl);
    }
}

/* On a GPU with one hardware queue (compute capability 2.x and 3.0: CUDA C
   Programming Guide, "Implicit Synchronization"; the "false dependencies" of
   Rennich, "CUDA C/C++ Streams and Concurrency", NVIDIA 2011), a launch that
   waits for the one before it in its stream holds back every later launch:
   issued depth first (A1, A2, B1) B1 waits for A1; breadth first (A1, B1,
   A2) it runs beside A1. */
static void test_single_hardware_queue(void **state)
{
    /* Fermi (2.0) has one hardware queue: B1, launched after A2 of another
       stream, waits behind A2, which waits for A1. Kepler 3.5 (Hyper-Q) has a
       queue per stream: B1 runs beside A1 whatever the order. */
    static const char *const devs[] = {"geforce-gtx-480", "tesla-k20x"};
    gp_op_t ops[2];
    uint32_t n = fma_ops(ops, 65536), order, d;
    (void)state;
    for (d = 0; d < 2; d++) {
        gp_device_t dev;
        const gp_arch_t *arch;
        gp_arch_info_t info;
        gp_err_t err;
        open_dev(devs[d], &dev, &arch);
        assert_int_equal(gp_arch_info(arch, &dev, &info, &err), 0);
        assert_int_equal(info.kernel_queues, d == 0 ? 1 : 0);
        for (order = 0; order < 2; order++) {
            gp_workload_t wl;
            gp_prediction_t p;
            uint32_t b1;
            wl_init(&wl, 3);
            launch_ops(&wl, 1, 0, 4, 256, 16, 0, ops, n); /* A1 */
            if (order == 0) {
                launch_ops(&wl, 1, 0, 4, 256, 16, 0, ops, n); /* A2 */
                launch_ops(&wl, 2, 0, 4, 256, 16, 0, ops, n); /* B1 */
                b1 = 2;
            } else {
                launch_ops(&wl, 2, 0, 4, 256, 16, 0, ops, n); /* B1 */
                launch_ops(&wl, 1, 0, 4, 256, 16, 0, ops, n); /* A2 */
                b1 = 1;
            }
            predict_on(&dev, arch, &wl, &p);
            if (d == 0 && order == 0)
                assert_true(p.cmds[b1].start_us >= p.cmds[0].end_us - 1e-6);
            else
                assert_true(p.cmds[b1].start_us < p.cmds[0].end_us / 2);
            gp_prediction_free(&p);
            gp_workload_free(&wl);
        }
    }
}

/* One kernel re-reading its own 40 MiB buffer 8 times on half the SMs
   (one 1024-thread block per SM). */
static void l2_reader(gp_workload_t *wl, uint32_t stream, uint64_t bytes)
{
    gp_op_t ops[2];
    uint32_t buf = add_buffer(wl, bytes);
    double trips = 8.0 * (double)bytes / (66.0 * 1024 * 16);
    uint32_t n = stream_ops(ops, buf, bytes, trips, 1);
    launch_ops(wl, stream, 0, 66, 1024, 16, 232448, ops, n);
    wl->cmds[wl->n_cmds - 1].kernel.launch.static_smem_bytes = 0;
    wl->cmds[wl->n_cmds - 1].kernel.launch.dynamic_smem_bytes = 232448;
}

/* Two kernels whose buffers fit in L2 alone but not together get lower hit
   rates side by side: each keeps a share of L2 in proportion to its buffer. */
static void test_l2_sharing(void **state)
{
    static const uint64_t sizes[] = {40u << 20, 20u << 20};
    gp_workload_t wl;
    gp_prediction_t p;
    double alone_hit, alone_dram;
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(sizes); i++) {
        wl_init(&wl, 3);
        l2_reader(&wl, 1, sizes[i]);
        predict_total(&wl, &p);
        alone_hit = p.cmds[0].l2_hit_rate;
        alone_dram = p.cmds[0].dram_bytes;
        assert_true(alone_hit > 0.8); /* read 8 times, fits: 7 of 8 reads hit */
        gp_prediction_free(&p);
        gp_workload_free(&wl);

        wl_init(&wl, 3);
        l2_reader(&wl, 1, sizes[i]);
        l2_reader(&wl, 2, sizes[i]);
        predict_total(&wl, &p);
        assert_true(p.cmds[1].start_us < p.cmds[0].end_us); /* side by side */
        if (sizes[i] == (40u << 20)) {
            /* 80 MiB together in a 60 MiB L2: 30 MiB each */
            assert_true(p.cmds[1].l2_hit_rate < alone_hit - 0.1);
            assert_true(p.cmds[1].dram_bytes > 1.5 * alone_dram);
        } else {
            /* 40 MiB together still fit: nothing changes */
            assert_true(fabs(p.cmds[1].l2_hit_rate - alone_hit) < 1e-6);
        }
        gp_prediction_free(&p);
        gp_workload_free(&wl);
    }
}

/* A kernel streaming 1 GiB on half the SMs (DRAM-bound), or computing. */
static void half_gpu(gp_workload_t *wl, uint32_t stream, int memory)
{
    gp_op_t ops[2];
    uint32_t n;
    gp_command_t *c;
    if (memory) {
        uint32_t buf = add_buffer(wl, 1u << 30);
        n = stream_ops(ops, buf, 1u << 30, (double)(1u << 30) / (66.0 * 1024 * 16 * 8), 8);
    } else {
        n = fma_ops(ops, 32768);
    }
    c = launch_ops(wl, stream, 0, 66, 1024, 16, 0, ops, n);
    /* one block an SM, with an L1 (124 KiB) that holds its misses in
       flight: a 227 KiB block leaves 28 KiB, whose lines bound the stream
       near half the DRAM's bandwidth (l1_miss_hold_dram_cycles) */
    c->kernel.launch.dynamic_smem_bytes = 120u << 10;
}

/* Concurrent kernels share DRAM bandwidth: two DRAM-bound half-GPU kernels
   gain nothing from running side by side (two compute-bound ones halve the
   time), and a DRAM-bound kernel beside a compute-bound one keeps nearly
   all the bandwidth (shares follow demand and add up to the whole). */
static void test_dram_sharing(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    double alone, serial, streams;
    int memory;
    (void)state;
    wl_init(&wl, 3);
    half_gpu(&wl, 1, 1);
    alone = predict_total(&wl, &p) - g_dev.launch_latency_us;
    assert_string_equal(gp_bound_name(p.cmds[0].bound), "dram");
    gp_prediction_free(&p);
    gp_workload_free(&wl);
    for (memory = 0; memory < 2; memory++) {
        wl_init(&wl, 3);
        half_gpu(&wl, 0, memory);
        half_gpu(&wl, 0, memory);
        serial = predict_total(&wl, &p);
        gp_prediction_free(&p);
        gp_workload_free(&wl);
        wl_init(&wl, 3);
        half_gpu(&wl, 1, memory);
        half_gpu(&wl, 2, memory);
        streams = predict_total(&wl, &p);
        assert_true(p.cmds[1].start_us < p.cmds[0].end_us);
        if (memory)
            assert_true(streams > 0.9 * serial);
        else
            assert_true(streams < 0.6 * serial);
        gp_prediction_free(&p);
        gp_workload_free(&wl);
    }
    wl_init(&wl, 3);
    half_gpu(&wl, 1, 0);
    half_gpu(&wl, 2, 1);
    predict_total(&wl, &p);
    assert_true(p.cmds[1].time_us < 1.15 * alone);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

/* A copy runs on its engine beside a kernel of another stream; in the
   kernel's stream it waits. Copies in one direction share the engine;
   opposite directions overlap. */
static void test_copy_overlaps_kernel(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    gp_command_t *c;
    double kernel, copy, t;
    uint32_t st;
    (void)state;
    for (st = 0; st < 2; st++) {
        wl_init(&wl, 3);
        launch(&wl, 1, 132, 256, 1 << 20, 232448);
        c = wl_push(&wl, GP_CMD_COPY, st ? 2 : 1);
        c->copy_kind = GP_COPY_H2D;
        c->copy_bytes = 64u << 20;
        t = predict_total(&wl, &p);
        kernel = p.cmds[0].time_us;
        copy = p.cmds[1].time_us;
        if (st)
            assert_true(t < 1.05 * GP_MAX(kernel, copy) + 10);
        else
            assert_true(p.cmds[1].start_us >= p.cmds[0].end_us - 1e-6);
        gp_prediction_free(&p);
        gp_workload_free(&wl);
    }
    wl_init(&wl, 3);
    c = wl_push(&wl, GP_CMD_COPY, 1);
    c->copy_kind = GP_COPY_H2D;
    c->copy_bytes = 64u << 20;
    c = wl_push(&wl, GP_CMD_COPY, 2);
    c->copy_kind = GP_COPY_H2D;
    c->copy_bytes = 64u << 20;
    c = wl_push(&wl, GP_CMD_COPY, 0); /* default stream: after both */
    c->copy_kind = GP_COPY_D2H;
    c->copy_bytes = 1;
    predict_total(&wl, &p);
    assert_true(p.cmds[1].start_us >= p.cmds[0].end_us - 1e-6); /* one H2D engine */
    assert_true(p.cmds[2].start_us >= p.cmds[1].end_us - 1e-6);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
    wl_init(&wl, 3);
    c = wl_push(&wl, GP_CMD_COPY, 1);
    c->copy_kind = GP_COPY_H2D;
    c->copy_bytes = 64u << 20;
    c = wl_push(&wl, GP_CMD_COPY, 2);
    c->copy_kind = GP_COPY_D2H;
    c->copy_bytes = 64u << 20;
    predict_total(&wl, &p);
    assert_true(p.cmds[1].start_us < p.cmds[0].end_us); /* both directions at once */
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

/* Several GPUs: launches on different devices run in parallel (each its own
   SMs, L2 and DRAM; each its own default stream); peer copies take the
   link, one copy per direction at a time; events order work across them. */
static void test_several_devices(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    gp_command_t *c;
    double one, two_streams, two_devices, want;
    (void)state;
    wl_init(&wl, 1);
    half_gpu(&wl, 0, 1);
    wl.cmds[0].kernel.launch.grid.x = wl.cmds[0].kernel.total_blocks = 132;
    one = predict_total(&wl, &p);
    gp_prediction_free(&p);
    gp_workload_free(&wl);

    wl_init(&wl, 3);
    half_gpu(&wl, 1, 1);
    half_gpu(&wl, 2, 1);
    wl.cmds[0].kernel.launch.grid.x = wl.cmds[0].kernel.total_blocks = 132;
    wl.cmds[1].kernel.launch.grid.x = wl.cmds[1].kernel.total_blocks = 132;
    two_streams = predict_total(&wl, &p);
    gp_prediction_free(&p);
    /* the same two kernels on two GPUs, each in its default stream */
    wl.n_devices = 2;
    wl.cmds[0].stream = wl.cmds[1].stream = 0;
    wl.cmds[1].device = 1;
    two_devices = predict_total(&wl, &p);
    assert_int_equal(p.n_devices, 2);
    assert_int_equal(p.cmds[1].device, 1);
    assert_true(p.cmds[1].start_us < p.cmds[0].end_us);
    assert_true(two_streams > 1.8 * (one - g_dev.launch_latency_us));
    assert_true(fabs(two_devices - (one + g_dev.launch_overhead_us)) < 1);
    assert_true(max_running(&p, 0) == 1 && max_running(&p, 1) == 1);
    gp_prediction_free(&p);
    gp_workload_free(&wl);

    /* peer copies: nvlink latency + bytes / bandwidth; 0->1 and 1->0 at
       once, two 0->1 one after the other */
    wl_init(&wl, 3);
    wl.n_devices = 2;
    c = wl_push(&wl, GP_CMD_COPY, 1);
    c->copy_kind = GP_COPY_P2P;
    c->copy_bytes = 1u << 30;
    c->peer_device = 1;
    c = wl_push(&wl, GP_CMD_COPY, 2);
    c->copy_kind = GP_COPY_P2P;
    c->copy_bytes = 1u << 30;
    c->device = 1;
    c->peer_device = 0;
    c = wl_push(&wl, GP_CMD_COPY, 0);
    c->copy_kind = GP_COPY_P2P;
    c->copy_bytes = 1u << 20;
    c->peer_device = 1;
    predict_total(&wl, &p);
    want = g_dev.nvlink_latency_us + (double)(1u << 30) / (g_dev.nvlink_bandwidth_gbps * 1e3);
    assert_true(fabs(p.cmds[0].time_us - want) < 1e-6);
    assert_true(p.cmds[1].start_us < p.cmds[0].end_us);
    assert_int_equal(p.cmds[1].peer_device, 0);
    assert_true(p.cmds[2].start_us >= p.cmds[0].end_us - 1e-6); /* link 0->1 busy */
    gp_prediction_free(&p);
    gp_workload_free(&wl);

    /* an event recorded on GPU 0 orders a launch on GPU 1 */
    wl_init(&wl, 3);
    wl.n_devices = 2;
    launch(&wl, 1, 132, 256, 65536, 0);
    c = wl_push(&wl, GP_CMD_RECORD, 1);
    c->event = 0;
    c = wl_push(&wl, GP_CMD_WAIT, 2);
    c->event = 0;
    c->device = 1;
    launch(&wl, 2, 132, 256, 4096, 0);
    wl.cmds[wl.n_cmds - 1].device = 1;
    launch(&wl, 0, 132, 256, 4096, 0); /* GPU 0's default stream: after stream 1 */
    c = wl_push(&wl, GP_CMD_SYNC, UINT32_MAX);
    c->device = UINT32_MAX;
    predict_total(&wl, &p);
    assert_true(p.cmds[1].start_us >= p.cmds[0].end_us - 1e-6);
    assert_true(p.cmds[2].start_us >= p.cmds[0].end_us - 1e-6);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

/* Identical waves on several GPUs at once are skipped in closed form too. */
static void test_several_devices_closed_form(void **state)
{
    gp_workload_t wl;
    gp_prediction_t p;
    double one;
    (void)state;
    wl_init(&wl, 2);
    launch(&wl, 0, 1000ull * 1056, 256, 64, 0);
    one = predict_total(&wl, &p);
    gp_prediction_free(&p);
    wl.n_devices = 2;
    launch(&wl, 1, 1000ull * 1056, 256, 64, 0);
    wl.cmds[1].device = 1;
    predict_total(&wl, &p);
    assert_true(p.events < 200);
    assert_true(fabs(p.cmds[0].end_us - one) < 1e-6 * one);
    assert_true(fabs(p.cmds[1].time_us - p.cmds[0].time_us) < 1e-6 * one);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

/* GPUs are independent: kernels of different lengths and wave periods on
   two GPUs end when each would alone (the joint skip keeps every GPU's
   phase). */
static void test_several_devices_independent(void **state)
{
    static const struct {
        uint64_t blocks;
        uint32_t threads;
        double fma;
    } k[] = {{777ull * 1056 + 5, 256, 64}, {313ull * 528 + 17, 512, 200}};
    gp_workload_t wl;
    gp_prediction_t p;
    double alone[2];
    int i;
    (void)state;
    for (i = 0; i < 2; i++) {
        wl_init(&wl, 1);
        launch(&wl, 0, k[i].blocks, k[i].threads, k[i].fma, 0);
        predict_total(&wl, &p);
        alone[i] = p.cmds[0].time_us;
        gp_prediction_free(&p);
        gp_workload_free(&wl);
    }
    wl_init(&wl, 1);
    wl.n_devices = 2;
    for (i = 0; i < 2; i++) {
        launch(&wl, 0, k[i].blocks, k[i].threads, k[i].fma, 0);
        wl.cmds[i].device = (uint32_t)i;
    }
    predict_total(&wl, &p);
    assert_true(p.events < 400);
    for (i = 0; i < 2; i++)
        if (fabs(p.cmds[i].time_us - alone[i]) > 1e-6 * alone[i])
            fail_msg("GPU %d: %.6f us beside the other, %.6f alone", i, p.cmds[i].time_us,
                     alone[i]);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_waves_and_tails),
        cmocka_unit_test(test_block_turnaround),
        cmocka_unit_test(test_launch_overhead),
        cmocka_unit_test(test_largest_grid_is_closed_form),
        cmocka_unit_test(test_breadth_first_placement),
        cmocka_unit_test(test_streams_overlap),
        cmocka_unit_test(test_default_stream_synchronises),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_copies),
        cmocka_unit_test(test_impossible_launch),
        cmocka_unit_test(test_empty_workload),
        cmocka_unit_test(test_dispatch_order),
        cmocka_unit_test(test_fragmentation),
        cmocka_unit_test(test_concurrency_limit_per_generation),
        cmocka_unit_test(test_single_hardware_queue),
        cmocka_unit_test(test_l2_sharing),
        cmocka_unit_test(test_dram_sharing),
        cmocka_unit_test(test_copy_overlaps_kernel),
        cmocka_unit_test(test_several_devices),
        cmocka_unit_test(test_several_devices_closed_form),
        cmocka_unit_test(test_several_devices_independent),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
