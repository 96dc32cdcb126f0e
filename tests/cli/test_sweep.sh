#!/bin/sh
# gpuperf sweep: CSV and JSON rows, order independent of -j, points that cannot
# run, script errors, the point limit, -o, --svg, usage errors.
. "$(dirname "$0")/lib.sh"

case_ "help"
gp sweep --help
expect_status 0
expect_out "usage: gpuperf sweep --devices D1,D2,..."
expect_out "A:B:STEP"

case_ "CSV: header, one row per point, device-major, last parameter fastest"
gp sweep --devices h200-sxm,a100-sxm4-80gb scripts/saxpy.lua -p block=32:1024:32 \
    -p n=2^20,2^24,2^28
expect_status 0
expect_no_err
rows=$(wc -l <"$TMP/out")
if [ "$rows" -eq 193 ]; then ok; else bad "$rows lines, expected 1 + 2x32x3"; fi
expect_out "device,block,n,total_us,launches,bound,blocks_per_sm,occupancy,limiter,error"
first=$(sed -n 2p "$TMP/out" | cut -d, -f1-3)
second=$(sed -n 3p "$TMP/out" | cut -d, -f1-3)
last=$(tail -n 1 "$TMP/out" | cut -d, -f1-3)
if [ "$first" = "h200-sxm,32,1048576" ] && [ "$second" = "h200-sxm,32,16777216" ] &&
    [ "$last" = "a100-sxm4-80gb,1024,268435456" ]; then ok
else bad "order: '$first' '$second' ... '$last'"; fi
cp "$TMP/out" "$TMP/j0.csv"

case_ "CSV rows equal a single predict of the same point"
gp predict --device h200-sxm scripts/saxpy.lua -p block=256 -p n=2^24 --json
want=$(json .total_us)
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=256 -p n=2^24
got=$(sed -n 2p "$TMP/out" | cut -d, -f4)
expect_between "$got" "$(awk -v w="$want" 'BEGIN{print w - 0.001}')" \
    "$(awk -v w="$want" 'BEGIN{print w + 0.001}')"

case_ "the same output whatever -j"
for j in 1 2 5; do
    gp sweep --devices h200-sxm,a100-sxm4-80gb scripts/saxpy.lua -p block=32:1024:32 \
        -p n=2^20,2^24,2^28 -j $j
    expect_status 0
    if cmp -s "$TMP/out" "$TMP/j0.csv"; then ok; else bad "-j $j differs from the default"; fi
done

case_ "JSON document"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=512:2048:512 -p n=2^20 --json
expect_status 0
expect_json .script scripts/saxpy.lua
expect_json .devices[0] h200-sxm
expect_json .params[0].name block
expect_json .params[0].values[3] 2048
expect_json .params[1].values[0] 1048576
expect_json .points 4
expect_json .results[0].device h200-sxm
expect_json .results[0].params.block 512
expect_json .results[0].launches 1
expect_json .results[0].bound dram
expect_json .results[0].limiter warps
expect_json_has .results[1].total_us
expect_json .results[3].params.block 2048
expect_json .results[3].error "scripts/saxpy.lua:7: launch 'saxpy' cannot run on NVIDIA H200 SXM: 2048 threads per block exceed the maximum of 1024 (by 1024) (limit: block_size)"

case_ "points that cannot run are rows, not a failed sweep"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=512:2048:512
expect_status 0
expect_out 'h200-sxm,1536,,,,,,,scripts/saxpy.lua:7: launch'
expect_err "2 of 4 points cannot run on their device"

case_ "fixed values, geometric ranges, string values quoted in CSV"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=256 -p n=2^16:2^28:*4
expect_status 0
expect_out "h200-sxm,256,65536,"
expect_out "h200-sxm,256,268435456,"
rows=$(wc -l <"$TMP/out")
if [ "$rows" -eq 8 ]; then ok; else bad "$rows lines, expected 8"; fi

case_ "a workload without launches, and one whose longest command is a copy"
printf 'local n = gpuperf.param("n", 1, "unused")\n' >"$TMP/empty.lua"
gp sweep --devices h200-sxm "$TMP/empty.lua" -p n=1,2
expect_status 1
expect_err "empty.lua: the script launches no kernel and copies nothing at point 1, so there is no time to predict"
cat >"$TMP/copy.lua" <<'EOF'
local mib = gpuperf.param("mib", 1, "MiB copied")
gpuperf.copy{ bytes = mib * 2^20, kind = "h2d" }
EOF
gp sweep --devices h200-sxm "$TMP/copy.lua" -p mib=1,64
expect_status 0
expect_out ",0,copy,,,,"
gp sweep --devices h200-sxm "$TMP/copy.lua" -p mib=1 --json
expect_json .results[0].bound copy
expect_json .results[0].launches 0

case_ "more points than one batch (65536): rows still in point order"
printf 'local n = gpuperf.param("n", 1, "grid")\ngpuperf.launch{ name = "k", grid = n, block = 32, regs = 8, work = { gpuperf.fp32(1) } }\n' >"$TMP/tiny.lua"
gp sweep --devices h200-sxm "$TMP/tiny.lua" -p n=1:66000:1 -j 3 -o "$TMP/b.csv"
expect_status 0
if tail -n +2 "$TMP/b.csv" | cut -d, -f2 | awk '$1 != NR { exit 1 } END { exit NR != 66000 }'
then ok; else bad "rows of a multi-batch sweep out of order or missing"; fi

