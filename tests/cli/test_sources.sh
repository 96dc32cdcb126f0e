#!/bin/sh
# Every citation points into the repository: no file cites a path outside it
# (a reference sheet or folder beside the checkout), and every [sources: KEY]
# names an entry of docs/sources.md. The fuzz corpus (mutated inputs) and
# build folders are left out.
. "$(dirname "$0")/lib.sh"

# The project's own text files.
files() {
    find . \( -name .git -o -name 'build*' -o -name '_build*' -o -path ./tests/fuzz/corpus \) -prune \
        -o -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' -o -name '*.ini' \
        -o -name '*.lua' -o -name '*.md' -o -name '*.sh' -o -name '*.csv' -o -name '*.txt' \
        -o -name '*.1' -o -name '*.cmake' -o -name '*.in' -o -name run \) -print
}

case_ "docs/sources.md exists and numbers its entries 1, 2, 3..."
n=$(grep -c '^[0-9][0-9]*\. \[[a-z0-9.-]*\] ' docs/sources.md)
expect_between "$n" 30 1000
seq=$(sed -n 's/^\([0-9][0-9]*\)\. \[.*/\1/p' docs/sources.md | awk '$1 != NR { print NR; exit }')
[ -z "$seq" ] && ok || bad "docs/sources.md: entry $seq is not numbered $seq (numbers run 1, 2, 3... in file order)"

# the patterns are split so that this file does not match them itself
SHEET='gpu''-facts'
SHARED='sha''red/'
OUTSIDE="$SHEET|\\.\\./$SHARED|(^|[^a-z_])$SHARED(reference|validation)/"

case_ "no file cites a path outside the repository"
files | xargs grep -nE "$OUTSIDE" >"$TMP/outside" 2>/dev/null
if [ -s "$TMP/outside" ]; then bad "citations outside the repository:"; head -20 "$TMP/outside"
else ok; fi

case_ "every [sources: key] is an entry of docs/sources.md"
sed -n 's/^[0-9][0-9]*\. \[\([a-z0-9.-]*\)\] .*/\1/p' docs/sources.md | sort -u >"$TMP/keys"
files | xargs grep -noE '\[sources: [^]]*\]' 2>/dev/null |
    sed 's/\[sources: \([^]]*\)\]$/\1/' >"$TMP/cites"
missing=0
while IFS= read -r line; do
    key=${line##*:}
    where=${line%:*}
    [ "$key" = key ] && continue # the form itself, in docs/sources.md's header
    case $where in ./tests/cli/test_sources.sh:*) continue ;; esac # this checker's patterns
    if ! grep -qxF "$key" "$TMP/keys"; then
        echo "  $where cites [sources: $key], which docs/sources.md lacks"
        missing=$((missing + 1))
    fi
done <"$TMP/cites"
if [ "$missing" -eq 0 ]; then ok; else bad "$missing citations of keys docs/sources.md lacks"; fi
n=$(wc -l <"$TMP/cites")
expect_between "$n" 50 100000

case_ "every device file names its sources by key"
for f in devices/*.ini; do
    if grep -q '^; Sources: each key below is an entry of docs/sources.md' "$f" ||
        grep -q '\[sources: ' "$f"; then ok; else bad "$f cites no [sources: key]"; fi
done

case_ "the checker catches a citation outside the repository and an unknown key"
printf '; see ../%sreference/%s.md section 3\n; [sources: no-such-key]\n' "$SHARED" "$SHEET" \
    >"$TMP/bad.ini"
if grep -qE "$OUTSIDE" "$TMP/bad.ini"; then ok; else bad "the pattern misses a path outside"; fi
k=$(grep -oE '\[sources: [^]]*\]' "$TMP/bad.ini" | sed 's/\[sources: \(.*\)\]/\1/')
if grep -qxF "$k" "$TMP/keys"; then bad "no-such-key accepted"; else ok; fi

finish
