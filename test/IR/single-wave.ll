; A workgroup that fits in one wave has no other wave to race with: the pass
; inserts no barrier there. The bound is the subtarget's wave size: 64
; work-items are one wave on gfx942 (wave64) but two on gfx1030 (wave32).
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -O2 -verify-machineinstrs %s -o - | FileCheck --check-prefix=WAVE32 %s

@a = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()

; "amdgpu-flat-work-group-size"="1,64": one wave64.
; CHECK-LABEL: flat_wg_size_64:
; CHECK: ds_write_b32
; CHECK-NOT: s_barrier
; CHECK: ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
; WAVE32-LABEL: flat_wg_size_64:
; WAVE32: ds_write_b32
; WAVE32-NOT: ds_
; WAVE32: s_waitcnt lgkmcnt(0)
; WAVE32-NEXT: s_barrier
; WAVE32-NEXT: ds_read_b32
define amdgpu_kernel void @flat_wg_size_64(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 63
  %q = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

; reqd_work_group_size 16 x 4 x 1 = 64 work-items: one wave64.
; CHECK-LABEL: reqd_wg_size_64:
; CHECK: ds_write_b32
; CHECK-NOT: s_barrier
; CHECK: ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
; WAVE32-LABEL: reqd_wg_size_64:
; WAVE32: ds_write_b32
; WAVE32-NOT: ds_
; WAVE32: s_waitcnt lgkmcnt(0)
; WAVE32-NEXT: s_barrier
; WAVE32-NEXT: ds_read_b32
define amdgpu_kernel void @reqd_wg_size_64(ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 15
  %q = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

; One work-item more than a wave: a barrier.
; CHECK-LABEL: flat_wg_size_65:
; CHECK: ds_write_b32
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_read_b32
; WAVE32-LABEL: flat_wg_size_65:
; WAVE32: s_barrier
define amdgpu_kernel void @flat_wg_size_65(ptr addrspace(1) %out) #1 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 127
  %q = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,64" }
attributes #1 = { "amdgpu-flat-work-group-size"="1,65" }

!0 = !{i32 16, i32 4, i32 1}
