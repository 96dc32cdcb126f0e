/*
 * test_graphs.c - state between launches and CUDA graphs, from the script
 * API to the prediction: what the L2 holds after sequences of launches and
 * copies (fits, LRU overflow, flush, two GPUs, concurrent kernels), graph
 * capture and replay (dependencies, host cost, rows per replay, capture
 * errors), and the memory a long replayed workload needs.
 */
#include "test_common.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "device.h"
#include "engine.h"
#include "script.h"
#include "workload.h"

#define MIB (1024.0 * 1024.0)

static gp_device_t g_h200, g_lru, g_graph_dev;
static const gp_arch_t *g_h200_arch, *g_graph_arch;
static char g_dir[64];

static int setup(void **state)
{
    gp_err_t err;
    (void)state;
    if (gp_device_open("h200-sxm", &g_h200, &g_h200_arch, &err) ||
        gp_device_open(GP_TEST_DATA "/devices/h200-graph-test.ini", &g_graph_dev, &g_graph_arch,
                       &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    /* the L2 by capacity alone: the H200 without the carried-share keys */
    g_lru = g_h200;
    g_lru.l2_carry_full_bytes = g_lru.l2_carry_none_bytes = 0;
    g_lru.launch_queued_us = g_lru.flush_first_touch_us = g_lru.l2_flush_dirty_fraction = 0;
    strcpy(g_dir, "/tmp/gp-test-graphs-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Evaluate src for dev with `devices` GPUs (0: not stated) and a memory cap
   (0: default). */
static int eval_src(const char *src, const gp_device_t *dev, uint32_t devices, uint64_t cap,
                    gp_workload_t *wl, gp_err_t *err)
{
    char path[256];
    FILE *f;
    gp_script_t *s;
    gp_script_opts_t o = {0, cap};
    int rc;
    snprintf(path, sizeof path, "%s/t.lua", g_dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(src, f);
    fclose(f);
    s = gp_script_open(path, &o, err);
    if (!s)
        return -1;
    rc = gp_script_set_devices(s, devices, err);
    if (rc == 0)
        rc = gp_script_eval(s, dev, NULL, 0, wl, err);
    gp_script_close(s);
    return rc;
}

/* Evaluate and predict src; fails the test on an error. */
static void predict_src(const char *src, const gp_device_t *dev, const gp_arch_t *arch,
                        uint32_t devices, gp_prediction_t *p)
{
    gp_workload_t wl;
    gp_err_t err;
    if (eval_src(src, dev, devices, 0, &wl, &err) || gp_predict(dev, arch, &wl, NULL, p, &err))
        fail_msg("%s", err.msg);
    gp_workload_free(&wl);
}

/* The script must fail with a message containing `want`. */
static void expect_error(const char *src, const char *want)
{
    gp_workload_t wl;
    gp_err_t err;
    if (eval_src(src, &g_h200, 0, 0, &wl, &err) == 0) {
        gp_workload_free(&wl);
        fail_msg("expected an error containing \"%s\"", want);
    }
    assert_contains(err.msg, want);
}

/* The last row's l2_warm_bytes in MiB. */
static double last_warm_mib(const gp_prediction_t *p)
{
    assert_true(p->n_cmds > 0);
    return p->cmds[p->n_cmds - 1].l2_warm_bytes / MIB;
}

/* Buffers a, b, c of `mib` MiB each and a kernel reading one. */
#define L2_PRELUDE                                                                          \
    "local mib = 1024 * 1024\n"                                                             \
    "local function buf(name, m) return gpuperf.buffer(name, m * mib) end\n"                \
    "local function read(b, stream, device)\n"                                              \
    "  gpuperf.launch{name = 'read_' .. b.name, grid = b.bytes / 4 / 256, block = 256,\n"   \
    "    regs = 16, stream = stream, device = device, work = {gpuperf.load{b}}}\n"          \
    "end\n"

/* ------------------------------------------------------------ L2 state */

static void test_l2_starts_cold_and_keeps_what_fits(void **state)
{
    gp_prediction_t p;
    (void)state;
    predict_src(L2_PRELUDE "local a = buf('a', 16)\nread(a)\nread(a)\n", &g_lru, g_h200_arch,
                0, &p);
    assert_int_equal(p.n_cmds, 2);
    assert_true(p.cmds[0].l2_warm_bytes == 0); /* a script starts cold */
    assert_float_equal(p.cmds[1].l2_warm_bytes / MIB, 16, 1e-9);
    gp_prediction_free(&p);
    /* a buffer larger than the L2 leaves the L2's capacity of it */
    predict_src(L2_PRELUDE "local a = buf('a', 100)\nread(a)\nread(a)\n", &g_lru, g_h200_arch,
                0, &p);
    assert_float_equal(last_warm_mib(&p), (double)g_lru.l2_bytes / MIB, 1e-9);
    gp_prediction_free(&p);
}

static void test_l2_lru_overflow(void **state)
{
    gp_prediction_t p;
    (void)state;
    /* 3 x 24 MiB on a 60 MiB L2: the least recently used (a) keeps 12 MiB */
    predict_src(L2_PRELUDE "local a, b, c = buf('a', 24), buf('b', 24), buf('c', 24)\n"
                           "read(a) read(b) read(c) read(a)\n",
                &g_lru, g_h200_arch, 0, &p);
    assert_float_equal(last_warm_mib(&p), 12, 1e-9);
    gp_prediction_free(&p);
    predict_src(L2_PRELUDE "local a, b, c = buf('a', 24), buf('b', 24), buf('c', 24)\n"
                           "read(a) read(b) read(c) read(c)\n",
                &g_lru, g_h200_arch, 0, &p);
    assert_float_equal(last_warm_mib(&p), 24, 1e-9);
    gp_prediction_free(&p);
    /* re-reading a makes it the most recent: then b is the one evicted */
    predict_src(L2_PRELUDE "local a, b, c = buf('a', 24), buf('b', 24), buf('c', 24)\n"
                           "read(a) read(b) read(a) read(c) read(b)\n",
                &g_lru, g_h200_arch, 0, &p);
    assert_float_equal(p.cmds[3].l2_warm_bytes / MIB, 0, 1e-9);  /* c: never read */
    assert_float_equal(last_warm_mib(&p), 12, 1e-9);             /* b: half left */
    gp_prediction_free(&p);
}

static void test_l2_flush(void **state)
{
    gp_prediction_t p;
    (void)state;
    predict_src(L2_PRELUDE "local a = buf('a', 16)\nread(a)\ngpuperf.flush_l2()\nread(a)\n",
                &g_lru, g_h200_arch, 0, &p);
    assert_int_equal(p.n_cmds, 3);
    assert_int_equal(p.cmds[1].type, GP_CMD_FLUSH_L2);
    assert_string_equal(p.cmds[1].name, "flush_l2");
    assert_true(p.cmds[1].start_us >= p.cmds[0].end_us); /* in stream order */
    assert_true(p.cmds[2].l2_warm_bytes == 0);
    gp_prediction_free(&p);
}

/* The benchmark's flush (a write of a scratch buffer larger than the L2):
   the launch issued behind it waits in the queue (launch_queued_us, not
   launch_latency_us) unless the host synchronised first; the first launch
   after it that touches memory waits flush_first_touch_us; the dirty
   flushed lines its reads push out are written back at
   dram_sustained_gbps, less those its own stores leave dirty in their
   place; flush_l2{clean = true} leaves no dirty lines. */
#define FLUSH_PRELUDE                                                                        \
    L2_PRELUDE "local function empty() gpuperf.launch{name = 'e', grid = 1, block = 32,\n"   \
               "  regs = 4, work = {}} end\n"                                                \
               "local function set(b) gpuperf.launch{name = 'set', grid = b.bytes / 4 / 256,\n" \
               "  block = 256, regs = 16, work = {gpuperf.store{b}}} end\n"                 \
               "local function scale(b) gpuperf.launch{name = 'scale', grid = b.bytes / 4 / 256,\n" \
               "  block = 256, regs = 16, work = {gpuperf.load{b}, gpuperf.store{b}}} end\n"

/* Predict `mib` MiB buffer a and `work` after a flush that writes its
   scratch (*dirty) and after one that reads it (*clean). */
static void after_flushes(int mib, const char *work, gp_prediction_t *dirty,
                          gp_prediction_t *clean)
{
    char src[2048];
    snprintf(src, sizeof src, FLUSH_PRELUDE "local a = buf('a', %d)\ngpuperf.flush_l2()\n%s",
             mib, work);
    predict_src(src, &g_h200, g_h200_arch, 0, dirty);
    snprintf(src, sizeof src,
             FLUSH_PRELUDE "local a = buf('a', %d)\ngpuperf.flush_l2{clean = true}\n%s", mib, work);
    predict_src(src, &g_h200, g_h200_arch, 0, clean);
}

static void test_flush_protocol(void **state)
{
    gp_prediction_t p, q;
    const gp_device_t *d = &g_h200;
    double lq = d->launch_queued_us, ll = d->launch_latency_us, ft = d->flush_first_touch_us;
    double dirty = d->l2_flush_dirty_fraction * (double)d->l2_bytes;
    double wb_us = dirty / (d->dram_sustained_gbps * 1e3);
    (void)state;
    assert_true(lq > 0 && lq < ll && ft > 0 && dirty > 0);
    /* queued behind the flush; after a synchronize, the host's latency again */
    predict_src(FLUSH_PRELUDE "empty()\n", d, g_h200_arch, 0, &p);
    predict_src(FLUSH_PRELUDE "gpuperf.flush_l2()\nempty()\n", d, g_h200_arch, 0, &q);
    assert_float_equal(q.cmds[1].start_us, lq, 1e-9);
    assert_float_equal(p.cmds[0].start_us, ll, 1e-9);
    assert_float_equal(q.cmds[1].time_us, p.cmds[0].time_us, 1e-9); /* touches no memory */
    gp_prediction_free(&p);
    gp_prediction_free(&q);
    predict_src(FLUSH_PRELUDE "gpuperf.flush_l2()\ngpuperf.synchronize()\nempty()\n", d,
                g_h200_arch, 0, &p);
    assert_float_equal(p.cmds[1].start_us, ll, 1e-9);
    gp_prediction_free(&p);
    /* a 128 MiB read pushes out every dirty flushed line: their write-back
       and the first touch are part of its time and traffic; after a clean
       flush only the first touch is; the next launch waits for neither */
    after_flushes(128, "read(a)\nread(a)\n", &p, &q);
    assert_float_equal(p.cmds[1].time_us - q.cmds[1].time_us, wb_us, 1e-4);
    assert_float_equal(p.cmds[1].dram_bytes - q.cmds[1].dram_bytes, dirty, 1e-3);
    assert_float_equal(p.cmds[2].time_us, q.cmds[2].time_us, 1e-9);
    gp_prediction_free(&p);
    predict_src(FLUSH_PRELUDE "local a = buf('a', 128)\nread(a)\n", d, g_h200_arch, 0, &p);
    assert_float_equal(q.cmds[1].time_us - p.cmds[0].time_us, ft, 1e-4);
    gp_prediction_free(&p);
    gp_prediction_free(&q);
    /* a read of 16 MiB pushes out its share of them */
    after_flushes(16, "read(a)\n", &p, &q);
    assert_float_equal(p.cmds[1].dram_bytes - q.cmds[1].dram_bytes,
                       dirty * 16 * MIB / (double)d->l2_bytes, 1e-3);
    gp_prediction_free(&p);
    gp_prediction_free(&q);
    /* stores leave as many dirty lines as they push out, in place or not:
       no write-back wait */
    after_flushes(128, "set(a)\n", &p, &q);
    assert_float_equal(p.cmds[1].time_us, q.cmds[1].time_us, 1e-9);
    gp_prediction_free(&p);
    gp_prediction_free(&q);
    after_flushes(128, "scale(a)\n", &p, &q);
    assert_float_equal(p.cmds[1].time_us, q.cmds[1].time_us, 1e-9);
    assert_true(p.cmds[1].writeback_bytes == 0);
    gp_prediction_free(&p);
    gp_prediction_free(&q);
    /* a device file without the keys: the flush is a statement about the
       cache alone */
    predict_src(FLUSH_PRELUDE "local a = buf('a', 128)\ngpuperf.flush_l2()\nread(a)\n", &g_lru,
                g_h200_arch, 0, &p);
    predict_src(FLUSH_PRELUDE "local a = buf('a', 128)\nread(a)\n", &g_lru, g_h200_arch, 0, &q);
    assert_float_equal(p.cmds[1].end_us, q.cmds[0].end_us, 1e-9);
    gp_prediction_free(&p);
    gp_prediction_free(&q);
    expect_error("gpuperf.flush_l2{clean = 1}\n", "clean");
    expect_error("gpuperf.flush_l2{dirty = true}\n", "dirty");
}

static void test_l2_two_gpus_separate(void **state)
{
    gp_prediction_t p;
    (void)state;
    predict_src(L2_PRELUDE "local a = buf('a', 16)\nread(a, nil, 0)\n"
                           "gpuperf.synchronize()\nread(a, nil, 1)\nread(a, nil, 0)\n"
                           "gpuperf.flush_l2{device = 1}\nread(a, nil, 0)\n",
                &g_lru, g_h200_arch, 2, &p);
    assert_int_equal(p.n_cmds, 5);
    assert_true(p.cmds[1].l2_warm_bytes == 0);               /* GPU 1 is cold */
    assert_float_equal(p.cmds[2].l2_warm_bytes / MIB, 16, 1e-9); /* GPU 0 kept it */
    assert_float_equal(p.cmds[4].l2_warm_bytes / MIB, 16, 1e-9); /* flushing 1 spares 0 */
    gp_prediction_free(&p);
}

/* The H200's carried share (l2_carry_*_bytes): a kernel reading 48 MiB once
   leaves (51.5 - 48) / 36 of it for the next; re-read in the kernel (4
   passes), all of it; a buffer read by one launch after another is all
   there from the third on (the second keeps what the first left and adds
   its own fresh bytes). */
static void test_l2_carried_share(void **state)
{
    gp_prediction_t p;
    double full = (double)g_h200.l2_carry_full_bytes, none = (double)g_h200.l2_carry_none_bytes;
    (void)state;
    assert_true(full > 0 && none > full);
    predict_src(L2_PRELUDE "local a = buf('a', 48)\nread(a)\nread(a)\n", &g_h200, g_h200_arch, 0,
                &p);
    assert_float_equal(last_warm_mib(&p), 48 * (none - 48 * MIB) / (none - full), 1e-6);
    gp_prediction_free(&p);
    predict_src(L2_PRELUDE "local a = buf('a', 48)\n"
                           "local function passes(b) gpuperf.launch{name = 'four', grid = b.bytes / 4 / 256,\n"
                           "  block = 256, regs = 16, work = {gpuperf.loop(4, {gpuperf.load{b}})}} end\n"
                           "passes(a)\nread(a)\n",
                &g_h200, g_h200_arch, 0, &p);
    assert_float_equal(last_warm_mib(&p), 48, 1e-9);
    gp_prediction_free(&p);
    predict_src(L2_PRELUDE "local a = buf('a', 24)\nread(a)\nread(a)\nread(a)\n", &g_h200,
                g_h200_arch, 0, &p);
    assert_true(p.cmds[1].l2_warm_bytes / MIB < 24 - 1);
    assert_float_equal(last_warm_mib(&p), 24, 1e-9);
    gp_prediction_free(&p);
}

static void test_l2_concurrent_kernels_share(void **state)
{
    gp_prediction_t p;
    (void)state;
    /* two small kernels side by side each find the state before either ran;
       the kernel after both finds both buffers */
    predict_src("local n = 66 * 256\n"
                "local a, b = gpuperf.buffer('a', 4 * n), gpuperf.buffer('b', 4 * n)\n"
                "local function slow(x, s) gpuperf.launch{name = x.name, grid = 66, block = 256,\n"
                "  regs = 16, stream = s, work = {gpuperf.load{x}, gpuperf.loop(10000,\n"
                "  gpuperf.fp32(4))}} end\n"
                "local s1, s2 = gpuperf.stream(), gpuperf.stream()\n"
                "slow(a, s1) slow(b, s2)\ngpuperf.synchronize()\n"
                "gpuperf.launch{name = 'both', grid = 66, block = 256, regs = 16,\n"
                "  work = {gpuperf.load{a}, gpuperf.load{b}}}\n",
                &g_h200, g_h200_arch, 0, &p);
    assert_int_equal(p.n_cmds, 3);
    assert_true(p.cmds[1].start_us < p.cmds[0].end_us); /* they overlap */
    assert_true(p.cmds[0].l2_warm_bytes == 0 && p.cmds[1].l2_warm_bytes == 0);
    assert_float_equal(p.cmds[2].l2_warm_bytes, 2 * 4 * 66 * 256, 1e-9);
    gp_prediction_free(&p);
}

static void test_l2_copies(void **state)
{
    gp_prediction_t p;
    (void)state;
    predict_src(L2_PRELUDE "local a, b = buf('a', 8), buf('b', 8)\n"
                           "gpuperf.copy{bytes = 8 * mib, kind = 'h2d', dst = a}\nread(a)\n"
                           "gpuperf.flush_l2()\n"
                           "gpuperf.copy{bytes = 4 * mib, kind = 'd2d', src = a, dst = b}\n"
                           "read(b)\nread(a)\n",
                &g_h200, g_h200_arch, 0, &p);
    assert_float_equal(p.cmds[1].l2_warm_bytes / MIB, 8, 1e-9);
    assert_float_equal(p.cmds[4].l2_warm_bytes / MIB, 4, 1e-9); /* what the copy wrote */
    assert_float_equal(p.cmds[5].l2_warm_bytes / MIB, 4, 1e-9); /* and read */
    gp_prediction_free(&p);
    expect_error("local a = gpuperf.buffer('a', 16)\n"
                 "gpuperf.copy{bytes = 32, kind = 'h2d', dst = a}\n",
                 "more than dst buffer 'a' holds");
    expect_error("local a = gpuperf.buffer('a', 16)\n"
                 "gpuperf.copy{bytes = 8, kind = 'd2h', dst = a}\n",
                 "a d2h copy writes host memory");
}

/* ------------------------------------------------------------- graphs */

/* 1000 launches of an empty one-block kernel, as stream launches or one
   graph. */
#define TINY                                                                                \
    "local k = gpuperf.kernel{name = 'tiny', grid = 1, block = 32, regs = 8,\n"             \
    "  work = {gpuperf.fp32(1)}}\n"

static void test_graph_of_tiny_launches(void **state)
{
    gp_prediction_t ps, pg;
    (void)state;
    predict_src(TINY "for i = 1, 1000 do gpuperf.launch(k) end\n", &g_graph_dev, g_graph_arch,
                0, &ps);
    predict_src(TINY "local g = gpuperf.graph(function ()\n"
                     "  for i = 1, 1000 do gpuperf.launch(k) end\nend)\n"
                     "gpuperf.launch_graph(g)\n",
                &g_graph_dev, g_graph_arch, 0, &pg);
    assert_int_equal(ps.n_cmds, 1000);
    assert_int_equal(pg.n_cmds, 1000);
    /* stream launches are host-bound at launch_overhead_us each; the graph
       pays graph_launch_us + graph_node_us per node */
    assert_true(ps.total_us > 1000 * g_graph_dev.launch_overhead_us);
    assert_true(pg.total_us < 1000 * g_graph_dev.graph_node_us + g_graph_dev.graph_launch_us +
                                  50);
    assert_true(pg.total_us < 0.4 * ps.total_us);
    /* rows keep program order and the captured line */
    assert_string_equal(pg.cmds[999].name, "tiny");
    assert_int_equal(pg.cmds[999].line, 4);
    assert_true(pg.cmds[999].graph_cmd == 999);
    gp_prediction_free(&ps);
    gp_prediction_free(&pg);
}

/* A kernel that waits for another starts kernel_dep_gap_us (stream order,
   events) or graph_dep_gap_us (kernel nodes of one replay) after it ends;
   independent work does not wait, and a replay's independent chains overlap
   until the GPU's release of one node per graph_node_us binds. */
#define CHAIN_KERNEL                                                                        \
    "local k = gpuperf.kernel{name = 'c', grid = 1, block = 32, regs = 8,\n"                \
    "  work = {gpuperf.loop(1000, {gpuperf.fp32(1)})}}\n"

static void test_dependency_gaps(void **state)
{
    gp_prediction_t p;
    const double kgap = g_h200.kernel_dep_gap_us, ggap = g_h200.graph_dep_gap_us;
    uint32_t i;
    (void)state;
    assert_true(kgap > 0 && ggap > 0);
    /* two streams: a chain of 3 in s1, one kernel alone in s2 */
    predict_src(CHAIN_KERNEL "local s1, s2 = gpuperf.stream(), gpuperf.stream()\n"
                             "for i = 1, 3 do gpuperf.launch(k, {stream = s1}) end\n"
                             "gpuperf.launch(k, {name = 'alone', stream = s2})\n",
                &g_h200, g_h200_arch, 0, &p);
    for (i = 1; i < 3; i++) /* the host is ahead: the gap alone separates them */
        assert_float_equal(p.cmds[i].start_us, p.cmds[i - 1].end_us + kgap, 1e-6);
    /* s2 waits for nothing: it starts one launch latency after its submission */
    assert_float_equal(p.cmds[3].start_us, p.cmds[3].submit_us + g_h200.launch_latency_us, 1e-6);
    gp_prediction_free(&p);
    /* an event carries the gap too */
    predict_src(CHAIN_KERNEL "local s1, s2 = gpuperf.stream(), gpuperf.stream()\n"
                             "local e = gpuperf.event()\n"
                             "gpuperf.launch(k, {stream = s1})\n"
                             "gpuperf.record(e, s1)\n"
                             "gpuperf.launch(k, {stream = s2, after = e})\n",
                &g_h200, g_h200_arch, 0, &p);
    assert_float_equal(p.cmds[1].start_us, p.cmds[0].end_us + kgap, 1e-6);
    gp_prediction_free(&p);
    /* a graph: a chain pays the graph gap; 8 chains of 20 overlap */
    predict_src(CHAIN_KERNEL "local s = {}\n"
                             "for b = 1, 8 do s[b] = gpuperf.stream() end\n"
                             "local g = gpuperf.graph(function ()\n"
                             "  for i = 1, 20 do\n"
                             "    for b = 1, 8 do gpuperf.launch(k, {stream = s[b]}) end\n"
                             "  end\n"
                             "end)\n"
                             "gpuperf.launch_graph(g)\n",
                &g_h200, g_h200_arch, 0, &p);
    assert_int_equal(p.n_cmds, 160);
    for (i = 8; i < 160; i++) /* node i follows node i - 8 of its chain */
        assert_true(p.cmds[i].start_us >= p.cmds[i - 8].end_us + ggap - 1e-6);
    assert_float_equal(p.cmds[8].start_us, p.cmds[0].end_us + ggap, 1e-6);
    /* the chains run side by side: the last one starts before the first ends */
    assert_true(p.cmds[7].start_us < p.cmds[0].end_us);
    /* and the whole takes about one chain, not eight */
    assert_true(p.cmds[159].end_us - p.cmds[0].start_us <
                2 * 20 * (p.cmds[0].end_us - p.cmds[0].start_us + ggap));
    gp_prediction_free(&p);
}

static void test_graph_dependencies_and_replays(void **state)
{
    gp_prediction_t p;
    uint32_t i;
    (void)state;
    /* a fork and join across two captured streams, replayed three times
       into one stream, then a launch after the replays */
    predict_src("local k = gpuperf.kernel{name = 'k', grid = 132, block = 256, regs = 16,\n"
                "  work = {gpuperf.loop(1000, gpuperf.fp32(4))}}\n"
                "local s1, s2 = gpuperf.stream(), gpuperf.stream()\n"
                "local e1, e2 = gpuperf.event(), gpuperf.event()\n"
                "local g = gpuperf.graph(function ()\n"
                "  gpuperf.launch(k, {name = 'a', stream = s1})\n"
                "  gpuperf.record(e1, s1)\n"
                "  gpuperf.launch(k, {name = 'b', stream = s1})\n"
                "  gpuperf.launch(k, {name = 'c', stream = s2, after = e1})\n"
                "  gpuperf.record(e2, s2)\n"
                "  gpuperf.launch(k, {name = 'd', stream = s1, after = e2})\n"
                "end, 'fork_join')\n"
                "local s = gpuperf.stream()\n"
                "for i = 1, 3 do g:launch{stream = s} end\n"
                "gpuperf.launch(k, {name = 'after', stream = s})\n",
                &g_graph_dev, g_graph_arch, 0, &p);
    assert_int_equal(p.n_cmds, 13);
    for (i = 0; i < 3; i++) {
        const gp_cmd_result_t *r = &p.cmds[4 * i];
        assert_string_equal(r[0].name, "a");
        assert_string_equal(r[3].name, "d");
        assert_true(r[1].start_us >= r[0].end_us - 1e-9); /* b after a (stream order) */
        assert_true(r[2].start_us >= r[0].end_us - 1e-9); /* c after e1 */
        assert_true(r[2].start_us < r[1].end_us);         /* b and c side by side */
        assert_true(r[3].start_us >= r[1].end_us - 1e-9); /* d after b and c */
        assert_true(r[3].start_us >= r[2].end_us - 1e-9);
        if (i > 0) /* a replay waits for the one before it in the stream */
            assert_true(r[0].start_us >= p.cmds[4 * i - 1].end_us - 1e-9);
    }
    assert_string_equal(p.cmds[12].name, "after");
    assert_true(p.cmds[12].start_us >= p.cmds[11].end_us - 1e-9);
    gp_prediction_free(&p);
}

static void test_graph_capture_is_not_run(void **state)
{
    gp_prediction_t p;
    (void)state;
    /* a graph never launched runs nothing; an empty graph is done at once */
    predict_src(TINY "local g = gpuperf.graph(function () gpuperf.launch(k) end)\n"
                     "local e = gpuperf.graph(function () end)\n"
                     "gpuperf.launch_graph(e)\ngpuperf.launch(k)\n",
                &g_graph_dev, g_graph_arch, 0, &p);
    assert_int_equal(p.n_cmds, 1);
    gp_prediction_free(&p);
}

static void test_graph_errors(void **state)
{
    (void)state;
    expect_error(TINY "gpuperf.graph(function () gpuperf.launch(k) gpuperf.synchronize() end)\n",
                 "the host cannot wait inside gpuperf.graph");
    expect_error(TINY "local e = gpuperf.event()\ngpuperf.record(e)\n"
                      "gpuperf.graph(function () gpuperf.launch(k, {after = e}) end)\n",
                 "must name an event recorded earlier in the same capture");
    expect_error(TINY "local g = gpuperf.graph(function () gpuperf.launch(k) end)\n"
                      "gpuperf.graph(function () gpuperf.launch_graph(g) end)\n",
                 "cannot be launched inside gpuperf.graph");
    expect_error(TINY "gpuperf.graph(function () gpuperf.graph(function () end) end)\n",
                 "inside another capture");
    expect_error(TINY "gpuperf.graph(42)\n", "a function that issues");
    expect_error(TINY "gpuperf.launch_graph(k)\n", "a graph (from gpuperf.graph())");
    expect_error(TINY "gpuperf.graph(function () error('boom') end)\n", "boom");
    expect_error(TINY "local g = gpuperf.graph(function () gpuperf.launch(k) end)\n"
                      "g:launch{strem = 1}\n",
                 "strem");
}

static void test_graph_multi_device_refused(void **state)
{
    gp_workload_t wl;
    gp_err_t err;
    (void)state;
    assert_int_not_equal(eval_src(TINY "gpuperf.graph(function ()\n"
                                       "  gpuperf.launch(k, {device = 0})\n"
                                       "  gpuperf.launch(k, {device = 1})\nend)\n",
                                  &g_h200, 2, 0, &wl, &err),
                         0);
    assert_contains(err.msg, "a graph runs on one device");
}

/* ------------------------------------------------------------- scale */

/* A decode-like loop: a graph of 400 launches over 4 buffers replayed 250
   times (100 000 launches). The script's memory is one capture plus a small
   record per replay (it fits a 4 MiB cap), and the simulation's pools stay
   far below a row per launch. */
static void test_replays_memory_per_launch(void **state)
{
    static const char src[] =
        "local bufs = {}\n"
        "for i = 1, 4 do bufs[i] = gpuperf.buffer('w' .. i, 2^20) end\n"
        "local ks = {}\n"
        "for i = 1, 4 do ks[i] = gpuperf.kernel{name = 'k' .. i, grid = 132, block = 128,\n"
        "  regs = 32, work = {gpuperf.load{bufs[i]}, gpuperf.fp32(8)}} end\n"
        "local g = gpuperf.graph(function ()\n"
        "  for j = 1, 400 do gpuperf.launch(ks[j % 4 + 1]) end\nend)\n"
        "for step = 1, 250 do gpuperf.launch_graph(g) end\n";
    gp_workload_t wl;
    gp_prediction_t p;
    gp_err_t err;
    (void)state;
    if (eval_src(src, &g_graph_dev, 0, 4u << 20, &wl, &err))
        fail_msg("%s", err.msg);
    if (gp_predict(&g_graph_dev, g_graph_arch, &wl, NULL, &p, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(p.n_cmds, 100000);
    /* the pools hold the work in flight: a few replays' worth at most */
    if (p.sim_peak_bytes > 4u << 20)
        fail_msg("the simulation's pools peaked at %llu bytes for 100000 launches",
                 (unsigned long long)p.sim_peak_bytes);
    /* what stays per launch is its row */
    assert_true(sizeof(gp_cmd_result_t) <= 256);
    assert_true(p.cmds[99999].end_us > p.cmds[0].end_us);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_l2_starts_cold_and_keeps_what_fits),
        cmocka_unit_test(test_l2_lru_overflow),
        cmocka_unit_test(test_l2_flush),
        cmocka_unit_test(test_flush_protocol),
        cmocka_unit_test(test_l2_two_gpus_separate),
        cmocka_unit_test(test_l2_carried_share),
        cmocka_unit_test(test_l2_concurrent_kernels_share),
        cmocka_unit_test(test_l2_copies),
        cmocka_unit_test(test_graph_of_tiny_launches),
        cmocka_unit_test(test_graph_dependencies_and_replays),
        cmocka_unit_test(test_dependency_gaps),
        cmocka_unit_test(test_graph_capture_is_not_run),
        cmocka_unit_test(test_graph_errors),
        cmocka_unit_test(test_graph_multi_device_refused),
        cmocka_unit_test(test_replays_memory_per_launch),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
