#!/usr/bin/env bash
# run_wpr.sh - builds bench_wpr with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives wpr.csv (the rows), ptxas_wpr.txt,
# sass_wpr.txt, clocks.csv and run.log.
#
# usage: run_wpr.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" wpr "${1:-${OUT:-}}"
