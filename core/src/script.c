/*
 * script.c - the Lua workload front end: one sandboxed LuaJIT state per
 * script, with a memory cap (custom allocator), an instruction budget (count
 * hook, JIT off) and a message handler that adds "file:line:" and a short
 * traceback. The environment lives in script_sandbox.c, the gpuperf table in
 * script_api.c, script_launch.c and script_ops.c.
 */
#include "script.h"

#include <lauxlib.h>
#include <luajit.h>
#include <lualib.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script_internal.h"

/* Frames shown at the top and at the bottom of a traceback. */
#define SB_TRACE_TOP 6
#define SB_TRACE_BOTTOM 2

/* Room for "path:line:" with a path as long as gp_script_t.path. */
#define SB_WHERE_SIZE (sizeof(((gp_script_t *)0)->path) + 24)

/* What a protected call into the state reports back to C. */
typedef struct sb_run {
    gp_script_t *s;
    const char *src; /* gp_script_open: the source text */
    size_t len;
    int status;      /* Lua status of the inner call */
    char msg[sizeof(((gp_err_t *)0)->msg)];
} sb_run_t;

/* ---------------------------------------------------------------- access */

gp_script_t *sb_script(lua_State *L)
{
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return ud;
}

sb_eval_t *sb_ev(lua_State *L)
{
    gp_script_t *s = sb_script(L);
    if (!s->ev)
        sb_error(L, "gpuperf functions work only while the script is being evaluated");
    if (s->ev->sampling)
        sb_error(L, "gpuperf functions other than gpuperf.random cannot be called from an "
                    "index function (it describes an address, and runs for sampled threads "
                    "only)");
    return s->ev;
}

/* The innermost Lua frame with a line, at level or above; what: the
   lua_getinfo fields to fill, "l" among them. */
static int sb_frame_info(lua_State *L, int level, lua_Debug *ar, const char *what)
{
    for (; lua_getstack(L, level, ar); level++) {
        if (lua_getinfo(L, what, ar) && ar->currentline > 0)
            return 1;
    }
    return 0;
}

/* sb_frame_info with the source too. */
static int sb_frame(lua_State *L, int level, lua_Debug *ar)
{
    return sb_frame_info(L, level, ar, "Sl");
}

/* The frame's chunk as the user named it: Lua's short_src cuts names
   longer than LUA_IDSIZE (a compile-time constant of LuaJIT) to "...tail",
   so file chunks ("@path") give their whole path instead. */
static const char *sb_src(const lua_Debug *ar)
{
    return ar->source && ar->source[0] == '@' ? ar->source + 1 : ar->short_src;
}

/* Write msg into out with a leading "P:line:" put back to "path:line:"
   when P is Lua's short form of the file chunk source ("@path"); 1 if it
   did. */
static int sb_unshorten(const char *msg, const char *source, char *out, size_t size)
{
    const char *colon = strchr(msg, ':'), *path = source + 1;
    size_t plen = colon ? (size_t)(colon - msg) : 0, len = strlen(path);
    if (source[0] != '@' || !colon || colon[1] < '0' || colon[1] > '9')
        return 0;
    if (plen == len && memcmp(msg, path, len) == 0)
        return 0; /* already whole */
    if (plen < 3 || memcmp(msg, "...", 3) != 0 || plen - 3 > len ||
        memcmp(msg + 3, path + len - (plen - 3), plen - 3) != 0)
        return 0;
    snprintf(out, size, "%s%s", path, colon);
    return 1;
}

void sb_whole_position(lua_State *L, const char *source)
{
    char whole[sizeof(((gp_err_t *)0)->msg)];
    if (lua_type(L, -1) == LUA_TSTRING &&
        sb_unshorten(lua_tostring(L, -1), source, whole, sizeof whole)) {
        lua_pop(L, 1);
        lua_pushstring(L, whole);
    }
}

int sb_line(lua_State *L, int level)
{
    lua_Debug ar;
    return sb_frame_info(L, level, &ar, "l") ? ar.currentline : 0; /* (no source: not formatted) */
}

void sb_where(lua_State *L, int level, char *buf, size_t size)
{
    lua_Debug ar;
    buf[0] = '\0';
    if (sb_frame(L, level, &ar))
        snprintf(buf, size, "%s:%d:", sb_src(&ar), ar.currentline);
}

