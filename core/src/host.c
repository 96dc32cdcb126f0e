/*
 * host.c - host services for plugins: logging, the standard occupancy
 * computation, coalescing, bank conflicts and cache reuse.
 */
#include "host.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "log.h"
#include "util.h"

/* ------------------------------------------------------------------ logging */

static gp_log_fn g_log_fn;
static void *g_log_ud;

void gp_log_set_handler(gp_log_fn fn, void *ud)
{
    g_log_fn = fn;
    g_log_ud = ud;
}

void gp_logf(int level, const char *who, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    if (!g_log_fn)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    g_log_fn(g_log_ud, level, who ? who : "gpuperf", msg);
}

/* The log entry point plugins see. */
static void host_log(int level, const char *plugin, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    if (!g_log_fn)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    g_log_fn(g_log_ud, level, plugin ? plugin : "plugin", msg);
}

static const gp_host_t g_host = {
    .abi_major = GP_ABI_MAJOR,
    .abi_minor = GP_ABI_MINOR,
    .size = sizeof(gp_host_t),
    .log = host_log,
    .occupancy_standard = gp_occupancy_standard,
    .coalesce = gp_coalesce,
    .bank_conflicts = gp_bank_conflicts,
    .reuse_hit_rate = gp_reuse_hit_rate,
    .block_cost_standard = gp_block_cost_standard,
    .op_cost_standard = gp_op_cost_standard,
};

const gp_host_t *gp_host(void)
{
    return &g_host;
}

/* ---------------------------------------------------------------- occupancy */

/* x / y rounded up, without overflow for any x. */
static uint64_t div_up(uint64_t x, uint64_t y)
{
    return y ? x / y + (x % y != 0) : 0;
}

/* x rounded up to a multiple of y, saturating at UINT64_MAX. */
static uint64_t round_up(uint64_t x, uint64_t y)
{
    return y ? gp_mul_sat_u64(div_up(x, y), y) : x;
}

