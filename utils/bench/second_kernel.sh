#!/usr/bin/env bash
# What a process pays once: each generated kernel of utils/bench/gen_kernel.py
# twice in one module (@k and its copy, module_twice.sh), compiled by llc-22
# -O2 for gfx942 with the pass and -time-trace; the pass and
# SIInsertWaitcnts are timed on each copy. The first copy pays for the
# first execution of the plugin's code and the first touch of its memory;
# the second shows what a kernel costs once a process runs. Prints, per
# kind and size, the medians over
# REPEAT runs of: pass and SIInsertWaitcnts microseconds on the first copy,
# on the second, and the two ratios.
#
# usage: utils/bench/second_kernel.sh [sizes...]   (default: 1000)
#   KINDS="..."  as in compile_table.sh (default: its eight kinds)
#   REPEAT=r     runs per input (default 9)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
plugin=${PLUGIN:-$root/build/lib/AMDGPULDSBarriers.so}
sizes=${*:-1000}
kinds=${KINDS:-plain:straight plain,disjoint:straight plain:loops plain,disjoint:loops plain:wide plain,disjoint:wide plain:tiles volatile:straight}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf "%-24s %6s %8s %8s %6s %8s %8s %6s\n" kind N pass1_us wait1_us ratio1 \
  pass2_us wait2_us ratio2
for kind in $kinds; do
  flags=() shape=${kind#*:}
  IFS=, read -ra fl <<< "${kind%%:*}"
  for f in "${fl[@]}"; do [ "$f" = volatile ] || flags+=("--$f"); done
  for n in $sizes; do
    python3 "$root/utils/bench/gen_kernel.py" "${flags[@]}" "$shape" "$n" \
      > "$tmp/one.ll"
    "$root/utils/bench/module_twice.sh" "$tmp/one.ll" "$tmp/two.ll"
    for ((r = 0; r < ${REPEAT:-9}; r++)); do
      /usr/lib/llvm-22/bin/llc -load="$plugin" -amdgpu-lds-barriers-in-pipeline \
        -time-trace -time-trace-granularity=0 \
        -time-trace-file="$tmp/trace.json" \
        -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 "$tmp/two.ll" \
        -o /dev/null
      # Each pass runs once per function, in the order of the module: the
      # first two pairs are @k's and its copy's.
      python3 "$root/utils/bench/pass_times.py" --each "$tmp/trace.json" |
        awk '{print $1, $2, $3, $4}'
    done > "$tmp/runs.txt"
    python3 - "$tmp/runs.txt" "$kind" "$n" <<'PY'
import statistics, sys
rows = [list(map(int, l.split())) for l in open(sys.argv[1])]
med = lambda i: statistics.median(r[i] for r in rows)
r1 = statistics.median(r[0] / r[1] for r in rows)
r2 = statistics.median(r[2] / r[3] for r in rows)
print("%-24s %6s %8d %8d %6.2f %8d %8d %6.2f" % (
    sys.argv[2], sys.argv[3], med(0), med(1), r1, med(2), med(3), r2))
PY
  done
done
