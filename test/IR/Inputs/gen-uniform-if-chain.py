#!/usr/bin/env python3
"""Writes a kernel with a chain of DEPTH uniform ifs to stdout.

Link i tests the kernel argument %sel against its own constant
(if (sel == i % 1000)) and, when taken, writes @lds[(tid + A_i) & 1023]
and then reads @lds[(tid + B_i) & 1023]. The offsets A_i = 389*i + 17 and
B_i = 613*i + 5 (mod 1024) scatter the slots, so the accesses of one link
conflict with those of many other links across work-items, not only
within the link. Every branch is workgroup-uniform; each link joins before
the next test.

usage: gen-uniform-if-chain.py DEPTH
"""
import sys


def main():
    depth = int(sys.argv[1])
    out = []
    emit = out.append
    emit("@lds = internal addrspace(3) global [1024 x i32] poison, align 4")
    emit("declare i32 @llvm.amdgcn.workitem.id.x()")
    emit("define amdgpu_kernel void @if_chain(i32 %sel) #0 {")
    emit("entry:")
    emit("  %tid = call i32 @llvm.amdgcn.workitem.id.x()")
    emit("  br label %test0")
    for i in range(depth):
        write_off = (389 * i + 17) % 1024
        read_off = (613 * i + 5) % 1024
        emit(f"test{i}:")
        emit(f"  %hit{i} = icmp eq i32 %sel, {i % 1000}")
        emit(f"  br i1 %hit{i}, label %then{i}, label %join{i}")
        emit(f"then{i}:")
        emit(f"  %w{i}.s = add i32 %tid, {write_off}")
        emit(f"  %w{i}.m = and i32 %w{i}.s, 1023")
        emit(f"  %w{i} = getelementptr [1024 x i32], ptr addrspace(3) @lds, "
             f"i32 0, i32 %w{i}.m")
        emit(f"  store volatile i32 {i}, ptr addrspace(3) %w{i}")
        emit(f"  %r{i}.s = add i32 %tid, {read_off}")
        emit(f"  %r{i}.m = and i32 %r{i}.s, 1023")
        emit(f"  %r{i} = getelementptr [1024 x i32], ptr addrspace(3) @lds, "
             f"i32 0, i32 %r{i}.m")
        emit(f"  %v{i} = load volatile i32, ptr addrspace(3) %r{i}")
        emit(f"  br label %join{i}")
        emit(f"join{i}:")
        nxt = f"test{i + 1}" if i + 1 < depth else "done"
        emit(f"  br label %{nxt}")
    emit("done:")
    emit("  ret void")
    emit("}")
    emit('attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }')
    print("\n".join(out))


if __name__ == "__main__":
    main()
