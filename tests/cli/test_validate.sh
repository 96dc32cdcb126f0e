#!/bin/sh
# gpuperf validate: the accuracy gates on the stored measurements, and bad tables.
. "$(dirname "$0")/lib.sh"

# The H200 table: the shared calibration set must stay within the accuracy
# target (10%) and the figure reached (these thresholds only ever go down).
case_ "H200 calibration set: accuracy gate"
gp validate validation/h200/calibration.csv --source "shared H200" \
    --max-mape 5 --max-ratio 2 --check-order --max-order-errors 1
expect_status 0
expect_out "overall: 68 rows, 68 predicted"
expect_out "68 within 2x"

case_ "H200 table, all rows: accuracy gate"
gp validate validation/h200/calibration.csv --max-mape 17.5 --json
expect_status 0
n=$(json .overall.rows)
expect_between "$n" 122 1000
expect_json_has .families.stream.mape_pct

case_ "published figures, tesla (1.x)"
gp validate validation/published/tesla.csv --max-mape 15 --max-ratio 2 --check-order
expect_status 0
case_ "published figures, fermi-kepler (2.x, 3.x)"
gp validate validation/published/fermi-kepler.csv --max-mape 15 --max-ratio 2 --check-order
expect_status 0
case_ "published figures, ampere (8.x)"
gp validate validation/published/ampere.csv --max-mape 15 --max-ratio 2 \
    --check-order --max-order-errors 1
expect_status 0

case_ "a gate that fails exits 1"
gp validate validation/h200/calibration.csv --family stream --max-mape 0.01
expect_status 1
expect_err "exceeds --max-mape 0.01%"

case_ "json rows carry predictions"
gp validate validation/h200/calibration.csv --family wave --json
expect_status 0
expect_json .rows[0].family wave
expect_json_has .rows[0].predicted_us
expect_json .overall.rows 7

# Bad tables
mkdir -p "$TMP/t"
printf 'device,family,name\nh200-sxm,a,b\n' >"$TMP/t/nocol.csv"
case_ "missing columns"
gp validate "$TMP/t/nocol.csv"
expect_status 1
expect_err "nocol.csv:1: the header lacks column 'params'"

H='device,family,name,params,script,script_params,measured_us'
printf '%s\nh200-sxm,f,n,p,scripts/saxpy.lua,n=2^20,abc\n' "$H" >"$TMP/t/badnum.csv"
case_ "measured_us not a number"
gp validate "$TMP/t/badnum.csv"
expect_status 1
expect_err "badnum.csv:2: measured_us 'abc' is not a positive number"

printf '%s\nh200-sxm,f,n,p,nowhere.lua,,5\n' "$H" >"$TMP/t/noscript.csv"
case_ "script not found"
gp validate "$TMP/t/noscript.csv"
expect_status 1
expect_err "noscript.csv:2: script 'nowhere.lua' not found"

printf '%s\nh999,f,n,p,%s/scripts/saxpy.lua,,5\n' "$H" "$GP_SOURCE_DIR" >"$TMP/t/nodev.csv"
case_ "unknown device"
gp validate "$TMP/t/nodev.csv"
expect_status 1
expect_err "device 'h999' not found"

printf '%s\nh200-sxm,f,n,p,%s/scripts/saxpy.lua,n=2^20 bogus,5\n' "$H" "$GP_SOURCE_DIR" >"$TMP/t/badp.csv"
case_ "malformed script_params"
gp validate "$TMP/t/badp.csv"
expect_status 1
expect_err "write space-separated key=value pairs"

printf '%s\nh200-sxm,f,n,p,%s/scripts/saxpy.lua,n=2^20,5,extra,fields,here\n' "$H" "$GP_SOURCE_DIR" >"$TMP/t/short.csv"
printf '%s\nh200-sxm,f,n\n' "$H" >"$TMP/t/short.csv"
case_ "row with too few fields"
gp validate "$TMP/t/short.csv"
expect_status 1
expect_err "short.csv:2: 3 fields, the header has 7"

printf '%s\nh200-sxm,f,n,p,%s/scripts/saxpy.lua,n=2^20 block=4096,5\n' "$H" "$GP_SOURCE_DIR" >"$TMP/t/cannot.csv"
case_ "a row that cannot run is reported, not fatal to the others"
gp validate "$TMP/t/cannot.csv"
expect_status 1
expect_err "cannot run on NVIDIA H200 SXM"
expect_out "failed"

: >"$TMP/t/empty.csv"
case_ "empty table"
gp validate "$TMP/t/empty.csv"
expect_status 1
expect_err "empty table"

case_ "usage"
gp validate
expect_status 2
gp validate --set a --set b x.csv
expect_status 2
expect_err "2 --set labels for 1 tables"
gp validate x.csv --max-mape lots
expect_status 2

finish
