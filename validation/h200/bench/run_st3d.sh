#!/usr/bin/env bash
# run_st3d.sh - builds bench_st3d with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives st3d.csv (the rows), ptxas_st3d.txt, sass_st3d.txt,
# sass_counts_st3d.txt (per kernel, how often each opcode appears in its SASS),
# clocks.csv and run.log; where ncu is found, ncu_st3d.csv (L1 requests, sectors and
# wavefronts, L2 and DRAM sectors, instructions, cycles) and ncu_st3d_sections.csv
# (the SpeedOfLight, MemoryWorkloadAnalysis and WarpStateStats sections) of one launch
# of every tap set at n = 256 (ST3D_PROFILE=1).
#
# usage: run_st3d.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" st3d "$dest"
rc=$?
"$here/sass_counts.sh" "$dest/sass_st3d.txt" "$dest/sass_counts_st3d.txt"
if [ "$rc" -eq 0 ] && command -v ncu >/dev/null; then
  work=$(mktemp -d)
  nvcc -O3 -arch=sm_90 -o "$work/bench_st3d" "$here/bench_st3d.cu" &&
  ST3D_PROFILE=1 timeout 240 ncu --csv --metrics \
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,\
l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum,\
l1tex__data_pipe_lsu_wavefronts.sum,\
l1tex__data_bank_reads.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
dram__bytes_read.sum,dram__bytes_write.sum,\
smsp__inst_executed.sum,smsp__inst_executed_op_global_ld.sum,\
sm__cycles_elapsed.avg,gpu__time_duration.sum \
    "$work/bench_st3d" "$work/p.csv" 0 >"$dest/ncu_st3d.csv" 2>&1
  ST3D_PROFILE=1 timeout 240 ncu --csv --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats "$work/bench_st3d" "$work/p.csv" 0 >"$dest/ncu_st3d_sections.csv" 2>&1
  rm -rf "$work"
fi
exit "$rc"
