#!/bin/sh
# test_retime.sh - gpuperf-retime (tools/retime/retime.c): the H100 table's
# bench rows are rebuilt from the H200 table and the H100's raw bench CSVs,
# byte for byte, and bad input is refused with file:line.
. "$(dirname "$0")/lib.sh"
RT="$GP_BUILD_DIR/gpuperf-retime"
retime() {
    "$RT" "$@" >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
}
# the H200 table's rows for the H100, source "s"
retime_h100() {
    retime --table validation/h200/calibration.csv --device h100-sxm --source s "$@"
}

# Every benches/*/BENCH.csv of validation/h100/measured gives the rows the H100
# table holds from it (validation/h100/README.md says how they were made).
n=0
for dir in validation/h100/measured/benches/*/; do
    set_=$(basename "$dir")
    bench=${set_%%_*}
    raw="${dir}$bench.csv"
    [ -f "$raw" ] || continue
    case_ "rebuild $raw"
    fam=""
    [ "$bench" = scatterw ] && fam="--family scatterw --family splitw"
    # the benches whose params the H200 table rewrote pair through the H200's
    # own raw file (--via; validation/h100/README.md)
    h=validation/h200/measured
    case $bench in
    gridstride) fam="--via $h/run10/gridstride/gridstride.csv" ;;
    flushq) fam="--via $h/run10/flushq/flushq.csv" ;;
    reuse) fam="--via $h/run8/reuse/reuse.csv" ;;
    wpr) fam="--via $h/run45/wpr/wpr.csv" ;;
    clock) fam="--via $h/run9/$bench/$bench.csv" ;;
    # the H200 table's tiles2 and tiles3 rows are its run68's (unstamped)
    tiles2 | tiles3) fam="--via $h/run68/$bench/$bench.csv" ;;
    depgather) fam="--via $h/run27/depgather/depgather.csv" ;;
    lform) fam="--via $h/run38/lform/lform.csv --via $h/run39/lform/lform.csv" ;;
    l1issue) fam="--via $h/run42/l1issue/l1issue.csv" ;;
    spread) fam="--via $h/run30/spread/spread.csv" ;;
    esac
    # a bench rebuilt without the clock64 stamps in its timed kernels
    # (benches/NAME_nostamp): the rows take those kernels' own registers
    case $set_ in *_nostamp) fam="$fam --regs --drop stamp" ;; esac
    # the day of the run: its run.log's first line where it names it
    # ("bench_NAME run: DATE ..."), else the first H100 call's
    day=$(sed -n '1s/^bench_[a-z0-9]* run: \([0-9-]*\) .*/\1/p' "${dir}run.log" 2>/dev/null)
    [ -n "$day" ] || day=2026-12-05
    # shellcheck disable=SC2086
    retime --table validation/h200/calibration.csv --device h100-sxm \
        --source "{raw} (bench_$bench on an H100 SXM, measured $day)" $fam "$raw"
    expect_status 0
    tail -n +2 "$TMP/out" >"$TMP/got"
    grep -F "\"$raw (bench_$bench on an H100 SXM" validation/h100/calibration.csv >"$TMP/want"
    if [ -s "$TMP/want" ] && cmp -s "$TMP/got" "$TMP/want"; then ok
    else bad "rows differ from validation/h100/calibration.csv's ($(wc -l <"$TMP/got") against $(wc -l <"$TMP/want"))"; fi
    n=$((n + 1))
done
case_ "every bench set rebuilt"
if [ "$n" -ge 50 ]; then ok; else bad "only $n raw files found"; fi

case_ "header first, the table's columns"
retime_h100 validation/h100/measured/benches/gemv/gemv.csv
expect_status 0
if [ "$(head -n 1 "$TMP/out")" = "device,family,name,params,script,script_params,measured_us,divide_by,source" ]
then ok; else bad "header: $(head -n 1 "$TMP/out")"; fi
expect_err "8 rows written; 0 rows of the families timed by no raw file"

