#!/usr/bin/env bash
# run_imadw.sh - builds and runs bench_imadw.cu (run_bench.sh: imadw.csv, its ptxas report,
# SASS, clocks.csv and run.log in RESULT_DIR), then, where ncu is found, one launch of each
# variant under ncu (profile_ncu.sh, IMADW_PROFILE=1): instructions by pipe, the pipes'
# active cycles, the L1's load requests and data wavefronts (ncu_imadw.csv.gz).
#
# usage: run_imadw.sh RESULT_DIR     (or set OUT)
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" imadw "$dest"
rc=$?
if [ "$rc" -eq 0 ] && command -v ncu >/dev/null; then
  "$here/profile_ncu.sh" imadw IMADW_PROFILE k_iw \
@pipes,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__data_pipe_lsu_wavefronts.sum,l1tex__lsuin_requests.sum \
    "$dest/ncu_imadw.csv.gz" @WORK@/p.csv 0
fi
exit "$rc"
