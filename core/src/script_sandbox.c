/*
 * script_sandbox.c - the environment a workload script sees.
 *
 * Only safe parts of base, string, table and math. No io, os, debug, jit,
 * ffi, package, coroutine, load*, dofile, getfenv/setfenv, newproxy,
 * string.dump. pcall/xpcall cannot catch the fatal errors (budget, memory
 * cap), rawset refuses the read-only gpuperf tables, collectgarbage only
 * counts, require reads NAME.lua from the script's own folder as text.
 * Library functions whose C work grows with their input are charged to the
 * instruction budget (string patterns are refused when their worst case is
 * too costly), and calls from C back into Lua are depth-limited.
 *
 * A template environment is built once per state; every evaluation gets a
 * fresh copy (fresh string/table/math tables too), so a script that patches
 * a library cannot change the next evaluation.
 */
#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"
#include "script_internal.h"

/* What a wrapped library function costs, decided before it runs. */
typedef enum sb_cost {
    SB_COST_CALL = 0, /* may call back into Lua: depth guard only */
    SB_COST_TABLE,    /* linear in #t of argument 1 */
    SB_COST_SORT,     /* n log n in #t of argument 1 */
    SB_COST_PATTERN,  /* string pattern matching over argument 1 */
    SB_COST_FIND,     /* string.find: a pattern, or plain text */
    SB_COST_REP       /* string.rep: result size checked against the cap */
} sb_cost_t;

typedef struct sb_wrap {
    const char *name;
    sb_cost_t cost;
} sb_wrap_t;

/* Base functions handed over unchanged. */
static const char *const sb_base_plain[] = {
    "assert", "error", "getmetatable", "ipairs", "next", "pairs", "rawequal", "rawget",
    "select", "setmetatable", "tonumber", "tostring", "type", "unpack", NULL};

static const char *const sb_string_plain[] = {"byte", "char", "len", "lower", "reverse",
                                              "sub", "upper", NULL};
static const sb_wrap_t sb_string_wrapped[] = {
    {"find", SB_COST_FIND},      {"match", SB_COST_PATTERN}, {"gmatch", SB_COST_PATTERN},
    {"gsub", SB_COST_PATTERN},   {"rep", SB_COST_REP},       {"format", SB_COST_CALL},
    {NULL, SB_COST_CALL}};

static const char *const sb_table_plain[] = {"getn", NULL};
static const sb_wrap_t sb_table_wrapped[] = {
    {"insert", SB_COST_TABLE}, {"remove", SB_COST_TABLE}, {"concat", SB_COST_TABLE},
    {"maxn", SB_COST_TABLE},   {"sort", SB_COST_SORT},    {NULL, SB_COST_CALL}};

/* ------------------------------------------------------- costed wrappers */

/* Worst-case steps of matching pattern p (m bytes) over n bytes: every
   start position, times the backtracking of each quantifier, times the
   length of a capture each back-reference (%1..%9) compares. */
static double sb_pattern_steps(const char *p, size_t m, size_t n, int plain)
{
    double base = (double)n + 1, steps = base * ((double)m + 1);
    size_t i;
    if (plain)
        return steps;
    for (i = 0; i < m && steps < 1e300; i++) {
        char ch = p[i];
        if (ch == '%') {
            i++;
            if (i < m && p[i] == 'b') { /* %bxy scans to the match */
                steps *= base;
                i += 2;
            } else if (i < m && p[i] >= '1' && p[i] <= '9') { /* back-reference */
                steps *= base;
            }
        } else if (ch == '[') { /* a set: its characters are literals */
            i++;
            if (i < m && p[i] == '^')
                i++;
            if (i < m && p[i] == ']')
                i++;
            for (; i < m && p[i] != ']'; i++)
                if (p[i] == '%')
                    i++;
        } else if (ch == '*' || ch == '+' || ch == '-') {
            steps *= base;
        } else if (ch == '?') {
            steps *= 2;
        }
    }
    return steps;
}

/* Check and charge a pattern call on (subject, pattern) at stack 1, 2. */
static void sb_pattern_guard(lua_State *L, const char *name, int find)
{
    size_t n, m;
    const char *p;
    double steps;
    int plain;
    if (!lua_isstring(L, 1) || !lua_isstring(L, 2))
        return; /* the library function reports the bad argument */
    lua_tolstring(L, 1, &n);
    p = lua_tolstring(L, 2, &m);
    plain = find && lua_toboolean(L, 4);
    steps = sb_pattern_steps(p, m, n, plain);
    if (steps > GP_SCRIPT_MAX_PATTERN_STEPS)
        sb_error(L, "%s: pattern too costly on a %zu-byte string (worst case about %.3g "
                    "steps, the limit is %.0e); use a shorter string or a simpler pattern",
                 name, n, steps, GP_SCRIPT_MAX_PATTERN_STEPS);
    /* The worst case is charged, one instruction per step: a match step
       costs about a third of a VM instruction (measured with ".-b" over
       10000 bytes against an arithmetic loop), so a loop of costly matches
       runs out of budget no slower than any loop. */
    sb_charge(L, (uint64_t)steps);
}

