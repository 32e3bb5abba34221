; Alias-scope metadata from restrict arguments and the inliner says that two
; accesses of ONE work-item do not alias; it says nothing about two
; work-items. Work-item 64 (wave 1) writes s[64] while work-item 63 (wave 0)
; reads s[(63 + 1) & 255]: a barrier is needed between the two accesses,
; whatever order llc chose for them (the scopes let it swap them). The scopes
; that module-LDS lowering gives to distinct variables do separate accesses
; of every work-item: no barrier between a[t] and b[(t + 1) & 63].
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %s -o - | FileCheck --check-prefix=GFX12 %s

@s = internal addrspace(3) global [256 x i32] poison, align 4
@a = internal addrspace(3) global [64 x i32] poison, align 4
@b = internal addrspace(3) global [64 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()

; CHECK-LABEL: restrict_scopes:
; CHECK: ds_{{read|write}}_b32
; CHECK-NOT: ds_
; CHECK: s_barrier
; CHECK-NOT: ds_
; CHECK: ds_{{read|write}}_b32
; GFX12-LABEL: restrict_scopes:
; GFX12: ds_{{load|store}}_b32
; GFX12-NOT: ds_
; GFX12: s_barrier_signal -1
; GFX12-NOT: ds_
; GFX12: s_barrier_wait -1
; GFX12-NOT: ds_
; GFX12: ds_{{load|store}}_b32
define amdgpu_kernel void @restrict_scopes(ptr addrspace(1) %out) #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %out, i32 %t
  %v = load i32, ptr addrspace(1) %g
  %dst = getelementptr [256 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  store i32 %v, ptr addrspace(3) %dst, !alias.scope !1, !noalias !4
  %t1 = add i32 %t, 1
  %m = and i32 %t1, 255
  %src = getelementptr [256 x i32], ptr addrspace(3) @s, i32 0, i32 %m
  %w = load i32, ptr addrspace(3) %src, !alias.scope !4, !noalias !1
  store i32 %w, ptr addrspace(1) %g
  ret void
}

; CHECK-LABEL: two_variables:
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
; GFX12-LABEL: two_variables:
; GFX12-NOT: s_barrier
; GFX12: s_endpgm
define amdgpu_kernel void @two_variables(ptr addrspace(1) %out) #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %ta = and i32 %t, 63
  %pa = getelementptr [64 x i32], ptr addrspace(3) @a, i32 0, i32 %ta
  store i32 %t, ptr addrspace(3) %pa
  %t1 = add i32 %t, 1
  %m = and i32 %t1, 63
  %pb = getelementptr [64 x i32], ptr addrspace(3) @b, i32 0, i32 %m
  %w = load i32, ptr addrspace(3) %pb
  %g = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %w, ptr addrspace(1) %g
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }

; What the inliner makes of two restrict arguments of an inlined callee.
!0 = distinct !{!0, !"callee"}
!1 = !{!2}
!2 = distinct !{!2, !0, !"callee: %dst"}
!3 = distinct !{!3, !0, !"callee: %src"}
!4 = !{!3}
