#!/usr/bin/env bash
# Growth of the pass's cost with the size of its input, counted rather than
# timed: generated kernels of one kind at two sizes (utils/bench/gen_kernel.py)
# compiled by llc-22 -O2 for gfx942 under callgrind with a simulated cache,
# counting the pass only (llvm::placeLDSBarriers and what it calls). Prints,
# per size, the instructions executed, the misses of the first-level caches
# and of the last-level cache, and callgrind's cycle estimate (instructions
# + 10 x first-level misses + 100 x last-level misses), then the growth of
# each. The counts are the same on every run and machine: use them where
# the machine's noise is larger than the change being measured (a timed
# run says what the estimate's weights leave out).
#
# usage: utils/bench/cache_growth.sh [gen_kernel.py flags] SHAPE N1 N2
#   e.g. utils/bench/cache_growth.sh --plain --disjoint wide 4000 16000
#   LL=bytes     last-level cache size (default 8388608; 16-way, 64-byte lines)
#   PLUGIN=path  the plugin (default build/lib/AMDGPULDSBarriers.so)
# needs valgrind (apt-get install valgrind). The whole of llc runs under
# callgrind, about 50 times slower than natively: straight code and
# diamonds of 16000 accesses take about five minutes, loop nests (a minute
# of llc natively) more than an hour.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
plugin=${PLUGIN:-$root/build/lib/AMDGPULDSBarriers.so}
if [ $# -lt 3 ]; then
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
command -v valgrind >/dev/null || { echo "cache_growth: needs valgrind" >&2; exit 2; }
args=("$@")
n2=${args[-1]} n1=${args[-2]}
gen=("${args[@]:0:$#-2}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in "$n1" "$n2"; do
  python3 "$root/utils/bench/gen_kernel.py" "${gen[@]}" "$n" > "$tmp/$n.ll"
  valgrind --tool=callgrind --cache-sim=yes --LL="${LL:-8388608},16,64" \
    --toggle-collect='llvm::placeLDSBarriers*' \
    --callgrind-out-file="$tmp/$n.out" \
    /usr/lib/llvm-22/bin/llc -load="$plugin" -amdgpu-lds-barriers \
    -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 "$tmp/$n.ll" -o /dev/null \
    2> "$tmp/$n.log" || { cat "$tmp/$n.log" >&2; exit 1; }
done
# The totals of the callgrind output, by the event names of its header.
python3 - "$*" "$n1" "$n2" "$tmp/$n1.out" "$tmp/$n2.out" <<'EOF'
import sys
label, n1, n2, f1, f2 = sys.argv[1:]
def totals(path):
    events, values = None, None
    for line in open(path):
        if line.startswith('events:'):
            events = line.split()[1:]
        elif line.startswith('totals:') or line.startswith('summary:'):
            values = [int(x) for x in line.split()[1:]]
    if not events or not values:
        sys.exit(f'cache_growth: no totals in {path}')
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
