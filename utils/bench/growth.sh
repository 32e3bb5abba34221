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
# With --count, counts instead of timing: llc runs once per size under
# callgrind with a simulated cache, counting the pass only (what
# llvm::placeLDSBarriers calls), and the growth of its instructions, of its
# first-level and last-level cache misses and of callgrind's cycle estimate
# (instructions + 10 x first-level misses + 100 x last-level misses) is
# printed. The counts are the same on every run and machine: use them where
# the machine's noise is larger than the change being measured. Needs
# valgrind; llc runs about 50 times slower (straight code and diamonds of
# 16000 accesses: about five minutes; loop nests: more than an hour).
#
# usage: utils/bench/growth.sh [--count] [gen_kernel.py flags] SHAPE N1 N2
#   e.g. utils/bench/growth.sh --plain --disjoint wide 4000 16000
#   REPEAT=r     runs of each size (default 5; timed only)
#   LL=bytes     simulated last-level cache (default 8388608, 16-way; --count)
#   PLUGIN=path  the plugin (default build/lib/AMDGPULDSBarriers.so)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
plugin=${PLUGIN:-$root/build/lib/AMDGPULDSBarriers.so}
count=false
if [ "${1:-}" = --count ]; then
  count=true
  shift
fi
if [ $# -lt 3 ]; then
  sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
args=("$@")
n2=${args[-1]} n1=${args[-2]}
gen=("${args[@]:0:$#-2}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if $count; then
  command -v valgrind >/dev/null || { echo "growth: needs valgrind" >&2; exit 2; }
  for n in "$n1" "$n2"; do
    python3 "$root/utils/bench/gen_kernel.py" "${gen[@]}" "$n" > "$tmp/$n.ll"
    valgrind --tool=callgrind --cache-sim=yes --LL="${LL:-8388608},16,64" \
      --toggle-collect='llvm::placeLDSBarriers*' \
      --callgrind-out-file="$tmp/$n.out" \
      /usr/lib/llvm-22/bin/llc -load="$plugin" -amdgpu-lds-barriers \
      -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 "$tmp/$n.ll" -o /dev/null \
      2> "$tmp/$n.log" || { cat "$tmp/$n.log" >&2; exit 1; }
  done
  # The totals of each callgrind output, by the event names of its header.
  python3 - "$*" "$tmp/$n1.out" "$tmp/$n2.out" <<'EOF'
import sys
label, f1, f2 = sys.argv[1:]
def totals(path):
    events, values = None, None
    for line in open(path):
        if line.startswith('events:'):
            events = line.split()[1:]
        elif line.startswith('totals:') or line.startswith('summary:'):
            values = [int(x) for x in line.split()[1:]]
    if not events or not values:
        sys.exit(f'growth: no totals in {path}')
    e = dict(zip(events, values + [0] * len(events)))
    ir = e['Ir']
    l1 = e['I1mr'] + e['D1mr'] + e['D1mw']
    ll = e['ILmr'] + e['DLmr'] + e['DLmw']
    return ir, l1, ll, ir + 10 * l1 + 100 * ll
a, b = totals(f1), totals(f2)
names = ('instructions', 'L1 misses', 'LL misses', 'cycle estimate')
for i, name in enumerate(names):
    print(f'{label}: {name} {a[i]:,} -> {b[i]:,} ({b[i] / max(a[i], 1):.2f}x)')
EOF
  exit
fi

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
