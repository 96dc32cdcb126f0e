/*
 * arch.c - loading architecture plugins, checking them, calling them safely.
 */
#include "arch.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "blockcost.h"
#include "coalesce.h"
#include "log.h"
#include "occupancy.h"
#include "opcost.h"

#define MAX_LOADED 64

static gp_arch_t g_loaded[MAX_LOADED];
static size_t g_n_loaded;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

/* The services handed to plugins: helpers that never call back into one. */
static const gp_host_t g_host = {
    .abi_major = GP_ABI_MAJOR,
    .abi_minor = GP_ABI_MINOR,
    .size = sizeof(gp_host_t),
    .log = gp_log_plugin,
    .pattern_lanes = gp_pattern_lanes,
    .coalesce_lanes = gp_coalesce_lanes,
    .coalesce_access = gp_coalesce_access,
    .reuse_hit_rate = gp_reuse_hit_rate,
    .op_grid_bytes = gp_op_grid_bytes,
};

const gp_host_t *gp_host(void)
{
    return &g_host;
}

/* 1 if s is a valid plugin name: [a-z0-9_-]+, at most GP_NAME_MAX-1. */
static int valid_plugin_name(const char *s)
{
    size_t i;
    if (!s || !*s || strlen(s) >= GP_NAME_MAX)
        return 0;
    for (i = 0; s[i]; i++)
        if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '-' ||
              s[i] == '_'))
            return 0;
    return 1;
}

/* Check everything in a descriptor before anything else is trusted. */
static int check_descriptor(const char *path, const gp_plugin_t *p, gp_err_t *err)
{
    uint32_t i;
    if (p->abi_major != GP_ABI_MAJOR)
        return gp_err_set(err,
                          "%s: plugin ABI %u.%u, but gpuperf speaks ABI %d.%d (major versions "
                          "must match); rebuild the plugin against this gpuperf's plugin.h",
                          path, p->abi_major, p->abi_minor, GP_ABI_MAJOR, GP_ABI_MINOR);
    if (p->abi_minor > GP_ABI_MINOR)
        return gp_err_set(err,
                          "%s: plugin ABI %u.%u is newer than gpuperf's %d.%d; upgrade gpuperf "
                          "or rebuild the plugin against this plugin.h",
                          path, p->abi_major, p->abi_minor, GP_ABI_MAJOR, GP_ABI_MINOR);
    if (!valid_plugin_name(p->name))
        return gp_err_set(err, "%s: descriptor name is missing or not [a-z0-9_-]+", path);
    if (!p->description)
        return gp_err_set(err, "%s: plugin '%s' has no description", path, p->name);
    if (p->n_gens == 0 || p->n_gens > GP_MAX_CCS || !p->gens)
        return gp_err_set(err, "%s: plugin '%s' describes %u generations (1..%d)", path,
                          p->name, p->n_gens, GP_MAX_CCS);
    for (i = 0; i < p->n_gens; i++) {
        const gp_generation_t *g = &p->gens[i];
        uint32_t j;
        if (g->cc.major == 0 || g->cc.major > 99 || g->cc.minor > 9)
            return gp_err_set(err, "%s: plugin '%s' declares compute capability %u.%u", path,
                              p->name, g->cc.major, g->cc.minor);
        for (j = 0; j < i; j++)
            if (p->gens[j].cc.major == g->cc.major && p->gens[j].cc.minor == g->cc.minor)
                return gp_err_set(err, "%s: plugin '%s' describes compute capability %u.%u twice",
                                  path, p->name, g->cc.major, g->cc.minor);
        if (!g->alloc || !g->mem)
            return gp_err_set(err,
                              "%s: plugin '%s': generation %u.%u lacks its %s rules",
                              path, p->name, g->cc.major, g->cc.minor,
                              g->alloc ? "memory" : "allocation");
        if (g->alloc->reg_alloc_unit == 0 || g->alloc->warp_alloc_granularity == 0 ||
            g->alloc->smem_alloc_unit == 0)
            return gp_err_set(err,
                              "%s: plugin '%s': generation %u.%u has a zero allocation unit "
                              "(reg_alloc_unit, warp_alloc_granularity, smem_alloc_unit)",
                              path, p->name, g->cc.major, g->cc.minor);
        if (g->mem->banks == 0 || g->mem->bank_bytes == 0)
            return gp_err_set(err,
                              "%s: plugin '%s': generation %u.%u has no shared-memory banks "
                              "(banks, bank_bytes)",
                              path, p->name, g->cc.major, g->cc.minor);
    }
    if (p->n_params > GP_MAX_ARCH_PARAMS || (p->n_params && !p->params))
        return gp_err_set(err, "%s: plugin '%s' declares %u [arch] keys (at most %d)", path,
                          p->name, p->n_params, GP_MAX_ARCH_PARAMS);
    for (i = 0; i < p->n_params; i++) {
        const gp_param_spec_t *ps = &p->params[i];
        if (!ps->key || !*ps->key || strlen(ps->key) >= 64 || !gp_is_plain_name(ps->key))
            return gp_err_set(err, "%s: plugin '%s' declares an invalid [arch] key #%u", path,
                              p->name, i);
        if (!(ps->min <= ps->default_value && ps->default_value <= ps->max) ||
            !isfinite(ps->min) || !isfinite(ps->max))
            return gp_err_set(err, "%s: plugin '%s': [arch] %s has default %g outside %g..%g",
                              path, p->name, ps->key, ps->default_value, ps->min, ps->max);
    }
    return 0;
}

