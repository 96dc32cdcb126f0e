#!/usr/bin/env bash
# run_mufu.sh - builds bench_mufu with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives mufu.csv (a row per chain), mufu_cycles.csv (clock64
# cycles per step of each chain), ptxas_mufu.txt, sass_mufu.txt.gz, clocks.csv and run.log.
#
# usage: run_mufu.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" mufu "$dest" mufu_cycles.csv
rc=$?
[ -f "$dest/sass_mufu.txt" ] && gzip -9f "$dest/sass_mufu.txt"
exit "$rc"