/* Raise "where message" for the Lua frame at level or above. */
static void sb_raise_at(lua_State *L, int level, const char *msg) __attribute__((noreturn));
static void sb_raise_at(lua_State *L, int level, const char *msg)
{
    char where[SB_WHERE_SIZE];
    sb_where(L, level, where, sizeof where);
    if (where[0])
        lua_pushfstring(L, "%s %s", where, msg);
    else
        lua_pushstring(L, msg);
    lua_error(L);
    __builtin_unreachable();
}

void sb_error(lua_State *L, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sb_raise_at(L, 1, msg);
}

void sb_error_memory(lua_State *L)
{
    sb_script(L)->fatal = SB_FATAL_MEMORY;
    lua_pushliteral(L, "not enough memory");
    lua_error(L);
    __builtin_unreachable();
}

void sb_error_oom(lua_State *L)
{
    sb_script(L)->fatal = SB_FATAL_HOST_OOM;
    lua_pushliteral(L, "not enough memory");
    lua_error(L);
    __builtin_unreachable();
}

/* ------------------------------------------------------- limits, charges */

/* Make the count hook fire at the next instruction (the budget ran out
   inside C work, where no error can be raised). */
static void sb_hook(lua_State *L, lua_Debug *ar);
static void sb_arm(gp_script_t *s)
{
    if (s->L && s->ev && !s->budget_armed) {
        s->budget_armed = 1;
        lua_sethook(s->L, sb_hook, LUA_MASKCOUNT, 1);
    }
}

/* Raise the budget error for the Lua frame at level or above; keep its
   text, in case a script's error handler hides it. */
static void sb_budget_error(lua_State *L, int level) __attribute__((noreturn));
static void sb_budget_error(lua_State *L, int level)
{
    gp_script_t *s = sb_script(L);
    char where[SB_WHERE_SIZE];
    sb_where(L, level, where, sizeof where);
    s->fatal = SB_FATAL_BUDGET;
    snprintf(s->fatal_msg, sizeof s->fatal_msg,
             "%s%sinstruction budget of %llu exceeded (runaway loop?)",
             where[0] ? where : s->chunkname + 1, where[0] ? " " : ": ",
             (unsigned long long)s->budget);
    lua_pushstring(L, s->fatal_msg);
    lua_error(L);
    __builtin_unreachable();
}

void sb_charge(lua_State *L, uint64_t n)
{
    gp_script_t *s = sb_script(L);
    s->executed += n;
    if (s->executed > s->budget)
        sb_budget_error(L, 1);
}

void sb_account(lua_State *L, int64_t bytes)
{
    gp_script_t *s = sb_script(L);
    if (bytes > 0 && s->mem_used + s->wl_bytes + (uint64_t)bytes > s->mem_cap)
        sb_error_memory(L);
    s->wl_bytes += (uint64_t)bytes; /* wraps back for negative bytes */
}

void sb_grow(lua_State *L, void **arr, uint32_t *cap, uint32_t n, size_t elem,
             uint32_t limit, const char *what)
{
    uint32_t ncap;
    void *p;
    if (n < *cap)
        return;
    if (n >= limit)
        sb_error(L, "more than %u %s: a workload is limited to that many", limit, what);
    /* the first array: 8 entries, or as many as fit 1 KiB (which the C
       library hands out from its per-thread cache), at least one */
    ncap = *cap ? (*cap > limit / 2 ? limit : *cap * 2)
                : (uint32_t)GP_MAX(1, GP_MIN(8, 1024 / elem));
    sb_account(L, (int64_t)((ncap - *cap) * elem));
    p = realloc(*arr, ncap * elem);
    if (!p) {
        sb_account(L, -(int64_t)((ncap - *cap) * elem));
        sb_error_oom(L);
    }
    *arr = p;
    *cap = ncap;
}

void sb_enter(lua_State *L)
{
    gp_script_t *s = sb_script(L);
    if (++s->c_depth > GP_SCRIPT_MAX_C_DEPTH)
        sb_error(L, "stack overflow: more than %d nested calls through pcall, require, "
                    "print, table.sort, string.gsub or string.format",
                 GP_SCRIPT_MAX_C_DEPTH);
}

