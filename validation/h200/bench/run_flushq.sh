#!/usr/bin/env bash
# run_flushq.sh - builds bench_flushq with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives flushq.csv (the rows), ptxas_flushq.txt,
# sass_flushq.txt, clocks.csv and run.log.
#
# usage: run_flushq.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" flushq "${1:-${OUT:-}}"