case_ "a script error fails the sweep and names the point"
cat >"$TMP/picky.lua" <<'EOF'
local n = gpuperf.param("n", 1, "size")
assert(n < 40, "n must be below 40")
gpuperf.launch{ name = "k", grid = n, block = 32, regs = 8, work = { gpuperf.fp32(1) } }
EOF
gp sweep --devices h200-sxm "$TMP/picky.lua" -p n=1:100:1 -j 3
expect_status 1
expect_err "point 39 (h200-sxm, n=40): "
expect_err "picky.lua:2: n must be below 40"

case_ "an undeclared parameter fails the sweep"
gp sweep --devices h200-sxm scripts/saxpy.lua -p blok=32,64
expect_status 1
expect_err "declares no parameter 'blok'"

case_ "-o writes the file only when the sweep succeeds"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=128,256 -o "$TMP/s.csv"
expect_status 0
if [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/s.csv")" -eq 3 ]; then ok
else bad "stdout not empty or $TMP/s.csv not 3 lines"; fi
mode=$(stat -c %a "$TMP/s.csv")
if [ "$mode" = 644 ]; then ok; else bad "-o FILE has mode $mode, expected 644"; fi
gp sweep --devices h200-sxm "$TMP/picky.lua" -p n=1:100:1 -o "$TMP/s.csv"
expect_status 1
if [ "$(wc -l <"$TMP/s.csv")" -eq 3 ]; then ok; else bad "a failed sweep replaced -o FILE"; fi
if ls "$TMP"/s.csv.tmp.* >/dev/null 2>&1; then bad "temporary file left"; else ok; fi
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=128 -o /dev/null
expect_status 0
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=128 -o "$TMP/no/such/dir/s.csv"
expect_status 1
expect_err "-o $TMP/no/such/dir/s.csv: cannot create the file"

case_ "--svg: one line per device and value of the other parameters"
gp sweep --devices h200-sxm,geforce-gtx-280 scripts/saxpy.lua -p block=32:512:32 \
    -p n=2^20,2^22 --svg "$TMP/chart.svg" -o "$TMP/c.csv"
expect_status 0
if grep -q "<svg" "$TMP/chart.svg" && [ "$(grep -c "<polyline" "$TMP/chart.svg")" -eq 4 ]; then ok
else bad "chart lacks <svg> or 4 polylines"; fi
if grep -q "geforce-gtx-280 n=4194304" "$TMP/chart.svg" &&
    grep -q "predicted time against block" "$TMP/chart.svg"; then ok
else bad "chart lacks its legend or title"; fi
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=256 -p n=2^16:2^28:*2 \
    --svg "$TMP/chart2.svg" --x n
expect_status 0
if grep -q "n (log scale)" "$TMP/chart2.svg"; then ok; else bad "x axis not logarithmic"; fi

case_ "--svg errors"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=256 --svg "$TMP/x.svg"
expect_status 2
expect_err "--svg needs a swept parameter"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=32,64 --svg "$TMP/x.svg" --x m
expect_status 2
expect_err "--x m: no -p parameter of that name"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=32,64 --x block
expect_status 2
expect_err "--x picks the chart's axis; give --svg FILE"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=32:1024:32 -p n=1:50:1 --svg "$TMP/x.svg"
expect_status 2
expect_err "a chart takes at most"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=32,64 --svg "$TMP/no/dir/x.svg"
expect_status 1
expect_err "--svg $TMP/no/dir/x.svg"

case_ "the point limit"
gp sweep --devices h200-sxm,a100-sxm4-80gb scripts/saxpy.lua -p block=1:3000:1 -p n=1:2000:1
expect_status 1
expect_err "the sweep has 12000000 points"
expect_err "more than the limit of 10000000"
gp sweep --devices h200-sxm scripts/saxpy.lua -p n=1:2^40:1
expect_status 2
expect_err "-p n=1:2^40:1: 1099511627776 values, more than the limit"

case_ "usage errors"
gp sweep scripts/saxpy.lua -p block=32
expect_status 2
expect_err "--devices D1,D2,... is required"
gp sweep --devices h200-sxm -p block=32
expect_status 2
expect_err "no workload script given"
gp sweep --devices h200-sxm scripts/saxpy.lua scripts/triad.lua
expect_status 2
expect_err "one script at a time"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=1024:32:32
expect_status 2
expect_err "-p block=1024:32:32: the range ends (32) below its start (1024)"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=32:1024:0
expect_status 2
expect_err "the step must be > 0"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block
expect_status 2
expect_err "write -p key=VALUE"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=32 -p block=64
expect_status 1
expect_err "-p block: given twice"
gp sweep --devices h200-sxm scripts/saxpy.lua -j 0
expect_status 2
expect_err "-j 0: threads, a whole number 1..1024"
gp sweep --devices h200-sxm scripts/saxpy.lua -j -1
expect_status 2
expect_err "-j -1: threads, a whole number 1..1024"
gp sweep --devices h200-sxm scripts/saxpy.lua -j lots
expect_status 2
expect_err "-j"
gp sweep --devices h200-sxm scripts/saxpy.lua --frob
expect_status 2
expect_err "unknown option '--frob'"
gp sweep --devices h200-sxm scripts/saxpy.lua -p
expect_status 2
expect_err "-p needs a value"
gp sweep --devices , scripts/saxpy.lua
expect_status 2
expect_err "--devices needs a comma-separated list"

case_ "bad device or script"
gp sweep --devices h200-sxm,no-such-card scripts/saxpy.lua
expect_status 1
expect_err "no-such-card"
gp sweep --devices h200-sxm "$TMP/missing.lua"
expect_status 1
expect_err "missing.lua"

finish
