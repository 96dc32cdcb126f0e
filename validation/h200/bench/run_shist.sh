#!/usr/bin/env bash
# run_shist.sh - builds bench_shist with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives shist.csv (the rows), ptxas_shist.txt,
# sass_shist.txt, sass_counts_shist.txt (per kernel, how often each opcode appears in
# its SASS), clocks.csv and run.log; where ncu is found, ncu_shist.csv.gz and
# ncu_shist.log (profile_ncu.sh): one launch of every kernel at 64 warps per SM and 1,
# 32 and 256 bins (SHIST_PROFILE=1) with its instructions by pipe (ALU, FMA and its
# heavy and lite halves, LSU, uniform), the pipes' active cycles and the SM's issue and
# elapsed cycles: which pipe the loop's integer work and atomics take.
#
# usage: run_shist.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" shist "$dest"
rc=$?
"$here/sass_counts.sh" "$dest/sass_shist.txt" "$dest/sass_counts_shist.txt"
if [ "$rc" -eq 0 ] && command -v ncu >/dev/null; then
  "$here/profile_ncu.sh" shist SHIST_PROFILE k_shist @pipes \
    "$dest/ncu_shist.csv.gz" @WORK@/p.csv 0
fi
exit "$rc"
