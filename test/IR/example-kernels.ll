; The bundled example kernels as utils/run-example.sh runs them: their
; `call void @llvm.amdgcn.s.barrier()` lines deleted by sed (the workgroup
; fences stay), then compiled through the whole pipeline with the pass on
; gfx942. The pass puts back as many barriers as the hand-written code has,
; at the same points.
;
; transpose: write tile[ty][tx]; barrier (RAW: other work-items' elements);
; read tile[tx][ty]; barrier (WAR: the next matrix overwrites the tile) at
; the end of the loop body. The verifier, run after si-insert-waitcnts on
; the result, finds no race.
; RUN: sed -E '/^\s*((tail|musttail|notail) )?call void @llvm\.amdgcn\.s\.barrier\(\)/d' %S/../../utils/examples/transpose.ll > %t.transpose.ll
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %t.transpose.ll -o - | FileCheck --check-prefix=TRANSPOSE %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %t.transpose.ll -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=TRANSPOSE-VERIFY %s
;
; reduction: each halving step reads and writes a work-item's own slot
; inside `if (tid < stride)`. Without thread-index analysis that looks like
; a WAR between waves that no barrier may separate (the region is
; divergent): the placer and the verifier both report it, and the barriers
; go before each branch, never inside.
; RUN: sed -E '/^\s*((tail|musttail|notail) )?call void @llvm\.amdgcn\.s\.barrier\(\)/d' %S/../../utils/examples/reduction.ll > %t.reduction.ll
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %t.reduction.ll -o - 2>&1 | FileCheck --check-prefix=REDUCE %s

; TRANSPOSE-LABEL: transpose:
; TRANSPOSE-NOT: s_barrier
; TRANSPOSE: [[LOOP:.LBB0_[0-9]+]]: ; %loop
; TRANSPOSE-NOT: s_barrier
; TRANSPOSE: ds_write_b32
; TRANSPOSE-NOT: ds_
; TRANSPOSE: s_waitcnt lgkmcnt(0)
; TRANSPOSE-NEXT: s_barrier
; TRANSPOSE-NEXT: ds_read_b32
; TRANSPOSE-NOT: {{ds_|s_barrier}}
; TRANSPOSE: global_store_dword
; TRANSPOSE-NOT: {{ds_|s_barrier}}
; TRANSPOSE: s_waitcnt lgkmcnt(0){{[[:space:]]+}}s_barrier{{[[:space:]]+}}s_cbranch_scc1 [[LOOP]]
; TRANSPOSE-NOT: s_barrier
; TRANSPOSE: s_endpgm

; TRANSPOSE-VERIFY-NOT: {{warning|error}}

; One warning per cause: without source lines, per kind of hazard and
; object, with the count of the others.
; REDUCE: warning: {{.*}}WAR hazard on LDS{{.*}} between DS_READ2ST64_B32_gfx9 and DS_WRITE_B32_gfx9 cannot be covered: {{.*}} (and 1 more of this kind)
; REDUCE-NEXT: warning: {{.*}}WAR race on LDS{{.*}} between DS_READ2ST64_B32_gfx9 and DS_WRITE_B32_gfx9: {{.*}} (and 1 more of this kind)
; REDUCE-NOT: warning
; REDUCE-LABEL: reduce:
; REDUCE-NOT: s_barrier
; REDUCE: ds_write_b32
; REDUCE-NOT: s_barrier
; REDUCE: s_and_saveexec_b64
; REDUCE-NEXT: s_waitcnt lgkmcnt(0)
; REDUCE-NEXT: s_barrier
; REDUCE-NEXT: s_cbranch_execz
; REDUCE-NOT: s_barrier
; REDUCE: s_and_saveexec_b64
; REDUCE-NEXT: s_waitcnt lgkmcnt(0)
; REDUCE-NEXT: s_barrier
; REDUCE-NEXT: s_cbranch_execz
; REDUCE-NOT: s_barrier
; REDUCE: s_and_saveexec_b64
; REDUCE-NEXT: s_waitcnt lgkmcnt(0)
; REDUCE-NEXT: s_barrier
; REDUCE-NEXT: s_cbranch_execz
; REDUCE-NOT: s_barrier
; REDUCE: s_endpgm
