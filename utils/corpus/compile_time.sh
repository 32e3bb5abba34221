#!/usr/bin/env bash
# Whole-compile times of HIP sources with the pass in place of the author's
# barriers (--strip-barriers) against the stock compile, through
# utils/hip-compile.sh: the two alternate REPEAT times (default 5) and the
# medians are compared, since the machines are noisy.
#
# usage: utils/corpus/compile_time.sh FILE...
#   ARCH=gfx942           the target
#   FLAGS="-std=c++20"    extra clang flags (include directories, ...)
#   BUILD_DIR=build       the plugin's build, as for hip-compile.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")/../.." && pwd)
REPEAT=${REPEAT:-5}
ARCH=${ARCH:-gfx942}
read -r -a EXTRA <<<"${FLAGS:--std=c++20}"
printf '%-44s %9s %9s %8s\n' file stock strip added
for F in "$@"; do
  declare -a Stock=() Strip=()
  for ((I = 0; I < REPEAT; ++I)); do
    for Mode in stock strip-barriers; do
      Start=$(date +%s%N)
      bash "$HERE/utils/hip-compile.sh" --$Mode --arch="$ARCH" "$F" \
        -o /dev/null -- "${EXTRA[@]}" 2>/dev/null
      T=$(($(date +%s%N) - Start))
      if [[ $Mode == stock ]]; then Stock+=("$T"); else Strip+=("$T"); fi
    done
  done
  python3 - "$F" "${Stock[*]}" "${Strip[*]}" <<'PY'
import os, statistics, sys
a = statistics.median(map(int, sys.argv[2].split())) / 1e9
b = statistics.median(map(int, sys.argv[3].split())) / 1e9
print(f"{os.path.basename(os.path.dirname(sys.argv[1]))[:30]+'/'+os.path.basename(sys.argv[1]):<44} {a:9.2f} {b:9.2f} {100*(b-a)/a:+7.1f}%")
PY
done
