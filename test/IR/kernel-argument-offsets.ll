; A work-item's own slot at an offset that is a kernel argument:
; s[tid + (base & 255)] written and read back by the same work-item. The
; offset is the same for every work-item, so no two work-items meet: no
; barrier and no warning. The backend lowers the arguments of an
; amdgpu_kernel to invariant loads from the kernarg segment before the pass
; runs; those are as uniform as the arguments (before, such an offset
; counted as per-work-item: a barrier and a "different work-items may
; write the same LDS bytes" warning). A spir_kernel is a kernel too (its
; arguments counted as per-work-item before as well).
;
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - 2>%t.gfx942.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning %s < %t.gfx942.err
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %s -o - 2>%t.gfx1201.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning %s < %t.gfx1201.err

; CHECK-LABEL: own_slot_spir:
; CHECK-NOT: s_barrier
; CHECK: ds_{{write|store}}_b32
; CHECK-NOT: s_barrier
; CHECK: ds_{{read|load}}_b32
; CHECK-NOT: s_barrier
; CHECK-LABEL: own_slot:
; CHECK-NOT: s_barrier
; CHECK: ds_{{write|store}}_b32
; CHECK-NOT: s_barrier
; CHECK: ds_{{read|load}}_b32
; CHECK-NOT: s_barrier
; The same offset read from a per-work-item global load is not uniform.
; CHECK-LABEL: loaded_offset:
; CHECK: ds_{{write|store}}_b32
; CHECK: {{s_barrier$|s_barrier_wait -1}}
; CHECK: ds_{{read|load}}_b32
; WARN: warning: in function 'loaded_offset': amdgpu-lds-barriers: DS_WRITE_B32{{.*}}: different work-items may write the same LDS bytes

@s = internal addrspace(3) global [512 x i32] poison, align 4
define spir_kernel void @own_slot_spir(ptr addrspace(1) %out, i32 %base) #0 !reqd_work_group_size !0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %b = and i32 %base, 255
  %i = add i32 %t, %b
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %i
  store i32 %t, ptr addrspace(3) %p
  %v = load volatile i32, ptr addrspace(3) %p
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  ret void
}
define amdgpu_kernel void @own_slot(ptr addrspace(1) %out, i32 %base) #0 !reqd_work_group_size !0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %b = and i32 %base, 255
  %i = add i32 %t, %b
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %i
  store i32 %t, ptr addrspace(3) %p
  %v = load volatile i32, ptr addrspace(3) %p
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  ret void
}
define amdgpu_kernel void @loaded_offset(ptr addrspace(1) %out, ptr addrspace(1) %in) #0 !reqd_work_group_size !0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %in, i32 %t
  %base = load i32, ptr addrspace(1) %q
  %b = and i32 %base, 255
  %i = add i32 %t, %b
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %i
  store i32 %t, ptr addrspace(3) %p
  %j = xor i32 %i, 1
  %pj = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %v = load volatile i32, ptr addrspace(3) %pj
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
!0 = !{i32 256, i32 1, i32 1}
