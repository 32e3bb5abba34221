; A software-pipelined loop on gfx942 with triple buffering, unrolled by
; three: each step waits for its tile, synchronizes, issues the LDS DMA of
; the tile two steps ahead into the buffer read one step ago, and reads its
; tile. At each barrier the DMA issued one step ago may stay in flight:
; vmcnt(1), where a conservative pass would wait for vmcnt(0). The reads are
; volatile so that llc keeps them apart; LDS lowering's alias scopes tell the
; three buffers apart.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - | FileCheck %s

@buf0 = internal addrspace(3) global [256 x i32] poison, align 4
@buf1 = internal addrspace(3) global [256 x i32] poison, align 4
@buf2 = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.global.load.lds(ptr addrspace(1), ptr addrspace(3), i32, i32, i32)

; CHECK-LABEL: pipelined:
; CHECK: [[LOOP:.LBB[0-9_]+]]:
; CHECK: s_waitcnt vmcnt(1)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: global_load_lds_dword
; CHECK: ds_read_b32
; CHECK: s_waitcnt vmcnt(1)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: global_load_lds_dword
; CHECK: ds_read_b32
; CHECK: s_waitcnt vmcnt(1)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: global_load_lds_dword
; CHECK: ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: s_cbranch_scc1 [[LOOP]]
define amdgpu_kernel void @pipelined(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %g0 = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %g0, ptr addrspace(3) @buf0, i32 4, i32 0, i32 0)
  %o1 = add i32 %tid, 256
  %g1 = getelementptr i32, ptr addrspace(1) %in, i32 %o1
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %g1, ptr addrspace(3) @buf1, i32 4, i32 0, i32 0)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc3, %loop ]
  %s0 = add i32 %i, 2
  %off0 = mul i32 %s0, 256
  %gi0 = add i32 %off0, %tid
  %ga0 = getelementptr i32, ptr addrspace(1) %in, i32 %gi0
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %ga0, ptr addrspace(3) @buf2, i32 4, i32 0, i32 0)
  %q0 = getelementptr [256 x i32], ptr addrspace(3) @buf0, i32 0, i32 %t2
  %v0 = load volatile i32, ptr addrspace(3) %q0
  %acc1 = add i32 %acc, %v0
  %s1 = add i32 %i, 3
  %off1 = mul i32 %s1, 256
  %gi1 = add i32 %off1, %tid
  %ga1 = getelementptr i32, ptr addrspace(1) %in, i32 %gi1
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %ga1, ptr addrspace(3) @buf0, i32 4, i32 0, i32 0)
  %q1 = getelementptr [256 x i32], ptr addrspace(3) @buf1, i32 0, i32 %t2
  %v1 = load volatile i32, ptr addrspace(3) %q1
  %acc2 = add i32 %acc1, %v1
  %s2 = add i32 %i, 4
  %off2 = mul i32 %s2, 256
  %gi2 = add i32 %off2, %tid
  %ga2 = getelementptr i32, ptr addrspace(1) %in, i32 %gi2
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %ga2, ptr addrspace(3) @buf1, i32 4, i32 0, i32 0)
  %q2 = getelementptr [256 x i32], ptr addrspace(3) @buf2, i32 0, i32 %t2
  %v2 = load volatile i32, ptr addrspace(3) %q2
  %acc3 = add i32 %acc2, %v2
  %i.next = add i32 %i, 3
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %acc3, ptr addrspace(1) %o
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
