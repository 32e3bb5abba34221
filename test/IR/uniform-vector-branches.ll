; Workgroup-uniform branches that LLVM lowers through the vector unit: a
; V_CMP of scalar (kernel-argument) values whose lane mask, ANDed with EXEC,
; feeds S_CBRANCH_VCCNZ. The mask is all active lanes or none in every wave,
; and the same in every wave, so the branch is uniform and barriers may go
; inside it. The pass must place them there and report nothing.
;
; Three shapes:
;  - a loop with a 64-bit (size_t) trip count: `k < count` is V_CMP_LT_U64
;    on every target here (no 64-bit scalar less-than);
;  - a float compare of two kernel arguments: V_CMP_NGT_F32 on gfx942 and
;    gfx1030 (gfx12 has S_CMP_NGT_F32, so there it is an SCC branch);
;  - `if (flag == 1)` inside a loop, with the compare hoisted to the
;    preheader: the i1 lives across the loop as S_CSELECT -> V_CNDMASK_B32 ->
;    V_CMP_NE_U32 (pinned by the SHAPE run).
;
; Before vector compares of uniform values were recognised, each of these
; branches counted as per-wave: no barrier was placed in the loop bodies or
; in the float branch, and every hazard there was reported as "cannot be
; covered". The NOWARN runs and the barrier CHECK lines fail on that output.
; The in-pipeline verifier (after si-insert-waitcnts) must agree that the
; barriers are reached by the whole workgroup and that no race is left.
;
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -stop-after=si-memory-legalizer %s -o - | FileCheck --check-prefix=SHAPE %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - 2>/dev/null | FileCheck --check-prefixes=CHECK,GFX9 %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -O2 -verify-machineinstrs %s -o - 2>/dev/null | FileCheck --check-prefixes=CHECK,GFX10 %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %s -o - 2>/dev/null | FileCheck --check-prefix=GFX12 %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1250 -O2 -verify-machineinstrs %s -o - 2>/dev/null | FileCheck --check-prefix=GFX12 %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=NOWARN %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -O2 %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=NOWARN %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=NOWARN %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1250 -O2 %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=NOWARN %s
; NOWARN-NOT: warning
; NOWARN-NOT: error

@tile = internal addrspace(3) global [256 x float] poison, align 4
@slots = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()

; for (size_t k = 0; k < count; ++k) { tile[t] = src[k*256+t];
;   sum += tile[(t+1)&255]; }
; RAW from the write to the read, and WAR from the read to the next
; iteration's write: two barriers in the body, the second just before the
; back-edge.
; The count is copied to a VGPR pair and compared there.
; SHAPE-LABEL: name: size_t_trip_count
; SHAPE: $vgpr[[N:[0-9]+_vgpr[0-9]+]] = V_MOV_B64_e32 killed $sgpr{{[0-9]+_sgpr[0-9]+}}
; SHAPE: V_CMP_LT_U64_e32 $sgpr{{[0-9]+_sgpr[0-9]+}}, $vgpr[[N]], implicit-def $vcc
; SHAPE: $vcc = S_AND_B64 $exec, killed renamable $vcc
; SHAPE: S_CBRANCH_VCCNZ
; CHECK-LABEL: size_t_trip_count:
; CHECK-NOT: s_barrier
; CHECK: [[LOOP:.LBB0_[0-9]+]]: ; %body
; CHECK-NOT: s_barrier
; GFX9: v_cmp_lt_u64_e32 vcc
; GFX10: v_cmp_lt_u64_e64 [[C:s[0-9]+]]
; GFX10: s_and_b32 vcc_lo, exec_lo, [[C]]
; CHECK-NOT: s_barrier
; CHECK: ds_write_b32
; CHECK-NEXT: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_read_b32
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0){{[[:space:]]+}}s_barrier{{[[:space:]]+}}s_cbranch_vccnz [[LOOP]]
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
; GFX12-LABEL: size_t_trip_count:
; GFX12-NOT: s_barrier
; GFX12: [[LOOP:.LBB0_[0-9]+]]: ; %body
; GFX12-NOT: s_barrier
; GFX12: v_cmp_lt_u64_e64 [[C:s[0-9]+]]
; GFX12-NOT: s_barrier
; GFX12: s_and_b32 vcc_lo, exec_lo, [[C]]
; GFX12-NOT: s_barrier
; GFX12: ds_store_b32
; GFX12-NEXT: s_wait_dscnt 0x0
; GFX12-NEXT: s_barrier_signal -1
; GFX12-NEXT: s_barrier_wait -1
; GFX12-NEXT: ds_load_b32
; GFX12-NEXT: s_wait_dscnt 0x0
; GFX12-NEXT: s_barrier_signal -1
; GFX12-NOT: ds_
; GFX12: s_barrier_wait -1
; GFX12-NOT: {{ds_|s_barrier}}
; GFX12: s_cbranch_vccnz [[LOOP]]
; GFX12-NOT: s_barrier
; GFX12: s_endpgm
define amdgpu_kernel void @size_t_trip_count(ptr addrspace(1) %src, ptr addrspace(1) %dst, i64 %count) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %tid64 = zext i32 %tid to i64
  %mine = getelementptr [256 x float], ptr addrspace(3) @tile, i32 0, i32 %tid
  %next = add i32 %tid, 1
  %nextw = and i32 %next, 255
  %theirs = getelementptr [256 x float], ptr addrspace(3) @tile, i32 0, i32 %nextw
  %none = icmp eq i64 %count, 0
  br i1 %none, label %done, label %body