int gp_arch_open_file(const char *path, gp_arch_t *out, gp_err_t *err)
{
    void *h;
    void *sym;
    gp_plugin_entry_fn entry;
    const gp_plugin_t *p;
    struct stat st;
    memset(out, 0, sizeof *out);
    /* dlopen would block on a FIFO and read a device file to its end */
    if (stat(path, &st) != 0)
        return gp_err_set(err, "%s: not a loadable plugin: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return gp_err_set(err, "%s: not a loadable plugin: not a regular file", path);
    dlerror();
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        return gp_err_set(err, "%s: not a loadable plugin: %s", path,
                          why ? why : "unknown dlopen error");
    }
    dlerror();
    sym = dlsym(h, GP_PLUGIN_SYMBOL);
    if (!sym) {
        dlclose(h);
        return gp_err_set(err,
                          "%s: no '%s' symbol: not a gpuperf plugin (a plugin exports "
                          "GP_PLUGIN_EXPORT const gp_plugin_t *%s(void))",
                          path, GP_PLUGIN_SYMBOL, GP_PLUGIN_SYMBOL);
    }
    memcpy(&entry, &sym, sizeof entry);
    p = entry();
    if (!p) {
        dlclose(h);
        return gp_err_set(err, "%s: %s() returned no descriptor", path, GP_PLUGIN_SYMBOL);
    }
    if (check_descriptor(path, p, err)) {
        dlclose(h);
        return -1;
    }
    out->handle = h;
    out->plugin = p;
    gp_strlcpy(out->path, path, sizeof out->path);
    return 0;
}

void gp_arch_close(gp_arch_t *a)
{
    if (a && a->handle)
        dlclose(a->handle);
    if (a)
        memset(a, 0, sizeof *a);
}

const gp_arch_t *gp_arch_get(const char *name, gp_err_t *err)
{
    gp_search_path_t sp;
    size_t i;
    const gp_arch_t *found = NULL;
    char first_error[600] = "";
    pthread_mutex_lock(&g_lock);
    for (i = 0; i < g_n_loaded; i++)
        if (strcmp(g_loaded[i].plugin->name, name) == 0) {
            found = &g_loaded[i];
            goto out;
        }
    if (!valid_plugin_name(name)) {
        gp_err_set(err, "'%s' is not a plugin name", name);
        goto out;
    }
    gp_paths_plugins(&sp);
    for (i = 0; i < sp.n && !found; i++) {
        char path[GP_PATH_MAX];
        struct stat st;
        gp_arch_t a;
        gp_err_t e;
        gp_snprintf(path, sizeof path, "%s/%s.so", sp.dirs[i], name);
        if (stat(path, &st) != 0) /* not opened: a FIFO would block */
            continue;
        if (gp_arch_open_file(path, &a, &e)) {
            if (!*first_error)
                gp_strlcpy(first_error, e.msg, sizeof first_error);
            continue;
        }
        if (strcmp(a.plugin->name, name) != 0) {
            if (!*first_error)
                gp_snprintf(first_error, sizeof first_error,
                            "%s: file is named %s.so but its descriptor says '%s'", path, name,
                            a.plugin->name);
            gp_arch_close(&a);
            continue;
        }
        if (g_n_loaded == MAX_LOADED) {
            gp_arch_close(&a);
            gp_err_set(err, "more than %d plugins loaded", MAX_LOADED);
            goto out;
        }
        g_loaded[g_n_loaded] = a;
        found = &g_loaded[g_n_loaded++];
    }
    if (!found) {
        char dirs[1024] = "";
        for (i = 0; i < sp.n; i++)
            if (strlen(dirs) + strlen(sp.dirs[i]) + 3 < sizeof dirs) {
                if (*dirs)
                    strcat(dirs, ", ");
                strcat(dirs, sp.dirs[i]);
            }
        if (*first_error)
            gp_err_set(err, "plugin '%s' did not load: %s", name, first_error);
        else
            gp_err_set(err,
                       "no plugin named '%s' (looked for %s.so in: %s); `gpuperf plugins` "
                       "lists what is installed, GPUPERF_PLUGIN_PATH adds folders",
                       name, name, *dirs ? dirs : "no plugin folder exists");
    }
out:
    pthread_mutex_unlock(&g_lock);
    return found;
}

