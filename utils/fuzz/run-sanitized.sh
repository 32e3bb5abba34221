#!/usr/bin/env bash
# Builds the plugin with AddressSanitizer and UBSan into build-asan/ and runs
# the MIR fuzzer against it. llc-22 itself is not instrumented, so the
# sanitizer runtime is preloaded; without it llc ignores the plugin
# ("-load request ignored").
#
# usage: utils/fuzz/run-sanitized.sh [mir_fuzz.py options]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build="$root/build-asan"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 \
  -DLDS_BARRIERS_SANITIZE=ON > /dev/null
ninja -C "$build" AMDGPULDSBarriers
runtime=$(clang++-22 -print-file-name=libclang_rt.asan-x86_64.so)
export LD_PRELOAD="$runtime"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
exec python3 "$root/utils/fuzz/mir_fuzz.py" --plugin "$build/lib/AMDGPULDSBarriers.so" "$@"