void sb_leave(lua_State *L)
{
    sb_script(L)->c_depth--;
}

/* Size class of a small block of n bytes (1 <= n <= SB_SMALL_MAX). */
static unsigned sb_small_class(size_t n)
{
    return (unsigned)((n - 1) / SB_SMALL_STEP);
}

/* A block of n bytes (n > 0): a small one from its free list when one is
   there. */
static void *sb_block_new(gp_script_t *s, size_t n)
{
    if (n <= SB_SMALL_MAX) {
        unsigned c = sb_small_class(n);
        void *p = s->small_free[c];
        if (p) {
            memcpy(&s->small_free[c], p, sizeof p);
            return p;
        }
        return malloc((size_t)(c + 1) * SB_SMALL_STEP);
    }
    return malloc(n);
}

/* Give back block p of n bytes: a small one goes on its free list. */
static void sb_block_free(gp_script_t *s, void *p, size_t n)
{
    if (p && n && n <= SB_SMALL_MAX) {
        unsigned c = sb_small_class(n);
        memcpy(p, &s->small_free[c], sizeof p);
        s->small_free[c] = p;
        return;
    }
    free(p);
}

/* The free lists' blocks back to the C heap (after lua_close). */
static void sb_small_release(gp_script_t *s)
{
    unsigned c;
    for (c = 0; c < GP_ARRAY_LEN(s->small_free); c++)
        while (s->small_free[c]) {
            void *p = s->small_free[c];
            memcpy(&s->small_free[c], p, sizeof p);
            free(p);
        }
}

/* Move block ptr of osize bytes (ptr may be NULL) to one of nsize > 0
   bytes. Small blocks (the tables, closures and strings an evaluation
   makes and drops by the thousand) come from per-size free lists: a sweep
   point then costs no malloc or free for them. Lua passes the exact size
   of every block it gives back, so a block's class is known without a
   header. */
static void *sb_block_move(gp_script_t *s, void *ptr, size_t osize, size_t nsize)
{
    void *p;
    if (!ptr)
        return sb_block_new(s, nsize);
    if (osize > SB_SMALL_MAX && nsize > SB_SMALL_MAX)
        return realloc(ptr, nsize);
    if (osize <= SB_SMALL_MAX && nsize <= SB_SMALL_MAX && osize &&
        sb_small_class(osize) == sb_small_class(nsize))
        return ptr;
    p = sb_block_new(s, nsize);
    if (!p)
        return NULL;
    memcpy(p, ptr, osize < nsize ? osize : nsize);
    sb_block_free(s, ptr, osize);
    return p;
}

/* The Lua allocator: enforces the memory cap and charges growth to the
   instruction budget (so a loop that copies big strings runs out). */
static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    gp_script_t *s = ud;
    void *p;
    if (nsize == 0) {
        sb_block_free(s, ptr, osize);
        s->mem_used -= osize;
        return NULL;
    }
    if (nsize > osize) {
        uint64_t grow = nsize - osize;
        if (s->mem_used + s->wl_bytes + grow > s->mem_cap) {
            s->fatal = SB_FATAL_MEMORY;
            return NULL;
        }
        s->executed += grow / GP_SCRIPT_BYTES_PER_INSTR;
        if (s->executed > s->budget)
            sb_arm(s);
    }
    p = sb_block_move(s, ptr, osize, nsize);
    if (!p) {
        s->fatal = SB_FATAL_HOST_OOM;
        return NULL;
    }
    s->mem_used = s->mem_used - osize + nsize;
    return p;
}

/* Count hook: the instruction budget and the depth of Lua calls. */
static void sb_hook(lua_State *L, lua_Debug *ar)
{
    gp_script_t *s = sb_script(L);
    lua_Debug probe;
    (void)ar;
    if (!s->ev) /* the hook stays set between evaluations (gp_script_eval) */
        return;
    s->executed += GP_SCRIPT_HOOK_PERIOD;
    if (s->executed > s->budget)
        sb_budget_error(L, 0);
    /* A probe at a fixed depth costs a walk of that many frames, paid only
       by scripts that recurse that deep. */
    if (lua_getstack(L, GP_SCRIPT_MAX_LUA_DEPTH, &probe)) {
        char msg[96];
        snprintf(msg, sizeof msg, "stack overflow: calls nested more than %d deep "
                                  "(runaway recursion?)", GP_SCRIPT_MAX_LUA_DEPTH);
        sb_raise_at(L, 0, msg); /* level 0: the running function */
    }
}

