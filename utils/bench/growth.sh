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
# callgrind with a simulated cache, counting the pass (what
# llvm::placeLDSBarriers calls) and SIInsertWaitcnts (what its
# runOnMachineFunction calls, found by utils/bench/pass_entry.cpp), and the
# growth of each one's instructions, first-level and last-level cache
# misses and callgrind's cycle estimate (instructions + 10 x first-level
# misses + 100 x last-level misses) is printed, with the ratio of the
# estimates at each size. The counts are the same on every run and
# machine: use them where the machine's noise is larger than the change
# being measured. Needs valgrind; llc runs about 50 times slower (straight
# code and diamonds of 16000 accesses: about ten minutes; loop nests: more
# than an hour).
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
  sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
args=("$@")
n2=${args[-1]} n1=${args[-2]}
gen=("${args[@]:0:$#-2}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if $count; then
  command -v valgrind >/dev/null || { echo "growth: needs valgrind" >&2; exit 2; }
  # SIInsertWaitcnts has no symbol in Debian's libLLVM: callgrind names its
  # entry by address, which pass_entry.cpp finds.
  /usr/bin/clang++-22 $(/usr/lib/llvm-22/bin/llvm-config --cxxflags) \
    "$root/utils/bench/pass_entry.cpp" \
    $(/usr/lib/llvm-22/bin/llvm-config --ldflags) -lLLVM -ldl \
    -o "$tmp/pass_entry"
  wait_entry=$("$tmp/pass_entry" si-insert-waitcnts)
  for n in "$n1" "$n2"; do
    python3 "$root/utils/bench/gen_kernel.py" "${gen[@]}" "$n" > "$tmp/$n.ll"
    valgrind --tool=callgrind --cache-sim=yes --LL="${LL:-8388608},16,64" \
      --toggle-collect='llvm::placeLDSBarriers*' \
      --toggle-collect="$wait_entry" \
      --callgrind-out-file="$tmp/$n.out" \
      /usr/lib/llvm-22/bin/llc -load="$plugin" -amdgpu-lds-barriers-in-pipeline \
      -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 "$tmp/$n.ll" -o /dev/null \
      2> "$tmp/$n.log" || { cat "$tmp/$n.log" >&2; exit 1; }
    callgrind_annotate --inclusive=yes --threshold=100 \
      --show=Ir,I1mr,D1mr,D1mw,ILmr,DLmr,DLmw "$tmp/$n.out" > "$tmp/$n.txt"
  done
  # Each pass's inclusive counts at each size.
  python3 - "$*" "$wait_entry" "$tmp/$n1.txt" "$tmp/$n2.txt" <<'EOF'
import re, sys
label, entry, f1, f2 = sys.argv[1:]
passes = (('pass', 'llvm::placeLDSBarriers('), ('SIInsertWaitcnts', entry))
def counts(path):
    found = {}
    for line in open(path):
        # Seven counts ("." for none), each with its share, then the name.
        m = re.match(r'\s*((?:(?:[\d,]+|\.)(?: \([\d.\s]+%\))?\s+){7})(\S.*)',
                     line)
        if not m:
            continue
        v = [0 if x == '.' else int(x.replace(',', ''))
             for x in re.findall(r'([\d,]+|\.)(?= \(|\s|$)',
                                 re.sub(r'\([\d.\s]+%\)', ' ', m.group(1)))][:7]
        for name, key in passes:
            if key in m.group(2) and name not in found:
                ir, i1, d1r, d1w, il, dlr, dlw = v
                l1, ll = i1 + d1r + d1w, il + dlr + dlw
                found[name] = (ir, l1, ll, ir + 10 * l1 + 100 * ll)
    for name, _ in passes:
        if name not in found:
            sys.exit(f'growth: no counts of {name} in {path}')
    return found
a, b = counts(f1), counts(f2)
names = ('instructions', 'L1 misses', 'LL misses', 'cycle estimate')
for p, _ in passes:
    for i, name in enumerate(names):
        print(f'{label}: {p} {name} {a[p][i]:,} -> {b[p][i]:,} '
              f'({b[p][i] / max(a[p][i], 1):.2f}x)')
for n, c in ((label.split()[-2], a), (label.split()[-1], b)):
    print(f'{label}: cycle estimate of the pass / SIInsertWaitcnts at {n}: '
          f'{c["pass"][3] / c["SIInsertWaitcnts"][3]:.2f}')
EOF
  exit
fi

python3 "$root/utils/bench/gen_kernel.py" "${gen[@]}" "$n1" > "$tmp/1.ll"
python3 "$root/utils/bench/gen_kernel.py" "${gen[@]}" "$n2" > "$tmp/2.ll"
for ((r = 0; r < ${REPEAT:-5}; r++)); do
  for k in 1 2; do
    /usr/lib/llvm-22/bin/llc -load="$plugin" -amdgpu-lds-barriers-in-pipeline \
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
