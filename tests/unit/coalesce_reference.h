/*
 * coalesce_reference.h - the coalescing and bank-conflict arithmetic as it
 * was before it worked on lane addresses (pattern by pattern), kept verbatim
 * so that test_coalesce.c can show the lane-address functions give the same
 * answers for every pattern shorthand.
 */
#ifndef GP_COALESCE_REFERENCE_H
#define GP_COALESCE_REFERENCE_H

#include <stdlib.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gpuperf/plugin.h"
#include "util.h"

#define HALF_WARP 16u
#define BANKS_1X 16u
#define BANK_WORD_BYTES 4u

/* Addresses are kept within +-2^62 bytes, so that adding a segment or an
   element size to one never overflows. Scripts cannot go near it (stride and
   offset are at most 2^48 elements); the clamp protects callers of the
   library that pass anything. */
#define REF_ADDR_LIMIT ((int64_t)1 << 62)

/* a * b + c clamped to +-REF_ADDR_LIMIT, without signed overflow. */
static int64_t ref_addr_clamp(int64_t a, int64_t b, int64_t c)
{
    int64_t p, r;
    if (__builtin_mul_overflow(a, b, &p) || __builtin_add_overflow(p, c, &r))
        return ((a < 0) != (b < 0)) ? -REF_ADDR_LIMIT : REF_ADDR_LIMIT;
    return GP_MIN(GP_MAX(r, -REF_ADDR_LIMIT), REF_ADDR_LIMIT);
}

/* Byte address touched by thread t (relative; may be negative). */
static int64_t ref_thread_addr(const gp_access_t *a, uint32_t t)
{
    int64_t e = (int64_t)a->elem_bytes, el;
    switch (a->pattern) {
    case GP_PATTERN_STRIDE:
        el = ref_addr_clamp((int64_t)t, a->stride_elems, a->offset_elems);
        break;
    case GP_PATTERN_BROADCAST:
        el = ref_addr_clamp(a->offset_elems, 1, 0);
        break;
    default:
        el = ref_addr_clamp(a->offset_elems, 1, (int64_t)t);
        break;
    }
    return ref_addr_clamp(el, e, 0);
}

static int ref_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Floor division for possibly negative numerators. */
static int64_t ref_floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* gp_coalesce is pure and one prediction asks the same question many times
   (every op's cost looks at its warp access at several levels; a sweep asks
   again for every point): remember recent answers, per thread. Random
   patterns are closed-form and not remembered. */
typedef struct ref_memo {
    int64_t stride, offset;
    uint32_t elem, pattern, threads, seg, min_seg, valid;
    double count, bytes;
} ref_memo_t;

#define REF_MEMO_SLOTS 64
static _Thread_local ref_memo_t ref_memo[REF_MEMO_SLOTS];

static ref_memo_t *ref_memo_slot(const gp_access_t *a, uint32_t threads, uint32_t seg,
                                  uint32_t min_seg)
{
    uint64_t h = (uint64_t)a->stride_elems * 0x9e3779b97f4a7c15ull;
    h ^= (uint64_t)a->offset_elems * 0xc2b2ae3d27d4eb4full;
    h ^= ((uint64_t)a->elem_bytes << 40) ^ ((uint64_t)a->pattern << 56) ^
         ((uint64_t)threads << 32) ^ ((uint64_t)seg << 8) ^ min_seg;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return &ref_memo[(h >> 32) % REF_MEMO_SLOTS];
}

static double ref_walk(const gp_access_t *a, uint32_t threads, uint32_t seg,
                            uint32_t min_seg, uint32_t elem, double *bytes);

