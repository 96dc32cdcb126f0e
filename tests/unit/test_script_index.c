/*
 * test_script_index.c - index functions and the access fields around them
 * (core/src/script_index.c, script_ops.c): the sample of lane offsets and
 * its footprints, loop counters, bounds of indices and of unit patterns,
 * every way an index function can go wrong, dependent loads, atomic bins,
 * data-dependent ranges, the warp and division constructors, re-use of a
 * sample, near-miss names and module names with '-' and '.'.
 */
#include "test_common.h"

#include <math.h>
#include <unistd.h>

#include "script.h"

static char g_dir[64];

/* A device with what scripts read here: 32-lane warps. */
static void dev_of(gp_device_t *d)
{
    memset(d, 0, sizeof *d);
    strcpy(d->name, "test");
    strcpy(d->id, "test");
    strcpy(d->arch, "hopper");
    d->cc_major = 9;
    d->warp_size = 32;
    d->sm_count = 132;
    d->max_threads_per_block = 1024;
    d->max_grid_x = 2147483647;
    d->max_grid_y = d->max_grid_z = 65535;
}

/* Write src to DIR/name. */
static void put(const char *name, const char *src)
{
    char path[256];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(src, f);
    fclose(f);
}

/* Run src as idx.lua; 0 or -1 with err. */
static int run_src(const char *src, gp_workload_t *wl, gp_err_t *err, uint64_t budget)
{
    gp_script_opts_t o = {budget, 0};
    gp_device_t d;
    char path[256];
    dev_of(&d);
    put("idx.lua", src);
    snprintf(path, sizeof path, "%s/idx.lua", g_dir);
    return gp_script_run(path, &o, &d, NULL, 0, wl, err);
}

static void run_good(const char *src, gp_workload_t *wl)
{
    gp_err_t err;
    if (run_src(src, wl, &err, 0))
        fail_msg("%s", err.msg);
}

/* src must fail with a message that starts with `prefix` and contains
   `also` (or NULL); nothing is left in the workload. */
static void run_bad(const char *src, const char *prefix, const char *also, uint64_t budget)
{
    gp_workload_t wl;
    gp_err_t err;
    char whole[1024];
    /* errors name the script by the path it was opened with */
    snprintf(whole, sizeof whole, "%s/%s", g_dir, prefix);
    assert_int_equal(run_src(src, &wl, &err, budget), -1);
    assert_int_equal(wl.n_cmds, 0);
    assert_null(wl.samples);
    if (strncmp(err.msg, whole, strlen(whole)) != 0)
        fail_msg("expected \"%s...\", got \"%s\"", whole, err.msg);
    if (also)
        assert_contains(err.msg, also);
}

static const gp_op_t *op_at(const gp_workload_t *wl, uint32_t cmd, uint32_t i)
{
    assert_true(cmd < wl->n_cmds);
    assert_int_equal(wl->cmds[cmd].type, GP_CMD_LAUNCH);
    assert_true(i < wl->cmds[cmd].kernel.n_ops);
    return &wl->cmds[cmd].kernel.ops[i];
}

static int setup(void **state)
{
    (void)state;
    strcpy(g_dir, "/tmp/gp_test_index_XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    static const char *const names[] = {"idx.lua", "my-mod.v2.lua"};
    char path[256];
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(names); i++) {
        snprintf(path, sizeof path, "%s/%s", g_dir, names[i]);
        unlink(path);
    }
    return rmdir(g_dir);
}

/* ----------------------------------------------------------------- sample */

/* Naive SGEMM's A tile: a warp of a 16x16 block is two 16-thread rows, so
   its request is two runs of 64 bytes a row apart. */
static void test_tile_two_runs(void **state)
{
    static const char src[] =
        "local n = 1024\n"
        "local A = gpuperf.buffer('A', 4 * n * n)\n"
        "gpuperf.launch{ name = 'sgemm', grid = {n / 16, n / 16}, block = {16, 16}, regs = 32,\n"
        "  work = { gpuperf.loop{n / 16, var = 'k', body = {\n"
        "    gpuperf.load{A, index = function(t) return t.gy * n + t.k * 16 + t.x end} }} } }\n";
    gp_workload_t wl;
    const gp_op_t *ld;
    const gp_lane_sample_t *s;
    uint32_t lane, i;
    (void)state;
    run_good(src, &wl);
    ld = op_at(&wl, 0, 1);
    assert_int_equal(ld->kind, GP_OP_LOAD);
    s = ld->access.sample;
    assert_non_null(s);
    assert_int_equal(s->lanes, 32);
    assert_true(s->n_warps >= 8);
    for (lane = 0; lane < 32; lane++) /* warp 0 of block (0,0), k = 0 */
        assert_int_equal(s->byte_offset[lane], ((lane / 16) * 1024 + lane % 16) * 4);
    /* every sampled warp: two runs of 16 consecutive words, 4096 bytes apart */
    for (i = 0; i < s->n_warps; i++) {
        const int64_t *o = s->byte_offset + (size_t)i * 32;
        for (lane = 1; lane < 32; lane++)
            assert_int_equal(o[lane] - o[lane - 1], lane == 16 ? 4096 - 60 : 4);
    }
    /* one warp walks 2 rows x 1024 words; a block 16 rows; the grid all of A */
    assert_int_equal(s->warp_footprint_bytes, 2 * 4096);
    assert_int_equal(s->block_footprint_bytes, 16 * 4096);
    assert_int_equal(s->grid_footprint_bytes, 4 * 1024 * 1024);
    assert_int_equal(ld->access.footprint_bytes, 4 * 1024 * 1024);
    assert_int_equal(ld->access.pattern, GP_PATTERN_RANDOM); /* no single stride */
    assert_int_equal(wl.n_samples, 1);
    gp_workload_free(&wl);
}

