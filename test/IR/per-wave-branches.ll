; Scalar branches whose condition differs between the waves of one
; workgroup: whether EXEC is full (ballot of true compared with all ones),
; the s_memtime clock, the SCC of s_barrier_signal_isfirst and the wave id
; read from TTMP8. All are S_CBRANCH_SCC* or S_CBRANCH_VCC* branches on
; scalar values, yet some waves take them and others do not, so a barrier
; between the branch and its join would be reached by only part of the
; workgroup. The pass must place no barrier there; a hazard with both
; accesses inside is reported as uncoverable, and barriers needed before the
; branch or after the join are still placed.
;
; The neighbour's slot (tid + 1) & 255 is not provably in the same wave, so
; the hazards inside the branches are real. Launches allow 256 work-items.
;
; Each module is compiled a second time with every scalar branch trusted as
; uniform (the behaviour before per-wave values were tracked): that run puts
; the barrier inside the branch (TRUST prefixes), which the CHECK-NOT lines
; between each branch and its join label reject.
;
; RUN: rm -rf %t && split-file %s %t
; gfx942 (wave64): EXEC-full branch and s_memtime branch.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %t/wave64.ll -o - 2>/dev/null | FileCheck --check-prefix=W64 %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %t/wave64.ll -o /dev/null 2>&1 | FileCheck --check-prefix=W64-WARN --implicit-check-not=warning %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-trust-scalar-branches -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %t/wave64.ll -o - 2>/dev/null | FileCheck --check-prefix=W64-TRUST %s
; Wave32: EXEC-full branch on gfx1030 (s_barrier) and gfx1201 (split barrier).
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -O2 -verify-machineinstrs %t/wave32.ll -o - 2>/dev/null | FileCheck --check-prefix=GFX10 %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -O2 %t/wave32.ll -o /dev/null 2>&1 | FileCheck --check-prefix=W32-WARN --implicit-check-not=warning %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-trust-scalar-branches -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -O2 %t/wave32.ll -o - 2>/dev/null | FileCheck --check-prefix=GFX10-TRUST %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %t/wave32.ll -o - 2>/dev/null | FileCheck --check-prefix=GFX12 %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 %t/wave32.ll -o /dev/null 2>&1 | FileCheck --check-prefix=W32-WARN --implicit-check-not=warning %s
; gfx12: isfirst branch and wave-id branch, on gfx1201 and gfx1250.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %t/gfx12.ll -o - 2>/dev/null | FileCheck --check-prefixes=SPLIT,ISFIRST %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 %t/gfx12.ll -o /dev/null 2>&1 | FileCheck --check-prefix=SPLIT-WARN --implicit-check-not=warning %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-trust-scalar-branches -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 %t/gfx12.ll -o - 2>/dev/null | FileCheck --check-prefix=SPLIT-TRUST %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1250 -O2 -verify-machineinstrs %t/gfx12.ll -o - 2>/dev/null | FileCheck --check-prefixes=SPLIT,ISFIRST %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1250 -O2 %t/gfx12.ll -o /dev/null 2>&1 | FileCheck --check-prefix=SPLIT-WARN --implicit-check-not=warning %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-trust-scalar-branches -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1250 -O2 %t/gfx12.ll -o - 2>/dev/null | FileCheck --check-prefix=SPLIT-TRUST %s

;--- wave64.ll
@lds = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i64 @llvm.amdgcn.s.memtime()

