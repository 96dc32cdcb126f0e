/*
 * coalesce.c - transactions and bank passes of one warp access, from the
 * byte offsets of its lanes.
 */
#include "coalesce.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "constants.h"
#include "util.h"

/* Addresses are kept within +-2^62 bytes, so that adding a segment or an
   element size to one never overflows. Scripts cannot go near it (stride and
   offset are at most 2^48 elements); the clamp protects callers of the
   library that pass anything. */
#define GP_ADDR_LIMIT ((int64_t)1 << 62)
/* Lanes one request may have (warps are at most this wide here). */
#define MAX_LANES 64
/* A word no lane requests. */
#define NONE INT64_MIN

/* a * b + c clamped to +-GP_ADDR_LIMIT, without signed overflow. */
static int64_t addr_clamp(int64_t a, int64_t b, int64_t c)
{
    int64_t p, r;
    if (__builtin_mul_overflow(a, b, &p) || __builtin_add_overflow(p, c, &r))
        return ((a < 0) != (b < 0)) ? -GP_ADDR_LIMIT : GP_ADDR_LIMIT;
    return GP_MIN(GP_MAX(r, -GP_ADDR_LIMIT), GP_ADDR_LIMIT);
}

/* Floor division for possibly negative numerators. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

void gp_pattern_lanes(const gp_access_t *a, uint32_t first, uint32_t n, uint64_t span_bytes,
                      int64_t *out)
{
    int64_t e = a->elem_bytes ? (int64_t)a->elem_bytes : 4, el;
    uint32_t i;
    for (i = 0; i < n; i++) {
        uint32_t t = first + i;
        switch (a->pattern) {
        case GP_PATTERN_STRIDE:
            el = addr_clamp((int64_t)t, a->stride_elems, a->offset_elems);
            break;
        case GP_PATTERN_BROADCAST:
            el = addr_clamp(a->offset_elems, 1, 0);
            break;
        case GP_PATTERN_RANDOM: {
            /* a fixed pseudo-random element (Knuth's multiplicative hash) */
            uint64_t span = a->footprint_bytes ? a->footprint_bytes : span_bytes;
            uint64_t m = span / (uint64_t)e;
            el = (int64_t)(((uint64_t)t * GP_HASH_MULTIPLIER) % (m ? m : 1));
            break;
        }
        default:
            el = addr_clamp(a->offset_elems, 1, (int64_t)t);
            break;
        }
        out[i] = addr_clamp(el, e, 0);
    }
}

/* --------------------------------------------------------------- coalescing */

/* The strict rule: active lane k reads word k of a segment aligned to the
   group's n words, in 4, 8 or 16-byte words. */
static int strict_ok(const int64_t *off, uint32_t n, uint32_t e, int all)
{
    int64_t base = 0;
    int have = 0;
    uint32_t k;
    if (!(e == 4 || e == 8 || e == 16))
        return 0;
    for (k = 0; k < n; k++) {
        int64_t b;
        if (!all && off[k] < 0)
            continue;
        b = off[k] - (int64_t)k * e;
        if (have && b != base)
            return 0;
        base = b;
        have = 1;
    }
    return !have || (base % ((int64_t)n * e) + (int64_t)n * e) % ((int64_t)n * e) == 0;
}

/* Distinct segments of n lanes, each shrunk while only one half is used
   down to min_seg; their bytes through *bytes. */