/* A thread per row (mat-vec, CSR): lanes a row apart, k steps one word. */
static void test_row_walk(void **state)
{
    static const char src[] =
        "local n = 512\n"
        "local A = gpuperf.buffer('A', 4 * n * n)\n"
        "gpuperf.launch{ name = 'matvec', grid = n / 128, block = 128, regs = 32,\n"
        "  work = { gpuperf.loop{n, var = 'k', body = {\n"
        "    gpuperf.load{A, index = function(t) return t.gx * n + t.k end} }} } }\n";
    gp_workload_t wl;
    const gp_lane_sample_t *s;
    const gp_op_t *ld;
    uint32_t lane, i;
    int found = 0;
    (void)state;
    run_good(src, &wl);
    ld = op_at(&wl, 0, 1);
    s = ld->access.sample;
    assert_non_null(s);
    for (lane = 0; lane < 32; lane++)
        assert_int_equal(s->byte_offset[lane], (int64_t)lane * 512 * 4);
    /* some sampled instance is the origin one step of k later: +4 bytes */
    for (i = 1; i < s->n_warps; i++) {
        const int64_t *o = s->byte_offset + (size_t)i * 32;
        int step = 1;
        for (lane = 0; lane < 32; lane++)
            step &= o[lane] == (int64_t)lane * 2048 + 4;
        found |= step;
    }
    assert_true(found);
    assert_int_equal(ld->access.pattern, GP_PATTERN_STRIDE);
    assert_int_equal(ld->access.stride_elems, 512);
    /* a warp reads its 32 rows whole: 32 x 2048 bytes; the grid, A */
    assert_int_equal(s->warp_footprint_bytes, 32 * 2048);
    assert_int_equal(s->block_footprint_bytes, 128 * 2048);
    assert_int_equal(s->grid_footprint_bytes, 512 * 2048);
    gp_workload_free(&wl);
}

/* A small launch is enumerated whole: exact footprints; nil is an inactive
   lane; a partial warp's lanes past the block are inactive too. */
static void test_exact_small_and_inactive(void **state)
{
    static const char src[] =
        "local x = gpuperf.buffer('x', 4 * 1000)\n"
        "gpuperf.launch{ name = 'k', grid = 2, block = 48, regs = 8,\n"
        "  work = { gpuperf.load{x, index = function(t)\n"
        "    if t.x % 2 == 1 then return nil end\n"
        "    return t.gx * 10 end} } }\n";
    gp_workload_t wl;
    const gp_lane_sample_t *s;
    uint32_t lane;
    (void)state;
    run_good(src, &wl);
    s = op_at(&wl, 0, 0)->access.sample;
    assert_non_null(s);
    for (lane = 0; lane < 32; lane++)
        assert_int_equal(s->byte_offset[lane], lane % 2 ? -1 : (int64_t)lane * 40);
    /* warp 1 of block 0: threads 32..47 exist, lanes 16..31 do not */
    assert_int_equal(s->byte_offset[32 + 16], -1);
    assert_int_equal(s->byte_offset[32 + 2], 34 * 40);
    assert_int_equal(s->warp_footprint_bytes, 16 * 4);
    assert_int_equal(s->block_footprint_bytes, 24 * 4);
    assert_int_equal(s->grid_footprint_bytes, 48 * 4);
    gp_workload_free(&wl);
}

/* `if (threadIdx.x == 0)`: one warp of a block's 8 has an active lane. The
   sampled warps stand mostly at warp 0 (4 of the sample's instances are
   warp 0 of some block), but the sample's issuing share is the block's:
   1/8; over a loop whose counter moves the guard (warps below j), the
   average over the sampled iterations; without a guard, 1. */
static void test_issuing_share(void **state)
{
    static const char src[] =
        "local x = gpuperf.buffer('x', 4 * 4096)\n"
        "gpuperf.launch{ name = 'k', grid = 64, block = 256, regs = 8,\n"
        "  work = { gpuperf.store{x, index = function(t)\n"
        "    if t.x == 0 then return t.bx end end},\n"
        "    gpuperf.store{x, index = function(t) return t.x end},\n"
        "    gpuperf.loop{8, var = 'j', body = { gpuperf.store{x, index = function(t)\n"
        "      if t.warp <= t.j then return t.x end end} }} } }\n";
    gp_workload_t wl;
    const gp_lane_sample_t *s, *all, *loop;
    uint32_t i, w0 = 0;
    (void)state;
    run_good(src, &wl);
    s = op_at(&wl, 0, 0)->access.sample;
    all = op_at(&wl, 0, 1)->access.sample;
    loop = op_at(&wl, 0, 3)->access.sample;
    assert_non_null(s);
    assert_non_null(all);
    assert_non_null(loop);
    for (i = 0; i < s->n_warps; i++)
        w0 += s->byte_offset[(size_t)i * s->lanes] >= 0;
    assert_true((double)w0 / s->n_warps > 1.5 / 8); /* the sample's bias */
    assert_true(fabs(s->issuing - 1.0 / 8) < 1e-12);
    assert_true(all->issuing == 1);
    /* j at the sampled iterations 0, 1, 3, 7: 1, 2, 4, 8 of 8 warps */
    assert_true(loop->issuing > 1.0 / 8 && loop->issuing < 1);
    gp_workload_free(&wl);
}

/* Overlapping steps (a stencil's k): a step adds one element, not 32. */
static void test_overlap_extrapolation(void **state)
{
    static const char src[] =
        "local n = 2^20\n"
        "local x = gpuperf.buffer('x', 4 * (n + 8))\n"
        "gpuperf.launch{ name = 'k', grid = n / 256, block = 256, regs = 8,\n"
        "  work = { gpuperf.loop{9, var = 'r', body = {\n"
        "    gpuperf.load{x, index = function(t) return t.gx + t.r end} }} } }\n";
    gp_workload_t wl;
    const gp_lane_sample_t *s;
    (void)state;
    run_good(src, &wl);
    s = op_at(&wl, 0, 1)->access.sample;
    assert_int_equal(s->warp_footprint_bytes, (32 + 8) * 4);
    assert_int_equal(s->block_footprint_bytes, (256 + 8) * 4);
    assert_int_equal(s->grid_footprint_bytes, (uint64_t)(1 << 20) * 4 + 8 * 4);
    gp_workload_free(&wl);
}

/* -------------------------------------------- footprints across axes */

/* The footprints (warp, block, grid) of op i of the first launch of src. */
static void footprints_of(const char *src, uint32_t i, double fp[3])
{
    gp_workload_t wl;
    const gp_lane_sample_t *s;
    run_good(src, &wl);
    s = op_at(&wl, 0, i)->access.sample;
    assert_non_null(s);
    fp[0] = (double)s->warp_footprint_bytes;
    fp[1] = (double)s->block_footprint_bytes;
    fp[2] = (double)s->grid_footprint_bytes;
    assert_true(fp[0] <= fp[1] && fp[1] <= fp[2]);
    gp_workload_free(&wl);
}

/* got is within rel of want */
static void assert_near(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * want))
        fail_msg("got %.0f, want %.0f within %.1f%% (off by %+.2f%%)", got, want, 100 * rel,
                 100 * (got / want - 1));
}

