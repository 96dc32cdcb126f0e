#!/usr/bin/env bash
# run_uniform2.sh - builds bench_uniform2 with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives uniform2.csv (the rows), uniform2_cycles.csv (clock64
# cycles of each block's loop: median, min, max, per load of a thread, the most blocks an
# SM held, the SMs used), ptxas_uniform2.txt, sass_uniform2.txt, sass_counts_uniform2.txt
# (per kernel, how often each opcode appears in its SASS), clocks.csv and run.log.
#
# usage: run_uniform2.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" uniform2 "$dest" uniform2_cycles.csv
rc=$?
# opcode counts per kernel (the whole function, not only the loop)
"$here/sass_counts.sh" "$dest/sass_uniform2.txt" "$dest/sass_counts_uniform2.txt"
exit "$rc"
