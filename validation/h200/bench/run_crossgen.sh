#!/usr/bin/env bash
# run_crossgen.sh - builds bench_crossgen.cu with `nvcc -O3 -arch=sm_90` and runs
# it: the H200 side of validation/cross-generation.csv.
#
# usage: run_crossgen.sh [RESULT_DIR]     (default: $OUT)
#
# RESULT_DIR receives:
#   crossgen.csv        name,params,median_us per case (see bench_crossgen.cu)
#   crossgen.log        the program's log (min/max per case), nvcc's -Xptxas -v
#                       report, SASS, and SM clocks sampled during the run
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
if [ -z "$dest" ]; then
  echo "usage: run_crossgen.sh RESULT_DIR (or set OUT)" >&2
  exit 2
fi
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
work=$(mktemp -d)
NVCC=${NVCC:-nvcc}
log=$dest/crossgen.log

{
  echo "bench_crossgen run: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)"
  $NVCC --version | tail -n 2
  nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,clocks.max.mem,power.limit \
    --format=csv
} >"$log" 2>&1

if ! $NVCC -O3 -arch=sm_90 -Xptxas -v -o "$work/bench_crossgen" "$here/bench_crossgen.cu" \
    >>"$log" 2>&1; then
  echo "BUILD FAILED: bench_crossgen (see $log)" >&2
  tail -n 40 "$log" >&2
  rm -rf "$work"
  exit 1
fi

nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv -lms 250 >"$work/clocks.csv" 2>&1 &
smi=$!
timeout 500 "$work/bench_crossgen" "$dest/crossgen.csv" 0 2>>"$log"
rc=$?
kill "$smi" 2>/dev/null
wait "$smi" 2>/dev/null
{
  echo "== bench_crossgen: exit $rc"
  echo "== SM clocks sampled during the run (MHz: count)"
  awk -F', ' 'NR > 1 && $3 ~ /MHz/ {print "GPU" $2 " " $3}' "$work/clocks.csv" | sort | uniq -c
  echo "== SASS"
  cuobjdump --dump-sass "$work/bench_crossgen" 2>&1
} >>"$log"
rm -rf "$work"
echo "run_crossgen.sh: exit $rc"
exit "$rc"
