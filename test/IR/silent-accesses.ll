; Accesses that meet no access of another work-item need no barrier, and
; the analyses that only matter where one may be are skipped: the hazard
; analysis and placement, and the branch-uniformity analysis, which visits
; every instruction. A kernel whose accesses each keep to their own
; work-item's bytes, with no barrier or wait of its own, skips both (its
; scalar branches are then taken as per-wave, which is safe whatever the
; analysis would find). -time-passes shows which phases ran: "Branch
; uniformity (in the model)" and "Analysis and placement". Those runs leave
; out the suite's -amdgpu-lds-barriers-self-check, whose verifier models
; the function again with the analysis.
;
; Launches of 256 x 1 x 1 work-items (reqd_work_group_size: with a second
; dimension, work-items with one x share lds[t]).
; silent.ll: lds[t] written and read back by the same work-item under a
; uniform branch on a kernel argument (s_cbranch_scc): skipped, no barrier.
; meets.ll: the same, but the then-arm reads the neighbour's slot
; lds[(t + 1) & 255]: the analysis must run, find the branch uniform and put
; the barrier inside the arm, between the write and the read. Had it been
; skipped, the branch would count as per-wave and the window, whole inside
; it, would be reported as uncoverable (the NOWARN run rejects that).
; synced.ll: silent accesses and a __syncthreads() of the source: both
; run (existing barriers are judged for where they stand).
; straight.ll: straight-line code, each work-item's own slots in two
; arrays: no branch to judge, placement skipped, no barrier.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %path_to_llc -load=%plugin -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -time-passes %t/silent.ll -o %t/silent.s 2>&1 | FileCheck --check-prefix=SKIPPED %s
; RUN: FileCheck --check-prefix=SILENT %s < %t/silent.s
; RUN: %path_to_llc -load=%plugin -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -time-passes %t/meets.ll -o %t/meets.s 2> %t/meets.time
; RUN: FileCheck --check-prefix=RAN %s < %t/meets.time
; RUN: FileCheck --check-prefix=PLACED %s < %t/meets.time
; RUN: FileCheck --check-prefix=MEETS %s < %t/meets.s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %t/meets.ll -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=NOWARN %s
; RUN: %path_to_llc -load=%plugin -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -time-passes %t/synced.ll -o /dev/null 2> %t/synced.time
; RUN: FileCheck --check-prefix=RAN %s < %t/synced.time
; RUN: FileCheck --check-prefix=PLACED %s < %t/synced.time
; RUN: %path_to_llc -load=%plugin -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -time-passes %t/straight.ll -o %t/straight.s 2>&1 | FileCheck --check-prefix=SKIPPED %s
; RUN: FileCheck --check-prefix=SILENT %s < %t/straight.s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %t/straight.ll -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=NOWARN %s
;
; SKIPPED: AMDGPU LDS barrier placement phases
; SKIPPED: --- Name ---
; SKIPPED-NOT: {{Branch uniformity|Analysis and placement}}
; SKIPPED: Access model
; SKIPPED-NOT: {{Branch uniformity|Analysis and placement}}
; SKIPPED: %)  Total
; RAN: AMDGPU LDS barrier placement phases
; RAN: Branch uniformity (in the model)
; PLACED: AMDGPU LDS barrier placement phases
; PLACED: Analysis and placement
; NOWARN-NOT: warning
; NOWARN-NOT: error
;
; SILENT-LABEL: k:
; SILENT-NOT: s_barrier
; SILENT: s_endpgm
;
; MEETS-LABEL: k:
; MEETS: s_cbranch_scc
; MEETS: %then
; MEETS-NOT: %join
; MEETS: ds_write_b32 v{{[0-9]+}}, v{{[0-9]+}}{{$}}
; MEETS-NOT: %join
; MEETS: s_barrier
; MEETS-NEXT: ds_read_b32
; MEETS-NEXT: %join

;--- silent.ll
@lds = internal addrspace(3) global [512 x i32] poison, align 4
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n) !reqd_work_group_size !0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %then, label %else
then:
  %p = getelementptr [512 x i32], ptr addrspace(3) @lds, i32 0, i32 %t
  store i32 %n, ptr addrspace(3) %p
  %v = load i32, ptr addrspace(3) %p
  br label %join
else:
  %t2 = add i32 %t, 256
  %q = getelementptr [512 x i32], ptr addrspace(3) @lds, i32 0, i32 %t2
  store i32 %t, ptr addrspace(3) %q
  %w = load i32, ptr addrspace(3) %q
  br label %join
join:
  %r = phi i32 [ %v, %then ], [ %w, %else ]
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %r, ptr addrspace(1) %o
  ret void
}

!0 = !{i32 256, i32 1, i32 1}

;--- meets.ll
@lds = internal addrspace(3) global [512 x i32] poison, align 4
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n) !reqd_work_group_size !0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %then, label %else
then:
  %p = getelementptr [512 x i32], ptr addrspace(3) @lds, i32 0, i32 %t
  store i32 %n, ptr addrspace(3) %p
  %t1 = add i32 %t, 1
  %m = and i32 %t1, 255
  %pn = getelementptr [512 x i32], ptr addrspace(3) @lds, i32 0, i32 %m
  %v = load i32, ptr addrspace(3) %pn
  br label %join
else:
  %t2 = add i32 %t, 256
  %q = getelementptr [512 x i32], ptr addrspace(3) @lds, i32 0, i32 %t2
  store i32 %t, ptr addrspace(3) %q
  %w = load i32, ptr addrspace(3) %q
  br label %join
join:
  %r = phi i32 [ %v, %then ], [ %w, %else ]
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %r, ptr addrspace(1) %o
  ret void
}

!0 = !{i32 256, i32 1, i32 1}

;--- synced.ll
@lds = internal addrspace(3) global [512 x i32] poison, align 4
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()

define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n) !reqd_work_group_size !0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [512 x i32], ptr addrspace(3) @lds, i32 0, i32 %t
  store i32 %n, ptr addrspace(3) %p
  call void @llvm.amdgcn.s.barrier()
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %then, label %join
then:
  %v = load i32, ptr addrspace(3) %p
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  br label %join
join:
  ret void
}

!0 = !{i32 256, i32 1, i32 1}

;--- straight.ll
@a = internal addrspace(3) global [256 x i32] poison, align 4
@b = internal addrspace(3) global [256 x i32] poison, align 4
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n) !reqd_work_group_size !0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %t
  %q = getelementptr [256 x i32], ptr addrspace(3) @b, i32 0, i32 %t
  store i32 %n, ptr addrspace(3) %p
  store i32 %t, ptr addrspace(3) %q
  %v = load i32, ptr addrspace(3) %p
  %w = load i32, ptr addrspace(3) %q
  %s = add i32 %v, %w
  store i32 %s, ptr addrspace(3) %p
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %s, ptr addrspace(1) %o
  ret void
}

!0 = !{i32 256, i32 1, i32 1}
