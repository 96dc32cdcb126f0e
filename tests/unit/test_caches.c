/*
 * test_caches.c - the cache model of opcost.c: short re-use from a
 * sample's next iteration, LRU thrash of a re-read beyond the L2, the L2
 * left warm by earlier launches, the lanes a small block leaves idle,
 * where requests are served (l1_hit, l2_hit, dram_hit), and the re-use
 * distance of neighbours' re-reads from the sampled addresses, a block's
 * re-reads of its own window of the buffer in its SM's L1, the L1 edge of a
 * chase and the lines of one warp request (bank passes, the slowest lane).
 */
#include <math.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch.h"
#include "device.h"
#include "test_common.h"

typedef struct fix {
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_kernel_t k;
    gp_op_t ops[2]; /* a loop of `trips` around one load */
    gp_occupancy_t occ;
    gp_residency_t res;
} fix_t;

/* An H200 launch of `blocks` x `threads` running `trips` iterations of one
   4-byte global load of buffer 0 with `footprint` bytes. */
static void setup(fix_t *f, uint64_t blocks, uint64_t threads, double trips, uint64_t footprint)
{
    gp_err_t err;
    memset(f, 0, sizeof *f);
    assert_int_equal(gp_device_open("h200-sxm", &f->dev, &f->arch, &err), 0);
    f->ops[0].kind = GP_OP_LOOP;
    f->ops[0].body_len = 1;
    f->ops[0].count = trips;
    f->ops[0].ilp = 1;
    f->ops[1].kind = GP_OP_LOAD;
    f->ops[1].space = GP_SPACE_GLOBAL;
    f->ops[1].count = 1;
    f->ops[1].ilp = 1;
    f->ops[1].access.elem_bytes = 4;
    f->ops[1].access.footprint_bytes = footprint;
    f->ops[1].access.buffer = 0;
    f->k.name = "k";
    f->k.launch.grid.x = blocks;
    f->k.launch.grid.y = f->k.launch.grid.z = 1;
    f->k.launch.block.x = threads;
    f->k.launch.block.y = f->k.launch.block.z = 1;
    f->k.launch.threads_per_block = threads;
    f->k.launch.regs_per_thread = 16;
    f->k.launch.carveout_percent = -1;
    f->k.ops = f->ops;
    f->k.n_ops = 2;
    f->k.total_blocks = blocks;
    f->res.blocks = 1;
    f->res.dram_share = f->res.l2_share = 1;
    assert_int_equal(gp_arch_occupancy(f->arch, &f->dev, &f->k.launch, &f->occ, &err), 0);
}

static gp_op_cost_t cost(fix_t *f)
{
    gp_op_cost_t c;
    char msg[256];
    assert_int_equal(gp_arch_call_op_cost(f->arch, &f->dev, &f->k, &f->ops[1], &f->occ, &f->res,
                                          &c, msg, sizeof msg),
                     0);
    assert_true(fabs(c.l1_hit + c.l2_hit + c.dram_hit - 1) < 1e-9);
    return c;
}

/* A thread per row stepping 4 bytes a iteration re-uses each sector for 8
   iterations: an eighth of the sector bytes go below L1. */
static void test_row_walk_reuses_sectors(void **state)
{
    fix_t f;
    gp_lane_sample_t s;
    int64_t off[2 * 32];
    gp_op_cost_t c;
    uint32_t t;
    (void)state;
    setup(&f, 64, 128, 1024, 8192ull * 4096);
    for (t = 0; t < 32; t++) {
        off[t] = (int64_t)t * 4096;          /* iteration 0 */
        off[32 + t] = (int64_t)t * 4096 + 4; /* iteration 1 */
    }
    memset(&s, 0, sizeof s);
    s.n_warps = 2;
    s.lanes = 32;
    s.byte_offset = off;
    s.next_iteration = 1;
    s.warp_footprint_bytes = 32 * 4096;
    s.block_footprint_bytes = 128 * 4096;
    s.grid_footprint_bytes = 8192ull * 4096;
    f.ops[1].access.pattern = GP_PATTERN_STRIDE;
    f.ops[1].access.stride_elems = 1024;
    f.ops[1].access.sample = &s;
    c = cost(&f);
    assert_true(c.l2_bytes <= 1024 * 0.7);     /* below a sector per lane: L1 keeps some */
    assert_true(c.dram_bytes <= 1024 / 8 + 1); /* the matrix once */
    assert_true(c.l1_hit > 0.3);
}

/* A column convolution over an n x n image of floats: each thread reads
   `taps` pixels down its column (one load in a loop over dy). Instance 0 is
   a row of 32 lanes, instance 1 the next iteration one row down; the range
   one lane covers over the loop is `span` bytes. */
