/*
 * script_internal.h - what the script_*.c files share; not a public API.
 *
 * script.c          the state: allocator (memory cap), count hook
 *                   (instruction budget), message handler, open/eval/close
 * script_sandbox.c  the environment a script sees: safe base functions,
 *                   guarded string/table functions, require
 * script_check.c    reading and checking values from script tables
 * script_api.c      the gpuperf table: params, device, handles, commands
 * script_launch.c   kernel templates and launches
 * script_ops.c      work constructors and their conversion into gp_op_t
 * script_index.c    index functions sampled for a launch; pattern bounds
 *
 * C functions find their gp_script_t through lua_getallocf (the allocator's
 * user data), so the library keeps no global state.
 */
#ifndef GP_SCRIPT_INTERNAL_H
#define GP_SCRIPT_INTERNAL_H

#include <lua.h>
#include <stdint.h>

#include "script.h"

/* Limits that protect the host from a script. */
#define GP_SCRIPT_MAX_OPS 4096u        /* ops per kernel after flattening */
#define GP_SCRIPT_MAX_DEPTH 32         /* nesting of loops, diverges, sub-lists */
#define GP_SCRIPT_MAX_VISITS (16u * GP_SCRIPT_MAX_OPS) /* work entries walked */
#define GP_SCRIPT_MAX_CMDS 1000000u    /* commands (also buffers, streams, events) */
#define GP_SCRIPT_MAX_PARAMS 10000u    /* parameters a script declares */
#define GP_SCRIPT_MAX_NAME 63          /* bytes in a name */
#define GP_SCRIPT_MAX_TEXT 127         /* bytes in a help text / string param */
#define GP_SCRIPT_MAX_COUNT 1e18       /* counts, bytes, trips */
#define GP_SCRIPT_MAX_UNROLL 1024      /* a loop's pinned unroll (#pragma unroll N) */
#define GP_SCRIPT_MAX_DIM 9223372036854775808.0 /* 2^63: a grid or block dimension */
/* 2^48 elements: |stride| and |offset| of an access, so that the addresses
   of a warp (offset + 63 * stride, times 16 bytes) stay far inside int64 */
#define GP_SCRIPT_MAX_ELEMS 281474976710656.0
/* What the counts of the loops and diverges around an op may multiply to:
   iterations per thread (1e18 cycles is 16 years at 2 GHz) */
#define GP_SCRIPT_MAX_NESTED_WORK 1e18
#define GP_SCRIPT_MAX_SOURCE (8u << 20) /* bytes of one .lua file */
#define GP_SCRIPT_MAX_C_DEPTH 64       /* nested calls from C back into Lua */
#define GP_SCRIPT_MAX_LUA_DEPTH 1000   /* nested Lua calls (hook check) */
#define GP_SCRIPT_HOOK_PERIOD 1000     /* VM instructions between hook calls */
/* C work done for a script is charged to its instruction budget:
   one instruction per this many bytes allocated, copied or scanned. */
#define GP_SCRIPT_BYTES_PER_INSTR 16
/* What one call of a wrapped library function is charged, in instructions. */
#define GP_SCRIPT_CALL_COST 64
/* What looking up and reading a module file is charged, in instructions. */
#define GP_SCRIPT_FILE_COST 10000
/* Worst-case match steps a string pattern call may take. */
#define GP_SCRIPT_MAX_PATTERN_STEPS 1e9

/* Why an evaluation must end: errors a script may not catch with pcall. */
typedef enum sb_fatal {
    SB_FATAL_NONE = 0,
    SB_FATAL_BUDGET,  /* instruction budget exhausted */
    SB_FATAL_MEMORY,  /* memory cap reached */
    SB_FATAL_HOST_OOM /* the host's malloc failed */
} sb_fatal_t;