/* A 5-point stencil, one load per tap (in[(y+dy)*n + x+dx]), the image's
   edge guarded, blocks of 32x8 (a warp is a row) and 16x16 (two rows):
   each tap's grid reads the image once, its block the block's tile. The
   same taps as one load over a 3x3 loop with nil corners are not affine
   along the loops: the window's fit shrinks there, and the per-axis
   factors stand in, over the image (documented error) but within the
   buffer. */
static void test_fp_stencil5(void **state)
{
    static const unsigned shapes[][2] = {{32, 8}, {16, 16}};
    static const int taps[][2] = {{0, 0}, {0, -1}, {0, 1}, {-1, 0}, {1, 0}};
    char src[1024];
    double fp[3], n = 4096;
    size_t i, k;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(shapes); i++) {
        unsigned bx = shapes[i][0], by = shapes[i][1];
        snprintf(src, sizeof src,
                 "local n = %.0f\n"
                 "local a = gpuperf.buffer('a', 8 * n * n) -- room: no cap\n"
                 "local function tap(dy, dx)\n"
                 "  return gpuperf.load{a, index = function(t)\n"
                 "    local x, y = t.gx + dx, t.gy + dy\n"
                 "    if x < 0 or y < 0 or x >= n or y >= n then return nil end\n"
                 "    return y * n + x end}\n"
                 "end\n"
                 "gpuperf.launch{ name = 's', grid = {n / %u, n / %u}, block = {%u, %u},\n"
                 "  regs = 16, work = { tap(0, 0), tap(0, -1), tap(0, 1), tap(-1, 0),\n"
                 "                      tap(1, 0) } }\n",
                 n, bx, by, bx, by);
        for (k = 0; k < GP_ARRAY_LEN(taps); k++) {
            double cols = bx - (taps[k][1] < 0), rows = by - (taps[k][0] < 0);
            footprints_of(src, (uint32_t)k, fp);
            assert_near(fp[2], n * n * 4, 0.01);
            assert_near(fp[1], rows * cols * 4, 0.001); /* block 0, at the corner */
        }
        snprintf(src, sizeof src,
                 "local n = %.0f\n"
                 "local a = gpuperf.buffer('a', 4 * n * n)\n"
                 "gpuperf.launch{ name = 's', grid = {n / %u, n / %u}, block = {%u, %u},\n"
                 "  regs = 16, work = { gpuperf.loop{3, var = 'dy', body = {\n"
                 "    gpuperf.loop{3, var = 'dx', body = {\n"
                 "      gpuperf.load{a, index = function(t)\n"
                 "        if t.dy ~= 1 and t.dx ~= 1 then return nil end\n"
                 "        local x, y = t.gx + t.dx - 1, t.gy + t.dy - 1\n"
                 "        if x < 0 or y < 0 or x >= n or y >= n then return nil end\n"
                 "        return y * n + x end} }} }} } }\n",
                 n, bx, by, bx, by);
        footprints_of(src, 2, fp);
        assert_near(fp[2], n * n * 4, 0.001); /* at the buffer's cap */
    }
}

/* A naive 7x7 convolution over a padded 8192^2 image, 16x16 blocks: the
   grid reads the image once (not 49 times, nor a block's halo per block). */
static void test_fp_conv7(void **state)
{
    static const char src[] =
        "local n, p = 8192, 8192 + 6\n"
        "local img = gpuperf.buffer('img', 8 * p * p) -- room: no cap\n"
        "gpuperf.launch{ name = 'conv', grid = {n / 16, n / 16}, block = {16, 16}, regs = 32,\n"
        "  work = { gpuperf.loop{7, var = 'dy', body = { gpuperf.loop{7, var = 'dx', body = {\n"
        "    gpuperf.load{img, index = function(t)\n"
        "      return (t.gy + t.dy) * p + t.gx + t.dx end} }} }} } }\n";
    double fp[3], p = 8192 + 6;
    (void)state;
    footprints_of(src, 2, fp);
    assert_near(fp[2], p * p * 4, 0.03);
    assert_near(fp[1], 22.0 * 22 * 4, 0.001); /* a block: 22 x 22 */
    assert_near(fp[0], 8.0 * 22 * 4, 0.001);  /* a warp: 2 + 6 rows of 22 */
}

/* A grid-stride loop: for (i = gx; i < n; i += gridDim.x * blockDim.x). */
static void test_fp_grid_stride(void **state)
{
    static const char src[] =
        "local n, g = 2^24, 1024 * 256\n"
        "local x = gpuperf.buffer('x', 8 * n) -- room: no cap\n"
        "gpuperf.launch{ name = 'gs', grid = 1024, block = 256, regs = 16,\n"
        "  work = { gpuperf.loop{n / g, var = 'k', body = {\n"
        "    gpuperf.load{x, index = function(t) return t.gx + t.k * g end} }} } }\n";
    double fp[3], n = 16777216;
    (void)state;
    footprints_of(src, 1, fp);
    assert_near(fp[2], n * 4, 0.001);
    assert_near(fp[1], 256.0 * 64 * 4, 0.001);
    assert_near(fp[0], 32.0 * 64 * 4, 0.001);
}

/* A naive transpose, 32x32 tiles by 32x8 threads, four rows each: reads
   and writes each cover the matrix once. */
static void test_fp_transpose(void **state)
{
    static const char src[] =
        "local n = 4096\n"
        "local a = gpuperf.buffer('a', 8 * n * n) -- room: no cap\n"
        "local b = gpuperf.buffer('b', 8 * n * n)\n"
        "gpuperf.launch{ name = 'tr', grid = {n / 32, n / 32}, block = {32, 8}, regs = 16,\n"
        "  work = { gpuperf.loop{4, var = 'j', body = {\n"
        "    gpuperf.load{a, index = function(t)\n"
        "      return (t.by * 32 + t.y + 8 * t.j) * n + t.gx end},\n"
        "    gpuperf.store{b, index = function(t)\n"
        "      return t.gx * n + t.by * 32 + t.y + 8 * t.j end} }} } }\n";
    double fp[3], n = 4096;
    (void)state;
    footprints_of(src, 1, fp);
    assert_near(fp[2], n * n * 4, 0.001);
    assert_near(fp[1], 32.0 * 32 * 4, 0.001);
    footprints_of(src, 2, fp);
    assert_near(fp[2], n * n * 4, 0.001);
    assert_near(fp[1], 32.0 * 32 * 4, 0.001);
}