case_ "--own keeps the rows equal to their own raw median"
retime_h100 --own validation/h200/measured/run9/uniform/uniform.csv \
    validation/h100/measured/benches/uniform/uniform.csv
expect_status 0
expect_err "154 rows written"
expect_err "0 rows left out"
sed 's/^\(uniform,ind_l1_f1_a1,warps=1 loads=4096,.*,\)[0-9.]*,\([0-9.]*,[0-9.]*,[0-9]*,[0-9]*\)$/\19.999,\2/' \
    validation/h200/measured/run9/uniform/uniform.csv >"$TMP/own.csv"
retime_h100 --own "$TMP/own.csv" validation/h100/measured/benches/uniform/uniform.csv
expect_status 0
expect_err "153 rows written"
expect_err "1 rows left out whose measured_us is not their own raw median"

case_ "--via pairs the rows whose params the table rewrote"
# the table writes flushq's bytes=1048576 as "1 MiB": no row pairs by params
retime_h100 validation/h100/measured/benches/flushq/flushq.csv
expect_status 0
expect_err "12 rows written; 45 rows of the families timed by no raw file"
retime_h100 --via validation/h200/measured/run10/flushq/flushq.csv \
    validation/h100/measured/benches/flushq/flushq.csv
expect_status 0
expect_err "57 rows written; 0 rows of the families timed by no raw file; 0 rows left out"
expect_out "h100-sxm,flushq,sum_flush,1 MiB,scripts/validation/flushq.lua,kind=sum bytes=1048576,4.320,,s"
# a row whose measured_us is no raw median there is left out
sed 's/^\(flushq,sum_flush,bytes=1048576,.*,\)4\.160,\(.*\)$/\14.161,\2/' \
    validation/h200/measured/run10/flushq/flushq.csv >"$TMP/via.csv"
retime_h100 --via "$TMP/via.csv" validation/h100/measured/benches/flushq/flushq.csv
expect_status 0
expect_err "56 rows written; 0 rows of the families timed by no raw file; 1 rows left out"

case_ "--via: two kernels equally near the row"
printf 'family,name,params,median_us\nflushq,sum_flush,bytes=1,4.160\nflushq,sum_flush,bytes=2,4.160\n' \
    >"$TMP/tie.csv"
retime_h100 --via "$TMP/tie.csv" validation/h100/measured/benches/flushq/flushq.csv
expect_status 1
expect_err "tie.csv:3: kernel 'sum_flush' [bytes=2] and $TMP/tie.csv:2 [bytes=1] both took 4.160 us"

case_ "--via and --own together are refused"
retime_h100 --via "$TMP/tie.csv" --own "$TMP/tie.csv" \
    validation/h100/measured/benches/flushq/flushq.csv
expect_status 2
expect_err "--own and --via both name the table's own raw files"

case_ "--regs takes each row's registers from its raw row"
printf '%s\n' 'device,family,name,params,script,script_params,measured_us' \
    'h,f,k,n=1 regs=72,s.lua,kind=cp n=1 regs=72 xregs=5,2.0' \
    'h,f,k,n=2,s.lua,kind=cp n=2,3.0' >"$TMP/rt.csv"
printf 'family,name,params,regs,median_us\nf,k,n=1,64,1.5\nf,k,n=2,40,2.5\n' >"$TMP/rr.csv"
retime --table "$TMP/rt.csv" --device d --source s --regs "$TMP/rr.csv"
expect_status 0
expect_out "d,f,k,n=1 regs=64,s.lua,kind=cp n=1 regs=64 xregs=5,1.5"
expect_out "d,f,k,n=2,s.lua,kind=cp n=2,2.5"
retime --table "$TMP/rt.csv" --device d --source s "$TMP/rr.csv"
expect_status 0
expect_out "d,f,k,n=1 regs=72,s.lua,kind=cp n=1 regs=72 xregs=5,1.5"

