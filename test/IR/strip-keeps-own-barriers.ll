; Under -amdgpu-lds-barriers-strip-existing the pass takes a kernel's own
; barriers out and places its own, but only where its placement covers every
; hazard: in @guarded the exchange sits under `if (t < n)`, a branch on the
; work-item that waves may take differently, so no barrier can be placed for
; it; the kernel keeps its own barrier (never less synchronization than the
; input), and a missed-optimization remark says why. @unguarded is stripped
; and gets the pass's barrier back. (The read of @flag after the join keeps
; the waves that skip the exchange from ending at once; without it the
; branch would be an early exit, whose region takes barriers: MIR/early-exit.mir.)
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-strip-existing -pass-remarks-missed=amdgpu-lds-barriers -amdgpu-lds-barriers-self-check=false %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck --check-prefix=REMARK %s < %t.err
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-strip-existing -pass-remarks-missed=amdgpu-lds-barriers -amdgpu-lds-barriers-self-check=false %s -o - 2>%t12.err | FileCheck --check-prefix=GFX12 %s
; RUN: FileCheck --check-prefix=REMARK %s < %t12.err

; REMARK-NOT: cannot be covered
; REMARK: remark: {{.*}}kept the function's own synchronization ({{[1-9][0-9]*}} instructions): without it {{[1-9][0-9]*}} hazards could not be covered
; REMARK-NOT: kept the function's own
; REMARK-NOT: cannot be covered

; CHECK-LABEL: guarded:
; CHECK: s_cbranch_execz
; CHECK: ds_write_b32
; CHECK: s_barrier
; CHECK: ds_read_b32
; CHECK-LABEL: unguarded:
; CHECK: ds_write_b32
; CHECK: s_barrier
; CHECK-NOT: s_barrier
; CHECK: ds_read_b32
; GFX12-LABEL: guarded:
; GFX12: s_cbranch_execz
; GFX12: ds_store_b32
; GFX12: s_barrier_wait
; GFX12: ds_load_b32
; GFX12-LABEL: unguarded:
; GFX12: ds_store_b32
; GFX12: s_barrier_wait
; GFX12-NOT: s_barrier_wait
; GFX12: ds_load_b32

@s = internal addrspace(3) global [256 x i32] poison, align 4
@flag = internal addrspace(3) global i32 poison, align 4

define amdgpu_kernel void @guarded(ptr addrspace(1) %out, i32 %n) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %t, %n
  br i1 %c, label %body, label %exit
body:
  %p = getelementptr inbounds [256 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  store i32 %t, ptr addrspace(3) %p
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %u = xor i32 %t, 1
  %q = getelementptr inbounds [256 x i32], ptr addrspace(3) @s, i32 0, i32 %u
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  br label %exit
exit:
  %f = load i32, ptr addrspace(3) @flag
  store i32 %f, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @unguarded(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr inbounds [256 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  store i32 %t, ptr addrspace(3) %p
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %u = xor i32 %t, 1
  %q = getelementptr inbounds [256 x i32], ptr addrspace(3) @s, i32 0, i32 %u
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
