; Block sum reduction over 256 work-items in LDS (a tree of halving
; steps, unrolled), as clang emits it for HIP with __syncthreads() between
; the steps. Steps only read/write slots below the stride; index-blind
; analysis treats each step as a hazard on the whole array.
target triple = "amdgcn-amd-amdhsa"

@sdata = internal addrspace(3) global [256 x float] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()

define amdgpu_kernel void @reduce(ptr addrspace(1) %out, ptr addrspace(1) %in) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %bid = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %bid, 8
  %gi = add i32 %base, %tid
  %pin = getelementptr float, ptr addrspace(1) %in, i32 %gi
  %v = load float, ptr addrspace(1) %pin, align 4
  %s = getelementptr [256 x float], ptr addrspace(3) @sdata, i32 0, i32 %tid
  store float %v, ptr addrspace(3) %s, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  br label %step128

step128:
  %c128 = icmp ult i32 %tid, 128
  br i1 %c128, label %do128, label %after128
do128:
  %o128 = add i32 %tid, 128
  %p128 = getelementptr [256 x float], ptr addrspace(3) @sdata, i32 0, i32 %o128
  %a128 = load float, ptr addrspace(3) %p128, align 4
  %b128 = load float, ptr addrspace(3) %s, align 4
  %r128 = fadd float %a128, %b128
  store float %r128, ptr addrspace(3) %s, align 4
  br label %after128
after128:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %c64 = icmp ult i32 %tid, 64
  br i1 %c64, label %do64, label %after64
do64:
  %o64 = add i32 %tid, 64
  %p64 = getelementptr [256 x float], ptr addrspace(3) @sdata, i32 0, i32 %o64
  %a64 = load float, ptr addrspace(3) %p64, align 4
  %b64 = load float, ptr addrspace(3) %s, align 4
  %r64 = fadd float %a64, %b64
  store float %r64, ptr addrspace(3) %s, align 4
  br label %after64
after64:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %c0 = icmp eq i32 %tid, 0
  br i1 %c0, label %write, label %exit
write:
  %z = getelementptr [256 x float], ptr addrspace(3) @sdata, i32 0, i32 0
  %sum = load float, ptr addrspace(3) %z, align 4
  %pout = getelementptr float, ptr addrspace(1) %out, i32 %bid
  store float %sum, ptr addrspace(1) %pout, align 4
  br label %exit
exit:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
