#!/usr/bin/env bash
# run_eval.sh - builds bench_eval.cu (the H200 evaluation set) with
# `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it.
#
# usage: run_eval.sh [RESULT_DIR] [--family NAME]     (default RESULT_DIR: $OUT)
#
# RESULT_DIR receives:
#   eval.csv                 the rows (columns as own.csv)
#   eval.log                 the program's progress log (one line per row, per-family times)
#   ptxas_bench_eval.txt     the -Xptxas -v resource report of every kernel
#   sass_bench_eval.txt      cuobjdump --dump-sass of the binary
#   clocks_eval.csv          SM/memory clocks sampled every 250 ms during the run
#   run_eval.log             everything printed
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
dest=${OUT:-}
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --family) extra=(--family "${2:?run_eval.sh: --family needs a family name}"); shift 2 ;;
    -*) echo "run_eval.sh: unknown option '$1' (usage: run_eval.sh [RESULT_DIR] [--family NAME])" >&2; exit 2 ;;
    *) dest=$1; shift ;;
  esac
done
if [ -z "$dest" ]; then
  echo "usage: run_eval.sh RESULT_DIR [--family NAME] (or set OUT)" >&2
  exit 2
fi
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
work=$(mktemp -d)
NVCC=${NVCC:-nvcc}

main() {
  echo "gpuperf evaluation run: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)"
  $NVCC --version | tail -n 2
  nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,clocks.max.sm,clocks.max.mem,power.limit \
    --format=csv
  local t0=$(date +%s)
  if ! $NVCC -O3 -arch=sm_90 -Xptxas -v -o "$work/bench_eval" "$here/bench_eval.cu" \
      >"$dest/ptxas_bench_eval.txt" 2>&1; then
    echo "BUILD FAILED: bench_eval"
    cat "$dest/ptxas_bench_eval.txt"
    return 1
  fi
  echo "== build: $(( $(date +%s) - t0 )) s"
  nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu \
    --format=csv -lms 250 >"$dest/clocks_eval.csv" 2>&1 &
  local smi=$!
  t0=$(date +%s)
  timeout 150 "$work/bench_eval" "$dest/eval.csv" 0 "${extra[@]}" 2>"$dest/eval.log"
  local rc=$?
  kill "$smi" 2>/dev/null
  wait "$smi" 2>/dev/null
  echo "== bench_eval: exit $rc after $(( $(date +%s) - t0 )) s"
  grep -E '^==|check failed|failed:|done' "$dest/eval.log"
  tail -n 5 "$dest/eval.log"
  cuobjdump --dump-sass "$work/bench_eval" >"$dest/sass_bench_eval.txt" 2>&1
  echo "== SM clocks sampled during the run (MHz: count)"
  awk -F', ' 'NR > 1 && $3 ~ /MHz/ {print "GPU" $2 " " $3}' "$dest/clocks_eval.csv" | sort | uniq -c
  return $rc
}

main 2>&1 | tee "$dest/run_eval.log"
rc=${PIPESTATUS[0]}
rm -rf "$work"
echo "run_eval.sh: exit $rc" | tee -a "$dest/run_eval.log"
exit "$rc"
