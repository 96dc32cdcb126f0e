/*
 * script_api.c - the gpuperf table: parameters, the device, buffers,
 * streams, events and stream commands. Kernel templates and launches are in
 * script_launch.c, work constructors in script_ops.c.
 */
#include <lauxlib.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script_internal.h"

/* By sb_handle_kind_t: names in messages, and what getmetatable returns. */
static const char *const sb_handle_kinds[] = {"buffer", "stream", "event", "graph"};
static const char *const sb_handle_tags[] = {"gpuperf.buffer", "gpuperf.stream", "gpuperf.event",
                                             "gpuperf.graph"};

/* A handle's registry code is kind * SB_KIND_SCALE + index. */
#define SB_KIND_SCALE 4294967296.0

/* ---------------------------------------------------------------- handles */

/* __newindex of read-only tables; upvalue 1 names the table. */
static int sb_readonly_set(lua_State *L)
{
    char key[96];
    sb_describe(L, 2, key, sizeof key);
    sb_error(L, "%s is read-only (tried to set %s)", lua_tostring(L, lua_upvalueindex(1)), key);
}

/* __tostring of handles; upvalue 1 is the text. */
static int sb_handle_tostring(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    return 1;
}

/* Replace the value at the top (a table, or an __index function) by a
   read-only proxy whose reads go to it and whose writes raise "WHAT is
   read-only"; getmetatable gives tag, rawset refuses it (__gp_ro). */
static void sb_push_readonly(lua_State *L, const char *what, const char *tag)
{
    int fields = lua_gettop(L);
    lua_newtable(L); /* proxy */
    lua_createtable(L, 0, 8); /* its metatable: five fields */
    lua_pushvalue(L, fields);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, what);
    lua_pushcclosure(L, sb_readonly_set, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushstring(L, tag);
    lua_setfield(L, -2, "__metatable");
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "__gp_ro");
    lua_pushstring(L, what);
    lua_pushcclosure(L, sb_handle_tostring, 1);
    lua_setfield(L, -2, "__tostring");
    lua_setmetatable(L, -2);
    lua_remove(L, fields);
}

/* Record the handle at the top in this evaluation's handle table. */
static void sb_register_handle(lua_State *L, sb_handle_kind_t kind, uint32_t index)
{
    lua_pushlightuserdata(L, (void *)&sb_key_handles);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_pushvalue(L, -2);
    lua_pushnumber(L, (lua_Number)kind * SB_KIND_SCALE + index);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* Registry key of the metatable every buffer handle shares. */
static const char sb_key_buffer_mt = 0;

/* The workload buffer of the buffer handle at idx, or NULL. */
static const gp_buffer_t *sb_buffer_of(lua_State *L, int idx)
{
    sb_eval_t *ev = sb_script(L)->ev;
    int64_t i = sb_handle_index(L, idx, SB_BUFFER);
    return ev && i >= 0 && (uint64_t)i < ev->wl.n_buffers ? &ev->wl.buffers[i] : NULL;
}

/* "buffer 'NAME'": how messages name the buffer handle at idx. */
static void sb_buffer_what(lua_State *L, int idx, char *what, size_t size)
{
    const gp_buffer_t *b = sb_buffer_of(L, idx);
    if (b)
        snprintf(what, size, "%s '%s'", sb_handle_kinds[SB_BUFFER], b->name);
    else
        snprintf(what, size, "%s", sb_handle_kinds[SB_BUFFER]);
}

/* __index of buffer handles: (handle, key); .name and .bytes. */
static int sb_buffer_get(lua_State *L)
{
    const gp_buffer_t *b = sb_buffer_of(L, 1);
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
    if (b && strcmp(k, "name") == 0)
        lua_pushstring(L, b->name);
    else if (b && strcmp(k, "bytes") == 0)
        lua_pushnumber(L, (lua_Number)b->bytes);
    else
        lua_pushnil(L);
    return 1;
}

/* __newindex of buffer handles: (handle, key, value). */
static int sb_buffer_set(lua_State *L)
{
    char what[128], key[96];
    sb_buffer_what(L, 1, what, sizeof what);
    sb_describe(L, 2, key, sizeof key);
    sb_error(L, "%s is read-only (tried to set %s)", what, key);
}

/* __tostring of buffer handles. */
static int sb_buffer_tostring(lua_State *L)
{
    char what[128];
    sb_buffer_what(L, 1, what, sizeof what);
    lua_pushstring(L, what);
    return 1;
}

/* Push the metatable of buffer handles (made once per Lua state): a buffer
   handle is an empty table and this metatable, its name and size read from
   the evaluation's workload, so that gpuperf.buffer makes one table. */
static void sb_push_buffer_mt(lua_State *L)
{
    lua_pushlightuserdata(L, (void *)&sb_key_buffer_mt);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (lua_istable(L, -1))
        return;
    lua_pop(L, 1);
    lua_createtable(L, 0, 8);
    lua_pushcfunction(L, sb_buffer_get);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, sb_buffer_set);
    lua_setfield(L, -2, "__newindex");
    lua_pushstring(L, sb_handle_tags[SB_BUFFER]);
    lua_setfield(L, -2, "__metatable");
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "__gp_ro");
    lua_pushcfunction(L, sb_buffer_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushlightuserdata(L, (void *)&sb_key_buffer_mt);
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
}

/* Push a handle: a read-only table with .name (and .bytes for buffers)
   whose kind and index live in the per-evaluation registry table. */
static void sb_push_handle(lua_State *L, sb_handle_kind_t kind, uint32_t index, const char *name,
                           uint64_t bytes)
{
    char what[128];
    if (kind == SB_BUFFER) {
        lua_createtable(L, 0, 0);
        sb_push_buffer_mt(L);
        lua_setmetatable(L, -2);
        sb_register_handle(L, kind, index);
        return;
    }
    lua_createtable(L, 0, 2);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    if (kind == SB_BUFFER) {
        lua_pushnumber(L, (lua_Number)bytes);
        lua_setfield(L, -2, "bytes");
    }
    snprintf(what, sizeof what, "%s '%s'", sb_handle_kinds[kind], name);
    sb_push_readonly(L, what, sb_handle_tags[kind]);
    sb_register_handle(L, kind, index);
}

