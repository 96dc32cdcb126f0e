/*
 * script_ops.c - work constructors (gpuperf.fp32, gpuperf.load{...},
 * gpuperf.loop(...), ...) and their conversion into gp_op_t.
 *
 * A constructor returns a plain table tagged with a private metatable,
 * holding the op's fields under the names a script writes them with:
 *   gpuperf.load{x, bytes = 8}
 *     -> {op = "load", buffer = x, bytes = 8, count = 1, ilp = 1,
 *         space = "global", pattern = "unit", stride = 1, offset = 0,
 *         footprint = <x.bytes>, line = 12}
 * The constructor checks it at once (errors point at its line); a launch
 * checks it again while flattening, since a script may change the table.
 */
#include <lauxlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "script_internal.h"

/* What a constructor's table holds, by class. */
typedef enum sb_opclass {
    SB_ARITH = 0, /* count, ilp */
    SB_BARRIER,   /* count */
    SB_TENSOR,    /* flops, type, ilp */
    SB_MEM,       /* count, ilp and the access fields */
    SB_BODY       /* trips or paths, body */
} sb_opclass_t;

typedef struct sb_opspec {
    const char *tag;       /* the table's op field */
    uint32_t kind;         /* gp_op_kind_t */
    sb_opclass_t cls;
    const char *count_key; /* field that becomes gp_op_t.count */
} sb_opspec_t;

static const sb_opspec_t sb_opspecs[] = {
    {"fp32", GP_OP_FP32, SB_ARITH, "count"},
    {"fp64", GP_OP_FP64, SB_ARITH, "count"},
    {"fp16", GP_OP_FP16, SB_ARITH, "count"},
    {"int", GP_OP_INT, SB_ARITH, "count"},
    {"imul", GP_OP_INT, SB_ARITH, "count"},
    {"sfu", GP_OP_SFU, SB_ARITH, "count"},
    {"mufu", GP_OP_SFU, SB_ARITH, "count"},
    {"conv", GP_OP_CONV, SB_ARITH, "count"},
    {"branch", GP_OP_BRANCH, SB_ARITH, "count"},
    {"shfl", GP_OP_SHFL, SB_ARITH, "count"},
    {"vote", GP_OP_VOTE, SB_ARITH, "count"},
    {"match", GP_OP_MATCH, SB_ARITH, "count"},
    {"warp_reduce", GP_OP_WARP_REDUCE, SB_ARITH, "count"},
    {"idiv", GP_OP_IDIV, SB_ARITH, "count"},
    {"imod", GP_OP_IDIV, SB_ARITH, "count"},
    {"fdiv", GP_OP_FDIV, SB_ARITH, "count"},
    {"rcp", GP_OP_RCP, SB_ARITH, "count"},
    {"barrier", GP_OP_BARRIER, SB_BARRIER, "count"},
    {"tensor", GP_OP_TENSOR, SB_TENSOR, "flops"},
    {"load", GP_OP_LOAD, SB_MEM, "count"},
    {"store", GP_OP_STORE, SB_MEM, "count"},
    {"atomic", GP_OP_ATOMIC, SB_MEM, "count"},
    {"async_copy", GP_OP_ASYNC_COPY, SB_MEM, "count"},
    {"loop", GP_OP_LOOP, SB_BODY, "trips"},
    {"diverge", GP_OP_DIVERGE, SB_BODY, "paths"},
};

/* Names in the order of the enums of plugin.h. */
static const char *const sb_space_names[] = {"global", "shared", "local", "constant", "texture",
                                             NULL};
static const char *const sb_pattern_names[] = {"unit", "stride", "random", "broadcast", NULL};
static const char *const sb_scope_names[] = {"distinct", "warp", "same", NULL};
static const char *const sb_atomic_op_names[] = {"add", "inc", "fadd", NULL};
/* a chase's walk (gp_op_t.chase_draws: the index in this list) */
static const char *const sb_walk_names[] = {"cycle", "draws", NULL};
static const char *const sb_tensor_names[] = {"fp16", "bf16", "tf32", "fp64", "int8", "fp8",
                                              NULL};

/* Fields a memory constructor accepts: bit i is sb_mem_fields[i]. */
enum {
    F_BUFFER = 1u << 0,
    F_BYTES = 1u << 1,
    F_PATTERN = 1u << 2,
    F_STRIDE = 1u << 3,
    F_OFFSET = 1u << 4,
    F_COUNT = 1u << 5,
    F_ILP = 1u << 6,
    F_FOOTPRINT = 1u << 7,
    F_SPACE = 1u << 8,
    F_CONFLICTS = 1u << 9,
    F_SCOPE = 1u << 10,
    F_INDEX = 1u << 11,
    F_DEPENDS = 1u << 12,
    F_BINS = 1u << 13,
    F_RANGE = 1u << 14,
    F_UPDATE = 1u << 15,
    F_RESULT = 1u << 16,
    F_FROM_DATA = 1u << 17,
    F_WALK = 1u << 18,
    F_DRAWS = 1u << 19,
    F_IN_FLIGHT = 1u << 20
};
static const char *const sb_mem_fields[] = {
    "buffer", "bytes", "pattern",   "stride", "offset",  "count", "ilp",   "footprint",
    "space",  "conflicts", "scope", "index",  "depends", "bins",  "range", "update",
    "result", "from_data", "walk", "draws", "in_flight", NULL};

#define SB_ACCESS (F_BYTES | F_PATTERN | F_STRIDE | F_OFFSET | F_COUNT | F_ILP | F_INDEX)
#define SB_GLOBAL (SB_ACCESS | F_BUFFER | F_FOOTPRINT)

/* Memory constructors: the op they make and the space they fix (-1: the
   space field chooses, global by default). */
static const struct sb_memctor {
    const char *name;
    const char *tag;
    int space;
    unsigned fields;
} sb_memctors[] = {
    {"load", "load", -1,
     SB_GLOBAL | F_SPACE | F_DEPENDS | F_RANGE | F_WALK | F_DRAWS | F_IN_FLIGHT},
    {"store", "store", -1, SB_GLOBAL | F_SPACE | F_RANGE | F_DRAWS},
    {"atomic", "atomic", -1,
     F_BUFFER | F_BYTES | F_COUNT | F_ILP | F_FOOTPRINT | F_SPACE | F_SCOPE | F_INDEX | F_BINS |
         F_UPDATE | F_RESULT | F_FROM_DATA},
    {"async_copy", "async_copy", GP_SPACE_GLOBAL, SB_GLOBAL | F_RANGE},
    {"shared_load", "load", GP_SPACE_SHARED, SB_ACCESS | F_CONFLICTS | F_DEPENDS},
    {"shared_store", "store", GP_SPACE_SHARED, SB_ACCESS | F_CONFLICTS},
    {"local_load", "load", GP_SPACE_LOCAL, SB_ACCESS | F_FOOTPRINT | F_DEPENDS},
    {"local_store", "store", GP_SPACE_LOCAL, SB_ACCESS | F_FOOTPRINT},
    {"const_load", "load", GP_SPACE_CONSTANT, SB_GLOBAL | F_DEPENDS},
};

/* ---------------------------------------------------------------- checks */

