#!/usr/bin/env bash
# run_fields.sh - builds bench_fields with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives fields.csv (the rows), fields_cycles.csv (clock64
# cycles per trip of each warp's loop: median, p10, p90 over warps), ptxas_fields.txt,
# sass_fields.txt.gz, clocks.csv and run.log.
#
# usage: run_fields.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" fields "$dest" fields_cycles.csv
rc=$?
[ -f "$dest/sass_fields.txt" ] && gzip -9f "$dest/sass_fields.txt"
exit "$rc"