static gp_op_cost_t column_taps(uint64_t n, double taps, uint64_t span, gp_lane_sample_t *s,
                                int64_t *off)
{
    fix_t f;
    uint32_t t;
    setup(&f, n * n / 256, 256, taps, 4 * n * n);
    for (t = 0; t < 32; t++) {
        off[t] = (int64_t)(4 * n + 4 * t);         /* row 1: row 0 is the border */
        off[32 + t] = (int64_t)(8 * n + 4 * t);    /* one row down */
    }
    memset(s, 0, sizeof *s);
    s->n_warps = 2;
    s->lanes = 32;
    s->byte_offset = off;
    s->next_iteration = 1;
    s->loop_span_bytes = span;
    s->warp_footprint_bytes = 128 * (uint64_t)taps;
    s->block_footprint_bytes = 1024 * ((uint64_t)taps + 7);
    s->grid_footprint_bytes = 4 * n * n;
    f.ops[1].access.pattern = GP_PATTERN_UNIT;
    f.ops[1].access.sample = s;
    return cost(&f);
}

/* A 7-tap column convolution of a 256 MiB image: the rows a thread re-reads
   came in a few rows of the sweep earlier (6 rows of 32 KiB apart, far
   within the L2), so DRAM moves the image once, not 7 times; the same taps
   spread over more than the L2 (rows of 16 MiB) miss as before. */
static void test_near_rereads_hit_l2(void **state)
{
    gp_lane_sample_t s;
    int64_t off[2 * 32];
    gp_op_cost_t c;
    (void)state;
    c = column_taps(8192, 7, 6 * 8192 * 4, &s, off);
    assert_true(c.dram_bytes <= 1.1 * c.l2_bytes / 7); /* the image once */
    assert_true(c.dram_bytes >= 0.9 * c.l2_bytes / 7);
    /* 4096 x 4M floats: rows of 16 MiB, taps 96 MiB apart on a 64 MiB L2 */
    {
        fix_t f;
        uint32_t t;
        setup(&f, 1ull << 16, 256, 7, 1ull << 34);
        for (t = 0; t < 32; t++) {
            off[t] = (int64_t)(1ull << 24) + 4 * t;
            off[32 + t] = (int64_t)(1ull << 25) + 4 * t;
        }
        memset(&s, 0, sizeof s);
        s.n_warps = 2;
        s.lanes = 32;
        s.byte_offset = off;
        s.next_iteration = 1;
        s.loop_span_bytes = 6ull << 24;
        s.grid_footprint_bytes = 1ull << 34;
        f.ops[1].access.pattern = GP_PATTERN_UNIT;
        f.ops[1].access.sample = &s;
        c = cost(&f);
        assert_true(c.dram_bytes >= 0.99 * c.l2_bytes);
    }
}

/* A lane that reads only its own address again (span 0) is no neighbour's
   re-read: re-reading 64 MiB on the 60 MiB L2 still thrashes; and a span as
   wide as the buffer (a second pass of a grid-stride loop) or offsets drawn
   at random do too. */
static void test_own_or_whole_rereads_thrash(void **state)
{
    fix_t f;
    gp_lane_sample_t s;
    int64_t off[2 * 32];
    gp_op_cost_t c;
    uint32_t t;
    (void)state;
    setup(&f, (1u << 24) / 256, 256, 2, 1ull << 26);
    for (t = 0; t < 32; t++)
        off[t] = off[32 + t] = 4 * (int64_t)t;
    memset(&s, 0, sizeof s);
    s.n_warps = 2;
    s.lanes = 32;
    s.byte_offset = off;
    s.grid_footprint_bytes = 1ull << 26;
    f.ops[1].access.pattern = GP_PATTERN_UNIT;
    f.ops[1].access.sample = &s;
    c = cost(&f);
    assert_true(c.dram_bytes >= 0.99 * c.l2_bytes);
    s.loop_span_bytes = (1ull << 26) - 4;
    c = cost(&f);
    assert_true(c.dram_bytes >= 0.99 * c.l2_bytes);
    /* the same taps 6 rows apart fit: the re-reads hit (in L2, or in L1
       where the sample's warp 1 reads what warp 0 does: of the bytes the
       loads ask for, at most 60% reach DRAM) */
    s.loop_span_bytes = 6 * 4096 * 4;
    c = cost(&f);
    assert_true(c.dram_bytes <= 0.6 * (c.l1_bytes + c.l2_bytes));
    /* ... unless the offsets were drawn at random: their span says nothing */
    s.drawn = 1;
    c = cost(&f);
    assert_true(c.dram_bytes >= 0.99 * c.l2_bytes);
}

/* Re-reading 64 MiB on the 60 MiB L2 thrashes (LRU); 16 MiB hits. The
   loads bypass L1 (ld.global.cg), so that the L2 sees every re-read. */
static void test_reread_beyond_l2_thrashes(void **state)
{
    fix_t f;
    gp_op_cost_t c;
    (void)state;
    setup(&f, (1u << 24) / 256, 256, 2, 1ull << 26);
    f.k.launch.global_cache = GP_GLOBAL_CACHE_L2;
    c = cost(&f);
    assert_true(c.l1_bytes == 0);
    assert_true(c.dram_bytes >= 0.99 * c.l2_bytes);
    setup(&f, (1u << 22) / 256, 256, 2, 1ull << 24);
    f.k.launch.global_cache = GP_GLOBAL_CACHE_L2;
    c = cost(&f);
    assert_true(c.dram_bytes <= 0.6 * c.l2_bytes); /* half the reads are re-reads */
}