/* The fields a check asks an op table for. */
enum sb_fkey {
    K_OP, K_LINE, K_COUNT, K_FLOPS, K_TRIPS, K_PATHS, K_ILP, K_TYPE, K_VAR, K_SPACE, K_BYTES,
    K_BUFFER, K_INDEX, K_PATTERN, K_STRIDE, K_OFFSET, K_FOOTPRINT, K_CONFLICTS, K_SCOPE,
    K_DEPENDS, K_BINS, K_RANGE, K_UPDATE, K_UNROLL, K_RESULT, K_FROM_DATA, K_WALK, K_DRAWS,
    K_IN_FLIGHT, SB_FKEYS
};
static const char *const sb_fkey_names[SB_FKEYS] = {
    "op",     "line",  "count",   "flops",  "trips",     "paths",     "ilp",   "type",
    "var",    "space", "bytes",   "buffer", "index",     "pattern",   "stride", "offset",
    "footprint", "conflicts", "scope", "depends", "bins", "range", "update", "unroll",
    "result", "from_data", "walk", "draws", "in_flight"};

/* The sb_fkey named s (of len bytes); -1: none. */
static int sb_fkey_find(const char *s, size_t len)
{
    static const unsigned char lens[SB_FKEYS] = {2, 4, 5, 5, 5, 5, 3, 4, 3, 5, 5, 6,
                                                 5, 7, 6, 6, 9, 9, 5, 7, 4, 5, 6, 6, 6, 9, 4, 5, 9};
    int i;
    for (i = 0; i < SB_FKEYS; i++)
        if (lens[i] == len && sb_fkey_names[i][0] == s[0] &&
            memcmp(sb_fkey_names[i], s, len) == 0)
            return i;
    return -1;
}

/* The fields of the op table sb_op_check is reading that a check asks for,
   their values on the stack, so that a probe for a field costs a bit test
   instead of interning the key and a table look-up: an op gives a few of
   the twenty fields a check asks for. Set up afresh by every sb_op_check
   for its table (one lua_next walk) and dropped when it returns. */
typedef struct sb_fields {
    lua_State *L;
    int t;         /* the table's stack index; 0: none */
    uint32_t mask; /* bit k: field k is there, its value at slot[k] */
    int slot[SB_FKEYS];
} sb_fields_t;
static _Thread_local sb_fields_t sb_fields;

/* Push t[key] (raw); 1 if it is not nil. */
static int sb_rawget(lua_State *L, int t, const char *key)
{
    lua_pushstring(L, key);
    lua_rawget(L, t);
    return !lua_isnil(L, -1);
}

/* Push field k of table t (raw), from sb_fields when it holds t, and return
   1; 0 (nothing pushed) where it is nil: most probes find nothing, and the
   stack then needs no settop (sb_drop). Only sb_op_check and what it calls
   use sb_fields: a check that raised an error leaves it set, so code
   outside a check reads with sb_rawget. */
static inline int sb_get(lua_State *L, int t, int k)
{
    const sb_fields_t *fs = &sb_fields;
    if (fs->t == t && fs->L == L) {
        if (!(fs->mask >> k & 1u))
            return 0;
        lua_pushvalue(L, fs->slot[k]);
        return 1;
    }
    if (sb_rawget(L, t, sb_fkey_names[k]))
        return 1;
    lua_pop(L, 1);
    return 0;
}

/* lua_settop(L, top), skipped where the stack is there already (a call
   saved for each absent field a check probes). */
static inline void sb_drop(lua_State *L, int top)
{
    if (lua_gettop(L) != top)
        lua_settop(L, top);
}

/* Gather the fields of table t that a check asks for, for sb_get. */
static void sb_fields_read(lua_State *L, int t)
{
    sb_fields_t *fs = &sb_fields;
    uint32_t mask = 0;
    fs->t = 0;
    luaL_checkstack(L, SB_FKEYS + 3, "op fields");
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        size_t len;
        const char *key;
        int k;
        if (lua_type(L, -2) != LUA_TSTRING) {
            lua_pop(L, 1);
            continue;
        }
        key = lua_tolstring(L, -2, &len);
        k = len ? sb_fkey_find(key, len) : -1;
        if (k < 0) {
            lua_pop(L, 1);
            continue;
        }
        lua_insert(L, -2); /* the value below the key, which lua_next wants on top */
        fs->slot[k] = lua_gettop(L) - 1;
        mask |= 1u << k;
    }
    fs->L = L;
    fs->t = t;
    fs->mask = mask;
}

/* The byte sizes an access of this kind accepts, as a bit set. */
static unsigned sb_bytes_allowed(uint32_t kind)
{
    return kind == GP_OP_ASYNC_COPY ? (1u << 4 | 1u << 8 | 1u << 16)
                                    : (1u << 1 | 1u << 2 | 1u << 4 | 1u << 8 | 1u << 16);
}

/* 1 if an op of this kind may use the space. */
static int sb_space_allowed(uint32_t kind, uint32_t space)
{
    switch (kind) {
    case GP_OP_STORE:
        return space == GP_SPACE_GLOBAL || space == GP_SPACE_SHARED || space == GP_SPACE_LOCAL;
    case GP_OP_ATOMIC:
        return space == GP_SPACE_GLOBAL || space == GP_SPACE_SHARED;
    case GP_OP_ASYNC_COPY:
        return space == GP_SPACE_GLOBAL;
    default:
        return 1;
    }
}

/* `range = {lo, hi}` (at v) of a random access: the elements it may touch. */
static void sb_range_check(const sb_ctx_t *c, int v, int t, gp_op_t *op, const gp_buffer_t *buf)
{
    lua_State *L = c->L;
    gp_access_t *a = &op->access;
    int64_t lo, hi;
    int top = lua_gettop(L);
    if (a->pattern != GP_PATTERN_RANDOM)
        sb_fail(c, "'range' needs pattern \"random\", but the pattern is \"%s\"",
                sb_pattern_names[a->pattern]);
    if (!sb_is_plain(L, v) || lua_objlen(L, v) != 2 || sb_table_size(L, v, 3) != 2)
        sb_fail_value(c, v, "range", "{lo, hi}: the first and last element index a thread may "
                                     "touch");
    lua_rawgeti(L, v, 1);
    lo = sb_check_int(c, lua_gettop(L), "range[1]", GP_SCRIPT_MAX_ELEMS);
    lua_rawgeti(L, v, 2);
    hi = sb_check_int(c, lua_gettop(L), "range[2]", GP_SCRIPT_MAX_ELEMS);
    if (lo < 0 || hi < lo)
        sb_fail(c, "'range' = {%lld, %lld}: give 0 <= lo <= hi", (long long)lo, (long long)hi);
    if (buf && (double)(hi + 1) * a->elem_bytes > (double)buf->bytes)
        sb_fail(c, "'range' = {%lld, %lld} goes past the end of buffer '%s' (%llu elements of "
                   "%u bytes)",
                (long long)lo, (long long)hi, buf->name,
                (unsigned long long)(buf->bytes / a->elem_bytes), a->elem_bytes);
    if (sb_get(L, t, K_FOOTPRINT))
        sb_fail(c, "give either 'range' or 'footprint': the range decides the footprint");
    sb_drop(L, top);
    if (sb_get(L, t, K_OFFSET))
        sb_fail(c, "give either 'range' or 'offset': the range says where the elements start");
    sb_drop(L, top);
    a->offset_elems = lo;
    a->footprint_bytes = (uint64_t)(hi - lo + 1) * a->elem_bytes;
}

