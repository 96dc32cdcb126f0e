#!/usr/bin/env bash
# run_reuse.sh - builds bench_reuse with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives reuse.csv (the rows), ptxas_reuse.txt,
# sass_reuse.txt.gz (gzipped here), clocks.csv and run.log.
#
# usage: run_reuse.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" reuse "$dest"
rc=$?
[ -f "$dest/sass_reuse.txt" ] && gzip -9f "$dest/sass_reuse.txt"
exit "$rc"
