#!/usr/bin/env bash
# run_sectors.sh - builds bench_sectors with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it.
#
# usage: run_sectors.sh [RESULT_DIR]     (default: $OUT)
#
# RESULT_DIR receives sectors.csv (the rows), ptxas_sectors.txt (registers per kernel),
# sass_sectors.txt (cuobjdump --dump-sass of bench_sectors), clocks.csv (SM and memory
# clocks sampled every 250 ms during the run) and run.log.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
if [ -z "$dest" ]; then
  echo "usage: run_sectors.sh RESULT_DIR (or set OUT)" >&2
  exit 2
fi
mkdir -p "$dest"
work=$(mktemp -d)
{
  echo "bench_sectors run: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)"
  nvcc --version | tail -n 2
  nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  nvcc -O3 -arch=sm_90 -Xptxas -v -o "$work/bench_sectors" "$here/bench_sectors.cu" \
    >"$dest/ptxas_sectors.txt" 2>&1 || { echo "BUILD FAILED"; cat "$dest/ptxas_sectors.txt"; exit 1; }
  cuobjdump --dump-sass "$work/bench_sectors" >"$dest/sass_sectors.txt" 2>&1
  nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv -lms 250 -i 0 >"$dest/clocks.csv" 2>&1 &
  smi=$!
  t0=$(date +%s)
  timeout 150 "$work/bench_sectors" "$dest/sectors.csv" 0
  rc=$?
  kill "$smi" 2>/dev/null
  wait "$smi" 2>/dev/null
  echo "== bench_sectors: exit $rc after $(( $(date +%s) - t0 )) s"
  exit $rc
} 2>&1 | tee "$dest/run.log"
rc=${PIPESTATUS[0]}
rm -rf "$work"
exit "$rc"