const char *sb_op_tag(const gp_op_t *op)
{
    size_t i;
    if (op->kind == GP_OP_INT && op->int_mul)
        return "imul";
    if (op->kind == GP_OP_SFU && op->sfu_bare)
        return "mufu";
    for (i = 0; i < GP_ARRAY_LEN(sb_opspecs); i++)
        if (sb_opspecs[i].kind == op->kind)
            return sb_opspecs[i].tag;
    return "op";
}

/* The access fields of a memory op in table t. */
/* What a check found beyond the gp_op_t: fields that other fields decide. */
typedef struct sb_opinfo {
    int has_index; /* an index function */
    int has_range; /* range = {lo, hi} */
} sb_opinfo_t;

/* gp_op_t.draw_group of a `draws` name: its FNV-1a hash, never 0 (0: the
   op draws its own values). */
static uint32_t sb_draw_group(const char *name, size_t len)
{
    uint32_t h = 2166136261u;
    size_t i;
    for (i = 0; i < len; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    return h ? h : 1;
}

static void sb_mem_check(const sb_ctx_t *c, int t, const sb_opspec_t *spec, gp_op_t *op,
                         sb_opinfo_t *info)
{
    lua_State *L = c->L;
    gp_access_t *a = &op->access;
    const gp_buffer_t *buf = NULL;
    int top = lua_gettop(L), v = top + 1, has_index = 0;
    uint64_t bytes;
    if (sb_get(L, t, K_SPACE))
        op->space = (uint32_t)sb_check_enum(c, v, "space", sb_space_names);
    if (!sb_space_allowed(op->kind, op->space))
        sb_fail(c, "a %s cannot go to %s memory", spec->tag, sb_space_names[op->space]);
    sb_drop(L, top);

    a->elem_bytes = op->kind == GP_OP_ASYNC_COPY ? 16 : 4;
    if (sb_get(L, t, K_BYTES)) {
        bytes = sb_check_uint(c, v, "bytes", 1, 16);
        if (!(sb_bytes_allowed(op->kind) & (1u << bytes)))
            sb_fail_value(c, v, "bytes",
                          op->kind == GP_OP_ASYNC_COPY ? "4, 8 or 16" : "1, 2, 4, 8 or 16");
        a->elem_bytes = (uint32_t)bytes;
    }
    sb_drop(L, top);
    if (sb_get(L, t, K_COUNT))
        op->count = sb_check_count(c, v, "count");
    sb_drop(L, top);

    if (sb_get(L, t, K_BUFFER)) {
        int64_t i = sb_handle_index(L, v, SB_BUFFER);
        if (i < 0)
            sb_fail_value(c, v, "buffer", "a buffer (from gpuperf.buffer)");
        if (op->space == GP_SPACE_SHARED || op->space == GP_SPACE_LOCAL)
            sb_fail(c, "a %s-memory access takes no buffer", sb_space_names[op->space]);
        buf = &sb_ev(L)->wl.buffers[i];
        a->buffer = (uint32_t)i;
    }
    sb_drop(L, top);

    if (sb_get(L, t, K_INDEX)) {
        if (lua_type(L, v) != LUA_TFUNCTION)
            sb_fail_value(c, v, "index", "a function(t) returning the element index thread t "
                                         "touches");
        has_index = 1;
    }
    sb_drop(L, top);
    if (has_index) {
        static const int clash[] = {K_PATTERN, K_STRIDE, K_OFFSET, K_RANGE};
        size_t i;
        for (i = 0; i < GP_ARRAY_LEN(clash); i++) {
            if (sb_get(L, t, clash[i]))
                sb_fail(c, "give either 'index' or '%s': both say which elements the threads "
                           "touch",
                        sb_fkey_names[clash[i]]);
            sb_drop(L, top);
        }
    }

    a->stride_elems = 1;
    if (sb_get(L, t, K_STRIDE))
        a->stride_elems = sb_check_int(c, v, "stride", GP_SCRIPT_MAX_ELEMS);
    sb_drop(L, top);
    if (sb_get(L, t, K_PATTERN))
        a->pattern = (uint32_t)sb_check_enum(c, v, "pattern", sb_pattern_names);
    else if (op->space == GP_SPACE_CONSTANT)
        a->pattern = GP_PATTERN_BROADCAST;
    else
        a->pattern = a->stride_elems != 1 ? GP_PATTERN_STRIDE : GP_PATTERN_UNIT;
    sb_drop(L, top);
    if (a->pattern != GP_PATTERN_STRIDE && a->stride_elems != 1)
        sb_fail(c, "'stride' = %lld needs pattern \"stride\", but the pattern is \"%s\"",
                (long long)a->stride_elems, sb_pattern_names[a->pattern]);
    if (sb_get(L, t, K_OFFSET))
        a->offset_elems = sb_check_int(c, v, "offset", GP_SCRIPT_MAX_ELEMS);
    sb_drop(L, top);

    a->footprint_bytes = buf ? buf->bytes : 0;
    if (sb_get(L, t, K_FOOTPRINT)) {
        if (op->space == GP_SPACE_SHARED)
            sb_fail(c, "'footprint' does not apply to shared memory");
        a->footprint_bytes = sb_check_uint(c, v, "footprint", 1, GP_SCRIPT_MAX_COUNT);
        if (buf && a->footprint_bytes > buf->bytes)
            sb_fail(c, "'footprint' = %llu is larger than buffer '%s' (%llu bytes)",
                    (unsigned long long)a->footprint_bytes, buf->name,
                    (unsigned long long)buf->bytes);
    }
    sb_drop(L, top);
    if ((op->space == GP_SPACE_GLOBAL || op->space == GP_SPACE_TEXTURE) && !a->footprint_bytes)
        sb_fail(c, "a %s %s needs a buffer (gpuperf.%s{buf, ...}) or 'footprint' = the bytes it "
                   "touches",
                sb_space_names[op->space], spec->tag, spec->tag);

    if (sb_get(L, t, K_CONFLICTS)) {
        if (op->space != GP_SPACE_SHARED)
            sb_fail(c, "'conflicts' applies to shared memory only");
        a->conflict_ways = (uint32_t)sb_check_uint(c, v, "conflicts", 1, 32);
    }
    sb_drop(L, top);
    if (sb_get(L, t, K_SCOPE)) {
        if (op->kind != GP_OP_ATOMIC)
            sb_fail(c, "'scope' applies to atomics only");
        if (has_index)
            sb_fail(c, "give either 'index' or 'scope': both say which addresses the threads "
                       "share");
        a->atomic_scope = (uint32_t)sb_check_enum(c, v, "scope", sb_scope_names);
    }
    sb_drop(L, top);
    /* (the constructors refuse these fields on other ops, so only the ops
       that take them look) */
    if (op->kind == GP_OP_LOAD && sb_get(L, t, K_DEPENDS)) {
        if (op->kind != GP_OP_LOAD)
            sb_fail(c, "'depends' applies to loads only (the other ops already wait for the "
                       "load before them)");
        if (lua_type(L, v) != LUA_TBOOLEAN)
            sb_fail_value(c, v, "depends", "true or false");
        a->depends = (uint32_t)lua_toboolean(L, v);
    }
    sb_drop(L, top);
    /* how a chase's drawn addresses come (the constructors refuse the
       field on other ops) */
    if (op->kind == GP_OP_LOAD && sb_get(L, t, K_WALK)) {
        if (!a->depends)
            sb_fail(c, "'walk' applies to a chase, a load with depends = true whose index "
                       "draws from gpuperf.random; add depends = true or drop 'walk'");
        op->chase_draws = (uint32_t)sb_check_enum(c, v, "walk", sb_walk_names);
    }
    sb_drop(L, top);
    /* the loads ptxas keeps in flight, as the SASS shows (the constructors
       refuse the field on other ops) */
    if (op->kind == GP_OP_LOAD && sb_get(L, t, K_IN_FLIGHT)) {
        if (a->depends)
            sb_fail(c, "'in_flight' applies to independent loads: a load with depends = true "
                       "waits for the load before it; drop one of the two");
        if (op->space != GP_SPACE_GLOBAL && op->space != GP_SPACE_TEXTURE)
            sb_fail(c, "'in_flight' applies to global and texture loads; drop it from a %s load",
                    sb_space_names[op->space]);
        op->in_flight = (uint32_t)sb_check_uint(c, v, "in_flight", 1, 1024);
    }
    sb_drop(L, top);
    /* ops that read one index from data for several accesses draw alike
       (the constructors refuse the field on other ops) */
    if (sb_get(L, t, K_DRAWS)) {
        const char *name = sb_check_name(c, v, "draws");
        if (!has_index)
            sb_fail(c, "'draws' names the draws of an index function; give index = function(t) "
                       "... gpuperf.random(lo, hi) ... end");
        op->draw_group = sb_draw_group(name, strlen(name));
    }
    sb_drop(L, top);
    if (op->kind == GP_OP_ATOMIC && sb_get(L, t, K_BINS)) {
        if (has_index || sb_get(L, t, K_SCOPE))
            sb_fail(c, "give one of 'bins', 'index' and 'scope': each says which addresses the "
                       "threads share");
        lua_settop(L, top + 1);
        a->bins = sb_check_uint(c, v, "bins", 1, GP_SCRIPT_MAX_ELEMS);
        if (buf && (double)a->bins * a->elem_bytes > (double)buf->bytes)
            sb_fail(c, "'bins' = %llu of %u bytes do not fit buffer '%s' (%llu bytes)",
                    (unsigned long long)a->bins, a->elem_bytes, buf->name,
                    (unsigned long long)buf->bytes);
    }
    sb_drop(L, top);
    /* what an atomic adds (the constructors refuse the field on other ops) */
    if (op->kind == GP_OP_ATOMIC && sb_get(L, t, K_UPDATE))
        a->atomic_op = (uint32_t)sb_check_enum(c, v, "update", sb_atomic_op_names);
    sb_drop(L, top);
    /* whether the returned value is used (ATOM) or discarded (RED), and
       whether the address comes from data (never aggregated) */
    a->atomic_flags = 0;
    if (op->kind == GP_OP_ATOMIC && sb_get(L, t, K_RESULT)) {
        if (lua_type(L, v) != LUA_TBOOLEAN)
            sb_fail_value(c, v, "result",
                          "true (the returned value is used: old = atomicAdd(p, v)) or false "
                          "(discarded: atomicAdd(p, v);)");
        a->atomic_flags |= lua_toboolean(L, v) ? GP_ATOMIC_RESULT : 0u;
    }
    sb_drop(L, top);
    if (op->kind == GP_OP_ATOMIC && sb_get(L, t, K_FROM_DATA)) {
        if (lua_type(L, v) != LUA_TBOOLEAN)
            sb_fail_value(c, v, "from_data",
                          "true (the address is computed from data, hist[in[i]]) or false");
        a->atomic_flags |= lua_toboolean(L, v) ? GP_ATOMIC_FROM_DATA : 0u;
    }
    sb_drop(L, top);
    if (sb_get(L, t, K_RANGE)) {
        sb_range_check(c, v, t, op, buf);
        info->has_range = 1;
    }
    sb_drop(L, top);
    info->has_index = has_index;
}

/* Names an index function's thread table already has. */
static const char *const sb_thread_fields[] = {"x",  "y",  "z",    "bx",   "by", "bz",
                                               "gx", "gy", "gz", "lane", "warp", NULL};

/* A loop counter's name (at v): an identifier that is not a thread field. */
static void sb_check_var(const sb_ctx_t *c, int v)
{
    lua_State *L = c->L;
    size_t len, i;
    const char *s = lua_type(L, v) == LUA_TSTRING ? lua_tolstring(L, v, &len) : NULL;
    int ok = s && len >= 1 && len <= GP_SCRIPT_MAX_NAME && !(s[0] >= '0' && s[0] <= '9');
    for (i = 0; ok && i < len; i++)
        ok = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
             (s[i] >= '0' && s[i] <= '9') || s[i] == '_';
    if (!ok)
        sb_fail_value(c, v, "var", "the name of the loop counter, an identifier");
    for (i = 0; sb_thread_fields[i]; i++)
        if (strcmp(s, sb_thread_fields[i]) == 0)
            sb_fail(c, "'var' = \"%s\" is taken: index functions already see t.%s (the thread "
                       "and block coordinates); name the counter otherwise",
                    s, s);
}

/* Check the op table t into *op; returns its spec. known: the spec a
   constructor makes, with line its line (the table then lacks its op and
   line fields, which sb_op_fill writes later); NULL: both are read from
   the table. */
static const sb_opspec_t *sb_op_check_as(const sb_ctx_t *c, int t, gp_op_t *op,
                                         sb_opinfo_t *info, const sb_opspec_t *known,
                                         int line)
{
    lua_State *L = c->L;
    const sb_opspec_t *spec = known;
    int entry = lua_gettop(L), top, v;
    size_t i;
    sb_fields_read(L, t);
    top = lua_gettop(L);
    v = top + 1;
    if (!known && sb_get(L, t, K_OP) && lua_type(L, v) == LUA_TSTRING) {
        const char *tag = lua_tostring(L, v);
        for (i = GP_ARRAY_LEN(sb_opspecs); i-- > 0 && !spec;) /* the last of a tag */
            if (tag[0] == sb_opspecs[i].tag[0] && strcmp(tag, sb_opspecs[i].tag) == 0)
                spec = &sb_opspecs[i];
    }
    if (!spec) {
        if (lua_gettop(L) < v)
            lua_pushnil(L); /* the absent field, for the message */
        sb_fail_value(c, v, "op", "the name of a gpuperf operation");
    }
    sb_drop(L, top);
    memset(op, 0, sizeof *op);
    memset(info, 0, sizeof *info);
    op->kind = spec->kind;
    op->int_mul = strcmp(spec->tag, "imul") == 0;
    op->sfu_bare = strcmp(spec->tag, "mufu") == 0;
    op->ilp = 1;
    op->count = 1;
    op->access.buffer = UINT32_MAX;
    if (known) {
        if (line >= 0)
            op->line = (uint32_t)line;
    } else if (sb_get(L, t, K_LINE) && lua_type(L, v) == LUA_TNUMBER &&
               lua_tonumber(L, v) >= 0 && lua_tonumber(L, v) <= UINT32_MAX) {
        op->line = (uint32_t)lua_tonumber(L, v);
    }
    sb_drop(L, top);

    if (sb_get(L, t, sb_fkey_find(spec->count_key, strlen(spec->count_key)))) {
        if (spec->kind == GP_OP_DIVERGE)
            op->count = (double)sb_check_uint(c, v, spec->count_key, 1, 32);
        else
            op->count = sb_check_count(c, v, spec->count_key);
    } else if (spec->cls != SB_BARRIER && spec->cls != SB_MEM) {
        sb_fail(c, "'%s' is required", spec->count_key);
    }
    sb_drop(L, top);
    if (spec->cls == SB_ARITH || spec->cls == SB_TENSOR || spec->cls == SB_MEM) {
        if (sb_get(L, t, K_ILP))
            op->ilp = sb_check_real(c, v, "ilp", 1, GP_SCRIPT_MAX_COUNT);
        sb_drop(L, top);
    }
    if (spec->cls == SB_TENSOR) {
        if (sb_get(L, t, K_TYPE))
            op->tensor_type = (uint32_t)sb_check_enum(c, v, "type", sb_tensor_names);
        sb_drop(L, top);
    }
    if (spec->cls == SB_MEM)
        sb_mem_check(c, t, spec, op, info);
    if (spec->kind == GP_OP_LOOP) {
        if (sb_get(L, t, K_VAR))
            sb_check_var(c, v);
        sb_drop(L, top);
        if (sb_get(L, t, K_UNROLL))
            op->unroll = (uint32_t)sb_check_uint(c, v, "unroll", 1, GP_SCRIPT_MAX_UNROLL);
        sb_drop(L, top);
    }
    sb_fields.t = 0;
    lua_settop(L, entry);
    return spec;
}

static const sb_opspec_t *sb_op_check(const sb_ctx_t *c, int t, gp_op_t *op,
                                      sb_opinfo_t *info)
{
    return sb_op_check_as(c, t, op, info, NULL, 0);
}

/* Write the resolved values back into t, so that scripts can read them.
   Fields that other fields decide (the pattern of an index function, the
   footprint of a range, the scope of bins) stay absent, so that the
   launch's second check reads the table as the script wrote it. */
static void sb_op_fill(lua_State *L, int t, const sb_opspec_t *spec, const gp_op_t *op,
                       const sb_opinfo_t *info)
{
    const gp_access_t *a = &op->access;
    int has_index = info->has_index, has_range = info->has_range;
    /* the tag and line a constructor gave (not written at construction) */
    lua_pushstring(L, spec->tag);
    lua_setfield(L, t, "op");
    lua_pushinteger(L, (lua_Integer)op->line);
    lua_setfield(L, t, "line");
    lua_pushnumber(L, op->count);
    lua_setfield(L, t, spec->count_key);
    if (spec->cls == SB_ARITH || spec->cls == SB_TENSOR || spec->cls == SB_MEM) {
        lua_pushnumber(L, op->ilp);
        lua_setfield(L, t, "ilp");
    }
    if (spec->cls == SB_TENSOR) {
        lua_pushstring(L, sb_tensor_names[op->tensor_type]);
        lua_setfield(L, t, "type");
    }
    if (spec->kind == GP_OP_LOOP && op->unroll) {
        lua_pushinteger(L, (lua_Integer)op->unroll);
        lua_setfield(L, t, "unroll");
    }
    if (spec->cls != SB_MEM)
        return;
    lua_pushstring(L, sb_space_names[op->space]);
    lua_setfield(L, t, "space");
    lua_pushnumber(L, a->elem_bytes);
    lua_setfield(L, t, "bytes");
    if (!has_index) {
        lua_pushstring(L, sb_pattern_names[a->pattern]);
        lua_setfield(L, t, "pattern");
        lua_pushnumber(L, (lua_Number)a->stride_elems);
        lua_setfield(L, t, "stride");
    }
    if (!has_index && !has_range) {
        lua_pushnumber(L, (lua_Number)a->offset_elems);
        lua_setfield(L, t, "offset");
    }
    if (a->footprint_bytes && !has_range) {
        lua_pushnumber(L, (lua_Number)a->footprint_bytes);
        lua_setfield(L, t, "footprint");
    }
    if (a->conflict_ways) {
        lua_pushnumber(L, a->conflict_ways);
        lua_setfield(L, t, "conflicts");
    }
    if (op->kind == GP_OP_ATOMIC && !has_index && !a->bins) {
        lua_pushstring(L, sb_scope_names[a->atomic_scope]);
        lua_setfield(L, t, "scope");
    }
    if (op->kind == GP_OP_ATOMIC) {
        lua_pushstring(L, sb_atomic_op_names[a->atomic_op]);
        lua_setfield(L, t, "update");
        lua_pushboolean(L, (a->atomic_flags & GP_ATOMIC_RESULT) != 0);
        lua_setfield(L, t, "result");
        lua_pushboolean(L, (a->atomic_flags & GP_ATOMIC_FROM_DATA) != 0);
        lua_setfield(L, t, "from_data");
    }
}

/* ------------------------------------------------------------ op proxies */

/*
 * What a script holds for an op is a proxy table, empty but for its state
 * under a key no script can write (sb_key_ops): reads go to the op's fields
 * table (the table described at the top), writes go there too and mark the
 * op as changed. The check the constructor made is kept with
 * it, so a launch trusts an unchanged op instead of checking its fields
 * again; a changed one is checked again, as it always was.
 */
typedef struct sb_opstate {
    gp_op_t op;       /* the check of the fields, as they were */
    sb_opinfo_t info;
    uint32_t spec;    /* sb_opspecs index */
    int checked;      /* 0: the fields changed since (or were never checked) */
    int filled;       /* the resolved values are in the fields table: written
                         (sb_op_fill) the first time a script reads or writes
                         the op, not at construction */
} sb_opstate_t;

/* The key under which a proxy holds its state (a full userdata whose
   environment is the fields table): a light userdata, which no script can
   make, so that every key a script can write is absent from the proxy and
   goes through __newindex. (Before, a weak-keyed registry table mapped
   proxies to states: an entry, and a rehash as it grew, per op.) */
static const char sb_key_ops = 0;

/* The state held by the proxy at idx under the key at key (both absolute),
   pushed with it: its fields table, or an empty table (NULL) when the
   proxy holds none. A script reaching the key with the base `next` may
   store any value there; only a userdata of a state's size is one (no
   other userdata is within a script's reach). */
static sb_opstate_t *sb_op_state_get(lua_State *L, int idx, int key)
{
    sb_opstate_t *st = NULL;
    lua_pushvalue(L, key);
    lua_rawget(L, idx);
    if (lua_type(L, -1) == LUA_TUSERDATA && lua_objlen(L, -1) == sizeof *st)
        st = lua_touserdata(L, -1);
    if (st)
        lua_getfenv(L, -1);
    else
        lua_newtable(L);
    lua_replace(L, -2);
    return st;
}

/* The state of the op proxy at idx (NULL when it is not one); pushes its
   fields table (an empty table when it is not one). With `fill`, the
   resolved values are written into the fields first if they are not yet
   there (everything but the launch's own reading, which needs only the
   fields as the script gave them, asks for them). */
static sb_opstate_t *sb_op_state_at(lua_State *L, int idx, int fill)
{
    sb_opstate_t *st;
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    lua_pushlightuserdata(L, (void *)&sb_key_ops);
    st = sb_op_state_get(L, idx, lua_gettop(L));
    lua_replace(L, -2);
    if (st && fill && !st->filled) {
        st->filled = 1;
        sb_op_fill(L, lua_gettop(L), &sb_opspecs[st->spec], &st->op, &st->info);
    }
    return st;
}

/* sb_op_state_at(L, idx, 0) with the state's key at stack index key (idx
   absolute). */
static sb_opstate_t *sb_op_state_in(lua_State *L, int idx, int key)
{
    return sb_op_state_get(L, idx, key);
}

static sb_opstate_t *sb_op_state(lua_State *L, int idx)
{
    return sb_op_state_at(L, idx, 1);
}

int sb_op_fields(lua_State *L, int idx, int write)
{
    sb_opstate_t *st;
    if (!sb_is_tagged(L, idx, &sb_key_op_mt))
        return 0;
    st = sb_op_state(L, idx);
    if (st && write)
        st->checked = 0;
    return 1;
}

/* __index of op proxies: (proxy, key). */
static int sb_op_index(lua_State *L)
{
    lua_settop(L, 2);
    sb_op_state(L, 1);
    lua_pushvalue(L, 2);
    lua_rawget(L, 3);
    return 1;
}

/* __newindex of op proxies: (proxy, key, value). */
static int sb_op_newindex(lua_State *L)
{
    sb_opstate_t *st;
    lua_settop(L, 3);
    st = sb_op_state(L, 1);
    if (st)
        st->checked = 0;
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_rawset(L, 4);
    return 0;
}

void sb_ops_init(lua_State *L)
{
    lua_pushlightuserdata(L, (void *)&sb_key_op_mt);
    lua_rawget(L, LUA_REGISTRYINDEX);
    lua_pushcfunction(L, sb_op_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, sb_op_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pop(L, 1);
}

/* ------------------------------------------------------------ flattening */

/* "a string", "a kernel template", ... for an entry that is not an op. */
static void sb_describe_type(lua_State *L, int idx, char *buf, size_t size)
{
    if (lua_type(L, idx) == LUA_TTABLE)
        sb_describe(L, idx, buf, size);
    else if (lua_isnil(L, idx))
        snprintf(buf, size, "nil");
    else
        snprintf(buf, size, "a %s", lua_typename(L, lua_type(L, idx)));
}

/* A memory op inside the work being flattened: its dependency, then (in
   a launch) its addresses. */
static void sb_flatten_mem(const sb_ctx_t *sub, int idx, sb_flat_t *f, gp_op_t *op,
                           int has_index)
{
    if (op->access.depends && !f->load_seen && f->n_loops == 0)
        sb_fail(sub, "'depends' = true, but no load comes before this one (its address would "
                     "be the value of the load before it); put the load it waits for first, "
                     "or both in a loop");
    if (f->launch)
        sb_index_launch_op(sub, f, has_index ? idx : 0, op);
    if (op->kind == GP_OP_LOAD)
        f->load_seen = 1;
}

/* The counter of the loop op at idx, if it names one: pushed (nil when not),
   checked against the loops around it. */
static void sb_flatten_var(const sb_ctx_t *sub, int idx, sb_flat_t *f, const gp_op_t *op)
{
    lua_State *L = sub->L;
    uint32_t i;
    sb_loop_ctx_t *lp = &f->loops[f->n_loops];
    lua_getfield(L, idx, "var");
    lp->var = lua_type(L, -1) == LUA_TSTRING ? lua_gettop(L) : 0;
    lp->trips = op->count;
    lp->line = op->line;
    for (i = 0; lp->var && i < f->n_loops; i++)
        if (f->loops[i].var && lua_rawequal(L, f->loops[i].var, lp->var))
            sb_fail(sub, "loop counter '%s' is already the counter of the loop at line %u "
                         "around it; give each nested loop its own name",
                    lua_tostring(L, lp->var), f->loops[i].line);
}

/* One op (idx) into f->ops[f->n], then its body if it has one. */
static void sb_flatten_op(const sb_ctx_t *c, int idx, const sb_path_t *path, int depth,
                          sb_flat_t *f)
{
    lua_State *L = c->L;
    const sb_opspec_t *spec;
    sb_ctx_t sub = SB_CTX(L, "");
    sb_opinfo_t info;
    sb_path_t body = {path, "body", 0};
    sb_opstate_t *st;
    uint32_t pos;
    if (f->n >= GP_SCRIPT_MAX_OPS) {
        char text[256];
        sb_path_text(path, text, sizeof text);
        sb_fail(c, "%s: more than %u operations in one kernel (after flattening loops and lists)",
                text, GP_SCRIPT_MAX_OPS);
    }
    sub.up = c;
    sub.path = path;
    pos = f->n++;
    /* from here on idx is the fields table */
    st = f->op_states_at ? sb_op_state_in(L, idx, f->op_states_at) : sb_op_state_at(L, idx, 0);
    idx = lua_gettop(L);
    if (st && st->checked) { /* unchanged since its check */
        f->ops[pos] = st->op;
        info = st->info;
        spec = &sb_opspecs[st->spec];
    } else {
        spec = sb_op_check(&sub, idx, &f->ops[pos], &info);
        if (st) {
            st->op = f->ops[pos];
            st->info = info;
            st->spec = (uint32_t)(spec - sb_opspecs);
            st->checked = 1;
        }
    }
    if (spec->kind == GP_OP_BARRIER)
        f->has_barrier = 1;
    if (spec->cls == SB_MEM)
        sb_flatten_mem(&sub, idx, f, &f->ops[pos], info.has_index);
    if (spec->cls != SB_BODY) {
        lua_pop(L, 1);
        return;
    }
    if (spec->kind == GP_OP_LOOP)
        sb_flatten_var(&sub, idx, f, &f->ops[pos]);
    if (!sb_rawget(L, idx, "body") || lua_type(L, -1) != LUA_TTABLE)
        sb_fail_value(&sub, lua_gettop(L), "body", "a list of operations");
    if (spec->kind == GP_OP_LOOP)
        f->n_loops++;
    sb_ops_flatten(c, lua_gettop(L), &body, depth + 1, f);
    if (spec->kind == GP_OP_LOOP) {
        f->n_loops--;
        lua_pop(L, 1); /* the counter's name */
    }
    lua_pop(L, 2); /* the body, the fields */
    f->ops[pos].body_len = f->n - pos - 1;
}

/* Name the first key of the list at idx that is not 1..len, and fail. */
static void sb_fail_non_list(const sb_ctx_t *c, int idx, const char *path, size_t len)
{
    lua_State *L = c->L;
    char key[96];
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        lua_pop(L, 1);
        lua_Number k = lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER || k < 1 || k > (lua_Number)len || k != floor(k))
            break;
    }
    sb_describe(L, -1, key, sizeof key);
    sb_fail(c, "%s has a non-list entry [%s]; a work list holds operations at [1]..[n]", path,
            key);
}

