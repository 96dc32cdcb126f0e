#!/usr/bin/env bash
# run_uneven.sh - builds bench_uneven with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives uneven.csv (the rows), uneven_blocks.csv (the most
# warps and blocks an SM held at once in each case), ptxas_uneven.txt, sass_uneven.txt.gz,
# clocks.csv and run.log.
#
# usage: run_uneven.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" uneven "$dest" uneven_blocks.csv
rc=$?
[ -f "$dest/sass_uneven.txt" ] && gzip -9f "$dest/sass_uneven.txt"
exit "$rc"
