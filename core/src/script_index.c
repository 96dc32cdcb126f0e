/*
 * script_index.c - where the threads of a launch read and write: index
 * functions (`index = function(t) ... end`) evaluated for a sample of
 * threads and iterations, and the bounds of the pattern shorthands.
 *
 * The sample (docs/workloads.md, "Index functions"): warp 0 of block
 * (0,0,0) at the first iteration of every named loop (the origin); from it,
 * one step, the middle and the last position along each axis alone (the
 * warp within the block, blockIdx.x, .y, .z, each named loop's counter);
 * then every axis at its middle and every axis at its last position. Every
 * lane of each sampled warp is evaluated, so a sampled index outside its
 * buffer is an error naming the thread. Footprints come from a window of
 * the launch: every combination of the first w_a positions along each axis
 * (whole blocks where they fit), whose sub-boxes' distinct bytes F(s) are
 * extrapolated multilinearly to the axes' lengths (exact when F is affine
 * in each axis's length beyond the window, as it is for affine indices:
 * stencils, convolutions, transposes, tiles, grid-stride loops). When the
 * window does not fit, a step along an axis that touches a fraction r of
 * new bytes makes N positions touch 1 + (N - 1) r times the bytes of one.
 * Launches small enough are enumerated whole instead.
 */
#include <lauxlib.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script_internal.h"

#define SB_FIXED_AXES 4 /* the warp in the block, blockIdx.x, .y, .z */
#define SB_MAX_AXES (SB_FIXED_AXES + GP_SCRIPT_MAX_DEPTH + 2)
/* the origin, three positions per axis, two corners, and one step along
   each fixed axis at the three positions of each loop */
#define SB_MAX_LOOP_AXES (SB_MAX_AXES - SB_FIXED_AXES)
#define SB_MAX_INST (1 + 3 * SB_MAX_AXES + 2 + SB_FIXED_AXES * 3 * SB_MAX_LOOP_AXES)
/* instances in one family: a warp at the sampled iterations */
#define SB_MAX_FAMILY (1 + 3 * SB_MAX_LOOP_AXES)
#define SB_MAX_LANES 64
/* Launches with at most this many thread-iterations are enumerated whole:
   their footprints are exact. */
#define SB_EXACT_MAX 4096.0
/* The footprint window (docs/workloads.md, "What gpuperf does with it"):
   at most this many lanes are evaluated for it, over at most this many
   axes with more than one position (3 bits each in a membership mask);
   beyond, the per-axis factors of sb_extrapolate stand in. */
#define SB_WINDOW_LANES 4096.0
#define SB_WINDOW_AXES 8
/* ... and it grows past two positions per axis only up to this many. */
#define SB_WINDOW_GROW 2048.0
/* Index functions whose samples are kept for re-use, per evaluation. */
#define SB_CACHE_MAX 256
#define SB_CACHE_UPVALUES 8

/* The state gpuperf.random draws from while a function is sampled. */
typedef struct sb_sampling {
    uint64_t rng;
    int random_used;
    int64_t lo, hi; /* the widest range asked for */
    int force;      /* 1: every draw returns its lo, 2: lo + (hi - lo) / 2, 3: lo, lo + 1,
                       ... call after call (sb_drawn_span) */
    int64_t next;   /* force 3: the calls so far */
} sb_sampling_t;

/* A sampled index function kept for the next launch of the same op. */
typedef struct sb_index_cache {
    const void *table, *fn;
    gp_dim3_t grid, block;
    uint64_t smem;
    uint32_t n_named;
    double trips[GP_SCRIPT_MAX_DEPTH + 2];
    double iterations;             /* of every enclosing loop, named or not */
    int n_up;                      /* upvalues fingerprinted */
    int up_type[SB_CACHE_UPVALUES];
    double up_num[SB_CACHE_UPVALUES];
    const void *up_ptr[SB_CACHE_UPVALUES];
    gp_access_t access;            /* the result, sample included */
} sb_index_cache_t;

/* Thread-table keys, in this order on the stack from job->keys. */
enum { K_X, K_Y, K_Z, K_BX, K_BY, K_BZ, K_GX, K_GY, K_GZ, K_LANE, K_WARP, K_COUNT };
static const char *const sb_keys[K_COUNT] = {"x",  "y",  "z",  "bx",   "by",  "bz",
                                             "gx", "gy", "gz", "lane", "warp"};

/* One sampling of one op. */
typedef struct sb_job {
    const sb_ctx_t *c;
    sb_flat_t *f;
    gp_op_t *op;
    sb_sampling_t rs;
    int fn, tbl, keys;           /* stack indices */
    int lanes, out;              /* stack indices: sb_lanes_src, its result table */
    char opname[128];            /* "load 'x'" */
    char src[128];               /* "script.lua:12" where the function is */
    uint64_t elems;              /* indices must stay below this */
    char bound[160];             /* "buffer x (1024 elements of 4 bytes)" */
    uint32_t ws;                 /* lanes per warp */
    uint32_t n_axes;
    double ext[SB_MAX_AXES];     /* positions along each axis */
    double trips[SB_MAX_AXES];   /* loops: trips as written (may be fractional) */
    int var[SB_MAX_AXES];        /* loops: stack index of the counter's name */
    uint32_t n_inst;
    double coord[SB_MAX_INST][SB_MAX_AXES];
    int step[SB_MAX_AXES];       /* instance one step along the axis; -1 none */
    /* the origin's family (the origin warp at the sampled iterations of
       every loop) and the family of the step along each fixed axis */
    int fam[SB_FIXED_AXES + 1][SB_MAX_FAMILY];
    uint32_t n_fam[SB_FIXED_AXES + 1];
    int64_t *off;                /* n_inst * ws byte offsets */
    double total;                /* thread-iterations of the launch */
    int64_t *exact;              /* 3 * total offsets when enumerated whole, or NULL */
    const int64_t *expect;       /* a cached sample's first warp to compare with, or NULL */
    int matches;                 /* the first warp gave the expected offsets */
    double issuing;              /* share of the launch's warps with an active lane */
    double last[K_COUNT];        /* what the thread table holds (NAN: unset) */
    /* the footprint window: positions 0 .. win - 1 along each axis, every
       combination (axis 0 fastest); n_win = 0: no window */
    uint32_t win[SB_MAX_AXES];
    uint32_t n_win;
    int64_t *woff;               /* n_win * ws byte offsets */
} sb_job_t;

/* A lane of the window: its byte offset and its warp instance. */
typedef struct sb_went {
    int64_t off;
    uint32_t inst;
} sb_went_t;

/* ------------------------------------------------------------ helpers */

/* splitmix64 */
static uint64_t sb_rand_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Sorting the lanes' byte offsets for distinct-byte counts: a
   least-significant-digit radix sort (8 bits a pass; passes where every key
   has the same digit are skipped), insertion sort for a few keys. */
#define SB_SORT_SMALL 48

/* The digits (bytes) where keys differ: bit d set for byte d. */
static uint32_t sb_sort_digits(uint64_t or_all, uint64_t and_all)
{
    uint64_t diff = or_all ^ and_all;
    uint32_t d, m = 0;
    for (d = 0; d < 8; d++)
        if ((diff >> (8 * d)) & 0xff)
            m |= 1u << d;
    return m;
}

/*
 * One least-significant-digit radix sort for an array of TYPE whose
 * non-negative key is KEY(element): NAME(a, n, tmp) sorts a ascending by key,
 * stably; tmp holds n.
 */
#define SB_DEFINE_RADIX_SORT(NAME, TYPE, KEY)                                 \
    static void NAME(TYPE *a, size_t n, TYPE *tmp)                            \
    {                                                                         \
        TYPE *src = a, *dst = tmp, *t;                                        \
        uint64_t o = 0, an = ~0ull;                                           \
        uint32_t digits, d;                                                   \
        size_t i;                                                             \
        for (i = 0; i < n; i++) {                                             \
            o |= KEY(a[i]);                                                   \
            an &= KEY(a[i]);                                                  \
        }                                                                     \
        digits = sb_sort_digits(o, an);                                       \
        for (d = 0; d < 8; d++) {                                             \
            size_t count[257] = {0};                                          \
            uint32_t sh = 8 * d, b;                                           \
            if (!(digits & (1u << d)))                                        \
                continue;                                                     \
            for (i = 0; i < n; i++)                                           \
                count[((KEY(src[i]) >> sh) & 0xff) + 1]++;                    \
            for (b = 0; b < 256; b++)                                         \
                count[b + 1] += count[b];                                     \
            for (i = 0; i < n; i++)                                           \
                dst[count[(KEY(src[i]) >> sh) & 0xff]++] = src[i];            \
            t = src;                                                          \
            src = dst;                                                        \
            dst = t;                                                          \
        }                                                                     \
        if (src != a)                                                         \
            memcpy(a, src, n * sizeof *a);                                    \
    }

#define SB_OFFSET_KEY(x) ((uint64_t)(x))
#define SB_WENT_KEY(x) ((uint64_t)(x).off)

SB_DEFINE_RADIX_SORT(sb_radix_offsets, int64_t, SB_OFFSET_KEY)
/* Sort the n window lanes e by offset (non-negative); tmp holds n. */
SB_DEFINE_RADIX_SORT(sb_sort_went, sb_went_t, SB_WENT_KEY)

/* Sort the n non-negative keys a ascending; tmp holds n. */
static void sb_sort_offsets(int64_t *a, size_t n, int64_t *tmp)
{
    size_t i;
    if (n > SB_SORT_SMALL) {
        sb_radix_offsets(a, n, tmp);
        return;
    }
    for (i = 1; i < n; i++) {
        int64_t v = a[i];
        size_t k = i;
        for (; k > 0 && a[k - 1] > v; k--)
            a[k] = a[k - 1];
        a[k] = v;
    }
}

/* Distinct bytes of n accesses of `bytes` each at offs (negatives skipped);
   reorders offs. */
