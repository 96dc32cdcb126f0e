/*
 * trace.c - Chrome trace-event JSON of a prediction (chrome://tracing,
 * https://ui.perfetto.dev): one track per stream with each launch and copy,
 * and counters for busy SMs and occupancy over time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int gp_trace_write(const char *path, const gp_device_t *dev, const gp_workload_t *wl,
                   const gp_prediction_t *pred, gp_err_t *err)
{
    cJSON *doc = cJSON_CreateObject(), *ev = cJSON_CreateArray(), *e, *args;
    uint32_t i;
    char *text;
    int rc;
    /* process and thread names */
    e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", "process_name");
    cJSON_AddStringToObject(e, "ph", "M");
    cJSON_AddNumberToObject(e, "pid", 0);
    args = cJSON_CreateObject();
    cJSON_AddStringToObject(args, "name", dev->name);
    cJSON_AddItemToObject(e, "args", args);
    cJSON_AddItemToArray(ev, e);
    for (i = 0; i < wl->n_streams; i++) {
        char name[96];
        e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", "thread_name");
        cJSON_AddStringToObject(e, "ph", "M");
        cJSON_AddNumberToObject(e, "pid", 0);
        cJSON_AddNumberToObject(e, "tid", i);
        snprintf(name, sizeof name, "stream %u (%s)", i, wl->streams[i].name);
        args = cJSON_CreateObject();
        cJSON_AddStringToObject(args, "name", name);
        cJSON_AddItemToObject(e, "args", args);
        cJSON_AddItemToArray(ev, e);
    }
    for (i = 0; i < pred->n_cmds; i++) {
        const gp_cmd_result_t *r = &pred->cmds[i];
        e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", r->name);
        cJSON_AddStringToObject(e, "cat", r->type == GP_CMD_LAUNCH ? "kernel" : "copy");
        cJSON_AddStringToObject(e, "ph", "X");
        cJSON_AddNumberToObject(e, "pid", 0);
        cJSON_AddNumberToObject(e, "tid", r->stream);
        cJSON_AddNumberToObject(e, "ts", r->start_us);
        cJSON_AddNumberToObject(e, "dur", r->time_us);
        args = cJSON_CreateObject();
        cJSON_AddNumberToObject(args, "line", r->line);
        cJSON_AddNumberToObject(args, "submit_us", r->submit_us);
        if (r->type == GP_CMD_LAUNCH) {
            cJSON_AddNumberToObject(args, "blocks", (double)r->blocks);
            cJSON_AddNumberToObject(args, "blocks_per_sm", r->occ.blocks_per_sm);
            cJSON_AddStringToObject(args, "limiter", gp_limiter_name(r->occ.limiter));
            cJSON_AddStringToObject(args, "bound", gp_bound_name(r->bound));
        } else {
            cJSON_AddNumberToObject(args, "bytes", (double)r->copy_bytes);
        }
        cJSON_AddItemToObject(e, "args", args);
        cJSON_AddItemToArray(ev, e);
    }
    for (i = 0; i < pred->n_samples; i++) {
        const gp_sample_t *s = &pred->samples[i];
        e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", "GPU");
        cJSON_AddStringToObject(e, "ph", "C");
        cJSON_AddNumberToObject(e, "pid", 0);
        cJSON_AddNumberToObject(e, "ts", s->t_us);
        args = cJSON_CreateObject();
        cJSON_AddNumberToObject(args, "sms_busy", s->sms_busy);
        cJSON_AddNumberToObject(args, "occupancy_pct", s->occupancy * 100);
        cJSON_AddNumberToObject(args, "kernels_running", s->kernels_running);
        cJSON_AddItemToObject(e, "args", args);
        cJSON_AddItemToArray(ev, e);
    }
    cJSON_AddItemToObject(doc, "traceEvents", ev);
    cJSON_AddStringToObject(doc, "displayTimeUnit", "ns");
    text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (!text)
        return gp_err_set(err, "%s: out of memory", path);
    rc = gp_write_file_atomic(path, text, strlen(text), err);
    cJSON_free(text);
    return rc;
}
