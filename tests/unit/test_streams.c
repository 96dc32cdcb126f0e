/*
 * test_streams.c - streams, events and several GPUs from the workload API to
 * the timeline: the device count and device = / peer = / after = of the
 * script front end and their errors, the seed's case studies
 * (scripts/seed/), the two-GPU validation script, and the Chrome trace that
 * `gpuperf predict --trace` writes.
 */
#include "test_common.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "device.h"
#include "engine.h"
#include "script.h"
#include "workload.h"

static gp_device_t g_h200, g_seed;
static const gp_arch_t *g_h200_arch, *g_seed_arch;
static char g_dir[64];

static int setup(void **state)
{
    gp_err_t err;
    (void)state;
    if (gp_device_open("h200-sxm", &g_h200, &g_h200_arch, &err) ||
        gp_device_open("seed-20sm", &g_seed, &g_seed_arch, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    strcpy(g_dir, "/tmp/gp-test-streams-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Write src to g_dir/name and run it for `devices` GPUs (0: not stated). */
static int eval_src(const char *name, const char *src, uint32_t devices, gp_workload_t *wl,
                    gp_err_t *err)
{
    char path[256];
    FILE *f;
    gp_script_t *s;
    int rc;
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(src, f);
    fclose(f);
    s = gp_script_open(path, NULL, err);
    if (!s)
        return -1;
    rc = gp_script_set_devices(s, devices, err);
    if (rc == 0)
        rc = gp_script_eval(s, &g_h200, NULL, 0, wl, err);
    gp_script_close(s);
    return rc;
}

/* The script must fail with a message containing `want`. */
static void expect_script_error(const char *src, uint32_t devices, const char *want)
{
    gp_workload_t wl;
    gp_err_t err;
    if (eval_src("bad.lua", src, devices, &wl, &err) == 0) {
        gp_workload_free(&wl);
        fail_msg("expected an error containing \"%s\"", want);
    }
    assert_contains(err.msg, want);
}

/* Run a script of the source tree on a device with -p parameters. */
static void run_script(const char *rel, const gp_device_t *dev, const gp_arch_t *arch,
                       uint32_t devices, const char *const *kv, gp_prediction_t *p)
{
    char path[1024];
    gp_param_kv_t params[8];
    char keys[8][64];
    size_t n = 0;
    gp_workload_t wl;
    gp_err_t err;
    gp_script_t *s;
    gp_engine_opts_t o = {1};
    snprintf(path, sizeof path, "%s/%s", GP_SOURCE_DIR, rel);
    for (; kv && kv[n]; n++) {
        const char *eq = strchr(kv[n], '=');
        snprintf(keys[n], sizeof keys[n], "%.*s", (int)(eq - kv[n]), kv[n]);
        params[n].key = keys[n];
        params[n].value = eq + 1;
        params[n].number = NULL;
    }
    s = gp_script_open(path, NULL, &err);
    if (!s || gp_script_set_devices(s, devices, &err) ||
        gp_script_eval(s, dev, params, n, &wl, &err))
        fail_msg("%s", err.msg);
    gp_script_close(s);
    if (gp_predict(dev, arch, &wl, &o, p, &err))
        fail_msg("%s", err.msg);
    gp_workload_free(&wl);
}

/* ------------------------------------------------------------ the API */

static void test_device_count_and_device_fields(void **state)
{
    static const char src[] =
        "assert(gpuperf.device_count == 2)\n"
        "local s = gpuperf.stream('on1')\n"
        "gpuperf.launch{ name = 'k', grid = 1, block = 32, regs = 8, device = 1, stream = s }\n"
        "gpuperf.launch{ name = 'k2', grid = 1, block = 32, regs = 8, stream = s }\n"
        "gpuperf.copy{ bytes = 4096, kind = 'p2p', device = 1 }\n"
        "gpuperf.copy{ bytes = 4096, kind = 'p2p' }\n"
        "gpuperf.launch{ name = 'k3', grid = 1, block = 32, regs = 8, device = 1 }\n"
        "gpuperf.synchronize()\n"
        "gpuperf.synchronize(nil, 1)\n"
        "gpuperf.record(gpuperf.event(), gpuperf.default_stream, 1)\n";
    gp_workload_t wl;
    gp_err_t err;
    (void)state;
    if (eval_src("devices.lua", src, 2, &wl, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(wl.n_devices, 2);
    assert_int_equal(wl.cmds[0].device, 1);
    assert_int_equal(wl.cmds[1].device, 1); /* the stream's device */
    assert_int_equal(wl.streams[1].device, 1);
    assert_int_equal(wl.streams[1].device_line, 3);
    assert_int_equal(wl.cmds[2].device, 1); /* p2p 1 -> 0 by default */
    assert_int_equal(wl.cmds[2].peer_device, 0);
    assert_int_equal(wl.cmds[3].device, 0); /* 0 -> 1 */
    assert_int_equal(wl.cmds[3].peer_device, 1);
    assert_int_equal(wl.cmds[4].device, 1); /* default stream of GPU 1 */
    assert_int_equal(wl.cmds[4].stream, 0);
    assert_int_equal(wl.cmds[5].type, GP_CMD_SYNC);
    assert_int_equal(wl.cmds[5].device, UINT32_MAX); /* every device */
    assert_int_equal(wl.cmds[6].device, 1);
    assert_int_equal(wl.cmds[6].stream, UINT32_MAX);
    assert_int_equal(wl.cmds[7].device, 1);
    gp_workload_free(&wl);
}

static void test_use_devices(void **state)
{
    static const char src[] = "assert(gpuperf.device_count == 1)\n"
                              "gpuperf.use_devices(3)\n"
                              "assert(gpuperf.device_count == 3)\n"
                              "gpuperf.launch{ grid = 1, block = 32, regs = 8, device = 2 }\n";
    gp_workload_t wl;
    gp_err_t err;
    (void)state;
    if (eval_src("use.lua", src, 0, &wl, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(wl.n_devices, 3);
    assert_int_equal(wl.cmds[0].device, 2);
    gp_workload_free(&wl);
    /* the command line's count, when it agrees, is fine */
    if (eval_src("use.lua", src + strlen("assert(gpuperf.device_count == 1)\n"), 3, &wl, &err))
        fail_msg("%s", err.msg);
    gp_workload_free(&wl);
    assert_int_equal(gp_script_set_devices(NULL, 2, &err), -1);
}

static void test_device_errors(void **state)
{
    (void)state;
    expect_script_error("gpuperf.use_devices(2)\n", 3,
                        "bad.lua:1: gpuperf.use_devices: the command line asks for 3 devices "
                        "(--gpus or NAME*N) and the script for 2; drop one of them");
    expect_script_error("gpuperf.use_devices(0)\n", 0, "bad.lua:1: gpuperf.use_devices: 'n'");
    expect_script_error("gpuperf.use_devices(65)\n", 0, "bad.lua:1: gpuperf.use_devices: 'n'");
    expect_script_error("gpuperf.use_devices()\n", 0, "takes one argument");
    expect_script_error("gpuperf.use_devices(2)\n"
                        "gpuperf.launch{ grid = 1, block = 32, regs = 8, device = 1 }\n"
                        "gpuperf.use_devices(1)\n",
                        0, "bad.lua:3: gpuperf.use_devices: 1 device, but line 2 already "
                           "targets device 1");
    expect_script_error("gpuperf.launch{ grid = 1, block = 32, regs = 8, device = 2 }\n", 2,
                        "bad.lua:1: launch 'kernel1': 'device' must be an integer from 0 to 1 "
                        "(gpuperf.device_count is 2), got 2");
    expect_script_error("gpuperf.launch{ grid = 1, block = 32, regs = 8, device = 0.5 }\n", 2,
                        "'device' must be an integer from 0 to 1");
    expect_script_error("gpuperf.launch{ grid = 1, block = 32, regs = 8, device = 1 }\n", 0,
                        "'device' must be 0 (gpuperf.device_count is 1), got 1");
    expect_script_error("local s = gpuperf.stream('x')\n"
                        "gpuperf.launch{ grid = 1, block = 32, regs = 8, stream = s }\n"
                        "gpuperf.copy{ bytes = 4, kind = 'h2d', stream = s, device = 1 }\n",
                        2, "bad.lua:3: gpuperf.copy: stream 'x' belongs to device 0 (its first "
                           "command is at line 2), not 1");
    expect_script_error("local s = gpuperf.stream('x')\n"
                        "gpuperf.copy{ bytes = 4, kind = 'h2d', stream = s, device = 1 }\n"
                        "gpuperf.record(gpuperf.event(), s, 0)\n",
                        2, "bad.lua:3: gpuperf.record: stream 'x' belongs to device 1");
    expect_script_error("gpuperf.copy{ bytes = 4, kind = 'p2p', device = 1, peer = 1 }\n", 2,
                        "a p2p copy needs a 'peer' device other than 'device' 1");
    expect_script_error("gpuperf.copy{ bytes = 4, kind = 'p2p', peer = 2 }\n", 2,
                        "'peer' must be an integer from 0 to 1");
    expect_script_error("gpuperf.synchronize(nil, 2)\n", 2, "gpuperf.synchronize: 'device'");
    expect_script_error("gpuperf.wait(gpuperf.default_stream, gpuperf.event(), 5)\n", 2,
                        "gpuperf.wait: 'device'");
}

static void test_after(void **state)
{
    static const char src[] =
        "local a, b = gpuperf.event('a'), gpuperf.event('b')\n"
        "local s = gpuperf.stream('s')\n"
        "gpuperf.launch{ grid = 1, block = 32, regs = 8, stream = s, after = {a, b} }\n"
        "gpuperf.copy{ bytes = 4, kind = 'h2d', stream = s, after = b }\n"
        "local k = gpuperf.kernel{ grid = 1, block = 32, regs = 8, after = a }\n"
        "gpuperf.launch(k, { stream = s })\n";
    gp_workload_t wl;
    gp_err_t err;
    (void)state;
    if (eval_src("after.lua", src, 0, &wl, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(wl.n_cmds, 7);
    assert_int_equal(wl.cmds[0].type, GP_CMD_WAIT);
    assert_int_equal(wl.cmds[0].event, 0);
    assert_int_equal(wl.cmds[0].stream, 1);
    assert_int_equal(wl.cmds[1].type, GP_CMD_WAIT);
    assert_int_equal(wl.cmds[1].event, 1);
    assert_int_equal(wl.cmds[2].type, GP_CMD_LAUNCH);
    assert_int_equal(wl.cmds[3].type, GP_CMD_WAIT);
    assert_int_equal(wl.cmds[3].event, 1);
    assert_int_equal(wl.cmds[4].type, GP_CMD_COPY);
    assert_int_equal(wl.cmds[5].type, GP_CMD_WAIT); /* from the template */
    assert_int_equal(wl.cmds[6].type, GP_CMD_LAUNCH);
    gp_workload_free(&wl);
    expect_script_error("gpuperf.launch{ grid = 1, block = 32, regs = 8, after = 5 }\n", 0,
                        "bad.lua:1: launch 'kernel1': 'after' must be an event or a list of "
                        "events (from gpuperf.event()), got 5");
    expect_script_error("gpuperf.launch{ grid = 1, block = 32, regs = 8, "
                        "after = {gpuperf.event(), 3} }\n",
                        0, "'after[2]' must be an event (from gpuperf.event()), got 3");
    expect_script_error("gpuperf.copy{ bytes = 4, kind = 'h2d', after = {x = gpuperf.event()} }\n",
                        0, "bad.lua:1: gpuperf.copy: 'after' must be an event or a list of events {e1, "
                        "e2, ...}, without other keys");
}

/* after = makes the launch wait for the event; the legacy default stream
   of one GPU does not hold back the other's. */
static void test_after_and_default_streams_in_time(void **state)
{
    static const char src[] =
        "local done = gpuperf.event('done')\n"
        "local s1, s2 = gpuperf.stream('s1'), gpuperf.stream('s2')\n"
        "local long = { gpuperf.loop(2^20, { gpuperf.fp32(1) }) }\n"
        "gpuperf.launch{ name = 'first', grid = 132, block = 256, regs = 16, stream = s1,"
        " work = long }\n"
        "gpuperf.record(done, s1)\n"
        "gpuperf.launch{ name = 'after', grid = 1, block = 32, regs = 8, stream = s2,"
        " after = done }\n"
        "gpuperf.launch{ name = 'free', grid = 1, block = 32, regs = 8, stream = s2 }\n"
        "gpuperf.launch{ name = 'gpu0', grid = 132, block = 256, regs = 16, work = long }\n"
        "gpuperf.launch{ name = 'gpu1', grid = 132, block = 256, regs = 16, work = long,"
        " device = 1 }\n";
    gp_workload_t wl;
    gp_prediction_t p;
    gp_err_t err;
    (void)state;
    if (eval_src("after_time.lua", src, 2, &wl, &err) ||
        gp_predict(&g_h200, g_h200_arch, &wl, NULL, &p, &err))
        fail_msg("%s", err.msg);
    assert_true(p.cmds[1].start_us >= p.cmds[0].end_us - 1e-6);
    assert_true(p.cmds[2].start_us >= p.cmds[1].end_us - 1e-6); /* stream order */
    /* GPU 0's default stream waits for its other streams; GPU 1's does not */
    assert_true(p.cmds[3].start_us >= p.cmds[2].end_us - 1e-6);
    assert_true(p.cmds[4].start_us < p.cmds[0].end_us);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

/* Predict src (one GPU); fails the test on an error. */
static void predict_src(const char *name, const char *src, gp_workload_t *wl, gp_prediction_t *p)
{
    gp_err_t err;
    if (eval_src(name, src, 0, wl, &err) || gp_predict(&g_h200, g_h200_arch, wl, NULL, p, &err))
        fail_msg("%s", err.msg);
}

/* gpuperf.elapsed: the script's time is the interval between two events, as
   cudaEventElapsedTime: after the host waited for a warm-up, a launch's
   latency and its own time; right behind a kernel still running, the
   dependency gap and its time; the whole run stays in run_us. */
static void test_elapsed(void **state)
{
    static const char head[] =
        "local x = gpuperf.buffer('x', 4 * 2^20)\n"
        "local k = gpuperf.kernel{ name = 'k', grid = 4096, block = 256, regs = 16,\n"
        "  work = { gpuperf.load{x}, gpuperf.fp32(4), gpuperf.store{x} } }\n"
        "local t0, t1 = gpuperf.event('t0'), gpuperf.event('t1')\n"
        "gpuperf.launch(k)\n";
    char src[1024];
    gp_workload_t wl;
    gp_prediction_t p;
    double kt;
    gp_err_t err;
    (void)state;
    /* the host waits for the warm-up, then times one launch */
    snprintf(src, sizeof src, "%sgpuperf.synchronize()\ngpuperf.record(t0)\ngpuperf.launch(k)\n"
                              "gpuperf.record(t1)\ngpuperf.elapsed(t0, t1)\n", head);
    predict_src("el1.lua", src, &wl, &p);
    assert_int_equal(wl.elapsed.line, 10);
    assert_string_equal(wl.elapsed.start_name, "t0");
    assert_int_equal(p.n_cmds, 2);
    kt = p.cmds[1].time_us;
    assert_true(fabs(p.total_us - (g_h200.launch_latency_us + kt)) < 1e-6);
    assert_true(fabs(p.run_us - p.cmds[1].end_us) < 1e-9);
    assert_true(p.run_us > p.total_us + p.cmds[0].time_us);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
    /* no wait: the timed launch queues behind the warm-up, t0 completes when
       the warm-up ends */
    snprintf(src, sizeof src, "%sgpuperf.record(t0)\ngpuperf.launch(k)\ngpuperf.record(t1)\n"
                              "gpuperf.elapsed(t0, t1)\n", head);
    predict_src("el2.lua", src, &wl, &p);
    assert_true(fabs(p.total_us - (p.cmds[1].end_us - p.cmds[0].end_us)) < 1e-6);
    assert_true(p.total_us < g_h200.launch_latency_us + kt);
    assert_true(p.total_us >= kt);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
    /* without gpuperf.elapsed the total is the whole run */
    predict_src("el3.lua", head, &wl, &p);
    assert_true(p.total_us == p.run_us);
    assert_int_equal(wl.elapsed.line, 0);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
    /* errors: at the script's line, what to do */
    expect_script_error("local a = gpuperf.event('a')\ngpuperf.elapsed(a, a)\n", 0,
                        "bad.lua:2: gpuperf.elapsed: start and stop are the same event");
    expect_script_error("local a, b = gpuperf.event(), gpuperf.event()\ngpuperf.elapsed(a, b)\n"
                        "gpuperf.elapsed(a, b)\n",
                        0, "bad.lua:3: gpuperf.elapsed: the script already reports the interval "
                           "of line 2");
    expect_script_error("local a = gpuperf.event()\ngpuperf.elapsed(a, 'b')\n", 0,
                        "'stop' must be an event (from gpuperf.event())");
    expect_script_error("local a, b = gpuperf.event(), gpuperf.event()\n"
                        "gpuperf.graph(function() gpuperf.elapsed(a, b) end)\n",
                        0, "bad.lua:2: gpuperf.elapsed: says what the script's time is, which a "
                           "graph cannot");
    snprintf(src, sizeof src, "%sgpuperf.record(t0)\ngpuperf.elapsed(t0, t1)\n", head);
    if (eval_src("el4.lua", src, 0, &wl, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(gp_predict(&g_h200, g_h200_arch, &wl, NULL, &p, &err), -1);
    assert_contains(err.msg, "el4.lua:7: gpuperf.elapsed: event 't1' is never recorded outside a "
                             "graph: record it with gpuperf.record(t1 [, stream]) after");
    gp_workload_free(&wl);
    /* a stop that completes before the start */
    snprintf(src, sizeof src, "%slocal s = gpuperf.stream('s')\ngpuperf.record(t1, s)\n"
                              "gpuperf.record(t0)\ngpuperf.elapsed(t0, t1)\n", head);
    if (eval_src("el5.lua", src, 0, &wl, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(gp_predict(&g_h200, g_h200_arch, &wl, NULL, &p, &err), -1);
    assert_contains(err.msg, "el5.lua:9: gpuperf.elapsed: event 't1' completes at");
    assert_contains(err.msg, "record the stop event after the commands to time");
    gp_workload_free(&wl);
}

/* ------------------------------------------------- the seed's case studies */

static void test_seed_two_kernels(void **state)
{
    static const char *const streams[] = {"mode=streams", NULL};
    static const char *const serial[] = {"mode=serial", NULL};
    gp_prediction_t p, q;
    (void)state;
    run_script("scripts/seed/two_kernels.lua", &g_seed, g_seed_arch, 0, streams, &p);
    assert_int_equal(p.n_cmds, 2);
    assert_string_equal(p.cmds[0].name, "A");
    assert_int_equal(p.cmds[0].occ.blocks_per_sm, 8);
    assert_int_equal(p.cmds[1].occ.blocks_per_sm, 2);
    assert_true(p.cmds[1].start_us < p.cmds[0].end_us); /* they overlap */
    assert_true(p.cmds[0].start_us < p.cmds[1].end_us);
    run_script("scripts/seed/two_kernels.lua", &g_seed, g_seed_arch, 0, serial, &q);
    assert_true(q.cmds[1].start_us >= q.cmds[0].end_us - 1e-6);
    assert_true(p.total_us <= q.total_us);
    gp_prediction_free(&q);
    gp_prediction_free(&p);
    /* on the H200 (132 SMs) the kernels do not even share SMs */
    run_script("scripts/seed/two_kernels.lua", &g_h200, g_h200_arch, 0, streams, &p);
    run_script("scripts/seed/two_kernels.lua", &g_h200, g_h200_arch, 0, serial, &q);
    assert_true(p.total_us < 0.6 * q.total_us);
    gp_prediction_free(&q);
    gp_prediction_free(&p);
}

/* Total time and the L2 hit rate of the first launch, blur_edge in a mode. */
static double blur_edge(const gp_device_t *dev, const gp_arch_t *arch, const char *mode,
                        double *hit)
{
    char m[32];
    const char *kv[] = {m, NULL};
    gp_prediction_t p;
    double t;
    snprintf(m, sizeof m, "mode=%s", mode);
    run_script("scripts/seed/blur_edge.lua", dev, arch, 0, kv, &p);
    t = p.total_us;
    *hit = p.cmds[0].l2_hit_rate;
    assert_true(*hit >= 0 && *hit <= 1);
    gp_prediction_free(&p);
    return t;
}

/* Streams gain nothing over serial (the halves share the SMs and DRAM and
   the stencil's reuse fits either way); the fused kernel, which moves half
   the bytes, wins. */
static void test_seed_blur_edge(void **state)
{
    const gp_device_t *devs[] = {&g_seed, &g_h200};
    const gp_arch_t *archs[] = {g_seed_arch, g_h200_arch};
    size_t i;
    (void)state;
    for (i = 0; i < 2; i++) {
        double h_serial, h_streams, h_fused;
        double serial = blur_edge(devs[i], archs[i], "serial", &h_serial);
        double streams = blur_edge(devs[i], archs[i], "streams", &h_streams);
        double fused = blur_edge(devs[i], archs[i], "fused", &h_fused);
        if (!(streams >= 0.99 * serial && streams <= 1.05 * serial))
            fail_msg("%s: streams %.1f us vs serial %.1f us", devs[i]->id, streams, serial);
        if (!(fused < 0.95 * serial))
            fail_msg("%s: fused %.1f us vs serial %.1f us", devs[i]->id, fused, serial);
        assert_true(fabs(h_streams - h_serial) < 0.02);
    }
}

/* The two-GPU script: the split triad runs on both GPUs at once, the gather
   adds a peer copy of half the result. */
static void test_multigpu_script(void **state)
{
    static const char *const one[] = {"case=triad1", NULL};
    static const char *const split[] = {"case=split", NULL};
    static const char *const gather[] = {"case=gather", NULL};
    gp_prediction_t a, b, c;
    double copy;
    (void)state;
    run_script("scripts/validation/multigpu.lua", &g_h200, g_h200_arch, 0, one, &a);
    run_script("scripts/validation/multigpu.lua", &g_h200, g_h200_arch, 2, split, &b);
    run_script("scripts/validation/multigpu.lua", &g_h200, g_h200_arch, 0, gather, &c);
    assert_int_equal(b.n_devices, 2);
    assert_int_equal(b.cmds[1].device, 1);
    assert_true(b.total_us < 0.55 * a.total_us);
    copy = g_h200.nvlink_latency_us + 4.0 * (1 << 27) / (g_h200.nvlink_bandwidth_gbps * 1e3);
    assert_true(fabs(c.total_us - (b.total_us + copy)) < 1);
    gp_prediction_free(&a);
    gp_prediction_free(&b);
    gp_prediction_free(&c);
}

/* ---------------------------------------------------------- the trace */

/* Run `gpuperf predict ... --trace FILE` and parse FILE. */
static cJSON *trace_of(const char *device, const char *script, const char *params)
{
    char cmd[4096], path[256], *text;
    size_t len;
    gp_err_t err;
    cJSON *doc;
    snprintf(path, sizeof path, "%s/trace.json", g_dir);
    snprintf(cmd, sizeof cmd, "'%s/gpuperf' predict --device %s '%s/%s' %s --trace '%s' >/dev/null",
             GP_BUILD_DIR, device, GP_SOURCE_DIR, script, params, path);
    if (system(cmd) != 0)
        fail_msg("failed: %s", cmd);
    if (gp_read_file(path, 64u << 20, &text, &len, &err))
        fail_msg("%s", err.msg);
    doc = cJSON_Parse(text);
    free(text);
    if (!doc)
        fail_msg("%s: not valid JSON", path);
    return doc;
}

/* A number field of an event (the test fails if absent). */
static double num(const cJSON *e, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, key);
    if (!cJSON_IsNumber(v))
        fail_msg("event lacks a number '%s'", key);
    return v ? v->valuedouble : 0;
}

/* Check the Trace Event Format structure; returns the X events' count and
   fills the [ts, ts + dur) spans of the events named a and b. */
static int check_trace(const cJSON *doc, uint32_t pids, const char *a, double *span_a,
                       const char *b, double *span_b)
{
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(doc, "traceEvents"), *e;
    int x = 0, counters = 0, process_names = 0, thread_names = 0;
    assert_true(cJSON_IsArray(ev));
    assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(doc, "displayTimeUnit")));
    cJSON_ArrayForEach(e, ev) {
        const cJSON *ph = cJSON_GetObjectItemCaseSensitive(e, "ph");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
        double pid = num(e, "pid");
        assert_true(cJSON_IsString(ph) && cJSON_IsString(name));
        assert_true(pid >= 0 && pid <= pids);
        if (strcmp(ph->valuestring, "X") == 0) {
            double ts = num(e, "ts"), dur = num(e, "dur");
            assert_true(ts >= 0 && dur >= 0);
            num(e, "tid");
            assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "cat")));
            assert_true(pid < pids);
            if (strcmp(name->valuestring, a) == 0) {
                span_a[0] = ts;
                span_a[1] = ts + dur;
            }
            if (b && strcmp(name->valuestring, b) == 0) {
                span_b[0] = ts;
                span_b[1] = ts + dur;
            }
            x++;
        } else if (strcmp(ph->valuestring, "C") == 0) {
            const cJSON *v;
            assert_true(num(e, "ts") >= 0);
            assert_true(cJSON_IsObject(args) && cJSON_GetArraySize(args) > 0);
            cJSON_ArrayForEach(v, args) assert_true(cJSON_IsNumber(v));
            counters++;
        } else if (strcmp(ph->valuestring, "M") == 0) {
            assert_true(cJSON_IsObject(args));
            if (strcmp(name->valuestring, "process_name") == 0 ||
                strcmp(name->valuestring, "thread_name") == 0) {
                assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(args, "name")));
                process_names += name->valuestring[0] == 'p';
                thread_names += name->valuestring[0] == 't';
            }
        } else if (strcmp(ph->valuestring, "i") == 0) {
            num(e, "ts");
        } else {
            fail_msg("unexpected event phase '%s'", ph->valuestring);
        }
    }
    assert_int_equal(process_names, pids + 1); /* the GPUs and the host */
    assert_true(thread_names >= (int)pids + 1);
    assert_true(counters > 0);
    return x;
}

static void test_trace_format(void **state)
{
    cJSON *doc;
    double a[2] = {-1, -1}, b[2] = {-1, -1};
    char listing[512];
    (void)state;
    doc = trace_of("seed-20sm", "scripts/seed/two_kernels.lua", "");
    assert_int_equal(check_trace(doc, 1, "A", a, "B", b), 2);
    assert_true(a[0] >= 0 && b[0] >= 0);
    assert_true(b[0] < a[1] && a[0] < b[1]); /* A and B overlap on the timeline */
    cJSON_Delete(doc);
    doc = trace_of("h200-sxm*2", "scripts/validation/multigpu.lua", "-p case=gather");
    assert_int_equal(check_trace(doc, 2, "memcpy_p2p", a, NULL, NULL), 3);
    assert_int_equal((int)num(cJSON_GetObjectItemCaseSensitive(doc, "otherData"),
                              "device_count"),
                     2);
    cJSON_Delete(doc);
    /* written atomically: nothing but the trace is left beside it */
    {
        FILE *f;
        snprintf(listing, sizeof listing, "ls -A '%s' | grep -v -e '\\.lua$' -e '^trace.json$'",
                 g_dir);
        f = popen(listing, "r");
        assert_non_null(f);
        assert_int_equal(fgetc(f), EOF);
        pclose(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_count_and_device_fields),
        cmocka_unit_test(test_use_devices),
        cmocka_unit_test(test_device_errors),
        cmocka_unit_test(test_after),
        cmocka_unit_test(test_after_and_default_streams_in_time),
        cmocka_unit_test(test_elapsed),
        cmocka_unit_test(test_seed_two_kernels),
        cmocka_unit_test(test_seed_blur_edge),
        cmocka_unit_test(test_multigpu_script),
        cmocka_unit_test(test_trace_format),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
