/*
 * device.c - device files: schema, strict INI loading with inih, search.
 */
#include "device.h"

#include <ctype.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "paths.h"

#define MAX_FILE_BYTES (1u << 20) /* a device file is a few KiB */
#define MAX_LINE_CHARS 190        /* inih (Debian build) reads 200-byte lines */

typedef enum key_type { T_STR, T_CC, T_U32, T_U64, T_F64 } key_type_t;

/* One schema entry: where a key lives and what it accepts. */
typedef struct key_spec {
    const char *section;
    const char *key;
    key_type_t type;
    size_t offset;
    int required;
    double min, max;
    const char *help; /* unit or meaning, for messages and docs */
} key_spec_t;

#define OFF(f) offsetof(gp_device_t, f)
#define REQ 1
#define OPT 0
#define BIG 1e18

/* The schema. Sections and keys match gp_device_t field names. */
static const key_spec_t SCHEMA[] = {
    {"device", "name", T_STR, OFF(name), REQ, 0, 0, "display name"},
    {"device", "arch", T_STR, OFF(arch), REQ, 0, 0, "plugin name, e.g. hopper"},
    {"device", "compute_capability", T_CC, 0, REQ, 1.0, 99.9, "major.minor, e.g. 9.0"},
    {"device", "sm_count", T_U32, OFF(sm_count), REQ, 1, 4096, "streaming multiprocessors"},
    {"device", "core_clock_mhz", T_F64, OFF(core_clock_mhz), REQ, 1, 10000, "SM clock, MHz"},
    {"device", "memory_clock_mhz", T_F64, OFF(memory_clock_mhz), OPT, 0, 100000, "MHz"},
    {"device", "tensor_clock_mhz", T_F64, OFF(tensor_clock_mhz), OPT, 0, 10000, "SM clock while a kernel issues tensor-core instructions, MHz; 0: core_clock_mhz"},

    {"sm", "warp_size", T_U32, OFF(warp_size), REQ, 1, 64, "threads"},
    {"sm", "max_threads_per_block", T_U32, OFF(max_threads_per_block), REQ, 1, 65536, "threads"},
    {"sm", "max_threads_per_sm", T_U32, OFF(max_threads_per_sm), REQ, 1, 65536, "threads"},
    {"sm", "max_blocks_per_sm", T_U32, OFF(max_blocks_per_sm), REQ, 1, 1024, "blocks"},
    {"sm", "registers_per_sm", T_U32, OFF(registers_per_sm), REQ, 1, 1 << 24, "32-bit registers"},
    {"sm", "max_registers_per_block", T_U32, OFF(max_registers_per_block), REQ, 1, 1 << 24, "registers"},
    {"sm", "max_registers_per_thread", T_U32, OFF(max_registers_per_thread), REQ, 1, 4096, "registers"},
    {"sm", "schedulers_per_sm", T_U32, OFF(schedulers_per_sm), REQ, 1, 64, "warp schedulers"},
    {"sm", "dispatch_per_scheduler", T_U32, OFF(dispatch_per_scheduler), OPT, 1, 8, "instructions per cycle (default 1)"},
    {"sm", "shared_memory_per_sm_bytes", T_U64, OFF(shared_memory_per_sm_bytes), REQ, 1, 1 << 30, "bytes"},
    {"sm", "shared_memory_per_block_bytes", T_U64, OFF(shared_memory_per_block_bytes), REQ, 1, 1 << 30, "bytes"},
    {"sm", "shared_memory_per_block_optin_bytes", T_U64, OFF(shared_memory_per_block_optin_bytes), OPT, 0, 1 << 30, "bytes (default: the per-block limit)"},
    {"sm", "reserved_shared_memory_per_block_bytes", T_U64, OFF(reserved_shared_memory_per_block_bytes), OPT, 0, 1 << 20, "bytes"},
    {"sm", "l1_shared_bytes", T_U64, OFF(l1_shared_bytes), OPT, 0, 1 << 30, "bytes of the unified L1/shared array"},
    {"sm", "l1_bytes", T_U64, OFF(l1_bytes), OPT, 0, 1 << 30, "bytes of a separate L1"},
    {"sm", "smemless_free_of_carveout", T_U32, OFF(smemless_free_of_carveout), OPT, 0, 1, "1: the carve-out preference does not bound blocks that use no shared memory (measured); 0: not known (cuda_occupancy.h's rule)"},
    {"sm", "max_grid_x", T_U64, OFF(max_grid_x), REQ, 1, 4294967295.0, "blocks"},
    {"sm", "max_grid_y", T_U64, OFF(max_grid_y), REQ, 1, 4294967295.0, "blocks"},
    {"sm", "max_grid_z", T_U64, OFF(max_grid_z), REQ, 1, 4294967295.0, "blocks"},
    {"sm", "max_block_x", T_U32, OFF(max_block_x), REQ, 1, 65536, "threads"},
    {"sm", "max_block_y", T_U32, OFF(max_block_y), REQ, 1, 65536, "threads"},
    {"sm", "max_block_z", T_U32, OFF(max_block_z), REQ, 1, 65536, "threads"},

    {"throughput", "fp32_lanes", T_F64, OFF(fp32_lanes), REQ, 0.01, 65536, "results/clock/SM"},
    {"throughput", "fp64_lanes", T_F64, OFF(fp64_lanes), REQ, 0, 65536, "results/clock/SM (0: none)"},
    {"throughput", "fp16_lanes", T_F64, OFF(fp16_lanes), OPT, 0, 65536, "results/clock/SM"},
    {"throughput", "int32_lanes", T_F64, OFF(int32_lanes), REQ, 0.01, 65536, "results/clock/SM"},
    {"throughput", "sfu_lanes", T_F64, OFF(sfu_lanes), REQ, 0.01, 65536, "results/clock/SM"},
    {"throughput", "conversion_lanes", T_F64, OFF(conversion_lanes), OPT, 0, 65536, "results/clock/SM"},
    {"throughput", "ldst_lanes", T_F64, OFF(ldst_lanes), REQ, 0.01, 65536, "addresses/clock/SM"},
    {"throughput", "shared_memory_bytes_per_clock", T_F64, OFF(shared_memory_bytes_per_clock), REQ, 1, 1 << 20, "bytes/clock/SM"},
    {"throughput", "tensor_fp16_flops_per_clock", T_F64, OFF(tensor_fp16_flops_per_clock), OPT, 0, 1 << 24, "flops/clock/SM"},
    {"throughput", "tensor_bf16_flops_per_clock", T_F64, OFF(tensor_bf16_flops_per_clock), OPT, 0, 1 << 24, "flops/clock/SM"},
    {"throughput", "tensor_tf32_flops_per_clock", T_F64, OFF(tensor_tf32_flops_per_clock), OPT, 0, 1 << 24, "flops/clock/SM"},
    {"throughput", "tensor_fp64_flops_per_clock", T_F64, OFF(tensor_fp64_flops_per_clock), OPT, 0, 1 << 24, "flops/clock/SM"},
    {"throughput", "tensor_int8_ops_per_clock", T_F64, OFF(tensor_int8_ops_per_clock), OPT, 0, 1 << 24, "ops/clock/SM"},
    {"throughput", "tensor_fp8_flops_per_clock", T_F64, OFF(tensor_fp8_flops_per_clock), OPT, 0, 1 << 24, "flops/clock/SM"},
    {"throughput", "shfl_lanes", T_F64, OFF(shfl_lanes), OPT, 0, 65536, "results/clock/SM, __shfl_sync (SHFL.IDX); 0: not known"},
    {"throughput", "shfl_down_lanes", T_F64, OFF(shfl_down_lanes), OPT, 0, 65536, "results/clock/SM, __shfl_down_sync; 0: not known"},
    {"throughput", "vote_lanes", T_F64, OFF(vote_lanes), OPT, 0, 65536, "results/clock/SM, __ballot_sync step; 0: not known"},
    {"throughput", "vote_all_lanes", T_F64, OFF(vote_all_lanes), OPT, 0, 65536, "results/clock/SM, __all_sync step; 0: not known"},
    {"throughput", "match_lanes", T_F64, OFF(match_lanes), OPT, 0, 65536, "results/clock/SM, __match_any_sync; 0: not known"},
    {"throughput", "warp_reduce_lanes", T_F64, OFF(warp_reduce_lanes), OPT, 0, 65536, "results/clock/SM, __reduce_add_sync (REDUX); 0: not known"},
    {"throughput", "int32_add_lanes", T_F64, OFF(int32_add_lanes), OPT, 0, 65536, "results/clock/SM, 32-bit add (IADD3); 0: not known"},
    {"throughput", "int32_logic_lanes", T_F64, OFF(int32_logic_lanes), OPT, 0, 65536, "results/clock/SM, 32-bit logic (LOP3); 0: not known"},
    {"throughput", "int32_shift_lanes", T_F64, OFF(int32_shift_lanes), OPT, 0, 65536, "results/clock/SM, 32-bit shift (SHF); 0: not known"},
    {"throughput", "int32_mul_lanes", T_F64, OFF(int32_mul_lanes), OPT, 0, 65536, "results/clock/SM, 32-bit multiply (IMAD); 0: not known"},
    {"throughput", "idiv_lanes", T_F64, OFF(idiv_lanes), OPT, 0, 65536, "results/clock/SM, 32-bit int / (nvcc's sequence); 0: not known"},
    {"throughput", "imod_lanes", T_F64, OFF(imod_lanes), OPT, 0, 65536, "results/clock/SM, 32-bit int % (nvcc's sequence); 0: not known"},
    {"throughput", "fdiv_lanes", T_F64, OFF(fdiv_lanes), OPT, 0, 65536, "results/clock/SM, fp32 IEEE '/'; 0: not known"},
    {"throughput", "rcp_lanes", T_F64, OFF(rcp_lanes), OPT, 0, 65536, "results/clock/SM, __frcp_rn; 0: not known"},
    {"throughput", "rcp_fast_lanes", T_F64, OFF(rcp_fast_lanes), OPT, 0, 65536, "results/clock/SM, rcp.approx (MUFU.RCP); 0: not known"},
    {"throughput", "f2i_lanes", T_F64, OFF(f2i_lanes), OPT, 0, 65536, "results/clock/SM, float to int (F2I); 0: not known"},
    {"throughput", "i2f_lanes", T_F64, OFF(i2f_lanes), OPT, 0, 65536, "results/clock/SM, int to float (I2F); 0: not known"},
    {"throughput", "f2h_lanes", T_F64, OFF(f2h_lanes), OPT, 0, 65536, "results/clock/SM, float to half (F2FP); 0: not known"},
    {"throughput", "shared_atomic_cycles", T_F64, OFF(shared_atomic_cycles), OPT, 0, 1e5, "SM cycles per warp-wide shared atomic, distinct words; 0: not known"},
    {"throughput", "shared_atomic_conflict_cycles", T_F64, OFF(shared_atomic_conflict_cycles), OPT, 0, 1e5, "SM cycles per further lane on one shared word; 0: not known"},
    {"throughput", "shared_cas_cycles", T_F64, OFF(shared_cas_cycles), OPT, 0, 1e5, "SM cycles per warp iteration of a shared float atomicAdd's compare-and-swap loop in which a swap succeeds; 0: not known"},
    {"throughput", "shared_cas_fail_cycles", T_F64, OFF(shared_cas_fail_cycles), OPT, 0, 1e5, "SM cycles per warp iteration of that loop in which every swap fails; 0: not known"},
    {"throughput", "shared_atomic_inc_cycles", T_F64, OFF(shared_atomic_inc_cycles), OPT, 0, 1e5, "SM cycles per warp-wide shared +1 (ATOMS.POPC.INC), any lanes per address; 0: not known"},
    {"throughput", "shared_atomic_int_share", T_F64, OFF(shared_atomic_int_share), OPT, 0, 16, "share of a shared atomic's first pass that also holds the integer pipe (measured; 0: none)"},
    {"throughput", "global_load_issue_cycles", T_F64, OFF(global_load_issue_cycles), OPT, 0, 1e4, "scheduler cycles a warp's global, local or texture-path load holds its scheduler's issue (an ordinary instruction 1); 0: one slot"},
    {"throughput", "l1_load_bytes_per_cycle", T_F64, OFF(l1_load_bytes_per_cycle), OPT, 0, 65536, "bytes/clock/SM the L1 returns to loads that hit it; 0: not known (a line per clock)"},
    {"throughput", "l1_store_bytes_per_cycle", T_F64, OFF(l1_store_bytes_per_cycle), OPT, 0, 65536, "bytes/clock/SM of global stores towards L2: 32 per sector written, 32 per line written partly; 0: not known (a line per clock)"},

    {"memory", "dram_bytes", T_U64, OFF(dram_bytes), REQ, 1, BIG, "bytes"},
    {"memory", "dram_bandwidth_gbps", T_F64, OFF(dram_bandwidth_gbps), REQ, 0.001, 1e6, "GB/s theoretical"},
    {"memory", "dram_sustained_gbps", T_F64, OFF(dram_sustained_gbps), REQ, 0.001, 1e6, "GB/s measured streaming"},
    {"memory", "tlb_dram_line_bytes", T_F64, OFF(tlb_dram_line_bytes), OPT, 0, 1e4, "DRAM time, as bytes at dram_sustained_gbps, that translation adds to a random line reaching DRAM whose access spans beyond tlb_dram_reach_bytes; 0: not known (none)"},
    {"memory", "tlb_dram_reach_bytes", T_U64, OFF(tlb_dram_reach_bytes), OPT, 0, BIG, "bytes of random addresses whose lines reach DRAM at no translation cost; with tlb_dram_line_bytes"},
    {"memory", "dram_read_gbps", T_F64, OFF(dram_read_gbps), OPT, 0, 1e6, "GB/s a read-only stream sustains; 0: not known (dram_sustained_gbps)"},
    {"memory", "l2_bytes", T_U64, OFF(l2_bytes), REQ, 0, 1ull << 34, "bytes (0: no L2 for global memory)"},
    {"memory", "l2_carry_full_bytes", T_U64, OFF(l2_carry_full_bytes), OPT, 0, 1ull << 34, "bytes a launch may touch and leave all of in L2 for the launches after it (0: the L2's capacity)"},
    {"memory", "l2_carry_none_bytes", T_U64, OFF(l2_carry_none_bytes), OPT, 0, 1ull << 34, "bytes a launch touches from which it leaves none of them in L2 for the next (0: the L2's capacity)"},
    {"memory", "l2_bandwidth_gbps", T_F64, OFF(l2_bandwidth_gbps), OPT, 0, 1e6, "GB/s"},
    {"memory", "sector_bytes", T_U32, OFF(sector_bytes), REQ, 1, 4096, "bytes"},
    {"memory", "l1_line_bytes", T_U32, OFF(l1_line_bytes), OPT, 0, 4096, "bytes"},
    {"memory", "dram_fetch_bytes", T_U32, OFF(dram_fetch_bytes), OPT, 0, 4096, "bytes (default: sector_bytes)"},
    {"memory", "readonly_cache_bytes", T_U64, OFF(readonly_cache_bytes), OPT, 0, 1 << 30, "bytes per SM"},
    {"memory", "constant_cache_bytes", T_U64, OFF(constant_cache_bytes), OPT, 0, 1 << 30, "bytes per SM"},
    {"memory", "pcie_bandwidth_gbps", T_F64, OFF(pcie_bandwidth_gbps), OPT, 0, 1e5, "GB/s one direction"},
    {"memory", "pcie_latency_us", T_F64, OFF(pcie_latency_us), OPT, 0, 1e4, "us"},
    {"memory", "nvlink_bandwidth_gbps", T_F64, OFF(nvlink_bandwidth_gbps), OPT, 0, 1e5, "GB/s one direction"},
    {"memory", "nvlink_latency_us", T_F64, OFF(nvlink_latency_us), OPT, 0, 1e4, "us"},
    {"memory", "sparse_read_bytes_32b_apart", T_F64, OFF(sparse_read_bytes[0]), OPT, 0, 1e4, "DRAM bytes per 4-byte read, reads 32 B apart (measured)"},
    {"memory", "sparse_read_bytes_64b_apart", T_F64, OFF(sparse_read_bytes[1]), OPT, 0, 1e4, "same, 64 B apart"},
    {"memory", "sparse_read_bytes_128b_apart", T_F64, OFF(sparse_read_bytes[2]), OPT, 0, 1e4, "same, 128 B apart"},
    {"memory", "sparse_read_bytes_256b_apart", T_F64, OFF(sparse_read_bytes[3]), OPT, 0, 1e4, "same, 256 B apart"},
    {"memory", "sparse_write_bytes_partial", T_F64, OFF(sparse_write_bytes_partial), OPT, 0, 1e4, "DRAM bytes' time per random store that writes part of a sector (measured; 0: not known)"},
    {"memory", "sparse_write_bytes_sector", T_F64, OFF(sparse_write_bytes_sector), OPT, 0, 1e4, "same, per whole sector a random store writes"},
    {"memory", "sparse_write_bytes_line", T_F64, OFF(sparse_write_bytes_line), OPT, 0, 1e4, "same, per whole 128-byte line"},
    {"memory", "sparse_read_l2_bytes", T_F64, OFF(sparse_read_l2_bytes), OPT, 0, 1e4, "L2 bytes' time per read request of a line it reads one sector of (measured; 0: the sector's bytes)"},
    {"memory", "sparse_write_stores_log2", T_F64, OFF(sparse_write_stores_log2), OPT, 0, 16, "a random line n store instructions write together costs DRAM (1 + this log2 n) times its bytes' cost (measured; 0: its bytes' cost)"},
    {"memory", "sparse_write_l2_bytes", T_F64, OFF(sparse_write_l2_bytes), OPT, 0, 1e4, "L2 bytes' time per random store request of up to a sector (measured; 0: its bytes)"},
    {"memory", "sparse_write_l2_line_bytes", T_F64, OFF(sparse_write_l2_line_bytes), OPT, 0, 1e4, "same, per whole 128-byte line"},
    {"memory", "sparse_write_l2_sector_bytes", T_F64, OFF(sparse_write_l2_sector_bytes), OPT, 0, 1e4, "same, per request of whole sectors only (measured; 0: sparse_write_l2_bytes)"},
    {"memory", "atomic_same_address_per_cycle", T_F64, OFF(atomic_same_address_per_cycle), OPT, 0, 1e6, "global atomics per SM cycle, GPU-wide, all on one address; 0: not known"},
    {"memory", "atomic_warp_address_per_cycle", T_F64, OFF(atomic_warp_address_per_cycle), OPT, 0, 1e6, "same, one address per warp; 0: not known"},
    {"memory", "atomic_distinct_per_cycle", T_F64, OFF(atomic_distinct_per_cycle), OPT, 0, 1e6, "same, every thread its own address; 0: not known"},
    {"memory", "atomic_uniform_warps_per_cycle", T_F64, OFF(atomic_uniform_warps_per_cycle), OPT, 0, 1e6, "warp-level global atomics per SM cycle, GPU-wide, grid on one warp-uniform address, int add of a value; 0: not known"},
    {"memory", "atomic_uniform_inc_warps_per_cycle", T_F64, OFF(atomic_uniform_inc_warps_per_cycle), OPT, 0, 1e6, "same, add of the constant 1; 0: not known"},
    {"memory", "atomic_uniform_result_warps_per_cycle", T_F64, OFF(atomic_uniform_result_warps_per_cycle), OPT, 0, 1e6, "same, add of 1 with the result used; 0: not known"},
    {"memory", "atomic_uniform_f32_warps_per_cycle", T_F64, OFF(atomic_uniform_f32_warps_per_cycle), OPT, 0, 1e6, "same, float add; 0: not known"},
    {"memory", "atomic_l2_units", T_F64, OFF(atomic_l2_units), OPT, 0, 1e4, "L2 atomic units a large footprint keeps busy in parallel (global atomics); 0: not known"},
    {"memory", "atomic_unit_bytes", T_F64, OFF(atomic_unit_bytes), OPT, 0, 1e9, "bytes of an atomics' footprint per busy L2 atomic unit; 0: not known"},

    {"latency", "fp32_cycles", T_F64, OFF(fp32_cycles), REQ, 0.1, 1e5, "cycles"},
    {"latency", "fp64_cycles", T_F64, OFF(fp64_cycles), OPT, 0, 1e5, "cycles"},
    {"latency", "fp16_cycles", T_F64, OFF(fp16_cycles), OPT, 0, 1e5, "cycles"},
    {"latency", "int32_cycles", T_F64, OFF(int32_cycles), REQ, 0.1, 1e5, "cycles"},
    {"latency", "sfu_cycles", T_F64, OFF(sfu_cycles), REQ, 0.1, 1e5, "cycles"},
    {"latency", "sfu_call_cycles", T_F64, OFF(sfu_call_cycles), OPT, 0, 1e5, "cycles of a special-function call as compiled by default (the MUFU and its denormal guard) in a chain; 0: sfu_cycles"},
    {"latency", "conversion_cycles", T_F64, OFF(conversion_cycles), OPT, 0, 1e5, "cycles"},
    {"latency", "branch_cycles", T_F64, OFF(branch_cycles), OPT, 0, 1e5, "cycles"},
    {"latency", "branch_taken_cycles", T_F64, OFF(branch_taken_cycles), OPT, 0, 1e4, "cycles a taken loop branch adds to a dependency chain per unrolled iteration; 0: none"},
    {"latency", "predicate_branch_cycles", T_F64, OFF(predicate_branch_cycles), OPT, 0, 1e3, "stall cycles between a loop's exit compare (ISETP) and its branch, which a wait for a load does not shorten; 0: none"},
    {"latency", "shared_memory_cycles", T_F64, OFF(shared_memory_cycles), REQ, 0.1, 1e5, "cycles"},
    {"latency", "l1_hit_cycles", T_F64, OFF(l1_hit_cycles), OPT, 0, 1e5, "cycles"},
    {"latency", "l2_hit_cycles", T_F64, OFF(l2_hit_cycles), OPT, 0, 1e5, "cycles"},
    {"latency", "dram_cycles", T_F64, OFF(dram_cycles), REQ, 1, 1e6, "cycles"},
    {"latency", "constant_cycles", T_F64, OFF(constant_cycles), OPT, 0, 1e5, "cycles"},
    {"latency", "barrier_cycles", T_F64, OFF(barrier_cycles), OPT, 0, 1e5, "cycles"},
    {"latency", "atomic_cycles", T_F64, OFF(atomic_cycles), OPT, 0, 1e6, "cycles"},
    {"latency", "tensor_cycles", T_F64, OFF(tensor_cycles), OPT, 0, 1e5, "cycles"},
    {"latency", "shfl_cycles", T_F64, OFF(shfl_cycles), OPT, 0, 1e5, "cycles, __shfl_sync; 0: not known"},
    {"latency", "shfl_down_cycles", T_F64, OFF(shfl_down_cycles), OPT, 0, 1e5, "cycles, __shfl_down_sync; 0: not known"},
    {"latency", "vote_cycles", T_F64, OFF(vote_cycles), OPT, 0, 1e5, "cycles, __ballot_sync step; 0: not known"},
    {"latency", "vote_all_cycles", T_F64, OFF(vote_all_cycles), OPT, 0, 1e5, "cycles, __all_sync step; 0: not known"},
    {"latency", "match_cycles", T_F64, OFF(match_cycles), OPT, 0, 1e5, "cycles, __match_any_sync; 0: not known"},
    {"latency", "warp_reduce_cycles", T_F64, OFF(warp_reduce_cycles), OPT, 0, 1e5, "cycles, __reduce_add_sync; 0: not known"},
    {"latency", "int32_add_cycles", T_F64, OFF(int32_add_cycles), OPT, 0, 1e5, "cycles, 32-bit add; 0: not known"},
    {"latency", "int32_logic_cycles", T_F64, OFF(int32_logic_cycles), OPT, 0, 1e5, "cycles, 32-bit logic; 0: not known"},
    {"latency", "int32_shift_cycles", T_F64, OFF(int32_shift_cycles), OPT, 0, 1e5, "cycles, 32-bit shift; 0: not known"},
    {"latency", "int32_mul_cycles", T_F64, OFF(int32_mul_cycles), OPT, 0, 1e5, "cycles, 32-bit multiply; 0: not known"},
    {"latency", "idiv_cycles", T_F64, OFF(idiv_cycles), OPT, 0, 1e5, "cycles, 32-bit int /; 0: not known"},
    {"latency", "imod_cycles", T_F64, OFF(imod_cycles), OPT, 0, 1e5, "cycles, 32-bit int %; 0: not known"},
    {"latency", "fdiv_cycles", T_F64, OFF(fdiv_cycles), OPT, 0, 1e5, "cycles, fp32 '/'; 0: not known"},
    {"latency", "rcp_cycles", T_F64, OFF(rcp_cycles), OPT, 0, 1e5, "cycles, __frcp_rn; 0: not known"},
    {"latency", "rcp_fast_cycles", T_F64, OFF(rcp_fast_cycles), OPT, 0, 1e5, "cycles, rcp.approx; 0: not known"},
    {"latency", "f2i_cycles", T_F64, OFF(f2i_cycles), OPT, 0, 1e5, "cycles, float to int; 0: not known"},
    {"latency", "i2f_cycles", T_F64, OFF(i2f_cycles), OPT, 0, 1e5, "cycles, int to float; 0: not known"},
    {"latency", "f2h_cycles", T_F64, OFF(f2h_cycles), OPT, 0, 1e5, "cycles, float to half; 0: not known"},
    {"latency", "barrier_base_cycles", T_F64, OFF(barrier_base_cycles), OPT, 0, 1e5, "cycles per barrier above the work, fixed part; 0: not known"},
    {"latency", "barrier_per_warp_cycles", T_F64, OFF(barrier_per_warp_cycles), OPT, 0, 1e4, "cycles per barrier per warp of the block; 0: not known"},
    {"latency", "atomic_f32_cycles", T_F64, OFF(atomic_f32_cycles), OPT, 0, 1e6, "cycles, dependent fp32 atomicAdd on one word; 0: atomic_cycles"},
    {"latency", "l2_random_cycles", T_F64, OFF(l2_random_cycles), OPT, 0, 1e5, "cycles of an L2 hit beyond the near partition; 0: l2_hit_cycles"},
    {"latency", "dram_random_cycles", T_F64, OFF(dram_random_cycles), OPT, 0, 1e6, "cycles of a random DRAM access; 0: dram_cycles"},
    {"latency", "request_tlb_reach_bytes", T_U64, OFF(request_tlb_reach_bytes), OPT, 0, BIG, "bytes of random addresses a warp request's lines translate over without waiting; 0: not known (no such wait)"},
    {"latency", "request_tlb_line_cycles", T_F64, OFF(request_tlb_line_cycles), OPT, 0, 1e5, "cycles a warp request waits per line whose page it must translate; 0: not known"},
    {"latency", "l1_line_cycles", T_F64, OFF(l1_line_cycles), OPT, 0, 1e4, "cycles a warp request that hits L1 waits per line beyond its first; 0: none"},
    {"latency", "l1_bank_pass_cycles", T_F64, OFF(l1_bank_pass_cycles), OPT, 0, 1e4, "cycles a warp request waits per further line on one bank column (lines read at one offset); 0: none"},
    {"latency", "l2_line_cycles", T_F64, OFF(l2_line_cycles), OPT, 0, 1e4, "cycles a warp request that misses L1 waits per line beyond its first; 0: none"},
    {"latency", "dram_run_line_cycles", T_F64, OFF(dram_run_line_cycles), OPT, 0, 1e4, "cycles a warp request served by DRAM waits per line beyond the first of each run of consecutive lines (one DRAM page); the runs, not the lines, then count for dram_lines_log2_cycles; 0: every line its own run"},
    {"latency", "dram_batch_log2_cycles", T_F64, OFF(dram_batch_log2_cycles), OPT, 0, 1e5, "cycles a warp's loads in flight together wait per doubling of the DRAM runs (runs of consecutive lines) they read together beyond the most one load reads (the slowest run); 0: each load's own"},
    {"latency", "dram_run_span_bytes", T_F64, OFF(dram_run_span_bytes), OPT, 0, 1e9, "bytes within which the lines of a loop's unrolled copies count as one DRAM run (trips further apart open runs of their own, and the copies in flight together wait for the slowest: dram_batch_log2_cycles); 0: only adjacent lines"},
    {"latency", "l1_return_cycles", T_F64, OFF(l1_return_cycles), OPT, 0, 1e4, "cycles apart at which the L1 returns one warp's hits of loads in flight together (each further load of the group waits this behind the one before, or its L1 cycles where longer); 0: the L1 cycles"},
    {"latency", "l1_uniform_return_cycles", T_F64, OFF(l1_uniform_return_cycles), OPT, 0, 1e4, "cycles apart at which the L1 returns one warp's warp-uniform loads in flight together, hit or waiting with the others of their sector for its fill; 0: not known (l1_return_cycles, for their hits)"},
    {"latency", "dram_lines_log2_cycles", T_F64, OFF(dram_lines_log2_cycles), OPT, 0, 1e5, "cycles a warp request served by DRAM waits per doubling of its lines (its slowest lane), and a batch of loads per doubling of the random lines they draw; 0: none"},
    {"latency", "l1_miss_hold_l2_cycles", T_F64, OFF(l1_miss_hold_l2_cycles), OPT, 0, 1e5, "cycles a load's miss holds its L1 line when the L2 serves it, under load (the L1's lines over it bound the misses in flight); 0: no bound"},
    {"latency", "l1_miss_hold_dram_cycles", T_F64, OFF(l1_miss_hold_dram_cycles), OPT, 0, 1e5, "the same when DRAM serves it"},
    {"latency", "l2_slowest_sm_ratio", T_F64, OFF(l2_slowest_sm_ratio), OPT, 0, 2, "a launch on every SM over one on a single SM, L2 hits (0: 1)"},
    {"latency", "dram_slowest_sm_ratio", T_F64, OFF(dram_slowest_sm_ratio), OPT, 0, 2, "a launch on every SM over one on a single SM, DRAM (0: 1)"},
    {"latency", "dram_drawn_line_cycles", T_F64, OFF(dram_drawn_line_cycles), OPT, 0, 1e4, "cycles a warp's loads in flight together that draw their lines at random wait per drawn line beyond the most one load draws (beside dram_lines_log2_cycles); 0: none"},
    {"throughput", "l1_bank_pass_issue_cycles", T_F64, OFF(l1_bank_pass_issue_cycles), OPT, 0, 1e3, "SM cycles the L1 is busy per bank pass of a request (lines at one offset); 0: not known"},
    {"latency", "l1_uniform_hit_cycles", T_F64, OFF(l1_uniform_hit_cycles), OPT, 0, 1e4, "cycles of a warp-uniform global load (all lanes one address, 4 bytes) that hits L1, and of any L1 hit whose value feeds arithmetic; 0: l1_hit_cycles"},
    {"latency", "l1_uniform_word_cycles", T_F64, OFF(l1_uniform_word_cycles), OPT, 0, 1e4, "cycles each further 4-byte word per lane adds to a warp-uniform L1 hit; 0: none"},
    {"throughput", "l1_uniform_issue_cycles", T_F64, OFF(l1_uniform_issue_cycles), OPT, 0, 1e3, "SM cycles the L1 is busy per warp-uniform 4-byte load request; 0: not known"},
    {"throughput", "l1_line_issue_cycles", T_F64, OFF(l1_line_issue_cycles), OPT, 0, 1e3, "SM cycles the L1 is busy per line of a request; 0: not known"},
    {"memory", "l1_chase_full_fraction", T_F64, OFF(l1_chase_full_fraction), OPT, 0, 16, "share of the L1 data capacity a chase through drawn addresses fills with every hop a hit; 0: the footprint rule"},
    {"memory", "l1_chase_none_fraction", T_F64, OFF(l1_chase_none_fraction), OPT, 0, 16, "share of the L1 data capacity from which such a chase gets no L1 hits; 0: the footprint rule"},
    {"memory", "l2_drawn_capacity_fraction", T_F64, OFF(l2_drawn_capacity_fraction), OPT, 0, 1, "share of the L2's capacity that reads drawn at random from every SM keep their lines in; 0: not known (the whole L2)"},
    {"memory", "l2_drawn_ways", T_F64, OFF(l2_drawn_ways), OPT, 0, 65536, "lines a set of that share holds for such reads (lines fall into sets at random); 0: not known (one set)"},
    {"memory", "l2_flush_dirty_fraction", T_F64, OFF(l2_flush_dirty_fraction), OPT, 0, 1, "share of the L2 a scratch write larger than the L2 (gpuperf.flush_l2) leaves dirty, written back as a launch's own lines push it out; 0: not known (clean)"},
    {"latency", "tlb_miss_cycles", T_F64, OFF(tlb_miss_cycles), OPT, 0, 1e6, "extra cycles of an address-translation miss"},
    {"latency", "tlb_reach_bytes", T_U64, OFF(tlb_reach_bytes), OPT, 0, BIG, "bytes mapped without a TLB miss; 0: not known (no misses)"},

    {"launch", "launch_overhead_us", T_F64, OFF(launch_overhead_us), REQ, 0, 1e5, "us per back-to-back launch"},
    {"launch", "launch_latency_us", T_F64, OFF(launch_latency_us), REQ, 0, 1e5, "us, submission to completion of a null kernel"},
    {"launch", "flush_first_touch_us", T_F64, OFF(flush_first_touch_us), OPT, 0, 1e5, "us the first launch after an L2 flush that touches device memory waits before its first blocks run; 0: not known (none)"},
    {"launch", "launch_queued_us", T_F64, OFF(launch_queued_us), OPT, 0, 1e5, "us from the end of an L2 flush the host did not wait for to the completion of a null kernel queued behind it; 0: not known (launch_latency_us)"},
    {"launch", "block_launch_cycles", T_F64, OFF(block_launch_cycles), REQ, 0, 1e7, "cycles per block per SM"},
    {"launch", "block_turnaround_cycles", T_F64, OFF(block_turnaround_cycles), OPT, 0, 1e7, "cycles, shortest start-to-start period of a block slot; 0: not known"},
    {"launch", "block_slot_overhead_cycles", T_F64, OFF(block_slot_overhead_cycles), OPT, 0, 1e6, "cycles a refilled block slot spends per block beyond the block's own work (warp start and exit, release, the next dispatch), added to its chain; 0: none"},
    {"launch", "graph_launch_us", T_F64, OFF(graph_launch_us), OPT, 0, 1e5, "us of host time per CUDA graph launch; 0: not known"},
    {"launch", "graph_node_us", T_F64, OFF(graph_node_us), OPT, 0, 1e5, "us per node of a launched graph: host time, and the GPU releases the nodes this far apart; 0: not known"},
    {"launch", "kernel_dep_gap_us", T_F64, OFF(kernel_dep_gap_us), OPT, 0, 1e4, "us from a kernel's end to the start of a submitted kernel that waits for it (stream order or an event); 0: none"},
    {"launch", "graph_dep_gap_us", T_F64, OFF(graph_dep_gap_us), OPT, 0, 1e4, "us from a graph kernel node's end to the start of a kernel node that depends on it; 0: none"},
};
#define N_SCHEMA GP_ARRAY_LEN(SCHEMA)

