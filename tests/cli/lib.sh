# lib.sh - helpers for the end-to-end tests of the gpuperf command.
# Each test_*.sh sources this, runs `gp ARGS...` and checks the result.
# Set GP_UPDATE_GOLDEN=1 to rewrite golden files instead of comparing.

set -u
: "${GPUPERF:?GPUPERF must name the gpuperf binary}"
: "${JSONCHECK:?JSONCHECK must name the jsoncheck helper}"
: "${GP_SOURCE_DIR:?}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpuperf-cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$GP_SOURCE_DIR"
PASSED=0
FAILED=0
CASE=""

# Start a named case.
case_() { CASE=$1; }

# Run gpuperf; keeps stdout, stderr and the exit status.
gp() {
    "$GPUPERF" "$@" >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
}

ok() { PASSED=$((PASSED + 1)); }
bad() {
    FAILED=$((FAILED + 1))
    echo "FAIL [$CASE]: $*"
    echo "  stdout: $(head -c 600 "$TMP/out")"
    echo "  stderr: $(head -c 600 "$TMP/err")"
}

expect_status() {
    if [ "$STATUS" -eq "$1" ]; then ok; else bad "exit status $STATUS, expected $1"; fi
}
expect_out() {
    if grep -qF -- "$1" "$TMP/out"; then ok; else bad "stdout lacks: $1"; fi
}
expect_err() {
    if grep -qF -- "$1" "$TMP/err"; then ok; else bad "stderr lacks: $1"; fi
}
expect_no_err() {
    if [ ! -s "$TMP/err" ]; then ok; else bad "unexpected stderr"; fi
}
# expect_json PATH VALUE: the JSON on stdout has VALUE at PATH.
expect_json() {
    got=$("$JSONCHECK" "$TMP/out" "$1" 2>&1)
    if [ "$got" = "$2" ]; then ok; else bad "JSON $1 = '$got', expected '$2'"; fi
}
# expect_json_has PATH: the path exists.
expect_json_has() {
    if "$JSONCHECK" "$TMP/out" "$1" >/dev/null 2>&1; then ok; else bad "JSON lacks $1"; fi
}
# json PATH: print the value at PATH of stdout's JSON.
json() { "$JSONCHECK" "$TMP/out" "$1"; }
# expect_golden NAME: stdout equals tests/cli/golden/NAME.
expect_golden() {
    g="$GP_SOURCE_DIR/tests/cli/golden/$1"
    if [ "${GP_UPDATE_GOLDEN:-0}" = 1 ]; then
        mkdir -p "$(dirname "$g")"
        cp "$TMP/out" "$g"
        ok
    elif diff -u "$g" "$TMP/out" >"$TMP/diff" 2>&1; then
        ok
    else
        bad "stdout differs from golden $1 (GP_UPDATE_GOLDEN=1 rewrites it):"
        head -40 "$TMP/diff"
    fi
}
# float_between VALUE LO HI
expect_between() {
    if awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; then ok
    else bad "$1 not within [$2, $3]"; fi
}

finish() {
    echo "$PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ]
}