void gp_arch_unload_all(void)
{
    size_t i;
    pthread_mutex_lock(&g_lock);
    for (i = 0; i < g_n_loaded; i++)
        gp_arch_close(&g_loaded[i]);
    g_n_loaded = 0;
    pthread_mutex_unlock(&g_lock);
}

void gp_arch_scan(gp_arch_scan_fn fn, void *ud)
{
    gp_search_path_t sp;
    size_t i;
    gp_paths_plugins(&sp);
    for (i = 0; i < sp.n; i++) {
        char **names;
        size_t n, j;
        if (gp_list_dir(sp.dirs[i], ".so", &names, &n) != 0)
            continue;
        for (j = 0; j < n; j++) {
            char path[GP_PATH_MAX];
            gp_arch_t a;
            gp_err_t e;
            gp_snprintf(path, sizeof path, "%s/%s", sp.dirs[i], names[j]);
            if (gp_arch_open_file(path, &a, &e) == 0) {
                fn(ud, path, &a, NULL);
                gp_arch_close(&a);
            } else {
                fn(ud, path, NULL, e.msg);
            }
        }
        gp_free_names(names, n);
    }
}

const gp_generation_t *gp_arch_generation(const gp_arch_t *a, uint32_t major, uint32_t minor)
{
    uint32_t i;
    for (i = 0; i < a->plugin->n_gens; i++)
        if (a->plugin->gens[i].cc.major == major && a->plugin->gens[i].cc.minor == minor)
            return &a->plugin->gens[i];
    return NULL;
}

int gp_arch_serves(const gp_arch_t *a, uint32_t major, uint32_t minor)
{
    return gp_arch_generation(a, major, minor) != NULL;
}

/* The generation of dev, or NULL with a message. */
static const gp_generation_t *gen_of(const gp_arch_t *a, const gp_device_t *dev, char *err,
                                     size_t errlen)
{
    const gp_generation_t *g = gp_arch_generation(a, dev->cc_major, dev->cc_minor);
    char ccs[256];
    if (!g) {
        gp_arch_ccs_text(a, ccs, sizeof ccs);
        snprintf(err, errlen,
                 "%s is compute capability %u.%u; the %s plugin serves %s: set "
                 "compute_capability in the device file or pick another plugin",
                 dev->name, dev->cc_major, dev->cc_minor, a->plugin->name, ccs);
    }
    return g;
}

void gp_arch_ccs_text(const gp_arch_t *a, char *out, size_t size)
{
    uint32_t i;
    size_t used = 0;
    out[0] = '\0';
    for (i = 0; i < a->plugin->n_gens && used + 8 < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%u.%u", i ? ", " : "",
                                 a->plugin->gens[i].cc.major, a->plugin->gens[i].cc.minor);
}

/* ------------------------------------------------------------ checked calls */

/* 1 if x is finite and >= 0. */
static int ok_nonneg(double x)
{
    return isfinite(x) && x >= 0;
}

int gp_arch_call_occupancy(const gp_arch_t *a, const gp_device_t *dev,
                           const gp_launch_t *launch, gp_occupancy_t *out, char *err,
                           size_t errlen)
{
    const gp_generation_t *g = gen_of(a, dev, err, errlen);
    memset(out, 0, sizeof *out);
    if (!g)
        return -1;
    if (a->plugin->occupancy) {
        int rc = a->plugin->occupancy(gp_host(), g, dev, launch, out, err, errlen);
        if (rc != GP_DEFAULT)
            return rc;
        memset(out, 0, sizeof *out);
    }
    return gp_occupancy_compute(dev, launch, g->alloc, out, err, errlen);
}

