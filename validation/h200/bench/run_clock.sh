#!/usr/bin/env bash
# run_clock.sh - builds bench_clock with `nvcc -O3 -arch=sm_90 -Xptxas -v` and runs it
# (run_bench.sh): RESULT_DIR receives clock.csv (the rows), clock_stamps.csv (per row:
# the SM clock from clock64 against %globaltimer per block, and per sixteenth of the
# loop), ptxas_clock.txt, sass_clock.txt, sass_counts_clock.txt, clocks.csv (250 ms),
# smi_fast.csv (100 ms samples of the SM clock, power, power limit and the clock event
# reasons) and run.log.
#
# usage: run_clock.sh [RESULT_DIR]     (default: $OUT)
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${OUT:-}}
mkdir -p "$dest"
q=timestamp,clocks.sm,power.draw,enforced.power.limit,temperature.gpu,clocks_event_reasons.active,clocks_event_reasons.sw_power_cap,clocks_event_reasons.hw_slowdown,clocks_event_reasons.sw_thermal_slowdown
nvidia-smi --query-gpu=$q --format=csv -i 0 >/dev/null 2>&1 ||
  q=timestamp,clocks.sm,power.draw,enforced.power.limit,temperature.gpu,clocks_throttle_reasons.active
nvidia-smi --query-gpu=$q --format=csv,noheader -i 0 >/dev/null 2>&1 ||
  q=timestamp,clocks.sm,power.draw,temperature.gpu
nvidia-smi --query-gpu=$q --format=csv -lms 100 -i 0 >"$dest/smi_fast.csv" 2>&1 &
smi=$!
"$here/run_bench.sh" clock "$dest" clock_stamps.csv
rc=$?
kill "$smi" 2>/dev/null
wait "$smi" 2>/dev/null
"$here/sass_counts.sh" "$dest/sass_clock.txt" "$dest/sass_counts_clock.txt"
exit "$rc"
