/*
 * occupancy_search.c - the occupancy calculator's searches: one configuration's
 * occupancy, the best block size, the next occupancy step and the fix of a
 * launch that cannot run. Every candidate is evaluated by the device's
 * plugin, so the answers follow the generation's rules exactly.
 */
#include <stdio.h>
#include <string.h>

#include "occupancy_search.h"

/* Shared-memory candidates are first tried this many bytes apart, then byte
   by byte inside the last gap; every allocation unit of every generation
   (128, 256, 512 bytes) is a multiple of it. */
#define SMEM_COARSE_BYTES 32u

uint64_t gp_occ_smem_bytes(const gp_occ_config_t *c)
{
    uint64_t grow = gp_mul_sat_u64(c->threads, c->smem_per_thread_bytes);
    uint64_t sum = c->static_smem_bytes + c->dynamic_smem_bytes;
    if (sum < c->static_smem_bytes || sum + grow < sum)
        return UINT64_MAX;
    return sum + grow;
}

void gp_occ_launch(const gp_occ_config_t *c, gp_launch_t *out)
{
    uint64_t grow = gp_mul_sat_u64(c->threads, c->smem_per_thread_bytes);
    memset(out, 0, sizeof *out);
    out->block.x = c->threads;
    out->block.y = out->block.z = 1;
    out->grid.x = out->grid.y = out->grid.z = 1;
    out->threads_per_block = c->threads;
    out->regs_per_thread = c->regs;
    out->static_smem_bytes = c->static_smem_bytes;
    out->dynamic_smem_bytes =
        c->dynamic_smem_bytes + grow < grow ? UINT64_MAX : c->dynamic_smem_bytes + grow;
    out->cache_pref = c->cache_pref;
    out->carveout_percent = c->carveout_percent;
    out->barriers_per_block = 1; /* __syncthreads: what cudaFuncGetAttributes reports */
}

int gp_occ_eval(const gp_occ_target_t *t, const gp_occ_config_t *c, gp_occupancy_t *out,
                gp_err_t *err)
{
    gp_launch_t l;
    gp_occ_launch(c, &l);
    return gp_arch_occupancy(t->arch, t->dev, &l, out, err);
}

gp_occ_config_t gp_occ_with_smem(const gp_occ_config_t *c, uint64_t smem_bytes)
{
    gp_occ_config_t n = *c;
    n.smem_per_thread_bytes = 0;
    if (smem_bytes >= c->static_smem_bytes) {
        n.dynamic_smem_bytes = smem_bytes - c->static_smem_bytes;
    } else {
        n.static_smem_bytes = smem_bytes;
        n.dynamic_smem_bytes = 0;
    }
    return n;
}

int gp_occ_best_block(const gp_occ_target_t *t, const gp_occ_config_t *c, gp_occ_best_t *out,
                      gp_err_t *err)
{
    uint64_t warp = t->dev->warp_size, limit = t->dev->max_threads_per_block, threads;
    uint32_t best_warps = 0, largest_blocks = 0;
    memset(out, 0, sizeof *out);
    out->limit_threads = limit;
    for (threads = warp; warp && threads <= limit; threads += warp) {
        gp_occ_config_t n = *c;
        gp_occupancy_t o;
        n.threads = threads;
        if (gp_occ_eval(t, &n, &o, err))
            return -1;
        if (o.blocks_per_sm == 0)
            continue;
        if (o.active_warps > best_warps) {
            best_warps = o.active_warps;
            out->threads = threads;
            out->occ = o;
        }
        if (o.active_warps == best_warps) {
            out->threads_largest = threads;
            largest_blocks = o.blocks_per_sm;
        }
    }
    out->min_grid_blocks = gp_mul_sat_u64(out->occ.blocks_per_sm, t->dev->sm_count);
    out->min_grid_blocks_largest = gp_mul_sat_u64(largest_blocks, t->dev->sm_count);
    return 0;
}

