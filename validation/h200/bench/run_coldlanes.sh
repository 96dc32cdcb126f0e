#!/usr/bin/env bash
# run_coldlanes.sh - builds bench_coldlanes with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives coldlanes.csv (the rows), coldlanes_lanes.csv (per row:
# the lanes' clock64 cycles per hop), ptxas_coldlanes.txt, sass_coldlanes.txt.gz (gzipped
# here), clocks.csv and run.log.
#
# usage: run_coldlanes.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" coldlanes "$dest" coldlanes_lanes.csv
rc=$?
[ -f "$dest/sass_coldlanes.txt" ] && gzip -9f "$dest/sass_coldlanes.txt"
exit "$rc"
