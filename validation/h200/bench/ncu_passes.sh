#!/usr/bin/env bash
# ncu_passes.sh - profiles every bench_passes case once after the memset flush
# (PASSES_PROFILE=1: untimed, unchecked) with ncu (profile_ncu.sh): per launch of k_pw /
# k_pb, the L1's global load sectors and their hits, the L2's read sectors from L1 and
# their hits, DRAM bytes read and written, the duration. RESULT_DIR receives
# ncu_passes.csv.gz and ncu_passes.log. The timed rows come from run_passes.sh.
#
# usage: ncu_passes.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
if [ -z "$dest" ] || ! command -v ncu >/dev/null; then
  echo "usage: ncu_passes.sh RESULT_DIR (or set OUT); needs ncu" >&2
  exit 2
fi
mkdir -p "$dest"
exec "$here/profile_ncu.sh" passes PASSES_PROFILE k_p \
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
  "$dest/ncu_passes.csv.gz" @WORK@/p.csv 0
