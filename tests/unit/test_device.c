/*
 * test_device.c - device files: loading, the schema and every bad input.
 */
#include "test_common.h"

#include "device.h"

/* Load text as a device; returns the rc and leaves the message in err. */
static int load(const char *text, gp_device_t *dev, gp_err_t *err)
{
    const gp_arch_t *arch = NULL;
    return gp_device_load_text("t.ini", text, strlen(text), dev, &arch, err);
}

/* Expect loading `text` to fail with an error containing `want` at line
   `at`. */
static void expect_text_error(const char *text, int at, const char *want)
{
    gp_device_t dev;
    gp_err_t err;
    char where[64];
    assert_int_equal(load(text, &dev, &err), -1);
    snprintf(where, sizeof where, "t.ini:%d:", at);
    assert_contains(err.msg, where);
    assert_contains(err.msg, want);
}

/* Replace a line of the H200 file and expect an error containing `want`
   at the line of `prefix` (or at want_line when > 0). */
static void expect_error(const char *prefix, const char *line, const char *want, int want_line)
{
    char *base = tc_read("devices/h200-sxm.ini");
    char *text = tc_replace_line(base, prefix, line);
    expect_text_error(text, want_line > 0 ? want_line : tc_line_of(text, *line ? line : prefix),
                      want);
    free(text);
    free(base);
}

static void test_h200_loads(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch = NULL;
    gp_err_t err;
    char path[4096];
    (void)state;
    snprintf(path, sizeof path, "%s/devices/h200-sxm.ini", GP_SOURCE_DIR);
    assert_int_equal(gp_device_load(path, &dev, &arch, &err), 0);
    assert_non_null(arch);
    assert_string_equal(arch->plugin->name, "hopper");
    assert_string_equal(dev.id, "h200-sxm");
    assert_string_equal(dev.name, "NVIDIA H200 SXM");
    assert_int_equal(dev.cc_major, 9);
    assert_int_equal(dev.cc_minor, 0);
    assert_int_equal(dev.sm_count, 132);
    assert_int_equal(dev.shared_memory_per_sm_bytes, 233472);
    assert_int_equal(dev.shared_memory_per_block_optin_bytes, 232448);
    assert_int_equal(dev.reserved_shared_memory_per_block_bytes, 1024);
    assert_int_equal(dev.l2_bytes, 62914560);
    assert_int_equal(dev.max_grid_x, 2147483647);
    assert_true(dev.core_clock_mhz == 1980);
    assert_true(dev.block_turnaround_cycles == 657);
    assert_true(dev.l1_bank_pass_cycles == 2.32 && dev.l1_bank_pass_issue_cycles == 1.0);
    assert_true(dev.l1_chase_full_fraction < dev.l1_chase_none_fraction);
    assert_true(dev.l2_carry_full_bytes > 0 && dev.l2_carry_full_bytes < dev.l2_carry_none_bytes &&
                dev.l2_carry_none_bytes <= dev.l2_bytes);
}

static void test_open_by_name_and_path(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_err_t err;
    char path[4096];
    (void)state;
    assert_int_equal(gp_device_open("h100-sxm", &dev, &arch, &err), 0);
    assert_int_equal(dev.l2_bytes, 52428800);
    assert_int_equal(gp_device_open("no-such-card", &dev, &arch, &err), -1);
    assert_contains(err.msg, "device 'no-such-card' not found");
    assert_contains(err.msg, "gpuperf devices");
    assert_int_equal(gp_device_open("../etc/passwd", &dev, &arch, &err), -1);
    snprintf(path, sizeof path, "%s/devices", GP_SOURCE_DIR);
    assert_int_equal(gp_device_resolve("h200-sxm", path, sizeof path, &err), 0);
    assert_contains(path, "devices/h200-sxm.ini");
}

static void test_missing_file(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_err_t err;
    (void)state;
    assert_int_equal(gp_device_load("/nonexistent/x.ini", &dev, &arch, &err), -1);
    assert_contains(err.msg, "/nonexistent/x.ini: cannot open");
}

