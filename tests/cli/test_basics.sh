#!/bin/sh
# The command line itself: help, version, unknown commands and options.
. "$(dirname "$0")/lib.sh"

case_ "help"
gp --help
expect_status 0
expect_out "usage: gpuperf [-v] COMMAND"
for c in devices plugins occupancy predict compare validate sweep plugin-check; do
    expect_out "  $c"
done

case_ "version"
gp --version
expect_status 0
expect_out "plugin ABI 2.0"

case_ "no command"
gp
expect_status 2
expect_err "usage: gpuperf"

case_ "unknown command"
gp frobnicate
expect_status 2
expect_err "unknown command 'frobnicate'"

case_ "unknown global option"
gp --frob
expect_status 2
expect_err "unknown option '--frob'"

for c in devices plugins occupancy predict compare validate sweep plugin-check; do
    case_ "$c --help"
    gp "$c" --help
    expect_status 0
    expect_out "usage: gpuperf $c"
    case_ "help $c"
    gp help "$c"
    expect_status 0
    expect_out "usage: gpuperf $c"
    case_ "$c with a bad option"
    gp "$c" --no-such-option
    expect_status 2
    expect_err "unknown option '--no-such-option'"
done

# --memory-cap is MiB, 1..2^20, on every command that runs scripts
for args in "predict --device h200-sxm" "compare --devices h200-sxm" \
    "sweep --devices h200-sxm" "validate"; do
    c=${args%% *}
    for v in 0 2^21; do
        case_ "$c --memory-cap $v"
        # shellcheck disable=SC2086
        gp $args --memory-cap "$v" scripts/saxpy.lua
        expect_status 2
        expect_err "gpuperf $c: --memory-cap $v: MiB, 1..1048576"
    done
done

case_ "warp operations: refused where the generation lacks them, costed where it has them"
cat > "$TMP/shfl.lua" <<'LUA'
gpuperf.launch{name = "k", grid = 1024, block = 256, regs = 16,
  work = { gpuperf.loop(64, { gpuperf.shfl(1), gpuperf.fp32(1) }) }}
LUA
gp predict --device geforce-8800-gtx "$TMP/shfl.lua"
expect_status 1
expect_err "shfl needs compute capability 3.0; geforce-8800-gtx is 1.0"
gp predict --device tesla-k40 "$TMP/shfl.lua"
expect_status 0

case_ "a compute-bound launch names the pipe that bounds it"
gp predict --device h200-sxm scripts/validation/alu.lua -p kind=sinf -p ilp=4
expect_status 0
expect_out "compute (sfu)"
gp predict --device h200-sxm scripts/validation/alu.lua -p kind=sinf -p ilp=4 --json
expect_status 0
expect_json .launches[0].bound compute
expect_json .launches[0].bound_pipe sfu
gp predict --device h200-sxm scripts/saxpy.lua
expect_status 0
expect_out "  dram"
gp predict --device h200-sxm scripts/saxpy.lua --json
expect_json .launches[0].bound dram
expect_json_has .launches[0].bound_pipe

case_ "one grid-wide atomic address is bound by its serialisation"
cat > "$TMP/atom.lua" <<'LUA'
local scope = gpuperf.param("scope", "same", "same | distinct")
local update = gpuperf.param("update", "fadd", "add | inc | fadd")
local c = gpuperf.buffer("c", 4 * 2^22)
gpuperf.launch{name = "k", grid = 2^22 / 256, block = 256, regs = 8,
  work = { gpuperf.atomic{c, scope = scope, update = update} }}
LUA
gp predict --device h200-sxm "$TMP/atom.lua" --json
expect_status 0
t_same=$(json .total_us)
# 2^22 float updates (one per lane) at 0.287 per cycle on one address, 1980 MHz:
# at least 7000 us
expect_between "$t_same" 7000 1e9
gp predict --device h200-sxm "$TMP/atom.lua" -p scope=distinct --json
expect_status 0
expect_between "$(json .total_us)" 0 "$(awk -v t="$t_same" 'BEGIN { print t / 50 }')"

case_ "integer atomics on one warp-uniform address aggregate to one per warp (8.0 on)"
# 2^17 warps, one RED each at 0.690 warp atomics per cycle on one word: about 96 us
gp predict --device h200-sxm "$TMP/atom.lua" -p update=add --json
expect_status 0
t_add=$(json .total_us)
expect_between "$t_add" 90 200
gp predict --device h200-sxm "$TMP/atom.lua" -p update=inc --json
expect_status 0
expect_between "$(json .total_us)" 90 200
# a generation before 8.0 keeps one atomic per lane: the int add costs what the float one does
gp predict --device tesla-k40 "$TMP/atom.lua" -p update=fadd --json
expect_status 0
t_k40=$(json .total_us)
gp predict --device tesla-k40 "$TMP/atom.lua" -p update=add --json
expect_status 0
expect_between "$(json .total_us)" "$t_k40" "$t_k40"

cat > "$TMP/atom2.lua" <<'LUA'
local scope = gpuperf.param("scope", "same", "same | distinct")
local update = gpuperf.param("update", "inc", "add | inc | fadd")
local space = gpuperf.param("space", "global", "global | shared")
local data = gpuperf.param("data", 0, "1: the address comes from data")
local result = gpuperf.param("result", 0, "1: the returned value is used")
local c = gpuperf.buffer("c", 4 * 2^22)
local a = space == "shared"
  and gpuperf.atomic{space = "shared", scope = scope, update = update,
                     from_data = data == 1, result = result == 1}
  or gpuperf.atomic{c, scope = scope, update = update, from_data = data == 1,
                    result = result == 1}
gpuperf.launch{name = "k", grid = 2^22 / 256, block = 256, regs = 8, smem = 1024,
  work = { gpuperf.loop(space == "shared" and 64 or 1, { a }) }}
LUA
case_ "an atomic whose address comes from data is not aggregated, even on one word"
gp predict --device h200-sxm "$TMP/atom2.lua" --json
expect_status 0
t_agg=$(json .total_us)
# 2^22 lanes, one update each at the one-address lane rate (0.69 per cycle,
# 1980 MHz): about 3000 us, where the aggregated +1 takes about 100
gp predict --device h200-sxm "$TMP/atom2.lua" -p data=1 --json
expect_status 0
expect_between "$(json .total_us)" "$(awk -v t="$t_agg" 'BEGIN { print t * 20 }')" 1e9

case_ "a used result sends the old values back and costs more on distinct words"
# (a block's cycles: the launch is bound by the blocks' dispatch either way)
gp predict --device h200-sxm "$TMP/atom2.lua" -p scope=distinct --json
expect_status 0
t_red=$(json .launches[0].block_cycles)
gp predict --device h200-sxm "$TMP/atom2.lua" -p scope=distinct -p result=1 --json
expect_status 0
expect_between "$(json .launches[0].block_cycles)" "$(awk -v t="$t_red" 'BEGIN { print t * 1.01 }')" 1e9

case_ "a shared float add is a compare-and-swap loop: slower than an integer add"
gp predict --device h200-sxm "$TMP/atom2.lua" -p space=shared -p update=add --json
expect_status 0
t_sadd=$(json .total_us)
gp predict --device h200-sxm "$TMP/atom2.lua" -p space=shared -p update=fadd --json
expect_status 0
expect_between "$(json .total_us)" "$(awk -v t="$t_sadd" 'BEGIN { print t * 5 }')" 1e9

finish
