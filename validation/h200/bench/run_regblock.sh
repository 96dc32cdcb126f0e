#!/usr/bin/env bash
# run_regblock.sh - builds bench_regblock with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives regblock.csv (the rows), regblock_cycles.csv (clock64
# cycles per K step of each phase of the register-blocked SGEMMs: load, barrier, compute,
# barrier, and the whole loop; medians over blocks), ptxas_regblock.txt, sass_regblock.txt,
# sass_counts_regblock.txt (per kernel, how often each opcode appears in its SASS),
# clocks.csv and run.log.
#
# usage: run_regblock.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" regblock "$dest" regblock_cycles.csv
rc=$?
# opcode counts per kernel (the whole function, not only the loop)
"$here/sass_counts.sh" "$dest/sass_regblock.txt" "$dest/sass_counts_regblock.txt"
exit "$rc"
