#!/usr/bin/env bash
# run_l2req.sh - builds and runs bench_l2req.cu (run_bench.sh: l2req.csv, its ptxas
# report, SASS, clocks.csv and run.log in RESULT_DIR).
#
# usage: run_l2req.sh RESULT_DIR     (or set OUT)
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" l2req "${1:-${OUT:-}}"
