#!/usr/bin/env python3
"""Draws the table of utils/bench/compile_time.sh as an SVG line plot
(log-log: seconds against LDS accesses; the pass solid, SIInsertWaitcnts
dashed, one colour per kernel kind). Plain SVG, no plotting library.

usage: utils/bench/compile_time.sh 1000 4000 16000 | utils/bench/plot_compile_time.py > docs/compile-time.svg
"""
import math
import sys

rows = []
for line in sys.stdin:
    f = line.split()
    if len(f) >= 6 and f[0] != "kind":
        rows.append((f[0], int(f[1]), float(f[2]), float(f[3])))
if not rows:
    sys.exit("plot_compile_time: no rows on stdin")

W, H, L, R, T, B = 640, 420, 70, 150, 30, 50
ns = [r[1] for r in rows]
ts = [t for r in rows for t in (r[2], r[3])]
x0, x1 = math.log10(min(ns)) - 0.1, math.log10(max(ns)) + 0.1
y0, y1 = math.floor(math.log10(min(ts))), math.ceil(math.log10(max(ts)))


def px(n):
    return L + (math.log10(n) - x0) / (x1 - x0) * (W - L - R)


def py(t):
    return T + (y1 - math.log10(t)) / (y1 - y0) * (H - T - B)


out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
       'font-family="sans-serif" font-size="12">' % (W, H),
       '<rect width="100%" height="100%" fill="white"/>']
for e in range(y0, y1 + 1):
    y = py(10 ** e)
    out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>'
               % (L, y, W - R, y))
    out.append('<text x="%d" y="%.1f" text-anchor="end">1e%d s</text>'
               % (L - 6, y + 4, e))
for n in sorted(set(ns)):
    out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>'
               % (px(n), H - B + 18, n))
out.append('<text x="%d" y="%d" text-anchor="middle">LDS accesses</text>'
           % ((L + W - R) // 2, H - 10))
colours = {"straight": "#1f77b4", "loops": "#d62728", "wide": "#2ca02c"}
legend_y = T + 10
for kind in sorted({r[0] for r in rows}):
    c = colours.get(kind, "black")
    pts = sorted((r[1], r[2], r[3]) for r in rows if r[0] == kind)
    for idx, dash in ((1, ""), (2, ' stroke-dasharray="5,4"')):
        path = " ".join("%.1f,%.1f" % (px(p[0]), py(p[idx])) for p in pts)
        out.append('<polyline points="%s" fill="none" stroke="%s" '
                   'stroke-width="2"%s/>' % (path, c, dash))
        for p in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>'
                       % (px(p[0]), py(p[idx]), c))
    for label, dash in (("pass", ""), ("waitcnt", ' stroke-dasharray="5,4"')):
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" '
                   'stroke-width="2"%s/>' % (W - R + 10, legend_y, W - R + 40,
                                             legend_y, c, dash))
        out.append('<text x="%d" y="%d">%s %s</text>'
                   % (W - R + 46, legend_y + 4, kind, label))
        legend_y += 18
out.append("</svg>")
print("\n".join(out))