static double coalesce_group(const int64_t *off, uint32_t n, uint32_t elem, uint32_t seg,
                             uint32_t min_seg, int all, double *bytes)
{
    int64_t segs[4 * MAX_LANES];
    uint32_t m = 0, t, i;
    double total = 0, count = 0;
    for (t = 0; t < n; t++) {
        int64_t lo = off[t], hi = lo + elem - 1, s;
        if (!all && lo < 0)
            continue;
        for (s = floor_div(lo, seg); s <= floor_div(hi, seg) && m < GP_ARRAY_LEN(segs); s++)
            segs[m++] = s;
    }
    for (i = 1; i < m && segs[i - 1] <= segs[i]; i++)
        ;
    if (i < m) /* unit and positive strides arrive sorted */
        qsort(segs, m, sizeof segs[0], gp_cmp_i64);
    for (i = 0; i < m; i++) {
        uint32_t size = seg;
        if (i > 0 && segs[i] == segs[i - 1])
            continue;
        count++;
        if (min_seg < seg) {
            /* shrink while every used byte lies in one half */
            int64_t base = segs[i] * (int64_t)seg, used_lo = INT64_MAX, used_hi = INT64_MIN;
            for (t = 0; t < n; t++) {
                int64_t lo = off[t], hi = lo + elem - 1;
                if ((!all && lo < 0) || hi < base || lo >= base + seg)
                    continue;
                used_lo = GP_MIN(used_lo, GP_MAX(lo, base));
                used_hi = GP_MAX(used_hi, GP_MIN(hi, base + (int64_t)seg - 1));
            }
            while (size > min_seg) {
                uint32_t half = size / 2;
                int64_t off_lo = used_lo - base, off_hi = used_hi - base;
                if (floor_div(off_lo, half) != floor_div(off_hi, half))
                    break;
                base += floor_div(off_lo, half) * half;
                size = half;
            }
        }
        total += size;
    }
    *bytes = total;
    return count;
}

/* Lanes per coalescing group, and the number of groups, for a warp. */
static uint32_t group_size(uint32_t threads, uint32_t lanes, uint32_t *groups)
{
    uint32_t n = threads ? threads : lanes;
    if (n > MAX_LANES)
        n = MAX_LANES;
    *groups = lanes / n ? lanes / n : 1;
    return n;
}

/* Clamp a rule's sizes the way every caller means them. */
static void rule_sizes(const gp_coalesce_rule_t *r, uint32_t *seg, uint32_t *min_seg)
{
    *seg = r->segment_bytes;
    *min_seg = r->min_segment_bytes;
    if (*min_seg == 0 || *min_seg > *seg)
        *min_seg = *seg;
}

/* Transactions of a warp's lanes; all: every lane is active (pattern lanes
   may lie below the buffer's start), else negative offsets are inactive. */
static double coalesce_lanes(const int64_t *off, uint32_t lanes, uint32_t elem_bytes,
                             const gp_coalesce_rule_t *rule, int all, double *bytes)
{
    uint32_t seg, min_seg, groups, g, n, e = elem_bytes ? elem_bytes : 4;
    double txn = 0, total = 0;
    rule_sizes(rule, &seg, &min_seg);
    if (lanes == 0 || seg == 0) {
        if (bytes)
            *bytes = 0;
        return 0;
    }
    n = group_size(rule->threads, lanes, &groups);
    for (g = 0; g < groups; g++) {
        const int64_t *o = off + (size_t)g * n;
        uint32_t k = GP_MIN(n, lanes - g * n), active = 0, t;
        double by = 0;
        if (rule->strict && !strict_ok(o, k, e, all)) {
            /* one transaction of at least 32 bytes per lane [sources: pg42] F.3.2.1 */
            for (t = 0; t < k; t++)
                active += all || o[t] >= 0;
            txn += active;
            total += (double)active * GP_MAX((uint32_t)GP_STRICT_TXN_BYTES, e);
            continue;
        }
        txn += coalesce_group(o, k, e, seg, min_seg, all, &by);
        total += by;
    }
    if (bytes)
        *bytes = total;
    return txn;
}

double gp_coalesce_lanes(const int64_t *off, uint32_t lanes, uint32_t elem_bytes,
                         const gp_coalesce_rule_t *rule, double *bytes)
{
    return coalesce_lanes(off, lanes, elem_bytes, rule, 0, bytes);
}

/* Expected transactions of a random pattern, groups of n lanes. */
static double coalesce_random(const gp_access_t *a, uint32_t n, uint32_t groups, uint32_t seg,
                              uint32_t min_seg, uint32_t strict, double *bytes)
{
    uint32_t elem = a->elem_bytes ? a->elem_bytes : 4;
    /* expected distinct segments among n random picks; a lone element
       needs only the smallest segment that holds it */
    double nseg = a->footprint_bytes > seg ? (double)a->footprint_bytes / seg : 1;
    double per_thread = (double)((elem + seg - 1) / seg);
    /* nseg * (1 - (1 - 1/nseg)^n), exact also when 1/nseg is below the
       rounding of 1.0 (footprints of petabytes) */
    double distinct = -nseg * expm1((double)n * log1p(-1.0 / nseg));
    if (strict) {
        *bytes = groups * (double)n * GP_MAX((uint32_t)GP_STRICT_TXN_BYTES, elem);
        return groups * (double)n;
    }
    *bytes = groups * distinct * per_thread * GP_MAX((double)min_seg, (double)elem);
    return groups * distinct * per_thread;
}

