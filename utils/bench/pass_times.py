#!/usr/bin/env python3
"""The pass's and SIInsertWaitcnts' run times in an llc -time-trace file
(the benchmark scripts of utils/bench read them here).

usage: pass_times.py TRACE           prints "pass wait", microseconds summed
                                     over the module's functions
       pass_times.py --each TRACE    prints "pass1 wait1 pass2 wait2 ...",
                                     one pair per function in module order
       pass_times.py --second-half TRACE
                                     prints "pass wait" summed over the
                                     second half of the functions (a module
                                     that holds its kernels twice: the
                                     copies, compiled with warm caches)
"""
import json
import sys

PASS = "AMDGPU LDS barrier placement"
WAIT = "SI insert wait instructions"


def runs(path):
    """Each pass's "RunPass" durations in order (one per function)."""
    out = {PASS: [], WAIT: []}
    for e in sorted(json.load(open(path))["traceEvents"],
                    key=lambda e: e.get("ts", 0)):
        name = e.get("args", {}).get("detail")
        if e.get("name") == "RunPass" and name in out:
            out[name].append(e["dur"])
    return out[PASS], out[WAIT]


if __name__ == "__main__":
    args = sys.argv[1:]
    each = args[:1] == ["--each"]
    p, w = runs(args[-1])
    if args[:1] == ["--second-half"]:
        p, w = p[len(p) // 2:], w[len(w) // 2:]
    if each:
        print(" ".join("%d %d" % pair for pair in zip(p, w)))
    else:
        print(sum(p), sum(w))
