/*
 * workload.c - ownership helpers for gp_workload_t.
 */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

void gp_workload_free_cmds(gp_command_t *cmds, uint32_t n)
{
    uint32_t i;
    for (i = 0; cmds && i < n; i++) {
        if (cmds[i].type == GP_CMD_LAUNCH) {
            free((void *)cmds[i].kernel.name);
            free((void *)cmds[i].kernel.ops);
        }
    }
}

void gp_workload_free(gp_workload_t *wl)
{
    uint32_t i;
    if (!wl)
        return;
    gp_workload_free_cmds(wl->cmds, wl->n_cmds);
    for (i = 0; wl->graphs && i < wl->n_graphs; i++) {
        gp_workload_free_cmds(wl->graphs[i].cmds, wl->graphs[i].n_cmds);
        free(wl->graphs[i].cmds);
    }
    free(wl->graphs);
    for (i = 0; i < wl->n_samples; i++)
        free(wl->samples[i]);
    free(wl->samples);
    free(wl->cmds);
    free(wl->buffers);
    free(wl->streams);
    free(wl->params);
    memset(wl, 0, sizeof *wl);
}

uint32_t gp_workload_launches(const gp_workload_t *wl)
{
    uint32_t i, n = 0;
    for (i = 0; i < wl->n_cmds; i++)
        n += wl->cmds[i].type == GP_CMD_LAUNCH;
    return n;
}

/* 1 if a command of this type runs on a device (a node of the engine). */
static int runs(uint32_t type)
{
    return type == GP_CMD_LAUNCH || type == GP_CMD_COPY || type == GP_CMD_FLUSH_L2;
}

uint64_t gp_workload_instances(const gp_workload_t *wl)
{
    uint64_t n = 0, add;
    uint32_t i;
    for (i = 0; i < wl->n_cmds; i++) {
        const gp_command_t *c = &wl->cmds[i];
        if (runs(c->type))
            add = 1;
        else if (c->type == GP_CMD_GRAPH && c->graph < wl->n_graphs)
            add = wl->graphs[c->graph].n_nodes;
        else
            continue;
        n = n > UINT64_MAX - add ? UINT64_MAX : n + add;
    }
    return n;
}