/* The same 16 MiB read twice by the same threads (a loop of two passes, the
   grid covering the buffer), cached in L1: each SM re-reads its own 127 KiB,
   which the 248 KiB of L1 a launch without a carve-out preference keeps
   (8 blocks of 256 threads: the 8 KiB step), so the L2 sees the first reads
   only. With the largest carve-out (28 KiB of L1) the re-reads, in the order
   of the first ones, thrash the L1 and reach the L2. */
static void test_l1_keeps_own_share(void **state)
{
    fix_t f;
    gp_op_cost_t c, l2only;
    (void)state;
    setup(&f, (1u << 22) / 256, 256, 2, 1ull << 24);
    assert_int_equal(f.occ.l1_bytes_available, 262144 - 8192);
    c = cost(&f);
    f.k.launch.global_cache = GP_GLOBAL_CACHE_L2;
    l2only = cost(&f);
    assert_true(fabs(c.l1_bytes - 0.5 * 128) < 1); /* a 128-byte request, half re-read */
    assert_true(fabs(c.l2_bytes - 0.5 * l2only.l2_bytes) < 1);
    assert_true(c.dram_bytes >= 0.99 * c.l2_bytes);
    setup(&f, (1u << 22) / 256, 256, 2, 1ull << 24);
    f.k.launch.carveout_percent = 100;
    assert_int_equal(gp_arch_occupancy(f.arch, &f.dev, &f.k.launch, &f.occ, &(gp_err_t){0}), 0);
    assert_int_equal(f.occ.l1_bytes_available, 262144 - 233472);
    c = cost(&f);
    assert_true(c.l1_bytes == 0);
    assert_true(c.dram_bytes <= 0.6 * c.l2_bytes);
}

/* Taps of a window the description folds (mlp ws=l2: tap k reads the T
   floats from k T on, modulo a 16 MiB window): each load covers a quarter
   of its footprint, so which thread re-reads a line is not said, and an
   SM's reads fall anywhere in the window: 1.5 MiB of distinct lines per SM,
   re-read little and far beyond its L1, not its 127 KiB share (which would
   fit). The L2 serves the re-reads. */
static void test_folded_taps_miss_l1(void **state)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_kernel_t k;
    gp_op_t ops[16];
    gp_occupancy_t occ;
    gp_residency_t res;
    gp_op_cost_t c;
    gp_err_t err;
    char msg[256];
    uint32_t i, n = 16;
    memset(&k, 0, sizeof k);
    memset(ops, 0, sizeof ops);
    memset(&res, 0, sizeof res);
    assert_int_equal(gp_device_open("h200-sxm", &dev, &arch, &err), 0);
    for (i = 0; i < n; i++) {
        ops[i].kind = GP_OP_LOAD;
        ops[i].space = GP_SPACE_TEXTURE;
        ops[i].count = 1;
        ops[i].ilp = 1;
        ops[i].access.elem_bytes = 4;
        ops[i].access.footprint_bytes = 1ull << 24;
        ops[i].access.buffer = 0;
        ops[i].access.pattern = GP_PATTERN_UNIT;
    }
    k.name = "taps";
    k.launch.grid.x = 132 * 32;
    k.launch.grid.y = k.launch.grid.z = 1;
    k.launch.block.x = 256;
    k.launch.block.y = k.launch.block.z = 1;
    k.launch.threads_per_block = 256;
    k.launch.regs_per_thread = 30;
    k.launch.carveout_percent = -1;
    k.ops = ops;
    k.n_ops = n;
    k.total_blocks = 132 * 32;
    res.blocks = 1;
    res.dram_share = res.l2_share = 1;
    assert_int_equal(gp_arch_occupancy(arch, &dev, &k.launch, &occ, &err), 0);
    assert_true(occ.l1_bytes_available >= 248 * 1024);
    /* the last tap: 15 of 16 taps' reads are re-reads of the window */
    assert_int_equal(
        gp_arch_call_op_cost(arch, &dev, &k, &ops[n - 1], &occ, &res, &c, msg, sizeof msg), 0);
    assert_true(c.l1_bytes < 0.01 * 128);
    assert_true(c.dram_bytes < 0.1 * c.l2_bytes); /* L2 hits */
    /* the same taps, each covering the window (the grid 4x larger: thread g
       reads element g in every tap): each SM re-reads its own share in L1 */
    k.launch.grid.x = k.total_blocks = 132 * 128;
    assert_int_equal(gp_arch_occupancy(arch, &dev, &k.launch, &occ, &err), 0);
    assert_int_equal(
        gp_arch_call_op_cost(arch, &dev, &k, &ops[n - 1], &occ, &res, &c, msg, sizeof msg), 0);
    assert_true(c.l1_bytes > 0.99 * 128);
}

