#!/usr/bin/env bash
# run_atom.sh - builds bench_atom with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives atom.csv (the rows), atom_rates.csv (atomics issued
# and atomics per cycle for each row), ptxas_atom.txt, sass_atom.txt, sass_atom_ops.txt
# (the atomic instructions of every kernel, counted: RED vs ATOM / ATOMS), clocks.csv
# and run.log.
#
# usage: run_atom.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
"$here/run_bench.sh" atom "$dest" atom_rates.csv
rc=$?
# atomic opcodes per kernel (mnemonic with its modifiers), counted
if [ -f "$dest/sass_atom.txt" ]; then
  awk '/Function :/ { f = $3 }
       /[^A-Z](RED|ATOM|ATOMS|ATOMG|REDUX)\./ {
         for (i = 1; i <= NF; ++i) if ($i ~ /^(RED|ATOM|ATOMS|ATOMG|REDUX)\./) { print f, $i; break } }' \
    "$dest/sass_atom.txt" | sort | uniq -c >"$dest/sass_atom_ops.txt"
  { echo "== atomic opcodes per kernel (count, kernel, opcode):"; cat "$dest/sass_atom_ops.txt"; } |
    tee -a "$dest/run.log"
fi
exit "$rc"
