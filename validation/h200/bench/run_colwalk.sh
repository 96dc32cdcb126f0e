#!/usr/bin/env bash
# run_colwalk.sh - builds bench_colwalk with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives colwalk.csv (the rows), ptxas_colwalk.txt,
# sass_colwalk.txt, clocks.csv and run.log.
#
# usage: run_colwalk.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" colwalk "${1:-${OUT:-}}"
