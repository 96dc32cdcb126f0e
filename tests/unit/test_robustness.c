/*
 * test_robustness.c - hostile and broken inputs through the library: device
 * texts, files that are not files, plugins that lie, launches at the limits
 * of the hardware, arithmetic at the edges, output files, and (skipped, with
 * the bug named) what still breaks in the engine, the model and op costs.
 * docs/robustness.md lists the cases and gpuperf's answers.
 */
#include "test_common.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "arch.h"
#include "device.h"
#include "engine.h"
#include "coalesce.h"
#include "opcost.h"
#include "script.h"
#include "workload.h"

#define ROBUST GP_TEST_DATA "/robust"

static char g_tmp[64];

/* A private temporary folder for the files a test makes. */
static int setup_tmp(void **state)
{
    (void)state;
    strcpy(g_tmp, "/tmp/gpuperf-robust.XXXXXX");
    return mkdtemp(g_tmp) ? 0 : -1;
}

/* Remove the temporary folder and everything in it. */
static int teardown_tmp(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
    return system(cmd) == 0 ? 0 : -1;
}

/* g_tmp/name */
static void tmp_path(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", g_tmp, name);
}

/* Write len bytes to g_tmp/name. */
static void write_tmp(const char *name, const char *data, size_t len)
{
    char path[256];
    FILE *f;
    tmp_path(path, sizeof path, name);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* The text of a file under tests/data/robust. */
static char *robust_text(const char *rel)
{
    char path[4096], *data = NULL;
    size_t len;
    gp_err_t err;
    snprintf(path, sizeof path, "%s/%s", ROBUST, rel);
    if (gp_read_file(path, 1 << 20, &data, &len, &err))
        fail_msg("%s", err.msg);
    return data;
}

/* Load device text; returns the rc, the message in err. */
static int load_text(const char *text, gp_device_t *dev, gp_err_t *err)
{
    const gp_arch_t *arch;
    err->msg[0] = '\0';
    return gp_device_load_text("t.ini", text, strlen(text), dev, &arch, err);
}

/* Replace the line starting with prefix in the minimal device and expect an
   error "t.ini:LINE: ...want..." at the line of the text `at` (the new line
   when at is NULL). */
static void expect_bad_at(const char *prefix, const char *line, const char *at,
                          const char *want)
{
    char *base = robust_text("devices/minimal-hopper.ini");
    char *text = tc_replace_line(base, prefix, line);
    char where[32];
    gp_device_t dev;
    gp_err_t err;
    if (load_text(text, &dev, &err) == 0)
        fail_msg("'%s' was accepted", line);
    snprintf(where, sizeof where, "t.ini:%d: ", tc_line_of(text, at ? at : line));
    assert_contains(err.msg, where);
    assert_contains(err.msg, want);
    free(text);
    free(base);
}

/* The same, with the error at the replaced line. */
static void expect_bad_line(const char *prefix, const char *line, const char *want)
{
    expect_bad_at(prefix, line, NULL, want);
}

/* ------------------------------------------------------------ device files */

static void test_device_text_is_not_read_past_its_length(void **state)
{
    char *base = robust_text("devices/minimal-hopper.ini");
    size_t len = strlen(base);
    char *exact = malloc(len), *blank = malloc(5);
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_err_t err;
    (void)state;
    /* no NUL after the text: ASan reports any read past it */
    memcpy(exact, base, len);
    assert_int_equal(gp_device_load_text("t.ini", exact, len, &dev, &arch, &err), 0);
    assert_int_equal(dev.sm_count, 132);
    memcpy(blank, " \t\r\n ", 5);
    assert_int_equal(gp_device_load_text("t.ini", blank, 5, &dev, &arch, &err), -1);
    assert_string_equal(err.msg, "t.ini:1: the device file is empty");
    free(exact);
    free(blank);
    free(base);
}

static void test_device_bom_and_crlf_load(void **state)
{
    char *base = robust_text("devices/minimal-hopper.ini");
    size_t len = strlen(base), i, n = 0;
    char *dos = malloc(2 * len + 4);
    gp_device_t dev;
    gp_err_t err;
    (void)state;
    memcpy(dos, "\xef\xbb\xbf", 3);
    n = 3;
    for (i = 0; i < len; i++) {
        if (base[i] == '\n')
            dos[n++] = '\r';
        dos[n++] = base[i];
    }
    dos[n] = '\0';
    assert_int_equal(load_text(dos, &dev, &err), 0);
    assert_string_equal(dev.name, "Minimal Hopper");
    assert_int_equal(dev.sm_count, 132);
    assert_true(dev.core_clock_mhz == 1980);
    free(dos);
    free(base);
}

static void test_device_nul_byte_is_reported_at_its_line(void **state)
{
    char *base = robust_text("devices/minimal-hopper.ini");
    char *text = tc_replace_line(base, "warp_size", "warp_size = 3#2");
    char path[256];
    size_t len = strlen(text);
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_err_t err;
    char want[64];
    (void)state;
    *strchr(text, '#') = '\0';
    write_tmp("nul.ini", text, len);
    tmp_path(path, sizeof path, "nul.ini");
    assert_int_equal(gp_device_load(path, &dev, &arch, &err), -1);
    snprintf(want, sizeof want, "nul.ini:%d: binary data (byte 0x00)",
             tc_line_of(base, "warp_size"));
    assert_contains(err.msg, want);
    free(text);
    free(base);
}

static void test_device_files_that_are_not_files(void **state)
{
    char dir[256], fifo[256], msg[512];
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_err_t err;
    (void)state;
    tmp_path(dir, sizeof dir, "folder.ini");
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(gp_device_open(dir, &dev, &arch, &err), -1);
    snprintf(msg, sizeof msg, "%s: is a directory, not a file", dir);
    assert_string_equal(err.msg, msg);
    /* a FIFO must not block the loader waiting for a writer */
    tmp_path(fifo, sizeof fifo, "pipe.ini");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    assert_int_equal(gp_device_open(fifo, &dev, &arch, &err), -1);
    assert_contains(err.msg, "not a regular file");
    assert_int_equal(gp_device_open("/dev/zero", &dev, &arch, &err), -1);
    assert_contains(err.msg, "/dev/zero: not a regular file");
    /* nor when it is found by name on the search path */
    setenv("GPUPERF_DEVICE_PATH", g_tmp, 1);
    assert_int_equal(gp_device_open("pipe", &dev, &arch, &err), -1);
    assert_contains(err.msg, "pipe.ini: not a regular file");
    setenv("GPUPERF_DEVICE_PATH", GP_SOURCE_DIR "/devices", 1);
    assert_int_equal(gp_device_open("/nonexistent/x.ini", &dev, &arch, &err), -1);
    assert_string_equal(err.msg, "/nonexistent/x.ini: cannot open: No such file or directory");
}

static void test_device_overlong_names_and_lines(void **state)
{
    char line[400];
    (void)state;
    snprintf(line, sizeof line, "[%070d]", 0);
    expect_bad_line("[sm]", line, "empty or over-long section name");
    expect_bad_line("[sm]", "[]", "empty or over-long section name");
    snprintf(line, sizeof line, "%064d = 1", 0);
    expect_bad_line("warp_size", line, "key name longer than 63 characters");
    snprintf(line, sizeof line, "name = %064d", 0);
    expect_bad_line("name", line, "[device] name longer than 63 characters");
    memset(line, '1', sizeof line);
    memcpy(line, "warp_size = ", 12);
    line[191] = '\0';
    expect_bad_line("warp_size", line, "line longer than 190 characters");
    expect_bad_line("name", "name = a\x7f" "b", "binary data (byte 0x7f)");
    expect_bad_line("name", "name =", "[device] name is empty");
}

static void test_device_nan_inf_and_bad_numbers(void **state)
{
    static const struct {
        const char *line, *want;
    } cases[] = {
        {"sm_count = nan", "not a number"},
        {"sm_count = NaN", "not a number"},
        {"sm_count = -nan", "not a number"},
        {"sm_count = inf", "not a number"},
        {"sm_count = -inf", "not a number"},
        {"sm_count = infinity", "not a number"},
        {"sm_count = 1e999", "number too large"},
        {"sm_count = 2^1024", "the value is not finite"},
        {"sm_count = 0/0", "division by zero"},
        {"sm_count = 1/0", "division by zero"},
        {"sm_count = 0x", "unexpected 'x'"},
        {"sm_count = 0xg", "unexpected 'x'"},
        {"sm_count = 0xffffffffffffffffffff", "number too large"},
        {"sm_count = 1e-400", "out of range"},
        {"sm_count = 1,32", "unexpected ','"},
        {"sm_count = 132 SMs", "unexpected 'S'"},
        {"sm_count = ((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))",
         "nested too deeply"},
        {"sm_count = 4294967297", "out of range"},
        {"sm_count = -1", "out of range"},
        {"sm_count = 13.2", "must be a whole number"},
        {"dram_bytes = 2^64", "out of range"},
        {"dram_cycles = 1e300", "out of range"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(cases); i++) {
        const char *key = strchr(cases[i].line, ' ');
        char prefix[64];
        snprintf(prefix, sizeof prefix, "%.*s", (int)(key - cases[i].line), cases[i].line);
        expect_bad_line(prefix, cases[i].line, cases[i].want);
    }
}

static void test_device_values_of_the_wrong_unit(void **state)
{
    (void)state;
    /* Hz instead of MHz, bytes/s instead of GB/s, KiB instead of bytes */
    expect_bad_line("core_clock_mhz", "core_clock_mhz = 1.98e9", "out of range (1 to 10000)");
    expect_bad_line("dram_bandwidth_gbps", "dram_bandwidth_gbps = 4.8e12",
                    "out of range (0.001 to 1e+06)");
    expect_bad_line("core_clock_mhz", "core_clock_mhz = 1.98 GHz", "unexpected 'G'");
    expect_bad_at("shared_memory_per_sm_bytes", "shared_memory_per_sm_bytes = 228",
                  "shared_memory_per_block_bytes",
                  "shared_memory_per_block_bytes 49152 exceeds shared_memory_per_sm_bytes 228");
    expect_bad_line("compute_capability", "compute_capability = 90", "write major.minor");
    expect_bad_line("compute_capability", "compute_capability = 9.0.0", "write major.minor");
}

static void test_device_arch_must_be_a_plugin_name(void **state)
{
    static const char *const paths[] = {"arch = ../../tmp/evil", "arch = /tmp/evil.so",
                                        "arch = hopper.so", "arch = ..\\hopper",
                                        "arch = ./hopper"};
    size_t i;
    char line[128];
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(paths); i++)
        expect_bad_line("arch", paths[i], "is a path; name a plugin instead");
    expect_bad_line("arch", "arch = Hopper", "a plugin name uses only a-z, 0-9, '-' and '_'");
    expect_bad_line("arch", "arch = hop per", "a plugin name uses only");
    expect_bad_line("arch", "arch = ..", "a plugin name uses only");
    snprintf(line, sizeof line, "arch = %070d", 0);
    expect_bad_line("arch", line, "[device] arch longer than 63 characters");
}

static void test_device_duplicates(void **state)
{
    char *base = robust_text("devices/minimal-hopper.ini");
    char *twice = malloc(2 * strlen(base) + 1);
    gp_device_t dev;
    gp_err_t err;
    (void)state;
    expect_bad_at("sm_count", "sm_count = 132\nsm_count = 13", "sm_count = 13\n",
                  "duplicate key 'sm_count' in [device] (first at line");
    expect_bad_at("sm_count", "sm_count = 132\nSM_COUNT = 132", "SM_COUNT",
                  "unknown key 'SM_COUNT' in [device]");
    strcpy(twice, base);
    strcat(twice, base);
    assert_int_equal(load_text(twice, &dev, &err), -1);
    assert_contains(err.msg, "duplicate section [device]");
    free(twice);
    free(base);
}

static void test_device_grid_too_large_to_count(void **state)
{
    char *base = robust_text("devices/minimal-hopper.ini");
    char *a = tc_replace_line(base, "max_grid_x", "max_grid_x = 4294967295");
    char *b = tc_replace_line(a, "max_grid_y", "max_grid_y = 4294967295");
    char *c = tc_replace_line(b, "max_grid_z", "max_grid_z = 4294967295");
    gp_device_t dev;
    gp_err_t err;
    char where[32];
    (void)state;
    assert_int_equal(load_text(a, &dev, &err), 0); /* 2^32 x 2^16 x 2^16 is fine */
    assert_int_equal(load_text(c, &dev, &err), -1);
    snprintf(where, sizeof where, "t.ini:%d: ", tc_line_of(c, "max_grid_z"));
    assert_contains(err.msg, where);
    assert_contains(err.msg, "is more than gpuperf counts (2^64)");
    free(a);
    free(b);
    free(c);
    free(base);
}

/* ----------------------------------------------------------------- plugins */

static void test_plugin_files_that_are_not_files(void **state)
{
    char fifo[256], msg[512];
    gp_arch_t a;
    gp_err_t err;
    (void)state;
    tmp_path(fifo, sizeof fifo, "fifo.so");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    assert_int_equal(gp_arch_open_file(fifo, &a, &err), -1);
    snprintf(msg, sizeof msg, "%s: not a loadable plugin: not a regular file", fifo);
    assert_string_equal(err.msg, msg);
    assert_int_equal(gp_arch_open_file(g_tmp, &a, &err), -1);
    assert_contains(err.msg, "not a loadable plugin: not a regular file");
    assert_int_equal(gp_arch_open_file("/dev/null", &a, &err), -1);
    assert_contains(err.msg, "/dev/null: not a loadable plugin");
}

/* Count what gp_arch_scan visits. */
typedef struct scan_count {
    int ok, bad, hopper;
} scan_count_t;

static void count_plugin(void *ud, const char *path, const gp_arch_t *a, const char *error)
{
    scan_count_t *c = ud;
    (void)path;
    if (a) {
        c->ok++;
        c->hopper += strcmp(a->plugin->name, "hopper") == 0;
    } else {
        assert_non_null(error);
        assert_true(strstr(error, path) != NULL);
        c->bad++;
    }
}

static void test_broken_plugin_first_on_the_path(void **state)
{
    char dir[256], bad[256], fifo[256], env[4096];
    const char *junk = "\x7f" "ELF not really";
    const gp_arch_t *a;
    gp_err_t err;
    scan_count_t c = {0, 0, 0};
    (void)state;
    /* a broken hopper.so, a FIFO and a directory named like plugins come first */
    tmp_path(dir, sizeof dir, "plugins");
    assert_int_equal(mkdir(dir, 0755), 0);
    write_tmp("plugins/hopper.so", junk, strlen(junk));
    tmp_path(bad, sizeof bad, "plugins/dir.so");
    assert_int_equal(mkdir(bad, 0755), 0);
    tmp_path(fifo, sizeof fifo, "plugins/pipe.so");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    snprintf(env, sizeof env, "%s:%s", dir, GP_BUILD_PLUGIN_DIR);
    setenv("GPUPERF_PLUGIN_PATH", env, 1);
    gp_arch_unload_all();
    a = gp_arch_get("hopper", &err);
    assert_non_null(a);
    assert_string_equal(a->plugin->name, "hopper");
    assert_contains(a->path, GP_BUILD_PLUGIN_DIR);
    gp_arch_scan(count_plugin, &c);
    assert_int_equal(c.bad, 3);
    assert_int_equal(c.hopper, 1);
    assert_true(c.ok >= 4);
    /* only broken ones: the error names the file and why */
    setenv("GPUPERF_PLUGIN_PATH", dir, 1);
    gp_arch_unload_all();
    assert_null(gp_arch_get("pipe", &err));
    assert_contains(err.msg, "plugin 'pipe' did not load: ");
    assert_contains(err.msg, "not a regular file");
    setenv("GPUPERF_PLUGIN_PATH", GP_BUILD_PLUGIN_DIR, 1);
    gp_arch_unload_all();
}

/* The evil device (tests/plugins/evil.c) in misbehaviour `mode`. */
static int load_evil(int mode, gp_device_t *dev, const gp_arch_t **arch, gp_err_t *err)
{
    char *base = robust_text("devices/evil.ini");
    char line[32];
    char *text;
    int rc;
    snprintf(line, sizeof line, "mode = %d", mode);
    text = tc_replace_line(base, "mode", line);
    rc = gp_device_load_text("evil.ini", text, strlen(text), dev, arch, err);
    free(text);
    free(base);
    return rc;
}

/* A workload of one small launch with a load and some fp32. */
static void small_workload(gp_workload_t *wl, gp_op_t *ops, gp_stream_t *st, gp_command_t *c)
{
    memset(wl, 0, sizeof *wl);
    memset(st, 0, sizeof *st);
    memset(c, 0, sizeof *c);
    memset(ops, 0, 2 * sizeof *ops);
    strcpy(wl->script, "small.lua");
    strcpy(st->name, "default");
    ops[0].kind = GP_OP_LOAD;
    ops[0].count = 1;
    ops[0].ilp = 1;
    ops[0].access.elem_bytes = 4;
    ops[0].access.footprint_bytes = 1 << 20;
    ops[0].access.buffer = UINT32_MAX;
    ops[1].kind = GP_OP_FP32;
    ops[1].count = 8;
    ops[1].ilp = 1;
    c->type = GP_CMD_LAUNCH;
    c->line = 3;
    c->kernel.name = "k";
    c->kernel.ops = ops;
    c->kernel.n_ops = 2;
    c->kernel.launch.grid.x = c->kernel.launch.grid.y = c->kernel.launch.grid.z = 1;
    c->kernel.launch.grid.x = 1000;
    c->kernel.launch.block.x = 256;
    c->kernel.launch.block.y = c->kernel.launch.block.z = 1;
    c->kernel.launch.threads_per_block = 256;
    c->kernel.launch.regs_per_thread = 32;
    c->kernel.launch.carveout_percent = -1;
    c->kernel.total_blocks = 1000;
    wl->streams = st;
    wl->n_streams = 1;
    wl->n_devices = 1;
    wl->cmds = c;
    wl->n_cmds = 1;
}

static void test_lying_plugin_is_never_trusted(void **state)
{
    static const char *const want[] = {
        NULL,
        "plugin 'evil' (occupancy): failed without a reason",
        "plugin 'evil' (occupancy) returned an impossible result: 1000000 blocks",
        "plugin 'evil' (occupancy) returned an impossible result: 8 blocks",
        "plugin 'evil' (occupancy) returned an impossible result: 8 blocks, occupancy -0.5",
        "op_cost returned a negative or non-finite latency or traffic for the op at line 0",
        "op_cost returned -4 cycles on pipe 1",
        "op_cost returned a negative or non-finite latency or traffic",
        "plugin 'evil' (block_cost) for kernel 'k': line 0: evil refuses this op",
        "plugin 'evil' (block_cost) returned a block time of 0 cycles for kernel 'k'",
        "plugin 'evil' (block_cost) returned a block time of inf cycles",
        "plugin 'evil' (block_cost) returned a block time of nan cycles",
        "plugin 'evil' (block_cost) returned latency_cycles = nan for kernel 'k'",
        "plugin 'evil' (block_cost) returned dram_bytes = -1 for kernel 'k'",
        "plugin 'evil' (block_cost) returned bound 99",
        NULL, /* 15: behaves */
        NULL, /* refused when the device loads */
        "plugin 'evil' (block_cost) for kernel 'k': line 0: yyyy",
        "launch 'k' cannot run on Evil Card: xxxx",
    };
    gp_workload_t wl;
    gp_op_t ops[2];
    gp_stream_t st;
    gp_command_t c;
    gp_prediction_t pred;
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_err_t err;
    int mode;
    (void)state;
    setenv("GPUPERF_PLUGIN_PATH", GP_TEST_PLUGIN_DIR ":" GP_BUILD_PLUGIN_DIR, 1);
    gp_arch_unload_all();
    small_workload(&wl, ops, &st, &c);
    for (mode = 0; mode < (int)GP_ARRAY_LEN(want); mode++) {
        if (mode == 16) {
            assert_int_equal(load_evil(mode, &dev, &arch, &err), -1);
            assert_string_equal(err.msg, "evil.ini:1: plugin 'evil' rejects this device: evil "
                                         "rejects every device in mode 16");
            continue;
        }
        assert_int_equal(load_evil(mode, &dev, &arch, &err), 0);
        err.msg[0] = '\0';
        if (!want[mode]) {
            assert_int_equal(gp_predict(&dev, arch, &wl, NULL, &pred, &err), 0);
            assert_true(isfinite(pred.total_us) && pred.total_us > 0);
            gp_prediction_free(&pred);
            continue;
        }
        if (gp_predict(&dev, arch, &wl, NULL, &pred, &err) == 0)
            fail_msg("mode %d: a bad plugin result was used", mode);
        assert_contains(err.msg, want[mode]);
        assert_true(strlen(err.msg) < sizeof err.msg); /* a message without NUL is cut */
    }
    setenv("GPUPERF_PLUGIN_PATH", GP_BUILD_PLUGIN_DIR, 1);
    gp_arch_unload_all();
}

/* ---------------------------------------------------------------- scripts */

/* Run a script text with limits; returns the rc. */
static int run_script(const char *name, const char *text, uint64_t budget, uint64_t mem,
                      gp_err_t *err)
{
    gp_script_opts_t o = {budget, mem};
    gp_workload_t wl;
    gp_device_t dev;
    const gp_arch_t *arch;
    char path[256];
    int rc;
    assert_int_equal(gp_device_open("h200-sxm", &dev, &arch, err), 0);
    write_tmp(name, text, strlen(text));
    tmp_path(path, sizeof path, name);
    rc = gp_script_run(path, &o, &dev, NULL, 0, &wl, err);
    if (rc == 0)
        gp_workload_free(&wl);
    return rc;
}

static void test_costly_string_calls_run_out_of_budget(void **state)
{
    static const char *const scripts[] = {
        /* each call is allowed, but a loop of them must not run for hours */
        "local s = string.rep('a', 10000)\nfor i = 1, 1e9 do string.find(s, '.-b') end\n",
        "local s = string.rep('a', 100000)\nlocal p = string.rep('a', 9000) .. 'b'\n"
        "for i = 1, 1e9 do string.find(s, p, 1, true) end\n",
        "local s = string.rep('a', 3000)\nfor i = 1, 1e9 do s:match('(.-)%1b') end\n",
        "local s = string.rep('a', 5000)\nfor i = 1, 1e9 do for w in s:gmatch('a-b') do end end\n",
        "local s = string.rep('(', 2000)\nfor i = 1, 1e9 do s:gsub('%b()', '') end\n",
    };
    size_t i;
    gp_err_t err;
    (void)state;
    /* the budget stops each within seconds (docs/robustness.md has the
       times); a budget that failed to count would leave ctest's timeout */
    for (i = 0; i < GP_ARRAY_LEN(scripts); i++) {
        assert_int_equal(run_script("costly.lua", scripts[i], 0, 0, &err), -1);
        if (!strstr(err.msg, "instruction budget of 200000000 exceeded") &&
            !strstr(err.msg, "pattern too costly"))
            fail_msg("script %zu: %s", i, err.msg);
        assert_contains(err.msg, "costly.lua:");
    }
}

static void test_script_limits_from_the_caller(void **state)
{
    gp_err_t err;
    char expect[256];
    (void)state;
    assert_int_equal(run_script("spin.lua", "local x = 0\nwhile true do x = x + 1 end\n", 5000,
                                0, &err),
                     -1);
    assert_contains(err.msg, "spin.lua:2: instruction budget of 5000 exceeded (runaway loop?)");
    assert_int_equal(run_script("hog.lua", "local t = {}\nfor i = 1, 1e9 do t[i] = {i} end\n",
                                0, 4 << 20, &err),
                     -1);
    tmp_path(expect, sizeof expect, "hog.lua"); /* the script's path as opened */
    strcat(expect, ": memory cap of 4 MiB exceeded");
    assert_string_equal(err.msg, expect);
    /* a cap too small for the Lua state itself */
    assert_int_equal(run_script("tiny.lua", "gpuperf.buffer('x', 1)\n", 0, 1024, &err),
                     -1);
    assert_contains(err.msg, "tiny.lua");
}

static void test_script_work_limits(void **state)
{
    gp_err_t err;
    (void)state;
    assert_int_equal(run_script("nest.lua",
                                "local w = {gpuperf.fp32(1e18)}\n"
                                "for i = 1, 31 do w = {gpuperf.loop(1e18, w)} end\n"
                                "gpuperf.launch{grid = 1, block = 32, regs = 8, work = w}\n",
                                0, 0, &err),
                     -1);
    assert_contains(err.msg, "nest.lua:3: launch 'kernel1': work: the loop at line 2, inside "
                             "the loops around it, repeats its body 1e+36 times per thread; at "
                             "most 1e+18 (check the trip counts)");
    /* the largest nesting that is still allowed */
    assert_int_equal(run_script("deep.lua",
                                "local w = {gpuperf.fp32(1e18)}\n"
                                "for i = 1, 30 do w = {gpuperf.loop(2, w)} end\n"
                                "w = {gpuperf.loop(1e18 / 2^30, w)}\n"
                                "gpuperf.launch{grid = 1, block = 32, regs = 8, work = w}\n",
                                0, 0, &err),
                     0);
    assert_int_equal(run_script("stride.lua",
                                "local b = gpuperf.buffer('b', 1e18)\n"
                                "local op = gpuperf.load{b, pattern = 'stride', stride = 2^49}\n",
                                0, 0, &err),
                     -1);
    assert_contains(err.msg, "stride.lua:2: gpuperf.load: 'stride' must be an integer from "
                             "-281474976710656 to 281474976710656, got 5.6294995342131e+14");
    assert_int_equal(run_script("offset.lua",
                                "local b = gpuperf.buffer('b', 1e18)\n"
                                "local op = gpuperf.load{b, offset = -1e18}\n",
                                0, 0, &err),
                     -1);
    assert_contains(err.msg, "offset.lua:2: gpuperf.load: 'offset' must be an integer from "
                             "-281474976710656 to 281474976710656, got -1e+18");
}

/* -------------------------------------------------------------- arithmetic */

static void test_random_access_over_a_huge_footprint(void **state)
{
    gp_access_t a;
    double bytes, txn;
    (void)state;
    memset(&a, 0, sizeof a);
    a.elem_bytes = 4;
    a.pattern = GP_PATTERN_RANDOM;
    /* 32 random words in 1e18 bytes touch 32 sectors, not 0 (1 - 1/nseg
       rounds to 1.0 in double) nor 55 */
    a.footprint_bytes = (uint64_t)1e18;
    txn = tc_coalesce(&a, 32, 32, 32, &bytes);
    assert_true(fabs(txn - 32) < 1e-6);
    assert_true(fabs(bytes - 32 * 32) < 1e-3);
    a.footprint_bytes = (uint64_t)1e18 / 2;
    txn = tc_coalesce(&a, 32, 64, 64, &bytes);
    assert_true(fabs(txn - 32) < 1e-6);
    /* one segment: every thread hits it */
    a.footprint_bytes = 32;
    txn = tc_coalesce(&a, 32, 32, 32, &bytes);
    assert_true(fabs(txn - 1) < 1e-12);
    /* a few segments: fewer than the threads, as expected */
    a.footprint_bytes = 8 * 32;
    txn = tc_coalesce(&a, 32, 32, 32, &bytes);
    assert_true(txn > 7 && txn < 8);
}

static void test_addresses_at_the_int64_limits(void **state)
{
    static const int64_t strides[] = {INT64_MAX, INT64_MIN, INT64_MAX / 3, -(INT64_MAX / 5), 0};
    static const int64_t offsets[] = {INT64_MIN, INT64_MAX, -1, 0, INT64_MAX / 2};
    size_t i, j;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(strides); i++)
        for (j = 0; j < GP_ARRAY_LEN(offsets); j++) {
            gp_access_t a;
            double bytes, txn, passes;
            memset(&a, 0, sizeof a);
            a.elem_bytes = 16;
            a.pattern = GP_PATTERN_STRIDE;
            a.stride_elems = strides[i];
            a.offset_elems = offsets[j];
            txn = tc_coalesce(&a, 32, 32, 32, &bytes);
            assert_true(txn >= 1 && txn <= 64 && isfinite(bytes));
            txn = tc_coalesce(&a, 16, 128, 32, &bytes); /* with 1.2/1.3 shrinking */
            assert_true(txn >= 1 && txn <= 32 && bytes >= 32 * txn);
            passes = tc_bank_passes(&a, 32, 32, 4);
            assert_true(passes >= 1 && passes <= 256);
            a.pattern = GP_PATTERN_BROADCAST;
            txn = tc_coalesce(&a, 32, 32, 32, &bytes);
            assert_true(txn >= 1 && txn <= 2);
        }
}