/* The registry code of the handle at idx, or -1. */
static double sb_handle_code(lua_State *L, int idx)
{
    double code = -1;
    if (lua_type(L, idx) != LUA_TTABLE)
        return -1;
    /* every handle has a metatable (sb_push_handle, sb_push_readonly): a
       table without one, such as the fields of gpuperf.load{x}, is none */
    if (!lua_getmetatable(L, idx))
        return -1;
    lua_pop(L, 1);
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    lua_pushlightuserdata(L, (void *)&sb_key_handles);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (lua_istable(L, -1)) {
        lua_pushvalue(L, idx);
        lua_rawget(L, -2);
        if (lua_type(L, -1) == LUA_TNUMBER)
            code = (double)lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return code;
}

int64_t sb_handle_index(lua_State *L, int idx, sb_handle_kind_t kind)
{
    double code = sb_handle_code(L, idx);
    if (code < 0 || floor(code / SB_KIND_SCALE) != (double)kind)
        return -1;
    return (int64_t)(code - (double)kind * SB_KIND_SCALE);
}

const char *sb_handle_kind_name(lua_State *L, int idx)
{
    double code = sb_handle_code(L, idx);
    return code < 0 ? NULL : sb_handle_kinds[(int)floor(code / SB_KIND_SCALE)];
}

uint32_t sb_stream_arg(const sb_ctx_t *c, int idx, const char *label)
{
    int64_t i;
    if (lua_isnoneornil(c->L, idx))
        return 0;
    i = sb_handle_index(c->L, idx, SB_STREAM);
    if (i < 0)
        sb_fail_value(c, idx, label,
                      "a stream (from gpuperf.stream() or gpuperf.default_stream)");
    return (uint32_t)i;
}

/* The index of an event argument. */
static uint32_t sb_event_arg(const sb_ctx_t *c, int idx, const char *label)
{
    int64_t i = sb_handle_index(c->L, idx, SB_EVENT);
    if (i < 0)
        sb_fail_value(c, idx, label, "an event (from gpuperf.event())");
    return (uint32_t)i;
}

static void sb_capture_check_wait(const sb_ctx_t *c, uint32_t event);

uint32_t sb_device_arg(const sb_ctx_t *c, int idx, const char *label)
{
    sb_eval_t *ev = sb_ev(c->L);
    uint32_t n = ev->wl.n_devices ? ev->wl.n_devices : 1;
    lua_Number v;
    char expected[128];
    if (lua_isnoneornil(c->L, idx))
        return 0;
    v = lua_tonumber(c->L, idx);
    if (lua_type(c->L, idx) != LUA_TNUMBER || v != floor(v) || v < 0 || v >= n) {
        if (n == 1)
            snprintf(expected, sizeof expected, "0 (gpuperf.device_count is 1)");
        else
            snprintf(expected, sizeof expected,
                     "an integer from 0 to %u (gpuperf.device_count is %u)", n - 1, n);
        sb_fail_value(c, idx, label, expected);
    }
    if ((uint32_t)v + 1 > ev->devices_used) {
        ev->devices_used = (uint32_t)v + 1;
        ev->devices_line = (uint32_t)sb_line(c->L, 1);
    }
    return (uint32_t)v;
}

void sb_bind_stream(const sb_ctx_t *c, uint32_t stream, uint32_t device)
{
    sb_eval_t *ev = sb_ev(c->L);
    gp_stream_t *st;
    if (stream == 0 || stream >= ev->wl.n_streams)
        return;
    st = &ev->wl.streams[stream];
    if (!st->device_line) {
        st->device = device;
        st->device_line = (uint32_t)GP_MAX(sb_line(c->L, 1), 1);
        return;
    }
    if (st->device != device)
        sb_fail(c,
                "stream '%s' belongs to device %u (its first command is at line %u), not %u: "
                "a stream runs on one device; create one per device",
                st->name, st->device, st->device_line, device);
}

/* The device of a stream command: `device` at idx where given (it must
   match the stream's own), else the stream's device (0 for the default
   stream). */
static uint32_t sb_stream_device(const sb_ctx_t *c, int idx, uint32_t stream)
{
    sb_eval_t *ev = sb_ev(c->L);
    uint32_t d;
    if (lua_isnoneornil(c->L, idx))
        return stream && ev->wl.streams[stream].device_line ? ev->wl.streams[stream].device : 0;
    d = sb_device_arg(c, idx, "device");
    sb_bind_stream(c, stream, d);
    return d;
}

void sb_after_waits(const sb_ctx_t *c, int idx, uint32_t stream, uint32_t device)
{
    lua_State *L = c->L;
    uint32_t i, n;
    char label[32];
    if (lua_isnoneornil(L, idx))
        return;
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    if (sb_handle_index(L, idx, SB_EVENT) >= 0) {
        gp_command_t *w;
        sb_capture_check_wait(c, (uint32_t)sb_handle_index(L, idx, SB_EVENT));
        w = sb_cmd_new(L, GP_CMD_WAIT, stream);
        w->event = (uint32_t)sb_handle_index(L, idx, SB_EVENT);
        w->device = device;
        sb_ev(L)->wl.n_cmds++;
        return;
    }
    if (!sb_is_plain(L, idx))
        sb_fail_value(c, idx, "after", "an event or a list of events (from gpuperf.event())");
    n = (uint32_t)lua_objlen(L, idx);
    if (sb_table_size(L, idx, n + 1) != n)
        sb_fail(c, "'after' must be an event or a list of events {e1, e2, ...}, without "
                   "other keys");
    for (i = 1; i <= n; i++) {
        gp_command_t *w;
        uint32_t e;
        snprintf(label, sizeof label, "after[%u]", i);
        lua_rawgeti(L, idx, (int)i);
        e = sb_event_arg(c, lua_gettop(L), label);
        lua_pop(L, 1);
        sb_capture_check_wait(c, e);
        w = sb_cmd_new(L, GP_CMD_WAIT, stream);
        w->event = e;
        w->device = device;
        sb_ev(L)->wl.n_cmds++;
    }
}

/* A name argument at idx, or "<prefix><n>" when absent. */
static void sb_name_arg(const sb_ctx_t *c, int idx, const char *prefix, uint32_t n, char *out,
                        size_t size)
{
    if (lua_isnoneornil(c->L, idx))
        snprintf(out, size, "%s%u", prefix, n);
    else
        gp_strlcpy(out, sb_check_name(c, idx, "name"), size);
}

/* ------------------------------------------------------------ parameters */

/* 1 if s is an identifier of at most 63 bytes. */
static int sb_is_ident(const char *s, size_t len)
{
    size_t i;
    if (len < 1 || len > GP_SCRIPT_MAX_NAME || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (i = 0; i < len; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    return 1;
}

/* gpuperf.param(name, default [, help]): the -p value or the default. */
static int l_param(lua_State *L)
{
    sb_eval_t *ev = sb_ev(L);
    sb_ctx_t c = SB_CTX(L, "gpuperf.param");
    gp_param_decl_t *d;
    const char *name, *value = NULL;
    const double *number = NULL;
    size_t len, i;
    uint32_t j;
    name = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &len) : NULL;
    if (!name || !sb_is_ident(name, len))
        sb_fail_value(&c, 1, "name", "an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 63 bytes)");
    c.fmt = "gpuperf.param '%s'";
    c.arg = name;
    if (lua_type(L, 2) == LUA_TNUMBER) {
        if (!isfinite((double)lua_tonumber(L, 2)))
            sb_fail_value(&c, 2, "default", "a finite number or a string");
    } else if (lua_type(L, 2) != LUA_TSTRING || lua_objlen(L, 2) > GP_SCRIPT_MAX_TEXT) {
        sb_fail_value(&c, 2, "default", "a number or a string of at most 127 bytes");
    }
    if (!lua_isnoneornil(L, 3) &&
        (lua_type(L, 3) != LUA_TSTRING || lua_objlen(L, 3) > GP_SCRIPT_MAX_TEXT))
        sb_fail_value(&c, 3, "help", "a string of at most 127 bytes");
    if (lua_gettop(L) > 3)
        sb_fail(&c, "takes (name, default [, help]), got %d arguments", lua_gettop(L));
    for (j = 0; j < ev->wl.n_params; j++)
        if (strcmp(ev->wl.params[j].name, name) == 0)
            sb_fail(&c, "parameter '%s' is declared twice (first at line %u)", name,
                    ev->wl.params[j].line);
    for (i = 0; i < ev->n_kv; i++)
        if (strcmp(ev->kv[i].key, name) == 0) {
            ev->kv_used[i] = 1;
            value = ev->kv[i].value;
            number = ev->kv[i].number;
        }
    sb_grow(L, (void **)&ev->wl.params, &ev->cap_params, ev->wl.n_params, sizeof *d,
            GP_SCRIPT_MAX_PARAMS, "parameters");
    d = &ev->wl.params[ev->wl.n_params];
    memset(d, 0, sizeof *d);
    gp_strlcpy(d->name, name, sizeof d->name);
    if (lua_type(L, 3) == LUA_TSTRING)
        gp_strlcpy(d->help, lua_tostring(L, 3), sizeof d->help);
    d->line = (uint32_t)sb_line(L, 1);
    if (lua_type(L, 2) == LUA_TNUMBER) {
        gp_err_t err;
        d->default_value = d->value = (double)lua_tonumber(L, 2);
        if (value && number)
            d->value = *number; /* read by the caller, as below */
        else if (value && gp_parse_number(value, &d->value, &err))
            sb_error(L, "-p %s=%s: %s", name, value, err.msg);
        lua_pushnumber(L, d->value);
    } else {
        d->is_string = 1;
        gp_strlcpy(d->default_str, lua_tostring(L, 2), sizeof d->default_str);
        if (value && gp_strlcpy(d->value_str, value, sizeof d->value_str))
            sb_error(L, "-p %s: the value is longer than %d bytes", name, GP_SCRIPT_MAX_TEXT);
        if (!value)
            gp_strlcpy(d->value_str, d->default_str, sizeof d->value_str);
        lua_pushstring(L, d->value_str);
    }
    ev->wl.n_params++;
    return 1;
}

/* --------------------------------------------------------------- device */

typedef enum { SB_U32, SB_U64, SB_F64 } sb_field_type_t;

#define SB_DEV(f)                                                                    \
    {                                                                                \
        #f, offsetof(gp_device_t, f),                                                \
            _Generic(((gp_device_t *)0)->f, uint32_t: SB_U32, uint64_t: SB_U64,      \
                     double: SB_F64)                                                 \
    }

/* Every numeric field of gp_device_t, by its C name. */
static const struct sb_dev_field {
    const char *name;
    size_t offset;
    sb_field_type_t type;
} sb_dev_fields[] = {
    SB_DEV(cc_major), SB_DEV(cc_minor), SB_DEV(sm_count), SB_DEV(core_clock_mhz),
    SB_DEV(memory_clock_mhz), SB_DEV(warp_size), SB_DEV(max_threads_per_block),
    SB_DEV(max_threads_per_sm), SB_DEV(max_blocks_per_sm), SB_DEV(registers_per_sm),
    SB_DEV(max_registers_per_block), SB_DEV(max_registers_per_thread),
    SB_DEV(schedulers_per_sm), SB_DEV(dispatch_per_scheduler),
    SB_DEV(shared_memory_per_sm_bytes), SB_DEV(shared_memory_per_block_bytes),
    SB_DEV(shared_memory_per_block_optin_bytes), SB_DEV(reserved_shared_memory_per_block_bytes),
    SB_DEV(l1_shared_bytes), SB_DEV(l1_bytes), SB_DEV(max_grid_x), SB_DEV(max_grid_y),
    SB_DEV(max_grid_z), SB_DEV(max_block_x), SB_DEV(max_block_y), SB_DEV(max_block_z),
    SB_DEV(fp32_lanes), SB_DEV(fp64_lanes), SB_DEV(fp16_lanes), SB_DEV(int32_lanes),
    SB_DEV(sfu_lanes), SB_DEV(conversion_lanes), SB_DEV(ldst_lanes),
    SB_DEV(shared_memory_bytes_per_clock), SB_DEV(tensor_fp16_flops_per_clock),
    SB_DEV(tensor_bf16_flops_per_clock), SB_DEV(tensor_tf32_flops_per_clock),
    SB_DEV(tensor_fp64_flops_per_clock), SB_DEV(tensor_int8_ops_per_clock),
    SB_DEV(tensor_fp8_flops_per_clock), SB_DEV(dram_bytes), SB_DEV(dram_bandwidth_gbps),
    SB_DEV(dram_sustained_gbps), SB_DEV(l2_bytes), SB_DEV(l2_bandwidth_gbps),
    SB_DEV(l2_carry_full_bytes), SB_DEV(l2_carry_none_bytes),
    SB_DEV(sector_bytes), SB_DEV(l1_line_bytes), SB_DEV(dram_fetch_bytes),
    SB_DEV(readonly_cache_bytes), SB_DEV(constant_cache_bytes), SB_DEV(pcie_bandwidth_gbps),
    SB_DEV(pcie_latency_us), SB_DEV(nvlink_bandwidth_gbps), SB_DEV(nvlink_latency_us),
    SB_DEV(fp32_cycles), SB_DEV(fp64_cycles), SB_DEV(fp16_cycles), SB_DEV(int32_cycles),
    SB_DEV(sfu_cycles), SB_DEV(conversion_cycles), SB_DEV(branch_cycles),
    SB_DEV(shared_memory_cycles), SB_DEV(l1_hit_cycles), SB_DEV(l2_hit_cycles),
    SB_DEV(dram_cycles), SB_DEV(constant_cycles), SB_DEV(barrier_cycles),
    SB_DEV(atomic_cycles), SB_DEV(tensor_cycles), SB_DEV(launch_overhead_us),
    SB_DEV(launch_latency_us), SB_DEV(block_launch_cycles), SB_DEV(block_turnaround_cycles),
    SB_DEV(block_slot_overhead_cycles), SB_DEV(dram_run_line_cycles),
    SB_DEV(dram_batch_log2_cycles), SB_DEV(dram_run_span_bytes),
    SB_DEV(l1_return_cycles), SB_DEV(l1_uniform_return_cycles), SB_DEV(global_load_issue_cycles),
    SB_DEV(sparse_write_stores_log2), SB_DEV(predicate_branch_cycles),
    SB_DEV(dram_read_gbps),
    SB_DEV(tensor_clock_mhz),
    SB_DEV(graph_launch_us), SB_DEV(graph_node_us),
};

/* Push the read-only gpuperf.device table. */
static void sb_push_device(lua_State *L, const gp_device_t *dev)
{
    size_t i;
    lua_newtable(L);
    lua_pushlstring(L, dev->name, strnlen(dev->name, sizeof dev->name));
    lua_setfield(L, -2, "name");
    lua_pushlstring(L, dev->id, strnlen(dev->id, sizeof dev->id));
    lua_setfield(L, -2, "id");
    lua_pushlstring(L, dev->arch, strnlen(dev->arch, sizeof dev->arch));
    lua_setfield(L, -2, "arch");
    lua_pushnumber(L, dev->cc_major + dev->cc_minor / 10.0);
    lua_setfield(L, -2, "compute_capability");
    for (i = 0; i < GP_ARRAY_LEN(sb_dev_fields); i++) {
        const char *p = (const char *)dev + sb_dev_fields[i].offset;
        double v;
        switch (sb_dev_fields[i].type) {
        case SB_U32: {
            uint32_t u;
            memcpy(&u, p, sizeof u);
            v = u;
            break;
        }
        case SB_U64: {
            uint64_t u;
            memcpy(&u, p, sizeof u);
            v = (double)u;
            break;
        }
        default:
            memcpy(&v, p, sizeof v);
        }
        lua_pushnumber(L, v);
        lua_setfield(L, -2, sb_dev_fields[i].name);
    }
    sb_push_readonly(L, "gpuperf.device", "gpuperf.device");
}

/* Edit distance (insertions, deletions, substitutions and swaps of two
   neighbours) between a and b, or a large number past 63 bytes. */
static int sb_edit_distance(const char *a, const char *b)
{
    int d[GP_SCRIPT_MAX_NAME + 2][GP_SCRIPT_MAX_NAME + 2];
    int n = (int)strlen(a), m = (int)strlen(b), i, k;
    if (n > GP_SCRIPT_MAX_NAME || m > GP_SCRIPT_MAX_NAME)
        return 1000;
    for (i = 0; i <= n; i++)
        d[i][0] = i;
    for (k = 0; k <= m; k++)
        d[0][k] = k;
    for (i = 1; i <= n; i++)
        for (k = 1; k <= m; k++) {
            int v = d[i - 1][k - 1] + (a[i - 1] != b[k - 1]);
            v = GP_MIN(v, d[i - 1][k] + 1);
            v = GP_MIN(v, d[i][k - 1] + 1);
            if (i > 1 && k > 1 && a[i - 1] == b[k - 2] && a[i - 2] == b[k - 1])
                v = GP_MIN(v, d[i - 2][k - 2] + 1);
            d[i][k] = v;
        }
    return d[n][m];
}

/* Raise "no gpuperf.NAME; did you mean gpuperf.OTHER?" when the absent key
   `name` is a near miss of a key of the tables at upvalues 1 and 2 (one
   edit for names of up to 4 bytes, two for longer ones). */
static void sb_suggest(lua_State *L, const char *name)
{
    char best[GP_SCRIPT_MAX_NAME + 1] = "";
    int best_d = 1000, limit = strlen(name) <= 4 ? 1 : 2, u;
    for (u = 1; u <= 2; u++) {
        lua_pushnil(L);
        while (lua_next(L, lua_upvalueindex(u)) != 0) {
            lua_pop(L, 1);
            if (lua_type(L, -1) == LUA_TSTRING) {
                int dist = sb_edit_distance(name, lua_tostring(L, -1));
                if (dist < best_d) {
                    best_d = dist;
                    gp_strlcpy(best, lua_tostring(L, -1), sizeof best);
                }
            }
        }
    }
    if (best_d <= limit)
        sb_error(L, "no gpuperf.%s; did you mean gpuperf.%s?", name, best);
}

/* What reading a name the gpuperf table does not hold gives (the __index at
   the end of the proxy -> fields -> functions chain); upvalues 1 and 2 are
   the fields and the functions. Reading gpuperf.device without a device is
   an error, not nil; a near miss of a name is an error that suggests it. */
static int sb_gpuperf_index(lua_State *L)
{
    lua_pushnil(L);
    if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "device_count") == 0) {
        /* live: gpuperf.use_devices changes it */
        sb_eval_t *ev = sb_script(L)->ev;
        lua_pushnumber(L, ev ? ev->wl.n_devices : 1);
        return 1;
    }
    if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "device") == 0)
        sb_error(L, "gpuperf.device: no device was given (the parameters are being listed); "
                    "choose one with --device");
    if (lua_type(L, 2) == LUA_TSTRING)
        sb_suggest(L, lua_tostring(L, 2));
    return 1;
}

