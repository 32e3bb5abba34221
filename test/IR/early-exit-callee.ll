; An early return is an early exit only in a kernel, where the waves that
; take it end (S_ENDPGM); a function returns to its caller, whose waves go
; on and may execute barriers the others pair with. The same exchange
; under `if (t < 80)` gets its barrier inside the branch in @kernel_exit,
; while in @device_exit (a callee) the window stays uncoverable and is
; reported (test/MIR/early-exit.mir has the MIR cases).
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -amdgpu-lds-barriers-in-pipeline %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN --implicit-check-not=amdgpu-lds-barriers %s < %t.err
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -amdgpu-lds-barriers-in-pipeline %s -o - 2>%t12.err | FileCheck --check-prefix=GFX12 %s
; RUN: FileCheck --check-prefix=WARN --implicit-check-not=amdgpu-lds-barriers %s < %t12.err

; WARN: warning: in function 'device_exit': amdgpu-lds-barriers: {{WAR|RAW}} hazard {{.*}} cannot be covered: every point that separates them depends on the divergent branch S_CBRANCH_EXECZ

; CHECK-LABEL: device_exit:
; CHECK: s_cbranch_execz
; CHECK-NOT: s_barrier
; CHECK: s_setpc_b64
; CHECK-LABEL: kernel_exit:
; CHECK: s_cbranch_execz [[END:.LBB[0-9_]+]]
; CHECK: ds_{{read|write}}_b32
; CHECK: s_barrier
; CHECK: ds_{{read|write}}_b32
; CHECK: [[END]]:
; CHECK-NEXT: s_endpgm
; GFX12-LABEL: device_exit:
; GFX12-NOT: s_barrier
; GFX12: s_setpc_b64
; GFX12-LABEL: kernel_exit:
; GFX12: s_cbranch_execz [[END:.LBB[0-9_]+]]
; GFX12: ds_{{load|store}}_b32
; GFX12: s_barrier_wait -1
; GFX12: ds_{{load|store}}_b32
; GFX12: [[END]]:
; GFX12-NEXT: s_endpgm

@a = internal addrspace(3) global [256 x i32] poison, align 4

define void @device_exit(i32 %x, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %t, 80
  br i1 %c, label %body, label %exit
body:
  %p = getelementptr inbounds [256 x i32], ptr addrspace(3) @a, i32 0, i32 %t
  store i32 %x, ptr addrspace(3) %p
  %u = xor i32 %t, 64
  %q = getelementptr inbounds [256 x i32], ptr addrspace(3) @a, i32 0, i32 %u
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  br label %exit
exit:
  ret void
}

define amdgpu_kernel void @kernel_exit(i32 %x, ptr addrspace(1) %out) "amdgpu-flat-work-group-size"="1,256" {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %t, 80
  br i1 %c, label %body, label %exit
body:
  %p = getelementptr inbounds [256 x i32], ptr addrspace(3) @a, i32 0, i32 %t
  store i32 %x, ptr addrspace(3) %p
  %u = xor i32 %t, 64
  %q = getelementptr inbounds [256 x i32], ptr addrspace(3) @a, i32 0, i32 %u
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  br label %exit
exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
