; A branch on a per-wave value whose arms end the kernel each: the
; structurizer leaves them apart, so waves that take different arms run
; them at the same time with no path between them (test/MIR/concurrent-arms.mir
; has the MIR form and the oracle's run).
;
; early_ret: the first wave writes s[0] and leaves, the others read s[0]:
;   a race no barrier can fix, reported by the placer and by the checker.
; early_ret_own_slot: each work-item of a 1-D launch touches its own s[t]:
;   the arms never meet, nothing is reported.
;
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - 2>&1 | FileCheck --implicit-check-not=warning --check-prefixes=PLACER,CHECK %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %s -o - 2>&1 | FileCheck --implicit-check-not=warning --check-prefixes=PLACER,CHECK %s
; RUN: %llc -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %s -o /dev/null 2>&1 | FileCheck --implicit-check-not=warning --check-prefix=CHECKER %s
; RUN: %llc -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -O2 %s -o /dev/null 2>&1 | FileCheck --implicit-check-not=warning --check-prefix=CHECKER %s

; PLACER: warning: in function 'early_ret': amdgpu-lds-barriers: WAR hazard on LDS[0, 4) between DS_READ_B32_gfx9 and DS_WRITE_B32_gfx9 cannot be covered: they are in different arms of the branch S_CBRANCH_SCC0 in bb.0, whose condition may differ between the waves of one workgroup
; CHECKER: warning: in function 'early_ret': amdgpu-lds-barriers: WAR race on LDS[0, 4) between DS_READ_B32_gfx9 and DS_WRITE_B32_gfx9: they are in different arms of the branch in bb.0, which waves of one workgroup may take differently and then run at the same time

; CHECK-LABEL: early_ret:
; CHECK-NOT: s_barrier
; CHECK-LABEL: early_ret_own_slot:
; CHECK-NOT: s_barrier
; CHECK: .end_amdhsa_kernel

@s = internal addrspace(3) global [256 x i32] poison, align 4

define amdgpu_kernel void @early_ret(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %w = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %tid)
  %c = icmp eq i32 %w, 0
  br i1 %c, label %first, label %others
first:
  store i32 1, ptr addrspace(3) @s
  ret void
others:
  %v = load i32, ptr addrspace(3) @s
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @early_ret_own_slot(ptr addrspace(1) %out) "amdgpu-flat-work-group-size"="1,256" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %w = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %tid)
  %c = icmp eq i32 %w, 0
  %slot = getelementptr i32, ptr addrspace(3) @s, i32 %tid
  br i1 %c, label %first, label %others
first:
  store i32 1, ptr addrspace(3) %slot
  ret void
others:
  %v = load i32, ptr addrspace(3) %slot
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