static double sb_distinct(int64_t *offs, size_t n, uint32_t bytes)
{
    int64_t small[SB_SORT_SMALL], *tmp = small;
    double total = 0;
    size_t i, m = 0;
    for (i = 0; i < n; i++) /* the accessing lanes, in front */
        if (offs[i] >= 0)
            offs[m++] = offs[i];
    if (m > SB_SORT_SMALL) {
        tmp = malloc(m * sizeof *tmp);
        if (!tmp) { /* no room for the radix sort: sort in place */
            qsort(offs, m, sizeof *offs, gp_cmp_i64);
            tmp = small;
        } else {
            sb_sort_offsets(offs, m, tmp);
        }
    } else {
        sb_sort_offsets(offs, m, tmp);
    }
    for (i = 0; i < m; i++) {
        if (i + 1 < m)
            total += (double)GP_MIN((int64_t)bytes, offs[i + 1] - offs[i]);
        else
            total += bytes;
    }
    if (tmp != small)
        free(tmp);
    return total;
}

/* ------------------------------------------------------- gpuperf.random */

/* gpuperf.random(lo, hi): inside an index function, a data-dependent index
   anywhere from lo to hi (drawn deterministically for the sample). */
static int l_random(lua_State *L)
{
    gp_script_t *s = sb_script(L);
    sb_ctx_t c = SB_CTX(L, "gpuperf.random");
    sb_sampling_t *rs = s->ev ? s->ev->sampling : NULL;
    int64_t lo, hi;
    if (!rs)
        sb_fail(&c, "works only inside an index function, where it stands for a data-dependent "
                    "index (use math.random for the script's own random numbers)");
    if (lua_gettop(L) != 2)
        sb_fail(&c, "takes (lo, hi): the first and last element index, got %d arguments",
                lua_gettop(L));
    lo = sb_check_int(&c, 1, "lo", GP_SCRIPT_MAX_ELEMS);
    hi = sb_check_int(&c, 2, "hi", GP_SCRIPT_MAX_ELEMS);
    if (lo < 0 || hi < lo)
        sb_fail(&c, "(%lld, %lld): give 0 <= lo <= hi", (long long)lo, (long long)hi);
    if (!rs->random_used || lo < rs->lo)
        rs->lo = lo;
    if (!rs->random_used || hi > rs->hi)
        rs->hi = hi;
    rs->random_used = 1;
    if (rs->force) {
        lua_pushnumber(L, (lua_Number)(rs->force == 1   ? lo
                                       : rs->force == 2 ? lo + (hi - lo) / 2
                                                        : lo + rs->next++ % (hi - lo + 1)));
        return 1;
    }
    lua_pushnumber(L, (lua_Number)(lo + (int64_t)(sb_rand_next(&rs->rng) %
                                                  (uint64_t)(hi - lo + 1))));
    return 1;
}

void sb_index_register(lua_State *L)
{
    lua_pushcfunction(L, l_random);
    lua_setfield(L, -2, "random");
}

/* ---------------------------------------------------------- evaluation */

/* "thread (x=0,y=0,z=0,bx=3,by=0,bz=0) k=7" for lane of coordinates co. */
static void sb_thread_desc(lua_State *L, const sb_job_t *j, const double *co, uint32_t lane,
                           char *buf, size_t size)
{
    const gp_launch_t *ln = j->f->launch;
    uint64_t tid = (uint64_t)co[0] * j->ws + lane;
    size_t n;
    uint32_t a;
    n = (size_t)snprintf(buf, size, "thread (x=%llu,y=%llu,z=%llu,bx=%.0f,by=%.0f,bz=%.0f)",
                         (unsigned long long)(tid % ln->block.x),
                         (unsigned long long)(tid / ln->block.x % ln->block.y),
                         (unsigned long long)(tid / (ln->block.x * ln->block.y)), co[1], co[2],
                         co[3]);
    for (a = SB_FIXED_AXES; a < j->n_axes && n < size; a++)
            n += (size_t)snprintf(buf + n, size - n, " %s=%.0f", lua_tostring(L, j->var[a]),
                                  co[a]);
}

/* t[key] = v, unless it holds v already (a script may change t, so the
   thread fields are set again for every warp instance: sb_set_instance) */
static void sb_tset(lua_State *L, sb_job_t *j, int key, double v)
{
    if (j->last[key] == v)
        return;
    j->last[key] = v;
    lua_pushvalue(L, j->keys + key);
    lua_pushnumber(L, v);
    lua_rawset(L, j->tbl);
}

/* Set the block, warp and loop fields of the thread table. */
static void sb_set_instance(lua_State *L, sb_job_t *j, const double *co)
{
    uint32_t a, k;
    for (k = 0; k < K_COUNT; k++)
        j->last[k] = NAN;
    sb_tset(L, j, K_WARP, co[0]);
    sb_tset(L, j, K_BX, co[1]);
    sb_tset(L, j, K_BY, co[2]);
    sb_tset(L, j, K_BZ, co[3]);
    for (a = SB_FIXED_AXES; a < j->n_axes; a++) {
        lua_pushvalue(L, j->var[a]);
        lua_pushnumber(L, co[a]);
        lua_rawset(L, j->tbl);
    }
}

/* Raise "SRC: index function of OP returned V for THREAD: why". */
static void sb_bad_index(lua_State *L, const sb_job_t *j, const double *co, uint32_t lane,
                         const char *value, const char *why) __attribute__((noreturn));
static void sb_bad_index(lua_State *L, const sb_job_t *j, const double *co, uint32_t lane,
                         const char *value, const char *why)
{
    char who[320];
    sb_thread_desc(L, j, co, lane, who, sizeof who);
    lua_pushfstring(L, "%s: index function of %s returned %s for %s: %s", j->src, j->opname,
                    value, who, why);
    lua_error(L);
    __builtin_unreachable();
}

/* The Lua side of a warp's evaluation, compiled once per state: the lanes
   0 .. n - 1 of one warp instance run in one protected call instead of one
   call each. Each lane records itself in out[0] (the lane an error comes from), sets
   the thread fields of t that change from lane to lane, calls fn(t) and keeps the result in out[lane + 1] for sb_eval_warp to check.
   The first function serves warps that lie within one row of the block
   (blockDim.x a multiple of the warp size: y, z, gy, gz are the warp's,
   set from C); the second computes every field. Thread numbers are below
   a block's threads, so the divisions are exact and give C's numbers. */
static const char sb_lanes_src[] =
    "return function(fn, t, out, n, x0, gx0)\n"
    "  for lane = 0, n - 1 do\n"
    "    out[0] = lane\n"
    "    local x = x0 + lane\n"
    "    t.x = x; t.lane = lane; t.gx = gx0 + x\n"
    "    out[lane + 1] = fn(t)\n"
    "  end\n"
    "end,\n"
    "function(fn, t, out, n, tid0, gx0, bdx, gy0, bdy, gz0)\n"
    "  local bdxy = bdx * bdy\n"
    "  for lane = 0, n - 1 do\n"
    "    out[0] = lane\n"
    "    local tid = tid0 + lane\n"
    "    local x = tid % bdx\n"
    "    local y = (tid - x) / bdx % bdy\n"
    "    local z = (tid - tid % bdxy) / bdxy\n"
    "    t.x = x; t.y = y; t.z = z; t.lane = lane\n"
    "    t.gx = gx0 + x; t.gy = gy0 + y; t.gz = gz0 + z\n"
    "    out[lane + 1] = fn(t)\n"
    "  end\n"
    "end\n";

/* Registry key of the compiled sb_lanes_src function. */
static const char sb_key_lanes = 0;

/* Push the functions of sb_lanes_src (in a table: 1 the row-wise one, 2
   the general one), compiling them the first time. */
static void sb_push_lanes(lua_State *L)
{
    lua_pushlightuserdata(L, (void *)&sb_key_lanes);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (lua_istable(L, -1))
        return;
    lua_pop(L, 1);
    lua_createtable(L, 2, 0);
    if (luaL_loadbuffer(L, sb_lanes_src, sizeof sb_lanes_src - 1, "=(index lanes)") != 0)
        lua_error(L); /* only memory can fail here */
    lua_call(L, 0, 2);
    lua_rawseti(L, -3, 2);
    lua_rawseti(L, -2, 1);
    lua_pushlightuserdata(L, (void *)&sb_key_lanes);
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
}

/* Raise the error of the value at the top of the stack, which lane `lane`
   of the instance at co returned and sb_lanes_src refused. */
static void sb_bad_value(lua_State *L, sb_job_t *j, const double *co, uint32_t lane)
    __attribute__((noreturn));
static void sb_bad_value(lua_State *L, sb_job_t *j, const double *co, uint32_t lane)
{
    char val[64], why[256];
    double v;
    if (lua_type(L, -1) != LUA_TNUMBER) {
        sb_describe(L, -1, val, sizeof val);
        sb_bad_index(L, j, co, lane, val,
                     "expected an element index (an integer from 0), or nil for a thread that "
                     "does not access");
    }
    v = (double)lua_tonumber(L, -1);
    if (isnan(v))
        snprintf(val, sizeof val, "nan");
    else if (isinf(v))
        snprintf(val, sizeof val, "%sinf", v < 0 ? "-" : "");
    else
        snprintf(val, sizeof val, "%.17g", v);
    if (!isfinite(v))
        sb_bad_index(L, j, co, lane, val, "not a finite number; check the index expression");
    if (v != floor(v))
        sb_bad_index(L, j, co, lane, val,
                     "not an integer; an element index counts whole elements of the op's "
                     "'bytes' (round it with math.floor)");
    if (v < 0)
        sb_bad_index(L, j, co, lane, val,
                     "negative; element 0 is the first of the buffer; check the grid or the "
                     "index expression");
    snprintf(why, sizeof why, "past the end of %s; check the grid or the index expression",
             j->bound);
    sb_bad_index(L, j, co, lane, val, why);
}

/* The byte offset of the value at the top of the stack, which lane `lane`
   of the instance at co returned (popped); -1 for nil. Anything else than
   nil or an element index of the buffer is an error naming the thread. */
