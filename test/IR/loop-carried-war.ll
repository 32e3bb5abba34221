; Loop-carried write-after-read through the whole pipeline on gfx942. The
; first two kernels synchronize the write -> read of one iteration themselves
; (__syncthreads(): release fence, s_barrier, acquire fence) but forgot the
; second barrier: a fast wave's write in iteration i + 1 overwrites a slot a
; slow wave has yet to read in iteration i. That window only exists across
; the back-edge; the pass closes it with one barrier between the read and
; the loop's back-edge, and adds nothing before or after the loop.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - | FileCheck %s

@a = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()

; The barrier goes after the read, at the end of the body (the read must be
; complete at it: lgkmcnt(0) right before it); the user's barrier keeps its
; place. ({{[[:space:]]+}} spans the line break: the same wait also appears
; earlier, where the loaded value is used.)
; CHECK-LABEL: war_across_back_edge:
; CHECK-NOT: s_barrier
; CHECK: [[LOOP:.LBB0_[0-9]+]]: ; %loop
; CHECK-NOT: s_barrier
; CHECK: ds_write_b32
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_read_b32
; CHECK-NOT: {{ds_|s_barrier}}
; CHECK: s_waitcnt lgkmcnt(0){{[[:space:]]+}}s_barrier{{[[:space:]]+}}s_cbranch_scc1 [[LOOP]]
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
define amdgpu_kernel void @war_across_back_edge(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %tid
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %t2
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %x = add i32 %i, %tid
  store i32 %x, ptr addrspace(3) %p
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %v = load i32, ptr addrspace(3) %q
  %acc.next = add i32 %acc, %v
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %acc.next, ptr addrspace(1) %o
  ret void
}

; The reads are in an inner loop. Right after a read (inside the inner
; loop) a barrier would cover the window too, but would run m times per
; outer iteration: it belongs to the outer loop, after the inner loop exits.
; CHECK-LABEL: war_outside_inner_loop:
; CHECK-NOT: s_barrier
; CHECK: [[OUTER:.LBB1_[0-9]+]]: ; %outer
; CHECK-NOT: s_barrier
; CHECK: ds_write_b32
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK: [[INNER:.LBB1_[0-9]+]]: ; %inner
; CHECK-NOT: s_barrier
; CHECK: ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: s_cbranch_scc1 [[INNER]]
; CHECK-NEXT: ; %bb.{{[0-9]+}}: ; %latch
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: s_cbranch_scc1 [[OUTER]]
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
define amdgpu_kernel void @war_outside_inner_loop(ptr addrspace(1) %out, i32 %n, i32 %m) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %tid
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %acc = phi i32 [ 0, %entry ], [ %acc.inner, %latch ]
  %x = add i32 %i, %tid
  store i32 %x, ptr addrspace(3) %p
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  br label %inner

inner:
  %j = phi i32 [ 1, %outer ], [ %j.next, %inner ]
  %acc.j = phi i32 [ %acc, %outer ], [ %acc.inner, %inner ]
  %k = add i32 %tid, %j
  %k2 = and i32 %k, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %k2
  %v = load i32, ptr addrspace(3) %q
  %acc.inner = add i32 %acc.j, %v
  %j.next = add i32 %j, 1
  %cj = icmp slt i32 %j.next, %m
  br i1 %cj, label %inner, label %latch

latch:
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %outer, label %exit

exit:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %acc.inner, ptr addrspace(1) %o
  ret void
}

; With no barrier of its own, a loop that reads a neighbour's slot and then
; writes its own needs two per iteration: one for the WAR inside the
; iteration (before the write) and one for the RAW across the back-edge
; (the write against the next iteration's read). No single point covers
; both, and the pass places exactly these two.
; CHECK-LABEL: war_within_raw_across:
; CHECK-NOT: s_barrier
; CHECK: [[LOOP:.LBB2_[0-9]+]]: ; %loop
; CHECK-NOT: s_barrier
; CHECK: ds_read_b32
; CHECK-NOT: {{ds_|s_barrier}}
; CHECK: s_waitcnt lgkmcnt(0){{[[:space:]]+}}s_barrier{{[[:space:]]+}}ds_write_b32
; CHECK-NEXT: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: s_cbranch_scc1 [[LOOP]]
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
define amdgpu_kernel void @war_within_raw_across(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %tid
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %t2
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %v = load i32, ptr addrspace(3) %q
  %acc.next = add i32 %acc, %v
  store i32 %acc.next, ptr addrspace(3) %p
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %acc.next, ptr addrspace(1) %o
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
