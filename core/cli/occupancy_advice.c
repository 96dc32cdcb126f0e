/*
 * occupancy_advice.c - what `gpuperf occupancy` advises: the fix of a launch
 * that cannot run, and with --suggest the best block size and the change of
 * registers, shared memory or block size that reaches the next occupancy
 * step, as text or as JSON members.
 */
#include <stdio.h>
#include <string.h>

#include "occupancy.h"

/* Width the advice lines are wrapped at. */
#define TEXT_COLUMNS 100

/* Human names of the knobs, for the text report. */
static const char *const KNOB_TEXT[GP_OCC_KNOB_COUNT] = {"registers", "shared memory",
                                                         "threads", "together"};

/* Print `label` in a 18-column field after 4 spaces, then `text` wrapped
   at TEXT_COLUMNS with the continuation lines indented under it. */
static void wrapped(FILE *out, const char *label, const char *text)
{
    int col = fprintf(out, "    %-18s ", label), indent = col;
    const char *p = text;
    while (*p) {
        const char *sp = strchr(p, ' ');
        int word = sp ? (int)(sp - p) : (int)strlen(p);
        if (col > indent && col + 1 + word > TEXT_COLUMNS)
            col = fprintf(out, "\n%*s", indent, "") - 1;
        else if (col > indent)
            col += fprintf(out, " ");
        col += fprintf(out, "%.*s", word, p);
        p += word;
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}

/* "registers and shared memory": the limits that bind (equal the blocks). */
static void binding_text(char *out, size_t size, const gp_occupancy_t *o)
{
    const uint32_t lim[5] = {o->limit_warps, o->limit_blocks, o->limit_registers,
                             o->limit_shared_memory, o->limit_barriers};
    static const char *const names[5] = {"warp slots", "block slots", "registers",
                                         "shared memory", "barriers"};
    size_t len = 0;
    int i, n = 0, total = 0;
    for (i = 0; i < 5; i++)
        total += lim[i] == o->blocks_per_sm;
    out[0] = '\0';
    for (i = 0; i < 5 && len < size; i++) {
        if (lim[i] != o->blocks_per_sm)
            continue;
        n++;
        len += (size_t)snprintf(out + len, size - len, "%s%s",
                                n == 1 ? "" : n == total ? " and " : ", ", names[i]);
    }
}

/* Why a knob has no step, for the text report. */
static void no_step_text(char *out, size_t size, gp_occ_knob_t k, const gp_occupancy_t *now)
{
    static const char *const fix[GP_OCC_KNOB_COUNT] = {
        "fewer registers alone do not make it run",
        "less shared memory alone does not make it run",
        "no smaller block size alone makes it run", ""};
    static const char *const step[GP_OCC_KNOB_COUNT] = {
        "fewer registers alone do not raise occupancy",
        "less shared memory alone does not raise occupancy",
        "no other block size (a multiple of the warp size) raises occupancy", ""};
    char limits[96];
    if (now->blocks_per_sm == 0) {
        snprintf(out, size, "%s", fix[k]);
        return;
    }
    binding_text(limits, sizeof limits, now);
    snprintf(out, size, "%s (limited by %s)", step[k], limits);
}

/* One line per knob: its step, or why it has none; the combined step only
   when there is one. Returns 1 if any knob has a step. */
static int steps_text(FILE *out, const gp_occ_step_t *steps, const gp_occupancy_t *now)
{
    char line[320];
    int k, any = 0;
    for (k = 0; k < GP_OCC_KNOB_COUNT; k++) {
        if (steps[k].found) {
            gp_occ_step_text(line, sizeof line, (gp_occ_knob_t)k, &steps[k], now);
            any = 1;
        } else if (k == GP_OCC_KNOB_COMBINED) {
            continue;
        } else {
            no_step_text(line, sizeof line, (gp_occ_knob_t)k, now);
        }
        wrapped(out, KNOB_TEXT[k], line);
    }
    return any;
}

/* The best block size as text lines. */
static void best_text(FILE *out, const gp_occ_target_t *t, const gp_occ_best_t *b)
{
    if (b->threads == 0) {
        fprintf(out, "  best block size      none: no multiple of %u threads up to %llu runs\n",
                t->dev->warp_size, (unsigned long long)b->limit_threads);
        return;
    }
    fprintf(out, "  best block size      %llu threads: %u %s per SM, %u of %u warps, %.1f%%\n",
            (unsigned long long)b->threads, b->occ.blocks_per_sm,
            b->occ.blocks_per_sm == 1 ? "block" : "blocks", b->occ.active_warps,
            b->occ.max_warps, b->occ.occupancy * 100);
    if (b->threads_largest != b->threads)
        fprintf(out,
                "                       the smallest such; cudaOccupancyMaxPotentialBlockSize "
                "answers %llu,\n"
                "                       the largest such (minGridSize %llu)\n",
                (unsigned long long)b->threads_largest,
                (unsigned long long)b->min_grid_blocks_largest);
    fprintf(out, "  full wave            %llu blocks (%u per SM x %u SMs)\n",
            (unsigned long long)b->min_grid_blocks, b->occ.blocks_per_sm, t->dev->sm_count);
}

int gp_occ_advice_text(FILE *out, const gp_occ_target_t *t, const gp_occ_config_t *c,
                       const gp_occupancy_t *now, int suggest, gp_err_t *err)
{
    gp_occ_step_t steps[GP_OCC_KNOB_COUNT];
    if (!suggest && now->blocks_per_sm > 0)
        return 0;
    if (gp_occ_advise(t, c, now, steps, err))
        return -1;
    if (now->blocks_per_sm == 0) {
        fprintf(out, "  fix                  one change that makes the launch run:\n");
        if (!steps_text(out, steps, now))
            wrapped(out, "(none)", "no change of threads, registers and shared memory "
                                   "makes it run");
    }
    if (suggest) {
        gp_occ_best_t best;
        if (gp_occ_best_block(t, c, &best, err))
            return -1;
        best_text(out, t, &best);
        if (now->blocks_per_sm == 0)
            return 0;
        if (now->active_warps >= now->max_warps) {
            fprintf(out, "  next step            none: every warp slot is in use (100%%)\n");
            return 0;
        }
        fprintf(out, "  next step            from %u %s per SM, %u of %u warps (%.1f%%):\n",
                now->blocks_per_sm, now->blocks_per_sm == 1 ? "block" : "blocks",
                now->active_warps, now->max_warps, now->occupancy * 100);
        steps_text(out, steps, now);
    }
    return 0;
}

/* A step as a JSON object. */
static cJSON *step_json(gp_occ_knob_t k, const gp_occ_step_t *s, const gp_occupancy_t *now)
{
    cJSON *o = cJSON_CreateObject();
    char line[320];
    gp_occ_step_text(line, sizeof line, k, s, now);
    cJSON_AddStringToObject(o, "change", gp_occ_knob_name(k));
    if (k == GP_OCC_KNOB_COMBINED) {
        int i;
        for (i = 0; i < GP_OCC_KNOB_COMBINED; i++)
            if ((s->changed >> i) & 1)
                cJSON_AddNumberToObject(o, gp_occ_knob_name((gp_occ_knob_t)i),
                                        (double)s->values[i]);
    } else {
        cJSON_AddNumberToObject(o, "value", (double)s->value);
    }
    cJSON_AddNumberToObject(o, "blocks_per_sm", s->occ.blocks_per_sm);
    cJSON_AddNumberToObject(o, "active_warps", s->occ.active_warps);
    cJSON_AddNumberToObject(o, "occupancy", s->occ.occupancy);
    cJSON_AddStringToObject(o, "limiter", gp_limiter_name(s->occ.limiter));
    cJSON_AddStringToObject(o, "advice", line);
    return o;
}

int gp_occ_advice_json(cJSON *doc, const gp_occ_target_t *t, const gp_occ_config_t *c,
                       const gp_occupancy_t *now, int suggest, gp_err_t *err)
{
    gp_occ_step_t steps[GP_OCC_KNOB_COUNT];
    int k;
    if (!suggest && now->blocks_per_sm > 0)
        return 0;
    if (gp_occ_advise(t, c, now, steps, err))
        return -1;
    if (now->blocks_per_sm == 0) {
        cJSON *fixes = cJSON_AddArrayToObject(doc, "fixes");
        for (k = 0; k < GP_OCC_KNOB_COUNT; k++)
            if (steps[k].found)
                cJSON_AddItemToArray(fixes, step_json((gp_occ_knob_t)k, &steps[k], now));
    }
    if (suggest) {
        cJSON *sug = cJSON_AddObjectToObject(doc, "suggest"), *bs, *next;
        gp_occ_best_t best;
        if (gp_occ_best_block(t, c, &best, err))
            return -1;
        bs = cJSON_AddObjectToObject(sug, "best_block_size");
        cJSON_AddNumberToObject(bs, "threads_per_block", (double)best.threads);
        cJSON_AddNumberToObject(bs, "blocks_per_sm", best.occ.blocks_per_sm);
        cJSON_AddNumberToObject(bs, "active_warps", best.occ.active_warps);
        cJSON_AddNumberToObject(bs, "occupancy", best.occ.occupancy);
        cJSON_AddStringToObject(bs, "limiter",
                                best.threads ? gp_limiter_name(best.occ.limiter) : "none");
        cJSON_AddNumberToObject(bs, "min_grid_blocks", (double)best.min_grid_blocks);
        cJSON_AddNumberToObject(bs, "largest_threads_per_block", (double)best.threads_largest);
        cJSON_AddNumberToObject(bs, "largest_min_grid_blocks",
                                (double)best.min_grid_blocks_largest);
        next = cJSON_AddArrayToObject(sug, "next_step");
        if (now->blocks_per_sm > 0)
            for (k = 0; k < GP_OCC_KNOB_COUNT; k++)
                if (steps[k].found)
                    cJSON_AddItemToArray(next, step_json((gp_occ_knob_t)k, &steps[k], now));
    }
    return 0;
}