static void test_shared_memory_sizes_that_overflow(void **state)
{
    static const uint64_t sizes[][2] = {
        {UINT64_MAX - 100, 200}, {UINT64_MAX, UINT64_MAX}, {UINT64_MAX / 2 + 1, UINT64_MAX / 2 + 1},
        {UINT64_MAX - 1023, 0}, {1, UINT64_MAX}};
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_launch_t l;
    gp_occupancy_t o;
    gp_err_t err;
    size_t i;
    (void)state;
    assert_int_equal(gp_device_open("h200-sxm", &dev, &arch, &err), 0);
    memset(&l, 0, sizeof l);
    l.grid.x = l.grid.y = l.grid.z = 1;
    l.block.x = 256;
    l.block.y = l.block.z = 1;
    l.threads_per_block = 256;
    l.regs_per_thread = 32;
    l.carveout_percent = -1;
    for (i = 0; i < GP_ARRAY_LEN(sizes); i++) {
        l.static_smem_bytes = sizes[i][0];
        l.dynamic_smem_bytes = sizes[i][1];
        assert_int_equal(gp_arch_occupancy(arch, &dev, &l, &o, &err), 0);
        assert_int_equal(o.blocks_per_sm, 0);
        assert_int_equal(o.limiter, GP_LIMIT_SMEM_PER_BLOCK);
    }
}