/* ------------------------------------------------------ message handler */

/* 1 if msg already starts with "chunk:line:". */
static int sb_has_position(const char *msg)
{
    const char *c = strchr(msg, ':');
    if (!c || c == msg || memchr(msg, '\n', (size_t)(c - msg)))
        return 0;
    if (c[1] < '0' || c[1] > '9')
        return 0;
    for (c++; *c >= '0' && *c <= '9'; c++)
        ;
    return *c == ':';
}

/* Append one traceback line for the frame ar. */
static size_t sb_trace_line(char *buf, size_t size, size_t n, const lua_Debug *ar)
{
    if (n >= size)
        return n;
    if (ar->name && ar->namewhat[0])
        n += (size_t)snprintf(buf + n, size - n, "\n\t%s:%d: in function '%s'", sb_src(ar),
                              ar->currentline, ar->name);
    else if (strcmp(ar->what, "main") == 0)
        n += (size_t)snprintf(buf + n, size - n, "\n\t%s:%d: in main chunk", sb_src(ar),
                              ar->currentline);
    else
        n += (size_t)snprintf(buf + n, size - n, "\n\t%s:%d: in function <%s:%d>", sb_src(ar),
                              ar->currentline, sb_src(ar), ar->linedefined);
    return n;
}

/* A traceback of the Lua frames only (C frames are noise here), the top
   and bottom few when it is long. */
static size_t sb_traceback(lua_State *L, char *buf, size_t size, size_t n)
{
    lua_Debug ar;
    int level, total = 0, shown = 0;
    for (level = 1; lua_getstack(L, level, &ar); level++)
        if (lua_getinfo(L, "S", &ar) && strcmp(ar.what, "C") != 0)
            total++;
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, "\nstack traceback:");
    for (level = 1; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sln", &ar) || strcmp(ar.what, "C") == 0)
            continue;
        shown++;
        if (shown <= SB_TRACE_TOP || shown > total - SB_TRACE_BOTTOM)
            n = sb_trace_line(buf, size, n, &ar);
        else if (shown == SB_TRACE_TOP + 1 && n < size)
            n += (size_t)snprintf(buf + n, size - n, "\n\t...");
    }
    return n;
}

/* lua_pcall message handler: "chunk:line: message" plus a traceback. Uses
   one Lua stack slot, so it also works near the stack limit. */
static int sb_msgh(lua_State *L)
{
    char buf[sizeof(((gp_err_t *)0)->msg)], where[SB_WHERE_SIZE];
    char whole[sizeof(((gp_err_t *)0)->msg)];
    const char *msg = NULL;
    lua_Debug ar;
    size_t n;
    int t = lua_type(L, 1), level;
    if (t == LUA_TSTRING || t == LUA_TNUMBER)
        msg = lua_tostring(L, 1);
    /* Lua put the position in: its chunk is one of the running frames'. */
    for (level = 1; msg && lua_getstack(L, level, &ar); level++)
        if (lua_getinfo(L, "S", &ar) && sb_unshorten(msg, ar.source, whole, sizeof whole)) {
            msg = whole;
            break;
        }
    sb_where(L, 1, where, sizeof where);
    if (!msg)
        n = (size_t)snprintf(buf, sizeof buf,
                             "%s%serror object is a %s value "
                             "(raise errors with error(\"message\"))",
                             where, where[0] ? " " : "", lua_typename(L, t));
    else if (sb_has_position(msg) || !where[0])
        n = (size_t)snprintf(buf, sizeof buf, "%s", msg);
    else
        n = (size_t)snprintf(buf, sizeof buf, "%s %s", where, msg);
    sb_traceback(L, buf, sizeof buf, n);
    lua_pushstring(L, buf);
    return 1;
}

/* Copy the error at the top of the stack (if a string) into run->msg. */
static void sb_keep_message(lua_State *L, sb_run_t *run)
{
    const char *m = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    gp_strlcpy(run->msg, m ? m : "(no message)", sizeof run->msg);
}

