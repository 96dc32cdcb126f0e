#!/bin/sh
# libgpuperf as a library: the shared object exports exactly the GP_API
# functions of gpuperf/gpuperf.h (core/src/libgpuperf.map), and
# examples/embed/embed.c, built against that header alone, runs.
. "$(dirname "$0")/lib.sh"
: "${GP_LIBGPUPERF:?}" "${GP_EMBED:?}"

case_ "exports: the export list equals the header's GP_API functions"
grep -o 'GP_API [a-z_ ]*\*\{0,1\}gp_[a-z_0-9]*(' core/include/gpuperf/gpuperf.h |
    sed 's/.*\(gp_[a-z_0-9]*\)(/\1/' | sort >"$TMP/header"
sed -n 's/^ *\(gp_[a-z_0-9]*\);$/\1/p' core/src/libgpuperf.map | sort >"$TMP/map"
if diff "$TMP/header" "$TMP/map" >"$TMP/d"; then ok; else bad "header and map differ: $(cat "$TMP/d")"; fi

case_ "exports: nm -D shows only the public functions"
if command -v nm >/dev/null 2>&1; then
    nm -D --defined-only "$GP_LIBGPUPERF" | awk '$2 ~ /^[TtDdBbRr]$/ { print $3 }' |
        sed 's/@.*//' | sort >"$TMP/exported"
    if diff "$TMP/header" "$TMP/exported" >"$TMP/d"; then ok
    else bad "exported symbols differ from gpuperf.h: $(head -20 "$TMP/d")"; fi
else
    ok
fi

case_ "embed: predict, occupancy and a table through gpuperf.h"
mkdir -p "$TMP/t"
printf 'device,family,name,params,script,script_params,measured_us\n' >"$TMP/t/one.csv"
printf 'h200-sxm,stream,saxpy,n=2^24,%s/scripts/saxpy.lua,n=2^24,60\n' "$GP_SOURCE_DIR" >>"$TMP/t/one.csv"
"$GP_EMBED" h200-sxm scripts/saxpy.lua n=2^24 "$TMP/t/one.csv" >"$TMP/out" 2>"$TMP/err"
STATUS=$?
expect_status 0
expect_out "NVIDIA H200 SXM (h200-sxm, compute capability 9.0, 132 SMs, plugin hopper)"
expect_out "saxpy"
expect_out "total"
expect_out "best block size"
expect_out "1 rows, 1 predicted"

case_ "embed: errors come back as messages"
"$GP_EMBED" h999 scripts/saxpy.lua >"$TMP/out" 2>"$TMP/err"
STATUS=$?
expect_status 1
expect_err "embed: device 'h999' not found"
"$GP_EMBED" h200-sxm scripts/saxpy.lua nosuch=1 >"$TMP/out" 2>"$TMP/err"
STATUS=$?
expect_status 1
expect_err "nosuch"

finish
