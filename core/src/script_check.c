/*
 * script_check.c - reading and checking values that scripts hand to the
 * gpuperf functions. Every failed check says where (the script line and the
 * call), what (the field) and what is accepted:
 *   saxpy.lua:7: launch 'saxpy': 'grid.x' must be a positive integer, got -3
 * Only raw table access is used, so no metamethod runs from here.
 */
#include <lauxlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "script_internal.h"

/* Registry keys: their addresses are unique. */
const char sb_key_op_mt, sb_key_kernel_mt, sb_key_env, sb_key_loaded, sb_key_template,
    sb_key_modules, sb_key_handles, sb_key_api_current;

void sb_path_text(const sb_path_t *p, char *buf, size_t size)
{
    char up[256];
    /* (truncated as the successive 256-byte buffers that built it once
       truncated it) */
    if (!p->up) {
        (void)gp_snprintf(buf, size, "%s", p->name);
        return;
    }
    sb_path_text(p->up, up, sizeof up);
    if (p->name)
        (void)gp_snprintf(buf, size, "%s.%s", up, p->name);
    else
        (void)gp_snprintf(buf, size, "%s[%zu]", up, p->index);
}

void sb_ctx_text(const sb_ctx_t *c, char *buf, size_t size)
{
    if (c->up) {
        char up[192], path[256];
        sb_ctx_text(c->up, up, sizeof up);
        sb_path_text(c->path, path, sizeof path);
        (void)gp_snprintf(buf, size, "%s: %s", up, path);
    } else if (c->fmt && c->arg) {
        snprintf(buf, size, c->fmt, c->arg);
    } else if (c->fmt) {
        snprintf(buf, size, c->fmt, c->num);
    } else {
        snprintf(buf, size, "%s", c->where);
    }
}

void sb_fail(const sb_ctx_t *c, const char *fmt, ...)
{
    char msg[768], where[192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sb_ctx_text(c, where, sizeof where);
    sb_error(c->L, "%s: %s", where, msg);
}

int sb_is_tagged(lua_State *L, int idx, const char *key)
{
    int yes;
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx))
        return 0;
    lua_pushlightuserdata(L, (void *)key);
    lua_rawget(L, LUA_REGISTRYINDEX);
    yes = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return yes;
}

int sb_is_plain(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TTABLE)
        return 0;
    if (lua_getmetatable(L, idx)) {
        lua_pop(L, 1);
        return 0;
    }
    return 1;
}

/* Quote a string for a message: printable ASCII, at most 40 bytes. */
static void sb_quote(const char *s, size_t len, char *buf, size_t size)
{
    size_t i, n = 0;
    if (size < 8)
        return;
    buf[n++] = '"';
    for (i = 0; i < len && n + 5 < size && i < 40; i++)
        buf[n++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (i < len && n + 4 < size) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n++] = '"';
    buf[n] = '\0';
}

void sb_describe(lua_State *L, int idx, char *buf, size_t size)
{
    const char *kind;
    size_t len;
    const char *s;
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        snprintf(buf, size, "%.14g", (double)lua_tonumber(L, idx));
        return;
    case LUA_TSTRING:
        s = lua_tolstring(L, idx, &len);
        sb_quote(s, len, buf, size);
        return;
    case LUA_TBOOLEAN:
        snprintf(buf, size, "%s", lua_toboolean(L, idx) ? "true" : "false");
        return;
    case LUA_TNIL:
        snprintf(buf, size, "nil");
        return;
    case LUA_TTABLE:
        if (sb_is_tagged(L, idx, &sb_key_op_mt))
            snprintf(buf, size, "a gpuperf operation");
        else if (sb_is_tagged(L, idx, &sb_key_kernel_mt))
            snprintf(buf, size, "a kernel template");
        else if ((kind = sb_handle_kind_name(L, idx)) != NULL)
            snprintf(buf, size, "a %s handle", kind);
        else
            snprintf(buf, size, "a table");
        return;
    default:
        snprintf(buf, size, "a %s", lua_typename(L, lua_type(L, idx)));
    }
}

void sb_fail_value(const sb_ctx_t *c, int idx, const char *label, const char *expected)
{
    char got[96];
    sb_describe(c->L, idx, got, sizeof got);
    sb_fail(c, "'%s' must be %s, got %s", label, expected, got);
}

/* The number at idx, or NaN when it is not a number. */
static double sb_number(lua_State *L, int idx)
{
    return lua_type(L, idx) == LUA_TNUMBER ? (double)lua_tonumber(L, idx) : NAN;
}

/* " no larger than MAX" when v is above max (for the expected text). */
static void sb_limit_note(double v, double max, char *buf, size_t size)
{
    buf[0] = '\0';
    if (v > max && max == GP_SCRIPT_MAX_DIM)
        snprintf(buf, size, " no larger than 2^63");
    else if (v > max)
        snprintf(buf, size, " no larger than %g", max);
}

