#!/usr/bin/env python3
"""Compares the target facts of the plugin (opcode names) and of the in-tree
build (SIInstrInfo), as -amdgpu-lds-barriers-print-target-facts prints them,
against the differences a file of explanations allows.

usage: compare_target_facts.py EXPLAINED CPU:PLUGIN_FACTS:INTREE_FACTS...

Every difference is a line

  NAME: plugin FACTS | in-tree FACTS

("(default)" where one side prints nothing for NAME). EXPLAINED holds
shell-style patterns over those lines, each under a comment that says why
the difference is harmless; a difference no pattern matches, or a pattern
that matches nothing on any CPU, fails the comparison (exit status 1).
"""
import fnmatch
import sys


def read_facts(path):
    facts = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("target facts of "):
                continue
            name, _, rest = line.partition(" ")
            facts[name] = rest
    return facts


def differences(plugin, intree):
    for name in sorted(set(plugin) | set(intree)):
        p, t = plugin.get(name, "(default)"), intree.get(name, "(default)")
        if p != t:
            yield f"{name}: plugin {p} | in-tree {t}"


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    patterns = []
    with open(argv[1]) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                patterns.append(line)
    used = set()
    unexplained = 0
    total = 0
    for arg in argv[2:]:
        cpu, plugin_path, intree_path = arg.split(":")
        for d in differences(read_facts(plugin_path), read_facts(intree_path)):
            total += 1
            match = next((p for p in patterns if fnmatch.fnmatchcase(d, p)), None)
            if match is None:
                print(f"unexplained ({cpu}): {d}")
                unexplained += 1
            else:
                used.add(match)
    stale = [p for p in patterns if p not in used]
    for p in stale:
        print(f"explains nothing: {p}")
    print(f"target facts: {total} differences on {len(argv) - 2} targets, "
          f"{unexplained} unexplained, {len(stale)} stale explanations")
    return 1 if unexplained or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
