#!/usr/bin/env bash
# run_alias.sh - builds bench_alias with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives alias.csv (the rows), alias_cycles.csv (clock64
# cycles of each block's loop, per trip), ptxas_alias.txt, sass_alias.txt.gz, clocks.csv
# and run.log.
#
# usage: run_alias.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" alias "$dest" alias_cycles.csv
rc=$?
[ -f "$dest/sass_alias.txt" ] && gzip -9f "$dest/sass_alias.txt"
exit "$rc"