static int64_t sb_lane_offset(lua_State *L, sb_job_t *j, const double *co, uint32_t lane)
{
    double v;
    int type = lua_type(L, -1);
    if (type == LUA_TNIL) {
        lua_pop(L, 1);
        return -1;
    }
    if (type == LUA_TNUMBER) {
        v = (double)lua_tonumber(L, -1);
        if (isfinite(v) && v == floor(v) && v >= 0 && v < (double)j->elems) {
            lua_pop(L, 1);
            return (int64_t)v * (int64_t)j->op->access.elem_bytes;
        }
    }
    sb_bad_value(L, j, co, lane);
}

/* Evaluate every lane of the warp instance at co into out (ws byte
   offsets, -1 for a lane that does not access: nil, or past the block's
   threads), all lanes in one call of sb_lanes_src. The values are checked
   in lane order, so a wrong value is reported before a later lane's error,
   as when each lane ran on its own. */
static void sb_eval_warp(lua_State *L, sb_job_t *j, const double *co, int64_t *out)
{
    const gp_launch_t *ln = j->f->launch;
    gp_script_t *s = sb_script(L);
    uint64_t tid0 = (uint64_t)co[0] * j->ws;
    uint32_t n = 0, lane, failed;
    int depth = s->c_depth, status, nargs;
    if (tid0 < ln->threads_per_block)
        n = (uint32_t)GP_MIN((uint64_t)j->ws, ln->threads_per_block - tid0);
    for (lane = n; lane < j->ws; lane++)
        out[lane] = -1;
    if (n == 0)
        return;
    sb_set_instance(L, j, co);
    if (ln->block.x % j->ws == 0) { /* the warp lies in one row of the block */
        uint64_t y = tid0 / ln->block.x % ln->block.y, z = tid0 / (ln->block.x * ln->block.y);
        sb_tset(L, j, K_Y, (double)y);
        sb_tset(L, j, K_Z, (double)z);
        sb_tset(L, j, K_GY, co[2] * (double)ln->block.y + (double)y);
        sb_tset(L, j, K_GZ, co[3] * (double)ln->block.z + (double)z);
        lua_rawgeti(L, j->lanes, 1);
        lua_pushvalue(L, j->fn);
        lua_pushvalue(L, j->tbl);
        lua_pushvalue(L, j->out);
        lua_pushnumber(L, n);
        lua_pushnumber(L, (double)(tid0 % ln->block.x));
        lua_pushnumber(L, co[1] * (double)ln->block.x);
        nargs = 6;
    } else {
        lua_rawgeti(L, j->lanes, 2);
        lua_pushvalue(L, j->fn);
        lua_pushvalue(L, j->tbl);
        lua_pushvalue(L, j->out);
        lua_pushnumber(L, n);
        lua_pushnumber(L, (double)tid0);
        lua_pushnumber(L, co[1] * (double)ln->block.x);
        lua_pushnumber(L, ln->block.x);
        lua_pushnumber(L, co[2] * (double)ln->block.y);
        lua_pushnumber(L, ln->block.y);
        lua_pushnumber(L, co[3] * (double)ln->block.z);
        nargs = 10;
    }
    sb_enter(L);
    status = lua_pcall(L, nargs, 0, 0);
    s->c_depth = depth;
    failed = n;
    if (status != 0) {
        if (s->fatal)
            lua_error(L); /* the budget or the memory cap: as raised */
        lua_rawgeti(L, j->out, 0);
        failed = (uint32_t)lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (failed > n) /* not from a lane (cannot happen): the first */
            failed = 0;
    }
    for (lane = 0; lane < failed; lane++) {
        lua_rawgeti(L, j->out, (int)lane + 1);
        out[lane] = sb_lane_offset(L, j, co, lane);
    }
    if (status != 0) {
        char who[320], msg[600];
        sb_thread_desc(L, j, co, failed, who, sizeof who);
        gp_strlcpy(msg, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(no message)",
                   sizeof msg);
        lua_pushfstring(L, "%s: index function of %s failed for %s: %s", j->src, j->opname, who,
                        msg);
        lua_error(L);
    }
}

/* Evaluate every lane of sampled instance i into j->off. */
static void sb_eval_instance(lua_State *L, sb_job_t *j, uint32_t i)
{
    sb_eval_warp(L, j, j->coord[i], j->off + (size_t)i * j->ws);
}

/* Append instance co unless it is already there; returns its number. */
static int sb_add_instance(sb_job_t *j, const double *co)
{
    uint32_t i;
    for (i = 0; i < j->n_inst; i++)
        if (memcmp(j->coord[i], co, sizeof(double) * j->n_axes) == 0)
            return (int)i;
    memcpy(j->coord[j->n_inst], co, sizeof(double) * j->n_axes);
    return (int)j->n_inst++;
}

/* The sampled instances (see the top of the file). */
static void sb_plan(sb_job_t *j)
{
    double co[SB_MAX_AXES];
    uint32_t a, k;
    memset(co, 0, sizeof co);
    j->n_inst = 0;
    sb_add_instance(j, co);
    for (a = 0; a < j->n_axes; a++) {
        double pos[3];
        j->step[a] = -1;
        if (j->ext[a] <= 1)
            continue;
        pos[0] = 1;
        pos[1] = floor((j->ext[a] - 1) / 2);
        pos[2] = j->ext[a] - 1;
        for (k = 0; k < 3; k++) {
            int i;
            if (pos[k] <= 0)
                continue;
            co[a] = pos[k];
            i = sb_add_instance(j, co);
            if (k == 0)
                j->step[a] = i;
        }
        co[a] = 0;
    }
    for (a = 0; a < j->n_axes; a++)
        co[a] = floor((j->ext[a] - 1) / 2);
    sb_add_instance(j, co);
    for (a = 0; a < j->n_axes; a++)
        co[a] = j->ext[a] - 1;
    sb_add_instance(j, co);
    /* families: the origin (f = 0) and one step along each fixed axis
       (f = 1 + axis), each at the sampled iterations of every loop */
    for (k = 0; k <= SB_FIXED_AXES; k++) {
        uint32_t l;
        j->n_fam[k] = 0;
        if (k > 0 && j->step[k - 1] < 0)
            continue;
        memset(co, 0, sizeof co);
        if (k > 0)
            co[k - 1] = 1;
        j->fam[k][j->n_fam[k]++] = sb_add_instance(j, co);
        for (l = SB_FIXED_AXES; l < j->n_axes; l++) {
            double pos[3];
            uint32_t q;
            if (j->ext[l] <= 1)
                continue;
            pos[0] = 1;
            pos[1] = floor((j->ext[l] - 1) / 2);
            pos[2] = j->ext[l] - 1;
            for (q = 0; q < 3; q++) {
                int id;
                uint32_t m;
                if (pos[q] <= 0)
                    continue;
                co[l] = pos[q];
                id = sb_add_instance(j, co);
                for (m = 0; m < j->n_fam[k] && j->fam[k][m] != id; m++)
                    ;
                if (m == j->n_fam[k])
                    j->fam[k][j->n_fam[k]++] = id;
            }
            co[l] = 0;
        }
    }
}

/* Distinct bytes of instances a and b together (b < 0: a alone). */
static double sb_union(const sb_job_t *j, int a, int b, int64_t *tmp)
{
    size_t n = j->ws;
    memcpy(tmp, j->off + (size_t)a * j->ws, sizeof(int64_t) * j->ws);
    if (b >= 0) {
        memcpy(tmp + n, j->off + (size_t)b * j->ws, sizeof(int64_t) * j->ws);
        n += j->ws;
    }
    return sb_distinct(tmp, n, j->op->access.elem_bytes);
}

/* Distinct bytes of families f and g together (g < 0: f alone); tmp holds
   2 * SB_MAX_FAMILY warps. */
static double sb_union_fam(const sb_job_t *j, int f, int g, int64_t *tmp)
{
    size_t n = 0;
    uint32_t i;
    for (i = 0; i < j->n_fam[f]; i++, n += j->ws)
        memcpy(tmp + n, j->off + (size_t)j->fam[f][i] * j->ws, sizeof(int64_t) * j->ws);
    for (i = 0; g >= 0 && i < j->n_fam[g]; i++, n += j->ws)
        memcpy(tmp + n, j->off + (size_t)j->fam[g][i] * j->ws, sizeof(int64_t) * j->ws);
    return sb_distinct(tmp, n, j->op->access.elem_bytes);
}

/* Footprints from the sampled steps: warp, block, grid (bytes). */
static void sb_extrapolate(const sb_job_t *j, double fp[3], int64_t *ftmp)
{
    int64_t tmp[2 * SB_MAX_LANES];
    double base = sb_union(j, 0, -1, tmp), fw, fb, fg;
    uint32_t a, i;
    double factor[SB_MAX_AXES];
    if (base <= 0) { /* the origin warp does not access: the largest warp, all new */
        for (i = 0; i < j->n_inst; i++)
            base = GP_MAX(base, sb_union(j, (int)i, -1, tmp));
    }
    for (a = 0; a < j->n_axes; a++) {
        double r = 0, n = a >= SB_FIXED_AXES ? GP_MAX(j->trips[a], 1.0) : j->ext[a];
        if (a < SB_FIXED_AXES && j->step[a] >= 0) {
            /* the step's warp at the sampled iterations against the
               origin's: what the loops re-read across the step is not new */
            double alone = sb_union_fam(j, 1 + (int)a, -1, ftmp);
            double both = sb_union_fam(j, 0, 1 + (int)a, ftmp);
            double origin = sb_union_fam(j, 0, -1, ftmp);
            r = alone > 0 ? GP_MIN(1.0, (both - origin) / alone) : 0;
        } else if (j->step[a] >= 0) {
            double alone = sb_union(j, j->step[a], -1, tmp);
            double both = sb_union(j, 0, j->step[a], tmp);
            double origin = sb_union(j, 0, -1, tmp);
            r = alone > 0 ? GP_MIN(1.0, (both - origin) / alone) : 0;
        }
        factor[a] = 1 + (n - 1) * r;
    }
    fw = base;
    for (a = SB_FIXED_AXES; a < j->n_axes; a++)
        fw *= factor[a];
    fb = fw * factor[0];
    fg = fb * factor[1] * factor[2] * factor[3];
    fp[0] = fw;
    fp[1] = fb;
    fp[2] = fg;
}

