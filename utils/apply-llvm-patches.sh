#!/usr/bin/env bash
# Applies the llvm-patches/ series to an llvm-project checkout (release/22.x)
# and, with --build, builds llc (and with --clang also clang) for the AMDGPU
# target only, then runs the pass's lit tests in the patched tree.
#
# usage: utils/apply-llvm-patches.sh LLVM_PROJECT_DIR [--build] [--clang]
#                                    [--build-dir DIR] [--jobs N]
# Every patch is checked before any is applied (git apply --check), so a
# failure leaves the checkout untouched and names the hunk that does not fit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src= build=0 clang=0 bdir= jobs=$(nproc)
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=1 ;;
    --clang) clang=1; build=1 ;;
    --build-dir) bdir=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    -*) echo "apply-llvm-patches: unknown option $1" >&2; exit 2 ;;
    *) src=$1 ;;
  esac
  shift
done
[ -n "$src" ] || { sed -n '2,9p' "$0" >&2; exit 2; }
[ -f "$src/llvm/lib/Target/AMDGPU/AMDGPUTargetMachine.cpp" ] ||
  { echo "apply-llvm-patches: $src is not an llvm-project checkout" >&2; exit 1; }
python3 "$root/utils/make-llvm-patches.py" --check

mapfile -t patches < "$root/llvm-patches/series"
if [ -f "$src/llvm/lib/Target/AMDGPU/AMDGPULDSBarriers.cpp" ]; then
  echo "apply-llvm-patches: already applied (AMDGPULDSBarriers.cpp exists)"
else
  # Check the whole series first. 0001 and 0003 only add files; 0002 is
  # checked on top of them by applying into a scratch index.
  for p in "${patches[@]}"; do
    git -C "$src" apply --check "$root/llvm-patches/$p" ||
      { echo "apply-llvm-patches: $p does not apply to $src" >&2; exit 1; }
  done
  for p in "${patches[@]}"; do
    git -C "$src" apply "$root/llvm-patches/$p"
    echo "applied $p"
  done
fi
[ "$build" -eq 1 ] || exit 0

bdir=${bdir:-$src/build-lds-barriers}
projects=()
[ "$clang" -eq 0 ] || projects=(-DLLVM_ENABLE_PROJECTS=clang)
# lld (Debian's lld-22, beside clang-22) links much faster; ld otherwise.
linker=()
[ -x /usr/lib/llvm-22/bin/ld.lld ] && linker=(-DLLVM_USE_LINKER=lld)
start=$(date +%s)
cmake -S "$src/llvm" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DLLVM_ENABLE_ASSERTIONS=ON -DLLVM_TARGETS_TO_BUILD=AMDGPU \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  "${linker[@]}" "${projects[@]}"
targets=(llc FileCheck not count)
[ "$clang" -eq 0 ] || targets+=(clang)
ninja -C "$bdir" -j "$jobs" "${targets[@]}"
echo "apply-llvm-patches: built ${targets[*]} in $(( $(date +%s) - start )) s"
# The series' own tests in the patched tree; their result is the script's.
"$bdir/bin/llvm-lit" -sv "$src/llvm/test/CodeGen/AMDGPU/lds-barriers"
