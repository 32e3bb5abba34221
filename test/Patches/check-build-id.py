#!/usr/bin/env python3
"""Checks the build ids the plugin's reader read from loaded objects (the LLVM
library and the test tool itself) against those llvm-readelf reads from
their files.

usage: check-build-id.py OUTPUT  (the output of LDSOpcodeNames --check-table)
"""
import re
import subprocess
import sys


def readelf_build_id(path):
    notes = subprocess.run(["llvm-readelf", "--notes", path],
                           capture_output=True, text=True, check=True).stdout
    found = re.findall(r"Build ID:\s*([0-9a-fA-F]+)", notes)
    if len(found) != 1:
        sys.exit(f"{path}: {len(found)} build ids in llvm-readelf's notes")
    return found[0].lower()


def main():
    fields = dict(
        line.split(": ", 1) for line in open(sys.argv[1]).read().splitlines()
        if ": " in line)
    for path_key, id_key in (("library", "build id"),
                             ("tool", "tool build id")):
        path, read = fields[path_key], fields[id_key]
        expected = readelf_build_id(path)
        if expected != read:
            sys.exit(f"{path}: llvm-readelf says {expected}, "
                     f"the plugin's reader read {read}")
        print(f"{path}: build id {read} agrees with llvm-readelf")


if __name__ == "__main__":
    main()