; if (ballot(true) == ~0): only waves whose 64 lanes are all active (the last
; wave of a 96-item launch is not) run %full. The RAW inside is uncoverable;
; the read of lds[(tid + 2) & 255] after the join, RAW with the write inside,
; gets its barrier at the join, which every wave reaches. (Trusting the
; branch, the barrier inside the branch covers both RAWs and the join gets
; none.)
; W64-LABEL: exec_full_w64:
; W64: s_cmp_lg_u64 exec, -1
; W64-NOT: s_barrier
; W64: s_cbranch_scc1 [[JOIN:.LBB[0-9]+_[0-9]+]]
; W64-NOT: s_barrier
; W64: ds_write_b32
; W64-NOT: s_barrier
; W64: ds_read_b32
; W64-NOT: s_barrier
; W64: [[JOIN]]: ; %join
; W64-NOT: {{ds_|s_barrier}}
; W64: s_waitcnt lgkmcnt(0)
; W64-NEXT: s_barrier
; W64-NEXT: ds_read_b32
; W64-NOT: s_barrier
; W64: s_endpgm
; W64-WARN: warning: {{.*}}amdgpu-lds-barriers: RAW hazard on {{.+}} between DS_WRITE_B32_gfx9 and DS_READ_B32_gfx9 cannot be covered: every point that separates them depends on the divergent branch S_CBRANCH_SCC1 in bb.0, which waves of one workgroup may take differently
; W64-TRUST-LABEL: exec_full_w64:
; W64-TRUST: s_cbranch_scc1 [[JOIN:.LBB[0-9]+_[0-9]+]]
; W64-TRUST: ds_write_b32
; W64-TRUST-NOT: ds_
; W64-TRUST: s_waitcnt lgkmcnt(0)
; W64-TRUST-NEXT: s_barrier
; W64-TRUST-NEXT: ds_read_b32
; W64-TRUST-NOT: s_barrier
; W64-TRUST: [[JOIN]]: ; %join
; W64-TRUST-NOT: s_barrier
; W64-TRUST: s_endpgm
define amdgpu_kernel void @exec_full_w64(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gp = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  %x = load i32, ptr addrspace(1) %gp
  %lanes = call i64 @llvm.amdgcn.ballot.i64(i1 true)
  %all = icmp eq i64 %lanes, -1
  br i1 %all, label %full, label %join
full:
  %own = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %x, ptr addrspace(3) %own
  %n = add i32 %tid, 1
  %nw = and i32 %n, 255
  %nb = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %nw
  %y = load i32, ptr addrspace(3) %nb
  store i32 %y, ptr addrspace(1) %gp
  br label %join
join:
  %m = add i32 %tid, 2
  %mw = and i32 %m, 255
  %nb2 = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %mw
  %z = load i32, ptr addrspace(3) %nb2
  %gq = getelementptr i32, ptr addrspace(1) %gp, i32 256
  store i32 %z, ptr addrspace(1) %gq
  ret void
}

; if (s_memtime & 1): each wave reads its own clock. The write before the
; branch is ordered before the reads inside by a barrier ahead of the
; branch, which every wave executes; the WAR and RAW inside are uncoverable.
; W64-LABEL: memtime_odd:
; W64: ds_write_b32
; W64-NOT: s_barrier
; W64: s_memtime
; W64-NOT: s_barrier
; W64: s_cmp_eq_u64
; W64-NEXT: s_waitcnt lgkmcnt(0)
; W64-NEXT: s_barrier
; W64-NEXT: s_cbranch_scc1 [[JOIN:.LBB[0-9]+_[0-9]+]]
; W64-NOT: s_barrier
; W64: ds_read_b32
; W64-NOT: s_barrier
; W64: ds_write_b32
; W64-NOT: s_barrier
; W64: ds_read_b32
; W64-NOT: s_barrier
; W64: [[JOIN]]: ; %join
; W64-NEXT: s_endpgm
; W64-WARN: warning: {{.*}}amdgpu-lds-barriers: WAR hazard on {{.+}} between DS_READ_B32_gfx9 and DS_WRITE_B32_gfx9 cannot be covered: every point that separates them depends on the divergent branch S_CBRANCH_SCC1 in bb.0
; W64-WARN: warning: {{.*}}amdgpu-lds-barriers: RAW hazard on {{.+}} between DS_WRITE_B32_gfx9 and DS_READ_B32_gfx9 cannot be covered: every point that separates them depends on the divergent branch S_CBRANCH_SCC1 in bb.0
; W64-TRUST-LABEL: memtime_odd:
; W64-TRUST: s_memtime
; W64-TRUST-NOT: s_barrier
; W64-TRUST: s_cbranch_scc1 [[JOIN:.LBB[0-9]+_[0-9]+]]
; W64-TRUST: s_barrier
; W64-TRUST: [[JOIN]]: ; %join
define amdgpu_kernel void @memtime_odd(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gp = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  %x = load i32, ptr addrspace(1) %gp
  %own = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %x, ptr addrspace(3) %own
  %clk = call i64 @llvm.amdgcn.s.memtime()
  %bit = and i64 %clk, 1
  %odd = icmp ne i64 %bit, 0
  br i1 %odd, label %late, label %join
late:
  %n = add i32 %tid, 1
  %nw = and i32 %n, 255
  %nb = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %nw
  %y = load i32, ptr addrspace(3) %nb
  store i32 %y, ptr addrspace(3) %own
  %n2 = add i32 %tid, 2
  %nw2 = and i32 %n2, 255
  %nb2 = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %nw2
  %y2 = load i32, ptr addrspace(3) %nb2
  store i32 %y2, ptr addrspace(1) %gp
  br label %join
join:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }

