#!/bin/sh
# What a first-time user expects of a Unix command: - for stdout, -v/-vv/-vvv,
# -V, --csv, non-zero exits for unknown names with "did you mean", a script
# without launches refused, compare that fits 100 columns and never prints a
# speedup of 0.00x, the block_dispatch bound, and `gpuperf params`.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/tiny.lua" <<'LUA'
local grid = gpuperf.param("grid", 2^20, "blocks in the grid")
local label = gpuperf.param("label", "tiny", "the kernel's name")
gpuperf.launch{ name = label, grid = grid, block = 32, regs = 8, work = { gpuperf.fp32(1) } }
print("hello", 42)
LUA
printf 'local n = gpuperf.param("n", 4, "unused")\n' >"$TMP/empty.lua"
SIX=geforce-8800-gtx,tesla-c1060,geforce-gtx-480,tesla-k20x,a100-sxm4-40gb,h200-sxm

case_ "-V and --version"
gp -V
expect_status 0
expect_out "gpuperf 0.2.0 (plugin ABI"
gp --version
expect_status 0

case_ "-v says which device and plugin files were loaded"
gp -v predict --device h200-sxm scripts/saxpy.lua
expect_status 0
expect_err "gpuperf: devices: info: device h200-sxm: $GP_SOURCE_DIR/devices/h200-sxm.ini"
expect_err "gpuperf: plugins: info: device h200-sxm: plugin hopper:"
if grep -q debug "$TMP/err"; then bad "debug lines at -v"; else ok; fi
case_ "-vv, -v -v and -vvv add debug lines"
for v in "-vv" "-v -v" "-vvv" "--verbose -v"; do
    # shellcheck disable=SC2086 # v is one or two words
    gp $v predict --device h200-sxm scripts/saxpy.lua
    expect_status 0
    expect_err "gpuperf: devices: debug: search path 1: "
done
case_ "-v, -vv and --verbose after the command's name"
for v in "-v" "-vv" "--verbose"; do
    gp predict "$v" --device h200-sxm scripts/saxpy.lua
    expect_status 0
    expect_err "gpuperf: devices: info: device h200-sxm: $GP_SOURCE_DIR/devices/h200-sxm.ini"
    if [ "$v" = "-vv" ]; then expect_err "gpuperf: devices: debug: search path 1: "; fi
done
gp devices --json -vv
expect_status 0
expect_json_has ".devices[0].id"
expect_err "gpuperf: devices: debug: search path 1: "
gp predict --device h200-sxm scripts/saxpy.lua -- -v
expect_status 2 # after --, -v is an operand (a second script)
case_ "without -v: no info lines"
gp predict --device h200-sxm scripts/saxpy.lua
expect_no_err
case_ "-v: a device file hidden by one of the same name earlier on the path"
mkdir -p "$TMP/cards"
cp devices/h200-sxm.ini "$TMP/cards/h200-sxm.ini"
GPUPERF_DEVICE_PATH="$TMP/cards" "$GPUPERF" -v predict --device h200-sxm scripts/saxpy.lua \
    >"$TMP/out" 2>"$TMP/err"
STATUS=$?
expect_status 0
expect_err "gpuperf: devices: info: $GP_SOURCE_DIR/devices/h200-sxm.ini is hidden by the file of the same name earlier on the search path"
expect_err "device h200-sxm: $TMP/cards/h200-sxm.ini"

case_ "a script's print() reaches stderr through the log handler"
gp predict --device h200-sxm "$TMP/tiny.lua"
expect_status 0
expect_err "hello	42"

case_ "help for an unknown command fails with did you mean"
gp help nosuch
expect_status 2
expect_err "gpuperf: unknown command 'nosuch'; the commands are: devices"
gp help predcit
expect_status 2
expect_err "unknown command 'predcit'; did you mean predict?"
gp predcit --device h200-sxm scripts/saxpy.lua
expect_status 2
expect_err "did you mean predict?"
gp help params
expect_status 0
expect_out "usage: gpuperf params SCRIPT.lua"

case_ "did you mean: an option, a global option, a device"
gp predict --jsn --device h200-sxm scripts/saxpy.lua
expect_status 2
expect_err "gpuperf predict: unknown option '--jsn'; did you mean --json?"
gp sweep --devices h200-sxm scripts/saxpy.lua --jbos 2
expect_status 2
expect_err "did you mean --jobs?"
gp --verbos devices
expect_status 2
expect_err "did you mean --verbose?"
gp predict --device h20-sxm scripts/saxpy.lua
expect_status 1
expect_err "device 'h20-sxm' not found"
expect_err "did you mean h200-sxm?"
gp compare --devices h200-sxm,tesla-k20 scripts/saxpy.lua
expect_status 1
expect_err "did you mean tesla-k20x?"
gp predict --device zzzzzzzz scripts/saxpy.lua
expect_status 1
if grep -q "did you mean" "$TMP/err"; then bad "a suggestion for a name nothing like it"; else ok; fi

