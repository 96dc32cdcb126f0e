/*
 * script_launch.c - kernel templates (gpuperf.kernel) and launches
 * (gpuperf.launch): launch fields checked and converted into a gp_kernel_t,
 * the work flattened by script_ops.c, one GP_CMD_LAUNCH appended.
 */
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script_internal.h"

static const char *const sb_launch_keys[] = {
    "name",  "grid",  "block",        "regs",       "smem",     "dynamic_smem", "work",
    "stream", "cache", "global_cache", "bank_bytes", "carveout", "device", "after", NULL};
enum { /* places in sb_launch_keys */
    SB_L_NAME, SB_L_GRID, SB_L_BLOCK, SB_L_REGS, SB_L_SMEM, SB_L_DYNAMIC_SMEM, SB_L_WORK, SB_L_STREAM, SB_L_CACHE, SB_L_GLOBAL_CACHE, SB_L_BANK_BYTES, SB_L_CARVEOUT, SB_L_DEVICE, SB_L_AFTER
};
static const char *const sb_cache_names[] = {"none", "prefer_shared", "prefer_l1",
                                             "prefer_equal", NULL};
static const char *const sb_global_cache_names[] = {"default", "ca", "cg", NULL};

/* Where launch fields come from: the launch table, then the template. */
typedef struct sb_src {
    int over; /* stack index, 0: none */
    int tmpl;
    /* after sb_src_collect: the stack index of each field's value (launch
       table first), by its place in sb_launch_keys; 0: absent */
    int at[GP_ARRAY_LEN(sb_launch_keys)];
    int collected;
} sb_src_t;

/* Push field key (launch table first); returns 0 and pushes nil if absent. */
static int sb_src_get(lua_State *L, const sb_src_t *src, const char *key)
{
    int i, from[2];
    from[0] = src->over;
    from[1] = src->tmpl;
    for (i = 0; i < 2; i++) {
        if (!from[i])
            continue;
        lua_pushstring(L, key);
        lua_rawget(L, from[i]);
        if (!lua_isnil(L, -1))
            return 1;
        lua_pop(L, 1);
    }
    lua_pushnil(L);
    return 0;
}

/* sb_src_get for field f (its place in sb_launch_keys), by name until
   sb_src_collect has gathered the fields. */
static int sb_src_field(lua_State *L, const sb_src_t *src, int f)
{
    if (!src->collected)
        return sb_src_get(L, src, sb_launch_keys[f]);
    if (!src->at[f]) {
        lua_pushnil(L);
        return 0;
    }
    lua_pushvalue(L, src->at[f]);
    return 1;
}

/* The place of the string key at idx in sb_launch_keys; -1: not one. */
static int sb_launch_key(lua_State *L, int idx)
{
    size_t len;
    const char *k;
    int i;
    if (lua_type(L, idx) != LUA_TSTRING)
        return -1;
    k = lua_tolstring(L, idx, &len);
    for (i = 0; sb_launch_keys[i]; i++)
        if (k[0] == sb_launch_keys[i][0] && strlen(sb_launch_keys[i]) == len &&
            memcmp(k, sb_launch_keys[i], len) == 0)
            return i;
    return -1;
}

/* Check the keys of the launch table and then of the template (as
   sb_check_keys does, with its message) and push every field's value once,
   so that reading the fields costs no look-ups (the launch table's value
   where both give one). */
static void sb_src_collect(const sb_ctx_t *c, sb_src_t *src)
{
    lua_State *L = c->L;
    int from[2], i;
    from[0] = src->over;
    from[1] = src->tmpl;
    memset(src->at, 0, sizeof src->at);
    luaL_checkstack(L, 2 * GP_ARRAY_LEN(sb_launch_keys) + LUA_MINSTACK, "launch fields");
    for (i = 0; i < 2; i++) {
        if (!from[i])
            continue;
        lua_pushnil(L);
        while (lua_next(L, from[i]) != 0) {
            int k = sb_launch_key(L, -2);
            if (k < 0) { /* refused with sb_check_keys's message (a key with a
                            zero byte it takes for its first part is ignored) */
                sb_check_keys(c, from[i], sb_launch_keys, 0);
                lua_pop(L, 1);
                continue;
            }
            if (src->at[k]) { /* the launch table's */
                lua_pop(L, 1);
                continue;
            }
            lua_insert(L, -2); /* the value below the key lua_next wants on top */
            src->at[k] = lua_gettop(L) - 1;
        }
    }
    src->collected = 1;
}

