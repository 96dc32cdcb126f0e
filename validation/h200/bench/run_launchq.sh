#!/usr/bin/env bash
# run_launchq.sh - builds bench_launchq with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives launchq.csv (the rows), ptxas_launchq.txt,
# sass_launchq.txt, clocks.csv and run.log.
#
# usage: run_launchq.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" launchq "${1:-${OUT:-}}"
