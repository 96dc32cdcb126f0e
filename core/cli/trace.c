/*
 * trace.c - Chrome trace-event JSON of a prediction (chrome://tracing,
 * https://ui.perfetto.dev). The format is the "JSON Object Format" of the
 * Trace Event Format document (Google, catapult): {"traceEvents": [...]}
 * with times in microseconds.
 *
 *   process (pid) d      GPU d, named "GPU d: <device name>"
 *   thread (tid) s       stream s on that GPU, named "stream s (<name>)"
 *   ph "X"               one complete event per launch and copy (ts, dur)
 *   ph "i" (on a stream) an L2 flush (gpuperf.flush_l2)
 *   ph "C"               counters per GPU: SMs busy, occupancy, kernels
 *   ph "M"               the names and the order of processes and threads
 *   pid n_devices        the host: one instant ("ph" "i") per submission
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Metadata event `what` (process_name, thread_name, ..._sort_index). */
static void meta(cJSON *ev, const char *what, uint32_t pid, int64_t tid, const char *name,
                 double sort_index)
{
    cJSON *e = cJSON_CreateObject(), *args = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", what);
    cJSON_AddStringToObject(e, "ph", "M");
    cJSON_AddNumberToObject(e, "pid", pid);
    if (tid >= 0)
        cJSON_AddNumberToObject(e, "tid", (double)tid);
    if (name)
        cJSON_AddStringToObject(args, "name", name);
    else
        cJSON_AddNumberToObject(args, "sort_index", sort_index);
    cJSON_AddItemToObject(e, "args", args);
    cJSON_AddItemToArray(ev, e);
}

/* Counter event `name` of GPU pid at ts with one series. */
static void counter(cJSON *ev, uint32_t pid, const char *name, double ts, const char *series,
                    double v)
{
    cJSON *e = cJSON_CreateObject(), *args = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "ph", "C");
    cJSON_AddNumberToObject(e, "pid", pid);
    cJSON_AddNumberToObject(e, "ts", ts);
    cJSON_AddNumberToObject(args, series, v);
    cJSON_AddItemToObject(e, "args", args);
    cJSON_AddItemToArray(ev, e);
}

/* The complete ("X") event of one launch or copy. */
static cJSON *command_event(const gp_cmd_result_t *r)
{
    cJSON *e = cJSON_CreateObject(), *args = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", r->name);
    cJSON_AddStringToObject(e, "cat", r->type == GP_CMD_LAUNCH     ? "kernel"
                                      : r->type == GP_CMD_FLUSH_L2 ? "flush"
                                                                   : "copy");
    /* a flush takes no time: an instant on its stream */
    cJSON_AddStringToObject(e, "ph", r->type == GP_CMD_FLUSH_L2 ? "i" : "X");
    if (r->type == GP_CMD_FLUSH_L2)
        cJSON_AddStringToObject(e, "s", "t");
    cJSON_AddNumberToObject(e, "pid", r->device);
    cJSON_AddNumberToObject(e, "tid", r->stream);
    cJSON_AddNumberToObject(e, "ts", r->start_us);
    if (r->type != GP_CMD_FLUSH_L2)
        cJSON_AddNumberToObject(e, "dur", r->time_us);
    cJSON_AddNumberToObject(args, "line", r->line);
    cJSON_AddNumberToObject(args, "submit_us", r->submit_us);
    cJSON_AddNumberToObject(args, "end_us", r->end_us);
    if (r->type == GP_CMD_LAUNCH) {
        cJSON_AddNumberToObject(args, "blocks", (double)r->blocks);
        cJSON_AddNumberToObject(args, "blocks_per_sm", r->occ.blocks_per_sm);
        cJSON_AddStringToObject(args, "limiter", gp_limiter_name(r->occ.limiter));
        cJSON_AddStringToObject(args, "bound", gp_bound_name(r->bound));
        cJSON_AddNumberToObject(args, "dram_bytes", r->dram_bytes);
        cJSON_AddNumberToObject(args, "l2_hit_rate", r->l2_hit_rate);
        cJSON_AddNumberToObject(args, "l2_warm_bytes", r->l2_warm_bytes);
    } else if (r->type == GP_CMD_COPY) {
        cJSON_AddNumberToObject(args, "bytes", (double)r->copy_bytes);
        if (r->copy_kind == GP_COPY_P2P)
            cJSON_AddNumberToObject(args, "peer_device", r->peer_device);
    }
    cJSON_AddItemToObject(e, "args", args);
    return e;
}

