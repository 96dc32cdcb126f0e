/*
 * gpuperf.c - the public interface (gpuperf/gpuperf.h) over the library's
 * modules: devices and plugins, script runs and their predictions, the
 * occupancy calculator. Validation tables are in validate.c.
 */
#include <stdlib.h>
#include <string.h>

#include "gpuperf/gpuperf.h"

#include "arch.h"
#include "device.h"
#include "engine.h"
#include "occupancy_search.h"
#include "script.h"
#include "util.h"
#include "workload.h"

struct gp_gpu {
    gp_device_t dev;
    const gp_arch_t *arch;
};

struct gp_plugin_file {
    gp_arch_t arch;
    char ccs[256];
};

struct gp_run {
    gp_workload_t wl;
    gp_prediction_t pred;
};

/* Copy an internal error into the caller's public one. */
static int fail(gp_error_t *out, const gp_err_t *in)
{
    if (out)
        gp_strlcpy(out->msg, in->msg, sizeof out->msg);
    return -1;
}

/* A message of our own into the caller's error. */
static int fail_text(gp_error_t *out, const char *msg)
{
    if (out)
        gp_strlcpy(out->msg, msg, sizeof out->msg);
    return -1;
}

GP_API const char *gp_version(void)
{
    return GP_VERSION;
}

/* ------------------------------------------------------------ devices */

GP_API int gp_gpu_open(const char *name_or_path, gp_gpu_t **out, gp_error_t *err)
{
    gp_gpu_t *g;
    gp_err_t e;
    *out = NULL;
    if (!name_or_path || !*name_or_path)
        return fail_text(err, "no device given: a name (h200-sxm) or a path to an .ini file");
    g = calloc(1, sizeof *g);
    if (!g)
        return fail_text(err, "out of memory");
    if (gp_device_open(name_or_path, &g->dev, &g->arch, &e)) {
        free(g);
        return fail(err, &e);
    }
    *out = g;
    return 0;
}

GP_API void gp_gpu_close(gp_gpu_t *gpu)
{
    free(gpu);
}

GP_API void gp_gpu_info(const gp_gpu_t *gpu, gp_gpu_info_t *out)
{
    const gp_device_t *d = &gpu->dev;
    memset(out, 0, sizeof *out);
    out->id = d->id;
    out->name = d->name;
    out->arch = d->arch;
    out->plugin_path = gpu->arch->path;
    out->cc_major = d->cc_major;
    out->cc_minor = d->cc_minor;
    out->sm_count = d->sm_count;
    out->warp_size = d->warp_size;
    out->max_threads_per_block = d->max_threads_per_block;
    out->max_registers_per_thread = d->max_registers_per_thread;
    out->shared_memory_per_sm_bytes = d->shared_memory_per_sm_bytes;
    out->core_clock_mhz = d->core_clock_mhz;
    out->dram_bandwidth_gbps = d->dram_bandwidth_gbps;
    out->l2_bytes = d->l2_bytes;
}

/* ------------------------------------------------------------ plugins */

GP_API int gp_plugin_file_open(const char *path, gp_plugin_file_t **out, gp_error_t *err)
{
    gp_plugin_file_t *p;
    gp_err_t e;
    *out = NULL;
    p = calloc(1, sizeof *p);
    if (!p)
        return fail_text(err, "out of memory");
    if (gp_arch_open_file(path, &p->arch, &e)) {
        free(p);
        return fail(err, &e);
    }
    gp_arch_ccs_text(&p->arch, p->ccs, sizeof p->ccs);
    *out = p;
    return 0;
}

GP_API void gp_plugin_file_close(gp_plugin_file_t *p)
{
    if (!p)
        return;
    gp_arch_close(&p->arch);
    free(p);
}

GP_API void gp_plugin_file_info(const gp_plugin_file_t *p, gp_plugin_info_t *out)
{
    memset(out, 0, sizeof *out);
    out->name = p->arch.plugin->name;
    out->description = p->arch.plugin->description;
    out->path = p->arch.path;
    out->ccs = p->ccs;
    out->abi_major = p->arch.plugin->abi_major;
    out->abi_minor = p->arch.plugin->abi_minor;
}