case_ "--drop leaves a parameter out of script_params"
printf '%s\n' 'device,family,name,params,script,script_params,measured_us' \
    'h,f,k,n=1 regs=72,s.lua,stamp=1 kind=cp n=1 regs=72 stamps=2,2.0' \
    'h,f,k,n=2,s.lua,kind=cp n=2 stamp=1,3.0' \
    'h,f,k,n=3,s.lua,stamp=1,4.0' >"$TMP/rd.csv"
printf 'family,name,params,regs,median_us\nf,k,n=1,64,1.5\nf,k,n=2,40,2.5\nf,k,n=3,8,3.5\n' \
    >"$TMP/rdr.csv"
retime --table "$TMP/rd.csv" --device d --source s --regs --drop stamp "$TMP/rdr.csv"
expect_status 0
expect_out "d,f,k,n=1 regs=64,s.lua,kind=cp n=1 regs=64 stamps=2,1.5"
expect_out "d,f,k,n=2,s.lua,kind=cp n=2,2.5"
expect_out "d,f,k,n=3,s.lua,,3.5"
retime --table "$TMP/rd.csv" --device d --source s --drop stamp=1 "$TMP/rdr.csv"
expect_status 2
expect_err "--drop takes a parameter's name (as \`stamp\` in stamp=1), got 'stamp=1'"

case_ "--regs with a raw file that reports no registers"
printf 'family,name,params,median_us\nf,k,n=1,1.5\n' >"$TMP/noregs.csv"
retime --table "$TMP/rt.csv" --device d --source s --regs "$TMP/noregs.csv"
expect_status 1
expect_err "noregs.csv:1: no 'regs' column in the header; --regs takes the registers from it"

case_ "a kernel timed twice"
printf 'family,name,params,median_us\nu,k,n=1,1.5\nu,k,n=1 regs=3,2.5\n' >"$TMP/dup.csv"
retime --table validation/h200/calibration.csv --device d --source s "$TMP/dup.csv"
expect_status 1
expect_err "dup.csv:3: kernel 'k' [n=1] is also at"

case_ "an unclosed quote"
printf 'family,name,params,median_us\nu,"k,n=1,1.5\n' >"$TMP/quote.csv"
retime --table validation/h200/calibration.csv --device d --source s "$TMP/quote.csv"
expect_status 1
expect_err "quote.csv:2: not valid CSV"

case_ "a row with a field too few"
printf 'family,name,params,median_us\nu,k,n=1\n' >"$TMP/short.csv"
retime --table validation/h200/calibration.csv --device d --source s "$TMP/short.csv"
expect_status 1
expect_err "short.csv:2: 3 fields where the header (line 1) names 4"

case_ "a raw file without median_us"
printf 'family,name,params,min_us\nu,k,n=1,1.5\n' >"$TMP/nomed.csv"
retime --table validation/h200/calibration.csv --device d --source s "$TMP/nomed.csv"
expect_status 1
expect_err "nomed.csv:1: no 'median_us' column"
retime --table validation/h200/calibration.csv --device d --source s devices/h200-sxm.ini
expect_status 1
expect_err "devices/h200-sxm.ini:2: 2 fields where the header (line 1) names 3"
retime_h100 --via "$TMP/nomed.csv" validation/h100/measured/benches/flushq/flushq.csv
expect_status 1
expect_err "nomed.csv:1: no 'median_us' column"

case_ "a missing file"
retime --table "$TMP/none.csv" --device d --source s "$TMP/dup.csv"
expect_status 1
expect_err "none.csv: cannot open"

case_ "command line"
retime --table validation/h200/calibration.csv --device d
expect_status 2
expect_err "--source is required"
retime --table validation/h200/calibration.csv --device d --source s "$TMP/dup.csv" --via
expect_status 2
expect_err "--via needs a value"
retime --frob
expect_status 2
expect_err "unknown option '--frob'"
retime --help
expect_status 0
expect_out "usage: gpuperf-retime"

finish
