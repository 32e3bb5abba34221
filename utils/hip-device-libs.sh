#!/usr/bin/env bash
# Prepares a ROCm device-library directory that clang-22 can use with
# Debian 12's HIP 5.2 packages (rocm-device-libs, libamdhip64-dev).
#
# Debian's bitcode (/usr/lib/x86_64-linux-gnu/amdgcn/bitcode) predates the
# newer targets: it has no oclc_isa_version_*.bc for gfx942, gfx950, gfx11,
# gfx12 or gfx1250, and clang-22 refuses to compile HIP for a target whose
# ISA-version library is missing. This script makes DIR with a link to every
# library Debian installs plus the missing ISA-version libraries, each one a
# single constant (__oclc_ISA_version = major * 1000 + minor * 100 +
# stepping, the encoding of the existing ones), built with llvm-as-22.
# Running it again is cheap and leaves a complete DIR unchanged.
#
# usage: utils/hip-device-libs.sh DIR
set -euo pipefail
dir=${1:?usage: hip-device-libs.sh DIR}
src=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
as=/usr/lib/llvm-22/bin/llvm-as
clang=/usr/lib/llvm-22/bin/clang

if [ ! -f "$src/ockl.bc" ] || [ ! -f "$src/hip.bc" ]; then
  echo "hip-device-libs: no ROCm device libraries in $src" \
       "(install rocm-device-libs: utils/setup.sh)" >&2
  exit 1
fi
mkdir -p "$dir"
for f in "$src"/*.bc; do
  link=$dir/$(basename "$f")
  [ -e "$link" ] || ln -s "$f" "$link" 2> /dev/null || [ -e "$link" ]
done

# The data layout clang-22 gives amdgcn, so that linking raises no warning.
layout=$(echo 'int x;' | "$clang" -x c -target amdgcn-amd-amdhsa -S \
           -emit-llvm - -o - | sed -n 's/^target datalayout = //p')
[ -n "$layout" ] || { echo "hip-device-libs: $clang failed" >&2; exit 1; }

# gfxNNN targets clang-22 supports that users of the pass compile for:
# name, then __oclc_ISA_version.
targets="940:9400 941:9401 942:9402 950:9500 1100:11000 1101:11001 \
1102:11002 1103:11003 1150:11500 1151:11501 1152:11502 1153:11503 \
1200:12000 1201:12001 1250:12500 1251:12501"
for t in $targets; do
  name=${t%%:*} version=${t##*:}
  out=$dir/oclc_isa_version_$name.bc
  [ -e "$out" ] && continue
  tmp=$(mktemp "$dir/.isa.XXXXXX")
  printf 'target datalayout = %s\ntarget triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 %s, align 4\n' \
    "$layout" "$version" | "$as" -o "$tmp"
  mv -f "$tmp" "$out" # Atomic: a concurrent compile sees all or nothing.
done
