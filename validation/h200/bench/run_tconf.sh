#!/usr/bin/env bash
# run_tconf.sh - builds bench_tconf with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives tconf.csv (the rows), ptxas_tconf.txt,
# sass_tconf.txt, sass_counts_tconf.txt (per kernel, how often each opcode appears in its
# SASS), clocks.csv and run.log.
#
# usage: run_tconf.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" tconf "$dest"
rc=$?
"$here/sass_counts.sh" "$dest/sass_tconf.txt" "$dest/sass_counts_tconf.txt"
exit "$rc"
