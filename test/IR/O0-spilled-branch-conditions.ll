; A uniform irreducible cycle at -O0. %ping and %pong are both entered from
; %entry (chosen by the kernel argument %start) and branch to each other on
; counters compared with the kernel argument %rounds. Each reads its left
; neighbour's slot and then writes its own: a WAR inside each block and a
; RAW into the other (and into %out).
;
; At -O0 the structurizer adds %irr.guard, %Flow and %Flow1, and the fast
; register allocator spills every branch condition and counter to lanes of
; a VGPR (V_WRITELANE / V_READLANE); that VGPR itself is kept in an AGPR
; (gfx942, gfx950) or in scratch (buffer_store on gfx1030, scratch_store on
; gfx1201) around every block. The conditions come back as
; V_READLANE -> V_CNDMASK_B32 -> V_CMP_NE_U32 -> S_CBRANCH_VCCNZ, all of
; workgroup-uniform values, so every block of the cycle is uniform: two
; barriers in %ping and two in %pong, no warning.
;
; Before the values in spill lanes were tracked through these copies, the
; reloaded conditions counted as per-wave: on gfx942 and gfx950 the placer
; still put barriers in the cycle, its own verification rejected them
; ("internal error, placement failed verification") and llc exited with 1;
; on gfx1030 and gfx1201 the hazards inside the cycle were reported as
; "cannot be covered" and left as races (only the read in %out got a
; barrier). The implicit-check-not patterns and the barrier CHECK lines
; catch both; lit's pipefail catches the exit status.
;
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O0 -verify-machineinstrs %s -o - 2>&1 | FileCheck --check-prefix=GFX9 --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not="internal error" %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 -O0 -verify-machineinstrs %s -o - 2>&1 | FileCheck --check-prefix=GFX9 --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not="internal error" %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -O0 -verify-machineinstrs %s -o - 2>&1 | FileCheck --check-prefix=GFX10 --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not="internal error" %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O0 -verify-machineinstrs %s -o - 2>&1 | FileCheck --check-prefix=GFX12 --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not="internal error" %s
; The in-pipeline verifier, after si-insert-waitcnts, finds no race and no
; barrier that part of the workgroup skips.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O0 %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=NOWARN %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O0 %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=NOWARN %s
; NOWARN-NOT: {{warning|error}}

@ring = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()

; The spill shapes this test relies on.
; GFX9-LABEL: ping_pong:
; GFX9: v_writelane_b32
; GFX9: v_accvgpr_write_b32
; GFX10-LABEL: ping_pong:
; GFX10: v_writelane_b32
; GFX10: buffer_store_dword
; GFX12-LABEL: ping_pong:
; GFX12: v_writelane_b32
; GFX12: scratch_store_b32

; No barrier before the cycle.
; GFX9-NOT: s_barrier
; GFX9: ; %Flow
; GFX9-NOT: s_barrier
; GFX9: v_readlane_b32
; GFX9: v_cndmask_b32_e64
; GFX9: v_cmp_ne_u32_e64
; GFX9: s_cbranch_vccnz
; GFX10-NOT: s_barrier
; GFX10: ; %Flow
; GFX10-NOT: s_barrier
; GFX10: v_readlane_b32
; GFX10: v_cndmask_b32_e64
; GFX10: v_cmp_ne_u32_e64
; GFX10: s_cbranch_vccnz
; GFX12-NOT: s_barrier
; GFX12: ; %Flow
; GFX12-NOT: s_barrier
; GFX12: v_readlane_b32
; GFX12: v_cndmask_b32_e64
; GFX12: v_cmp_ne_u32_e64
; GFX12: s_cbranch_vccnz

; %ping: WAR barrier between the read and the write, RAW barrier at the end.
; GFX9-NOT: s_barrier
; GFX9: ds_read_b32
; GFX9-NOT: ds_
; GFX9: s_waitcnt lgkmcnt(0){{[[:space:]]+}}s_barrier{{[[:space:]]+}}ds_write_b32
; GFX9-NOT: {{ds_|s_barrier}}
; GFX9: s_waitcnt lgkmcnt(0)
; GFX9-NEXT: s_barrier
; GFX9-NEXT: s_branch
; GFX10-NOT: s_barrier
; GFX10: ds_read_b32
; GFX10-NOT: ds_
; GFX10: s_waitcnt lgkmcnt(0){{[[:space:]]+}}s_barrier{{[[:space:]]+}}ds_write_b32
; GFX10-NOT: {{ds_|s_barrier}}
; GFX10: s_waitcnt lgkmcnt(0)
; GFX10-NEXT: s_barrier
; GFX10-NEXT: s_branch
; GFX12-NOT: s_barrier
; GFX12: ds_load_b32
; GFX12-NEXT: s_wait_dscnt 0x0
; GFX12-NEXT: s_barrier_signal -1
; GFX12-NOT: ds_
; GFX12: s_barrier_wait -1
; GFX12-NEXT: ds_store_b32
; GFX12-NEXT: s_wait_dscnt 0x0
; GFX12-NEXT: s_barrier_signal -1
; GFX12-NOT: {{ds_|s_barrier}}
; GFX12: s_barrier_wait -1
; GFX12-NEXT: s_branch

