#!/bin/sh
# Install what gpuperf needs (Debian 12 packages), build it, and run the main
# job: a cross-generation comparison of a shipped workload.
#
#   tools/bootstrap.sh            # packages, build in ./build, comparison
#   BUILD_DIR=out tools/bootstrap.sh
set -eu
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
PACKAGES="cmake gcc make pkg-config libluajit-5.1-dev libinih-dev libcmocka-dev libcjson-dev libcsv-dev"

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "bootstrap: installing$missing"
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi

cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"

echo
echo "== gpuperf compare: scripts/saxpy.lua across five GPU generations =="
"$BUILD_DIR/gpuperf" compare \
    --devices geforce-8800-gtx,tesla-c1060,geforce-gtx-480,tesla-k20x,a100-sxm4-40gb,h200-sxm \
    scripts/saxpy.lua
