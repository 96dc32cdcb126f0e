/*
 * opcost.c - the common cost of one warp-wide op, shared by the plugins.
 *
 * Arithmetic: a warp instruction occupies its pipe for warp_size / lanes
 * SM cycles (Programming Guide, "Arithmetic Instructions" throughput table:
 * results per clock per SM) and a dependent instruction waits the class's
 * latency from the device file. Memory: the transactions a warp access
 * needs under the generation's coalescing rules (gp_mem_rules_t), the bytes
 * each cache level serves and the latency seen by the warp.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host.h"
#include "util.h"

/* Latency of a barrier when a device file does not give one: the
   __syncthreads round trip measured by Mei & Chu (TPDS 2017, text) is 36-78
   cycles with the clock read; about 20 is the barrier itself. */
#define DEFAULT_BARRIER_CYCLES 20.0
/* Latency of a tensor-core instruction when the device file has none. */
#define DEFAULT_TENSOR_CYCLES 32.0
/* Spill slots assumed per thread when judging whether local memory stays
   in L1. */
#define LOCAL_SLOTS_PER_THREAD 8.0

/* Index of a word size in gp_mem_rules_t.segment_bytes. */
static int size_index(uint32_t elem)
{
    switch (elem) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    default: return 4;
    }
}

/* The access of thread group g (threads g*n .. g*n+n-1) as its own access. */
static gp_access_t group_access(const gp_access_t *a, uint32_t g, uint32_t n)
{
    gp_access_t b = *a;
    int64_t first = (int64_t)g * n, shift = 0, moved;
    if (a->pattern == GP_PATTERN_STRIDE &&
        __builtin_mul_overflow(first, a->stride_elems, &shift))
        shift = a->stride_elems < 0 ? INT64_MIN / 2 : INT64_MAX / 2;
    else if (a->pattern == GP_PATTERN_UNIT)
        shift = first;
    /* addresses that leave the 64-bit range saturate (host.c clamps further) */
    if (__builtin_add_overflow(b.offset_elems, shift, &moved))
        moved = shift < 0 ? INT64_MIN / 2 : INT64_MAX / 2;
    b.offset_elems = moved;
    return b;
}

/* 1.0/1.1: a half-warp coalesces only when thread k reads word k of an
   aligned segment (Programming Guide 4.2, F.3.2). */
static int strict_ok(const gp_access_t *a, uint32_t threads)
{
    int unit = a->pattern == GP_PATTERN_UNIT ||
               (a->pattern == GP_PATTERN_STRIDE && a->stride_elems == 1);
    uint32_t e = a->elem_bytes;
    if (!unit || !(e == 4 || e == 8 || e == 16))
        return 0;
    return ((a->offset_elems % (int64_t)threads) + (int64_t)threads) % (int64_t)threads == 0;
}

/* Transactions and bytes of one warp access to global memory at segment
   granularity `seg` (with shrinking to min_seg), summed over the groups. */
static double warp_transactions(const gp_device_t *d, const gp_mem_rules_t *r,
                                const gp_access_t *a, uint32_t seg, uint32_t min_seg,
                                double *bytes)
{
    uint32_t n = r->coalesce_threads ? r->coalesce_threads : d->warp_size;
    uint32_t groups = d->warp_size / n ? d->warp_size / n : 1, g;
    double txn = 0, total = 0;
    for (g = 0; g < groups; g++) {
        gp_access_t b = group_access(a, g, n);
        double by = 0;
        if (r->strict_coalescing && !strict_ok(&b, n)) {
            txn += n;
            total += (double)n * GP_MAX(32u, b.elem_bytes);
            continue;
        }
        txn += gp_coalesce(&b, n, seg, min_seg, &by);
        total += by;
    }
    *bytes = total;
    return txn;
}

/* DRAM bytes one thread's read costs when the warp's reads lie too far apart
   to share a 32-byte sector, from the device's measured sparse-read costs
   (interpolated in log2 of the spacing, relative to reads 32 B apart, which
   cost one sector); 0 when the reads share sectors or nothing is measured. */