static double ref_coalesce(const gp_access_t *a, uint32_t threads, uint32_t seg, uint32_t min_seg,
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
        ref_memo_t *m = ref_memo_slot(a, threads, seg, min_seg);
        if (m->valid && m->stride == a->stride_elems && m->offset == a->offset_elems &&
            m->elem == elem && m->pattern == a->pattern && m->threads == threads &&
            m->seg == seg && m->min_seg == min_seg) {
            if (bytes)
                *bytes = m->bytes;
            return m->count;
        }
        m->count = ref_walk(a, threads, seg, min_seg, elem, &m->bytes);
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
static double ref_walk(const gp_access_t *a, uint32_t threads, uint32_t seg,
                            uint32_t min_seg, uint32_t elem, double *bytes)
{
    int64_t segs[256];
    uint32_t n = 0, t, i;
    double total = 0, count = 0;
    for (t = 0; t < threads; t++) {
        int64_t lo = ref_thread_addr(a, t), hi = lo + elem - 1, s;
        for (s = ref_floor_div(lo, seg); s <= ref_floor_div(hi, seg) && n < GP_ARRAY_LEN(segs); s++)
            segs[n++] = s;
    }
    for (i = 1; i < n && segs[i - 1] <= segs[i]; i++)
        ;
    if (i < n) /* unit and positive strides arrive sorted */
        qsort(segs, n, sizeof segs[0], ref_cmp_i64);
    for (i = 0; i < n; i++) {
        uint32_t size = seg;
        if (i > 0 && segs[i] == segs[i - 1])
            continue;
        count++;
        if (min_seg < seg) {
            /* shrink while every used byte lies in one half (1.2/1.3 rule) */
            int64_t base = segs[i] * (int64_t)seg, used_lo = INT64_MAX, used_hi = INT64_MIN;
            for (t = 0; t < threads; t++) {
                int64_t lo = ref_thread_addr(a, t), hi = lo + elem - 1;
                if (hi < base || lo >= base + seg)
                    continue;
                used_lo = GP_MIN(used_lo, GP_MAX(lo, base));
                used_hi = GP_MAX(used_hi, GP_MIN(hi, base + (int64_t)seg - 1));
            }
            while (size > min_seg) {
                uint32_t half = size / 2;
                int64_t off_lo = used_lo - base, off_hi = used_hi - base;
                if (ref_floor_div(off_lo, half) == ref_floor_div(off_hi, half)) {
                    base += ref_floor_div(off_lo, half) * half;
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

static double ref_bank_conflicts(const gp_access_t *a, uint32_t threads, uint32_t banks,
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
            int64_t addr = ref_thread_addr(a, t), w0 = ref_floor_div(addr, bank_bytes), k;
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

/* The access of thread group g (threads g*n .. g*n+n-1) as its own access. */
static gp_access_t ref_group_access(const gp_access_t *a, uint32_t g, uint32_t n)
{
    gp_access_t b = *a;
    int64_t first = (int64_t)g * n, shift = 0, moved;
    if (a->pattern == GP_PATTERN_STRIDE &&
        __builtin_mul_overflow(first, a->stride_elems, &shift))
        shift = a->stride_elems < 0 ? INT64_MIN / 2 : INT64_MAX / 2;
    else if (a->pattern == GP_PATTERN_UNIT)
        shift = first;
    /* addresses that leave the 64-bit range saturate (host.c clamps further) */
    if (__builtin_add_overflow(b.offset_elems, shift, &moved))
        moved = shift < 0 ? INT64_MIN / 2 : INT64_MAX / 2;
    b.offset_elems = moved;
    return b;
}

/* 1.0/1.1: a half-warp coalesces only when thread k reads word k of an
   aligned segment (Programming Guide 4.2, F.3.2). */
static int ref_strict_ok(const gp_access_t *a, uint32_t threads)
{
    int unit = a->pattern == GP_PATTERN_UNIT ||
               (a->pattern == GP_PATTERN_STRIDE && a->stride_elems == 1);
    uint32_t e = a->elem_bytes;
    if (!unit || !(e == 4 || e == 8 || e == 16))
        return 0;
    return ((a->offset_elems % (int64_t)threads) + (int64_t)threads) % (int64_t)threads == 0;
}

/* Transactions and bytes of one warp access to global memory at segment
   granularity `seg` (with shrinking to min_seg), summed over the groups. */
static double ref_warp_transactions(uint32_t warp_size, uint32_t coalesce_threads,
                                    uint32_t strict, const gp_access_t *a, uint32_t seg,
                                    uint32_t min_seg, double *bytes)
{
    uint32_t n = coalesce_threads ? coalesce_threads : warp_size;
    uint32_t groups = warp_size / n ? warp_size / n : 1, g;
    double txn = 0, total = 0;
    for (g = 0; g < groups; g++) {
        gp_access_t b = ref_group_access(a, g, n);
        double by = 0;
        if (strict && !ref_strict_ok(&b, n)) {
            txn += n;
            total += (double)n * GP_MAX(32u, b.elem_bytes);
            continue;
        }
        txn += ref_coalesce(&b, n, seg, min_seg, &by);
        total += by;
    }
    *bytes = total;
    return txn;
}

#define REF_TESLA_LIMIT (INT64_C(1) << 62)

/* elem x (offset + t x stride) in bytes, saturated at +-REF_TESLA_LIMIT. */
static int64_t ref_tesla_addr(int64_t offset, int64_t t, int64_t stride, int64_t elem)
{
    int64_t el, addr;
    if (__builtin_mul_overflow(t, stride, &el) || __builtin_add_overflow(el, offset, &el) ||
        __builtin_mul_overflow(el, elem, &addr))
        return (stride < 0 || (stride == 0 && offset < 0)) ? -REF_TESLA_LIMIT
                                                           : REF_TESLA_LIMIT;
    return addr > REF_TESLA_LIMIT ? REF_TESLA_LIMIT
                                   : addr < -REF_TESLA_LIMIT ? -REF_TESLA_LIMIT : addr;
}

/* Byte address thread t touches (relative to a 256-byte aligned base). A
   random pattern picks a fixed pseudo-random element of the footprint
   (Knuth's multiplicative hash), so results are reproducible. */
static int64_t ref_tesla_thread_addr(const gp_access_t *a, uint32_t t, uint64_t footprint)
{
    int64_t e = a->elem_bytes ? (int64_t)a->elem_bytes : 4;
    switch (a->pattern) {
    case GP_PATTERN_STRIDE:
        return ref_tesla_addr(a->offset_elems, t, a->stride_elems, e);
    case GP_PATTERN_BROADCAST:
        return ref_tesla_addr(a->offset_elems, 0, 0, e);
    case GP_PATTERN_RANDOM: {
        uint64_t n = footprint / (uint64_t)e;
        if (n == 0)
            n = 1;
        return (int64_t)(((uint64_t)t * 2654435761u) % n) * e;
    }
    default:
        return ref_tesla_addr(a->offset_elems, t, 1, e);
    }
}

static uint32_t ref_halfwarp_passes(const int64_t *addr, uint32_t n)
{
    const int64_t banks = BANKS_1X;
    int done[HALF_WARP] = {0};
    uint32_t left = n, passes = 0, t, u;
    if (n > HALF_WARP)
        n = left = HALF_WARP;
    while (left > 0) {
        int used[BANKS_1X] = {0};
        int64_t bword = 0;
        int have = 0;
        passes++;
        for (t = 0; t < n; t++) {
            int64_t w = ref_floor_div(addr[t], BANK_WORD_BYTES);
            if (done[t])
                continue;
            if (!have) {
                bword = w;
                have = 1;
                used[(uint32_t)(((w % banks) + banks) % banks)] = 1;
            }
            if (w == bword) {
                done[t] = 1;
                left--;
            }
        }
        for (t = 0; t < n; t++) {
            int64_t w = ref_floor_div(addr[t], BANK_WORD_BYTES);
            uint32_t b = (uint32_t)(((w % banks) + banks) % banks);
            if (done[t] || used[b])
                continue;
            used[b] = 1;
            for (u = t; u < n; u++)
                if (!done[u] && addr[u] == addr[t]) {
                    done[u] = 1;
                    left--;
                }
        }
    }
    return passes;
}


/* The 1.x shared-memory passes of one warp access, as the tesla plugin
   counted them (conflict degrees and one-word atomics aside). */
static double ref_tesla_passes(const gp_access_t *a, uint32_t warp_size)
{
    uint32_t elem = a->elem_bytes ? a->elem_bytes : 4;
    uint32_t words = elem > BANK_WORD_BYTES ? elem / BANK_WORD_BYTES : 1;
    uint32_t halves = warp_size / HALF_WARP ? warp_size / HALF_WARP : 1, h, j, t;
    uint64_t fp = a->footprint_bytes ? a->footprint_bytes : 16384;
    double passes = 0;
    for (h = 0; h < halves; h++)
        for (j = 0; j < words; j++) {
            int64_t addr[HALF_WARP];
            for (t = 0; t < HALF_WARP; t++)
                addr[t] = ref_tesla_thread_addr(a, h * HALF_WARP + t, fp) +
                          (int64_t)j * BANK_WORD_BYTES;
            passes += ref_halfwarp_passes(addr, HALF_WARP);
        }
    return passes;
}

/* The shared-memory passes of one warp access as the core counted them. */
static double ref_core_passes(const gp_access_t *a, uint32_t warp_size, uint32_t bt,
                              uint32_t banks, uint32_t bank_bytes)
{
    uint32_t groups = warp_size / bt ? warp_size / bt : 1, g;
    double passes = 0;
    for (g = 0; g < groups; g++) {
        gp_access_t b = ref_group_access(a, g, bt);
        passes += ref_bank_conflicts(&b, bt, banks, bank_bytes);
    }
    return passes;
}

#endif /* GP_COALESCE_REFERENCE_H */
