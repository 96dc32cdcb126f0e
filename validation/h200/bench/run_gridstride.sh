#!/usr/bin/env bash
# run_gridstride.sh - builds bench_gridstride with `nvcc -O3 -arch=sm_90 -Xptxas -v` and
# runs it (run_bench.sh): RESULT_DIR receives gridstride.csv (the rows),
# gridstride_cycles.csv (per row, from one stamped launch: the cycles per trip of each
# warp's loop and of its probed load, median/p10/p90 over warps, and the bandwidth the
# timed launches reached), ptxas_gridstride.txt, sass_gridstride.txt,
# sass_counts_gridstride.txt (per kernel, how often each opcode appears in its SASS),
# clocks.csv and run.log.
#
# usage: run_gridstride.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" gridstride "$dest" gridstride_cycles.csv
rc=$?
"$here/sass_counts.sh" "$dest/sass_gridstride.txt" "$dest/sass_counts_gridstride.txt"
exit "$rc"
