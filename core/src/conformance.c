/*
 * conformance.c - the conformance run of a plugin: the table of checks, the
 * report, the descriptor checks, choosing devices, and calling the plugin
 * with the call in progress recorded (conformance_occ.c and
 * conformance_cost.c hold the callback checks).
 */
#include "conformance.h"

#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance_internal.h"
#include "device.h"
#include "opcost.h"

/* The checks; docs/plugins.md ("Conformance") describes the same list. */
static const gp_conf_check_t CHECKS[GP_CONF_N_CHECKS] = {
    [GP_CONF_DESCRIPTOR] = {"descriptor",
                            "a version string, a description, no compute capability or "
                            "[arch] key twice, each key with help, one stable descriptor"},
    [GP_CONF_FILE_NAME] = {"descriptor.file_name",
                           "the file is NAME.so for the descriptor's name, so that "
                           "`arch = NAME` in a device file finds it"},
    [GP_CONF_ARCH_INFO] = {"arch_info", "arch_info succeeds on every device served"},
    [GP_CONF_PURE] = {"pure",
                      "the same inputs give the same answer (occupancy, op_cost, block_cost, "
                      "arch_info keep no state)"},
    [GP_CONF_OCC_CALL] = {"occupancy.call",
                          "occupancy returns 0 for every launch: one that cannot run is a "
                          "result (0 blocks, a limiter, a detail), not an error"},
    [GP_CONF_OCC_FIELDS] = {"occupancy.fields",
                            "warps_per_block = ceil(threads / warp_size), active_warps = "
                            "blocks_per_sm x warps_per_block, occupancy = active_warps / "
                            "max_warps, a known limiter"},
    [GP_CONF_OCC_HARDWARE] = {"occupancy.hardware",
                              "resident blocks fit the SM: blocks <= max_blocks_per_sm, "
                              "active_warps <= max_warps <= max_threads_per_sm / warp_size, "
                              "their registers and shared memory fit the SM, allocations "
                              "never smaller than asked"},
    [GP_CONF_OCC_LIMITER] = {"occupancy.limiter",
                             "blocks > 0: the limiter is a resource whose limit equals "
                             "blocks_per_sm and no limit is below it; blocks = 0: the limiter "
                             "says why the launch cannot run and detail says by how much"},
    [GP_CONF_OCC_IMPOSSIBLE] = {"occupancy.impossible",
                                "more threads per block, registers per thread or shared "
                                "memory per block than the device allows: 0 blocks; a warp "
                                "of 16-register threads without shared memory: at least 1"},
    [GP_CONF_OCC_MONOTONIC] = {"occupancy.monotonic",
                               "more registers per thread, shared memory per block or "
                               "threads per block never give more blocks per SM"},
    [GP_CONF_OP_CALL] = {"op_cost.call",
                         "op_cost accepts the ops every generation has (fp32, int, sfu, "
                         "conversion, branch, barrier, loads and stores of global, shared "
                         "and local memory, constant and texture loads); it may refuse "
                         "others (fp64, fp16, tensor, atomics, async copies) with a reason"},
    [GP_CONF_OP_VALID] = {"op_cost.valid",
                          "pipe cycles, latency, bytes and transactions finite and >= 0; "
                          "every op busies a pipe or has a latency; a global access moves "
                          "bytes"},
    [GP_CONF_BLOCK_CALL] = {"block_cost.call",
                            "block_cost succeeds for every kernel whose ops op_cost accepts"},
    [GP_CONF_BLOCK_VALID] = {"block_cost.valid",
                             "time_cycles positive and finite; the other numbers finite and "
                             ">= 0; bound and bound_pipe known"},
    [GP_CONF_MORE_WORK] = {"block_cost.more_work",
                           "doubling an op's count or a loop's trips, one more divergent "
                           "path, or arithmetic inserted before an op, never lowers the "
                           "block time"},
    [GP_CONF_RESIDENCY] = {"block_cost.residency",
                           "more blocks of the kernel resident (the time of a wave of them) "
                           "or other kernels' warps on the SM never lower the block time"},
    [GP_CONF_CLOCK] = {"block_cost.clock",
                       "a 25% faster core_clock_mhz never gives a longer time in "
                       "microseconds"},
    [GP_CONF_BANDWIDTH] = {"block_cost.bandwidth",
                           "twice dram_sustained_gbps (and dram_bandwidth_gbps), twice "
                           "l2_bandwidth_gbps, a larger share of either, more L2 capacity, "
                           "or the kernel's buffers already in the L2 never raise the block "
                           "time"},
    [GP_CONF_ACCESS] = {"block_cost.access",
                        "a strided global access never faster than unit stride, a k-way "
                        "bank conflict never faster than none, more ILP never slower, a "
                        "load that depends on the one before it never faster than one "
                        "that does not, random addresses over more bytes (a gather or "
                        "a chase) never faster"},
};

