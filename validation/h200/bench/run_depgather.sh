#!/usr/bin/env bash
# run_depgather.sh - builds bench_depgather with `nvcc -O3 -arch=sm_90 -Xptxas -v` and
# runs it (run_bench.sh): RESULT_DIR receives depgather.csv (the rows),
# depgather_cycles.csv (clock64 cycles of each block's loop, per trip),
# ptxas_depgather.txt, sass_depgather.txt.gz, clocks.csv and run.log.
#
# usage: run_depgather.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" depgather "$dest" depgather_cycles.csv
rc=$?
[ -f "$dest/sass_depgather.txt" ] && gzip -9f "$dest/sass_depgather.txt"
exit "$rc"
