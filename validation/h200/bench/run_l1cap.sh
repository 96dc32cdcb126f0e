#!/usr/bin/env bash
# run_l1cap.sh - builds bench_l1cap with `nvcc -O3 -arch=sm_90 -Xptxas -v` and
# runs it (run_bench.sh): RESULT_DIR receives l1cap.csv (the rows),
# l1cap_cycles.csv (clock64 cycles of each block's loop, per trip),
# ptxas_l1cap.txt, sass_l1cap.txt.gz, clocks.csv and run.log.
#
# usage: run_l1cap.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" l1cap "$dest" l1cap_cycles.csv
rc=$?
[ -f "$dest/sass_l1cap.txt" ] && gzip -9f "$dest/sass_l1cap.txt"
exit "$rc"
