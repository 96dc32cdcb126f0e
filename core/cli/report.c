/*
 * report.c - text and JSON reports of predictions, devices and occupancy.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* "65536" or "(64, 64, 1)". */
static void dim_text(char *out, size_t size, const gp_dim3_t *d)
{
    if (d->y == 1 && d->z == 1)
        snprintf(out, size, "%llu", (unsigned long long)d->x);
    else
        snprintf(out, size, "(%llu,%llu,%llu)", (unsigned long long)d->x,
                 (unsigned long long)d->y, (unsigned long long)d->z);
}

/* What bounds a launch, with the pipe where an arithmetic pipe does:
   "compute (int)" */
static const char *bound_text(const gp_cmd_result_t *r, char *out, size_t size)
{
    if (r->bound == GP_BOUND_COMPUTE && r->cost.bound_pipe != GP_PIPE_ISSUE &&
        r->cost.bound_pipe < GP_PIPE_COUNT) {
        snprintf(out, size, "%s (%s)", gp_bound_name(r->bound), gp_pipe_name(r->cost.bound_pipe));
        return out;
    }
    return gp_bound_name(r->bound);
}

/* Bytes with a binary unit. */
static void bytes_text(char *out, size_t size, double b)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        u++;
    }
    snprintf(out, size, u ? "%.1f %s" : "%.0f %s", b, units[u]);
}

void gp_report_predict_text(FILE *out, const gp_device_t *dev, const gp_workload_t *wl,
                            const gp_prediction_t *pred)
{
    uint32_t i;
    int multi = pred->n_devices > 1;
    char count[24] = "";
    if (multi)
        snprintf(count, sizeof count, "%u x ", pred->n_devices);
    fprintf(out, "%s on %s%s (%s: %s, compute capability %u.%u, %u SMs at %.0f MHz)\n",
            wl->script, count, dev->name, dev->id, dev->arch, dev->cc_major, dev->cc_minor,
            dev->sm_count, dev->core_clock_mhz);
    if (wl->n_params) {
        fprintf(out, "parameters:");
        for (i = 0; i < wl->n_params; i++) {
            if (wl->params[i].is_string)
                fprintf(out, " %s=%s", wl->params[i].name, wl->params[i].value_str);
            else
                fprintf(out, " %s=%.17g", wl->params[i].name, wl->params[i].value);
        }
        fprintf(out, "\n");
    }
    fprintf(out, "\n%-3s %-20s %s%3s %-14s %-9s %4s %8s %5s %5s %-13s %10s %10s %10s  %s\n", "#",
            "launch", multi ? "dev " : "", "str", "grid", "block", "regs", "smem", "blk", "occ",
            "limiter", "start_us", "end_us", "time_us", "bound");
    for (i = 0; i < pred->n_cmds; i++) {
        const gp_cmd_result_t *r = &pred->cmds[i];
        char dv[16] = "";
        if (multi && r->type == GP_CMD_COPY && r->copy_kind == GP_COPY_P2P)
            snprintf(dv, sizeof dv, "%u>%u ", r->device, r->peer_device);
        else if (multi)
            snprintf(dv, sizeof dv, "%3u ", r->device);
        if (r->type == GP_CMD_LAUNCH) {
            const gp_kernel_t *k = r->kernel;
            char g[40], b[40], sm[24], bd[48];
            dim_text(g, sizeof g, &k->launch.grid);
            dim_text(b, sizeof b, &k->launch.block);
            bytes_text(sm, sizeof sm,
                       (double)(k->launch.static_smem_bytes + k->launch.dynamic_smem_bytes));
            fprintf(out,
                    "%-3u %-20.20s %s%3u %-14.14s %-9.9s %4u %8s %5u %4.0f%% %-13.13s %10.2f %10.2f "
                    "%10.2f  %s\n",
                    i + 1, r->name, dv, r->stream, g, b, k->launch.regs_per_thread, sm,
                    r->occ.blocks_per_sm, r->occ.occupancy * 100, gp_limiter_name(r->occ.limiter),
                    r->start_us, r->end_us, r->time_us, bound_text(r, bd, sizeof bd));
        } else {
            char by[24];
            bytes_text(by, sizeof by, (double)r->copy_bytes);
            fprintf(out,
                    "%-3u %-20.20s %s%3u %-14s %-9s %4s %8s %5s %5s %-13s %10.2f %10.2f %10.2f  %s\n",
                    i + 1, r->name, dv, r->stream, by, "", "", "", "", "", "", r->start_us,
                    r->end_us, r->time_us, r->type == GP_CMD_FLUSH_L2 ? "flush" : "copy");
        }
    }
    fprintf(out, "\ntotal %.2f us", pred->total_us);
    if (wl->elapsed.line)
        fprintf(out, " from event '%s' to '%s' (gpuperf.elapsed, line %u); the whole run %.2f us",
                wl->elapsed.start_name, wl->elapsed.stop_name, wl->elapsed.line, pred->run_us);
    {
        double dram = 0;
        for (i = 0; i < pred->n_cmds; i++)
            dram += pred->cmds[i].dram_bytes;
        if (dram > 0 && pred->run_us > 0) {
            char by[24];
            bytes_text(by, sizeof by, dram);
            fprintf(out, "; DRAM traffic %s, %.0f GB/s over the whole run", by,
                    dram / (pred->run_us * 1e3));
        }
    }
    fprintf(out, "\n");
}

