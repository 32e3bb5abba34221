#!/usr/bin/env bash
# Runs the pass on a bundled kernel: strips the kernel's own barriers
# (workgroup fences and llvm.amdgcn.s.barrier), compiles it with llc-22 and
# the pass in the pipeline, and shows where the barriers went, next to the
# hand-written placement.
#
# usage: utils/run-example.sh [kernel.ll] [cpu]   (default: transpose, gfx942)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
kernel=${1:-$root/utils/examples/transpose.ll}
cpu=${2:-gfx942}
"$root/utils/build.sh" > /dev/null
plugin="$build/lib/AMDGPULDSBarriers.so"
llc=/usr/lib/llvm-22/bin/llc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

grep -v -e 'call void @llvm.amdgcn.s.barrier()' -e 'fence syncscope("workgroup")' \
  "$kernel" > "$tmp/stripped.ll"
show() { grep -E '^\s+(ds_|buffer_load|global_load_lds|s_barrier|s_waitcnt|s_wait_dscnt)|^\.LBB|^[a-z_]+:$' "$1"; }

echo "=== $cpu: the kernel's own barriers (stock llc-22)"
"$llc" -mtriple=amdgcn-amd-amdhsa -mcpu="$cpu" -O2 "$kernel" -o "$tmp/own.s"
show "$tmp/own.s"
echo
echo "=== $cpu: barriers stripped, placed by amdgpu-lds-barriers"
"$llc" -load="$plugin" -amdgpu-lds-barriers -pass-remarks=amdgpu-lds-barriers \
  -mtriple=amdgcn-amd-amdhsa -mcpu="$cpu" -O2 "$tmp/stripped.ll" -o "$tmp/pass.s" 2>&1
show "$tmp/pass.s"
echo
echo "=== barrier count: hand-written $(grep -cE 's_barrier($|_wait)' "$tmp/own.s")," \
     "placed by the pass $(grep -cE 's_barrier($|_wait)' "$tmp/pass.s")"