/* Turn a failed run into the user's message. */
static int sb_report(const gp_script_t *s, const sb_run_t *run, gp_err_t *err)
{
    const char *chunk = s->chunkname + 1;
    if (s->fatal == SB_FATAL_MEMORY)
        return gp_err_set(err, "%s: memory cap of %g MiB exceeded", chunk,
                          (double)s->mem_cap / (1024.0 * 1024.0));
    if (s->fatal == SB_FATAL_HOST_OOM || run->status == LUA_ERRMEM)
        return gp_err_set(err, "%s: out of memory", chunk);
    if (s->fatal == SB_FATAL_BUDGET && !strstr(run->msg, "instruction budget"))
        return gp_err_set(err, "%s", s->fatal_msg);
    if (run->status == LUA_ERRERR && strstr(run->msg, "stack overflow"))
        return gp_err_set(err, "%s: stack overflow (runaway recursion?)", chunk);
    if (run->status == LUA_ERRERR)
        return gp_err_set(err, "%s: error while reporting an error: %s", chunk, run->msg);
    return gp_err_set(err, "%s", run->msg);
}

/* ------------------------------------------------------------- open */

/* Protected part of gp_script_open: libraries, sandbox, compile. */
static int sb_eval_main(lua_State *L);

static int sb_open_entry(lua_State *L)
{
    sb_run_t *run = lua_touserdata(L, 1);
    static const lua_CFunction libs[] = {luaopen_base, luaopen_string, luaopen_table,
                                         luaopen_math};
    size_t i;
    for (i = 0; i < GP_ARRAY_LEN(libs); i++) {
        lua_pushcfunction(L, libs[i]);
        lua_pushliteral(L, "");
        lua_call(L, 1, 0);
    }
    /* The count hook fires only in the interpreter. */
    luaJIT_setmode(L, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_OFF);
    sb_sandbox_init(L);
    run->status = luaL_loadbufferx(L, run->src, run->len, run->s->chunkname, "t");
    if (run->status != 0) {
        sb_whole_position(L, run->s->chunkname);
        sb_keep_message(L, run);
        return 0;
    }
    run->s->chunk_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 2, 0);
    lua_pushcfunction(L, sb_msgh);
    lua_rawseti(L, -2, 1);
    lua_pushcfunction(L, sb_eval_main);
    lua_rawseti(L, -2, 2);
    run->s->eval_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Fill s->dir (resolved folder of path) and s->chunkname ("@path"). */
static int sb_set_paths(gp_script_t *s, const char *path, gp_err_t *err)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (gp_strlcpy(s->path, path, sizeof s->path))
        return gp_err_set(err, "%s: path too long", path);
    if (!slash)
        gp_strlcpy(dir, ".", sizeof dir);
    else if (slash == path)
        gp_strlcpy(dir, "/", sizeof dir);
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (!realpath(dir, s->dir))
        return gp_err_set(err, "%s: cannot resolve the script's folder", path);
    snprintf(s->chunkname, sizeof s->chunkname, "@%s", path);
    return 0;
}

gp_script_t *gp_script_open(const char *path, const gp_script_opts_t *opts, gp_err_t *err)
{
    gp_script_t *s;
    sb_run_t *run;
    char *src = NULL;
    size_t len = 0;
    int status;
    if (!path || !*path) {
        gp_err_set(err, "no script path given");
        return NULL;
    }
    if (gp_read_file(path, GP_SCRIPT_MAX_SOURCE, &src, &len, err))
        return NULL;
    if (len > 0 && (unsigned char)src[0] == 0x1b) {
        free(src);
        gp_err_set(err, "%s: precompiled Lua bytecode is not accepted; give the script's "
                        "source text",
                   path);
        return NULL;
    }
    s = calloc(1, sizeof *s);
    run = calloc(1, sizeof *run);
    if (!s || !run) {
        free(s);
        free(run);
        free(src);
        gp_err_set(err, "%s: out of memory", path);
        return NULL;
    }
    s->chunk_ref = s->eval_ref = LUA_NOREF;
    s->mem_cap = opts && opts->memory_cap_bytes ? opts->memory_cap_bytes : GP_SCRIPT_DEFAULT_MEMORY;
    s->budget = opts && opts->instruction_budget ? opts->instruction_budget
                                                 : GP_SCRIPT_DEFAULT_BUDGET;
    if (sb_set_paths(s, path, err))
        goto fail;
    s->L = lua_newstate(sb_alloc, s);
    if (!s->L) {
        gp_err_set(err, "%s: cannot create a Lua state (memory cap of %g MiB too small?)",
                   s->chunkname + 1, (double)s->mem_cap / (1024.0 * 1024.0));
        goto fail;
    }
    run->s = s;
    run->src = src;
    run->len = len;
    status = lua_cpcall(s->L, sb_open_entry, run);
    if (status != 0 || run->status != 0) {
        if (status != 0)
            run->status = status;
        if (run->status == LUA_ERRSYNTAX)
            gp_err_set(err, "%s", run->msg);
        else
            sb_report(s, run, err);
        goto fail;
    }
    free(src);
    free(run);
    return s;
fail:
    free(src);
    free(run);
    gp_script_close(s);
    return NULL;
}

