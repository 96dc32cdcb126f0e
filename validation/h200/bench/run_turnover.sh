#!/usr/bin/env bash
# run_turnover.sh - builds bench_turnover with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs
# it (run_bench.sh): RESULT_DIR receives turnover.csv (the rows), turnover_stamps.csv
# (per row, from one instrumented launch: block life, start-to-start period per SM,
# blocks resident per SM, SM clock), ptxas_turnover.txt, sass_turnover.txt,
# sass_counts_turnover.txt (per kernel, how often each opcode appears in its SASS),
# clocks.csv and run.log.
#
# usage: run_turnover.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" turnover "$dest" turnover_stamps.csv
rc=$?
"$here/sass_counts.sh" "$dest/sass_turnover.txt" "$dest/sass_counts_turnover.txt"
exit "$rc"