static const char *const SECTIONS[] = {"device", "sm",     "throughput", "memory",
                                       "latency", "launch", "arch"};
#define N_SECTIONS GP_ARRAY_LEN(SECTIONS)

/* One key=value as read, before validation. */
typedef struct raw_entry {
    int section; /* index into SECTIONS */
    char key[64];
    char value[200];
    int line;
} raw_entry_t;

#define MAX_ENTRIES 256

/* Parser state shared by the inih reader and handler. */
typedef struct parse_state {
    const char *label;
    const char *text;
    size_t len, pos;
    int line;                 /* line the reader handed out last */
    int section_line[N_SECTIONS];
    int cur_section;          /* -1 before any header */
    raw_entry_t entries[MAX_ENTRIES];
    int n_entries;
    gp_err_t *err;
    int failed;
} parse_state_t;

/* Record the first error at the current line. */
static int fail_at(parse_state_t *st, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail_at(parse_state_t *st, int line, const char *fmt, ...)
{
    if (!st->failed) {
        char what[700];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        gp_err_set(st->err, "%s:%d: %s", st->label, line, what);
        st->failed = 1;
    }
    return 0;
}

static int section_index(const char *name)
{
    size_t i;
    for (i = 0; i < N_SECTIONS; i++)
        if (strcmp(SECTIONS[i], name) == 0)
            return (int)i;
    return -1;
}

/* Validate a section header line the reader is about to hand to inih. */
static void check_header(parse_state_t *st, const char *line)
{
    const char *end = strchr(line, ']');
    char name[64];
    size_t n;
    int idx;
    if (!end) {
        fail_at(st, st->line, "section header without ']'");
        return;
    }
    n = (size_t)(end - line - 1);
    if (n == 0 || n >= sizeof name) {
        fail_at(st, st->line, "empty or over-long section name");
        return;
    }
    memcpy(name, line + 1, n);
    name[n] = '\0';
    idx = section_index(name);
    if (idx < 0) {
        fail_at(st, st->line,
                "unknown section [%s] (sections: [device] [sm] [throughput] [memory] "
                "[latency] [launch] [arch])",
                name);
        return;
    }
    if (st->section_line[idx]) {
        fail_at(st, st->line, "duplicate section [%s] (first at line %d)", name,
                st->section_line[idx]);
        return;
    }
    st->section_line[idx] = st->line;
    st->cur_section = idx;
}

/*
 * inih reader: hands out one line at a time, so the handler knows the line
 * number, and refuses what inih would silently accept (binary data, long
 * lines, indented continuation lines).
 */
static char *reader(char *str, int num, void *stream)
{
    parse_state_t *st = stream;
    size_t start = st->pos, end, n, i;
    const char *p;
    if (st->pos >= st->len || st->failed)
        return NULL;
    end = start;
    while (end < st->len && st->text[end] != '\n')
        end++;
    st->pos = end < st->len ? end + 1 : end;
    st->line++;
    n = end - start;
    if (n > 0 && st->text[start + n - 1] == '\r')
        n--;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)st->text[start + i];
        if (c == 0 || (c < 0x20 && c != '\t') || c == 0x7f) {
            fail_at(st, st->line, "binary data (byte 0x%02x) in a device file", c);
            return NULL;
        }
    }
    if (n > MAX_LINE_CHARS || (int)n >= num - 1) {
        fail_at(st, st->line, "line longer than %d characters", MAX_LINE_CHARS);
        return NULL;
    }
    p = st->text + start;
    while (n > 0 && (*p == ' ' || *p == '\t')) { /* no continuation lines */
        p++;
        n--;
    }
    memcpy(str, p, n);
    str[n] = '\0';
    if (str[0] == '[')
        check_header(st, str);
    if (st->failed)
        return NULL;
    return str;
}

