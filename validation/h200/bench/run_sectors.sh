#!/usr/bin/env bash
# run_sectors.sh - builds bench_sectors with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh says what RESULT_DIR receives: sectors.csv, ptxas, SASS, clocks, run.log).
#
# usage: run_sectors.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" sectors "${1:-}"