const gp_conf_check_t *gp_conf_checks(void)
{
    return CHECKS;
}

/* ------------------------------------------------------------- the report */

void gp_conf_report_init(gp_conf_report_t *r, uint32_t max_kept)
{
    memset(r, 0, sizeof *r);
    r->max_kept = max_kept ? max_kept : 5;
}

void gp_conf_report_free(gp_conf_report_t *r)
{
    free(r->kept);
    free(r->notes);
    memset(r, 0, sizeof *r);
}

uint64_t gp_conf_total_violations(const gp_conf_report_t *r)
{
    uint64_t n = 0;
    int i;
    for (i = 0; i < GP_CONF_N_CHECKS; i++)
        n += r->violations[i];
    return n;
}

void gp_conf_case(gp_conf_report_t *r, uint32_t check)
{
    r->cases[check]++;
}

void gp_conf_violate(gp_conf_report_t *r, uint32_t check, const gp_device_t *dev,
                     const char *inputs, const char *fmt, ...)
{
    const char *id = dev ? dev->id : "";
    size_t i, same = 0;
    gp_conf_violation_t *v;
    va_list ap;
    r->violations[check]++;
    for (i = 0; i < r->n_kept; i++)
        same += r->kept[i].check == check && strcmp(r->kept[i].device, id) == 0;
    if (same >= r->max_kept)
        return;
    if (r->n_kept == r->cap_kept) {
        size_t cap = r->cap_kept ? r->cap_kept * 2 : 32;
        gp_conf_violation_t *nk = realloc(r->kept, cap * sizeof *nk);
        if (!nk)
            return; /* counted, not kept */
        r->kept = nk;
        r->cap_kept = cap;
    }
    v = &r->kept[r->n_kept++];
    memset(v, 0, sizeof *v);
    v->check = check;
    gp_strlcpy(v->device, id, sizeof v->device);
    gp_strlcpy(v->inputs, inputs ? inputs : "", sizeof v->inputs);
    va_start(ap, fmt);
    vsnprintf(v->what, sizeof v->what, fmt, ap);
    va_end(ap);
}