/* inih handler: collect key=value pairs, rejecting duplicates. */
static int handler(void *user, const char *section, const char *name, const char *value)
{
    parse_state_t *st = user;
    int idx, i;
    raw_entry_t *e;
    (void)section; /* the reader tracked it, with duplicate detection */
    idx = st->cur_section;
    if (idx < 0)
        return fail_at(st, st->line, "'%s' appears before any [section]", name);
    if (!*name)
        return fail_at(st, st->line, "a key name is empty");
    if (strlen(name) >= sizeof e->key)
        return fail_at(st, st->line, "key name longer than %zu characters", sizeof e->key - 1);
    for (i = 0; i < st->n_entries; i++)
        if (st->entries[i].section == idx && strcmp(st->entries[i].key, name) == 0)
            return fail_at(st, st->line, "duplicate key '%s' in [%s] (first at line %d)", name,
                           SECTIONS[idx], st->entries[i].line);
    if (st->n_entries >= MAX_ENTRIES)
        return fail_at(st, st->line, "more than %d keys", MAX_ENTRIES);
    e = &st->entries[st->n_entries++];
    e->section = idx;
    gp_strlcpy(e->key, name, sizeof e->key);
    if (gp_strlcpy(e->value, value, sizeof e->value))
        return fail_at(st, st->line, "value of '%s' too long", name);
    e->line = st->line;
    return 1;
}

