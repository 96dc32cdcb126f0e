#!/bin/sh
# Arithmetic at the edges through the gpuperf binary: the largest launch
# each shipped device allows with the largest counts a script may give, the
# largest buffers, bare devices whose optional bandwidths and latencies are
# all 0, scripts without launches and kernels without work. Every number in
# the JSON must be finite (cJSON writes NaN and infinities as null).
. "$(dirname "$0")/lib.sh"

S=tests/data/robust/scripts
R=tests/data/robust/devices

# gpuperf with a time limit: a hang fails the test.
gpt() {
    timeout 120 "$GPUPERF" "$@" >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
    if [ "$STATUS" -eq 124 ]; then bad "timed out (hang)"; fi
}
# all_finite: stdout's JSON is valid and holds no null, nan or inf.
all_finite() {
    if ! "$JSONCHECK" "$TMP/out" >/dev/null 2>&1; then bad "not JSON"; return; fi
    if grep -qiE 'null|nan|inf[^o]' "$TMP/out"; then
        bad "a number is not finite: $(grep -iE 'null|nan|inf[^o]' "$TMP/out" | head -3)"
    else ok; fi
}

for ini in devices/*.ini; do
    d=$(basename "$ini" .ini)
    case_ "largest launch on $d"
    gpt predict --device "$d" $S/rb_largest_launch.lua --json
    expect_status 0
    all_finite
    expect_json .launches[0].name largest
    expect_between "$(json .total_us)" 1e20 1e300
    case_ "kernels without work on $d"
    gpt predict --device "$d" $S/rb_empty_kernels.lua --json
    expect_status 0
    all_finite
    expect_between "$(json .launches[0].time_us)" 1e-6 1e6
    expect_between "$(json .launches[1].time_us)" 1e-6 1e6
done

for ini in $R/minimal-hopper.ini $R/zeros-hopper.ini; do
    for s in scripts/*.lua $S/rb_empty_kernels.lua $S/rb_largest_launch.lua; do
        case_ "no division by zero: $(basename "$s") on $(basename "$ini")"
        gpt predict --device "$ini" "$s" --json
        expect_status 0
        all_finite
    done
done

case_ "a script without launches: an error that says what to add, not a total of 0"
gpt predict --device h200-sxm $S/rb_empty.lua --json
expect_status 1
expect_err "gpuperf predict: $S/rb_empty.lua: the script launches no kernel and copies nothing, so there is no time to predict; add a gpuperf.launch{...} (docs/workloads.md)"
if [ -s "$TMP/out" ]; then bad "output on stdout"; else ok; fi
gpt compare --devices h200-sxm,geforce-8800-gtx $S/rb_empty.lua --json
expect_status 1
expect_err "the script launches no kernel and copies nothing"
gpt compare --devices h200-sxm,geforce-8800-gtx $S/rb_empty.lua
expect_status 1
if grep -q 'speedup' "$TMP/out"; then bad "a speedup of an empty run"; else ok; fi
case_ "a script without launches in a validation table"
printf 'device,family,name,params,script,script_params,measured_us\nh200-sxm,f,empty,-,%s/%s/rb_empty.lua,,10\n' \
    "$GP_SOURCE_DIR" "$S" >"$TMP/empty.csv"
gpt validate "$TMP/empty.csv" --json
expect_status 1
expect_err "empty.csv:2: the script launches and copies nothing (predicted 0 us); check script_params"
all_finite

case_ "the occupancy calculator at its limits"
gpt occupancy --device h200-sxm --threads 1048576 --regs 65536 --smem '2^32' --dynamic-smem '2^32' --json
expect_status 0
expect_json .blocks_per_sm 0
expect_json .occupancy 0
gpt occupancy --device geforce-8800-gtx --threads 1 --regs 0 --json
expect_status 0
expect_json .blocks_per_sm 8
expect_between "$(json .occupancy)" 0.01 1

finish
