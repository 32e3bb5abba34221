; The pass is a correctness pass: it runs at -O0 (fast register allocation,
; spills, no scheduling) and on optnone functions, and places the same
; barriers as at -O2.
;
; At -O0 the loop counter is spilled to a VGPR lane (V_WRITELANE) and
; reloaded with V_READLANE: the divergence rule must see that the reload is
; the uniform scalar that was spilled, or the back-edge would count as
; divergent and the loop-carried WAR as uncoverable (NOWARN).
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O0 -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O0 %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=NOWARN %s
; NOWARN-NOT: warning
; An optnone function at -O2 gets its barriers too.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - | FileCheck %s

@a = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()

; Straight-line RAW: wait and barrier between the write and the read.
; CHECK-LABEL: raw:
; CHECK-NOT: s_barrier
; CHECK: ds_write_b32
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0){{[[:space:]]+}}s_barrier{{[[:space:]]+}}ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
define amdgpu_kernel void @raw(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

; Loop-carried WAR: the kernel's own barrier orders write -> read; the pass
; adds one between the read and the back-edge. At -O0 the loop counter lives
; in a spill lane of a VGPR (v_writelane / v_readlane) and the back-edge is
; s_cbranch_vccnz on a scalar compare: still a uniform branch, so the loop
; body is a safe place for a barrier.
; CHECK-LABEL: war_across_back_edge:
; CHECK-NOT: s_barrier
; CHECK: [[LOOP:.LBB1_[0-9]+]]: ; %loop
; CHECK-NOT: s_barrier
; CHECK: ds_write_b32
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0){{[[:space:]]+}}s_barrier
; CHECK-NOT: {{ds_|s_barrier}}
; CHECK: ds_read_b32
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0){{[[:space:]]+}}s_barrier
; CHECK-NOT: {{ds_|s_barrier}}
; CHECK: s_cbranch_{{scc1|vccnz}} [[LOOP]]
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
define amdgpu_kernel void @war_across_back_edge(ptr addrspace(1) %out, i32 %n) #1 {
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

attributes #0 = { noinline optnone "amdgpu-flat-work-group-size"="1,256" }
attributes #1 = { noinline optnone "amdgpu-flat-work-group-size"="1,256" }
