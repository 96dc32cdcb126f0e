#!/bin/sh
# check_window.sh: how many loads ptxas keeps in flight ahead of their first
# consumer in each loop of a SASS listing (cuobjdump -sass output, gzipped or
# not). Prints, per function and loop (a backward branch), its loads and the
# most of them issued and not yet read by a later instruction.
#   check_window.sh SASS        read a listing (no GPU, no CUDA needed)
#   check_window.sh --build OUT compile ptxas_window.cu for sm_90 (ptxas -v on
#                               stderr), write its SASS to OUT (needs nvcc and
#                               cuobjdump), then read it
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = "--build" ]; then
    out=${2:?usage: check_window.sh --build OUT.txt.gz}
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    nvcc -arch=sm_90 -cubin -o "$tmp/w.cubin" "$here/ptxas_window.cu" -Xptxas -v >&2
    cuobjdump -sass "$tmp/w.cubin" | gzip >"$out"
    set -- "$out"
fi
sass=${1:?usage: check_window.sh SASS | --build OUT.txt.gz}
case $sass in *.gz) cat_=zcat ;; *) cat_=cat ;; esac
$cat_ "$sass" | awk '
function regs(s, out,   n, a, i, r, m) {   # registers named in s (R12.64 names R12 and R13)
    n = split(s, a, /[^A-Za-z0-9_.]+/)
    for (i = 1; i <= n; i++)
        if (match(a[i], /^R[0-9]+/)) {
            r = substr(a[i], 2, RLENGTH - 1) + 0; out[r] = 1
            if (a[i] ~ /\.64$/) out[r + 1] = 1
        }
}
function hex(h,   i, v) {   # 0x-less hexadecimal to a number (mawk has no strtonum)
    v = 0
    for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
    return v
}
function flush_fn(   k, t, b, i, mx, np, loads, op, rest, d, s, j, hit, wa, ws, base, r) {
    for (k = 1; k <= nins; k++) {
        if (!match(ins[k], /BRA 0x[0-9a-f]+/)) continue
        t = hex(substr(ins[k], RSTART + 6, RLENGTH - 6)); b = addr[k]
        if (t >= b) continue
        delete pend; mx = 0; np = 0; loads = 0
        for (i = 1; i <= nins; i++) {
            if (addr[i] < t || addr[i] > b) continue
            s = ins[i]; sub(/^@!?U?P[A-Z0-9]+ +/, "", s)
            op = s; sub(/ .*/, "", op); rest = s; sub(/^[^ ]+ */, "", rest)
            delete src; delete dst
            if (op ~ /^ST/) regs(rest, src)
            else { d = rest; sub(/,.*/, "", d); s = rest; if (index(s, ",")) sub(/^[^,]*,/, "", s); else s = ""
                   regs(s, src); if (d ~ /\[/) regs(d, src) }
            for (j in pend) { hit = 0; split(pend[j], wa, " ")
                for (r in wa) if ((wa[r] + 0) in src) hit = 1
                if (hit) { delete pend[j]; np-- } }
            if (op ~ /^LDG|^LDS|^LD\./) {
                loads++; d = rest; sub(/,.*/, "", d); regs(d, dst)
                base = -1; for (r in dst) if (base < 0 || r + 0 < base) base = r + 0
                ws = base ""
                if (op ~ /\.128/) ws = base " " base + 1 " " base + 2 " " base + 3
                else if (op ~ /\.64/) ws = base " " base + 1
                pend[i] = ws; np++; if (np > mx) mx = np
            }
        }
        if (loads > 1) printf "%-60s loop %#x-%#x loads %3d in flight %3d\n", fn, t, b, loads, mx
    }
    nins = 0
}
/Function : / { if (fn != "") flush_fn(); fn = $3; next }
match($0, /\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]*\*\/ +[^;]*;/) {
    s = substr($0, RSTART, RLENGTH); a = s; sub(/^\/\*/, "", a); sub(/\*\/.*/, "", a)
    sub(/^\/\*[0-9a-f]+\*\/ +/, "", s); sub(/ *;$/, "", s)
    ins[++nins] = s; addr[nins] = hex(a)
}
END { if (fn != "") flush_fn() }'