/* string.rep: refuse a result the memory cap cannot hold, before it is
   allocated. */
static void sb_rep_guard(lua_State *L, const char *name)
{
    gp_script_t *s = sb_script(L);
    size_t len = 0, seplen = 0;
    double reps, total, left;
    if (!lua_isstring(L, 1) || lua_type(L, 2) != LUA_TNUMBER)
        return;
    lua_tolstring(L, 1, &len);
    if (lua_isstring(L, 3))
        lua_tolstring(L, 3, &seplen);
    reps = (double)lua_tonumber(L, 2);
    if (!(reps >= 1))
        return;
    total = (double)len * reps + (double)seplen * (reps - 1);
    left = (double)s->mem_cap - (double)(s->mem_used + s->wl_bytes);
    if (total > left)
        sb_error(L, "%s: the result would take %.0f bytes, more than the memory cap of %g MiB "
                    "leaves",
                 name, total, (double)s->mem_cap / (1024.0 * 1024.0));
}

/* Upvalues: 1 the library function, 2 its sb_cost_t, 3 its name. */
static int sb_wrapped(lua_State *L)
{
    sb_cost_t cost = (sb_cost_t)lua_tointeger(L, lua_upvalueindex(2));
    const char *name = lua_tostring(L, lua_upvalueindex(3));
    int n = lua_gettop(L);
    double len;
    /* the call itself: a C call through this wrapper costs about as much as
       50 to 80 VM instructions (measured with string.rep("", 5) in a loop
       against an arithmetic loop) */
    sb_charge(L, GP_SCRIPT_CALL_COST);
    switch (cost) {
    case SB_COST_TABLE:
    case SB_COST_SORT:
        if (lua_type(L, 1) == LUA_TTABLE) {
            len = (double)lua_objlen(L, 1);
            if (cost == SB_COST_SORT)
                len *= log2(len + 2);
            sb_charge(L, (uint64_t)len);
        }
        break;
    case SB_COST_PATTERN:
    case SB_COST_FIND:
        sb_pattern_guard(L, name, cost == SB_COST_FIND);
        break;
    case SB_COST_REP:
        sb_rep_guard(L, name);
        break;
    case SB_COST_CALL:
        break;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    sb_enter(L);
    lua_call(L, n, LUA_MULTRET);
    sb_leave(L);
    return lua_gettop(L);
}

/* Fill the table at the top with lib's plain functions and wrappers. */
static void sb_copy_lib(lua_State *L, const char *libname, const char *const *plain,
                        const sb_wrap_t *wrapped)
{
    int lib, dst = lua_gettop(L);
    size_t i;
    lua_getfield(L, LUA_GLOBALSINDEX, libname);
    lib = lua_gettop(L);
    for (i = 0; plain[i]; i++) {
        lua_getfield(L, lib, plain[i]);
        lua_setfield(L, dst, plain[i]);
    }
    for (i = 0; wrapped[i].name; i++) {
        lua_getfield(L, lib, wrapped[i].name);
        lua_pushinteger(L, wrapped[i].cost);
        lua_pushfstring(L, "%s.%s", libname, wrapped[i].name);
        lua_pushcclosure(L, sb_wrapped, 3);
        lua_setfield(L, dst, wrapped[i].name);
    }
    lua_pop(L, 1);
}

/* ----------------------------------------------------- base replacements */

/* Re-raise a fatal error a pcall caught. A budget error raised inside an
   error handler arrives as "error in error handling": raise the original. */
static void sb_rethrow_fatal(lua_State *L)
{
    gp_script_t *s = sb_script(L);
    if (s->fatal == SB_FATAL_BUDGET)
        lua_pushstring(L, s->fatal_msg);
    lua_error(L);
}

/* pcall that lets the fatal errors (budget, memory cap) through. */
static int sb_pcall(lua_State *L)
{
    gp_script_t *s = sb_script(L);
    int depth = s->c_depth, status;
    luaL_checkany(L, 1);
    sb_enter(L);
    status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    s->c_depth = depth;
    if (status != 0 && s->fatal)
        sb_rethrow_fatal(L);
    lua_pushboolean(L, status == 0);
    lua_insert(L, 1);
    return lua_gettop(L);
}

/* The message handler xpcall installs; upvalue 1 is the script's handler.
   Once a fatal error is on its way the script's handler no longer runs
   (it could loop, fail, and be called again for its own error). */
static int sb_xpcall_handler(lua_State *L)
{
    if (sb_script(L)->fatal)
        return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    sb_enter(L);
    lua_call(L, lua_gettop(L) - 1, 1);
    sb_leave(L);
    return 1;
}

/* xpcall(f, handler, ...) with the same rule as pcall. */
static int sb_xpcall(lua_State *L)
{
    gp_script_t *s = sb_script(L);
    int depth = s->c_depth, status, n = lua_gettop(L), i;
    luaL_checkany(L, 2);
    luaL_checkstack(L, n + LUA_MINSTACK, "too many arguments to xpcall");
    sb_enter(L);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_xpcall_handler, 1);
    lua_replace(L, 2);
    lua_pushvalue(L, 1);
    for (i = 3; i <= n; i++)
        lua_pushvalue(L, i);
    status = lua_pcall(L, n - 2, LUA_MULTRET, 2);
    s->c_depth = depth;
    if (status != 0 && s->fatal)
        sb_rethrow_fatal(L);
    lua_pushboolean(L, status == 0);
    lua_insert(L, n + 1);
    return lua_gettop(L) - n;
}

