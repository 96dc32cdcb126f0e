#!/usr/bin/env bash
# run_naive.sh - builds bench_naive with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives naive.csv (the rows), ptxas_naive.txt,
# sass_naive.txt, sass_counts_naive.txt (per kernel, how often each opcode appears in its
# SASS), clocks.csv and run.log.
#
# usage: run_naive.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" naive "$dest"
rc=$?
"$here/sass_counts.sh" "$dest/sass_naive.txt" "$dest/sass_counts_naive.txt"
exit "$rc"
