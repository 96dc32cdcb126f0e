#!/usr/bin/env bash
# run_misalign.sh - builds bench_misalign with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives misalign.csv (the rows), misalign_cycles.csv (clock64
# cycles of each block's loop: median, min, max, per request of the SM, the most blocks
# an SM held, the SMs used), ptxas_misalign.txt, sass_misalign.txt, sass_counts_misalign.txt,
# clocks.csv and run.log.
#
# usage: run_misalign.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" misalign "$dest" misalign_cycles.csv
rc=$?
"$here/sass_counts.sh" "$dest/sass_misalign.txt" "$dest/sass_counts_misalign.txt"
exit "$rc"
