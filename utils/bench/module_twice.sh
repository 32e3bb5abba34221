#!/usr/bin/env bash
# Writes a module holding every function of an LLVM IR module twice: the
# copy's globals are renamed (suffix _copy2; intrinsics keep their names,
# the used-list stays with the original) and llvm-link joins the two, the
# copies after the originals. The benchmarks time the copies, which run
# with the caches the originals warmed.
#
# usage: utils/bench/module_twice.sh IN.ll OUT.ll
set -euo pipefail
in=${1:?usage: module_twice.sh IN.ll OUT.ll}
out=${2:?usage: module_twice.sh IN.ll OUT.ll}
copy=$(mktemp --suffix=.ll)
trap 'rm -f "$copy"' EXIT
sed -e 's/@\([A-Za-z_][A-Za-z0-9_.]*\)/@\1_copy2/g' \
  -e 's/@llvm\.\([a-z0-9._]*\)_copy2/@llvm.\1/g' \
  -e '/@llvm\.compiler\.used/d' "$in" > "$copy"
/usr/lib/llvm-22/bin/llvm-link -S "$in" "$copy" -o "$out"