/* ------------------------------------------------------------ runs */

GP_API int gp_run_script(const gp_gpu_t *gpu, const char *script_path, const gp_param_t *params,
                         size_t n_params, const gp_run_opts_t *opts, gp_run_t **out,
                         gp_error_t *err)
{
    gp_script_opts_t so = {0, 0};
    gp_param_kv_t kv[64];
    gp_script_t *sc;
    gp_run_t *r;
    gp_err_t e;
    size_t i;
    int rc;
    *out = NULL;
    if (n_params > GP_ARRAY_LEN(kv))
        return fail_text(err, "more than 64 script parameters");
    for (i = 0; i < n_params; i++) {
        if (!params[i].key || !params[i].value)
            return fail_text(err, "a script parameter without key or value");
        kv[i].key = params[i].key;
        kv[i].value = params[i].value;
        kv[i].number = NULL;
    }
    if (opts) {
        so.instruction_budget = opts->instruction_budget;
        so.memory_cap_bytes = opts->memory_cap_bytes;
    }
    r = calloc(1, sizeof *r);
    if (!r)
        return fail_text(err, "out of memory");
    sc = gp_script_open(script_path, &so, &e);
    if (!sc) {
        free(r);
        return fail(err, &e);
    }
    rc = gp_script_set_devices(sc, opts ? opts->gpus : 0, &e);
    if (rc == 0)
        rc = gp_script_eval(sc, &gpu->dev, kv, n_params, &r->wl, &e);
    gp_script_close(sc);
    if (rc == 0 && gp_predict(&gpu->dev, gpu->arch, &r->wl, NULL, &r->pred, &e)) {
        gp_workload_free(&r->wl);
        rc = -1;
    }
    if (rc) {
        free(r);
        return fail(err, &e);
    }
    *out = r;
    return 0;
}

GP_API void gp_run_free(gp_run_t *run)
{
    if (!run)
        return;
    gp_prediction_free(&run->pred);
    gp_workload_free(&run->wl);
    free(run);
}

GP_API double gp_run_total_us(const gp_run_t *run)
{
    return run->pred.total_us;
}

GP_API unsigned gp_run_gpus(const gp_run_t *run)
{
    return run->pred.n_devices;
}

GP_API size_t gp_run_count(const gp_run_t *run)
{
    return run->pred.n_cmds;
}

GP_API int gp_run_cmd(const gp_run_t *run, size_t i, gp_run_cmd_t *out)
{
    static const char *const copy_kinds[GP_COPY_KIND_COUNT] = {"h2d", "d2h", "d2d", "p2p"};
    const gp_cmd_result_t *r;
    memset(out, 0, sizeof *out);
    if (i >= run->pred.n_cmds)
        return -1;
    r = &run->pred.cmds[i];
    out->name = r->name;
    out->stream = r->stream;
    out->device = r->device;
    out->line = r->line;
    out->submit_us = r->submit_us;
    out->start_us = r->start_us;
    out->end_us = r->end_us;
    out->time_us = r->time_us;
    out->limiter = out->bound = out->copy_kind = "";
    if (r->type == GP_CMD_LAUNCH) {
        const gp_launch_t *l = &run->wl.cmds[r->cmd].kernel.launch;
        out->type = "launch";
        out->grid_blocks = gp_mul_sat_u64(gp_mul_sat_u64(l->grid.x, l->grid.y), l->grid.z);
        out->threads_per_block = l->threads_per_block;
        out->regs_per_thread = l->regs_per_thread;
        out->smem_per_block_bytes = l->static_smem_bytes + l->dynamic_smem_bytes;
        out->blocks_per_sm = r->occ.blocks_per_sm;
        out->active_warps = r->occ.active_warps;
        out->max_warps = r->occ.max_warps;
        out->occupancy = r->occ.occupancy;
        out->limiter = gp_limiter_name(r->occ.limiter);
        out->bound = gp_bound_name(r->bound);
        out->waves = r->waves;
        out->dram_bytes = r->dram_bytes;
        out->l2_bytes = r->l2_bytes;
        out->l2_hit_rate = r->l2_hit_rate;
    } else {
        out->type = "copy";
        out->copy_kind = r->copy_kind < GP_COPY_KIND_COUNT ? copy_kinds[r->copy_kind] : "?";
        out->copy_bytes = r->copy_bytes;
    }
    return 0;
}

