#!/usr/bin/env bash
# run_mathfn.sh - builds bench_mathfn with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives mathfn.csv (the rows), ptxas_mathfn.txt,
# sass_mathfn.txt, clocks.csv and run.log.
#
# usage: run_mathfn.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" mathfn "${1:-${OUT:-}}"
