; Whole llc pipeline on gfx942 with the pass joining after
; si-memory-legalizer: the final assembly has s_waitcnt lgkmcnt(0) and
; s_barrier between the conflicting DS instructions, at -O2 and -O0.
; RUN: %llc -amdgpu-lds-barriers -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc -amdgpu-lds-barriers -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O0 -verify-machineinstrs %s -o - | FileCheck --check-prefix=O0 %s
; Without the option the pipeline is stock: no barrier.
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %s -o - | FileCheck --check-prefix=STOCK %s

@lds = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()

; store lds[tid]; load lds[(tid + 1) & 255]: LLVM cannot prove the two
; independent, so it keeps their order; another wave's store races.
; CHECK-LABEL: raw_straight_line:
; CHECK: ds_write_b32
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_read_b32
; O0-LABEL: raw_straight_line:
; O0: ds_write_b32
; O0: s_waitcnt lgkmcnt(0)
; O0-NEXT: s_barrier
; O0: ds_read_b32
; STOCK-LABEL: raw_straight_line:
; STOCK-NOT: s_barrier
; STOCK: s_endpgm
define amdgpu_kernel void @raw_straight_line(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

; A loop that reads a neighbour's slot then writes its own: the WAR inside
; the iteration needs a barrier before the store, and the store against the
; next iteration's read (RAW across the back-edge) a second one.
; CHECK-LABEL: loop_carried:
; CHECK: [[LOOP:.LBB[0-9_]+]]:
; CHECK: ds_read_b32
; CHECK: s_waitcnt lgkmcnt(0)
; CHECK: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_write_b32
; CHECK-NEXT: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: s_cbranch_scc1 [[LOOP]]
define amdgpu_kernel void @loop_carried(ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %t2
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

; A single-wave workgroup: no barrier.
; CHECK-LABEL: single_wave:
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
define amdgpu_kernel void @single_wave(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,64" }
