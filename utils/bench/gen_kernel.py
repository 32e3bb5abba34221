#!/usr/bin/env python3
"""Generates LLVM IR kernels with many LDS accesses for the compile-time
benchmark: straight-line code, loop nests, and wide CFGs (volatile
accesses), read-only code, and a chain of divergent ifs (plain accesses).

usage: gen_kernel.py [--plain] [--disjoint] {straight,loops,wide,reads,divchain,tiles} N > kernel.ll
  --plain     plain (not volatile) loads and stores, as user kernels have
              (volatile ones make SIMemoryLegalizer wait after each access)
  --disjoint  each work-item its own slots, s[256 * j + tid], in a 1-D
              launch of 256 work-items (!reqd_work_group_size): the
              thread-index analysis proves them apart (without the 1-D
              launch they are not: work-items (x, y) and (x, y') share x)

Addresses use (tid + k) & 255 so that LLVM cannot prove accesses of one
thread independent, and every few accesses go to a second object.
"""
import sys

PLAIN = False
DISJOINT = False


def header(out):
    size = 256 * 16 if DISJOINT else 256
    out.append(f"@a = internal addrspace(3) global [{size} x i32] poison, align 4")
    out.append(f"@b = internal addrspace(3) global [{size} x i32] poison, align 4")
    out.append("declare i32 @llvm.amdgcn.workitem.id.x()")
    attrs = ' "amdgpu-flat-work-group-size"="1,256"'
    out.append(f"attributes #0 = {{ nounwind{attrs} }}")
    launch = " !reqd_work_group_size !0" if DISJOINT else ""
    out.append(f"define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n) #0{launch} {{")
    out.append("entry:")
    out.append("  %tid = call i32 @llvm.amdgcn.workitem.id.x()")