body:
  %k = phi i64 [ 0, %entry ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %row = shl i64 %k, 8
  %at = add i64 %row, %tid64
  %gp = getelementptr float, ptr addrspace(1) %src, i64 %at
  %v = load float, ptr addrspace(1) %gp
  store float %v, ptr addrspace(3) %mine
  %w = load float, ptr addrspace(3) %theirs
  %sum.next = fadd float %sum, %w
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %count
  br i1 %more, label %body, label %done
done:
  %res = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %op = getelementptr float, ptr addrspace(1) %dst, i64 %tid64
  store float %res, ptr addrspace(1) %op
  ret void
}

; if (level > limit) { slots[t] = x; y = slots[(t+1)&255]; }
; The barrier goes inside the branch, between the write and the read.
; SHAPE-LABEL: name: float_threshold
; SHAPE: V_CMP_NGT_F32_e32
; SHAPE-NEXT: $vcc = S_AND_B64 $exec
; SHAPE-NEXT: S_CBRANCH_VCCNZ
; CHECK-LABEL: float_threshold:
; CHECK-NOT: s_barrier
; CHECK: v_cmp_ngt_f32
; CHECK-NOT: s_barrier
; CHECK: s_cbranch_vccnz [[DONE:.LBB1_[0-9]+]]
; CHECK-NOT: s_barrier
; CHECK: ds_write_b32
; CHECK-NEXT: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: [[DONE]]: ; %done
; CHECK-NEXT: s_endpgm
; GFX12-LABEL: float_threshold:
; GFX12: s_cmp_ngt_f32
; GFX12-NEXT: s_cbranch_scc1 [[DONE:.LBB1_[0-9]+]]
; GFX12-NOT: s_barrier
; GFX12: ds_store_b32
; GFX12-NEXT: s_wait_dscnt 0x0
; GFX12-NEXT: s_barrier_signal -1
; GFX12-NEXT: s_barrier_wait -1
; GFX12-NEXT: ds_load_b32
; GFX12-NOT: s_barrier
; GFX12: [[DONE]]: ; %done
; GFX12-NEXT: s_endpgm
define amdgpu_kernel void @float_threshold(ptr addrspace(1) %dst, float %level, float %limit) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %op = getelementptr i32, ptr addrspace(1) %dst, i32 %tid
  %x = load i32, ptr addrspace(1) %op
  %above = fcmp ogt float %level, %limit
  br i1 %above, label %share, label %done
share:
  %mine = getelementptr [256 x i32], ptr addrspace(3) @slots, i32 0, i32 %tid
  store i32 %x, ptr addrspace(3) %mine
  %next = add i32 %tid, 1
  %nextw = and i32 %next, 255
  %theirs = getelementptr [256 x i32], ptr addrspace(3) @slots, i32 0, i32 %nextw
  %got = load i32, ptr addrspace(3) %theirs
  store i32 %got, ptr addrspace(1) %op
  br label %done
