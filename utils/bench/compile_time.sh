#!/usr/bin/env bash
# Compile-time benchmark: generated kernels with N LDS accesses in
# straight-line code, loop nests and wide CFGs; llc-22 -time-passes puts the
# pass beside SIInsertWaitcnts in the same run. Prints one row per input:
# kind, N, pass seconds, SIInsertWaitcnts seconds, ratio, barriers.
#
# usage: utils/bench/compile_time.sh [sizes...]   (default: 1000 4000)
#   TIMEOUT=s   give up on an input after s seconds (default 300): "timeout"
#   KINDS=...   the kinds to run (default: straight loops wide)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
plugin=${PLUGIN:-$root/build/lib/AMDGPULDSBarriers.so}
sizes=${*:-1000 4000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf "%-9s %7s %10s %10s %8s %9s\n" kind N pass_s waitcnt_s ratio barriers
for kind in ${KINDS:-straight loops wide}; do
  for n in $sizes; do
    python3 "$root/utils/bench/gen_kernel.py" "$kind" "$n" > "$tmp/k.ll"
    if ! timeout "${TIMEOUT:-300}" /usr/lib/llvm-22/bin/llc -load="$plugin" \
        -amdgpu-lds-barriers-in-pipeline -time-passes -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 \
        -O2 "$tmp/k.ll" -o "$tmp/k.s" 2> "$tmp/t.txt"; then
      printf "%-9s %7s %10s\n" "$kind" "$n" timeout
      continue
    fi
    pass=$(grep "AMDGPU LDS barrier placement" "$tmp/t.txt" | head -1 | awk '{print $(NF-6)}')
    wait=$(grep "SI insert wait instructions" "$tmp/t.txt" | head -1 | awk '{print $(NF-6)}')
    bar=$(grep -c s_barrier "$tmp/k.s" || true)
    ratio=$(python3 -c "print(f'{$pass/$wait:.1f}')")
    printf "%-9s %7s %10s %10s %8s %9s\n" "$kind" "$n" "$pass" "$wait" "$ratio" "$bar"
  done
done
