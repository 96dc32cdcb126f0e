#!/usr/bin/env bash
# run_shist.sh - builds bench_shist with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives shist.csv (the rows), ptxas_shist.txt,
# sass_shist.txt, clocks.csv and run.log.
#
# usage: run_shist.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" shist "${1:-${OUT:-}}"