static void sb_math_settle(lua_State *L, int idx);

/* getmetatable and setmetatable: an evaluation's `math` is settled into
   its full copy first (sb_math_settle). Upvalue 1: the base function. */
static int sb_settled_call(lua_State *L)
{
    int n = lua_gettop(L);
    if (n >= 1)
        sb_math_settle(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

/* rawset that refuses the read-only tables (gpuperf, gpuperf.device,
   handles), whose metatables carry __gp_ro. */
static int sb_rawset(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    sb_math_settle(L, 1);
    if (sb_op_fields(L, 1, 1)) { /* an op: its fields (checked again at launch) */
        lua_pushvalue(L, 2);
        lua_pushvalue(L, 3);
        lua_rawset(L, 4);
        lua_settop(L, 1);
        return 1;
    }
    if (lua_getmetatable(L, 1)) {
        lua_getfield(L, -1, "__gp_ro");
        if (lua_toboolean(L, -1))
            sb_error(L, "rawset: this gpuperf table is read-only");
        lua_pop(L, 2);
    }
    lua_rawset(L, 1);
    return 1;
}

/* An op a script holds is a proxy of its fields table: rawget, next and
   pairs read the fields, as they would the op's own table.
   Upvalues: the base function; 1 if it needs a second argument. */
static int sb_op_raw(lua_State *L)
{
    int n = lua_gettop(L);
    /* the base function's own argument errors, raised here so that they
       name the function the script called */
    luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_tointeger(L, lua_upvalueindex(2)) == 1)
        luaL_checkany(L, 2);
    sb_math_settle(L, 1);
    if (sb_op_fields(L, 1, 0))
        lua_replace(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

/* collectgarbage("count") only: the rest would let a script spend the
   host's time in the collector. */
static int sb_collectgarbage(lua_State *L)
{
    const char *opt = luaL_optstring(L, 1, "collect");
    if (strcmp(opt, "count") != 0)
        sb_error(L, "collectgarbage: only collectgarbage(\"count\") is available to workload "
                    "scripts");
    lua_pushnumber(L, lua_gc(L, LUA_GCCOUNT, 0) + lua_gc(L, LUA_GCCOUNTB, 0) / 1024.0);
    return 1;
}

/* print(...) through the log handler (the library never prints itself);
   upvalue 1 is tostring. */
static int sb_print(lua_State *L)
{
    int n = lua_gettop(L), i;
    luaL_checkstack(L, 2 * n + 3, "print: too many arguments");
    for (i = 1; i <= n; i++) {
        size_t len;
        if (i > 1)
            lua_pushliteral(L, "\t");
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushvalue(L, i);
        sb_enter(L);
        lua_call(L, 1, 1);
        sb_leave(L);
        if (!lua_tolstring(L, -1, &len))
            sb_error(L, "print: 'tostring' must return a string");
        sb_charge(L, len / GP_SCRIPT_BYTES_PER_INSTR);
    }
    lua_concat(L, lua_gettop(L) - n);
    gp_logf(GP_LOG_INFO, "print", "%s", lua_tostring(L, -1));
    return 0;
}

/* ---------------------------------------------------------------- require */

/* 1 if name is a plain module name: 1 to 63 letters, digits, '_', '-'
   and '.', not starting with '.' and without "..", so that NAME.lua is a
   file of the script's own folder (a '.' is part of the file name, not a
   folder separator). */
static int sb_module_name_ok(const char *name, size_t len)
{
    size_t i;
    if (len < 1 || len > GP_SCRIPT_MAX_NAME || name[0] == '.')
        return 0;
    for (i = 0; i < len; i++) {
        char ch = name[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.'))
            return 0;
        if (ch == '.' && i + 1 < len && name[i + 1] == '.')
            return 0;
    }
    return 1;
}

/* 1 if the resolved path real names an entry directly inside folder dir. */
static int sb_in_folder(const char *dir, const char *real)
{
    size_t dlen = strlen(dir);
    const char *base = strrchr(real, '/');
    if (!base)
        return 0;
    if (dlen == 1) /* dir is "/" */
        return base == real;
    return (size_t)(base - real) == dlen && strncmp(real, dir, dlen) == 0;
}

/* Read and compile dir/NAME.lua as text; push the chunk. The file must
   resolve (symbolic links included) to a regular file in the folder. */
static void sb_require_load(lua_State *L, const char *name)
{
    gp_script_t *s = sb_script(L);
    char path[PATH_MAX + 80], real[PATH_MAX], chunk[sizeof s->path + 80];
    const char *slash = strrchr(s->path, '/');
    size_t len;
    struct stat st;
    gp_err_t err;
    char *src;
    int status;
    sb_charge(L, GP_SCRIPT_FILE_COST);
    snprintf(path, sizeof path, "%s/%s.lua", s->dir, name);
    if (!realpath(path, real) || stat(real, &st) != 0)
        sb_error(L, "require '%s': there is no %s.lua in the script's folder", name, name);
    if (!sb_in_folder(s->dir, real))
        sb_error(L, "require '%s': %s.lua leads outside the script's folder", name, name);
    if (!S_ISREG(st.st_mode))
        sb_error(L, "require '%s': %s.lua is not a regular file", name, name);
    if (gp_read_file(real, GP_SCRIPT_MAX_SOURCE, &src, &len, &err))
        sb_error(L, "require '%s': %s", name, err.msg);
    if (len > 0 && (unsigned char)src[0] == 0x1b) {
        free(src);
        sb_error(L, "require '%s': %s.lua is precompiled bytecode; only Lua source is loaded",
                 name, name);
    }
    /* named as the script is: the folder as the user gave it */
    snprintf(chunk, sizeof chunk, "@%.*s%s.lua", slash ? (int)(slash + 1 - s->path) : 0,
             s->path, name);
    status = luaL_loadbufferx(L, src, len, chunk, "t");
    free(src);
    if (status == LUA_ERRMEM)
        sb_error_memory(L);
    if (status != 0) {
        sb_whole_position(L, chunk);
        lua_error(L); /* "folder/name.lua:LINE: message" */
    }
}

/* require(name): run NAME.lua from the script's folder once per
   evaluation, in the script's environment; return what it returns. */
static int sb_require(lua_State *L)
{
    const char *name;
    size_t len;
    char got[96];
    if (lua_type(L, 1) != LUA_TSTRING) {
        sb_describe(L, 1, got, sizeof got);
        sb_error(L, "require: expected a module name, got %s", got);
    }
    name = lua_tolstring(L, 1, &len);
    if (!sb_module_name_ok(name, len)) {
        sb_describe(L, 1, got, sizeof got);
        sb_error(L, "require %s: a module name is a plain name of letters, digits, '_', '-' "
                    "and '.' (not starting with '.', no \"..\"); NAME.lua is loaded from the "
                    "script's folder",
                 got);
    }
    lua_settop(L, 1);
    lua_pushlightuserdata(L, (void *)&sb_key_loaded);
    lua_rawget(L, LUA_REGISTRYINDEX); /* 2: loaded (made by the first require) */
    if (lua_isnil(L, 2)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushlightuserdata(L, (void *)&sb_key_loaded);
        lua_pushvalue(L, 2);
        lua_rawset(L, LUA_REGISTRYINDEX);
    }
    lua_pushvalue(L, 1);
    lua_rawget(L, 2);
    if (lua_touserdata(L, -1) == &sb_key_loaded)
        sb_error(L, "require '%s': circular require (the module is still loading)", name);
    if (!lua_isnil(L, -1))
        return 1;
    lua_pop(L, 1);
    lua_pushlightuserdata(L, (void *)&sb_key_modules);
    lua_rawget(L, LUA_REGISTRYINDEX); /* 3: compiled modules */
    lua_pushvalue(L, 1);
    lua_rawget(L, 3); /* 4: the chunk */
    if (lua_isnil(L, 4)) {
        lua_pop(L, 1);
        sb_require_load(L, name);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 4);
        lua_rawset(L, 3);
    }
    lua_pushvalue(L, 1);
    lua_pushlightuserdata(L, (void *)&sb_key_loaded); /* "loading" mark */
    lua_rawset(L, 2);
    lua_pushlightuserdata(L, (void *)&sb_key_env);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_setfenv(L, 4);
    lua_pushvalue(L, 1);
    sb_enter(L);
    lua_call(L, 1, 1);
    sb_leave(L);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -2);
    lua_rawset(L, 2);
    return 1;
}

/* ------------------------------------------------------------ template */

static void sb_env_init(lua_State *L);

/* registry[key] = a new table with just __metatable = text. */
static void sb_new_tag(lua_State *L, const char *key, const char *text)
{
    lua_pushlightuserdata(L, (void *)key);
    lua_newtable(L);
    lua_pushstring(L, text);
    lua_setfield(L, -2, "__metatable");
    lua_rawset(L, LUA_REGISTRYINDEX);
}

int sb_sandbox_init(lua_State *L)
{
    static const luaL_Reg own[] = {{"pcall", sb_pcall},
                                   {"xpcall", sb_xpcall},
                                   {"rawset", sb_rawset},
                                   {"collectgarbage", sb_collectgarbage},
                                   {"require", sb_require},
                                   {NULL, NULL}};
    int tmpl;
    size_t i;
    lua_pushlightuserdata(L, (void *)&sb_key_template);
    lua_newtable(L);
    tmpl = lua_gettop(L);
    for (i = 0; sb_base_plain[i]; i++) {
        lua_getfield(L, LUA_GLOBALSINDEX, sb_base_plain[i]);
        lua_setfield(L, tmpl, sb_base_plain[i]);
    }
    luaL_setfuncs(L, own, 0);
    for (i = 0; i < 3; i++) {
        static const char *const raw[] = {"rawget", "next", "pairs"};
        lua_getfield(L, LUA_GLOBALSINDEX, raw[i]);
        lua_pushinteger(L, i == 0); /* rawget needs its key */
        lua_pushcclosure(L, sb_op_raw, 2);
        lua_setfield(L, tmpl, raw[i]);
    }
    for (i = 0; i < 2; i++) {
        static const char *const meta[] = {"getmetatable", "setmetatable"};
        lua_getfield(L, LUA_GLOBALSINDEX, meta[i]);
        lua_pushcclosure(L, sb_settled_call, 1);
        lua_setfield(L, tmpl, meta[i]);
    }
    lua_getfield(L, LUA_GLOBALSINDEX, "tostring");
    lua_pushcclosure(L, sb_print, 1);
    lua_setfield(L, tmpl, "print");
    lua_pushliteral(L, "Lua 5.1");
    lua_setfield(L, tmpl, "_VERSION");
    lua_newtable(L);
    sb_copy_lib(L, "string", sb_string_plain, sb_string_wrapped);
    lua_setfield(L, tmpl, "string");
    lua_newtable(L);
    sb_copy_lib(L, "table", sb_table_plain, sb_table_wrapped);
    lua_setfield(L, tmpl, "table");
    lua_newtable(L); /* math: every function is O(1) */
    lua_getfield(L, LUA_GLOBALSINDEX, "math");
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -5);
    }
    lua_pop(L, 1);
    lua_setfield(L, tmpl, "math");
    lua_rawset(L, LUA_REGISTRYINDEX);

    /* The string metatable is shared by every string: hide it. */
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);

    lua_pushlightuserdata(L, (void *)&sb_key_modules);
    lua_newtable(L);
    lua_rawset(L, LUA_REGISTRYINDEX);
    sb_new_tag(L, &sb_key_op_mt, "gpuperf.op");
    sb_new_tag(L, &sb_key_kernel_mt, "gpuperf.kernel");
    sb_ops_init(L);
    lua_pushlightuserdata(L, (void *)&sb_key_template);
    lua_rawget(L, LUA_REGISTRYINDEX);
    sb_env_init(L);
    /* method calls on strings: the guarded copy (an evaluation that reads
       `string` points them at its own copy until the next one starts) */
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_getfield(L, -3, "string");
    lua_setfield(L, -2, "__index");
    lua_pop(L, 3);
    return 0;
}