/* ----------------------------------------------------- buffers, streams */

/* Optional boolean field `key` of the options table at idx: 1 or 0 (absent:
   0); anything else fails, saying what it means (`expected`). */
static uint32_t sb_bool_field(const sb_ctx_t *c, int idx, const char *key, const char *expected)
{
    lua_State *L = c->L;
    uint32_t v;
    lua_getfield(L, idx, key);
    if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TBOOLEAN)
        sb_fail_value(c, lua_gettop(L), key, expected);
    v = (uint32_t)lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

/* gpuperf.buffer(name, bytes [, {in_l2 = b, device = d}]) -> handle: with
   in_l2, the buffer starts in device d's L2 (0 by default) */
static int l_buffer(lua_State *L)
{
    sb_eval_t *ev = sb_ev(L);
    sb_ctx_t c = SB_CTX(L, "gpuperf.buffer");
    gp_buffer_t *b;
    const char *name = sb_check_name(&c, 1, "name");
    uint64_t bytes;
    uint32_t i, in_l2 = 0, l2_device = 0;
    c.fmt = "gpuperf.buffer '%s'";
    c.arg = name;
    bytes = sb_check_uint(&c, 2, "bytes", 1, GP_SCRIPT_MAX_COUNT);
    if (lua_gettop(L) > 3)
        sb_fail(&c, "takes (name, bytes [, {in_l2 = b, device = d}]), got %d arguments",
                lua_gettop(L));
    if (!lua_isnoneornil(L, 3)) {
        static const char *const keys[] = {"in_l2", "device", NULL};
        if (!sb_is_plain(L, 3))
            sb_fail_value(&c, 3, "options", "a table {in_l2 = true, device = d}");
        sb_check_keys(&c, 3, keys, 0);
        in_l2 = sb_bool_field(&c, 3, "in_l2",
                              "true (the buffer starts in the L2, as a benchmark's warm-up "
                              "runs leave it) or false (it starts in device memory, the "
                              "default)");
        lua_getfield(L, 3, "device");
        if (!lua_isnil(L, -1)) {
            if (!in_l2)
                sb_fail(&c, "device names the GPU whose L2 holds the buffer: it needs "
                            "in_l2 = true");
            l2_device = sb_device_arg(&c, lua_gettop(L), "device");
        }
        lua_settop(L, 2);
    }
    for (i = 0; i < ev->wl.n_buffers; i++)
        if (strcmp(ev->wl.buffers[i].name, name) == 0)
            sb_fail(&c, "a buffer named '%s' already exists (line %u)", name,
                    ev->wl.buffers[i].line);
    sb_grow(L, (void **)&ev->wl.buffers, &ev->cap_buffers, ev->wl.n_buffers, sizeof *b,
            GP_SCRIPT_MAX_CMDS, "buffers");
    b = &ev->wl.buffers[ev->wl.n_buffers];
    memset(b, 0, sizeof *b);
    gp_strlcpy(b->name, name, sizeof b->name);
    b->bytes = bytes;
    b->line = (uint32_t)sb_line(L, 1);
    b->in_l2 = in_l2;
    b->l2_device = l2_device;
    sb_push_handle(L, SB_BUFFER, ev->wl.n_buffers++, name, bytes);
    return 1;
}