/* An SM that touches more than its even share of the footprint (every block
   reads all of a 64 KiB table, 256 elements a thread): of its 256 KiB of
   reads only the part beyond its own first touches re-reads its L1, 3/4,
   not the grid's 1 - 64 KiB / 33 MiB. */
static void test_sm_first_touches(void **state)
{
    fix_t f;
    gp_lane_sample_t s;
    int64_t off[32];
    gp_op_cost_t c;
    uint32_t t;
    (void)state;
    setup(&f, 132, 256, 256, 1u << 16);
    for (t = 0; t < 32; t++)
        off[t] = 4 * (int64_t)t;
    memset(&s, 0, sizeof s);
    s.n_warps = 1;
    s.lanes = 32;
    s.byte_offset = off;
    s.warp_footprint_bytes = 1u << 16;
    s.block_footprint_bytes = 1u << 16;
    s.grid_footprint_bytes = 1u << 16;
    f.ops[1].access.pattern = GP_PATTERN_UNIT;
    f.ops[1].access.sample = &s;
    c = cost(&f);
    assert_true(fabs(c.l1_bytes / 128 - 0.75) < 0.01);
}

/* The first reads of bytes an earlier launch left in L2 hit there. */
static void test_warm_l2_hits(void **state)
{
    fix_t f;
    gp_op_cost_t cold, warm;
    uint64_t w = 1ull << 24;
    (void)state;
    setup(&f, (1u << 22) / 256, 256, 1, 1ull << 24);
    cold = cost(&f);
    f.k.l2_warm_bytes = &w;
    f.k.n_buffers = 1;
    warm = cost(&f);
    assert_true(cold.dram_bytes > 0);
    assert_true(warm.dram_bytes < 0.01 * cold.dram_bytes);
    /* an L2 share too small for the buffer keeps nothing of it */
    f.res.l2_capacity_bytes = (double)(1u << 23);
    warm = cost(&f);
    assert_true(warm.dram_bytes >= 0.99 * cold.dram_bytes);
}

/* A one-thread block moves one lane's bytes, never a warp's. */
static void test_one_thread_one_lane(void **state)
{
    fix_t f;
    gp_op_cost_t one, warp;
    (void)state;
    setup(&f, 1, 1, 4096, 1u << 30);
    f.ops[1].access.pattern = GP_PATTERN_RANDOM;
    one = cost(&f);
    setup(&f, 1, 32, 4096, 1u << 30);
    f.ops[1].access.pattern = GP_PATTERN_RANDOM;
    warp = cost(&f);
    assert_true(one.dram_bytes * 8 <= warp.dram_bytes);
    assert_true(one.latency_cycles <= warp.latency_cycles + 1e-9);
    assert_true(one.dram_hit > 0.9); /* 1 GiB: DRAM */
}

/* A 3x3 convolution of an n x n image of floats (texture loads, no loop):
   32x8 blocks, op (dy, dx) of lane t in warp w reads pixel (8 + w + dy - 1,
   32 + t + dx - 1) of a 4 * n * n byte buffer, scaled by `apart` bytes per
   tap (0: the taps are neighbours). Returns op `which`'s cost. */
static gp_op_cost_t taps3x3(uint64_t n, int64_t apart, int drawn, uint32_t which)
{
    gp_device_t dev;
    const gp_arch_t *arch;
    gp_kernel_t k;
    gp_op_t ops[9];
    gp_lane_sample_t s[9];
    static int64_t off[9][2 * 32];
    gp_occupancy_t occ;
    gp_residency_t res;
    gp_op_cost_t c;
    gp_err_t err;
    char msg[256];
    uint32_t i, t, w;
    memset(&k, 0, sizeof k);
    memset(ops, 0, sizeof ops);
    memset(&res, 0, sizeof res);
    assert_int_equal(gp_device_open("h200-sxm", &dev, &arch, &err), 0);
    for (i = 0; i < 9; i++) {
        int64_t dy = i / 3, dx = i % 3;
        for (w = 0; w < 2; w++)
            for (t = 0; t < 32; t++)
                off[i][w * 32 + t] =
                    4 * ((int64_t)(8 + w + dy - 1) * (int64_t)n + 32 + t + dx - 1) + apart * i;
        memset(&s[i], 0, sizeof s[i]);
        s[i].n_warps = 2;
        s[i].lanes = 32;
        s[i].byte_offset = off[i];
        s[i].drawn = (uint32_t)drawn;
        s[i].warp_footprint_bytes = 128;
        s[i].block_footprint_bytes = 1024;
        s[i].grid_footprint_bytes = 4 * n * n;
        ops[i].kind = GP_OP_LOAD;
        ops[i].space = GP_SPACE_TEXTURE;
        ops[i].count = 1;
        ops[i].ilp = 1;
        ops[i].access.elem_bytes = 4;
        ops[i].access.footprint_bytes = 4 * n * n;
        ops[i].access.buffer = 0;
        ops[i].access.pattern = GP_PATTERN_UNIT;
        ops[i].access.sample = &s[i];
    }
    k.name = "conv3";
    k.launch.grid.x = n / 32;
    k.launch.grid.y = n / 8;
    k.launch.grid.z = 1;
    k.launch.block.x = 32;
    k.launch.block.y = 8;
    k.launch.block.z = 1;
    k.launch.threads_per_block = 256;
    k.launch.regs_per_thread = 32;
    k.launch.carveout_percent = -1;
    k.ops = ops;
    k.n_ops = 9;
    k.total_blocks = (n / 32) * (n / 8);
    res.blocks = 1;
    res.dram_share = res.l2_share = 1;
    assert_int_equal(gp_arch_occupancy(arch, &dev, &k.launch, &occ, &err), 0);
    assert_int_equal(
        gp_arch_call_op_cost(arch, &dev, &k, &ops[which], &occ, &res, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.l1_hit + c.l2_hit + c.dram_hit - 1) < 1e-9);
    return c;
}

