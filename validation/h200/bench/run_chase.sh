#!/usr/bin/env bash
# run_chase.sh - builds bench_chase with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives chase.csv (the rows), chase_cycles.csv (clock64
# cycles per hop), ptxas_chase.txt, sass_chase.txt.gz (gzipped here), clocks.csv and run.log.
#
# usage: run_chase.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" chase "$dest" chase_cycles.csv
rc=$?
[ -f "$dest/sass_chase.txt" ] && gzip -9f "$dest/sass_chase.txt"
exit "$rc"