/* ------------------------------------------------------------- eval */

/* Inside the inner protected call: run the chunk in a fresh environment. */
static int sb_eval_main(lua_State *L)
{
    gp_script_t *s = sb_script(L);
    sb_sandbox_push_env(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->chunk_ref);
    lua_pushvalue(L, -2);
    lua_setfenv(L, -2);
    lua_call(L, 0, 0);
    return 0;
}

/* Drop the per-evaluation registry entries so their garbage goes. */
static void sb_clear_eval_keys(lua_State *L)
{
    static const char *const keys[] = {&sb_key_env, &sb_key_loaded, &sb_key_handles,
                                       &sb_key_api_current};
    size_t i;
    /* only keys that are there: storing nil under an absent key may
       allocate (a rehash), and the memory cap may just have been reached */
    for (i = 0; i < GP_ARRAY_LEN(keys); i++) {
        lua_pushlightuserdata(L, (void *)keys[i]);
        lua_rawget(L, LUA_REGISTRYINDEX);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            continue;
        }
        lua_pop(L, 1);
        lua_pushlightuserdata(L, (void *)keys[i]);
        lua_pushnil(L);
        lua_rawset(L, LUA_REGISTRYINDEX);
    }
}

/* Outer protected call: message handler + inner call, so that even the
   pushes that set them up are protected. */
static int sb_eval_entry(lua_State *L)
{
    sb_run_t *run = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, sb_script(L)->eval_ref);
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    run->status = lua_pcall(L, 0, 0, -2);
    if (run->status != 0)
        sb_keep_message(L, run);
    sb_clear_eval_keys(L);
    sb_index_forget(L);
    return 0;
}

/* After a successful run: every -p key must name a declared parameter. */
static int sb_check_undeclared(const sb_eval_t *ev, gp_err_t *err)
{
    size_t i;
    uint32_t j;
    for (i = 0; i < ev->n_kv; i++) {
        char list[512] = "";
        size_t n = 0;
        if (ev->kv_used[i])
            continue;
        for (j = 0; j < ev->wl.n_params && n < sizeof list; j++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", j ? ", " : "",
                                  ev->wl.params[j].name);
        return gp_err_set(err, "-p %s: the script declares no parameter '%s' (it declares: "
                          "%s); `gpuperf params %s` lists them with defaults and help",
                          ev->kv[i].key, ev->kv[i].key, ev->wl.n_params ? list : "none",
                          ev->wl.script);
    }
    return 0;
}

/* Check the -p list itself: keys present and given once. */
static int sb_check_kv(const gp_param_kv_t *kv, size_t n, gp_err_t *err)
{
    size_t i, j;
    if (n && !kv)
        return gp_err_set(err, "parameters: NULL list");
    for (i = 0; i < n; i++) {
        if (!kv[i].key || !kv[i].value || !kv[i].key[0])
            return gp_err_set(err, "-p: empty parameter name or value; write -p name=value");
        for (j = 0; j < i; j++)
            if (strcmp(kv[i].key, kv[j].key) == 0)
                return gp_err_set(err, "-p %s: given twice; give each parameter once",
                                  kv[i].key);
    }
    return 0;
}

