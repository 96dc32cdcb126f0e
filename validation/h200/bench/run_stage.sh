#!/usr/bin/env bash
# run_stage.sh - builds bench_stage with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives stage.csv (the rows), stage_stamps.csv (per row,
# from one instrumented launch: block life, start-to-start period per SM, blocks
# resident per SM, SM clock), ptxas_stage.txt, sass_stage.txt, sass_counts_stage.txt
# (per kernel, how often each opcode appears in its SASS), clocks.csv and run.log.
#
# usage: run_stage.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" stage "$dest" stage_stamps.csv
rc=$?
"$here/sass_counts.sh" "$dest/sass_stage.txt" "$dest/sass_counts_stage.txt"
exit "$rc"