void gp_report_predict_csv(FILE *out, const gp_device_t *dev, const gp_workload_t *wl,
                           const gp_prediction_t *pred)
{
    uint32_t i;
    fputs("device,index,name,type,gpu,stream,grid,block,regs,smem_bytes,bytes,blocks_per_sm,"
          "occupancy,limiter,start_us,end_us,time_us,bound\n", out);
    for (i = 0; i < pred->n_cmds; i++) {
        const gp_cmd_result_t *r = &pred->cmds[i];
        gp_cli_csv_field(out, dev->id);
        fprintf(out, ",%u,", i + 1);
        gp_cli_csv_field(out, r->name);
        if (r->type == GP_CMD_LAUNCH) {
            const gp_kernel_t *k = &wl->cmds[r->cmd].kernel;
            fprintf(out, ",kernel,%u,%u,%llu x %llu x %llu,%llu x %llu x %llu,%u,%llu,,%u,%.4f,%s,"
                         "%.3f,%.3f,%.3f,%s\n",
                    r->device, r->stream, (unsigned long long)k->launch.grid.x,
                    (unsigned long long)k->launch.grid.y, (unsigned long long)k->launch.grid.z,
                    (unsigned long long)k->launch.block.x, (unsigned long long)k->launch.block.y,
                    (unsigned long long)k->launch.block.z, k->launch.regs_per_thread,
                    (unsigned long long)(k->launch.static_smem_bytes +
                                         k->launch.dynamic_smem_bytes),
                    r->occ.blocks_per_sm, r->occ.occupancy, gp_limiter_name(r->occ.limiter),
                    r->start_us, r->end_us, r->time_us, gp_bound_name(r->bound));
        } else {
            fprintf(out, ",copy,%u,%u,,,,,%llu,,,,%.3f,%.3f,%.3f,copy\n", r->device, r->stream,
                    (unsigned long long)r->copy_bytes, r->start_us, r->end_us, r->time_us);
        }
    }
    gp_cli_csv_field(out, dev->id);
    fprintf(out, ",,total,total,,,,,,,,,,,,,%.3f,\n", pred->total_us);
}

