#!/usr/bin/env bash
# run_atom.sh - builds bench_atom with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it.
#
# usage: run_atom.sh [RESULT_DIR]     (default: $OUT)
#
# RESULT_DIR receives atom.csv (the rows), atom_rates.csv (atomics issued and
# atomics per cycle for each row), ptxas_atom.txt (registers per kernel),
# sass_atom.txt (cuobjdump --dump-sass of bench_atom), sass_atom_ops.txt (the
# atomic instructions of every kernel, counted: RED vs ATOM / ATOMS), clocks.csv
# (SM and memory clocks sampled every 250 ms during the run) and run.log.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
if [ -z "$dest" ]; then
  echo "usage: run_atom.sh RESULT_DIR (or set OUT)" >&2
  exit 2
fi
mkdir -p "$dest"
work=$(mktemp -d)
{
  echo "bench_atom run: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)"
  nvcc --version | tail -n 2
  nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  nvcc -O3 -arch=sm_90 -Xptxas -v -o "$work/bench_atom" "$here/bench_atom.cu" \
    >"$dest/ptxas_atom.txt" 2>&1 || { echo "BUILD FAILED"; cat "$dest/ptxas_atom.txt"; exit 1; }
  cuobjdump --dump-sass "$work/bench_atom" >"$dest/sass_atom.txt" 2>&1
  # atomic opcodes per kernel (mnemonic with its modifiers), counted
  awk '/Function :/ { f = $3 }
       /[^A-Z](RED|ATOM|ATOMS|ATOMG|REDUX)\./ {
         for (i = 1; i <= NF; ++i) if ($i ~ /^(RED|ATOM|ATOMS|ATOMG|REDUX)\./) { print f, $i; break } }' \
    "$dest/sass_atom.txt" | sort | uniq -c >"$dest/sass_atom_ops.txt"
  echo "== atomic opcodes per kernel (count, kernel, opcode):"
  cat "$dest/sass_atom_ops.txt"
  nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv -lms 250 -i 0 >"$dest/clocks.csv" 2>&1 &
  smi=$!
  t0=$(date +%s)
  timeout 150 "$work/bench_atom" "$dest/atom.csv" "$dest/atom_rates.csv" 0
  rc=$?
  kill "$smi" 2>/dev/null
  wait "$smi" 2>/dev/null
  echo "== bench_atom: exit $rc after $(( $(date +%s) - t0 )) s"
  exit $rc
} 2>&1 | tee "$dest/run.log"
rc=${PIPESTATUS[0]}
rm -rf "$work"
exit "$rc"
