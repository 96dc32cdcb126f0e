#!/usr/bin/env bash
# run.sh - builds the H200 validation microbenchmarks and gpuperf-calibrate with
# `nvcc -O3 -arch=sm_90` and runs them all in one go.
#
# usage: run.sh [RESULT_DIR]     (default: $OUT)
#
# RESULT_DIR receives:
#   calibration.csv   the shared calibration set re-measured (bench_shared, GPU 0)
#   own.csv           the families of bench_own.cu (GPU 0)
#   multigpu.csv      the two-GPU family (header only when fewer than two GPUs)
#   calibrated.ini    gpuperf-calibrate's device file for GPU 0
#   calibrate_raw.csv gpuperf-calibrate's sweeps (--raw): barriers, atomics, warp ops,
#                     integer pipes, graph launches, pointer-chase curve
#   sass_counts.txt   opcode counts per kernel of gpuperf-calibrate (from its SASS)
#   run.log           everything printed
#   logs.tar.gz       nvcc -Xptxas -v reports, SASS, nvidia-smi reports
#                     (query, topology, clocks sampled during the run), program logs
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
dest=${1:-${OUT:-}}
if [ -z "$dest" ]; then
  echo "usage: run.sh RESULT_DIR (or set OUT)" >&2
  exit 2
fi
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
work=$(mktemp -d)
logs=$work/logs
bin=$work/bin
mkdir -p "$logs" "$bin"
NVCC=${NVCC:-nvcc}
NVFLAGS="-O3 -arch=sm_90 -Xptxas -v"

# Build one program: build NAME SOURCE
build() {
  local name=$1 src=$2
  if $NVCC $NVFLAGS -o "$bin/$name" "$src" >"$logs/ptxas_$name.txt" 2>&1; then
    echo "built $name"
  else
    echo "BUILD FAILED: $name"
    cat "$logs/ptxas_$name.txt"
    return 1
  fi
}

# Run one program with a time limit, its stderr to logs/NAME.log: step NAME LIMIT_S CMD...
step() {
  local name=$1 limit=$2
  shift 2
  local t0=$(date +%s)
  timeout "$limit" "$@" 2>"$logs/$name.log"
  local rc=$?
  echo "== $name: exit $rc after $(( $(date +%s) - t0 )) s"
  tail -n 80 "$logs/$name.log"
  return $rc
}

# Everything, in order; its output also goes to run.log.
main() {
  echo "gpuperf validation run: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)"
  $NVCC --version | tail -n 2
  nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,clocks.max.sm,clocks.max.mem,power.limit \
    --format=csv | tee "$logs/gpus.csv"
  nvidia-smi -q >"$logs/nvidia-smi-q.txt" 2>&1
  nvidia-smi topo -m >"$logs/topo.txt" 2>&1
  cat "$logs/topo.txt"
  nvidia-smi nvlink -s >"$logs/nvlink-status.txt" 2>&1

  local t0=$(date +%s) fail=0
  build bench_shared "$here/bench_shared.cu" & local p1=$!
  build bench_own "$here/bench_own.cu" & local p2=$!
  build bench_multigpu "$here/bench_multigpu.cu" & local p3=$!
  build gpuperf-calibrate "$root/tools/calibrate/gpuperf-calibrate.cu" & local p4=$!
  for p in $p1 $p2 $p3 $p4; do wait "$p" || fail=1; done
  echo "== build: $(( $(date +%s) - t0 )) s"
  [ $fail = 0 ] || return 1

  # Sample the clocks of every GPU while the programs run.
  nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu \
    --format=csv -lms 250 >"$logs/clocks.csv" 2>&1 &
  local smi=$!

  step bench_shared 240 "$bin/bench_shared" "$dest/calibration.csv" 0 || fail=1
  step bench_own 240 "$bin/bench_own" "$dest/own.csv" 0 || fail=1
  step bench_multigpu 150 "$bin/bench_multigpu" "$dest/multigpu.csv" || fail=1
  step calibrate 150 "$bin/gpuperf-calibrate" -d 0 -o "$dest/calibrated.ini" \
    --raw "$dest/calibrate_raw.csv" || fail=1

  kill "$smi" 2>/dev/null
  wait "$smi" 2>/dev/null
  nvidia-smi -q -d CLOCK >"$logs/clocks-after.txt" 2>&1

  for b in bench_shared bench_own bench_multigpu gpuperf-calibrate; do
    cuobjdump --dump-sass "$bin/$b" >"$logs/sass_$b.txt" 2>&1
  done
  # Opcode counts per kernel: the instruction each timed loop is meant to issue.
  awk '/Function :/ {f = $3} match($0, /\/\*[0-9a-f]+\*\/ +(@!?U?P[A-Z0-9]+ +)?[A-Z][A-Z0-9_.]*/) {
         n = split(substr($0, RSTART, RLENGTH), w, / +/); c[f " " w[n]]++ }
       END {for (k in c) print k, c[k]}' "$logs/sass_gpuperf-calibrate.txt" | sort >"$dest/sass_counts.txt"
  echo "== SM clocks sampled during the run (MHz: count)"
  awk -F', ' 'NR > 1 && $3 ~ /MHz/ {print "GPU" $2 " " $3}' "$logs/clocks.csv" | sort | uniq -c

  echo "== calibrated.ini"
  cat "$dest/calibrated.ini" 2>/dev/null
  return $fail
}

main 2>&1 | tee "$dest/run.log"
rc=${PIPESTATUS[0]}
tar czf "$dest/logs.tar.gz" -C "$work" logs
rm -rf "$work"
echo "run.sh: exit $rc" | tee -a "$dest/run.log"
exit "$rc"
