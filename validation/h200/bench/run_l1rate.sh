#!/usr/bin/env bash
# run_l1rate.sh - builds bench_l1rate with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives l1rate.csv (the rows), l1rate_cycles.csv (clock64
# cycles of each block's loop: median, min, max, per request of the SM, the most blocks
# an SM held, the SMs used), ptxas_l1rate.txt, sass_l1rate.txt, sass_counts_l1rate.txt,
# clocks.csv and run.log.
#
# usage: run_l1rate.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" l1rate "$dest" l1rate_cycles.csv
rc=$?
"$here/sass_counts.sh" "$dest/sass_l1rate.txt" "$dest/sass_counts_l1rate.txt"
exit "$rc"
