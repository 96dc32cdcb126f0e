/*
 * occupancy_sweep.c - `gpuperf occupancy` with A:B:STEP ranges: one row per
 * combination of the swept values, as a text table or one JSON array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "occupancy.h"

uint64_t gp_occ_range_count(const gp_occ_range_t *r)
{
    return (r->last - r->first) / r->step + 1;
}

/* Parse one number of a range (`what` names the part: "FIRST", ...; NULL
   for a single value); 0 or -1 with err set. */
static int range_number(const char *opt, const char *whole, const char *part, const char *what,
                        uint64_t min, uint64_t max, uint64_t *out, gp_err_t *err)
{
    char where[320];
    double v;
    if (what)
        snprintf(where, sizeof where, "%s %s: %s", opt, whole, what);
    else
        snprintf(where, sizeof where, "%s", opt);
    if (gp_parse_number(part, &v, err))
        return gp_err_prefix(err, "%s", where);
    if (!(v >= (double)min) || v != (double)(uint64_t)v)
        return gp_err_set(err, "%s: '%s' is not a whole number >= %llu", where, part,
                          (unsigned long long)min);
    if (v > (double)max)
        return gp_err_set(err, "%s: %s is above the largest accepted value, %llu", where, part,
                          (unsigned long long)max);
    *out = (uint64_t)v;
    return 0;
}

int gp_occ_range_parse(const char *opt, const char *text, uint64_t min, uint64_t max,
                       gp_occ_range_t *out, gp_err_t *err)
{
    char buf[256], *parts[4];
    int n = 0;
    char *p;
    memset(out, 0, sizeof *out);
    out->step = 1;
    if (gp_strlcpy(buf, text, sizeof buf))
        return gp_err_set(err, "%s: value longer than %zu characters", opt, sizeof buf - 1);
    parts[n++] = buf;
    for (p = buf; *p; p++)
        if (*p == ':') {
            *p = '\0';
            if (n == 4)
                break;
            parts[n++] = p + 1;
        }
    if (n == 1) {
        if (range_number(opt, text, parts[0], NULL, min, max, &out->first, err))
            return -1;
        out->last = out->first;
        return 0;
    }
    if (n != 3)
        return gp_err_set(err,
                          "%s %s: write one value or a range FIRST:LAST:STEP (e.g. %s "
                          "32:1024:32)",
                          opt, text, opt);
    if (range_number(opt, text, parts[0], "FIRST", min, max, &out->first, err) ||
        range_number(opt, text, parts[1], "LAST", min, max, &out->last, err) ||
        range_number(opt, text, parts[2], "STEP", 0, UINT64_MAX / 2, &out->step, err))
        return -1;
    if (out->step == 0)
        return gp_err_set(err, "%s %s: STEP is 0; give a STEP of at least 1", opt, text);
    if (out->first > out->last)
        return gp_err_set(err,
                          "%s %s: FIRST (%llu) is above LAST (%llu); ranges count upwards "
                          "(write %llu:%llu:%llu)",
                          opt, text, (unsigned long long)out->first,
                          (unsigned long long)out->last, (unsigned long long)out->last,
                          (unsigned long long)out->first, (unsigned long long)out->step);
    out->is_range = 1;
    return 0;
}

uint64_t gp_occ_sweep_rows(const gp_occ_sweep_t *s)
{
    uint64_t n = gp_occ_range_count(&s->threads);
    n = gp_mul_sat_u64(n, gp_occ_range_count(&s->regs));
    n = gp_mul_sat_u64(n, gp_occ_range_count(&s->smem));
    return gp_mul_sat_u64(n, gp_occ_range_count(&s->dynamic_smem));
}

/* "threads 32..1024 step 32" or "threads 256". */
static void range_text(char *out, size_t size, const char *name, const gp_occ_range_t *r)
{
    if (r->is_range)
        snprintf(out, size, "%s %llu..%llu step %llu", name, (unsigned long long)r->first,
                 (unsigned long long)r->last, (unsigned long long)r->step);
    else
        snprintf(out, size, "%s %llu", name, (unsigned long long)r->first);
}

