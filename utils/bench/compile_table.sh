#!/usr/bin/env bash
# The compile-time table of docs/Benchmarks.rst: generated kernels of N LDS
# accesses (utils/bench/gen_kernel.py) of several kinds, each compiled once
# by llc-22 -O2 for gfx942 with the pass in the pipeline and -time-trace
# (microseconds; -time-passes rounds to 0.1 ms), so that the pass and
# SIInsertWaitcnts are timed in the same run. Columns:
# kind, N, pass seconds, SIInsertWaitcnts seconds, their ratio, whole llc
# seconds, peak memory (MB, /usr/bin/time), barriers in the output.
#
# Kinds are FLAGS:SHAPE, FLAGS a comma list of gen_kernel.py flags without
# dashes (plain, disjoint) or "volatile" for none, SHAPE one of straight,
# loops, wide, reads, divchain, tiles (the matmul_tiled example scaled up).
#
# usage: utils/bench/compile_table.sh [sizes...]   (default: 1000 4000 16000)
#   KINDS="..."  (default: plain:straight plain,disjoint:straight plain:loops
#                 plain,disjoint:loops plain:wide plain,disjoint:wide plain:tiles
#                 volatile:straight)
#   TIMEOUT=s    give up on an input after s seconds (default 600)
#   REPEAT=r     compile each input r times and print the run whose ratio
#                is the median (default 1; the machines are noisy)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
plugin=${PLUGIN:-$root/build/lib/AMDGPULDSBarriers.so}
sizes=${*:-1000 4000 16000}
kinds=${KINDS:-plain:straight plain,disjoint:straight plain:loops plain,disjoint:loops plain:wide plain,disjoint:wide plain:tiles volatile:straight}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf "%-24s %6s %9s %9s %6s %8s %7s %8s\n" kind N pass_s waitcnt_s ratio llc_s peak_MB barriers
for kind in $kinds; do
  flags=() shape=${kind#*:}
  IFS=, read -ra fl <<< "${kind%%:*}"
  for f in "${fl[@]}"; do [ "$f" = volatile ] || flags+=("--$f"); done
  for n in $sizes; do
    python3 "$root/utils/bench/gen_kernel.py" "${flags[@]}" "$shape" "$n" > "$tmp/k.ll"
    runs=()
    for ((r = 0; r < ${REPEAT:-1}; r++)); do
      if ! timeout "${TIMEOUT:-600}" /usr/bin/time -f "%e %M" -o "$tmp/rt.txt" \
          /usr/lib/llvm-22/bin/llc -load="$plugin" -amdgpu-lds-barriers-in-pipeline \
          -time-trace -time-trace-granularity=0 \
          -time-trace-file="$tmp/trace.json" \
          -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 "$tmp/k.ll" \
          -o "$tmp/k.s" 2> "$tmp/t.txt"; then
        runs=()
        break
      fi
      # Seconds (the trace has microseconds).
      read -r pass wait < <(python3 "$root/utils/bench/pass_times.py" \
        "$tmp/trace.json" | awk '{printf "%.6f %.6f\n", $1 / 1e6, $2 / 1e6}')
      read -r wall kb < "$tmp/rt.txt"
      bar=$(grep -cE '^\s+s_barrier$' "$tmp/k.s" || true)
      ratio=$(python3 -c "print(f'{$pass/$wait:.2f}')")
      runs+=("$(printf "%-24s %6s %9s %9s %6s %8s %7s %8s" "$kind" "$n" "$pass" \
        "$wait" "$ratio" "$wall" "$((kb / 1024))" "$bar")")
    done
    if [ ${#runs[@]} -eq 0 ]; then
      printf "%-24s %6s %8s\n" "$kind" "$n" timeout
      continue
    fi
    printf "%s\n" "${runs[@]}" | sort -g -k5 | sed -n "$(( (${#runs[@]} + 1) / 2 ))p"
  done
done
