; FLAT accesses that cannot reach LDS are not LDS accesses. A generic
; pointer based on a kernel's pointer argument (set up by the host, and
; disjoint from every LDS variable for AMDGPU alias analysis too), or one
; whose !noalias.addrspace excludes the LDS address space (clang marks
; volatile accesses through pointers it knows are not LDS so), touches no
; LDS. Each kernel writes tile[t], reads tile[t ^ 64] (another wave's slot:
; one barrier), then stores the value through a FLAT pointer.
;
; argument: the pointer is the kernel's argument: one barrier (before, the
;   FLAT store counted as a write of any LDS byte, which needed a second
;   barrier after the read).
; loaded_not_lds: a pointer loaded from global memory, with
;   !noalias.addrspace excluding LDS: one barrier.
; loaded: the same pointer without the metadata may point into LDS: the
;   store stays a write of any LDS byte, and gets its barrier.
;
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN --allow-empty %s < %t.err
; WARN-NOT: warning

; CHECK-LABEL: argument:
; CHECK: ds_write_b32
; CHECK: s_barrier
; CHECK: ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: flat_store_dword
; CHECK-LABEL: loaded_not_lds:
; CHECK: ds_write_b32
; CHECK: s_barrier
; CHECK: ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: flat_store_dword
; CHECK-LABEL: loaded:
; CHECK: ds_write_b32
; CHECK: s_barrier
; CHECK: ds_read_b32
; CHECK: s_barrier
; CHECK: flat_store_dword

@tile = internal addrspace(3) global [256 x float] poison, align 4

define amdgpu_kernel void @argument(ptr %out) #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %f = uitofp i32 %t to float
  %p = getelementptr float, ptr addrspace(3) @tile, i32 %t
  store float %f, ptr addrspace(3) %p
  %u = xor i32 %t, 64
  %q = getelementptr float, ptr addrspace(3) @tile, i32 %u
  %v = load float, ptr addrspace(3) %q
  %o = getelementptr float, ptr %out, i32 %t
  store volatile float %v, ptr %o
  ret void
}

define amdgpu_kernel void @loaded_not_lds(ptr addrspace(1) %table) #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %f = uitofp i32 %t to float
  %p = getelementptr float, ptr addrspace(3) @tile, i32 %t
  store float %f, ptr addrspace(3) %p
  %u = xor i32 %t, 64
  %q = getelementptr float, ptr addrspace(3) @tile, i32 %u
  %v = load float, ptr addrspace(3) %q
  %out = load ptr, ptr addrspace(1) %table
  %o = getelementptr float, ptr %out, i32 %t
  store volatile float %v, ptr %o, !noalias.addrspace !1
  ret void
}

define amdgpu_kernel void @loaded(ptr addrspace(1) %table) #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %f = uitofp i32 %t to float
  %p = getelementptr float, ptr addrspace(3) @tile, i32 %t
  store float %f, ptr addrspace(3) %p
  %u = xor i32 %t, 64
  %q = getelementptr float, ptr addrspace(3) @tile, i32 %u
  %v = load float, ptr addrspace(3) %q
  %out = load ptr, ptr addrspace(1) %table
  %o = getelementptr float, ptr %out, i32 %t
  store volatile float %v, ptr %o
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
!1 = !{i32 3, i32 4}
