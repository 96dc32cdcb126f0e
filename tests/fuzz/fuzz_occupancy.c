/*
 * fuzz_occupancy.c - fuzz the occupancy entry point (gp_arch_occupancy) and
 * the block cost of the launches that fit, on every shipped device.
 *
 * Input bytes choose a device and every gp_launch_t field (grid, block,
 * registers, shared memory, cache and carve-out preferences, bank size,
 * barriers: small values, edges and raw 64-bit values, valid enums and
 * invalid ones), then a short list of ops within the limits the script
 * front end enforces. An accepted launch must be possible on the device
 * (fuzz_common.h), and its block cost must be finite and positive.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

#define FZ_MAX_DEVICES 64
#define FZ_MAX_OPS 16
#define FZ_MAX_ELEMS 281474976710656.0 /* 2^48: stride and offset limit of scripts */
#define FZ_MAX_WORK 1e18               /* counts, bytes, trips and their products */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static gp_device_t g_dev[FZ_MAX_DEVICES];
static const gp_arch_t *g_arch[FZ_MAX_DEVICES];
static size_t g_n;

/* Keep every shipped device that loads. */
static void on_device(void *ud, const char *path, const gp_device_t *dev, const gp_arch_t *arch,
                      const char *error)
{
    (void)ud;
    if (!dev)
        fz_fail("shipped device %s does not load: %s", path, error);
    if (g_n < FZ_MAX_DEVICES) {
        g_dev[g_n] = *dev;
        g_arch[g_n] = arch;
        g_n++;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    gp_device_scan(on_device, NULL);
    if (g_n == 0)
        fz_fail("no device found (GPUPERF_DEVICE_PATH?)");
    return 0;
}

/* The input, consumed a byte at a time (zeros once it runs out). */
typedef struct fz_in {
    const uint8_t *p;
    size_t n;
} fz_in_t;

static uint8_t rd8(fz_in_t *in)
{
    uint8_t v = 0;
    if (in->n) {
        v = *in->p++;
        in->n--;
    }
    return v;
}

static uint64_t rd64(fz_in_t *in)
{
    uint64_t v = 0;
    int i;
    for (i = 0; i < 8; i++)
        v = v << 8 | rd8(in);
    return v;
}

/* A value: mostly small, sometimes an edge, sometimes any 64 bits. */
static uint64_t rd_val(fz_in_t *in, uint64_t small)
{
    uint8_t mode = rd8(in);
    uint64_t b;
    switch (mode & 7) {
    case 0: return 0;
    case 1: return 1;
    case 2: return rd64(in);
    case 3:
        b = (uint64_t)1 << (rd8(in) & 63);
        return (mode & 8) ? b - 1 : (mode & 16) ? b + 1 : b;
    default: return small ? rd64(in) % small + 1 : rd8(in);
    }
}

/* A non-negative amount up to FZ_MAX_WORK. */
static double rd_amount(fz_in_t *in)
{
    uint8_t mode = rd8(in);
    switch (mode & 3) {
    case 0: return (double)(mode >> 2);
    case 1: return FZ_MAX_WORK;
    case 2: return (double)(rd64(in) % 1000000) + 1;
    default: return pow(10, (double)(rd8(in) % 19));
    }
}

/* A signed element count within the scripts' limit. */
static int64_t rd_elems(fz_in_t *in)
{
    int64_t v = (int64_t)(rd64(in) % (uint64_t)FZ_MAX_ELEMS);
    uint8_t mode = rd8(in);
    if ((mode & 3) == 0)
        v = (int64_t)(mode >> 2) % 65;
    return (mode & 4) ? -v : v;
}

/* Largest product of the counts of the loops and diverges around any op. */
static double nested_work(const gp_op_t *ops, uint32_t n)
{
    double mult[FZ_MAX_OPS + 1], worst = 1;
    uint32_t end[FZ_MAX_OPS + 1], depth = 0, i;
    mult[0] = 1;
    end[0] = n;
    for (i = 0; i < n; i++) {
        while (depth > 0 && i >= end[depth])
            depth--;
        if (ops[i].kind == GP_OP_LOOP || ops[i].kind == GP_OP_DIVERGE) {
            depth++;
            mult[depth] = mult[depth - 1] * (ops[i].count > 1 ? ops[i].count : 1);
            end[depth] = i + 1 + ops[i].body_len;
            worst = GP_MAX(worst, mult[depth]);
        }
    }
    return worst;
}

/* Ops from the rest of the input, as a script could describe them. */
static uint32_t read_ops(fz_in_t *in, gp_op_t *ops)
{
    static const uint32_t elems[] = {1, 2, 4, 8, 16};
    uint32_t n = rd8(in) % (FZ_MAX_OPS + 1), i;
    for (i = 0; i < n; i++) {
        gp_op_t *op = &ops[i];
        memset(op, 0, sizeof *op);
        op->kind = rd8(in) % GP_OP_KIND_COUNT;
        op->count = rd_amount(in);
        op->ilp = 1 + rd8(in) % 8;
        op->line = i + 1;
        op->access.buffer = UINT32_MAX;
        switch (op->kind) {
        case GP_OP_LOOP:
        case GP_OP_DIVERGE:
            op->body_len = rd8(in) % (n - i);
            if (op->kind == GP_OP_DIVERGE)
                op->count = 1 + rd8(in) % 32;
            break;
        case GP_OP_TENSOR:
            op->tensor_type = rd8(in) % GP_TENSOR_TYPE_COUNT;
            break;
        case GP_OP_LOAD:
        case GP_OP_STORE:
        case GP_OP_ATOMIC:
        case GP_OP_ASYNC_COPY:
            op->space = op->kind == GP_OP_ASYNC_COPY ? GP_SPACE_GLOBAL : rd8(in) % GP_SPACE_COUNT;
            op->access.pattern = rd8(in) % GP_PATTERN_COUNT;
            op->access.elem_bytes = elems[rd8(in) % 5];
            op->access.stride_elems = op->access.pattern == GP_PATTERN_STRIDE ? rd_elems(in) : 1;
            op->access.offset_elems = rd_elems(in);
            op->access.footprint_bytes = (uint64_t)rd_amount(in);
            if (op->space == GP_SPACE_GLOBAL || op->space == GP_SPACE_TEXTURE)
                op->access.footprint_bytes += 1;
            if (op->space == GP_SPACE_SHARED)
                op->access.conflict_ways = rd8(in) % 33;
            if (op->kind == GP_OP_ATOMIC)
                op->access.atomic_scope = rd8(in) % 3;
            break;
        default:
            break;
        }
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint32_t banks[] = {0, 4, 8, 3};
    fz_in_t in = {data, size};
    size_t di = rd8(&in) % g_n;
    const gp_device_t *d = &g_dev[di];
    gp_launch_t l;
    gp_occupancy_t occ;
    gp_kernel_t k;
    gp_op_t ops[FZ_MAX_OPS];
    gp_residency_t res;
    gp_block_cost_t cost;
    gp_err_t err;
    memset(&l, 0, sizeof l);
    l.grid.x = rd_val(&in, 1u << 20);
    l.grid.y = rd_val(&in, 4);
    l.grid.z = rd_val(&in, 4);
    l.block.x = rd_val(&in, 1024);
    l.block.y = rd_val(&in, 4);
    l.block.z = rd_val(&in, 4);
    l.threads_per_block = gp_mul_sat_u64(gp_mul_sat_u64(l.block.x, l.block.y), l.block.z);
    l.regs_per_thread = (uint32_t)rd_val(&in, 255);
    l.static_smem_bytes = rd_val(&in, 64 << 10);
    l.dynamic_smem_bytes = rd_val(&in, 64 << 10);
    l.cache_pref = rd8(&in) % 6;
    l.carveout_percent = (int32_t)rd8(&in) - 2;
    l.global_cache = rd8(&in) % 4;
    l.bank_bytes = banks[rd8(&in) % 4];
    l.barriers_per_block = rd8(&in) % 4;
    err.msg[0] = '\0';
    if (gp_arch_occupancy(g_arch[di], d, &l, &occ, &err) != 0) {
        fz_check_error("occupancy", err.msg);
        return 0;
    }
    fz_check_occupancy(d, &l, &occ);
    if (occ.blocks_per_sm == 0)
        return 0;

    memset(&k, 0, sizeof k);
    k.name = "fuzz";
    k.launch = l;
    k.ops = ops;
    k.n_ops = read_ops(&in, ops);
    k.total_blocks = gp_mul_sat_u64(gp_mul_sat_u64(l.grid.x, l.grid.y), l.grid.z);
    if (nested_work(ops, k.n_ops) > FZ_MAX_WORK)
        return 0; /* scripts cannot describe it */
    memset(&res, 0, sizeof res);
    res.blocks = 1 + rd8(&in) % occ.blocks_per_sm;
    res.warps_sm = res.blocks * occ.warps_per_block + rd8(&in) % 8;
    res.active_sms = 1 + (uint32_t)(rd64(&in) % d->sm_count);
    res.dram_share = 1.0 / res.active_sms;
    res.l2_share = res.dram_share;
    res.l2_capacity_bytes = (double)d->l2_bytes;
    err.msg[0] = '\0';
    if (gp_arch_block_cost(g_arch[di], d, &k, &occ, &res, &cost, &err) != 0) {
        fz_check_error("block cost", err.msg);
        return 0;
    }
    if (!(isfinite(cost.time_cycles) && cost.time_cycles > 0) || !fz_ok(cost.latency_cycles) ||
        !fz_ok(cost.throughput_cycles) || !fz_ok(cost.memory_cycles) ||
        !fz_ok(cost.warp_instructions) || !fz_ok(cost.dram_bytes) || !fz_ok(cost.l2_bytes) ||
        !fz_ok(cost.l1_bytes))
        fz_fail("%s: block cost %g cycles (latency %g, throughput %g, memory %g, %g "
                "instructions)",
                d->id, cost.time_cycles, cost.latency_cycles, cost.throughput_cycles,
                cost.memory_cycles, cost.warp_instructions);
    return 0;
}
