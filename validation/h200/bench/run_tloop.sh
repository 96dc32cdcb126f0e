#!/usr/bin/env bash
# run_tloop.sh - builds bench_tloop with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives tloop.csv (the rows), ptxas_tloop.txt,
# sass_tloop.txt, sass_counts_tloop.txt (per kernel, how often each opcode appears in its
# SASS), clocks.csv and run.log.
#
# usage: run_tloop.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" tloop "$dest"
rc=$?
"$here/sass_counts.sh" "$dest/sass_tloop.txt" "$dest/sass_counts_tloop.txt"
exit "$rc"