/* The taps of a block re-read its (32 + 2) x (8 + 2) window, which its SM's
   L1 keeps while the resident blocks run: of the 9 requests of 4 or 5
   sectors each warp makes, L2 sees about the window once (10 rows of 34
   floats, some 5 sectors each, a fifth of the requests' sectors); taps 1 MiB
   apart share nothing, and offsets drawn at random say nothing: their reads
   go below L1 as before. */
static void test_block_window_hits_l1(void **state)
{
    double near = 0, far = 0, drawn = 0;
    uint32_t op;
    (void)state;
    for (op = 0; op < 9; op++) {
        gp_op_cost_t c = taps3x3(8192, 0, 0, op);
        near += c.l2_bytes;
        if (op > 0) /* the first tap's reads are the window's first reads */
            assert_true(c.l1_hit > 0.6);
        c = taps3x3(8192, 1 << 20, 0, op);
        far += c.l2_bytes;
        assert_true(c.l1_hit < 0.1);
        drawn += taps3x3(8192, 0, 1, op).l2_bytes;
    }
    assert_true(near < 0.45 * far);
    assert_true(drawn > 0.9 * far);
}

/* A chase of `threads` lanes per block, `blocks` blocks, through `fp` bytes of
   8-byte pointers drawn at random (pattern "random", depends), `trips` hops:
   the cost of its load, on the H200 with the smallest carve-out. */
static gp_op_cost_t chase_cost(uint64_t blocks, uint64_t threads, double trips, uint64_t fp,
                               uint64_t smem)
{
    fix_t f;
    gp_err_t err;
    setup(&f, blocks, threads, trips, fp);
    f.ops[1].access.elem_bytes = 8;
    f.ops[1].access.pattern = GP_PATTERN_RANDOM;
    f.ops[1].access.depends = 1;
    f.k.launch.carveout_percent = 0;
    f.k.launch.dynamic_smem_bytes = smem;
    assert_int_equal(gp_arch_occupancy(f.arch, &f.dev, &f.k.launch, &f.occ, &err), 0);
    return cost(&f);
}

/* The L1 edge of a chase (bench_chase, run7): one lane per SM re-visiting
   128 KiB hits L1 (after its first touches: one per 32-byte sector the L1
   fetches, 4096 of 100000 hops), 384 KiB never does, 240 KiB partly; 100 KiB
   of shared memory leaves the L1 124 KiB, which 128 KiB overflows. */
static void test_chase_l1_edge(void **state)
{
    gp_op_cost_t in, edge, out, carved;
    (void)state;
    in = chase_cost(132, 1, 100000, 128u << 10, 0);
    edge = chase_cost(132, 1, 100000, 240u << 10, 0);
    out = chase_cost(132, 1, 100000, 384u << 10, 0);
    carved = chase_cost(132, 1, 100000, 128u << 10, 100u << 10);
    assert_true(in.l1_hit > 0.95);
    assert_true(out.l1_hit < 0.02);
    assert_true(edge.l1_hit > 0.2 && edge.l1_hit < 0.8);
    assert_true(carved.l1_hit < 0.5 * in.l1_hit);
    assert_true(in.latency_cycles < edge.latency_cycles);
    assert_true(edge.latency_cycles < out.latency_cycles);
}

/* At the edge a request of a lone warp's 32 lanes hits only where all of
   them do; with 8 warps chasing the same cycle the SM shares the misses
   among the warps (a request waits on 32 / 8 lines' chances): its requests
   hit L1 more often and wait less. */
static void test_chase_warps_share_misses(void **state)
{
    gp_op_cost_t one, eight;
    (void)state;
    one = chase_cost(132, 32, 100000, 224u << 10, 0);
    eight = chase_cost(132, 256, 100000, 224u << 10, 0);
    assert_true(one.l1_hit < 0.05);
    assert_true(eight.l1_hit > 0.2 && eight.l1_hit < 0.9);
    assert_true(eight.latency_cycles < one.latency_cycles);
}