static double sparse_read_bytes(const gp_device_t *d, const gp_access_t *a)
{
    static const double at[4] = {32, 64, 128, 256};
    double spacing, x;
    int k;
    if (!(d->sparse_read_bytes[0] > 0))
        return 0;
    switch (a->pattern) {
    case GP_PATTERN_STRIDE:
        spacing = fabs((double)a->stride_elems) * a->elem_bytes;
        break;
    case GP_PATTERN_RANDOM:
        spacing = at[3];
        break;
    default:
        return 0;
    }
    if (spacing < at[0] || a->elem_bytes > 8)
        return 0;
    if (spacing >= at[3])
        return d->sector_bytes * d->sparse_read_bytes[3] / d->sparse_read_bytes[0];
    for (k = 0; k < 3 && spacing > at[k + 1]; k++)
        ;
    x = (log2(spacing) - log2(at[k])) / (log2(at[k + 1]) - log2(at[k]));
    return d->sector_bytes *
           (d->sparse_read_bytes[k] + x * (d->sparse_read_bytes[k + 1] - d->sparse_read_bytes[k])) /
           d->sparse_read_bytes[0];
}

/* 1 if op reads memory through a buffer (loads and async copies). */
static int reads_buffer(const gp_op_t *op)
{
    return (op->kind == GP_OP_LOAD || op->kind == GP_OP_ASYNC_COPY) &&
           (op->space == GP_SPACE_GLOBAL || op->space == GP_SPACE_TEXTURE) &&
           op->access.buffer != UINT32_MAX;
}

/*
 * Fraction of this op's reads that hit in a cache of `cache` bytes (scale: the
 * fraction of the reads that reach this cache).
 *
 * With whole_buffer the loads of one buffer count together, in program order:
 * the buffer's footprint is brought in once, by the first loads that reach it
 * (compulsory misses); what any load reads after that re-reads cached data,
 * which stays cached when the buffer fits the cache, or when the loads differ
 * only by small offsets (a stencil's neighbours re-read what another just
 * brought in), and otherwise in proportion to the capacity. More reads of a
 * buffer therefore add hits, never misses, and never make the other loads
 * cheaper. That decides the traffic; the latency an op sees uses only its own
 * re-reads (whole_buffer 0).
 */
static double reuse_hit(const gp_kernel_t *k, const gp_op_t *op, double cache, double scale,
                        int whole_buffer)
{
    double footprint = (double)op->access.footprint_bytes;
    double total = 0, before = 0, lo = 0, hi = 0, mine, first_reach, rest, keep;
    int shifted = 1, first = 1, seen = 0;
    uint32_t i;
    if (op->access.pattern == GP_PATTERN_BROADCAST && footprint <= 0)
        footprint = op->access.elem_bytes;
    if (!whole_buffer || !reads_buffer(op) || op < k->ops || op >= k->ops + k->n_ops)
        return gp_reuse_hit_rate(footprint, scale * gp_op_grid_bytes(k, op), cache);
    for (i = 0; i < k->n_ops; i++) {
        const gp_op_t *o = &k->ops[i];
        double off, bytes;
        if (!reads_buffer(o) || o->access.buffer != op->access.buffer)
            continue;
        bytes = scale * gp_op_grid_bytes(k, o);
        total += bytes;
        if (o == op)
            seen = 1;
        else if (!seen)
            before += bytes;
        footprint = GP_MAX(footprint, (double)o->access.footprint_bytes); /* the buffer's */
        off = (double)o->access.offset_elems * o->access.elem_bytes;
        lo = first ? off : GP_MIN(lo, off);
        hi = first ? off : GP_MAX(hi, off);
        first = 0;
        shifted &= o->access.pattern == GP_PATTERN_UNIT;
    }
    mine = scale * gp_op_grid_bytes(k, op);
    if (!(footprint > 0) || !(mine > 0) || total <= footprint)
        return 0;
    first_reach = GP_MAX(0.0, GP_MIN(mine, footprint - GP_MIN(before, footprint)));
    rest = mine - first_reach;
    if (footprint <= cache || (shifted && hi > lo && hi - lo <= cache / 2))
        keep = 1;
    else
        keep = cache > 0 ? cache / footprint : 0;
    return rest * keep / mine;
}

