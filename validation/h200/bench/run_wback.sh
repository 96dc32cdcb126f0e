#!/usr/bin/env bash
# run_wback.sh - builds bench_wback with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives wback.csv (the rows), ptxas_wback.txt,
# sass_wback.txt, clocks.csv and run.log.
#
# usage: run_wback.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" wback "${1:-${OUT:-}}"
