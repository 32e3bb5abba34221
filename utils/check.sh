#!/usr/bin/env bash
# The whole test suite: builds, then runs the unit tests (GoogleTest) and the
# lit suites (MIR and IR through llc-22 with the plugin). Non-zero on any
# failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/utils/build.sh"
"$build/test/LDSBarrierUnitTests" --gtest_brief=1
/usr/lib/llvm-22/bin/lit -sv "$build/test"
