#!/usr/bin/env bash
# run_phase.sh - builds bench_phase with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives phase.csv (the rows), ptxas_phase.txt,
# sass_phase.txt, clocks.csv and run.log.
#
# usage: run_phase.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" phase "${1:-${OUT:-}}"