/* A grid or block: n, {x, y, z} or {x=, y=, z=}; missing dims are 1. */
static gp_dim3_t sb_dim3(const sb_ctx_t *c, int idx, const char *label)
{
    static const char *const axes[] = {"x", "y", "z", NULL};
    lua_State *L = c->L;
    uint64_t v[3] = {1, 1, 1};
    gp_dim3_t d;
    char sub[32];
    int i;
    if (lua_type(L, idx) == LUA_TNUMBER) {
        v[0] = sb_check_uint(c, idx, label, 1, GP_SCRIPT_MAX_DIM);
    } else if (sb_is_plain(L, idx)) {
        /* one walk: where [1]..[3] and x, y, z are on the stack (0: absent);
           another key is refused by sb_check_keys, with its message */
        int at[6] = {0, 0, 0, 0, 0, 0}, top = lua_gettop(L);
        luaL_checkstack(L, 8 + LUA_MINSTACK, "grid or block");
        lua_pushnil(L);
        while (lua_next(L, idx) != 0) {
            int slot = -1;
            if (lua_type(L, -2) == LUA_TNUMBER) {
                lua_Number k = lua_tonumber(L, -2);
                if (k >= 1 && k <= 3 && k == floor(k))
                    slot = (int)k - 1;
            } else if (lua_type(L, -2) == LUA_TSTRING) {
                size_t len;
                const char *k = lua_tolstring(L, -2, &len);
                if (len == 1 && k[0] >= 'x' && k[0] <= 'z')
                    slot = 3 + (k[0] - 'x');
            }
            if (slot < 0) { /* as in sb_src_collect */
                sb_check_keys(c, idx, axes, 3);
                lua_pop(L, 1);
                continue;
            }
            lua_insert(L, -2); /* the value below the key lua_next wants on top */
            at[slot] = lua_gettop(L) - 1;
        }
        for (i = 0; i < 3; i++) {
            lua_Number x;
            if (at[i])
                lua_pushvalue(L, at[i]);
            else
                lua_pushnil(L);
            if (at[3 + i])
                lua_pushvalue(L, at[3 + i]);
            else
                lua_pushnil(L);
            if (!lua_isnil(L, -1) && !lua_isnil(L, -2)) {
                snprintf(sub, sizeof sub, "%s.%s", label, axes[i]);
                sb_fail(c, "'%s' is given twice, as %s[%d] and as %s", sub, label, i + 1, sub);
            }
            if (lua_isnil(L, -1))
                lua_pop(L, 1);
            else
                lua_remove(L, -2);
            /* the label is written only for a message */
            x = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
            if (x >= 1 && x <= GP_SCRIPT_MAX_DIM && x == floor(x)) {
                v[i] = (uint64_t)x;
            } else if (!lua_isnil(L, -1)) {
                snprintf(sub, sizeof sub, "%s.%s", label, axes[i]);
                v[i] = sb_check_uint(c, lua_gettop(L), sub, 1, GP_SCRIPT_MAX_DIM);
            }
            lua_pop(L, 1);
        }
        lua_settop(L, top);
    } else {
        sb_fail_value(c, idx, label, "a positive integer, {x, y, z} or {x = , y = , z = }");
    }
    d.x = v[0];
    d.y = v[1];
    d.z = v[2];
    return d;
}

/* Refuse work whose loops and diverges, nested, would repeat an op more than
   GP_SCRIPT_MAX_NESTED_WORK times per thread: no kernel runs that long, and
   the model's sums would overflow. */
static void sb_check_nesting(const sb_ctx_t *c, const gp_op_t *ops, uint32_t n)
{
    double mult[GP_SCRIPT_MAX_DEPTH + 3];
    uint32_t end[GP_SCRIPT_MAX_DEPTH + 3], depth = 0, i;
    mult[0] = 1;
    end[0] = n;
    for (i = 0; i < n; i++) {
        double m;
        while (depth > 0 && i >= end[depth])
            depth--;
        if (ops[i].kind != GP_OP_LOOP && ops[i].kind != GP_OP_DIVERGE)
            continue;
        m = mult[depth] * (ops[i].count > 1 ? ops[i].count : 1);
        if (m > GP_SCRIPT_MAX_NESTED_WORK)
            sb_fail(c, "work: the %s at line %u, inside the loops around it, repeats its body "
                       "%.3g times per thread; at most %g (check the trip counts)",
                    ops[i].kind == GP_OP_LOOP ? "loop" : "diverge", ops[i].line, m,
                    GP_SCRIPT_MAX_NESTED_WORK);
        if (depth + 1 >= GP_ARRAY_LEN(mult))
            sb_fail(c, "work nested more than %d levels deep", GP_SCRIPT_MAX_DEPTH);
        depth++;
        mult[depth] = m;
        end[depth] = i + 1 + ops[i].body_len;
    }
}

