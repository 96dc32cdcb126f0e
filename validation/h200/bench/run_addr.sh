#!/usr/bin/env bash
# run_addr.sh - builds bench_addr with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives addr.csv (the rows), addr_cycles.csv (clock64
# cycles of each block's loop: median, min, max, per request of the SM, the most blocks
# an SM held, the SMs used), ptxas_addr.txt, sass_addr.txt, sass_counts_addr.txt,
# clocks.csv and run.log.
#
# usage: run_addr.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" addr "$dest" addr_cycles.csv
rc=$?
"$here/sass_counts.sh" "$dest/sass_addr.txt" "$dest/sass_counts_addr.txt"
exit "$rc"