/* One prediction asks the same question many times (every op's cost looks
   at its warp access at several levels; a sweep asks again for every
   point): remember recent pattern answers, per thread. */
typedef struct coalesce_memo {
    int64_t stride, offset;
    uint32_t elem, pattern, warp, threads, seg, min_seg, strict, valid;
    double count, bytes;
} coalesce_memo_t;

#define COALESCE_MEMO_SLOTS 64
static _Thread_local coalesce_memo_t coalesce_memo[COALESCE_MEMO_SLOTS];

static coalesce_memo_t *memo_slot(const coalesce_memo_t *k)
{
    uint64_t h = (uint64_t)k->stride * 0x9e3779b97f4a7c15ull;
    h ^= (uint64_t)k->offset * 0xc2b2ae3d27d4eb4full;
    h ^= ((uint64_t)k->elem << 40) ^ ((uint64_t)k->pattern << 56) ^
         ((uint64_t)k->threads << 32) ^ ((uint64_t)k->seg << 8) ^ k->min_seg ^
         ((uint64_t)k->warp << 20) ^ ((uint64_t)k->strict << 62);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return &coalesce_memo[(h >> 32) % COALESCE_MEMO_SLOTS];
}

double gp_coalesce_access(const gp_access_t *a, uint32_t warp_size,
                          const gp_coalesce_rule_t *rule, double *bytes)
{
    uint32_t seg, min_seg, groups, n;
    double dummy, txn;
    int64_t lanes[MAX_LANES];
    coalesce_memo_t key, *m;
    if (!bytes)
        bytes = &dummy;
    rule_sizes(rule, &seg, &min_seg);
    if (warp_size == 0 || seg == 0) {
        *bytes = 0;
        return 0;
    }
    if (a->sample && a->sample->n_warps > 0 && a->sample->byte_offset && a->sample->lanes > 0) {
        const gp_lane_sample_t *s = a->sample;
        uint32_t w;
        double t = 0, by = 0;
        for (w = 0; w < s->n_warps; w++) {
            double b = 0;
            t += gp_coalesce_lanes(s->byte_offset + (size_t)w * s->lanes,
                                   GP_MIN(s->lanes, (uint32_t)MAX_LANES), a->elem_bytes, rule,
                                   &b);
            by += b;
        }
        *bytes = by / s->n_warps;
        return t / s->n_warps;
    }
    if (warp_size > MAX_LANES)
        warp_size = MAX_LANES;
    n = group_size(rule->threads, warp_size, &groups);
    if (a->pattern == GP_PATTERN_RANDOM)
        return coalesce_random(a, n, groups, seg, min_seg, rule->strict, bytes);
    memset(&key, 0, sizeof key);
    key.stride = a->pattern == GP_PATTERN_STRIDE ? a->stride_elems : 0;
    key.offset = a->offset_elems;
    key.elem = a->elem_bytes ? a->elem_bytes : 4;
    key.pattern = a->pattern;
    key.warp = warp_size;
    key.threads = n;
    key.seg = seg;
    key.min_seg = min_seg;
    key.strict = rule->strict != 0;
    m = memo_slot(&key);
    if (m->valid && m->stride == key.stride && m->offset == key.offset && m->elem == key.elem &&
        m->pattern == key.pattern && m->warp == key.warp && m->threads == key.threads &&
        m->seg == key.seg && m->min_seg == key.min_seg && m->strict == key.strict) {
        *bytes = m->bytes;
        return m->count;
    }
    gp_pattern_lanes(a, 0, warp_size, 0, lanes);
    txn = coalesce_lanes(lanes, warp_size, key.elem, rule, 1, bytes);
    key.count = txn;
    key.bytes = *bytes;
    key.valid = 1;
    *m = key;
    return txn;
}

