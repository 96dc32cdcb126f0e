/*
 * test_script.c - the Lua workload front end (core/src/script*.c): example
 * scripts, every constructor, flattening, templates, parameters, the device
 * table, stream commands, re-evaluation, and every bad input and sandbox
 * escape the front end must refuse (table-driven: one cmocka test each).
 */
#include "test_common.h"

#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "script.h"

/* Relative to the repository root, where main() runs the tests: errors name
   a script by the path it was opened with. */
#define SCRIPTS "tests/data/scripts/"
#define EXAMPLES "scripts/"

/* ---------------------------------------------------------------- helpers */

/* An H200 SXM as the device file describes it (cc 9.0, 132 SMs). */
static void h200(gp_device_t *d)
{
    memset(d, 0, sizeof *d);
    strcpy(d->name, "NVIDIA H200");
    strcpy(d->id, "h200-sxm");
    strcpy(d->arch, "hopper");
    d->cc_major = 9;
    d->cc_minor = 0;
    d->sm_count = 132;
    d->core_clock_mhz = 1980;
    d->memory_clock_mhz = 3201;
    d->warp_size = 32;
    d->max_threads_per_block = 1024;
    d->max_threads_per_sm = 2048;
    d->max_blocks_per_sm = 32;
    d->registers_per_sm = 65536;
    d->max_registers_per_block = 65536;
    d->max_registers_per_thread = 255;
    d->schedulers_per_sm = 4;
    d->dispatch_per_scheduler = 1;
    d->shared_memory_per_sm_bytes = 233472;
    d->shared_memory_per_block_bytes = 49152;
    d->shared_memory_per_block_optin_bytes = 232448;
    d->reserved_shared_memory_per_block_bytes = 1024;
    d->l1_shared_bytes = 262144;
    d->max_grid_x = 2147483647;
    d->max_grid_y = d->max_grid_z = 65535;
    d->max_block_x = d->max_block_y = 1024;
    d->max_block_z = 64;
    d->fp32_lanes = 128;
    d->fp64_lanes = 64;
    d->fp16_lanes = 256;
    d->int32_lanes = 64;
    d->sfu_lanes = 16;
    d->conversion_lanes = 16;
    d->ldst_lanes = 32;
    d->shared_memory_bytes_per_clock = 128;
    d->tensor_fp16_flops_per_clock = 2048;
    d->tensor_bf16_flops_per_clock = 2048;
    d->tensor_tf32_flops_per_clock = 1024;
    d->tensor_fp64_flops_per_clock = 128;
    d->tensor_int8_ops_per_clock = 4096;
    d->tensor_fp8_flops_per_clock = 4096;
    d->dram_bytes = 141ULL << 30;
    d->dram_bandwidth_gbps = 4800;
    d->dram_sustained_gbps = 4300;
    d->l2_bytes = 62914560;
    d->l2_bandwidth_gbps = 12000;
    d->sector_bytes = 32;
    d->l1_line_bytes = 128;
    d->dram_fetch_bytes = 64;
    d->pcie_bandwidth_gbps = 55;
    d->nvlink_bandwidth_gbps = 450;
    d->fp32_cycles = 4;
    d->dram_cycles = 600;
    d->launch_overhead_us = 4;
    d->block_launch_cycles = 300;
}

/* Options with a budget and a memory cap (0: the defaults). */
static gp_script_opts_t opts_of(uint64_t budget, uint64_t memory)
{
    gp_script_opts_t o;
    o.instruction_budget = budget;
    o.memory_cap_bytes = memory;
    return o;
}

/* Run a script (full path) on the H200; the test fails on an error. */
static void run_path(const char *path, const gp_param_kv_t *kv, size_t n, gp_workload_t *wl)
{
    gp_device_t dev;
    gp_err_t err;
    h200(&dev);
    if (gp_script_run(path, NULL, &dev, kv, n, wl, &err))
        fail_msg("%s: %s", path, err.msg);
}

/* Run tests/data/scripts/NAME on the H200. */
static void run_ok(const char *name, const gp_param_kv_t *kv, size_t n, gp_workload_t *wl)
{
    char path[4096];
    snprintf(path, sizeof path, SCRIPTS "%s", name);
    run_path(path, kv, n, wl);
}

/* Run a script that must fail; returns its message in err. The workload
   must be left empty. */
static void run_fail(const char *path, const gp_script_opts_t *opts, const gp_device_t *dev,
                     const gp_param_kv_t *kv, size_t n, gp_err_t *err)
{
    gp_workload_t wl;
    memset(err, 0, sizeof *err);
    assert_int_equal(gp_script_run(path, opts, dev, kv, n, &wl, err), -1);
    assert_int_equal(wl.n_cmds, 0);
    assert_null(wl.cmds);
    assert_null(wl.buffers);
}

/* Assert that msg starts with prefix. */
#define assert_prefix(msg, prefix)                                                     \
    do {                                                                               \
        if (strncmp((msg), (prefix), strlen(prefix)) != 0)                             \
            fail_msg("expected \"%s...\", got \"%s\"", (prefix), (msg));               \
    } while (0)

/* The i-th command, which must be a launch. */
static const gp_kernel_t *kernel_at(const gp_workload_t *wl, uint32_t i)
{
    assert_true(i < wl->n_cmds);
    assert_int_equal(wl->cmds[i].type, GP_CMD_LAUNCH);
    return &wl->cmds[i].kernel;
}

/* Check an op's kind, count, ilp and script line. */
static void check_op(const gp_op_t *op, uint32_t kind, double count, double ilp, uint32_t line)
{
    assert_int_equal(op->kind, kind);
    assert_true(op->count == count);
    assert_true(op->ilp == ilp);
    assert_int_equal(op->line, line);
}

/* Check a memory op's access fields. */
static void check_access(const gp_op_t *op, uint32_t space, uint32_t bytes, uint32_t pattern,
                         int64_t stride, uint64_t footprint, uint32_t buffer)
{
    assert_int_equal(op->space, space);
    assert_int_equal(op->access.elem_bytes, bytes);
    assert_int_equal(op->access.pattern, pattern);
    assert_int_equal(op->access.stride_elems, stride);
    assert_int_equal(op->access.footprint_bytes, footprint);
    assert_int_equal(op->access.buffer, buffer);
}

/* Check a launch shape. */
static void check_shape(const gp_kernel_t *k, uint64_t gx, uint64_t gy, uint64_t gz,
                        uint64_t bx, uint64_t by, uint64_t bz)
{
    assert_int_equal(k->launch.grid.x, gx);
    assert_int_equal(k->launch.grid.y, gy);
    assert_int_equal(k->launch.grid.z, gz);
    assert_int_equal(k->launch.block.x, bx);
    assert_int_equal(k->launch.block.y, by);
    assert_int_equal(k->launch.block.z, bz);
    assert_int_equal(k->launch.threads_per_block, bx * by * bz);
}