void gp_conf_note(gp_conf_report_t *r, const char *fmt, ...)
{
    va_list ap;
    if (r->n_notes == r->cap_notes) {
        size_t cap = r->cap_notes ? r->cap_notes * 2 : 16;
        char(*nn)[400] = realloc(r->notes, cap * sizeof *nn);
        if (!nn)
            return;
        r->notes = nn;
        r->cap_notes = cap;
    }
    va_start(ap, fmt);
    vsnprintf(r->notes[r->n_notes++], sizeof r->notes[0], fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------- describing inputs */

void gp_conf_describe_launch(const gp_launch_t *l, char *out, size_t size)
{
    static const char *const prefs[] = {"none", "prefer_shared", "prefer_l1", "prefer_equal"};
    static const char *const gcache[] = {"default", "ca", "cg"};
    snprintf(out, size,
             "threads=%llu (block %llux%llux%llu, grid %llux%llux%llu) regs=%u "
             "smem=%llu+%llu cache=%s carveout=%d global_cache=%s bank_bytes=%u",
             (unsigned long long)l->threads_per_block, (unsigned long long)l->block.x,
             (unsigned long long)l->block.y, (unsigned long long)l->block.z,
             (unsigned long long)l->grid.x, (unsigned long long)l->grid.y,
             (unsigned long long)l->grid.z, l->regs_per_thread,
             (unsigned long long)l->static_smem_bytes, (unsigned long long)l->dynamic_smem_bytes,
             l->cache_pref < 4 ? prefs[l->cache_pref] : "?", l->carveout_percent,
             l->global_cache < 3 ? gcache[l->global_cache] : "?", l->bank_bytes);
}

void gp_conf_describe_op(const gp_op_t *op, char *out, size_t size)
{
    static const char *const kinds[GP_OP_KIND_COUNT] = {
        "fp32", "fp64", "fp16", "int", "sfu", "conv", "branch", "barrier",
        "tensor", "load", "store", "atomic", "async_copy", "loop", "diverge",
        "shfl", "vote", "match", "warp_reduce", "idiv", "fdiv", "rcp"};
    static const char *const spaces[GP_SPACE_COUNT] = {"global", "shared", "local", "constant",
                                                       "texture"};
    static const char *const patterns[GP_PATTERN_COUNT] = {"unit", "stride", "random",
                                                           "broadcast"};
    static const char *const scopes[] = {"distinct", "per_warp", "same"};
    static const char *const ttypes[GP_TENSOR_TYPE_COUNT] = {"fp16", "bf16", "tf32",
                                                             "fp64", "int8", "fp8"};
    const char *kind = op->kind < GP_OP_KIND_COUNT ? kinds[op->kind] : "?";
    const gp_access_t *a = &op->access;
    switch (op->kind) {
    case GP_OP_LOAD:
    case GP_OP_STORE:
    case GP_OP_ATOMIC:
    case GP_OP_ASYNC_COPY:
        snprintf(out, size,
                 "%s %s %s elem=%u stride=%lld offset=%lld footprint=%llu conflicts=%u%s%s "
                 "count=%g ilp=%g",
                 kind, op->space < GP_SPACE_COUNT ? spaces[op->space] : "?",
                 a->pattern < GP_PATTERN_COUNT ? patterns[a->pattern] : "?", a->elem_bytes,
                 (long long)a->stride_elems, (long long)a->offset_elems,
                 (unsigned long long)a->footprint_bytes, a->conflict_ways,
                 op->kind == GP_OP_ATOMIC ? " scope=" : "",
                 op->kind == GP_OP_ATOMIC && a->atomic_scope < 3 ? scopes[a->atomic_scope] : "",
                 op->count, op->ilp);
        break;
    case GP_OP_TENSOR:
        snprintf(out, size, "tensor %s count=%g ilp=%g",
                 op->tensor_type < GP_TENSOR_TYPE_COUNT ? ttypes[op->tensor_type] : "?",
                 op->count, op->ilp);
        break;
    case GP_OP_LOOP:
        snprintf(out, size, "loop trips=%g over %u ops", op->count, op->body_len);
        break;
    case GP_OP_DIVERGE:
        snprintf(out, size, "diverge paths=%g over %u ops", op->count, op->body_len);
        break;
    default:
        snprintf(out, size, "%s count=%g ilp=%g", kind, op->count, op->ilp);
        break;
    }
}

void gp_conf_describe_res(const gp_residency_t *res, char *out, size_t size)
{
    snprintf(out, size,
             "residency blocks=%u warps_sm=%u active_sms=%u dram_share=%.6g l2_share=%.6g "
             "l2_capacity_bytes=%.6g",
             res->blocks, res->warps_sm, res->active_sms, res->dram_share, res->l2_share,
             res->l2_capacity_bytes);
}

gp_launch_t gp_conf_launch(uint64_t threads, uint32_t regs, uint64_t smem, uint64_t grid_x)
{
    gp_launch_t l;
    memset(&l, 0, sizeof l);
    l.block.x = threads;
    l.block.y = l.block.z = 1;
    l.grid.x = grid_x ? grid_x : 1;
    l.grid.y = l.grid.z = 1;
    l.threads_per_block = threads;
    l.regs_per_thread = regs;
    l.dynamic_smem_bytes = smem;
    l.carveout_percent = -1;
    return l;
}

/* ---------------------------------------------- calls with their inputs kept */

/* The call in progress, for gp_conf_current (pointers into the caller's
   frames, valid while the call runs). */
static struct {
    const char *callback;
    const char *plugin;
    const gp_device_t *dev;
    const gp_launch_t *launch;
    const gp_kernel_t *kernel;
    const gp_op_t *op;
    const gp_residency_t *res;
} g_cur;
static char g_cur_text[2048];

/* Start recording a call. */
static void enter(const char *callback, const gp_arch_t *a, const gp_device_t *dev,
                  const gp_launch_t *l, const gp_kernel_t *k, const gp_op_t *op,
                  const gp_residency_t *res)
{
    g_cur.callback = callback;
    g_cur.plugin = a->plugin->name;
    g_cur.dev = dev;
    g_cur.launch = l;
    g_cur.kernel = k;
    g_cur.op = op;
    g_cur.res = res;
}

/* The call has returned. */
static void leave(char *err, size_t errlen)
{
    memset(&g_cur, 0, sizeof g_cur);
    if (errlen)
        err[errlen - 1] = '\0';
}

const char *gp_conf_current(void)
{
    size_t used;
    char part[700];
    if (!g_cur.callback)
        return "";
    used = (size_t)snprintf(g_cur_text, sizeof g_cur_text, "%s() of plugin '%s' on device %s",
                            g_cur.callback, g_cur.plugin, g_cur.dev ? g_cur.dev->id : "?");
    if (g_cur.launch && used < sizeof g_cur_text) {
        gp_conf_describe_launch(g_cur.launch, part, sizeof part);
        used += (size_t)snprintf(g_cur_text + used, sizeof g_cur_text - used, "; %s", part);
    }
    if (g_cur.kernel && used < sizeof g_cur_text)
        used += (size_t)snprintf(g_cur_text + used, sizeof g_cur_text - used, "; kernel %s",
                                 g_cur.kernel->name ? g_cur.kernel->name : "?");
    if (g_cur.op && used < sizeof g_cur_text) {
        gp_conf_describe_op(g_cur.op, part, sizeof part);
        used += (size_t)snprintf(g_cur_text + used, sizeof g_cur_text - used, "; op %s", part);
    }
    if (g_cur.res && used < sizeof g_cur_text) {
        gp_conf_describe_res(g_cur.res, part, sizeof part);
        snprintf(g_cur_text + used, sizeof g_cur_text - used, "; %s", part);
    }
    return g_cur_text;
}

int gp_conf_call_occupancy(const gp_arch_t *a, const gp_device_t *dev, const gp_launch_t *l,
                           gp_occupancy_t *out, char *err, size_t errlen)
{
    int rc;
    memset(out, 0, sizeof *out);
    err[0] = '\0';
    enter("occupancy", a, dev, l, NULL, NULL, NULL);
    rc = gp_arch_call_occupancy(a, dev, l, out, err, errlen);
    leave(err, errlen);
    out->detail[sizeof out->detail - 1] = '\0';
    return rc;
}

int gp_conf_call_op_cost(const gp_arch_t *a, const gp_device_t *dev, const gp_kernel_t *k,
                         const gp_op_t *op, const gp_occupancy_t *occ,
                         const gp_residency_t *res, gp_op_cost_t *out, char *err,
                         size_t errlen)
{
    int rc;
    memset(out, 0, sizeof *out);
    err[0] = '\0';
    enter("op_cost", a, dev, &k->launch, k, op, res);
    rc = gp_arch_call_op_cost(a, dev, k, op, occ, res, out, err, errlen);
    leave(err, errlen);
    return rc;
}

int gp_conf_call_block_cost(const gp_arch_t *a, const gp_device_t *dev, const gp_kernel_t *k,
                            const gp_occupancy_t *occ, const gp_residency_t *res,
                            gp_block_cost_t *out, char *err, size_t errlen)
{
    int rc;
    memset(out, 0, sizeof *out);
    err[0] = '\0';
    enter("block_cost", a, dev, &k->launch, k, NULL, res);
    rc = gp_arch_call_block_cost(a, dev, k, occ, res, out, err, errlen);
    leave(err, errlen);
    return rc;
}

int gp_conf_call_arch_info(const gp_arch_t *a, const gp_device_t *dev, gp_arch_info_t *out,
                           char *err, size_t errlen)
{
    int rc;
    memset(out, 0, sizeof *out);
    err[0] = '\0';
    enter("arch_info", a, dev, NULL, NULL, NULL, NULL);
    {
        gp_err_t e;
        rc = gp_arch_info(a, dev, out, &e);
        if (rc)
            gp_strlcpy(err, e.msg, errlen);
    }
    leave(err, errlen);
    return rc;
}

/* check_device, when the plugin has one (0 otherwise). */
static int call_check_device(const gp_arch_t *a, const gp_device_t *dev, char *err,
                             size_t errlen)
{
    int rc;
    err[0] = '\0';
    if (!a->plugin->check_device)
        return 0;
    enter("check_device", a, dev, NULL, NULL, NULL, NULL);
    rc = gp_arch_call_check_device(a, dev, err, errlen);
    leave(err, errlen);
    return rc;
}

/* ------------------------------------------------------------ the descriptor */

void gp_conf_descriptor(const gp_arch_t *a, const char *path, gp_conf_report_t *r)
{
    const gp_plugin_t *p = a->plugin;
    const char *base = strrchr(path, '/');
    char want[GP_NAME_MAX + 8], inputs[600];
    uint32_t i, j;
    void *sym;
    base = base ? base + 1 : path;
    snprintf(inputs, sizeof inputs, "file %s", path);

    gp_conf_case(r, GP_CONF_FILE_NAME);
    snprintf(want, sizeof want, "%s.so", p->name);
    if (strcmp(base, want) != 0)
        gp_conf_violate(r, GP_CONF_FILE_NAME, NULL, inputs,
                        "the file is named %s but the descriptor's name is '%s': device files "
                        "say `arch = %s` and gpuperf looks for %s; rename the file or the "
                        "plugin",
                        base, p->name, p->name, want);

    gp_conf_case(r, GP_CONF_DESCRIPTOR);
    if (!p->version || !*p->version)
        gp_conf_violate(r, GP_CONF_DESCRIPTOR, NULL, inputs,
                        "no version string: set .version (e.g. \"1.0\") so that `gpuperf "
                        "plugins` and reports can say which model made a prediction");
    if (!*p->description)
        gp_conf_violate(r, GP_CONF_DESCRIPTOR, NULL, inputs,
                        "the description is empty: say in one line what the plugin models");
    for (i = 0; i < p->n_params; i++) {
        const gp_param_spec_t *ps = &p->params[i];
        if (!ps->help || !*ps->help)
            gp_conf_violate(r, GP_CONF_DESCRIPTOR, NULL, inputs,
                            "[arch] key '%s' has no help text: say its meaning and unit",
                            ps->key);
        for (j = 0; j < i; j++)
            if (strcmp(ps->key, p->params[j].key) == 0)
                gp_conf_violate(r, GP_CONF_DESCRIPTOR, NULL, inputs,
                                "[arch] key '%s' is declared twice (params[%u] and params[%u]); "
                                "device files can only ever set the first",
                                ps->key, j, i);
    }
    /* the entry point must hand out one constant descriptor */
    sym = a->handle ? dlsym(a->handle, GP_PLUGIN_SYMBOL) : NULL;
    if (sym) {
        gp_plugin_entry_fn entry;
        memcpy(&entry, &sym, sizeof entry);
        if (entry() != p)
            gp_conf_violate(r, GP_CONF_DESCRIPTOR, NULL, inputs,
                            "%s() returns a different descriptor on a second call; return "
                            "the address of one static const gp_plugin_t",
                            GP_PLUGIN_SYMBOL);
    }
}

/* --------------------------------------------------------------- devices */

/* A device file found on the search path. */
typedef struct found_dev {
    gp_device_t dev;
    const gp_plugin_t *plugin; /* the plugin it loaded with */
    char path[GP_PATH_MAX];
} found_dev_t;

/* Devices found by a scan, and the failures that concern the plugin. */
typedef struct scan_state {
    found_dev_t *devs;
    size_t n, cap;
    const char *plugin_name;
    gp_conf_report_t *r;
} scan_state_t;

/* gp_device_scan callback: keep every device that loaded. */
static void on_scanned(void *ud, const char *path, const gp_device_t *dev,
                       const gp_arch_t *arch, const char *error)
{
    scan_state_t *st = ud;
    char quoted[GP_NAME_MAX + 4];
    if (!dev || !arch) {
        snprintf(quoted, sizeof quoted, "'%s'", st->plugin_name);
        if (error && strstr(error, quoted))
            gp_conf_note(st->r, "skipped a device file: %.360s", error);
        return;
    }
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 32;
        found_dev_t *nd = realloc(st->devs, cap * sizeof *nd);
        if (!nd)
            return;
        st->devs = nd;
        st->cap = cap;
    }
    st->devs[st->n].dev = *dev;
    st->devs[st->n].plugin = arch->plugin;
    gp_strlcpy(st->devs[st->n].path, path, sizeof st->devs[st->n].path);
    st->n++;
}

/* A copy of src as a device of plugin `a` with compute capability maj.min and
   the plugin's [arch] defaults; -1 with why when check_device refuses it. */
static int adapt(const gp_arch_t *a, const gp_device_t *src, uint32_t maj, uint32_t min,
                 gp_device_t *out, char *why, size_t whylen)
{
    uint32_t k;
    *out = *src;
    gp_strlcpy(out->arch, a->plugin->name, sizeof out->arch);
    out->cc_major = maj;
    out->cc_minor = min;
    memset(out->arch_params, 0, sizeof out->arch_params);
    for (k = 0; k < a->plugin->n_params; k++)
        out->arch_params[k] = a->plugin->params[k].default_value;
    if (call_check_device(a, out, why, whylen) != 0) {
        if (!*why)
            gp_strlcpy(why, "refused without a reason", whylen);
        return -1;
    }
    return 0;
}

/* Append a device to the output array. */
static int push_dev(gp_conf_device_t **out, size_t *n, size_t *cap, const gp_device_t *dev,
                    const char *origin)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 8;
        gp_conf_device_t *nd = realloc(*out, c * sizeof *nd);
        if (!nd)
            return -1;
        *out = nd;
        *cap = c;
    }
    (*out)[*n].dev = *dev;
    gp_strlcpy((*out)[*n].origin, origin, sizeof (*out)[*n].origin);
    (*n)++;
    return 0;
}

