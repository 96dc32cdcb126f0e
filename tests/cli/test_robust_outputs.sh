#!/bin/sh
# Output files (predict --trace, occupancy --svg, sweep -o and --svg) are
# written to a temporary file beside the target and renamed into place: a
# failing write leaves neither the file nor a temporary one, a failed run
# leaves an existing file untouched, and an existing file is replaced by a
# new one (a new inode), never rewritten in place.
. "$(dirname "$0")/lib.sh"

# gpuperf with a time limit: a hang fails the test.
gpt() {
    timeout 120 "$GPUPERF" "$@" >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
    if [ "$STATUS" -eq 124 ]; then bad "timed out (hang)"; fi
}
# no_leftovers DIR: nothing named *.tmp.* in DIR.
no_leftovers() {
    if ls -A "$1" | grep -q '\.tmp\.'; then bad "temporary files left in $1: $(ls -A "$1")"; else ok; fi
}
# expect_file_is PATH TEXT: PATH holds exactly TEXT.
expect_file_is() {
    if [ "$(cat "$1")" = "$2" ]; then ok; else bad "$1 holds '$(head -c 80 "$1")', expected '$2'"; fi
}
inode() { ls -i "$1" | awk '{print $1}'; }

# Each writer: the command line without the output path.
SAXPY="--device h200-sxm scripts/saxpy.lua"
for w in trace osvg sweepo sweepsvg; do
    case $w in
    trace) run() { gpt predict $SAXPY --trace "$1"; }
           fail() { gpt predict --device h200-sxm tests/data/scripts/sb_infinite_loop.lua \
                        --budget 100000 --trace "$1"; } ;;
    osvg) run() { gpt occupancy --device h200-sxm --threads 256 --regs 32 --svg "$1"; }
          fail() { gpt occupancy --device tests/data/robust/bad-devices/nan.ini --threads 256 \
                       --regs 32 --svg "$1"; } ;;
    sweepo) run() { gpt sweep --devices h200-sxm scripts/saxpy.lua -p block=128,256 -o "$1"; }
            fail() { gpt sweep --devices h200-sxm tests/data/scripts/sb_infinite_loop.lua \
                         --budget 100000 -o "$1"; } ;;
    sweepsvg) run() { gpt sweep --devices h200-sxm scripts/saxpy.lua -p block=128,256 --svg "$1"; }
              fail() { gpt sweep --devices h200-sxm tests/data/robust/scripts/rb_param_loop.lua \
                           --budget 100000 -p n=1,2 --svg "$1"; } ;;
    esac
    D="$TMP/$w"
    mkdir -p "$D"

    case_ "$w: written to a new file"
    run "$D/out"
    expect_status 0
    if [ -s "$D/out" ]; then ok; else bad "no output file"; fi
    no_leftovers "$D"

    case_ "$w: an existing file is replaced, not rewritten"
    echo "old content" >"$D/out"
    before=$(inode "$D/out")
    run "$D/out"
    expect_status 0
    after=$(inode "$D/out")
    if [ "$before" != "$after" ]; then ok; else bad "the file was rewritten in place (inode $before)"; fi
    if grep -q "old content" "$D/out"; then bad "old content left"; else ok; fi
    no_leftovers "$D"

    case_ "$w: a failed run leaves the existing file alone"
    echo "keep me" >"$D/keep"
    fail "$D/keep"
    expect_status 1
    expect_file_is "$D/keep" "keep me"
    no_leftovers "$D"

    case_ "$w: a folder that does not exist"
    run "$D/missing/out"
    expect_status 1
    expect_err "missing/out"
    expect_err "No such file or directory"
    if [ -e "$D/missing" ]; then bad "created $D/missing"; else ok; fi

    case_ "$w: a parent that is a file"
    echo x >"$D/file"
    run "$D/file/out"
    expect_status 1
    expect_err "Not a directory"
    expect_file_is "$D/file" "x"
    no_leftovers "$D"

    case_ "$w: the target is a folder"
    mkdir -p "$D/folder"
    run "$D/folder"
    expect_status 1
    expect_err "Is a directory"
    no_leftovers "$D"
    if [ -z "$(ls -A "$D/folder")" ]; then ok; else bad "wrote into the folder"; fi

    case_ "$w: a read-only folder"
    mkdir -p "$D/ro"
    chmod 555 "$D/ro"
    if [ "$(id -u)" -ne 0 ]; then
        run "$D/ro/out"
        expect_status 1
        expect_err "Permission denied"
        if [ -e "$D/ro/out" ]; then bad "wrote into a read-only folder"; else ok; fi
    fi
    no_leftovers "$D/ro"
    chmod 755 "$D/ro"
done

case_ "trace: the file is one JSON document, readable by others"
gpt predict $SAXPY --trace "$TMP/t.json"
expect_status 0
if "$JSONCHECK" "$TMP/t.json" .traceEvents >/dev/null 2>&1; then ok; else bad "not JSON"; fi
if [ "$(stat -c %a "$TMP/t.json")" = 644 ]; then ok; else bad "mode $(stat -c %a "$TMP/t.json")"; fi

finish