/* Predict one launch of ops on dev; the result must be finite. */
static void expect_finite(const gp_device_t *dev, const gp_arch_t *arch, gp_launch_t l,
                          const gp_op_t *ops, uint32_t n, double *total_us)
{
    gp_workload_t wl;
    gp_op_t dummy[2];
    gp_stream_t st;
    gp_command_t c;
    gp_prediction_t p;
    gp_err_t err;
    small_workload(&wl, dummy, &st, &c);
    c.kernel.launch = l;
    c.kernel.ops = ops;
    c.kernel.n_ops = n;
    c.kernel.total_blocks = gp_mul_sat_u64(gp_mul_sat_u64(l.grid.x, l.grid.y), l.grid.z);
    if (gp_predict(dev, arch, &wl, NULL, &p, &err))
        fail_msg("%s: %s", dev->id, err.msg);
    assert_int_equal(p.n_cmds, 1);
    if (!(isfinite(p.total_us) && p.total_us > 0 && isfinite(p.cmds[0].cost.latency_cycles) &&
          isfinite(p.cmds[0].cost.throughput_cycles) && isfinite(p.cmds[0].dram_bytes) &&
          isfinite(p.cmds[0].warp_instructions) && p.cmds[0].cost.time_cycles > 0))
        fail_msg("%s: total %g us, latency %g, throughput %g, instructions %g, block %g cycles",
                 dev->id, p.total_us, p.cmds[0].cost.latency_cycles,
                 p.cmds[0].cost.throughput_cycles, p.cmds[0].warp_instructions,
                 p.cmds[0].cost.time_cycles);
    *total_us = p.total_us;
    gp_prediction_free(&p);
}

