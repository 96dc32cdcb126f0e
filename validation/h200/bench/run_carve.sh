#!/usr/bin/env bash
# run_carve.sh - builds bench_carve with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives carve.csv (the device line), carve_held.csv (per
# block size, static shared memory and carve-out preference: the runtime's occupancy and
# the blocks the SMs held at once), ptxas_carve.txt, sass_carve.txt.gz (gzipped here),
# clocks.csv and run.log.
#
# usage: run_carve.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" carve "$dest" carve_held.csv
rc=$?
[ -f "$dest/sass_carve.txt" ] && gzip -9f "$dest/sass_carve.txt"
exit "$rc"
