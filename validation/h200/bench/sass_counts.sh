#!/usr/bin/env bash
# sass_counts.sh - counts, per kernel, how often each opcode appears in a
# `cuobjdump --dump-sass` listing (the whole function, not only a loop).
#
# usage: sass_counts.sh SASS.txt OUT.txt     (OUT.txt: "kernel opcode count", sorted)
# A missing SASS.txt (the build failed) writes nothing.
set -u
sass=${1:-}
out=${2:-}
if [ -z "$sass" ] || [ -z "$out" ]; then
  echo "usage: sass_counts.sh SASS.txt OUT.txt" >&2
  exit 2
fi
[ -f "$sass" ] || exit 0
awk '/Function :/ { f = $3 }
     /^ +\/\*[0-9a-f]+\*\/ / { op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op);
                                n[f " " op]++ }
     END { for (k in n) print k, n[k] }' "$sass" | sort >"$out"