def access(out, i, acc):
    """One LDS access (a store or a load, alternating in runs); returns the
    new accumulator name."""
    obj = "@b" if i % 7 == 3 else "@a"
    vol = "" if PLAIN else " volatile"
    if DISJOINT:
        size = 256 * 16
        out.append(f"  %m{i} = add i32 %tid, {256 * (i * 13 % 16)}")
    else:
        size = 256
        out.append(f"  %o{i} = add i32 %tid, {i * 13 % 251 + 1}")
        out.append(f"  %m{i} = and i32 %o{i}, 255")
    out.append(f"  %p{i} = getelementptr [{size} x i32], ptr addrspace(3) {obj}, i32 0, i32 %m{i}")
    if (i // 3) % 2 == 0:
        out.append(f"  store{vol} i32 {acc}, ptr addrspace(3) %p{i}")
        return acc
    out.append(f"  %v{i} = load{vol} i32, ptr addrspace(3) %p{i}")
    out.append(f"  %s{i} = add i32 {acc}, %v{i}")
    return f"%s{i}"


def footer(out, acc):
    out.append(f"  %g = getelementptr i32, ptr addrspace(1) %out, i32 %tid")
    out.append(f"  store i32 {acc}, ptr addrspace(1) %g")
    out.append("  ret void")
    out.append("}")
    if DISJOINT:
        out.append("!0 = !{i32 256, i32 1, i32 1}")


def straight(n):
    out = []
    header(out)
    acc = "%tid"
    for i in range(n):
        acc = access(out, i, acc)
    footer(out, acc)
    return out


def loops(n, per_loop=64):
    """A sequence of two-deep loop nests, per_loop accesses in each body."""
    out = []
    header(out)
    acc, prev, i, nest = "%tid", "entry", 0, 0
    while i < n:
        h, b, l, x = f"outer{nest}", f"inner{nest}", f"latch{nest}", f"exit{nest}"
        out.append(f"  br label %{h}")
        out.append(f"{h}:")
        out.append(f"  %oi{nest} = phi i32 [ 0, %{prev} ], [ %oi{nest}.n, %{l} ]")
        out.append(f"  %oacc{nest} = phi i32 [ {acc}, %{prev} ], [ %iacc{nest}.n, %{l} ]")
        out.append(f"  br label %{b}")
        out.append(f"{b}:")
        out.append(f"  %ii{nest} = phi i32 [ 0, %{h} ], [ %ii{nest}.n, %{b} ]")
        out.append(f"  %iacc{nest} = phi i32 [ %oacc{nest}, %{h} ], [ %iacc{nest}.n, %{b} ]")
        a = f"%iacc{nest}"
        for _ in range(min(per_loop, n - i)):
            a = access(out, i, a)
            i += 1
        out.append(f"  %iacc{nest}.n = add i32 {a}, 0")
        out.append(f"  %ii{nest}.n = add i32 %ii{nest}, 1")
        out.append(f"  %ic{nest} = icmp slt i32 %ii{nest}.n, %n")
        out.append(f"  br i1 %ic{nest}, label %{b}, label %{l}")
        out.append(f"{l}:")
        out.append(f"  %oi{nest}.n = add i32 %oi{nest}, 1")
        out.append(f"  %oc{nest} = icmp slt i32 %oi{nest}.n, %n")
        out.append(f"  br i1 %oc{nest}, label %{h}, label %{x}")
        out.append(f"{x}:")
        acc, prev = f"%iacc{nest}.n", x
        nest += 1
    footer(out, acc)
    return out


def wide(n, per_block=16):
    """A chain of uniform diamonds (branch on a kernel argument)."""
    out = []
    header(out)
    acc, i, d = "%tid", 0, 0
    while i < n:
        t, e, j = f"then{d}", f"else{d}", f"join{d}"
        out.append(f"  %c{d} = icmp sgt i32 %n, {d}")
        out.append(f"  br i1 %c{d}, label %{t}, label %{e}")
        accs = []
        for blk in (t, e):
            out.append(f"{blk}:")
            a = acc
            for _ in range(min(per_block, max(1, (n - i)))):
                a = access(out, i, a)
                i += 1
            out.append(f"  %x{blk} = add i32 {a}, 0")
            out.append(f"  br label %{j}")
            accs.append(f"%x{blk}")
        out.append(f"{j}:")
        out.append(f"  %jacc{d} = phi i32 [ {accs[0]}, %{t} ], [ {accs[1]}, %{e} ]")
        acc = f"%jacc{d}"
        d += 1
    footer(out, acc)
    return out


def reads(n):
    """N LDS loads of (tid + k) (volatile, so that llc keeps N of them):
    nothing to synchronize, but every pair of accesses is a pair the
    analysis could test."""
    out = []
    header(out)
    acc = "%tid"
    for i in range(n):
        out.append(f"  %o{i} = add i32 %tid, {i}")
        out.append(f"  %m{i} = and i32 %o{i}, 255")
        out.append(f"  %p{i} = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %m{i}")
        out.append(f"  %v{i} = load volatile i32, ptr addrspace(3) %p{i}")
        out.append(f"  %s{i} = add i32 {acc}, %v{i}")
        acc = f"%s{i}"
    footer(out, acc)
    return out


def divchain(n):
    """N ifs on the work-item id in a row, each storing under the if and
    loading after its join: every store may meet every later load."""
    out = []
    header(out)
    out.append("  br label %b0")
    acc = "%tid"
    for i in range(n):
        out.append(f"b{i}:")
        out.append(f"  %c{i} = icmp ult i32 %tid, {i * 13 % 256}")
        out.append(f"  br i1 %c{i}, label %th{i}, label %j{i}")
        out.append(f"th{i}:")
        out.append(f"  %o{i} = add i32 %tid, {i * 29 % 251 + 1}")
        out.append(f"  %m{i} = and i32 %o{i}, 255")
        out.append(f"  %p{i} = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %m{i}")
        out.append(f"  store i32 {i}, ptr addrspace(3) %p{i}")
        out.append(f"  br label %j{i}")
        out.append(f"j{i}:")
        out.append(f"  %q{i} = add i32 %tid, {i * 31 % 251 + 2}")
        out.append(f"  %r{i} = and i32 %q{i}, 255")
        out.append(f"  %pp{i} = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %r{i}")
        out.append(f"  %v{i} = load i32, ptr addrspace(3) %pp{i}")
        out.append(f"  %s{i} = add i32 {acc}, %v{i}")
        out.append(f"  br label %b{i + 1}")
        acc = f"%s{i}"
    out.append(f"b{n}:")
    footer(out, acc)
    return out


def tiles(n):
    """The bundled matmul_tiled example scaled up: a sequence of tile loops
    over 16x16 workgroups, each storing As[ty][tx] and Bs[ty][tx] and
    reading As[ty][k] and Bs[k][tx] for k = 0..15 (34 accesses a tile)."""
    out = []
    out.append("@a = internal addrspace(3) global [256 x i32] poison, align 4")
    out.append("@b = internal addrspace(3) global [256 x i32] poison, align 4")
    out.append("declare i32 @llvm.amdgcn.workitem.id.x()")
    out.append("declare i32 @llvm.amdgcn.workitem.id.y()")
    out.append("attributes #0 = { nounwind }")
    out.append("define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n) #0 "
               "!reqd_work_group_size !0 {")
    out.append("entry:")
    out.append("  %tx = call i32 @llvm.amdgcn.workitem.id.x()")
    out.append("  %ty = call i32 @llvm.amdgcn.workitem.id.y()")
    out.append("  %row = shl i32 %ty, 4")
    out.append("  %own = add i32 %row, %tx")
    out.append("  %pa = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %own")
    out.append("  %pb = getelementptr [256 x i32], ptr addrspace(3) @b, i32 0, i32 %own")
    acc, prev, t, i = "%tx", "entry", 0, 0
    while i < n:
        h, x = f"tile{t}", f"done{t}"
        out.append(f"  br label %{h}")
        out.append(f"{h}:")
        out.append(f"  %it{t} = phi i32 [ 0, %{prev} ], [ %it{t}.n, %{h} ]")
        out.append(f"  %acc{t} = phi i32 [ {acc}, %{prev} ], [ %s{t}.15, %{h} ]")
        out.append(f"  %va{t} = add i32 %acc{t}, %it{t}")
        out.append(f"  store i32 %va{t}, ptr addrspace(3) %pa")
        out.append(f"  store i32 %it{t}, ptr addrspace(3) %pb")
        a = f"%acc{t}"
        for k in range(16):
            out.append(f"  %ia{t}.{k} = add i32 %row, {k}")
            out.append(f"  %qa{t}.{k} = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %ia{t}.{k}")
            out.append(f"  %ib{t}.{k} = add i32 %tx, {16 * k}")
            out.append(f"  %qb{t}.{k} = getelementptr [256 x i32], ptr addrspace(3) @b, i32 0, i32 %ib{t}.{k}")
            out.append(f"  %la{t}.{k} = load i32, ptr addrspace(3) %qa{t}.{k}")
            out.append(f"  %lb{t}.{k} = load i32, ptr addrspace(3) %qb{t}.{k}")
            out.append(f"  %m{t}.{k} = mul i32 %la{t}.{k}, %lb{t}.{k}")
            out.append(f"  %s{t}.{k} = add i32 {a}, %m{t}.{k}")
            a = f"%s{t}.{k}"
        out.append(f"  %it{t}.n = add i32 %it{t}, 1")
        out.append(f"  %c{t} = icmp slt i32 %it{t}.n, %n")
        out.append(f"  br i1 %c{t}, label %{h}, label %{x}")
        out.append(f"{x}:")
        acc, prev, t, i = f"%s{t}.15", x, t + 1, i + 34
    out.append("  %g = getelementptr i32, ptr addrspace(1) %out, i32 %own")
    out.append(f"  store i32 {acc}, ptr addrspace(1) %g")
    out.append("  ret void")
    out.append("}")
    out.append("!0 = !{i32 16, i32 16, i32 1}")
    return out


KINDS = {"straight": straight, "loops": loops, "wide": wide, "reads": reads,
         "divchain": divchain, "tiles": tiles}

if __name__ == "__main__":
    args = sys.argv[1:]
    PLAIN = "--plain" in args
    DISJOINT = "--disjoint" in args
    args = [a for a in args if not a.startswith("--")]
    kind, n = args[0], int(args[1])
    print("\n".join(KINDS[kind](n)))