static const key_spec_t *find_spec(int section, const char *key)
{
    size_t i;
    for (i = 0; i < N_SCHEMA; i++)
        if (strcmp(SCHEMA[i].section, SECTIONS[section]) == 0 &&
            strcmp(SCHEMA[i].key, key) == 0)
            return &SCHEMA[i];
    return NULL;
}

/* Closest schema key in a section (for "did you mean"). */
static const char *suggest_key(int section, const char *key)
{
    size_t i, best_score = 0;
    const char *best = NULL;
    for (i = 0; i < N_SCHEMA; i++) {
        size_t score = 0, j;
        const char *k = SCHEMA[i].key;
        if (strcmp(SCHEMA[i].section, SECTIONS[section]) != 0)
            continue;
        for (j = 0; k[j] && key[j] && k[j] == key[j]; j++)
            score++;
        if (strstr(k, key) || strstr(key, k))
            score += 4;
        if (score > best_score) {
            best_score = score;
            best = k;
        }
    }
    return best_score >= 4 ? best : NULL;
}

/* Parse a numeric value and check its range and integrality. */
static int parse_value(parse_state_t *st, const raw_entry_t *e, double min, double max,
                       int integral, double *out)
{
    gp_err_t perr;
    double v;
    if (gp_parse_number(e->value, &v, &perr)) {
        fail_at(st, e->line, "[%s] %s: %s", SECTIONS[e->section], e->key, perr.msg);
        return -1;
    }
    if (integral && v != floor(v)) {
        fail_at(st, e->line, "[%s] %s = %s: must be a whole number", SECTIONS[e->section],
                e->key, e->value);
        return -1;
    }
    if (v < min || v > max) {
        fail_at(st, e->line, "[%s] %s = %s: out of range (%g to %g)", SECTIONS[e->section],
                e->key, e->value, min, max);
        return -1;
    }
    *out = v;
    return 0;
}

