#!/usr/bin/env bash
# run_gstamp.sh - builds bench_gstamp with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives gstamp.csv (the cases' event times), gstamp_trips.csv
# (per case and trip: the warps' clock64 cycles since the loop began and of that trip),
# ptxas_gstamp.txt, sass_gstamp.txt.gz (gzipped here), clocks.csv and run.log.
#
# usage: run_gstamp.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" gstamp "$dest" gstamp_trips.csv
rc=$?
[ -f "$dest/sass_gstamp.txt" ] && gzip -9f "$dest/sass_gstamp.txt"
exit "$rc"
