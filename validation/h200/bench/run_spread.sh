#!/usr/bin/env bash
# run_spread.sh - builds bench_spread with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives spread.csv (the rows), spread_sm.csv (per block:
# its SM and clock64 cycles per hop), ptxas_spread.txt, sass_spread.txt.gz (gzipped
# here), clocks.csv and run.log.
#
# usage: run_spread.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" spread "$dest" spread_sm.csv
rc=$?
[ -f "$dest/sass_spread.txt" ] && gzip -9f "$dest/sass_spread.txt"
exit "$rc"
