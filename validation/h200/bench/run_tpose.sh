#!/usr/bin/env bash
# run_tpose.sh - builds bench_tpose with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives tpose.csv (the rows), ptxas_tpose.txt,
# sass_tpose.txt, sass_counts_tpose.txt (per kernel, how often each opcode appears in its
# SASS), clocks.csv and run.log.
#
# usage: run_tpose.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" tpose "$dest"
rc=$?
"$here/sass_counts.sh" "$dest/sass_tpose.txt" "$dest/sass_counts_tpose.txt"
exit "$rc"