static void test_empty_file(void **state)
{
    gp_device_t dev;
    gp_err_t err;
    (void)state;
    assert_int_equal(load("", &dev, &err), -1);
    assert_contains(err.msg, "t.ini:1: the device file is empty");
    assert_int_equal(load("\n\n  \n", &dev, &err), -1);
    assert_contains(err.msg, "empty");
}

static void test_unknown_key(void **state)
{
    (void)state;
    expect_error("sm_count", "sm_cont = 132", "unknown key 'sm_cont' in [device]; did you mean 'sm_count'?", 0);
    expect_error("warp_size", "banana = 3", "unknown key 'banana' in [sm]", 0);
}

static void test_duplicate_key(void **state)
{
    char *base = tc_read("devices/h200-sxm.ini");
    char *text = tc_replace_line(base, "warp_size", "warp_size = 32\nwarp_size = 32");
    gp_device_t dev;
    gp_err_t err;
    char want[160];
    (void)state;
    assert_int_equal(load(text, &dev, &err), -1);
    snprintf(want, sizeof want, "t.ini:%d: duplicate key 'warp_size' in [sm] (first at line %d)",
             tc_line_of(text, "warp_size") + 1, tc_line_of(text, "warp_size"));
    assert_contains(err.msg, want);
    free(text);
    free(base);
}

static void test_duplicate_section(void **state)
{
    char *base = tc_read("devices/h200-sxm.ini");
    size_t n = strlen(base);
    char *text = malloc(n + 64);
    gp_device_t dev;
    gp_err_t err;
    (void)state;
    snprintf(text, n + 64, "%s\n[sm]\nwarp_size = 32\n", base);
    assert_int_equal(load(text, &dev, &err), -1);
    assert_contains(err.msg, "duplicate section [sm]");
    free(text);
    free(base);
}

static void test_unknown_section(void **state)
{
    (void)state;
    expect_error("[launch]", "[lunch]", "unknown section [lunch]", 0);
}

static void test_missing_required(void **state)
{
    char *base = tc_read("devices/h200-sxm.ini");
    char *text = tc_replace_line(base, "warp_size", "");
    (void)state;
    expect_text_error(text, tc_line_of(text, "[sm]"), "[sm] lacks the required key 'warp_size'");
    free(text);
    free(base);
}

static void test_missing_section(void **state)
{
    gp_device_t dev;
    gp_err_t err;
    (void)state;
    assert_int_equal(load("[device]\nname = x\narch = hopper\ncompute_capability = 9.0\n"
                          "sm_count = 1\ncore_clock_mhz = 1000\n",
                          &dev, &err),
                     -1);
    assert_contains(err.msg, "missing section [sm]");
}