/* a + b, saturating at UINT64_MAX. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Mark a launch impossible with a reason. */
static int impossible(gp_occupancy_t *out, uint32_t limiter, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int impossible(gp_occupancy_t *out, uint32_t limiter, const char *fmt, ...)
{
    va_list ap;
    out->blocks_per_sm = 0;
    out->active_warps = 0;
    out->occupancy = 0;
    out->limiter = limiter;
    va_start(ap, fmt);
    vsnprintf(out->detail, sizeof out->detail, fmt, ap);
    va_end(ap);
    return 0;
}

/* Shared memory the SM is configured with for a launch (carve-out rules). */
static int smem_per_sm(const gp_device_t *dev, const gp_launch_t *l, const gp_alloc_rules_t *r,
                       uint64_t allocated, uint64_t *out, char *err, size_t errlen)
{
    uint64_t sm_bytes = dev->shared_memory_per_sm_bytes;
    if (r->n_carveouts > 0) {
        /* Volta and later: a carve-out preference, aligned up to a step */
        int pref = l->carveout_percent;
        uint64_t want;
        uint32_t i;
        if (pref < 0) {
            switch (l->cache_pref) {
            case GP_CACHE_PREFER_L1: pref = 0; break;
            case GP_CACHE_PREFER_SHARED: pref = 100; break;
            case GP_CACHE_PREFER_EQUAL: pref = 50; break;
            default: pref = -1; break;
            }
        }
        if (pref > 100) {
            snprintf(err, errlen, "carve-out %d%% is above 100%%", pref);
            return -1;
        }
        want = pref < 0 ? sm_bytes : (uint64_t)pref * sm_bytes / 100;
        if (want < allocated)
            want = allocated; /* the preference never stops a block fitting */
        for (i = 0; i < r->n_carveouts; i++)
            if ((uint64_t)r->carveout_kib[i] * 1024 >= want) {
                *out = (uint64_t)r->carveout_kib[i] * 1024;
                return 0;
            }
        *out = 0; /* no step is large enough: the block cannot fit */
        return 0;
    }
    if (r->cache_config_split) {
        /* Fermi/Kepler: cudaFuncCachePrefer* picks one of a few splits */
        uint64_t high = sm_bytes;
        uint64_t shift = ((uint64_t)r->l1_max_kib - r->l1_min_kib) * 1024;
        uint64_t low = high > shift ? high - shift : 0;
        uint64_t pick;
        switch (l->cache_pref) {
        case GP_CACHE_PREFER_L1: pick = low; break;
        case GP_CACHE_PREFER_EQUAL: pick = (high + low) / 2; break;
        default: pick = high; break;
        }
        *out = pick >= allocated ? pick : high;
        return 0;
    }
    *out = sm_bytes;
    return 0;
}

int gp_occupancy_standard(const gp_device_t *dev, const gp_launch_t *l,
                          const gp_alloc_rules_t *r, gp_occupancy_t *out, char *err,
                          size_t errlen)
{
    uint64_t threads = l->threads_per_block, warp = dev->warp_size;
    uint64_t warps_pb, max_warps, limit_warps, limit_blocks, limit_regs = UINT32_MAX,
                                                             limit_smem = UINT32_MAX,
                                                             limit_bars = UINT32_MAX;
    uint64_t smem_total, smem_alloc, smem_limit, sm_smem = 0, blocks;
    uint32_t max_regs = r->max_regs_per_thread ? r->max_regs_per_thread
                                               : dev->max_registers_per_thread;
    memset(out, 0, sizeof *out);
    if (warp == 0 || r->reg_alloc_unit == 0 || r->warp_alloc_granularity == 0 ||
        r->smem_alloc_unit == 0) {
        snprintf(err, errlen, "allocation rules incomplete (zero unit)");
        return -1;
    }
    if (max_regs > dev->max_registers_per_thread)
        max_regs = dev->max_registers_per_thread;
    max_warps = dev->max_threads_per_sm / warp;
    out->max_warps = (uint32_t)max_warps;
    out->limit_warps = out->limit_blocks = out->limit_registers = out->limit_shared_memory =
        out->limit_barriers = UINT32_MAX;

    warps_pb = div_up(threads, warp);
    out->warps_per_block = (uint32_t)GP_MIN(warps_pb, UINT32_MAX);

    /* launch shape */
    if (threads == 0 || l->block.x == 0 || l->block.y == 0 || l->block.z == 0)
        return impossible(out, GP_LIMIT_BLOCK_SIZE, "the block has no threads");
    if (threads > dev->max_threads_per_block)
        return impossible(out, GP_LIMIT_BLOCK_SIZE,
                          "%llu threads per block exceed the maximum of %u (by %llu)",
                          (unsigned long long)threads, dev->max_threads_per_block,
                          (unsigned long long)(threads - dev->max_threads_per_block));
    if (l->block.x > dev->max_block_x || l->block.y > dev->max_block_y ||
        l->block.z > dev->max_block_z)
        return impossible(out, GP_LIMIT_BLOCK_SIZE,
                          "block (%llu, %llu, %llu) exceeds the maximum block dimensions "
                          "(%u, %u, %u)",
                          (unsigned long long)l->block.x, (unsigned long long)l->block.y,
                          (unsigned long long)l->block.z, dev->max_block_x, dev->max_block_y,
                          dev->max_block_z);
    {
        const uint64_t dims[3] = {l->grid.x, l->grid.y, l->grid.z};
        const uint64_t lims[3] = {dev->max_grid_x, dev->max_grid_y, dev->max_grid_z};
        static const char axis[3] = {'x', 'y', 'z'};
        int i;
        for (i = 0; i < 3; i++) {
            if (dims[i] == 0)
                return impossible(out, GP_LIMIT_GRID, "grid.%c is 0: a grid needs a block",
                                  axis[i]);
            if (dims[i] > lims[i])
                return impossible(out, GP_LIMIT_GRID,
                                  "grid.%c = %llu blocks is larger than the hardware allows "
                                  "(at most %llu; the grid may be at most %llu x %llu x %llu)",
                                  axis[i], (unsigned long long)dims[i],
                                  (unsigned long long)lims[i], (unsigned long long)lims[0],
                                  (unsigned long long)lims[1], (unsigned long long)lims[2]);
        }
    }

    /* warps and blocks */
    limit_warps = max_warps / warps_pb;
    limit_blocks = r->max_blocks_per_sm ? r->max_blocks_per_sm : dev->max_blocks_per_sm;
    if (limit_blocks > dev->max_blocks_per_sm)
        limit_blocks = dev->max_blocks_per_sm;

    /* registers */
    if (l->regs_per_thread > max_regs)
        return impossible(out, GP_LIMIT_REGS_PER_THREAD,
                          "%u registers per thread exceed the maximum of %u (by %u)",
                          l->regs_per_thread, max_regs, l->regs_per_thread - max_regs);
    if (r->reg_granularity == GP_REG_ALLOC_BLOCK) {
        uint64_t regs_pb = round_up(round_up(warps_pb, r->warp_alloc_granularity) * warp *
                                        l->regs_per_thread,
                                    r->reg_alloc_unit);
        out->regs_per_block_allocated = (uint32_t)GP_MIN(regs_pb, UINT32_MAX);
        if (regs_pb > dev->max_registers_per_block)
            return impossible(out, GP_LIMIT_REGS_PER_BLOCK,
                              "the block needs %llu registers (%u per thread, warps rounded "
                              "to %u, allocated in units of %u) but an SM has %u",
                              (unsigned long long)regs_pb, l->regs_per_thread,
                              r->warp_alloc_granularity, r->reg_alloc_unit,
                              dev->max_registers_per_block);
        if (regs_pb)
            limit_regs = dev->registers_per_sm / regs_pb;
    } else {
        uint32_t unit = r->reg_alloc_unit, i;
        uint64_t per_warp, per_block, assumed, subs = r->warp_alloc_granularity;
        for (i = 0; i < GP_ARRAY_LEN(r->reg_alt_list) && r->reg_alt_list[i]; i++)
            if (r->reg_alt_list[i] == l->regs_per_thread && r->reg_alloc_unit_alt)
                unit = r->reg_alloc_unit_alt;
        per_warp = round_up((uint64_t)l->regs_per_thread * warp, unit);
        per_block = per_warp * warps_pb;
        assumed = per_warp * round_up(warps_pb, subs); /* the hardware's check */
        out->regs_per_block_allocated = (uint32_t)GP_MIN(per_block, UINT32_MAX);
        if (per_block > dev->max_registers_per_block || assumed > dev->max_registers_per_block)
            return impossible(out, GP_LIMIT_REGS_PER_BLOCK,
                              "the block needs %llu registers (%u per thread rounded to %llu "
                              "per warp, %llu warps counted in groups of %llu) but at most %u "
                              "fit a block",
                              (unsigned long long)GP_MAX(per_block, assumed),
                              l->regs_per_thread, (unsigned long long)per_warp,
                              (unsigned long long)warps_pb, (unsigned long long)subs,
                              dev->max_registers_per_block);
        if (per_warp) {
            uint64_t warps_per_sub = (dev->registers_per_sm / subs) / per_warp;
            limit_regs = warps_per_sub * subs / warps_pb;
        }
    }

    /* shared memory */
    smem_total = add_sat(add_sat(l->static_smem_bytes, l->dynamic_smem_bytes),
                         dev->reserved_shared_memory_per_block_bytes);
    smem_alloc = round_up(smem_total, r->smem_alloc_unit);
    out->smem_per_block_allocated = smem_alloc;
    smem_limit = (smem_total > dev->shared_memory_per_block_bytes
                      ? dev->shared_memory_per_block_optin_bytes
                      : dev->shared_memory_per_block_bytes) +
                 dev->reserved_shared_memory_per_block_bytes;
    if (smem_alloc > smem_limit)
        return impossible(out, GP_LIMIT_SMEM_PER_BLOCK,
                          "the block needs %llu bytes of shared memory (%llu static + %llu "
                          "dynamic + %llu reserved, in units of %u) but a block may have at "
                          "most %llu (by %llu)",
                          (unsigned long long)smem_alloc,
                          (unsigned long long)l->static_smem_bytes,
                          (unsigned long long)l->dynamic_smem_bytes,
                          (unsigned long long)dev->reserved_shared_memory_per_block_bytes,
                          r->smem_alloc_unit, (unsigned long long)smem_limit,
                          (unsigned long long)(smem_alloc - smem_limit));
    if (smem_per_sm(dev, l, r, smem_alloc, &sm_smem, err, errlen))
        return -1;
    out->smem_per_sm_configured = sm_smem;
    if (smem_alloc > 0)
        limit_smem = sm_smem / smem_alloc;
    if (smem_alloc > 0 && limit_smem == 0)
        return impossible(out, GP_LIMIT_SMEM_PER_BLOCK,
                          "the block needs %llu bytes of shared memory but an SM offers %llu",
                          (unsigned long long)smem_alloc,
                          (unsigned long long)dev->shared_memory_per_sm_bytes);

    /* barriers (Hopper: two per block slot) */
    if (r->barriers_per_sm_per_block_slot && l->barriers_per_block > 0)
        limit_bars = limit_blocks * r->barriers_per_sm_per_block_slot / l->barriers_per_block;

    blocks = GP_MIN(GP_MIN(limit_warps, limit_blocks), GP_MIN(limit_regs, limit_smem));
    blocks = GP_MIN(blocks, limit_bars);
    out->limit_warps = (uint32_t)GP_MIN(limit_warps, UINT32_MAX);
    out->limit_blocks = (uint32_t)GP_MIN(limit_blocks, UINT32_MAX);
    out->limit_registers = (uint32_t)GP_MIN(limit_regs, UINT32_MAX);
    out->limit_shared_memory = (uint32_t)GP_MIN(limit_smem, UINT32_MAX);
    out->limit_barriers = (uint32_t)GP_MIN(limit_bars, UINT32_MAX);
    if (blocks == limit_warps)
        out->limiter = GP_LIMIT_WARPS;
    else if (blocks == limit_regs)
        out->limiter = GP_LIMIT_REGISTERS;
    else if (blocks == limit_smem)
        out->limiter = GP_LIMIT_SHARED_MEMORY;
    else if (blocks == limit_blocks)
        out->limiter = GP_LIMIT_BLOCKS;
    else
        out->limiter = GP_LIMIT_BARRIERS;
    out->blocks_per_sm = (uint32_t)blocks;
    out->active_warps = (uint32_t)(blocks * warps_pb);
    out->occupancy = max_warps ? (double)out->active_warps / (double)max_warps : 0;
    if (dev->l1_shared_bytes)
        out->l1_bytes_available =
            dev->l1_shared_bytes > sm_smem ? dev->l1_shared_bytes - sm_smem : 0;
    else
        out->l1_bytes_available = dev->l1_bytes;
    if (blocks == 0)
        return impossible(out, out->limiter, "no block fits an SM (limit: %s)",
                          gp_limiter_name(out->limiter));
    return 0;
}

/* -------------------------------------------------------------- coalescing */

/* Addresses are kept within +-2^62 bytes, so that adding a segment or an
   element size to one never overflows. Scripts cannot go near it (stride and
   offset are at most 2^48 elements); the clamp protects callers of the
   library that pass anything. */
#define GP_ADDR_LIMIT ((int64_t)1 << 62)

/* a * b + c clamped to +-GP_ADDR_LIMIT, without signed overflow. */
static int64_t addr_clamp(int64_t a, int64_t b, int64_t c)
{
    int64_t p, r;
    if (__builtin_mul_overflow(a, b, &p) || __builtin_add_overflow(p, c, &r))
        return ((a < 0) != (b < 0)) ? -GP_ADDR_LIMIT : GP_ADDR_LIMIT;
    return GP_MIN(GP_MAX(r, -GP_ADDR_LIMIT), GP_ADDR_LIMIT);
}

/* Byte address touched by thread t (relative; may be negative). */
static int64_t thread_addr(const gp_access_t *a, uint32_t t)
{
    int64_t e = (int64_t)a->elem_bytes, el;
    switch (a->pattern) {
    case GP_PATTERN_STRIDE:
        el = addr_clamp((int64_t)t, a->stride_elems, a->offset_elems);
        break;
    case GP_PATTERN_BROADCAST:
        el = addr_clamp(a->offset_elems, 1, 0);
        break;
    default:
        el = addr_clamp(a->offset_elems, 1, (int64_t)t);
        break;
    }
    return addr_clamp(el, e, 0);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Floor division for possibly negative numerators. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* gp_coalesce is pure and one prediction asks the same question many times
   (every op's cost looks at its warp access at several levels; a sweep asks
   again for every point): remember recent answers, per thread. Random
   patterns are closed-form and not remembered. */
typedef struct coalesce_memo {
    int64_t stride, offset;
    uint32_t elem, pattern, threads, seg, min_seg, valid;
    double count, bytes;
} coalesce_memo_t;

#define COALESCE_MEMO_SLOTS 64
static _Thread_local coalesce_memo_t coalesce_memo[COALESCE_MEMO_SLOTS];

static coalesce_memo_t *memo_slot(const gp_access_t *a, uint32_t threads, uint32_t seg,
                                  uint32_t min_seg)
{
    uint64_t h = (uint64_t)a->stride_elems * 0x9e3779b97f4a7c15ull;
    h ^= (uint64_t)a->offset_elems * 0xc2b2ae3d27d4eb4full;
    h ^= ((uint64_t)a->elem_bytes << 40) ^ ((uint64_t)a->pattern << 56) ^
         ((uint64_t)threads << 32) ^ ((uint64_t)seg << 8) ^ min_seg;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return &coalesce_memo[(h >> 32) % COALESCE_MEMO_SLOTS];
}

static double coalesce_walk(const gp_access_t *a, uint32_t threads, uint32_t seg,
                            uint32_t min_seg, uint32_t elem, double *bytes);

double gp_coalesce(const gp_access_t *a, uint32_t threads, uint32_t seg, uint32_t min_seg,
                   double *bytes)
{
    uint32_t elem = a->elem_bytes ? a->elem_bytes : 4;
    if (threads == 0 || seg == 0) {
        if (bytes)
            *bytes = 0;
        return 0;
    }
    if (threads > 64)
        threads = 64;
    if (min_seg == 0 || min_seg > seg)
        min_seg = seg;
    if (a->pattern == GP_PATTERN_RANDOM) {
        /* expected distinct segments among `threads` random picks; a lone
           element needs only the smallest segment that holds it */
        double nseg = a->footprint_bytes > seg ? (double)a->footprint_bytes / seg : 1;
        double per_thread = (double)((elem + seg - 1) / seg);
        /* nseg * (1 - (1 - 1/nseg)^threads), exact also when 1/nseg is below
           the rounding of 1.0 (footprints of petabytes) */
        double distinct = -nseg * expm1((double)threads * log1p(-1.0 / nseg));
        if (bytes)
            *bytes = distinct * per_thread * GP_MAX((double)min_seg, (double)elem);
        return distinct * per_thread;
    }
    {
        coalesce_memo_t *m = memo_slot(a, threads, seg, min_seg);
        if (m->valid && m->stride == a->stride_elems && m->offset == a->offset_elems &&
            m->elem == elem && m->pattern == a->pattern && m->threads == threads &&
            m->seg == seg && m->min_seg == min_seg) {
            if (bytes)
                *bytes = m->bytes;
            return m->count;
        }
        m->count = coalesce_walk(a, threads, seg, min_seg, elem, &m->bytes);
        m->stride = a->stride_elems;
        m->offset = a->offset_elems;
        m->elem = elem;
        m->pattern = a->pattern;
        m->threads = threads;
        m->seg = seg;
        m->min_seg = min_seg;
        m->valid = 1;
        if (bytes)
            *bytes = m->bytes;
        return m->count;
    }
}

/* The segments the threads' addresses touch, one by one. */
static double coalesce_walk(const gp_access_t *a, uint32_t threads, uint32_t seg,
                            uint32_t min_seg, uint32_t elem, double *bytes)
{
    int64_t segs[256];
    uint32_t n = 0, t, i;
    double total = 0, count = 0;
    for (t = 0; t < threads; t++) {
        int64_t lo = thread_addr(a, t), hi = lo + elem - 1, s;
        for (s = floor_div(lo, seg); s <= floor_div(hi, seg) && n < GP_ARRAY_LEN(segs); s++)
            segs[n++] = s;
    }
    for (i = 1; i < n && segs[i - 1] <= segs[i]; i++)
        ;
    if (i < n) /* unit and positive strides arrive sorted */
        qsort(segs, n, sizeof segs[0], cmp_i64);
    for (i = 0; i < n; i++) {
        uint32_t size = seg;
        if (i > 0 && segs[i] == segs[i - 1])
            continue;
        count++;
        if (min_seg < seg) {
            /* shrink while every used byte lies in one half (1.2/1.3 rule) */
            int64_t base = segs[i] * (int64_t)seg, used_lo = INT64_MAX, used_hi = INT64_MIN;
            for (t = 0; t < threads; t++) {
                int64_t lo = thread_addr(a, t), hi = lo + elem - 1;
                if (hi < base || lo >= base + seg)
                    continue;
                used_lo = GP_MIN(used_lo, GP_MAX(lo, base));
                used_hi = GP_MAX(used_hi, GP_MIN(hi, base + (int64_t)seg - 1));
            }
            while (size > min_seg) {
                uint32_t half = size / 2;
                int64_t off_lo = used_lo - base, off_hi = used_hi - base;
                if (floor_div(off_lo, half) == floor_div(off_hi, half)) {
                    base += floor_div(off_lo, half) * half;
                    size = half;
                } else {
                    break;
                }
            }
        }
        total += size;
    }
    *bytes = total;
    return count;
}

double gp_bank_conflicts(const gp_access_t *a, uint32_t threads, uint32_t banks,
                         uint32_t bank_bytes)
{
    uint32_t elem = a->elem_bytes ? a->elem_bytes : 4, phases, per_phase, p;
    double passes = 0;
    if (a->conflict_ways > 0)
        return (double)a->conflict_ways * (elem > bank_bytes ? elem / bank_bytes : 1);
    if (banks == 0 || bank_bytes == 0 || threads == 0)
        return 1;
    if (banks > 64)
        banks = 64;
    if (threads > 64)
        threads = 64;
    /* wide accesses are served in phases of fewer threads */
    phases = elem > bank_bytes ? elem / bank_bytes : 1;
    per_phase = threads / phases ? threads / phases : 1;
    for (p = 0; p < phases; p++) {
        /* distinct words per bank: same word = broadcast, no conflict */
        int64_t words[64][64];
        uint32_t nwords[64] = {0};
        uint32_t t, worst = 1;
        int64_t bank_words_per_thread = elem > bank_bytes ? elem / bank_bytes : 1;
        for (t = p * per_phase; t < (p + 1) * per_phase && t < threads; t++) {
            int64_t addr = thread_addr(a, t), w0 = floor_div(addr, bank_bytes), k;
            if (a->pattern == GP_PATTERN_RANDOM)
                w0 = (int64_t)(t * 2654435761u % 1024u);
            for (k = 0; k < bank_words_per_thread; k++) {
                int64_t w = w0 + k;
                uint32_t b = (uint32_t)(((w % banks) + banks) % banks), j, dup = 0;
                for (j = 0; j < nwords[b] && !dup; j++)
                    dup = words[b][j] == w;
                if (!dup && nwords[b] < 64)
                    words[b][nwords[b]++] = w;
            }
        }
        for (t = 0; t < banks; t++)
            worst = GP_MAX(worst, nwords[t]);
        passes += worst;
    }
    return passes;
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
