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

finish
