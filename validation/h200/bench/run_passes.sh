#!/usr/bin/env bash
# run_passes.sh - builds bench_passes with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives passes.csv (the rows), ptxas_passes.txt,
# sass_passes.txt, clocks.csv and run.log.
#
# usage: run_passes.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" passes "${1:-${OUT:-}}"
