#!/usr/bin/env bash
# The whole test suite: configures build/ (once; CMake + Ninja with
# clang++-22), builds the plugin and the unit tests, runs the unit tests
# (GoogleTest) and the lit suites (test/MIR, test/IR, test/Fuzz through llc-22
# and clang-22 with the plugin). Runs every stage it can and exits non-zero
# if any of them failed. Safe to run again at any time.
#
# usage: utils/check.sh [extra lit arguments]
#   BUILD_DIR=dir   build somewhere else than ./build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
lit=/usr/lib/llvm-22/bin/lit

configure() {
  # A cache from another generator cannot be reused by "-G Ninja".
  if [ -f "$build/CMakeCache.txt" ] &&
     ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$build/CMakeCache.txt"; then
    echo "check: $build was configured for another generator; reconfiguring"
    rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
  fi
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-22
}
[ -f "$build/build.ninja" ] || configure

failed=()
echo "check: building the plugin (and the llvm-patches/ sources, as patched into LLVM)"
if ! ninja -C "$build" AMDGPULDSBarriers AMDGPULDSBarriersInTreeCheck LDSOpcodeNames \
    LDSDebugOnlyOption; then
  echo "check: FAILED: the plugin does not build" >&2
  exit 1
fi

echo "check: building the unit tests"
if ninja -C "$build" LDSBarrierUnitTests; then
  echo "check: running the unit tests"
  "$build/test/LDSBarrierUnitTests" --gtest_brief=1 || failed+=("unit tests")
else
  failed+=("unit tests (build)")
fi

echo "check: running lit on $build/test"
"$lit" -sv "$build/test" "$@" || failed+=("lit")

if [ ${#failed[@]} -ne 0 ]; then
  echo "check: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "check: all passed"
