#!/usr/bin/env python3
"""Checks the build id the plugin read from a loaded library against the one
llvm-readelf reads from the library's file.

usage: check-build-id.py OUTPUT  (the output of LDSOpcodeNames --check-table)
"""
import re
import subprocess
import sys


def main():
    fields = dict(
        line.split(": ", 1) for line in open(sys.argv[1]).read().splitlines()
        if ": " in line)
    library, plugin_id = fields["library"], fields["build id"]
    notes = subprocess.run(["llvm-readelf", "--notes", library],
                           capture_output=True, text=True, check=True).stdout
    found = re.findall(r"Build ID:\s*([0-9a-fA-F]+)", notes)
    if len(found) != 1:
        sys.exit(f"{library}: {len(found)} build ids in llvm-readelf's notes")
    if found[0].lower() != plugin_id:
        sys.exit(f"{library}: llvm-readelf says {found[0]}, "
                 f"the plugin read {plugin_id}")
    print(f"{library}: build id {plugin_id} agrees with llvm-readelf")


if __name__ == "__main__":
    main()