case_ "--trace - writes the trace to stdout, and no file named -"
cd "$TMP" || exit 1
gp predict --device h200-sxm "$GP_SOURCE_DIR/scripts/saxpy.lua" --trace -
expect_status 0
expect_json_has .traceEvents
expect_json .otherData.device h200-sxm
if [ -e "$TMP/-" ]; then bad "a file named - was created"; else ok; fi
gp predict --device h200-sxm "$GP_SOURCE_DIR/scripts/saxpy.lua" --trace - --json
expect_status 2
expect_err "--trace - writes the trace to stdout in place of the report"
case_ "sweep -o - and --svg - write to stdout"
gp sweep --devices h200-sxm "$GP_SOURCE_DIR/scripts/saxpy.lua" -p block=64,128 -o -
expect_status 0
expect_out "device,block,total_us"
gp sweep --devices h200-sxm "$GP_SOURCE_DIR/scripts/saxpy.lua" -p block=64,128 --svg - -o /dev/null
expect_status 0
expect_out "<svg xmlns"
gp sweep --devices h200-sxm "$GP_SOURCE_DIR/scripts/saxpy.lua" -p block=64,128 --svg -
expect_status 2
expect_err "--svg - and the rows would both go to stdout"
if [ -e "$TMP/-" ]; then bad "a file named - was created"; else ok; fi
cd "$GP_SOURCE_DIR" || exit 1

case_ "--csv on predict, compare and sweep"
gp predict --device h200-sxm "$TMP/tiny.lua" --csv
expect_status 0
expect_out "device,index,name,type,gpu,stream,grid,block,regs,smem_bytes,bytes,blocks_per_sm,occupancy,limiter,start_us,end_us,time_us,bound"
expect_out "h200-sxm,1,tiny,kernel,0,0,1048576 x 1 x 1,32 x 1 x 1,8,0,,"
expect_out "h200-sxm,,total,total,"
gp predict --device h200-sxm "$TMP/tiny.lua" --csv -p 'label=a,b'
expect_out 'h200-sxm,1,"a,b",kernel'
gp compare --devices h200-sxm,a100-sxm4-40gb scripts/saxpy.lua --csv
expect_status 0
expect_out "device,cc,sms,index,name,type,time_us,bound,blocks_per_sm,limiter,speedup_vs_first"
expect_out "h200-sxm,9.0,132,,total,total,"
expect_out ",1.0000"
gp sweep --devices h200-sxm scripts/saxpy.lua -p block=64 --csv
expect_status 0
expect_out "device,block,total_us"
gp predict --device h200-sxm scripts/saxpy.lua --csv --json
expect_status 2

case_ "a script without launches is an error that says what to add"
gp predict --device h200-sxm "$TMP/empty.lua"
expect_status 1
expect_err "empty.lua: the script launches no kernel and copies nothing, so there is no time to predict; add a gpuperf.launch{...} (docs/workloads.md)"
if grep -q "total" "$TMP/out"; then bad "a total for an empty script"; else ok; fi
gp compare --devices h200-sxm,a100-sxm4-40gb "$TMP/empty.lua"
expect_status 1
if grep -q "0.00x" "$TMP/out"; then bad "speedup 0.00x"; else ok; fi

case_ "compare of six devices fits 100 columns, in two tables of three"
COLUMNS='' gp compare --devices $SIX scripts/saxpy.lua
expect_status 0
w=$(awk '{ if (length > m) m = length } END { print m + 0 }' "$TMP/out")
expect_between "$w" 40 100
n=$(grep -c "^total" "$TMP/out")
if [ "$n" -eq 2 ]; then ok; else bad "$n tables, expected 2"; fi
expect_out "speedup vs geforce-8800-gtx"
if grep -q "0.00x" "$TMP/out"; then bad "speedup 0.00x"; else ok; fi
COLUMNS=200 gp compare --devices $SIX scripts/saxpy.lua
n=$(grep -c "^total" "$TMP/out")
if [ "$n" -eq 1 ]; then ok; else bad "$n tables at 200 columns, expected 1"; fi
gp compare --devices $SIX scripts/saxpy.lua --json
expect_json ".devices[5].device.id" h200-sxm
expect_json_has ".devices[5].speedup_vs_first"