/* Per-launch JSON. */
static cJSON *launch_json(const gp_device_t *dev, const gp_workload_t *wl,
                          const gp_cmd_result_t *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", r->name);
    cJSON_AddStringToObject(o, "type", r->type == GP_CMD_LAUNCH     ? "kernel"
                                       : r->type == GP_CMD_FLUSH_L2 ? "flush_l2"
                                                                    : "copy");
    cJSON_AddNumberToObject(o, "stream", r->stream);
    cJSON_AddNumberToObject(o, "device", r->device);
    cJSON_AddNumberToObject(o, "line", r->line);
    cJSON_AddNumberToObject(o, "submit_us", r->submit_us);
    cJSON_AddNumberToObject(o, "start_us", r->start_us);
    cJSON_AddNumberToObject(o, "end_us", r->end_us);
    cJSON_AddNumberToObject(o, "time_us", r->time_us);
    if (r->type == GP_CMD_LAUNCH) {
        const gp_kernel_t *k = r->kernel;
        cJSON *g = cJSON_CreateArray(), *b = cJSON_CreateArray();
        cJSON_AddItemToArray(g, cJSON_CreateNumber((double)k->launch.grid.x));
        cJSON_AddItemToArray(g, cJSON_CreateNumber((double)k->launch.grid.y));
        cJSON_AddItemToArray(g, cJSON_CreateNumber((double)k->launch.grid.z));
        cJSON_AddItemToArray(b, cJSON_CreateNumber((double)k->launch.block.x));
        cJSON_AddItemToArray(b, cJSON_CreateNumber((double)k->launch.block.y));
        cJSON_AddItemToArray(b, cJSON_CreateNumber((double)k->launch.block.z));
        cJSON_AddItemToObject(o, "grid", g);
        cJSON_AddItemToObject(o, "block", b);
        cJSON_AddNumberToObject(o, "regs", k->launch.regs_per_thread);
        cJSON_AddNumberToObject(o, "static_smem", (double)k->launch.static_smem_bytes);
        cJSON_AddNumberToObject(o, "dynamic_smem", (double)k->launch.dynamic_smem_bytes);
        cJSON_AddNumberToObject(o, "blocks", (double)r->blocks);
        cJSON_AddNumberToObject(o, "blocks_per_sm", r->occ.blocks_per_sm);
        cJSON_AddNumberToObject(o, "occupancy", r->occ.occupancy);
        cJSON_AddStringToObject(o, "limiter", gp_limiter_name(r->occ.limiter));
        cJSON_AddNumberToObject(o, "waves", r->waves);
        cJSON_AddStringToObject(o, "bound", gp_bound_name(r->bound));
        cJSON_AddStringToObject(o, "bound_pipe", gp_pipe_name(r->cost.bound_pipe));
        cJSON_AddNumberToObject(o, "block_cycles", r->cost.time_cycles);
        cJSON_AddNumberToObject(o, "latency_cycles", r->cost.latency_cycles);
        cJSON_AddNumberToObject(o, "throughput_cycles", r->cost.throughput_cycles);
        cJSON_AddNumberToObject(o, "memory_cycles", r->cost.memory_cycles);
        cJSON_AddNumberToObject(o, "dram_bytes", r->dram_bytes);
        cJSON_AddNumberToObject(o, "l2_bytes", r->l2_bytes);
        cJSON_AddNumberToObject(o, "l2_hit_rate", r->l2_hit_rate);
        cJSON_AddNumberToObject(o, "l2_warm_bytes", r->l2_warm_bytes);
        cJSON_AddNumberToObject(o, "writeback_bytes", r->writeback_bytes);
        cJSON_AddNumberToObject(o, "warp_instructions", r->warp_instructions);
        cJSON_AddNumberToObject(o, "dram_gbps",
                                r->time_us > 0 ? r->dram_bytes / (r->time_us * 1e3) : 0);
    } else if (r->type == GP_CMD_COPY) {
        cJSON_AddNumberToObject(o, "bytes", (double)r->copy_bytes);
        if (r->copy_kind == GP_COPY_P2P)
            cJSON_AddNumberToObject(o, "peer_device", r->peer_device);
        cJSON_AddNumberToObject(o, "gbps",
                                r->time_us > 0 ? (double)r->copy_bytes / (r->time_us * 1e3) : 0);
    }
    (void)dev;
    return o;
}

cJSON *gp_report_device_json(const gp_device_t *dev)
{
    cJSON *o = cJSON_CreateObject();
    char cc[16];
    cJSON_AddStringToObject(o, "id", dev->id);
    cJSON_AddStringToObject(o, "name", dev->name);
    cJSON_AddStringToObject(o, "arch", dev->arch);
    snprintf(cc, sizeof cc, "%u.%u", dev->cc_major, dev->cc_minor);
    cJSON_AddStringToObject(o, "compute_capability", cc);
    cJSON_AddNumberToObject(o, "sm_count", dev->sm_count);
    cJSON_AddNumberToObject(o, "core_clock_mhz", dev->core_clock_mhz);
    cJSON_AddNumberToObject(o, "dram_bandwidth_gbps", dev->dram_bandwidth_gbps);
    cJSON_AddNumberToObject(o, "l2_bytes", (double)dev->l2_bytes);
    return o;
}

cJSON *gp_report_predict_json(const gp_device_t *dev, const gp_workload_t *wl,
                              const gp_prediction_t *pred)
{
    cJSON *doc = cJSON_CreateObject(), *arr = cJSON_CreateArray(), *params = cJSON_CreateObject();
    uint32_t i;
    cJSON_AddStringToObject(doc, "script", wl->script);
    cJSON_AddItemToObject(doc, "device", gp_report_device_json(dev));
    cJSON_AddNumberToObject(doc, "device_count", pred->n_devices ? pred->n_devices : 1);
    for (i = 0; i < wl->n_params; i++) {
        if (wl->params[i].is_string)
            cJSON_AddStringToObject(params, wl->params[i].name, wl->params[i].value_str);
        else
            cJSON_AddNumberToObject(params, wl->params[i].name, wl->params[i].value);
    }
    cJSON_AddItemToObject(doc, "params", params);
    cJSON_AddNumberToObject(doc, "total_us", pred->total_us);
    cJSON_AddNumberToObject(doc, "run_us", pred->run_us);
    if (wl->elapsed.line) {
        cJSON *el = cJSON_CreateObject();
        cJSON_AddStringToObject(el, "start", wl->elapsed.start_name);
        cJSON_AddStringToObject(el, "stop", wl->elapsed.stop_name);
        cJSON_AddNumberToObject(el, "line", wl->elapsed.line);
        cJSON_AddItemToObject(doc, "elapsed", el);
    }
    for (i = 0; i < pred->n_cmds; i++)
        cJSON_AddItemToArray(arr, launch_json(dev, wl, &pred->cmds[i]));
    cJSON_AddItemToObject(doc, "launches", arr);
    return doc;
}

