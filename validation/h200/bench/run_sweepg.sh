#!/usr/bin/env bash
# run_sweepg.sh - builds bench_sweepg with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives sweepg.csv (the rows), sweepg_cycles.csv (clock64
# cycles of the blocks of each case), ptxas_sweepg.txt, sass_sweepg.txt.gz, clocks.csv and
# run.log; where ncu is found, ncu_sweepg.csv: per case one launch behind its flush
# (SWEEPG_PROFILE=1), the L2's read sectors from L1 and their hits, DRAM bytes read, the
# duration.
#
# usage: run_sweepg.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" sweepg "$dest" sweepg_cycles.csv
rc=$?
[ -f "$dest/sass_sweepg.txt" ] && gzip -9f "$dest/sass_sweepg.txt"
if [ "$rc" -eq 0 ] && command -v ncu >/dev/null; then
  work=$(mktemp -d)
  nvcc -O3 -arch=sm_90 -o "$work/bench_sweepg" "$here/bench_sweepg.cu" &&
  SWEEPG_PROFILE=1 timeout 240 ncu --csv --kernel-name regex:k_sg --metrics \
lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
dram__bytes_read.sum,gpu__time_duration.sum \
    "$work/bench_sweepg" "$work/p.csv" "$work/s.csv" 0 >"$dest/ncu_sweepg.csv" 2>&1
  rm -rf "$work"
fi
exit "$rc"