/* Store one schema key into the device. */
static int apply_key(parse_state_t *st, const key_spec_t *ks, const raw_entry_t *e,
                     gp_device_t *dev)
{
    char *base = (char *)dev;
    double v = 0;
    switch (ks->type) {
    case T_STR: {
        const char *s = e->value;
        size_t i;
        if (!*s)
            return fail_at(st, e->line, "[%s] %s is empty", ks->section, ks->key), -1;
        for (i = 0; s[i]; i++)
            if ((unsigned char)s[i] < 0x20)
                return fail_at(st, e->line, "[%s] %s has control characters", ks->section,
                               ks->key),
                       -1;
        if (gp_strlcpy(base + ks->offset, s, GP_NAME_MAX))
            return fail_at(st, e->line, "[%s] %s longer than %d characters", ks->section,
                           ks->key, GP_NAME_MAX - 1),
                   -1;
        return 0;
    }
    case T_CC: {
        unsigned maj, min;
        char tail;
        if (sscanf(e->value, "%u.%u%c", &maj, &min, &tail) != 2 || maj < 1 || maj > 99 ||
            min > 9 || !isdigit((unsigned char)e->value[0]))
            return fail_at(st, e->line,
                           "compute_capability = %s: write major.minor, e.g. 9.0 or 1.3",
                           e->value),
                   -1;
        dev->cc_major = maj;
        dev->cc_minor = min;
        return 0;
    }
    case T_U32:
        if (parse_value(st, e, ks->min, ks->max, 1, &v))
            return -1;
        *(uint32_t *)(base + ks->offset) = (uint32_t)v;
        return 0;
    case T_U64:
        if (parse_value(st, e, ks->min, ks->max, 1, &v))
            return -1;
        *(uint64_t *)(base + ks->offset) = (uint64_t)v;
        return 0;
    case T_F64:
        if (parse_value(st, e, ks->min, ks->max, 0, &v))
            return -1;
        *(double *)(base + ks->offset) = v;
        return 0;
    }
    return -1;
}