/* Distance between two compute capabilities, for picking a base device. */
static unsigned cc_distance(uint32_t amaj, uint32_t amin, uint32_t bmaj, uint32_t bmin)
{
    int d = (int)(amaj * 10 + amin) - (int)(bmaj * 10 + bmin);
    return (unsigned)(d < 0 ? -d : d);
}

/* The devices given by name: loaded, adapted where written for another
   plugin. */
static int named_devices(const gp_arch_t *a, const char *const *names, size_t n_names,
                         gp_conf_device_t **out, size_t *n, size_t *cap, gp_conf_report_t *r,
                         gp_err_t *err)
{
    size_t i;
    for (i = 0; i < n_names; i++) {
        gp_device_t dev, adapted;
        const gp_arch_t *arch = NULL;
        char origin[400], why[512], ccs[128];
        if (gp_device_open(names[i], &dev, &arch, err))
            return gp_err_prefix(err, "--device %s", names[i]);
        if (arch && arch->plugin == a->plugin) {
            snprintf(origin, sizeof origin, "%.390s", names[i]);
            if (push_dev(out, n, cap, &dev, origin))
                return gp_err_set(err, "out of memory");
            continue;
        }
        if (!gp_arch_serves(a, dev.cc_major, dev.cc_minor)) {
            gp_arch_ccs_text(a, ccs, sizeof ccs);
            return gp_err_set(err,
                              "--device %s: compute capability %u.%u is not served by plugin "
                              "'%s' (it serves %s); give a device of one of those",
                              names[i], dev.cc_major, dev.cc_minor, a->plugin->name, ccs);
        }
        if (adapt(a, &dev, dev.cc_major, dev.cc_minor, &adapted, why, sizeof why))
            return gp_err_set(err,
                              "--device %s: the device is written for plugin '%s'; plugin "
                              "'%s' rejects it (check_device): %s",
                              names[i], dev.arch, a->plugin->name, why);
        snprintf(origin, sizeof origin, "%.250s (written for '%s', checked as '%s')", names[i],
                 dev.arch, a->plugin->name);
        gp_conf_note(r,
                     "device %s is written for plugin '%s'; it is checked as a '%s' device "
                     "with the [arch] keys at their defaults",
                     dev.id, dev.arch, a->plugin->name);
        if (push_dev(out, n, cap, &adapted, origin))
            return gp_err_set(err, "out of memory");
    }
    return 0;
}