/* gpuperf.stream([name]) -> handle */
static int l_stream(lua_State *L)
{
    sb_eval_t *ev = sb_ev(L);
    sb_ctx_t c = SB_CTX(L, "gpuperf.stream");
    gp_stream_t *st;
    char name[GP_WL_NAME_MAX];
    sb_name_arg(&c, 1, "stream", ev->wl.n_streams, name, sizeof name);
    sb_grow(L, (void **)&ev->wl.streams, &ev->cap_streams, ev->wl.n_streams, sizeof *st,
            GP_SCRIPT_MAX_CMDS, "streams");
    st = &ev->wl.streams[ev->wl.n_streams];
    memset(st, 0, sizeof *st);
    gp_strlcpy(st->name, name, sizeof st->name);
    st->line = (uint32_t)sb_line(L, 1);
    sb_push_handle(L, SB_STREAM, ev->wl.n_streams++, name, 0);
    return 1;
}

/* gpuperf.event([name]) -> handle */
static int l_event(lua_State *L)
{
    sb_eval_t *ev = sb_ev(L);
    sb_ctx_t c = SB_CTX(L, "gpuperf.event");
    char name[GP_WL_NAME_MAX];
    if (ev->wl.n_events >= GP_SCRIPT_MAX_CMDS)
        sb_fail(&c, "more than %u events", GP_SCRIPT_MAX_CMDS);
    sb_name_arg(&c, 1, "event", ev->wl.n_events, name, sizeof name);
    sb_push_handle(L, SB_EVENT, ev->wl.n_events++, name, 0);
    return 1;
}