/* ------------------------------------------------------------ bank passes */

/* Passes of one request of n word accesses (byte addresses; negative:
   none) when any word read by several lanes is served once: the most
   distinct words any bank holds. */
static uint32_t passes_any(const int64_t *addr, uint32_t n, uint32_t banks, uint32_t bank_bytes)
{
    int64_t words[MAX_LANES][MAX_LANES];
    uint32_t nwords[MAX_LANES] = {0}, t, worst = 1;
    for (t = 0; t < n; t++) {
        int64_t w;
        uint32_t b, j, dup = 0;
        if (addr[t] == NONE)
            continue;
        w = floor_div(addr[t], bank_bytes);
        b = (uint32_t)(((w % banks) + banks) % banks);
        for (j = 0; j < nwords[b] && !dup; j++)
            dup = words[b][j] == w;
        if (!dup && nwords[b] < MAX_LANES)
            words[b][nwords[b]++] = w;
    }
    for (t = 0; t < banks; t++)
        worst = GP_MAX(worst, nwords[t]);
    return worst;
}

/* Passes of one request when each pass serves one broadcast word (that of
   the lowest-numbered waiting lane) plus one address in each other bank
   [sources: pg23] 5.1.2.5. */
static uint32_t passes_one(const int64_t *addr, uint32_t n, uint32_t banks, uint32_t bank_bytes)
{
    int done[4 * MAX_LANES] = {0};
    uint32_t left = 0, passes = 0, t, u;
    for (t = 0; t < n; t++) {
        done[t] = addr[t] == NONE;
        left += !done[t];
    }
    while (left > 0) {
        int used[MAX_LANES] = {0};
        int64_t bword = 0;
        int have = 0;
        passes++;
        for (t = 0; t < n; t++) {
            int64_t w = floor_div(addr[t], bank_bytes);
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
            int64_t w = floor_div(addr[t], bank_bytes);
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

/* Passes of one group of n lanes (all: every lane active). */
static double group_passes(const int64_t *off, uint32_t n, uint32_t elem,
                           const gp_bank_rule_t *r, uint32_t banks, int all)
{
    uint32_t words = elem > r->bank_bytes ? elem / r->bank_bytes : 1, t, k, j;
    uint32_t (*serve)(const int64_t *, uint32_t, uint32_t, uint32_t) =
        r->broadcast == GP_BANK_BROADCAST_ONE ? passes_one : passes_any;
    int64_t req[4 * MAX_LANES];
    double passes = 0;
    if (r->wide == GP_BANK_WIDE_WORD_REQUESTS) {
        /* one request per bank word, every lane in each */
        for (j = 0; j < words; j++) {
            for (t = 0; t < n; t++)
                req[t] = !all && off[t] < 0 ? NONE : off[t] + (int64_t)j * r->bank_bytes;
            passes += serve(req, n, banks, r->bank_bytes);
        }
        return passes;
    }
    {
        /* phases of n / words lanes, each lane's words in its phase; or, for
           GP_BANK_WIDE_RESULT_GROUPS, groups of the lanes whose results come
           to result_bytes (all n lanes where they fit): on 9.0 an LDS.64
           broadcast takes one pass and an LDS.128 broadcast two, while the
           conflict-free and strided wide loads take the passes of their
           distinct words ([sources: h200-cal] smem lds rows) */
        uint32_t per_phase = n / words ? n / words : 1, phases = words, p;
        if (r->wide == GP_BANK_WIDE_RESULT_GROUPS && r->result_bytes >= elem) {
            per_phase = GP_MIN(n, r->result_bytes / elem);
            phases = (n + per_phase - 1) / per_phase;
        }
        for (p = 0; p < phases; p++) {
            uint32_t m = 0;
            for (t = p * per_phase; t < (p + 1) * per_phase && t < n; t++)
                for (k = 0; k < words && m < GP_ARRAY_LEN(req); k++)
                    req[m++] = !all && off[t] < 0 ? NONE
                                                  : (floor_div(off[t], r->bank_bytes) + k) *
                                                        (int64_t)r->bank_bytes;
            passes += serve(req, m, banks, r->bank_bytes);
        }
    }
    return passes;
}

/* Passes of a warp's lanes (all: every lane active). */
static double bank_passes(const int64_t *off, uint32_t lanes, uint32_t elem_bytes,
                          const gp_bank_rule_t *r, int all)
{
    uint32_t e = elem_bytes ? elem_bytes : 4, banks = r->banks, groups, g, n;
    double passes = 0;
    if (banks == 0 || r->bank_bytes == 0 || lanes == 0)
        return 1;
    if (banks > MAX_LANES)
        banks = MAX_LANES;
    n = group_size(r->threads, GP_MIN(lanes, (uint32_t)MAX_LANES), &groups);
    for (g = 0; g < groups; g++)
        passes += group_passes(off + (size_t)g * n, GP_MIN(n, lanes - g * n), e, r, banks, all);
    return passes;
}

double gp_bank_passes_lanes(const int64_t *off, uint32_t lanes, uint32_t elem_bytes,
                            const gp_bank_rule_t *r)
{
    return bank_passes(off, lanes, elem_bytes, r, 0);
}

double gp_bank_passes_access(const gp_access_t *a, uint32_t warp_size, const gp_bank_rule_t *r,
                             int by_element, uint64_t span_bytes)
{
    int64_t lanes[MAX_LANES];
    uint32_t e = a->elem_bytes ? a->elem_bytes : 4;
    if (a->sample && a->sample->n_warps > 0 && a->sample->byte_offset && a->sample->lanes > 0) {
        /* the average over the sampled warps that access: a warp whose
           lanes all skip the op (nil from the index function) branches
           around it, and the op's count already says which share of the
           warps runs it (docs/workloads.md, "A share of the warps");
           counting such a warp as one pass would discount the others twice */
        const gp_lane_sample_t *s = a->sample;
        double t = 0, issuing = 0;
        uint32_t w, n = GP_MIN(s->lanes, (uint32_t)MAX_LANES), l;
        for (w = 0; w < s->n_warps; w++) {
            const int64_t *off = s->byte_offset + (size_t)w * s->lanes;
            for (l = 0; l < n && off[l] < 0; l++)
                ;
            if (l == n)
                continue;
            t += gp_bank_passes_lanes(off, n, e, r);
            issuing++;
        }
        return issuing > 0 ? t / issuing : 1;
    }
    if (warp_size > MAX_LANES)
        warp_size = MAX_LANES;
    if (warp_size == 0)
        return 1;
    if (a->pattern == GP_PATTERN_RANDOM && !by_element && r->bank_bytes) {
        /* each group's lanes spread over GP_RANDOM_BANK_WORDS bank words */
        uint32_t groups, n = group_size(r->threads, warp_size, &groups), t;
        for (t = 0; t < warp_size; t++)
            lanes[t] = (int64_t)((uint32_t)((t % n) * (uint32_t)GP_HASH_MULTIPLIER) %
                                 GP_RANDOM_BANK_WORDS) *
                       r->bank_bytes;
        return bank_passes(lanes, warp_size, e, r, 1);
    }
    gp_pattern_lanes(a, 0, warp_size, span_bytes, lanes);
    return bank_passes(lanes, warp_size, e, r, 1);
}

/* ------------------------------------------------------------- uniformity */

int gp_access_uniform(const gp_access_t *a)
{
    const gp_lane_sample_t *s = a->sample;
    uint32_t w, l, n, seen = 0;
    if (!s)
        return a->pattern == GP_PATTERN_BROADCAST;
    if (s->n_warps == 0 || !s->byte_offset || s->lanes == 0)
        return 0;
    n = GP_MIN(s->lanes, (uint32_t)MAX_LANES);
    for (w = 0; w < s->n_warps; w++) {
        const int64_t *off = s->byte_offset + (size_t)w * s->lanes;
        int64_t first = -1;
        uint32_t active = 0;
        for (l = 0; l < n; l++) {
            if (off[l] < 0)
                continue;
            if (first >= 0 && off[l] != first)
                return 0;
            first = off[l];
            active++;
        }
        if (active == 1)
            return 0; /* one lane: an ordinary request, not a broadcast */
        seen += active > 0;
    }
    return seen > 0;
}