/* Hit rate of a second-level cache that sees a first level's misses (miss1 =
   1 - hit1 of all reads) when `miss2` of all reads miss both. */
static double after_l1(double miss2, double hit1)
{
    double miss1 = 1.0 - hit1;
    if (miss1 <= 0)
        return 0;
    return 1.0 - GP_MIN(1.0, GP_MAX(miss2, 0.0) / miss1);
}

/* Cost of a global, local, texture or constant access (load/store/atomic). */
static int global_cost(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                       const gp_op_t *at, const gp_occupancy_t *occ, const gp_residency_t *res,
                       const gp_mem_rules_t *r, gp_op_cost_t *out, char *err, size_t errlen)
{
    const gp_access_t *a = &op->access;
    uint32_t warp = d->warp_size, seg, min_seg;
    double txn, bytes, h1 = 0, h2 = 0, l1h = 0, l2h = 0, lbytes, dram_fetch, dbytes, l2_lat, mem_lat;
    double l2cap = res->l2_capacity_bytes > 0 ? res->l2_capacity_bytes : (double)d->l2_bytes;
    int is_store = op->kind == GP_OP_STORE, is_atomic = op->kind == GP_OP_ATOMIC;
    int cached = r->l1_caches_global;
    uint32_t sp = op->space;

    if (a->elem_bytes == 0 || a->elem_bytes > 16) {
        snprintf(err, errlen, "memory access of %u bytes per thread", a->elem_bytes);
        return -1;
    }
    if (k->launch.global_cache == GP_GLOBAL_CACHE_ALL)
        cached = 1;
    else if (k->launch.global_cache == GP_GLOBAL_CACHE_L2)
        cached = 0;
    if (sp == GP_SPACE_TEXTURE || sp == GP_SPACE_CONSTANT)
        cached = 1;
    if (sp == GP_SPACE_LOCAL)
        cached = r->local_in_l1;

    seg = r->segment_bytes[size_index(a->elem_bytes)];
    if (seg == 0)
        seg = d->sector_bytes;
    min_seg = r->min_segment_bytes ? r->min_segment_bytes : seg;
    txn = warp_transactions(d, r, a, seg, min_seg, &bytes);

    /* what a miss in L1 asks of L2: whole L1 lines where lines are fetched */
    lbytes = bytes;
    if (cached && !is_store && !is_atomic && r->l1_segment_bytes > seg)
        warp_transactions(d, r, a, r->l1_segment_bytes, r->l1_segment_bytes, &lbytes);

    /* reuse: L1 per SM for re-read data, L2 for the grid; h1/h2 for the
       traffic (the buffer's reads together), l1h/l2h for the latency */
    if (!is_store && !is_atomic) {
        if (sp == GP_SPACE_CONSTANT) {
            double fp = GP_MAX(1.0, (double)a->footprint_bytes);
            double cc = (double)d->constant_cache_bytes;
            h1 = l1h = cc <= 0 ? 0 : GP_MIN(1.0, cc / fp);
        } else if (sp == GP_SPACE_LOCAL && cached) {
            double need = (double)occ->active_warps * warp * a->elem_bytes *
                          LOCAL_SLOTS_PER_THREAD;
            h1 = l1h = need > 0 ? GP_MIN(1.0, (double)occ->l1_bytes_available / need) : 1.0;
        } else if (cached) {
            double l1 = sp == GP_SPACE_TEXTURE && d->readonly_cache_bytes
                            ? (double)d->readonly_cache_bytes
                            : (double)occ->l1_bytes_available;
            /* an SM sees 1/sm_count of the grid's accesses and footprint */
            h1 = reuse_hit(k, at, l1 * d->sm_count, 1.0, 1);
            l1h = reuse_hit(k, at, l1 * d->sm_count, 1.0, 0);
        }
        /* L2 sees what L1 missed; its misses, as a share of all the reads,
           are its own compulsory and capacity misses */
        if (r->has_l2) {
            h2 = after_l1(1.0 - reuse_hit(k, at, l2cap, 1.0, 1), h1);
            l2h = after_l1(1.0 - reuse_hit(k, at, l2cap, 1.0, 0), l1h);
        }
    }
    if (a->pattern == GP_PATTERN_BROADCAST && !is_store && !is_atomic && cached) {
        h1 = GP_MAX(h1, 0.5); /* one element per warp: the other warps hit */
        l1h = GP_MAX(l1h, 0.5);
    }

    /* DRAM: what misses fetch, in the DRAM's own granule */
    dram_fetch = d->dram_fetch_bytes ? d->dram_fetch_bytes : d->sector_bytes;
    dbytes = lbytes;
    if (r->has_l2 && !is_store && sparse_read_bytes(d, a) > 0) {
        /* reads too far apart to share a sector: the measured cost per read */
        dbytes = warp * sparse_read_bytes(d, a);
    } else if (r->has_l2 && dram_fetch > GP_MAX(seg, cached ? r->l1_segment_bytes : 0)) {
        double fetched = 0;
        warp_transactions(d, r, a, (uint32_t)dram_fetch, (uint32_t)dram_fetch, &fetched);
        dbytes = GP_MAX(lbytes, fetched);
    }

    l2_lat = r->has_l2 && d->l2_hit_cycles > 0 ? d->l2_hit_cycles : d->dram_cycles;
    mem_lat = l2h * l2_lat + (1 - l2h) * d->dram_cycles;
    if (sp == GP_SPACE_CONSTANT)
        out->latency_cycles = d->constant_cycles > 0 ? d->constant_cycles : l2_lat;
    else
        out->latency_cycles = l1h * (d->l1_hit_cycles > 0 ? d->l1_hit_cycles : l2_lat) +
                              (1 - l1h) * mem_lat;

    out->pipe_cycles[GP_PIPE_LDST] = (double)warp / d->ldst_lanes;
    out->pipe_cycles[GP_PIPE_L1] = cached || sp == GP_SPACE_LOCAL ? txn * seg / 128.0 : 0;
    out->transactions = txn;
    out->l1_bytes = cached ? h1 * bytes : 0;
    out->l2_bytes = (1 - h1) * lbytes;
    out->dram_bytes = (1 - h1) * (1 - h2) * dbytes;
    if (!r->has_l2) {
        out->l2_bytes = 0;
        out->dram_bytes = (1 - h1) * bytes;
    }

    if (is_atomic) {
        double per_cycle_bytes = (r->atomics_in_l2 && d->l2_bandwidth_gbps > 0
                                      ? d->l2_bandwidth_gbps
                                      : d->dram_sustained_gbps) *
                                 1e3 / d->core_clock_mhz;
        out->latency_cycles = d->atomic_cycles > 0 ? d->atomic_cycles : mem_lat;
        switch (a->atomic_scope) {
        case GP_ATOMIC_SAME:
            /* one address for the whole grid: the hardware combines a warp's
               updates, then serialises warps at the address, one per cycle;
               expressed as traffic that fills the whole memory path for a
               cycle, so the SMs' shares add up to that serialisation */
            out->l2_bytes = r->atomics_in_l2 ? per_cycle_bytes : 0;
            out->dram_bytes = r->atomics_in_l2 ? 0 : per_cycle_bytes;
            break;
        case GP_ATOMIC_PER_WARP:
            out->l2_bytes = r->atomics_in_l2 ? d->sector_bytes : 0;
            out->dram_bytes = r->atomics_in_l2 ? 0 : d->sector_bytes * 2.0;
            break;
        default:
            out->l2_bytes = r->atomics_in_l2 ? 2 * bytes : 0; /* read and write */
            out->dram_bytes = r->atomics_in_l2 ? (1 - reuse_hit(k, at, l2cap, 1.0, 1)) * 2 * dbytes
                                               : 2 * bytes;
            break;
        }
    }
    return 0;
}