/* ------------------------------------------------------ stream commands */

gp_command_t *sb_cmd_new(lua_State *L, uint32_t type, uint32_t stream)
{
    sb_eval_t *ev = sb_ev(L);
    gp_command_t *cmd;
    sb_grow(L, (void **)&ev->wl.cmds, &ev->cap_cmds, ev->wl.n_cmds, sizeof *cmd,
            GP_SCRIPT_MAX_CMDS, "commands");
    cmd = &ev->wl.cmds[ev->wl.n_cmds];
    memset(cmd, 0, sizeof *cmd);
    cmd->type = type;
    cmd->stream = stream;
    cmd->line = (uint32_t)sb_line(L, 1);
    cmd->device = 0;
    return cmd;
}

/* gpuperf.record(event [, stream [, device]]) */
static int l_record(lua_State *L)
{
    sb_ctx_t c = SB_CTX(L, "gpuperf.record");
    uint32_t event = sb_event_arg(&c, 1, "event");
    uint32_t stream = sb_stream_arg(&c, 2, "stream");
    uint32_t device = sb_stream_device(&c, 3, stream);
    gp_command_t *cmd = sb_cmd_new(L, GP_CMD_RECORD, stream);
    cmd->event = event;
    cmd->device = device;
    sb_ev(L)->wl.n_cmds++;
    return 0;
}

/* gpuperf.wait(stream, event [, device]) */
static int l_wait(lua_State *L)
{
    sb_ctx_t c = SB_CTX(L, "gpuperf.wait");
    uint32_t stream, event, device;
    gp_command_t *cmd;
    if (lua_isnoneornil(L, 1))
        sb_fail_value(&c, 1, "stream",
                      "a stream (from gpuperf.stream() or gpuperf.default_stream)");
    stream = sb_stream_arg(&c, 1, "stream");
    event = sb_event_arg(&c, 2, "event");
    device = sb_stream_device(&c, 3, stream);
    sb_capture_check_wait(&c, event);
    cmd = sb_cmd_new(L, GP_CMD_WAIT, stream);
    cmd->event = event;
    cmd->device = device;
    sb_ev(L)->wl.n_cmds++;
    return 0;
}

/* The name of the event handle at idx, into out. */
static void sb_event_name(lua_State *L, int idx, char *out, size_t size)
{
    lua_getfield(L, idx, "name");
    gp_strlcpy(out, lua_isstring(L, -1) ? lua_tostring(L, -1) : "?", size);
    lua_pop(L, 1);
}

/* gpuperf.elapsed(start, stop): the script's time is the interval between
   the two events' last records (cudaEventElapsedTime), not the whole run. */
static int l_elapsed(lua_State *L)
{
    sb_ctx_t c = SB_CTX(L, "gpuperf.elapsed");
    sb_eval_t *ev = sb_ev(L);
    uint32_t start, stop;
    if (ev->capture_line)
        sb_fail(&c, "says what the script's time is, which a graph cannot (the capture began at "
                    "line %u): call it outside gpuperf.graph, with events recorded around the "
                    "graph's launch",
                ev->capture_line);
    start = sb_event_arg(&c, 1, "start");
    stop = sb_event_arg(&c, 2, "stop");
    if (start == stop)
        sb_fail(&c, "start and stop are the same event: record a second event after the "
                    "commands to time and pass it as stop");
    if (ev->wl.elapsed.line)
        sb_fail(&c, "the script already reports the interval of line %u: a script has one time "
                    "(split it into two scripts to time two intervals)",
                ev->wl.elapsed.line);
    ev->wl.elapsed.start = start;
    ev->wl.elapsed.stop = stop;
    ev->wl.elapsed.line = (uint32_t)sb_line(L, 1);
    sb_event_name(L, 1, ev->wl.elapsed.start_name, sizeof ev->wl.elapsed.start_name);
    sb_event_name(L, 2, ev->wl.elapsed.stop_name, sizeof ev->wl.elapsed.stop_name);
    return 0;
}

/* gpuperf.synchronize([stream [, device]]): the host waits for the stream,
   for every stream of a device (stream nil, device given), or for all work
   (nothing given). */
static int l_synchronize(lua_State *L)
{
    sb_ctx_t c = SB_CTX(L, "gpuperf.synchronize");
    sb_eval_t *ev = sb_ev(L);
    uint32_t stream = UINT32_MAX, device;
    gp_command_t *cmd;
    if (ev->capture_line)
        sb_fail(&c, "the host cannot wait inside gpuperf.graph (the capture began at line %u): "
                    "a graph holds launches, copies, flushes and events; synchronize after "
                    "launching it",
                ev->capture_line);
    if (lua_isnoneornil(L, 1)) {
        /* one device: 0, as always; several: all of them unless one is named */
        device = lua_isnoneornil(L, 2) && ev->wl.n_devices > 1 ? UINT32_MAX
                                                                : sb_device_arg(&c, 2, "device");
    } else {
        stream = sb_stream_arg(&c, 1, "stream");
        device = sb_stream_device(&c, 2, stream);
    }
    cmd = sb_cmd_new(L, GP_CMD_SYNC, stream);
    cmd->device = device;
    ev->wl.n_cmds++;
    return 0;
}

