#!/usr/bin/env bash
# run_bench.sh - builds one validation microbenchmark, bench_NAME.cu, with
# `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it on GPU 0. The run_NAME.sh
# scripts call it.
#
# usage: run_bench.sh NAME RESULT_DIR [SIDE.csv]     (RESULT_DIR empty: $OUT)
#
# RESULT_DIR receives NAME.csv (the rows), SIDE.csv when given (a second table
# the bench writes: its name is passed to the bench before the device index),
# ptxas_NAME.txt (registers per kernel), sass_NAME.txt (cuobjdump --dump-sass of
# bench_NAME), clocks.csv (SM and memory clocks sampled every 250 ms during the
# run) and run.log. The bench gets 150 s.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
name=${1:-}
dest=${2:-${OUT:-}}
side=${3:-}
if [ -z "$name" ] || [ ! -f "$here/bench_$name.cu" ]; then
  echo "usage: run_bench.sh NAME RESULT_DIR [SIDE.csv] (NAME: a bench_NAME.cu beside this script)" >&2
  exit 2
fi
if [ -z "$dest" ]; then
  echo "usage: run_$name.sh RESULT_DIR (or set OUT)" >&2
  exit 2
fi
mkdir -p "$dest"
work=$(mktemp -d)
{
  echo "bench_$name run: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)"
  nvcc --version | tail -n 2
  nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  nvcc -O3 -arch=sm_90 -Xptxas -v -o "$work/bench_$name" "$here/bench_$name.cu" \
    >"$dest/ptxas_$name.txt" 2>&1 || { echo "BUILD FAILED"; cat "$dest/ptxas_$name.txt"; exit 1; }
  cuobjdump --dump-sass "$work/bench_$name" >"$dest/sass_$name.txt" 2>&1
  nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv -lms 250 -i 0 >"$dest/clocks.csv" 2>&1 &
  smi=$!
  t0=$(date +%s)
  if [ -n "$side" ]; then
    timeout 150 "$work/bench_$name" "$dest/$name.csv" "$dest/$side" 0
  else
    timeout 150 "$work/bench_$name" "$dest/$name.csv" 0
  fi
  rc=$?
  kill "$smi" 2>/dev/null
  wait "$smi" 2>/dev/null
  echo "== bench_$name: exit $rc after $(( $(date +%s) - t0 )) s"
  exit $rc
} 2>&1 | tee "$dest/run.log"
rc=${PIPESTATUS[0]}
rm -rf "$work"
exit "$rc"