static void test_bad_values(void **state)
{
    (void)state;
    expect_error("sm_count", "sm_count = abc", "not a number", 0);
    expect_error("sm_count", "sm_count = 0", "out of range", 0);
    expect_error("sm_count", "sm_count = -5", "out of range", 0);
    expect_error("sm_count", "sm_count = 1.5", "must be a whole number", 0);
    expect_error("sm_count", "sm_count = nan", "not a number", 0);
    expect_error("sm_count", "sm_count = inf", "not a number", 0);
    expect_error("sm_count", "sm_count = 1e999", "number too large", 0);
    expect_error("sm_count", "sm_count = 2^2000", "not finite", 0);
    expect_error("core_clock_mhz", "core_clock_mhz = 1980 MHz", "unexpected 'M'", 0);
    expect_error("core_clock_mhz", "core_clock_mhz =", "empty value", 0);
    expect_error("compute_capability", "compute_capability = 9", "write major.minor", 0);
    expect_error("compute_capability", "compute_capability = 9.0.1", "write major.minor", 0);
    expect_error("dram_bytes", "dram_bytes = 1e30", "out of range", 0);
    expect_error("block_turnaround_cycles", "block_turnaround_cycles = -1", "out of range", 0);
    expect_error("l1_bank_pass_cycles", "l1_bank_pass_cycles = -2", "out of range", 0);
    /* the flush's keys: a share of the L2, times */
    expect_error("l2_flush_dirty_fraction", "l2_flush_dirty_fraction = 1.5", "out of range", 0);
    expect_error("launch_queued_us", "launch_queued_us = -1", "out of range", 0);
    expect_error("flush_first_touch_us", "flush_first_touch_us = x", "not a number", 0);
    {
        /* the L1 edge of a chase: full hits end before no hits start */
        char *base = tc_read("devices/h200-sxm.ini");
        int at = tc_line_of(base, "l1_chase_none_fraction");
        free(base);
        expect_error("l1_chase_full_fraction", "l1_chase_full_fraction = 1.5", "come together",
                     at);
    }
    {
        /* the L2's carried share: full below none, none within the L2 */
        char *base = tc_read("devices/h200-sxm.ini");
        int at = tc_line_of(base, "l2_carry_none_bytes");
        free(base);
        expect_error("l2_carry_full_bytes", "l2_carry_full_bytes = 60000000", "come together",
                     at);
        expect_error("l2_carry_none_bytes", "l2_carry_none_bytes = 70000000", "come together",
                     at);
        expect_error("l2_carry_none_bytes", "l2_carry_none_bytes = 0", "come together", at);
    }
    {
        /* the random-store costs come as a set (DRAM's three, the L2's two) */
        char *base = tc_read("devices/h200-sxm.ini");
        int at = tc_line_of(base, "sparse_write_bytes_partial");
        int at2 = tc_line_of(base, "sparse_write_l2_bytes");
        free(base);
        expect_error("sparse_write_bytes_sector", "sparse_write_bytes_sector = 0",
                     "all three sparse_write_bytes_*", at);
        expect_error("sparse_write_l2_line_bytes", "sparse_write_l2_line_bytes = 0",
                     "together or neither", at2);
    }
    {
        /* the whole-sector request's time refines the pair: not alone */
        char *base = tc_read("devices/h200-sxm.ini");
        char *one = tc_replace_line(base, "sparse_write_l2_bytes", "");
        char *text = tc_replace_line(one, "sparse_write_l2_line_bytes", "");
        expect_text_error(text, tc_line_of(text, "sparse_write_l2_sector_bytes"),
                          "needs sparse_write_l2_bytes");
        free(text);
        free(one);
        free(base);
    }
    {
        /* a request's translation wait: the reach and the cycles come together */
        char *base = tc_read("devices/h200-sxm.ini");
        int at = tc_line_of(base, "request_tlb_reach_bytes");
        free(base);
        expect_error("request_tlb_line_cycles", "request_tlb_line_cycles = 0",
                     "request_tlb_reach_bytes and request_tlb_line_cycles together or neither", at);
    }
}

static void test_expressions_accepted(void **state)
{
    char *base = tc_read("devices/h200-sxm.ini");
    char *text = tc_replace_line(base, "l2_bytes", "l2_bytes = 60 * 2^20 ; an expression");
    gp_device_t dev;
    gp_err_t err;
    (void)state;
    assert_int_equal(load(text, &dev, &err), 0);
    assert_int_equal(dev.l2_bytes, 62914560);
    free(text);
    free(base);
}

static void test_indented_line_is_not_a_continuation(void **state)
{
    char *base = tc_read("devices/h200-sxm.ini");
    char *text = tc_replace_line(base, "warp_size", "    warp_size = 32");
    gp_device_t dev;
    gp_err_t err;
    (void)state;
    assert_int_equal(load(text, &dev, &err), 0);
    assert_int_equal(dev.warp_size, 32);
    free(text);
    free(base);
}

static void test_binary_and_long_lines(void **state)
{
    char *base = tc_read("devices/h200-sxm.ini");
    char *text = tc_replace_line(base, "sm_count", "sm_count = 1\x01" "32");
    char longline[400];
    gp_device_t dev;
    gp_err_t err;
    (void)state;
    assert_int_equal(load(text, &dev, &err), -1);
    assert_contains(err.msg, "binary data");
    free(text);
    memset(longline, 'x', sizeof longline - 1);
    longline[sizeof longline - 1] = '\0';
    memcpy(longline, "name = ", 7);
    text = tc_replace_line(base, "name", longline);
    assert_int_equal(load(text, &dev, &err), -1);
    assert_contains(err.msg, "line longer than");
    free(text);
    {
        /* a NUL byte in the middle of the buffer */
        char buf[64] = "[device]\nname = a";
        size_t n = strlen(buf);
        buf[n] = '\0';
        memcpy(buf + n + 1, "bc\n", 4);
        assert_int_equal(gp_device_load_text("t.ini", buf, n + 4, &dev, NULL, &err), -1);
        assert_contains(err.msg, "binary data");
    }
    free(base);
}

