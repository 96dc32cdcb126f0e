#!/usr/bin/env bash
# run_scatterw.sh - builds bench_scatterw with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives scatterw.csv (the rows), scatterw_cycles.csv (clock64
# cycles per trip of each warp's loop: median, p10, p90 over warps), ptxas_scatterw.txt,
# sass_scatterw.txt.gz, clocks.csv and run.log; where ncu is found, ncu_scatterw.csv: one
# launch of each of the bench's profile cases (SCATTERW_PROFILE=1: 64 warps per SM, one
# store a trip, whole and split pieces, in DRAM and in L2) with the DRAM's bytes read and
# written and the L2's store requests and sectors (hits and misses), application replay
# without ncu's cache control, so that each pass sees the bench's own flush or warm read.
#
# usage: run_scatterw.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" scatterw "$dest" scatterw_cycles.csv
rc=$?
[ -f "$dest/sass_scatterw.txt" ] && gzip -9f "$dest/sass_scatterw.txt"
if [ "$rc" -eq 0 ] && command -v ncu >/dev/null; then
  work=$(mktemp -d)
  nvcc -O3 -arch=sm_90 -o "$work/bench_scatterw" "$here/bench_scatterw.cu" &&
  SCATTERW_PROFILE=1 timeout 400 ncu --csv --replay-mode application --cache-control none \
    --kernel-name regex:k_scatterw --metrics \
dram__bytes_read.sum,dram__bytes_write.sum,\
lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,\
lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum,\
lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,\
lts__t_sectors_srcunit_ltcfabric.sum,\
lts__throughput.avg.pct_of_peak_sustained_elapsed,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum \
    "$work/bench_scatterw" "$work/p.csv" "$work/c.csv" 0 >"$dest/ncu_scatterw.csv" 2>&1
  rm -rf "$work"
fi
exit "$rc"
