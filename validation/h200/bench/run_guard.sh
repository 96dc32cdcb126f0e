#!/usr/bin/env bash
# run_guard.sh - builds bench_guard with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives guard.csv (the rows), ptxas_guard.txt,
# sass_guard.txt, clocks.csv and run.log.
#
# usage: run_guard.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" guard "${1:-${OUT:-}}"
