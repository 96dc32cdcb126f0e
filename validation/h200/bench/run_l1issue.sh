#!/usr/bin/env bash
# run_l1issue.sh - builds bench_l1issue with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives l1issue.csv (the rows), l1issue_cycles.csv (clock64
# cycles of each block's loop and SM cycles a load from the event time), ptxas_l1issue.txt,
# sass_l1issue.txt, sass_counts_l1issue.txt (per kernel, how often each opcode appears in its
# SASS), clocks.csv and run.log; where ncu is found, ncu_l1issue.csv.gz and
# ncu_l1issue.log (profile_ncu.sh): one launch of every variant at 64 warps per SM
# (L1ISSUE_PROFILE=1) with its instructions by pipe, the SM's issue-active and elapsed
# cycles, the L1's requests and wavefronts and the stall reasons.
#
# usage: run_l1issue.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" l1issue "$dest" l1issue_cycles.csv
rc=$?
"$here/sass_counts.sh" "$dest/sass_l1issue.txt" "$dest/sass_counts_l1issue.txt"
if [ "$rc" -eq 0 ] && command -v ncu >/dev/null; then
  "$here/profile_ncu.sh" l1issue L1ISSUE_PROFILE k_l1i \
smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_lsu.sum,\
smsp__inst_executed_pipe_alu.sum,sm__issue_active.sum,sm__inst_executed_pipe_lsu.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,\
l1tex__data_pipe_lsu_wavefronts.sum,l1tex__lsuin_requests.sum,\
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,\
sm__cycles_elapsed.avg,gpu__time_duration.sum \
    "$dest/ncu_l1issue.csv.gz" @WORK@/p.csv @WORK@/c.csv 0
fi
exit "$rc"
