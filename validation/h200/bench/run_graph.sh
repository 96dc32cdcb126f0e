#!/usr/bin/env bash
# run_graph.sh - builds bench_graph with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh says what RESULT_DIR receives: graph.csv, ptxas, SASS, clocks, run.log).
#
# usage: run_graph.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
if [ -z "$dest" ]; then
  echo "usage: run_graph.sh RESULT_DIR (or set OUT)" >&2
  exit 2
fi
exec "$here/run_bench.sh" graph "$dest"