/* Cost of a shared-memory access. */
static void shared_cost(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                        const gp_mem_rules_t *r, gp_op_cost_t *out)
{
    gp_access_t a = op->access;
    uint32_t bt = r->bank_threads ? r->bank_threads : d->warp_size;
    uint32_t groups = d->warp_size / bt ? d->warp_size / bt : 1, g;
    uint32_t bank_bytes = k->launch.bank_bytes ? k->launch.bank_bytes : r->bank_bytes;
    double passes = 0, pass_cycles;
    if (op->kind == GP_OP_ATOMIC && a.conflict_ways == 0 &&
        (a.atomic_scope == GP_ATOMIC_SAME || a.atomic_scope == GP_ATOMIC_PER_WARP))
        a.conflict_ways = bt; /* every lane updates one word: serialised */
    for (g = 0; g < groups; g++) {
        gp_access_t b = group_access(&a, g, bt);
        passes += gp_bank_conflicts(&b, bt, r->banks ? r->banks : 32, bank_bytes ? bank_bytes : 4);
    }
    /* one pass moves bank_threads words of bank_bytes through the banks */
    pass_cycles = (double)bt * (bank_bytes ? bank_bytes : 4) / d->shared_memory_bytes_per_clock;
    out->pipe_cycles[GP_PIPE_SHARED] = passes * pass_cycles;
    out->pipe_cycles[GP_PIPE_LDST] = (double)d->warp_size / d->ldst_lanes;
    out->latency_cycles = d->shared_memory_cycles + (passes - groups) * pass_cycles;
    if (op->kind == GP_OP_ATOMIC)
        out->latency_cycles *= 2; /* read, then write */
    out->transactions = passes;
}

