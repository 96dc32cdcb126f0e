/*
 * op_rules.h - availability and default cost of the warp operations and the
 * division-class arithmetic, shared by every plugin (one home). A device file
 * that measures an op ([throughput] shfl_lanes ... , [latency] shfl_cycles
 * ...: tools/calibrate) overrides the cost; these rules give it otherwise.
 *
 * Availability ([sources: pg-l] "Warp Shuffle Functions", "Warp Vote
 * Functions", "Warp Match Functions", "Warp Reduce Functions"; [sources:
 * pg42] Table F-1 for vote on 1.2): shuffles from 3.0, votes from 1.2,
 * __match_*_sync from 7.0, __reduce_*_sync from 8.0; division and
 * reciprocals everywhere.
 *
 * Costs:
 *  - shuffle: 32 results per clock per SM on every compute capability that
 *    has it (throughput table, "warp shuffle" row: [sources: pg-t6] 3.x,
 *    [sources: pg-l] 5.x-9.0); it moves registers through the shared-memory
 *    crossbar, so it takes the load/store pipe and the shared-memory latency
 *    (a model choice);
 *  - vote: one ALU instruction (VOTE in the SASS of the sm_90 calibration
 *    kernels, [sources: h200-calibrated] run3 sass_counts.txt);
 *  - match and warp reduce: no published rate; the 9.0 measurement
 *    (MATCH.ANY: 4.0 results/clock/SM, 61 cycles; REDUX.SUM: 16.0, 44
 *    cycles; [sources: h200-calibrated] run3 match_*, warp_reduce_*) stands
 *    for the generations that have them;
 *  - integer division or modulo by a run-time value: the sequence nvcc emits
 *    (a float reciprocal estimate refined in integer arithmetic: I2F, MUFU.RCP,
 *    F2I, two IMAD.HI, two IMAD and about 16 adds, selects, compares and
 *    moves), 23 instructions on the integer pipe ([sources: h200-calibrated]
 *    run3 sass_counts.txt, k_latency<OpIdiv>, per division);
 *  - fp32 '/': the fast path of nvcc's IEEE division, MUFU.RCP, FCHK, five
 *    FFMA and a branch: 8 instructions on the fp32 pipe (same SASS,
 *    k_latency<OpFdiv>);
 *  - reciprocal: one special-function instruction (MUFU.RCP; throughput
 *    table, "32-bit floating-point reciprocal" row, the SFU rate: [sources:
 *    pg-t6], [sources: pg-l]).
 */
#ifndef GP_PLUGINS_OP_RULES_H
#define GP_PLUGINS_OP_RULES_H

#include "gpuperf/plugin.h"

#define GP_WARP_OP_RULES                                                          \
    [GP_OP_SHFL] = {.since = {3, 0}, .pipe = GP_PIPE_LDST, .lanes = 32},          \
    [GP_OP_VOTE] = {.since = {1, 2}, .pipe = GP_PIPE_INT},                        \
    [GP_OP_MATCH] = {.since = {7, 0}, .pipe = GP_PIPE_INT, .lanes = 4,            \
                     .latency_cycles = 61},                                       \
    [GP_OP_WARP_REDUCE] = {.since = {8, 0}, .pipe = GP_PIPE_INT, .lanes = 16,     \
                           .latency_cycles = 44},                                 \
    [GP_OP_IDIV] = {.pipe = GP_PIPE_INT, .instructions = 23},                     \
    [GP_OP_FDIV] = {.pipe = GP_PIPE_FP32, .instructions = 8},                     \
    [GP_OP_RCP] = {.pipe = GP_PIPE_SFU}

#endif /* GP_PLUGINS_OP_RULES_H */