/* 1 if stream st has a launch or copy on device d (the default stream is
   listed on every device). */
static int stream_on(const gp_prediction_t *pred, uint32_t st, uint32_t d)
{
    uint32_t i;
    if (st == 0)
        return 1;
    for (i = 0; i < pred->n_cmds; i++)
        if (pred->cmds[i].stream == st && pred->cmds[i].device == d)
            return 1;
    return 0;
}

int gp_trace_write(const char *path, const gp_device_t *dev, const gp_workload_t *wl,
                   const gp_prediction_t *pred, gp_err_t *err)
{
    cJSON *doc = cJSON_CreateObject(), *ev = cJSON_CreateArray(), *other = cJSON_CreateObject();
    uint32_t i, d, n_dev = pred->n_devices ? pred->n_devices : 1;
    char *text;
    int rc;
    /* the GPUs and their streams, in order */
    for (d = 0; d < n_dev; d++) {
        char name[GP_NAME_MAX + 32];
        snprintf(name, sizeof name, "GPU %u: %s", d, dev->name);
        meta(ev, "process_name", d, -1, name, 0);
        meta(ev, "process_sort_index", d, -1, NULL, d);
        for (i = 0; i < wl->n_streams; i++) {
            char sname[GP_WL_NAME_MAX + 32];
            if (!stream_on(pred, i, d))
                continue;
            snprintf(sname, sizeof sname, "stream %u (%s)", i, wl->streams[i].name);
            meta(ev, "thread_name", d, i, sname, 0);
            meta(ev, "thread_sort_index", d, i, NULL, i);
        }
    }
    meta(ev, "process_name", n_dev, -1, "host", 0);
    meta(ev, "process_sort_index", n_dev, -1, NULL, n_dev);
    meta(ev, "thread_name", n_dev, 0, "submissions", 0);
    for (i = 0; i < pred->n_cmds; i++) {
        const gp_cmd_result_t *r = &pred->cmds[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddItemToArray(ev, command_event(r));
        /* the host's submission of it */
        cJSON_AddStringToObject(e, "name", r->name);
        cJSON_AddStringToObject(e, "cat", "submit");
        cJSON_AddStringToObject(e, "ph", "i");
        cJSON_AddStringToObject(e, "s", "t");
        cJSON_AddNumberToObject(e, "pid", n_dev);
        cJSON_AddNumberToObject(e, "tid", 0);
        cJSON_AddNumberToObject(e, "ts", r->submit_us);
        cJSON_AddItemToArray(ev, e);
    }
    for (i = 0; i < pred->n_samples; i++) {
        const gp_sample_t *s = &pred->samples[i];
        counter(ev, s->device, "SMs busy", s->t_us, "sms", s->sms_busy);
        counter(ev, s->device, "occupancy %", s->t_us, "percent", s->occupancy * 100);
        counter(ev, s->device, "kernels running", s->t_us, "kernels", s->kernels_running);
    }
    cJSON_AddItemToObject(doc, "traceEvents", ev);
    cJSON_AddStringToObject(doc, "displayTimeUnit", "ns");
    cJSON_AddStringToObject(other, "script", wl->script);
    cJSON_AddStringToObject(other, "device", dev->id);
    cJSON_AddNumberToObject(other, "device_count", n_dev);
    cJSON_AddNumberToObject(other, "total_us", pred->total_us);
    cJSON_AddItemToObject(doc, "otherData", other);
    text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (!text)
        return gp_err_set(err, "%s: out of memory", path);
    if (gp_cli_is_stdout(path)) {
        rc = puts(text) < 0 || fflush(stdout) != 0 ? gp_err_set(err, "cannot write to stdout")
                                                   : 0;
    } else {
        rc = gp_write_file_atomic(path, text, strlen(text), err);
    }
    cJSON_free(text);
    return rc;
}