const char *gp_occ_knob_name(gp_occ_knob_t k)
{
    static const char *const names[GP_OCC_KNOB_COUNT] = {
        "registers_per_thread", "shared_memory_per_block", "threads_per_block",
        "combined"};
    return k < GP_OCC_KNOB_COUNT ? names[k] : "?";
}

/* 1 when `o` is what the search looks for: a launch that runs (a fix) or
   one with more active warps than now (a step). */
static int better(const gp_occupancy_t *o, const gp_occupancy_t *now)
{
    if (now->blocks_per_sm == 0)
        return o->blocks_per_sm > 0;
    return o->active_warps > now->active_warps;
}

/* Registers: the largest count below the current one that is better. */
static int search_regs(const gp_occ_target_t *t, const gp_occ_config_t *c,
                       const gp_occupancy_t *now, gp_occ_step_t *s, gp_err_t *err)
{
    uint32_t r = c->regs;
    if (r > t->dev->max_registers_per_thread + 1)
        r = t->dev->max_registers_per_thread + 1; /* nothing above the file's limit runs */
    while (r-- > 0) {
        gp_occ_config_t n = *c;
        n.regs = r;
        if (gp_occ_eval(t, &n, &s->occ, err))
            return -1;
        if (better(&s->occ, now)) {
            s->found = 1;
            s->value = r;
            return 0;
        }
    }
    return 0;
}

/* Evaluate a total of `bytes` of shared memory; 1 if better, -1 on error. */
static int smem_try(const gp_occ_target_t *t, const gp_occ_config_t *c, uint64_t bytes,
                    const gp_occupancy_t *now, gp_occupancy_t *o, gp_err_t *err)
{
    gp_occ_config_t n = gp_occ_with_smem(c, bytes);
    if (gp_occ_eval(t, &n, o, err))
        return -1;
    return better(o, now);
}

/* Shared memory: the largest total below the current one that is better,
   tried SMEM_COARSE_BYTES apart and then byte by byte above the hit. */
static int search_smem(const gp_occ_target_t *t, const gp_occ_config_t *c,
                       const gp_occupancy_t *now, gp_occ_step_t *s, gp_err_t *err)
{
    uint64_t total = gp_occ_smem_bytes(c), top, cand, hit = UINT64_MAX, b;
    gp_occupancy_t o;
    int rc;
    if (total == 0)
        return 0;
    top = GP_MIN(total - 1, t->dev->shared_memory_per_sm_bytes);
    rc = smem_try(t, c, top, now, &o, err);
    if (rc < 0)
        return -1;
    if (rc) {
        hit = top;
        s->occ = o;
    }
    for (cand = top / SMEM_COARSE_BYTES * SMEM_COARSE_BYTES; hit == UINT64_MAX;
         cand -= SMEM_COARSE_BYTES) {
        rc = smem_try(t, c, cand, now, &o, err);
        if (rc < 0)
            return -1;
        if (rc) {
            hit = cand;
            s->occ = o;
        }
        if (cand < SMEM_COARSE_BYTES)
            break;
    }
    if (hit == UINT64_MAX)
        return 0;
    for (b = GP_MIN(top, hit + SMEM_COARSE_BYTES - 1); b > hit; b--) {
        rc = smem_try(t, c, b, now, &o, err);
        if (rc < 0)
            return -1;
        if (rc) {
            hit = b;
            s->occ = o;
            break;
        }
    }
    s->found = 1;
    s->value = hit;
    return 0;
}

/* Threads, for a launch that runs: the nearest multiple of the warp size
   that is better (the smaller on a tie). For one that cannot run: the
   largest smaller block size that runs. */