/* For one compute capability: the search path's devices, or a synthesised
   one. */
static int devices_for_cc(const gp_arch_t *a, const gp_cc_t *cc, const scan_state_t *st,
                          gp_conf_device_t **out, size_t *n, size_t *cap, gp_conf_report_t *r)
{
    size_t i, own = 0, other = 0, tried = 0;
    char origin[400], why[512] = "", first_why[600] = "";
    gp_device_t dev;
    size_t *order;
    for (i = 0; i < st->n; i++) {
        const found_dev_t *f = &st->devs[i];
        if (f->dev.cc_major != cc->major || f->dev.cc_minor != cc->minor ||
            strcmp(f->dev.arch, a->plugin->name) != 0)
            continue;
        if (f->plugin == a->plugin) {
            if (push_dev(out, n, cap, &f->dev, f->path))
                return -1;
        } else {
            /* a file of the same name elsewhere on the plugin path loaded it */
            if (adapt(a, &f->dev, cc->major, cc->minor, &dev, why, sizeof why)) {
                gp_conf_note(r, "%s: plugin '%s' rejects it: %s", f->path, a->plugin->name,
                             why);
                continue;
            }
            gp_conf_note(r,
                         "%s names '%s' but loaded with another file of that name; checked "
                         "with its [arch] keys at the defaults",
                         f->path, a->plugin->name);
            if (push_dev(out, n, cap, &dev, f->path))
                return -1;
        }
        own++;
    }
    if (own)
        return 0;
    for (i = 0; i < st->n; i++) {
        const found_dev_t *f = &st->devs[i];
        if (f->dev.cc_major != cc->major || f->dev.cc_minor != cc->minor)
            continue;
        if (adapt(a, &f->dev, cc->major, cc->minor, &dev, why, sizeof why)) {
            gp_conf_note(r, "%s (compute capability %u.%u, plugin '%s'): '%s' rejects it: %s",
                         f->path, cc->major, cc->minor, f->dev.arch, a->plugin->name, why);
            continue;
        }
        snprintf(origin, sizeof origin, "%.250s (written for '%s', checked as '%s')", f->path,
                 f->dev.arch, a->plugin->name);
        gp_conf_note(r,
                     "no device file names '%s' for compute capability %u.%u; checking %s "
                     "(written for '%s') as one, with the [arch] keys at their defaults",
                     a->plugin->name, cc->major, cc->minor, f->dev.id, f->dev.arch);
        if (push_dev(out, n, cap, &dev, origin))
            return -1;
        other++;
    }
    if (other)
        return 0;
    /* synthesise: the nearest device, this plugin's first, with the CC changed */
    order = malloc((st->n ? st->n : 1) * sizeof *order);
    if (!order)
        return -1;
    for (i = 0; i < st->n; i++)
        order[i] = i;
    for (i = 1; i < st->n; i++) { /* insertion sort by (other plugin, distance) */
        size_t j = i, t = order[i];
        while (j > 0) {
            const found_dev_t *x = &st->devs[t], *y = &st->devs[order[j - 1]];
            int xo = strcmp(x->dev.arch, a->plugin->name) != 0;
            int yo = strcmp(y->dev.arch, a->plugin->name) != 0;
            unsigned xd = cc_distance(x->dev.cc_major, x->dev.cc_minor, cc->major, cc->minor);
            unsigned yd = cc_distance(y->dev.cc_major, y->dev.cc_minor, cc->major, cc->minor);
            if (xo > yo || (xo == yo && xd >= yd))
                break;
            order[j] = order[j - 1];
            j--;
        }
        order[j] = t;
    }
    for (i = 0; i < st->n; i++) {
        const found_dev_t *f = &st->devs[order[i]];
        tried++;
        if (adapt(a, &f->dev, cc->major, cc->minor, &dev, why, sizeof why)) {
            if (!*first_why)
                snprintf(first_why, sizeof first_why, "%s: %s", f->dev.id, why);
            continue;
        }
        snprintf(dev.id, sizeof dev.id, "%.40s@%u.%u", f->dev.id, cc->major, cc->minor);
        snprintf(origin, sizeof origin, "synthesised: %.250s with compute_capability = %u.%u",
                 f->path, cc->major, cc->minor);
        gp_conf_note(r,
                     "no device file of compute capability %u.%u: checking %s, a copy of %s "
                     "with compute_capability = %u.%u (give a real one with --device)",
                     cc->major, cc->minor, dev.id, f->dev.id, cc->major, cc->minor);
        free(order);
        return push_dev(out, n, cap, &dev, origin);
    }
    free(order);
    gp_conf_note(r,
                 "compute capability %u.%u is not checked: no device file has it and plugin "
                 "'%s' rejects a copy of each of the %zu others with the capability changed "
                 "(first: %.200s); give one with --device",
                 cc->major, cc->minor, a->plugin->name, tried,
                 *first_why ? first_why : "no device files found");
    return 0;
}

