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
expect_out "plugin ABI 1.0"

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

finish
