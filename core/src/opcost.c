/*
 * opcost.c - the core's cost of one warp-wide op, from the device's rates
 * and latencies and the generation's rules (gp_generation_t).
 *
 * Arithmetic: a warp instruction occupies its pipe for warp_size / lanes SM
 * cycles (CUDA C++ Programming Guide, arithmetic-instruction throughput
 * table: results per clock per SM [sources: pg-l]) and a dependent
 * instruction waits the class's latency from the device file. Memory: the
 * transactions a warp access needs under the generation's coalescing rules
 * (coalesce.c), the bytes each cache level serves and the latency seen by
 * the warp. Issue: the generation's issue rules.
 */
#include "opcost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "coalesce.h"
#include "constants.h"
#include "util.h"

/* Index of a word size in gp_mem_rules_t.segment_bytes. */
static int size_index(uint32_t elem)
{
    switch (elem) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    default: return 4;
    }
}

/* Distinct bytes an access touches over the launch. */
static double footprint_of(const gp_access_t *a)
{
    return a->sample ? (double)a->sample->grid_footprint_bytes : (double)a->footprint_bytes;
}

/* 1 if the op's accesses go through L1 under the generation's policy. */
static int l1_caches(const gp_mem_rules_t *r, const gp_device_t *d, const gp_kernel_t *k,
                     const gp_op_t *op)
{
    uint32_t mode = k->launch.global_cache;
    if (op->space == GP_SPACE_TEXTURE || op->space == GP_SPACE_CONSTANT)
        return 1;
    if (op->space == GP_SPACE_LOCAL)
        return r->local_in_l1 != 0;
    if (op->kind != GP_OP_LOAD && !r->l1_global_writes)
        return 0;
    switch (r->l1_global) {
    case GP_L1_GLOBAL_DEFAULT_ON:
        return mode != GP_GLOBAL_CACHE_L2;
    case GP_L1_GLOBAL_OPTIN:
        return mode == GP_GLOBAL_CACHE_ALL;
    case GP_L1_GLOBAL_OPTIN_IF_PARAM:
        return mode == GP_GLOBAL_CACHE_ALL && r->l1_global_optin_param > 0 &&
               r->l1_global_optin_param <= GP_MAX_ARCH_PARAMS &&
               d->arch_params[r->l1_global_optin_param - 1] >= 1;
    case GP_L1_GLOBAL_IF_PARAM:
        return mode != GP_GLOBAL_CACHE_L2 && r->l1_global_optin_param > 0 &&
               r->l1_global_optin_param <= GP_MAX_ARCH_PARAMS &&
               d->arch_params[r->l1_global_optin_param - 1] >= 1;
    default:
        return 0;
    }
}

/* The spacing in bytes that a drawn sample's reads keep within the lines
   they land on: a 128-byte line whose four sectors lanes read is read 32
   bytes apart, one sector of each line as far apart as random reads go
   (0: no drawn sample, or lanes sharing sectors). */
static size_t unique_i64(int64_t *v, size_t n);

static double drawn_spacing(const gp_device_t *d, const gp_access_t *a)
{
    const gp_lane_sample_t *s = a->sample;
    int64_t sec[64], ln[64];
    uint32_t l, n = 0, line = d->l1_line_bytes ? d->l1_line_bytes : 128;
    double sectors, lines;
    if (!s || !s->drawn || !s->byte_offset || d->sector_bytes == 0 || line <= d->sector_bytes)
        return 0;
    for (l = 0; l < s->lanes && n < 64; l++)
        if (s->byte_offset[l] >= 0) {
            sec[n] = s->byte_offset[l] / (int64_t)d->sector_bytes;
            ln[n] = s->byte_offset[l] / (int64_t)line;
            n++;
        }
    if (n < 2)
        return 0;
    sectors = (double)unique_i64(sec, n);
    lines = (double)unique_i64(ln, n);
    if (sectors < n || !(sectors > lines))
        return 0;
    return line / (sectors / lines);
}

/* DRAM bytes one thread's read costs when the warp's reads lie too far apart
   to share a 32-byte sector, from the device's measured sparse-read costs
   (interpolated in log2 of the spacing, relative to reads 32 B apart, which
   cost one sector); 0 when the reads share sectors or nothing is measured.
   A read of up to 16 bytes costs what a 4-byte one does ([sources:
   h200-cal] run41/fields vec rows: 4, 8 and 16 bytes at a random record a
   lane within 0.3% of each other at 4 to 64 warps per SM). */
static double sparse_read_bytes(const gp_device_t *d, const gp_access_t *a)
{
    static const double at[4] = {32, 64, 128, 256};
    double spacing, x;
    int k;
    if (!(d->sparse_read_bytes[0] > 0))
        return 0;
    switch (a->pattern) {
    case GP_PATTERN_STRIDE:
        spacing = fabs((double)a->stride_elems) * a->elem_bytes;
        break;
    case GP_PATTERN_RANDOM:
        /* drawn lanes on the sectors of one line read it as a stride of
           the sector would ([sources: h200-cal] run10/scatter c=4s rows) */
        spacing = drawn_spacing(d, a);
        if (!(spacing > 0))
            spacing = at[3];
        break;
    default:
        return 0;
    }
    if (spacing < at[0] || a->elem_bytes > 16)
        return 0;
    if (spacing >= at[3])
        return d->sector_bytes * d->sparse_read_bytes[3] / d->sparse_read_bytes[0];
    for (k = 0; k < 3 && spacing > at[k + 1]; k++)
        ;
    x = (log2(spacing) - log2(at[k])) / (log2(at[k + 1]) - log2(at[k]));
    return d->sector_bytes *
           (d->sparse_read_bytes[k] + x * (d->sparse_read_bytes[k + 1] - d->sparse_read_bytes[k])) /
           d->sparse_read_bytes[0];
}

/* 1 if op reads memory through a buffer (loads and async copies). */
static int reads_buffer(const gp_op_t *op)
{
    return (op->kind == GP_OP_LOAD || op->kind == GP_OP_ASYNC_COPY) &&
           (op->space == GP_SPACE_GLOBAL || op->space == GP_SPACE_TEXTURE) &&
           op->access.buffer != UINT32_MAX;
}

/* ------------------------------------------------------------ caches */

/*
 * The cache model. Every level is judged by re-use distance, the stack
 * distance of Mattson et al. ([sources: mattson1970]): under LRU a
 * re-reference hits when fewer distinct bytes than the cache holds were
 * touched since the last reference to its line. The GPU's hierarchy of
 * warps, blocks and SMs decides the distances, as in Nugteren et al.'s
 * GPU model ([sources: nugteren2014]):
 *  - short re-use: what a warp touches again at the next iteration of its
 *    innermost loop (the sample's first warp one iteration on against
 *    itself, bounded by the warp's footprint): the distance is the lines
 *    the SM's resident warps keep live meanwhile, one request of each read
 *    op per warp; those distances spread with the warps' interleaving, so
 *    the hits fall as capacity / distance once it no longer fits;
 *  - long re-use: the buffer's re-reads over the launch, at the distance of
 *    its footprint (an SM's share for L1, the grid's for L2); a re-read in
 *    the same order (affine addresses, a pointer chase through a
 *    permutation) misses wholly once the footprint exceeds the cache (LRU
 *    thrash), data-dependent addresses drawn at random hit capacity /
 *    footprint (every line equally likely: the independent reference
 *    model);
 *  - the L2 keeps what earlier launches left (kernel.l2_warm_bytes): the
 *    first reads of those bytes hit, while the buffer fits the capacity the
 *    launch can use (res.l2_capacity_bytes: the share among concurrent
 *    kernels).
 */

/* LRU hit fraction of re-references at distance `dist` bytes in `cap`
   bytes: 1 while it fits; beyond, 0 for re-reads at one distance (cyclic),
   cap / dist for distances spread evenly up to dist. */
static double lru_hit(double dist, double cap, int cyclic)
{
    if (!(dist > 0) || dist <= cap)
        return 1;
    if (cyclic || !(cap > 0))
        return 0;
    return cap / dist;
}

/* 1 when the op's addresses are data-dependent draws (random shorthand or
   gpuperf.random in the index function), not a chase through them. */
/*
 * A dependent load (depends = 1) whose address comes from its own previous
 * value: a pointer chase. That is the first load of a loop body (it depends
 * on the previous iteration), or a load whose nearest earlier load reads the
 * same buffer. A dependent load whose address comes from a load of another
 * buffer (in[idx[i]]: a gather through an index array) is not a chase: its
 * addresses are as independent of each other as any random load's.
 */
static int chases(const gp_kernel_t *k, const gp_op_t *op)
{
    uint32_t i, j;
    if (!op->access.depends)
        return 0;
    if (!k || !k->ops || op < k->ops || op >= k->ops + k->n_ops)
        return 1;
    i = (uint32_t)(op - k->ops);
    for (j = i; j-- > 0;) {
        const gp_op_t *o = &k->ops[j];
        if (o->kind == GP_OP_LOOP && j + o->body_len >= i)
            return 1; /* the first load of the loop body that holds it */
        if (o->kind == GP_OP_LOAD)
            return o->access.buffer == op->access.buffer;
    }
    return 1;
}

/* Addresses drawn independently at random (the IRM of caching theory): a
   random pattern that is not a pointer chase, from data (the shorthand, or
   an index function that draws gpuperf.random). An index function whose
   lanes only look scattered (its nearest pattern is random) gives the same
   addresses on every pass: its re-reads come back in order. */
static int irm_addresses(const gp_kernel_t *k, const gp_op_t *op)
{
    return op->access.pattern == GP_PATTERN_RANDOM && !chases(k, op) &&
           (!op->access.sample || op->access.sample->drawn);
}

/*
 * The bytes of the range a random access draws its addresses from: an index
 * function's gpuperf.random range (the buffer's where smaller), or for
 * `pattern = "random"` without a function, its shorthand, the footprint (the
 * buffer, or `range`); 0 when the addresses are not drawn.
 */
static double drawn_range(const gp_access_t *a)
{
    if (a->pattern != GP_PATTERN_RANDOM)
        return 0;
    if (a->sample)
        return a->sample->drawn ? (double)a->sample->drawn_range_bytes : 0;
    return (double)a->footprint_bytes;
}

/*
 * The `unit`s a random access's draws can reach: the units of the bytes
 * they spread over (the range, or where the index function scales the draw,
 * gpuperf.random(0, n - 1) * 32 to a node's first word, the sample's
 * drawn_span_bytes), at most the elements they can name (the range's, or
 * its share that consecutive draws name distinctly: `r - r % 16` names a
 * node per 16 draws, drawn_distinct).
 */
static double drawn_units(const gp_access_t *a, double unit)
{
    const gp_lane_sample_t *s = a->sample && a->sample->drawn ? a->sample : NULL;
    double range = drawn_range(a), e = a->elem_bytes ? a->elem_bytes : 4;
    double span = s ? GP_MAX((double)s->drawn_span_bytes, range) : range;
    double targets = range / e; /* the elements the draws can name */
    if (s && s->drawn_distinct > 0 && s->drawn_distinct < 1)
        targets *= s->drawn_distinct;
    return GP_MAX(1.0, GP_MIN(ceil(span / unit), ceil(targets)));
}

/* The bytes a random access's draws spread over: the span where the index
   function scales them (drawn_units), else the range. */
static double drawn_extent(const gp_access_t *a)
{
    double range = drawn_range(a);
    double span = a->sample && a->sample->drawn ? (double)a->sample->drawn_span_bytes : 0;
    return GP_MAX(range, span);
}

/* A chase whose addresses are draws of gpuperf.random over a known range. */
static int drawn_chase(const gp_kernel_t *k, const gp_op_t *op)
{
    return drawn_range(&op->access) > 0 && chases(k, op);
}

/* A load whose lanes draw their addresses over a known range, a chase or a
   gather alike: each lane reads where it drew, as independent of the
   others' as of its own earlier draws. */
static int drawn_read(const gp_kernel_t *k, const gp_op_t *op)
{
    return drawn_range(&op->access) > 0 && (op->kind == GP_OP_LOAD || chases(k, op));
}

/* The hit of a re-visit to a set that `m` lines share, with room for
   `ways` of them (Che's characteristic time within the set, drawn_keep),
   for a granule of the g of a line the draws reach. */
static double set_keep(double m, double ways, double g)
{
    return m <= ways ? 1 : 1 - pow(1 - ways / m, 1 / g);
}

/*
 * The L2 hit of a re-visit by reads drawn at random over `dist` bytes of
 * GP_L2_LINE_BYTES lines (the independent reference model) in `cap` bytes.
 * Three things keep it below the capacity's share of the lines (lru_hit's
 * cap / dist):
 *  - the L2 keeps lines, each with the fetch granules (dram_fetch_bytes)
 *    that misses brought: a draw finds its line while the line's draws
 *    come within the characteristic time T of the cache (Che's
 *    approximation, [sources: che2002]: a line is held where it was
 *    touched within T, so cap / dist = 1 - e^{-T/n} over n lines), and its
 *    granule where that granule's draws do, 1 - e^{-T/(n g)} = 1 - (1 -
 *    cap / dist)^{1/g}, g the granules of a line the draws reach;
 *  - each L2 partition keeps its own copy of what its SMs read ([sources:
 *    wp-a100]), so draws from every SM keep their lines in
 *    l2_drawn_capacity_fraction of the capacity;
 *  - lines fall into sets of l2_drawn_ways lines at random, so a set holds
 *    the m lines the draws reach in it (Poisson about the mean F / sets;
 *    a re-visit's set, by the m of it, size-biased) with set_keep: the edge
 *    at the capacity is soft ([sources: feller1968] ch. VI.5, the Poisson
 *    approximation).
 * The H200's gathers of a random word a lane over 16 to 128 MiB, their
 * re-visits' L2 hits (ncu, [sources: h200-cal] run29/gfoot, run31/gfoot):
 * 0.547 of the 60 MiB in sets of 40 lines with g = 2 (a 64-byte granule of
 * a 128-byte line), least squares over the 20 run31 cases (0.5 points;
 * 85% of the re-visits hit at 32 MiB, 59% at 40, 31% at 64, 13% at 128).
 */
static double drawn_keep(const gp_device_t *d, const gp_access_t *a, double dist, double cap)
{
    double line = GP_L2_LINE_BYTES, g = 1, ul, ug, ways = d->l2_drawn_ways, lam, p, h = 0;
    double fetch = GP_MIN(GP_MAX((double)d->sector_bytes, (double)d->dram_fetch_bytes), line);
    uint32_t j;
    if (d->l2_drawn_capacity_fraction > 0)
        cap *= d->l2_drawn_capacity_fraction;
    if (!(dist > 0) || (dist <= cap && !(ways > 0)))
        return 1;
    if (!(cap > 0))
        return 0;
    ul = drawn_units(a, line);
    ug = fetch > 0 ? drawn_units(a, fetch) : 0;
    if (ul > 0 && ug > ul)
        g = GP_MIN(ug / ul, line / fetch);
    /* the other lines in a re-visit's set: Poisson, mean lam; past 8 sets'
       room the spread no longer matters (one set of the whole capacity) */
    lam = ways > 0 ? dist / cap * ways : 0;
    if (!(ways > 0) || lam > 8 * ways)
        return set_keep(dist / cap, 1, g);
    /* from 12 standard deviations below the mean (what lies below weighs
       nothing), the first term in logarithms so that it does not underflow */
    j = (uint32_t)GP_MAX(0.0, floor(lam - 12 * sqrt(lam) - 12));
    p = exp(-lam + j * log(lam) - lgamma(j + 1.0));
    for (; j <= lam + 12 * sqrt(lam) + 12; j++) {
        h += p * set_keep(j + 1, ways, g);
        p *= lam / (j + 1);
    }
    return GP_MIN(h, 1.0);
}

int gp_sample_lanes(const gp_lane_sample_t *s, double *lanes, double *issuing)
{
    uint32_t iw, l;
    *lanes = *issuing = 0;
    if (!s || s->n_warps == 0 || !s->byte_offset || s->lanes == 0)
        return 0;
    for (iw = 0; iw < s->n_warps; iw++) {
        double m = 0;
        for (l = 0; l < s->lanes; l++)
            m += s->byte_offset[(size_t)iw * s->lanes + l] >= 0;
        *lanes += m;
        *issuing += m > 0;
    }
    return 1;
}

/* Lanes of a warp that access: a block smaller than a warp leaves the rest
   of its one warp idle; a sample counts its active lanes. */
static double active_lanes(const gp_device_t *d, const gp_kernel_t *k, const gp_access_t *a)
{
    const gp_lane_sample_t *s = a->sample;
    double w = d->warp_size, tpb = (double)k->launch.threads_per_block;
    double n, issuing;
    if (gp_sample_lanes(s, &n, &issuing)) {
        /* the lanes of a warp that accesses, times the share of the warps
           that do (the sampler's issuing: the sampled warps over-count
           warp 0 under a guard) */
        if (s->issuing > 0 && issuing > 0)
            return n / issuing * s->issuing;
        return n / s->n_warps;
    }
    return tpb > 0 && tpb < w ? tpb : w;
}

/* Fraction of the units of `unit` bytes that instance b touches and
   instance a touched too; -1 when b touches nothing. */
static double shared_units(const gp_lane_sample_t *s, uint32_t a, uint32_t b, uint32_t elem,
                           uint32_t unit)
{
    const int64_t *oa = s->byte_offset + (size_t)a * s->lanes;
    const int64_t *ob = s->byte_offset + (size_t)b * s->lanes;
    uint32_t i, j, n = GP_MIN(s->lanes, 64u), seen = 0, both = 0;
    for (i = 0; i < n; i++) {
        int64_t u, found = 0;
        if (ob[i] < 0)
            continue;
        u = ob[i] / unit;
        for (j = 0; j < i; j++) /* count each unit once */
            if (ob[j] >= 0 && ob[j] / unit == u)
                break;
        if (j < i)
            continue;
        seen++;
        for (j = 0; j < n && !found; j++)
            found = oa[j] >= 0 && oa[j] / unit <= u && (oa[j] + elem - 1) / unit >= u;
        both += found != 0;
    }
    return seen ? (double)both / seen : -1;
}

/* Global reads (loads, texture, async copies of a buffer) in the kernel:
   the requests each warp keeps live per iteration. */
static double read_ops(const gp_kernel_t *k)
{
    double n = 0;
    uint32_t i;
    for (i = 0; i < k->n_ops; i++) {
        const gp_op_t *o = &k->ops[i];
        n += (o->kind == GP_OP_LOAD || o->kind == GP_OP_ASYNC_COPY) &&
             (o->space == GP_SPACE_GLOBAL || o->space == GP_SPACE_TEXTURE);
    }
    return GP_MAX(n, 1.0);
}

/*
 * The share of a request's units that are new at the next iteration where
 * the warp's lanes all move by one distance d from iteration to iteration
 * (a walk): the u units the request touches shift by d bytes, so a new unit
 * comes in every unit / d iterations, d / (unit u) of them a request (at
 * most all), while the walk is on new ground: `footprint` bytes over
 * `requests`, each bringing the bytes its elements add to the last
 * iteration's. A warp-uniform walk of 8 bytes a trip through 32-byte
 * sectors fetches a sector every 4 trips, of 16 bytes every 2: a trip of
 * one warp per SM that loads one float and adds it takes 68 cycles from L1,
 * and its trips average 104 and 137 cycles from L2 at 4 and 8 bytes a
 * trip, 338 at 32 ([sources: h200-cal] run10/loopchain lc_f1_nc_uni_k0
 * fp = first, stride = 1, 2 and 8: the rows' times and loopchain_cycles.csv).
 * Counted by the walk's distinct bytes alone, every walk of 4-byte elements
 * came to 1 / 8, whatever its distance. 0 where the lanes move apart or not
 * at all.
 */
static double walk_new_units(const gp_lane_sample_t *s, uint32_t unit, uint32_t elem,
                             double footprint, double requests)
{
    const int64_t *oa = s->byte_offset;
    const int64_t *ob = s->byte_offset + (size_t)s->next_iteration * s->lanes;
    uint32_t i, j, n = GP_MIN(s->lanes, 64u), units = 0, fresh = 0;
    int64_t d = 0;
    int have = 0;
    for (i = 0; i < n; i++) {
        if (oa[i] < 0 || ob[i] < 0)
            continue;
        if (have && ob[i] - oa[i] != d)
            return 0;
        d = ob[i] - oa[i];
        have = 1;
        for (j = 0; j < i; j++) /* count each unit and element once */
            if (oa[j] >= 0 && oa[j] / unit == oa[i] / unit)
                break;
        units += j == i;
        for (j = 0; j < i; j++)
            if (ob[j] >= 0 && ob[j] / elem == ob[i] / elem)
                break;
        if (j < i)
            continue;
        for (j = 0; j < n; j++) /* an element the last iteration did not read */
            if (oa[j] >= 0 && oa[j] / elem == ob[i] / elem)
                break;
        fresh += j == n;
    }
    if (!have || d == 0 || units == 0 || fresh == 0 || !(requests > 0))
        return 0;
    return GP_MIN(1.0, fabs((double)d) / ((double)unit * units)) *
           GP_MIN(1.0, footprint / ((double)fresh * elem * requests));
}

/* The distance of a re-use within a loop trip or the next: the resident
   warps' live lines, `fill_bytes` per request of each read op, in bytes per
   SM. */
static double live_lines_bytes(const gp_kernel_t *k, const gp_occupancy_t *occ,
                               double fill_bytes)
{
    return (double)GP_MAX(occ->active_warps, 1u) * fill_bytes * read_ops(k);
}

/*
 * Short re-use of op's requests: the fraction `*frac` of its requests
 * whose units (`unit` bytes: what a miss fetches) the same warp touched at
 * the previous iteration, and their distance `*dist` in bytes per SM (the
 * resident warps' live lines: `fill_bytes` per request of each read op).
 */
static void short_reuse(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                        const gp_occupancy_t *occ, uint32_t unit, double fill_bytes,
                        double *frac, double *dist)
{
    const gp_access_t *a = &op->access;
    const gp_lane_sample_t *s = a->sample;
    double same, requests, threads, floor_new;
    *frac = 0;
    *dist = 0;
    if (!s || !s->byte_offset || s->next_iteration == 0 || s->next_iteration >= s->n_warps ||
        unit == 0 || !(fill_bytes > 0) || op < k->ops || op >= k->ops + k->n_ops)
        return;
    same = shared_units(s, 0, s->next_iteration, a->elem_bytes ? a->elem_bytes : 4, unit);
    if (!(same > 0))
        return;
    /* the warp's own footprint bounds what can be re-used: a walk that
       steps 4 bytes through 32-byte sectors re-uses 7 of 8 */
    threads = (double)k->total_blocks * (double)k->launch.threads_per_block;
    requests = threads > 0 ? gp_op_grid_bytes(k, op) / (threads * (a->elem_bytes ? a->elem_bytes : 4))
                           : 0;
    floor_new = requests > 0 && s->warp_footprint_bytes > 0
                    ? GP_MIN(1.0, (double)s->warp_footprint_bytes / (fill_bytes * requests))
                    : 0;
    floor_new = GP_MAX(floor_new, walk_new_units(s, unit, a->elem_bytes ? a->elem_bytes : 4,
                                                 (double)s->warp_footprint_bytes, requests));
    *frac = GP_MAX(0.0, 1.0 - GP_MAX(1.0 - same, floor_new));
    *dist = live_lines_bytes(k, occ, fill_bytes);
    (void)d;
}

/* Sort v[0..n) and keep each value once; returns how many remain. */
static size_t unique_i64(int64_t *v, size_t n)
{
    size_t i, d = 0;
    qsort(v, n, sizeof *v, gp_cmp_i64);
    for (i = 0; i < n; i++)
        if (i == 0 || v[i] != v[d - 1])
            v[d++] = v[i];
    return d;
}

/* Sampled warps with an active lane that lane_share looks at: it runs for
   every read of a buffer, and affine indices say it in a few. */
#define LANE_SHARE_WARPS 8

/*
 * The share of a warp's thread slots that read an element of their own in
 * its request: the lanes that access (a guard leaves the others idle: a
 * stencil's halo load in `if (tx == 0)` is one lane of 32), each element
 * once where several lanes name it (a warp-uniform load is one element:
 * the L1 serves lanes that name one word from one read, [sources:
 * pg-l] global memory of compute capability 5.x on): the most any sampled
 * warp names (the sample stands mostly at the grid's borders, where a
 * clamped tap repeats a few lanes' element), times the share of the
 * launch's warps that issue (the sample's issuing, as active_lanes). gp_op_grid_bytes counts every thread's element; times
 * this, the elements the requests read. 1 without a sample. Lanes whose
 * addresses are drawn at random count each as its own element (they
 * collide by chance), but only the lanes that read: a frontier's warp of
 * a active lanes reads a elements, not 32 ([sources: h200-cal]
 * run10/scatter: 1 to 32 active lanes of random 4-byte gathers from DRAM
 * take 104 to 171 us, one warp per SM, where counting 32 lanes for every
 * warp made the few-lane rows L1 hits, 18 us).
 */
static double lane_share(const gp_kernel_t *k, const gp_access_t *a)
{
    const gp_lane_sample_t *s = a->sample;
    double distinct = 0, issuing = 0, slots, tpb = (double)k->launch.threads_per_block;
    uint32_t w, l, j;
    if (!s || !s->byte_offset || s->lanes == 0 || s->n_warps == 0)
        return 1;
    for (w = 0; w < s->n_warps && issuing < LANE_SHARE_WARPS; w++) {
        const int64_t *off = s->byte_offset + (size_t)w * s->lanes;
        double n = 0;
        int64_t last = -1, first = -1;
        int rising = 1, same = 1;
        for (l = 0; l < s->lanes; l++) {
            if (off[l] < 0)
                continue;
            n++;
            rising &= off[l] > last;
            last = off[l];
            if (first < 0)
                first = off[l];
            same &= off[l] == first;
        }
        if (!(n > 0))
            continue;
        issuing++;
        if (s->drawn)
            ; /* drawn lanes name elements of their own: the lanes that read */
        else if (same) /* warp-uniform: one element */
            n = 1;
        else if (!rising) { /* offsets that rise lane by lane are all distinct */
            int64_t v[64];
            for (l = 0, j = 0; l < s->lanes && j < 64; l++)
                if (off[l] >= 0)
                    v[j++] = off[l];
            n = (double)unique_i64(v, j);
        }
        distinct = GP_MAX(distinct, n);
    }
    if (!(issuing > 0))
        return 1;
    if (s->issuing > 0)
        distinct *= s->issuing;
    slots = tpb > 0 && tpb < s->lanes ? tpb : (double)s->lanes;
    return GP_MIN(1.0, distinct / slots);
}

/* 1 for a warp-uniform load written as the shorthand (pattern
   "broadcast", no index function): each warp reads one element. */
static int broadcast_shorthand(const gp_access_t *a)
{
    return a->pattern == GP_PATTERN_BROADCAST && !a->sample;
}

/* The bytes an op's requests read over the launch: its threads' accesses
   (gp_op_grid_bytes) times lane_share, and no fewer than its footprint
   (the sampled warps stand at a few positions). */
static double request_bytes(const gp_kernel_t *k, const gp_op_t *op)
{
    double b = gp_op_grid_bytes(k, op), r = lane_share(k, &op->access);
    if (broadcast_shorthand(&op->access))
        /* a warp's one element: no more than its requests name */
        return b / GP_MAX(1.0, GP_MIN(32.0, (double)k->launch.threads_per_block));
    if (r < 1) /* no fewer than the distinct bytes it touches */
        b = GP_MIN(b, GP_MAX(b * r, footprint_of(&op->access)));
    return b;
}

/* Bytes an op's reads bring into a cache over the launch: its requests'
   elements (request_bytes), where a chase's lanes each fetch a whole sector
   of `unit` bytes (the footprint of such reads is their range: every
   sector of it). Gathers (random, not dependent) keep counting elements:
   the H200's gather rows are as slow as that makes them ([sources:
   h200-cal] access gather_l2). */
static double fetched_bytes(const gp_kernel_t *k, const gp_op_t *op, double unit)
{
    double e = op->access.elem_bytes ? op->access.elem_bytes : 4;
    double b = request_bytes(k, op);
    if (op->access.pattern == GP_PATTERN_RANDOM && chases(k, op) && unit > e)
        b *= unit / e;
    else if (broadcast_shorthand(&op->access) && unit > e)
        b *= unit / e; /* each warp's request touches its unit */
    return b;
}

/* Bytes of buffer b already in L2 when the launch starts. */
static double warm_bytes(const gp_kernel_t *k, uint32_t b)
{
    if (!k->l2_warm_bytes || b >= k->n_buffers)
        return 0;
    return (double)k->l2_warm_bytes[b];
}

/* Distinct bytes of the kernel's global buffers over the launch: each
   buffer's widest footprint among the ops that touch it. */
static double kernel_bytes(const gp_kernel_t *k)
{
    double sum = 0;
    uint32_t i, j;
    for (i = 0; i < k->n_ops; i++) {
        const gp_op_t *o = &k->ops[i];
        double fp;
        if (o->access.buffer == UINT32_MAX ||
            (o->space != GP_SPACE_GLOBAL && o->space != GP_SPACE_TEXTURE))
            continue;
        for (j = 0; j < i; j++) /* each buffer once, at its first op */
            if (k->ops[j].access.buffer == o->access.buffer &&
                (k->ops[j].space == GP_SPACE_GLOBAL || k->ops[j].space == GP_SPACE_TEXTURE))
                break;
        if (j < i)
            continue;
        fp = footprint_of(&o->access);
        for (j = i + 1; j < k->n_ops; j++)
            if (k->ops[j].access.buffer == o->access.buffer &&
                (k->ops[j].space == GP_SPACE_GLOBAL || k->ops[j].space == GP_SPACE_TEXTURE))
                fp = GP_MAX(fp, footprint_of(&k->ops[j].access));
        sum += fp;
    }
    return sum;
}

/* Index of the innermost LOOP or DIVERGE whose body holds ops[i]; -1: none
   (the kernel's top level). */
static long enclosing_body(const gp_kernel_t *k, uint32_t i)
{
    uint32_t j;
    for (j = i; j-- > 0;) {
        const gp_op_t *o = &k->ops[j];
        if ((o->kind == GP_OP_LOOP || o->kind == GP_OP_DIVERGE) && j + o->body_len >= i)
            return (long)j;
    }
    return -1;
}

/* 1 when ops[i] and ops[j] are passes over the same elements, one after
   the other: neither is in the body that holds the other (a load in one
   loop and its re-read in a later loop, or one of them outside the other's
   loop), and the sample's first warp instance (iteration 0 of every named
   loop) has each lane that runs both read the same address in both (the
   passes start together; a stencil's rows loaded before its walk down and
   the walk's loads are other elements). */