/* State of one gp_script_eval call. */
typedef struct sb_eval {
    const gp_device_t *dev;
    const gp_param_kv_t *kv;
    size_t n_kv;
    unsigned char *kv_used; /* one flag per kv: declared by the script */
    gp_workload_t wl;       /* being filled; owned here until success */
    uint32_t cap_buffers, cap_streams, cap_cmds, cap_params;
    uint32_t n_launches;
    gp_op_t *scratch;       /* GP_SCRIPT_MAX_OPS ops for flattening */
    uint32_t cap_samples;   /* wl.samples allocated */
    struct sb_index_cache *icache; /* samples of index functions, for re-use */
    uint32_t n_icache, cap_icache;
    struct sb_sampling *sampling; /* an index function is being evaluated */
    uint32_t devices_used;  /* 1 + the highest device a command targeted */
    uint32_t devices_line;  /* line of that command */
    uint32_t cap_graphs;
    uint32_t capture_line;  /* gpuperf.graph capturing now (its line); 0: none */
    uint64_t env_touched;   /* globals filled in or set (bit: slot), script_sandbox.c */
} sb_eval_t;

#define SB_SMALL_STEP 16
#define SB_SMALL_MAX 256

struct gp_script {
    lua_State *L;
    char path[4096];       /* as given */
    char dir[4096];        /* resolved folder, for require */
    char chunkname[4097];  /* "@path", path as given */
    uint64_t mem_used;     /* Lua heap bytes */
    /* blocks of up to SB_SMALL_MAX bytes the Lua heap gave back, one list per
       SB_SMALL_STEP bytes of size, reused before malloc (script.c) */
    void *small_free[SB_SMALL_MAX / SB_SMALL_STEP];
    uint64_t wl_bytes;     /* workload arrays being built, bytes */
    uint64_t mem_cap;
    uint64_t budget;
    uint64_t executed;     /* instructions (and charged C work) this eval */
    int budget_armed;      /* hook re-armed to fire at the next instruction */
    int fatal;             /* sb_fatal_t */
    char fatal_msg[4352];  /* the budget error as first raised */
    int c_depth;           /* nested C -> Lua calls through our wrappers */
    int chunk_ref;         /* registry ref of the compiled main chunk */
    int eval_ref;          /* registry ref of {message handler, evaluation's main}:
                              made once, not two closures per evaluation */
    struct gp_op *scratch; /* GP_SCRIPT_MAX_OPS ops, kept between evaluations */
    uint32_t devices;      /* devices the caller asks for (0: not stated, 1) */
    sb_eval_t *ev;         /* the evaluation in progress, or NULL */
    /* the gpuperf table scripts see is built once per device and kept in
       the registry; api_dev_set: 0 none built, 1 built without a device,
       2 built for api_dev */
    int api_dev_set;
    gp_device_t api_dev;
    int string_mt_set;     /* the string metatable's __index is an evaluation's copy */
    /* math.random's generator state (the userdata LuaJIT keeps it in, an
       upvalue of the library's math.random, alive as long as L) and a copy
       of it as math.randomseed(0) left it: an evaluation that finds the
       generator there needs no new seed (script_sandbox.c) */
    const void *rng_state;
    size_t rng_len;        /* bytes of the state; 0: not known */
    int rng_looked;        /* the state was looked for */
    unsigned char rng_seeded[64];
    struct sb_run *run;    /* what an evaluation's protected call reports (script.c),
                              allocated by the first evaluation and kept */
};

/* ------------------------------------------------------------ script.c */

/* The script that owns L. */
gp_script_t *sb_script(lua_State *L);

/* The current evaluation (raises when called outside one). */
sb_eval_t *sb_ev(lua_State *L);

/* Script line of the innermost Lua frame at `level` or above (0: none). */
int sb_line(lua_State *L, int level);

/* Replace the error message at the top of L's stack, if it starts with
   Lua's shortened form of the file chunk name source ("@path"), by one that
   starts with the whole path. */
void sb_whole_position(lua_State *L, const char *source);

/* Write "chunk:line:" of the innermost Lua frame at level or above into
   buf ("" when there is none). */
void sb_where(lua_State *L, int level, char *buf, size_t size);