/* Limit as text ("none" for UINT32_MAX). */
static void limit_text(char *out, size_t size, uint32_t v)
{
    if (v == UINT32_MAX)
        snprintf(out, size, "-");
    else
        snprintf(out, size, "%u", v);
}

void gp_report_occupancy_text(FILE *out, const gp_device_t *dev, const gp_launch_t *l,
                              const gp_occupancy_t *o)
{
    char w[16], b[16], r[16], s[16];
    fprintf(out, "%s (%s), compute capability %u.%u\n", dev->name, dev->id, dev->cc_major,
            dev->cc_minor);
    fprintf(out, "  threads per block    %llu (%u warps)\n",
            (unsigned long long)l->threads_per_block, o->warps_per_block);
    fprintf(out, "  registers            %u per thread, %u per block as allocated\n",
            l->regs_per_thread, o->regs_per_block_allocated);
    fprintf(out, "  shared memory        %llu B per block, %llu B as allocated",
            (unsigned long long)(l->static_smem_bytes + l->dynamic_smem_bytes),
            (unsigned long long)o->smem_per_block_allocated);
    if (o->smem_per_sm_configured)
        fprintf(out, ", %llu B per SM configured", (unsigned long long)o->smem_per_sm_configured);
    fprintf(out, "\n");
    if (o->blocks_per_sm == 0) {
        fprintf(out, "  blocks per SM        0: the launch cannot run\n");
        fprintf(out, "  limiter              %s\n", gp_limiter_name(o->limiter));
        fprintf(out, "  why                  %s\n", o->detail);
        return;
    }
    limit_text(w, sizeof w, o->limit_warps);
    limit_text(b, sizeof b, o->limit_blocks);
    limit_text(r, sizeof r, o->limit_registers);
    limit_text(s, sizeof s, o->limit_shared_memory);
    fprintf(out, "  limit per resource   warps %s, blocks %s, registers %s, shared memory %s\n", w,
            b, r, s);
    fprintf(out, "  blocks per SM        %u (limited by %s)\n", o->blocks_per_sm,
            gp_limiter_name(o->limiter));
    fprintf(out, "  active warps         %u of %u\n", o->active_warps, o->max_warps);
    fprintf(out, "  occupancy            %.1f%%\n", o->occupancy * 100);
}

cJSON *gp_report_occupancy_json(const gp_device_t *dev, const gp_launch_t *l,
                                const gp_occupancy_t *o)
{
    cJSON *doc = cJSON_CreateObject(), *lim = cJSON_CreateObject();
    cJSON_AddItemToObject(doc, "device", gp_report_device_json(dev));
    cJSON_AddNumberToObject(doc, "threads_per_block", (double)l->threads_per_block);
    cJSON_AddNumberToObject(doc, "regs_per_thread", l->regs_per_thread);
    cJSON_AddNumberToObject(doc, "smem_per_block",
                            (double)(l->static_smem_bytes + l->dynamic_smem_bytes));
    cJSON_AddNumberToObject(doc, "blocks_per_sm", o->blocks_per_sm);
    cJSON_AddNumberToObject(doc, "active_warps", o->active_warps);
    cJSON_AddNumberToObject(doc, "max_warps", o->max_warps);
    cJSON_AddNumberToObject(doc, "occupancy", o->occupancy);
    cJSON_AddStringToObject(doc, "limiter", gp_limiter_name(o->limiter));
    cJSON_AddNumberToObject(doc, "warps_per_block", o->warps_per_block);
    cJSON_AddNumberToObject(doc, "regs_per_block_allocated", o->regs_per_block_allocated);
    cJSON_AddNumberToObject(doc, "smem_per_block_allocated", (double)o->smem_per_block_allocated);
    cJSON_AddNumberToObject(doc, "smem_per_sm_configured", (double)o->smem_per_sm_configured);
#define LIM(name, v)                                                                 \
    if ((v) == UINT32_MAX)                                                           \
        cJSON_AddNullToObject(lim, name);                                            \
    else                                                                             \
        cJSON_AddNumberToObject(lim, name, v)
    LIM("warps", o->limit_warps);
    LIM("blocks", o->limit_blocks);
    LIM("registers", o->limit_registers);
    LIM("shared_memory", o->limit_shared_memory);
    LIM("barriers", o->limit_barriers);
#undef LIM
    cJSON_AddItemToObject(doc, "limits", lim);
    if (o->blocks_per_sm == 0)
        cJSON_AddStringToObject(doc, "detail", o->detail);
    return doc;
}