int gp_op_cost_standard(const gp_device_t *d, const gp_kernel_t *k, const gp_op_t *op,
                        const gp_occupancy_t *occ, const gp_residency_t *res,
                        const gp_mem_rules_t *r, gp_op_cost_t *out, char *err, size_t errlen)
{
    double warp = d->warp_size;
    memset(out, 0, sizeof *out);
    out->pipe_cycles[GP_PIPE_ISSUE] =
        1.0 / ((double)d->schedulers_per_sm * (double)d->dispatch_per_scheduler);
    switch (op->kind) {
    case GP_OP_FP32:
        out->pipe_cycles[GP_PIPE_FP32] = warp / d->fp32_lanes;
        out->latency_cycles = d->fp32_cycles;
        return 0;
    case GP_OP_FP64:
        if (d->fp64_lanes <= 0) {
            snprintf(err, errlen,
                     "%s (compute capability %u.%u) has no double-precision units; describe "
                     "the work as fp32 or pick another device",
                     d->name, d->cc_major, d->cc_minor);
            return -1;
        }
        out->pipe_cycles[GP_PIPE_FP64] = warp / d->fp64_lanes;
        out->latency_cycles = d->fp64_cycles;
        return 0;
    case GP_OP_FP16:
        if (d->fp16_lanes > 0)
            out->pipe_cycles[GP_PIPE_FP16] = warp / d->fp16_lanes;
        else
            out->pipe_cycles[GP_PIPE_FP32] = warp / d->fp32_lanes;
        out->latency_cycles = d->fp16_cycles > 0 ? d->fp16_cycles : d->fp32_cycles;
        return 0;
    case GP_OP_INT:
        out->pipe_cycles[GP_PIPE_INT] = warp / d->int32_lanes;
        out->latency_cycles = d->int32_cycles;
        return 0;
    case GP_OP_SFU:
        out->pipe_cycles[GP_PIPE_SFU] = warp / d->sfu_lanes;
        out->latency_cycles = d->sfu_cycles;
        return 0;
    case GP_OP_CONV:
        out->pipe_cycles[GP_PIPE_CONV] =
            warp / (d->conversion_lanes > 0 ? d->conversion_lanes : d->sfu_lanes);
        out->latency_cycles = d->conversion_cycles > 0 ? d->conversion_cycles : d->sfu_cycles;
        return 0;
    case GP_OP_BRANCH:
        out->pipe_cycles[GP_PIPE_INT] = warp / d->int32_lanes;
        out->latency_cycles = d->branch_cycles > 0 ? d->branch_cycles : d->int32_cycles;
        return 0;
    case GP_OP_BARRIER:
        out->latency_cycles = d->barrier_cycles > 0 ? d->barrier_cycles : DEFAULT_BARRIER_CYCLES;
        return 0;
    case GP_OP_TENSOR: {
        static const char *const names[] = {"fp16", "bf16", "tf32", "fp64", "int8", "fp8"};
        /* flops one warp-wide mma.sync does, per thread: m16n8k16 (fp16, bf16),
           m16n8k8 (tf32), m8n8k4 (fp64), m16n8k32 (int8, fp8); PTX ISA,
           "Matrix shapes" */
        static const double flops_per_thread[] = {2.0 * 16 * 8 * 16 / 32, 2.0 * 16 * 8 * 16 / 32,
                                                  2.0 * 16 * 8 * 8 / 32,  2.0 * 8 * 8 * 4 / 32,
                                                  2.0 * 16 * 8 * 32 / 32, 2.0 * 16 * 8 * 32 / 32};
        double rates[] = {d->tensor_fp16_flops_per_clock, d->tensor_bf16_flops_per_clock,
                          d->tensor_tf32_flops_per_clock, d->tensor_fp64_flops_per_clock,
                          d->tensor_int8_ops_per_clock,   d->tensor_fp8_flops_per_clock};
        uint32_t t = op->tensor_type;
        double per_instr;
        if (t >= GP_TENSOR_TYPE_COUNT) {
            snprintf(err, errlen, "unknown tensor type %u", t);
            return -1;
        }
        if (rates[t] <= 0) {
            snprintf(err, errlen, "%s has no %s tensor-core rate in its device file", d->name,
                     names[t]);
            return -1;
        }
        /* costs are per flop of a thread (op->count counts flops): an
           instruction's issue slot and latency are spread over its flops */
        per_instr = flops_per_thread[t];
        out->pipe_cycles[GP_PIPE_TENSOR] = warp / rates[t];
        out->pipe_cycles[GP_PIPE_ISSUE] /= per_instr;
        out->latency_cycles =
            (d->tensor_cycles > 0 ? d->tensor_cycles : DEFAULT_TENSOR_CYCLES) / per_instr;
        return 0;
    }
    case GP_OP_LOAD:
    case GP_OP_STORE:
    case GP_OP_ATOMIC:
        if (op->space == GP_SPACE_SHARED) {
            shared_cost(d, k, op, r, out);
            return 0;
        }
        if (op->space >= GP_SPACE_COUNT) {
            snprintf(err, errlen, "unknown memory space %u", op->space);
            return -1;
        }
        return global_cost(d, k, op, op, occ, res, r, out, err, errlen);
    case GP_OP_ASYNC_COPY: {
        gp_op_t ld = *op;
        gp_op_cost_t sh;
        if (!r->has_async_copy) {
            snprintf(err, errlen,
                     "asynchronous global-to-shared copies need compute capability 8.0 or "
                     "newer; %s is %u.%u",
                     d->name, d->cc_major, d->cc_minor);
            return -1;
        }
        ld.kind = GP_OP_LOAD;
        ld.space = GP_SPACE_GLOBAL;
        if (global_cost(d, k, &ld, op, occ, res, r, out, err, errlen))
            return -1;
        memset(&sh, 0, sizeof sh);
        ld.space = GP_SPACE_SHARED;
        ld.kind = GP_OP_STORE;
        shared_cost(d, k, &ld, r, &sh);
        out->pipe_cycles[GP_PIPE_SHARED] += sh.pipe_cycles[GP_PIPE_SHARED];
        out->pipe_cycles[GP_PIPE_ISSUE] =
            1.0 / ((double)d->schedulers_per_sm * (double)d->dispatch_per_scheduler);
        return 0;
    }
    default:
        snprintf(err, errlen, "op kind %u has no cost (loops and branches are walked)",
                 op->kind);
        return -1;
    }
}