/* Allocate what an evaluation needs before Lua runs: the default stream. */
static int sb_eval_setup(gp_script_t *s, sb_eval_t *ev, gp_err_t *err)
{
    ev->kv_used = calloc(ev->n_kv ? ev->n_kv : 1, 1);
    if (!s->scratch)
        s->scratch = malloc(GP_SCRIPT_MAX_OPS * sizeof *s->scratch);
    ev->scratch = s->scratch;
    ev->wl.streams = calloc(8, sizeof *ev->wl.streams);
    if (!ev->kv_used || !ev->scratch || !ev->wl.streams)
        return gp_err_set(err, "%s: out of memory", s->chunkname + 1);
    ev->cap_streams = 8;
    ev->wl.n_streams = 1;
    gp_strlcpy(ev->wl.streams[0].name, "default", sizeof ev->wl.streams[0].name);
    ev->wl.n_devices = 1;
    gp_strlcpy(ev->wl.script, s->path, sizeof ev->wl.script);
    s->wl_bytes = 8 * sizeof *ev->wl.streams;
    return 0;
}

int gp_script_eval(gp_script_t *s, const gp_device_t *dev, const gp_param_kv_t *params,
                   size_t n_params, gp_workload_t *out, gp_err_t *err)
{
    sb_eval_t ev;
    sb_run_t *run = NULL;
    int rc = -1, status;
    if (out)
        memset(out, 0, sizeof *out);
    if (!s || !s->L || !out)
        return gp_err_set(err, "gp_script_eval: no script or no output");
    if (sb_check_kv(params, n_params, err))
        return -1;
    memset(&ev, 0, sizeof ev);
    ev.dev = dev;
    ev.kv = params;
    ev.n_kv = n_params;
    if (!s->run)
        s->run = malloc(sizeof *s->run); /* kept for the next evaluation */
    run = s->run; /* not zeroed whole: msg is a string */
    if (!run) {
        gp_err_set(err, "%s: out of memory", s->chunkname + 1);
        goto done;
    }
    run->src = NULL;
    run->len = 0;
    run->status = 0;
    run->msg[0] = '\0';
    if (sb_eval_setup(s, &ev, err))
        goto done;
    run->s = s;
    s->ev = &ev;
    s->executed = 0;
    s->fatal = SB_FATAL_NONE;
    s->c_depth = 0;
    s->budget_armed = 0;
    /* the count starts afresh at every evaluation; the hook is not cleared
       after one, since setting and clearing it each time rewrote LuaJIT's
       dispatch table twice an evaluation (no Lua runs in between; a hook
       that fires outside an evaluation returns at once) */
    lua_sethook(s->L, sb_hook, LUA_MASKCOUNT, GP_SCRIPT_HOOK_PERIOD);
    lua_settop(s->L, 0);
    status = lua_cpcall(s->L, sb_eval_entry, run);
    if (status != 0)
        run->status = status;
    lua_settop(s->L, 0);
    s->ev = NULL;
    if (run->status != 0 || s->mem_used > s->mem_cap / 4) /* a full collection only when needed */
        lua_gc(s->L, LUA_GCCOLLECT, 0);
    if (run->status != 0)
        sb_report(s, run, err);
    else if (sb_check_undeclared(&ev, err) == 0)
        rc = 0;
done:
    if (rc == 0)
        *out = ev.wl;
    else
        gp_workload_free(&ev.wl);
    s->wl_bytes = 0;
    free(ev.kv_used);
    return rc;
}

void gp_script_close(gp_script_t *s)
{
    if (!s)
        return;
    if (s->L)
        lua_close(s->L);
    sb_small_release(s);
    free(s->scratch);
    free(s->run);
    free(s);
}

int gp_script_run(const char *path, const gp_script_opts_t *opts, const gp_device_t *dev,
                  const gp_param_kv_t *params, size_t n_params, gp_workload_t *out,
                  gp_err_t *err)
{
    gp_script_t *s;
    int rc;
    if (out)
        memset(out, 0, sizeof *out);
    s = gp_script_open(path, opts, err);
    if (!s)
        return -1;
    rc = gp_script_eval(s, dev, params, n_params, out, err);
    gp_script_close(s);
    return rc;
}