/* A chase's re-visits farther apart than the L2 holds still find a share of
   their lines there, as drawn gathers' do (drawn_keep: the L2 places lines
   in its sets at random), not none as a cycle through an LRU cache would.
   One lane of one block through 64 MiB, just over the H200's 60 MiB,
   stands between the same chase through 16 MiB (every re-visit hits) and
   through 1 GiB (nearly none does); a warp's step waits on DRAM for fewer
   of its lanes through 64 MiB than through 1 GiB. bench_cold's chases of
   32 and 128 threads through 64 MiB take 0.82 to 0.88 of their time
   through 256 MiB (run10/cold). */
static void test_chase_beyond_l2_keeps_some(void **state)
{
    gp_op_cost_t fit, over, huge;
    (void)state;
    fit = chase_cost(1, 1, 1e8, 16u << 20, 0);
    over = chase_cost(1, 1, 1e8, 64u << 20, 0);
    huge = chase_cost(1, 1, 1e8, 1u << 30, 0);
    assert_true(fit.l2_hit > 0.99);
    assert_true(over.l2_hit > 0.15 && over.l2_hit < 0.6);
    assert_true(huge.l2_hit < 0.05);
    assert_true(fit.latency_cycles < over.latency_cycles);
    assert_true(over.latency_cycles < huge.latency_cycles);
    fit = chase_cost(1, 32, 262144, 16u << 20, 0);
    over = chase_cost(1, 32, 262144, 64u << 20, 0);
    huge = chase_cost(1, 32, 262144, 1u << 30, 0);
    assert_true(fit.latency_cycles < over.latency_cycles);
    assert_true(over.latency_cycles < 0.98 * huge.latency_cycles);
}

/* A block's own re-reads over its life: 256 threads each reading its own
   16 words (a line per warp and word, 16 KiB + 128 bytes apart) 32 times
   over, 4 waves of 8 blocks per SM. The resident blocks' 128 KiB fit the L1
   and all but the first touches hit; 4 times the words (512 KiB per SM)
   keep the L1's share of them (gradual, not a cliff). */
static void own_sample(gp_lane_sample_t *s, int64_t *off, int64_t stride, uint64_t words)
{
    uint32_t t;
    for (t = 0; t < 32; t++) {
        off[t] = 4 * (int64_t)t;
        off[32 + t] = stride + 4 * (int64_t)t;
    }
    memset(s, 0, sizeof *s);
    s->n_warps = 2;
    s->lanes = 32;
    s->byte_offset = off;
    s->next_iteration = 1;
    s->warp_footprint_bytes = 128 * words;
    s->block_footprint_bytes = 8 * 128 * words;
    s->grid_footprint_bytes = 4 * 132 * 8 * s->block_footprint_bytes;
}

static void test_block_life_rereads(void **state)
{
    fix_t f;
    gp_lane_sample_t s;
    int64_t off[64];
    gp_op_cost_t fits, spills;
    (void)state;
    setup(&f, 4 * 132 * 8, 256, 32 * 16, 4ull * 132 * 8 * 8 * 128 * 16);
    f.ops[1].access.pattern = GP_PATTERN_UNIT;
    f.ops[1].access.sample = &s;
    own_sample(&s, off, 16384 + 128, 16);
    fits = cost(&f);
    setup(&f, 4 * 132 * 8, 256, 32 * 64, 4ull * 132 * 8 * 8 * 128 * 64);
    f.ops[1].access.pattern = GP_PATTERN_UNIT;
    f.ops[1].access.sample = &s;
    own_sample(&s, off, 16384 + 128, 64);
    spills = cost(&f);
    assert_true(fits.l1_hit > 0.95);
    assert_true(spills.l1_hit > 0.3 && spills.l1_hit < 0.7);
    assert_true(fits.dram_bytes < 0.05 * (fits.l1_bytes + fits.l2_bytes));
}

/* Rows read in two passes (two loops over a row each): the second pass
   re-reads the row after every resident block has read its own. A warp per
   row (8 rows a block of 256, lanes 32 elements apart) or, with `per_block`,
   a block per row (lanes 256 apart). */