/* Fail with "PATH: message" (fmt has one %s for the path, then ...). */
static void sb_fail_path(const sb_ctx_t *c, const sb_path_t *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
static void sb_fail_path(const sb_ctx_t *c, const sb_path_t *path, const char *fmt, ...)
{
    char text[256], msg[768];
    va_list ap;
    sb_path_text(path, text, sizeof text);
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sb_fail(c, "%s%s", text, msg);
}

void sb_ops_flatten(const sb_ctx_t *c, int idx, const sb_path_t *path, int depth, sb_flat_t *f)
{
    lua_State *L = c->L;
    char what[96];
    sb_path_t child = {path, NULL, 0};
    size_t len, i;
    int tagged, outer = 0;
    if (idx < 0)
        idx = lua_gettop(L) + idx + 1;
    luaL_checkstack(L, 8, "work nested too deeply");
    if (!f->op_states_at) { /* the outermost call: the metatable and the key once */
        outer = lua_gettop(L);
        lua_pushlightuserdata(L, (void *)&sb_key_op_mt);
        lua_rawget(L, LUA_REGISTRYINDEX);
        f->op_mt_at = lua_gettop(L);
        lua_pushlightuserdata(L, (void *)&sb_key_ops);
        f->op_states_at = lua_gettop(L);
    }
    if (++f->visits > GP_SCRIPT_MAX_VISITS)
        sb_fail_path(c, path, ": more than %u work entries to walk (shared sub-lists count each "
                              "time)",
                     GP_SCRIPT_MAX_VISITS);
    sb_charge(L, 8);
    if (depth > GP_SCRIPT_MAX_DEPTH)
        sb_fail_path(c, path, ": work nested more than %d levels deep (loops, diverges and "
                              "sub-lists)",
                     GP_SCRIPT_MAX_DEPTH);
    /* sb_is_tagged(L, idx, &sb_key_op_mt), with the metatable at hand */
    tagged = lua_type(L, idx) == LUA_TTABLE && lua_getmetatable(L, idx);
    if (tagged) {
        tagged = lua_rawequal(L, -1, f->op_mt_at);
        lua_pop(L, 1);
    }
    if (tagged) {
        sb_flatten_op(c, idx, path, depth, f);
        if (outer) {
            lua_settop(L, outer);
            f->op_mt_at = f->op_states_at = 0;
        }
        return;
    }
    if (!sb_is_plain(L, idx)) {
        sb_describe_type(L, idx, what, sizeof what);
        sb_fail_path(c, path, " is %s, expected a gpuperf operation", what);
    }
    len = lua_objlen(L, idx);
    if (len > GP_SCRIPT_MAX_VISITS)
        sb_fail_path(c, path, ": more than %u work entries", GP_SCRIPT_MAX_VISITS);
    if (sb_table_size(L, idx, (uint32_t)len + 1) != len) {
        char text[256];
        sb_path_text(path, text, sizeof text);
        sb_fail_non_list(c, idx, text, len);
    }
    for (i = 1; i <= len; i++) {
        lua_rawgeti(L, idx, (int)i);
        child.index = i;
        sb_ops_flatten(c, lua_gettop(L), &child, depth + sb_is_plain(L, -1), f);
        lua_pop(L, 1);
    }
    if (outer) {
        lua_settop(L, outer);
        f->op_mt_at = f->op_states_at = 0;
    }
}

/* ---------------------------------------------------------- constructors */

/* Make t (at the top) an op of `tag` from the caller's line: check it (and
   its body), keep the check with a proxy for it; the tag, the line and the
   resolved fields go into t when the script first touches the op. Leaves
   the proxy on top. */
static int sb_op_finish(const sb_ctx_t *c, const char *tag)
{
    lua_State *L = c->L;
    int t = lua_gettop(L);
    const sb_opspec_t *spec;
    gp_op_t op;
    sb_opinfo_t info;
    size_t i;
    /* the tag and the caller's line go into t when the script first
       touches the op (sb_op_fill), with the resolved values */
    for (i = GP_ARRAY_LEN(sb_opspecs); i-- > 0;) /* the last of a tag, as a check finds it */
        if (tag[0] == sb_opspecs[i].tag[0] && strcmp(tag, sb_opspecs[i].tag) == 0)
            break;
    spec = sb_op_check_as(c, t, &op, &info, &sb_opspecs[i], sb_line(L, 1));
    if (spec->cls == SB_BODY) {
        sb_flat_t f;
        memset(&f, 0, sizeof f);
        f.ops = sb_ev(L)->scratch;
        f.n_loops = spec->kind == GP_OP_LOOP; /* a dependent load may wait for itself */
        static const sb_path_t body = {NULL, "body", 0};
        lua_getfield(L, t, "body");
        sb_ops_flatten(c, lua_gettop(L), &body, 1, &f);
        lua_pop(L, 1);
    }
    {
        /* the resolved values go into t when the script first touches
           the op (sb_op_state_at) */
        sb_opstate_t *st = lua_newuserdata(L, sizeof *st); /* t + 1 */
        st->op = op;
        st->info = info;
        st->spec = (uint32_t)(spec - sb_opspecs);
        st->checked = 1;
        st->filled = 0;
        lua_pushvalue(L, t);
        lua_setfenv(L, t + 1);
        lua_createtable(L, 0, 1); /* t + 2: the proxy, holding the state */
        lua_pushlightuserdata(L, (void *)&sb_key_op_mt);
        lua_rawget(L, LUA_REGISTRYINDEX);
        lua_setmetatable(L, t + 2);
        lua_pushlightuserdata(L, (void *)&sb_key_ops);
        lua_pushvalue(L, t + 1);
        lua_rawset(L, t + 2);
    }
    return 1;
}

/* Set t.key = the value at idx (t at the top). */
static void sb_set_from(lua_State *L, const char *key, int idx)
{
    lua_pushvalue(L, idx);
    lua_setfield(L, -2, key);
}

/* gpuperf.fp32(n [, ilp]) / gpuperf.fp32{n, ilp = k}; also fp64, fp16,
   int, sfu, conv, branch, and barrier([n]). Upvalue 1: sb_opspecs index. */
static int l_arith(lua_State *L)
{
    const sb_opspec_t *spec = &sb_opspecs[lua_tointeger(L, lua_upvalueindex(1))];
    static const char *const arith_keys[] = {"count", "ilp", NULL};
    static const char *const barrier_keys[] = {"count", NULL};
    int arith = spec->cls == SB_ARITH, nargs = lua_gettop(L), count_idx, ilp_idx;
    sb_ctx_t c = SB_CTX(L, "");
    c.fmt = "gpuperf.%s";
    c.arg = spec->tag;
    if (nargs == 1 && sb_is_plain(L, 1)) {
        sb_check_keys(&c, 1, arith ? arith_keys : barrier_keys, 1);
        lua_rawgeti(L, 1, 1);      /* 2 */
        lua_getfield(L, 1, "count"); /* 3 */
        if (!lua_isnil(L, 2) && !lua_isnil(L, 3))
            sb_fail(&c, "give the count once: as [1] or as count =");
        if (lua_isnil(L, 2))
            lua_replace(L, 2);
        else
            lua_pop(L, 1);
        lua_getfield(L, 1, "ilp"); /* 3 */
        count_idx = 2;
        ilp_idx = 3;
    } else {
        if (nargs > (arith ? 2 : 1))
            sb_fail(&c, "takes %s, got %d arguments", arith ? "(count [, ilp])" : "([count])",
                    nargs);
        lua_settop(L, 2);
        count_idx = 1;
        ilp_idx = 2;
    }
    if (arith && lua_isnil(L, count_idx))
        sb_fail(&c, "the count is required: gpuperf.%s(n [, ilp]) or gpuperf.%s{n, ilp = k}",
                spec->tag, spec->tag);
    lua_createtable(L, 0, 4);
    if (!lua_isnil(L, count_idx))
        sb_set_from(L, "count", count_idx);
    if (!lua_isnil(L, ilp_idx))
        sb_set_from(L, "ilp", ilp_idx);
    return sb_op_finish(&c, spec->tag);
}

/* gpuperf.tensor{flops = F, type = "fp16", ilp = k} */
static int l_tensor(lua_State *L)
{
    static const char *const keys[] = {"flops", "type", "ilp", NULL};
    sb_ctx_t c = SB_CTX(L, "gpuperf.tensor");
    size_t i;
    if (lua_gettop(L) != 1 || !sb_is_plain(L, 1))
        sb_fail(&c, "takes one table: gpuperf.tensor{flops = F, type = \"fp16\"}");
    sb_check_keys(&c, 1, keys, 0);
    lua_getfield(L, 1, "flops");
    if (lua_isnil(L, -1))
        sb_fail(&c, "'flops' is required: tensor-core flops per thread");
    lua_pop(L, 1);
    lua_createtable(L, 0, 8);
    for (i = 0; keys[i]; i++) {
        lua_getfield(L, 1, keys[i]);
        lua_setfield(L, 2, keys[i]);
    }
    return sb_op_finish(&c, "tensor");
}

/* 1 if the table at idx (absolute) has one key, [1]. */
static int sb_only_first(lua_State *L, int idx)
{
    int only = 0;
    lua_pushnil(L);
    if (lua_next(L, idx) == 0)
        return 0;
    if (lua_type(L, -2) == LUA_TNUMBER && lua_tonumber(L, -2) == 1) {
        lua_pop(L, 1);
        only = lua_next(L, idx) == 0;
        if (!only)
            lua_pop(L, 2);
    } else {
        lua_pop(L, 2);
    }
    return only;
}

/* gpuperf.load{buf, ...} and the other memory constructors. Upvalue 1:
   sb_memctors index. Also accepts a bare buffer handle or nothing. */
static int l_mem(lua_State *L)
{
    const struct sb_memctor *m = &sb_memctors[lua_tointeger(L, lua_upvalueindex(1))];
    const char *keys[GP_ARRAY_LEN(sb_mem_fields)];
    sb_ctx_t c = SB_CTX(L, "");
    int has_buffer = (m->fields & F_BUFFER) != 0;
    size_t i, nk = 0;
    c.fmt = "gpuperf.%s";
    c.arg = m->name;
    for (i = 0; sb_mem_fields[i]; i++)
        if (m->fields & (1u << i))
            keys[nk++] = sb_mem_fields[i];
    keys[nk] = NULL;
    if (lua_gettop(L) > 1)
        sb_fail(&c, "takes one table of fields: gpuperf.%s{...}", m->name);
    lua_settop(L, 1);
    lua_createtable(L, 0, 4); /* 2: the fields given (op, line and the resolved
                                 fields come when the script touches the op) */
    if (has_buffer && sb_handle_index(L, 1, SB_BUFFER) >= 0) {
        sb_set_from(L, "buffer", 1);
    } else if (has_buffer && sb_is_plain(L, 1) && sb_only_first(L, 1)) {
        /* {buf} (the common form): what the general case below makes of it */
        lua_rawgeti(L, 1, 1);
        lua_setfield(L, 2, "buffer");
    } else if (sb_is_plain(L, 1)) {
        sb_check_keys(&c, 1, keys, has_buffer);
        /* the named fields (all accepted: checked above) */
        lua_pushnil(L);
        while (lua_next(L, 1) != 0) {
            if (lua_type(L, -2) == LUA_TSTRING) {
                lua_pushvalue(L, -2);
                lua_insert(L, -2);
                lua_rawset(L, 2);
            } else {
                lua_pop(L, 1);
            }
        }
        lua_rawgeti(L, 1, 1);
        if (!lua_isnil(L, -1)) {
            lua_getfield(L, 2, "buffer");
            if (!lua_isnil(L, -1))
                sb_fail(&c, "give the buffer once: as [1] or as buffer =");
            lua_pop(L, 1);
            lua_setfield(L, 2, "buffer");
        } else {
            lua_pop(L, 1);
        }
    } else if (!lua_isnil(L, 1)) {
        sb_fail_value(&c, 1, "argument", has_buffer ? "a table of fields or a buffer"
                                                    : "a table of fields");
    }
    if (m->space >= 0) {
        lua_pushstring(L, sb_space_names[m->space]);
        lua_setfield(L, 2, "space");
    }
    return sb_op_finish(&c, m->tag);
}

/* gpuperf.loop(trips, {body}) / gpuperf.diverge(paths, {body}), or one
   table: gpuperf.loop{trips, var = "k", body = {...}} (var: loops only).
   Upvalue 1: sb_opspecs index. */
static int l_body(lua_State *L)
{
    const sb_opspec_t *spec = &sb_opspecs[lua_tointeger(L, lua_upvalueindex(1))];
    const char *keys[5] = {spec->count_key, "body", NULL, NULL, NULL};
    sb_ctx_t c = SB_CTX(L, "");
    int is_loop = spec->kind == GP_OP_LOOP;
    c.fmt = "gpuperf.%s";
    c.arg = spec->tag;
    if (is_loop) {
        keys[2] = "var";
        keys[3] = "unroll";
    }
    if (lua_gettop(L) == 1 && sb_is_plain(L, 1)) {
        int i;
        sb_check_keys(&c, 1, keys, 2);
        for (i = 0; i < 2; i++) {
            lua_rawgeti(L, 1, i + 1);
            lua_getfield(L, 1, keys[i]);
            if (!lua_isnil(L, -1) && !lua_isnil(L, -2))
                sb_fail(&c, "give '%s' once: as [%d] or as %s =", keys[i], i + 1, keys[i]);
            if (lua_isnil(L, -1))
                lua_pop(L, 1);
            else
                lua_remove(L, -2);
        }
        if (lua_isnil(L, 2))
            sb_fail(&c, "'%s' is required: gpuperf.%s{n, %sbody = {...}}", spec->count_key,
                    spec->tag, is_loop ? "var = \"k\", " : "");
        if (is_loop) {
            lua_getfield(L, 1, "var");
            lua_getfield(L, 1, "unroll");
        } else {
            lua_pushnil(L);
            lua_pushnil(L);
        }
    } else {
        if (lua_gettop(L) != 2)
            sb_fail(&c, "takes (%s, {operations...})%s, got %d arguments", spec->count_key,
                    is_loop ? " or {n, var = \"k\", body = {...}}" : "", lua_gettop(L));
        lua_pushnil(L);
        lua_insert(L, 1); /* 1: unused, 2: count, 3: body, 4: var, 5: unroll */
        lua_pushnil(L);
        lua_pushnil(L);
    }
    if (lua_type(L, 3) != LUA_TTABLE)
        sb_fail_value(&c, 3, "body", "a list of operations");
    lua_createtable(L, 0, 5);
    sb_set_from(L, spec->count_key, 2);
    sb_set_from(L, "body", 3);
    if (!lua_isnil(L, 4))
        sb_set_from(L, "var", 4);
    if (!lua_isnil(L, 5))
        sb_set_from(L, "unroll", 5);
    return sb_op_finish(&c, spec->tag);
}

void sb_ops_register(lua_State *L)
{
    size_t i;
    for (i = 0; i < GP_ARRAY_LEN(sb_opspecs); i++) {
        const sb_opspec_t *spec = &sb_opspecs[i];
        lua_CFunction f = spec->cls == SB_BODY     ? l_body
                          : spec->cls == SB_TENSOR ? l_tensor
                          : spec->cls == SB_MEM    ? NULL
                                                   : l_arith;
        if (!f)
            continue;
        lua_pushinteger(L, (lua_Integer)i);
        lua_pushcclosure(L, f, 1);
        lua_setfield(L, -2, spec->tag);
    }
    for (i = 0; i < GP_ARRAY_LEN(sb_memctors); i++) {
        lua_pushinteger(L, (lua_Integer)i);
        lua_pushcclosure(L, l_mem, 1);
        lua_setfield(L, -2, sb_memctors[i].name);
    }
    sb_index_register(L);
}
