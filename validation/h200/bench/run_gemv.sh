#!/usr/bin/env bash
# run_gemv.sh - builds bench_gemv with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives gemv.csv (the rows), ptxas_gemv.txt,
# sass_gemv.txt, clocks.csv and run.log.
#
# usage: run_gemv.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" gemv "${1:-${OUT:-}}"
