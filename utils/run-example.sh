#!/usr/bin/env bash
# Runs amdgpu-lds-barriers on a bundled kernel and shows where the barriers
# went. Builds the plugin into ./build first if needed (CMake + Ninja), then:
#  1. compiles it with the pass in the pipeline in place of the kernel's own
#     barriers (HIP, real headers: clang-22 via utils/hip-compile.sh
#     --strip-barriers, which lets the pass delete them after the
#     optimizers; IR: llc-22 on the IR without its
#     `call void @llvm.amdgcn.s.barrier()` lines), and prints the assembly
#     around each barrier and the pass's remarks;
#  2. with --compare, also compiles the kernel as written (its hand-placed
#     barriers, stock compiler) and prints the same view of it.
#
# usage: utils/run-example.sh [--compare] [--1d] [kernel.hip|kernel.ll [cpu]]
#        (default: utils/examples/transpose.hip, gfx942)
#   --compare       also show the hand-written barriers (step 2)
#   --1d            let the thread-index analysis assume workgroups of y and
#                   z size 1 (hip-compile.sh --1d; for IR,
#                   -amdgpu-lds-barriers-assume-1d-workgroups): for the
#                   kernels indexed by threadIdx.x alone, which HIP cannot
#                   declare one-dimensional
#   BUILD_DIR=dir   use the build in dir instead of ./build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
llc=/usr/lib/llvm-22/bin/llc   # = llc-22; the plain llc of Debian 12 is LLVM 14

compare=0 oned=0
while [ $# -gt 0 ]; do
  case "$1" in
    --compare) compare=1 ;;
    --1d) oned=1 ;;
    -*) echo "run-example: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
kernel=${1:-$root/utils/examples/transpose.hip}
cpu=${2:-gfx942}
plugin=$build/lib/AMDGPULDSBarriers.so

if [ ! -f "$build/build.ninja" ]; then
  echo "run-example: configuring $build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 > /dev/null
fi
[ -f "$plugin" ] || echo "run-example: building the plugin in $build (a minute or two)"
if ! log=$(ninja -C "$build" AMDGPULDSBarriers 2>&1); then
  echo "$log" >&2
  echo "run-example: the plugin does not build" >&2
  exit 1
fi

hipopts=(--strip-barriers --remarks) llcopts=(-amdgpu-lds-barriers-in-pipeline)
if [ "$oned" -eq 1 ]; then
  hipopts=(--1d "${hipopts[@]}")
  llcopts+=(-amdgpu-lds-barriers-assume-1d-workgroups)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
barrier_re='^\s*((tail|musttail|notail) )?call void @llvm\.amdgcn\.s\.barrier\(\)'
case "$kernel" in
  *.hip)
    echo "=== $(basename "$kernel"), $cpu: barriers removed, placed by amdgpu-lds-barriers"
    echo "\$ utils/hip-compile.sh ${hipopts[*]} --arch=$cpu $(basename "$kernel")"
    BUILD_DIR=$build "$root/utils/hip-compile.sh" "${hipopts[@]}" \
      --arch="$cpu" "$kernel" -o "$tmp/pass.s" 2> "$tmp/remarks.txt" ||
      { cat "$tmp/remarks.txt" >&2; exit 1; }
    ;;
  *)
    sed -E "/$barrier_re/d" "$kernel" > "$tmp/stripped.ll"
    removed=$(( $(wc -l < "$kernel") - $(wc -l < "$tmp/stripped.ll") ))
    echo "=== $(basename "$kernel"), $cpu: $removed barrier call(s) removed, placed by amdgpu-lds-barriers"
    echo "\$ llc-22 -load=$plugin ${llcopts[*]} -pass-remarks=amdgpu-lds-barriers \\"
    echo "    -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -O2 stripped.ll -o stripped.s"
    "$llc" -load="$plugin" "${llcopts[@]}" -pass-remarks=amdgpu-lds-barriers \
      -mtriple=amdgcn-amd-amdhsa -mcpu="$cpu" -O2 "$tmp/stripped.ll" \
      -o "$tmp/pass.s" 2> "$tmp/remarks.txt" || { cat "$tmp/remarks.txt" >&2; exit 1; }
    ;;
esac
grep -n -B3 -A1 -E 's_barrier($|_wait)' "$tmp/pass.s" || echo "(no barrier)"
echo "--- remarks"
cat "$tmp/remarks.txt"
placed=$(grep -cE '^\s+s_barrier($|_wait)' "$tmp/pass.s" || true)

if [ "$compare" -eq 1 ]; then
  echo
  echo "=== $(basename "$kernel"), $cpu: hand-written barriers, stock compiler"
  case "$kernel" in
    *.hip) "$root/utils/hip-compile.sh" --stock --arch="$cpu" "$kernel" -o "$tmp/own.s" ;;
    *) "$llc" -mtriple=amdgcn-amd-amdhsa -mcpu="$cpu" -O2 "$kernel" -o "$tmp/own.s" ;;
  esac
  grep -n -B3 -A1 -E 's_barrier($|_wait)' "$tmp/own.s" || echo "(no barrier)"
  own=$(grep -cE '^\s+s_barrier($|_wait)' "$tmp/own.s" || true)
  echo
  echo "=== barriers: placed by the pass $placed, hand-written $own"
else
  echo
  echo "=== barriers placed by the pass: $placed (--compare shows the hand-written ones)"
fi
