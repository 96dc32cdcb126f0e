#!/usr/bin/env bash
# run_tiles3.sh - builds bench_tiles3 with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives tiles3.csv (the rows), tiles3_cycles.csv (clock64
# cycles per trip of each phase of the tiled loops: load, barrier, compute, barrier, and
# the whole loop; medians over blocks), ptxas_tiles3.txt, sass_tiles3.txt,
# sass_counts_tiles3.txt (per kernel, how often each opcode appears in its SASS),
# clocks.csv and run.log.
#
# usage: run_tiles3.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" tiles3 "$dest" tiles3_cycles.csv
rc=$?
# opcode counts per kernel (the whole function, not only the loop)
"$here/sass_counts.sh" "$dest/sass_tiles3.txt" "$dest/sass_counts_tiles3.txt"
exit "$rc"
