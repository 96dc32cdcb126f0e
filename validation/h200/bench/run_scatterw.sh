#!/usr/bin/env bash
# run_scatterw.sh - builds bench_scatterw with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives scatterw.csv (the rows), scatterw_cycles.csv (clock64
# cycles per trip of each warp's loop: median, p10, p90 over warps), ptxas_scatterw.txt,
# sass_scatterw.txt.gz, clocks.csv and run.log.
#
# usage: run_scatterw.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" scatterw "$dest" scatterw_cycles.csv
rc=$?
[ -f "$dest/sass_scatterw.txt" ] && gzip -9f "$dest/sass_scatterw.txt"
exit "$rc"