/* The 16x16 SGEMM tiles: A's rows (a warp two of them) along k, B's
   columns; each matrix is read whole by the grid. */
static void test_fp_sgemm_tiles(void **state)
{
    static const char src[] =
        "local n = 2048\n"
        "local A = gpuperf.buffer('A', 8 * n * n) -- room: no cap\n"
        "local B = gpuperf.buffer('B', 8 * n * n)\n"
        "gpuperf.launch{ name = 'sgemm', grid = {n / 16, n / 16}, block = {16, 16}, regs = 32,\n"
        "  work = { gpuperf.loop{n / 16, var = 'k', body = {\n"
        "    gpuperf.load{A, index = function(t) return t.gy * n + t.k * 16 + t.x end},\n"
        "    gpuperf.load{B, index = function(t) return (t.k * 16 + t.y) * n + t.gx end} }} } }\n";
    double fp[3], n = 2048;
    (void)state;
    footprints_of(src, 1, fp);
    assert_near(fp[0], 2 * n * 4, 0.001);
    assert_near(fp[1], 16 * n * 4, 0.001);
    assert_near(fp[2], n * n * 4, 0.001);
    footprints_of(src, 2, fp);
    assert_near(fp[0], 2 * n * 4, 0.001);
    assert_near(fp[1], 16 * n * 4, 0.001);
    assert_near(fp[2], n * n * 4, 0.001);
}

/* A random gather: the bytes the threads read, up to the range. */
static void test_fp_gather(void **state)
{
    static const char small[] =
        "local n = 2^24\n"
        "local v = gpuperf.buffer('v', 4 * 2^20)\n"
        "gpuperf.launch{ name = 'g', grid = n / 256, block = 256, regs = 16,\n"
        "  work = { gpuperf.load{v, index = function(t) return gpuperf.random(0, 2^20 - 1) end} } }\n";
    static const char large[] =
        "local n = 2^22\n"
        "local v = gpuperf.buffer('v', 4 * 2^28)\n"
        "gpuperf.launch{ name = 'g', grid = n / 256, block = 256, regs = 16,\n"
        "  work = { gpuperf.load{v, index = function(t) return gpuperf.random(0, 2^28 - 1) end} } }\n";
    double fp[3];
    (void)state;
    footprints_of(small, 0, fp); /* 16 reads per element: the range */
    assert_near(fp[2], 4.0 * (1 << 20), 0.001);
    footprints_of(large, 0, fp); /* one read per 64 elements: the reads */
    assert_near(fp[2], 4.0 * (1 << 22), 0.02);
    assert_near(fp[1], 4.0 * 256, 0.001);
}

/* Loads a Lua loop builds at one line of the script each draw their own
   random lines: a trip of two independent gathers reads two lines, not
   one line twice; the same script run again draws the same. */
static void test_random_apart_per_op(void **state)
{
    static const char src[] =
        "local v = gpuperf.buffer('v', 4 * 2^24)\n"
        "local w = {}\n"
        "for _ = 1, 2 do w[#w + 1] = gpuperf.load{v, index = function(t) return gpuperf.random(0, 2^24 - 1) end} end\n"
        "gpuperf.launch{ name = 'g', grid = 132, block = 32, regs = 16, work = w }\n";
    gp_workload_t wl, again;
    const gp_lane_sample_t *a, *b;
    uint32_t lane, same = 0;
    (void)state;
    run_good(src, &wl);
    a = op_at(&wl, 0, 0)->access.sample;
    b = op_at(&wl, 0, 1)->access.sample;
    assert_non_null(a);
    assert_non_null(b);
    assert_true(a->drawn && b->drawn);
    for (lane = 0; lane < 32; lane++)
        same += a->byte_offset[lane] == b->byte_offset[lane];
    assert_true(same < 4);
    run_good(src, &again);
    for (lane = 0; lane < 32; lane++)
        assert_int_equal(op_at(&again, 0, 1)->access.sample->byte_offset[lane],
                         b->byte_offset[lane]);
    gp_workload_free(&again);
    gp_workload_free(&wl);
}

/* Stores that name one `draws` draw alike, call for call, whatever line of
   the script builds them: a piece's word stores (the scatterw bench's S =
   4) land on one random line a lane, word q at offset 4 q; a store outside
   the group draws its own. */
static void test_random_shared_draws(void **state)
{
    static const char src[] =
        "local v = gpuperf.buffer('v', 4 * 2^24)\n"
        "local w = {}\n"
        "for q = 0, 3 do w[#w + 1] = gpuperf.store{v, draws = 'slot', index = function(t)\n"
        "  return gpuperf.random(0, 2^22 - 1) * 4 + q end} end\n"
        "w[#w + 1] = gpuperf.store{v, index = function(t) return gpuperf.random(0, 2^22 - 1) * 4 end}\n"
        "gpuperf.launch{ name = 'g', grid = 132, block = 32, regs = 16, work = w }\n";
    gp_workload_t wl;
    const gp_lane_sample_t *a, *o;
    uint32_t lane, q, same = 0;
    (void)state;
    run_good(src, &wl);
    a = op_at(&wl, 0, 0)->access.sample;
    o = op_at(&wl, 0, 4)->access.sample;
    assert_non_null(a);
    assert_non_null(o);
    assert_true(op_at(&wl, 0, 0)->draw_group != 0);
    assert_int_equal(op_at(&wl, 0, 4)->draw_group, 0);
    for (q = 1; q < 4; q++) {
        const gp_lane_sample_t *b = op_at(&wl, 0, q)->access.sample;
        assert_non_null(b);
        assert_true(b->drawn);
        assert_int_equal(op_at(&wl, 0, q)->draw_group, op_at(&wl, 0, 0)->draw_group);
        assert_int_equal(b->n_warps, a->n_warps);
        for (lane = 0; lane < (uint32_t)a->n_warps * a->lanes; lane++)
            assert_int_equal(b->byte_offset[lane], a->byte_offset[lane] + 4 * (int64_t)q);
    }
    for (lane = 0; lane < 32; lane++)
        same += o->byte_offset[lane] == a->byte_offset[lane];
    assert_true(same < 4);
    gp_workload_free(&wl);
}

