#!/usr/bin/env bash
# Builds the plugin with AddressSanitizer and UBSan into build-asan/ and runs
# the MIR fuzzer against it. llc-22 itself is not instrumented, so the
# sanitizer runtime is preloaded; without it llc ignores the plugin
# ("-load request ignored"). The plugin is built with clang++-22 when its
# runtime is installed (libclang-rt-22-dev), otherwise with g++ and GCC's
# libasan (Debian 12 has no libclang-rt-22-dev).
#
# usage: utils/fuzz/run-sanitized.sh [mir_fuzz.py options]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build="$root/build-asan"
cxx=clang++-22
runtime=$(clang++-22 -print-file-name=libclang_rt.asan-x86_64.so)
if [ ! -f "$runtime" ]; then
  cxx=g++
  runtime=$(g++ -print-file-name=libasan.so)
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" \
  -DLDS_BARRIERS_SANITIZE=ON > /dev/null
ninja -C "$build" AMDGPULDSBarriers
export LD_PRELOAD="$runtime"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
exec python3 "$root/utils/fuzz/mir_fuzz.py" --plugin "$build/lib/AMDGPULDSBarriers.so" "$@"
