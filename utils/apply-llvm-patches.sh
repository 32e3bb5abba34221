#!/usr/bin/env bash
# Applies the llvm-patches/ series to an llvm-project checkout (release/22.x)
# and, with --build, builds llc (and with --clang also clang) for the AMDGPU
# target only, then runs the pass's lit tests in the patched tree.
#
# usage: utils/apply-llvm-patches.sh LLVM_PROJECT_DIR [--build] [--clang]
#                                    [--build-dir DIR] [--jobs N]
# The whole stack is checked before any patch is applied: the files it
# changes are copied aside and the patches applied to the copies in order
# (a later patch's context holds lines an earlier one adds), and no file it
# adds may exist; so a failure leaves the checkout untouched and names the
# hunk that does not fit.
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
  # Check the whole stack first, on copies of the files it changes.
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  includes=()
  for p in "${patches[@]}"; do
    while read -r f; do
      [ -e "$scratch/$f" ] && continue
      mkdir -p "$scratch/$(dirname "$f")"
      cp "$src/$f" "$scratch/$f"
      includes+=(--include="$f")
    done < <(sed -n 's,^--- a/,,p' "$root/llvm-patches/$p")
    while read -r f; do
      [ ! -e "$src/$f" ] ||
        { echo "apply-llvm-patches: $p adds $f, which exists" >&2; exit 1; }
    done < <(awk '/^--- \/dev\/null/{n=1; next} /^\+\+\+ b\//{if (n) print substr($2, 3); n=0}' \
               "$root/llvm-patches/$p")
  done
  for p in "${patches[@]}"; do
    [ ${#includes[@]} -eq 0 ] ||
      (cd "$scratch" && git apply "${includes[@]}" "$root/llvm-patches/$p") ||
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