case_ "the bound of a kernel limited by block dispatch is block_dispatch"
gp predict --device h200-sxm "$TMP/tiny.lua"
expect_status 0
expect_out "block_dispatch"
gp predict --device h200-sxm "$TMP/tiny.lua" --json
expect_json ".launches[0].bound" block_dispatch
gp predict --help
expect_out "block_dispatch"

case_ "sweep chart: the legend right of the plot, the x axis ending at the last value"
gp sweep --devices h100-sxm,h200-sxm scripts/saxpy.lua -p block=32:1000:32 -p n=2^20,2^24 \
    --svg "$TMP/s.svg" -o /dev/null
expect_status 0
right=$(sed -n 's/.*<path d="M[0-9.]* [0-9.]* V[0-9.]* H\([0-9.]*\)".*/\1/p' "$TMP/s.svg" | head -n 1)
legend=$(sed -n 's/.*<rect class="legend" x="\([0-9.]*\)".*/\1/p' "$TMP/s.svg")
if [ -n "$right" ] && [ -n "$legend" ] && awk -v a="$legend" -v b="$right" 'BEGIN { exit !(a > b) }'
then ok; else bad "legend at x=$legend, plot's right edge at $right"; fi
# the last x tick is 900 (ticks of 100 up to 992), none at 1000 past the data
if grep -q '>1000</text>' "$TMP/s.svg"; then bad "an x tick past the last value (992)"; else ok; fi
expect_between "$(grep -c '<polyline class="series"' "$TMP/s.svg")" 4 4

case_ "gpuperf params: names, types, defaults and help"
gp params "$TMP/tiny.lua"
expect_status 0
expect_out "grid   number  1048576  blocks in the grid"
expect_out "label  string  \"tiny\"   the kernel's name"
gp params "$TMP/tiny.lua" --json --device h200-sxm
expect_status 0
expect_json .device h200-sxm
expect_json ".params[0].name" grid
expect_json ".params[0].default" 1048576
expect_json ".params[1].type" string
expect_json ".params[1].help" "the kernel's name"
expect_json ".params[1].line" 2
gp params "$TMP/empty.lua"
expect_status 0
gp params
expect_status 2
gp params --device nosuch scripts/saxpy.lua
expect_status 1
case_ "-p help=1 points to gpuperf params"
gp predict --device h200-sxm scripts/saxpy.lua -p help=1
expect_status 1
expect_err "\`gpuperf params scripts/saxpy.lua\` lists them with defaults and help"

case_ "man page and --help: the same example files, which exist"
for cmd in devices plugins occupancy predict compare params sweep validate plugin-check; do
    "$GPUPERF" "$cmd" --help
done >"$TMP/help.txt" 2>&1
sed 's/\\-/-/g' docs/gpuperf.1 >"$TMP/man.txt"
for f in $(cat "$TMP/help.txt" "$TMP/man.txt" | grep -oE '[A-Za-z0-9_./-]+\.(ini|lua)' | sort -u); do
    case $f in
    NAME.ini | SCRIPT.lua | FILE.ini | fB.ini | D.ini | *[A-Z][A-Z]*.lua) continue ;; # placeholders
    */*) [ -e "$f" ] ;;
    *) [ -e "devices/$f" ] || [ -e "examples/plugin/$f" ] ;;
    esac && ok || bad "an example names $f, which is not in the repository"
done
case_ "man page: --budget and --memory-cap for every command that runs scripts"
for opt in budget "memory-cap"; do
    line=$(awk -v o="--$opt" '/^\.SH OPTIONS/ { opts = 1 } found { print; exit } opts && index($0, o) { found = 1 }' "$TMP/man.txt")
    case $line in *validate*) ok ;; *) bad "--$opt: '$line' lacks validate" ;; esac
done

case_ "error locations: the script's path as given, relative or absolute, however long"
long=a_folder_whose_name_alone_is_longer_than_the_sixty_bytes_lua_keeps
mkdir -p "$TMP/$long"
printf 'local n = 1\nlocal m = 2\nerror("line three")\n' >"$TMP/$long/err.lua"
(cd "$TMP" && "$GPUPERF" predict --device h200-sxm "$long/err.lua") >"$TMP/out" 2>"$TMP/err"
STATUS=$?
expect_status 1
first=$(head -n 1 "$TMP/err")
[ "$first" = "gpuperf predict: $long/err.lua:3: line three" ] && ok || bad "relative: '$first'"
gp predict --device h200-sxm "$TMP/$long/err.lua"
expect_status 1
first=$(head -n 1 "$TMP/err")
[ "$first" = "gpuperf predict: $TMP/$long/err.lua:3: line three" ] && ok || bad "absolute: '$first'"
expect_err "	$TMP/$long/err.lua:3: in main chunk"

finish