int gp_arch_call_op_cost(const gp_arch_t *a, const gp_device_t *dev, const gp_kernel_t *k,
                         const gp_op_t *op, const gp_occupancy_t *occ,
                         const gp_residency_t *res, gp_op_cost_t *out, char *err,
                         size_t errlen)
{
    const gp_generation_t *g = gen_of(a, dev, err, errlen);
    memset(out, 0, sizeof *out);
    if (!g)
        return -1;
    return gp_op_cost(a->plugin, g, dev, k, op, occ, res, out, err, errlen);
}

/* gp_arch_call_block_cost, the core's walk keeping op costs in memo. */
static int call_block_cost(const gp_arch_t *a, const gp_device_t *dev, const gp_kernel_t *k,
                           const gp_occupancy_t *occ, const gp_residency_t *res,
                           gp_op_memo_t *memo, gp_block_cost_t *out, char *err, size_t errlen)
{
    const gp_generation_t *g = gen_of(a, dev, err, errlen);
    memset(out, 0, sizeof *out);
    if (!g)
        return -1;
    if (a->plugin->block_cost) {
        int rc = a->plugin->block_cost(gp_host(), g, dev, k, occ, res, out, err, errlen);
        if (rc != GP_DEFAULT)
            return rc;
        memset(out, 0, sizeof *out);
    }
    return gp_block_cost_memo(a->plugin, g, dev, k, occ, res, memo, out, err, errlen);
}

int gp_arch_call_block_cost(const gp_arch_t *a, const gp_device_t *dev, const gp_kernel_t *k,
                            const gp_occupancy_t *occ, const gp_residency_t *res,
                            gp_block_cost_t *out, char *err, size_t errlen)
{
    return call_block_cost(a, dev, k, occ, res, NULL, out, err, errlen);
}

int gp_arch_call_check_device(const gp_arch_t *a, const gp_device_t *dev, char *err,
                              size_t errlen)
{
    const gp_generation_t *g = gen_of(a, dev, err, errlen);
    if (!g)
        return -1;
    if (!a->plugin->check_device)
        return 0;
    return a->plugin->check_device(gp_host(), g, dev, err, errlen);
}

int gp_arch_occupancy(const gp_arch_t *a, const gp_device_t *dev, const gp_launch_t *launch,
                      gp_occupancy_t *out, gp_err_t *err)
{
    char msg[512] = "";
    memset(out, 0, sizeof *out);
    if (gp_arch_call_occupancy(a, dev, launch, out, msg, sizeof msg) != 0) {
        msg[sizeof msg - 1] = '\0';
        return gp_err_set(err, "plugin '%s' (occupancy): %s", a->plugin->name,
                          *msg ? msg : "failed without a reason");
    }
    out->detail[sizeof out->detail - 1] = '\0';
    if (out->limiter >= GP_LIMIT_COUNT || !(out->occupancy >= 0 && out->occupancy <= 1.0001) ||
        out->blocks_per_sm > dev->max_blocks_per_sm ||
        (out->blocks_per_sm > 0 && out->warps_per_block == 0))
        return gp_err_set(err,
                          "plugin '%s' (occupancy) returned an impossible result: %u blocks, "
                          "occupancy %g, limiter %u",
                          a->plugin->name, out->blocks_per_sm, out->occupancy, out->limiter);
    return 0;
}

int gp_arch_block_cost(const gp_arch_t *a, const gp_device_t *dev, const gp_kernel_t *k,
                       const gp_occupancy_t *occ, const gp_residency_t *res,
                       gp_block_cost_t *out, gp_err_t *err)
{
    return gp_arch_block_cost_memo(a, dev, k, occ, res, NULL, out, err);
}

