#!/usr/bin/env bash
# ncu_naive.sh - profiles bench_naive's unrolled kernels (32x8, 16x16 and 8x32 blocks) at
# n = 2048, one launch each behind the memset flush (NAIVE_PROFILE=1), with ncu
# (profile_ncu.sh): the instructions by pipe and the pipes' active cycles, the SM's
# issue-active and elapsed cycles, the L1's global-load requests, sectors and hits, its
# data-stage wavefronts and requests in, and the stall reasons per issue. RESULT_DIR
# receives ncu_naive.csv.gz and ncu_naive.log. The timed rows come from bench_naive.
#
# usage: ncu_naive.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
if [ -z "$dest" ] || ! command -v ncu >/dev/null; then
  echo "usage: ncu_naive.sh RESULT_DIR (or set OUT); needs ncu" >&2
  exit 2
fi
mkdir -p "$dest"
exec "$here/profile_ncu.sh" naive NAIVE_PROFILE k_naive \
@pipes,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,\
l1tex__data_pipe_lsu_wavefronts.sum,l1tex__lsuin_requests.sum,\
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_wait_per_issue_active.ratio \
  "$dest/ncu_naive.csv.gz" @WORK@/n.csv 0