/* The footprint window (see the top of the file): two positions along each
   axis that has more than one (the origin and one step), the warp axis
   whole when that fits (a block meets its neighbour as a whole: its last
   warps' reach overlaps the next block's first warps), then one more
   position at a time along the loops and the grid's axes in turn while the
   lanes stay within SB_WINDOW_GROW. No window (n_win = 0) when even two
   positions per axis do not fit. */
static void sb_plan_window(sb_job_t *j)
{
    double lanes = j->ws;
    uint32_t a, active = 0, order[SB_MAX_AXES], n_order = 0, q;
    int grew;
    j->n_win = 0;
    for (a = 0; a < j->n_axes; a++) {
        j->win[a] = j->ext[a] >= 2 ? 2 : 1;
        lanes *= j->win[a];
        active += j->win[a] > 1;
    }
    if (lanes > SB_WINDOW_LANES || active > SB_WINDOW_AXES)
        return;
    if (j->win[0] > 1 && lanes / 2 * j->ext[0] <= SB_WINDOW_LANES) {
        lanes = lanes / 2 * j->ext[0];
        j->win[0] = (uint32_t)j->ext[0];
    }
    for (a = SB_FIXED_AXES; a < j->n_axes; a++)
        order[n_order++] = a;
    for (a = 1; a < SB_FIXED_AXES; a++)
        order[n_order++] = a;
    do {
        grew = 0;
        for (q = 0; q < n_order; q++) {
            a = order[q];
            if (j->win[a] < 2 || (double)j->win[a] >= j->ext[a] ||
                lanes / j->win[a] * (j->win[a] + 1) > SB_WINDOW_GROW)
                continue;
            lanes = lanes / j->win[a] * (j->win[a] + 1);
            j->win[a]++;
            grew = 1;
        }
    } while (grew);
    j->n_win = (uint32_t)(lanes / j->ws);
}

/* Coordinates of window instance w. */
static void sb_window_coord(const sb_job_t *j, uint32_t w, double *co)
{
    uint32_t a;
    memset(co, 0, sizeof(double) * SB_MAX_AXES);
    for (a = 0; a < j->n_axes; a++) {
        co[a] = (double)(w % j->win[a]);
        w /= j->win[a];
    }
}

/* Evaluate the window into j->woff, re-using the sampled instances. */
static void sb_eval_window(lua_State *L, sb_job_t *j)
{
    double co[SB_MAX_AXES];
    uint32_t w, i;
    for (w = 0; w < j->n_win; w++) {
        int64_t *out = j->woff + (size_t)w * j->ws;
        sb_window_coord(j, w, co);
        for (i = 0; i < j->n_inst; i++)
            if (memcmp(j->coord[i], co, sizeof(double) * j->n_axes) == 0)
                break;
        if (i < j->n_inst)
            memcpy(out, j->off + (size_t)i * j->ws, sizeof(int64_t) * j->ws);
        else
            sb_eval_warp(L, j, co, out);
    }
}

static int sb_cmp_went(const void *a, const void *b)
{
    const sb_went_t *x = a, *y = b;
    return (x->off > y->off) - (x->off < y->off);
}

/* Distinct bytes of the window's lanes (sorted) whose instance's mask has
   every bit of need. */
static double sb_window_bytes(const sb_went_t *e, size_t n, const uint64_t *mask, uint64_t need,
                              uint32_t bytes)
{
    double total = 0;
    int64_t end = INT64_MIN;
    size_t i;
    for (i = 0; i < n; i++) {
        int64_t o = e[i].off;
        if ((mask[e[i].inst] & need) != need)
            continue;
        if (o >= end)
            total += bytes;
        else if (o + (int64_t)bytes > end)
            total += (double)(o + (int64_t)bytes - end);
        end = GP_MAX(end, o + (int64_t)bytes);
    }
    return total;
}

/* Footprint of level (0: warp 0 of block 0 over the loops; 1: block 0; 2:
   the grid) from the window: F(s), the distinct bytes of the box of s_a
   positions from the origin along each axis, extrapolated multilinearly
   from the two largest boxes of the window along each axis of the level
   (F(N) = F(w - 1) + (N - w + 1) (F(w) - F(w - 1)) along one axis, the
   product of those weights over several); never below the whole box's
   bytes, which the level touches. Mask bit 3q + c of an instance: its
   coordinate along the q-th axis of more than one position is below 1,
   w - 1, w for c = 0, 1, 2. Returns -1 when the fit shrinks along an
   axis on the way to its length (an index not affine along it). */
static double sb_window_level(const sb_job_t *j, const sb_went_t *e, size_t n,
                              const uint64_t *mask, int level)
{
    uint64_t need_bit[SB_WINDOW_AXES][2], full = 0;
    double weight[SB_WINDOW_AXES][2], est = 0, f[1u << SB_WINDOW_AXES];
    uint32_t n_cand[SB_WINDOW_AXES], a, q = 0, combo, n_combo = 1, stride;
    uint32_t bytes = j->op->access.elem_bytes;
    for (a = 0; a < j->n_axes; a++) {
        double target, t;
        int in_level = a >= SB_FIXED_AXES || level == 2 || (a == 0 && level == 1);
        if (j->win[a] < 2)
            continue;
        target = !in_level ? 1 : a >= SB_FIXED_AXES ? GP_MAX(j->trips[a], 1.0) : j->ext[a];
        n_cand[q] = 0;
        if (target <= 1) {
            need_bit[q][n_cand[q]] = 1ull << (3 * q);
            weight[q][n_cand[q]++] = 1;
        } else {
            t = target - (double)(j->win[a] - 1);
            if (t != 1) {
                need_bit[q][n_cand[q]] = 1ull << (3 * q + 1);
                weight[q][n_cand[q]++] = 1 - t;
            }
            if (t != 0) {
                need_bit[q][n_cand[q]] = 1ull << (3 * q + 2);
                weight[q][n_cand[q]++] = t;
            }
        }
        full |= 1ull << (3 * q + (target <= 1 ? 0 : 2));
        n_combo *= n_cand[q];
        q++;
    }
    for (combo = 0; combo < n_combo; combo++) {
        uint64_t need = 0;
        double w = 1;
        uint32_t r = combo, k;
        for (k = 0; k < q; k++) {
            need |= need_bit[k][r % n_cand[k]];
            w *= weight[k][r % n_cand[k]];
            r /= n_cand[k];
        }
        f[combo] = sb_window_bytes(e, n, mask, need, bytes);
        est += w * f[combo];
    }
    /* a footprint grows along every axis: a fit whose slope along an
       extrapolated axis is negative at the target is not to be trusted */
    for (a = 0, stride = 1; a < q; stride *= n_cand[a], a++) {
        double slope = 0;
        if (n_cand[a] < 2)
            continue;
        for (combo = 0; combo < n_combo; combo++) {
            double w = 1;
            uint32_t r = combo, k;
            for (k = 0; k < q; k++) {
                uint32_t c = r % n_cand[k];
                w *= k == a ? (c ? 1.0 : -1.0) : weight[k][c];
                r /= n_cand[k];
            }
            slope += w * f[combo];
        }
        if (slope < 0)
            return -1;
    }
    return GP_MAX(est, sb_window_bytes(e, n, mask, full, bytes));
}

/* Footprints from the window: warp, block, grid (bytes); the grid's at
   least the distinct bytes of the window and the sample together. 0 when
   a level's fit is not to be trusted (sb_window_level). */
static int sb_window_footprints(lua_State *L, const sb_job_t *j, double fp[3])
{
    size_t nl = (size_t)j->n_win * j->ws, ns = (size_t)j->n_inst * j->ws, n = 0, i;
    sb_went_t *e = malloc(nl * sizeof *e);
    uint64_t *mask = malloc(j->n_win * sizeof *mask);
    int64_t *all = malloc((nl + ns) * sizeof *all);
    double co[SB_MAX_AXES];
    uint32_t w, a, q;
    int level, ok;
    if (!e || !mask || !all) {
        free(e);
        free(mask);
        free(all);
        sb_error_oom(L);
    }
    for (w = 0; w < j->n_win; w++) {
        sb_window_coord(j, w, co);
        mask[w] = 0;
        for (a = 0, q = 0; a < j->n_axes; a++) {
            if (j->win[a] < 2)
                continue;
            if (co[a] < 1)
                mask[w] |= 1ull << (3 * q);
            if (co[a] < j->win[a] - 1)
                mask[w] |= 1ull << (3 * q + 1);
            mask[w] |= 1ull << (3 * q + 2);
            q++;
        }
        for (i = 0; i < j->ws; i++) {
            int64_t o = j->woff[(size_t)w * j->ws + i];
            if (o < 0)
                continue;
            e[n].off = o;
            e[n++].inst = w;
        }
    }
    if (n > 0) {
        sb_went_t *etmp = malloc(n * sizeof *etmp);
        if (etmp)
            sb_sort_went(e, n, etmp);
        else /* no room for the radix sort: sort in place */
            qsort(e, n, sizeof *e, sb_cmp_went);
        free(etmp);
    }
    for (level = 0, ok = 1; level < 3; level++)
        ok &= (fp[level] = sb_window_level(j, e, n, mask, level)) >= 0;
    memcpy(all, j->woff, nl * sizeof *all);
    memcpy(all + nl, j->off, ns * sizeof *all);
    fp[2] = GP_MAX(fp[2], sb_distinct(all, nl + ns, j->op->access.elem_bytes));
    free(e);
    free(mask);
    free(all);
    return ok;
}

