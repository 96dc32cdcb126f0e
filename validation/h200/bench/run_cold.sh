#!/usr/bin/env bash
# run_cold.sh - builds bench_cold with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives cold.csv (the rows), cold_cycles.csv (clock64
# cycles per step, whole and per eighth of the steps), ptxas_cold.txt, sass_cold.txt.gz
# (gzipped here), clocks.csv and run.log.
#
# usage: run_cold.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" cold "$dest" cold_cycles.csv
rc=$?
[ -f "$dest/sass_cold.txt" ] && gzip -9f "$dest/sass_cold.txt"
exit "$rc"
