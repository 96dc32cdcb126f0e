# robust_lib.sh - sourced by the test_robust_*.sh tests after lib.sh: run
# gpuperf with a time limit and check a refusal against docs/robustness.md.
#   GP_ROBUST_TABLE=FILE  also append each refused case as a row of the docs
#                         table (see "Regenerating the tables" there)

DOC="$GP_SOURCE_DIR/docs/robustness.md"

# gpuperf with a time limit (60 s; the slowest case takes about 4 s): a hang
# fails the test.
gpt() {
    timeout 60 "$GPUPERF" "$@" >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
    if [ "$STATUS" -eq 124 ]; then bad "timed out (hang)"; fi
}

# refused LINE ARGS...: exit 1, the first line of stderr (with this run's
# temporary folder left out) is LINE, and docs/robustness.md quotes it.
refused() {
    want=$1
    shift
    gpt "$@"
    expect_status 1
    got=$(head -n 1 "$TMP/err" | sed "s|$TMP/||g")
    if [ "$got" = "$want" ]; then ok; else bad "stderr: '$got', expected '$want'"; fi
    if grep -qF -- "$want" "$DOC"; then ok; else bad "docs/robustness.md lacks: $want"; fi
    if [ -n "${GP_ROBUST_TABLE:-}" ]; then
        case $want in
        *'`'*) q='`` ' && e=' ``' ;; # a message that quotes a command
        *) q='`' && e='`' ;;
        esac
        printf '| %s | %s | %s%s%s |\n' "${CASE%%: *}" "${CASE#*: }" "$q" "$want" "$e" \
            >>"$GP_ROBUST_TABLE"
    fi
}
