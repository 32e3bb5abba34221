; Functions that are not kernels get no barrier: one called only under a
; divergent condition would make the waves that skip the call pair their
; later barriers wrongly, and one called between the caller's own
; s_barrier_signal and s_barrier_wait would break the alternation of split
; barriers. Their hazards are reported; the kernel still synchronizes around
; the call (an opaque access).
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o %t.942.s 2>&1 | FileCheck --check-prefix=WARN %s
; RUN: FileCheck --check-prefix=GFX9 %s < %t.942.s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %s -o %t.1201.s 2>&1 | FileCheck --check-prefix=WARN %s
; RUN: FileCheck --check-prefix=GFX12 %s < %t.1201.s

@s = internal addrspace(3) global [256 x i32] poison, align 4
@s2 = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier.signal(i32)
declare void @llvm.amdgcn.s.barrier.wait(i16)

; WARN: warning: {{.*}}RAW hazard on {{.*}} cannot be covered: the function is not a kernel
; GFX9-LABEL: neighbour_swap:
; GFX9-NOT: s_barrier
; GFX9: s_setpc_b64
; GFX12-LABEL: neighbour_swap:
; GFX12-NOT: s_barrier
; GFX12: s_setpc_b64
define internal void @neighbour_swap(i32 %t, i32 %v, ptr addrspace(1) %g) noinline {
  %p = getelementptr [256 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  store i32 %v, ptr addrspace(3) %p
  %x = xor i32 %t, 1
  %q = getelementptr [256 x i32], ptr addrspace(3) @s, i32 0, i32 %x
  %w = load i32, ptr addrspace(3) %q
  store i32 %w, ptr addrspace(1) %g
  ret void
}

; The call is under if (t < 64); the kernel's own RAW on s2 gets its barrier
; after the join, where every wave runs it.
; GFX9-LABEL: divergent_call:
; GFX9: s_swappc_b64
; GFX9: s_barrier
; GFX9: ds_write_b32
; GFX9: s_barrier
; GFX9: ds_read_b32
define amdgpu_kernel void @divergent_call(ptr addrspace(1) %out) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %out, i32 %t
  %v = load i32, ptr addrspace(1) %g
  %c = icmp ult i32 %t, 64
  br i1 %c, label %then, label %join
then:
  call void @neighbour_swap(i32 %t, i32 %v, ptr addrspace(1) %g)
  br label %join
join:
  %p2 = getelementptr [256 x i32], ptr addrspace(3) @s2, i32 0, i32 %t
  store i32 %v, ptr addrspace(3) %p2
  %t64 = add i32 %t, 64
  %m = and i32 %t64, 255
  %q2 = getelementptr [256 x i32], ptr addrspace(3) @s2, i32 0, i32 %m
  %r = load i32, ptr addrspace(3) %q2
  %g2 = getelementptr i32, ptr addrspace(1) %g, i32 1024
  store i32 %r, ptr addrspace(1) %g2
  ret void
}

; gfx12: the call sits between the kernel's signal and wait; the callee
; must not signal again.
; GFX12-LABEL: call_in_split_window:
; GFX12: s_barrier_signal -1
; GFX12-NOT: s_barrier
; GFX12: s_swappc_b64
; GFX12-NOT: s_barrier_signal
; GFX12: s_barrier_wait -1
define amdgpu_kernel void @call_in_split_window(ptr addrspace(1) %out) #1 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %out, i32 %t
  %v = load i32, ptr addrspace(1) %g
  call void @llvm.amdgcn.s.barrier.signal(i32 -1)
  call void @neighbour_swap(i32 %t, i32 %v, ptr addrspace(1) %g)
  call void @llvm.amdgcn.s.barrier.wait(i16 -1)
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
attributes #1 = { "amdgpu-flat-work-group-size"="1,256" "target-cpu"="gfx1201" }