/* `in_flight` reaches the load it is given on, and only that one. */
static void test_load_in_flight(void **state)
{
    static const char src[] =
        "local v = gpuperf.buffer('v', 4 * 2^20)\n"
        "gpuperf.launch{ name = 'g', grid = 132, block = 32, regs = 32, work = {\n"
        "  gpuperf.load{v, in_flight = 4}, gpuperf.load{v, space = 'texture', in_flight = 7},\n"
        "  gpuperf.load{v}, gpuperf.fp32(1) } }\n";
    gp_workload_t wl;
    (void)state;
    run_good(src, &wl);
    assert_int_equal(op_at(&wl, 0, 0)->in_flight, 4);
    assert_int_equal(op_at(&wl, 0, 1)->in_flight, 7);
    assert_int_equal(op_at(&wl, 0, 2)->in_flight, 0);
    gp_workload_free(&wl);
}

/* A gather folded into a small buffer (line = (i + 97 w) % lines, the
   chase bench's gather): the extrapolation counts every wrap as new lines,
   the range the lanes reach stands instead; a fold that wraps once (the
   atomics bench's idx[(g + T a) % 2^24]: 1.6 times around) keeps the
   count, which the buffer bounds. */
static void test_fp_folded(void **state)
{
    static const char gather[] =
        "local a = gpuperf.buffer('a', 2^24)\n"
        "gpuperf.launch{ name = 'g', grid = 1056, block = 256, regs = 28,\n"
        "  work = { gpuperf.loop{1024, var = 'i', body = { gpuperf.load{a,\n"
        "    index = function(t) local gw = math.floor(t.gx / 32)\n"
        "      return ((t.i + gw * 97) % 128) * 32 + t.lane end} }} } }\n";
    static const char once[] =
        "local T = 1056 * 256\n"
        "local idx = gpuperf.buffer('idx', 4 * 2^24)\n"
        "gpuperf.launch{ name = 'g', grid = 1056, block = 256, regs = 28,\n"
        "  work = { gpuperf.loop{128, var = 'a', body = { gpuperf.load{idx,\n"
        "    index = function(t) return (t.gx + T * t.a) % 2^24 end} }} } }\n";
    double fp[3];
    (void)state;
    footprints_of(gather, 1, fp); /* 128 lines of 128 bytes */
    assert_near(fp[2], 16384, 0.001);
    assert_near(fp[0], 16384, 0.001);
    footprints_of(once, 1, fp); /* every element of the buffer */
    assert_near(fp[2], 4.0 * (1 << 24), 0.001);
}

/* A warp-uniform walk with a stride of a line, folded into 16 KiB
   (x[(j * 32) & 4095]): it comes back to its start every 128 trips, so a
   warp reads 128 distinct floats over 4096 trips, not the 16 KiB range; a
   stride of 33 floats visits every float in turn (no period within the
   loop) and keeps the range. */
static void test_fp_fold_period(void **state)
{
    static const char src[] =
        "local x = gpuperf.buffer('x', 2^24)\n"
        "local s = %d\n"
        "gpuperf.launch{ name = 'w', grid = 132, block = 32, regs = 16,\n"
        "  work = { gpuperf.loop{4096, var = 'j', unroll = 1, body = { gpuperf.load{x,\n"
        "    index = function(t) return (t.j * s) %% 4096 end} }} } }\n";
    char buf[sizeof src + 8];
    double fp[3];
    (void)state;
    snprintf(buf, sizeof buf, src, 32);
    footprints_of(buf, 1, fp);
    assert_near(fp[0], 128.0 * 4, 0.001);
    assert_near(fp[2], 128.0 * 4, 0.001);
    snprintf(buf, sizeof buf, src, 8);
    footprints_of(buf, 1, fp); /* 512 floats */
    assert_near(fp[0], 512.0 * 4, 0.001);
    snprintf(buf, sizeof buf, src, 33);
    footprints_of(buf, 1, fp);
    assert_near(fp[0], 16384, 0.01);
}

/* A pointer chase: one warp, 1000 dependent steps anywhere in 2^24 nodes. */
static void test_fp_chase(void **state)
{
    static const char src[] =
        "local n = 2^24\n"
        "local next = gpuperf.buffer('next', 4 * n)\n"
        "gpuperf.launch{ name = 'chase', grid = 1, block = 32, regs = 8,\n"
        "  work = { gpuperf.loop{1000, var = 'k', body = { gpuperf.load{next, depends = true,\n"
        "    index = function(t) return gpuperf.random(0, n - 1) end} }} } }\n";
    double fp[3];
    (void)state;
    footprints_of(src, 1, fp);
    assert_near(fp[2], 32.0 * 1000 * 4, 0.02);
    assert_near(fp[0], fp[2], 0.001);
}

/* The same chase in a loop without a counter: each iteration draws again,
   so the footprint is the expected distinct count of the draws, r (1 - (1 -
   1/r)^d), not the one element a sampled iteration names; a range smaller
   than the draws is covered nearly whole. */
static void test_fp_chase_unnamed_loop(void **state)
{
    static const char big[] =
        "local n = 2^24\n"
        "local next = gpuperf.buffer('next', 4 * n)\n"
        "gpuperf.launch{ name = 'chase', grid = 1, block = 1, regs = 8,\n"
        "  work = { gpuperf.loop(10000, { gpuperf.load{next, depends = true,\n"
        "    index = function(t) return gpuperf.random(0, n - 1) end} }) } }\n";
    static const char small[] =
        "local n = 4096\n"
        "local next = gpuperf.buffer('next', 4 * n)\n"
        "gpuperf.launch{ name = 'chase', grid = 1, block = 32, regs = 8,\n"
        "  work = { gpuperf.loop(100, { gpuperf.load{next, depends = true,\n"
        "    index = function(t) return gpuperf.random(0, n - 1) end} }) } }\n";
    double fp[3], r = 4096, d = 3200;
    gp_workload_t wl;
    (void)state;
    footprints_of(big, 1, fp); /* 10000 draws among 2^24: nearly all distinct */
    assert_near(fp[2], 4.0 * 16777216 * -expm1(10000 * log1p(-1.0 / 16777216)), 0.001);
    assert_near(fp[0], fp[2], 0.001);
    footprints_of(small, 1, fp); /* 32 lanes x 100 draws among 4096 */
    assert_near(fp[0], 4.0 * r * -expm1(d * log1p(-1.0 / r)), 0.001);
    run_good(big, &wl);
    assert_int_equal(op_at(&wl, 0, 1)->access.sample->drawn, 1);
    assert_int_equal(op_at(&wl, 0, 1)->access.sample->drawn_range_bytes, 4u * 16777216u);
    gp_workload_free(&wl);
}

/* ----------------------------------------------------------------- errors */

