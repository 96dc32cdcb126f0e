#!/bin/sh
# Run the whole test suite: a normal build and an AddressSanitizer +
# UndefinedBehaviorSanitizer build, each with every unit, end-to-end,
# validation and fuzz-corpus test (ctest); then a Release build with
# warnings as errors (-O2 -DNDEBUG finds warnings the other two do not).
#
#   tools/test.sh
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc)

run() {
    dir=$1
    shift
    echo "== $dir: configure and build =="
    cmake -S . -B "$dir" -DGPUPERF_WERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j "$jobs"
    echo "== $dir: ctest =="
    ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

run build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run build-asan -DCMAKE_BUILD_TYPE=Debug -DGPUPERF_SANITIZE=ON
echo "== build-release: configure and build (Release, warnings as errors) =="
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DGPUPERF_WERROR=ON >/dev/null
cmake --build build-release -j "$jobs"
echo "all tests passed (normal and ASan/UBSan builds; Release builds without warnings)"