/*
 * Convert launch fields into k (name excluded) and the work into
 * ev->scratch. partial: a template, where nothing is required.
 */
static void sb_launch_fields(const sb_ctx_t *c, const sb_src_t *src, int partial,
                             gp_kernel_t *k, uint32_t *stream, uint32_t *device)
{
    lua_State *L = c->L;
    sb_eval_t *ev = sb_ev(L);
    gp_launch_t *ln = &k->launch;
    int top = lua_gettop(L);
    sb_flat_t f;
    luaL_checkstack(L, 2 * GP_ARRAY_LEN(sb_launch_keys) + LUA_MINSTACK, "launch fields");
    memset(k, 0, sizeof *k);
    ln->carveout_percent = -1;
    if (sb_src_field(L, src, SB_L_GRID))
        ln->grid = sb_dim3(c, lua_gettop(L), "grid");
    else if (!partial)
        sb_fail(c, "'grid' is required: the number of blocks, n or {x, y, z}");
    if (sb_src_field(L, src, SB_L_BLOCK))
        ln->block = sb_dim3(c, lua_gettop(L), "block");
    else if (!partial)
        sb_fail(c, "'block' is required: threads per block, n or {x, y, z}");
    if (sb_src_field(L, src, SB_L_REGS))
        ln->regs_per_thread = (uint32_t)sb_check_uint(c, lua_gettop(L), "regs", 0, 65535);
    else if (!partial)
        sb_fail(c, "'regs' is required: registers per thread, as `ptxas -v` reports them");
    if (sb_src_field(L, src, SB_L_SMEM))
        ln->static_smem_bytes = sb_check_uint(c, lua_gettop(L), "smem", 0, GP_SCRIPT_MAX_COUNT);
    if (sb_src_field(L, src, SB_L_DYNAMIC_SMEM))
        ln->dynamic_smem_bytes =
            sb_check_uint(c, lua_gettop(L), "dynamic_smem", 0, GP_SCRIPT_MAX_COUNT);
    if (sb_src_field(L, src, SB_L_CACHE))
        ln->cache_pref = (uint32_t)sb_check_enum(c, lua_gettop(L), "cache", sb_cache_names);
    if (sb_src_field(L, src, SB_L_GLOBAL_CACHE))
        ln->global_cache =
            (uint32_t)sb_check_enum(c, lua_gettop(L), "global_cache", sb_global_cache_names);
    if (sb_src_field(L, src, SB_L_BANK_BYTES)) {
        lua_Number v = lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER || (v != 4 && v != 8))
            sb_fail_value(c, lua_gettop(L), "bank_bytes", "4 or 8");
        ln->bank_bytes = (uint32_t)v;
    }
    if (sb_src_field(L, src, SB_L_CARVEOUT))
        ln->carveout_percent = (int32_t)sb_check_uint(c, lua_gettop(L), "carveout", 0, 100);
    sb_src_field(L, src, SB_L_STREAM);
    *stream = sb_stream_arg(c, lua_gettop(L), "stream");
    /* the device: as given, else the stream's own (0 for the default one) */
    if (sb_src_field(L, src, SB_L_DEVICE))
        *device = sb_device_arg(c, lua_gettop(L), "device");
    else
        *device = *stream && ev->wl.streams[*stream].device_line
                      ? ev->wl.streams[*stream].device
                      : 0;
    ln->threads_per_block =
        gp_mul_sat_u64(gp_mul_sat_u64(ln->block.x, ln->block.y), ln->block.z);
    k->total_blocks = gp_mul_sat_u64(gp_mul_sat_u64(ln->grid.x, ln->grid.y), ln->grid.z);
    memset(&f, 0, sizeof f);
    f.ops = ev->scratch;
    if (!partial) { /* a launch: index functions are sampled for its shape */
        f.launch = ln;
        f.total_blocks = k->total_blocks;
    }
    if (sb_src_field(L, src, SB_L_WORK)) {
        static const sb_path_t work = {NULL, "work", 0};
        sb_ops_flatten(c, lua_gettop(L), &work, 0, &f);
        k->n_ops = f.n;
        sb_check_nesting(c, ev->scratch, k->n_ops);
    }
    ln->barriers_per_block = f.has_barrier ? 1 : 0;
    lua_settop(L, top);
}