/* Collects the shipped devices. */
typedef struct dev_list {
    gp_device_t dev[32];
    const gp_arch_t *arch[32];
    int n;
} dev_list_t;

static void add_device(void *ud, const char *path, const gp_device_t *dev, const gp_arch_t *arch,
                       const char *error)
{
    dev_list_t *l = ud;
    if (!dev)
        fail_msg("%s: %s", path, error);
    if (l->n < 32) {
        l->dev[l->n] = *dev;
        l->arch[l->n] = arch;
        l->n++;
    }
}

static void test_largest_launches_on_every_device(void **state)
{
    static dev_list_t devs;
    gp_op_t ops[34];
    int i, k;
    (void)state;
    devs.n = 0;
    gp_device_scan(add_device, &devs);
    assert_true(devs.n >= 10);
    for (i = 0; i < devs.n; i++) {
        const gp_device_t *d = &devs.dev[i];
        gp_launch_t l;
        double t_big, t_small;
        memset(&l, 0, sizeof l);
        /* the largest grid and block the card allows: 2^31-1 x 65535 x 65535
           blocks from 3.0 on */
        l.grid.x = d->max_grid_x;
        l.grid.y = d->max_grid_y;
        l.grid.z = d->max_grid_z;
        l.block.x = GP_MIN((uint64_t)d->max_block_x, (uint64_t)d->max_threads_per_block);
        l.block.y = l.block.z = 1;
        l.threads_per_block = l.block.x;
        l.regs_per_thread = 8;
        l.carveout_percent = -1;
        /* counts of 1e18 inside 32 nested loops that multiply to 1e18, and a
           load over the largest buffer */
        memset(ops, 0, sizeof ops);
        for (k = 0; k < 32; k++) {
            ops[k].kind = GP_OP_LOOP;
            ops[k].count = k == 0 ? 1e18 / 2147483648.0 : 2;
            ops[k].body_len = 33 - (uint32_t)k;
            ops[k].ilp = 1;
        }
        ops[32].kind = GP_OP_FP32;
        ops[32].count = 1e18;
        ops[32].ilp = 1;
        ops[33].kind = GP_OP_LOAD;
        ops[33].count = 1e18;
        ops[33].ilp = 1;
        ops[33].access.elem_bytes = 16;
        ops[33].access.pattern = GP_PATTERN_RANDOM;
        ops[33].access.footprint_bytes = (uint64_t)1e18;
        ops[33].access.buffer = UINT32_MAX;
        expect_finite(d, devs.arch[i], l, ops, 34, &t_big);
        /* the same work on one block must take less time */
        l.grid.x = l.grid.y = l.grid.z = 1;
        expect_finite(d, devs.arch[i], l, ops, 34, &t_small);
        if (!(t_small < t_big))
            fail_msg("%s: one block %g us, the largest grid %g us", d->id, t_small, t_big);
    }
}

