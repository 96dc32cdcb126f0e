#!/bin/sh
# Every example of docs/workloads.md runs: each ```lua block is a whole
# script, predicted with `gpuperf predict --device h200-sxm` (a block opened
# with "```lua pending" describes a function gpuperf does not have yet and
# is not run). The first lines
# of a block may say, as Lua comments:
#   -- expect error: TEXT   the prediction fails and stderr contains TEXT
#   -- args: ARGS           extra arguments (e.g. -p n=2^20)
#   -- file: NAME.lua       a module for `require`: saved as NAME.lua, not run
#   -- parse only           run with `gpuperf predict --check`: the script is
#                           evaluated and checked, nothing is predicted (for
#                           ops whose costing a generation does not have yet)
. "$(dirname "$0")/lib.sh"
DOC="$GP_SOURCE_DIR/docs/workloads.md"

mkdir -p "$TMP/docs"
# split the document into $TMP/docs/block-N.lua (N = 1, 2, ...)
awk -v dir="$TMP/docs" '
    /^```lua[ \t]*$/ { n++; f = sprintf("%s/block-%03d.lua", dir, n); inb = 1; next }
    /^```/ && inb { inb = 0; close(f); next }
    inb { print > f }
' "$DOC"
NBLOCKS=$(ls "$TMP/docs" | wc -l)

case_ "docs/workloads.md has examples"
if [ "$NBLOCKS" -ge 10 ]; then ok; else bad "only $NBLOCKS lua blocks"; fi

# modules first, so that the examples can require them
for f in "$TMP"/docs/block-*.lua; do
    name=$(sed -n 's/^-- file: *\([A-Za-z0-9_]*\.lua\) *$/\1/p' "$f" | head -n 1)
    [ -n "$name" ] && cp "$f" "$TMP/docs/$name"
done

for f in "$TMP"/docs/block-*.lua; do
    b=$(basename "$f" .lua)
    line=$(awk -v want="${b#block-}" '/^```lua[ \t]*$/ { n++; if (n == want + 0) { print NR; exit } }' "$DOC")
    grep -q '^-- file: ' "$f" && continue
    case_ "docs/workloads.md:$line"
    want_err=$(sed -n 's/^-- expect error: *//p' "$f" | head -n 1)
    args=$(sed -n 's/^-- args: *//p' "$f" | head -n 1)
    check=""
    grep -q '^-- parse only' "$f" && check="--check"
    # shellcheck disable=SC2086 # args are words
    gp predict --device h200-sxm "$f" $args $check
    if [ -n "$want_err" ]; then
        if [ "$STATUS" -ne 0 ]; then ok; else bad "the example should fail"; fi
        expect_err "$want_err"
    elif [ -n "$check" ]; then
        expect_status 0
        expect_out "nothing predicted (--check)"
    else
        expect_status 0
        expect_out "total"
    fi
done

# Where the README or a document shows a command (an indented `gpuperf ...` or
# `build/gpuperf ...` line) and then its output (the ``` block after it), the
# output is what the command prints now. A block with a line "..." is an
# excerpt and is not compared.
for doc in "$GP_SOURCE_DIR/README.md" "$GP_SOURCE_DIR"/docs/*.md; do
    awk -v dir="$TMP" '
        /^    (build\/)?gpuperf / && !inb { cmd = $0; sub(/^    (build\/)?gpuperf /, "", cmd); cline = NR; next }
        /^```$/ && !inb && cmd != "" { inb = 1; n++; f = sprintf("%s/shown-%03d", dir, n)
                                       print cline > (f ".line"); print cmd > (f ".cmd"); close(f ".cmd"); close(f ".line")
                                       printf "" > f; next }
        /^```/ && inb { inb = 0; close(f); cmd = ""; f = ""; next }
        inb { print > f; next }
        /^[ \t]*$/ { next }
        { cmd = "" }
    ' "$doc"
    for f in "$TMP"/shown-[0-9][0-9][0-9]; do
        [ -e "$f" ] || continue
        line=$(cat "$f.line")
        cmd=$(cat "$f.cmd")
        rm -f "$f.line" "$f.cmd"
        if grep -qx '[ \t]*\.\.\.[ \t]*' "$f"; then rm -f "$f"; continue; fi
        case_ "${doc#"$GP_SOURCE_DIR"/}:$line: gpuperf $cmd"
        # shellcheck disable=SC2086 # the document's command, as words
        gp $cmd
        expect_status 0
        if diff -u "$f" "$TMP/out" >"$TMP/diff"; then ok
        else bad "the output shown differs from what the command prints:"; head -30 "$TMP/diff"; fi
        SHOWN=$((${SHOWN:-0} + 1))
        rm -f "$f"
    done
done
case_ "README.md and docs/ show command outputs"
if [ "${SHOWN:-0}" -ge 5 ]; then ok; else bad "only ${SHOWN:-0} shown outputs compared"; fi

README="$GP_SOURCE_DIR/README.md"
case_ "README.md: the script shown is scripts/saxpy.lua"
awk '/^```lua$/ { inb = 1; next } /^```/ && inb { exit } inb { print }' "$README" >"$TMP/readme_lua"
if diff -u "$GP_SOURCE_DIR/scripts/saxpy.lua" "$TMP/readme_lua" >"$TMP/diff"; then ok
else bad "README.md's lua block differs from scripts/saxpy.lua:"; head -30 "$TMP/diff"; fi

case_ "docs/gpuperf.1 renders without warnings"
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww "$GP_SOURCE_DIR/docs/gpuperf.1" >"$TMP/man.txt" 2>"$TMP/man.err"
    STATUS=$?
    expect_status 0
    if [ ! -s "$TMP/man.err" ]; then ok; else bad "groff warns: $(head -c 400 "$TMP/man.err")"; fi
    for section in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS ENVIRONMENT FILES "EXIT STATUS" EXAMPLES; do
        grep -q "^$section" "$TMP/man.txt" 2>/dev/null ||
            sed 's/.\x08//g' "$TMP/man.txt" | grep -q "^$section" && ok || bad "no $section section"
    done
    # every command is in the man page
    for cmd in devices plugins occupancy predict compare sweep validate plugin-check; do
        sed 's/.\x08//g' "$TMP/man.txt" | grep -q "gpuperf $cmd" && ok || bad "no $cmd"
    done
else
    echo "skipped: groff is not installed"
fi

finish