;--- wave32.ll
@lds = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.ballot.i32(i1)

; The EXEC-full test on wave32: s_cmp_lg_u32 exec_lo, -1. Same accesses
; as exec_full_w64.
; GFX10-LABEL: exec_full_w32:
; GFX10: s_cmp_lg_u32 exec_lo, -1
; GFX10-NOT: s_barrier
; GFX10: s_cbranch_scc1 [[JOIN:.LBB[0-9]+_[0-9]+]]
; GFX10-NOT: s_barrier
; GFX10: ds_write_b32
; GFX10-NOT: s_barrier
; GFX10: ds_read_b32
; GFX10-NOT: s_barrier
; GFX10: [[JOIN]]: ; %join
; GFX10-NOT: {{ds_|s_barrier}}
; GFX10: s_waitcnt lgkmcnt(0)
; GFX10-NEXT: s_barrier
; GFX10-NEXT: ds_read_b32
; GFX10-NOT: s_barrier
; GFX10: s_endpgm
; GFX10-TRUST-LABEL: exec_full_w32:
; GFX10-TRUST: s_cbranch_scc1 [[JOIN:.LBB[0-9]+_[0-9]+]]
; GFX10-TRUST: s_barrier
; GFX10-TRUST: [[JOIN]]: ; %join
; GFX12-LABEL: exec_full_w32:
; GFX12: s_cmp_lg_u32 exec_lo, -1
; GFX12-NOT: s_barrier
; GFX12: s_cbranch_scc1 [[JOIN:.LBB[0-9]+_[0-9]+]]
; GFX12-NOT: s_barrier
; GFX12: ds_store_b32
; GFX12-NOT: s_barrier
; GFX12: ds_load_b32
; GFX12-NOT: s_barrier
; GFX12: [[JOIN]]: ; %join
; GFX12-NEXT: s_wait_dscnt 0x0
; GFX12-NEXT: s_barrier_signal -1
; GFX12-NOT: ds_
; GFX12: s_barrier_wait -1
; GFX12-NEXT: ds_load_b32
; GFX12-NOT: s_barrier
; GFX12: s_endpgm
; W32-WARN: warning: {{.*}}amdgpu-lds-barriers: RAW hazard on {{.+}} between DS_WRITE_B32_gfx9 and DS_READ_B32_gfx9 cannot be covered: every point that separates them depends on the divergent branch S_CBRANCH_SCC1 in bb.0
define amdgpu_kernel void @exec_full_w32(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gp = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  %x = load i32, ptr addrspace(1) %gp
  %lanes = call i32 @llvm.amdgcn.ballot.i32(i1 true)
  %all = icmp eq i32 %lanes, -1
  br i1 %all, label %full, label %join
full:
  %own = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %x, ptr addrspace(3) %own
  %n = add i32 %tid, 1
  %nw = and i32 %n, 255
  %nb = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %nw
  %y = load i32, ptr addrspace(3) %nb
  store i32 %y, ptr addrspace(1) %gp
  br label %join
join:
  %m = add i32 %tid, 2
  %mw = and i32 %m, 255
  %nb2 = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %mw
  %z = load i32, ptr addrspace(3) %nb2
  %gq = getelementptr i32, ptr addrspace(1) %gp, i32 256
  store i32 %z, ptr addrspace(1) %gq
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }

;--- gfx12.ll
@lds = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare i1 @llvm.amdgcn.s.barrier.signal.isfirst(i32)
declare void @llvm.amdgcn.s.barrier.wait(i16)
declare i32 @llvm.amdgcn.wave.id()