/* Exact footprints of a small launch: every thread at every iteration. */
static void sb_exact(lua_State *L, sb_job_t *j, double fp[3])
{
    size_t cap = (size_t)j->total, nw = 0, nb = 0, ng = 0;
    int64_t *w = j->exact, *b, *g, warp[SB_MAX_LANES];
    double co[SB_MAX_AXES];
    uint32_t a, lane;
    b = w + cap;
    g = b + cap;
    memset(co, 0, sizeof co);
    for (;;) {
        int origin_block = co[1] == 0 && co[2] == 0 && co[3] == 0;
        sb_eval_warp(L, j, co, warp);
        for (lane = 0; lane < j->ws; lane++) {
            int64_t e = warp[lane];
            if (e < 0 || ng >= cap)
                continue;
            g[ng++] = e;
            if (origin_block) {
                b[nb++] = e;
                if (co[0] == 0)
                    w[nw++] = e;
            }
        }
        for (a = 0; a < j->n_axes; a++) { /* the next position, odometer-wise */
            if (++co[a] < j->ext[a])
                break;
            co[a] = 0;
        }
        if (a == j->n_axes)
            break;
    }
    fp[0] = sb_distinct(w, nw, j->op->access.elem_bytes);
    fp[1] = sb_distinct(b, nb, j->op->access.elem_bytes);
    fp[2] = sb_distinct(g, ng, j->op->access.elem_bytes);
}

/* The nearest pattern shorthand to the sample, for a model that reads the
   pattern fields only. */
static void sb_nearest_pattern(const sb_job_t *j, gp_access_t *a, double grid_fp)
{
    int64_t stride = 0, first = -1;
    int have = 0, regular = 1, same_everywhere = 1;
    uint32_t i, lane, first_lane = 0;
    int64_t m = 256 / a->elem_bytes, everywhere = -2;
    for (i = 0; i < j->n_inst && regular; i++) {
        const int64_t *o = j->off + (size_t)i * j->ws;
        int64_t prev = -1;
        uint32_t prev_lane = 0;
        for (lane = 0; lane < j->ws; lane++) {
            int64_t e;
            if (o[lane] < 0)
                continue;
            e = o[lane] / a->elem_bytes;
            if (everywhere == -2)
                everywhere = e;
            else if (e != everywhere)
                same_everywhere = 0;
            if (first < 0) {
                first = e;
                first_lane = lane;
            }
            if (prev >= 0) {
                int64_t d = e - prev, dl = (int64_t)(lane - prev_lane);
                if (d % dl != 0 || (have && d / dl != stride)) {
                    regular = 0;
                    break;
                }
                stride = d / dl;
                have = 1;
            }
            prev = e;
            prev_lane = lane;
        }
    }
    a->stride_elems = 1;
    a->offset_elems = 0;
    if (j->rs.random_used || !regular) {
        a->pattern = GP_PATTERN_RANDOM;
    } else if (have && stride == 0) {
        a->pattern = GP_PATTERN_BROADCAST;
    } else if (!have || stride == 1) {
        a->pattern = GP_PATTERN_UNIT;
    } else {
        a->pattern = GP_PATTERN_STRIDE;
        a->stride_elems = stride;
    }
    if (a->pattern != GP_PATTERN_RANDOM && first >= 0)
        a->offset_elems = (((first - (int64_t)first_lane * stride) % m) + m) % m;
    if (j->op->kind == GP_OP_ATOMIC)
        a->atomic_scope = same_everywhere && have    ? GP_ATOMIC_SAME
                          : a->pattern == GP_PATTERN_BROADCAST ? GP_ATOMIC_PER_WARP
                                                               : GP_ATOMIC_DISTINCT;
    if (j->op->space != GP_SPACE_SHARED)
        a->footprint_bytes = (uint64_t)GP_MAX((double)a->elem_bytes, grid_fp);
}

/* The widest range of byte offsets one active lane covers over the
   sampled iterations of the named loops: over each family (the origin
   warp, and its step along each fixed axis, at the sampled iterations of
   every loop; several, since a launch's first rows may be inactive at an
   image's border); 0 without named loops. */
static uint64_t sb_loop_span(const sb_job_t *j)
{
    uint64_t best = 0;
    uint32_t f, lane, m;
    for (f = 0; f <= SB_FIXED_AXES; f++)
        for (lane = 0; lane < j->ws; lane++) {
            int64_t lo = -1, hi = -1;
            for (m = 0; m < j->n_fam[f]; m++) {
                int64_t o = j->off[(size_t)j->fam[f][m] * j->ws + lane];
                if (o < 0)
                    continue;
                lo = lo < 0 ? o : GP_MIN(lo, o);
                hi = hi < 0 ? o : GP_MAX(hi, o);
            }
            if (lo >= 0 && (uint64_t)(hi - lo) > best)
                best = (uint64_t)(hi - lo);
        }
    return best;
}

/* Iterations of every loop around the op, named or not: each one runs the
   index function again (and draws its gpuperf.random again). */
static double sb_iterations(const sb_job_t *j)
{
    double n = 1;
    uint32_t i;
    for (i = 0; i < j->f->n_loops; i++)
        n *= GP_MAX(j->f->loops[i].trips, 1.0);
    return n;
}

/* Expected distinct values among d uniform draws from r values: the
   classical occupancy problem, r (1 - (1 - 1/r)^d) cells hit by d balls
   [sources: feller1968] ch. IV.2. */
static double sb_expected_distinct(double r, double d)
{
    if (!(r > 1) || !(d > 0))
        return GP_MIN(GP_MAX(r, 0.0), GP_MAX(d, 0.0));
    return r * -expm1(d * log1p(-1.0 / r));
}

/*
 * The distinct bytes of an index that draws gpuperf.random, over every
 * iteration of its loops: the sample holds one draw per lane and sampled
 * iteration, but each of the warp's (block's, grid's) active threads draws
 * again at every iteration, named loop or not, so a level with D draws from
 * the range's R elements touches R (1 - (1 - 1/R)^D) of them (at most the
 * bound: the buffer, or the range). Raises fp[] to that; the pointer chase
 * through a buffer (one thread, a loop of dependent random loads) then
 * covers the buffer, not one line.
 */
static void sb_drawn_footprints(const sb_job_t *j, double fp[3])
{
    const gp_launch_t *ln = j->f->launch;
    const gp_access_t *a = &j->op->access;
    double iters = sb_iterations(j), r = (double)(j->rs.hi - j->rs.lo + 1);
    double lim = GP_MIN((double)j->elems, r), active = 0, lanes[3];
    uint32_t lane, k;
    for (lane = 0; lane < j->ws; lane++) /* the origin warp's active lanes */
        active += j->off[lane] >= 0;
    if (!(active > 0))
        return;
    /* lanes of a full warp that draw, of the threads the block runs */
    lanes[0] = active;
    lanes[1] = (double)ln->threads_per_block * active /
               GP_MIN((double)j->ws, (double)ln->threads_per_block);
    lanes[2] = lanes[1] * (double)j->f->total_blocks;
    lanes[1] = GP_MAX(lanes[1], lanes[0]);
    lanes[2] = GP_MAX(lanes[2], lanes[1]);
    for (k = 0; k < 3; k++) {
        double e = GP_MIN(sb_expected_distinct(r, lanes[k] * iters), lim);
        fp[k] = GP_MAX(fp[k], e * a->elem_bytes);
    }
}

/*
 * 1 when the sampled offsets are affine along axis a: for each lane, the
 * middle and last positions along it (the other axes at the origin) lie on
 * the line through the origin and the step. An index that folds (`%
 * lines`, a wrap into a smaller buffer) or clamps along it is not.
 */
static int sb_axis_affine(const sb_job_t *j, uint32_t a)
{
    uint32_t i, lane, b;
    int step = j->step[a];
    if (step < 0)
        return 1;
    for (i = 1; i < j->n_inst; i++) {
        double at = j->coord[i][a];
        for (b = 0; b < j->n_axes && (b == a || j->coord[i][b] == 0); b++)
            ;
        if (b < j->n_axes || !(at > 1))
            continue;
        for (lane = 0; lane < j->ws; lane++) {
            int64_t o0 = j->off[lane], o1 = j->off[(size_t)step * j->ws + lane];
            int64_t oi = j->off[(size_t)i * j->ws + lane];
            if (o0 >= 0 && o1 >= 0 && oi >= 0 && (double)(oi - o0) != at * (double)(o1 - o0))
                return 0;
        }
    }
    return 1;
}

/* Positions a folded axis is evaluated at for its range (sb_folded_span). */
#define SB_FOLD_POSITIONS 64

/*
 * The period, in steps along axis a, of an index that folds along a alone
 * over a range of `span` bytes: one step moves the origin warp by d bytes,
 * lane by lane alike, and after P = span / d steps the warp is back where
 * it began (x[(j * 32) & mask]: 128 bytes a step, 128 steps round a 16 KiB
 * mask). 0 where the steps do not come back within the axis (j * 33 & mask
 * visits every element in turn), move unevenly, or the axis is short.
 */
static double sb_fold_period(lua_State *L, sb_job_t *j, uint32_t a, double span)
{
    int64_t w0[SB_MAX_LANES], w1[SB_MAX_LANES];
    double co[SB_MAX_AXES], per, last;
    int64_t d = -1;
    uint32_t lane;
    if (j->ws > SB_MAX_LANES || !(j->ext[a] > 2) || !(span > 0))
        return 0;
    memset(co, 0, sizeof co);
    sb_eval_warp(L, j, co, w0);
    co[a] = 1;
    sb_eval_warp(L, j, co, w1);
    for (lane = 0; lane < j->ws; lane++) {
        int64_t m;
        if ((w0[lane] < 0) != (w1[lane] < 0))
            return 0;
        if (w0[lane] < 0)
            continue;
        m = w1[lane] - w0[lane];
        if (m <= 0 || (d >= 0 && m != d))
            return 0;
        d = m;
    }
    if (d <= 0)
        return 0;
    /* the sampled extremes may fall a step short of the range's ends */
    last = ceil(span / (double)d) + 1;
    for (per = GP_MAX(2.0, floor(span / (double)d)); per <= last && per < j->ext[a]; per++) {
        co[a] = per;
        sb_eval_warp(L, j, co, w1);
        if (memcmp(w1, w0, j->ws * sizeof *w0) == 0)
            return per;
    }
    return 0;
}

