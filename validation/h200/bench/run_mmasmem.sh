#!/usr/bin/env bash
# run_mmasmem.sh - builds bench_mmasmem with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives mmasmem.csv (the rows), mmasmem_cycles.csv (clock64
# cycles per trip of each phase of the tiled loops: load, barrier, compute, barrier, and
# the whole loop; medians over blocks), ptxas_mmasmem.txt, sass_mmasmem.txt,
# sass_counts_mmasmem.txt (per kernel, how often each opcode appears in its SASS),
# clocks.csv and run.log.
#
# usage: run_mmasmem.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" mmasmem "$dest" mmasmem_cycles.csv
rc=$?
# opcode counts per kernel (the whole function, not only the loop)
"$here/sass_counts.sh" "$dest/sass_mmasmem.txt" "$dest/sass_counts_mmasmem.txt"
exit "$rc"
