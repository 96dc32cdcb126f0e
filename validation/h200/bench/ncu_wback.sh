#!/usr/bin/env bash
# ncu_wback.sh - profiles every bench_wback case once after the clean flush
# (WBACK_PROFILE=1: untimed) with ncu (profile_ncu.sh) and --cache-control none, so
# that the second kernel of a pair finds the L2 the first one left: per launch of
# k_wr / k_rd, DRAM bytes read and written, the L2's read sectors from the L1s and
# their hits, its write sectors, the duration. RESULT_DIR receives ncu_wback.csv.gz
# and ncu_wback.log. The timed rows come from run_wback.sh.
#
# usage: ncu_wback.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
if [ -z "$dest" ] || ! command -v ncu >/dev/null; then
  echo "usage: ncu_wback.sh RESULT_DIR (or set OUT); needs ncu" >&2
  exit 2
fi
mkdir -p "$dest"
NCU_ARGS="--cache-control none" exec "$here/profile_ncu.sh" wback WBACK_PROFILE 'k_(wr|rd)' \
dram__bytes_read.sum,dram__bytes_write.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum \
  "$dest/ncu_wback.csv.gz" @WORK@/w.csv 0
