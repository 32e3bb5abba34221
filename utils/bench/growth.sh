#!/usr/bin/env bash
# Growth of the pass's time with the size of its input, against
# SIInsertWaitcnts's in the same runs: generated kernels of one kind at two
# sizes (utils/bench/gen_kernel.py), compiled in alternation, each the first
# kernel of its process, by llc-22 -O2 for gfx942 with the pass in the
# pipeline and -time-trace. Alternating the sizes keeps a machine whose speed
# drifts from favouring one of them. Prints, per size, the median and the
# minimum time of each pass (microseconds; the minimum is the run the
# machine disturbed least) and the ratio of the larger size's to the
# smaller's.
#
# usage: utils/bench/growth.sh [gen_kernel.py flags] SHAPE N1 N2
#   e.g. utils/bench/growth.sh --plain --disjoint wide 4000 16000
#   REPEAT=r     runs of each size (default 5)
#   PLUGIN=path  the plugin (default build/lib/AMDGPULDSBarriers.so)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
plugin=${PLUGIN:-$root/build/lib/AMDGPULDSBarriers.so}
if [ $# -lt 3 ]; then
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
args=("$@")
n2=${args[-1]} n1=${args[-2]}
gen=("${args[@]:0:$#-2}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$root/utils/bench/gen_kernel.py" "${gen[@]}" "$n1" > "$tmp/1.ll"
python3 "$root/utils/bench/gen_kernel.py" "${gen[@]}" "$n2" > "$tmp/2.ll"
for ((r = 0; r < ${REPEAT:-5}; r++)); do
  for k in 1 2; do
    /usr/lib/llvm-22/bin/llc -load="$plugin" -amdgpu-lds-barriers \
      -time-trace -time-trace-granularity=0 -time-trace-file="$tmp/t.json" \
      -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 "$tmp/$k.ll" -o /dev/null
    echo "$k $(python3 "$root/utils/bench/pass_times.py" "$tmp/t.json")"
  done
done | python3 -c "
import statistics, sys
runs = {'1': [], '2': []}
for line in sys.stdin:
    k, p, w = line.split()
    runs[k].append((float(p), float(w)))
for name, f in (('median', statistics.median), ('minimum', min)):
    m = {k: [f(r[i] for r in v) for i in (0, 1)] for k, v in runs.items()}
    print(f'{\"$*\"} ({name}): pass {m[\"1\"][0]:.0f} -> {m[\"2\"][0]:.0f} us '
          f'({m[\"2\"][0] / m[\"1\"][0]:.2f}x), SIInsertWaitcnts '
          f'{m[\"1\"][1]:.0f} -> {m[\"2\"][1]:.0f} us '
          f'({m[\"2\"][1] / m[\"1\"][1]:.2f}x)')"