int gp_conf_devices(const gp_arch_t *a, const char *const *names, size_t n_names,
                    gp_conf_device_t **out, size_t *n, gp_conf_report_t *r, gp_err_t *err)
{
    size_t cap = 0;
    uint32_t c;
    scan_state_t st;
    *out = NULL;
    *n = 0;
    if (n_names) {
        if (named_devices(a, names, n_names, out, n, &cap, r, err)) {
            free(*out);
            *out = NULL;
            *n = 0;
            return -1;
        }
        return 0;
    }
    memset(&st, 0, sizeof st);
    st.plugin_name = a->plugin->name;
    st.r = r;
    gp_device_scan(on_scanned, &st);
    for (c = 0; c < a->plugin->n_gens; c++)
        if (devices_for_cc(a, &a->plugin->gens[c].cc, &st, out, n, &cap, r)) {
            free(st.devs);
            free(*out);
            *out = NULL;
            *n = 0;
            return gp_err_set(err, "out of memory while choosing devices");
        }
    free(st.devs);
    if (*n == 0) {
        char ccs[128];
        gp_arch_ccs_text(a, ccs, sizeof ccs);
        return gp_err_set(err,
                          "no device to check plugin '%s' on: none of compute capability %s "
                          "was found or could be synthesised; give one with --device FILE.ini",
                          a->plugin->name, ccs);
    }
    return 0;
}

