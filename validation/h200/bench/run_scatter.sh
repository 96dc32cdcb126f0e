#!/usr/bin/env bash
# run_scatter.sh - builds bench_scatter with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives scatter.csv (the rows), scatter_cycles.csv (clock64
# cycles per trip of each warp's loop: median, p10, p90 over warps), ptxas_scatter.txt,
# sass_scatter.txt.gz, clocks.csv and run.log.
#
# usage: run_scatter.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" scatter "$dest" scatter_cycles.csv
rc=$?
[ -f "$dest/sass_scatter.txt" ] && gzip -9f "$dest/sass_scatter.txt"
exit "$rc"
