#!/usr/bin/env bash
# run_lform.sh - builds bench_lform with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives lform.csv (the rows), lform_cycles.csv (clock64
# cycles of each block's loop and SM cycles a load from the event time), ptxas_lform.txt,
# sass_lform.txt, sass_counts_lform.txt (per kernel, how often each opcode appears in its
# SASS), clocks.csv and run.log; where ncu is found, ncu_lform.csv.gz and ncu_lform.log
# (profile_ncu.sh): one launch of every variant at 64 warps per SM (LFORM_PROFILE=1) with
# its instructions by pipe, the pipes' active cycles, the L1's requests and wavefronts and
# the SM's issue and elapsed cycles.
#
# usage: run_lform.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" lform "$dest" lform_cycles.csv
rc=$?
"$here/sass_counts.sh" "$dest/sass_lform.txt" "$dest/sass_counts_lform.txt"
if [ "$rc" -eq 0 ] && command -v ncu >/dev/null; then
  "$here/profile_ncu.sh" lform LFORM_PROFILE k_lf \
@pipes,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,\
l1tex__data_pipe_lsu_wavefronts.sum,l1tex__lsuin_requests.sum,\
l1tex__throughput.avg.pct_of_peak_sustained_active \
    "$dest/ncu_lform.csv.gz" @WORK@/p.csv @WORK@/c.csv 0
fi
exit "$rc"
