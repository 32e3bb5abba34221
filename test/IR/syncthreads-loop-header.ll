; __syncthreads() (workgroup release fence, s_barrier, acquire fence) at the
; top of a loop whose body ends with a DS store: a ping-pong loop, correctly
; synchronized by its two __syncthreads(). The store of buf0 at the end of
; iteration i is read by other waves at the top of iteration i + 1, so the
; header barrier needs the store complete: s_waitcnt lgkmcnt(0) (gfx942),
; s_wait_dscnt 0 (gfx1201) before it.
;
; Stock LLVM 22 drops that wait: the release fence becomes a soft wait, and
; SIInsertWaitcnts deletes a soft wait when nothing is pending on its first
; visit, which at the loop header is before the back-edge brings the
; pending store. The STOCK lines document the bug (this test fails when
; LLVM changes). The entry block's __syncthreads() leaves nothing pending on
; entry to the loop, which is what exposes it.
;
; With the pass, which trusts no soft wait, the header barrier gets a hard
; wait; nothing else changes (no barrier added: the kernel's own two are
; enough). On gfx1201 the verifier, run after si-insert-waitcnts, reports the
; race in the stock output and is silent on the pass's.
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - | FileCheck --check-prefix=STOCK %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %s -o - | FileCheck --check-prefix=STOCK-GFX12 %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %s -o - | FileCheck --check-prefix=GFX12 %s
; RUN: %llc -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %s -o /dev/null 2>&1 | FileCheck --check-prefix=VERIFY-STOCK %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=VERIFY-PASS %s

@buf0 = internal addrspace(3) global [256 x i32] poison, align 4
@buf1 = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()

; STOCK-LABEL: ping_pong:
; STOCK: ds_write_b32
; STOCK-NEXT: s_waitcnt lgkmcnt(0)
; STOCK-NEXT: s_barrier
; STOCK: ; =>This Inner Loop Header
; STOCK-NEXT: s_barrier
; STOCK-NEXT: ds_read_b32
; STOCK: ds_write_b32
; STOCK-NOT: ds_
; STOCK: s_waitcnt lgkmcnt(0)
; STOCK-NEXT: s_barrier
; STOCK-NEXT: ds_read_b32
; STOCK: ds_write_b32
; STOCK-NEXT: s_cbranch_scc1

; CHECK-LABEL: ping_pong:
; CHECK: ds_write_b32
; CHECK-NEXT: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NOT: s_barrier
; CHECK: [[LOOP:.LBB0_[0-9]+]]: ; %loop
; CHECK-NEXT: ; =>This Inner Loop Header
; CHECK-NEXT: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: ds_write_b32
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: ds_write_b32
; CHECK-NEXT: s_cbranch_scc1 [[LOOP]]
; CHECK-NOT: s_barrier
; CHECK: s_endpgm

; gfx1201: the header keeps the fence's wait for global loads, not the one
; for LDS; the pass's s_wait_dscnt merges with it.
; STOCK-GFX12-LABEL: ping_pong:
; STOCK-GFX12: ; =>This Inner Loop Header
; STOCK-GFX12-NEXT: s_wait_loadcnt 0x0
; STOCK-GFX12-NEXT: s_barrier_signal -1
; STOCK-GFX12-NEXT: s_barrier_wait -1

; GFX12-LABEL: ping_pong:
; GFX12: ; =>This Inner Loop Header
; GFX12-NEXT: s_wait_loadcnt_dscnt 0x0
; GFX12-NEXT: s_barrier_signal -1
; GFX12-NEXT: s_barrier_wait -1
; GFX12-NEXT: global_inv
; GFX12-NEXT: ds_load_b32
; GFX12-NOT: s_barrier_signal
; GFX12: ds_store_b32
; GFX12-NEXT: s_wait_loadcnt_dscnt 0x0
; GFX12-NEXT: s_barrier_signal -1
; GFX12-NEXT: s_barrier_wait -1
; GFX12-NOT: s_barrier_signal
; GFX12: s_cbranch_scc1
; GFX12-NOT: s_barrier_signal
; GFX12: s_endpgm

; VERIFY-STOCK: warning: {{.*}}RAW race on {{.*}} between DS_WRITE_B32_gfx9 and DS_READ_B32_gfx9
; VERIFY-PASS-NOT: race
define amdgpu_kernel void @ping_pong(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %p0 = getelementptr [256 x i32], ptr addrspace(3) @buf0, i32 0, i32 %tid
  %q0 = getelementptr [256 x i32], ptr addrspace(3) @buf0, i32 0, i32 %t2
  %p1 = getelementptr [256 x i32], ptr addrspace(3) @buf1, i32 0, i32 %tid
  %q1 = getelementptr [256 x i32], ptr addrspace(3) @buf1, i32 0, i32 %t2
  store i32 %tid, ptr addrspace(3) %p0
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %v0 = load i32, ptr addrspace(3) %q0
  %x0 = add i32 %v0, %i
  store i32 %x0, ptr addrspace(3) %p1
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %v1 = load i32, ptr addrspace(3) %q1
  %x1 = mul i32 %v1, 3
  store i32 %x1, ptr addrspace(3) %p0
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %tid, ptr addrspace(1) %o
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