/* Line of key `key` in `section`, or of the section header, or 1. */
static int line_of(const parse_state_t *st, const char *section, const char *key)
{
    int s = section_index(section), i;
    for (i = 0; i < st->n_entries; i++)
        if (st->entries[i].section == s && strcmp(st->entries[i].key, key) == 0)
            return st->entries[i].line;
    return s >= 0 && st->section_line[s] ? st->section_line[s] : 1;
}

/* Checks that relate several keys. */
static int check_consistency(parse_state_t *st, gp_device_t *d)
{
#define CHECK(cond, sec, key, ...)                                                  \
    do {                                                                            \
        if (!(cond))                                                                \
            return fail_at(st, line_of(st, sec, key), __VA_ARGS__), -1;             \
    } while (0)
    if (!d->shared_memory_per_block_optin_bytes)
        d->shared_memory_per_block_optin_bytes = d->shared_memory_per_block_bytes;
    if (!d->dispatch_per_scheduler)
        d->dispatch_per_scheduler = 1;
    if (!d->dram_fetch_bytes)
        d->dram_fetch_bytes = d->sector_bytes;
    if (!d->l1_line_bytes)
        d->l1_line_bytes = 128;
    CHECK(d->max_threads_per_sm % d->warp_size == 0, "sm", "max_threads_per_sm",
          "max_threads_per_sm = %u is not a multiple of warp_size %u", d->max_threads_per_sm,
          d->warp_size);
    CHECK(d->max_threads_per_block <= d->max_threads_per_sm, "sm",
          "max_threads_per_block", "max_threads_per_block %u exceeds max_threads_per_sm %u",
          d->max_threads_per_block, d->max_threads_per_sm);
    CHECK(d->shared_memory_per_block_bytes <= d->shared_memory_per_sm_bytes, "sm",
          "shared_memory_per_block_bytes",
          "shared_memory_per_block_bytes %llu exceeds shared_memory_per_sm_bytes %llu",
          (unsigned long long)d->shared_memory_per_block_bytes,
          (unsigned long long)d->shared_memory_per_sm_bytes);
    CHECK(d->shared_memory_per_block_optin_bytes >= d->shared_memory_per_block_bytes &&
              d->shared_memory_per_block_optin_bytes <= d->shared_memory_per_sm_bytes,
          "sm", "shared_memory_per_block_optin_bytes",
          "shared_memory_per_block_optin_bytes must lie between the per-block (%llu) and "
          "per-SM (%llu) sizes",
          (unsigned long long)d->shared_memory_per_block_bytes,
          (unsigned long long)d->shared_memory_per_sm_bytes);
    CHECK(d->max_registers_per_block <= d->registers_per_sm, "sm",
          "max_registers_per_block", "max_registers_per_block exceeds registers_per_sm");
    CHECK(d->l2_slowest_sm_ratio == 0 || d->l2_slowest_sm_ratio >= 1, "latency",
          "l2_slowest_sm_ratio",
          "l2_slowest_sm_ratio = %g: the slowest SM is no faster than a typical one (1 or "
          "more; 0: not known)",
          d->l2_slowest_sm_ratio);
    CHECK(d->dram_slowest_sm_ratio == 0 || d->dram_slowest_sm_ratio >= 1, "latency",
          "dram_slowest_sm_ratio",
          "dram_slowest_sm_ratio = %g: the slowest SM is no faster than a typical one (1 or "
          "more; 0: not known)",
          d->dram_slowest_sm_ratio);
    CHECK(d->fp64_lanes == 0 || d->fp64_cycles > 0, "latency", "fp64_cycles",
          "fp64_lanes is %g but [latency] fp64_cycles is missing", d->fp64_lanes);
    CHECK((d->l1_chase_full_fraction > 0) == (d->l1_chase_none_fraction > 0) &&
              d->l1_chase_full_fraction <= d->l1_chase_none_fraction,
          "memory", "l1_chase_none_fraction",
          "l1_chase_full_fraction (%g) and l1_chase_none_fraction (%g) come together, the "
          "first no larger than the second",
          d->l1_chase_full_fraction, d->l1_chase_none_fraction);
    CHECK(d->tensor_clock_mhz <= d->core_clock_mhz, "device", "tensor_clock_mhz",
          "tensor_clock_mhz %g exceeds core_clock_mhz %g (it is the lower clock a kernel "
          "issuing tensor-core instructions runs at; leave it out where there is none)",
          d->tensor_clock_mhz, d->core_clock_mhz);
    CHECK((d->l2_carry_full_bytes > 0) == (d->l2_carry_none_bytes > 0) &&
              d->l2_carry_full_bytes < d->l2_carry_none_bytes + (d->l2_carry_none_bytes == 0) &&
              d->l2_carry_none_bytes <= d->l2_bytes,
          "memory", "l2_carry_none_bytes",
          "l2_carry_full_bytes (%llu) and l2_carry_none_bytes (%llu) come together, the first "
          "below the second, the second no larger than l2_bytes (%llu)",
          (unsigned long long)d->l2_carry_full_bytes, (unsigned long long)d->l2_carry_none_bytes,
          (unsigned long long)d->l2_bytes);
    CHECK(d->dram_sustained_gbps <= d->dram_bandwidth_gbps * 1.0001, "memory",
          "dram_sustained_gbps", "dram_sustained_gbps %g exceeds dram_bandwidth_gbps %g",
          d->dram_sustained_gbps, d->dram_bandwidth_gbps);
    CHECK(d->dram_read_gbps == 0 || (d->dram_read_gbps >= d->dram_sustained_gbps &&
                                     d->dram_read_gbps <= d->dram_bandwidth_gbps * 1.0001),
          "memory", "dram_read_gbps",
          "dram_read_gbps %g is outside dram_sustained_gbps %g .. dram_bandwidth_gbps %g (a "
          "read-only stream runs no slower than a copy and no faster than the bus; 0: not known)",
          d->dram_read_gbps, d->dram_sustained_gbps, d->dram_bandwidth_gbps);
    {
        int k, given = 0;
        for (k = 0; k < 4; k++)
            given += d->sparse_read_bytes[k] > 0;
        CHECK(given == 0 || given == 4, "memory", "sparse_read_bytes_32b_apart",
              "give all four sparse_read_bytes_*_apart keys or none");
        for (k = 1; k < 4 && given; k++)
            CHECK(d->sparse_read_bytes[k] >= d->sparse_read_bytes[k - 1], "memory",
                  "sparse_read_bytes_32b_apart",
                  "sparse_read_bytes_*_apart must not fall as the reads spread out");
    }
    CHECK((d->sparse_write_bytes_partial > 0) == (d->sparse_write_bytes_sector > 0) &&
              (d->sparse_write_bytes_sector > 0) == (d->sparse_write_bytes_line > 0),
          "memory", "sparse_write_bytes_partial", "give all three sparse_write_bytes_* keys or none");
    CHECK((d->tlb_dram_reach_bytes > 0) == (d->tlb_dram_line_bytes > 0), "memory",
          "tlb_dram_reach_bytes",
          "give tlb_dram_reach_bytes and tlb_dram_line_bytes together or neither");
    CHECK((d->request_tlb_reach_bytes > 0) == (d->request_tlb_line_cycles > 0), "latency",
          "request_tlb_reach_bytes",
          "give request_tlb_reach_bytes and request_tlb_line_cycles together or neither");
    CHECK((d->sparse_write_l2_bytes > 0) == (d->sparse_write_l2_line_bytes > 0), "memory",
          "sparse_write_l2_bytes",
          "give sparse_write_l2_bytes and sparse_write_l2_line_bytes together or neither");
    CHECK(!(d->sparse_write_l2_sector_bytes > 0) || d->sparse_write_l2_bytes > 0, "memory",
          "sparse_write_l2_sector_bytes",
          "sparse_write_l2_sector_bytes needs sparse_write_l2_bytes and sparse_write_l2_line_bytes");
    CHECK(d->max_block_x <= d->max_threads_per_block || d->max_block_x <= 1024, "sm",
          "max_block_x", "max_block_x exceeds max_threads_per_block");
    /* the largest grid's block count must fit the 64-bit counts of the engine */
    CHECK((double)d->max_grid_x * (double)d->max_grid_y * (double)d->max_grid_z < 0x1p64, "sm",
          "max_grid_z",
          "max_grid_x x max_grid_y x max_grid_z = %.4g blocks is more than gpuperf counts "
          "(2^64); GPUs allow at most (2^31-1) x 65535 x 65535",
          (double)d->max_grid_x * (double)d->max_grid_y * (double)d->max_grid_z);
    return 0;
#undef CHECK
}

