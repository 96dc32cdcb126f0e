/*
 * occupancy_chart.c - `gpuperf occupancy --svg FILE`: the three charts of
 * NVIDIA's occupancy calculator spreadsheet (the impact of varying block
 * size, register count per thread and shared memory per block), computed
 * by the device's plugin, with the configuration given marked on each.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occupancy.h"
#include "svg.h"

#define WIDTH_PX 900.0
#define HEADER_PX 64.0
#define CHART_PX 300.0
#define FOOTER_PX 12.0
/* Shared-memory chart: at most this many samples over its range. */
#define SMEM_SAMPLES 4096u

/* A series being collected: runs of equal y kept as their two ends. */
typedef struct curve {
    double *x, *y;
    size_t n, cap;
    double run_y, last_x;
    int open;
} curve_t;

/* Append one point (the buffer was sized for every sample). */
static void curve_push(curve_t *c, double x, double y)
{
    if (c->n < c->cap) {
        c->x[c->n] = x;
        c->y[c->n] = y;
        c->n++;
    }
}

/* Add a sample. A run of equal values keeps only its first point; a change
   draws a step: the old value runs on to this sample, then drops or rises
   to the new one, as the value holds until the next sample. */
static void curve_add(curve_t *c, double x, double y)
{
    if (c->open && y == c->run_y) {
        c->last_x = x;
        return;
    }
    if (c->open)
        curve_push(c, x, c->run_y);
    curve_push(c, x, y);
    c->run_y = y;
    c->last_x = x;
    c->open = 1;
}

/* Close the last run. */
static void curve_end(curve_t *c)
{
    if (c->open && c->n > 0 && c->x[c->n - 1] != c->last_x)
        curve_push(c, c->last_x, c->run_y);
}

/* Release a curve's points. */
static void curve_free(curve_t *c)
{
    free(c->x);
    free(c->y);
    c->x = c->y = NULL;
}

/* Room for `samples` samples (two points each at most). */
static int curve_init(curve_t *c, size_t samples, gp_err_t *err)
{
    memset(c, 0, sizeof *c);
    c->cap = 2 * samples + 2;
    c->x = calloc(c->cap, sizeof *c->x);
    c->y = calloc(c->cap, sizeof *c->y);
    if (!c->x || !c->y) {
        curve_free(c);
        return gp_err_set(err, "out of memory drawing the occupancy charts");
    }
    return 0;
}


/* A power-of-two tick step giving at most about eight ticks. */
static double pow2_step(double range)
{
    double step = 1;
    while (range / step > 8)
        step *= 2;
    return step;
}

/* One chart's data and its text. */
typedef struct chart_spec {
    const char *title, *x_label;
    char note[160], mark_label[96];
    double x_max, mark_x, mark_y;
    curve_t curve;
} chart_spec_t;

/* Occupancy in percent of a configuration; -1 on error. */
static int occ_percent(const gp_occ_target_t *t, const gp_occ_config_t *c, double *pct,
                       gp_err_t *err)
{
    gp_occupancy_t o;
    if (gp_occ_eval(t, c, &o, err))
        return -1;
    *pct = o.occupancy * 100;
    return 0;
}

/* Occupancy against threads per block, every block size up to the limit. */
static int threads_chart(const gp_occ_target_t *t, const gp_occ_config_t *c,
                         chart_spec_t *spec, gp_err_t *err)
{
    uint64_t limit = t->dev->max_threads_per_block, th;
    gp_occ_best_t best;
    if (curve_init(&spec->curve, limit, err))
        return -1;
    for (th = 1; th <= limit; th++) {
        gp_occ_config_t n = *c;
        double pct;
        n.threads = th;
        if (occ_percent(t, &n, &pct, err))
            return -1;
        curve_add(&spec->curve, (double)th, pct);
    }
    curve_end(&spec->curve);
    if (gp_occ_best_block(t, c, &best, err))
        return -1;
    spec->title = "Impact of varying block size";
    spec->x_label = "threads per block";
    spec->x_max = (double)limit;
    spec->mark_x = (double)c->threads;
    if (best.threads)
        snprintf(spec->note, sizeof spec->note,
                 "%u registers, %llu B shared memory%s held; highest occupancy first at %llu "
                 "threads (%.1f%%)",
                 c->regs, (unsigned long long)(c->static_smem_bytes + c->dynamic_smem_bytes),
                 c->smem_per_thread_bytes ? " + the per-thread part" : "",
                 (unsigned long long)best.threads, best.occ.occupancy * 100);
    else
        snprintf(spec->note, sizeof spec->note, "no block size runs with %u registers", c->regs);
    return 0;
}

