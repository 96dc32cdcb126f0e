#!/usr/bin/env bash
# run_attnq.sh - builds bench_attnq with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs
# it (run_bench.sh): RESULT_DIR receives attnq.csv (the rows), attnq_cycles.csv
# (clock64 cycles of each block's timed loop: median, min, max over blocks, per trip, the
# most blocks an SM held, the SMs used), ptxas_attnq.txt, sass_attnq.txt,
# sass_counts_attnq.txt (per kernel, how often each opcode appears in its SASS),
# clocks.csv and run.log.
#
# usage: run_attnq.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" attnq "$dest" attnq_cycles.csv
rc=$?
"$here/sass_counts.sh" "$dest/sass_attnq.txt" "$dest/sass_counts_attnq.txt"
exit "$rc"
