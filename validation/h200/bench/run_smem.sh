#!/usr/bin/env bash
# run_smem.sh - builds bench_smem with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives smem.csv (the rows), smem_cycles.csv (clock64 cycles
# of the timed loops, per trip, and per-SM rates), ptxas_smem.txt, sass_smem.txt,
# sass_counts_smem.txt (per kernel, how often each opcode appears in its SASS), clocks.csv
# and run.log.
#
# usage: run_smem.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" smem "$dest" smem_cycles.csv
rc=$?
# opcode counts per kernel (the whole function, not only the loop)
"$here/sass_counts.sh" "$dest/sass_smem.txt" "$dest/sass_counts_smem.txt"
exit "$rc"
