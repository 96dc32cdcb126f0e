#!/usr/bin/env bash
# run_gfoot.sh - builds bench_gfoot with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives gfoot.csv (the rows), gfoot_cycles.csv (clock64
# cycles of each warp's loop, per trip), ptxas_gfoot.txt, sass_gfoot.txt.gz, clocks.csv
# and run.log; where ncu is found, ncu_gfoot.csv: per launch of every case (one launch
# behind its flush, GFOOT_PROFILE=1), the L1's global-load sectors and their hits, the
# L2's read sectors from L1 and their hits, DRAM bytes read, the duration.
#
# usage: run_gfoot.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" gfoot "$dest" gfoot_cycles.csv
rc=$?
[ -f "$dest/sass_gfoot.txt" ] && gzip -9f "$dest/sass_gfoot.txt"
if [ "$rc" -eq 0 ] && command -v ncu >/dev/null; then
  work=$(mktemp -d)
  nvcc -O3 -arch=sm_90 -o "$work/bench_gfoot" "$here/bench_gfoot.cu" &&
  GFOOT_PROFILE=1 timeout 300 ncu --csv --kernel-name regex:k_gfoot --metrics \
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
dram__bytes_read.sum,gpu__time_duration.sum \
    "$work/bench_gfoot" "$work/p.csv" "$work/s.csv" 0 >"$dest/ncu_gfoot.csv" 2>&1
  rm -rf "$work"
fi
exit "$rc"
