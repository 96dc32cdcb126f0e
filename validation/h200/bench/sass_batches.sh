#!/usr/bin/env bash
# sass_batches.sh - per kernel of a `cuobjdump --dump-sass` listing, the order of its
# global loads, shared stores and barriers in one line (L: LDG, S: STS, |: BAR), and the
# longest run of LDGs with no STS between: how many of a tile copy's loads ptxas keeps
# in flight before their stores (LLLLSSSS: 4; LSLSLS: 1). Predication and branches are
# not followed: read the listing where a kernel's line needs it.
#
# usage: sass_batches.sh SASS.txt[.gz] [REGEX]   (REGEX: only kernels whose mangled
#                                                 name matches; default all)
# Output: "kernel maxL sequence", the sequence cut at 120 characters.
set -u
sass=${1:-}
re=${2:-.}
if [ -z "$sass" ] || [ ! -f "$sass" ]; then
  echo "usage: sass_batches.sh SASS.txt[.gz] [REGEX]" >&2
  exit 2
fi
case "$sass" in
*.gz) cat_=(gzip -dc) ;;
*) cat_=(cat) ;;
esac
"${cat_[@]}" "$sass" | awk -v re="$re" '
  function flush() {
    if (f != "" && f ~ re) {
      n = split(seq, c, ""); run = 0; best = 0
      for (i = 1; i <= n; i++) {
        if (c[i] == "L") { run++; if (run > best) best = run }
        else if (c[i] == "S" || c[i] == "|") run = 0
      }
      print f, best, substr(seq, 1, 120)
    }
    seq = ""
  }
  /Function :/ { flush(); f = $3; next }
  /^ +\/\*[0-9a-f]+\*\/ / {
    op = $2; if (op ~ /^@/) op = $3
    if (op ~ /^LDG/) seq = seq "L"
    else if (op ~ /^STS/) seq = seq "S"
    else if (op ~ /^BAR/) seq = seq "|"
  }
  END { flush() }'
