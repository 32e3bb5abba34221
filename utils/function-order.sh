#!/usr/bin/env bash
# Writes the plugin's function order (lib/AMDGPULDSBarriers.order): the
# functions of the plugin that run on typical kernels. The build links them
# in this order (lld's --symbol-ordering-file), so that the code a kernel
# runs shares a few 64 KB ranges of the plugin: the first kernel of a
# process faults in each range of code it touches, and on a virtual machine
# a fault costs about as much as the pass's analysis of a few hundred
# accesses.
#
# The kernels, simplest first: utils/bench/gen_kernel.py's kinds at 200
# accesses, compiled by llc-22 -O2 with the pass for gfx942, then a few for
# gfx1100 and gfx1201 (split barriers), and diamonds of 1000 accesses (the
# paths of larger inputs). Each kernel adds the functions it
# runs that the kernels before it did not (in byte order of their names),
# so a simple kernel's code is one range and a richer one's that range and
# what follows it. Which functions run is counted exactly (valgrind's
# callgrind), so the order only changes when the code does. A name of the
# file that the plugin no longer defines only costs locality;
# test/Build/function-order.test fails when too many are stale.
#
# usage: utils/function-order.sh > lib/AMDGPULDSBarriers.order
#   PLUGIN=path  the plugin to profile (default build/lib/AMDGPULDSBarriers.so)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
plugin=$(realpath "${PLUGIN:-$root/build/lib/AMDGPULDSBarriers.so}")
command -v valgrind > /dev/null || { echo "needs valgrind" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

runs=(
  "gfx942 200 --plain --disjoint straight" "gfx942 200 --plain straight"
  "gfx942 200 --plain --disjoint loops" "gfx942 200 --plain loops"
  "gfx942 200 --plain tiles" "gfx942 200 --plain --disjoint wide"
  "gfx942 200 --plain wide" "gfx942 200 straight"
  "gfx1100 200 --plain wide" "gfx1201 200 --plain straight"
  "gfx1201 200 --plain wide" "gfx942 1000 --plain wide"
)
i=0
for run in "${runs[@]}"; do
  read -r cpu size flags <<< "$run"
  # shellcheck disable=SC2086
  python3 "$root/utils/bench/gen_kernel.py" $flags "$size" > "$tmp/k.ll"
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$tmp/cg.$i" \
    /usr/lib/llvm-22/bin/llc -load="$plugin" -amdgpu-lds-barriers \
    -mtriple=amdgcn-amd-amdhsa -mcpu="$cpu" -O2 "$tmp/k.ll" -o /dev/null \
    2> /dev/null
  # The plugin's functions with any cost in this run.
  callgrind_annotate --threshold=100 "$tmp/cg.$i" 2> /dev/null |
    grep -F "[$plugin]" |
    sed -E 's/^ *[0-9,]+ *\([^)]*\) *//; s/ \[.*$//; s/^[^:]*://' |
    sort -u > "$tmp/fn.$i"
  i=$((i + 1))
done
nm --defined-only "$plugin" | awk '$2 ~ /^[tTwW]$/ {print $3}' | sort -u \
  > "$tmp/defined"
for ((j = 0; j < i; j++)); do
  LC_ALL=C sort "$tmp/fn.$j"
done | awk '!seen[$0]++' | grep -Fxf "$tmp/defined"
