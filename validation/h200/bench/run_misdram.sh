#!/usr/bin/env bash
# run_misdram.sh - builds bench_misdram with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs
# it (run_bench.sh): RESULT_DIR receives misdram.csv (the rows), ptxas_misdram.txt,
# sass_misdram.txt.gz, clocks.csv and run.log; where ncu is found, ncu_misdram.csv.gz
# (profile_ncu.sh: DRAM bytes read and written, the L2's read requests, sectors and
# sector misses from the SMs, of each case once behind the flush).
#
# usage: run_misdram.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" misdram "$dest"
rc=$?
[ -f "$dest/sass_misdram.txt" ] && gzip -9f "$dest/sass_misdram.txt"
if command -v ncu >/dev/null 2>&1; then
  "$here/profile_ncu.sh" misdram MISDRAM_PROFILE '.*k_(copy|sum).*' \
    dram__bytes_read.sum,dram__bytes_write.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,gpu__time_duration.sum \
    "$dest/ncu_misdram.csv.gz" @WORK@/profile.csv || rc=1
fi
exit "$rc"
