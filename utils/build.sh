#!/usr/bin/env bash
# Configures (once) and builds the plugin and the unit tests into build/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo}
fi
ninja -C "$build"
