; Tiled 16x16 transpose through LDS, as clang emits it for HIP
; (__shared__ float tile[16][17]; two __syncthreads()-style barriers:
; workgroup release fence, s_barrier, acquire fence). Workgroups of 256.
; utils/run-example.sh strips the barriers and lets the pass place them.
target triple = "amdgcn-amd-amdhsa"

@tile = internal addrspace(3) global [16 x [17 x float]] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare void @llvm.amdgcn.s.barrier()

define amdgpu_kernel void @transpose(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n, i32 %iters) #0 {
entry:
  %tx = call i32 @llvm.amdgcn.workitem.id.x()
  %ty = call i32 @llvm.amdgcn.workitem.id.y()
  %bx = call i32 @llvm.amdgcn.workgroup.id.x()
  %by = call i32 @llvm.amdgcn.workgroup.id.y()
  %bx16 = shl i32 %bx, 4
  %by16 = shl i32 %by, 4
  %x = add i32 %bx16, %tx
  %y = add i32 %by16, %ty
  %yn = mul i32 %y, %n
  %src = add i32 %yn, %x
  %xo = add i32 %by16, %tx
  %yo = add i32 %bx16, %ty
  %yon = mul i32 %yo, %n
  %dst = add i32 %yon, %xo
  %w = getelementptr [16 x [17 x float]], ptr addrspace(3) @tile, i32 0, i32 %ty, i32 %tx
  %r = getelementptr [16 x [17 x float]], ptr addrspace(3) @tile, i32 0, i32 %tx, i32 %ty
  %pin = getelementptr float, ptr addrspace(1) %in, i32 %src
  %pout = getelementptr float, ptr addrspace(1) %out, i32 %dst
  br label %loop

; The same tile buffer is reused every iteration: write, barrier, read
; transposed, barrier (so that the next iteration's write does not
; overwrite what slower waves still read).
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = load float, ptr addrspace(1) %pin, align 4
  store float %v, ptr addrspace(3) %w, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %t = load float, ptr addrspace(3) %r, align 4
  %o = fadd float %t, 1.0
  store float %o, ptr addrspace(1) %pout, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %iters
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