static gp_op_cost_t row_passes(uint64_t cols, uint64_t mib, int per_block)
{
    fix_t f;
    gp_op_t ops[4];
    gp_lane_sample_t s[2];
    int64_t off[32];
    gp_op_cost_t c;
    char msg[256];
    uint64_t rows = (mib << 20) / (4 * cols), step = per_block ? 256 : 32;
    uint32_t t, i;
    setup(&f, per_block ? rows : rows / 8, 256, (double)(cols / step), mib << 20);
    for (t = 0; t < 32; t++)
        off[t] = 4 * (int64_t)t;
    for (i = 0; i < 2; i++) {
        memset(&s[i], 0, sizeof s[i]);
        s[i].n_warps = 1;
        s[i].lanes = 32;
        s[i].byte_offset = off;
        s[i].loop_span_bytes = 4 * (cols - step);
        s[i].warp_footprint_bytes = 4 * cols * 32 / step;
        s[i].block_footprint_bytes = (per_block ? 1 : 8) * 4 * cols;
        s[i].grid_footprint_bytes = mib << 20;
        ops[2 * i] = f.ops[0];
        ops[2 * i + 1] = f.ops[1];
        ops[2 * i + 1].access.pattern = GP_PATTERN_STRIDE;
        ops[2 * i + 1].access.stride_elems = 1;
        ops[2 * i + 1].access.sample = &s[i];
    }
    f.k.ops = ops;
    f.k.n_ops = 4;
    assert_int_equal(gp_arch_call_op_cost(f.arch, &f.dev, &f.k, &ops[3], &f.occ, &f.res, &c,
                                          msg, sizeof msg),
                     0);
    return c;
}

/* 64 MiB as 4096 rows of 16 KiB, a warp each, all resident at once (512
   blocks): the rows between a read and its re-read fill more than the L2,
   the second pass comes from DRAM. As 16384 rows of 4 KiB (2048 blocks,
   1056 held at once: 33 MiB of rows) it hits the L2. A block per row of
   16 KiB (8 blocks an SM: 128 KiB of rows) hits the SM's 248 KiB of L1. */
static void test_row_passes_reread_at_resident_distance(void **state)
{
    gp_op_cost_t all, half, block;
    (void)state;
    all = row_passes(4096, 64, 0);
    half = row_passes(1024, 64, 0);
    block = row_passes(4096, 64, 1);
    assert_true(all.l2_bytes > 0 && half.l2_bytes > 0);
    assert_true(all.dram_bytes >= 0.99 * all.l2_bytes);
    assert_true(all.l1_bytes <= 0.01 * all.l2_bytes && half.l1_bytes <= 0.01 * half.l2_bytes);
    assert_true(half.dram_bytes <= 0.01 * half.l2_bytes);
    assert_true(block.l2_bytes <= 0.05 * (block.l1_bytes + block.l2_bytes));
}

/* The warps of a block reading one row of B at step k (a 32x8 tile walk):
   warp 1 reads the lines warp 0 does, so 7 of a block's 8 reads are served
   by the L1 (an eighth of the bytes past it); where warp 1 reads its own
   lines every read goes past it. The latency stays near a miss's (the
   sibling hits would make it an eighth of one): the warps ask for the line
   while its fill is in flight. */
static void test_sibling_warps_share(void **state)
{
    fix_t f;
    gp_lane_sample_t s;
    int64_t off[64];
    gp_op_cost_t same, apart;
    uint32_t t;
    (void)state;
    setup(&f, 4096, 256, 1024, 4u << 20);
    for (t = 0; t < 32; t++)
        off[t] = off[32 + t] = 4 * (int64_t)t;
    memset(&s, 0, sizeof s);
    s.n_warps = 2;
    s.lanes = 32;
    s.byte_offset = off;
    s.warp_footprint_bytes = s.block_footprint_bytes = 128u << 10;
    s.grid_footprint_bytes = 4u << 20;
    f.ops[1].access.pattern = GP_PATTERN_UNIT;
    f.ops[1].access.sample = &s;
    same = cost(&f);
    for (t = 0; t < 32; t++)
        off[32 + t] = 4096 + 4 * (int64_t)t;
    s.block_footprint_bytes = 8 * s.warp_footprint_bytes; /* no re-read */
    apart = cost(&f);
    assert_true(same.l2_bytes > 0 && apart.l2_bytes > 0);
    assert_true(fabs(same.l2_bytes / apart.l2_bytes - 1.0 / 8) < 0.01);
    assert_true(same.l1_hit < 0.5 && apart.l1_hit < 0.01);
    assert_true(same.latency_cycles > 0.75 * apart.latency_cycles);
}

/* 32 lanes of a warp chasing their own lines wait for them: at L1 the lines
   queue (0.64 cycles each at scattered offsets), at DRAM the slowest lane of
   32 costs five doublings of dram_lines_log2_cycles; one lane waits the
   level's latency. A request at one offset of 32 lines queues on one bank. */
static void test_lanes_on_their_own_lines(void **state)
{
    gp_op_cost_t one, warp;
    const gp_device_t *d;
    fix_t f;
    (void)state;
    setup(&f, 1, 1, 1, 1);
    d = &f.dev;
    assert_true(d->l1_line_cycles > 0 && d->dram_lines_log2_cycles > 0);
    one = chase_cost(1, 1, 100000, 16u << 10, 0);
    warp = chase_cost(1, 32, 100000, 16u << 10, 0);
    assert_true(one.l1_hit > 0.99 && warp.l1_hit > 0.95);
    /* the L1 latency, and the first touch of each of the 512 sectors from
       DRAM (0.5% of the hops) */
    assert_true(fabs(one.latency_cycles - d->l1_hit_cycles -
                     512.0 / 100000 * d->dram_random_cycles) < 2);
    assert_true(warp.latency_cycles > one.latency_cycles + 10 * d->l1_line_cycles);
    assert_true(warp.latency_cycles < one.latency_cycles + 31 * d->l1_bank_pass_cycles);
    one = chase_cost(1, 1, 100000, 1u << 30, 0);
    warp = chase_cost(1, 32, 100000, 1u << 30, 0);
    assert_true(warp.dram_hit > 0.99);
    assert_true(fabs(warp.latency_cycles - one.latency_cycles -
                     5 * d->dram_lines_log2_cycles) < 0.05 * one.latency_cycles);
}