/* The buffer a copy writes or reads (`label`, at idx): 1 + its index, 0 when
   absent; refused when the copy moves more bytes than it holds. */
static uint32_t sb_copy_buffer(const sb_ctx_t *c, int idx, const char *label, uint64_t bytes)
{
    sb_eval_t *ev = sb_ev(c->L);
    int64_t b;
    if (lua_isnil(c->L, idx))
        return 0;
    b = sb_handle_index(c->L, idx, SB_BUFFER);
    if (b < 0)
        sb_fail_value(c, idx, label, "a buffer (from gpuperf.buffer())");
    if (bytes > ev->wl.buffers[b].bytes)
        sb_fail(c, "copies %llu bytes, more than %s buffer '%s' holds (%llu bytes)",
                (unsigned long long)bytes, label, ev->wl.buffers[b].name,
                (unsigned long long)ev->wl.buffers[b].bytes);
    return (uint32_t)b + 1;
}

/* gpuperf.copy{bytes=, kind=, stream=, device=0, peer=, after=, dst=, src=}: a p2p copy
   moves bytes from `device` to `peer` (default: the next device). */
static int l_copy(lua_State *L)
{
    static const char *const keys[] = {"bytes", "kind", "stream", "device", "peer", "after",
                                       "dst", "src", NULL};
    static const char *const kinds[] = {"h2d", "d2h", "d2d", "p2p", NULL};
    sb_ctx_t c = SB_CTX(L, "gpuperf.copy");
    sb_eval_t *ev = sb_ev(L);
    uint64_t bytes;
    uint32_t kind, stream, device, peer, n_dev = ev->wl.n_devices ? ev->wl.n_devices : 1, dst, src;
    gp_command_t *cmd;
    if (!sb_is_plain(L, 1))
        sb_fail(&c, "takes one table: gpuperf.copy{bytes = B, kind = \"h2d\"}");
    lua_settop(L, 1);
    sb_check_keys(&c, 1, keys, 0);
    lua_getfield(L, 1, "bytes");
    if (lua_isnil(L, -1))
        sb_fail(&c, "'bytes' is required");
    bytes = sb_check_uint(&c, 2, "bytes", 1, GP_SCRIPT_MAX_COUNT);
    lua_getfield(L, 1, "kind");
    if (lua_isnil(L, -1))
        sb_fail(&c, "'kind' is required: \"h2d\", \"d2h\", \"d2d\" or \"p2p\"");
    kind = (uint32_t)sb_check_enum(&c, 3, "kind", kinds);
    lua_getfield(L, 1, "stream");
    stream = sb_stream_arg(&c, 4, "stream");
    lua_getfield(L, 1, "device");
    device = lua_isnil(L, 5) ? sb_stream_device(&c, 5, stream) : sb_device_arg(&c, 5, "device");
    lua_getfield(L, 1, "peer");
    peer = device + 1 < n_dev || n_dev == 1 ? device + 1 : 0;
    if (!lua_isnil(L, 6))
        peer = n_dev == 1 ? (uint32_t)sb_check_uint(&c, 6, "peer", 0, 63)
                          : sb_device_arg(&c, 6, "peer");
    if (kind == GP_COPY_P2P && peer == device)
        sb_fail(&c, "a p2p copy needs a 'peer' device other than 'device' %u", device);
    sb_bind_stream(&c, stream, device);
    lua_getfield(L, 1, "dst");
    dst = sb_copy_buffer(&c, 7, "dst", bytes);
    lua_getfield(L, 1, "src");
    src = sb_copy_buffer(&c, 8, "src", bytes);
    if (dst && kind == GP_COPY_D2H)
        sb_fail(&c, "a d2h copy writes host memory: 'dst' names a device buffer; give 'src'");
    if (src && kind == GP_COPY_H2D)
        sb_fail(&c, "an h2d copy reads host memory: 'src' names a device buffer; give 'dst'");
    lua_getfield(L, 1, "after");
    sb_after_waits(&c, 9, stream, device);
    cmd = sb_cmd_new(L, GP_CMD_COPY, stream);
    cmd->device = device;
    cmd->copy_kind = kind;
    cmd->copy_bytes = bytes;
    cmd->peer_device = kind == GP_COPY_P2P ? peer : 0;
    cmd->copy_dst = dst;
    cmd->copy_src = src;
    ev->wl.n_cmds++;
    return 0;
}

/* gpuperf.use_devices(n): the workload runs on n identical copies of
   gpuperf.device (commands pick one with device = 0..n-1). */
static int l_use_devices(lua_State *L)
{
    sb_ctx_t c = SB_CTX(L, "gpuperf.use_devices");
    sb_eval_t *ev = sb_ev(L);
    uint32_t n, asked = sb_script(L)->devices;
    if (lua_gettop(L) != 1)
        sb_fail(&c, "takes one argument, the number of devices, got %d", lua_gettop(L));
    n = (uint32_t)sb_check_uint(&c, 1, "n", 1, GP_WL_MAX_DEVICES);
    if (asked && n != asked)
        sb_fail(&c, "the command line asks for %u device%s (--gpus or NAME*N) and the script "
                    "for %u; drop one of them",
                asked, asked == 1 ? "" : "s", n);
    if (n < ev->devices_used)
        sb_fail(&c, "%u device%s, but line %u already targets device %u", n, n == 1 ? "" : "s",
                ev->devices_line, ev->devices_used - 1);
    ev->wl.n_devices = n;
    return 0;
}

int gp_script_set_devices(gp_script_t *s, uint32_t n, gp_err_t *err)
{
    if (!s)
        return gp_err_set(err, "gp_script_set_devices: no script");
    if (n > GP_WL_MAX_DEVICES)
        return gp_err_set(err, "%u devices: gpuperf simulates at most %d identical devices", n,
                          GP_WL_MAX_DEVICES);
    s->devices = n;
    return 0;
}

/* gpuperf.grid(blocks): the 1-D grid of `blocks` blocks as a CUDA program
   launches it on this device. Where grid.x is limited to 65535 (compute
   capability 1.x and 2.x) the blocks are folded into y, then z, as programs
   for those GPUs did (the kernel skips the few extra blocks); elsewhere the
   grid stays 1-D, so a launch beyond max_grid_x is refused as on the GPU
   (and without a device, when only listing parameters). */
static int l_grid(lua_State *L)
{
    sb_ctx_t c = SB_CTX(L, "gpuperf.grid");
    const gp_device_t *d = sb_ev(L)->dev;
    uint64_t blocks = sb_check_uint(&c, 1, "blocks", 1, GP_SCRIPT_MAX_COUNT), x = blocks, y = 1,
             z = 1;
    if (d && d->max_grid_x < 2147483647ull && blocks > d->max_grid_x) {
        y = (blocks + d->max_grid_x - 1) / d->max_grid_x;
        if (y > d->max_grid_y) {
            z = (y + d->max_grid_y - 1) / d->max_grid_y;
            y = (y + z - 1) / z;
        }
        x = (blocks + y * z - 1) / (y * z);
    }
    lua_createtable(L, 0, 3);
    lua_pushnumber(L, (lua_Number)x);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, (lua_Number)y);
    lua_setfield(L, -2, "y");
    lua_pushnumber(L, (lua_Number)z);
    lua_setfield(L, -2, "z");
    return 1;
}