static void test_no_division_by_zero_on_bare_devices(void **state)
{
    static const char *const files[] = {"devices/minimal-hopper.ini", "devices/zeros-hopper.ini"};
    static const uint32_t kinds[] = {GP_OP_FP32, GP_OP_FP64, GP_OP_FP16, GP_OP_INT, GP_OP_SFU,
                                     GP_OP_CONV, GP_OP_BRANCH, GP_OP_BARRIER, GP_OP_LOAD,
                                     GP_OP_STORE, GP_OP_ATOMIC};
    static const uint32_t spaces[] = {GP_SPACE_GLOBAL, GP_SPACE_SHARED, GP_SPACE_LOCAL,
                                      GP_SPACE_CONSTANT, GP_SPACE_TEXTURE};
    size_t f, k, s;
    (void)state;
    for (f = 0; f < GP_ARRAY_LEN(files); f++) {
        char *text = robust_text(files[f]);
        gp_device_t dev;
        const gp_arch_t *arch;
        gp_err_t err;
        gp_launch_t l;
        gp_op_t op;
        double t;
        assert_int_equal(gp_device_load_text(files[f], text, strlen(text), &dev, &arch, &err), 0);
        free(text);
        memset(&l, 0, sizeof l);
        l.grid.x = 1000;
        l.grid.y = l.grid.z = 1;
        l.block.x = 256;
        l.block.y = l.block.z = 1;
        l.threads_per_block = 256;
        l.regs_per_thread = 32;
        l.carveout_percent = -1;
        for (k = 0; k < GP_ARRAY_LEN(kinds); k++)
            for (s = 0; s < GP_ARRAY_LEN(spaces); s++) {
                if (s > 0 && kinds[k] < GP_OP_LOAD)
                    break;
                if (kinds[k] == GP_OP_STORE && spaces[s] >= GP_SPACE_CONSTANT)
                    continue;
                if (kinds[k] == GP_OP_ATOMIC && spaces[s] > GP_SPACE_SHARED)
                    continue;
                memset(&op, 0, sizeof op);
                op.kind = kinds[k];
                op.count = 100;
                op.ilp = 1;
                op.space = spaces[s];
                op.access.elem_bytes = 8;
                op.access.footprint_bytes = 1 << 20;
                op.access.buffer = UINT32_MAX;
                expect_finite(&dev, arch, l, &op, 1, &t);
            }
        /* a kernel without work, and one with only a barrier */
        memset(&op, 0, sizeof op);
        op.kind = GP_OP_BARRIER;
        op.count = 1;
        expect_finite(&dev, arch, l, &op, 1, &t);
        expect_finite(&dev, arch, l, &op, 0, &t);
    }
}