/*
 * The environment of one evaluation is built lazily: it starts empty, with a
 * metatable whose __index fills in a global the first time the script reads
 * it (a library as a fresh copy, made by a compiled copier, or for math a
 * table that reads the library until it is written: sb_math_settle;
 * gpuperf; a base function) and whose __newindex remembers that the script set one (so that
 * `math = nil` stays nil). Reading _G fills in every global and drops the
 * metatable: from then on the environment is the full copy it always was.
 * What a script sees is the same as with a full copy per evaluation; a
 * script that touches only `gpuperf` and `math` pays for those two.
 */

/* Registry keys: the environment's metatable; the global-name -> slot table;
   the copiers of the libraries (slot -> function; true for math, which sb_math_settle copies). */
static const char sb_key_env_mt = 0, sb_key_env_slots = 0, sb_key_env_copiers = 0;

/* Slots beyond the template's keys. */
#define SB_SLOT_GPUPERF 1
#define SB_SLOT_G 2
#define SB_SLOT_FIRST 3 /* the template's keys from here on */

/* Compile and push a function that returns a fresh copy of the library
   table at idx: one table constructor with every key (a template the VM
   duplicates), then one assignment per key of the library's value, held as
   an upvalue of the copier (the libraries never change: the copies are what
   scripts see). A library of more keys than a function may have upvalues
   is read key by key at each copy instead. */