static int separate_passes(const gp_kernel_t *k, uint32_t i, uint32_t j)
{
    const gp_lane_sample_t *si = k->ops[i].access.sample, *sj = k->ops[j].access.sample;
    uint32_t l, both = 0;
    long a, b;
    if (!si || !sj || !si->byte_offset || !sj->byte_offset || si->lanes != sj->lanes ||
        si->n_warps == 0 || sj->n_warps == 0)
        return 0;
    for (l = 0; l < si->lanes; l++) { /* the lanes' addresses first: a few compares */
        int64_t x = si->byte_offset[l], y = sj->byte_offset[l];
        if (x < 0 || y < 0)
            continue;
        if (x != y)
            return 0;
        both++;
    }
    if (!both)
        return 0;
    a = enclosing_body(k, i);
    b = enclosing_body(k, j);
    if (a == b)
        return 0;
    if (a >= 0 && (uint32_t)a < j && j <= (uint32_t)a + k->ops[a].body_len)
        return 0;
    return !(b >= 0 && (uint32_t)b < i && i <= (uint32_t)b + k->ops[b].body_len);
}

/*
 * Re-use distance of re-reads that lie close together in the buffer (a
 * stencil's or a convolution's taps, written as index functions: several
 * loads whose addresses differ by a few rows, or one load in loops over the
 * window). The launch runs its blocks in order and they sweep the buffer in
 * address order, so the bytes touched between the first read of an address
 * and its re-read are the buffer's bytes in between, `span`, times the
 * kernel's bytes per byte of this buffer (the other buffers advance with
 * it): Mattson's stack distance ([sources: mattson1970]) of a sweep, as
 * Nugteren et al. count the lines a GPU touches between two uses
 * ([sources: nugteren2014]). span is the widest distance in bytes between
 * what one lane reads: across the ops that read the buffer (the first
 * sampled warp of each, lane by lane) plus the range one lane covers over
 * the named loops (loop_span_bytes). Returns -1 when the addresses do not
 * say (an op without a sample, addresses drawn at random, a span of 0: each
 * lane re-reads only its own address, a second pass over the buffer, or of
 * the whole buffer): then the footprint stands in, as for any re-read of a
 * whole buffer.
 */
/* 1 if op o takes part in op's near_distance: op itself, or with
   whole_buffer another load of its buffer. */
static int near_takes(const gp_op_t *o, const gp_op_t *op, int whole_buffer)
{
    return o == op ||
           (whole_buffer && reads_buffer(o) && o->access.buffer == op->access.buffer);
}

/* Ops compared lane by lane in near_distance without allocating. */
#define NEAR_MAX_OPS 64

static double near_distance(const gp_kernel_t *k, const gp_op_t *op, int whole_buffer)
{
    const gp_lane_sample_t *s0 = op->access.sample;
    const int64_t *col[NEAR_MAX_OPS];
    double lspan = 0, span = 0, fp = 0, all;
    uint32_t i, w, l, n, m = 0, lanes;
    if (!s0 || !s0->byte_offset || s0->n_warps == 0 || s0->lanes == 0 || s0->drawn)
        return -1;
    for (i = 0; i < k->n_ops; i++) {
        const gp_op_t *o = &k->ops[i];
        const gp_lane_sample_t *s = o->access.sample;
        if (!near_takes(o, op, whole_buffer))
            continue;
        if (!s || !s->byte_offset || s->n_warps == 0 || s->lanes != s0->lanes || s->drawn)
            return -1;
        lspan = GP_MAX(lspan, (double)s->loop_span_bytes);
        fp = GP_MAX(fp, footprint_of(&o->access));
        if (s->n_warps == s0->n_warps) {
            if (m < NEAR_MAX_OPS)
                col[m] = s->byte_offset;
            m++;
        }
    }
    /* a lane that reads only its own address again is short re-use (the
       next iteration) or a second pass over the buffer, not a neighbour's;
       the span only grows, so the scan stops once it reaches fp */
    if (!(fp > 0))
        return -1;
    /* ops sampled alike (one loop nest: the same instances) compared lane
       by lane, at every sampled instance: the border leaves some inactive;
       one op alone spans nothing */
    lanes = s0->lanes;
    for (w = 0; m > 1 && w < s0->n_warps && span + lspan < fp; w++)
        for (l = 0; l < lanes; l++) {
            size_t at = (size_t)w * lanes + l;
            int64_t lo = -1, hi = -1;
            if (m <= NEAR_MAX_OPS) {
                for (i = 0, n = 0; i < m; i++) {
                    int64_t v = col[i][at];
                    if (v < 0)
                        continue;
                    lo = n ? GP_MIN(lo, v) : v;
                    hi = n ? GP_MAX(hi, v) : v;
                    n++;
                }
            } else {
                for (i = 0, n = 0; i < k->n_ops; i++) {
                    const gp_op_t *o = &k->ops[i];
                    int64_t v;
                    if (!near_takes(o, op, whole_buffer) ||
                        o->access.sample->n_warps != s0->n_warps)
                        continue;
                    v = o->access.sample->byte_offset[at];
                    if (v < 0)
                        continue;
                    lo = n ? GP_MIN(lo, v) : v;
                    hi = n ? GP_MAX(hi, v) : v;
                    n++;
                }
            }
            if (n > 1)
                span = GP_MAX(span, (double)(hi - lo));
        }
    span += lspan;
    if (!(span > 0) || !(span < fp))
        return -1;
    all = kernel_bytes(k);
    return span * GP_MAX(1.0, all / fp);
}

/*
 * The re-read distance of a buffer that the ops of a block read in separate
 * passes (separate_passes: a softmax's or a layer norm's loops over its
 * row, each reading the row again): a thread re-reads an element after a
 * whole pass, and meanwhile every block resident beside its own runs its
 * pass too. So the distance is the `held` blocks' footprints in the buffer
 * (sample.block_footprint_bytes, each block its own rows; the blocks the
 * GPU holds at once, at most the grid), plus what they touch of the other
 * buffers meanwhile, in proportion to this buffer's reads. 0 where op's
 * buffer is not read in separate passes or the samples do not say. The
 * H200's row passes ([sources: h200-cal] run16/passes): 4096 rows of
 * 16 KiB, a warp each and all resident, re-read from DRAM (the second pass
 * over 64 MiB adds 16 us to 40), 16384 rows of 4 KiB, half of them resident,
 * from L2 (5 us to 39); a block per row of 16 KiB, 8 blocks an SM, from L1
 * where the carve-out leaves it 248 KiB (the SM's 128 KiB of rows).
 */
static double passes_distance(const gp_kernel_t *k, const gp_op_t *op, double held)
{
    double fp = 0, block_fp = 0, reads = 0, all;
    int passes = 0;
    uint32_t i;
    if (!(held > 0) || !reads_buffer(op) || op < k->ops || op >= k->ops + k->n_ops)
        return 0;
    for (i = 0; i < k->n_ops; i++) { /* most buffers are read in one pass: look first */
        const gp_op_t *o = &k->ops[i];
        const gp_lane_sample_t *s = o->access.sample;
        if (!near_takes(o, op, 1))
            continue;
        if (!s || s->drawn || s->block_footprint_bytes == 0)
            return 0;
        if (!passes && o != op)
            passes = separate_passes(k, (uint32_t)(op - k->ops), i);
    }
    if (!passes)
        return 0;
    for (i = 0; i < k->n_ops; i++) {
        const gp_op_t *o = &k->ops[i];
        if (!near_takes(o, op, 1))
            continue;
        fp = GP_MAX(fp, footprint_of(&o->access));
        block_fp = GP_MAX(block_fp, (double)o->access.sample->block_footprint_bytes);
        reads += gp_op_grid_bytes(k, o);
    }
    if (!(fp > 0) || !(reads > 0))
        return 0;
    all = kernel_bytes(k);
    return block_fp * GP_MIN(held, (double)k->total_blocks) *
           (1 + GP_MAX(0.0, all - fp) / reads);
}

/* The distance at which op's re-reads come back: the footprint (the
   buffer's, with whole_buffer), or with `near` the distance its addresses
   say when that is shorter; with whole_buffer and `held` (the blocks the GPU
   holds at once; 0: not counted) no shorter than a pass of the resident
   blocks where the buffer is read in passes (passes_distance). */
static double reread_distance(const gp_kernel_t *k, const gp_op_t *op, double footprint,
                              int whole_buffer, int near, double held)
{
    double d = near ? near_distance(k, op, whole_buffer) : -1;
    double p = whole_buffer ? passes_distance(k, op, held) : 0;
    if (p > 0)
        d = GP_MAX(d, p);
    return d >= 0 ? GP_MIN(d, footprint) : footprint;
}

/*
 * Fraction of this op's reads (counted as fetched_bytes of `unit`-byte
 * sectors) that hit in a cache of `cache` bytes by long re-use (the buffer's
 * re-reads), plus, for the L2, the first reads of bytes an earlier launch
 * left there (`warm`: 1 to count them).
 *
 * With whole_buffer the loads of one buffer count together, in program order:
 * the buffer's footprint is brought in once, by the first loads that reach it
 * (compulsory misses); what any load reads after that re-reads cached data,
 * which stays cached when the buffer fits the cache, or when the loads differ
 * only by small offsets (a stencil's neighbours re-read what another just
 * brought in), and otherwise as lru_hit says for the footprint's distance.
 * More reads of a buffer therefore add hits, never misses, and never make
 * the other loads cheaper. That decides the traffic; the latency an op sees
 * uses only its own re-reads (whole_buffer 0). With `near` the re-reads'
 * distance is the one the sampled addresses say (near_distance) where that
 * is shorter than the footprint; then `*cold` (may be NULL; else 0) is the
 * share of the op's reads that are first reads of the buffer, not left warm:
 * misses whatever the short re-use hits.
 */
/*
 * The footprint of an op counted as fetched_bytes counts its reads: a load
 * whose addresses are draws of gpuperf.random (a chase or a gather) fetches
 * a whole `unit` per read, so each distinct element it touches is a distinct
 * unit of its own, up to the units of the range drawn from (draws dense in a
 * small buffer share them). Counted in elements, 2^21 random 4-byte gathers
 * from 256 MiB looked like an 8 MiB footprint that the L2 holds, 77 to 88%
 * of them hits, where the H200 serves them from DRAM ([sources: h200-cal]
 * run10/scatter dram rows: -70 to -78% before, the family 23.5% -> 14.5%).
 * Otherwise the footprint itself.
 */
static double fetched_footprint(const gp_kernel_t *k, const gp_op_t *op, double unit)
{
    const gp_access_t *a = &op->access;
    double fp = footprint_of(a), e = a->elem_bytes ? a->elem_bytes : 4;
    if (drawn_range(a) > 0 && unit > e) {
        /* the draws that leave fp / e distinct of the range's r elements,
           r (1 - (1 - 1/r)^draws), then the distinct units those draws hit
           among the range's ru units [sources: feller1968] ch. IV.2 */
        double r = drawn_range(a) / e, de = fp / e;
        double ru = drawn_units(a, unit), draws;
        if (!(r > 1) || !(ru > 1) || de >= r)
            return GP_MAX(fp, ru * unit);
        draws = log1p(-de / r) / log1p(-1.0 / r);
        fp = GP_MAX(fp, unit * ru * -expm1(draws * log1p(-1.0 / ru)));
    }
    return fp;
}

/*
 * The share of a chase's steps that wait beyond a cache, where each warp
 * waits for its slowest lane: m lanes, each of whose units is new with
 * probability e^{-a k} at its k-th of S draws (the launch's lanes draw
 * together from ru units, a = lanes / ru) and, once touched, held with
 * probability h (a re-visit's hit, lru_hit). With u = 1 - e^{-a k} a step
 * finds every lane's unit held with probability (h u)^m; over the S steps,
 * x = a S (the draws over the units), y = 1 - e^{-x}:
 *   share = 1 - h^m + h^m G / x,   G = sum_{j=1..m} y^j / j
 * ([sources: feller1968] ch. IV.2, the occupancy count: one lane, h = 1,
 * gives the distinct units over the draws). `*lanes_out` (may be NULL): the
 * lanes of such a step that wait beyond the cache, the lanes' share,
 * h y / x + 1 - h, of m over the steps' share.
 */
static double first_share(double x, double m, double h, double *lanes_out)
{
    double y = -expm1(-x), yj = 1, g = 0, hm = 1, f;
    uint32_t j;
    if (lanes_out)
        *lanes_out = m;
    if (!(x > 0))
        return 1;
    for (j = 1; j <= (uint32_t)m; j++) {
        yj *= y;
        hm *= h;
        g += yj / j;
    }
    f = GP_MIN(1.0, 1 - hm + hm * g / x);
    if (lanes_out && f > 0)
        *lanes_out = GP_MAX(1.0, GP_MIN(m, m * (h * y / x + 1 - h) / f));
    return f;
}

/*
 * first_share for a chase that walks a cycle (a linked structure: a lane
 * visits no node twice before it has been round the whole cycle, which
 * draws with replacement would): the launch's n lanes start at random
 * places on one cycle of the range's units and take `a` of it each (a
 * step of a lane, 1 / units; a = x / n). A lane's steps find new units
 * until it reaches the place another lane started from, the gap ahead of
 * it (one of n spacings of the circle); a step of a warp of m lanes waits beyond the
 * cache while the widest of its lanes' gaps lasts. The share of the steps
 * that do is E[min(a, M)] / a, M the widest of m of the n spacings:
 *   E[min(a, M)] = sum_{j=1..m} (-1)^(j+1) C(m, j) (1 - (1 - j min(a, 1/j))^n) / (j n)
 * (inclusion and exclusion over the m gaps: j given spacings of n random
 * points on a circle all exceed u with probability (1 - j u)^(n - 1), the
 * terms of Stevens' formula for n arcs covering the circle, [sources:
 * stevens1939]); re-visits held with probability h as first_share has
 * them. One lane (m = n = 1) finds a new unit at every step of its first
 * lap: bench_coldlanes' lone lane takes 683 to 686 cycles a hop through
 * 256 KiB in 2048 hops and through 1 MiB in 8192 (a lap), where draws
 * would re-visit 37% ([sources: h200-cal] run32/coldlanes; bench_cold's
 * cycle rows, run10/cold, against its hashed `draw` rows). `*lanes_out`
 * (may be NULL): the lanes of such a step that wait, a lane's share
 * E[min(a, g)] / a (g one spacing), h-weighted as in first_share, over the
 * steps' share.
 */
static double cycle_share(double x, double m, double n, double h, double *lanes_out)
{
    double a, s = 0, c = 1, q, f, hm;
    uint32_t j, mm = (uint32_t)GP_MAX(1.0, GP_MIN(m, 32.0));
    n = GP_MAX(n, (double)mm);
    a = x / n;
    if (lanes_out)
        *lanes_out = mm;
    if (!(a > 0))
        return 1;
    for (j = 1; j <= mm; j++) {
        c *= (double)(mm - j + 1) / j; /* C(m, j) */
        s += (j & 1 ? c : -c) * -expm1(n * log1p(-GP_MIN(1.0, j * a))) / (j * n);
    }
    q = -expm1(n * log1p(-GP_MIN(1.0, a))) / (n * a);
    hm = pow(h, mm);
    f = GP_MIN(1.0, 1 - hm + hm * GP_MAX(0.0, GP_MIN(1.0, s / a)));
    if (lanes_out && f > 0)
        *lanes_out = GP_MAX(1.0, GP_MIN((double)mm, mm * (h * q + 1 - h) / f));
    return f;
}

/* The share of a drawn read's steps that find a unit new or gone, and the
   lanes that do (*lanes_out): cycle_share where a chase walks a cycle,
   first_share where each step draws afresh (a gather's reads, a chase
   whose script says walk = "draws"). */
static double walk_share(int cycle, double x, double m, double n, double h, double *lanes_out)
{
    return cycle ? cycle_share(x, m, n, h, lanes_out) : first_share(x, m, h, lanes_out);
}

/* Lanes of a warp that run op: the sample's first warp's active lanes, or
   the block's threads up to a warp of 32 where there is no sample. */
static double warp_lanes(const gp_kernel_t *k, const gp_access_t *a)
{
    const gp_lane_sample_t *s = a->sample;
    double n = 0;
    uint32_t l;
    if (s && s->byte_offset && s->n_warps > 0 && s->lanes > 0) {
        for (l = 0; l < s->lanes; l++)
            n += s->byte_offset[l] >= 0;
        if (n > 0)
            return n;
    }
    return GP_MAX(1.0, GP_MIN(32.0, (double)k->launch.threads_per_block));
}

/*
 * first_share for drawn reads (drawn_read: a chase or a gather) through a
 * cache shared by the whole launch (the L2): the launch's lanes draw once a
 * read (fetched_bytes over the `unit` a chase's read fetches, over the
 * element a gather's counts: the reads of the lanes that run, which
 * request_bytes has already counted) from the range's units (drawn_units);
 * `h` the hit of a re-visit. A chase walks a cycle (cycle_share, its n
 * lanes those of the launch's warps) unless its script says its steps draw
 * afresh (gp_op_t.chase_draws); a gather's reads are independent draws.
 * -1 where op's reads are not drawn.
 */
static double drawn_first_share(const gp_kernel_t *k, const gp_op_t *op, double unit, double h,
                                double *lanes_out)
{
    const gp_access_t *a = &op->access;
    double e = a->elem_bytes ? a->elem_bytes : 4, draws, ru, m, slots, lanes;
    int chase;
    if (lanes_out)
        *lanes_out = 1;
    if (!drawn_read(k, op) || !(unit > e))
        return -1;
    chase = chases(k, op);
    m = warp_lanes(k, a);
    slots = GP_MIN(a->sample && a->sample->lanes ? (double)a->sample->lanes : 32.0,
                   GP_MAX(1.0, (double)k->launch.threads_per_block));
    lanes = (double)k->total_blocks * ceil((double)k->launch.threads_per_block / slots) * m;
    draws = fetched_bytes(k, op, unit) / (chase ? unit : e);
    ru = drawn_units(a, unit);
    if (!(draws > 0))
        return -1;
    return walk_share(chase && !op->chase_draws, ru > 1 ? draws / ru : draws, m, lanes,
                      ru > 1 ? h : 1, lanes_out);
}

/*
 * The share of a drawn chase's steps (or a drawn gather's requests: each
 * waits for its slowest lane as a chase's step does) whose warp waits on
 * DRAM, for its latency (drawn_first_share over the L2): its lanes' first
 * touches of the DRAM's fetch granules (what a miss brings into the L2:
 * the H200's chase of 32-byte nodes finds the other node of a 64-byte
 * granule in L2, [sources: h200-cal] cold rows), less what an earlier
 * launch left warm, and the re-visits the L2 no longer holds, at the
 * distance of the 128-byte lines the draws occupy, a chase's as a
 * gather's (drawn_keep: the draws are independent, and the L2 puts lines
 * in its sets at random, so a re-visit farther than the capacity finds
 * its line as often as its set keeps it, not never as a cyclic walk
 * through an LRU cache would: the H200's chases through 64 MiB of 128- or
 * 32-byte nodes, a random cycle or fresh draws alike, 32 or 128 threads
 * of one block, 262144 steps each, take 0.82 to 0.88 of the time of the
 * same chases through 256 MiB, a fifth to a quarter of the way to their
 * time through 16 MiB, while one thread following the cycle, which
 * re-visits nothing, takes the same time at both sizes ([sources:
 * h200-cal] run10/cold rows)).
 * A gather's first touches come early, most of them in the launch's first
 * trips, so the share of requests that wait on DRAM is not the share of
 * their lanes compounded over the request (1 - (1 - miss)^lanes at the
 * launch's average miss): bench_gfoot's 8 warps per SM gathering 4 bytes a
 * lane from 4 MiB, 1 of 8 lanes a first touch of its sector on average,
 * take 65 us, not the 155 us of every request waiting on DRAM ([sources:
 * h200-cal] run29/gfoot w=8 rows, 16 KiB to 16 MiB).
 * `*lanes_out` (may be NULL): the lanes of such a step that wait on DRAM.
 * -1 where op's reads are not drawn (drawn_read).
 */
static double drawn_dram_share(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                               double l2cap, double *lanes_out)
{
    double su = d->sector_bytes ? d->sector_bytes : 32, fu = GP_MAX(su, d->dram_fetch_bytes);
    double fp, dist, w = 0, f;
    if (lanes_out)
        *lanes_out = 0;
    if (!drawn_read(k, op))
        return -1;
    /* the lines the draws occupy in the L2 (a line per node however few of
       its sectors are fetched) */
    fp = fetched_footprint(k, op, GP_MAX(su, (double)d->l1_line_bytes));
    dist = reread_distance(k, op, fp, 0, 1, 0);
    f = drawn_first_share(k, op, fu, drawn_keep(d, &op->access, dist, l2cap), lanes_out);
    if (f < 0) {
        if (lanes_out)
            *lanes_out = 0;
        return -1;
    }
    if (reads_buffer(op) && fp > 0 && fp <= l2cap) /* draws spread over their range */
        w = GP_MIN(1.0, warm_bytes(k, op->access.buffer) / GP_MAX(fp, drawn_extent(&op->access)));
    return f * (1 - w);
}

/*
 * The footprint behind the latency of a drawn chase, counted as
 * fetched_bytes counts its reads, where a level's caches split the launch
 * (an SM's L1 on a device without l1_chase_*): each thread's chase brings
 * in the units its own draws hit first (a compulsory miss per unit, one hop
 * waiting on each); so threads x the distinct units of one thread's draws.
 * Otherwise fetched_footprint.
 */
static double latency_footprint(const gp_kernel_t *k, const gp_op_t *op, double unit)
{
    const gp_access_t *a = &op->access;
    double e = a->elem_bytes ? a->elem_bytes : 4, threads, draws, ru;
    if (!drawn_chase(k, op) || !(unit > e))
        return fetched_footprint(k, op, unit);
    threads = GP_MAX(1.0, (double)k->total_blocks * (double)k->launch.threads_per_block);
    draws = gp_op_grid_bytes(k, op) / e / threads;
    ru = drawn_units(a, unit);
    if (!(ru > 1))
        return threads * unit;
    return threads * unit * GP_MIN(draws, ru * -expm1(draws * log1p(-1.0 / ru)));
}

/* v mixed into h (a multiply and a shift a word, as splitmix64's finaliser
   stirs its state). */
