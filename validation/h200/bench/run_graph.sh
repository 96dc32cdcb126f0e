#!/usr/bin/env bash
# run_graph.sh - builds bench_graph with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh says what RESULT_DIR receives: graph.csv, ptxas, SASS, clocks, run.log).
#
# usage: run_graph.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" graph "${1:-}"