#define SB_COPIER_UPVALUES 50
static void sb_push_copier(lua_State *L, int idx)
{
    luaL_Buffer b;
    int pass, n, nkeys = 0, by_value;
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        lua_pop(L, 1);
        nkeys++;
    }
    by_value = nkeys <= SB_COPIER_UPVALUES;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, "local s");
    /* pass 0: the values' names (v1.. in lua_next order), 1: the template,
       2: the assignments */
    for (pass = by_value ? 0 : 1; pass < 3; pass++) {
        if (pass == 1)
            luaL_addstring(&b, " = ...\nreturn function()\nlocal t = {");
        n = 0;
        lua_pushnil(L);
        while (lua_next(L, idx) != 0) {
            char line[160];
            const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
            lua_pop(L, 1);
            n++;
            if (pass == 0) {
                snprintf(line, sizeof line, ", v%d", n);
                luaL_addstring(&b, line);
                continue;
            }
            if (!k || strlen(k) > 60 || strpbrk(k, "\"\\\n"))
                continue; /* (the libraries have identifier keys only) */
            if (pass == 1)
                snprintf(line, sizeof line, "[\"%s\"] = false, ", k);
            else if (by_value)
                snprintf(line, sizeof line, "t[\"%s\"] = v%d\n", k, n);
            else
                snprintf(line, sizeof line, "t[\"%s\"] = s[\"%s\"]\n", k, k);
            /* the buffer may sit on the stack: add from C text only */
            luaL_addstring(&b, line);
        }
        if (pass == 1)
            luaL_addstring(&b, "}\n");
    }
    luaL_addstring(&b, "return t\nend\n");
    luaL_pushresult(&b);
    if (luaL_loadbuffer(L, lua_tostring(L, -1), lua_objlen(L, -1), "=gpuperf") != 0)
        lua_error(L);
    lua_remove(L, -2);
    lua_pushvalue(L, idx); /* s, then the values (v1..) */
    n = 1;
    if (by_value) {
        luaL_checkstack(L, nkeys + 2, "library copier");
        lua_pushnil(L);
        while (lua_next(L, idx) != 0) {
            lua_insert(L, -2); /* the value stays, below the key lua_next wants */
            n++;
        }
    }
    lua_call(L, n, 1);
}