/*
 * The range (lowest offset to the end of the highest) that an index reaches
 * where it folds along some axis (not sb_axis_affine); 0 when it is affine
 * along every axis (the extrapolation is exact) or no lane accesses. Besides
 * the sample and the window, the origin warp is evaluated at
 * SB_FOLD_POSITIONS positions along each folded axis, spread by the golden
 * ratio (a low-discrepancy sequence, so that no period of the fold aliases
 * them): the wrapped values then spread over the folded range. Where one
 * axis alone folds, `*axis` is it and `*period` its sb_fold_period (0:
 * none, or several folded axes).
 */
static double sb_folded_span(lua_State *L, sb_job_t *j, uint32_t *axis, double *period)
{
    size_t n = (size_t)j->n_inst * j->ws, i;
    int64_t lo = -1, hi = -1, warp[SB_MAX_LANES];
    double co[SB_MAX_AXES];
    uint32_t a, k, lane, fa = 0;
    int folded = 0;
    *period = 0;
    for (a = 0; a < j->n_axes; a++) {
        if (sb_axis_affine(j, a))
            continue;
        folded++;
        fa = a;
        memset(co, 0, sizeof co);
        for (k = 0; k < SB_FOLD_POSITIONS && k < j->ext[a]; k++) {
            double f = (double)k * 0.6180339887498949;
            co[a] = floor((f - floor(f)) * j->ext[a]);
            sb_eval_warp(L, j, co, warp);
            for (lane = 0; lane < j->ws; lane++)
                if (warp[lane] >= 0) {
                    lo = lo < 0 ? warp[lane] : GP_MIN(lo, warp[lane]);
                    hi = hi < 0 ? warp[lane] : GP_MAX(hi, warp[lane]);
                }
        }
    }
    if (!folded)
        return 0;
    for (i = 0; i < n + (size_t)j->n_win * j->ws; i++) {
        int64_t o = i < n ? j->off[i] : j->woff[i - n];
        if (o < 0)
            continue;
        lo = lo < 0 ? o : GP_MIN(lo, o);
        hi = hi < 0 ? o : GP_MAX(hi, o);
    }
    if (lo < 0)
        return 0;
    if (folded == 1) {
        *axis = fa;
        *period = sb_fold_period(L, j, fa, (double)(hi - lo) + j->op->access.elem_bytes);
    }
    return (double)(hi - lo) + j->op->access.elem_bytes;
}

/*
 * Where the indices of a function that draws gpuperf.random land: the
 * origin warp evaluated with every draw at its lo and again at the middle
 * of its range gives the bytes they spread over (the widest lane's move,
 * scaled to the whole range: a chase through nodes of 32 words,
 * `gpuperf.random(0, n - 1) * 32`, spreads its n draws over 32 n words),
 * at most the buffer; evaluated with lane l drawing lo + l, the share of
 * distinct indices among consecutive draws (`r - r % 16` names one node per
 * 16 draws). *span 0 where the draws do not move the index.
 */
static void sb_drawn_span(lua_State *L, sb_job_t *j, double *span, double *distinct)
{
    int64_t at[3][SB_MAX_LANES], v[SB_MAX_LANES];
    double move = 0, half = (double)((j->rs.hi - j->rs.lo) / 2), n = 0;
    uint32_t lane, k;
    *span = 0;
    *distinct = 1;
    if (j->ws > SB_MAX_LANES)
        return;
    for (k = 0; k < 2; k++) {
        j->rs.force = (int)k + 1;
        sb_eval_warp(L, j, j->coord[0], at[k]);
    }
    /* consecutive draws until a warp's worth of indices (a guard that
       leaves one lane active takes one a call) */
    j->rs.force = 3;
    j->rs.next = 0;
    for (k = 0; k < SB_MAX_LANES && n < j->ws; k++) {
        sb_eval_warp(L, j, j->coord[0], at[2]);
        for (lane = 0; lane < j->ws && n < j->ws; lane++)
            if (at[2][lane] >= 0)
                v[(size_t)n++] = at[2][lane];
        if (j->rs.next == 0) /* no draw: nothing to learn */
            break;
    }
    j->rs.force = 0;
    for (lane = 0; lane < j->ws; lane++)
        if (at[0][lane] >= 0 && at[1][lane] >= 0)
            move = GP_MAX(move, fabs((double)(at[1][lane] - at[0][lane])));
    if (half > 0)
        *span = GP_MIN(move / half * (double)(j->rs.hi - j->rs.lo + 1),
                       (double)j->elems * j->op->access.elem_bytes);
    if (n > 1) {
        double d = 0;
        qsort(v, (size_t)n, sizeof *v, gp_cmp_i64);
        for (k = 0; k < (uint32_t)n; k++)
            d += k == 0 || v[k] != v[k - 1];
        *distinct = d / n;
    }
}

/* Store the sample in the workload; returns it. */
static gp_lane_sample_t *sb_keep_sample(lua_State *L, const sb_job_t *j, const double fp[3],
                                        double span, double distinct)
{
    sb_eval_t *ev = sb_script(L)->ev;
    size_t n = (size_t)j->n_inst * j->ws, bytes = sizeof(gp_lane_sample_t) + n * sizeof(int64_t);
    gp_lane_sample_t *smp;
    sb_grow(L, (void **)&ev->wl.samples, &ev->cap_samples, ev->wl.n_samples,
            sizeof *ev->wl.samples, GP_SCRIPT_MAX_CMDS, "sampled index functions");
    sb_account(L, (int64_t)bytes);
    smp = malloc(bytes);
    if (!smp)
        sb_error_oom(L);
    memset(smp, 0, sizeof *smp);
    memcpy(smp + 1, j->off, n * sizeof(int64_t));
    smp->byte_offset = (const int64_t *)(smp + 1);
    smp->n_warps = j->n_inst;
    smp->lanes = j->ws;
    smp->warp_footprint_bytes = (uint64_t)fp[0];
    smp->block_footprint_bytes = (uint64_t)fp[1];
    smp->grid_footprint_bytes = (uint64_t)fp[2];
    /* the origin warp one iteration on along the innermost named loop (the
       last axis: loops nest outward in), for the cache model's re-use */
    if (j->n_axes > SB_FIXED_AXES && j->step[j->n_axes - 1] > 0)
        smp->next_iteration = (uint32_t)j->step[j->n_axes - 1];
    /* the origin's next warp of its block (axis 0) */
    if (j->step[0] > 0)
        smp->next_warp = (uint32_t)j->step[0];
    smp->loop_span_bytes = sb_loop_span(j);
    smp->issuing = j->issuing;
    smp->drawn = j->rs.random_used != 0;
    if (smp->drawn)
        smp->drawn_range_bytes =
            (uint64_t)GP_MIN((double)j->elems, (double)(j->rs.hi - j->rs.lo + 1)) *
            j->op->access.elem_bytes;
    smp->drawn_span_bytes = smp->drawn ? (uint64_t)span : 0;
    smp->drawn_distinct = smp->drawn ? distinct : 0;
    ev->wl.samples[ev->wl.n_samples++] = smp;
    return smp;
}

/*
 * The share of the launch's warps that have an active lane. The sampled
 * instances stand mostly at warp 0 of their blocks (the origin, the steps
 * along the block axes, the loops' families), so where a sampled warp has no
 * active lane (a guard such as `if (threadIdx.x == 0)`) their share would
 * count warp 0 several times over: instead every warp of the block is
 * evaluated at each distinct position of the other axes the sample holds
 * (at most SB_ISSUING_REST of them), and the shares averaged. 1 where every
 * sampled warp has an active lane.
 */
#define SB_ISSUING_REST 16
static double sb_issuing(lua_State *L, sb_job_t *j)
{
    double rest[SB_ISSUING_REST][SB_MAX_AXES], co[SB_MAX_AXES], sum = 0;
    int64_t lanes[SB_MAX_LANES];
    uint32_t i, k, n_rest = 0, idle = 0, w, warps;
    double wblock = GP_MAX(1.0, j->ext[0]); /* warps of a block, any size asked */
    for (i = 0; i < j->n_inst; i++) {
        const int64_t *o = j->off + (size_t)i * j->ws;
        for (k = 0; k < j->ws && o[k] < 0; k++)
            ;
        idle += k == j->ws;
    }
    if (idle == 0)
        return 1;
    /* a block of more than 2048 threads (one the launch refuses later: the
       sample runs first): the sample's share; compared before the cast, which
       a block of 2^60 threads would overflow */
    if (wblock > 64)
        return (double)(j->n_inst - idle) / j->n_inst;
    warps = (uint32_t)wblock;
    for (i = 0; i < j->n_inst && n_rest < SB_ISSUING_REST; i++) {
        memcpy(co, j->coord[i], sizeof(double) * j->n_axes);
        co[0] = 0;
        for (k = 0; k < n_rest && memcmp(rest[k], co, sizeof(double) * j->n_axes) != 0; k++)
            ;
        if (k == n_rest)
            memcpy(rest[n_rest++], co, sizeof(double) * j->n_axes);
    }
    for (k = 0; k < n_rest; k++) {
        uint32_t active = 0;
        memcpy(co, rest[k], sizeof(double) * j->n_axes);
        for (w = 0; w < warps; w++) {
            uint32_t l;
            co[0] = w;
            sb_eval_warp(L, j, co, lanes);
            for (l = 0; l < j->ws && lanes[l] < 0; l++)
                ;
            active += l < j->ws;
        }
        sum += (double)active / warps;
    }
    return sum / n_rest;
}