/* Occupancy against registers per thread, 1 up to the device's limit. */
static int regs_chart(const gp_occ_target_t *t, const gp_occ_config_t *c, chart_spec_t *spec,
                      gp_err_t *err)
{
    uint32_t limit = t->dev->max_registers_per_thread, r;
    if (curve_init(&spec->curve, limit, err))
        return -1;
    for (r = 1; r <= limit; r++) {
        gp_occ_config_t n = *c;
        double pct;
        n.regs = r;
        if (occ_percent(t, &n, &pct, err))
            return -1;
        curve_add(&spec->curve, r, pct);
    }
    curve_end(&spec->curve);
    spec->title = "Impact of varying register count per thread";
    spec->x_label = "registers per thread";
    spec->x_max = limit;
    spec->mark_x = c->regs;
    snprintf(spec->note, sizeof spec->note, "%llu threads per block, %llu B shared memory held",
             (unsigned long long)c->threads, (unsigned long long)gp_occ_smem_bytes(c));
    return 0;
}

/* Occupancy against shared memory per block (KiB), 0 up to the opt-in
   limit, sampled at most SMEM_SAMPLES times. */
static int smem_chart(const gp_occ_target_t *t, const gp_occ_config_t *c, chart_spec_t *spec,
                      gp_err_t *err)
{
    uint64_t limit = GP_MAX(t->dev->shared_memory_per_block_optin_bytes,
                            t->dev->shared_memory_per_block_bytes);
    uint64_t step = (limit + SMEM_SAMPLES - 1) / SMEM_SAMPLES, b;
    if (step == 0)
        step = 1;
    if (curve_init(&spec->curve, limit / step + 2, err))
        return -1;
    for (b = 0;; b += step) {
        gp_occ_config_t n;
        double pct;
        if (b > limit)
            b = limit; /* the last sample is the limit itself */
        n = gp_occ_with_smem(c, b);
        if (occ_percent(t, &n, &pct, err))
            return -1;
        curve_add(&spec->curve, (double)b / 1024, pct);
        if (b == limit)
            break;
    }
    curve_end(&spec->curve);
    spec->title = "Impact of varying shared memory usage per block";
    spec->x_label = "shared memory per block (KiB)";
    spec->x_max = (double)limit / 1024;
    spec->mark_x = (double)gp_occ_smem_bytes(c) / 1024;
    if (t->dev->shared_memory_per_block_optin_bytes > t->dev->shared_memory_per_block_bytes)
        snprintf(spec->note, sizeof spec->note,
                 "%llu threads per block, %u registers per thread held; above %llu B the "
                 "kernel must opt in",
                 (unsigned long long)c->threads, c->regs,
                 (unsigned long long)t->dev->shared_memory_per_block_bytes);
    else
        snprintf(spec->note, sizeof spec->note,
                 "%llu threads per block, %u registers per thread held; at most %llu B per "
                 "block",
                 (unsigned long long)c->threads, c->regs, (unsigned long long)limit);
    return 0;
}