static int search_threads(const gp_occ_target_t *t, const gp_occ_config_t *c,
                          const gp_occupancy_t *now, gp_occ_step_t *s, gp_err_t *err)
{
    uint64_t warp = t->dev->warp_size, limit = t->dev->max_threads_per_block, th;
    gp_occupancy_t o;
    if (now->blocks_per_sm == 0) {
        for (th = GP_MIN(c->threads - 1, limit); th >= 1 && c->threads > 1; th--) {
            gp_occ_config_t n = *c;
            n.threads = th;
            if (gp_occ_eval(t, &n, &o, err))
                return -1;
            if (better(&o, now)) {
                s->found = 1;
                s->value = th;
                s->occ = o;
                return 0;
            }
        }
        return 0;
    }
    for (th = warp; warp && th <= limit; th += warp) {
        gp_occ_config_t n = *c;
        uint64_t dist = th > c->threads ? th - c->threads : c->threads - th;
        uint64_t best = s->found ? (s->value > c->threads ? s->value - c->threads
                                                          : c->threads - s->value)
                                 : UINT64_MAX;
        if (th == c->threads || dist >= best)
            continue; /* ascending: an equal distance later is the larger size */
        n.threads = th;
        if (gp_occ_eval(t, &n, &o, err))
            return -1;
        if (better(&o, now)) {
            s->found = 1;
            s->value = th;
            s->occ = o;
        }
    }
    return 0;
}

/* Change one knob of `n` (in place) if the configuration with the later
   knobs out of the way (`probe`) is not yet good enough; -1 on error, 1 when
   no value of the knob helps, else 0. */
static int combined_knob(const gp_occ_target_t *t, gp_occ_config_t *n, gp_occ_config_t probe,
                         gp_occ_knob_t k, const gp_occupancy_t *now, gp_occ_step_t *out,
                         gp_err_t *err)
{
    gp_occupancy_t o;
    gp_occ_step_t s;
    int rc;
    if (gp_occ_eval(t, &probe, &o, err))
        return -1;
    if (better(&o, now))
        return 0; /* this knob may stay */
    memset(&s, 0, sizeof s);
    rc = k == GP_OCC_KNOB_REGS      ? search_regs(t, &probe, now, &s, err)
         : k == GP_OCC_KNOB_THREADS ? search_threads(t, &probe, now, &s, err)
                                    : search_smem(t, &probe, now, &s, err);
    if (rc)
        return -1;
    if (!s.found)
        return 1;
    if (k == GP_OCC_KNOB_REGS)
        n->regs = (uint32_t)s.value;
    else if (k == GP_OCC_KNOB_THREADS)
        n->threads = s.value;
    else
        *n = gp_occ_with_smem(n, s.value);
    out->changed |= 1u << k;
    return 0;
}

/* Several knobs at once (see gp_occ_advise). */
static int search_combined(const gp_occ_target_t *t, const gp_occ_config_t *c,
                           const gp_occupancy_t *now, gp_occ_step_t *s, gp_err_t *err)
{
    gp_occ_config_t n = *c, probe;
    int rc;
    if (now->blocks_per_sm == 0) {
        probe = gp_occ_with_smem(&n, 0);
        probe.regs = 0;
        rc = combined_knob(t, &n, probe, GP_OCC_KNOB_THREADS, now, s, err);
        if (rc)
            return rc < 0 ? -1 : 0;
    }
    probe = gp_occ_with_smem(&n, 0);
    rc = combined_knob(t, &n, probe, GP_OCC_KNOB_REGS, now, s, err);
    if (rc)
        return rc < 0 ? -1 : 0;
    rc = combined_knob(t, &n, n, GP_OCC_KNOB_SMEM, now, s, err);
    if (rc)
        return rc < 0 ? -1 : 0;
    if (gp_occ_eval(t, &n, &s->occ, err))
        return -1;
    if (!better(&s->occ, now) || !s->changed) {
        s->changed = 0;
        return 0;
    }
    s->found = 1;
    s->values[GP_OCC_KNOB_REGS] = n.regs;
    s->values[GP_OCC_KNOB_SMEM] = gp_occ_smem_bytes(&n);
    s->values[GP_OCC_KNOB_THREADS] = n.threads;
    return 0;
}