/* ------------------------------------------- L2 state and CUDA graphs */

/* Inside a capture, a wait must name an event recorded earlier in the same
   capture (as CUDA requires of a capturing stream). */
static void sb_capture_check_wait(const sb_ctx_t *c, uint32_t event)
{
    sb_eval_t *ev = sb_ev(c->L);
    uint32_t i;
    if (!ev->capture_line)
        return;
    sb_charge(c->L, ev->wl.n_cmds / GP_SCRIPT_BYTES_PER_INSTR + 1);
    for (i = ev->wl.n_cmds; i-- > 0;)
        if (ev->wl.cmds[i].type == GP_CMD_RECORD && ev->wl.cmds[i].event == event)
            return;
    sb_fail(c, "inside gpuperf.graph (the capture began at line %u) a wait must name an event "
               "recorded earlier in the same capture; record it inside the graph, or wait "
               "before launching the graph",
            ev->capture_line);
}

/* The stream, device and `after` waits of a command taking an optional
   table at idx of {stream =, device =, after =} and no other keys than
   `keys` (which hold those three; the caller reads the others). */
static void sb_stream_opts_keys(const sb_ctx_t *c, int idx, const char *const *keys,
                                uint32_t *stream, uint32_t *device)
{
    lua_State *L = c->L;
    int top = lua_gettop(L);
    *stream = 0;
    *device = 0;
    if (lua_isnoneornil(L, idx)) {
        return;
    }
    if (!sb_is_plain(L, idx))
        sb_fail_value(c, idx, "options", "a table {stream = s, device = d, after = e}");
    sb_check_keys(c, idx, keys, 0);
    lua_getfield(L, idx, "stream");
    *stream = sb_stream_arg(c, lua_gettop(L), "stream");
    lua_getfield(L, idx, "device");
    *device = lua_isnil(L, -1) ? sb_stream_device(c, lua_gettop(L), *stream)
                               : sb_device_arg(c, lua_gettop(L), "device");
    sb_bind_stream(c, *stream, *device);
    lua_getfield(L, idx, "after");
    sb_after_waits(c, lua_gettop(L), *stream, *device);
    lua_settop(L, top);
}

static void sb_stream_opts(const sb_ctx_t *c, int idx, uint32_t *stream, uint32_t *device)
{
    static const char *const keys[] = {"stream", "device", "after", NULL};
    sb_stream_opts_keys(c, idx, keys, stream, device);
}

/* gpuperf.flush_l2([{stream =, device =, after =, clean =}]): the L2 of
   the device is emptied, in stream order (a cold start): by a write of a
   scratch buffer (its lines left dirty), or with clean = true by a read of
   one. */
static int l_flush_l2(lua_State *L)
{
    static const char *const keys[] = {"stream", "device", "after", "clean", NULL};
    sb_ctx_t c = SB_CTX(L, "gpuperf.flush_l2");
    uint32_t stream, device, clean = 0;
    gp_command_t *cmd;
    if (lua_gettop(L) > 1)
        sb_fail(&c, "takes at most one table {stream = s, device = d, after = e, clean = b}, "
                    "got %d arguments",
                lua_gettop(L));
    sb_stream_opts_keys(&c, 1, keys, &stream, &device);
    if (lua_istable(L, 1))
        clean = sb_bool_field(&c, 1, "clean",
                              "true (the scratch buffer is read: the L2 is left clean) or "
                              "false (written: left dirty, the default)");
    cmd = sb_cmd_new(L, GP_CMD_FLUSH_L2, stream);
    cmd->device = device;
    cmd->flush_clean = clean;
    sb_ev(L)->wl.n_cmds++;
    return 0;
}

/* gpuperf.launch_graph(g [, {stream =, device =, after =}]), also
   g:launch{...}: replay a captured graph into a stream. */
static int l_launch_graph(lua_State *L)
{
    sb_ctx_t c = SB_CTX(L, "gpuperf.launch_graph");
    sb_eval_t *ev = sb_ev(L);
    int64_t g = sb_handle_index(L, 1, SB_GRAPH);
    uint32_t stream, device;
    gp_command_t *cmd;
    if (g < 0)
        sb_fail_value(&c, 1, "argument 1", "a graph (from gpuperf.graph())");
    if (lua_gettop(L) > 2)
        sb_fail(&c, "takes (graph [, {stream = s, device = d}]), got %d arguments",
                lua_gettop(L));
    if (ev->capture_line)
        sb_fail(&c, "a graph cannot be launched inside gpuperf.graph (the capture began at "
                    "line %u): capture its launches in the same function instead",
                ev->capture_line);
    sb_stream_opts(&c, 2, &stream, &device);
    cmd = sb_cmd_new(L, GP_CMD_GRAPH, stream);
    cmd->graph = (uint32_t)g;
    cmd->device = device;
    ev->wl.n_cmds++;
    return 0;
}

/* Check the commands a capture issued; raises naming the first that a graph
   cannot hold. */
static void sb_check_capture(const sb_ctx_t *c, const gp_command_t *cmds, uint32_t n,
                             uint32_t *n_nodes, uint32_t *device)
{
    uint32_t i, first = UINT32_MAX;
    *n_nodes = 0;
    *device = 0;
    for (i = 0; i < n; i++) {
        const gp_command_t *x = &cmds[i];
        if (x->type != GP_CMD_LAUNCH && x->type != GP_CMD_COPY && x->type != GP_CMD_FLUSH_L2)
            continue;
        if (x->type == GP_CMD_COPY && x->copy_kind == GP_COPY_P2P)
            sb_fail(c, "the p2p copy at line %u: a graph runs on one device; issue peer copies "
                       "outside it",
                    x->line);
        if (first == UINT32_MAX) {
            first = i;
            *device = x->device;
        } else if (x->device != *device) {
            sb_fail(c, "line %u targets device %u and line %u device %u: a graph runs on one "
                       "device (capture one per device)",
                    cmds[first].line, *device, x->line, x->device);
        }
        ++*n_nodes;
    }
}

/* Push a graph handle: a read-only table with .name, .nodes and the
   method launch (g:launch{...}). */
static void sb_push_graph(lua_State *L, uint32_t index, const char *name, uint32_t nodes)
{
    char what[128];
    lua_createtable(L, 0, 3);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    lua_pushnumber(L, nodes);
    lua_setfield(L, -2, "nodes");
    lua_pushcfunction(L, l_launch_graph);
    lua_setfield(L, -2, "launch");
    snprintf(what, sizeof what, "graph '%s'", name);
    sb_push_readonly(L, what, sb_handle_tags[SB_GRAPH]);
    sb_register_handle(L, SB_GRAPH, index);
}

