#!/usr/bin/env bash
# run_coldchain.sh - builds bench_coldchain with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives coldchain.csv (the rows), ptxas_coldchain.txt,
# sass_coldchain.txt, clocks.csv and run.log.
#
# usage: run_coldchain.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" coldchain "${1:-${OUT:-}}"