/* Protected body of a sampling: the job is light user data 1. */
static int sb_sample_run(lua_State *L)
{
    sb_job_t *j = lua_touserdata(L, 1);
    const gp_launch_t *ln = j->f->launch;
    gp_access_t *a = &j->op->access;
    double fp[3], iters = 1, cap[3], fit[3], lim;
    uint32_t i, k;
    for (k = SB_FIXED_AXES; k < j->n_axes; k++) /* the counters' names: 3, 4, ... */
        j->var[k] = 3 + (int)(k - SB_FIXED_AXES);
    lua_pushvalue(L, 2); /* the function */
    j->fn = lua_gettop(L);
    lua_createtable(L, 0, K_COUNT + j->f->n_loops);
    j->tbl = lua_gettop(L);
    luaL_checkstack(L, K_COUNT + 20, "index function"); /* keys, sb_eval_warp's call */
    j->keys = lua_gettop(L) + 1;
    for (k = 0; k < K_COUNT; k++)
        lua_pushstring(L, sb_keys[k]);
    /* the thread fields in the order they are first set (the table's
       layout, and so the order of pairs(t), as when lanes were set from C) */
    for (k = 0; k < K_COUNT + (j->n_axes - SB_FIXED_AXES); k++) {
        static const int first[] = {K_WARP, K_BX, K_BY, K_BZ};
        static const int then[] = {K_X, K_Y, K_Z, K_LANE, K_GX, K_GY, K_GZ};
        uint32_t nl = j->n_axes - SB_FIXED_AXES;
        if (k < 4)
            lua_pushvalue(L, j->keys + first[k]);
        else if (k < 4 + nl)
            lua_pushvalue(L, j->var[SB_FIXED_AXES + k - 4]);
        else
            lua_pushvalue(L, j->keys + then[k - 4 - nl]);
        lua_pushnumber(L, 0);
        lua_rawset(L, j->tbl);
    }
    sb_push_lanes(L);
    j->lanes = lua_gettop(L);
    lua_createtable(L, (int)j->ws + 1, 0);
    j->out = lua_gettop(L);
    if (j->expect) { /* a cached sample: does the first warp still agree? */
        sb_eval_instance(L, j, 0);
        j->matches = memcmp(j->off, j->expect, j->ws * sizeof(int64_t)) == 0;
        return 0;
    }
    for (i = 0; i < j->n_inst; i++)
        sb_eval_instance(L, j, i);
    if (j->exact) {
        sb_exact(L, j, fp);
    } else {
        if (j->n_win)
            sb_eval_window(L, j);
        if (!j->n_win || !sb_window_footprints(L, j, fp)) {
            int64_t *ftmp = malloc(2 * SB_MAX_FAMILY * (size_t)j->ws * sizeof(int64_t));
            if (!ftmp)
                sb_error_oom(L);
            sb_extrapolate(j, fp, ftmp);
            free(ftmp);
        }
        /* at most the bytes accessed, the bound, and the random range */
        iters = 1;
        for (k = SB_FIXED_AXES; k < j->n_axes; k++)
            iters *= GP_MAX(j->trips[k], 1.0);
        cap[0] = (double)j->ws * a->elem_bytes * iters;
        cap[1] = (double)ln->threads_per_block * a->elem_bytes * iters;
        cap[2] = cap[1] * (double)j->f->total_blocks;
        lim = (double)j->elems * a->elem_bytes;
        if (j->rs.random_used)
            lim = GP_MIN(lim, (double)(j->rs.hi - j->rs.lo + 1) * a->elem_bytes);
        for (k = 0; k < 3; k++) /* within the bytes accessed (the fold's period below) */
            fit[k] = GP_MIN(fp[k], cap[k]);
        fp[0] = GP_MIN(fit[0], lim);
        fp[1] = GP_MAX(fp[0], GP_MIN(fit[1], lim));
        fp[2] = GP_MAX(fp[1], GP_MIN(fit[2], lim));
        if (!j->rs.random_used &&
            (j->op->kind == GP_OP_LOAD || j->op->kind == GP_OP_ASYNC_COPY)) {
            /* a folded read touches at most the range its lanes reach:
               the extrapolation counts each wrap as new bytes; where it
               counts more than twice the range, the range stands (a
               single wrap keeps the count, which the sampled extremes
               may undercut a little; reads only: the atomics' bins keep
               their own rules) */
            uint32_t fa = 0;
            double per = 0, span = sb_folded_span(L, j, &fa, &per);
            for (k = 0; k < 3 && span > 0; k++)
                if (span < fp[k] / 2)
                    fp[k] = span;
            /* a fold that comes back after `per` steps along its axis
               reads per / ext of what the extrapolation counted along it,
               in the footprints that span the axis (a loop's: all three;
               the warps': the block's and the grid's; the blocks': the
               grid's) */
            double n = fa >= SB_FIXED_AXES ? GP_MAX(j->trips[fa], 1.0) : j->ext[fa];
            for (k = fa >= SB_FIXED_AXES ? 0 : fa == 0 ? 1 : 2; k < 3 && per > 0 && per < n; k++)
                fp[k] = GP_MIN(fp[k], GP_MAX((double)a->elem_bytes, fit[k] * per / n));
        }
    }
    if (j->rs.random_used)
        sb_drawn_footprints(j, fp);
    sb_nearest_pattern(j, a, fp[2]);
    j->issuing = sb_issuing(L, j);
    {
        double span = 0, distinct = 0;
        if (j->rs.random_used)
            sb_drawn_span(L, j, &span, &distinct);
        a->sample = sb_keep_sample(L, j, fp, span, distinct);
    }
    return 0;
}

/* The bound of an op's indices: elements and a text for messages. */
static void sb_bound(const sb_ctx_t *c, sb_job_t *j)
{
    sb_eval_t *ev = sb_script(c->L)->ev;
    const gp_access_t *a = &j->op->access;
    const gp_launch_t *ln = j->f->launch;
    uint64_t smem = ln->static_smem_bytes + ln->dynamic_smem_bytes;
    const char *tag = sb_op_tag(j->op);
    if (a->buffer != UINT32_MAX) {
        const gp_buffer_t *b = &ev->wl.buffers[a->buffer];
        j->elems = b->bytes / a->elem_bytes;
        snprintf(j->opname, sizeof j->opname, "%s '%s'", tag, b->name);
        snprintf(j->bound, sizeof j->bound, "buffer %s (%llu elements of %u bytes)", b->name,
                 (unsigned long long)j->elems, a->elem_bytes);
        return;
    }
    snprintf(j->opname, sizeof j->opname, "%s%s", j->op->space == GP_SPACE_SHARED ? "shared_"
                                                   : j->op->space == GP_SPACE_LOCAL ? "local_"
                                                                                    : "",
             tag);
    if (j->op->space == GP_SPACE_SHARED) {
        if (!smem)
            sb_fail(c, "a shared-memory %s with an index function needs the launch's shared "
                       "memory ('smem' or 'dynamic_smem') to check its indices against",
                    tag);
        j->elems = smem / a->elem_bytes;
        snprintf(j->bound, sizeof j->bound,
                 "the block's shared memory (%llu elements of %u bytes)",
                 (unsigned long long)j->elems, a->elem_bytes);
    } else if (a->footprint_bytes) {
        j->elems = a->footprint_bytes / a->elem_bytes;
        snprintf(j->bound, sizeof j->bound, "its footprint (%llu elements of %u bytes)",
                 (unsigned long long)j->elems, a->elem_bytes);
    } else {
        j->elems = (uint64_t)GP_SCRIPT_MAX_ELEMS;
        snprintf(j->bound, sizeof j->bound, "the largest index gpuperf accepts (2^48)");
    }
}

/* ----------------------------------------------------------------- cache */

/* Fingerprint the upvalues of the function at fn into e; 0 if it has too
   many to keep. */
static int sb_fingerprint(lua_State *L, int fn, sb_index_cache_t *e)
{
    int i;
    const char *name;
    memset(e->up_type, 0, sizeof e->up_type);
    memset(e->up_num, 0, sizeof e->up_num);
    memset(e->up_ptr, 0, sizeof e->up_ptr);
    for (i = 0; (name = lua_getupvalue(L, fn, i + 1)) != NULL; i++) {
        if (i >= SB_CACHE_UPVALUES) {
            lua_pop(L, 1);
            return 0;
        }
        e->up_type[i] = lua_type(L, -1);
        if (e->up_type[i] == LUA_TNUMBER)
            e->up_num[i] = (double)lua_tonumber(L, -1);
        else if (e->up_type[i] == LUA_TBOOLEAN)
            e->up_num[i] = lua_toboolean(L, -1);
        else
            e->up_ptr[i] = lua_topointer(L, -1);
        lua_pop(L, 1);
    }
    e->n_up = i;
    return 1;
}

/* The cache key of this sampling into e. */
static int sb_cache_key(lua_State *L, const sb_job_t *j, int t, int fn, sb_index_cache_t *e)
{
    const gp_launch_t *ln = j->f->launch;
    uint32_t k;
    memset(e, 0, sizeof *e);
    e->table = lua_topointer(L, t);
    e->fn = lua_topointer(L, fn);
    e->grid = ln->grid;
    e->block = ln->block;
    e->smem = ln->static_smem_bytes + ln->dynamic_smem_bytes;
    for (k = SB_FIXED_AXES; k < j->n_axes; k++)
        e->trips[e->n_named++] = j->trips[k];
    e->iterations = sb_iterations(j);
    return sb_fingerprint(L, fn, e);
}

static int sb_cache_same(const sb_index_cache_t *a, const sb_index_cache_t *b)
{
    return a->table == b->table && a->fn == b->fn && a->smem == b->smem &&
           memcmp(&a->grid, &b->grid, sizeof a->grid) == 0 &&
           memcmp(&a->block, &b->block, sizeof a->block) == 0 && a->n_named == b->n_named &&
           memcmp(a->trips, b->trips, sizeof(double) * a->n_named) == 0 &&
           a->iterations == b->iterations && a->n_up == b->n_up &&
           memcmp(a->up_type, b->up_type, sizeof a->up_type) == 0 &&
           memcmp(a->up_num, b->up_num, sizeof a->up_num) == 0 &&
           memcmp(a->up_ptr, b->up_ptr, sizeof a->up_ptr) == 0;
}

/* Registry key of the table that keeps cached op tables and functions
   alive (so that their addresses stay theirs) for one evaluation. */
