; __syncthreads() (workgroup release fence, s_barrier, acquire fence) at the
; top of a loop whose body ends with a DS store. On gfx1201 stock LLVM 22
; drops the LDS wait before the signal: SIInsertWaitcnts deletes the soft
; wait on its first visit, before the back-edge brings the pending store
; (STOCK lines document it; the test fails when LLVM changes). With the pass
; the signal gets a hard s_wait_dscnt 0, and the verifier, run after
; si-insert-waitcnts, is silent; on the stock output it reports the race.
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 %s -o - | FileCheck --check-prefix=STOCK %s
; RUN: %llc -amdgpu-lds-barriers -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc -amdgpu-lds-barrier-verify-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 %s -o /dev/null 2>&1 | FileCheck --check-prefix=VERIFY-STOCK %s
; RUN: %llc -amdgpu-lds-barriers -amdgpu-lds-barrier-verify-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=VERIFY-PASS %s

@lds = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()

; STOCK-LABEL: loop_header_sync:
; STOCK: .LBB0_1:
; STOCK-NOT: s_wait_dscnt
; STOCK: s_barrier_signal -1
; CHECK-LABEL: loop_header_sync:
; CHECK: .LBB0_1:
; CHECK: s_wait_dscnt 0x0
; CHECK-NEXT: s_barrier_signal -1
; CHECK: s_barrier_wait -1
; CHECK-NOT: ds_
; CHECK: ds_load_b32
; VERIFY-STOCK: warning: {{.*}}RAW race on {{.*}} between DS_WRITE_B32_gfx9 and DS_READ_B32_gfx9
; VERIFY-PASS-NOT: race
define amdgpu_kernel void @loop_header_sync(ptr addrspace(1) %out, i32 %n) {
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
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
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