/* Draw one spec into the document at vertical offset y. */
static int draw_spec(gp_svg_t *s, double y, chart_spec_t *spec, double now_pct)
{
    gp_svg_series_t series = {NULL, spec->curve.x, spec->curve.y, spec->curve.n, "#1f5fa8"};
    gp_svg_mark_t mark = {spec->mark_x, now_pct, spec->mark_label, NULL};
    gp_svg_chart_t ch;
    memset(&ch, 0, sizeof ch);
    ch.title = spec->title;
    ch.note = spec->note;
    ch.x.label = spec->x_label;
    ch.x.min = 0;
    ch.x.max = spec->x_max;
    ch.x.tick_step = pow2_step(spec->x_max);
    ch.y.label = "occupancy (% of warp slots)";
    ch.y.min = 0;
    ch.y.max = 100;
    ch.y.tick_step = 10;
    ch.y.tick_format = "%.0f%%";
    ch.series = &series;
    ch.n_series = 1;
    ch.marks = &mark;
    ch.n_marks = spec->mark_x <= spec->x_max ? 1 : 0;
    if (!ch.n_marks) {
        size_t len = strlen(spec->note);
        snprintf(spec->note + len, sizeof spec->note - len, "; the configuration given (%g) "
                 "lies beyond the chart",
                 spec->mark_x);
    }
    return gp_svg_line_chart(s, 0, y, WIDTH_PX, CHART_PX, &ch);
}

int gp_occ_chart_write(const char *path, const gp_occ_target_t *t, const gp_occ_config_t *c,
                       gp_err_t *err)
{
    chart_spec_t spec[3];
    gp_occupancy_t now;
    gp_svg_t s;
    char *text = NULL, mark[16];
    size_t len = 0, i;
    int rc = -1;
    memset(spec, 0, sizeof spec);
    if (gp_occ_eval(t, c, &now, err))
        return -1;
    if (threads_chart(t, c, &spec[0], err) || regs_chart(t, c, &spec[1], err) ||
        smem_chart(t, c, &spec[2], err))
        goto out;
    snprintf(mark, sizeof mark, "%.1f%%", now.occupancy * 100);
    snprintf(spec[0].mark_label, sizeof spec[0].mark_label, "%llu threads: %s",
             (unsigned long long)c->threads, mark);
    snprintf(spec[1].mark_label, sizeof spec[1].mark_label, "%u registers: %s", c->regs, mark);
    snprintf(spec[2].mark_label, sizeof spec[2].mark_label, "%llu B: %s",
             (unsigned long long)gp_occ_smem_bytes(c), mark);
    gp_svg_begin(&s, WIDTH_PX, HEADER_PX + 3 * CHART_PX + FOOTER_PX);
    gp_svg_text(&s, WIDTH_PX / 2, 26, GP_SVG_MIDDLE, 17, "bold",
                "Occupancy on %s (%s, compute capability %u.%u)", t->dev->name, t->dev->id,
                t->dev->cc_major, t->dev->cc_minor);
    if (now.blocks_per_sm)
        gp_svg_text(&s, WIDTH_PX / 2, 48, GP_SVG_MIDDLE, 13, "normal",
                    "%llu threads, %u registers, %llu B shared memory per block: %u %s per "
                    "SM, %u of %u warps, %.1f%% (limited by %s)",
                    (unsigned long long)c->threads, c->regs,
                    (unsigned long long)gp_occ_smem_bytes(c), now.blocks_per_sm,
                    now.blocks_per_sm == 1 ? "block" : "blocks",
                    now.active_warps, now.max_warps, now.occupancy * 100,
                    gp_limiter_name(now.limiter));
    else
        gp_svg_text(&s, WIDTH_PX / 2, 48, GP_SVG_MIDDLE, 13, "normal",
                    "%llu threads, %u registers, %llu B shared memory per block cannot run: %s",
                    (unsigned long long)c->threads, c->regs,
                    (unsigned long long)gp_occ_smem_bytes(c), now.detail);
    for (i = 0; i < 3; i++)
        if (draw_spec(&s, HEADER_PX + CHART_PX * (double)i, &spec[i], now.occupancy * 100)) {
            gp_svg_free(&s);
            gp_err_set(err, "--svg %s: chart %zu has an empty range", path, i + 1);
            goto out;
        }
    if (gp_svg_end(&s, &text, &len)) {
        gp_err_set(err, "--svg %s: out of memory building the SVG", path);
        goto out;
    }
    rc = gp_write_file_atomic(path, text, len, err);
    if (rc)
        gp_err_prefix(err, "--svg");
out:
    free(text);
    for (i = 0; i < 3; i++)
        curve_free(&spec[i].curve);
    return rc;
}