/* One row as a JSON object. */
static cJSON *row_json(const gp_occ_target_t *t, const gp_occ_config_t *c,
                       const gp_occupancy_t *o)
{
    cJSON *r = cJSON_CreateObject();
    gp_launch_t l;
    gp_occ_launch(c, &l);
    cJSON_AddStringToObject(r, "device", t->dev->id);
    cJSON_AddNumberToObject(r, "threads_per_block", (double)c->threads);
    cJSON_AddNumberToObject(r, "regs_per_thread", c->regs);
    cJSON_AddNumberToObject(r, "static_smem", (double)l.static_smem_bytes);
    cJSON_AddNumberToObject(r, "dynamic_smem", (double)l.dynamic_smem_bytes);
    cJSON_AddNumberToObject(r, "smem_per_block", (double)gp_occ_smem_bytes(c));
    cJSON_AddNumberToObject(r, "blocks_per_sm", o->blocks_per_sm);
    cJSON_AddNumberToObject(r, "active_warps", o->active_warps);
    cJSON_AddNumberToObject(r, "max_warps", o->max_warps);
    cJSON_AddNumberToObject(r, "occupancy", o->occupancy);
    cJSON_AddStringToObject(r, "limiter", gp_limiter_name(o->limiter));
    if (o->blocks_per_sm == 0)
        cJSON_AddStringToObject(r, "detail", o->detail);
    return r;
}

int gp_occ_sweep_print(FILE *out, const gp_occ_target_t *t, const gp_occ_config_t *base,
                       const gp_occ_sweep_t *s, int json, gp_err_t *err)
{
    uint64_t rows = gp_occ_sweep_rows(s), th, rg, sm, dy;
    cJSON *arr = NULL;
    char a[64], b[64], c[64], d[64];
    if (rows > GP_OCC_MAX_ROWS)
        return gp_err_set(err, "the sweep has %llu rows, more than %u", (unsigned long long)rows,
                          GP_OCC_MAX_ROWS);
    if (json) {
        arr = cJSON_CreateArray();
        if (!arr)
            return gp_err_set(err, "out of memory building the JSON array");
    } else {
        range_text(a, sizeof a, "threads", &s->threads);
        range_text(b, sizeof b, "registers", &s->regs);
        range_text(c, sizeof c, "static smem", &s->smem);
        range_text(d, sizeof d, "dynamic smem", &s->dynamic_smem);
        fprintf(out, "%s (%s), compute capability %u.%u: %llu %s\n", t->dev->name, t->dev->id,
                t->dev->cc_major, t->dev->cc_minor, (unsigned long long)rows,
                rows == 1 ? "row" : "rows");
        fprintf(out, "  %s; %s; %s; %s", a, b, c, d);
        if (base->smem_per_thread_bytes)
            fprintf(out, "; + %llu B of shared memory per thread",
                    (unsigned long long)base->smem_per_thread_bytes);
        fprintf(out, "\n\n%8s %5s %10s %10s %6s %10s  %s\n", "threads", "regs", "smem_B",
                "blocks/SM", "warps", "occupancy", "limiter");
    }
    /* threads outermost, then registers, static and dynamic shared memory */
    for (th = s->threads.first; th <= s->threads.last; th += s->threads.step) {
        for (rg = s->regs.first; rg <= s->regs.last; rg += s->regs.step) {
            for (sm = s->smem.first; sm <= s->smem.last; sm += s->smem.step) {
                for (dy = s->dynamic_smem.first; dy <= s->dynamic_smem.last;
                     dy += s->dynamic_smem.step) {
                    gp_occ_config_t cfg = *base;
                    gp_occupancy_t o;
                    cfg.threads = th;
                    cfg.regs = (uint32_t)rg;
                    cfg.static_smem_bytes = sm;
                    cfg.dynamic_smem_bytes = dy;
                    if (gp_occ_eval(t, &cfg, &o, err)) {
                        cJSON_Delete(arr);
                        return -1;
                    }
                    if (json)
                        cJSON_AddItemToArray(arr, row_json(t, &cfg, &o));
                    else
                        fprintf(out, "%8llu %5u %10llu %10u %6u %9.1f%%  %s\n",
                                (unsigned long long)th, cfg.regs,
                                (unsigned long long)gp_occ_smem_bytes(&cfg), o.blocks_per_sm,
                                o.active_warps, o.occupancy * 100, gp_limiter_name(o.limiter));
                    if (s->dynamic_smem.last - dy < s->dynamic_smem.step)
                        break; /* the next value would pass LAST (or wrap) */
                }
                if (s->smem.last - sm < s->smem.step)
                    break;
            }
            if (s->regs.last - rg < s->regs.step)
                break;
        }
        if (s->threads.last - th < s->threads.step)
            break;
    }
    if (json) {
        char *text = cJSON_Print(arr);
        cJSON_Delete(arr);
        if (!text)
            return gp_err_set(err, "out of memory printing the JSON array");
        fputs(text, out);
        fputc('\n', out);
        cJSON_free(text);
    }
    return 0;
}
