#!/usr/bin/env bash
# run_smem.sh - builds bench_smem with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it.
#
# usage: run_smem.sh [RESULT_DIR]     (default: $OUT)
#
# RESULT_DIR receives smem.csv (the rows), smem_cycles.csv (clock64 cycles of the
# timed loops, per trip, and per-SM rates), ptxas_smem.txt (registers per kernel),
# sass_smem.txt (cuobjdump --dump-sass of bench_smem), sass_counts_smem.txt (per
# kernel, how often each opcode appears in its SASS), clocks.csv (SM and memory
# clocks sampled every 250 ms during the run) and run.log.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
if [ -z "$dest" ]; then
  echo "usage: run_smem.sh RESULT_DIR (or set OUT)" >&2
  exit 2
fi
mkdir -p "$dest"
work=$(mktemp -d)
{
  echo "bench_smem run: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)"
  nvcc --version | tail -n 2
  nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  nvcc -O3 -arch=sm_90 -Xptxas -v -o "$work/bench_smem" "$here/bench_smem.cu" \
    >"$dest/ptxas_smem.txt" 2>&1 || { echo "BUILD FAILED"; cat "$dest/ptxas_smem.txt"; exit 1; }
  cuobjdump --dump-sass "$work/bench_smem" >"$dest/sass_smem.txt" 2>&1
  # opcode counts per kernel (the whole function, not only the loop)
  awk '/Function :/ { f = $3 }
       /^ +\/\*[0-9a-f]+\*\/ / { op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op);
                                  n[f " " op]++ }
       END { for (k in n) print k, n[k] }' "$dest/sass_smem.txt" | sort >"$dest/sass_counts_smem.txt"
  nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv -lms 250 -i 0 >"$dest/clocks.csv" 2>&1 &
  smi=$!
  t0=$(date +%s)
  timeout 150 "$work/bench_smem" "$dest/smem.csv" "$dest/smem_cycles.csv" 0
  rc=$?
  kill "$smi" 2>/dev/null
  wait "$smi" 2>/dev/null
  echo "== bench_smem: exit $rc after $(( $(date +%s) - t0 )) s"
  exit $rc
} 2>&1 | tee "$dest/run.log"
rc=${PIPESTATUS[0]}
rm -rf "$work"
exit "$rc"
