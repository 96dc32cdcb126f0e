/*
 * engine_l2.c - what each GPU's L2 holds between launches.
 *
 * Per GPU, the bytes of each workload buffer in L2, kept in a doubly linked
 * list from the least to the most recently used. A launch, when it ends,
 * touches the buffers of its working set in the order of its ops (reads and
 * writes both allocate); a copy touches the buffers it writes (and a
 * device-to-device copy the one it reads); gpuperf.flush_l2 empties the
 * list. Whatever exceeds the device's l2_bytes leaves from the least
 * recently used end, a buffer at a time (the last one in part). Every
 * operation costs O(1) per buffer it names.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

typedef gp_eng_sim_t sim_t;
typedef gp_eng_gpu_t gpu_t;

/* Index of the list's head (its sentinel). */
static uint32_t head_of(const sim_t *s)
{
    return s->wl->n_buffers + 1;
}

int gp_eng_l2_init(sim_t *s, gpu_t *u)
{
    uint32_t n = s->wl->n_buffers, h = head_of(s);
    /* one allocation: the bytes, then the two link arrays */
    size_t nb = ((size_t)n + 1) * sizeof *u->l2.bytes, nl = ((size_t)n + 2) * sizeof *u->l2.prev;
    char *b = malloc(nb + 2 * nl);
    if (!b)
        return gp_err_set(s->err, "out of memory");
    u->l2.bytes = (void *)b;
    u->l2.prev = (void *)(b + nb);
    u->l2.next = (void *)(b + nb + nl);
    memset(u->l2.bytes, 0, nb);
    memset(u->l2.prev, 0xff, (n + 2) * sizeof *u->l2.prev); /* UINT32_MAX: not listed */
    memset(u->l2.next, 0xff, (n + 2) * sizeof *u->l2.next);
    u->l2.prev[h] = u->l2.next[h] = h;
    u->l2.total = 0;
    u->l2.dirty = 0;
    u->l2.flushed = 0;
    return 0;
}

void gp_eng_l2_free(gpu_t *u)
{
    free(u->l2.bytes); /* (prev and next are in its allocation) */
    memset(&u->l2, 0, sizeof u->l2);
}

uint64_t gp_eng_l2_resident(const gpu_t *u, uint32_t b)
{
    return u->l2.bytes ? u->l2.bytes[b] : 0;
}

/* Take b out of the list (it must be in it). */
static void unlink_entry(gpu_t *u, uint32_t b)
{
    u->l2.next[u->l2.prev[b]] = u->l2.next[b];
    u->l2.prev[u->l2.next[b]] = u->l2.prev[b];
    u->l2.prev[b] = u->l2.next[b] = UINT32_MAX;
}

void gp_eng_l2_touch(sim_t *s, gpu_t *u, uint32_t b, double bytes)
{
    uint32_t h = head_of(s);
    uint64_t cap = s->dev->l2_bytes, want;
    if (!u->l2.bytes || b > s->wl->n_buffers || !(bytes > 0))
        return;
    /* a buffer holds at most its size; the bytes a launch touches are the
       ones it left most recently used, together with any earlier bytes of
       the same buffer (one entry per buffer) */
    want = bytes >= (double)cap ? cap : (uint64_t)bytes;
    if (b < s->wl->n_buffers && want > s->wl->buffers[b].bytes)
        want = s->wl->buffers[b].bytes;
    if (u->l2.bytes[b] > want)
        want = u->l2.bytes[b];
    if (u->l2.prev[b] != UINT32_MAX)
        unlink_entry(u, b);
    u->l2.total = u->l2.total - u->l2.bytes[b] + want;
    u->l2.bytes[b] = want;
    if (want == 0)
        return;
    /* append at the most recently used end */
    u->l2.prev[b] = u->l2.prev[h];
    u->l2.next[b] = h;
    u->l2.next[u->l2.prev[h]] = b;
    u->l2.prev[h] = b;
    /* evict from the least recently used end */
    while (u->l2.total > cap) {
        uint32_t lru = u->l2.next[h];
        uint64_t over = u->l2.total - cap;
        if (u->l2.bytes[lru] > over) {
            u->l2.bytes[lru] -= over;
            u->l2.total -= over;
            break;
        }
        u->l2.total -= u->l2.bytes[lru];
        u->l2.bytes[lru] = 0;
        unlink_entry(u, lru);
    }
}

void gp_eng_l2_flush(sim_t *s, gpu_t *u, int clean)
{
    uint32_t h = head_of(s), b;
    if (!u->l2.bytes)
        return;
    for (b = u->l2.next[h]; b != h;) {
        uint32_t nx = u->l2.next[b];
        u->l2.bytes[b] = 0;
        u->l2.prev[b] = u->l2.next[b] = UINT32_MAX;
        b = nx;
    }
    u->l2.prev[h] = u->l2.next[h] = h;
    u->l2.total = 0;
    /* a write of a scratch buffer larger than the L2 leaves its lines
       there, l2_flush_dirty_fraction of them dirty; a read leaves them
       clean */
    u->l2.dirty = clean ? 0 : s->dev->l2_flush_dirty_fraction * (double)s->dev->l2_bytes;
    u->l2.flushed = 1;
}

/*
 * After a launch that brought ws[j].fresh bytes of buffer ws[j].buffer into the
 * L2, bytes it read or wrote once (not there before it, not read again
 * within it): the launches after it find a share of those, 1 while the
 * launch's fresh bytes together stay within the device's
 * l2_carry_full_bytes, 0 from l2_carry_none_bytes on, linear between; what
 * was there before and what the launch re-read stays (an L2 keeps the lines
 * used again before those used once). The H200 ([sources: h200-cal]
 * run11/wback rd_rd rows): a kernel reading S MiB once leaves all of it for
 * the next kernel up to 16 MiB, about 80% at 24, 42% at 32 and 40, 7% at 48
 * and none from 56 on, while one kernel re-reading 48 MiB hits L2 throughout
 * (run8/reuse sweep) and launches repeated over 16 to 24 MiB (mlp, turnover
 * ws=l2 rows) find it all from the second on.
 */
void gp_eng_l2_carry(sim_t *s, gpu_t *u, const gp_eng_ws_t *ws, uint32_t n)
{
    double full = (double)s->dev->l2_carry_full_bytes, none = (double)s->dev->l2_carry_none_bytes;
    double total = 0, keep;
    uint32_t j;
    if (!u->l2.bytes || !(none > full))
        return;
    for (j = 0; j < n; j++)
        total += ws[j].fresh;
    if (!(total > full))
        return;
    keep = total >= none ? 0 : (none - total) / (none - full);
    for (j = 0; j < n; j++) {
        uint32_t b = ws[j].buffer;
        uint64_t drop;
        if (!(ws[j].fresh > 0) || b >= s->wl->n_buffers || u->l2.prev[b] == UINT32_MAX)
            continue;
        drop = (uint64_t)GP_MIN((double)u->l2.bytes[b], ws[j].fresh * (1 - keep));
        u->l2.bytes[b] -= drop;
        u->l2.total -= drop;
        if (u->l2.bytes[b] == 0)
            unlink_entry(u, b);
    }
}