static void test_index_past_end(void **state)
{
    (void)state;
    run_bad("local x = gpuperf.buffer('x', 4096)\n"
            "gpuperf.launch{ name = 'k', grid = 8, block = 128, regs = 8,\n"
            "  work = { gpuperf.loop{10, var = 'k', body = {\n"
            "    gpuperf.load{x, index = function(t) return t.gx + t.k end} }} } }\n",
            "idx.lua:4: index function of load 'x' returned 1024 for thread "
            "(x=119,y=0,z=0,bx=7,by=0,bz=0) k=9: past the end of buffer x (1024 elements of "
            "4 bytes); check the grid or the index expression",
            "\nstack traceback:\n", 0);
}

static void test_index_bad_values(void **state)
{
    static const struct {
        const char *expr;
        const char *expect;
    } cases[] = {
        {"0/0", "returned nan for thread (x=0,y=0,z=0,bx=0,by=0,bz=0): not a finite number"},
        {"1/0", "returned inf for thread (x=0,y=0,z=0,bx=0,by=0,bz=0): not a finite number"},
        {"t.x + 0.5", "returned 0.5 for thread (x=0,y=0,z=0,bx=0,by=0,bz=0): not an integer"},
        {"t.x - 1", "returned -1 for thread (x=0,y=0,z=0,bx=0,by=0,bz=0): negative"},
        {"2^60", "returned 1.152921504606847e+18 for thread (x=0,y=0,z=0,bx=0,by=0,bz=0): past "
                 "the end of buffer x (16 elements of 4 bytes)"},
        {"'3'", "returned \"3\" for thread (x=0,y=0,z=0,bx=0,by=0,bz=0): expected an element "
                "index (an integer from 0), or nil"},
        {"{}", "returned a table for thread"},
        {"error('boom')", "failed for thread (x=0,y=0,z=0,bx=0,by=0,bz=0): "},
        {"t.nothing + 1", "/idx.lua:3: attempt to perform arithmetic on field 'nothing' (a nil "
                          "value)"},
        /* (a tail call: the error's own position is the caller's) */
        {"gpuperf.launch{}", "gpuperf functions other than gpuperf.random cannot be called "
                             "from an index function"},
    };
    char src[512];
    size_t i;
    (void)state;
    for (i = 0; i < GP_ARRAY_LEN(cases); i++) {
        snprintf(src, sizeof src,
                 "local x = gpuperf.buffer('x', 64)\n"
                 "gpuperf.launch{ name = 'k', grid = 1, block = 16, regs = 8, work = {\n"
                 "  gpuperf.load{x, index = function(t) return %s end} } }\n",
                 cases[i].expr);
        run_bad(src, "idx.lua:3: index function of load 'x' ", cases[i].expect, 0);
    }
}

static void test_index_runaway(void **state)
{
    (void)state;
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "gpuperf.launch{ name = 'k', grid = 1, block = 16, regs = 8, work = {\n"
            "  gpuperf.load{x, index = function(t) while true do end end} } }\n",
            "idx.lua:3: instruction budget of 1000000 exceeded (runaway loop?)", NULL, 1000000);
    /* pcall in the script does not catch it either */
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "print(pcall(gpuperf.launch, { name = 'k', grid = 1, block = 16, regs = 8, work = {\n"
            "  gpuperf.load{x, index = function(t) while true do end end} } }))\n",
            "idx.lua:3: instruction budget of 1000000 exceeded", NULL, 1000000);
}

/* After a caught error the script goes on: gpuperf works again. */
static void test_index_error_caught(void **state)
{
    static const char src[] =
        "local x = gpuperf.buffer('x', 64)\n"
        "local ok, msg = pcall(gpuperf.launch, { name = 'k', grid = 1, block = 16, regs = 8,\n"
        "  work = { gpuperf.load{x, index = function(t) return -1 end} } })\n"
        "assert(not ok and msg:find('negative'))\n"
        "gpuperf.launch{ name = 'k2', grid = 1, block = 16, regs = 8,\n"
        "  work = { gpuperf.load{x, index = function(t) return t.x end} } }\n";
    gp_workload_t wl;
    (void)state;
    run_good(src, &wl);
    assert_int_equal(gp_workload_launches(&wl), 1);
    gp_workload_free(&wl);
}

static void test_unit_pattern_bounds(void **state)
{
    gp_workload_t wl;
    (void)state;
    /* a grid 4x too large for its buffer */
    run_bad("local n = 2^20\n"
            "local x = gpuperf.buffer('x', 4 * n)\n"
            "gpuperf.launch{ name = 'k', grid = 4 * n / 256, block = 256, regs = 8,\n"
            "  work = { gpuperf.load{x} } }\n",
            "idx.lua:3: launch 'k': work[1]: the load at line 4: the grid's 4194304 threads, "
            "one element each (pattern \"unit\"), reach element 4194048: past the end of "
            "buffer x (1048576 elements of 4 bytes)",
            NULL, 0);
    /* rounded up to whole blocks (the tail guarded by if (i < n)) is fine */
    run_good("local n = 1000\n"
             "local x = gpuperf.buffer('x', 4 * n)\n"
             "gpuperf.launch{ name = 'k', grid = math.ceil(n / 256), block = 256, regs = 8,\n"
             "  work = { gpuperf.load{x} } }\n"
             "gpuperf.launch{ name = 'k2', grid = {math.ceil(30 / 16), math.ceil(30 / 16)},\n"
             "  block = {16, 16}, regs = 8, work = { gpuperf.load{gpuperf.buffer('y', 4 * 900)} } }\n",
             &wl);
    gp_workload_free(&wl);
}

static void test_shared_index_bound(void **state)
{
    gp_workload_t wl;
    (void)state;
    run_bad("gpuperf.launch{ name = 'k', grid = 1, block = 32, regs = 8,\n"
            "  work = { gpuperf.shared_load{index = function(t) return t.x end} } }\n",
            "idx.lua:1: launch 'k': work[1]: a shared-memory load with an index function needs "
            "the launch's shared memory",
            NULL, 0);
    run_bad("gpuperf.launch{ name = 'k', grid = 1, block = 32, regs = 8, smem = 64,\n"
            "  work = { gpuperf.shared_load{index = function(t) return t.x end} } }\n",
            "idx.lua:2: index function of shared_load returned 16 for thread "
            "(x=16,y=0,z=0,bx=0,by=0,bz=0): past the end of the block's shared memory (16 "
            "elements of 4 bytes)",
            NULL, 0);
    run_good("gpuperf.launch{ name = 'k', grid = 4, block = 32, regs = 8, smem = 33 * 32 * 4,\n"
             "  work = { gpuperf.shared_load{index = function(t) return t.x * 33 end} } }\n",
             &wl);
    assert_int_equal(op_at(&wl, 0, 0)->access.pattern, GP_PATTERN_STRIDE);
    assert_int_equal(op_at(&wl, 0, 0)->access.stride_elems, 33);
    gp_workload_free(&wl);
}