int gp_arch_block_cost_memo(const gp_arch_t *a, const gp_device_t *dev, const gp_kernel_t *k,
                            const gp_occupancy_t *occ, const gp_residency_t *res,
                            gp_op_memo_t *memo, gp_block_cost_t *out, gp_err_t *err)
{
    char msg[512];
    msg[0] = '\0';
    memset(out, 0, sizeof *out);
    if (call_block_cost(a, dev, k, occ, res, memo, out, msg, sizeof msg) != 0) {
        msg[sizeof msg - 1] = '\0';
        return gp_err_set(err, "plugin '%s' (block_cost) for kernel '%s': %s", a->plugin->name,
                          k->name, *msg ? msg : "failed without a reason");
    }
    if (!(isfinite(out->time_cycles) && out->time_cycles > 0))
        return gp_err_set(err,
                          "plugin '%s' (block_cost) returned a block time of %g cycles for "
                          "kernel '%s'; times must be positive and finite",
                          a->plugin->name, out->time_cycles, k->name);
    {
        /* every other number a report shows must be finite and >= 0 too */
        const struct {
            const char *name;
            double v;
        } f[] = {{"latency_cycles", out->latency_cycles},
                 {"throughput_cycles", out->throughput_cycles},
                 {"memory_cycles", out->memory_cycles},
                 {"warp_instructions", out->warp_instructions},
                 {"l1_bytes", out->l1_bytes},
                 {"l2_bytes", out->l2_bytes},
                 {"dram_bytes", out->dram_bytes}};
        size_t i;
        int p;
        for (i = 0; i < GP_ARRAY_LEN(f); i++)
            if (!ok_nonneg(f[i].v))
                return gp_err_set(err,
                                  "plugin '%s' (block_cost) returned %s = %g for kernel '%s'; "
                                  "it must be finite and not negative (the kernel's work may "
                                  "be too large to count)",
                                  a->plugin->name, f[i].name, f[i].v, k->name);
        for (p = 0; p < GP_PIPE_COUNT; p++)
            if (!ok_nonneg(out->pipe_cycles[p]))
                return gp_err_set(err,
                                  "plugin '%s' (block_cost) returned %g busy cycles on pipe "
                                  "'%s' for kernel '%s'; they must be finite and not negative",
                                  a->plugin->name, out->pipe_cycles[p], gp_pipe_name((uint32_t)p),
                                  k->name);
    }
    if (out->bound >= GP_BOUND_COUNT || out->bound_pipe >= GP_PIPE_COUNT)
        return gp_err_set(err,
                          "plugin '%s' (block_cost) returned bound %u / pipe %u for kernel "
                          "'%s', which gpuperf does not know",
                          a->plugin->name, out->bound, out->bound_pipe, k->name);
    return 0;
}

int gp_arch_info(const gp_arch_t *a, const gp_device_t *dev, gp_arch_info_t *out,
                 gp_err_t *err)
{
    char msg[512] = "";
    const gp_generation_t *g = gen_of(a, dev, msg, sizeof msg);
    memset(out, 0, sizeof *out);
    if (!g)
        return gp_err_set(err, "plugin '%s': %s", a->plugin->name, msg);
    *out = g->info;
    if (out->max_concurrent_kernels == 0)
        out->max_concurrent_kernels = 1;
    return 0;
}

const char *gp_limiter_name(uint32_t limiter)
{
    static const char *const names[GP_LIMIT_COUNT] = {
        "none",          "warps",          "blocks",          "registers",
        "shared_memory", "barriers",       "block_size",      "registers_per_thread",
        "registers_per_block", "shared_memory_per_block", "grid_size"};
    return limiter < GP_LIMIT_COUNT ? names[limiter] : "?";
}

const char *gp_bound_name(uint32_t bound)
{
    static const char *const names[GP_BOUND_COUNT] = {
        "latency", "issue", "compute", "shared_memory", "l1", "l2", "dram",
        "memory_latency", "block_dispatch"};
    return bound < GP_BOUND_COUNT ? names[bound] : "?";
}

const char *gp_op_kind_name(uint32_t kind)
{
    static const char *const names[GP_OP_KIND_COUNT] = {
        "fp32", "fp64", "fp16", "int", "sfu", "conversion", "branch", "barrier", "tensor",
        "load", "store", "atomic", "async_copy", "loop", "diverge", "shfl", "vote", "match",
        "warp_reduce", "idiv", "fdiv", "rcp"};
    return kind < GP_OP_KIND_COUNT ? names[kind] : "?";
}

const char *gp_pipe_name(uint32_t pipe)
{
    static const char *const names[GP_PIPE_COUNT] = {
        "issue", "fp32", "fp64", "fp16", "int", "sfu", "conversion", "tensor",
        "ldst", "shared", "l1"};
    return pipe < GP_PIPE_COUNT ? names[pipe] : "?";
}
