#!/usr/bin/env bash
# The executable oracle over the fuzzer's sync-dependence shapes: values
# that are constants on every path but differ between waves where the paths
# of an EXEC or per-wave branch meet, or at the exit of a loop left per lane
# or per wave, tested by a later branch around LDS accesses
# (utils/fuzz/mir_fuzz.py --shape sync_dependence; in uniform mode the
# shapes whose value is in fact workgroup-uniform). For each target -- gfx942
# (gfx9, wave64), gfx1030 and gfx1100 (gfx10/11, wave32), gfx1201 (gfx12,
# split barriers) -- and each mode, utils/oracle/mir_exec.py --fuzz generates
# COUNT seeded functions, runs the pass on them (llc -run-pass) and executes
# the pass's outputs over every work-item of a workgroup, with its hang
# detection. Prints a table per plugin: functions, functions the oracle
# executed (the others hold calls it does not model), functions with
# "cannot be covered" warnings ("warned"), those of them with a race whose
# two instructions match no warning ("unmatched"), races outside warned
# functions (RAW, WAR, WAW and SELF; races of one instruction instance in
# two waves and asynchronous WAW are no failures and not counted), functions
# that hang and functions whose waves pair different barriers without
# hanging ("div. pairs"). Exit status 1 if PLUGIN leaves a race outside
# warned functions, a hang or a divergent barrier, or fails.
#
# usage: utils/bench/sync_dependence_oracle.sh
#   PLUGIN=path    the plugin (default build/lib/AMDGPULDSBarriers.so)
#   BASELINE=path  a second plugin run on the same functions (e.g. a build
#                  from before a change); its failures do not set the status
#   COUNT=n        functions per target and mode (default 2000)
#   MODES="..."    fuzzer modes (default "divergent uniform")
#   CPUS="..."     targets (default "gfx942 gfx1030 gfx1100 gfx1201")
#   SEED=s         the fuzzer's seed (default 1)
#   JOBS=j         oracle processes (default 2)
#   LOG=dir        keep the oracle's reports there (with their first 100
#                  failures), one file per mode
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
plugin=$(realpath "${PLUGIN:-$root/build/lib/AMDGPULDSBarriers.so}")
count=${COUNT:-2000}
cpus=${CPUS:-gfx942 gfx1030 gfx1100 gfx1201}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=${LOG:-$tmp}
mkdir -p "$log"
read -ra modes <<< "${MODES:-divergent uniform}"
baseline=()
if [ -n "${BASELINE:-}" ]; then
  baseline=(--baseline-plugin "$(realpath "$BASELINE")")
fi
status=0
for mode in "${modes[@]}"; do
  python3 "$root/utils/oracle/mir_exec.py" --fuzz "$count" --mode "$mode" \
    --shape sync_dependence --fuzz-seed "${SEED:-1}" --cpu "${cpus// /,}" \
    --llc /usr/lib/llvm-22/bin/llc --plugin "$plugin" "${baseline[@]}" \
    --jobs "${JOBS:-2}" -v 100 > "$log/$mode.txt" || status=$?
done
python3 - "$log" "${modes[@]}" <<'PY'
import re, sys
log, modes = sys.argv[1], sys.argv[2:]
rows = {}
for mode in modes:
    plugin = None
    lines = open(f"{log}/{mode}.txt").read().splitlines()
    for i, l in enumerate(lines):
        m = re.match(r"== plugin (\w+): (.*)", l)
        if m:
            plugin = m.group(1)
            rows.setdefault(plugin, (m.group(2), []))
            continue
        m = re.match(r"(\w+): functions (\d+), executed (\d+),", l)
        if not m or m.group(1) == "total":
            continue
        races = re.search(r"\(RAW (\d+), WAR (\d+), WAW (\d+), SELF (\d+),", lines[i + 1])
        hangs = re.match(r"\s+hangs: (\d+) functions, divergent barrier pairing without"
                         r" hang: (\d+)", lines[i + 2])
        warned = re.match(r"\s+functions with 'cannot be covered' warnings: (\d+),.*"
                          r" match no warning: (\d+)", lines[i + 3])
        real = sum(int(x) for x in races.groups())
        rows[plugin][1].append((mode, m.group(1), m.group(2), m.group(3), warned.group(1),
                                warned.group(2), str(real), hangs.group(1), hangs.group(2)))
head = ("mode", "target", "functions", "executed", "warned", "unmatched", "races", "hangs",
        "div. pairs")
for plugin, (path, table) in rows.items():
    print(f"\nplugin {plugin}: {path}")
    widths = [max(len(r[k]) for r in table + [head]) for k in range(len(head))]
    rule = "  ".join("=" * w for w in widths)
    print(rule)
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip())
    print(rule)
    for r in table:
        print("  ".join((c.ljust(w) if k < 2 else c.rjust(w))
                        for k, (c, w) in enumerate(zip(r, widths))).rstrip())
    print(rule)
PY
exit $status
