#!/usr/bin/env bash
# run_chase.sh - builds bench_chase with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it.
#
# usage: run_chase.sh [RESULT_DIR]     (default: $OUT)
#
# RESULT_DIR receives chase.csv (the rows), chase_cycles.csv (clock64 cycles per hop), ptxas_chase.txt (registers per kernel),
# sass_chase.txt.gz (cuobjdump --dump-sass of bench_chase), clocks.csv (SM and memory
# clocks sampled every 250 ms during the run) and run.log.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
if [ -z "$dest" ]; then
  echo "usage: run_chase.sh RESULT_DIR (or set OUT)" >&2
  exit 2
fi
mkdir -p "$dest"
work=$(mktemp -d)
{
  echo "bench_chase run: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)"
  nvcc --version | tail -n 2
  nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  nvcc -O3 -arch=sm_90 -Xptxas -v -o "$work/bench_chase" "$here/bench_chase.cu" \
    >"$dest/ptxas_chase.txt" 2>&1 || { echo "BUILD FAILED"; cat "$dest/ptxas_chase.txt"; exit 1; }
  cuobjdump --dump-sass "$work/bench_chase" 2>&1 | gzip -9 >"$dest/sass_chase.txt.gz"
  nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv -lms 250 -i 0 >"$dest/clocks.csv" 2>&1 &
  smi=$!
  t0=$(date +%s)
  timeout 150 "$work/bench_chase" "$dest/chase.csv" "$dest/chase_cycles.csv" 0
  rc=$?
  kill "$smi" 2>/dev/null
  wait "$smi" 2>/dev/null
  echo "== bench_chase: exit $rc after $(( $(date +%s) - t0 )) s"
  exit $rc
} 2>&1 | tee "$dest/run.log"
rc=${PIPESTATUS[0]}
rm -rf "$work"
exit "$rc"
