"""Compares the plugin's function order file with the plugin: how many of
its names the plugin still defines, and whether the plugin lays those out
in the file's order (the build links by it).

usage: check_function_order.py ORDER_FILE PLUGIN NM
"""
import subprocess
import sys

order_file, plugin, nm = sys.argv[1:4]
names = [l.strip() for l in open(order_file) if l.strip()]
address = {}
for line in subprocess.run([nm, "--defined-only", plugin], check=True,
                           capture_output=True, text=True).stdout.splitlines():
    fields = line.split()
    if len(fields) == 3 and fields[1] in "tTwW":
        address.setdefault(fields[2], int(fields[0], 16))
defined = [address[n] for n in names if n in address]
stale = len(names) - len(defined)
in_order = all(a < b for a, b in zip(defined, defined[1:]))
print("%d names, %d%% not defined by the plugin, laid out %s" %
      (len(names), 100 * stale // max(1, len(names)),
       "in the file's order" if in_order else "in another order"))