uint64_t sb_check_uint(const sb_ctx_t *c, int idx, const char *label, uint64_t min, double max)
{
    double v = sb_number(c->L, idx);
    char expected[128], note[64];
    if (isfinite(v) && v == floor(v) && v >= (double)min && v <= max)
        return (uint64_t)v;
    sb_limit_note(v, max, note, sizeof note);
    if (max < GP_SCRIPT_MAX_COUNT)
        snprintf(expected, sizeof expected, "an integer from %llu to %.15g",
                 (unsigned long long)min, max);
    else
        snprintf(expected, sizeof expected, "a %s integer%s",
                 min ? "positive" : "non-negative", note);
    sb_fail_value(c, idx, label, expected);
}

int64_t sb_check_int(const sb_ctx_t *c, int idx, const char *label, double limit)
{
    double v = sb_number(c->L, idx);
    char expected[96];
    if (isfinite(v) && v == floor(v) && fabs(v) <= limit)
        return (int64_t)v;
    snprintf(expected, sizeof expected, "an integer from %.15g to %.15g", -limit, limit);
    sb_fail_value(c, idx, label, expected);
}

double sb_check_count(const sb_ctx_t *c, int idx, const char *label)
{
    return sb_check_real(c, idx, label, 0, GP_SCRIPT_MAX_COUNT);
}

double sb_check_real(const sb_ctx_t *c, int idx, const char *label, double min, double max)
{
    double v = sb_number(c->L, idx);
    char expected[96], note[64];
    if (isfinite(v) && v >= min && v <= max)
        return v;
    sb_limit_note(v, max, note, sizeof note);
    if (min == 0)
        snprintf(expected, sizeof expected, "a non-negative number%s", note);
    else
        snprintf(expected, sizeof expected, "a number >= %g%s", min, note);
    sb_fail_value(c, idx, label, expected);
}

int sb_check_enum(const sb_ctx_t *c, int idx, const char *label, const char *const *names)
{
    char expected[256];
    size_t n = 0;
    int i;
    if (lua_type(c->L, idx) == LUA_TSTRING) {
        const char *s = lua_tostring(c->L, idx);
        for (i = 0; names[i]; i++)
            if (strcmp(s, names[i]) == 0)
                return i;
    }
    n += (size_t)snprintf(expected, sizeof expected, "one of");
    for (i = 0; names[i] && n < sizeof expected; i++)
        n += (size_t)snprintf(expected + n, sizeof expected - n, "%s \"%s\"", i ? "," : "",
                              names[i]);
    sb_fail_value(c, idx, label, expected);
}

const char *sb_check_name(const sb_ctx_t *c, int idx, const char *label)
{
    size_t len, i;
    const char *s;
    if (lua_type(c->L, idx) == LUA_TSTRING) {
        s = lua_tolstring(c->L, idx, &len);
        for (i = 0; i < len && s[i] >= 0x20 && s[i] < 0x7f; i++)
            ;
        if (len >= 1 && len <= GP_SCRIPT_MAX_NAME && i == len)
            return s;
    }
    sb_fail_value(c, idx, label, "a name of 1 to 63 printable ASCII characters");
}

/* 1 if the key at idx is one of keys or an integer 1..positional. */
static int sb_key_known(lua_State *L, int idx, const char *const *keys, int positional)
{
    int i;
    if (lua_type(L, idx) == LUA_TNUMBER) {
        double v = (double)lua_tonumber(L, idx);
        return v >= 1 && v <= positional && v == floor(v);
    }
    if (lua_type(L, idx) != LUA_TSTRING)
        return 0;
    for (i = 0; keys[i]; i++)
        if (strcmp(lua_tostring(L, idx), keys[i]) == 0)
            return 1;
    return 0;
}

void sb_check_keys(const sb_ctx_t *c, int idx, const char *const *keys, int positional)
{
    lua_State *L = c->L;
    char list[384], key[96];
    size_t n = 0;
    int i;
    /* Every accepted key appears at most once, so an unknown one turns up
       within (accepted keys + 1) steps: no need to charge the walk. */
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        if (sb_key_known(L, -2, keys, positional)) {
            lua_pop(L, 1);
            continue;
        }
        if (lua_type(L, -2) == LUA_TSTRING)
            snprintf(key, sizeof key, "'%.60s'", lua_tostring(L, -2));
        else {
            char d[80];
            sb_describe(L, -2, d, sizeof d);
            snprintf(key, sizeof key, "[%s]", d);
        }
        if (positional == 1)
            n = (size_t)snprintf(list, sizeof list, "[1]");
        else if (positional > 1)
            n = (size_t)snprintf(list, sizeof list, "[1]..[%d]", positional);
        else
            list[0] = '\0';
        for (i = 0; keys[i] && n < sizeof list; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", keys[i]);
        sb_fail(c, "unknown field %s (accepted: %s)", key, list);
    }
}

uint32_t sb_table_size(lua_State *L, int idx, uint32_t stop_at)
{
    uint32_t n = 0;
    lua_pushnil(L);
    while (n < stop_at && lua_next(L, idx) != 0) {
        lua_pop(L, 1);
        n++;
    }
    if (n == stop_at)
        lua_pop(L, 1); /* the key lua_next left */
    return n;
}
