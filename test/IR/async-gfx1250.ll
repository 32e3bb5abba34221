; gfx1250 async loads to LDS through the whole pipeline. LLVM 22 inserts no
; wait for them at all, not even before the issuing wave's own read (STOCK).
; With the pass: across waves, s_wait_asynccnt before the signal; in a
; single-wave workgroup, only s_wait_asynccnt before the read.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1250 -O2 -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1250 -O2 %s -o - | FileCheck --check-prefix=STOCK %s

@lds = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.global.load.async.to.lds.b32(ptr addrspace(1), ptr addrspace(3), i32, i32)

; CHECK-LABEL: multi_wave:
; CHECK: global_load_async_to_lds_b32
; CHECK-NEXT: s_wait_asynccnt 0x0
; CHECK-NEXT: s_barrier_signal -1
; CHECK: s_barrier_wait -1
; CHECK-NEXT: ds_load_b32
; STOCK-LABEL: multi_wave:
; STOCK-NOT: s_wait_asynccnt
; STOCK: ds_load_b32
define amdgpu_kernel void @multi_wave(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %l = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  call void @llvm.amdgcn.global.load.async.to.lds.b32(ptr addrspace(1) %g, ptr addrspace(3) %l, i32 0, i32 0)
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

; CHECK-LABEL: single_wave:
; CHECK: global_load_async_to_lds_b32
; CHECK: s_wait_asynccnt 0x0
; CHECK-NEXT: ds_load_b32
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
; STOCK-LABEL: single_wave:
; STOCK-NOT: s_wait_asynccnt
; STOCK: ds_load_b32
define amdgpu_kernel void @single_wave(ptr addrspace(1) %in, ptr addrspace(1) %out) #1 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %l = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  call void @llvm.amdgcn.global.load.async.to.lds.b32(ptr addrspace(1) %g, ptr addrspace(3) %l, i32 0, i32 0)
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 31
  %q = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
attributes #1 = { "amdgpu-flat-work-group-size"="1,32" }
