/*
 * workload.c - ownership helpers for gp_workload_t.
 */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

void gp_workload_free(gp_workload_t *wl)
{
    uint32_t i;
    if (!wl)
        return;
    for (i = 0; i < wl->n_cmds; i++) {
        if (wl->cmds[i].type == GP_CMD_LAUNCH) {
            free((void *)wl->cmds[i].kernel.name);
            free((void *)wl->cmds[i].kernel.ops);
        }
    }
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