static void test_a_workload_without_launches(void **state)
{
    gp_workload_t wl;
    gp_op_t ops[2];
    gp_stream_t st;
    gp_command_t c;
    gp_prediction_t p;
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_err_t err;
    (void)state;
    assert_int_equal(gp_device_open("geforce-8800-gtx", &dev, &arch, &err), 0);
    small_workload(&wl, ops, &st, &c);
    wl.n_cmds = 0;
    assert_int_equal(gp_predict(&dev, arch, &wl, NULL, &p, &err), 0);
    assert_int_equal(p.n_cmds, 0);
    assert_true(p.total_us == 0);
    gp_prediction_free(&p);
}

/* ------------------------------------------------------------ output files */

/* Number of entries of g_tmp/sub whose name starts with prefix. */
static int count_entries(const char *prefix)
{
    char cmd[256];
    FILE *p;
    int n = -1;
    snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -c '^%s' || true", g_tmp, prefix);
    p = popen(cmd, "r");
    if (p) {
        if (fscanf(p, "%d", &n) != 1)
            n = -1;
        pclose(p);
    }
    return n;
}

static void test_output_files_are_replaced_atomically(void **state)
{
    char path[256], bad[256], *data = NULL;
    struct stat before, after;
    size_t len;
    gp_err_t err;
    (void)state;
    tmp_path(path, sizeof path, "out.json");
    assert_int_equal(gp_write_file_atomic(path, "{\"old\": 1}\n", 11, &err), 0);
    assert_int_equal(stat(path, &before), 0);
    assert_int_equal(gp_write_file_atomic(path, "{}\n", 3, &err), 0);
    assert_int_equal(stat(path, &after), 0);
    /* a new file took the old one's place (rename), not a rewrite in place */
    assert_true(before.st_ino != after.st_ino);
    assert_int_equal(gp_read_file(path, 100, &data, &len, &err), 0);
    assert_string_equal(data, "{}\n");
    free(data);
    assert_int_equal(count_entries("out.json."), 0);

    /* the target is a folder: the temporary file is removed again */
    tmp_path(bad, sizeof bad, "folder.json");
    assert_int_equal(mkdir(bad, 0755), 0);
    assert_int_equal(gp_write_file_atomic(bad, "x", 1, &err), -1);
    assert_contains(err.msg, "cannot rename the temporary file into place");
    assert_int_equal(count_entries("folder.json."), 0);

    /* the folder does not exist, or is a file */
    tmp_path(bad, sizeof bad, "missing/out.json");
    assert_int_equal(gp_write_file_atomic(bad, "x", 1, &err), -1);
    assert_contains(err.msg, "cannot create a temporary file beside it: No such file");
    tmp_path(bad, sizeof bad, "out.json/x.json");
    assert_int_equal(gp_write_file_atomic(bad, "x", 1, &err), -1);
    assert_contains(err.msg, "Not a directory");
    assert_int_equal(gp_read_file(path, 100, &data, &len, &err), 0);
    assert_string_equal(data, "{}\n"); /* untouched by the failures */
    free(data);

    /* a read-only folder (root may write anyway: then the write succeeds) */
    tmp_path(bad, sizeof bad, "ro");
    assert_int_equal(mkdir(bad, 0555), 0);
    tmp_path(bad, sizeof bad, "ro/out.json");
    if (gp_write_file_atomic(bad, "x", 1, &err) == -1) {
        assert_contains(err.msg, "Permission denied");
        tmp_path(bad, sizeof bad, "ro");
        assert_int_equal(chmod(bad, 0755), 0);
    }
}

