#!/usr/bin/env bash
# profile_ncu.sh - builds bench_NAME.cu with `nvcc -O3 -arch=sm_90` and runs it once
# under ncu with ENV=1 set (the bench's profile mode: each case launched once, untimed),
# collecting METRICS (comma-separated) for the kernels whose names match REGEX; the CSV
# goes gzipped to OUT (NAME.csv.gz), ncu's and the bench's messages to NAME.log beside
# it. ARGS are the bench's own (its output tables, written to a scratch
# folder). The run_*.sh and ncu_*.sh scripts call it where ncu is found.
#
# In METRICS, @pipes stands for the instruction mix by pipe: instructions executed in
# all and on the ALU, FMA (and its heavy and lite halves), LSU and uniform pipes, the
# pipes' active cycles, the SM's issue and elapsed cycles and the kernel's duration.
#
# NCU_ARGS, where set, adds ncu options (e.g. "--cache-control none").
#
# usage: profile_ncu.sh NAME ENV REGEX METRICS OUT.csv.gz [ARGS...]
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 5 ] || [ ! -f "$here/bench_$1.cu" ] || [ "${5%.csv.gz}" = "$5" ]; then
  echo "usage: profile_ncu.sh NAME ENV REGEX METRICS OUT.csv.gz [ARGS...]" >&2
  exit 2
fi
pipes=smsp__inst_executed.sum,\
smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_fma.sum,\
smsp__inst_executed_pipe_fmaheavy.sum,smsp__inst_executed_pipe_fmalite.sum,\
smsp__inst_executed_pipe_lsu.sum,smsp__inst_executed_pipe_uniform.sum,\
sm__pipe_alu_cycles_active.sum,sm__pipe_fma_cycles_active.sum,\
sm__pipe_fmaheavy_cycles_active.sum,sm__pipe_shared_cycles_active.sum,\
sm__inst_executed_pipe_lsu.sum,sm__issue_active.sum,\
sm__cycles_elapsed.avg,gpu__time_duration.sum
name=$1 env=$2 regex=$3 metrics=${4//@pipes/$pipes} out=$5
shift 5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch=sm_90 -o "$work/bench_$name" "$here/bench_$name.cu" || exit 1
args=()
for a in "$@"; do args+=("${a//@WORK@/$work}"); done
# shellcheck disable=SC2086  # NCU_ARGS is a list of options
env "$env=1" timeout 400 ncu --csv ${NCU_ARGS:-} --kernel-name "regex:$regex" --metrics "$metrics" \
  "$work/bench_$name" "${args[@]}" 2>"${out%.csv.gz}.log" | gzip -9 >"$out"