/*
 * An evaluation's `math` starts as an empty table whose metatable reads
 * the library's values (the template's, never written), instead of a copy
 * of some thirty keys that most scripts read two of. The first write to it
 * (__newindex: every key is absent), and rawget, rawset, next, pairs,
 * getmetatable and setmetatable on it, settle it first: the library's keys
 * it does not have are copied in and the metatable dropped, so from then on
 * it is the full copy it always was.
 */
static const char sb_key_math_mt = 0;

static void sb_math_settle(lua_State *L, int idx)
{
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx))
        return;
    lua_pushlightuserdata(L, (void *)&sb_key_math_mt);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (!lua_rawequal(L, -1, -2)) {
        lua_pop(L, 2);
        return;
    }
    lua_pop(L, 1);
    lua_pushliteral(L, "__index");
    lua_rawget(L, -2); /* the library's values */
    lua_remove(L, -2);
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        lua_pushvalue(L, -2);
        lua_rawget(L, idx);
        if (lua_isnil(L, -1)) { /* not set by the script (table.insert sets [n]) */
            lua_pop(L, 1);
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, idx);
        } else {
            lua_pop(L, 2);
        }
    }
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_setmetatable(L, idx);
}

/* __newindex of an unsettled math: (math, key, value). */
static int sb_math_newindex(lua_State *L)
{
    lua_settop(L, 3);
    sb_math_settle(L, 1);
    lua_rawset(L, 1);
    return 0;
}

