#!/usr/bin/env bash
# run_tiles.sh - builds bench_tiles with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives tiles.csv (the rows), tiles_cycles.csv (clock64
# cycles of the timed loops per block: median, min, max, per trip), ptxas_tiles.txt,
# sass_tiles.txt, sass_counts_tiles.txt (per kernel, how often each opcode appears in its
# SASS), clocks.csv and run.log.
#
# usage: run_tiles.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" tiles "$dest" tiles_cycles.csv
rc=$?
# opcode counts per kernel (the whole function, not only the loop)
"$here/sass_counts.sh" "$dest/sass_tiles.txt" "$dest/sass_counts_tiles.txt"
exit "$rc"