static const char sb_key_icache = 0;

/* Remember e (its op table at t, function at fn). */
static void sb_cache_put(lua_State *L, int t, int fn, const sb_index_cache_t *e)
{
    sb_eval_t *ev = sb_script(L)->ev;
    if (ev->n_icache >= SB_CACHE_MAX)
        return;
    sb_grow(L, (void **)&ev->icache, &ev->cap_icache, ev->n_icache, sizeof *ev->icache,
            SB_CACHE_MAX, "cached samples");
    lua_pushlightuserdata(L, (void *)&sb_key_icache);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushlightuserdata(L, (void *)&sb_key_icache);
        lua_pushvalue(L, -2);
        lua_rawset(L, LUA_REGISTRYINDEX);
    }
    lua_pushvalue(L, t);
    lua_pushvalue(L, fn);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    ev->icache[ev->n_icache++] = *e;
}

void sb_index_forget(lua_State *L)
{
    sb_eval_t *ev = sb_script(L)->ev;
    lua_pushlightuserdata(L, (void *)&sb_key_icache);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (!lua_isnil(L, -1)) { /* (nil under an absent key may allocate) */
        lua_pushlightuserdata(L, (void *)&sb_key_icache);
        lua_pushnil(L);
        lua_rawset(L, LUA_REGISTRYINDEX);
    }
    lua_pop(L, 1);
    if (ev) {
        free(ev->icache);
        ev->icache = NULL;
        ev->n_icache = ev->cap_icache = 0;
    }
}

/* ---------------------------------------------------------------- bounds */

/* A pattern access of a launch must stay inside its buffer: the threads of
   the grid, at the pattern's stride, may pass its end only by the blocks a
   grid rounded up to whole blocks has in excess (the last block along each
   dimension). */
static void sb_pattern_bounds(const sb_ctx_t *c, const sb_flat_t *f, const gp_op_t *op)
{
    sb_eval_t *ev = sb_script(c->L)->ev;
    const gp_access_t *a = &op->access;
    const gp_launch_t *ln = f->launch;
    const gp_buffer_t *b;
    double elems, slack = 0, threads, reach, last;
    if (a->buffer == UINT32_MAX || a->pattern == GP_PATTERN_RANDOM)
        return;
    b = &ev->wl.buffers[a->buffer];
    elems = floor((double)b->bytes / a->elem_bytes);
    if (a->pattern == GP_PATTERN_BROADCAST) {
        if ((double)a->offset_elems >= elems)
            sb_fail(c, "the %s at line %u: 'offset' = %lld is past the end of buffer %s "
                       "(%.0f elements of %u bytes)",
                    sb_op_tag(op), op->line, (long long)a->offset_elems, b->name, elems,
                    a->elem_bytes);
        return;
    }
    /* a stride describes the threads of a warp, not how the grid's threads
       cover the buffer (a transpose's column walk wraps around); a count
       below 1 says only some threads access */
    if (a->pattern != GP_PATTERN_UNIT || op->count < 1)
        return;
    if (ln->grid.x > 1)
        slack += (double)f->total_blocks / (double)ln->grid.x;
    if (ln->grid.y > 1)
        slack += (double)f->total_blocks / (double)ln->grid.y;
    if (ln->grid.z > 1)
        slack += (double)f->total_blocks / (double)ln->grid.z;
    slack = GP_MAX(slack, 1.0);
    threads = (double)ln->threads_per_block * (double)f->total_blocks;
    reach = threads - slack * (double)ln->threads_per_block + 1; /* threads that must fit */
    if (reach < 1)
        return;
    last = (double)a->offset_elems + (reach - 1) * (double)a->stride_elems;
    if (last < elems)
        return;
    sb_fail(c, "the %s at line %u: the grid's %.0f threads, one element each (pattern "
               "\"unit\"), reach element %.0f: past "
               "the end of buffer %s (%.0f elements of %u bytes); check the grid, or describe "
               "the addresses with 'footprint' or an index function",
            sb_op_tag(op), op->line, threads, last, b->name, elems, a->elem_bytes);
}

/* ------------------------------------------------------------------ entry */

void sb_index_launch_op(const sb_ctx_t *c, sb_flat_t *f, int t, gp_op_t *op)
{
    lua_State *L = c->L;
    gp_script_t *s = sb_script(L);
    sb_eval_t *ev = s->ev;
    const gp_device_t *dev = ev->dev;
    sb_index_cache_t key;
    sb_job_t *j;
    lua_Debug ar;
    uint32_t k, i;
    int fn, status, cacheable, hit, stale = -1, vars[SB_MAX_AXES];
    size_t bytes;
    if (!t) { /* no index function */
        if (op->kind != GP_OP_ATOMIC)
            sb_pattern_bounds(c, f, op);
        return;
    }
    lua_getfield(L, t, "index");
    fn = lua_gettop(L);
    /* the job is Lua memory (charged to the cap, collected whatever error
       comes), kept on the stack until the end */
    j = lua_newuserdata(L, sizeof *j);
    /* all but the instances' coordinates (160 KiB; an instance's are
       written by sb_add_instance before they are read) */
    memset(j, 0, offsetof(sb_job_t, coord));
    memset((char *)j + offsetof(sb_job_t, coord) + sizeof j->coord, 0,
           sizeof *j - offsetof(sb_job_t, coord) - sizeof j->coord);
    j->c = c;
    j->f = f;
    j->op = op;
    j->ws = dev && dev->warp_size >= 1 && dev->warp_size <= SB_MAX_LANES ? dev->warp_size : 32;
    j->ext[0] = ceil((double)f->launch->threads_per_block / j->ws);
    j->ext[1] = (double)f->launch->grid.x;
    j->ext[2] = (double)f->launch->grid.y;
    j->ext[3] = (double)f->launch->grid.z;
    j->n_axes = SB_FIXED_AXES;
    for (k = 0; k < f->n_loops; k++) {
        if (!f->loops[k].var)
            continue;
        vars[j->n_axes] = f->loops[k].var;
        j->trips[j->n_axes] = f->loops[k].trips;
        j->ext[j->n_axes] = GP_MAX(1.0, ceil(f->loops[k].trips));
        j->n_axes++;
    }
    /* the draws of gpuperf.random: from the op's place among the kernel's
       ops, each op its own (the L loads a Lua loop of the script builds at
       one line draw apart, not as L copies of one), and not from its
       source line, so that an edit above it (a comment) draws the same */
    j->rs.rng = 0x6770757065726600ull ^
                (f->ops && op >= f->ops ? (uint64_t)(op - f->ops) * 0x9e3779b97f4a7c15ull : 0);
    /* ops that share a `draws` name draw alike, call for call */
    if (op->draw_group)
        j->rs.rng = 0x6472617773000000ull ^ op->draw_group;
    lua_pushvalue(L, fn);
    lua_getinfo(L, ">S", &ar);
    snprintf(j->src, sizeof j->src, "%s:%d", ar.short_src, ar.linedefined);
    sb_bound(c, j);

    sb_plan(j);
    for (k = SB_FIXED_AXES, j->total = 1; k < j->n_axes; k++)
        j->total *= j->ext[k];
    j->total *= (double)f->launch->threads_per_block * (double)f->total_blocks;
    if (j->total > SB_EXACT_MAX)
        sb_plan_window(j);
    bytes = ((size_t)j->n_inst + j->n_win) * j->ws * sizeof(int64_t);
    if (j->total <= SB_EXACT_MAX)
        bytes += 3 * (size_t)j->total * sizeof(int64_t);
    sb_account(L, (int64_t)bytes);
    j->off = malloc(bytes);
    if (!j->off) {
        sb_error_oom(L);
    }
    j->woff = j->off + (size_t)j->n_inst * j->ws;
    if (j->total <= SB_EXACT_MAX)
        j->exact = j->woff;

    /* a sample of the same op, shape and upvalues is re-used when the first
       warp still gives the same offsets */
    cacheable = sb_cache_key(L, j, t, fn, &key);
    for (i = 0; cacheable && i < ev->n_icache; i++)
        if (sb_cache_same(&ev->icache[i], &key)) {
            j->expect = ev->icache[i].access.sample->byte_offset;
            break;
        }
    hit = cacheable && i < ev->n_icache ? (int)i : -1;

    /* the sampling runs protected, so that ev->sampling is cleared (and the
       job freed) on any error before it goes on */
    for (;;) {
        uint64_t seed = j->rs.rng;
        ev->sampling = &j->rs;
        luaL_checkstack(L, (int)j->n_axes + 4, "index function");
        lua_pushcfunction(L, sb_sample_run);
        lua_pushlightuserdata(L, j);
        lua_pushvalue(L, fn);
        for (k = SB_FIXED_AXES; k < j->n_axes; k++)
            lua_pushvalue(L, vars[k]);
        status = lua_pcall(L, 2 + (int)(j->n_axes - SB_FIXED_AXES), 0, 0);
        ev->sampling = NULL;
        if (status != 0 || !j->expect)
            break;
        if (j->matches) {
            op->access = ev->icache[hit].access;
            break;
        }
        j->expect = NULL; /* changed: sample it afresh, and keep that */
        stale = hit;
        hit = -1;
        memset(&j->rs, 0, sizeof j->rs);
        j->rs.rng = seed;
    }
    sb_account(L, -(int64_t)bytes);
    free(j->off);
    if (status != 0) {
        if (status == LUA_ERRMEM && !s->fatal)
            sb_error_memory(L);
        lua_error(L);
    }
    if (op->draw_group && !(op->access.sample && op->access.sample->drawn))
        sb_fail(c, "the %s at line %u: 'draws' names the draws of its index function, which "
                   "draws nothing; call gpuperf.random(lo, hi) in it, or drop 'draws'",
                sb_op_tag(op), op->line);
    if (cacheable && stale >= 0) {
        key.access = op->access;
        ev->icache[stale] = key;
    } else if (cacheable && hit < 0) {
        key.access = op->access;
        sb_cache_put(L, t, fn, &key);
    }
    lua_pop(L, 2); /* the function and the job */
}