/* A warp reading word 0 of 32 lines (128 bytes apart) holds the L1 a bank
   pass per line; 132 bytes apart (a bank each) only its sectors' bytes, a
   line's worth a clock (its address arithmetic is the instruction's, at
   most a line's time at l1_load_bytes_per_cycle); a device without the
   keys keeps the bytes rule. */
static void test_bank_passes_hold_l1(void **state)
{
    fix_t f;
    gp_op_cost_t same, spread;
    double bytes_rule;
    (void)state;
    setup(&f, 132, 32, 1, 1u << 20);
    f.ops[0].count = 1;
    f.ops[1].access.pattern = GP_PATTERN_STRIDE;
    f.ops[1].access.stride_elems = 32;
    same = cost(&f);
    assert_true(fabs(same.pipe_cycles[GP_PIPE_L1] - 32 * f.dev.l1_bank_pass_issue_cycles) < 1e-9);
    f.ops[1].access.stride_elems = 33;
    spread = cost(&f);
    bytes_rule = 32 * 32 / (double)f.dev.l1_line_bytes;
    assert_true(bytes_rule > 128 / f.dev.l1_load_bytes_per_cycle);
    assert_true(fabs(spread.pipe_cycles[GP_PIPE_L1] - bytes_rule) < 1e-9);
    assert_true(same.latency_cycles >= spread.latency_cycles);
    f.ops[1].access.stride_elems = 32;
    f.dev.l1_bank_pass_issue_cycles = f.dev.l1_line_issue_cycles = 0;
    f.dev.l1_line_cycles = f.dev.l1_bank_pass_cycles = 0;
    f.dev.l2_line_cycles = f.dev.dram_lines_log2_cycles = 0;
    spread = cost(&f);
    assert_true(fabs(spread.pipe_cycles[GP_PIPE_L1] - bytes_rule) < 1e-9);
    assert_true(spread.latency_cycles < same.latency_cycles);
}

/* A coalesced request shifted off its line boundary (32 floats on five
   sectors of two lines, a stencil's x - 1 tap) holds the L1 data path as
   long as the aligned one (one wavefront a line of named data); a float4
   request shifted by one element likewise (17 sectors, four lines' worth). */
static void test_misaligned_request_costs_its_lines(void **state)
{
    fix_t f;
    gp_op_cost_t aligned, shifted;
    uint32_t elem[2] = {4, 16}, i;
    (void)state;
    for (i = 0; i < 2; i++) {
        setup(&f, 132, 32, 1, 1u << 20);
        f.ops[1].access.elem_bytes = elem[i];
        f.ops[1].access.pattern = GP_PATTERN_STRIDE;
        f.ops[1].access.stride_elems = 1;
        aligned = cost(&f);
        f.ops[1].access.offset_elems = 1;
        shifted = cost(&f);
        assert_true(aligned.pipe_cycles[GP_PIPE_L1] > 0);
        assert_true(shifted.transactions > aligned.transactions);
        assert_true(fabs(shifted.pipe_cycles[GP_PIPE_L1] - aligned.pipe_cycles[GP_PIPE_L1]) <
                    1e-9);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_walk_reuses_sectors),
        cmocka_unit_test(test_reread_beyond_l2_thrashes),
        cmocka_unit_test(test_l1_keeps_own_share),
        cmocka_unit_test(test_folded_taps_miss_l1),
        cmocka_unit_test(test_sm_first_touches),
        cmocka_unit_test(test_warm_l2_hits),
        cmocka_unit_test(test_one_thread_one_lane),
        cmocka_unit_test(test_near_rereads_hit_l2),
        cmocka_unit_test(test_own_or_whole_rereads_thrash),
        cmocka_unit_test(test_block_window_hits_l1),
        cmocka_unit_test(test_chase_l1_edge),
        cmocka_unit_test(test_chase_warps_share_misses),
        cmocka_unit_test(test_chase_beyond_l2_keeps_some),
        cmocka_unit_test(test_block_life_rereads),
        cmocka_unit_test(test_row_passes_reread_at_resident_distance),
        cmocka_unit_test(test_sibling_warps_share),
        cmocka_unit_test(test_lanes_on_their_own_lines),
        cmocka_unit_test(test_misaligned_request_costs_its_lines),
        cmocka_unit_test(test_bank_passes_hold_l1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
