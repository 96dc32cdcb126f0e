#!/bin/sh
# check_unroll.sh: which loop shapes of unroll_shapes.cu nvcc unrolls, from the
# PTX (needs nvcc, no GPU). Prints, per kernel, the global loads in its PTX:
# 1 for a loop kept at one copy, more for an unrolled one.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc -O3 -arch=sm_90 -ptx -o "$tmp/shapes.ptx" "$here/unroll_shapes.cu"
nvcc --version | tail -1
awk '/^\.visible \.entry/ { name = $3; sub(/\(.*/, "", name); order[++n] = name }
     /ld\.global/ { loads[name]++ }
     END { for (i = 1; i <= n; i++) printf "%-36s %d global load(s)\n", order[i], loads[order[i]] }' \
    "$tmp/shapes.ptx"