/* A fresh temporary folder (removed by rm_tree). */
static void make_tmpdir(char *dir, size_t size)
{
    snprintf(dir, size, "/tmp/gp_test_script_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

/* Write data (len bytes) to dir/name. */
static void write_file(const char *dir, const char *name, const char *data, size_t len)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* Remove the files this test file creates, then the folder. */
static void rm_tree(const char *dir)
{
    static const char *const names[] = {"main.lua", "mod.lua", "outside.lua", "stderr.txt",
                                        "sub/evil.lua", "sub/main.lua", "sub"};
    char path[4096];
    size_t i;
    for (i = 0; i < GP_ARRAY_LEN(names); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (unlink(path) != 0)
            rmdir(path);
    }
    rmdir(dir);
}

/* ------------------------------------------------------- example scripts */

static void test_saxpy_example(void **state)
{
    gp_workload_t wl;
    const gp_kernel_t *k;
    (void)state;
    run_path(EXAMPLES "saxpy.lua", NULL, 0, &wl);
    assert_int_equal(wl.n_params, 2);
    assert_string_equal(wl.params[0].name, "n");
    assert_true(wl.params[0].value == 16777216.0);
    assert_string_equal(wl.params[1].name, "block");
    assert_true(wl.params[1].value == 256.0);
    assert_int_equal(wl.n_buffers, 2);
    assert_string_equal(wl.buffers[0].name, "x");
    assert_int_equal(wl.buffers[0].bytes, 4ULL << 24);
    assert_string_equal(wl.buffers[1].name, "y");
    assert_int_equal(wl.n_streams, 1);
    assert_string_equal(wl.streams[0].name, "default");
    assert_int_equal(wl.n_devices, 1);
    assert_int_equal(wl.n_cmds, 1);
    assert_int_equal(gp_workload_launches(&wl), 1);
    assert_int_equal(wl.cmds[0].stream, 0);
    assert_int_equal(wl.cmds[0].line, 7);
    assert_true(strstr(wl.script, "saxpy.lua") != NULL);
    k = kernel_at(&wl, 0);
    assert_string_equal(k->name, "saxpy");
    assert_int_equal(k->line, 7);
    check_shape(k, 65536, 1, 1, 256, 1, 1);
    assert_int_equal(k->total_blocks, 65536);
    assert_int_equal(k->launch.regs_per_thread, 12);
    assert_int_equal(k->launch.static_smem_bytes, 0);
    assert_int_equal(k->launch.dynamic_smem_bytes, 0);
    assert_int_equal(k->launch.barriers_per_block, 0);
    assert_int_equal(k->launch.carveout_percent, -1);
    assert_int_equal(k->launch.cache_pref, GP_CACHE_PREFER_NONE);
    assert_int_equal(k->n_ops, 4);
    check_op(&k->ops[0], GP_OP_LOAD, 1, 1, 13);
    check_access(&k->ops[0], GP_SPACE_GLOBAL, 4, GP_PATTERN_UNIT, 1, 4ULL << 24, 0);
    check_op(&k->ops[1], GP_OP_LOAD, 1, 1, 13);
    check_access(&k->ops[1], GP_SPACE_GLOBAL, 4, GP_PATTERN_UNIT, 1, 4ULL << 24, 1);
    check_op(&k->ops[2], GP_OP_FP32, 1, 1, 14);
    assert_int_equal(k->ops[2].access.buffer, UINT32_MAX);
    check_op(&k->ops[3], GP_OP_STORE, 1, 1, 15);
    check_access(&k->ops[3], GP_SPACE_GLOBAL, 4, GP_PATTERN_UNIT, 1, 4ULL << 24, 1);
    gp_workload_free(&wl);
}

/* gpuperf.grid: 1-D where grid.x reaches 2^31-1, folded where it is 65535. */
static void test_grid_helper(void **state)
{
    const gp_param_kv_t big[] = {{"n", "256*100000", NULL}};
    gp_device_t dev;
    gp_workload_t wl;
    gp_err_t err;
    const gp_kernel_t *k;
    (void)state;
    run_path(EXAMPLES "saxpy.lua", big, 1, &wl);
    k = kernel_at(&wl, 0);
    check_shape(k, 100000, 1, 1, 256, 1, 1);
    gp_workload_free(&wl);
    h200(&dev);
    dev.max_grid_x = 65535;
    dev.max_grid_z = 1;
    if (gp_script_run(EXAMPLES "saxpy.lua", NULL, &dev, big, 1, &wl, &err))
        fail_msg("%s", err.msg);
    k = kernel_at(&wl, 0);
    check_shape(k, 50000, 2, 1, 256, 1, 1); /* 100000 blocks as 50000 x 2 */
    assert_true(k->total_blocks >= 100000);
    gp_workload_free(&wl);
}

static void test_saxpy_params(void **state)
{
    const gp_param_kv_t kv[] = {{"n", "2^20", NULL}, {"block", "4*32", NULL}};
    gp_workload_t wl;
    const gp_kernel_t *k;
    (void)state;
    run_path(EXAMPLES "saxpy.lua", kv, 2, &wl);
    assert_int_equal(wl.buffers[0].bytes, 4ULL << 20);
    k = kernel_at(&wl, 0);
    check_shape(k, 8192, 1, 1, 128, 1, 1);
    assert_int_equal(k->ops[0].access.footprint_bytes, 4ULL << 20);
    gp_workload_free(&wl);
}

/* A caller that has read a value's number already (a sweep) hands it over:
   the parameter takes it as it would have read it from the text. */
static void test_saxpy_params_read_by_caller(void **state)
{
    const double n = 1 << 20, block = 128;
    const gp_param_kv_t kv[] = {{"n", "2^20", &n}, {"block", "4*32", &block}};
    gp_workload_t wl;
    const gp_kernel_t *k;
    (void)state;
    run_path(EXAMPLES "saxpy.lua", kv, 2, &wl);
    assert_int_equal(wl.n_params, 2);
    assert_true(wl.params[0].value == n && wl.params[1].value == block);
    assert_int_equal(wl.buffers[0].bytes, 4ULL << 20);
    k = kernel_at(&wl, 0);
    check_shape(k, 8192, 1, 1, 128, 1, 1);
    gp_workload_free(&wl);
}

static void test_triad_example(void **state)
{
    const gp_param_kv_t kv[] = {{"block", "32", NULL}};
    gp_workload_t wl;
    const gp_kernel_t *k;
    (void)state;
    run_path(EXAMPLES "triad.lua", NULL, 0, &wl);
    assert_int_equal(wl.n_buffers, 3);
    assert_string_equal(wl.buffers[0].name, "a");
    assert_int_equal(wl.buffers[2].bytes, 4ULL << 26);
    k = kernel_at(&wl, 0);
    assert_string_equal(k->name, "triad");
    check_shape(k, 262144, 1, 1, 256, 1, 1);
    assert_int_equal(k->launch.regs_per_thread, 12);
    assert_int_equal(k->n_ops, 4);
    check_access(&k->ops[0], GP_SPACE_GLOBAL, 4, GP_PATTERN_UNIT, 1, 4ULL << 26, 1);
    check_access(&k->ops[1], GP_SPACE_GLOBAL, 4, GP_PATTERN_UNIT, 1, 4ULL << 26, 2);
    assert_int_equal(k->ops[2].kind, GP_OP_FP32);
    assert_int_equal(k->ops[3].kind, GP_OP_STORE);
    assert_int_equal(k->ops[3].access.buffer, 0);
    gp_workload_free(&wl);
    run_path(EXAMPLES "triad.lua", kv, 1, &wl); /* the bs=32 row of calibration.csv */
    check_shape(kernel_at(&wl, 0), 2097152, 1, 1, 32, 1, 1);
    gp_workload_free(&wl);
}

static void test_matmul_example(void **state)
{
    const gp_param_kv_t kv[] = {{"n", "2048", NULL}};
    gp_workload_t wl;
    const gp_kernel_t *k;
    (void)state;
    run_path(EXAMPLES "matmul_tiled.lua", NULL, 0, &wl);
    assert_int_equal(wl.n_buffers, 3);
    assert_int_equal(wl.buffers[0].bytes, 4ULL * 1024 * 1024);
    k = kernel_at(&wl, 0);
    assert_string_equal(k->name, "sgemm_tiled16");
    check_shape(k, 64, 64, 1, 16, 16, 1);
    assert_int_equal(k->total_blocks, 4096);
    assert_int_equal(k->launch.regs_per_thread, 32);
    assert_int_equal(k->launch.static_smem_bytes, 2048);
    assert_int_equal(k->launch.barriers_per_block, 1);
    assert_int_equal(k->n_ops, 29);
    check_op(&k->ops[0], GP_OP_LOOP, 64, 1, 29);
    assert_int_equal(k->ops[0].body_len, 27);
    /* A[r][k0 + tx], B[k0 + ty][c]: index functions (a warp is two rows of 16) */
    assert_int_equal(k->ops[1].kind, GP_OP_LOAD);
    assert_int_equal(k->ops[1].access.buffer, 0);
    assert_non_null(k->ops[1].access.sample);
    assert_int_equal(k->ops[2].access.buffer, 1);
    assert_non_null(k->ops[2].access.sample);
    assert_int_equal(k->ops[3].kind, GP_OP_STORE);
    assert_int_equal(k->ops[3].space, GP_SPACE_SHARED);
    assert_int_equal(k->ops[4].kind, GP_OP_STORE);
    assert_int_equal(k->ops[5].kind, GP_OP_BARRIER);
    /* the unrolled k loop: As[ty][k..k+3] as four 16-byte loads, Bs[k][tx] as 16 */
    assert_int_equal(k->ops[6].space, GP_SPACE_SHARED);
    assert_int_equal(k->ops[6].access.elem_bytes, 16);
    assert_int_equal(k->ops[9].access.elem_bytes, 16);
    assert_int_equal(k->ops[10].access.elem_bytes, 4);
    assert_int_equal(k->ops[25].access.elem_bytes, 4);
    assert_int_equal(k->ops[26].kind, GP_OP_FP32);
    assert_true(k->ops[26].count == 16.0);
    assert_int_equal(k->ops[27].kind, GP_OP_BARRIER);
    assert_int_equal(k->ops[28].kind, GP_OP_STORE);
    assert_int_equal(k->ops[28].access.buffer, 2);
    gp_workload_free(&wl);
    run_path(EXAMPLES "matmul_tiled.lua", kv, 1, &wl);
    k = kernel_at(&wl, 0);
    check_shape(k, 128, 128, 1, 16, 16, 1);
    assert_true(k->ops[0].count == 128.0);
    gp_workload_free(&wl);
}

static void test_matmul_bad_n(void **state)
{
    const gp_param_kv_t kv[] = {{"n", "1000", NULL}};
    gp_device_t dev;
    gp_err_t err;
    (void)state;
    h200(&dev);
    run_fail(EXAMPLES "matmul_tiled.lua", NULL, &dev, kv, 1, &err);
    assert_prefix(err.msg, EXAMPLES "matmul_tiled.lua:6: n must be a positive multiple of 16");
}

static void test_reduce_example(void **state)
{
    const gp_param_kv_t kv[] = {{"block", "128", NULL}};
    gp_workload_t wl;
    const gp_kernel_t *k;
    (void)state;
    run_path(EXAMPLES "reduce.lua", NULL, 0, &wl);
    assert_int_equal(wl.n_buffers, 2);
    assert_int_equal(wl.buffers[1].bytes, 4 * 131072);
    k = kernel_at(&wl, 0);
    check_shape(k, 131072, 1, 1, 256, 1, 1);
    assert_int_equal(k->launch.regs_per_thread, 14);
    assert_int_equal(k->launch.dynamic_smem_bytes, 1024);
    assert_int_equal(k->launch.barriers_per_block, 1);
    assert_int_equal(k->n_ops, 14);
    assert_int_equal(k->ops[0].kind, GP_OP_LOAD);
    assert_int_equal(k->ops[1].kind, GP_OP_LOAD);
    assert_int_equal(k->ops[3].space, GP_SPACE_SHARED);
    assert_int_equal(k->ops[4].kind, GP_OP_BARRIER);
    assert_int_equal(k->ops[5].kind, GP_OP_LOOP);
    assert_true(k->ops[5].count == 8);
    assert_int_equal(k->ops[5].body_len, 7);
    /* (4 + 2 + 1*6) active warps of 8, over 8 steps: 0.1875 per thread */
    assert_true(k->ops[8].count == 0.1875);
    assert_true(k->ops[9].count == 0.1875);
    assert_true(k->ops[11].count == 0.1875);
    assert_int_equal(k->ops[12].kind, GP_OP_BARRIER);
    assert_int_equal(k->ops[13].kind, GP_OP_STORE);
    assert_true(k->ops[13].count == 1.0 / 8);
    assert_int_equal(k->ops[13].access.buffer, 1);
    gp_workload_free(&wl);
    run_path(EXAMPLES "reduce.lua", kv, 1, &wl);
    k = kernel_at(&wl, 0);
    check_shape(k, 262144, 1, 1, 128, 1, 1);
    assert_int_equal(k->launch.dynamic_smem_bytes, 512);
    assert_true(k->ops[5].count == 7);
    gp_workload_free(&wl);
}

/* Listing parameters needs no device: every example declares its own. */
static void test_examples_without_device(void **state)
{
    static const char *const names[] = {"saxpy.lua", "triad.lua", "matmul_tiled.lua",
                                        "reduce.lua"};
    static const uint32_t n_params[] = {2, 2, 1, 2};
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(names); i++) {
        char path[4096];
        gp_workload_t wl;
        gp_err_t err;
        snprintf(path, sizeof path, EXAMPLES "%s", names[i]);
        if (gp_script_run(path, NULL, NULL, NULL, 0, &wl, &err))
            fail_msg("%s", err.msg);
        assert_int_equal(wl.n_params, n_params[i]);
        assert_string_equal(wl.params[0].name, "n");
        assert_int_equal(gp_workload_launches(&wl), 1);
        gp_workload_free(&wl);
    }
}

/* ------------------------------------------------------------ conversion */

static void test_all_constructors(void **state)
{
    gp_workload_t wl;
    const gp_kernel_t *k;
    const gp_op_t *o;
    (void)state;
    run_ok("all_ops.lua", NULL, 0, &wl);
    k = kernel_at(&wl, 0);
    assert_string_equal(k->name, "everything");
    assert_int_equal(k->n_ops, 25);
    assert_int_equal(k->launch.barriers_per_block, 1);
    o = k->ops;
    check_op(&o[0], GP_OP_FP32, 3, 2, 11);
    check_op(&o[1], GP_OP_FP64, 1.5, 4, 12);
    check_op(&o[2], GP_OP_FP16, 8, 1, 13);
    check_op(&o[3], GP_OP_INT, 2, 1, 14);
    check_op(&o[4], GP_OP_SFU, 0.25, 1, 15);
    check_op(&o[5], GP_OP_CONV, 1, 1, 16);
    check_op(&o[6], GP_OP_BRANCH, 2, 1, 17);
    check_op(&o[7], GP_OP_BARRIER, 1, 1, 18);
    check_op(&o[8], GP_OP_BARRIER, 3, 1, 19);
    check_op(&o[9], GP_OP_TENSOR, 512, 1, 20);
    assert_int_equal(o[9].tensor_type, GP_TENSOR_BF16);
    check_op(&o[10], GP_OP_TENSOR, 64, 2, 21);
    assert_int_equal(o[10].tensor_type, GP_TENSOR_FP16);
    check_op(&o[11], GP_OP_LOAD, 2, 2, 22);
    check_access(&o[11], GP_SPACE_GLOBAL, 16, GP_PATTERN_STRIDE, 4, 1024, 0);
    assert_int_equal(o[11].access.offset_elems, 1);
    check_access(&o[12], GP_SPACE_TEXTURE, 4, GP_PATTERN_RANDOM, 1, 4096, 0);
    check_access(&o[13], GP_SPACE_GLOBAL, 4, GP_PATTERN_UNIT, 1, 4096, 0);
    assert_int_equal(o[14].kind, GP_OP_STORE);
    check_access(&o[14], GP_SPACE_GLOBAL, 8, GP_PATTERN_BROADCAST, 1, 4096, 0);
    assert_int_equal(o[15].kind, GP_OP_ATOMIC);
    check_access(&o[15], GP_SPACE_GLOBAL, 8, GP_PATTERN_UNIT, 1, 4096, 0);
    assert_int_equal(o[15].access.atomic_scope, GP_ATOMIC_PER_WARP);
    assert_int_equal(o[15].access.atomic_flags, GP_ATOMIC_RESULT);
    assert_int_equal(o[16].kind, GP_OP_ATOMIC);
    check_access(&o[16], GP_SPACE_SHARED, 4, GP_PATTERN_UNIT, 1, 0, UINT32_MAX);
    assert_int_equal(o[16].access.atomic_scope, GP_ATOMIC_SAME);
    assert_int_equal(o[16].access.atomic_flags, GP_ATOMIC_FROM_DATA);
    check_op(&o[17], GP_OP_ASYNC_COPY, 1, 1, 28);
    check_access(&o[17], GP_SPACE_GLOBAL, 16, GP_PATTERN_UNIT, 1, 4096, 0);
    assert_int_equal(o[18].kind, GP_OP_LOAD);
    check_access(&o[18], GP_SPACE_SHARED, 4, GP_PATTERN_STRIDE, 2, 0, UINT32_MAX);
    assert_int_equal(o[18].access.conflict_ways, 2);
    assert_int_equal(o[19].kind, GP_OP_STORE);
    check_access(&o[19], GP_SPACE_SHARED, 8, GP_PATTERN_BROADCAST, 1, 0, UINT32_MAX);
    assert_int_equal(o[19].access.conflict_ways, 0);
    check_access(&o[20], GP_SPACE_LOCAL, 4, GP_PATTERN_UNIT, 1, 0, UINT32_MAX);
    check_op(&o[21], GP_OP_STORE, 2, 1, 32);
    check_access(&o[21], GP_SPACE_LOCAL, 4, GP_PATTERN_UNIT, 1, 0, UINT32_MAX);
    check_access(&o[22], GP_SPACE_CONSTANT, 4, GP_PATTERN_BROADCAST, 1, 256, 1);
    check_access(&o[23], GP_SPACE_CONSTANT, 4, GP_PATTERN_UNIT, 1, 64, UINT32_MAX);
    check_access(&o[24], GP_SPACE_GLOBAL, 4, GP_PATTERN_STRIDE, -2, 2048, UINT32_MAX);
    gp_workload_free(&wl);
}

static void test_nested_flattening(void **state)
{
    static const uint32_t kinds[] = {GP_OP_LOOP, GP_OP_FP32,  GP_OP_DIVERGE, GP_OP_LOOP,
                                     GP_OP_INT,  GP_OP_FP32,  GP_OP_FP32,    GP_OP_SFU,
                                     GP_OP_BARRIER, GP_OP_STORE, GP_OP_LOOP};
    static const uint32_t body[] = {8, 0, 5, 3, 0, 0, 0, 0, 0, 0, 0};
    static const double counts[] = {4, 1, 2, 3, 1, 2, 3, 1, 1, 1, 0};
    gp_workload_t wl;
    const gp_kernel_t *k;
    uint32_t i;
    (void)state;
    run_ok("nested.lua", NULL, 0, &wl);
    k = kernel_at(&wl, 0);
    assert_int_equal(k->n_ops, GP_ARRAY_LEN(kinds));
    for (i = 0; i < k->n_ops; i++) {
        assert_int_equal(k->ops[i].kind, kinds[i]);
        assert_int_equal(k->ops[i].body_len, body[i]);
        assert_true(k->ops[i].count == counts[i]);
    }
    assert_int_equal(k->ops[3].line, 10); /* where loop(3, body) was written */
    assert_int_equal(k->ops[4].line, 3);  /* body's ops: where they were built */
    assert_int_equal(k->launch.barriers_per_block, 1);
    k = kernel_at(&wl, 1); /* 32 nested loops around one fp32 */
    assert_int_equal(k->n_ops, 33);
    for (i = 0; i < 32; i++) {
        assert_int_equal(k->ops[i].kind, GP_OP_LOOP);
        assert_int_equal(k->ops[i].body_len, 32 - i);
    }
    assert_int_equal(k->ops[32].kind, GP_OP_FP32);
    assert_int_equal(k->launch.barriers_per_block, 0);
    gp_workload_free(&wl);
}

/* `unroll` pins a loop's copies (#pragma unroll N); absent, 0: the model's
   choice. */
static void test_loop_unroll(void **state)
{
    gp_workload_t wl;
    const gp_kernel_t *k;
    (void)state;
    run_ok("loop_unroll.lua", NULL, 0, &wl);
    k = kernel_at(&wl, 0);
    assert_int_equal(k->n_ops, 6);
    assert_int_equal(k->ops[0].kind, GP_OP_LOOP);
    assert_int_equal(k->ops[0].unroll, 1);
    assert_int_equal(k->ops[2].kind, GP_OP_LOOP);
    assert_int_equal(k->ops[2].unroll, 4);
    assert_int_equal(k->ops[4].kind, GP_OP_LOOP);
    assert_int_equal(k->ops[4].unroll, 0);
    gp_workload_free(&wl);
}

static void test_templates(void **state)
{
    gp_workload_t wl;
    const gp_kernel_t *k;
    (void)state;
    run_ok("template.lua", NULL, 0, &wl);
    assert_int_equal(wl.n_cmds, 5);
    k = kernel_at(&wl, 0);
    assert_string_equal(k->name, "scale");
    check_shape(k, 8, 1, 1, 128, 1, 1);
    assert_int_equal(k->launch.regs_per_thread, 20);
    assert_int_equal(k->launch.static_smem_bytes, 512);
    assert_int_equal(k->n_ops, 3);
    assert_int_equal(k->line, 8);
    assert_int_equal(k->ops[0].line, 5); /* the template's ops keep their lines */
    k = kernel_at(&wl, 1);
    assert_string_equal(k->name, "scale_big");
    check_shape(k, 4, 2, 1, 128, 1, 1);
    assert_int_equal(k->total_blocks, 8);
    assert_int_equal(k->launch.regs_per_thread, 32);
    assert_int_equal(k->launch.static_smem_bytes, 512);
    assert_int_equal(k->launch.dynamic_smem_bytes, 256);
    assert_int_equal(k->n_ops, 1);
    check_op(&k->ops[0], GP_OP_FP64, 2, 1, 10);
    k = kernel_at(&wl, 2);
    assert_string_equal(k->name, "kernel3");
    assert_int_equal(k->n_ops, 0);
    assert_null(k->ops);
    k = kernel_at(&wl, 3);
    assert_string_equal(k->name, "kernel4");
    assert_int_equal(wl.cmds[3].stream, 1);
    assert_string_equal(wl.streams[1].name, "side");
    k = kernel_at(&wl, 4);
    assert_string_equal(k->name, "scale");
    assert_int_equal(k->n_ops, 3);
    assert_int_equal(wl.cmds[4].stream, 0);
    gp_workload_free(&wl);
}

static void test_multidim(void **state)
{
    gp_workload_t wl;
    const gp_kernel_t *k;
    (void)state;
    run_ok("multidim.lua", NULL, 0, &wl);
    k = kernel_at(&wl, 0);
    check_shape(k, 2, 3, 4, 8, 4, 1);
    assert_int_equal(k->total_blocks, 24);
    k = kernel_at(&wl, 1);
    check_shape(k, 7, 1, 1, 16, 2, 2);
    assert_int_equal(k->total_blocks, 7);
    k = kernel_at(&wl, 2);
    check_shape(k, 1ULL << 40, 1, 1, 1024, 1, 1);
    assert_int_equal(k->total_blocks, 1ULL << 40);
    k = kernel_at(&wl, 3);
    check_shape(k, 1ULL << 62, 1ULL << 62, 4, 1, 1, 1);
    assert_int_equal(k->total_blocks, UINT64_MAX); /* saturated */
    gp_workload_free(&wl);
}

static void test_streams_events_copies(void **state)
{
    static const uint32_t types[] = {GP_CMD_COPY, GP_CMD_RECORD, GP_CMD_WAIT, GP_CMD_LAUNCH,
                                     GP_CMD_RECORD, GP_CMD_SYNC, GP_CMD_COPY, GP_CMD_COPY,
                                     GP_CMD_SYNC};
    static const uint32_t streams[] = {1, 1, 2, 2, 0, 2, 0, 0, UINT32_MAX};
    gp_workload_t wl;
    uint32_t i;
    (void)state;
    run_ok("streams.lua", NULL, 0, &wl);
    assert_int_equal(wl.n_streams, 3);
    assert_string_equal(wl.streams[0].name, "default");
    assert_string_equal(wl.streams[1].name, "copy");
    assert_int_equal(wl.streams[1].line, 1);
    assert_string_equal(wl.streams[2].name, "stream2");
    assert_int_equal(wl.n_events, 2);
    assert_int_equal(wl.n_cmds, GP_ARRAY_LEN(types));
    for (i = 0; i < wl.n_cmds; i++) {
        assert_int_equal(wl.cmds[i].type, types[i]);
        assert_int_equal(wl.cmds[i].stream, streams[i]);
        assert_int_equal(wl.cmds[i].line, i + 5);
        assert_int_equal(wl.cmds[i].device, 0);
    }
    assert_int_equal(wl.cmds[0].copy_kind, GP_COPY_H2D);
    assert_int_equal(wl.cmds[0].copy_bytes, 4096);
    assert_int_equal(wl.cmds[1].event, 0);
    assert_int_equal(wl.cmds[2].event, 0);
    assert_int_equal(wl.cmds[4].event, 1);
    assert_int_equal(wl.cmds[6].copy_kind, GP_COPY_P2P);
    assert_int_equal(wl.cmds[6].copy_bytes, 1ULL << 30);
    assert_int_equal(wl.cmds[6].peer_device, 1);
    assert_int_equal(wl.cmds[7].copy_kind, GP_COPY_D2H);
    assert_int_equal(wl.cmds[7].copy_bytes, 512);
    assert_int_equal(gp_workload_launches(&wl), 1);
    gp_workload_free(&wl);
}

/* ------------------------------------------------------------ parameters */

static void test_params_defaults(void **state)
{
    gp_workload_t wl;
    (void)state;
    run_ok("params.lua", NULL, 0, &wl);
    assert_int_equal(wl.n_params, 3);
    assert_string_equal(wl.params[0].name, "n");
    assert_string_equal(wl.params[0].help, "number of elements");
    assert_true(wl.params[0].default_value == 1024 && wl.params[0].value == 1024);
    assert_int_equal(wl.params[0].is_string, 0);
    assert_int_equal(wl.params[0].line, 1);
    assert_string_equal(wl.params[1].help, "");
    assert_int_equal(wl.params[2].is_string, 1);
    assert_string_equal(wl.params[2].default_str, "fast");
    assert_string_equal(wl.params[2].value_str, "fast");
    assert_int_equal(wl.params[2].line, 3);
    assert_string_equal(wl.buffers[0].name, "fast");
    assert_int_equal(wl.buffers[0].bytes, 4096);
    assert_string_equal(kernel_at(&wl, 0)->name, "k_fast");
    check_shape(kernel_at(&wl, 0), 8, 1, 1, 128, 1, 1);
    gp_workload_free(&wl);
}

static void test_params_override(void **state)
{
    const gp_param_kv_t kv[] = {
        {"n", "2^24", NULL}, {"block", "(4*64)", NULL}, {"mode", "exact", NULL}};
    gp_workload_t wl;
    (void)state;
    run_ok("params.lua", kv, 3, &wl);
    assert_true(wl.params[0].default_value == 1024);
    assert_true(wl.params[0].value == 16777216.0);
    assert_true(wl.params[1].value == 256.0);
    assert_string_equal(wl.params[2].default_str, "fast");
    assert_string_equal(wl.params[2].value_str, "exact");
    assert_string_equal(wl.buffers[0].name, "exact");
    assert_int_equal(wl.buffers[0].bytes, 4ULL << 24);
    assert_string_equal(kernel_at(&wl, 0)->name, "k_exact");
    check_shape(kernel_at(&wl, 0), 65536, 1, 1, 256, 1, 1);
    gp_workload_free(&wl);
}

static void test_param_bad_value(void **state)
{
    const gp_param_kv_t kv[] = {{"n", "lots", NULL}};
    gp_err_t err;
    (void)state;
    run_fail(SCRIPTS "params.lua", NULL, NULL, kv, 1, &err);
    assert_prefix(err.msg, SCRIPTS "params.lua:1: -p n=lots: 'lots': not a number");
}

static void test_param_undeclared(void **state)
{
    const gp_param_kv_t kv[] = {{"n", "64", NULL}, {"foo", "1", NULL}};
    gp_err_t err;
    (void)state;
    run_fail(SCRIPTS "params.lua", NULL, NULL, kv, 2, &err);
    assert_string_equal(err.msg, "-p foo: the script declares no parameter 'foo' "
                                 "(it declares: n, block, mode); `gpuperf params " SCRIPTS
                                 "params.lua` lists them with defaults and help");
}

static void test_param_given_twice(void **state)
{
    const gp_param_kv_t kv[] = {{"n", "64", NULL}, {"n", "128", NULL}};
    gp_err_t err;
    (void)state;
    run_fail(SCRIPTS "params.lua", NULL, NULL, kv, 2, &err);
    assert_string_equal(err.msg, "-p n: given twice; give each parameter once");
}

/* ---------------------------------------------------------------- device */

static void test_device_table(void **state)
{
    gp_workload_t wl;
    const gp_kernel_t *k;
    (void)state;
    run_ok("device.lua", NULL, 0, &wl);
    k = kernel_at(&wl, 0);
    assert_string_equal(k->name, "hopper_fill");
    check_shape(k, 528, 1, 1, 1024, 1, 1);
    assert_int_equal(k->launch.dynamic_smem_bytes, 232448);
    check_access(&k->ops[0], GP_SPACE_GLOBAL, 4, GP_PATTERN_UNIT, 1, 62914560, UINT32_MAX);
    assert_true(k->ops[1].count == 128.0);
    gp_workload_free(&wl);
}

static void test_device_absent(void **state)
{
    gp_err_t err;
    (void)state;
    run_fail(SCRIPTS "device.lua", NULL, NULL, NULL, 0, &err);
    assert_prefix(err.msg, SCRIPTS "device.lua:1: gpuperf.device: no device was given");
}

/* ------------------------------------------------------ errors, loading */

static void test_syntax_error(void **state)
{
    gp_err_t err;
    (void)state;
    assert_null(gp_script_open(SCRIPTS "syntax_error.lua", NULL, &err));
    assert_string_equal(err.msg, SCRIPTS "syntax_error.lua:4: 'then' expected near 'print'");
}

static void test_runtime_error_traceback(void **state)
{
    gp_err_t err;
    (void)state;
    run_fail(SCRIPTS "runtime_error.lua", NULL, NULL, NULL, 0, &err);
    assert_string_equal(err.msg, SCRIPTS "runtime_error.lua:3: bad value 42\n"
                                 "stack traceback:\n"
                                 "\t" SCRIPTS "runtime_error.lua:3: in function 'inner'\n"
                                 "\t" SCRIPTS "runtime_error.lua:6: in function 'outer'\n"
                                 "\t" SCRIPTS "runtime_error.lua:8: in main chunk");
}

static void test_missing_file(void **state)
{
    gp_err_t err;
    (void)state;
    assert_null(gp_script_open(SCRIPTS "no_such_script.lua", NULL, &err));
    assert_contains(err.msg, "no_such_script.lua: cannot open");
    assert_null(gp_script_open(NULL, NULL, &err));
    assert_int_equal(gp_script_eval(NULL, NULL, NULL, 0, NULL, &err), -1);
    gp_script_close(NULL);
}

/* A file that starts with ESC is bytecode and never loaded. */
static void test_bytecode_file(void **state)
{
    static const char bc[] = "\x1bLJ\x02\x0a\x00\x00";
    char dir[64], path[128];
    gp_err_t err;
    (void)state;
    make_tmpdir(dir, sizeof dir);
    write_file(dir, "main.lua", bc, sizeof bc - 1);
    snprintf(path, sizeof path, "%s/main.lua", dir);
    assert_null(gp_script_open(path, NULL, &err));
    assert_contains(err.msg, "precompiled Lua bytecode is not accepted");
    rm_tree(dir);
}

static void test_require_module(void **state)
{
    gp_script_t *s;
    gp_workload_t wl;
    gp_err_t err;
    int round;
    (void)state;
    s = gp_script_open(SCRIPTS "require_main.lua", NULL, &err);
    assert_non_null(s);
    for (round = 0; round < 2; round++) { /* compiled once, run per evaluation */
        const gp_kernel_t *k;
        if (gp_script_eval(s, NULL, NULL, 0, &wl, &err))
            fail_msg("%s", err.msg);
        assert_int_equal(wl.n_buffers, 1);
        assert_string_equal(wl.buffers[0].name, "shared_buf");
        k = kernel_at(&wl, 0);
        assert_int_equal(k->n_ops, 3);
        check_op(&k->ops[0], GP_OP_LOAD, 1, 1, 6); /* a line of helpers.lua */
        assert_int_equal(k->ops[0].access.buffer, 0);
        gp_workload_free(&wl);
    }
    gp_script_close(s);
}

static void test_require_bytecode(void **state)
{
    static const char bc[] = "\x1bLJ\x02\x0a";
    static const char main_lua[] = "local m = require(\"mod\")\n";
    char dir[64], path[128], expect[256];
    gp_err_t err;
    (void)state;
    make_tmpdir(dir, sizeof dir);
    write_file(dir, "main.lua", main_lua, sizeof main_lua - 1);
    write_file(dir, "mod.lua", bc, sizeof bc - 1);
    snprintf(path, sizeof path, "%s/main.lua", dir);
    run_fail(path, NULL, NULL, NULL, 0, &err);
    snprintf(expect, sizeof expect, "%s:1: require 'mod': mod.lua is precompiled bytecode",
             path);
    assert_prefix(err.msg, expect);
    rm_tree(dir);
}

/* Errors name the script, and its modules, by the path as given, however
   long (Lua itself cuts a chunk name past LUA_IDSIZE to "...tail"). */
static void test_error_paths_whole(void **state)
{
    static const char folder[] = "a_folder_whose_name_alone_is_longer_than_lua_keeps_of_a_chunk";
    static const char *const srcs[][2] = {
        {"main.lua", "local m = require('mod')\nm.f()\n"},
        {"mod.lua", "local M = {}\nfunction M.f()\n  error('bad', 1)\nend\nreturn M\n"},
        {"syn.lua", "local x =\n= 1\n"},
        {"usesyn.lua", "require('syn')\n"},
    };
    char dir[64], sub[256], path[512], expect[1024];
    gp_err_t err;
    size_t i;
    (void)state;
    make_tmpdir(dir, sizeof dir);
    snprintf(sub, sizeof sub, "%s/%s", dir, folder);
    assert_int_equal(mkdir(sub, 0700), 0);
    for (i = 0; i < GP_ARRAY_LEN(srcs); i++)
        write_file(sub, srcs[i][0], srcs[i][1], strlen(srcs[i][1]));
    /* a runtime error in a module: message and traceback */
    snprintf(path, sizeof path, "%s/main.lua", sub);
    assert_true(strlen(path) > 80); /* past LUA_IDSIZE */
    run_fail(path, NULL, NULL, NULL, 0, &err);
    snprintf(expect, sizeof expect,
             "%s/mod.lua:3: bad\nstack traceback:\n\t%s/mod.lua:3: in function 'f'\n"
             "\t%s/main.lua:2: in main chunk",
             sub, sub, sub);
    assert_string_equal(err.msg, expect);
    /* a syntax error in the script, then in a module */
    snprintf(path, sizeof path, "%s/syn.lua", sub);
    assert_null(gp_script_open(path, NULL, &err));
    snprintf(expect, sizeof expect, "%s/syn.lua:2: unexpected symbol near '='", sub);
    assert_string_equal(err.msg, expect);
    snprintf(path, sizeof path, "%s/usesyn.lua", sub);
    run_fail(path, NULL, NULL, NULL, 0, &err);
    assert_prefix(err.msg, expect);
    for (i = 0; i < GP_ARRAY_LEN(srcs); i++) {
        snprintf(path, sizeof path, "%s/%s", sub, srcs[i][0]);
        assert_int_equal(unlink(path), 0);
    }
    assert_int_equal(rmdir(sub), 0);
    rm_tree(dir);
}

/* A module that is a link to a file outside the script's folder. */
static void test_require_symlink_outside(void **state)
{
    static const char main_lua[] = "local m = require(\"evil\")\n";
    static const char outside[] = "return 1\n";
    char dir[64], path[128], target[128], expect[256];
    gp_err_t err;
    (void)state;
    make_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/sub", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    write_file(dir, "outside.lua", outside, sizeof outside - 1);
    write_file(path, "main.lua", main_lua, sizeof main_lua - 1);
    snprintf(target, sizeof target, "%s/outside.lua", dir);
    snprintf(path, sizeof path, "%s/sub/evil.lua", dir);
    assert_int_equal(symlink(target, path), 0);
    snprintf(path, sizeof path, "%s/sub/main.lua", dir);
    run_fail(path, NULL, NULL, NULL, 0, &err);
    snprintf(expect, sizeof expect,
             "%s:1: require 'evil': evil.lua leads outside the script's folder", path);
    assert_prefix(err.msg, expect);
    rm_tree(dir);
}

static void test_sandbox_globals_absent(void **state)
{
    gp_workload_t wl;
    (void)state;
    run_ok("sb_absent.lua", NULL, 0, &wl);
    assert_int_equal(wl.n_buffers, 1);
    assert_string_equal(wl.buffers[0].name, "ok");
    gp_workload_free(&wl);
}

/* math: read, written, set raw, given a metatable, extended, walked with
   next, in one compiled script evaluated again and again: each evaluation
   sees the whole library, its own changes, and none of the one before; the
   keys pairs lists are the library's in every case. */
static void test_sandbox_math(void **state)
{
    static const char *const modes[] = {"read", "write", "rawset", "meta", "insert",
                                        "next", "read", "write", "read"};
    gp_workload_t wl;
    gp_script_t *s;
    gp_err_t err;
    uint64_t keys = 0;
    size_t i;
    (void)state;
    s = gp_script_open(SCRIPTS "sb_math.lua", NULL, &err);
    assert_non_null(s);
    for (i = 0; i < GP_ARRAY_LEN(modes); i++) {
        gp_param_kv_t kv = {"mode", modes[i], NULL};
        if (gp_script_eval(s, NULL, &kv, 1, &wl, &err))
            fail_msg("mode %s: %s", modes[i], err.msg);
        assert_int_equal(wl.n_buffers, 1);
        if (i == 0)
            keys = wl.buffers[0].bytes;
        else /* a key cleared and one added, or the one added not counted */
            assert_int_equal(wl.buffers[0].bytes, keys);
        gp_workload_free(&wl);
    }
    assert_true(keys > 20);
    gp_script_close(s);
}

/* The log handler of test_print_to_log: keeps the last "print" line. */
static void capture_print(void *ud, int level, const char *who, const char *msg)
{
    if (strcmp(who, "print") == 0 && level == GP_LOG_INFO)
        snprintf(ud, 256, "%s", msg);
}

/* print goes to the log handler (the library never writes to stderr),
   tab-separated, with tostring of each value. */
static void test_print_to_log(void **state)
{
    char line[256] = "";
    gp_workload_t wl;
    (void)state;
    gp_log_set_handler(capture_print, line);
    run_ok("print.lua", NULL, 0, &wl);
    gp_log_set_handler(NULL, NULL);
    assert_string_equal(line, "hello\t42\tbuffer 'b'\tnil\ttrue");
    gp_workload_free(&wl);
}

/* The default budget (2e8 instructions) ends a runaway loop too. */
static void test_default_budget(void **state)
{
    gp_err_t err;
    (void)state;
    run_fail(SCRIPTS "sb_infinite_loop.lua", NULL, NULL, NULL, 0, &err);
    assert_prefix(err.msg, SCRIPTS "sb_infinite_loop.lua:3: instruction budget of 200000000 exceeded "
                           "(runaway loop?)");
}

/* A cap too small for the Lua state itself is an error, not a crash. */
static void test_tiny_memory_cap(void **state)
{
    gp_script_opts_t o = opts_of(0, 16 * 1024);
    gp_err_t err;
    (void)state;
    assert_null(gp_script_open(EXAMPLES "saxpy.lua", &o, &err));
    assert_contains(err.msg, "saxpy.lua: ");
    assert_contains(err.msg, "memory cap");
}

/* ---------------------------------------------------------- re-evaluation */

/* 1 if two workloads hold the same commands, ops, buffers and streams. */
static void assert_same_workload(const gp_workload_t *a, const gp_workload_t *b)
{
    uint32_t i;
    assert_int_equal(a->n_cmds, b->n_cmds);
    assert_int_equal(a->n_buffers, b->n_buffers);
    assert_int_equal(a->n_streams, b->n_streams);
    assert_int_equal(a->n_events, b->n_events);
    assert_int_equal(a->n_params, b->n_params);
    assert_memory_equal(a->buffers, b->buffers, a->n_buffers * sizeof *a->buffers);
    assert_memory_equal(a->streams, b->streams, a->n_streams * sizeof *a->streams);
    assert_memory_equal(a->params, b->params, a->n_params * sizeof *a->params);
    for (i = 0; i < a->n_cmds; i++) {
        gp_command_t x = a->cmds[i], y = b->cmds[i];
        if (x.type == GP_CMD_LAUNCH) {
            assert_string_equal(x.kernel.name, y.kernel.name);
            assert_int_equal(x.kernel.n_ops, y.kernel.n_ops);
            assert_memory_equal(x.kernel.ops, y.kernel.ops, x.kernel.n_ops * sizeof(gp_op_t));
            x.kernel.name = y.kernel.name = NULL;
            x.kernel.ops = y.kernel.ops = NULL;
        }
        assert_memory_equal(&x, &y, sizeof x);
    }
}

static void test_reeval_identical(void **state)
{
    const gp_param_kv_t kv[] = {{"n", "32", NULL}};
    gp_workload_t first, again, other;
    gp_device_t dev;
    gp_script_t *s;
    gp_err_t err;
    (void)state;
    h200(&dev);
    s = gp_script_open(SCRIPTS "reeval.lua", NULL, &err);
    assert_non_null(s);
    if (gp_script_eval(s, &dev, NULL, 0, &first, &err))
        fail_msg("%s", err.msg);
    if (gp_script_eval(s, &dev, kv, 1, &other, &err))
        fail_msg("%s", err.msg);
    if (gp_script_eval(s, &dev, NULL, 0, &again, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(kernel_at(&first, 0)->launch.grid.x, 16);
    assert_int_equal(kernel_at(&other, 0)->launch.grid.x, 32);
    assert_same_workload(&first, &again);
    assert_int_equal(first.buffers[0].bytes, other.buffers[0].bytes); /* same random draw */
    gp_workload_free(&first);
    gp_workload_free(&other);
    gp_workload_free(&again);
    gp_script_close(s);
}

/* Each evaluation starts from the same random generator, whether the one
   before drew numbers, seeded it otherwise or left it alone. */
static void test_reeval_random(void **state)
{
    static const char *const ks[] = {"0", "1", "0", "2", "2", "0", "1", "1", "0"};
    uint64_t bytes[GP_ARRAY_LEN(ks)];
    gp_device_t dev;
    gp_script_t *s;
    gp_err_t err;
    size_t i;
    (void)state;
    h200(&dev);
    s = gp_script_open(SCRIPTS "rng.lua", NULL, &err);
    assert_non_null(s);
    for (i = 0; i < GP_ARRAY_LEN(ks); i++) {
        const gp_param_kv_t kv[] = {{"k", ks[i], NULL}};
        gp_workload_t wl;
        if (gp_script_eval(s, &dev, kv, 1, &wl, &err))
            fail_msg("%s", err.msg);
        bytes[i] = wl.buffers[0].bytes;
        gp_workload_free(&wl);
    }
    gp_script_close(s);
    for (i = 0; i < GP_ARRAY_LEN(ks); i++) {
        if (ks[i][0] == '0')
            assert_int_equal(bytes[i], bytes[0]);
        else if (ks[i][0] == '1')
            assert_int_equal(bytes[i], bytes[1]);
        else
            assert_int_equal(bytes[i], 4);
    }
    assert_int_not_equal(bytes[0], bytes[1]);
}

/* After each kind of failure the same compiled script runs cleanly. */
static void test_reeval_after_failures(void **state)
{
    static const char *const fails[] = {"memory", "budget", "error"};
    static const char *const msgs[] = {SCRIPTS "recover.lua: memory cap of 16 MiB exceeded",
                                       SCRIPTS "recover.lua:4: instruction budget of 5000000 "
                                               "exceeded",
                                       SCRIPTS "recover.lua:5: asked to fail"};
    gp_script_opts_t o = opts_of(5000000, 16 << 20);
    gp_workload_t wl;
    gp_script_t *s;
    gp_err_t err;
    size_t i;
    (void)state;
    s = gp_script_open(SCRIPTS "recover.lua", &o, &err);
    assert_non_null(s);
    for (i = 0; i < GP_ARRAY_LEN(fails); i++) {
        gp_param_kv_t kv = {"fail", fails[i], NULL};
        assert_int_equal(gp_script_eval(s, NULL, &kv, 1, &wl, &err), -1);
        assert_prefix(err.msg, msgs[i]);
        assert_int_equal(wl.n_cmds, 0);
        if (gp_script_eval(s, NULL, NULL, 0, &wl, &err))
            fail_msg("after '%s': %s", fails[i], err.msg);
        assert_int_equal(gp_workload_launches(&wl), 1);
        gp_workload_free(&wl);
    }
    gp_script_close(s);
}

/* ------------------------------------------------------------ bad inputs */

/* One script that must fail, and the message it must fail with. */
typedef struct bad_case {
    const char *script;  /* under tests/data/scripts */
    const char *expect;  /* the message starts with this */
    const char *also;    /* and contains this (or NULL) */
    uint64_t budget;     /* 0: the default */
    uint64_t memory;     /* 0: the default */
} bad_case_t;

static const bad_case_t bad_cases[] = {
    {"bad_grid.lua",
     "bad_grid.lua:2: launch 'k': 'grid.x' must be a positive integer, got -3",
     NULL, 0, 0},
    {"bad_block_type.lua",
     "bad_block_type.lua:2: launch 'k': 'block' must be a positive "
     "integer, {x, y, z} or {x = , y = , z = }, got \"big\"",
     NULL, 0, 0},
    {"bad_regs_missing.lua",
     "bad_regs_missing.lua:2: launch 'k': 'regs' is required: registers "
     "per thread, as `ptxas -v` reports them",
     NULL, 0, 0},
    {"bad_regs_range.lua",
     "bad_regs_range.lua:2: launch 'k': 'regs' must be an integer from 0 "
     "to 65535, got 70000",
     NULL, 0, 0},
    {"bad_unknown_field.lua",
     "bad_unknown_field.lua:2: launch 'k': unknown field 'gird' "
     "(accepted: name, grid, block, regs, smem, dynamic_smem, work, "
     "stream, cache, global_cache, bank_bytes, carveout, device, after)",
     NULL, 0, 0},
    {"bad_work_entry.lua",
     "bad_work_entry.lua:3: launch 'saxpy': work[3] is a string, expected "
     "a gpuperf operation",
     NULL, 0, 0},
    {"bad_negative_count.lua",
     "bad_negative_count.lua:2: gpuperf.fp32: 'count' must be a "
     "non-negative number, got -2",
     NULL, 0, 0},
    {"bad_ilp.lua",
     "bad_ilp.lua:2: gpuperf.fp64: 'ilp' must be a number >= 1, got 0",
     NULL, 0, 0},
    {"bad_bytes.lua",
     "bad_bytes.lua:3: gpuperf.load: 'bytes' must be 1, 2, 4, 8 or 16, got 3",
     NULL, 0, 0},
    {"bad_stride_pattern.lua",
     "bad_stride_pattern.lua:3: gpuperf.load: 'stride' = 4 needs "
     "pattern \"stride\", but the pattern is \"unit\"",
     NULL, 0, 0},
    {"bad_footprint.lua",
     "bad_footprint.lua:3: gpuperf.store: 'footprint' = 128 is larger than "
     "buffer 'b' (64 bytes)",
     NULL, 0, 0},
    {"bad_no_buffer.lua",
     "bad_no_buffer.lua:2: gpuperf.load: a global load needs a buffer "
     "(gpuperf.load{buf, ...}) or 'footprint' = the bytes it touches",
     NULL, 0, 0},
    {"bad_diverge.lua",
     "bad_diverge.lua:2: gpuperf.diverge: 'paths' must be an integer from 1 "
     "to 32, got 33",
     NULL, 0, 0},
    {"bad_loop_trips.lua",
     "bad_loop_trips.lua:2: gpuperf.loop: 'trips' must be a non-negative "
     "number, got -1",
     NULL, 0, 0},
    {"bad_loop_unroll.lua",
     "bad_loop_unroll.lua:2: gpuperf.loop: 'unroll' must be an integer from 1 to 1024, got 0",
     NULL, 0, 0},
    {"bad_too_deep.lua",
     "bad_too_deep.lua:4: gpuperf.loop: body[1].body[1]",
     "work nested more than 32 levels deep", 0, 0},
    {"bad_too_many_ops.lua",
     "bad_too_many_ops.lua:5: launch 'k': work[1].body[4096]: more than "
     "4096 operations in one kernel",
     NULL, 0, 0},
    {"bad_cache.lua",
     "bad_cache.lua:2: launch 'k': 'cache' must be one of \"none\", "
     "\"prefer_shared\", \"prefer_l1\", \"prefer_equal\", got \"l1\"",
     NULL, 0, 0},
    {"bad_carveout.lua",
     "bad_carveout.lua:2: launch 'k': 'carveout' must be an integer from 0 "
     "to 100, got 101",
     NULL, 0, 0},
    {"bad_stream.lua",
     "bad_stream.lua:2: launch 'k': 'stream' must be a stream (from "
     "gpuperf.stream() or gpuperf.default_stream), got \"s1\"",
     NULL, 0, 0},
    {"bad_name_long.lua",
     "bad_name_long.lua:2: launch #1: 'name' must be a name of 1 to 63 "
     "printable ASCII characters, got \"kkkk",
     NULL, 0, 0},
    {"bad_copy_kind.lua",
     "bad_copy_kind.lua:2: gpuperf.copy: 'kind' must be one of \"h2d\", "
     "\"d2h\", \"d2d\", \"p2p\", got \"h2h\"",
     NULL, 0, 0},
    {"bad_tensor_type.lua",
     "bad_tensor_type.lua:2: gpuperf.tensor: 'type' must be one of "
     "\"fp16\", \"bf16\", \"tf32\", \"fp64\", \"int8\", \"fp8\", got "
     "\"fp4\"",
     NULL, 0, 0},
    {"bad_buffer_bytes.lua",
     "bad_buffer_bytes.lua:2: gpuperf.buffer 'x': 'bytes' must be a "
     "positive integer, got 0",
     NULL, 0, 0},
    {"bad_conflicts.lua",
     "bad_conflicts.lua:2: gpuperf.shared_load: 'conflicts' must be an "
     "integer from 1 to 32, got 33",
     NULL, 0, 0},
    {"bad_mutated_op.lua",
     "bad_mutated_op.lua:4: launch 'k': work[1]: 'count' must be a "
     "non-negative number, got -1",
     NULL, 0, 0},
    {"bad_store_texture.lua",
     "bad_store_texture.lua:3: gpuperf.store: a store cannot go to "
     "texture memory",
     NULL, 0, 0},
    {"bad_atomic_scope.lua",
     "bad_atomic_scope.lua:3: gpuperf.atomic: 'scope' must be one of "
     "\"distinct\", \"warp\", \"same\", got \"block\"",
     NULL, 0, 0},
    {"bad_atomic_result.lua",
     "bad_atomic_result.lua:3: gpuperf.atomic: 'result' must be true (the "
     "returned value is used: old = atomicAdd(p, v)) or false (discarded: "
     "atomicAdd(p, v);), got 1",
     NULL, 0, 0},
    {"bad_atomic_from_data.lua",
     "bad_atomic_from_data.lua:3: gpuperf.atomic: 'from_data' must be true "
     "(the address is computed from data, hist[in[i]]) or false, got \"yes\"",
     NULL, 0, 0},
    {"bad_result_load.lua",
     "bad_result_load.lua:3: gpuperf.load: unknown field 'result' (accepted: "
     "[1], buffer, bytes, pattern, stride, offset, count, ilp, footprint, "
     "space, index, depends, range, walk, draws, in_flight)",
     NULL, 0, 0},
    {"bad_walk_value.lua",
     "bad_walk_value.lua:3: gpuperf.load: 'walk' must be one of \"cycle\", "
     "\"draws\", got \"ring\"",
     NULL, 0, 0},
    {"bad_draws_value.lua",
     "bad_draws_value.lua:3: gpuperf.store: 'draws' must be a name of 1 to 63 printable "
     "ASCII characters, got 7",
     NULL, 0, 0},
    {"bad_draws_no_index.lua",
     "bad_draws_no_index.lua:3: gpuperf.store: 'draws' names the draws of an index "
     "function; give index = function(t) ... gpuperf.random(lo, hi) ... end",
     NULL, 0, 0},
    {"bad_draws_no_draw.lua",
     "bad_draws_no_draw.lua:5: launch 'k': work[1]: the store at line 3: 'draws' names the "
     "draws of its index function, which draws nothing; call gpuperf.random(lo, hi) in it, "
     "or drop 'draws'",
     NULL, 0, 0},
    {"bad_in_flight_value.lua",
     "bad_in_flight_value.lua:3: gpuperf.load: 'in_flight' must be an integer from 1 to "
     "1024, got 0",
     NULL, 0, 0},
    {"bad_in_flight_chase.lua",
     "bad_in_flight_chase.lua:3: gpuperf.load: 'in_flight' applies to independent loads: "
     "a load with depends = true waits for the load before it; drop one of the two",
     NULL, 0, 0},
    {"bad_in_flight_shared.lua",
     "bad_in_flight_shared.lua:2: gpuperf.shared_load: unknown field 'in_flight' "
     "(accepted: bytes, pattern, stride, offset, count, ilp, conflicts, index, depends)",
     NULL, 0, 0},
    {"bad_in_flight_local.lua",
     "bad_in_flight_local.lua:2: gpuperf.load: 'in_flight' applies to global and texture "
     "loads; drop it from a local load",
     NULL, 0, 0},
    {"bad_walk_gather.lua",
     "bad_walk_gather.lua:3: gpuperf.load: 'walk' applies to a chase, a load "
     "with depends = true whose index draws from gpuperf.random; add depends "
     "= true or drop 'walk'",
     NULL, 0, 0},
    {"bad_work_not_list.lua",
     "bad_work_not_list.lua:2: launch 'k': work has a non-list entry "
     "[\"count\"]; a work list holds operations at [1]..[n]",
     NULL, 0, 0},
    {"bad_work_handle.lua",
     "bad_work_handle.lua:3: launch 'k': work[1] is a buffer handle, "
     "expected a gpuperf operation",
     NULL, 0, 0},
    {"bad_launch_args.lua",
     "bad_launch_args.lua:2: launch #1: 'argument 1' must be a kernel "
     "template (gpuperf.kernel) or a table of launch fields, got \"k\"",
     NULL, 0, 0},
    {"bad_event.lua",
     "bad_event.lua:2: gpuperf.record: 'event' must be an event (from "
     "gpuperf.event()), got \"e\"",
     NULL, 0, 0},
    {"bad_param_name.lua",
     "bad_param_name.lua:2: gpuperf.param: 'name' must be an identifier "
     "([A-Za-z_][A-Za-z0-9_]*, at most 63 bytes), got \"2n\"",
     NULL, 0, 0},
    {"bad_dim_twice.lua",
     "bad_dim_twice.lua:2: launch 'k': 'grid.x' is given twice, as grid[1] "
     "and as grid.x",
     NULL, 0, 0},
    {"bad_buffer_twice.lua",
     "bad_buffer_twice.lua:3: gpuperf.buffer 'a': a buffer named 'a' "
     "already exists (line 2)",
     NULL, 0, 0},
    {"dup_param.lua",
     "dup_param.lua:2: gpuperf.param 'n': parameter 'n' is declared twice "
     "(first at line 1)",
     NULL, 0, 0},
    {"sb_os_execute.lua",
     "sb_os_execute.lua:2: attempt to index global 'os' (a nil value)",
     NULL, 0, 0},
    {"sb_io_open.lua",
     "sb_io_open.lua:2: attempt to index global 'io' (a nil value)",
     NULL, 0, 0},
    {"sb_require_dotdot.lua",
     "sb_require_dotdot.lua:2: require \"../x\": a module name is a "
     "plain name of letters, digits, '_', '-' and '.'",
     NULL, 0, 0},
    {"sb_require_dots.lua",
     "sb_require_dots.lua:2: require \".hidden\": a module name is a plain "
     "name",
     NULL, 0, 0},
    {"sb_require_missing.lua",
     "sb_require_missing.lua:2: require 'nothere': there is no "
     "nothere.lua in the script's folder",
     NULL, 0, 0},
    {"sb_require_circular.lua",
     "circ_b.lua:1: require 'circ_a': circular require",
     NULL, 0, 0},
    {"sb_require_syntax.lua",
     "mod_syntax.lua:2: unexpected symbol near '='",
     NULL, 0, 0},
    {"sb_loadstring.lua",
     "sb_loadstring.lua:2: attempt to call global 'loadstring' (a nil "
     "value)",
     NULL, 0, 0},
    {"sb_bytecode_load.lua",
     "sb_bytecode_load.lua:2: attempt to call global 'load' (a nil "
     "value)",
     NULL, 0, 0},
    {"sb_string_dump.lua",
     "sb_string_dump.lua:2: attempt to call field 'dump' (a nil value)",
     NULL, 0, 0},
    {"sb_infinite_loop.lua",
     "sb_infinite_loop.lua:3: instruction budget of 1000000 exceeded "
     "(runaway loop?)",
     NULL, 1000000, 0},
    {"sb_memory_hog.lua",
     "sb_memory_hog.lua: memory cap of 8 MiB exceeded",
     NULL, 0, 8 << 20},
    {"sb_string_rep.lua",
     "sb_string_rep.lua:2: string.rep: the result would take "
     "1099511627776 bytes, more than the memory cap of 256 MiB leaves",
     NULL, 0, 0},
    {"sb_deep_recursion.lua",
     "sb_deep_recursion.lua:3: stack overflow: calls nested more than "
     "1000 deep (runaway recursion?)",
     "\n\t...\n", 0, 0},
    {"sb_c_recursion.lua",
     "sb_c_recursion.lua:3: stack overflow: more than 64 nested calls "
     "through pcall",
     NULL, 0, 0},
    {"sb_pcall_budget.lua",
     "sb_pcall_budget.lua:",
     "instruction budget of 1000000 exceeded", 1000000, 0},
    {"sb_xpcall_budget.lua",
     "sb_xpcall_budget.lua:2: instruction budget of 1000000 exceeded",
     NULL, 1000000, 0},
    {"sb_error_table.lua",
     "sb_error_table.lua:2: error object is a table value (raise errors "
     "with error(\"message\"))",
     NULL, 0, 0},
    {"sb_pattern.lua",
     "sb_pattern.lua:3: string.find: pattern too costly on a 100000-byte "
     "string",
     NULL, 0, 0},
    {"sb_rawset.lua",
     "sb_rawset.lua:2: rawset: this gpuperf table is read-only",
     NULL, 0, 0},
    {"sb_gpuperf_write.lua",
     "sb_gpuperf_write.lua:2: gpuperf is read-only (tried to set "
     "\"launch\")",
     NULL, 0, 0},
    {"sb_device_write.lua",
     "sb_device_write.lua:2: gpuperf.device is read-only (tried to set "
     "\"sm_count\")",
     NULL, 0, 0},
    {"sb_collectgarbage.lua",
     "sb_collectgarbage.lua:2: collectgarbage: only "
     "collectgarbage(\"count\") is available",
     NULL, 0, 0},
    {"sb_alloc_budget.lua",
     "sb_alloc_budget.lua:3: instruction budget of 10000000 exceeded",
     NULL, 10000000, 0},
    {"bad_copy_device.lua",
     "bad_copy_device.lua:2: gpuperf.copy: 'device' must be 0 (gpuperf.device_count is 1), got 1",
     NULL, 0, 0},
    {"bad_template.lua",
     "bad_template.lua:2: kernel 't': 'block' must be a positive integer, got 0",
     NULL, 0, 0},
    {"sb_table_insert.lua",
     "sb_table_insert.lua:4: instruction budget of 10000000 exceeded",
     NULL, 10000000, 0},
};

static void test_bad_script(void **state)
{
    const bad_case_t *c = *state;
    gp_script_opts_t o = opts_of(c->budget, c->memory);
    gp_device_t dev;
    gp_err_t err;
    char path[4096];
    h200(&dev);
    snprintf(path, sizeof path, SCRIPTS "%s", c->script);
    run_fail(path, &o, &dev, NULL, 0, &err);
    snprintf(path, sizeof path, SCRIPTS "%s", c->expect);
    assert_prefix(err.msg, path);
    if (c->also)
        assert_contains(err.msg, c->also);
    /* everything but the memory cap carries a traceback */
    if (!c->memory)
        assert_contains(err.msg, "\nstack traceback:\n\t");
}

int main(void)
{
    static const struct CMUnitTest base[] = {
        cmocka_unit_test(test_saxpy_example),
        cmocka_unit_test(test_saxpy_params),
        cmocka_unit_test(test_grid_helper),
        cmocka_unit_test(test_triad_example),
        cmocka_unit_test(test_matmul_example),
        cmocka_unit_test(test_matmul_bad_n),
        cmocka_unit_test(test_reduce_example),
        cmocka_unit_test(test_examples_without_device),
        cmocka_unit_test(test_all_constructors),
        cmocka_unit_test(test_nested_flattening),
        cmocka_unit_test(test_loop_unroll),
        cmocka_unit_test(test_templates),
        cmocka_unit_test(test_multidim),
        cmocka_unit_test(test_streams_events_copies),
        cmocka_unit_test(test_saxpy_params_read_by_caller),
        cmocka_unit_test(test_params_defaults),
        cmocka_unit_test(test_params_override),
        cmocka_unit_test(test_param_bad_value),
        cmocka_unit_test(test_param_undeclared),
        cmocka_unit_test(test_param_given_twice),
        cmocka_unit_test(test_device_table),
        cmocka_unit_test(test_device_absent),
        cmocka_unit_test(test_syntax_error),
        cmocka_unit_test(test_runtime_error_traceback),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_bytecode_file),
        cmocka_unit_test(test_require_module),
        cmocka_unit_test(test_require_bytecode),
        cmocka_unit_test(test_require_symlink_outside),
        cmocka_unit_test(test_error_paths_whole),
        cmocka_unit_test(test_sandbox_globals_absent),
        cmocka_unit_test(test_sandbox_math),
        cmocka_unit_test(test_print_to_log),
        cmocka_unit_test(test_default_budget),
        cmocka_unit_test(test_tiny_memory_cap),
        cmocka_unit_test(test_reeval_identical),
        cmocka_unit_test(test_reeval_random),
        cmocka_unit_test(test_reeval_after_failures),
    };
    struct CMUnitTest tests[GP_ARRAY_LEN(base) + GP_ARRAY_LEN(bad_cases)];
    size_t i, n = 0;
    if (chdir(GP_SOURCE_DIR) != 0) { /* SCRIPTS and EXAMPLES are relative to it */
        perror(GP_SOURCE_DIR);
        return 1;
    }
    for (i = 0; i < GP_ARRAY_LEN(base); i++)
        tests[n++] = base[i];
    for (i = 0; i < GP_ARRAY_LEN(bad_cases); i++) {
        struct CMUnitTest t = {bad_cases[i].script, test_bad_script, NULL, NULL,
                               (void *)&bad_cases[i]};
        tests[n++] = t;
    }
    return _cmocka_run_group_tests("script", tests, n, NULL, NULL);
}
