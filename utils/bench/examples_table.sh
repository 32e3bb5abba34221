#!/usr/bin/env bash
# The pass against SIInsertWaitcnts on the bundled examples
# (utils/examples/*.hip): each example's device IR (utils/hip-compile.sh's
# flags plus -emit-llvm), compiled by llc-22 -O2 for gfx942 with the pass
# and -time-trace, one process per run, so each kernel is the first a
# process compiles. Prints, per example, the medians over REPEAT runs of
# the pass's and SIInsertWaitcnts' microseconds (summed over the example's
# kernels) and their ratio.
#
# With COPIES=2 each module holds its kernels twice (module_twice.sh) and
# the copies are timed: what a process
# pays per kernel once its caches are warm.
#
# usage: utils/bench/examples_table.sh
#   PLUGIN=path  the plugin (default build/lib/AMDGPULDSBarriers.so)
#   REPEAT=r     runs per example (default 5)
#   COPIES=2     time the second copy of each kernel (default 1)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
plugin=$(realpath "${PLUGIN:-$root/build/lib/AMDGPULDSBarriers.so}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
read -ra flags <<< "$("$root/utils/hip-compile.sh" --print-flags)"
printf "%-22s %8s %8s %7s\n" example pass_us wait_us ratio
for src in "$root"/utils/examples/*.hip; do
  name=$(basename "$src" .hip)
  /usr/lib/llvm-22/bin/clang "${flags[@]}" -emit-llvm -S "$src" \
    -o "$tmp/$name.ll"
  half=
  if [ "${COPIES:-1}" = 2 ]; then
    "$root/utils/bench/module_twice.sh" "$tmp/$name.ll" "$tmp/both.ll"
    mv "$tmp/both.ll" "$tmp/$name.ll"
    half=--second-half
  fi
  for ((r = 0; r < ${REPEAT:-5}; r++)); do
    /usr/lib/llvm-22/bin/llc -load="$plugin" -amdgpu-lds-barriers-in-pipeline \
      -time-trace -time-trace-granularity=0 -time-trace-file="$tmp/trace.json" \
      -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 "$tmp/$name.ll" \
      -o /dev/null
    python3 "$root/utils/bench/pass_times.py" $half "$tmp/trace.json"
  done > "$tmp/runs.txt"
  python3 - "$tmp/runs.txt" "$name" <<'PY'
import statistics, sys
rows = [list(map(int, l.split())) for l in open(sys.argv[1])]
p = statistics.median(r[0] for r in rows)
w = statistics.median(r[1] for r in rows)
print("%-22s %8d %8d %7.1f" % (sys.argv[2], p, w, p / w))
PY
done