; %pong: the same two.
; GFX9: ; %pong
; GFX9-NOT: s_barrier
; GFX9: ds_read_b32
; GFX9-NOT: ds_
; GFX9: s_waitcnt lgkmcnt(0){{[[:space:]]+}}s_barrier{{[[:space:]]+}}ds_write_b32
; GFX9-NOT: {{ds_|s_barrier}}
; GFX9: s_waitcnt lgkmcnt(0)
; GFX9-NEXT: s_barrier
; GFX9-NEXT: s_branch
; GFX10: ; %pong
; GFX10-NOT: s_barrier
; GFX10: ds_read_b32
; GFX10-NOT: ds_
; GFX10: s_waitcnt lgkmcnt(0){{[[:space:]]+}}s_barrier{{[[:space:]]+}}ds_write_b32
; GFX10-NOT: {{ds_|s_barrier}}
; GFX10: s_waitcnt lgkmcnt(0)
; GFX10-NEXT: s_barrier
; GFX10-NEXT: s_branch
; GFX12: ; %pong
; GFX12-NOT: s_barrier
; GFX12: ds_load_b32
; GFX12-NEXT: s_wait_dscnt 0x0
; GFX12-NEXT: s_barrier_signal -1
; GFX12-NOT: ds_
; GFX12: s_barrier_wait -1
; GFX12-NEXT: ds_store_b32
; GFX12-NEXT: s_wait_dscnt 0x0
; GFX12-NEXT: s_barrier_signal -1
; GFX12-NOT: {{ds_|s_barrier}}
; GFX12: s_barrier_wait -1
; GFX12-NEXT: s_branch

; %Flow1, %out and %irr.guard: no further barrier (four in all on gfx9 and
; gfx10, four signal/wait pairs on gfx12).
; GFX9: ; %Flow1
; GFX9-NOT: s_barrier
; GFX9: ds_read_b32
; GFX9-NOT: s_barrier
; GFX9: s_endpgm
; GFX9-NOT: s_barrier
; GFX9: ; %irr.guard
; GFX9-NOT: s_barrier
; GFX9: .Lfunc_end0:
; GFX10: ; %Flow1
; GFX10-NOT: s_barrier
; GFX10: ds_read_b32
; GFX10-NOT: s_barrier
; GFX10: s_endpgm
; GFX10-NOT: s_barrier
; GFX10: ; %irr.guard
; GFX10-NOT: s_barrier
; GFX10: .Lfunc_end0:
; GFX12: ; %Flow1
; GFX12-NOT: s_barrier
; GFX12: ds_load_b32
; GFX12-NOT: s_barrier
; GFX12: s_endpgm
; GFX12-NOT: s_barrier
; GFX12: ; %irr.guard
; GFX12-NOT: s_barrier
; GFX12: .Lfunc_end0:
define amdgpu_kernel void @ping_pong(ptr addrspace(1) %dst, i32 %start, i32 %rounds) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %self = getelementptr [256 x i32], ptr addrspace(3) @ring, i32 0, i32 %tid
  %left = add i32 %tid, 255
  %leftw = and i32 %left, 255
  %peer = getelementptr [256 x i32], ptr addrspace(3) @ring, i32 0, i32 %leftw
  %inping = icmp ne i32 %start, 0
  br i1 %inping, label %ping, label %pong
ping:
  %a = phi i32 [ 0, %entry ], [ %b.next, %pong ]
  %pa = load i32, ptr addrspace(3) %peer
  %pa1 = add i32 %pa, %a
  store i32 %pa1, ptr addrspace(3) %self
  %a.next = add i32 %a, 1
  %a.more = icmp slt i32 %a.next, %rounds
  br i1 %a.more, label %pong, label %out
pong:
  %b = phi i32 [ 0, %entry ], [ %a.next, %ping ]
  %pb = load i32, ptr addrspace(3) %peer
  %pb1 = xor i32 %pb, %b
  store i32 %pb1, ptr addrspace(3) %self
  %b.next = add i32 %b, 3
  %b.more = icmp slt i32 %b.next, %rounds
  br i1 %b.more, label %ping, label %out
out:
  %fin = load i32, ptr addrspace(3) %peer
  %op = getelementptr i32, ptr addrspace(1) %dst, i32 %tid
  store i32 %fin, ptr addrspace(1) %op
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
