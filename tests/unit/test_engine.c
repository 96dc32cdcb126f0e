/*
 * test_engine.c - the dispatch simulation: waves and tails, launch overhead,
 * closed-form skipping of identical waves, streams, events, copies,
 * breadth-first placement, concurrency limits and impossible launches.
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
    assert_string_equal(gp_bound_name(p.cmds[0].bound), "launch");
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_waves_and_tails),
        cmocka_unit_test(test_launch_overhead),
        cmocka_unit_test(test_largest_grid_is_closed_form),
        cmocka_unit_test(test_breadth_first_placement),
        cmocka_unit_test(test_streams_overlap),
        cmocka_unit_test(test_default_stream_synchronises),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_copies),
        cmocka_unit_test(test_impossible_launch),
        cmocka_unit_test(test_empty_workload),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
