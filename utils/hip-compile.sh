#!/usr/bin/env bash
# Compiles the device code of a HIP file (one that includes
# <hip/hip_runtime.h>) with Debian's clang-22, HIP headers and ROCm device
# libraries, with the amdgpu-lds-barriers plugin in the codegen pipeline,
# and writes the assembly (or the MIR right after the pass) to stdout or -o.
#
# usage: utils/hip-compile.sh [options] kernel.hip [-- clang args...]
#   --arch=gfxNNN       target (default gfx942; e.g. gfx950, gfx1201, gfx1250)
#   --strip-barriers    let the pass replace the kernel's own workgroup
#                       barriers: they stay in place through the IR optimizer
#                       and instruction scheduling (which therefore keep the
#                       author's order of LDS accesses) and the pass deletes
#                       them right before it places its own
#                       (-amdgpu-lds-barriers-strip-existing)
#   --check             static race check of the kernel as written (no
#                       placement): the verifier runs after
#                       si-insert-waitcnts and reports races and barriers
#                       that some waves may skip, with source lines; exits 1
#                       if it finds any (same as --stock --verify)
#   --stock             compile without the pass (stock clang-22), e.g. to see
#                       the hand-written barriers
#   --verify            run the independent verifier after si-insert-waitcnts
#                       and fail on any race it finds (with --stock: a check
#                       of the hand-written barriers)
#   --1d                let the thread-index analysis assume workgroups of y
#                       and z size 1
#                       (-amdgpu-lds-barriers-assume-1d-workgroups)
#   --pass-opt=OPT      pass an option to the plugin (-mllvm OPT; also to the
#                       verifier of --check), e.g.
#                       --pass-opt=-amdgpu-lds-barriers-thread-analysis=false
#   --mir               print the MIR right after the pass instead of assembly
#   --remarks           also print the pass's remarks (to stderr)
#   --print-flags       print the clang-22 flags this script uses (without
#                       the source and output) and exit, for build systems
#   -o FILE             output file (default stdout)
#   BUILD_DIR=dir       use the plugin built in dir (default ./build)
# Any failing step exits non-zero with the compiler's messages on stderr.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
clang=/usr/lib/llvm-22/bin/clang # = clang-22; Debian 12's clang is LLVM 14
plugin=$build/lib/AMDGPULDSBarriers.so
libs=$build/hip-device-libs

arch=gfx942 strip=0 stock=0 verify=0 oned=0 mir=0 remarks=0 flags=0 out=-
src=
extra=()
passopts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --arch=*) arch=${1#--arch=} ;;
    --strip-barriers) strip=1 ;;
    --check) stock=1 verify=1 ;;
    --stock) stock=1 ;;
    --verify) verify=1 ;;
    --mir) mir=1 ;;
    --1d) oned=1 ;;
    --pass-opt=*) passopts+=(-mllvm "${1#--pass-opt=}") ;;
    --remarks) remarks=1 ;;
    --print-flags) flags=1 ;;
    -o) out=$2; shift ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "hip-compile: unknown option $1" >&2; exit 2 ;;
    *) src=$1 ;;
  esac
  shift
done
[ -n "$src" ] || [ "$flags" -eq 1 ] || { sed -n "7,34p" "$0" >&2; exit 2; }
if { [ "$stock" -eq 0 ] || [ "$verify" -eq 1 ]; } && [ ! -f "$plugin" ]; then
  echo "hip-compile: no plugin at $plugin (run utils/build.sh)" >&2
  exit 1
fi
if [ "$strip" -eq 1 ] && [ "$stock" -eq 1 ]; then
  echo "hip-compile: --strip-barriers needs the pass (not --stock/--check)" >&2
  exit 2
fi
if [ ! -f "$libs/oclc_isa_version_${arch#gfx}.bc" ]; then
  # Parallel builds may all get here first: one makes the directory.
  mkdir -p "$build"
  (
    flock 9
    [ -f "$libs/oclc_isa_version_${arch#gfx}.bc" ] ||
      "$root/utils/hip-device-libs.sh" "$libs"
  ) 9> "$build/.hip-device-libs.lock"
fi

# clang-22 no longer defines the wavefront-size macro that HIP 5.2's headers
# read: wave64 on gfx9, wave32 on gfx10 and later unless asked otherwise.
wave=32
case "$arch" in gfx9*) wave=64 ;; esac
for a in "${extra[@]}"; do
  case "$a" in -mwavefrontsize64) wave=64 ;; -mno-wavefrontsize64) wave=32 ;; esac
done
# Debian's device libraries support code object versions 4 and 5 (clang-22
# defaults to 6), and clang-22 no longer links hip.bc, which defines the
# fences of __syncthreads() (__atomic_work_item_fence).
common=(-x hip --cuda-device-only --offload-arch="$arch" -O2
        --rocm-path=/usr --rocm-device-lib-path="$libs"
        -mcode-object-version=5 -D__AMDGCN_WAVEFRONT_SIZE="$wave"
        -Xclang -mlink-builtin-bitcode -Xclang "$libs/hip.bc")
pass=()
[ "$stock" -eq 1 ] && [ "$verify" -eq 0 ] || pass=(-Xclang -load -Xclang "$plugin")
[ "$verify" -eq 0 ] ||
  pass+=(-mllvm -amdgpu-lds-barriers-checker-in-pipeline
         -mllvm -amdgpu-lds-barriers-checker-severity=error)
[ "$remarks" -eq 0 ] && [ "$stock" -eq 0 -o "$verify" -eq 0 ] || pass+=(-g)
if [ "$stock" -eq 0 ]; then
  pass+=(-mllvm -amdgpu-lds-barriers-in-pipeline)
  [ "$strip" -eq 0 ] || pass+=(-mllvm -amdgpu-lds-barriers-strip-existing)
  [ "$remarks" -eq 0 ] || pass+=(-Rpass=amdgpu-lds-barriers
                                 -Rpass-analysis=amdgpu-lds-barriers)
  [ "$mir" -eq 0 ] || pass+=(-mllvm -stop-after=amdgpu-lds-barriers)
fi

# The thread-index analysis and its options are shared by the pass and the
# verifier.
[ "${#pass[@]}" -eq 0 ] || pass+=("${passopts[@]}")
[ "$oned" -eq 0 ] || [ "${#pass[@]}" -eq 0 ] ||
  pass+=(-mllvm -amdgpu-lds-barriers-assume-1d-workgroups)

if [ "$flags" -eq 1 ]; then
  echo "${common[@]}" "${pass[@]}"
  exit 0
fi
exec "$clang" "${common[@]}" -S "${pass[@]}" "${extra[@]}" "$src" -o "$out"