static void test_field_clashes(void **state)
{
    (void)state;
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "gpuperf.load{x, pattern = 'unit', index = function(t) return 0 end}\n",
            "idx.lua:2: gpuperf.load: give either 'index' or 'pattern'", NULL, 0);
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "gpuperf.load{x, index = 3}\n",
            "idx.lua:2: gpuperf.load: 'index' must be a function(t) returning the element "
            "index thread t touches, got 3",
            NULL, 0);
    run_bad("gpuperf.loop{4, var = 'x', body = {}}\n",
            "idx.lua:1: gpuperf.loop: 'var' = \"x\" is taken", NULL, 0);
    run_bad("gpuperf.launch{ name = 'k', grid = 1, block = 32, regs = 8, work = {\n"
            "  gpuperf.loop{2, var = 'k', body = { gpuperf.loop{3, var = 'k', body = {}} }} } }\n",
            "idx.lua:1: launch 'k': work[1].body[1]: loop counter 'k' is already the counter "
            "of the loop at line 2",
            NULL, 0);
    run_bad("gpuperf.loop{4, body = {}, trips = 2}\n",
            "idx.lua:1: gpuperf.loop: give 'trips' once: as [1] or as trips =", NULL, 0);
    run_bad("gpuperf.diverge{2, var = 'k', body = {}}\n",
            "idx.lua:1: gpuperf.diverge: unknown field 'var'", NULL, 0);
}

/* ---------------------------------------------- depends, bins, random */

static void test_depends_bins_random(void **state)
{
    static const char src[] =
        "local n = 2^20\n"
        "local next = gpuperf.buffer('next', 4 * n)\n"
        "local data = gpuperf.buffer('data', n)\n"
        "local hist = gpuperf.buffer('hist', 4 * 256)\n"
        "gpuperf.launch{ name = 'chase', grid = 1, block = 32, regs = 8,\n"
        "  work = { gpuperf.loop(100, { gpuperf.load{next, depends = true,\n"
        "    index = function(t) return gpuperf.random(0, n - 1) end} }) } }\n"
        "gpuperf.launch{ name = 'hist', grid = n / 256, block = 256, regs = 8,\n"
        "  work = { gpuperf.load{data, bytes = 1}, gpuperf.atomic{hist, bins = 256},\n"
        "           gpuperf.load{next, pattern = 'random', range = {16, 1039}} } }\n";
    gp_workload_t wl;
    const gp_op_t *o;
    (void)state;
    run_good(src, &wl);
    o = op_at(&wl, 0, 1);
    assert_int_equal(o->access.depends, 1);
    assert_int_equal(o->access.pattern, GP_PATTERN_RANDOM);
    assert_non_null(o->access.sample);
    assert_true(o->access.footprint_bytes <= 4u * (1u << 20));
    o = op_at(&wl, 1, 0);
    assert_int_equal(o->access.depends, 0);
    o = op_at(&wl, 1, 1);
    assert_int_equal(o->kind, GP_OP_ATOMIC);
    assert_int_equal(o->access.bins, 256);
    assert_null(o->access.sample);
    o = op_at(&wl, 1, 2);
    assert_int_equal(o->access.pattern, GP_PATTERN_RANDOM);
    assert_int_equal(o->access.offset_elems, 16);
    assert_int_equal(o->access.footprint_bytes, 1024 * 4);
    gp_workload_free(&wl);
}

static void test_depends_bins_errors(void **state)
{
    (void)state;
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "gpuperf.launch{ name = 'k', grid = 1, block = 16, regs = 8,\n"
            "  work = { gpuperf.load{x, depends = true} } }\n",
            "idx.lua:2: launch 'k': work[1]: 'depends' = true, but no load comes before this one",
            NULL, 0);
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "gpuperf.store{x, depends = true}\n",
            "idx.lua:2: gpuperf.store: unknown field 'depends'", NULL, 0);
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "gpuperf.load{x, depends = 1}\n",
            "idx.lua:2: gpuperf.load: 'depends' must be true or false, got 1", NULL, 0);
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "gpuperf.atomic{x, bins = 17}\n",
            "idx.lua:2: gpuperf.atomic: 'bins' = 17 of 4 bytes do not fit buffer 'x' (64 bytes)",
            NULL, 0);
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "gpuperf.atomic{x, bins = 4, scope = 'same'}\n",
            "idx.lua:2: gpuperf.atomic: give one of 'bins', 'index' and 'scope'", NULL, 0);
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "gpuperf.load{x, range = {0, 3}}\n",
            "idx.lua:2: gpuperf.load: 'range' needs pattern \"random\"", NULL, 0);
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "gpuperf.load{x, pattern = 'random', range = {0, 16}}\n",
            "idx.lua:2: gpuperf.load: 'range' = {0, 16} goes past the end of buffer 'x'", NULL,
            0);
    run_bad("local r = gpuperf.random(0, 3)\n",
            "idx.lua:1: gpuperf.random: works only inside an index function", NULL, 0);
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "gpuperf.launch{ name = 'k', grid = 1, block = 16, regs = 8,\n"
            "  work = { gpuperf.load{x, index = function(t) return gpuperf.random(5, 2) end} } }\n",
            "idx.lua:3: index function of load 'x' failed for thread", "give 0 <= lo <= hi", 0);
}

/* Atomics take an index: one address per warp is found from the sample. */
static void test_atomic_index(void **state)
{
    static const char src[] =
        "local c = gpuperf.buffer('c', 4 * 64)\n"
        "gpuperf.launch{ name = 'k', grid = 2, block = 64, regs = 8,\n"
        "  work = { gpuperf.atomic{c, index = function(t) return t.bx * 2 + t.warp end} } }\n";
    gp_workload_t wl;
    const gp_op_t *o;
    (void)state;
    run_good(src, &wl);
    o = op_at(&wl, 0, 0);
    assert_non_null(o->access.sample);
    assert_int_equal(o->access.atomic_scope, GP_ATOMIC_PER_WARP);
    assert_int_equal(o->access.sample->grid_footprint_bytes, 4 * 4);
    gp_workload_free(&wl);
}

