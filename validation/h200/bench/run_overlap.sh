#!/usr/bin/env bash
# run_overlap.sh - builds bench_overlap with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives overlap.csv (the rows), overlap_cycles.csv (clock64
# cycles per trip), ptxas_overlap.txt, sass_overlap.txt, clocks.csv and run.log.
#
# usage: run_overlap.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" overlap "${1:-${OUT:-}}" overlap_cycles.csv