int gp_occ_advise(const gp_occ_target_t *t, const gp_occ_config_t *c, const gp_occupancy_t *now,
                  gp_occ_step_t steps[GP_OCC_KNOB_COUNT], gp_err_t *err)
{
    memset(steps, 0, sizeof(gp_occ_step_t) * GP_OCC_KNOB_COUNT);
    if (now->blocks_per_sm > 0 && now->active_warps >= now->max_warps)
        return 0; /* already every warp slot */
    if (search_regs(t, c, now, &steps[GP_OCC_KNOB_REGS], err) ||
        search_smem(t, c, now, &steps[GP_OCC_KNOB_SMEM], err) ||
        search_threads(t, c, now, &steps[GP_OCC_KNOB_THREADS], err))
        return -1;
    if (!steps[GP_OCC_KNOB_REGS].found && !steps[GP_OCC_KNOB_SMEM].found &&
        !steps[GP_OCC_KNOB_THREADS].found)
        return search_combined(t, c, now, &steps[GP_OCC_KNOB_COMBINED], err);
    return 0;
}

/* "3 blocks per SM" / "1 block per SM". */
static const char *blocks_word(uint32_t n)
{
    return n == 1 ? "block" : "blocks";
}

/* "use at most 512 threads per block, 124 registers per thread and 4096
   bytes of shared memory per block": the knobs a combined step changes. */
static void combined_text(char *out, size_t size, const gp_occ_step_t *s)
{
    static const gp_occ_knob_t order[3] = {GP_OCC_KNOB_THREADS, GP_OCC_KNOB_REGS,
                                           GP_OCC_KNOB_SMEM};
    static const char *const unit[GP_OCC_KNOB_COMBINED] = {
        "registers per thread", "bytes of shared memory per block", "threads per block"};
    size_t len;
    int i, n = 0, total = 0;
    for (i = 0; i < 3; i++)
        total += (s->changed >> order[i]) & 1;
    len = (size_t)snprintf(out, size, "use at most");
    for (i = 0; i < 3 && len < size; i++) {
        if (!((s->changed >> order[i]) & 1))
            continue;
        n++;
        len += (size_t)snprintf(out + len, size - len, "%s %llu %s",
                                n == 1 ? "" : n == total ? " and" : ",",
                                (unsigned long long)s->values[order[i]], unit[order[i]]);
    }
}

void gp_occ_step_text(char *out, size_t size, gp_occ_knob_t k, const gp_occ_step_t *s,
                      const gp_occupancy_t *now)
{
    char what[224], result[128];
    switch (k) {
    case GP_OCC_KNOB_REGS:
        snprintf(what, sizeof what, "use at most %llu registers per thread",
                 (unsigned long long)s->value);
        break;
    case GP_OCC_KNOB_SMEM:
        snprintf(what, sizeof what, "use at most %llu bytes of shared memory per block",
                 (unsigned long long)s->value);
        break;
    case GP_OCC_KNOB_COMBINED:
        combined_text(what, sizeof what, s);
        break;
    default:
        snprintf(what, sizeof what, "use %s%llu threads per block",
                 now->blocks_per_sm == 0 ? "at most " : "", (unsigned long long)s->value);
        break;
    }
    if (now->blocks_per_sm == 0)
        snprintf(result, sizeof result, ": %u %s per SM, %.1f%% occupancy",
                 s->occ.blocks_per_sm, blocks_word(s->occ.blocks_per_sm),
                 s->occ.occupancy * 100);
    else
        snprintf(result, sizeof result,
                 " for %u %s per SM (from %u), %.1f%% occupancy (from %.1f%%)",
                 s->occ.blocks_per_sm, blocks_word(s->occ.blocks_per_sm), now->blocks_per_sm,
                 s->occ.occupancy * 100, now->occupancy * 100);
    snprintf(out, size, "%s%s", what, result);
}
