#!/usr/bin/env bash
# What the pass adds to a whole compile: for generated kernels, llc-22 -O2
# (gfx942) wall time and peak memory without and with the pass, in the same
# run of this script. Prints: kind, N, seconds without, with, added %,
# peak MB without, with.
#
# usage: utils/bench/whole_llc.sh [sizes...]   (default: 1000 2000)
#   KINDS=...   the kinds (default: reads divchain), see gen_kernel.py
#   CPU=...     the target (default gfx942)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
plugin=${PLUGIN:-$root/build/lib/AMDGPULDSBarriers.so}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
llc=(/usr/lib/llvm-22/bin/llc -mtriple=amdgcn-amd-amdhsa -mcpu="${CPU:-gfx942}" -O2)
measure() { # prints "seconds peakKB"
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" > /dev/null 2>&1
  cat "$tmp/time"
}
printf "%-9s %6s %9s %9s %7s %8s %8s\n" kind N without_s with_s added without_MB with_MB
for kind in ${KINDS:-reads divchain}; do
  for n in ${*:-1000 2000}; do
    python3 "$root/utils/bench/gen_kernel.py" "$kind" "$n" > "$tmp/k.ll"
    read -r s0 m0 < <(measure "${llc[@]}" "$tmp/k.ll" -o "$tmp/k0.s")
    read -r s1 m1 < <(measure "${llc[@]}" -load="$plugin" -amdgpu-lds-barriers-in-pipeline \
                      "$tmp/k.ll" -o "$tmp/k1.s")
    python3 -c "print(f'%-9s %6d %9.2f %9.2f %6.0f%% %8.0f %8.0f' % ('$kind', $n, $s0, $s1, 100*($s1-$s0)/$s0, $m0/1024, $m1/1024))"
  done
done