/* ------------------------------------------------------------------ a run */

/* arch_info: succeeds, and twice gives the same facts. */
static void run_arch_info(const gp_arch_t *a, const gp_device_t *dev, gp_conf_report_t *r)
{
    gp_arch_info_t i1, i2;
    char msg[512];
    gp_conf_case(r, GP_CONF_ARCH_INFO);
    r->calls++;
    if (gp_conf_call_arch_info(a, dev, &i1, msg, sizeof msg) != 0) {
        gp_conf_violate(r, GP_CONF_ARCH_INFO, dev, "arch_info()", "arch_info failed: %s",
                        *msg ? msg : "(no reason given)");
        return;
    }
    gp_conf_case(r, GP_CONF_PURE);
    r->calls++;
    if (gp_conf_call_arch_info(a, dev, &i2, msg, sizeof msg) != 0 ||
        memcmp(&i1, &i2, sizeof i1) != 0)
        gp_conf_violate(r, GP_CONF_PURE, dev, "arch_info()",
                        "arch_info answered differently the second time");
}

void gp_conf_run_device(const gp_arch_t *a, const gp_device_t *dev, gp_conf_report_t *r)
{
    r->n_devices++;
    run_arch_info(a, dev, r);
    gp_conf_run_occupancy(a, dev, r);
    gp_conf_run_costs(a, dev, r);
}