; The wave that signals first (SCC of s_barrier_signal_isfirst, turned into
; a lane mask for s_cbranch_vccnz) writes @lds inside the branch; every wave
; reads it after the join. The new barrier belongs at the join (frequency
; 1); the end of %leader would be cheaper but only one wave reaches it,
; which is where the trusting run puts it.
; ISFIRST-LABEL: first_signaller:
; ISFIRST: s_barrier_signal_isfirst -1
; ISFIRST: s_barrier_wait -1
; ISFIRST-NOT: s_barrier
; ISFIRST: s_cbranch_vccnz [[JOIN:.LBB[0-9]+_[0-9]+]]
; ISFIRST-NOT: s_barrier
; ISFIRST: ds_store_b32
; ISFIRST-NOT: s_barrier
; ISFIRST: [[JOIN]]: ; %join
; ISFIRST-NEXT: s_wait_dscnt 0x0
; ISFIRST-NEXT: s_barrier_signal -1
; ISFIRST-NOT: ds_
; ISFIRST: s_barrier_wait -1
; ISFIRST-NEXT: ds_load_b32
; ISFIRST-NOT: s_barrier
; ISFIRST: s_endpgm
; SPLIT-TRUST-LABEL: first_signaller:
; SPLIT-TRUST: s_cbranch_vccnz [[JOIN:.LBB[0-9]+_[0-9]+]]
; SPLIT-TRUST: ds_store_b32
; SPLIT-TRUST-NEXT: s_wait_dscnt 0x0
; SPLIT-TRUST-NEXT: s_barrier_signal -1
; SPLIT-TRUST-NEXT: s_barrier_wait -1
; SPLIT-TRUST-NEXT: [[JOIN]]: ; %join
define amdgpu_kernel void @first_signaller(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gp = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  %x = load i32, ptr addrspace(1) %gp
  %first = call i1 @llvm.amdgcn.s.barrier.signal.isfirst(i32 -1)
  call void @llvm.amdgcn.s.barrier.wait(i16 -1)
  br i1 %first, label %leader, label %join
leader:
  %own = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %x, ptr addrspace(3) %own
  br label %join
join:
  %m = add i32 %tid, 1
  %mw = and i32 %m, 255
  %src = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %mw
  %z = load i32, ptr addrspace(3) %src
  store i32 %z, ptr addrspace(1) %gp
  ret void
}

; if (wave_id < 2): waves 0 and 1 run %body, and lane 31 of wave 0 reads
; the slot that wave 1 writes there, an uncoverable RAW. The write is read
; again after the join: barrier at the join.
; SPLIT-LABEL: low_waves:
; SPLIT: s_bfe_u32 [[WID:s[0-9]+]], ttmp8, 0x50019
; SPLIT: s_cmp_gt_u32 [[WID]], 1
; SPLIT-NOT: s_barrier
; SPLIT: s_cbranch_scc1 [[JOIN:.LBB[0-9]+_[0-9]+]]
; SPLIT-NOT: s_barrier
; SPLIT: ds_store_b32
; SPLIT-NOT: s_barrier
; SPLIT: ds_load_b32
; SPLIT-NOT: s_barrier
; SPLIT: [[JOIN]]: ; %join
; SPLIT-NOT: ds_
; SPLIT: s_barrier_signal -1
; SPLIT-NOT: ds_
; SPLIT: s_barrier_wait -1
; SPLIT-NEXT: ds_load_b32
; SPLIT-NOT: s_barrier
; SPLIT: s_endpgm
; SPLIT-WARN: warning: {{.*}}amdgpu-lds-barriers: RAW hazard on {{.+}} between DS_WRITE_B32_gfx9 and DS_READ_B32_gfx9 cannot be covered: every point that separates them depends on the divergent branch S_CBRANCH_SCC1 in bb.0
; SPLIT-TRUST-LABEL: low_waves:
; SPLIT-TRUST: s_cbranch_scc1 [[JOIN:.LBB[0-9]+_[0-9]+]]
; SPLIT-TRUST: ds_store_b32
; SPLIT-TRUST-NEXT: s_wait_dscnt 0x0
; SPLIT-TRUST-NEXT: s_barrier_signal -1
; SPLIT-TRUST-NOT: ds_
; SPLIT-TRUST: s_barrier_wait -1
; SPLIT-TRUST-NEXT: ds_load_b32
; SPLIT-TRUST: [[JOIN]]: ; %join
define amdgpu_kernel void @low_waves(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gp = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  %x = load i32, ptr addrspace(1) %gp
  %wid = call i32 @llvm.amdgcn.wave.id()
  %low = icmp ult i32 %wid, 2
  br i1 %low, label %body, label %join
body:
  %own = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %x, ptr addrspace(3) %own
  %n = add i32 %tid, 1
  %nw = and i32 %n, 255
  %nb = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %nw
  %y = load i32, ptr addrspace(3) %nb
  store i32 %y, ptr addrspace(1) %gp
  br label %join
join:
  %m = add i32 %tid, 2
  %mw = and i32 %m, 255
  %src = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %mw
  %z = load i32, ptr addrspace(3) %src
  %gq = getelementptr i32, ptr addrspace(1) %gp, i32 256
  store i32 %z, ptr addrspace(1) %gq
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
