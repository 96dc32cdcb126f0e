#!/usr/bin/env bash
# run_tlb.sh - builds bench_tlb with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives tlb.csv (the rows), tlb_cycles.csv (clock64 cycles
# per trip of each warp's loop: median, p10, p90 over warps), ptxas_tlb.txt,
# sass_tlb.txt.gz, clocks.csv and run.log.
#
# usage: run_tlb.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" tlb "$dest" tlb_cycles.csv
rc=$?
[ -f "$dest/sass_tlb.txt" ] && gzip -9f "$dest/sass_tlb.txt"
exit "$rc"