/* ------------------------------------------------------------ constructors */

static void test_warp_and_division_ops(void **state)
{
    static const char src[] =
        "gpuperf.launch{ name = 'k', grid = 1, block = 32, regs = 8, work = {\n"
        "  gpuperf.shfl(5), gpuperf.vote(1), gpuperf.match{2, ilp = 2}, gpuperf.warp_reduce(1),\n"
        "  gpuperf.idiv(3), gpuperf.imod(2), gpuperf.fdiv{4, ilp = 4}, gpuperf.rcp(1),\n"
        "  gpuperf.imul{6, ilp = 2}, gpuperf.int(7), gpuperf.sfu(2), gpuperf.mufu{3, ilp = 3} } }\n";
    static const uint32_t kinds[] = {GP_OP_SHFL, GP_OP_VOTE, GP_OP_MATCH, GP_OP_WARP_REDUCE,
                                     GP_OP_IDIV, GP_OP_IDIV, GP_OP_FDIV,  GP_OP_RCP,
                                     GP_OP_INT,  GP_OP_INT,  GP_OP_SFU,   GP_OP_SFU};
    static const double counts[] = {5, 1, 2, 1, 3, 2, 4, 1, 6, 7, 2, 3},
                        ilps[] = {1, 1, 2, 1, 1, 1, 4, 1, 2, 1, 1, 3};
    gp_workload_t wl;
    uint32_t i;
    (void)state;
    run_good(src, &wl);
    assert_int_equal(wl.cmds[0].kernel.n_ops, 12);
    for (i = 0; i < 12; i++) {
        const gp_op_t *o = op_at(&wl, 0, i);
        assert_int_equal(o->kind, kinds[i]);
        assert_true(o->count == counts[i]);
        assert_true(o->ilp == ilps[i]);
        assert_int_equal(o->int_mul, i == 8);   /* gpuperf.imul, not gpuperf.int */
        assert_int_equal(o->sfu_bare, i == 11); /* gpuperf.mufu, not gpuperf.sfu */
    }
    gp_workload_free(&wl);
    run_bad("gpuperf.shfl()\n", "idx.lua:1: gpuperf.shfl: the count is required", NULL, 0);
}

/* --------------------------------------------------------------- re-use */

static void test_sample_reuse(void **state)
{
    static const char src[] =
        "local x = gpuperf.buffer('x', 4 * 2^20)\n"
        "local base = 0\n"
        "local k = gpuperf.kernel{ name = 'k', grid = 64, block = 256, regs = 8,\n"
        "  work = { gpuperf.load{x, index = function(t) return base + t.gx end} } }\n"
        "gpuperf.launch(k)\n"
        "gpuperf.launch(k)\n"             /* the same: the sample is re-used */
        "gpuperf.launch(k, {grid = 32})\n" /* another shape */
        "base = 64\n"
        "gpuperf.launch(k)\n";             /* another upvalue */
    gp_workload_t wl;
    (void)state;
    run_good(src, &wl);
    assert_int_equal(wl.n_samples, 3);
    assert_ptr_equal(op_at(&wl, 0, 0)->access.sample, op_at(&wl, 1, 0)->access.sample);
    assert_ptr_not_equal(op_at(&wl, 0, 0)->access.sample, op_at(&wl, 2, 0)->access.sample);
    assert_int_equal(op_at(&wl, 3, 0)->access.sample->byte_offset[0], 64 * 4);
    gp_workload_free(&wl);
}

/* ------------------------------------------------------------ front end */

static void test_near_miss_names(void **state)
{
    (void)state;
    run_bad("local x = gpuperf.buffer('x', 64)\n"
            "gpuperf.launch{ name = 'k', grid = 1, block = 16, regs = 8, work = { gpuperf.laod{x} } }\n",
            "idx.lua:2: no gpuperf.laod; did you mean gpuperf.load?", NULL, 0);
    run_bad("local n = gpuperf.parm('n', 4)\n",
            "idx.lua:1: no gpuperf.parm; did you mean gpuperf.param?", NULL, 0);
    /* far from every name: nil, as for any table (feature tests work) */
    run_bad("assert(gpuperf.no_such_thing == nil)\ngpuperf.no_such_thing()\n",
            "idx.lua:2: attempt to call field 'no_such_thing' (a nil value)", NULL, 0);
}

static void test_require_dash_dot(void **state)
{
    gp_workload_t wl;
    (void)state;
    put("my-mod.v2.lua", "return { n = 42 }\n");
    run_good("local m = require('my-mod.v2')\nassert(m.n == 42)\n", &wl);
    gp_workload_free(&wl);
    run_bad("require('a..b')\n", "idx.lua:1: require \"a..b\": a module name is", NULL, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_two_runs),
        cmocka_unit_test(test_row_walk),
        cmocka_unit_test(test_exact_small_and_inactive),
        cmocka_unit_test(test_issuing_share),
        cmocka_unit_test(test_overlap_extrapolation),
        cmocka_unit_test(test_fp_stencil5),
        cmocka_unit_test(test_fp_conv7),
        cmocka_unit_test(test_fp_grid_stride),
        cmocka_unit_test(test_fp_transpose),
        cmocka_unit_test(test_fp_sgemm_tiles),
        cmocka_unit_test(test_fp_gather),
        cmocka_unit_test(test_random_apart_per_op),
        cmocka_unit_test(test_random_shared_draws),
        cmocka_unit_test(test_load_in_flight),
        cmocka_unit_test(test_fp_folded),
        cmocka_unit_test(test_fp_fold_period),
        cmocka_unit_test(test_fp_chase),
        cmocka_unit_test(test_fp_chase_unnamed_loop),
        cmocka_unit_test(test_index_past_end),
        cmocka_unit_test(test_index_bad_values),
        cmocka_unit_test(test_index_runaway),
        cmocka_unit_test(test_index_error_caught),
        cmocka_unit_test(test_unit_pattern_bounds),
        cmocka_unit_test(test_shared_index_bound),
        cmocka_unit_test(test_field_clashes),
        cmocka_unit_test(test_depends_bins_random),
        cmocka_unit_test(test_depends_bins_errors),
        cmocka_unit_test(test_atomic_index),
        cmocka_unit_test(test_warp_and_division_ops),
        cmocka_unit_test(test_sample_reuse),
        cmocka_unit_test(test_near_miss_names),
        cmocka_unit_test(test_require_dash_dot),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