/* ------------------------------------------------------------ occupancy */

/* The public view of a plugin's occupancy. */
static void occ_out(const gp_occupancy_t *o, gp_occ_result_t *out)
{
    memset(out, 0, sizeof *out);
    out->blocks_per_sm = o->blocks_per_sm;
    out->warps_per_block = o->warps_per_block;
    out->active_warps = o->active_warps;
    out->max_warps = o->max_warps;
    out->occupancy = o->occupancy;
    out->limiter = gp_limiter_name(o->limiter);
    out->limit_warps = o->limit_warps;
    out->limit_blocks = o->limit_blocks;
    out->limit_registers = o->limit_registers;
    out->limit_shared_memory = o->limit_shared_memory;
    out->limit_barriers = o->limit_barriers;
    out->regs_per_block_allocated = o->regs_per_block_allocated;
    out->smem_per_block_allocated = o->smem_per_block_allocated;
    out->smem_per_sm_configured = o->smem_per_sm_configured;
    gp_strlcpy(out->detail, o->detail, sizeof out->detail);
}

GP_API int gp_occ_compute(const gp_gpu_t *gpu, const gp_occ_config_t *cfg, gp_occ_result_t *out,
                          gp_error_t *err)
{
    gp_occ_target_t t = {&gpu->dev, gpu->arch};
    gp_occupancy_t o;
    gp_err_t e;
    if (gp_occ_eval(&t, cfg, &o, &e))
        return fail(err, &e);
    occ_out(&o, out);
    return 0;
}

GP_API int gp_occ_best_block_size(const gp_gpu_t *gpu, const gp_occ_config_t *cfg,
                                  gp_occ_block_size_t *out, gp_error_t *err)
{
    gp_occ_target_t t = {&gpu->dev, gpu->arch};
    gp_occ_best_t b;
    gp_err_t e;
    memset(out, 0, sizeof *out);
    if (gp_occ_best_block(&t, cfg, &b, &e))
        return fail(err, &e);
    out->threads = b.threads;
    out->threads_largest = b.threads_largest;
    occ_out(&b.occ, &out->occ);
    out->min_grid_blocks = b.min_grid_blocks;
    out->min_grid_blocks_largest = b.min_grid_blocks_largest;
    out->limit_threads = b.limit_threads;
    return 0;
}

GP_API int gp_occ_next_steps(const gp_gpu_t *gpu, const gp_occ_config_t *cfg,
                             gp_occ_change_t out[GP_OCC_KNOB_COUNT], gp_error_t *err)
{
    gp_occ_target_t t = {&gpu->dev, gpu->arch};
    gp_occ_step_t steps[GP_OCC_KNOB_COUNT];
    gp_occupancy_t now;
    gp_err_t e;
    int k;
    memset(out, 0, sizeof(gp_occ_change_t) * GP_OCC_KNOB_COUNT);
    if (gp_occ_eval(&t, cfg, &now, &e) || gp_occ_advise(&t, cfg, &now, steps, &e))
        return fail(err, &e);
    for (k = 0; k < GP_OCC_KNOB_COUNT; k++) {
        out[k].found = steps[k].found;
        if (!steps[k].found)
            continue;
        out[k].value = steps[k].value;
        memcpy(out[k].values, steps[k].values, sizeof out[k].values);
        out[k].changed = steps[k].changed;
        occ_out(&steps[k].occ, &out[k].occ);
        gp_occ_step_text(out[k].advice, sizeof out[k].advice, (gp_occ_knob_t)k, &steps[k],
                         &now);
    }
    return 0;
}