/* The same random numbers on every evaluation (the generator is reachable
   only through math, at idx): math.randomseed(0), unless the generator's
   state is still, byte for byte, what the last math.randomseed(0) left
   (no evaluation since drew a number or seeded it), where a new seed
   would write the same bytes again. */
static void sb_random_reset(lua_State *L, int idx, gp_script_t *s)
{
    if (s->rng_len && memcmp(s->rng_state, s->rng_seeded, s->rng_len) == 0)
        return;
    lua_getfield(L, idx, "randomseed");
    lua_pushinteger(L, 0);
    lua_call(L, 1, 0);
    if (!s->rng_looked) {
        /* LuaJIT keeps the state in a userdata, math.random's upvalue */
        s->rng_looked = 1;
        lua_getfield(L, idx, "random");
        if (lua_type(L, -1) == LUA_TFUNCTION && lua_getupvalue(L, -1, 1)) {
            size_t len = lua_type(L, -1) == LUA_TUSERDATA ? lua_objlen(L, -1) : 0;
            if (len > 0 && len <= sizeof s->rng_seeded) {
                s->rng_state = lua_touserdata(L, -1);
                s->rng_len = len;
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    if (s->rng_len)
        memcpy(s->rng_seeded, s->rng_state, s->rng_len);
}

/* The global `key` (at idx) for the first time in this evaluation: push its
   value (a fresh copy of a library). env at env. */
static void sb_env_fill(lua_State *L, int env, int key, int slot)
{
    gp_script_t *s = sb_script(L);
    if (slot == SB_SLOT_GPUPERF) {
        lua_pushlightuserdata(L, (void *)&sb_key_api_current);
        lua_rawget(L, LUA_REGISTRYINDEX);
    } else if (slot == SB_SLOT_G) {
        lua_pushvalue(L, env);
    } else {
        lua_pushlightuserdata(L, (void *)&sb_key_env_copiers);
        lua_rawget(L, LUA_REGISTRYINDEX);
        lua_rawgeti(L, -1, slot);
        if (lua_isnil(L, -1)) { /* a plain value: the template's */
            lua_pop(L, 2);
            lua_pushlightuserdata(L, (void *)&sb_key_template);
            lua_rawget(L, LUA_REGISTRYINDEX);
            lua_pushvalue(L, key);
            lua_rawget(L, -2);
            lua_remove(L, -2);
            return;
        }
        lua_remove(L, -2);
        if (lua_type(L, -1) == LUA_TBOOLEAN) {
            /* math: a table that reads the library's values until the
               script writes to it or looks at it raw (sb_math_settle) */
            lua_pop(L, 1);
            lua_createtable(L, 0, 0);
            lua_pushlightuserdata(L, (void *)&sb_key_math_mt);
            lua_rawget(L, LUA_REGISTRYINDEX);
            lua_setmetatable(L, -2);
            sb_random_reset(L, lua_gettop(L), s);
            return;
        }
        lua_call(L, 0, 1); /* a fresh copy */
        if (lua_type(L, key) == LUA_TSTRING && strcmp(lua_tostring(L, key), "string") == 0) {
            /* method calls on strings ("x"):rep() use this evaluation's copy */
            lua_pushliteral(L, "");
            lua_getmetatable(L, -1);
            lua_pushvalue(L, -3);
            lua_setfield(L, -2, "__index");
            lua_pop(L, 2);
            s->string_mt_set = 1;
        }
    }
}

/* Fill every global not yet filled or set, and drop the metatable. */
static void sb_env_fill_all(lua_State *L, int env)
{
    sb_eval_t *ev = sb_script(L)->ev;
    lua_pushlightuserdata(L, (void *)&sb_key_env_slots);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        int slot = (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
        if (ev->env_touched & (1ull << slot))
            continue;
        ev->env_touched |= 1ull << slot;
        sb_env_fill(L, env, lua_gettop(L), slot);
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, env);
    }
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_setmetatable(L, env);
}

/* __index of the environment: (env, key). */
static int sb_env_index(lua_State *L)
{
    sb_eval_t *ev = sb_script(L)->ev;
    int slot;
    lua_settop(L, 2);
    lua_pushlightuserdata(L, (void *)&sb_key_env_slots);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_pushvalue(L, 2);
    lua_rawget(L, 3);
    slot = (int)lua_tointeger(L, -1); /* 0: not a global of the sandbox */
    if (!slot || !ev || (ev->env_touched & (1ull << slot))) {
        lua_pushnil(L);
        return 1;
    }
    if (slot == SB_SLOT_G) {
        sb_env_fill_all(L, 1);
        lua_pushvalue(L, 1);
        return 1;
    }
    ev->env_touched |= 1ull << slot;
    sb_env_fill(L, 1, 2, slot);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -2);
    lua_rawset(L, 1);
    return 1;
}

/* __newindex of the environment: (env, key, value); the key is absent. */
static int sb_env_newindex(lua_State *L)
{
    sb_eval_t *ev = sb_script(L)->ev;
    int slot;
    lua_settop(L, 3);
    lua_pushlightuserdata(L, (void *)&sb_key_env_slots);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_pushvalue(L, 2);
    lua_rawget(L, 4);
    slot = (int)lua_tointeger(L, -1);
    if (slot && ev)
        ev->env_touched |= 1ull << slot;
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 0;
}

/* The environment's metatable, slots and copiers, from the template (at
   the top of the stack). */
static void sb_env_init(lua_State *L)
{
    int tmpl = lua_gettop(L), slots, copiers, next = SB_SLOT_FIRST;
    lua_pushlightuserdata(L, (void *)&sb_key_math_mt);
    lua_createtable(L, 0, 2);
    lua_getfield(L, tmpl, "math");
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, sb_math_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_rawset(L, LUA_REGISTRYINDEX);
    lua_pushlightuserdata(L, (void *)&sb_key_env_slots);
    lua_newtable(L);
    slots = lua_gettop(L);
    lua_pushlightuserdata(L, (void *)&sb_key_env_copiers);
    lua_newtable(L);
    copiers = lua_gettop(L);
    lua_pushinteger(L, SB_SLOT_GPUPERF);
    lua_setfield(L, slots, "gpuperf");
    lua_pushinteger(L, SB_SLOT_G);
    lua_setfield(L, slots, "_G");
    lua_pushnil(L);
    while (lua_next(L, tmpl) != 0) {
        if (next >= 64)
            luaL_error(L, "sandbox: too many globals");
        if (lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "math") == 0) {
            lua_pushboolean(L, 1); /* no copier: sb_math_settle copies */
            lua_rawseti(L, copiers, next);
        } else if (lua_type(L, -1) == LUA_TTABLE) {
            sb_push_copier(L, -1);
            lua_rawseti(L, copiers, next);
        }
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushinteger(L, next++);
        lua_rawset(L, slots);
    }
    lua_rawset(L, LUA_REGISTRYINDEX); /* copiers */
    lua_rawset(L, LUA_REGISTRYINDEX); /* slots */
    lua_pushlightuserdata(L, (void *)&sb_key_env_mt);
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, sb_env_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, sb_env_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_rawset(L, LUA_REGISTRYINDEX);
}

void sb_sandbox_push_env(lua_State *L)
{
    gp_script_t *s = sb_script(L);
    int env;
    lua_createtable(L, 0, 8);
    env = lua_gettop(L);
    lua_pushlightuserdata(L, (void *)&sb_key_env_mt);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_setmetatable(L, env);
    s->ev->env_touched = 0;

    /* method calls on strings go to an unchanged copy until the script
       reads `string` */
    if (s->string_mt_set) {
        lua_pushliteral(L, "");
        lua_getmetatable(L, -1);
        lua_pushlightuserdata(L, (void *)&sb_key_template);
        lua_rawget(L, LUA_REGISTRYINDEX);
        lua_getfield(L, -1, "string");
        lua_setfield(L, -3, "__index");
        lua_pop(L, 3);
        s->string_mt_set = 0;
    }

    lua_pushlightuserdata(L, (void *)&sb_key_env);
    lua_pushvalue(L, env);
    lua_rawset(L, LUA_REGISTRYINDEX);

    sb_api_push(L);
    lua_pushlightuserdata(L, (void *)&sb_key_api_current);
    lua_insert(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
}
