#!/usr/bin/env python3
"""Checks that every AMDGPU:: opcode the in-tree target facts name exists.

usage: check-intree-opcodes.py PREPROCESSED_SOURCE OPCODE_NAMES

PREPROCESSED_SOURCE is lib/intree/AMDGPUTargetFacts.cpp after the C
preprocessor (its macros paste opcode names together), OPCODE_NAMES the
output of OpcodeNames (the amdgcn instruction table, one name a line).
Opcode enumerators are the AMDGPU:: names that start with two capitals or
digits (S_WAITCNT, DS_ADD_U32_gfx9, COPY); the others are functions, types
and namespaces (getIsaVersion, IsaVersion, OpName). SCC is a register.
"""
import re
import sys

NOT_OPCODES = {"SCC"}


def main():
    source = open(sys.argv[1]).read()
    names = set(open(sys.argv[2]).read().split())
    used = set(re.findall(r"\bAMDGPU::([A-Z0-9][A-Z0-9_][A-Za-z0-9_]*)\b(?!::)",
                          source)) - NOT_OPCODES
    missing = sorted(used - names)
    for n in missing:
        print("not an opcode of this LLVM: AMDGPU::%s" % n)
    print("%d AMDGPU:: opcodes named, %d missing" % (len(used), len(missing)))
    return 1 if missing or not used else 0


if __name__ == "__main__":
    sys.exit(main())
