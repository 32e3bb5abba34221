; Finding which existing barriers are redundant takes one hazard analysis
; per barrier; its only output is an analysis remark, so, as LLVM's passes
; do with such remarks, it runs only when the pass's remarks are asked for
; (or statistics are enabled). -time-passes shows whether it ran: its
; phase is "Redundant barriers (remarks)".
;
; The kernel's __syncthreads() orders nothing: each work-item reads back
; its own slot lds[t] (a 1-D launch of 256 work-items).
;
; RUN: %path_to_llc -load=%plugin -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -time-passes %s -o /dev/null 2>&1 | FileCheck --check-prefix=QUIET %s
; RUN: %path_to_llc -load=%plugin -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -time-passes -pass-remarks-analysis=amdgpu-lds-barriers %s -o /dev/null 2> %t.err
; RUN: FileCheck --check-prefix=ASKED %s < %t.err
; RUN: FileCheck --check-prefix=PHASE %s < %t.err
;
; QUIET-NOT: redundant barrier
; QUIET: AMDGPU LDS barrier placement phases
; QUIET-NOT: Redundant barriers (remarks)
; QUIET: %)  Total
; ASKED: remark: {{.*}}redundant barrier: S_BARRIER orders no conflicting LDS accesses
; PHASE: AMDGPU LDS barrier placement phases
; PHASE: Redundant barriers (remarks)

@lds = internal addrspace(3) global [256 x i32] poison, align 4
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()

define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n) !reqd_work_group_size !0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %t
  store i32 %n, ptr addrspace(3) %p
  call void @llvm.amdgcn.s.barrier()
  %v = load i32, ptr addrspace(3) %p
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  ret void
}

!0 = !{i32 256, i32 1, i32 1}