static uint64_t mix64(uint64_t h, uint64_t v)
{
    h = (h ^ v) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

/* A lane sample mixed into h: its shape and every sampled offset (what the
   memos of buffer_footprint and sector_use are keyed by besides the op). */
static uint64_t mix_sample(uint64_t h, const gp_lane_sample_t *s)
{
    size_t c, cnt = (size_t)s->n_warps * s->lanes;
    h = mix64(h, ((uint64_t)s->n_warps << 32) | s->lanes);
    for (c = 0; c < cnt; c++)
        h = mix64(h, (uint64_t)s->byte_offset[c]);
    return h;
}

/* Sampled warp instances of each op that buffer_footprint compares. */
#define UNION_WARPS 4

/*
 * The footprint of the loads of op's buffer together, counted as
 * fetched_footprint counts each: their union, not the widest one (32 loads
 * a trip each on its own line of a row touch 32 times what one does). Each
 * load adds its footprint times the share of the `unit`s its sampled warps
 * (the first UNION_WARPS where it is active) touch that the earlier loads
 * do not:
 * a unit an earlier load's sampled warps touched is theirs, and one within
 * the range an earlier load's sampled warps span is theirs as often as
 * that load's footprint fills its range (a load that covers its range, as
 * a stencil's centre does, holds its taps' and halos' units: the sample
 * stands at a few blocks, and a halo is the next block's). Between the
 * widest load's footprint and the sum of them all; the widest where a load
 * has no sample, draws its addresses at random, or the buffer has more
 * loads than NEAR_MAX_OPS.
 */
/* buffer_footprint's answers, per thread. */
typedef struct union_memo {
    uint64_t hash;
    double footprint;
    int valid;
} union_memo_t;

#define UNION_MEMO_SLOTS 16
static _Thread_local union_memo_t union_memo[UNION_MEMO_SLOTS];
static _Thread_local uint32_t union_memo_next;

static double buffer_footprint(const gp_kernel_t *k, const gp_op_t *op, double unit)
{
    union_memo_t *slot;
    uint64_t h, bits;
    double widest = 0, sum = 0, uni = 0, fill[NEAR_MAX_OPS], fps[NEAR_MAX_OPS];
    int64_t lo[NEAR_MAX_OPS], hi[NEAR_MAX_OPS];
    int64_t *seen = NULL, *cur = NULL, *merged, *tmp;
    size_t ns = 0, cap = 0, nc, i, a, b, m;
    uint32_t j, w, l, q, ops = 0, used;
    int ok = unit >= 1;
    for (j = 0; j < k->n_ops; j++) {
        const gp_op_t *o = &k->ops[j];
        const gp_lane_sample_t *s = o->access.sample;
        double fp;
        if (!reads_buffer(o) || o->access.buffer != op->access.buffer)
            continue;
        fp = fetched_footprint(k, o, unit);
        widest = GP_MAX(widest, fp);
        sum += fp;
        if (ops < NEAR_MAX_OPS)
            fps[ops] = fp; /* the loads' footprints in order, for the passes below */
        ops++;
        if (!s || !s->byte_offset || s->drawn || s->lanes == 0)
            ok = 0;
        else
            cap += (size_t)GP_MIN(s->n_warps, (uint32_t)UNION_WARPS) * s->lanes;
    }
    if (ops < 2 || ops > NEAR_MAX_OPS || !ok || !(widest > 0) || cap == 0)
        return widest;
    /* every load of the buffer asks for the same union: remembered per
       thread by a hash of all that decides it */
    h = mix64(0xcbf29ce484222325ull, (uint64_t)unit);
    h = mix64(h, op->access.buffer);
    for (j = 0, q = 0; j < k->n_ops; j++) {
        const gp_op_t *o = &k->ops[j];
        if (!reads_buffer(o) || o->access.buffer != op->access.buffer)
            continue;
        memcpy(&bits, &fps[q++], sizeof bits);
        h = mix_sample(mix64(mix64(h, j), bits), o->access.sample);
    }
    for (j = 0; j < UNION_MEMO_SLOTS; j++)
        if (union_memo[j].valid && union_memo[j].hash == h)
            return union_memo[j].footprint;
    seen = malloc(sizeof *seen * cap);
    cur = malloc(sizeof *cur * cap);
    merged = malloc(sizeof *merged * cap);
    if (!seen || !cur || !merged) {
        free(seen);
        free(cur);
        free(merged);
        return widest;
    }
    for (j = 0, q = 0; j < k->n_ops; j++) {
        const gp_op_t *o = &k->ops[j];
        const gp_lane_sample_t *s = o->access.sample;
        double fp, fresh = 0;
        if (!reads_buffer(o) || o->access.buffer != op->access.buffer)
            continue;
        fp = fps[q];
        nc = 0;
        lo[q] = hi[q] = -1;
        for (w = 0, used = 0; w < s->n_warps; w++) { /* the range: every sampled warp */
            size_t had = nc;
            for (l = 0; l < s->lanes; l++) {
                int64_t v = s->byte_offset[(size_t)w * s->lanes + l];
                if (v < 0)
                    continue;
                if (used < UNION_WARPS)
                    cur[nc++] = v / (int64_t)unit;
                lo[q] = lo[q] < 0 ? v : GP_MIN(lo[q], v);
                hi[q] = GP_MAX(hi[q], v);
            }
            used += nc > had;
        }
        nc = unique_i64(cur, nc);
        for (i = 0, a = 0; i < nc; i++) {
            double out = 1;
            uint32_t p;
            while (a < ns && seen[a] < cur[i])
                a++;
            if (a < ns && seen[a] == cur[i])
                continue;
            for (p = 0; p < q; p++) /* within an earlier load's range */
                if (cur[i] >= lo[p] / (int64_t)unit && cur[i] <= hi[p] / (int64_t)unit)
                    out *= 1 - fill[p];
            fresh += out;
        }
        if (nc > 0)
            uni += fp * fresh / (double)nc;
        fill[q] = lo[q] >= 0 ? GP_MIN(1.0, fp / ((double)(hi[q] - lo[q]) + unit)) : 0;
        q++;
        for (a = 0, b = 0, m = 0; a < ns || b < nc;) /* seen |= cur */
            if (b == nc || (a < ns && seen[a] < cur[b]))
                merged[m++] = seen[a++];
            else if (a == ns || cur[b] < seen[a])
                merged[m++] = cur[b++];
            else
                merged[m++] = seen[a++], b++;
        tmp = seen; /* the merged units are seen now */
        seen = merged;
        merged = tmp;
        ns = m;
    }
    free(seen);
    free(cur);
    free(merged);
    slot = &union_memo[union_memo_next++ % UNION_MEMO_SLOTS];
    slot->hash = h;
    slot->footprint = GP_MIN(sum, GP_MAX(widest, uni));
    slot->valid = 1;
    return slot->footprint;
}

/* 1 when the load at index j is done by the time the op at index idx > j
   issues: a barrier lies between them, or j lies in a loop body that ends
   before idx (its trips use their loads' values before the loop ends). */
static int done_before(const gp_kernel_t *k, uint32_t j, uint32_t idx)
{
    uint32_t b;
    for (b = j + 1; b < idx; b++)
        if (k->ops[b].kind == GP_OP_BARRIER)
            return 1;
    for (b = 0; b < j; b++)
        if (k->ops[b].kind == GP_OP_LOOP && b + k->ops[b].body_len >= j &&
            b + k->ops[b].body_len < idx)
            return 1;
    return 0;
}

/*
 * The share of op's reads whose `unit`s no earlier load of its buffer read
 * in the same warp at the same position (the first UNION_WARPS sampled
 * instances where op is active, compared one by one): what the warp reads for the first
 * time. A unit an earlier load of the warp read is in flight or in L1 for
 * it; the others, where the buffer's loads together re-read them, other
 * warps and blocks brought (a stencil's halo: the neighbour block's tile).
 * With `done` only the earlier loads that are done when op issues count
 * (done_before). -1 where no earlier load counts or the loads are not
 * sampled alike (other loop nests: their instances are other positions).
 */
static double warp_fresh_of(const gp_kernel_t *k, const gp_op_t *op, double unit, int done)
{
    const gp_lane_sample_t *s0 = op->access.sample;
    double seen = 0, fresh = 0;
    uint32_t i, w, l, earlier = 0, idx, used = 0;
    int64_t *v;
    unsigned char *take; /* take[i]: the earlier load i counts */
    if (!s0 || !s0->byte_offset || s0->drawn || s0->lanes == 0 || !(unit >= 1) ||
        !reads_buffer(op) || op < k->ops || op >= k->ops + k->n_ops)
        return -1;
    idx = (uint32_t)(op - k->ops);
    take = calloc(idx ? idx : 1, 1);
    if (!take)
        return -1;
    for (i = 0; i < idx; i++) {
        const gp_lane_sample_t *s = k->ops[i].access.sample;
        if (!reads_buffer(&k->ops[i]) || k->ops[i].access.buffer != op->access.buffer ||
            (done && !done_before(k, i, idx)))
            continue;
        if (!s || !s->byte_offset || s->drawn || s->lanes != s0->lanes ||
            s->n_warps != s0->n_warps) {
            free(take);
            return -1;
        }
        take[i] = 1;
        earlier++;
    }
    v = earlier ? malloc(sizeof *v * (size_t)earlier * s0->lanes) : NULL;
    if (!v) {
        free(take);
        return -1;
    }
    for (w = 0; w < s0->n_warps && used < UNION_WARPS; w++) {
        size_t at = (size_t)w * s0->lanes, n = 0;
        for (l = 0; l < s0->lanes && s0->byte_offset[at + l] < 0; l++)
            ;
        if (l == s0->lanes) /* the op is idle in this warp */
            continue;
        used++;
        for (i = 0; i < idx; i++) { /* the earlier loads' units in this warp */
            if (!take[i])
                continue;
            for (l = 0; l < s0->lanes; l++) {
                int64_t x = k->ops[i].access.sample->byte_offset[at + l];
                if (x >= 0)
                    v[n++] = x / (int64_t)unit;
            }
        }
        n = unique_i64(v, n);
        for (l = 0; l < s0->lanes; l++) {
            int64_t u = s0->byte_offset[at + l];
            size_t lo = 0, hi = n;
            if (u < 0)
                continue;
            u /= (int64_t)unit;
            while (lo < hi) { /* the first unit not below u */
                size_t mid = lo + (hi - lo) / 2;
                if (v[mid] < u)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            seen++;
            fresh += lo == n || v[lo] != u;
        }
    }
    free(v);
    free(take);
    return seen > 0 ? fresh / seen : -1;
}

/* warp_fresh_of over every earlier load of the buffer; 0 where none
   counts (the first load of the buffer: its re-reads are its own). */
static double warp_fresh(const gp_kernel_t *k, const gp_op_t *op, double unit)
{
    double f = warp_fresh_of(k, op, unit, 0);
    return f < 0 ? 0 : f;
}

/*
 * The share of op's reads whose `unit`s the same warp read at the same
 * position with loads that are done when op issues (done_before): an
 * earlier loop's loads, or loads before a barrier. The warp issues in
 * order and waits for a load's value where it first uses it, so what
 * those loads brought is in its SM's L1 when op asks for it (as far as the
 * L1 keeps it), not in flight: a row's second pass after a block sum (a
 * layer norm's variance, a softmax's exponentials) waits as L1 hits where
 * the L1 holds the resident rows ([sources: h100-cal] run63/passes_bstride:
 * blocks of 256 threads over rows of 1024 and 4096 floats, a pass more 5
 * to 9 us over 64 MiB on an H100, where 64 MiB from DRAM take 20). 0 where
 * no such load reads the buffer.
 */
static double warp_done(const gp_kernel_t *k, const gp_op_t *op, double unit)
{
    double f = warp_fresh_of(k, op, unit, 1);
    return f < 0 ? 0 : 1 - f;
}

/*
 * The share of a drawn gather's first touches of its buffer left where the
 * same launch also reads a share s of the buffer in order (each thread its
 * own element, as a graph level's vertex scan reads level[v] before the
 * frontier's threads read level[u] at random): the ordered reads move
 * through the buffer with the blocks, so a draw at a point f of the launch
 * finds its unit read already with the chance f, not 1. With x touches a
 * unit over the launch, a draw's unit is new (1 - e^{-x}) / x of the time
 * without the ordered reads and (x - 1 + e^{-x}) / x^2 with them (the
 * average over f of (1 - f) e^{-x f}); their ratio, for the share s. At
 * many touches a unit the gathers find their units by themselves and the
 * ordered reads add nothing; at few, they halve the first touches.
 * [sources: h200-cal] run37/sweepg: gathers of 32 lanes after the ordered
 * read of the same buffer take 94 to 97% of the time they take after the
 * read of another buffer (1, 4, 16 MiB, one gather a lane), one lane's
 * 89 to 90%.
 */
/* Of `mine` bytes a reader brings in, those that are first reads of a
   footprint of `touched` bytes after `before` bytes of earlier reads
   (share_hit). */
static double first_reads(double mine, double touched, double before)
{
    return GP_MAX(0.0, GP_MIN(mine, touched - GP_MIN(before, touched)));
}

static double sweep_credit(double x, double s)
{
    double alone, with;
    s = GP_MIN(GP_MAX(s, 0.0), 1.0);
    if (!(x > 1e-6))
        return 1 - s / 2;
    alone = -expm1(-x) / x;
    with = (x + expm1(-x)) / (x * x);
    return 1 - s + s * with / alone;
}

/* reuse_hit where each SM of the L1 level touches `share` times its even
   share of the footprint (share_hit below); 1 for the grid's L2. `held`: the
   blocks the GPU holds at once, for a buffer read in passes (reread_distance;
   0: not counted). */
static double share_hit(const gp_kernel_t *k, const gp_op_t *op, double cache, double unit,
                        int whole_buffer, int warm, int spread, int near, double held,
                        double *cold, double share, const gp_device_t *l2);

static double reuse_hit(const gp_kernel_t *k, const gp_op_t *op, double cache, double unit,
                        int whole_buffer, int warm, int spread, double *cold)
{
    return share_hit(k, op, cache, unit, whole_buffer, warm, spread, 0, 0, cold, 1, NULL);
}

/* reuse_hit for device d's L2, whose capacity holds lines
   (GP_L2_LINE_BYTES): a drawn read's re-reads come back at the distance of
   the lines its draws land on, not of the sectors it fetches, and hit as
   drawn_keep says; at the distance the sampled addresses say, the GPU
   holding `held` blocks at once. */
static double l2_reuse_hit(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                           double cache, double unit, int whole_buffer, int warm, double held,
                           double *cold)
{
    return share_hit(k, op, cache, unit, whole_buffer, warm, 0, 1, held, cold, 1, d);
}

/* Blocks of op's launch the GPU holds at once (its SMs full). */
static double resident_blocks(const gp_device_t *d, const gp_occupancy_t *occ)
{
    return (double)occ->blocks_per_sm * (double)d->sm_count;
}

/*
 * reuse_hit for a level whose caches split the grid's reads: with `share` > 1
 * (an SM's L1, `cache` the L1 times the SMs that share the footprint, see
 * l1_sharers) the SMs do not split the footprint between them: one SM
 * touches `share` times its even share (the SMs running the grid over the
 * sharers), so of its reads (the grid's over the SMs) that many more are
 * first touches of its own footprint, and only the rest re-read what its L1
 * may hold. share 1 is the grid's count.
 */
static double share_hit(const gp_kernel_t *k, const gp_op_t *op, double cache, double unit,
                        int whole_buffer, int warm, int spread, int near, double held,
                        double *cold, double share, const gp_device_t *l2)
{
    double footprint = fetched_footprint(k, op, unit), line = l2 ? GP_L2_LINE_BYTES : 0;
    /* the bytes of cache the footprint takes (`reach`): its lines where the
       cache keeps lines (drawn reads: fetched_footprint by the lines they
       land on; the others' footprints are their bytes whatever the unit) */
    int by_line = line > unit && drawn_range(&op->access) > 0;
    double reach, total = 0, before = 0, swept = 0, lo = 0, hi = 0, mine = 0, first_reach, rest, keep,
           w = 0, touched;
    uint32_t readers = 0;
    int shifted = 1, first = 1, seen = 0, cyclic = !spread && !irm_addresses(k, op);
    uint32_t i;
    double spare;
    if (!cold)
        cold = &spare;
    *cold = 0;
    if (op->access.pattern == GP_PATTERN_BROADCAST && footprint <= 0)
        footprint = op->access.elem_bytes;
    if (warm && reads_buffer(op) && footprint > 0 && footprint <= cache)
        /* draws spread over their range: the warm bytes' share of it */
        w = GP_MIN(1.0, warm_bytes(k, op->access.buffer) /
                            GP_MAX(footprint, drawn_extent(&op->access)));
    if (!whole_buffer || !reads_buffer(op) || op < k->ops || op >= k->ops + k->n_ops) {
        double acc = fetched_bytes(k, op, unit), re, first_reads = footprint, dist;
        if (!whole_buffer) /* the re-reads' distance stays the grid's footprint */
            first_reads = latency_footprint(k, op, unit);
        first_reads *= GP_MAX(share, 1.0); /* the SMs' own first touches */
        if (!(acc > 0) || !(footprint > 0))
            return 0;
        re = acc > first_reads ? (acc - first_reads) / acc : 0;
        reach = by_line ? GP_MAX(footprint, fetched_footprint(k, op, line)) : footprint;
        dist = reread_distance(k, op, reach, 0, near, 0);
        return re * (by_line && !cyclic ? drawn_keep(l2, &op->access, dist, cache)
                                        : lru_hit(dist, cache, cyclic)) +
               (1 - re) * w;
    }
    for (i = 0; i < k->n_ops; i++) {
        const gp_op_t *o = &k->ops[i];
        double off, bytes;
        if (!reads_buffer(o) || o->access.buffer != op->access.buffer)
            continue;
        bytes = fetched_bytes(k, o, unit);
        total += bytes;
        readers++;
        if (o == op) {
            seen = 1;
            mine = bytes;
        } else if (!seen) {
            /* a warp-uniform load brings its units where the warps before
               it did not (GP_BROADCAST_MIN_HIT: in pairs at least) */
            before += broadcast_shorthand(&o->access) ? bytes * (1 - GP_BROADCAST_MIN_HIT) : bytes;
            if (!drawn_read(k, o))
                swept += bytes;
        }
        off = (double)o->access.offset_elems * o->access.elem_bytes;
        lo = first ? off : GP_MIN(lo, off);
        hi = first ? off : GP_MAX(hi, off);
        first = 0;
        shifted &= o->access.pattern == GP_PATTERN_UNIT;
        cyclic &= !irm_addresses(k, o);
    }
    if (readers > 1) /* the buffer's (op's own where it reads the buffer alone) */
        footprint = GP_MAX(footprint, buffer_footprint(k, op, unit));
    reach = by_line ? GP_MAX(footprint, buffer_footprint(k, op, line)) : footprint;
    if (!(footprint > 0) || !(mine > 0))
        return 0;
    touched = footprint * GP_MAX(share, 1.0); /* the SMs' own footprints together */
    if (total <= touched)
        return w;
    first_reach = first_reads(mine, touched, before);
    if (swept > 0 && drawn_read(k, op)) {
        /* the ordered reads before a gather credit it as the launch
           runs, not at its start (sweep_credit) */
        double own = first_reads(mine, touched, before - swept);
        first_reach = GP_MAX(first_reach, own * sweep_credit(mine / touched, swept / touched));
    }
    rest = mine - first_reach;
    if (shifted && hi > lo && hi - lo <= cache / 2)
        keep = 1;
    else {
        double dist = reread_distance(k, op, reach, 1, near, held);
        keep = by_line && !cyclic ? drawn_keep(l2, &op->access, dist, cache)
                                  : lru_hit(dist, cache, cyclic);
        if (dist < footprint) /* the addresses said: the first reads' share */
            *cold = first_reach * (1 - w) / mine;
    }
    return (rest * keep + first_reach * w) / mine;
}

/* Distinct values among n sorted in place. */
static size_t distinct_i64(int64_t *v, size_t n)
{
    size_t i, d = 0;
    qsort(v, n, sizeof *v, gp_cmp_i64);
    for (i = 0; i < n; i++)
        d += i == 0 || v[i] != v[i - 1];
    return d;
}

/* Append to v at *n the `unit`s that sampled warp w (of block 0) reads
   through the loads of op's buffer; with reads, add each load's distinct
   units (what its request fetches) to *reads. */
static void block_units(const gp_kernel_t *k, const gp_op_t *op, uint32_t w, uint32_t lanes,
                        double unit, int64_t *v, size_t *n, double *reads)
{
    uint32_t i, l;
    for (i = 0; i < k->n_ops; i++) {
        const gp_op_t *o = &k->ops[i];
        const int64_t *off;
        size_t start = *n;
        if (!near_takes(o, op, 1))
            continue;
        off = o->access.sample->byte_offset + (size_t)w * lanes;
        for (l = 0; l < lanes; l++)
            if (off[l] >= 0)
                v[(*n)++] = off[l] / (int64_t)unit;
        if (reads) /* a count below 1: that share of the warps issue it */
            *reads += (double)distinct_i64(v + start, *n - start) *
                      (o->count > 0 && o->count < 1 ? o->count : 1.0);
    }
}

/* Warps of a block of k's launch, its lanes `lanes` a warp (a sample's). */
static double block_warps(const gp_kernel_t *k, uint32_t lanes)
{
    return ceil((double)k->launch.threads_per_block / GP_MAX(1u, lanes));
}

/*
 * Re-use within a block: the share of a block's reads of op's buffer that
 * re-read a `unit` the same block read before, where every read op of the
 * buffer runs once per thread (no loop around it) and is sampled (index
 * functions). A convolution's or stencil's taps read what the block's
 * other threads read a few ops earlier: between the first read of a unit
 * and its re-read the SM touches at most what its resident blocks touch
 * over their whole life, each its own window of the buffer, so that is the
 * re-read's stack distance ([sources: mattson1970]; thread blocks as the
 * unit of locality in L1, [sources: nugteren2014]). The block's distinct
 * units: the first sampled warp's over all the buffer's ops, plus, for each
 * further warp, the units warp 1 adds to warp 0 (exact for affine indices,
 * where each warp shifts the window by one step). `*dist` is that distance
 * in bytes per SM (the other buffers in proportion, as near_distance).
 * Returns -1 when the addresses do not say.
 */
static double block_reuse(const gp_kernel_t *k, const gp_op_t *op, const gp_occupancy_t *occ,
                          double unit, double *dist)
{
    const gp_lane_sample_t *s0 = op->access.sample;
    double warps, threads, reads = 0, u0, u01, ub, fp = 0, all;
    uint32_t i, lanes, m = 0, two;
    int64_t *v;
    size_t n = 0;
    *dist = 0;
    if (!s0 || !s0->byte_offset || s0->n_warps == 0 || s0->lanes == 0 || s0->drawn ||
        !(unit > 0) || !reads_buffer(op) || op < k->ops || op >= k->ops + k->n_ops)
        return -1;
    warps = block_warps(k, s0->lanes);
    threads = (double)k->total_blocks * (double)k->launch.threads_per_block;
    two = warps > 1; /* instance 1 is warp 1 of block 0 (the warp axis first) */
    lanes = s0->lanes;
    if (!(threads > 0) || (two && s0->n_warps < 2))
        return -1;
    for (i = 0; i < k->n_ops; i++) {
        const gp_op_t *o = &k->ops[i];
        const gp_lane_sample_t *s = o->access.sample;
        double e = o->access.elem_bytes ? o->access.elem_bytes : 4;
        if (!near_takes(o, op, 1))
            continue;
        if (!s || !s->byte_offset || s->lanes != lanes || s->drawn || s->loop_span_bytes ||
            s->next_iteration || (two && s->n_warps < 2) ||
            gp_op_grid_bytes(k, o) > threads * e * (1 + 1e-9))
            return -1;
        fp = GP_MAX(fp, footprint_of(&o->access));
        m++;
    }
    if (m < 2 || !(fp > 0))
        return -1;
    v = malloc(sizeof *v * (size_t)m * lanes * 2);
    if (!v)
        return -1;
    /* the units of warp 0 (then warps 0 and 1) over the buffer's ops, and
       the units each op's request reads */
    block_units(k, op, 0, lanes, unit, v, &n, &reads);
    u0 = (double)distinct_i64(v, n);
    if (two)
        block_units(k, op, 1, lanes, unit, v, &n, NULL);
    u01 = (double)distinct_i64(v, n);
    free(v);
    if (!(reads > 0) || !(u0 > 0))
        return -1;
    ub = two ? u0 + (warps - 1) * GP_MAX(0.0, GP_MIN(u0, u01 - u0)) : u0;
    all = kernel_bytes(k);
    *dist = (double)GP_MAX(occ->blocks_per_sm, 1u) * ub * unit * GP_MAX(1.0, all / fp);
    return GP_MAX(0.0, 1.0 - ub / (reads * warps));
}

/*
 * Re-use within a block's life through loops: a block reads op's elements
 * more often than it has distinct ones (its threads re-read them on later
 * trips of a loop, an outer loop whose counter is not in the index: the
 * distances to each of R centroids; or its warps read what the others
 * read). Between a read and its re-read
 * the SM touches at most what its resident blocks touch over their lives,
 * `*dist` bytes per SM (the kernel's other buffers in proportion, as
 * near_distance; for the L2, times the SMs that run blocks at once): the
 * stack distance of the re-read ([sources: mattson1970]; the block as the
 * unit of locality, [sources: nugteren2014]). Returns the share of op's
 * reads that re-read (all but the block's first touches), or -1 when the
 * sample does not say (no sample, drawn addresses, no re-read). Blocks
 * that share data only add hits to this bound.
 */
static double life_reuse(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                         const gp_occupancy_t *occ, double *dist, double *sms_out)
{
    const gp_lane_sample_t *s = op->access.sample;
    double blocks = (double)GP_MAX(k->total_blocks, (uint64_t)1), reads, bfp, resident, sms;
    double all, fp;
    *dist = 0;
    *sms_out = 1;
    if (!s || s->drawn || !s->block_footprint_bytes || !reads_buffer(op) || op < k->ops ||
        op >= k->ops + k->n_ops)
        return -1;
    bfp = (double)s->block_footprint_bytes;
    reads = request_bytes(k, op) / blocks; /* a block's elements read */
    if (!(reads > bfp * (1 + 1e-9)))
        return -1;
    sms = GP_MIN((double)d->sm_count, blocks);
    resident = GP_MAX(1.0, GP_MIN((double)occ->blocks_per_sm, ceil(blocks / GP_MAX(sms, 1.0))));
    fp = footprint_of(&op->access);
    all = kernel_bytes(k);
    *dist = resident * bfp * (fp > 0 ? GP_MAX(1.0, all / fp) : 1.0);
    *sms_out = sms;
    return 1.0 - bfp / reads;
}

/*
 * Re-use among the warps of a block at one iteration: the share of op's
 * reads whose units another warp of the same block read at the same loop
 * position (a tile walk's row of B that every warp of a 32x8 block reads at
 * step k): warp 1 against warp 0 of the sample (instance 1 is warp 1 of
 * block 0, the warp axis first), of which the block's first warp misses
 * and the others hit, `frac` = shared x (1 - 1 / warps). The warps of a
 * block run the loop abreast, so the distance `*dist` is short re-use's:
 * the resident warps' live lines, one request of each read op per warp.
 */
static void sibling_reuse(const gp_kernel_t *k, const gp_op_t *op, const gp_occupancy_t *occ,
                          uint32_t unit, double fill_bytes, double *frac, double *dist)
{
    const gp_lane_sample_t *s = op->access.sample;
    double warps = ceil((double)k->launch.threads_per_block / 32.0), same;
    *frac = 0;
    *dist = 0;
    if (!s || !s->byte_offset || s->drawn || s->n_warps < 2 || !(warps > 1) || unit == 0 ||
        !(fill_bytes > 0))
        return;
    /* a count below 1 is the share of the block's warps that issue it (a
       halo row's load in `if (ty == 0)`): only those read it again */
    if (op->count > 0 && op->count < 1)
        warps = GP_MAX(1.0, warps * op->count);
    if (!(warps > 1))
        return;
    same = shared_units(s, 0, 1, op->access.elem_bytes ? op->access.elem_bytes : 4, unit);
    if (!(same > 0))
        return;
    *frac = same * (1 - 1 / warps);
    *dist = live_lines_bytes(k, occ, fill_bytes);
}

/*
 * Warps of an SM that read op's lines at the same loop step, running the
 * loop abreast: where the sample's second warp instance reads warp 0's units
 * at warp 0's step, the block's warps; where besides every warp of the
 * launch touches what the whole grid touches (a walk over pos[j] that no
 * thread index enters), the SM's resident warps of the launch (at most the
 * blocks its share of the grid gives it); 1 otherwise. The re-reads of such
 * warps are hits for the traffic (one fill serves them all, as l1_reuse and
 * sibling_reuse count) but not for the latency: the warps ask for a line
 * within a few cycles of each other, while its first request is still in
 * flight, and each waits for the fill. The H200 shows it ([sources: h200-cal] run10/loopchain
 * loopchain_cycles.csv): a loop of warp-uniform or coalesced loads each
 * touching a new sector takes the same cycles a trip with 1, 2, 4, 8 or 16
 * warps per SM, as one block or four (lc_f4_nc_uni_k0 fp=first: 199.8,
 * 200.0, 199.6, 200.1, 206.5 and 202.6 cycles; lc_f1_pl_coal_d4: 334.9 ..
 * 337.8), where counting the other warps' re-reads as hits made 4 warps
 * 37% and 16 warps 56% faster. A block's own warps do the same where
 * only they share: the naive SGEMM's `#pragma unroll 1` loop, whose 8 warps
 * read one line of B a step, waits for L2 or DRAM at every step whatever
 * its block's earlier re-reads of B left in L1 (run21/naive naive_*_u1:
 * 660 to 680 cycles a step at n = 256 and 512, where counting the other
 * warps' reads as L1 hits for the latency made n = 256 63 to 77% fast).
 */
static double abreast_warps(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                            const gp_occupancy_t *occ, uint32_t unit)
{
    const gp_lane_sample_t *s = op->access.sample;
    double blocks = (double)k->total_blocks, sms, resident, wpb;
    if (!s || !s->byte_offset || s->drawn || s->n_warps < 2 || unit == 0)
        return 1;
    if (!(shared_units(s, 0, 1, op->access.elem_bytes ? op->access.elem_bytes : 4, unit) >=
          1 - 1e-9))
        return 1;
    wpb = ceil((double)k->launch.threads_per_block / (double)d->warp_size);
    if (op->count > 0 && op->count < 1)
        wpb = GP_MAX(1.0, wpb * op->count);
    if (s->warp_footprint_bytes == 0 || s->warp_footprint_bytes < s->grid_footprint_bytes)
        return GP_MAX(1.0, wpb); /* the block's warps */
    sms = GP_MIN((double)d->sm_count, GP_MAX(blocks, 1.0));
    resident = GP_MAX(1.0, GP_MIN((double)occ->blocks_per_sm, ceil(blocks / GP_MAX(sms, 1.0))));
    return GP_MAX(1.0, resident * wpb);
}

/*
 * The share of op's requests that are a stream's first touches
 * (gp_op_cost_t.stream_miss): `miss` (its L1 miss share for the latency)
 * where that is no less than the share of the units the sample's warp
 * touches at the next iteration of its innermost named loop that it did not
 * touch at the one before (pos[j] of 16 bytes: a new 32-byte sector every
 * other iteration), so that its misses are its new units, spread evenly
 * over the iterations; 0 where it misses less (re-reads hit: a second pass
 * over what the first brought misses in a burst, not evenly) or the sample
 * says nothing of the next iteration.
 */
static double stream_share(const gp_op_t *op, uint32_t unit, double miss)
{
    const gp_lane_sample_t *s = op->access.sample;
    double same;
    if (!s || !s->byte_offset || s->drawn || s->next_iteration == 0 ||
        s->next_iteration >= s->n_warps || unit == 0 || !(miss > 0))
        return 0;
    same = shared_units(s, 0, s->next_iteration,
                        op->access.elem_bytes ? op->access.elem_bytes : 4, unit);
    if (same < 0)
        return 0;
    return miss >= (1 - same) * (1 - 1e-9) ? miss : 0;
}

/* Bytes the kernel's reads of op's buffer bring in over the launch (op's
   own where it names no buffer); `drawn`: only the reads that draw their
   addresses at random (irm_addresses). */
static double buffer_reads(const gp_kernel_t *k, const gp_op_t *op, double unit, int drawn)
{
    double sum = 0;
    uint32_t i;
    if (!reads_buffer(op) || op < k->ops || op >= k->ops + k->n_ops)
        return fetched_bytes(k, op, unit);
    for (i = 0; i < k->n_ops; i++) {
        const gp_op_t *o = &k->ops[i];
        if (reads_buffer(o) && o->access.buffer == op->access.buffer &&
            (!drawn || irm_addresses(k, o)))
            sum += fetched_bytes(k, o, unit);
    }
    return sum;
}

/*
 * 1 when the description says that the threads re-reading op's buffer read
 * again what they read before, so that an SM re-reads its own lines: every
 * read of the buffer is affine in the thread index (a shorthand other than
 * random) and covers its footprint over the grid (thread g reads the same
 * element in each). A read that covers less than its footprint (a tap that
 * reads T floats at k T of a window, folded into it) says nothing of which
 * thread re-reads a line, nor do addresses drawn at random.
 */
static int rereads_own(const gp_kernel_t *k, const gp_op_t *op)
{
    uint32_t i;
    if (!reads_buffer(op) || op < k->ops || op >= k->ops + k->n_ops)
        return op->access.pattern != GP_PATTERN_RANDOM &&
               gp_op_grid_bytes(k, op) >= footprint_of(&op->access);
    for (i = 0; i < k->n_ops; i++) {
        const gp_op_t *o = &k->ops[i];
        if (!reads_buffer(o) || o->access.buffer != op->access.buffer)
            continue;
        if (o->access.pattern == GP_PATTERN_RANDOM ||
            gp_op_grid_bytes(k, o) < footprint_of(&o->access))
            return 0;
    }
    return 1;
}

/*
 * SMs whose L1s share a launch's reads (`*sms`: the SMs that run it): the
 * grid's footprint over the footprint one SM touches. From a sample, the
 * blocks it runs over the launch, within what the whole grid touches.
 * Without one, an SM re-reads its own share where the threads re-read their
 * own elements (rereads_own); otherwise its reads (the buffer's over the
 * SMs) fall anywhere in the footprint, and the distinct bytes of R reads
 * spread over F are F (1 - exp(-R / F)), the classical occupancy count
 * ([sources: feller1968] ch. IV.2).
 */
static double l1_sharers(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                         double unit, double *sms_out)
{
    const gp_access_t *a = &op->access;
    double sms = (double)GP_MIN((uint64_t)d->sm_count, GP_MAX(k->total_blocks, (uint64_t)1));
    const gp_lane_sample_t *s = a->sample;
    double g = fetched_footprint(k, op, unit);
    *sms_out = sms;
    if (s && s->grid_footprint_bytes > 0 && s->block_footprint_bytes > 0) {
        double per_sm = (double)s->block_footprint_bytes * ceil((double)k->total_blocks / sms);
        g = (double)s->grid_footprint_bytes;
        per_sm = GP_MIN(g, GP_MAX(g / sms, per_sm));
        return g / per_sm;
    }
    if (!s && g > 0 && !rereads_own(k, op)) {
        double per_sm = g * -expm1(-buffer_reads(k, op, unit, 0) / sms / g);
        per_sm = GP_MIN(g, GP_MAX(g / sms, per_sm));
        return g / per_sm;
    }
    return sms;
}

/* 1 when o draws what op draws (its `draws` group): an op of the same kind
   over the same buffer and space, both sampled alike from their draws. */
static int draw_partner(const gp_op_t *op, const gp_op_t *o)
{
    const gp_lane_sample_t *s = op->access.sample, *t = o->access.sample;
    return op->draw_group && o->draw_group == op->draw_group && o->kind == op->kind &&
           o->space == op->space && o->access.buffer == op->access.buffer && s && t &&
           s->drawn && t->drawn && s->byte_offset && t->byte_offset && t->lanes == s->lanes &&
           t->n_warps == s->n_warps;
}

/* 1 when an earlier op of its `draws` group precedes k's op j (a drawn
   load: its draws touch what the first one's touch). */
static int draw_follower(const gp_kernel_t *k, uint32_t j)
{
    uint32_t i;
    for (i = 0; i < j; i++)
        if (draw_partner(&k->ops[j], &k->ops[i]))
            return 1;
    return 0;
}

/*
 * The share of a drawn load's sectors that an earlier load of its `draws`
 * group (the same draws: a struct's fields read one by one at a data-made
 * index) asked for at the same sampled warp: the L1 has them or is filling
 * them, so they hit it, as a sibling's sectors do (sibling_traffic); 0 for
 * a load outside a group or first in it.
 */
static double draw_group_cover(const gp_kernel_t *k, const gp_op_t *op, uint32_t unit)
{
    const gp_lane_sample_t *s = op->access.sample;
    uint32_t w, l, m, j, at;
    double hit = 0, all = 0;
    if (!op->draw_group || !k || !k->ops || op < k->ops || op >= k->ops + k->n_ops || !s ||
        !s->drawn || !s->byte_offset || unit == 0)
        return 0;
    at = (uint32_t)(op - k->ops);
    for (w = 0; w < s->n_warps; w++)
        for (l = 0; l < s->lanes; l++) {
            int64_t sec, o = s->byte_offset[(size_t)w * s->lanes + l];
            int found = 0;
            if (o < 0)
                continue;
            sec = o / unit;
            all += 1;
            for (j = 0; j < at && !found; j++) {
                const int64_t *p = k->ops[j].access.sample ? k->ops[j].access.sample->byte_offset
                                                           : NULL;
                if (!draw_partner(op, &k->ops[j]))
                    continue;
                for (m = 0; m < s->lanes && !found; m++)
                    found = p[(size_t)w * s->lanes + m] >= 0 &&
                            p[(size_t)w * s->lanes + m] / unit == sec;
            }
            hit += found;
        }
    return all > 0 ? hit / all : 0;
}

/*
 * The L1 hit shares of a load that draws its addresses at random
 * (irm_addresses), counted over the buffer's drawn loads: each SM's draws
 * of the buffer fall anywhere in its range, so the SMs' L1s do not split it
 * between them, and another load's draws are not re-reads of this one's.
 * The buffer's ordered reads (each thread its own element) bring an SM the
 * lines of its own blocks, a share of the range a draw finds no more often
 * than any other line: run37/sweepg's gathers after the ordered read of the
 * same buffer take 94 to 97% of the time they take after the read of
 * another one ([sources: h200-cal]), where the SMs' L1s counted together
 * gave them 42% hits. A draw hits where its sector is in the SM's L1:
 *  - the SM's first draw of each sector misses (of R draws over S sectors,
 *    S (1 - exp(-R / S)) first touches, [sources: feller1968] ch. IV.2);
 *  - past the L1's lines, a line is present with the chance C / F (C lines
 *    the L1 holds a working set in, l1_chase_full_fraction of it; F lines
 *    the draws reach: with every line drawn alike, each is as likely as
 *    any other to be among the C held), and a present line holds the
 *    sector a draw names only where a draw fetched it: a miss brings one
 *    sector of its line, and the m = C / (F (1 - C / F)) draws a line gets
 *    while it stays (a line comes in at each line miss) fill the others.
 * *hit is the share of the draws that hit (the traffic's); *lat_hit the
 * per-lane share whose n-th power is the chance that a request of n lines
 * finds them all: the first touches come early in the SM's draws, so that
 * chance is the mean over the draws of the share then present to the n-th
 * power, not the mean share's. The H200's gathers of one random word a
 * lane over 16 KiB to 16 MiB, 8 to 64 warps per SM, hit 94 to 99% of their
 * sectors up to 128 KiB (all but the first touches; this rule: the same),
 * 56-58% at 256 KiB (51%), 17-19% at 512 KiB (13%), 7-8% at 1 MiB (6%),
 * 1.6% at 4 MiB (1.3%) and 0.4% at 16 MiB (0.3%) by ncu's sector hits, and
 * a trip of one request over 16 KiB at 8 warps per SM takes 113 cycles
 * where every request waiting its miss would take 300 ([sources: h200-cal]
 * run29/gfoot). 0 where the rule does not apply.
 */
static int irm_l1_hit(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op, double l1,
                      double n, double *hit, double *lat_hit)
{
    const gp_access_t *a = &op->access;
    double sector = d->sector_bytes ? d->sector_bytes : 32;
    double line = d->l1_line_bytes ? d->l1_line_bytes : 128, per = GP_MAX(1.0, line / sector);
    double sms = (double)GP_MIN((uint64_t)d->sm_count, GP_MAX(k->total_blocks, (uint64_t)1));
    double full = d->l1_chase_full_fraction > 0 ? GP_MIN(d->l1_chase_full_fraction, 1.0) : 1.0;
    double draws, secs, lines, cap, first, pl, q = 1, steady, sum = 0;
    uint32_t i;
    if (!k->ops || op < k->ops || op >= k->ops + k->n_ops || !a->sample || !a->sample->drawn ||
        !irm_addresses(k, op) || !(l1 > 0))
        return 0;
    /* an SM's draws of the buffer: its drawn loads' requested elements */
    draws = buffer_reads(k, op, sector, 1) / (a->elem_bytes ? a->elem_bytes : 4) / sms;
    secs = drawn_units(a, sector);
    lines = drawn_units(a, line);
    if (!(draws >= 1) || !(secs >= 1) || !(lines >= 1))
        return 0;
    first = secs * -expm1(-draws / secs);
    cap = l1 * full / line;
    pl = GP_MIN(1.0, cap / lines);
    if (pl < 1 && per > 1) {
        double r = (per - 1) / per, m = cap / (lines * (1 - pl));
        q = 1 - r * -expm1(m * log(r)) / (m * -log(r));
    }
    steady = pl * q;
    *hit = GP_MIN(1 - first / draws, steady);
    /* a request waits where any of its n lines misses: the first touches
       come early in the SM's draws, so the requests late in them find
       their sectors, and the chance that all n hit is the mean over the
       draws of the present share to the n-th power (32 midpoints) */
    for (i = 0; i < 32; i++) {
        double x = (i + 0.5) / 32, present = GP_MIN(-expm1(-x * draws / secs), steady);
        sum += pow(present, GP_MAX(n, 1.0));
    }
    *lat_hit = pow(sum / 32, 1 / GP_MAX(n, 1.0));
    return 1;
}

/*
 * Long re-use in an SM's L1 of `l1` bytes: the buffer's re-reads, where an
 * SM re-reads what it touched itself (l1_sharers) at the distance of its own
 * footprint; `*whole` the buffer's reads together (traffic), `*own` op's own
 * (latency). Re-reads in the order of the first reads
 * thrash once that footprint passes the L1, as in the L2 (LRU): the H200's
 * chase through a random cycle of 128-byte lines hits no line on its second
 * lap at 384 KiB (1.5 times its L1), while draws at random keep
 * l1 / footprint ([sources: h200-cal] chase rows, 128- and 8-byte nodes).
 */
static void l1_reuse(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op, double l1,
                     double held, double *whole, double *own)
{
    double sms, sharers = l1_sharers(d, k, op, d->sector_bytes, &sms);
    double share = sms / GP_MAX(sharers, 1.0);
    *whole = share_hit(k, op, l1 * sharers, d->sector_bytes, 1, 0, 0, 0, held, NULL, share, NULL);
    *own = share_hit(k, op, l1 * sharers, d->sector_bytes, 0, 0, 0, 0, 0, NULL, share, NULL);
}

/*
 * How far a launch's memory latencies stand from a single SM's toward those
 * of a launch on every SM (l2_slowest_sm_ratio, dram_slowest_sm_ratio): 0
 * for one SM, 1 for all of them. The SMs sit at different distances from
 * the L2 and the memory controllers, and a launch whose SMs all wait on
 * loads ends when the slowest ends: one lane of one warp per SM chasing
 * pointers through 4 MiB takes 272 to 296 cycles a hop by SM, median 282,
 * and the launch the slowest SM's time ([sources: h200-cal] run30/spread,
 * run7/chase). k SMs whose latencies spread evenly between the fastest and
 * the slowest end, as expected, at the k-th of k + 1 even steps
 * ([sources: david2003]): k / (k + 1) of the spread, from 1/2 (one SM, a
 * typical figure) to sm_count / (sm_count + 1) (all: the slowest).
 */
static double slowest_sm(const gp_device_t *d, const gp_kernel_t *k)
{
    double n = (double)d->sm_count, used = GP_MIN(n, (double)k->total_blocks);
    if (!(n > 1) || !(used > 1))
        return 0;
    return (used / (used + 1) - 0.5) / (n / (n + 1) - 0.5);
}

/* Hit rate of a second-level cache that sees a first level's misses (miss1 =
   1 - hit1 of all reads) when `miss2` of all reads miss both. */
static double after_l1(double miss2, double hit1)
{
    double miss1 = 1.0 - hit1;
    if (miss1 <= 0)
        return 0;
    return 1.0 - GP_MIN(1.0, GP_MAX(miss2, 0.0) / miss1);
}

/* How the lanes of a warp share the addresses of an atomic (atomic_sharing). */
typedef struct atomic_share {
    double per_addr;   /* lanes per address a warp touches (1: all distinct) */
    double grid_addrs; /* distinct addresses over the launch */
    int uniform;       /* every warp names one address the compiler can see */
    double issuing;    /* share of warps with an active lane */
    double lanes;      /* active lanes of an issuing warp */
    double steps;      /* per warp: over the sectors it touches, the sum of the
                          most lanes on one word of each sector */
    double footprint;  /* bytes the launch's atomics touch */
    double sectors;    /* per warp: the sectors it touches */
    double most;       /* per warp: the most lanes on one word */
    double bank_words; /* shared memory: per warp, the most distinct bank
                          words in one bank (0: not asked, or no sample and
                          no bins) */
    double bank_lanes; /* shared memory: per warp, the most lanes in one bank,
                          on one word or on several (0: as bank_words;
                          both from bank_words) */
    double hot;        /* per warp: the steps of the sampled warps that land
                          on the one L2 line most of them name, over the
                          sampled warps (drawn samples only; 0: not known) */
} atomic_share_t;

/* Shared-memory banks for atomic_sharing's bank_words: `banks` banks of
   `bytes` bytes (the generation's; banks 0: not asked). */
typedef struct bank_geom {
    uint32_t banks, bytes;
} bank_geom_t;

/* The passes of one warp's offsets (the first 64 active) in its busiest
   bank, two ways: returned, the most distinct bank words in one bank (a
   request that gives a word to all the lanes that name it in one pass);
   *lanes, the most active lanes in one bank, on one word or on several (a
   request that serves every lane on its own: a shared atomic that returns
   each lane its old value). 0 for both when the geometry is not asked for. */
static double bank_words(const int64_t *off, uint32_t n, bank_geom_t bg, double *lanes)
{
    int64_t v[64];
    uint32_t words[64] = {0}, all[64] = {0}, i, m = 0, top = 0, top_all = 0;
    *lanes = 0;
    if (bg.banks == 0 || bg.banks > 64 || bg.bytes == 0)
        return 0;
    for (i = 0; i < n && m < 64; i++)
        if (off[i] >= 0)
            v[m++] = off[i] / bg.bytes;
    qsort(v, m, sizeof *v, gp_cmp_i64);
    for (i = 0; i < m; i++) {
        uint32_t b = (uint32_t)(v[i] % bg.banks);
        all[b]++;
        top_all = GP_MAX(top_all, all[b]);
        if (i == 0 || v[i] != v[i - 1]) {
            words[b]++;
            top = GP_MAX(top, words[b]);
        }
    }
    *lanes = top_all;
    return top;
}

/* The steps of sampled warps by the L2 line they land on: atomic_steps
   appends (line, steps, warp) for each sector warp `warp` touches to
   `ent`, room for `cap` entries; line_steps_hot sums them by line. */
typedef struct line_steps {
    int64_t *ent;
    uint32_t n, cap;
    int64_t line_bytes, warp;
} line_steps_t;

static int cmp_line_step(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[2] > y[2]) - (x[2] < y[2]);
}

/* The most steps the entries of ls put on one line that more than one
   sampled warp names (sorts them): a line one warp alone names says
   nothing of the grid's other warps. */
static double line_steps_hot(line_steps_t *ls)
{
    uint32_t i, j;
    double top = 0;
    qsort(ls->ent, ls->n, 3 * sizeof *ls->ent, cmp_line_step);
    for (i = 0; i < ls->n; i = j) {
        double sum = 0;
        uint32_t warps = 0;
        for (j = i; j < ls->n && ls->ent[3 * j] == ls->ent[3 * i]; j++) {
            sum += (double)ls->ent[3 * j + 1];
            warps += j == i || ls->ent[3 * j + 2] != ls->ent[3 * j - 1];
        }
        if (warps > 1)
            top = GP_MAX(top, sum);
    }
    return top;
}

/* Steps of one warp's offsets (see atomic_share_t.steps): the lanes grouped
   by sector, each sector counting the most lanes on one of its words; the
   sectors it touches added to *sectors and the most lanes on one word put
   in *most (either may be NULL); with ls, each sector's steps appended to
   it by the line that holds the sector. */
static double atomic_steps(const int64_t *off, uint32_t n, int64_t elem, int64_t sector,
                           double *sectors, double *most, line_steps_t *ls)
{
    int64_t v[64];
    uint32_t i, j, m = 0, top = 0;
    double steps = 0, secs = 0;
    for (i = 0; i < n && m < 64; i++)
        if (off[i] >= 0)
            v[m++] = off[i] / elem * elem;
    qsort(v, m, sizeof *v, gp_cmp_i64);
    for (i = 0; i < m;) { /* one sector: v[i..j) */
        uint32_t best = 0, run;
        for (j = i; j < m && v[j] / sector == v[i] / sector; j += run) {
            for (run = 1; j + run < m && v[j + run] == v[j]; run++)
                ;
            best = GP_MAX(best, run);
        }
        steps += best;
        secs += 1;
        top = GP_MAX(top, best);
        if (ls && ls->n < ls->cap) {
            ls->ent[3 * ls->n] = v[i] / ls->line_bytes;
            ls->ent[3 * ls->n + 1] = best;
            ls->ent[3 * ls->n + 2] = ls->warp;
            ls->n++;
        }
        i = j;
    }
    if (sectors)
        *sectors += secs;
    if (most)
        *most += top;
    return steps;
}

/*
 * How the lanes of a warp share the addresses of an atomic: per_addr lanes
 * hit each address a warp touches (1: all distinct, the warp size: one
 * address), grid_addrs distinct addresses over the launch, `steps` the
 * updates one warp's request makes the L2 serialise (per sector the most
 * lanes on one word) and `footprint` the bytes the grid's atomics touch.
 * From the lane sample where the script gave an index function, from `bins`
 * (K addresses drawn uniformly: a warp of W lanes touches K(1 - (1 - 1/K)^W)
 * of them; its steps from GP_ATOMIC_BINS_WARPS warps drawn by a fixed
 * generator), else from the scope. `issuing` is the share of warps with an
 * active lane: a warp whose lanes all skip the atomic (the index function gave
 * nil for every lane) branches around it and sends nothing to the memory
 * system or the shared pipe (1 without a sample). `bins` are never
 * `uniform`, not even one: the bin comes from data, the compiler cannot see
 * that the lanes agree, so it does not aggregate them ([sources:
 * h200-calibrated] run7 atom global_hash_u32_red K=1: 0.67 lanes per cycle,
 * the one-address lane rate, not 0.69 warps per cycle).
 */
static void atomic_sharing_addr(const gp_device_t *d, const gp_kernel_t *k,
                                const gp_access_t *a, bank_geom_t bg, atomic_share_t *sh)
{
    double w = d->warp_size, elem = a->elem_bytes ? a->elem_bytes : 4;
    double sector = d->sector_bytes ? d->sector_bytes : 32;
    double threads = (double)k->total_blocks * (double)k->launch.threads_per_block;
    const gp_lane_sample_t *s = a->sample;
    sh->per_addr = 1;
    sh->grid_addrs = GP_MAX(threads, 1.0);
    sh->uniform = 0;
    sh->issuing = 1;
    sh->lanes = w;
    sh->steps = ceil(w * elem / sector); /* distinct consecutive words */
    sh->sectors = sh->steps;
    sh->most = 1;
    sh->bank_words = 0;
    sh->bank_lanes = 0;
    sh->hot = 0;
    sh->footprint = sh->grid_addrs * elem;
    if (s && s->n_warps > 0 && s->lanes > 0 && s->byte_offset) {
        double sum = 0, lanes = 0, steps = 0, secs = 0, most = 0, banks = 0, blanes = 0, bl;
        int64_t lo = INT64_MAX, hi = -1;
        uint32_t n = 0, i, j, m, multi = 0;
        line_steps_t ls = {NULL, 0, 0, (int64_t)GP_L2_LINE_BYTES, 0};
        /* drawn lanes land anywhere in their range, the same for every warp
           of the grid: where the draws favour some addresses (a skewed
           histogram), the line that holds them takes the most updates of
           every warp. (Not for addresses of the thread's position: the
           sampled warps stand mostly at warp 0 of their blocks, so the
           lines they share are not the grid's.) */
        if (s->drawn) {
            ls.cap = s->n_warps * GP_MIN(s->lanes, 64u);
            ls.ent = malloc((size_t)ls.cap * 3 * sizeof *ls.ent);
            if (!ls.ent)
                ls.cap = 0;
        }
        for (i = 0; i < s->n_warps; i++) {
            const int64_t *off = s->byte_offset + (size_t)i * s->lanes;
            uint32_t active = 0, distinct = 0;
            for (j = 0; j < s->lanes; j++) {
                if (off[j] < 0)
                    continue;
                active++;
                lo = GP_MIN(lo, off[j]);
                hi = GP_MAX(hi, off[j]);
                for (m = 0; m < j && !(off[m] >= 0 && off[m] / (int64_t)elem == off[j] / (int64_t)elem); m++)
                    ;
                distinct += m == j;
            }
            if (distinct) {
                ls.warp = i;
                sum += (double)active / distinct;
                lanes += active;
                steps += atomic_steps(off, s->lanes, (int64_t)elem, (int64_t)sector, &secs, &most,
                                      ls.cap ? &ls : NULL);
                banks += bank_words(off, s->lanes, bg, &bl);
                blanes += bl;
                n++;
            }
            multi += distinct > 1;
        }
        if (n) {
            sh->per_addr = sum / n;
            sh->lanes = lanes / n;
            sh->steps = steps / n;
            sh->sectors = secs / n;
            sh->most = most / n;
            sh->bank_words = banks / n;
            sh->bank_lanes = blanes / n;
            sh->hot = ls.n ? line_steps_hot(&ls) / n : 0;
        }
        free(ls.ent);
        sh->uniform = n > 0 && !multi; /* every sampled warp names one address */
        sh->issuing = (double)n / s->n_warps;
        /* drawn addresses: at least the range they are drawn from and the
           span the sampled ones cover (a drawn cluster times d plus a loop
           counter spans more than the draw's range) */
        sh->footprint = GP_MAX((double)s->grid_footprint_bytes,
                               s->drawn ? (double)s->drawn_range_bytes : 0.0);
        if (s->drawn && hi >= lo)
            sh->footprint = GP_MAX(sh->footprint, (double)(hi - lo) + elem);
        sh->footprint = GP_MAX(sh->footprint, elem);
        sh->grid_addrs = GP_MAX(1.0, (double)s->grid_footprint_bytes / elem);
        return;
    }
    if (a->bins > 0) {
        double kb = (double)a->bins, touched = kb * (1 - pow(1 - 1 / kb, w)), steps = 0;
        double secs = 0, most = 0, banks = 0, blanes = 0, bl;
        uint32_t lanes = GP_MIN(d->warp_size, 64u), i, j;
        uint64_t x = 0x9E3779B97F4A7C15ull;
        int64_t off[64];
        for (i = 0; i < GP_ATOMIC_BINS_WARPS; i++) {
            for (j = 0; j < lanes; j++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull; /* Knuth's MMIX LCG */
                off[j] = (int64_t)((double)(x >> 11) * 0x1p-53 * kb) * (int64_t)elem;
            }
            steps += atomic_steps(off, lanes, (int64_t)elem, (int64_t)sector, &secs, &most, NULL);
            banks += bank_words(off, lanes, bg, &bl);
            blanes += bl;
        }
        sh->per_addr = w / GP_MAX(touched, 1.0);
        sh->grid_addrs = kb;
        sh->steps = steps / GP_ATOMIC_BINS_WARPS;
        sh->sectors = secs / GP_ATOMIC_BINS_WARPS;
        sh->most = most / GP_ATOMIC_BINS_WARPS;
        sh->bank_words = banks / GP_ATOMIC_BINS_WARPS;
        sh->bank_lanes = blanes / GP_ATOMIC_BINS_WARPS;
        sh->footprint = kb * elem;
        return;
    }
    switch (a->atomic_scope) {
    case GP_ATOMIC_SAME:
        sh->per_addr = w;
        sh->grid_addrs = 1;
        sh->uniform = 1;
        sh->steps = w;
        sh->sectors = 1;
        sh->most = w;
        sh->footprint = elem;
        break;
    case GP_ATOMIC_PER_WARP:
        sh->per_addr = w;
        sh->grid_addrs = GP_MAX(1.0, threads / w);
        sh->uniform = 1;
        sh->steps = w;
        sh->sectors = 1;
        sh->most = w;
        sh->footprint = sh->grid_addrs * elem;
        break;
    default:
        break;
    }
}

/*
 * atomic_sharing_addr, then what the script says of the address: one that
 * comes from data (GP_ATOMIC_FROM_DATA: hist[in[i]], a hash) is never
 * `uniform`. The compiler aggregates a warp's lanes only on an address it
 * proves uniform (a kernel argument, an expression of blockIdx,
 * [sources: nvidia-warp-aggregated]); lanes that happen to agree on a bin
 * read from data collide on one word as 32 atomics ([sources:
 * h200-calibrated] run7 atom global_array_u32_red and global_hash_u32_red
 * K=1: 203.8 and 203.7 us, 0.67 lanes per cycle, the one-address lane rate,
 * where an aggregated atomic runs 0.69 warps per cycle).
 */
static void atomic_sharing(const gp_device_t *d, const gp_kernel_t *k, const gp_access_t *a,
                           bank_geom_t bg, atomic_share_t *sh)
{
    atomic_sharing_addr(d, k, a, bg, sh);
    if (a->atomic_flags & GP_ATOMIC_FROM_DATA)
        sh->uniform = 0;
}

/*
 * GPU cycles one warp's global atomic keeps the L2's atomic units busy, on a
 * card with [memory] atomic_l2_units and atomic_unit_bytes ([sources:
 * h200-calibrated] run7 atom rows); 0 on one without. The L2 splits a
 * warp's request by sector; updates of one sector to one word follow one
 * another, so a request costs its `steps` updates at the one-address rate
 * (atomic_same_address_per_cycle; the lanes on distinct words of a sector go
 * together). Three bounds, the largest holds:
 *  - units: the footprint F spreads the steps over
 *    units (1 - exp(-F / (bytes units))) units (at least one): a footprint
 *    within one unit's share serialises every request of the grid; on a
 *    partitioned L2 (gp_mem_rules_t.l2_partitions) a footprint of a line per
 *    partition already keeps one unit of each busy (the run7 atom centroid
 *    rows: 512 bytes of bins run as 1 KiB ones, about 1.9 units);
 *  - sectors: a float add waits for the previous update of its sector at
 *    the float one-address rate (32 x atomic_uniform_f32_warps_per_cycle);
 *    the footprint's sectors overlap these waits;
 *  - lanes: every lane at the all-distinct rate (atomic_distinct_per_cycle).
 */
static double atomic_unit_gpu_cycles(const gp_device_t *d, const gp_mem_rules_t *r,
                                     const gp_access_t *a, const atomic_share_t *sh)
{
    double units = d->atomic_l2_units, per = d->atomic_unit_bytes, rs = d->atomic_same_address_per_cycle;
    double rd = d->atomic_distinct_per_cycle, sector = d->sector_bytes ? d->sector_bytes : 32;
    double t1, top, busy, sectors;
    if (!(units > 0) || !(per > 0) || !(rs > 0) || !(rd > 0))
        return 0;
    t1 = 1 / rs;
    top = t1;
    if (a->atomic_op == GP_ATOMIC_OP_FADD && d->atomic_uniform_f32_warps_per_cycle > 0)
        top = GP_MAX(t1, 1 / (d->atomic_uniform_f32_warps_per_cycle * d->warp_size));
    busy = GP_MAX(1.0, units * (1 - exp(-sh->footprint / (per * units))));
    if (r->l2_partitions > 1 && d->l1_line_bytes > 0) /* a line in each partition */
        busy = GP_MAX(busy, GP_MIN((double)r->l2_partitions, sh->footprint / d->l1_line_bytes));
    sectors = GP_MAX(1.0, sh->footprint / sector);
    return GP_MAX(GP_MAX(sh->lanes / rd, sh->hot * t1),
                  GP_MAX(sh->steps * t1 / busy, sh->steps * top / sectors));
}

/*
 * GPU cycles the memory system spends on one warp-wide global atomic, from
 * the card's measured rates ([memory] atomic_*_per_cycle); 0 when the card
 * has none. Two bounds, the larger holds:
 *  - lanes: each lane costs 1/distinct rate, more as lanes share an address,
 *    up to 1/warp-address rate when the whole warp hits one address
 *    (interpolated by the lanes that share);
 *  - addresses: updates to one address serialise at the single-address rate;
 *    n addresses, each hit by per_addr lanes of a warp, run
 *    (n / per_addr)^GP_ATOMIC_ADDRESS_SPREAD_EXP times as fast (L2 slices
 *    serve only part of them in parallel).
 */
static double atomic_gpu_cycles(const gp_device_t *d, const gp_access_t *a, double per_addr,
                                double grid_addrs)
{
    double w = d->warp_size, rd = d->atomic_distinct_per_cycle, rw = d->atomic_warp_address_per_cycle;
    double rs = d->atomic_same_address_per_cycle, lane, conc = 0, spread;
    /* a float add on one address serialises at its own measured rate (the
       float uniform-address measurement is one atomic per lane) */
    if (a->atomic_op == GP_ATOMIC_OP_FADD && d->atomic_uniform_f32_warps_per_cycle > 0 && rs > 0)
        rs = d->atomic_uniform_f32_warps_per_cycle * w;
    if (!(rd > 0) || !(rs > 0))
        return 0;
    if (!(rw > 0))
        rw = rd;
    per_addr = GP_MIN(GP_MAX(per_addr, 1.0), w);
    lane = 1 / rd + (w > 1 ? (per_addr - 1) / (w - 1) : 0) * (1 / rw - 1 / rd);
    spread = GP_MAX(1.0, grid_addrs / per_addr);
    conc = 1 / (rs * pow(spread, GP_ATOMIC_ADDRESS_SPREAD_EXP));
    return w * GP_MAX(lane, conc);
}

/*
 * GPU cycles of one aggregated warp atomic: the compiler turned the atomics
 * of a warp whose active lanes all name one address into one per warp
 * (gp_mem_rules_t.aggregates_uniform_atomics,
 * [sources: nvidia-warp-aggregated]). The card's measured warp rate on one address
 * for what the atomic adds ([memory] atomic_uniform_*_warps_per_cycle; else
 * one lane's share at the one-address rate, as one RED of one lane is what
 * reaches the L2), and the same two bounds as atomic_gpu_cycles for a warp
 * of one lane: n distinct addresses serve (n)^GP_ATOMIC_ADDRESS_SPREAD_EXP
 * times as fast, never beyond the all-distinct rate. 0: the card has no
 * rates, or the atomic does not aggregate (a float add: REDUX has no float
 * form, and the H200's float atomicAdd on a kernel-argument address runs at
 * the per-lane one-word rate, 0.287 lanes per cycle,
 * [sources: h200-calibrated] run3 atomic_global f32 rows and the atomic family's
 * global_same_address row).
 */
static double atomic_uniform_gpu_cycles(const gp_device_t *d, const gp_access_t *a,
                                        double grid_addrs)
{
    double rd = d->atomic_distinct_per_cycle, ru;
    if (!(rd > 0) || !(d->atomic_same_address_per_cycle > 0))
        return 0;
    if (a->atomic_op == GP_ATOMIC_OP_FADD)
        return 0; /* REDUX has no float form: one atomic per lane */
    /* (a used result, atomic_uniform_result_warps_per_cycle, measures the
       same rate on the H200: 0.690 against 0.690, run4; the leader's SHFL is
       the SM's) */
    if (a->atomic_op == GP_ATOMIC_OP_INC)
        ru = d->atomic_uniform_inc_warps_per_cycle;
    else
        ru = d->atomic_uniform_warps_per_cycle;
    if (!(ru > 0))
        ru = d->atomic_same_address_per_cycle;
    return GP_MAX(1 / rd, 1 / (ru * pow(GP_MAX(1.0, grid_addrs), GP_ATOMIC_ADDRESS_SPREAD_EXP)));
}

/*
 * What address translation adds to the wait of a warp request whose `lines`
 * lie at random (drawn, or a random pattern) over a span (drawn_extent)
 * larger than the device's request_tlb_reach_bytes: each line's page misses
 * with chance 1 - reach / span, and the misses of one request follow one another,
 * request_tlb_line_cycles each ([sources: h200-cal] run13/tlb gather_lat
 * rows: one warp per SM gathering 32 random lines a request waits 1189
 * cycles over 64 MiB, 1245 over 128 MiB, 1282 over 256 MiB and 1306 to 1319
 * from 1 GiB to 8 GiB: 32 lines x 3.97 cycles x (1 - 71 MiB / span); a
 * lone lane's chase over 64 GiB waits what a chase within one page does,
 * run3 dram_random_cycles, so the walk of tlb_miss_cycles is not this).
 * The misses queue where all SMs send them: the wait is the share of the
 * SMs the launch occupies (a lone block's 32-lane chase through 256 MiB,
 * run10/cold blocks=1 rows, waits no more than the model gives without it,
 * one warp on each of the 132 SMs the whole of it). 0 without the keys, or
 * for the lines of a pattern of the thread's position (a stride's lines
 * share pages).
 */
static double tlb_wait(const gp_device_t *d, const gp_kernel_t *k, const gp_access_t *a,
                       double lines)
{
    double span = drawn_extent(a), miss, sms;
    if (!(d->request_tlb_reach_bytes > 0) || !(d->request_tlb_line_cycles > 0) || !(lines > 1) ||
        !(span > 0))
        return 0;
    miss = 1 - (double)d->request_tlb_reach_bytes / span;
    sms = d->sm_count ? GP_MIN(1.0, (double)k->total_blocks / d->sm_count) : 1.0;
    return miss > 0 ? lines * miss * d->request_tlb_line_cycles * sms : 0;
}

/*
 * The DRAM time, as bytes at dram_sustained_gbps, that translation adds to
 * each random line of an access over `span` bytes that reaches DRAM: the
 * pages past tlb_dram_reach_bytes miss (1 - reach / span of them), and their
 * walks hold the memory system ([sources: h200-cal] run13/tlb gather_thr
 * rows: 64 warps per SM gathering random lines of 64 MiB to 8 GiB take the
 * model's DRAM time up to 128 MiB and 1.08, 1.13, 1.18, 1.23, 1.26 and 1.27
 * times it from 256 MiB to 8 GiB; least squares over the 8 rows: 21 bytes a
 * line beyond 192 MiB on the H200). 0 without the keys. The isolated
 * stores' sparse_write_bytes_* were measured over 256 MiB and hold this
 * share of it (devices/h200-sxm.ini).
 */
static double tlb_dram_bytes(const gp_device_t *d, double span)
{
    double reach = (double)d->tlb_dram_reach_bytes;
    if (!(d->tlb_dram_line_bytes > 0) || !(reach > 0) || !(span > reach))
        return 0;
    return d->tlb_dram_line_bytes * (1 - reach / span);
}

/* ------------------------------------------------------ lines per request */

/*
 * The L1 lines one warp request touches and its bank passes: lines that a
 * request reads at the same offset (one 4-byte bank column of the line) queue
 * on that bank, one line per pass. The H200 measured both apart (bench_chase,
 * [sources: h200-cal] chase rows, validation/h200/measured/run7/chase): a
 * warp whose lanes each chase their own 128-byte node (every lane at offset 0
 * of its line) waits 2.32 cycles more per lane, one whose lanes chase 8-byte
 * nodes at scattered offsets 0.64 more per line; 8 warps of such requests
 * keep the L1 busy 1.00 cycle per pass, and a full SM's requests of 32
 * floats on 8 to 32 lines (one sector each) 0.25 per line (bench_misalign,
 * run19/misalign f1_g rows: four lines to a t-stage wavefront). Averaged over a
 * sample's warps (idle lanes marked), else the pattern's first warp of
 * `lanes` lanes. Lines of `line` bytes.
 */
/* A pattern's answer depends only on its shape: every op's cost asks again
   at each residency of each prediction, and a sweep at every point, so
   recent answers are remembered, per thread. */
typedef struct lines_memo {
    int64_t stride, offset;
    uint64_t footprint; /* a random pattern's elements depend on it */
    uint32_t elem, pattern, lanes, line, valid;
    double lines, passes, runs, lone;
} lines_memo_t;

#define LINES_MEMO_SLOTS 32
static _Thread_local lines_memo_t lines_memo[LINES_MEMO_SLOTS];

static void request_lines(const gp_access_t *a, uint32_t lanes, uint32_t line, double *lines,
                          double *passes, double *runs, double *lone)
{
    int64_t own[64];
    const int64_t *off;
    uint32_t w, nw = 1, n = GP_MIN(lanes, 64u), e = a->elem_bytes ? a->elem_bytes : 4;
    double sl = 0, sp = 0, sr = 0, so = 0;
    lines_memo_t *memo = NULL;
    int sampled = a->sample && a->sample->n_warps > 0 && a->sample->byte_offset &&
                  a->sample->lanes > 0;
    /* the memo's footprint: only a random pattern's lanes depend on it, the
       others' answers hold across a sweep's sizes */
    uint64_t fp = a->pattern == GP_PATTERN_RANDOM ? a->footprint_bytes : 0;
    if (sampled) {
        nw = a->sample->n_warps;
        n = GP_MIN(a->sample->lanes, 64u);
    } else {
        uint64_t h = (uint64_t)a->stride_elems * 0x9e3779b97f4a7c15ull;
        h ^= (uint64_t)a->offset_elems * 0xc2b2ae3d27d4eb4full;
        h ^= ((uint64_t)e << 40) ^ ((uint64_t)a->pattern << 56) ^ ((uint64_t)n << 32) ^ line;
        h ^= fp * 0x94d049bb133111ebull;
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9ull;
        memo = &lines_memo[(h >> 32) % LINES_MEMO_SLOTS];
        if (memo->valid && memo->stride == a->stride_elems &&
            memo->offset == a->offset_elems && memo->footprint == fp &&
            memo->elem == e && memo->pattern == a->pattern && memo->lanes == n &&
            memo->line == line) {
            *lines = memo->lines;
            *passes = memo->passes;
            *runs = memo->runs;
            *lone = memo->lone;
            return;
        }
        gp_pattern_lanes(a, 0, n, 0, own);
    }
    for (w = 0; w < nw; w++) {
        int64_t ln[64];
        uint64_t mask[64];
        uint32_t i, j, b, nl = 0, worst = 0;
        off = sampled ? a->sample->byte_offset + (size_t)w * a->sample->lanes : own;
        for (i = 0; i < n; i++) {
            int64_t l0, l1, x;
            if (off[i] < 0)
                continue;
            l0 = off[i] / line;
            l1 = (off[i] + e - 1) / line;
            for (x = l0; x <= l1; x++) {
                int64_t lo = x == l0 ? off[i] % line : 0;
                int64_t hi = x == l1 ? (off[i] + e - 1) % line : line - 1;
                uint64_t m = 0;
                int64_t c;
                for (c = lo / 4; c <= hi / 4 && c < 64; c++)
                    m |= 1ull << c;
                for (j = 0; j < nl && ln[j] != x; j++)
                    ;
                if (j == nl) {
                    if (nl == 64)
                        continue;
                    ln[nl] = x;
                    mask[nl++] = 0;
                }
                mask[j] |= m;
            }
        }
        for (b = 0; b < 64; b++) {
            uint32_t on = 0;
            for (j = 0; j < nl; j++)
                on += (mask[j] >> b) & 1u;
            worst = GP_MAX(worst, on);
        }
        sl += nl;
        sp += worst;
        /* lone: lines of which the request reads one 32-byte sector (8 bits
           of the word mask) */
        for (j = 0; j < nl; j++) {
            uint32_t sec, touched = 0;
            for (sec = 0; sec * 8 < line / 4 && sec < 8; sec++)
                touched += ((mask[j] >> (sec * 8)) & 0xffu) != 0;
            so += touched == 1;
        }
        /* runs: lines whose preceding line the request does not touch */
        for (i = 0; i < nl; i++) {
            for (j = 0; j < nl && ln[j] != ln[i] - 1; j++)
                ;
            sr += j == nl;
        }
    }
    *lines = sl / nw;
    *passes = sp / nw;
    *runs = sr / nw;
    *lone = so / nw;
    if (memo) {
        memo->stride = a->stride_elems;
        memo->offset = a->offset_elems;
        memo->footprint = fp;
        memo->elem = e;
        memo->pattern = a->pattern;
        memo->lanes = n;
        memo->line = line;
        memo->lines = *lines;
        memo->passes = *passes;
        memo->runs = *runs;
        memo->lone = *lone;
        memo->valid = 1;
    }
}

/* The extra latency a request of `lines` lines in `runs` runs of
   consecutive lines and `passes` bank passes waits where it is served: L1,
   past L1 (L2), DRAM ([sources: h200-cal] chase rows: see request_lines; at
   DRAM the warp waits for the slowest of its lanes' latencies, 88.7 cycles
   more per doubling of the lanes). With dram_run_line_cycles the slowest
   wait is over the runs (the lines of a run come from one DRAM page
   together) and each further line of a run adds that: bench_gridstride's
   coalesced float4 request (4 lines, one run) takes 42 cycles a trip more
   than a float's from DRAM at one warp per SM, 29 of them the request's
   wait (9.8 a further line), not 2 x 88.7 ([sources: h200-cal]
   run10/gridstride gs16_l1 and gs4_l1 rows, W = 1). */
static void lines_latency(const gp_device_t *d, double lines, double passes, double runs,
                          double *x1, double *x2, double *x3)
{
    double m = GP_MAX(lines, 1.0), p = GP_MAX(passes, 1.0);
    double r = d->dram_run_line_cycles > 0 ? GP_MIN(GP_MAX(runs, 1.0), m) : m;
    *x1 = GP_MAX((m - 1) * d->l1_line_cycles, (p - 1) * d->l1_bank_pass_cycles);
    *x2 = GP_MAX((m - 1) * d->l2_line_cycles, *x1);
    *x3 = GP_MAX(log2(r) * d->dram_lines_log2_cycles + (m - r) * d->dram_run_line_cycles, *x2);
}

/*
 * The L1 hit share of a chase through drawn addresses (drawn_chase): the SM's
 * chasing lanes re-visit the lines their draws reach; while those lines fill
 * at most l1_chase_full_fraction of the L1 data capacity every re-visit hits,
 * from l1_chase_none_fraction on none does (a re-visit comes after every
 * other line of the cycle), linearly between; the first touch of each
 * sector by the SM misses (`*cold`: the share of the warps' steps that wait
 * on one, cycle_share with the SM's lanes, first_share where the chase
 * draws afresh: a warp's step misses while any of its lanes finds a new
 * sector; the re-visits hit or miss lane by lane:
 * [sources: h200-cal] cold rows, 32 and 128 threads through 16 and 64 KiB,
 * and 8-byte nodes through 16 KiB, chase rows). Returns the re-visits'
 * share that hits. The H200 with the smallest carve-out (256 KiB of L1):
 * every hop a hit through 192 KiB of 128-byte nodes, 86% at 224 KiB, 41% at
 * 256 KiB, none at 384 KiB ([sources: h200-cal] chase rows, lanes=1 warps=1).
 * A chase that draws afresh at every step (gp_op_t.chase_draws) re-visits
 * its lines at random, not in a cycle: past the l1_chase_full_fraction of
 * the L1 that holds its working set, a re-visit finds its line with the
 * chance C / F (C the lines held, F those the draws reach: every line as
 * likely as any other to be held, [sources: feller1968] as irm_l1_hit), so
 * the share falls gradually instead of at the cycle's edge: one lane
 * drawing 128-byte nodes through 256 KiB takes 111 cycles a further step
 * once its draws have touched them all (1385 us for 16384 steps, 696 for
 * 4096), about two thirds of its re-visits from L1 where the cycle's edge
 * gives 41% (the row +79.5% -> +12.9%; through 1 MiB, 65536 steps, +17.7%
 * -> +3.5%: [sources: h200-cal] run10/cold draw rows).
 * -1 where the device has no such rule.
 */
static double chase_l1_hit(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                           const gp_occupancy_t *occ, double cap, double *cold, double *warps)
{
    const gp_access_t *a = &op->access;
    double e = a->elem_bytes ? a->elem_bytes : 4, line = d->l1_line_bytes ? d->l1_line_bytes : 128;
    double threads, draws, blocks, sm_lanes, sm_draws, ru, lines, x, h, su, rs;
    double lo = d->l1_chase_full_fraction, hi = d->l1_chase_none_fraction;
    if (!(lo > 0) || !(hi >= lo) || !(cap > 0) || !drawn_chase(k, op))
        return -1;
    threads = GP_MAX(1.0, (double)k->total_blocks * (double)k->launch.threads_per_block);
    draws = gp_op_grid_bytes(k, op) / e / threads; /* per thread */
    blocks = GP_MAX(1.0, GP_MIN((double)occ->blocks_per_sm,
                                ceil((double)k->total_blocks / GP_MAX(1u, d->sm_count))));
    *warps = GP_MAX(1u, occ->warps_per_block) * blocks;
    sm_lanes = GP_MAX(1.0, active_lanes(d, k, a)) * *warps;
    sm_draws = draws * sm_lanes;
    ru = drawn_units(a, line);
    if (!(sm_draws >= 1) || !(ru >= 1))
        return -1;
    lines = ru > 1 ? GP_MIN(sm_draws, ru * -expm1(sm_draws * log1p(-1.0 / ru))) : 1;
    x = lines * line / cap;
    /* a chase that draws afresh re-visits its lines at random: past the
       L1's working set a re-visit finds its line with the chance C / F; a
       cycle's re-visits meet the edge (the note above) */
    if (op->chase_draws)
        h = GP_MIN(1.0, lo / x);
    else
        h = x <= lo ? 1 : x >= hi ? 0 : (hi - x) / (hi - lo);
    /* the SM's first touches of the sectors it fetches (a line's other
       sectors miss on their own first touch), as its warps wait for them */
    su = d->sector_bytes ? GP_MIN((double)d->sector_bytes, line) : line;
    rs = drawn_units(a, su);
    *cold = rs > 1 ? walk_share(!op->chase_draws, sm_draws / rs, sm_lanes / *warps, sm_lanes, 1,
                                NULL)
                   : GP_MIN(1.0, lines / sm_draws);
    return h;
}

/* ------------------------------------------------------------ partial sectors */

/*
 * Sectors that other instructions of the same warp complete. A thread that
 * handles K consecutive elements with K scalar instructions (v[i] =
 * in[K t + i]) makes each warp instruction touch K times the sectors it
 * uses a 1/K share of; the K instructions together touch each sector K
 * times. What the H200 does with them (bench_sectors, [sources: h200-cal]
 * run7/sectors):
 *  - loads: the first instruction brings each sector into L1, the others
 *    hit it there; L2 and DRAM move the sectors once (load_scalar runs as
 *    fast as load_vector);
 *  - stores: the L2 (write back) merges the partial writes of a sector
 *    before anything reaches DRAM, so DRAM moves the sectors once, however
 *    far apart the writes come within a launch (copy_far with a barrier and
 *    256 FMAs between them, the transpose-like rows whose other warps
 *    complete the sectors); but the SM's store path sends each store
 *    instruction's requests on: a request per sector and one more per line
 *    in which it writes part of a sector, at l1_store_bytes_per_cycle,
 *    unless consecutive stores of the warp complete each other's sectors
 *    within GP_STORE_MERGE_LINES lines per instruction, which then leave as
 *    whole sectors (store_scalar E = 4 K = 4 runs as store_vector; K = 8 at
 *    the request rate); the warps of a block that leave a barrier together
 *    and store at once share GP_STORE_MERGE_BURST_LINES lines of merging
 *    (block_abreast: bench_phase's bar4s, 1.7 to 2.4 times its copy from 8
 *    warps a block on).
 * The instructions of one warp that complete each other's sectors
 * (siblings) are the memory ops of one kind (stores; or loads) on one
 * buffer in one loop body, sampled alike (index functions); a loop whose
 * next iteration touches the sectors of this one completes them the same
 * way (short_reuse).
 */

/* 1 for the ops whose sectors siblings may complete: global stores, and
   global or texture loads, of a buffer, with a sample of addresses that
   are not draws. */
static int sector_op(const gp_op_t *o)
{
    const gp_lane_sample_t *s = o->access.sample;
    if (o->access.buffer == UINT32_MAX || !s || !s->byte_offset || s->n_warps == 0 ||
        s->lanes == 0 || s->drawn || o->access.elem_bytes == 0)
        return 0;
    if (o->kind == GP_OP_STORE)
        return o->space == GP_SPACE_GLOBAL;
    return o->kind == GP_OP_LOAD &&
           (o->space == GP_SPACE_GLOBAL || o->space == GP_SPACE_TEXTURE);
}

/* 1 if ops[j] is a sibling of ops[i] (a sector_op): the same kind and
   buffer, the same element size, the same body, sampled at the same
   instances. */
static int sector_sibling(const gp_kernel_t *k, uint32_t i, uint32_t j)
{
    const gp_op_t *a = &k->ops[i], *b = &k->ops[j];
    const gp_lane_sample_t *sa = a->access.sample, *sb = b->access.sample;
    return sector_op(b) && b->kind == a->kind && b->access.buffer == a->access.buffer &&
           b->access.elem_bytes == a->access.elem_bytes && sb->n_warps == sa->n_warps &&
           sb->lanes == sa->lanes && sb->next_iteration == sa->next_iteration &&
           enclosing_body(k, i) == enclosing_body(k, j);
}


/* Count sector `sec` (-1: none) with `bytes` of its `unit` written into
   written_units' sums. */
static void close_sector(int64_t sec, int64_t bytes, uint32_t unit, uint32_t line,
                         int64_t *last_line, double *sectors, double *partial_lines)
{
    int64_t l = sec * (int64_t)unit / (int64_t)line;
    if (sec < 0)
        return;
    *sectors += 1;
    if (bytes < (int64_t)unit && l != *last_line) {
        *last_line = l;
        *partial_lines += 1;
    }
}

/* What the elements at the sorted, distinct byte offsets e[0..n) (`elem`
   bytes each) write: *sectors of `unit` bytes, and *partial_lines, the lines
   of `line` bytes holding a sector they write only partly. */
static void written_units(const int64_t *e, size_t n, uint32_t elem, uint32_t unit,
                          uint32_t line, double *sectors, double *partial_lines)
{
    int64_t cur = -1, last_line = -1, bytes = 0;
    size_t i;
    *sectors = *partial_lines = 0;
    for (i = 0; i < n; i++) {
        int64_t b = e[i], stop = e[i] + (int64_t)elem;
        while (b < stop) {
            int64_t sec = b / (int64_t)unit, end = GP_MIN(stop, (sec + 1) * (int64_t)unit);
            if (sec != cur) {
                close_sector(cur, bytes, unit, line, &last_line, sectors, partial_lines);
                cur = sec;
                bytes = 0;
            }
            bytes += end - b;
            b = end;
        }
    }
    close_sector(cur, bytes, unit, line, &last_line, sectors, partial_lines);
}

/*
 * Bytes the L1's data path moves for one warp request of `sector_bytes`
 * (its sectors) by `act_lanes` lanes (active_lanes): where the L1 serves requests in sectors, a wavefront
 * carries up to a line of the data the lanes name, wherever the line
 * boundaries fall, so a coalesced request that straddles two lines (five
 * sectors for 32 floats) costs what the aligned one does, not a fifth more:
 * the H200 returns 16 LDG.E of 32 floats a trip shifted by 4 or 124 bytes
 * at 1.12 SM cycles a request against 1.07 aligned, and misaligned float2
 * and float4 requests (9 and 17 sectors) at 2.03 and 4.07 cycles as their
 * aligned ones; ncu counts 1.01, 2.01 and 4.01 data wavefronts a request
 * either way ([sources: h200-cal] run19/misalign). The data the lanes name
 * is counted in whole lines (a wavefront), where the request's sectors
 * are at most one more than those lines hold (one contiguous run of lanes
 * across a boundary). A request whose lanes scatter keeps its sectors, a
 * quarter cycle each: 32 floats on 32, 16 and 8 lines of a sector each
 * take 8.04, 4.04 and 2.03 cycles (run19/misalign f1_g rows). An L1 that
 * serves global loads in whole lines (Fermi's 128-byte segments) moves
 * both lines of a misaligned request.
 */
static double l1_data_bytes(const gp_device_t *d, const gp_access_t *a, double act_lanes,
                            double sector_bytes, uint32_t seg)
{
    double line = d->l1_line_bytes ? d->l1_line_bytes : 128, named;
    if (seg != d->sector_bytes || !(sector_bytes > line))
        return sector_bytes;
    named = ceil(act_lanes * a->elem_bytes / line - 1e-9) * line;
    /* one run of the lanes' bytes straddling a boundary: one sector more
       than its lines hold; scattered lanes keep their sectors */
    return sector_bytes <= named + seg ? named : sector_bytes;
}

/* 1 when op is a load with an earlier sibling (the same buffer, body and
   sampling): nvcc addresses it from the sibling's register with an immediate
   offset (a thread's consecutive elements, LDG [R.64+0x4] after LDG [R.64]),
   so it carries no address arithmetic of its own. Not a load whose address
   comes from the value of the load before it (access.depends): that address
   is computed. */
static int offset_sibling(const gp_kernel_t *k, const gp_op_t *op)
{
    uint32_t i, j;
    if (!k->ops || op < k->ops || op >= k->ops + k->n_ops || op->kind != GP_OP_LOAD ||
        op->access.depends || !sector_op(op))
        return 0;
    i = (uint32_t)(op - k->ops);
    for (j = 0; j < i; j++)
        if (sector_sibling(k, i, j))
            return 1;
    return 0;
}

/* The siblings of ops[i] (ops[i] among them) into *sib (allocated, to be
   freed); returns how many (1: none but itself). */
static uint32_t siblings_of(const gp_kernel_t *k, uint32_t i, uint32_t **sib)
{
    uint32_t n = 0, j;
    for (j = 0; j < k->n_ops; j++)
        n += j == i || sector_sibling(k, i, j);
    *sib = malloc(sizeof **sib * n);
    if (!*sib)
        return 1;
    for (j = 0, n = 0; j < k->n_ops; j++)
        if (j == i || sector_sibling(k, i, j))
            (*sib)[n++] = j;
    return n;
}

/* 1 when the siblings sib[0..n) (in program order) follow each other with
   no other memory op, barrier or nested body between them: consecutive
   instructions of the warp. */
static int siblings_adjacent(const gp_kernel_t *k, const uint32_t *sib, uint32_t n)
{
    uint32_t j, m = 0;
    for (j = sib[0]; j <= sib[n - 1]; j++) {
        uint32_t kind = k->ops[j].kind;
        if (m < n && sib[m] == j) {
            m++;
            continue;
        }
        if (kind == GP_OP_LOAD || kind == GP_OP_STORE || kind == GP_OP_ATOMIC ||
            kind == GP_OP_ASYNC_COPY || kind == GP_OP_BARRIER || kind == GP_OP_LOOP ||
            kind == GP_OP_DIVERGE)
            return 0;
    }
    return 1;
}

/* What ops[j] does to a block's warps that left a barrier together: 1 it
   keeps them abreast (arithmetic, shuffles, branches, shared memory, global
   stores), 0 it spreads them out (a global, local or texture load or an
   atomic waits its own latency; a divergent body). */
static int keeps_abreast(const gp_op_t *o)
{
    switch (o->kind) {
    case GP_OP_LOAD:
    case GP_OP_ATOMIC:
        return o->space == GP_SPACE_SHARED;
    case GP_OP_ASYNC_COPY:
    case GP_OP_DIVERGE:
        return 0;
    default:
        return 1;
    }
}

/* The state of a block's warps after ops[from..to) in program order, from
   `state` before them: 1 abreast (a barrier, then only ops that keep them
   so), 0 apart (an op that spreads them after the last barrier), -1 still
   as before (neither). A loop body runs before the ops after it, its last
   ops last; a loop of no trip (count below one) is skipped whole. */
static int abreast_after(const gp_kernel_t *k, uint32_t from, uint32_t to, int state)
{
    uint32_t j;
    for (j = from; j < to; j++) {
        const gp_op_t *o = &k->ops[j];
        if (o->kind == GP_OP_LOOP && o->count < 1)
            j += o->body_len;
        else if (o->kind == GP_OP_BARRIER)
            state = 1;
        else if (o->kind != GP_OP_LOOP && !keeps_abreast(o))
            state = 0;
    }
    return state;
}

/* 1 when the warps of a block reach ops[i] together: a barrier comes before
   it in program order with only ops that keep warps abreast between (the
   tail of a loop body run before it counts; inside a loop of two trips or
   more, the tail of the body's previous trip too; the kernel's start, or a
   body's first trip, has no barrier before it). */
static int block_abreast(const gp_kernel_t *k, uint32_t i)
{
    long enc = enclosing_body(k, i);
    uint32_t start = enc >= 0 ? (uint32_t)enc + 1 : 0;
    int state = abreast_after(k, start, i, -1);
    if (state < 0 && enc >= 0 && k->ops[enc].kind == GP_OP_LOOP && k->ops[enc].count >= 2)
        state = abreast_after(k, i + 1, start + k->ops[enc].body_len, -1);
    return state > 0;
}

/* Sector traffic of op (a sector_op) and its siblings, per warp instruction
   averaged over the sampled instances, in units of `unit` bytes (sectors,
   or the DRAM's fetch granule): the shares count units, the requests count
   them too (sectors for the store path). */
typedef struct sector_use {
    double share;    /* sectors of the siblings together / the sum of each one's */
    int disjoint;    /* no two siblings touch the same byte */
    int merged;      /* stores the SM merges (adjacent, within the line limit) */
    double requests; /* store requests of op: sectors + partial lines (merged:
                        the siblings' together, divided among them) */
    double block;    /* stores: the block's sectors over the sum of its warps' */
} sector_use_t;

/* Distinct sectors the siblings sib[0..n) write at the sampled instances
   0..last, `e` room for their lanes. */
static double sibling_sectors(const gp_kernel_t *k, const uint32_t *sib, uint32_t n,
                              uint32_t last, uint32_t unit, uint32_t line, int64_t *e)
{
    const gp_lane_sample_t *s0 = k->ops[sib[0]].access.sample;
    uint32_t j, w, l, elem = k->ops[sib[0]].access.elem_bytes;
    size_t ne = 0;
    double secs, pl;
    for (w = 0; w <= last; w++)
        for (j = 0; j < n; j++) {
            const int64_t *off = k->ops[sib[j]].access.sample->byte_offset + (size_t)w * s0->lanes;
            for (l = 0; l < s0->lanes; l++)
                if (off[l] >= 0)
                    e[ne++] = off[l];
        }
    written_units(e, unique_i64(e, ne), elem, unit, line, &secs, &pl);
    return secs;
}

/*
 * The share of a block's store requests whose sectors no other warp of the
 * block wrote first: the block's distinct sectors over its warps' sectors.
 * The sectors of warp 0, then warps 0 and 1 (instance 1, the warp axis
 * first), and for each further warp what warp 1 adds to warp 0 (exact for
 * affine indices, as block_reuse counts a block's units); 1 for a block of
 * one warp or a sample without warp 1.
 */
static double block_store_share(const gp_kernel_t *k, const uint32_t *sib, uint32_t n,
                                uint32_t unit, uint32_t line, int64_t *e2)
{
    const gp_lane_sample_t *s0 = k->ops[sib[0]].access.sample;
    double warps = block_warps(k, s0->lanes), u0, u01;
    if (!(warps > 1) || s0->n_warps < 2)
        return 1;
    u0 = sibling_sectors(k, sib, n, 0, unit, line, e2);
    u01 = sibling_sectors(k, sib, n, 1, unit, line, e2);
    if (!(u0 > 0))
        return 1;
    return GP_MIN(1.0, (u0 + (warps - 1) * GP_MAX(0.0, GP_MIN(u0, u01 - u0))) / (warps * u0));
}

/* What sector_use finds of a group of siblings whichever of them asks (the
   group's sectors each and together, its lines, whether its bytes are
   disjoint, the block's share of a store's sectors): every sibling of a
   group asks for the same, and a group of 64 loads sorts 64 x 32 offsets a
   sampled warp, so the answers are remembered per thread, by a hash of all
   that decides them (the sampled offsets included). */
typedef struct group_use {
    uint64_t hash;
    double each, together, all, max_lines, block;
    int disjoint, valid;
} group_use_t;

#define GROUP_MEMO_SLOTS 16
static _Thread_local group_use_t group_memo[GROUP_MEMO_SLOTS];
static _Thread_local uint32_t group_memo_next;

static uint64_t group_hash(const gp_kernel_t *k, const gp_op_t *op, const uint32_t *sib, uint32_t n,
                           uint32_t unit, uint32_t line)
{
    uint64_t h = 0xcbf29ce484222325ull;
    uint32_t j;
    h = mix64(h, ((uint64_t)unit << 32) | line);
    h = mix64(h, ((uint64_t)op->access.elem_bytes << 32) | op->kind);
    h = mix64(h, ((uint64_t)n << 32) | (uint32_t)k->launch.threads_per_block);
    for (j = 0; j < n; j++)
        h = mix_sample(mix64(h, sib[j]), k->ops[sib[j]].access.sample);
    return h;
}

/* The group part of sector_use for the siblings sib[0..n) into g, `e` room
   for two instances of their lanes. */
static void group_use(const gp_kernel_t *k, const gp_op_t *op, const uint32_t *sib, uint32_t n,
                      uint32_t unit, uint32_t line, int64_t *e, group_use_t *g)
{
    const gp_lane_sample_t *s0 = op->access.sample;
    uint32_t j, w, lanes = s0->lanes, elem = op->access.elem_bytes;
    g->each = g->together = g->all = g->max_lines = 0;
    g->disjoint = 1;
    g->block = 1;
    for (w = 0; w < s0->n_warps; w++) {
        size_t ne = 0, m;
        double secs, pl, secs_all, pl_all;
        for (j = 0; j < n; j++) {
            const int64_t *off = k->ops[sib[j]].access.sample->byte_offset + (size_t)w * lanes;
            size_t start = ne;
            uint32_t l;
            double lines_j;
            for (l = 0; l < lanes; l++)
                if (off[l] >= 0)
                    e[ne++] = off[l];
            ne = start + unique_i64(e + start, ne - start); /* lanes on one element: one access */
            written_units(e + start, ne - start, elem, unit, line, &secs, &pl);
            g->each += secs;
            /* the lines this instruction spans */
            lines_j = ne > start ? (double)((e[ne - 1] + elem - 1) / line - e[start] / line + 1) : 0;
            g->max_lines = GP_MAX(g->max_lines, lines_j);
        }
        qsort(e, ne, sizeof *e, gp_cmp_i64);
        for (m = 1; m < ne && g->disjoint; m++)
            g->disjoint = e[m] - e[m - 1] >= (int64_t)elem;
        ne = unique_i64(e, ne);
        written_units(e, ne, elem, unit, line, &secs_all, &pl_all);
        g->together += secs_all;
        g->all += secs_all + pl_all;
    }
    if (op->kind == GP_OP_STORE)
        g->block = block_store_share(k, sib, n, unit, line, e);
}

static void sector_use(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                       uint32_t unit, sector_use_t *u)
{
    const gp_lane_sample_t *s0 = op->access.sample;
    uint32_t n, i, w, l, lanes, elem = op->access.elem_bytes, *sib = NULL, slot;
    uint32_t line = d->l1_line_bytes ? d->l1_line_bytes : 128;
    double own = 0;
    group_use_t *g = NULL, alone;
    int64_t *e;
    u->share = 1;
    u->disjoint = 1;
    u->merged = 0;
    u->requests = 0;
    u->block = 1;
    i = (uint32_t)(op - k->ops);
    n = siblings_of(k, i, &sib);
    lanes = s0->lanes;
    e = sib ? malloc(sizeof *e * (size_t)n * lanes * 2) : NULL; /* two instances' room */
    if (!e) {
        free(sib);
        return;
    }
    if (n == 1) { /* no sibling: nothing to share, nothing worth a hash */
        group_use(k, op, sib, n, unit, line, e, &alone);
        g = &alone;
    } else {
        uint64_t h = group_hash(k, op, sib, n, unit, line);
        for (slot = 0; slot < GROUP_MEMO_SLOTS && !g; slot++)
            if (group_memo[slot].valid && group_memo[slot].hash == h)
                g = &group_memo[slot];
        if (!g) {
            g = &group_memo[group_memo_next++ % GROUP_MEMO_SLOTS];
            group_use(k, op, sib, n, unit, line, e, g);
            g->hash = h;
            g->valid = 1;
        }
    }
    if (n == 1) /* op alone: its own are the group's */
        own = g->all;
    for (w = 0; w < s0->n_warps && n > 1; w++) { /* else op's own sectors and partial lines */
        const int64_t *off = s0->byte_offset + (size_t)w * lanes;
        size_t ne = 0;
        double secs, pl;
        for (l = 0; l < lanes; l++)
            if (off[l] >= 0)
                e[ne++] = off[l];
        ne = unique_i64(e, ne);
        written_units(e, ne, elem, unit, line, &secs, &pl);
        own += secs + pl;
    }
    free(e);
    u->disjoint = g->disjoint;
    u->block = g->block;
    if (n > 1 && g->each > 0)
        u->share = GP_MIN(1.0, g->together / g->each);
    u->merged = op->kind == GP_OP_STORE && n > 1 && g->max_lines <= GP_STORE_MERGE_LINES &&
                siblings_adjacent(k, sib, n);
    if (u->merged) {
        /* a block's warps that leave a barrier together issue their stores
           at once, and the SM merges GP_STORE_MERGE_BURST_LINES lines of
           them: the share of the others' stores leaves unmerged */
        double warps = block_warps(k, lanes), m = 1;
        if (warps > 1 && g->max_lines > 0 && block_abreast(k, sib[0]))
            m = GP_MIN(1.0, GP_STORE_MERGE_BURST_LINES / (warps * g->max_lines));
        u->requests = (m * g->all / n + (1 - m) * own) / s0->n_warps;
    } else {
        u->requests = own / s0->n_warps;
    }
    free(sib);
}

/*
 * The share of a store's writes that never reach DRAM because the L2 (write
 * back) holds their bytes: re-writes of bytes the store wrote before in the
 * launch (its writes by the lanes that store, beyond its footprint, at the
 * distance of the kernel's footprint: the other buffers advance with it, as
 * near_distance counts), or bytes an earlier launch left in the L2
 * (kernel.l2_warm_bytes), while the footprint fits the L2.
 */
static double rewrite_share(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                            double l2cap)
{
    double fp = footprint_of(&op->access), acc, re = 0, warm = 0;
    if (!(fp > 0) || fp > l2cap)
        return 0;
    acc = gp_op_grid_bytes(k, op) * active_lanes(d, k, &op->access) / GP_MAX(1u, d->warp_size);
    if (acc > fp)
        re = (acc - fp) / acc * lru_hit(GP_MAX(fp, kernel_bytes(k)), l2cap, 1);
    warm = GP_MIN(1.0, warm_bytes(k, op->access.buffer) / fp);
    return GP_MAX(re, warm);
}

/* A sector a drawn store writes and the bytes of it (bit b: byte b). */
typedef struct sector_bytes {
    int64_t sector;
    uint32_t mask;
    uint32_t ops; /* the stores of a draws group that write it, a bit each */
} sector_bytes_t;

static int cmp_sector_bytes(const void *x, const void *y)
{
    const int64_t a = ((const sector_bytes_t *)x)->sector, b = ((const sector_bytes_t *)y)->sector;
    return (a > b) - (a < b);
}

/* 1 when an offset of x[0..nx) and one of y[0..ny) (inactive lanes
   negative) fall on one L2 line; with x == y, two distinct lanes of it. */
static int share_line(const int64_t *x, uint32_t nx, const int64_t *y, uint32_t ny)
{
    uint32_t i, j;
    for (i = 0; i < nx; i++)
        for (j = 0; j < ny; j++)
            if (x[i] >= 0 && y[j] >= 0 && (x != y || j < i) &&
                x[i] / (int64_t)GP_L2_LINE_BYTES == y[j] / (int64_t)GP_L2_LINE_BYTES)
                return 1;
    return 0;
}

/*
 * 1 when the addresses of a sample that is not drawn scatter as draws do:
 * no two active lanes of a sampled warp on one L2 line, and the block's
 * next warp (the sample's instance 1) on none of its first warp's lines, so
 * that the block does not complete the sectors its warps write in part: a
 * permutation by a hash or an LCG (`out[(a i + c) mod 2^28] = in[i]`),
 * whatever share of the buffer it writes ([sources: h200-cal] run13/perm:
 * 2^16 to 2^28 stores over 1 GiB, 64 and 256 MiB, every store at the
 * isolated rate of bench_scatterw's, 7.9 to 8.1 a clock). A transpose's
 * column writes put the block's next warp on its first warp's lines, and a
 * stride of a few elements puts lanes on one line: neither. *cover: the span
 * the sampled addresses cover, or `span` where larger (the lines the
 * formula can name).
 */
static int scattered_lines(const gp_lane_sample_t *s, double span, double *cover)
{
    uint32_t w, l;
    int64_t lo = INT64_MAX, hi = -1;
    if (s->n_warps == 0)
        return 0;
    for (w = 0; w < s->n_warps; w++) {
        const int64_t *off = s->byte_offset + (size_t)w * s->lanes;
        if (share_line(off, s->lanes, off, s->lanes))
            return 0;
        for (l = 0; l < s->lanes; l++)
            if (off[l] >= 0) {
                lo = GP_MIN(lo, off[l]);
                hi = GP_MAX(hi, off[l]);
            }
    }
    if (s->n_warps > 1 && share_line(s->byte_offset, s->lanes, s->byte_offset + s->lanes, s->lanes))
        return 0;
    *cover = hi >= lo ? GP_MAX(span, (double)(hi - lo) + 1) : span;
    return 1;
}

/* The sectors (and the bytes of each, a mask) warp w of op's sample writes,
   appended to sb at *n: the active lanes' elements. */
static void warp_sectors(const gp_op_t *op, uint32_t w, uint32_t bit, sector_bytes_t *sb,
                         uint32_t *n)
{
    const gp_lane_sample_t *s = op->access.sample;
    const int64_t *off = s->byte_offset + (size_t)w * s->lanes;
    uint32_t l, eb = op->access.elem_bytes ? op->access.elem_bytes : 4;
    for (l = 0; l < s->lanes; l++) {
        int64_t o = off[l];
        if (o < 0)
            continue;
        sb[*n].sector = o / 32;
        sb[*n].mask = (eb >= 32 ? 0xffffffffu : (1u << eb) - 1) << (uint32_t)(o % 32);
        sb[*n].ops = bit;
        (*n)++;
    }
}

static unsigned popcount32(uint32_t x)
{
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* DRAM (*cost) and L2 (*l2cost, unless NULL) time, in bytes, added for the
   lines the sorted sectors sb[0..n) write, each line an isolated write
   (drawn_store_traffic), n stores of a draws group that write a line
   (sb[].ops) costing DRAM 1 + sparse_write_stores_log2 log2 n times one;
   *lines (unless NULL) counts the lines. */
static void isolated_lines(const gp_device_t *d, const sector_bytes_t *sb, uint32_t n,
                           double *cost, double *l2cost, double *lines)
{
    const int64_t per_line = (int64_t)(GP_L2_LINE_BYTES / 32);
    uint32_t i;
    for (i = 0; i < n;) {
        /* one line: its sectors, whole or partly written */
        int64_t line = sb[i].sector / per_line;
        double whole = 0, part = 0;
        uint32_t ops = 0;
        while (i < n && sb[i].sector / per_line == line) {
            int64_t sec = sb[i].sector;
            uint32_t m = 0;
            while (i < n && sb[i].sector == sec) {
                ops |= sb[i].ops;
                m |= sb[i++].mask;
            }
            if (m == 0xffffffffu)
                whole += 1;
            else
                part += 1;
        }
        *cost += (whole == per_line ? d->sparse_write_bytes_line
                                    : whole * d->sparse_write_bytes_sector +
                                          part * d->sparse_write_bytes_partial) *
                 (1 + d->sparse_write_stores_log2 * log2(GP_MAX(1.0, (double)popcount32(ops))));
        if (l2cost) {
            /* whole sectors only: replaced, nothing merged */
            double req = part == 0 && d->sparse_write_l2_sector_bytes > 0
                             ? d->sparse_write_l2_sector_bytes
                             : d->sparse_write_l2_bytes;
            *l2cost += whole == per_line ? d->sparse_write_l2_line_bytes
                                         : GP_MIN((whole + part) * req,
                                                  d->sparse_write_l2_line_bytes);
        }
        if (lines)
            *lines += 1;
    }
}

/* op and the stores of k that draw what it draws (draw_partner) into grp,
   op first; their count, at most max. */
static uint32_t draw_siblings(const gp_kernel_t *k, const gp_op_t *op, const gp_op_t **grp,
                              uint32_t max)
{
    uint32_t j, n = 1;
    grp[0] = op;
    if (!op->draw_group) /* no group: op alone, without a walk over the ops */
        return n;
    for (j = 0; k && k->ops && j < k->n_ops && n < max; j++) {
        const gp_op_t *o = &k->ops[j];
        if (o != op && draw_partner(op, o) &&
            (o->access.elem_bytes ? o->access.elem_bytes : 4) <= 32)
            grp[n++] = o;
    }
    return n;
}

/*
 * DRAM and L2 traffic of a store through drawn (random) indices, or through
 * indices that scatter as draws do (scattered_lines: a permutation by a
 * hash). Where the draws can name more lines than the L2 holds, nothing
 * completes a line while the L2 has it, so each line a warp writes is an
 * isolated DRAM write: part of a sector makes the L2 read the sector, merge
 * and write it back (sparse_write_bytes_partial), whole sectors cost
 * sparse_write_bytes_sector each, a whole line sparse_write_bytes_line,
 * each the time of that many bytes of a stream ([sources: h200-cal]
 * run12/scatterw: 9.5 partial-sector stores, 18.1 whole sectors, 14.7 whole
 * lines a clock GPU-wide), less the lines an earlier launch left in the L2
 * (warm bytes). Where the draws name fewer lines (a radix sort's digit regions),
 * other stores complete them in the L2 and the store keeps the sectors it
 * fetches. Either way the L2 takes a request per line (sparse_write_l2_bytes
 * a request of up to a sector, sparse_write_l2_sector_bytes one of whole
 * sectors, which the L2 replaces without merging bytes, and
 * sparse_write_l2_line_bytes a whole line: 39, 44 and 17.5 requests a
 * clock; [sources: h200-cal] run12 and run40/scatterw). Stores that share their draws (a
 * `draws` group: a struct's fields stored one by one at a hashed slot)
 * each take the L2 their own requests, while DRAM writes each line once
 * with the bytes they write together, (1 + sparse_write_stores_log2 log2 n)
 * times that for a line n of them write, the cost shared among them
 * ([sources: h200-cal] run40/scatterw, the `splitw` rows: one lane a line,
 * 2 and 4 word stores 2.0 and 4.1 times one store's time from L2, 1.73 and
 * 2.35 times from DRAM).
 */
static void drawn_store_traffic(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                                double l2cap, gp_op_cost_t *out)
{
    const gp_access_t *a = &op->access;
    const gp_lane_sample_t *s = a->sample;
    uint32_t w, n, g, ng = 1, eb = a->elem_bytes ? a->elem_bytes : 4;
    double cost = 0, l2cost = 0, warps = 0, span, named, warm, cover = 0, own = 0, lines = 0;
    sector_bytes_t sb[64 * GP_DRAW_GROUP_MAX];
    const gp_op_t *grp[GP_DRAW_GROUP_MAX];
    if (!(d->sparse_write_bytes_partial > 0) || !s || !s->byte_offset ||
        s->lanes == 0 || s->lanes > GP_ARRAY_LEN(sb) / GP_DRAW_GROUP_MAX || eb > 32 ||
        d->sector_bytes != 32)
        return;
    if (!s->drawn && !scattered_lines(s, (double)a->footprint_bytes, &cover))
        return;
    ng = draw_siblings(k, op, grp, GP_DRAW_GROUP_MAX);
    for (w = 0; w < s->n_warps; w++) {
        n = 0;
        warp_sectors(op, w, 1, sb, &n);
        if (n == 0)
            continue;
        warps += 1;
        qsort(sb, n, sizeof *sb, cmp_sector_bytes);
        isolated_lines(d, sb, n, &own, &l2cost, &lines);
        if (ng < 2)
            continue;
        /* a line the group writes is one write to DRAM, of the bytes all
           its stores write, whichever of them comes first */
        for (g = 0, n = 0; g < ng; g++)
            warp_sectors(grp[g], w, 1u << g, sb, &n);
        qsort(sb, n, sizeof *sb, cmp_sector_bytes);
        isolated_lines(d, sb, n, &cost, NULL, NULL);
    }
    cost = ng < 2 ? own : cost / ng;
    if (!(warps > 0))
        return;
    cost /= warps;
    l2cost /= warps;
    if (d->sparse_write_l2_bytes > 0)
        out->l2_bytes = GP_MAX(out->l2_bytes, l2cost);
    span = !s->drawn               ? cover
           : s->drawn_span_bytes    ? (double)s->drawn_span_bytes
           : s->drawn_range_bytes ? (double)s->drawn_range_bytes
                                  : footprint_of(a);
    warm = span > 0 ? GP_MIN(1.0, warm_bytes(k, a->buffer) / span) : 0;
    /* the lines the draws can name: a line a draw, within the span (not
       drawn: the span its addresses cover, scattered_lines) */
    named = !s->drawn ? cover
            : s->drawn_range_bytes > 0
                ? GP_MIN((double)s->drawn_range_bytes / eb * GP_L2_LINE_BYTES, span)
                : span;
    out->dram_bytes = (named <= l2cap ? out->dram_bytes
                                      : cost + lines / warps * tlb_dram_bytes(d, named)) *
                      (1 - warm);
}

/*
 * op's traffic where other instructions complete its sectors, over what
 * global_cost charged it alone (`bytes`, `lbytes`, `dbytes`: the bytes of its
 * sectors, of what an L1 miss asks of L2, of what a DRAM miss fetches).
 *  - Stores: DRAM sees each sector once: the share that siblings or the next
 *    iteration (short_reuse) complete, and the re-writes of what the L2
 *    holds (rewrite_share), never reach it. Where the card measures its
 *    store path (l1_store_bytes_per_cycle), the instruction holds it for its
 *    requests (sector_use); the L2 sees the requests' sectors.
 *  - Loads whose siblings complete their sectors without re-reading an
 *    element: the first of the warp to a sector brings it (what a lone
 *    access costs, without the siblings counted as re-reads of the buffer:
 *    its own re-reads and the L2's warm bytes); the others hit it in L1 (in
 *    L2 where global loads bypass L1).
 */
static void sibling_traffic(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                            const gp_occupancy_t *occ, const gp_mem_rules_t *r, int cached,
                            double bytes, double lbytes, double dbytes, double l2cap,
                            gp_op_cost_t *out)
{
    double near = 0, dist = 0, unit = d->sector_bytes ? d->sector_bytes : 32;
    double fetch = d->dram_fetch_bytes ? d->dram_fetch_bytes : unit;
    sector_use_t u, ud; /* in sectors; in DRAM fetch granules (dbytes' unit) */
    if (!r->has_l2 || !k->ops || op < k->ops || op >= k->ops + k->n_ops || !sector_op(op))
        return;
    sector_use(d, k, op, (uint32_t)unit, &u);
    if (fetch != unit)
        sector_use(d, k, op, (uint32_t)fetch, &ud);
    else
        ud = u;
    if (op->kind == GP_OP_STORE) {
        short_reuse(d, k, op, occ, (uint32_t)fetch, bytes, &near, &dist);
        out->dram_bytes *=
            GP_MIN(ud.share * ud.block * (1 - near), 1 - rewrite_share(d, k, op, l2cap));
        if (u.merged)
            out->l2_bytes *= u.share;
        if (d->l1_store_bytes_per_cycle > 0) /* the SM's store path */
            out->store_cycles = u.requests * unit / d->l1_store_bytes_per_cycle;
        return;
    }
    if ((u.share < 1 || ud.share < 1) && u.disjoint) {
        double h1 = 0, h2 = l2_reuse_hit(d, k, op, l2cap, unit, 0, 1, resident_blocks(d, occ), NULL);
        if (cached) {
            double l1 = op->space == GP_SPACE_TEXTURE && d->readonly_cache_bytes
                            ? (double)d->readonly_cache_bytes
                            : (double)occ->l1_bytes_available;
            double sms;
            h1 = reuse_hit(k, op, l1 * l1_sharers(d, k, op, unit, &sms), unit, 0, 0, 1, NULL);
            out->l1_bytes = bytes * (1 - u.share * (1 - h1));
            out->l2_bytes = u.share * (1 - h1) * lbytes;
        } else {
            out->l2_bytes = lbytes;
        }
        out->dram_bytes = ud.share * (1 - h1) * (1 - h2) * dbytes;
    }
}

/* 1 when the op after an atomic waits for it: its result is used (ATOM), or
   it is a loop on its own result (a float add on shared memory where the
   device file gives the compare-and-swap loop's costs, shared_cas_loop). */
int gp_atomic_waits(const gp_device_t *d, const gp_op_t *op)
{
    if (op->kind != GP_OP_ATOMIC)
        return 0;
    if (op->access.atomic_flags & GP_ATOMIC_RESULT)
        return 1;
    return op->space == GP_SPACE_SHARED && op->access.atomic_op == GP_ATOMIC_OP_FADD &&
           d->shared_cas_cycles > 0 && d->shared_cas_fail_cycles > 0;
}

/* 1 for a stream (pattern unit or stride, no index function): warp after
   warp its requests tile the footprint, so global_cost fetches from DRAM
   what its aligned form spans, not the whole units its requests touch. */
static int dense_stream(const gp_access_t *a)
{
    return !a->sample && (a->pattern == GP_PATTERN_UNIT || a->pattern == GP_PATTERN_STRIDE);
}

/* The bytes from one lane's element of a stream to the next lane's: its
   stride (at least 1) times the element's size. */
static double stream_lane_bytes(const gp_access_t *a)
{
    double stride = a->pattern == GP_PATTERN_STRIDE ? fabs((double)a->stride_elems) : 1;
    return GP_MAX(stride, 1.0) * (a->elem_bytes ? a->elem_bytes : 4);
}

/* Cost of a global, local, texture or constant access (load/store/atomic). */
/*
 * A warp-uniform load that hits L1 (every active lane reads one element,
 * `pos[j]` read by every thread): its latency and the SM cycles the L1 is
 * busy with it, where the card measures them (l1_uniform_hit_cycles and
 * l1_uniform_word_cycles; l1_uniform_issue_cycles and, per further 4-byte
 * word, l1_bank_pass_issue_cycles): the L1 broadcasts the element one
 * 4-byte word after another. On the H200 a 4-byte one waits 35.4 cycles
 * (a float4 one 11.7 more: [sources: h200-cal] run8/tiles bcast rows, one
 * warp per SM) and keeps the L1 1.02 cycles, a float4 one 3.0 more, a pass
 * per quarter-warp (run9/uniform, 32 and 64 warps per SM). 0 for *lat and
 * *busy where the card does not know.
 */
static void uniform_l1(const gp_device_t *d, const gp_access_t *a, double *lat, double *busy)
{
    double words = ceil((a->elem_bytes ? a->elem_bytes : 4) / 4.0);
    *lat = d->l1_uniform_hit_cycles > 0
               ? d->l1_uniform_hit_cycles + (words - 1) * d->l1_uniform_word_cycles
               : 0;
    *busy = d->l1_uniform_issue_cycles > 0
                ? d->l1_uniform_issue_cycles + (words - 1) * d->l1_bank_pass_issue_cycles
                : 0;
}

/*
 * The cycles an L1 hit of a load whose lanes read many addresses waits
 * beyond l1_hit_cycles: the warp-uniform load's first-word wait holds for
 * it too, where its value feeds arithmetic. A chase's hop (access.depends:
 * the next address is the value) waits l1_hit_cycles, 32.0 on the H200; a
 * loop whose every trip loads one element from L1 and adds it up takes the
 * same cycles a trip whether the warp's lanes read one word or 32
 * consecutive ones: 68.0 against 68.0 cycles (float), 77.0 against 77.0
 * (float4), 73.0 against 73.0 with 4 dependent FFMA ([sources: h200-cal]
 * run10/loopchain loopchain_cycles.csv, lc_*_uni_* against lc_*_coal_*,
 * one warp per SM), and 1 to 8 independent loads a trip 47.1, 66.3, 78.5,
 * 101.4 (one address) against 48.4, 64.7, 73.5, 99.1 (32; run9/uniform2
 * uni_l1, coal_l1). The card does not keep the chase's shorter wait for a
 * value the FP pipe takes. 0 for a chase's hop and where the card does not
 * know both waits.
 */
static double value_l1_extra(const gp_device_t *d, const gp_access_t *a)
{
    if (a->depends || !(d->l1_hit_cycles > 0) || !(d->l1_uniform_hit_cycles > d->l1_hit_cycles))
        return 0;
    return d->l1_uniform_hit_cycles - d->l1_hit_cycles;
}

/*
 * A drawn gather's first touches of its buffer, by the DRAM's fetch
 * granules: the share of a request's granules that no earlier draw of the
 * launch touched, (1 - e^{-x}) / x for the launch's D granule touches over
 * the G granules of the range, x = D / G, counted over every drawn gather
 * of the buffer together (their draws land on the same granules); *front
 * the share of the touches that are not first, which is how far the first
 * touches come before the rest (most of them in the first G touches where x
 * is large; spread over the launch, a stream, where every touch is a first
 * one); *lines_fp the bytes of the lines those touches occupy in the L2
 * (a line per touched line however few of its granules are fetched). ncu
 * reads a buffer the L2 holds from DRAM once by its 64-byte
 * granules ([sources: h200-cal] run31 and run33 ncu_gfoot.csv, 1.00 of the
 * footprint from 1 to 16 MiB). A chase whose steps draw their addresses
 * counts alike: its draws land on the granules as a gather's do (run37
 * sweepg: 32 lanes a warp, each gather's address waiting for the last
 * value, take what the independent gathers take, 913 us for four a lane
 * over 64 MiB; counted a line a step their traffic was 34% more). -1 where
 * op is not a drawn read.
 */
static double gather_first_granules(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                                    double *front, double *lines_fp)
{
    double gran = GP_MAX((double)d->sector_bytes, (double)d->dram_fetch_bytes), touches = 0;
    double units, x, first, rl, rp, rr, lone, line = GP_MAX((double)d->sector_bytes,
                                                            (double)d->l1_line_bytes);
    uint32_t j;
    *front = 0;
    *lines_fp = 0;
    if (!(gran > 0) || !k || !k->ops || !drawn_read(k, op))
        return -1;
    for (j = 0; j < k->n_ops; j++) {
        const gp_op_t *o = &k->ops[j];
        double e = o->access.elem_bytes ? o->access.elem_bytes : 4;
        double act = active_lanes(d, k, &o->access);
        if (o->kind != GP_OP_LOAD || o->access.buffer != op->access.buffer || !drawn_read(k, o) ||
            !(act > 0) || draw_follower(k, j))
            continue;
        request_lines(&o->access, GP_MIN(d->warp_size, 64u), (uint32_t)gran, &rl, &rp, &rr, &lone);
        touches += request_bytes(k, o) / e / act * GP_MAX(rl, 1.0);
    }
    units = drawn_units(&op->access, gran);
    if (!(touches > 0) || !(units > 0))
        return -1;
    x = touches / units;
    first = x < 1e-9 ? 1 : -expm1(-x) / x;
    *front = 1 - first;
    units = drawn_units(&op->access, line);
    *lines_fp = units * line * -expm1(-touches / units);
    return first;
}

/* 1 when one of k's ops stores to shared memory or copies to it (a kernel
   that stages its tiles). */
static int kernel_stages(const gp_kernel_t *k)
{
    uint32_t i;
    for (i = 0; k->ops && i < k->n_ops; i++)
        if ((k->ops[i].kind == GP_OP_STORE || k->ops[i].kind == GP_OP_ASYNC_COPY) &&
            k->ops[i].space == GP_SPACE_SHARED)
            return 1;
    return 0;
}

/*
 * The share of op's reads that wait for a line's fill in flight where the
 * L2 counts them hits: a cold line that several blocks of one wave read at
 * the same step is fetched once, and every one of them waits for it, as
 * abreast_warps says of an SM's warps. The naive SGEMM at n = 256, one wave
 * of blocks whose column reads one line of B a step together, waits about
 * 960 cycles for each batch of six steps (its 12 loads in flight) and 653 a
 * step with one copy, the DRAM's time, where the L2 share of the other
 * blocks' reads gave 313 ([sources: h200-cal] run21/naive; the event time
 * less the queued launch over its 256 steps). The share: the first wave's
 * (1 / waves, where the blocks that share a line spread over the waves), of
 * the reads that are a warp's first of their lines (its footprint over its
 * reads: the block's warps that read a line at one step wait for it alike),
 * of those the re-reads of lines other blocks read (1 - the grid's
 * footprint over the blocks' footprints together), of lines not warm in L2
 * at the start; loads not drawn. Not in a kernel that stages its tiles in
 * shared memory: the waits of its copy
 * loops are the block's (blockcost.c copy_wait_extra). `held`: the blocks
 * the GPU holds at once.
 */
static double wave_in_flight(const gp_kernel_t *k, const gp_op_t *op, double held)
{
    const gp_lane_sample_t *s = op->access.sample;
    double blocks = (double)k->total_blocks, grid, all, per, first, warm = 0;
    if (!s || s->drawn || !(blocks > 1) || s->grid_footprint_bytes == 0)
        return 0;
    grid = (double)s->grid_footprint_bytes;
    all = (double)s->block_footprint_bytes * blocks;
    if (!(all > grid) || kernel_stages(k)) /* the ops' walk last: the cheap tests first */
        return 0;
    per = gp_op_grid_bytes(k, op) / (blocks * GP_MAX(block_warps(k, s->lanes), 1.0));
    first = per > 0 ? GP_MIN(1.0, (double)s->warp_footprint_bytes / per) : 0;
    if (reads_buffer(op))
        warm = GP_MIN(1.0, warm_bytes(k, op->access.buffer) / grid);
    return GP_MIN(1.0, GP_MAX(held, 1.0) / blocks) * first * (1 - grid / all) * (1 - warm);
}

static int global_cost(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                       const gp_op_t *at, const gp_occupancy_t *occ, const gp_residency_t *res,
                       const gp_mem_rules_t *r, gp_op_cost_t *out, char *err, size_t errlen)
{
    const gp_access_t *a = &op->access;
    uint32_t seg, min_seg, fill, lanes;
    double act = active_lanes(d, k, a); /* the lanes that access, on average */
    double txn, bytes, h1 = 0, h2 = 0, l1h = 0, l2h = 0, lbytes, dram_fetch, dbytes, l2_lat, mem_lat;
    double near = 0, near_dist = 0, cold = 0, near_hit = 0, l2_near = 0, dram_lat, fp;
    double stream = 0; /* the misses are a stream's new units (stream_miss) */
    double req_n;      /* the lines whose lane hits a request's all-hit chance compounds */
    double req_lines = 0, req_passes = 0, req_runs = 0, req_lone = 0, chase_h = -1, chase_cold = 0,
           chase_warps = 1, chase_dram_lanes = 0, drawn_dram = -1;
    double l2cap = res->l2_capacity_bytes > 0 ? res->l2_capacity_bytes : (double)d->l2_bytes;
    double held = resident_blocks(d, occ); /* blocks the GPU holds at once */
    int is_store = op->kind == GP_OP_STORE, is_atomic = op->kind == GP_OP_ATOMIC;
    int cached = l1_caches(r, d, k, op), sparse = 0;
    uint32_t sp = op->space;

    if (a->elem_bytes == 0 || a->elem_bytes > 16) {
        snprintf(err, errlen, "memory access of %u bytes per thread", a->elem_bytes);
        return -1;
    }
    seg = r->segment_bytes[size_index(a->elem_bytes)];
    if (seg == 0)
        seg = d->sector_bytes;
    min_seg = r->min_segment_bytes ? r->min_segment_bytes : seg;
    if (sp == GP_SPACE_GLOBAL && cached && r->l1_global_segment_bytes) {
        /* an L1 that caches whole lines serves global loads in lines */
        seg = min_seg = r->l1_global_segment_bytes;
    }
    fill = sp == GP_SPACE_TEXTURE && r->texture_segment_bytes ? r->texture_segment_bytes
                                                               : r->l1_segment_bytes;
    /* only the lanes that access count: a block of one thread is one lane */
    lanes = (uint32_t)GP_MIN((double)d->warp_size,
                             GP_MAX(1.0, ceil(act - 1e-9)));
    if (a->sample)
        lanes = d->warp_size; /* the sample marks its idle lanes itself */
    txn = gp_coalesce_access(a, lanes,
                             &(gp_coalesce_rule_t){r->coalesce_threads, seg, min_seg,
                                                   r->strict_coalescing},
                             &bytes);
    /* a random request waits where any of its lines misses (a drawn chase's
       shares are its warps' steps already: drawn_dram_share, chase_l1_hit) */
    req_n = a->pattern == GP_PATTERN_RANDOM && !drawn_chase(k, op) ? GP_MAX(1.0, txn) : 1.0;

    /* what a miss in L1 asks of L2: whole L1 lines where lines are fetched */
    lbytes = bytes;
    if (cached && !is_store && !is_atomic && fill > seg)
        gp_coalesce_access(a, lanes, &(gp_coalesce_rule_t){r->coalesce_threads, fill, fill,
                                                           r->strict_coalescing},
                           &lbytes);

    /* re-use: short (the warp's next iteration) and long (the buffer's
       re-reads: L1 per SM, L2 for the grid); h1/h2 for the traffic (the
       buffer's reads together), l1h/l2h for the latency */
    if (!is_store && !is_atomic) {
        /* a block's own re-reads over its life, for L1 and L2 alike */
        double life_dist, life_sms, life = life_reuse(d, k, at, occ, &life_dist, &life_sms);
        if (sp == GP_SPACE_CONSTANT) {
            double cfp = GP_MAX(1.0, (double)a->footprint_bytes);
            double cc = (double)d->constant_cache_bytes;
            h1 = l1h = cc <= 0 ? 0 : GP_MIN(1.0, cc / cfp);
        } else if (sp == GP_SPACE_LOCAL && cached) {
            double need = (double)occ->active_warps * d->warp_size * a->elem_bytes *
                          GP_LOCAL_SLOTS_PER_THREAD;
            h1 = l1h = need > 0 ? GP_MIN(1.0, (double)occ->l1_bytes_available / need) : 1.0;
        } else {
            double l1 = sp == GP_SPACE_TEXTURE && d->readonly_cache_bytes
                            ? (double)d->readonly_cache_bytes
                            : (double)occ->l1_bytes_available;
            uint32_t unit = cached ? GP_MAX(seg, fill) : d->sector_bytes;
            short_reuse(d, k, at, occ, unit, cached ? GP_MAX(bytes, lbytes) : bytes, &near,
                        &near_dist);
            if (cached) {
                double far1, far1l;
                near_hit = near * lru_hit(near_dist, l1, 0);
                l1_reuse(d, k, at, l1, held, &far1, &far1l);
                {
                    /* what the warp reads first of lines the buffer's other
                       loads bring is another warp's or block's, another
                       SM's L1 for all it says: its own re-reads only */
                    if (far1 > far1l) {
                        double fresh = warp_fresh(k, at, unit), seen;
                        far1 = fresh * far1l + (1 - fresh) * far1;
                        /* and what it read itself with loads now done is
                           in its L1, where the L1 keeps the buffer's reads */
                        seen = far1 > far1l ? warp_done(k, at, unit) : 0;
                        if (seen > 0)
                            far1l = GP_MAX(far1l, GP_MIN(far1, seen));
                    }
                }
                {
                    /* the block's own re-reads of its window stay in its SM's L1:
                       the window (every load of the buffer together, halos
                       included) counts the first touches better than one
                       load's footprint, and spreads them over the loads */
                    double bdist, fb = block_reuse(k, at, occ, unit, &bdist);
                    if (fb > 0) {
                        fb *= lru_hit(bdist, l1, 0);
                        if (fb > 0)
                            far1 = fb;
                        far1l = GP_MAX(far1l, fb);
                    }
                }
                if (life > 0) { /* a block's own re-reads over its life */
                    double fl = life * lru_hit(life_dist, l1, 0);
                    far1 = GP_MAX(far1, fl);
                    far1l = GP_MAX(far1l, fl);
                }
                {
                    /* the block's other warps at the same iteration: hits
                       for the traffic, not for the latency (they ask for
                       the line while its fill is in flight, as
                       abreast_warps says of the grid's warps): the naive
                       SGEMM's `#pragma unroll 1` loop, whose 32x8 block
                       reads one new line of B a step, takes 430 cycles a
                       step at n = 1024, an L2 round trip ([sources:
                       h200-cal] run21/naive naive_*_u1, -20..-48% ->
                       -8..-23% with the hits taken as misses) */
                    double sdist, sib;
                    sibling_reuse(k, at, occ, unit, GP_MAX(bytes, lbytes), &sib, &sdist);
                    if (sib > 0) {
                        sib *= lru_hit(sdist, l1, 0);
                        far1 = GP_MAX(far1, sib);
                    }
                }
                {
                    /* warps that read the same lines at the same step wait
                       for one fill (abreast_warps): each waits as a lone
                       warp would, its own re-reads its only hits */
                    double w = abreast_warps(d, k, at, occ, unit);
                    if (w > 1)
                        far1l = GP_MAX(0.0, 1 - w * (1 - far1l));
                }
                {
                    /* loads that all draw their addresses: the SM's own
                       draws, by sectors and lines (irm_l1_hit); the
                       sectors an earlier load of its draws group asked
                       for hit */
                    double hi, hl, cover = draw_group_cover(k, at, unit);
                    if (irm_l1_hit(d, k, at, l1, req_n, &hi, &hl)) {
                        far1 = hi;
                        far1l = hl;
                    }
                    far1 = 1 - (1 - far1) * (1 - cover);
                    far1l = 1 - (1 - far1l) * (1 - cover);
                }
                h1 = GP_MAX(near_hit, far1);
                l1h = GP_MAX(near_hit, far1l);
                /* every unit the warp touches first at an iteration
                   misses, one iteration after another: a stream */
                stream = stream_share(at, unit, 1 - l1h);

                {
                    /* a chase through drawn addresses: the measured L1 edge */
                    double ch = chase_l1_hit(d, k, at, occ, l1, &chase_cold, &chase_warps);
                    if (ch >= 0) {
                        chase_h = ch;
                        h1 = l1h = ch * (1 - chase_cold);
                    }
                }
            }
        }
        /* L2 sees what L1 missed; its misses, as a share of all the reads,
           are its own compulsory and capacity misses (short re-use stays
           within any L2) */
        if (r->has_l2 && sp != GP_SPACE_CONSTANT && !(sp == GP_SPACE_LOCAL)) {
            double m2 =
                (1 - near) * (1 - l2_reuse_hit(d, k, at, l2cap, d->sector_bytes, 1, 1, held, &cold));
            double m2l =
                (1 - near) * (1 - l2_reuse_hit(d, k, at, l2cap, d->sector_bytes, 0, 1, held, NULL));
            double cm = drawn_dram_share(d, k, at, l2cap, &chase_dram_lanes);
            if (life > 0) {
                /* the blocks' own re-reads: the SMs' resident blocks together */
                double fl = life * lru_hit(life_dist * life_sms, l2cap, 0);
                m2 = GP_MIN(m2, 1 - fl);
                m2l = GP_MIN(m2l, 1 - fl);
            }
            if (m2 < m2l) {
                /* the grid shares one L2: what the warp reads first, of lines
                   the buffer's other loads bring (other warps' and blocks'),
                   waits as the buffer's reads together hit */
                double fresh = warp_fresh(k, at, d->sector_bytes);
                m2l = fresh * m2 + (1 - fresh) * m2l;
            }
            if (cm >= 0) /* drawn reads' warps (a chase's steps, a gather's
                            requests): by their slowest lanes */
                m2l = drawn_dram = (1 - near) * cm;
            else
                m2l = GP_MAX(m2l, (1 - near) * wave_in_flight(k, at, held));
            h2 = after_l1(m2, h1);
            l2h = after_l1(m2l, l1h);
        } else if (r->has_l2) {
            h2 = after_l1(1.0 - l2_reuse_hit(d, k, at, l2cap, d->sector_bytes, 1, 1, held, NULL), h1);
            l2h = after_l1(1.0 - l2_reuse_hit(d, k, at, l2cap, d->sector_bytes, 0, 1, held, NULL),
                           l1h);
        }
    }
    if (broadcast_shorthand(a) && !is_store && !is_atomic && cached) {
        h1 = GP_MAX(h1, GP_BROADCAST_MIN_HIT); /* one element per warp: the other warps hit */
        l1h = GP_MAX(l1h, GP_BROADCAST_MIN_HIT);
    }

    /* DRAM: what misses fetch, in the DRAM's own granule */
    dram_fetch = d->dram_fetch_bytes ? d->dram_fetch_bytes : d->sector_bytes;
    dbytes = lbytes;
    /* a sample's lanes say themselves whether they share sectors: the
       measured sparse cost only where every active lane has its own */
    if (a->sample && bytes < act * d->sector_bytes)
        sparse = -1;
    if (r->has_l2 && !is_store && near <= 0 && sparse >= 0 && sparse_read_bytes(d, a) > 0) {
        /* reads too far apart to share a sector, never re-used: the
           measured cost per read, for the lanes that read */
        dbytes = GP_MIN((double)lanes, act) * sparse_read_bytes(d, a);
        sparse = 1;
    } else if (r->has_l2 && near <= 0 &&
               (dram_fetch > GP_MAX(seg, cached ? fill : 0) || dense_stream(a))) {
        double fetched = 0;
        gp_access_t al = *a;
        /* a stream (dense_stream) fetches from DRAM the share of its
           footprint a warp's request spans, where the units its request
           fetches (granules, L1 lines) are its neighbours' too: the warps'
           requests tile the footprint, and DRAM moves each unit once,
           whichever warp asks first. A stream shifted off the granules'
           boundaries (`offset`) fetches what its aligned form does
           ([sources: h100-cal] run63/misdram: in[i + off] over 64 and 256
           MiB, off = 0 to 32 floats, DRAM bytes read equal to the footprint
           at every offset, ncu); a stream of bytes, 32 bytes a warp, moves
           its 32 bytes of each 64-byte granule, not the granule. Where the
           lanes are further apart than a unit, each lane's unit is its own:
           the fetch stays the request's */
        int dense = dense_stream(a);
        if (dense)
            al.offset_elems = 0;
        gp_coalesce_access(&al, lanes,
                           &(gp_coalesce_rule_t){r->coalesce_threads, (uint32_t)dram_fetch,
                                                 (uint32_t)dram_fetch, r->strict_coalescing},
                           &fetched);
        dbytes = GP_MAX(lbytes, fetched);
        if (dense) {
            /* the lanes `step` bytes apart; a unit or more apart (strided),
               the units between them are nobody's */
            double step = stream_lane_bytes(a), e = a->elem_bytes ? a->elem_bytes : 4;
            if (!(step > e && step >= GP_MAX((double)dram_fetch, (double)fill)))
                dbytes = GP_MIN(dbytes, GP_MAX(act, 1.0) * step);
        }
    }

    /* latencies: an L2 hit beyond the near partition's share of the
       footprint costs l2_random_cycles; DRAM for data-dependent addresses
       dram_random_cycles; a footprint beyond the TLB reach adds misses */
    fp = footprint_of(a);
    l2_lat = r->has_l2 && d->l2_hit_cycles > 0 ? d->l2_hit_cycles : d->dram_cycles;
    if (r->has_l2 && r->l2_partitions > 1 && d->l2_random_cycles > 0 && d->l2_hit_cycles > 0 &&
        fp > l2cap / r->l2_partitions)
        l2_lat = d->l2_random_cycles;
    dram_lat = a->pattern == GP_PATTERN_RANDOM && d->dram_random_cycles > 0
                   ? d->dram_random_cycles
                   : d->dram_cycles;
    {
        /* the launch ends with its slowest SM (slowest_sm) */
        double g = slowest_sm(d, k);
        l2_lat *= 1 + g * (GP_MAX(d->l2_slowest_sm_ratio, 1.0) - 1);
        dram_lat *= 1 + g * (GP_MAX(d->dram_slowest_sm_ratio, 1.0) - 1);
    }
    if (a->pattern == GP_PATTERN_RANDOM && d->tlb_reach_bytes > 0 && d->tlb_miss_cycles > 0 &&
        fp > (double)d->tlb_reach_bytes) {
        double miss = 1.0 - (double)d->tlb_reach_bytes / fp;
        l2_lat += miss * d->tlb_miss_cycles;
        dram_lat += miss * d->tlb_miss_cycles;
    }
    l2_near = l2h;
    mem_lat = l2_near * l2_lat + (1 - l2_near) * dram_lat;
    if (sp == GP_SPACE_CONSTANT)
        out->latency_cycles = d->constant_cycles > 0 ? d->constant_cycles : l2_lat;
    else
        out->latency_cycles = l1h * (d->l1_hit_cycles > 0 ? d->l1_hit_cycles : l2_lat) +
                              (1 - l1h) * mem_lat;
    /* where the requests are served, for dependent chains: a warp waits
       for its slowest lane, and lanes drawn at random hit or miss
       independently, so a request of n sectors hits L1 only when all do */
    if (op->kind == GP_OP_LOAD && sp != GP_SPACE_CONSTANT) {
        int by_lines = d->l1_line_cycles > 0 || d->l1_bank_pass_cycles > 0 ||
                       d->l2_line_cycles > 0 || d->dram_lines_log2_cycles > 0 ||
                       d->l1_bank_pass_issue_cycles > 0 || d->l1_line_issue_cycles > 0;
        double rl, rp, rr;
        /* (the lines count where the card measures what they cost: the
           lone sectors' L2 requests alone leave the rest as it was) */
        if (by_lines || d->sparse_read_l2_bytes > 0)
            request_lines(a, lanes, d->l1_line_bytes ? d->l1_line_bytes : 128, &rl, &rp, &rr,
                          &req_lone);
        if (by_lines) {
            req_lines = rl;
            req_passes = rp;
            req_runs = rr;
        }
    }
    if (sp != GP_SPACE_CONSTANT) {
        /* a drawn chase's request waits for its slowest lane where the L1
           edge rule gives a lane's share (the re-visits) */
        double n = req_n;
        double below = r->has_l2 ? 1 - (1 - l1h) * (1 - l2h) : l1h; /* L1 or L2 */
        out->l1_hit = pow(l1h, n);
        if (chase_h >= 0) /* the re-visits lane by lane, the first laps together */
            out->l1_hit = (1 - chase_cold) * pow(chase_h, GP_MAX(1.0, req_lines / chase_warps));
        out->dram_hit = 1 - pow(below, n);
        if (n > 1 && drawn_dram >= 0 && !is_atomic) /* a drawn gather's requests */
            out->dram_hit = GP_MIN(drawn_dram, 1 - out->l1_hit);
        out->l2_hit = GP_MAX(0.0, 1 - out->l1_hit - out->dram_hit);
        if (((a->pattern == GP_PATTERN_RANDOM && n > 1) || chase_h >= 0) && !is_atomic)
            out->latency_cycles =
                out->l1_hit * (d->l1_hit_cycles > 0 ? d->l1_hit_cycles : l2_lat) +
                out->l2_hit * l2_lat + out->dram_hit * dram_lat;
        if (req_lines > 1 || req_passes > 1) {
            /* the request's lines queue where it is served */
            double x1, x2, x3;
            lines_latency(d, req_lines, req_passes, req_runs, &x1, &x2, &x3);
            if (chase_dram_lanes >= 1) /* a drawn chase's step that reaches DRAM waits
                                          there for the lanes that miss the L2 */
                x3 = GP_MAX(log2(GP_MIN(chase_dram_lanes, GP_MAX(req_lines, 1.0))) *
                                d->dram_lines_log2_cycles,
                            x2);
            out->latency_cycles += out->l1_hit * x1 + out->l2_hit * x2 + out->dram_hit * x3;
        }
        if (op->kind == GP_OP_LOAD) /* what misses L1 is translated first */
            out->latency_cycles += (1 - out->l1_hit) * tlb_wait(d, k, a, req_lines);
    } else {
        out->l1_hit = 1;
    }

    out->pipe_cycles[GP_PIPE_LDST] = (double)d->warp_size / d->ldst_lanes;
    /* a global load holds its scheduler global_load_issue_cycles of the
       generation's slots (the issue gp_op_cost_default gave it), not one:
       where the issue slots bound them, L1 hits through LDG.E,
       LDG.E.CONSTANT or LDG.E.STRONG.SM alike take 0.368 SM cycles a load
       more than their instructions' slots (0.24 to 0.45 by form), at
       immediate offsets or behind a 64-bit add or an index's LEA
       ([sources: h200-cal] run38/lform, run39/lform: 64 warps per SM, 1.57
       against 1.13 slots a load with a 64-bit add and an FADD, 1.80
       against 1.41 with an FADD and an FFMA, 2.14 against 1.47 a pair of
       loads and an FFMA) */
    if (op->kind == GP_OP_LOAD && sp != GP_SPACE_CONSTANT)
        out->pipe_cycles[GP_PIPE_ISSUE] *= GP_MAX(1.0, d->global_load_issue_cycles);
    /* the L1 data path moves a line of a request's data a clock; a load
       with its own address arithmetic holds it at least what the card is
       measured to return a line a clock (l1_load_bytes_per_cycle, the mlp
       rows' IMAD.WIDE a load), a request of a line or less that share of
       it: the arithmetic is the instruction's, not its lines'. A load
       addressed at an immediate offset from a sibling's register has none
       ([sources: h200-cal] run14/addr: 1.08 SM cycles a line at 64 warps
       per SM for LDG at immediate offsets, 2.21 with an IMAD.WIDE a load;
       run29/gfoot: 32 random words a request, each address its own
       IMAD.WIDE, 9.7 SM cycles a request from L1 at 64 warps per SM, their
       32 sectors' bytes at that rate would be 16.6; run19/misalign: a
       float4 request 4.03) */
    {
        double line = d->l1_line_bytes ? (double)d->l1_line_bytes : 128;
        double data = cached || sp == GP_SPACE_LOCAL ? l1_data_bytes(d, a, act, txn * seg, seg) : 0;
        double arith = op->kind == GP_OP_LOAD && d->l1_load_bytes_per_cycle > 0 &&
                               !offset_sibling(k, op)
                           ? GP_MIN(data, line) / GP_MIN(d->l1_load_bytes_per_cycle, line)
                           : 0;
        out->pipe_cycles[GP_PIPE_L1] = GP_MAX(data / line, arith);
    }
    if (cached && op->kind == GP_OP_LOAD && out->pipe_cycles[GP_PIPE_L1] > 0) {
        /* a request of scattered lines: a pass per line on one bank column,
           and the lines themselves ([sources: h200-cal] chase rows); the
           L1 serves a warp's 8- and 16-byte lanes in half- and quarter-warp
           phases of one line each, so a request takes at least a pass per
           phase: a float4 load of one, two or four lines takes four
           ([sources: h200-cal] run9/uniform ind_l1_f4 rows) */
        double phases = sp == GP_SPACE_CONSTANT
                            ? 0
                            : ceil(lanes * (double)a->elem_bytes /
                                       (d->l1_line_bytes ? d->l1_line_bytes : 128) - 1e-9);
        out->pipe_cycles[GP_PIPE_L1] =
            GP_MAX(out->pipe_cycles[GP_PIPE_L1],
                   GP_MAX(GP_MAX(req_passes, phases) * d->l1_bank_pass_issue_cycles,
                          req_lines * d->l1_line_issue_cycles));
    }
    if (op->kind == GP_OP_LOAD)
        out->lines = GP_MAX(req_runs, 1.0);
    if (op->kind == GP_OP_LOAD && stream > 0 && chase_h < 0 && !(l1h > near_hit + 1e-12) &&
        sp != GP_SPACE_CONSTANT)
        out->stream_miss = 1 - l1h;
    if (cached && op->kind == GP_OP_LOAD && sp != GP_SPACE_CONSTANT) {
        if (gp_access_uniform(a)) {
            double ulat, ubusy;
            uniform_l1(d, a, &ulat, &ubusy);
            if (ulat > 0)
                out->latency_cycles +=
                    out->l1_hit * (ulat - (d->l1_hit_cycles > 0 ? d->l1_hit_cycles : l2_lat));
            out->pipe_cycles[GP_PIPE_L1] = GP_MAX(out->pipe_cycles[GP_PIPE_L1], ubusy);
        } else {
            out->latency_cycles += out->l1_hit * value_l1_extra(d, a);
        }
    }
    out->transactions = txn;
    out->l1_bytes = cached ? h1 * bytes : 0;
    out->l2_bytes = (1 - h1) * lbytes;
    /* the L2 serves a request of one sector of a line at its request rate,
       not its bytes' ([sources: h200-cal] run10/scatter ws=l2 rows: random
       lines at 1.52 SM cycles each on 132 SMs whether 1, 2, 4 or 8 lanes
       read words of the one sector, where 4 sectors a line run at the L2's
       bandwidth) */
    if (op->kind == GP_OP_LOAD && sp != GP_SPACE_CONSTANT && req_lone > 0 &&
        d->sparse_read_l2_bytes > d->sector_bytes)
        out->l2_request_bytes = (1 - h1) * req_lone * (d->sparse_read_l2_bytes - d->sector_bytes);
    /* the L1 keeps a line for each miss in flight, for as long as the miss
       waits ([sources: h200-cal] run28/l1cap: with a 28 KiB L1, 224 lines,
       random lines come back 1.96 SM cycles apart from L2 and 7.81 from
       DRAM whatever the warps; with 60 KiB or more at the L2's and DRAM's
       rates) */
    if (op->kind == GP_OP_LOAD && cached && sp != GP_SPACE_CONSTANT &&
        d->l1_miss_hold_l2_cycles > 0 && d->l1_miss_hold_dram_cycles > 0)
        out->l1_hold_cycles =
            (1 - h1) * GP_MAX(req_lines, 1.0) *
            (h2 * d->l1_miss_hold_l2_cycles + (1 - h2) * d->l1_miss_hold_dram_cycles);
    out->dram_bytes = (1 - h1) * (1 - h2) * dbytes;
    if (r->has_l2 && op->kind == GP_OP_LOAD && sp != GP_SPACE_CONSTANT) {
        /* a drawn gather's DRAM traffic by granules, as far as the L2
           keeps its buffer (drawn_keep of the lines its draws occupy): its
           first touches (gather_first_granules) and the re-visits the L2
           no longer holds, each fetching what a request's miss fetches
           (dbytes); for the share the L2 does not keep, the count above,
           which the gathers over buffers beyond the L2 were measured with
           (sparse_read_bytes, the `scatter` and `tlb` DRAM rows: every draw
           a miss at its measured cost). The first touches that come early
           hold the L2 while their fills arrive, so the L2-bound draws after
           them wait that time too: it joins the L2's time, at the DRAM's
           bandwidth ([sources: h200-cal] run34/gstamp: the trips' excess
           over the settled trip sums to 9030 cycles through 16 MiB, its
           granules' time at the DRAM's bandwidth; bench_gfoot's 16 and
           32 MiB rows take the L2's time of their draws plus that fill) */
        double front, gfp, first = gather_first_granules(d, k, op, &front, &gfp);
        if (first >= 0) {
            double keep = drawn_keep(d, a, gfp, l2cap);
            double w = 0, fillb;
            if (reads_buffer(op) && gfp <= l2cap && drawn_extent(a) > 0)
                w = GP_MIN(1.0, warm_bytes(k, a->buffer) / drawn_extent(a));
            fillb = (1 - h1) * dbytes * first * (1 - w);
            out->dram_bytes = keep * (fillb + (1 - h1) * dbytes * (1 - first) * (1 - keep)) +
                              (1 - keep) * out->dram_bytes;
            if (d->dram_sustained_gbps > 0 && d->l2_bandwidth_gbps > 0)
                out->l2_request_bytes +=
                    front * fillb * d->l2_bandwidth_gbps / d->dram_sustained_gbps;
        }
    }
    /* a random line that reaches DRAM over a span the translation does not
       keep pays its page's walk (tlb_dram_bytes): the request's lines (a
       draw each, or a formula's lanes each on a line of its own) in the
       share of its fetch that reaches DRAM; a stream's lines share pages */
    if (d->tlb_dram_line_bytes > 0 && r->has_l2 && op->kind == GP_OP_LOAD &&
        sp != GP_SPACE_CONSTANT && dbytes > 0 && out->dram_bytes > 0) {
        double span = drawn_extent(a), cover = 0;
        if (!(span > 0) && a->sample && a->sample->byte_offset &&
            scattered_lines(a->sample, footprint_of(a), &cover))
            span = cover; /* a formula's lanes each on a line of their own */
        else if (!(span > 0) && !a->sample && a->pattern == GP_PATTERN_RANDOM)
            span = fp;
        out->dram_bytes += out->dram_bytes / dbytes * GP_MAX(req_lines, 1.0) *
                           tlb_dram_bytes(d, span);
    }
    /* a buffer's first reads reach DRAM whatever hits the re-reads get: the
       short re-use counted above takes its hits from the re-reads, so where
       the neighbours' re-reads hit too (near_distance), the op still
       fetches its share of the footprint */
    if (cold > 0 && a->sample && !a->sample->drawn) {
        /* cold is a share of the request's elements (lane_share), each once */
        double slots = GP_MIN((double)d->warp_size,
                              GP_MAX(1.0, (double)k->launch.threads_per_block));
        out->dram_bytes = GP_MAX(out->dram_bytes, cold * lane_share(k, a) * slots *
                                                      (a->elem_bytes ? a->elem_bytes : 4));
        out->l2_bytes = GP_MAX(out->l2_bytes, out->dram_bytes); /* through the L2 */
    }
    sibling_traffic(d, k, at, occ, r, cached, bytes, lbytes, dbytes, l2cap, out);
    if (r->has_l2 && op->kind == GP_OP_STORE && a->sample)
        drawn_store_traffic(d, k, at, l2cap, out);
    if (!r->has_l2) {
        out->l2_bytes = 0;
        out->dram_bytes = (1 - h1) * bytes;
    }
    (void)sparse;

    if (is_atomic) {
        double gpu, per_cycle_bytes = (r->atomics_in_l2 && d->l2_bandwidth_gbps > 0
                                      ? d->l2_bandwidth_gbps
                                      : d->dram_sustained_gbps) *
                                 1e3 / d->core_clock_mhz;
        double ret_bytes = 0;
        out->latency_cycles = d->atomic_cycles > 0 ? d->atomic_cycles : mem_lat;
        gpu = 0;
        if (sp == GP_SPACE_GLOBAL) {
            atomic_share_t sh;
            double resident = (double)occ->blocks_per_sm * d->sm_count, fp_block;
            bank_geom_t none = {0, 0};
            atomic_sharing(d, k, a, none, &sh);
            /* addresses a block keeps to itself (not drawn, not bins): the
               resident blocks' share of the footprint is what the units see
               at a time (many waves of warps each on its own word walk the
               footprint a wave at a time) */
            fp_block = a->sample && !a->sample->drawn ? (double)a->sample->block_footprint_bytes
                       : !a->sample && !a->bins && a->atomic_scope != GP_ATOMIC_SAME
                           ? sh.footprint / GP_MAX((double)k->total_blocks, 1.0)
                           : 0;
            if (fp_block > 0 && resident > 0 && resident < (double)k->total_blocks)
                sh.footprint = GP_MAX(GP_MIN(sh.footprint, fp_block * resident),
                                      a->elem_bytes ? a->elem_bytes : 4);
            if (sh.uniform && r->aggregates_uniform_atomics) {
                gpu = atomic_uniform_gpu_cycles(d, a, sh.grid_addrs);
                /* one atomic per warp instruction whatever lanes it has: a
                   count below one is a share of the lanes (`count = 1/32`:
                   lane 0 alone), and a warp with any of them still issues
                   one; below one lane per warp, that share of the warps */
                if (op->count > 0 && op->count < 1)
                    gpu *= GP_MIN(1.0, d->warp_size * op->count) / op->count;
            }
            if (gpu > 0 && a->atomic_op == GP_ATOMIC_OP_ADD && d->warp_reduce_lanes > 0) {
                /* the warp reduce before the one RED (REDUX.SUM on sm_90),
                   at the card's measured rate and latency */
                out->pipe_cycles[GP_PIPE_INT] += d->warp_size / d->warp_reduce_lanes;
                out->latency_cycles += d->warp_reduce_cycles;
            }
            if (!(gpu > 0))
                gpu = atomic_unit_gpu_cycles(d, r, a, &sh);
            if (!(gpu > 0))
                gpu = atomic_gpu_cycles(d, a, sh.per_addr, sh.grid_addrs);
            gpu *= sh.issuing;
            /* a used result (ATOM) comes back through the L2-to-SM path as
               a load's data does, a sector per serialised update step (the
               lanes on one word get their old values one step after
               another; an aggregated atomic's one lane, one sector); a RED
               returns nothing ([sources: h200-calibrated] run7 atom: *_atom
               rows against *_red, 0.26 against 0.31 lanes per SM cycle on
               2^20 random bins and 0.21 against 0.27 on warp-uniform ones,
               equal where the units serialise the updates) */
            if (a->atomic_flags & GP_ATOMIC_RESULT)
                ret_bytes = (sh.uniform && r->aggregates_uniform_atomics ? 1.0 : sh.steps) *
                            d->sector_bytes * sh.issuing;
        }
        if (gpu > 0) {
            /* the measured contention: the GPU's atomic units busy for `gpu`
               cycles, expressed as the traffic that fills the whole memory
               path for that long (the SMs' shares add up to it); the read
               and write of distinct words still reach DRAM as they miss */
            out->l2_bytes = r->atomics_in_l2 ? gpu * per_cycle_bytes + ret_bytes : 0;
            out->dram_bytes =
                r->atomics_in_l2
                    ? (a->atomic_scope == GP_ATOMIC_DISTINCT && !a->bins
                           ? (1 - l2_reuse_hit(d, k, at, l2cap, d->sector_bytes, 1, 1, held, NULL)) * 2 * dbytes
                           : 0)
                    : gpu * per_cycle_bytes + ret_bytes;
            out->transactions = gpu;
            return 0;
        }
        switch (a->atomic_scope) {
        case GP_ATOMIC_SAME:
            /* one address for the whole grid: the hardware combines a warp's
               updates, then serialises warps at the address, one per cycle;
               expressed as traffic that fills the whole memory path for a
               cycle, so the SMs' shares add up to that serialisation */
            out->l2_bytes = r->atomics_in_l2 ? per_cycle_bytes : 0;
            out->dram_bytes = r->atomics_in_l2 ? 0 : per_cycle_bytes;
            break;
        case GP_ATOMIC_PER_WARP:
            out->l2_bytes = r->atomics_in_l2 ? d->sector_bytes : 0;
            out->dram_bytes = r->atomics_in_l2 ? 0 : d->sector_bytes * 2.0;
            break;
        default:
            out->l2_bytes = r->atomics_in_l2 ? 2 * bytes : 0; /* read and write */
            out->dram_bytes = r->atomics_in_l2
                                  ? (1 - l2_reuse_hit(d, k, at, l2cap, d->sector_bytes, 1, 1, held, NULL)) * 2 * dbytes
                                  : 2 * bytes;
            break;
        }
    }
    return 0;
}

/* The bank width a launch gets: its own choice where the generation lets
   it choose (4 or 8 bytes), else the generation's. */
static int bank_width(const gp_device_t *d, const gp_kernel_t *k, const gp_mem_rules_t *r,
                      uint32_t *out, char *err, size_t errlen)
{
    uint32_t b = k->launch.bank_bytes;
    *out = r->bank_bytes;
    if (!r->bank_bytes_selectable || b == 0)
        return 0;
    if (b != 4 && b != 8) {
        snprintf(err, errlen,
                 "shared-memory bank size %u bytes: compute capability %u.%u banks are 4 or 8 "
                 "bytes wide",
                 b, d->cc_major, d->cc_minor);
        return -1;
    }
    *out = b;
    return 0;
}

/* The W words that n lanes drawn uniformly from them touch `distinct` of
   (W (1 - (1 - 1/W)^n) = distinct, solved by bisection); n when they are
   all distinct. */
static double drawn_set(double n, double distinct)
{
    double lo = 1, hi = 1e9;
    int i;
    if (distinct >= n - 1e-9)
        return n;
    if (distinct <= 1)
        return 1;
    for (i = 0; i < 100; i++) {
        double mid = sqrt(lo * hi);
        if (mid * (1 - pow(1 - 1 / mid, n)) < distinct)
            lo = mid;
        else
            hi = mid;
    }
    return sqrt(lo * hi);
}

/*
 * The most lanes of a block on one of `kb` bins drawn uniformly (the
 * draws of GP_ATOMIC_BINS_BLOCKS blocks of `lanes` lanes, Knuth's MMIX
 * LCG as atomic_sharing's warps): the turns the block's lanes take on its
 * hottest bin.
 */
static double bins_block_most(double kb, uint32_t lanes)
{
    int64_t v[1024];
    uint32_t i, j, run, top, n = GP_MIN(lanes, 1024u);
    uint64_t x = 0x2545F4914F6CDD1Dull;
    double sum = 0;
    if (kb < 1 || n == 0)
        return 1;
    for (i = 0; i < GP_ATOMIC_BINS_BLOCKS; i++) {
        for (j = 0; j < n; j++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            v[j] = (int64_t)((double)(x >> 11) * 0x1p-53 * kb);
        }
        qsort(v, n, sizeof *v, gp_cmp_i64);
        for (top = 0, j = 0; j < n; j += run) {
            for (run = 1; j + run < n && v[j + run] == v[j]; run++)
                ;
            top = GP_MAX(top, run);
        }
        sum += top;
    }
    return sum / GP_ATOMIC_BINS_BLOCKS;
}

/*
 * A float atomicAdd on shared memory: sm_90 has no shared float add, so the
 * compiler emits a compare-and-swap loop (LDS, FADD, ATOMS.CAST.SPIN, ISETP,
 * BRA, retried while the swap failed, inside a BSSY/BSYNC pair;
 * validation/h200/measured/run7/atom/sass_atom_ops.txt and sass_atom.txt.gz).
 * One lane per word succeeds a turn, and the warps of a block on one word
 * take turns too: a warp iterates `rounds` times, the most lanes of its
 * block on its hottest word (`bins`: drawn, bins_block_most; else its own
 * `most` plus, from each other warp, its lanes spread over the footprint's
 * words, at most its own `most`). Its `most` iterations write, at
 * shared_cas_cycles of the shared pipe each (the first at the access's
 * bank passes, the lanes on one word read it in one); the others fail
 * wholly, at shared_cas_fail_cycles. Every iteration issues its
 * GP_SHARED_CAS_LOOP_INSTRUCTIONS and waits for its read and swap (three
 * shared accesses), the add and the loop's branch, on the warp's chain.
 * [sources: h200-calibrated] run3 calibrate_raw atomic_shared f32_add
 * bins=256 (3.0 cycles per further lane on a word) and run7 atom
 * shared_consec_f32 K=1 (a block's 256 lanes on one word).
 */
static void shared_cas_loop(const gp_device_t *d, const gp_generation_t *g, const gp_kernel_t *k,
                            const gp_op_t *op, const atomic_share_t *sh, double elem,
                            double passes, gp_op_cost_t *out)
{
    double w = d->warp_size, warps = GP_MAX(1.0, ceil((double)k->launch.threads_per_block / w));
    double words = GP_MAX(1.0, sh->footprint / elem);
    double most = GP_MAX(1.0, sh->most), other, rounds;
    /* the words the block's warps draw from at a time: where a warp's lanes
       collide, the set that many distinct words of its lanes imply (n lanes
       drawn from W words touch W (1 - (1 - 1/W)^n)); a loop over the
       footprint (a centroid's d dimensions) walks it a part at a time */
    if (sh->per_addr > 1 && sh->per_addr < sh->lanes)
        words = GP_MIN(words, drawn_set(sh->lanes, sh->lanes / sh->per_addr));
    other = GP_MIN(most, sh->lanes / words);
    if (op->access.bins > 0 && !op->access.sample)
        rounds = bins_block_most((double)op->access.bins, k->launch.threads_per_block);
    else
        rounds = most + (warps - 1) * other;
    rounds = GP_MIN(GP_MAX(rounds, most), warps * w);
    /* the first iteration's bank passes: lanes on one word read it in one
       pass (the LDS broadcasts), the ones on other words of a bank queue */
    if (sh->bank_words > 0) /* the sample's or the drawn bins' words */
        passes = sh->bank_words;
    else
        passes = GP_MAX(1.0, passes - (most - 1));
    out->pipe_cycles[GP_PIPE_SHARED] = d->shared_cas_cycles * (passes + most - 1) +
                                       d->shared_cas_fail_cycles * (rounds - most);
    out->pipe_cycles[GP_PIPE_ISSUE] =
        GP_MAX(out->pipe_cycles[GP_PIPE_ISSUE],
               gp_issue_cycles(g, d, op) *
                   (GP_SHARED_CAS_SETUP_INSTRUCTIONS + GP_SHARED_CAS_LOOP_INSTRUCTIONS * rounds));
    out->latency_cycles =
        rounds * (3 * d->shared_memory_cycles + d->fp32_cycles + d->branch_cycles);
    out->transactions = rounds;
}

/* Cost of a shared-memory access. */
static int shared_cost(const gp_device_t *d, const gp_generation_t *g, const gp_kernel_t *k,
                       const gp_op_t *op, gp_op_cost_t *out, char *err, size_t errlen)
{
    const gp_mem_rules_t *r = g->mem;
    const gp_access_t *a = &op->access;
    uint32_t bt = r->bank_threads ? r->bank_threads : d->warp_size;
    uint32_t groups = d->warp_size / bt ? d->warp_size / bt : 1;
    uint32_t elem = a->elem_bytes ? a->elem_bytes : 4, bank_bytes, ways = a->conflict_ways;
    double passes, pass_cycles, words;
    gp_bank_rule_t rule;
    if (bank_width(d, k, r, &bank_bytes, err, errlen))
        return -1;
    words = elem > bank_bytes ? elem / bank_bytes : 1;
    if (op->kind == GP_OP_ATOMIC && ways == 0 &&
        (a->atomic_scope == GP_ATOMIC_SAME || a->atomic_scope == GP_ATOMIC_PER_WARP))
        ways = bt; /* every lane updates one word: serialised */
    if (ways > 0) {
        passes = (double)groups * ways * words;
    } else {
        rule.banks = r->banks;
        rule.bank_bytes = bank_bytes;
        rule.threads = bt;
        rule.broadcast = r->bank_broadcast;
        rule.wide = r->bank_wide;
        rule.result_bytes = r->bank_result_bytes;
        passes = gp_bank_passes_access(a, d->warp_size, &rule, r->bank_random_by_element != 0,
                                       d->shared_memory_per_sm_bytes);
    }
    if (r->wide_extra_pass_bytes && elem >= r->wide_extra_pass_bytes)
        passes += (double)elem / bank_bytes; /* one more per phase */
    /* one pass moves bank_threads words through the banks, each bank
       bank_pass_bytes of them */
    pass_cycles = (double)bt * (r->bank_pass_bytes ? r->bank_pass_bytes : bank_bytes) /
                  d->shared_memory_bytes_per_clock;
    out->pipe_cycles[GP_PIPE_SHARED] = passes * pass_cycles;
    out->pipe_cycles[GP_PIPE_LDST] = (double)d->warp_size / d->ldst_lanes;
    out->latency_cycles = d->shared_memory_cycles + (passes - groups) * pass_cycles;
    if (op->kind == GP_OP_ATOMIC)
        out->latency_cycles *= 2; /* read, then write */
    out->transactions = passes;
    if (op->kind == GP_OP_ATOMIC && d->shared_atomic_cycles > 0) {
        /* measured: a warp-wide shared atomic to distinct words costs
           shared_atomic_cycles of the shared pipe, and every lane that hits a
           word another lane of the warp hits adds shared_atomic_conflict_cycles
           [sources: h200-calibrated] run3 atomic_shared rows */
        double colliding, issuing, first = d->shared_atomic_cycles;
        atomic_share_t sh;
        bank_geom_t bg;
        bg.banks = r->banks;
        bg.bytes = bank_bytes;
        atomic_sharing(d, k, a, bg, &sh);
        issuing = sh.issuing;
        /* the lanes on one word update it one after another: the most lanes
           a warp has on one word set the passes (run3 calibrate_raw
           atomic_shared u32_add: 1.33, 2.21, 4.19, 8.17, 16.1, 32.1 cycles
           for 1, 2, 4, 8, 16, 32 lanes per word), not the lanes that share
           a word with another (16 of them at two per word); lanes on other
           words of the same bank queue behind them as well: a warp's 32
           lanes on random words of 64 to 1024 (3.5 at most in one bank)
           take 3.73 SM cycles at 64 warps per SM however many words, where
           32 words in 32 banks take 1.84 ([sources: h200-cal] run47/shist
           hash_ret and lane_ret rows) */
        colliding = GP_MAX(GP_MAX(sh.most, sh.bank_lanes), 1.0) - 1;
        out->pipe_cycles[GP_PIPE_SHARED] =
            d->shared_atomic_cycles + d->shared_atomic_conflict_cycles * colliding;
        out->latency_cycles = 2 * d->shared_memory_cycles +
                              d->shared_atomic_conflict_cycles * colliding;
        out->transactions = 1 + colliding;
        if (a->atomic_op == GP_ATOMIC_OP_INC && !(a->atomic_flags & GP_ATOMIC_RESULT) &&
            d->shared_atomic_inc_cycles > 0) {
            /* an increment by a constant, result unused: one ATOMS.POPC.INC
               adds each address's lane count, flat in the lanes per address
               ([sources: h200-calibrated] run4 atomic_shared u32_inc1 rows);
               with the result used each lane needs its own old value, one
               ATOMS.ADD per lane as for a run-time value (run7 atom
               shared_*_u32_atom, sass_atom_ops.txt); distinct words of one
               bank take a pass each, at the per-lane step: 32 lanes on
               random words of 256 and 1024 take 3.37 and 3.67 SM cycles at
               64 warps per SM, on 32 words or fewer 2.05 ([sources:
               h200-cal] run47/shist hash_inc rows) */
            first = d->shared_atomic_inc_cycles;
            out->pipe_cycles[GP_PIPE_SHARED] =
                first + d->shared_atomic_conflict_cycles * GP_MAX(sh.bank_words - 1, 0.0);
            out->latency_cycles = 2 * d->shared_memory_cycles;
            out->transactions = 1;
        }
        if (a->atomic_op == GP_ATOMIC_OP_FADD && d->shared_cas_cycles > 0 &&
            d->shared_cas_fail_cycles > 0)
            shared_cas_loop(d, g, k, op, &sh, elem, passes / groups, out);
        out->pipe_cycles[GP_PIPE_SHARED] *= issuing;
        /* the integer work beside shared atomics does not hide behind their
           passes: a share of the atomic's first pass holds the integer pipe
           as well (its bank-conflict passes do not). Per trip at 64 warps
           per SM, an ATOMS.POPC.INC beside IMAD, SHF, LOP3 and LEA takes
           2.04 SM cycles where the atomic's pass (1.24) and the integer
           ops (1.66) each allow less, and beside VIADD, LOP3 and LEA
           1.54 (1.24 and 1.16): one share fits both loops and bench_atom's
           shared adds of run-time values ([sources: h200-cal] run47 shist
           *_inc, run7 atom shared_* rows: shared_atomic_int_share 0.30).
           It stands in part for the IMADs that the one integer pipe
           carries and the SM runs on its FMA pipe (docs/model.md) */
        if (d->shared_atomic_int_share > 0)
            out->pipe_cycles[GP_PIPE_INT] += d->shared_atomic_int_share * first * issuing;
    }
    if (g->issue && g->issue->shared_passes_hold_issue)
        out->pipe_cycles[GP_PIPE_ISSUE] =
            GP_MAX(out->pipe_cycles[GP_PIPE_ISSUE], passes * pass_cycles);
    return 0;
}

static const char *const TENSOR_NAME[GP_TENSOR_TYPE_COUNT] = {"fp16", "bf16", "tf32",
                                                              "fp64", "int8", "fp8"};

/* The device file's tensor-core rate for a type, per clock per SM. */
static double tensor_rate(const gp_device_t *d, uint32_t type)
{
    switch (type) {
    case GP_TENSOR_FP16: return d->tensor_fp16_flops_per_clock;
    case GP_TENSOR_BF16: return d->tensor_bf16_flops_per_clock;
    case GP_TENSOR_TF32: return d->tensor_tf32_flops_per_clock;
    case GP_TENSOR_FP64: return d->tensor_fp64_flops_per_clock;
    case GP_TENSOR_INT8: return d->tensor_int8_ops_per_clock;
    case GP_TENSOR_FP8: return d->tensor_fp8_flops_per_clock;
    default: return 0;
    }
}

/*
 * Tensor work. A script counts it in flops per thread; the SM issues it as
 * matrix instructions of the generation's shape, each 2mnk flops for the
 * warp. Per thread-flop the tensor pipe is busy warp_size / rate SM cycles,
 * the scheduler spends one issue slot per instruction, and a dependent
 * instruction waits the device's tensor latency (else the generation's
 * default, else the instruction's own time on one scheduler's share of the
 * rate, the least it can take).
 */
static int tensor_cost(const gp_generation_t *g, const gp_device_t *d, const gp_op_t *op,
                       double issue, gp_op_cost_t *out, char *err, size_t errlen)
{
    uint32_t t = op->tensor_type;
    const gp_tensor_rules_t *tr = g->tensor;
    const gp_mma_shape_t *s;
    double rate, warp = d->warp_size, flops_instr, per_thread, busy, lat;
    if (t >= GP_TENSOR_TYPE_COUNT) {
        snprintf(err, errlen, "unknown tensor type %u", t);
        return -1;
    }
    s = tr ? &tr->shape[t] : NULL;
    if (!s || !(s->m && s->n && s->k)) {
        const char *hint = tr && tr->missing_hint[t] ? tr->missing_hint[t] : NULL;
        if (!tr)
            snprintf(err, errlen, "%s (compute capability %u.%u) has no tensor cores", d->name,
                     d->cc_major, d->cc_minor);
        else
            snprintf(err, errlen,
                     "%s (compute capability %u.%u%s%s) has no %s tensor cores%s%s%s; describe "
                     "the work with another tensor type or as %s arithmetic",
                     d->name, d->cc_major, d->cc_minor, g->chips ? ", " : "",
                     g->chips ? g->chips : "", TENSOR_NAME[t], hint ? " (" : "",
                     hint ? hint : "", hint ? ")" : "",
                     t == GP_TENSOR_FP64 ? "fp64" : "fp32/fp16");
        return -1;
    }
    rate = tensor_rate(d, t);
    if (!(rate > 0)) {
        snprintf(err, errlen,
                 "%s has no %s tensor-core rate: set [throughput] tensor_%s_%s_per_clock in "
                 "its device file",
                 d->name, TENSOR_NAME[t], TENSOR_NAME[t], t == GP_TENSOR_INT8 ? "ops" : "flops");
        return -1;
    }
    flops_instr = 2.0 * s->m * s->n * s->k;
    per_thread = flops_instr / warp;
    busy = flops_instr / (rate / (double)d->schedulers_per_sm);
    lat = d->tensor_cycles > 0 ? d->tensor_cycles
          : tr->default_latency_cycles > 0 ? tr->default_latency_cycles
                                           : busy;
    out->pipe_cycles[GP_PIPE_TENSOR] = warp / rate;
    out->pipe_cycles[GP_PIPE_ISSUE] = issue / per_thread;
    out->latency_cycles = lat / per_thread;
    return 0;
}

/* The device's lanes and latency of a pipe, for op rules that name one. */
static void pipe_rate(const gp_device_t *d, uint32_t pipe, double *lanes, double *lat)
{
    switch (pipe) {
    case GP_PIPE_FP64: *lanes = d->fp64_lanes; *lat = d->fp64_cycles; break;
    case GP_PIPE_FP16:
        *lanes = d->fp16_lanes > 0 ? d->fp16_lanes : d->fp32_lanes;
        *lat = d->fp16_cycles > 0 ? d->fp16_cycles : d->fp32_cycles;
        break;
    case GP_PIPE_INT: *lanes = d->int32_lanes; *lat = d->int32_cycles; break;
    case GP_PIPE_SFU: *lanes = d->sfu_lanes; *lat = d->sfu_cycles; break;
    case GP_PIPE_CONV:
        *lanes = d->conversion_lanes > 0 ? d->conversion_lanes : d->sfu_lanes;
        *lat = d->conversion_cycles > 0 ? d->conversion_cycles : d->sfu_cycles;
        break;
    case GP_PIPE_LDST:
    case GP_PIPE_SHARED:
        *lanes = d->ldst_lanes;
        *lat = d->shared_memory_cycles;
        break;
    default: *lanes = d->fp32_lanes; *lat = d->fp32_cycles; break;
    }
}

/* The card's measured rate and latency of a whole op of `kind` (device keys
   written by tools/calibrate; the instruction sequence nvcc emits, measured
   as one op); 0 each when the device file does not give them. */
static void measured_rate(const gp_device_t *d, uint32_t kind, double *lanes, double *lat)
{
    *lanes = *lat = 0;
    switch (kind) {
    case GP_OP_SHFL: *lanes = d->shfl_lanes; *lat = d->shfl_cycles; break;
    case GP_OP_VOTE: *lanes = d->vote_lanes; *lat = d->vote_cycles; break;
    case GP_OP_MATCH: *lanes = d->match_lanes; *lat = d->match_cycles; break;
    case GP_OP_WARP_REDUCE: *lanes = d->warp_reduce_lanes; *lat = d->warp_reduce_cycles; break;
    case GP_OP_IDIV: *lanes = d->idiv_lanes; *lat = d->idiv_cycles; break;
    case GP_OP_FDIV: *lanes = d->fdiv_lanes; *lat = d->fdiv_cycles; break;
    case GP_OP_RCP: *lanes = d->rcp_fast_lanes; *lat = d->rcp_fast_cycles; break;
    default: break;
    }
}

/* An op the generation describes by its rule: `instructions` dependent
   instructions on the rule's pipe, unless the device file measured the op
   itself (then one op at the measured rate and latency, on the rule's
   pipe). */
static int ruled_cost(const gp_device_t *d, const gp_op_rule_t *ru, double issue,
                      gp_op_cost_t *out, char *err, size_t errlen, uint32_t kind)
{
    double lanes, lat, n = ru->instructions > 0 ? ru->instructions : 1, ml, mc;
    pipe_rate(d, ru->pipe, &lanes, &lat);
    if (ru->lanes > 0)
        lanes = ru->lanes;
    if (ru->latency_cycles > 0)
        lat = ru->latency_cycles;
    measured_rate(d, kind, &ml, &mc);
    if (ml > 0) {
        /* the measured sequence: its throughput and latency as a whole; it
           issues its instructions, but the measured rate bounds it */
        out->pipe_cycles[ru->pipe] += d->warp_size / ml;
        out->pipe_cycles[GP_PIPE_ISSUE] = n * issue;
        out->latency_cycles = mc > 0 ? mc : n * lat;
        return 0;
    }
    if (!(lanes > 0)) {
        snprintf(err, errlen, "%s: the device has no %s lanes for %s", d->name,
                 gp_pipe_name(ru->pipe), gp_op_kind_name(kind));
        return -1;
    }
    out->pipe_cycles[ru->pipe] += n * d->warp_size / lanes;
    out->pipe_cycles[GP_PIPE_ISSUE] = n * issue;
    out->latency_cycles = n * lat;
    return 0;
}

double gp_issue_cycles(const gp_generation_t *g, const gp_device_t *d, const gp_op_t *op)
{
    const gp_issue_rules_t *r = g->issue;
    double interval = r && r->interval_cycles ? (double)r->interval_cycles : 1.0;
    double slot = interval / (double)d->schedulers_per_sm;
    double pair = r && r->pair_needs_ilp && !(op->ilp >= 2) ? 1.0 : d->dispatch_per_scheduler;
    if (r && r->fp64_takes_all_schedulers && op->kind == GP_OP_FP64)
        return slot * (double)d->schedulers_per_sm / pair; /* every scheduler's slot */
    return slot / pair;
}

/* 1 when the device's compute capability is below `since`. */
static int before(const gp_device_t *d, gp_cc_t since)
{
    return d->cc_major < since.major || (d->cc_major == since.major && d->cc_minor < since.minor);
}

/* Missing-instruction error, or 0 when the device has it. */
static int need(const gp_device_t *d, gp_cc_t since, const char *what, char *err, size_t errlen)
{
    if (!before(d, since))
        return 0;
    snprintf(err, errlen, "%s needs compute capability %u.%u; %s is %u.%u", what, since.major,
             since.minor, *d->id ? d->id : d->name, d->cc_major, d->cc_minor);
    return -1;
}

int gp_op_available(const gp_generation_t *g, const gp_device_t *d, const gp_op_t *op,
                    char *err, size_t errlen)
{
    const gp_mem_rules_t *r = g->mem;
    if (op->kind < GP_OP_KIND_COUNT && g->ops &&
        need(d, g->ops[op->kind].since, gp_op_kind_name(op->kind), err, errlen))
        return -1;
    if (op->kind == GP_OP_ATOMIC) {
        if (op->space == GP_SPACE_SHARED &&
            need(d, r->shared_atomics_since, "shared-memory atomic", err, errlen))
            return -1;
        if (op->access.elem_bytes > 4 &&
            need(d, r->wide_atomics_since, "64-bit atomic", err, errlen))
            return -1;
    }
    return 0;
}

void gp_op_cost_default_res_key(const gp_residency_t *res, gp_residency_t *key)
{
    /* global_cost reads the L2 capacity the kernel's data can use; nothing
       else of the residency (not the blocks or warps resident, not the
       memory shares) enters an op's cost */
    memset(key, 0, sizeof *key);
    key->l2_capacity_bytes = res->l2_capacity_bytes;
}

int gp_op_cost_default(const gp_generation_t *g, const gp_device_t *d, const gp_kernel_t *k,
                       const gp_op_t *op, const gp_occupancy_t *occ, const gp_residency_t *res,
                       gp_op_cost_t *out, char *err, size_t errlen)
{
    double warp = d->warp_size, issue = gp_issue_cycles(g, d, op);
    const gp_op_rule_t *ru = g->ops && op->kind < GP_OP_KIND_COUNT ? &g->ops[op->kind] : NULL;
    memset(out, 0, sizeof *out);
    if (gp_op_available(g, d, op, err, errlen))
        return -1;
    out->pipe_cycles[GP_PIPE_ISSUE] = issue;
    if (ru && ru->pipe != GP_PIPE_ISSUE)
        return ruled_cost(d, ru, issue, out, err, errlen, op->kind);
    switch (op->kind) {
    case GP_OP_FP32:
        out->pipe_cycles[GP_PIPE_FP32] = warp / d->fp32_lanes;
        out->latency_cycles = d->fp32_cycles;
        return 0;
    case GP_OP_FP64:
        if (d->fp64_lanes <= 0) {
            snprintf(err, errlen,
                     "%s (compute capability %u.%u) has no double-precision units; describe "
                     "the work as fp32 or pick another device",
                     d->name, d->cc_major, d->cc_minor);
            return -1;
        }
        out->pipe_cycles[GP_PIPE_FP64] = warp / d->fp64_lanes;
        out->latency_cycles = d->fp64_cycles;
        return 0;
    case GP_OP_FP16:
        if (d->fp16_lanes > 0)
            out->pipe_cycles[GP_PIPE_FP16] = warp / d->fp16_lanes;
        else
            out->pipe_cycles[GP_PIPE_FP32] = warp / d->fp32_lanes;
        out->latency_cycles = d->fp16_cycles > 0 ? d->fp16_cycles : d->fp32_cycles;
        return 0;
    case GP_OP_INT:
        /* "32-bit integer, logic, compare": at the measured add/logic rate
           where the card has it (on 9.0 IADD3 and LOP3 run at about twice the
           IMAD rate [sources: h200-calibrated] run3 int32_add_lanes,
           int32_logic_lanes), else at the class's; a multiply (gpuperf.imul)
           at the measured IMAD rate and latency (run3 int32_mul_lanes,
           int32_mul_cycles: 63.9 results/clock/SM on the H200, half the
           add rate) */
        if (op->int_mul && d->int32_mul_lanes > 0) {
            out->pipe_cycles[GP_PIPE_INT] = warp / d->int32_mul_lanes;
            out->latency_cycles = d->int32_mul_cycles > 0 ? d->int32_mul_cycles : d->int32_cycles;
        } else if (d->int32_add_lanes > 0 && d->int32_logic_lanes > 0) {
            out->pipe_cycles[GP_PIPE_INT] =
                0.5 * (warp / d->int32_add_lanes + warp / d->int32_logic_lanes);
            out->latency_cycles =
                d->int32_add_cycles > 0 && d->int32_logic_cycles > 0
                    ? 0.5 * (d->int32_add_cycles + d->int32_logic_cycles)
                    : d->int32_cycles;
        } else {
            out->pipe_cycles[GP_PIPE_INT] = warp / d->int32_lanes;
            out->latency_cycles = d->int32_cycles;
        }
        /* where the int32 lanes are a share of the fp32 lanes, an int32
           instruction also takes one instruction's share of fp32 capacity */
        if (g->issue && g->issue->int_takes_fp32)
            out->pipe_cycles[GP_PIPE_FP32] += warp / d->fp32_lanes;
        return 0;
    case GP_OP_SFU:
        out->pipe_cycles[GP_PIPE_SFU] = warp / d->sfu_lanes;
        out->latency_cycles = d->sfu_cycles;
        if (d->sfu_call_cycles > 0 && !op->sfu_bare) {
            /* the call: the MUFU and its denormal guard's FP32 instructions */
            out->latency_cycles = d->sfu_call_cycles;
            out->pipe_cycles[GP_PIPE_FP32] = GP_SFU_CALL_GUARD_INSTRUCTIONS * warp / d->fp32_lanes;
            out->pipe_cycles[GP_PIPE_ISSUE] =
                (1 + GP_SFU_CALL_GUARD_INSTRUCTIONS) * gp_issue_cycles(g, d, op);
        }
        return 0;
    case GP_OP_CONV:
        if (d->f2i_lanes > 0 && d->i2f_lanes > 0) {
            /* measured per direction: a conversion is taken as the round
               trip's mix, half float-to-int on the conversion pipe and half
               int-to-float on the integer pipe, where they overlap
               [sources: h200-calibrated] run3 f2i_*, i2f_* (F2I 16, I2F 63
               results/clock/SM; alternating, the pair runs at F2I's rate) */
            out->pipe_cycles[GP_PIPE_CONV] = GP_CONV_F2I_SHARE * warp / d->f2i_lanes;
            out->pipe_cycles[GP_PIPE_INT] = (1 - GP_CONV_F2I_SHARE) * warp / d->i2f_lanes;
            out->latency_cycles =
                d->f2i_cycles > 0 && d->i2f_cycles > 0
                    ? GP_CONV_F2I_SHARE * d->f2i_cycles + (1 - GP_CONV_F2I_SHARE) * d->i2f_cycles
                    : (d->conversion_cycles > 0 ? d->conversion_cycles : d->sfu_cycles);
            return 0;
        }
        out->pipe_cycles[GP_PIPE_CONV] =
            warp / (d->conversion_lanes > 0 ? d->conversion_lanes : d->sfu_lanes);
        out->latency_cycles = d->conversion_cycles > 0 ? d->conversion_cycles : d->sfu_cycles;
        return 0;
    case GP_OP_BRANCH:
        out->pipe_cycles[GP_PIPE_INT] = warp / d->int32_lanes;
        out->latency_cycles = d->branch_cycles > 0 ? d->branch_cycles : d->int32_cycles;
        return 0;
    case GP_OP_BARRIER:
        if (d->barrier_base_cycles > 0 || d->barrier_per_warp_cycles > 0) {
            /* measured against the warps of the block [sources:
               h200-calibrated] run3 barrier rows: the block waits a fixed part
               plus a part per warp, and the SM's barrier unit takes the
               per-warp part for every warp of every resident block (the cost
               per barrier grows with the SM's warps, not the block's) */
            double wpb = occ && occ->warps_per_block ? occ->warps_per_block : 1;
            out->latency_cycles = d->barrier_base_cycles + d->barrier_per_warp_cycles * wpb;
            out->pipe_cycles[GP_PIPE_ISSUE] = GP_MAX(issue, d->barrier_per_warp_cycles);
            return 0;
        }
        /* the device's barrier latency, times the generation's round trips */
        out->latency_cycles = d->barrier_cycles > 0 ? d->barrier_cycles
                              : ru && ru->latency_cycles > 0 ? ru->latency_cycles
                                                             : GP_DEFAULT_BARRIER_CYCLES;
        if (ru && ru->instructions > 0)
            out->latency_cycles *= ru->instructions;
        return 0;
    case GP_OP_TENSOR:
        return tensor_cost(g, d, op, issue, out, err, errlen);
    case GP_OP_LOAD:
    case GP_OP_STORE:
    case GP_OP_ATOMIC: {
        uint32_t e = op->access.elem_bytes;
        /* a thread moves 1, 2, 4, 8 or 16 bytes in one instruction
           [sources: ptx] ld/st vector sizes */
        if (!(e == 1 || e == 2 || e == 4 || e == 8 || e == 16)) {
            snprintf(err, errlen, "memory access of %u bytes per thread (1, 2, 4, 8 or 16)", e);
            return -1;
        }
        if (op->space == GP_SPACE_SHARED)
            return shared_cost(d, g, k, op, out, err, errlen);
        if (op->space >= GP_SPACE_COUNT) {
            snprintf(err, errlen, "unknown memory space %u", op->space);
            return -1;
        }
        return global_cost(d, k, op, op, occ, res, g->mem, out, err, errlen);
    }
    case GP_OP_ASYNC_COPY: {
        gp_op_t ld = *op;
        gp_op_cost_t sh;
        uint32_t e = op->access.elem_bytes;
        /* cp.async moves 4, 8 or 16 bytes per thread [sources: ptx] cp.async */
        if (!(e == 4 || e == 8 || e == 16)) {
            snprintf(err, errlen,
                     "an asynchronous copy (cp.async) moves 4, 8 or 16 bytes per thread, not "
                     "%u; split it into 16-byte copies",
                     e);
            return -1;
        }
        ld.kind = GP_OP_LOAD;
        ld.space = GP_SPACE_GLOBAL;
        if (global_cost(d, k, &ld, op, occ, res, g->mem, out, err, errlen))
            return -1;
        memset(&sh, 0, sizeof sh);
        ld.space = GP_SPACE_SHARED;
        ld.kind = GP_OP_STORE;
        if (shared_cost(d, g, k, &ld, &sh, err, errlen))
            return -1;
        out->pipe_cycles[GP_PIPE_SHARED] += sh.pipe_cycles[GP_PIPE_SHARED];
        out->pipe_cycles[GP_PIPE_ISSUE] = issue;
        return 0;
    }
    default:
        snprintf(err, errlen,
                 "%s has no cost on %s: its generation's rules do not describe it",
                 gp_op_kind_name(op->kind), d->name);
        return -1;
    }
}

int gp_op_cost(const gp_plugin_t *p, const gp_generation_t *g, const gp_device_t *d,
               const gp_kernel_t *k, const gp_op_t *op, const gp_occupancy_t *occ,
               const gp_residency_t *res, gp_op_cost_t *out, char *err, size_t errlen)
{
    int rc;
    if (!p->op_cost)
        return gp_op_cost_default(g, d, k, op, occ, res, out, err, errlen);
    if (gp_op_available(g, d, op, err, errlen))
        return -1;
    memset(out, 0, sizeof *out);
    rc = p->op_cost(gp_host(), g, d, k, op, occ, res, out, err, errlen);
    if (rc == GP_DEFAULT)
        return gp_op_cost_default(g, d, k, op, occ, res, out, err, errlen);
    if (rc != 0)
        return -1;
    /* the generation's issue slot is the least any instruction takes */
    out->pipe_cycles[GP_PIPE_ISSUE] =
        GP_MAX(out->pipe_cycles[GP_PIPE_ISSUE], gp_issue_cycles(g, d, op));
    return 0;
}

double gp_op_grid_bytes(const gp_kernel_t *kernel, const gp_op_t *op)
{
    /* accesses of one op over the grid, for reuse: threads x count x size,
       multiplied by the trip counts of the loops around it */
    const gp_op_t *ops = kernel->ops;
    double mult = 1, threads;
    uint32_t i, idx;
    if (op < ops || op >= ops + kernel->n_ops)
        return 0;
    idx = (uint32_t)(op - ops);
    for (i = 0; i < idx; i++)
        if ((ops[i].kind == GP_OP_LOOP) && i + ops[i].body_len >= idx)
            mult *= ops[i].count > 0 ? ops[i].count : 0;
    threads = (double)kernel->total_blocks * (double)kernel->launch.threads_per_block;
    return threads * mult * op->count * (op->access.elem_bytes ? op->access.elem_bytes : 4);
}

double gp_reuse_hit_rate(double footprint, double accessed, double cache)
{
    double reaccess;
    if (!(accessed > 0) || !(footprint > 0) || accessed <= footprint)
        return 0;
    reaccess = accessed - footprint;
    if (cache >= footprint)
        return reaccess / accessed;
    return reaccess * (cache > 0 ? cache / footprint : 0) / accessed;
}
