#!/usr/bin/env bash
# Peak memory (maximum resident set, kB) of llc-22 on the generated kernels
# of utils/bench/gen_kernel.py, without and with the pass, and the
# difference the pass makes. Needs GNU time (apt-get install time).
#
# usage: utils/bench/peak_memory.sh [sizes...]   (default: 1000 4000)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
plugin=${PLUGIN:-$root/build/lib/AMDGPULDSBarriers.so}
llc=/usr/lib/llvm-22/bin/llc
sizes=${*:-1000 4000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
peak() { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1; }
printf "%-9s %7s %10s %10s %10s\n" kind N stock_kB pass_kB extra_kB
for kind in straight loops wide; do
  for n in $sizes; do
    python3 "$root/utils/bench/gen_kernel.py" "$kind" "$n" > "$tmp/k.ll"
    args=(-mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 "$tmp/k.ll" -o /dev/null)
    a=$(peak "$llc" "${args[@]}")
    b=$(peak "$llc" -load="$plugin" -amdgpu-lds-barriers-in-pipeline "${args[@]}")
    printf "%-9s %7s %10s %10s %10s\n" "$kind" "$n" "$a" "$b" "$((b - a))"
  done
done
