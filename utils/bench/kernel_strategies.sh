#!/usr/bin/env bash
# Barrier counts on the bundled HIP kernels (their own barriers stripped),
# gfx942, for every placement strategy, with the thread-index analysis (and
# the one-dimensional workgroup assumption, --1d) and without it, next to
# the hand-written count. "fail" counts the warnings of the pass's self-check
# (a strategy whose placement does not verify) and of uncoverable hazards.
#
# usage: utils/bench/kernel_strategies.sh [arch]   (default gfx942)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
arch=${1:-gfx942}
hip=$root/utils/hip-compile.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() { grep -cE '^\s+(s_barrier|s_barrier_wait -1)$' "$1" || true; }
printf "%-11s %-10s %-9s %9s %6s\n" kernel strategy analysis barriers fail
for k in transpose reduction histogram matmul_dma; do
  [ "$k" = matmul_dma ] && case "$arch" in gfx94*|gfx950) ;; *) continue ;; esac
  for s in optimal naive latest intervals; do
    for a in 1d on off; do
      opts=(--strip-barriers --arch="$arch" --pass-opt=-amdgpu-lds-barriers-strategy=$s)
      case $a in
        1d) opts+=(--1d) ;;
        off) opts+=(--pass-opt=-amdgpu-lds-barriers-thread-analysis=false) ;;
      esac
      "$hip" "${opts[@]}" "$root/utils/examples/$k.hip" -o "$tmp/k.s" 2> "$tmp/err" || true
      printf "%-11s %-10s %-9s %9s %6s\n" "$k" "$s" "$a" "$(count "$tmp/k.s")" \
        "$(grep -c warning "$tmp/err" || true)"
    done
  done
  "$hip" --stock --arch="$arch" "$root/utils/examples/$k.hip" -o "$tmp/own.s"
  printf "%-11s %-10s %-9s %9s %6s\n" "$k" hand-written - "$(count "$tmp/own.s")" -
done
