#!/usr/bin/env bash
# run_mlp.sh - builds bench_mlp with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh says what RESULT_DIR receives: mlp.csv, ptxas, SASS, clocks, run.log).
#
# usage: run_mlp.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" mlp "${1:-}"
