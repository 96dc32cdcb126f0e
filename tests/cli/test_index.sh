#!/bin/sh
# Index functions, dependent loads, bins and the script checks around them
# from the command line: gpuperf predict --check, and each error a user can
# make in an index function (a clear file:line message, exit status 1,
# never a crash or a hang).
. "$(dirname "$0")/lib.sh"

S="$TMP/s"
mkdir -p "$S"

# script NAME INDEX-EXPRESSION: a 4 KiB buffer read by 8 blocks of 128
# threads, 10 iterations of a loop with counter k
script() {
    cat >"$S/$1.lua" <<LUA
local x = gpuperf.buffer("x", 4096)
gpuperf.launch{ name = "k", grid = 8, block = 128, regs = 8,
  work = { gpuperf.loop{10, var = "k", body = {
    gpuperf.load{x, index = function(t) $2 end} }} } }
LUA
}

case_ "--check runs the script and predicts nothing"
script ok 'return (t.gx + t.k) % 1024'
gp predict --device h200-sxm --check "$S/ok.lua"
expect_status 0
expect_out "ok.lua: checked for h200-sxm: 1 launches, 1 commands; nothing predicted (--check)"

case_ "--check still refuses a bad script"
script past 'return t.gx + t.k'
gp predict --device h200-sxm --check "$S/past.lua"
expect_status 1
expect_err "past.lua:4: index function of load 'x' returned 1024 for thread (x=119,y=0,z=0,bx=7,by=0,bz=0) k=9: past the end of buffer x (1024 elements of 4 bytes); check the grid or the index expression"

case_ "--check is for predict only"
gp compare --devices h200-sxm --check "$S/ok.lua"
expect_status 2
expect_err "--check is for gpuperf predict"

check_bad() { # NAME EXPR MESSAGE [ARGS]
    script "$1" "$2"
    shift 2
    want=$1
    shift
    gp predict --device h200-sxm "$S/$name.lua" "$@"
    expect_status 1
    expect_err "$want"
}

for c in \
    "nan|return 0/0|index function of load 'x' returned nan for thread (x=0,y=0,z=0,bx=0,by=0,bz=0) k=0: not a finite number" \
    "neg|return t.gx - 1|returned -1 for thread (x=0,y=0,z=0,bx=0,by=0,bz=0) k=0: negative" \
    "frac|return t.gx / 2|returned 0.5 for thread (x=1,y=0,z=0,bx=0,by=0,bz=0) k=0: not an integer" \
    "huge|return 2^70|past the end of buffer x (1024 elements of 4 bytes)" \
    "str|return \"a\"|returned \"a\" for thread (x=0,y=0,z=0,bx=0,by=0,bz=0) k=0: expected an element index" \
    "err|local y = t.nope.z return 0|index function of load 'x' failed for thread (x=0,y=0,z=0,bx=0,by=0,bz=0) k=0: " \
    "loop|while true do end|instruction budget of 1000000 exceeded (runaway loop?)"; do
    name=${c%%|*}
    rest=${c#*|}
    expr=${rest%%|*}
    want=${rest#*|}
    case_ "index function: $name"
    check_bad "$name" "$expr" "$want" --budget 1000000
    expect_err "$name.lua:4: "
done

case_ "a grid 4x too large for its buffer"
cat >"$S/big.lua" <<'LUA'
local n = 2^20
local x = gpuperf.buffer("x", 4 * n)
gpuperf.launch{ name = "k", grid = 4 * n / 256, block = 256, regs = 8,
                work = { gpuperf.load{x}, gpuperf.fp32(1) } }
LUA
gp predict --device h200-sxm "$S/big.lua"
expect_status 1
expect_err "big.lua:3: launch 'k': work[1]: the load at line 4: the grid's 4194304 threads, one element each (pattern \"unit\"), reach element 4194048: past the end of buffer x (1048576 elements of 4 bytes)"

case_ "a near miss of a gpuperf name"
printf 'local x = gpuperf.buffer("x", 64)\ngpuperf.launch{ name = "k", grid = 1, block = 16, regs = 8, work = { gpuperf.laod{x} } }\n' >"$S/miss.lua"
gp predict --device h200-sxm "$S/miss.lua"
expect_status 1
expect_err "miss.lua:2: no gpuperf.laod; did you mean gpuperf.load?"

case_ "dependent loads, bins and the warp ops parse"
cat >"$S/parse.lua" <<'LUA'
local n = 2^20
local nxt = gpuperf.buffer("next", 4 * n)
local hist = gpuperf.buffer("hist", 4 * 256)
gpuperf.launch{ name = "chase", grid = 1, block = 32, regs = 8,
  work = { gpuperf.loop(100, { gpuperf.load{nxt, depends = true,
           index = function(t) return gpuperf.random(0, n - 1) end} }) } }
gpuperf.launch{ name = "hist", grid = n / 256, block = 256, regs = 8,
  work = { gpuperf.load{nxt}, gpuperf.atomic{hist, bins = 256}, gpuperf.shfl(5),
           gpuperf.warp_reduce(1), gpuperf.idiv(1), gpuperf.fdiv(1), gpuperf.rcp(1) } }
LUA
gp predict --device h200-sxm --check "$S/parse.lua"
expect_status 0
expect_out "2 launches"

# gpuperf.random draws from an op's place among its kernel's ops, not from
# its source line: the same chase with two comment lines above it predicts
# the same (with the line, 6647.6 against 6569.2 us)
{ echo "-- a comment"; echo "-- and another"; cat scripts/validation/chase.lua; } >"$S/chase2.lua"
case_ "a comment above the ops draws the same gpuperf.random values"
P="-p kind=chase -p node=128 -p footprint=16384 -p lanes=32 -p warps=1 -p warm=68 -p hops=4096 -p regs=28 -p reps=32"
gp predict --device h200-sxm --json scripts/validation/chase.lua $P
expect_status 0
t1=$(json .total_us)
gp predict --device h200-sxm --json "$S/chase2.lua" $P
expect_status 0
expect_between "$(json .total_us)" "$t1" "$t1"

finish