/* gpuperf.graph(function () ... end [, name]) -> graph: run the function,
   capturing (not running) the launches, copies, flushes and event records
   and waits it issues. */
static int l_graph(lua_State *L)
{
    sb_ctx_t c = SB_CTX(L, "gpuperf.graph");
    sb_eval_t *ev = sb_ev(L);
    gp_script_t *sc = sb_script(L);
    gp_command_t *outer, *cmds;
    gp_graph_t *g;
    uint32_t n_outer, cap_outer, n, cap, line = (uint32_t)GP_MAX(sb_line(L, 1), 1);
    uint32_t nodes, device;
    char name[GP_WL_NAME_MAX];
    int status, depth;
    if (lua_type(L, 1) != LUA_TFUNCTION)
        sb_fail_value(&c, 1, "argument 1",
                      "a function that issues the graph's launches and copies");
    if (lua_gettop(L) > 2)
        sb_fail(&c, "takes (function [, name]), got %d arguments", lua_gettop(L));
    sb_name_arg(&c, 2, "graph", ev->wl.n_graphs, name, sizeof name);
    if (ev->capture_line)
        sb_fail(&c, "gpuperf.graph inside another capture (line %u): capture one graph at a "
                    "time",
                ev->capture_line);
    /* room for the graph first: nothing may fail once the capture is taken */
    sb_grow(L, (void **)&ev->wl.graphs, &ev->cap_graphs, ev->wl.n_graphs, sizeof *g,
            GP_SCRIPT_MAX_CMDS, "graphs");
    sb_enter(L);
    depth = sc->c_depth;
    outer = ev->wl.cmds;
    n_outer = ev->wl.n_cmds;
    cap_outer = ev->cap_cmds;
    ev->wl.cmds = NULL;
    ev->wl.n_cmds = ev->cap_cmds = 0;
    ev->capture_line = line;
    lua_settop(L, 2);
    lua_pushvalue(L, 1);
    status = lua_pcall(L, 0, 0, 0);
    sc->c_depth = depth - 1;
    cmds = ev->wl.cmds;
    n = ev->wl.n_cmds;
    cap = ev->cap_cmds;
    ev->wl.cmds = outer;
    ev->wl.n_cmds = n_outer;
    ev->cap_cmds = cap_outer;
    ev->capture_line = 0;
    if (status != 0) {
        gp_workload_free_cmds(cmds, n);
        free(cmds);
        sb_account(L, -(int64_t)((uint64_t)cap * sizeof *cmds));
        if (sc->fatal == SB_FATAL_BUDGET)
            lua_pushstring(L, sc->fatal_msg);
        lua_error(L);
    }
    {
        /* sb_check_capture raises: keep the commands reachable until then */
        g = &ev->wl.graphs[ev->wl.n_graphs];
        memset(g, 0, sizeof *g);
        g->cmds = cmds;
        g->n_cmds = n;
        g->line = line;
        ev->wl.n_graphs++; /* owned by the workload from here on */
        sb_check_capture(&c, cmds, n, &nodes, &device);
        g->n_nodes = nodes;
        g->device = device;
    }
    sb_push_graph(L, ev->wl.n_graphs - 1, name, nodes);
    return 1;
}

/* ---------------------------------------------------------------- table */

static const luaL_Reg sb_api_funcs[] = {
    {"param", l_param},   {"buffer", l_buffer}, {"stream", l_stream},
    {"event", l_event},   {"record", l_record}, {"wait", l_wait},
    {"synchronize", l_synchronize}, {"elapsed", l_elapsed}, {"copy", l_copy}, {"grid", l_grid},
    {"use_devices", l_use_devices}, {"flush_l2", l_flush_l2}, {"graph", l_graph},
    {"launch_graph", l_launch_graph}, {NULL, NULL}};

/* Registry keys of what evaluations share, all immutable to scripts: the
   API's functions, the gpuperf table scripts see (built for the device in
   s->api_dev) and its default stream's handle. */
static const char sb_key_api_funcs = 0, sb_key_api_proxy = 0, sb_key_api_stream0 = 0;

/* Build the gpuperf proxy for device dev (NULL: none) and keep it, with its
   default stream handle, in the registry. */
static void sb_api_build(lua_State *L, const gp_device_t *dev)
{
    int real, funcs;
    lua_pushlightuserdata(L, (void *)&sb_key_api_funcs);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        luaL_setfuncs(L, sb_api_funcs, 0);
        sb_launch_register(L);
        sb_ops_register(L);
        lua_pushlightuserdata(L, (void *)&sb_key_api_funcs);
        lua_pushvalue(L, -2);
        lua_rawset(L, LUA_REGISTRYINDEX);
    }
    funcs = lua_gettop(L);

    lua_newtable(L);
    real = lua_gettop(L);
    sb_push_handle(L, SB_STREAM, 0, "default", 0);
    lua_pushlightuserdata(L, (void *)&sb_key_api_stream0);
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
    lua_setfield(L, real, "default_stream");
    if (dev) {
        sb_push_device(L, dev);
        lua_setfield(L, real, "device");
    }

    /* reads go proxy -> this device's fields -> the functions -> the
       misses (tables all but the last, so that the VM follows them itself) */
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, funcs);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, real);
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, real);
    lua_pushvalue(L, funcs);
    lua_pushcclosure(L, sb_gpuperf_index, 2);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, funcs);
    lua_pushvalue(L, real); /* the script sees a read-only proxy */
    sb_push_readonly(L, "gpuperf", "gpuperf");
    lua_pushlightuserdata(L, (void *)&sb_key_api_proxy);
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
    lua_settop(L, funcs - 1);
}

void sb_api_push(lua_State *L)
{
    sb_eval_t *ev = sb_ev(L);
    gp_script_t *s = sb_script(L);
    int dev_set = ev->dev != NULL;
    lua_pushlightuserdata(L, (void *)&sb_key_handles);
    lua_createtable(L, 0, 8); /* room for a few handles without a rehash */
    lua_rawset(L, LUA_REGISTRYINDEX);
    ev->wl.n_devices = s->devices ? s->devices : 1;

    if (s->api_dev_set != dev_set + 1 ||
        (dev_set && memcmp(&s->api_dev, ev->dev, sizeof s->api_dev) != 0)) {
        s->api_dev_set = 0; /* a failed build leaves no stale proxy in use */
        sb_api_build(L, ev->dev);
        if (dev_set)
            memcpy(&s->api_dev, ev->dev, sizeof s->api_dev);
        s->api_dev_set = dev_set + 1;
    }
    /* this evaluation's handle table must know the default stream */
    lua_pushlightuserdata(L, (void *)&sb_key_api_stream0);
    lua_rawget(L, LUA_REGISTRYINDEX);
    sb_register_handle(L, SB_STREAM, 0);
    lua_pop(L, 1);
    lua_pushlightuserdata(L, (void *)&sb_key_api_proxy);
    lua_rawget(L, LUA_REGISTRYINDEX);
}