/* ---------------------------- fixed bugs: each stays fixed by its test */

/*
 * Work whose sums overflow to infinity (32 nested loops of 1e18 trips) is an
 * error that says so ("too large to count"), never a block of one cycle.
 */
static void test_model_overflowing_work(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_kernel_t k;
    gp_op_t ops[33];
    gp_occupancy_t occ;
    gp_residency_t res;
    gp_block_cost_t cost;
    char msg[256] = "";
    int i;
    (void)state;
    /* model.c reports overflowing work */
    assert_int_equal(gp_device_open("h200-sxm", &dev, &arch, NULL), 0);
    memset(ops, 0, sizeof ops);
    for (i = 0; i < 32; i++) {
        ops[i].kind = GP_OP_LOOP;
        ops[i].count = 1e18;
        ops[i].body_len = 32 - (uint32_t)i;
    }
    ops[32].kind = GP_OP_FP32;
    ops[32].count = 1e18;
    ops[32].ilp = 1;
    memset(&k, 0, sizeof k);
    k.name = "k";
    k.launch.grid.x = k.launch.grid.y = k.launch.grid.z = 1;
    k.launch.block.x = 32;
    k.launch.block.y = k.launch.block.z = 1;
    k.launch.threads_per_block = 32;
    k.launch.carveout_percent = -1;
    k.ops = ops;
    k.n_ops = 33;
    k.total_blocks = 1;
    assert_int_equal(gp_arch_occupancy(arch, &dev, &k.launch, &occ, NULL), 0);
    memset(&res, 0, sizeof res);
    res.blocks = 1;
    res.active_sms = 1;
    res.dram_share = res.l2_share = 1;
    assert_int_equal(gp_arch_call_block_cost(arch, &dev, &k, &occ, &res, &cost, msg,
                                            sizeof msg),
                     -1);
    assert_contains(msg, "too large");
}

/*
 * A copy that ends within rounding of the current time (a 1-byte copy after
 * copies of 1e18 bytes, when the clock is at 7.8e13 us; or a copy of 0 us)
 * is retired like any other, not left to stall the simulation
 * (tests/data/robust/scripts/rb_copy_rounding.lua).
 */
static void test_engine_short_copy_after_long_one(void **state)
{
    gp_stream_t st;
    gp_command_t c[2];
    gp_workload_t wl;
    gp_prediction_t p;
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_err_t err;
    (void)state;
    /* engine.c retires copies that end "now" */
    assert_int_equal(gp_device_open("a100-sxm4-40gb", &dev, &arch, &err), 0);
    memset(&st, 0, sizeof st);
    memset(c, 0, sizeof c);
    memset(&wl, 0, sizeof wl);
    strcpy(wl.script, "copies.lua");
    c[0].type = c[1].type = GP_CMD_COPY;
    c[0].copy_kind = GP_COPY_H2D;
    c[0].copy_bytes = (uint64_t)1e18;
    c[1].copy_kind = GP_COPY_P2P;
    c[1].copy_bytes = 1;
    c[1].peer_device = 1;
    wl.streams = &st;
    wl.n_streams = 1;
    wl.n_devices = 2;
    wl.cmds = c;
    wl.n_cmds = 2;
    if (gp_predict(&dev, arch, &wl, NULL, &p, &err))
        fail_msg("%s", err.msg);
    assert_true(p.cmds[1].end_us >= p.cmds[0].end_us);
    gp_prediction_free(&p);
}

/*
 * A host copy on a device whose file has no pcie_bandwidth_gbps (an optional
 * key) is an error at the copy's line naming the key, not a silent guess.
 */
