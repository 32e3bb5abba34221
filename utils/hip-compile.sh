#!/usr/bin/env bash
# Compiles the device code of a HIP file with Debian's clang-22 and the
# amdgpu-lds-barriers plugin in the codegen pipeline (its pipeline callback:
# no MIR round trip), and writes the assembly (or the MIR right after the
# pass) to stdout or -o.
#
# usage: utils/hip-compile.sh [options] kernel.hip [-- clang args...]
#   --arch=gfxNNN       target (default gfx942; e.g. gfx950, gfx1201, gfx1250)
#   --strip-barriers    delete the kernel's own workgroup barriers first
#                       (the `llvm.amdgcn.s.barrier` calls of unoptimized
#                       device IR; the fences of __syncthreads() stay), so the
#                       pass places all of them
#   --stock             compile without the pass (stock clang-22), e.g. to see
#                       the hand-written barriers
#   --verify            run the independent verifier after si-insert-waitcnts
#                       and fail on any race it finds (also with --stock: a
#                       check of the hand-written barriers)
#   --1d                let the thread-index analysis assume workgroups of y
#                       and z size 1 (-amdgpu-lds-assume-1d-workgroups)
#   --pass-opt=OPT      pass an option to the plugin (-mllvm OPT), e.g.
#                       --pass-opt=-amdgpu-lds-thread-analysis=false
#   --mir               print the MIR right after the pass instead of assembly
#   --remarks           also print the pass's remarks (to stderr)
#   -o FILE             output file (default stdout)
#   BUILD_DIR=dir       use the plugin built in dir (default ./build)
# The kernels need no HIP headers (-nogpuinc -nogpulib): utils/examples/
# has lds_example.h with the few names they use.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
clang=/usr/lib/llvm-22/bin/clang # = clang-22; Debian 12's clang is LLVM 14
plugin=$build/lib/AMDGPULDSBarriers.so

arch=gfx942 strip=0 stock=0 verify=0 oned=0 mir=0 remarks=0 out=- src=
extra=()
passopts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --arch=*) arch=${1#--arch=} ;;
    --strip-barriers) strip=1 ;;
    --stock) stock=1 ;;
    --verify) verify=1 ;;
    --mir) mir=1 ;;
    --1d) oned=1 ;;
    --pass-opt=*) passopts+=(-mllvm "${1#--pass-opt=}") ;;
    --remarks) remarks=1 ;;
    -o) out=$2; shift ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "hip-compile: unknown option $1" >&2; exit 2 ;;
    *) src=$1 ;;
  esac
  shift
done
[ -n "$src" ] || { sed -n "8,28p" "$0" >&2; exit 2; }
if { [ "$stock" -eq 0 ] || [ "$verify" -eq 1 ]; } && [ ! -f "$plugin" ]; then
  echo "hip-compile: no plugin at $plugin (run utils/build.sh)" >&2
  exit 1
fi

common=(-nogpulib -nogpuinc -O2)
pass=()
[ "$stock" -eq 1 ] && [ "$verify" -eq 0 ] || pass=(-Xclang -load -Xclang "$plugin")
[ "$verify" -eq 0 ] || pass+=(-mllvm -amdgpu-lds-barrier-verify-in-pipeline
                              -mllvm -amdgpu-lds-barrier-verify=error)
if [ "$stock" -eq 0 ]; then
  pass+=(-mllvm -amdgpu-lds-barriers)
  [ "$remarks" -eq 0 ] || pass+=(-g -Rpass=amdgpu-lds-barriers
                                 -Rpass-analysis=amdgpu-lds-barriers)
  pass+=("${passopts[@]}")
  [ "$oned" -eq 0 ] || pass+=(-mllvm -amdgpu-lds-assume-1d-workgroups)
  [ "$mir" -eq 0 ] || pass+=(-mllvm -stop-after=amdgpu-lds-barriers)
fi

if [ "$strip" -eq 0 ]; then
  exec "$clang" -x hip --cuda-device-only --offload-arch="$arch" "${common[@]}" \
    -S "${pass[@]}" "${extra[@]}" "$src" -o "$out"
fi

debug=()
[ "$remarks" -eq 0 ] || debug=(-g) # Source locations in the remarks.
# Unoptimized device IR, its barrier calls deleted, then the normal -O2
# pipeline from IR: the barriers are gone before any optimization sees them.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$clang" -x hip --cuda-device-only --offload-arch="$arch" "${common[@]}" \
  -Xclang -disable-llvm-passes -emit-llvm -S "${debug[@]}" "${extra[@]}" "$src" \
  -o "$tmp/device.ll"
sed -E '/^\s*((tail|musttail|notail) )?call void @llvm\.amdgcn\.s\.barrier\(\)/d' \
  "$tmp/device.ll" > "$tmp/stripped.ll"
"$clang" -x ir --target=amdgcn-amd-amdhsa -mcpu="$arch" -nogpulib -O2 -S \
  "${pass[@]}" "$tmp/stripped.ll" -o "$out"
