; gfx12: an existing signal/wait pair whose consumer sits between the
; signal and the wait does not order it. The only point that separates the
; store from the load outside the pending stretch is right after the store,
; before the existing signal: the pass puts a whole pair there (and the
; store's dscnt wait before it) instead of reporting the hazard as
; uncoverable.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %s -o - 2>&1 | FileCheck %s --implicit-check-not=warning

@s = internal addrspace(3) global [256 x i32] poison, align 4
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier.signal(i32)
declare void @llvm.amdgcn.s.barrier.wait(i16)

; CHECK-LABEL: consumer_between:
; CHECK: ds_store_b32
; CHECK-NEXT: s_wait_dscnt 0x0
; CHECK-NEXT: s_barrier_signal -1
; CHECK-NEXT: s_wait_dscnt 0x0
; CHECK-NEXT: s_barrier_wait -1
; CHECK-NEXT: s_barrier_signal -1
; CHECK-NOT: s_barrier
; CHECK: ds_load_b32
; CHECK-NEXT: s_barrier_wait -1
define amdgpu_kernel void @consumer_between(ptr addrspace(1) %o) #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  store i32 %t, ptr addrspace(3) %p
  call void @llvm.amdgcn.s.barrier.signal(i32 -1)
  %t1 = add i32 %t, 1
  %m = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @s, i32 0, i32 %m
  %v = load i32, ptr addrspace(3) %q
  call void @llvm.amdgcn.s.barrier.wait(i16 -1)
  %g = getelementptr i32, ptr addrspace(1) %o, i32 %t
  store i32 %v, ptr addrspace(1) %g
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
