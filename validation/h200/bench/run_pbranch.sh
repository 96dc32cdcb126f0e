#!/usr/bin/env bash
# run_pbranch.sh - builds and runs bench_pbranch.cu (run_bench.sh: pbranch.csv, its ptxas
# report, SASS, clocks.csv and run.log in RESULT_DIR).
#
# usage: run_pbranch.sh RESULT_DIR     (or set OUT)
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/run_bench.sh" pbranch "${1:-${OUT:-}}"
