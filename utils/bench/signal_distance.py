#!/usr/bin/env python3
"""Average number of machine instructions between each S_BARRIER_SIGNAL_IMM
and the next S_BARRIER_WAIT in MIR printed by the pass.

usage: llc-22 ... -run-pass=amdgpu-lds-barriers x.mir -o - | signal_distance.py
Prints: pairs, mean distance, and the distances.
"""
import re
import sys

distances = []
pending = None
for line in sys.stdin:
    text = line.strip()
    if re.match(r"^(bb\.|name:|---|\.\.\.)", text):
        pending = None  # Pairs are counted within a block.
        continue
    if not text or text.startswith(("liveins", "successors", "#", ";")):
        continue
    if "S_BARRIER_SIGNAL" in text:
        pending = 0
        continue
    if "S_BARRIER_WAIT" in text:
        if pending is not None:
            distances.append(pending)
        pending = None
        continue
    if pending is not None:
        pending += 1

mean = sum(distances) / len(distances) if distances else 0.0
print(f"pairs {len(distances)} mean {mean:.2f} distances {distances}")