static void test_engine_copy_without_bandwidth(void **state)
{
    gp_stream_t st;
    gp_command_t c;
    gp_workload_t wl;
    gp_prediction_t p;
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_err_t err;
    char *text;
    (void)state;
    /* engine.c refuses copies the device cannot time */
    text = robust_text("devices/minimal-hopper.ini");
    assert_int_equal(gp_device_load_text("minimal.ini", text, strlen(text), &dev, &arch, &err), 0);
    free(text);
    memset(&st, 0, sizeof st);
    memset(&c, 0, sizeof c);
    memset(&wl, 0, sizeof wl);
    strcpy(wl.script, "copy.lua");
    c.type = GP_CMD_COPY;
    c.copy_kind = GP_COPY_H2D;
    c.copy_bytes = 1 << 30;
    c.line = 2;
    wl.streams = &st;
    wl.n_streams = 1;
    wl.n_devices = 1;
    wl.cmds = &c;
    wl.n_cmds = 1;
    assert_int_equal(gp_predict(&dev, arch, &wl, NULL, &p, &err), -1);
    assert_contains(err.msg, "copy.lua:2:");
    assert_contains(err.msg, "pcie_bandwidth_gbps");
}

/*
 * The cost of a prediction stays about linear in the number of launches
 * (the engine tracks commands by their dependency counts instead of scanning
 * them all at every event), so a short script of many launches cannot keep
 * gpuperf busy for long (tests/data/robust/scripts/rb_many_launches.lua).
 */
static void test_engine_many_launches_scale(void **state)
{
    gp_err_t err;
    gp_script_opts_t o = {0, 0};
    gp_workload_t wl;
    gp_prediction_t p;
    gp_device_t dev;
    const gp_arch_t *arch;
    char path[256];
    uint32_t i;
    const char *script =
        "local k = gpuperf.kernel{name = 'k', grid = 1, block = 32, regs = 8,\n"
        "                         work = {gpuperf.fp32(1)}}\n"
        "for i = 1, 100000 do gpuperf.launch(k) end\n";
    (void)state;
    /* With the quadratic engine this took hours (ctest's timeout ends it);
       now well under a second. Its speed is measured in bench/ and
       docs/robustness.md; here: every launch runs, in order. */
    assert_int_equal(gp_device_open("h200-sxm", &dev, &arch, &err), 0);
    write_tmp("many.lua", script, strlen(script));
    tmp_path(path, sizeof path, "many.lua");
    assert_int_equal(gp_script_run(path, &o, &dev, NULL, 0, &wl, &err), 0);
    assert_int_equal(wl.n_cmds, 100000);
    if (gp_predict(&dev, arch, &wl, NULL, &p, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(p.n_cmds, 100000);
    for (i = 1; i < p.n_cmds; i++)
        if (!(p.cmds[i].start_us >= p.cmds[i - 1].end_us && p.cmds[i].end_us > p.cmds[i].start_us))
            fail_msg("launch %u: %g..%g us after %g us", i, p.cmds[i].start_us,
                     p.cmds[i].end_us, p.cmds[i - 1].end_us);
    gp_prediction_free(&p);
    gp_workload_free(&wl);
}

/*
 * Strides and offsets near the 64-bit limit (reachable through the library
 * and the plugin ABI, though scripts are limited to 2^48 elements) saturate
 * in the address arithmetic of opcost.c and the tesla plugin instead of
 * overflowing (UBSan would abort).
 */
static void test_op_cost_with_extreme_strides(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_kernel_t k;
    gp_op_t op;
    gp_occupancy_t occ;
    gp_residency_t res;
    gp_block_cost_t cost;
    gp_err_t err;
    int i;
    (void)state;
    /* opcost.c and tesla.c clamp addresses */
    for (i = 0; i < 2; i++) {
        assert_int_equal(gp_device_open(i ? "geforce-8800-gtx" : "h200-sxm", &dev, &arch, &err),
                         0);
        memset(&op, 0, sizeof op);
        op.kind = GP_OP_LOAD;
        op.count = 1;
        op.ilp = 1;
        op.access.elem_bytes = 16;
        op.access.pattern = GP_PATTERN_STRIDE;
        op.access.stride_elems = INT64_MAX / 4;
        op.access.offset_elems = INT64_MAX / 2;
        op.access.footprint_bytes = (uint64_t)1e18;
        op.access.buffer = UINT32_MAX;
        memset(&k, 0, sizeof k);
        k.name = "k";
        k.launch.grid.x = k.launch.grid.y = k.launch.grid.z = 1;
        k.launch.block.x = 64;
        k.launch.block.y = k.launch.block.z = 1;
        k.launch.threads_per_block = 64;
        k.launch.carveout_percent = -1;
        k.ops = &op;
        k.n_ops = 1;
        k.total_blocks = 1;
        assert_int_equal(gp_arch_occupancy(arch, &dev, &k.launch, &occ, &err), 0);
        memset(&res, 0, sizeof res);
        res.blocks = 1;
        res.active_sms = 1;
        res.dram_share = res.l2_share = 1;
        assert_int_equal(gp_arch_block_cost(arch, &dev, &k, &occ, &res, &cost, &err), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_text_is_not_read_past_its_length),
        cmocka_unit_test(test_device_bom_and_crlf_load),
        cmocka_unit_test(test_device_nul_byte_is_reported_at_its_line),
        cmocka_unit_test(test_device_files_that_are_not_files),
        cmocka_unit_test(test_device_overlong_names_and_lines),
        cmocka_unit_test(test_device_nan_inf_and_bad_numbers),
        cmocka_unit_test(test_device_values_of_the_wrong_unit),
        cmocka_unit_test(test_device_arch_must_be_a_plugin_name),
        cmocka_unit_test(test_device_duplicates),
        cmocka_unit_test(test_device_grid_too_large_to_count),
        cmocka_unit_test(test_plugin_files_that_are_not_files),
        cmocka_unit_test(test_broken_plugin_first_on_the_path),
        cmocka_unit_test(test_lying_plugin_is_never_trusted),
        cmocka_unit_test(test_costly_string_calls_run_out_of_budget),
        cmocka_unit_test(test_script_limits_from_the_caller),
        cmocka_unit_test(test_script_work_limits),
        cmocka_unit_test(test_random_access_over_a_huge_footprint),
        cmocka_unit_test(test_addresses_at_the_int64_limits),
        cmocka_unit_test(test_shared_memory_sizes_that_overflow),
        cmocka_unit_test(test_largest_launches_on_every_device),
        cmocka_unit_test(test_no_division_by_zero_on_bare_devices),
        cmocka_unit_test(test_a_workload_without_launches),
        cmocka_unit_test(test_output_files_are_replaced_atomically),
        cmocka_unit_test(test_model_overflowing_work),
        cmocka_unit_test(test_engine_short_copy_after_long_one),
        cmocka_unit_test(test_engine_copy_without_bandwidth),
        cmocka_unit_test(test_engine_many_launches_scale),
        cmocka_unit_test(test_op_cost_with_extreme_strides),
    };
    return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
