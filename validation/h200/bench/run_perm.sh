#!/usr/bin/env bash
# run_perm.sh - builds bench_perm with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives perm.csv (the rows), ptxas_perm.txt,
# sass_perm.txt.gz, clocks.csv and run.log.
#
# usage: run_perm.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" perm "$dest"
rc=$?
[ -f "$dest/sass_perm.txt" ] && gzip -9f "$dest/sass_perm.txt"
exit "$rc"