/* Raise an error "chunk:line: message" at the calling script line. */
void sb_error(lua_State *L, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/* Raise the fatal memory-cap error. */
void sb_error_memory(lua_State *L) __attribute__((noreturn));

/* Raise the fatal error for a failed host allocation. */
void sb_error_oom(lua_State *L) __attribute__((noreturn));

/* Charge n instructions of C work to the budget; raises when it runs out. */
void sb_charge(lua_State *L, uint64_t n);

/* Account for `bytes` more of workload memory (raise if over the cap);
   negative to release. */
void sb_account(lua_State *L, int64_t bytes);

/* Grow a workload array of elem-byte items so that it holds n + 1 items;
   raises on the limit (naming `what`) or on the memory cap. */
void sb_grow(lua_State *L, void **arr, uint32_t *cap, uint32_t n, size_t elem,
             uint32_t limit, const char *what);

/* Guard a call from C back into Lua (C stack depth); pair with sb_leave. */
void sb_enter(lua_State *L);
void sb_leave(lua_State *L);

/* --------------------------------------------------- script_sandbox.c */

/* Build the template environment once per state (registry); protected. */
int sb_sandbox_init(lua_State *L);

/* Push a fresh environment for one evaluation (copies of the libraries, a
   new gpuperf table) and remember it for require. */
void sb_sandbox_push_env(lua_State *L);

/* ----------------------------------------------------- script_check.c */

/* A place in a work list, for messages ("work[2].body[1]"), kept as links
   and written out only when a message needs it. */
typedef struct sb_path {
    const struct sb_path *up; /* NULL: the root */
    const char *name;         /* "work", "body" (".body" below the root); NULL: [index] */
    size_t index;
} sb_path_t;

/* Write the path as text (as successive snprintf's into 256 bytes would). */
void sb_path_text(const sb_path_t *p, char *buf, size_t size);

/* Where an error is, for messages: "launch 'saxpy'", "gpuperf.load". The
   text is built only when a message needs it: where as given, else fmt with
   arg (a string) or num, else up's text, ": " and path. */
typedef struct sb_ctx {
    lua_State *L;
    char where[192];
    const char *fmt;          /* one %s (arg) or one %u (num) */
    const char *arg;
    unsigned num;
    const struct sb_ctx *up;
    const sb_path_t *path;
} sb_ctx_t;

/* A context with a fixed text. */
#define SB_CTX(L, where) {(L), (where), NULL, NULL, 0, NULL, NULL}

/* The text of c's place, into buf (192 bytes, as where). */
void sb_ctx_text(const sb_ctx_t *c, char *buf, size_t size);

/* Raise "chunk:line: WHERE: message". */
void sb_fail(const sb_ctx_t *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/* Describe the value at idx for a message: -3, "abc", a table, nil. */
void sb_describe(lua_State *L, int idx, char *buf, size_t size);

/* Raise "'label' must be EXPECTED, got VALUE" about the value at idx. */
void sb_fail_value(const sb_ctx_t *c, int idx, const char *label,
                  const char *expected) __attribute__((noreturn));

/* Checks of the value at idx; label names it in messages ('grid.x'). */
uint64_t sb_check_uint(const sb_ctx_t *c, int idx, const char *label,
                       uint64_t min, double max);
int64_t sb_check_int(const sb_ctx_t *c, int idx, const char *label, double limit);
double sb_check_count(const sb_ctx_t *c, int idx, const char *label);
double sb_check_real(const sb_ctx_t *c, int idx, const char *label, double min,
                     double max);
/* Index of the string at idx in names (NULL-terminated). */
int sb_check_enum(const sb_ctx_t *c, int idx, const char *label,
                  const char *const *names);
/* A name: 1..63 printable ASCII bytes. Returns it. */
const char *sb_check_name(const sb_ctx_t *c, int idx, const char *label);

/* Raise unless every key of the table at idx is in keys (NULL-terminated);
   positional = number of array slots [1]..[n] also accepted. */
void sb_check_keys(const sb_ctx_t *c, int idx, const char *const *keys,
                   int positional);

/* Number of entries of the table at idx (any keys), charged to the budget. */
uint32_t sb_table_size(lua_State *L, int idx, uint32_t stop_at);

/* Registry keys (addresses of static chars) for tagged tables. */
extern const char sb_key_op_mt, sb_key_kernel_mt, sb_key_env, sb_key_loaded,
    sb_key_template, sb_key_modules, sb_key_handles, sb_key_api_current;

/* 1 if the table at idx has the registry metatable `key`. */
int sb_is_tagged(lua_State *L, int idx, const char *key);

/* 1 if idx is a table without a metatable: a table of fields or a list. */
int sb_is_plain(lua_State *L, int idx);

/* ------------------------------------------------------- script_api.c */

/* Push the gpuperf table for the current evaluation. */
void sb_api_push(lua_State *L);

/* Handle kinds. */
typedef enum sb_handle_kind { SB_BUFFER = 0, SB_STREAM, SB_EVENT, SB_GRAPH } sb_handle_kind_t;

/* Index of the handle of `kind` at idx, or -1 when idx is not one (also for
   handles of an earlier evaluation). */
int64_t sb_handle_index(lua_State *L, int idx, sb_handle_kind_t kind);

/* The kind of a handle at idx as text ("buffer", ...), or NULL. */
const char *sb_handle_kind_name(lua_State *L, int idx);

/* The stream handle at idx as an index; the default stream when absent. */
uint32_t sb_stream_arg(const sb_ctx_t *c, int idx, const char *label);

/* Room for one more command, zeroed, with type, stream and the caller's
   line; counted only when the caller increments wl.n_cmds. */
gp_command_t *sb_cmd_new(lua_State *L, uint32_t type, uint32_t stream);

/* A device index argument at idx: 0 when absent, else 0..device_count-1. */
uint32_t sb_device_arg(const sb_ctx_t *c, int idx, const char *label);

/* Bind stream (not the default one) to device on its first command; raise
   when it already belongs to another device. */
void sb_bind_stream(const sb_ctx_t *c, uint32_t stream, uint32_t device);

/* `after = event` or `after = {event, ...}` at idx (nil: none): append a
   wait of stream (on device) for each event. */
void sb_after_waits(const sb_ctx_t *c, int idx, uint32_t stream, uint32_t device);

/* ---------------------------------------------------- script_launch.c */

/* Register gpuperf.kernel and gpuperf.launch into the table at the top. */
void sb_launch_register(lua_State *L);

/* ------------------------------------------------------- script_ops.c */

/* Register the work constructors into the table at the top of the stack. */
void sb_ops_register(lua_State *L);

/* Once per state: the op proxies' metamethods and their state table. */
void sb_ops_init(lua_State *L);

/* If idx is an op (a proxy), push its fields table and return 1 (write:
   the script changes it, so it is checked again at its next launch). */
int sb_op_fields(lua_State *L, int idx, int write);

/* A loop around the op being flattened. */
typedef struct sb_loop_ctx {
    int var;      /* stack index of its counter's name (a string); 0: unnamed */
    double trips;
    uint32_t line;
} sb_loop_ctx_t;

/* State of one flattening of a work list. */
typedef struct sb_flat {
    gp_op_t *ops;         /* GP_SCRIPT_MAX_OPS slots */
    uint32_t n;           /* ops so far */
    uint32_t visits;      /* work entries walked */
    int has_barrier;      /* a barrier appeared */
    int load_seen;        /* a load came before, in program order */
    /* the launch being built: index functions are sampled and accesses
       checked against their buffers only when set (not for templates) */
    const gp_launch_t *launch;
    uint64_t total_blocks;
    uint32_t n_loops;     /* loops around the current op */
    sb_loop_ctx_t loops[GP_SCRIPT_MAX_DEPTH + 2];
    /* stack indices of the op metatable and of the key under which a proxy
       holds its state while the outermost sb_ops_flatten runs (0: not yet
       pushed) */
    int op_mt_at, op_states_at;
} sb_flat_t;

/*
 * Flatten a work value (an op, or a list of ops and lists) at idx into
 * f->ops[f->n..]; path names it in messages ("work"). depth: nesting so far.
 */
void sb_ops_flatten(const sb_ctx_t *c, int idx, const sb_path_t *path, int depth, sb_flat_t *f);

/* ----------------------------------------------------- script_index.c */

/* Register gpuperf.random into the table at the top of the stack. */
void sb_index_register(lua_State *L);

/*
 * The memory op `op` (its table at stack index t, 0 when it has no index
 * function) inside a launch being flattened: evaluate its index function
 * (t.index) for the sampled threads
 * and iterations, or check its pattern against its buffer. Fills
 * op->access (sample, footprint and the nearest pattern shorthand).
 */
void sb_index_launch_op(const sb_ctx_t *c, sb_flat_t *f, int t, gp_op_t *op);

/* Drop the samples kept for re-use (at the end of an evaluation). */
void sb_index_forget(lua_State *L);

/* The tag of an op as messages name it ("load", "atomic"). */
const char *sb_op_tag(const gp_op_t *op);

#endif /* GP_SCRIPT_INTERNAL_H */