done:
  ret void
}

; for (i = 0; i < n; ++i) if (flag == 1) { slots[t] = acc + i;
;   acc = slots[(t+1)&255]; }
; The compare is already in the entry block (as LICM leaves it); the i1
; crosses into the loop as a lane mask rebuilt from a VGPR. Both barriers
; (RAW, and WAR into the next iteration) go inside the guarded block.
; SHAPE-LABEL: name: flag_in_loop
; SHAPE: S_CMP_EQ_U32 killed renamable $sgpr{{[0-9]+}}, 1
; SHAPE: renamable $vgpr[[V:[0-9]+]] = V_CNDMASK_B32_e64 0, 0, 0, 1
; SHAPE: renamable $sgpr[[M:[0-9]+_sgpr[0-9]+]] = V_CMP_NE_U32_e64 1, killed $vgpr[[V]]
; SHAPE: $vcc = S_AND_B64 $exec, renamable $sgpr[[M]]
; SHAPE-NEXT: S_CBRANCH_VCCNZ
; CHECK-LABEL: flag_in_loop:
; CHECK-NOT: s_barrier
; CHECK: v_cndmask_b32_e64 [[V:v[0-9]+]], 0, 1
; CHECK-NOT: s_barrier
; CHECK: v_cmp_ne_u32_e64 [[M:s[0-9]+|s\[[0-9]+:[0-9]+\]]], 1, [[V]]
; CHECK-NOT: s_barrier
; CHECK: ; %head
; CHECK-NOT: s_barrier
; CHECK: s_and_b{{32|64}} {{vcc|vcc_lo}}, {{exec|exec_lo}}, [[M]]
; CHECK-NEXT: s_cbranch_vccnz
; CHECK-NOT: s_barrier
; CHECK: ds_write_b32
; CHECK-NEXT: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_read_b32
; CHECK-NEXT: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: s_branch
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
; GFX12-LABEL: flag_in_loop:
; GFX12-NOT: s_barrier
; GFX12: v_cndmask_b32_e64 [[V:v[0-9]+]], 0, 1
; GFX12-NOT: s_barrier
; GFX12: v_cmp_ne_u32_e64 [[M:s[0-9]+]], 1, [[V]]
; GFX12-NOT: s_barrier
; GFX12: ; %head
; GFX12-NOT: s_barrier
; GFX12: s_and_b32 vcc_lo, exec_lo, [[M]]
; GFX12-NEXT: s_cbranch_vccnz
; GFX12-NOT: s_barrier
; GFX12: ds_store_b32
; GFX12-NEXT: s_wait_dscnt 0x0
; GFX12-NEXT: s_barrier_signal -1
; GFX12-NEXT: s_barrier_wait -1
; GFX12-NEXT: ds_load_b32
; GFX12-NEXT: s_wait_dscnt 0x0
; GFX12-NEXT: s_barrier_signal -1
; GFX12-NEXT: s_barrier_wait -1
; GFX12-NEXT: s_branch
; GFX12-NOT: s_barrier
; GFX12: s_endpgm
define amdgpu_kernel void @flag_in_loop(ptr addrspace(1) %dst, i32 %n, i32 %flag) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %mine = getelementptr [256 x i32], ptr addrspace(3) @slots, i32 0, i32 %tid
  %next = add i32 %tid, 1
  %nextw = and i32 %next, 255
  %theirs = getelementptr [256 x i32], ptr addrspace(3) @slots, i32 0, i32 %nextw
  %on = icmp eq i32 %flag, 1
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %head, label %done
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %latch ]
  br i1 %on, label %then, label %latch
then:
  %val = add i32 %acc, %i
  store i32 %val, ptr addrspace(3) %mine
  %got = load i32, ptr addrspace(3) %theirs
  br label %latch
latch:
  %acc.next = phi i32 [ %acc, %head ], [ %got, %then ]
  %i.next = add i32 %i, 1
  %again = icmp slt i32 %i.next, %n
  br i1 %again, label %head, label %done
done:
  %r = phi i32 [ 0, %entry ], [ %acc.next, %latch ]
  %op = getelementptr i32, ptr addrspace(1) %dst, i32 %tid
  store i32 %r, ptr addrspace(1) %op
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