/* gpuperf.kernel{...} -> a reusable template (a tagged copy). */
static int l_kernel(lua_State *L)
{
    sb_ctx_t c = SB_CTX(L, "gpuperf.kernel");
    sb_src_t src = {1, 0, {0}, 0};
    gp_kernel_t k;
    uint32_t stream, device;
    if (!sb_is_plain(L, 1) || lua_gettop(L) != 1)
        sb_fail(&c, "takes one table of fields: gpuperf.kernel{name = , block = , regs = , "
                    "work = {...}}");
    lua_getfield(L, 1, "name");
    if (!lua_isnil(L, -1))
        snprintf(c.where, sizeof c.where, "kernel '%s'", sb_check_name(&c, 2, "name"));
    lua_settop(L, 1);
    sb_check_keys(&c, 1, sb_launch_keys, 0);
    sb_launch_fields(&c, &src, 1, &k, &stream, &device);
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, 2);
    }
    lua_pushlightuserdata(L, (void *)&sb_key_kernel_mt);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_setmetatable(L, 2);
    return 1;
}

/* Copy the launch into a new command (name and ops owned by the
   workload); raises on the memory cap without leaking. */
static void sb_launch_append(lua_State *L, gp_kernel_t *k, uint32_t stream, uint32_t device,
                             const char *name)
{
    sb_eval_t *ev = sb_ev(L);
    gp_command_t *cmd = sb_cmd_new(L, GP_CMD_LAUNCH, stream);
    size_t name_len = strlen(name) + 1, ops_len = k->n_ops * sizeof(gp_op_t);
    char *kname;
    gp_op_t *ops = NULL;
    sb_account(L, (int64_t)(name_len + ops_len));
    kname = malloc(name_len);
    if (k->n_ops)
        ops = malloc(ops_len);
    if (!kname || (k->n_ops && !ops)) {
        free(kname);
        free(ops);
        sb_error_oom(L);
    }
    memcpy(kname, name, name_len);
    if (k->n_ops)
        memcpy(ops, ev->scratch, ops_len);
    k->name = kname;
    k->ops = ops;
    k->line = cmd->line;
    cmd->device = device;
    cmd->kernel = *k;
    ev->wl.n_cmds++;
    ev->n_launches++;
}

/* gpuperf.launch(template [, fields]) or gpuperf.launch{fields} */
static int l_launch(lua_State *L)
{
    sb_eval_t *ev = sb_ev(L);
    sb_ctx_t c = SB_CTX(L, "");
    sb_src_t src = {0, 0, {0}, 0};
    gp_kernel_t k;
    char name[GP_WL_NAME_MAX];
    uint32_t stream, device, number = ev->n_launches + 1;
    c.fmt = "launch #%u";
    c.num = number;
    if (sb_is_tagged(L, 1, &sb_key_kernel_mt)) {
        src.tmpl = 1;
        if (!lua_isnoneornil(L, 2)) {
            if (!sb_is_plain(L, 2))
                sb_fail_value(&c, 2, "argument 2", "a table of launch fields");
            src.over = 2;
        }
        if (lua_gettop(L) > 2)
            sb_fail(&c, "takes (template [, fields]), got %d arguments", lua_gettop(L));
    } else if (sb_is_plain(L, 1)) {
        src.over = 1;
        if (lua_gettop(L) > 1)
            sb_fail(&c, "gpuperf.launch{...} takes one table; to override a template write "
                        "gpuperf.launch(template, {...})");
    } else {
        sb_fail_value(&c, 1, "argument 1", "a kernel template (gpuperf.kernel) or a table of "
                                           "launch fields");
    }
    sb_src_get(L, &src, "name");
    if (lua_isnil(L, -1))
        snprintf(name, sizeof name, "kernel%u", number);
    else
        gp_strlcpy(name, sb_check_name(&c, lua_gettop(L), "name"), sizeof name);
    lua_pop(L, 1);
    c.fmt = "launch '%s'";
    c.arg = name;
    sb_src_collect(&c, &src); /* the keys checked: the launch table's, the template's */
    sb_launch_fields(&c, &src, 0, &k, &stream, &device);
    sb_bind_stream(&c, stream, device);
    sb_src_field(L, &src, SB_L_AFTER); /* waits for these events first */
    sb_after_waits(&c, lua_gettop(L), stream, device);
    lua_pop(L, 1);
    sb_launch_append(L, &k, stream, device, name);
    return 0;
}

void sb_launch_register(lua_State *L)
{
    lua_pushcfunction(L, l_kernel);
    lua_setfield(L, -2, "kernel");
    lua_pushcfunction(L, l_launch);
    lua_setfield(L, -2, "launch");
}