/* Validate the [arch] keys against what the plugin declared. */
static int apply_arch_params(parse_state_t *st, const gp_plugin_t *p, gp_device_t *dev)
{
    int i;
    uint32_t k;
    int arch = section_index("arch");
    int seen[GP_MAX_ARCH_PARAMS] = {0};
    for (k = 0; k < p->n_params; k++)
        dev->arch_params[k] = p->params[k].default_value;
    for (i = 0; i < st->n_entries; i++) {
        const raw_entry_t *e = &st->entries[i];
        double v;
        if (e->section != arch)
            continue;
        for (k = 0; k < p->n_params; k++)
            if (strcmp(p->params[k].key, e->key) == 0)
                break;
        if (k == p->n_params)
            return fail_at(st, e->line, "unknown key '%s' in [arch]: plugin '%s' declares %s%u key(s)",
                           e->key, p->name, p->n_params ? "" : "no keys, ", p->n_params),
                   -1;
        if (parse_value(st, e, p->params[k].min, p->params[k].max, 0, &v))
            return -1;
        dev->arch_params[k] = v;
        seen[k] = 1;
    }
    for (k = 0; k < p->n_params; k++)
        if (p->params[k].required && !seen[k])
            return fail_at(st, st->section_line[arch] ? st->section_line[arch] : 1,
                           "[arch] lacks '%s', which plugin '%s' requires (%s)",
                           p->params[k].key, p->name,
                           p->params[k].help ? p->params[k].help : ""),
                   -1;
    return 0;
}

/* Check the arch name and load its plugin. */
static int load_plugin(parse_state_t *st, gp_device_t *dev, const gp_arch_t **arch)
{
    const char *a = dev->arch;
    size_t i;
    int line = line_of(st, "device", "arch");
    gp_err_t perr;
    const gp_arch_t *ar;
    char ccs[128];
    if (strchr(a, '/') || strstr(a, ".so") || strchr(a, '\\'))
        return fail_at(st, line,
                       "arch = %s is a path; name a plugin instead (e.g. arch = hopper; "
                       "`gpuperf plugins` lists them, GPUPERF_PLUGIN_PATH adds folders)",
                       a),
               -1;
    for (i = 0; a[i]; i++)
        if (!(islower((unsigned char)a[i]) || isdigit((unsigned char)a[i]) || a[i] == '-' ||
              a[i] == '_'))
            return fail_at(st, line,
                           "arch = %s: a plugin name uses only a-z, 0-9, '-' and '_'", a),
                   -1;
    ar = gp_arch_get(a, &perr);
    if (!ar)
        return fail_at(st, line, "%s", perr.msg), -1;
    if (!gp_arch_serves(ar, dev->cc_major, dev->cc_minor)) {
        gp_arch_ccs_text(ar, ccs, sizeof ccs);
        return fail_at(st, line_of(st, "device", "compute_capability"),
                       "compute capability %u.%u is not served by plugin '%s' (it serves %s)",
                       dev->cc_major, dev->cc_minor, a, ccs),
               -1;
    }
    if (apply_arch_params(st, ar->plugin, dev))
        return -1;
    if (ar->plugin->check_device) {
        char msg[512] = "";
        if (gp_arch_call_check_device(ar, dev, msg, sizeof msg) != 0) {
            msg[sizeof msg - 1] = '\0';
            return fail_at(st, 1, "plugin '%s' rejects this device: %s", a,
                           *msg ? msg : "(no reason given)"),
                   -1;
        }
    }
    if (arch)
        *arch = ar;
    return 0;
}

