; The bundled example kernels with their own barriers stripped (the fences
; and llvm.amdgcn.s.barrier calls removed by sed) compiled through the pass:
; it places as many barriers as the hand-written code has, at the same
; points, and the verifier after si-insert-waitcnts finds no race in the
; transpose. In the reduction, each step's read and write of a thread's own
; slot sit inside `if (tid < stride)`: without thread-index analysis they
; look like a WAR between waves that no barrier may separate (the region is
; divergent), so both the placer and the verifier report them.
; RUN: grep -v -e 'call void @llvm.amdgcn.s.barrier()' -e 'fence syncscope' %S/../../utils/examples/transpose.ll > %t.transpose.ll
; RUN: %llc -amdgpu-lds-barriers -amdgpu-lds-barrier-verify-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %t.transpose.ll -o - 2>&1 | FileCheck --check-prefix=TRANSPOSE %s
; RUN: grep -v -e 'call void @llvm.amdgcn.s.barrier()' -e 'fence syncscope' %S/../../utils/examples/reduction.ll > %t.reduction.ll
; RUN: %llc -amdgpu-lds-barriers -amdgpu-lds-barrier-verify-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %t.reduction.ll -o - 2>&1 | FileCheck --check-prefix=REDUCE %s

; TRANSPOSE-NOT: warning
; TRANSPOSE-LABEL: transpose:
; TRANSPOSE: .LBB0_1:
; TRANSPOSE: ds_write_b32
; TRANSPOSE-NEXT: s_waitcnt lgkmcnt(0)
; TRANSPOSE-NEXT: s_barrier
; TRANSPOSE-NEXT: ds_read_b32
; TRANSPOSE: global_store_dword
; TRANSPOSE-NEXT: s_waitcnt lgkmcnt(0)
; TRANSPOSE-NEXT: s_barrier
; TRANSPOSE-NEXT: s_cbranch_scc1 .LBB0_1
; TRANSPOSE-NOT: s_barrier
; TRANSPOSE: s_endpgm

; REDUCE: warning: {{.*}}WAR hazard on any LDS between DS_READ_B32_gfx9 and DS_WRITE_B32_gfx9 cannot be covered
; REDUCE: warning: {{.*}}WAR hazard on any LDS between DS_READ2ST64_B32_gfx9 and DS_WRITE_B32_gfx9 cannot be covered
; REDUCE: warning: {{.*}}WAR race on any LDS between DS_READ_B32_gfx9 and DS_WRITE_B32_gfx9
; REDUCE: warning: {{.*}}WAR race on any LDS between DS_READ2ST64_B32_gfx9 and DS_WRITE_B32_gfx9
; REDUCE-LABEL: reduce:
; The barriers go before each `if (tid < stride)` branch, never inside.
; REDUCE: ds_write_b32
; REDUCE-NEXT: s_and_saveexec_b64
; REDUCE-NEXT: s_waitcnt lgkmcnt(0)
; REDUCE-NEXT: s_barrier
; REDUCE-NEXT: s_cbranch_execz
; REDUCE: s_and_saveexec_b64
; REDUCE-NEXT: s_waitcnt lgkmcnt(0)
; REDUCE-NEXT: s_barrier
; REDUCE-NEXT: s_cbranch_execz
; REDUCE: s_and_saveexec_b64
; REDUCE-NEXT: s_waitcnt lgkmcnt(0)
; REDUCE-NEXT: s_barrier
; REDUCE-NEXT: s_cbranch_execz
; REDUCE-NOT: s_barrier
; REDUCE: s_endpgm
