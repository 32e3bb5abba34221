#!/usr/bin/env bash
# Writes the pass's output on a fixed corpus to a directory, so that two
# builds can be compared with `diff -r` (a change meant to keep the output,
# such as a refactoring or a compile-time fix, must leave no difference):
#   - every test/MIR/*.mir file, -run-pass=amdgpu-lds-barriers, for each
#     -mcpu its RUN lines name;
#   - every test/IR/*.ll file, llc-22 -O2 with the pass, for each -mcpu its
#     RUN lines name;
#   - every utils/examples/*.hip kernel through utils/hip-compile.sh
#     --strip-barriers, for gfx942 and gfx1201, with and without --1d, and
#     every test/IR/*.hip file for both;
#   - the fuzzer's modules (seed 1, 100 functions per CPU, the three modes);
#   - the benchmark generator's kinds at 300 accesses.
# Each output keeps the pass's diagnostics beside it (.err).
#
# usage: utils/bench/snapshot_outputs.sh OUTDIR
#   BUILD_DIR=dir   the build whose plugin runs (default ./build)
# then: diff -r OUTDIR_BEFORE OUTDIR_AFTER
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
plugin=$build/lib/AMDGPULDSBarriers.so
llc=/usr/lib/llvm-22/bin/llc
out=${1:?usage: snapshot_outputs.sh OUTDIR}
mkdir -p "$out"/{mir,ir,hip,fuzz,bench}

cpus_of() { grep -o -- '-mcpu=[a-z0-9]*' "$1" | sed 's/-mcpu=//' | sort -u; }
# Outputs and diagnostics name no checkout or temporary paths, so that
# snapshots of different checkouts compare.
run() { # output-file input-file llc-args...
  local o=$1 i=$2
  shift 2
  "$llc" -load="$plugin" -mtriple=amdgcn-amd-amdhsa "$@" "$i" -o "$o" \
    2> "$o.err" || echo "exit $?" >> "$o.err"
  sed -i "s|$root/||g; s|$out/||g" "$o.err"
  if [ -f "$o" ]; then sed -i "s|$root/||g" "$o"; fi
}

for f in "$root"/test/MIR/*.mir; do
  for cpu in $(cpus_of "$f"); do
    run "$out/mir/$(basename "$f" .mir).$cpu.mir" "$f" -mcpu="$cpu" \
      -run-pass=amdgpu-lds-barriers
  done
done
for f in "$root"/test/IR/*.ll; do
  for cpu in $(cpus_of "$f"); do
    run "$out/ir/$(basename "$f" .ll).$cpu.s" "$f" -mcpu="$cpu" -O2 \
      -amdgpu-lds-barriers-in-pipeline
  done
done
for f in "$root"/utils/examples/*.hip; do
  for cpu in gfx942 gfx1201; do
    for d in "" --1d; do
      o=$out/hip/$(basename "$f" .hip).$cpu$d.s
      BUILD_DIR=$build "$root/utils/hip-compile.sh" --arch=$cpu --strip-barriers \
        $d "$f" -o "$o" 2> "$o.err" || echo "exit $?" >> "$o.err"
      sed -i "s|$root/||g" "$o.err"
    done
  done
done
for f in "$root"/test/IR/*.hip; do
  for cpu in gfx942 gfx1201; do
    o=$out/hip/test-$(basename "$f" .hip).$cpu.s
    BUILD_DIR=$build "$root/utils/hip-compile.sh" --arch=$cpu --strip-barriers \
      "$f" -o "$o" 2> "$o.err" || echo "exit $?" >> "$o.err"
    sed -i "s|$root/||g" "$o.err"
  done
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for mode in mixed uniform divergent; do
  python3 "$root/utils/fuzz/mir_fuzz.py" --seed 1 --count 100 --mode $mode \
    --plugin "$plugin" --save-inputs "$tmp" > /dev/null
done
for f in "$tmp"/*.mir; do
  b=$(basename "$f" .mir)
  run "$out/fuzz/$b.mir" "$f" -mcpu="${b%%-*}" -run-pass=amdgpu-lds-barriers
done
for kind in plain:straight plain,disjoint:straight plain:loops \
    plain,disjoint:loops plain:wide plain,disjoint:wide volatile:straight \
    plain:reads plain:divchain plain:tiles; do
  flags=()
  IFS=, read -ra fl <<< "${kind%%:*}"
  for x in "${fl[@]}"; do [ "$x" = volatile ] || flags+=("--$x"); done
  python3 "$root/utils/bench/gen_kernel.py" "${flags[@]}" "${kind#*:}" 300 \
    > "$tmp/k.ll"
  run "$out/bench/${kind/:/-}.s" "$tmp/k.ll" -mcpu=gfx942 -O2 -amdgpu-lds-barriers-in-pipeline
done
# Temporary names and HIP's per-compile unit ids change from run to run.
find "$out" -type f -exec sed -i -E \
  "s|$tmp/||g; s/__hip_cuid_[0-9a-f]+/__hip_cuid_/g" {} +
echo "snapshot: $(find "$out" -type f ! -name '*.err' | wc -l) outputs in $out"
