; Launch attributes are read as the AMDGPU backend reads them. A malformed
; "amdgpu-flat-work-group-size" ("256,64": min above max; "1,0") is ignored
; by the backend, which then allows 1024 work-items, so the pass must not
; take the kernel as single-wave; likewise a !reqd_work_group_size that is
; not three sizes in [1, 1024] with a product of at most 1024. Each gets a
; warning and the barrier a cross-wave RAW needs. A well-formed "1,64" on a
; wave64 target is one wave: no barrier, no warning; "1,2048" allows what
; the hardware does: a barrier, no warning.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %s -o %t.s 2>&1 | FileCheck --check-prefix=WARN %s
; RUN: FileCheck %s < %t.s
;
; -amdgpu-lds-barriers-workgroup-size=64 states a launch of 64 work-items
; (one wave) for every kernel without !reqd_work_group_size: a kernel's
; own metadata, even one that is ignored, comes first, and a size above
; the kernel's "amdgpu-flat-work-group-size" maximum is ignored with a
; warning.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-workgroup-size=64 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %s -o %t.64.s 2>&1 | FileCheck --check-prefix=WARN64 %s
; RUN: FileCheck --check-prefix=SIZED %s < %t.64.s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-workgroup-size=128 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %s -o /dev/null 2>&1 | FileCheck --check-prefix=WARN128 %s

@s = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()

define void @body(ptr addrspace(1) %out) alwaysinline {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %out, i32 %t
  %v = load i32, ptr addrspace(1) %g
  %p = getelementptr [256 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  store i32 %v, ptr addrspace(3) %p
  %t1 = add i32 %t, 1
  %m = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @s, i32 0, i32 %m
  %w = load i32, ptr addrspace(3) %q
  store i32 %w, ptr addrspace(1) %g
  ret void
}

; WARN: warning: {{.*}}ignoring "amdgpu-flat-work-group-size"="256,64" (the backend allows up to 1024 work-items): the workgroup may have up to 1024 work-items
; CHECK-LABEL: min_above_max:
; CHECK: s_barrier
; WARN64: warning: {{.*}}'min_above_max': amdgpu-lds-barriers: ignoring "amdgpu-flat-work-group-size"="256,64"
; SIZED-LABEL: min_above_max:
; SIZED-NOT: s_barrier
; SIZED: s_endpgm
define amdgpu_kernel void @min_above_max(ptr addrspace(1) %out) #0 {
  call void @body(ptr addrspace(1) %out)
  ret void
}

; WARN: warning: {{.*}}ignoring "amdgpu-flat-work-group-size"="1,0"
; CHECK-LABEL: zero_max:
; CHECK: s_barrier
define amdgpu_kernel void @zero_max(ptr addrspace(1) %out) #1 {
  call void @body(ptr addrspace(1) %out)
  ret void
}

; WARN: warning: {{.*}}ignoring !reqd_work_group_size (not three sizes from 1 to 1024 with a product of at most 1024)
; CHECK-LABEL: reqd_two_sizes:
; CHECK: s_barrier
; SIZED-LABEL: reqd_two_sizes:
; SIZED: s_barrier
define amdgpu_kernel void @reqd_two_sizes(ptr addrspace(1) %out) !reqd_work_group_size !0 {
  call void @body(ptr addrspace(1) %out)
  ret void
}

; WARN: warning: {{.*}}ignoring !reqd_work_group_size
; CHECK-LABEL: reqd_zero:
; CHECK: s_barrier
define amdgpu_kernel void @reqd_zero(ptr addrspace(1) %out) !reqd_work_group_size !1 {
  call void @body(ptr addrspace(1) %out)
  ret void
}

; WARN: warning: {{.*}}ignoring !reqd_work_group_size
; CHECK-LABEL: reqd_overflow:
; CHECK: s_barrier
define amdgpu_kernel void @reqd_overflow(ptr addrspace(1) %out) !reqd_work_group_size !2 {
  call void @body(ptr addrspace(1) %out)
  ret void
}

; A maximum above the hardware's (__launch_bounds__(2048)) allows every
; workgroup the backend's default does: read as 1024, without a warning.
; WARN-NOT: warning
; CHECK-LABEL: above_hardware:
; CHECK: s_barrier
; SIZED-LABEL: above_hardware:
; SIZED-NOT: s_barrier
; SIZED: s_endpgm
define amdgpu_kernel void @above_hardware(ptr addrspace(1) %out) #3 {
  call void @body(ptr addrspace(1) %out)
  ret void
}

; WARN128: warning: {{.*}}'one_wave': amdgpu-lds-barriers: ignoring -amdgpu-lds-barriers-workgroup-size (128 work-items, more than the kernel's maximum of 64): the workgroup may have up to 64 work-items
; CHECK-LABEL: one_wave:
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
define amdgpu_kernel void @one_wave(ptr addrspace(1) %out) #2 {
  call void @body(ptr addrspace(1) %out)
  ret void
}

; A valid !reqd_work_group_size of one wave: no barrier, whatever size the
; option states.
; WARN128-NOT: 'reqd_one_wave'
; SIZED-LABEL: reqd_one_wave:
; SIZED-NOT: s_barrier
; SIZED: s_endpgm
; CHECK-LABEL: reqd_one_wave:
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
define amdgpu_kernel void @reqd_one_wave(ptr addrspace(1) %out) !reqd_work_group_size !3 {
  call void @body(ptr addrspace(1) %out)
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="256,64" }
attributes #1 = { "amdgpu-flat-work-group-size"="1,0" }
attributes #2 = { "amdgpu-flat-work-group-size"="1,64" }
attributes #3 = { "amdgpu-flat-work-group-size"="1,2048" }

!0 = !{i32 64, i32 1}
!1 = !{i32 0, i32 1, i32 1}
!2 = !{i32 1024, i32 4, i32 1}
!3 = !{i32 8, i32 8, i32 1}
