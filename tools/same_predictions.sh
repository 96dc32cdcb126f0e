#!/bin/sh
# same_predictions.sh - record or compare every prediction gpuperf makes for
# the repository's validation tables and scripts, so a change that should only
# move code can be shown to leave every figure as it was.
#
#   tools/same_predictions.sh record DIR [BUILD]   write the outputs into DIR
#   tools/same_predictions.sh check DIR [BUILD]    compare with DIR; exit 1 on
#                                                  any difference
# BUILD is the build folder holding the gpuperf binary (default: build).
set -u
mode=${1:?usage: same_predictions.sh record|check DIR [BUILD]}
ref=${2:?usage: same_predictions.sh record|check DIR [BUILD]}
build=${3:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
gp="$root/$build/gpuperf"
[ -x "$gp" ] || { echo "same_predictions.sh: $gp not found; build first" >&2; exit 2; }
case $mode in
record) out=$ref ;;
check) out=$(mktemp -d) ;;
*) echo "same_predictions.sh: mode '$mode' is not record or check" >&2; exit 2 ;;
esac
mkdir -p "$out"
cd "$root" || exit 2
devices=$(ls devices/*.ini | sed 's|devices/||; s|\.ini$||' | paste -sd, -)
run() { # NAME COMMAND...: stdout, stderr and status into $out/NAME
    name=$1; shift
    "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo "rc=$?" >>"$out/$name.out"
}
run validate-h200 "$gp" validate validation/h200/calibration.csv --json
for t in validation/published/*.csv; do
    run "validate-$(basename "$t" .csv)" "$gp" validate "$t" --json
done
find scripts -name '*.lua' | sort | while read -r s; do
    n=$(echo "$s" | tr / _)
    run "compare-$n" "$gp" compare --devices "$devices" "$s" --json
    # compare stops at the first device a script cannot run on: every device alone too
    for d in $(echo "$devices" | tr , ' '); do
        run "predict-$n-$d" "$gp" predict --device "$d" "$s" --json
    done
done
[ "$mode" = record ] && { echo "recorded $(ls "$out" | wc -l) files in $out"; exit 0; }
if diff -r "$ref" "$out" >"$out.diff" 2>&1; then
    echo "same: $(ls "$out" | wc -l) outputs identical to $ref"
    rm -rf "$out" "$out.diff"
    exit 0
fi
echo "DIFFERENT: see $out.diff (outputs in $out)"
head -40 "$out.diff"
exit 1