int gp_device_load_text(const char *label, const char *text, size_t len, gp_device_t *dev,
                        const gp_arch_t **arch, gp_err_t *err)
{
    parse_state_t *st;
    int rc, i;
    size_t k;
    const char *slash, *dot;
    char id[GP_NAME_MAX];

    if (arch)
        *arch = NULL;
    memset(dev, 0, sizeof *dev);
    st = calloc(1, sizeof *st);
    if (!st)
        return gp_err_set(err, "%s: out of memory", label);
    st->label = label;
    st->text = text;
    st->len = len;
    st->cur_section = -1;
    st->err = err;
    for (k = 0; k < len && strchr(" \t\r\n", text[k]) && text[k]; k++)
        ; /* text need not end in a NUL: never read past len */
    if (k == len) {
        gp_err_set(err, "%s:1: the device file is empty", label);
        free(st);
        return -1;
    }
    rc = ini_parse_stream(reader, st, handler, st);
    if (!st->failed && rc > 0)
        fail_at(st, rc, "syntax error: expected [section], key = value or a ; comment");
    else if (!st->failed && rc < 0)
        fail_at(st, 1, "cannot be parsed (error %d)", rc);
    if (st->failed)
        goto fail;

    /* every key must be known */
    for (i = 0; i < st->n_entries; i++) {
        const raw_entry_t *e = &st->entries[i];
        const key_spec_t *ks;
        if (strcmp(SECTIONS[e->section], "arch") == 0)
            continue;
        ks = find_spec(e->section, e->key);
        if (!ks) {
            const char *hint = suggest_key(e->section, e->key);
            if (hint)
                fail_at(st, e->line, "unknown key '%s' in [%s]; did you mean '%s'?", e->key,
                        SECTIONS[e->section], hint);
            else
                fail_at(st, e->line, "unknown key '%s' in [%s] (see docs/device-files.md)",
                        e->key, SECTIONS[e->section]);
            goto fail;
        }
        if (apply_key(st, ks, e, dev))
            goto fail;
    }
    /* every required key must be there */
    for (k = 0; k < N_SCHEMA; k++) {
        const key_spec_t *ks = &SCHEMA[k];
        int found = 0, s = section_index(ks->section);
        for (i = 0; i < st->n_entries && !found; i++)
            found = st->entries[i].section == s && strcmp(st->entries[i].key, ks->key) == 0;
        if (!found && ks->required) {
            if (st->section_line[s])
                fail_at(st, st->section_line[s], "[%s] lacks the required key '%s' (%s)",
                        ks->section, ks->key, ks->help);
            else
                fail_at(st, 1, "missing section [%s] (first required key: %s, %s)",
                        ks->section, ks->key, ks->help);
            goto fail;
        }
    }
    if (check_consistency(st, dev))
        goto fail;

    /* id = file base name without .ini */
    slash = strrchr(label, '/');
    gp_strlcpy(id, slash ? slash + 1 : label, sizeof id);
    dot = strrchr(id, '.');
    if (dot && strcmp(dot, ".ini") == 0)
        id[dot - id] = '\0';
    gp_strlcpy(dev->id, id, sizeof dev->id);

    if (load_plugin(st, dev, arch))
        goto fail;
    free(st);
    return 0;
fail:
    free(st);
    memset(dev, 0, sizeof *dev);
    return -1;
}

int gp_device_load(const char *path, gp_device_t *dev, const gp_arch_t **arch, gp_err_t *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc;
    if (gp_read_file(path, MAX_FILE_BYTES, &text, &len, err))
        return -1;
    /* NUL bytes are refused by the reader, at their line */
    rc = gp_device_load_text(path, text, len, dev, arch, err);
    free(text);
    return rc;
}

int gp_device_resolve(const char *name_or_path, char *path, size_t size, gp_err_t *err)
{
    gp_search_path_t sp;
    size_t i, n = strlen(name_or_path);
    char tried[1024] = "";
    struct stat st;
    if (n == 0)
        return gp_err_set(err, "empty device name");
    if (strchr(name_or_path, '/') || (n > 4 && strcmp(name_or_path + n - 4, ".ini") == 0)) {
        if (gp_strlcpy(path, name_or_path, size))
            return gp_err_set(err, "%s: path too long", name_or_path);
        return 0;
    }
    if (!gp_is_plain_name(name_or_path))
        return gp_err_set(err, "device '%s': not a device name", name_or_path);
    gp_paths_devices(&sp);
    for (i = 0; i < sp.n; i++) {
        gp_snprintf(path, size, "%s/%s.ini", sp.dirs[i], name_or_path);
        if (stat(path, &st) == 0) /* not opened: a FIFO would block */
            return 0;
        if (strlen(tried) + strlen(sp.dirs[i]) + 3 < sizeof tried) {
            if (*tried)
                strcat(tried, ", ");
            strcat(tried, sp.dirs[i]);
        }
    }
    return gp_err_set(err,
                      "device '%s' not found (looked in: %s); `gpuperf devices` lists the "
                      "known cards, GPUPERF_DEVICE_PATH adds folders, or give a path to an "
                      ".ini file",
                      name_or_path, *tried ? tried : "no device folder exists");
}

int gp_device_open(const char *name_or_path, gp_device_t *dev, const gp_arch_t **arch,
                   gp_err_t *err)
{
    char path[GP_PATH_MAX];
    if (gp_device_resolve(name_or_path, path, sizeof path, err))
        return -1;
    return gp_device_load(path, dev, arch, err);
}

void gp_device_scan(gp_device_scan_fn fn, void *ud)
{
    gp_search_path_t sp;
    size_t i;
    char **seen = NULL;
    size_t n_seen = 0, cap_seen = 0;
    gp_paths_devices(&sp);
    for (i = 0; i < sp.n; i++) {
        char **names;
        size_t n, j;
        if (gp_list_dir(sp.dirs[i], ".ini", &names, &n) != 0)
            continue;
        for (j = 0; j < n; j++) {
            char path[GP_PATH_MAX];
            gp_device_t dev;
            const gp_arch_t *arch = NULL;
            gp_err_t err;
            size_t s;
            int dup = 0;
            /* a name found earlier in the search path hides this one */
            for (s = 0; s < n_seen; s++)
                dup |= strcmp(seen[s], names[j]) == 0;
            if (dup)
                continue;
            if (n_seen == cap_seen) {
                char **ns = realloc(seen, (cap_seen = cap_seen ? cap_seen * 2 : 32) * sizeof *seen);
                if (!ns)
                    continue;
                seen = ns;
            }
            seen[n_seen++] = names[j];
            names[j] = NULL; /* seen owns it now */
            gp_snprintf(path, sizeof path, "%s/%s", sp.dirs[i], seen[n_seen - 1]);
            if (gp_device_load(path, &dev, &arch, &err) == 0)
                fn(ud, path, &dev, arch, NULL);
            else
                fn(ud, path, NULL, NULL, err.msg);
        }
        gp_free_names(names, n);
    }
    gp_free_names(seen, n_seen);
}

size_t gp_device_keys(const gp_device_key_info_t **out)
{
    static gp_device_key_info_t info[N_SCHEMA];
    static int done;
    size_t i;
    if (!done) {
        for (i = 0; i < N_SCHEMA; i++) {
            info[i].section = SCHEMA[i].section;
            info[i].key = SCHEMA[i].key;
            info[i].unit_help = SCHEMA[i].help;
            info[i].required = SCHEMA[i].required;
            info[i].min = SCHEMA[i].min;
            info[i].max = SCHEMA[i].max;
        }
        done = 1;
    }
    *out = info;
    return N_SCHEMA;
}

double gp_device_cycle_us(const gp_device_t *dev)
{
    return 1.0 / dev->core_clock_mhz;
}
