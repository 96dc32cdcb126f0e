#!/usr/bin/env bash
# run_loopchain.sh - builds bench_loopchain with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs
# it (run_bench.sh): RESULT_DIR receives loopchain.csv (the rows), loopchain_cycles.csv
# (clock64 cycles of each block's timed loop: median, min, max over blocks, per trip, the
# most blocks an SM held, the SMs used), ptxas_loopchain.txt, sass_loopchain.txt,
# sass_counts_loopchain.txt (per kernel, how often each opcode appears in its SASS),
# clocks.csv and run.log.
#
# usage: run_loopchain.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" loopchain "$dest" loopchain_cycles.csv
rc=$?
"$here/sass_counts.sh" "$dest/sass_loopchain.txt" "$dest/sass_counts_loopchain.txt"
exit "$rc"