static void test_syntax_errors(void **state)
{
    gp_device_t dev;
    gp_err_t err;
    (void)state;
    expect_error("warp_size", "warp_size 32", "syntax error", 0);
    expect_error("[sm]", "[sm", "section header without ']'", 0);
    assert_int_equal(load("sm_count = 3\n[device]\n", &dev, &err), -1);
    assert_contains(err.msg, "t.ini:1: 'sm_count' appears before any [section]");
}

static void test_arch_checks(void **state)
{
    (void)state;
    expect_error("arch", "arch = ../../tmp/evil.so", "is a path; name a plugin instead", 0);
    expect_error("arch", "arch = /usr/lib/x.so", "is a path", 0);
    expect_error("arch", "arch = Hopper", "a plugin name uses only", 0);
    expect_error("arch", "arch = voodoo", "no plugin named 'voodoo'", 0);
    expect_error("compute_capability", "compute_capability = 8.0",
                 "compute capability 8.0 is not served by plugin 'hopper' (it serves 9.0)", 0);
}

static void test_arch_section_keys(void **state)
{
    char *base = tc_read("devices/h200-sxm.ini");
    size_t n = strlen(base);
    char *text = malloc(n + 64);
    gp_device_t dev;
    gp_err_t err;
    (void)state;
    snprintf(text, n + 64, "%s\n[arch]\nfoo_cycles = 3\n", base);
    assert_int_equal(load(text, &dev, &err), -1);
    assert_contains(err.msg, "unknown key 'foo_cycles' in [arch]: plugin 'hopper' declares no keys");
    free(text);
    free(base);
}

static void test_consistency(void **state)
{
    (void)state;
    expect_error("shared_memory_per_block_bytes", "shared_memory_per_block_bytes = 300000",
                 "exceeds shared_memory_per_sm_bytes", 0);
    expect_error("max_threads_per_sm", "max_threads_per_sm = 2047", "not a multiple of warp_size",
                 0);
    expect_error("dram_sustained_gbps", "dram_sustained_gbps = 9000",
                 "exceeds dram_bandwidth_gbps", 0);
}

/* Collects what gp_device_scan reports. */
static void on_dev(void *ud, const char *path, const gp_device_t *dev, const gp_arch_t *arch,
                   const char *error)
{
    int *found = ud;
    (void)path;
    (void)arch;
    (void)error;
    if (dev && strcmp(dev->id, "h200-sxm") == 0)
        found[0]++;
    if (dev && strcmp(dev->id, "h100-sxm") == 0)
        found[1]++;
}

static void test_scan(void **state)
{
    int found[2] = {0, 0};
    (void)state;
    gp_device_scan(on_dev, found);
    assert_int_equal(found[0], 1);
    assert_int_equal(found[1], 1);
}

static void test_schema_listing(void **state)
{
    const gp_device_key_info_t *keys;
    size_t n = gp_device_keys(&keys), i;
    int saw = 0;
    (void)state;
    assert_true(n > 50);
    for (i = 0; i < n; i++)
        saw += strcmp(keys[i].key, "dram_bandwidth_gbps") == 0 && keys[i].required;
    assert_int_equal(saw, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h200_loads),
        cmocka_unit_test(test_open_by_name_and_path),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_unknown_key),
        cmocka_unit_test(test_duplicate_key),
        cmocka_unit_test(test_duplicate_section),
        cmocka_unit_test(test_unknown_section),
        cmocka_unit_test(test_missing_required),
        cmocka_unit_test(test_missing_section),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_expressions_accepted),
        cmocka_unit_test(test_indented_line_is_not_a_continuation),
        cmocka_unit_test(test_binary_and_long_lines),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_arch_checks),
        cmocka_unit_test(test_arch_section_keys),
        cmocka_unit_test(test_consistency),
        cmocka_unit_test(test_scan),
        cmocka_unit_test(test_schema_listing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
