; Batched 16x16-tiled matrix transpose through LDS, in the shape clang-22
; emits for this HIP kernel (-O2, device side; names tidied by hand):
;
;   __global__ __launch_bounds__(256) void
;   transpose(float *out, const float *in, int width, int height, int batch) {
;     __shared__ float tile[16][17];              // +1: no bank conflicts
;     unsigned tx = threadIdx.x, ty = threadIdx.y;
;     unsigned bx = blockIdx.x * 16, by = blockIdx.y * 16;
;     for (int b = 0; b < batch; ++b) {           // one tile per matrix
;       const float *src = in + (long)b * width * height;
;       float *dst = out + (long)b * width * height;
;       tile[ty][tx] = src[(by + ty) * width + bx + tx];
;       __syncthreads();                          // RAW: tile written by others
;       dst[(bx + ty) * height + by + tx] = tile[tx][ty];
;       __syncthreads();                          // WAR: next matrix overwrites
;     }
;   }
;
; __syncthreads() is a workgroup release fence, s_barrier, acquire fence.
; utils/run-example.sh deletes the `call void @llvm.amdgcn.s.barrier()` lines
; (the fences stay) and lets amdgpu-lds-barriers put the barriers back;
; test/IR/example-kernels.ll checks where they go.
target triple = "amdgcn-amd-amdhsa"

@tile = internal unnamed_addr addrspace(3) global [16 x [17 x float]] undef, align 16

define amdgpu_kernel void @transpose(ptr addrspace(1) noundef writeonly captures(none) %out, ptr addrspace(1) noundef readonly captures(none) %in, i32 noundef %width, i32 noundef %height, i32 noundef %batch) #0 {
entry:
  %nonempty = icmp sgt i32 %batch, 0
  br i1 %nonempty, label %preheader, label %exit

preheader:
  %wg.y = tail call i32 @llvm.amdgcn.workgroup.id.y()
  %by = shl i32 %wg.y, 4
  %wg.x = tail call i32 @llvm.amdgcn.workgroup.id.x()
  %bx = shl i32 %wg.x, 4
  %ty = tail call i32 @llvm.amdgcn.workitem.id.y()
  %tx = tail call i32 @llvm.amdgcn.workitem.id.x()
  %width64 = sext i32 %width to i64
  %height64 = sext i32 %height to i64
  %matrix = mul nsw i64 %height64, %width64
  %row.in = add i32 %by, %ty
  %row.in.off = mul i32 %width, %row.in
  %col.in = add i32 %bx, %tx
  %idx.in = add i32 %col.in, %row.in.off
  %idx.in64 = zext i32 %idx.in to i64
  %src0 = getelementptr float, ptr addrspace(1) %in, i64 %idx.in64
  %tile.row.w = getelementptr inbounds nuw [17 x float], ptr addrspace(3) @tile, i32 %ty
  %tile.w = getelementptr inbounds nuw float, ptr addrspace(3) %tile.row.w, i32 %tx
  %tile.row.r = getelementptr inbounds nuw [17 x float], ptr addrspace(3) @tile, i32 %tx
  %tile.r = getelementptr inbounds nuw float, ptr addrspace(3) %tile.row.r, i32 %ty
  %row.out = add i32 %bx, %ty
  %row.out.off = mul i32 %height, %row.out
  %col.out = add i32 %by, %tx
  %idx.out = add i32 %col.out, %row.out.off
  %idx.out64 = zext i32 %idx.out to i64
  %dst0 = getelementptr float, ptr addrspace(1) %out, i64 %idx.out64
  br label %loop

loop:
  %b = phi i32 [ 0, %preheader ], [ %b.next, %loop ]
  %b64 = zext nneg i32 %b to i64
  %base = mul i64 %matrix, %b64
  %src = getelementptr float, ptr addrspace(1) %src0, i64 %base
  %v = load float, ptr addrspace(1) %src, align 4, !tbaa !0
  store float %v, ptr addrspace(3) %tile.w, align 4, !tbaa !0
  fence syncscope("workgroup") release
  tail call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %t = load float, ptr addrspace(3) %tile.r, align 4, !tbaa !0
  %dst = getelementptr float, ptr addrspace(1) %dst0, i64 %base
  store float %t, ptr addrspace(1) %dst, align 4, !tbaa !0
  fence syncscope("workgroup") release
  tail call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %b.next = add nuw nsw i32 %b, 1
  %done = icmp eq i32 %b.next, %batch
  br i1 %done, label %exit, label %loop, !llvm.loop !3

exit:
  ret void
}

declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x()
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.y()
declare noundef i32 @llvm.amdgcn.workgroup.id.x()
declare noundef i32 @llvm.amdgcn.workgroup.id.y()
declare void @llvm.amdgcn.s.barrier() #1

attributes #0 = { convergent mustprogress nofree norecurse nounwind "amdgpu-flat-work-group-size"="1,256" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress nocallback nofree nounwind willreturn }

!0 = !{!1, !1, i64 0}
!1 = !{!"float", !2, i64 0}
!2 = !{!"omnipotent char", !4, i64 0}
!3 = distinct !{!3, !5}
!4 = !{!"Simple C++ TBAA"}
!5 = !{!"llvm.loop.mustprogress"}
