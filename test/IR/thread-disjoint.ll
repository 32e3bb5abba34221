; Thread-index analysis, each pattern of an expert-written kernel that needs
; no barrier next to a near-miss variant that really races, on gfx942
; (s_barrier) and gfx1201 (split barriers). "BAR" below matches either
; barrier form. Without the analysis (BLIND) the race-free patterns get
; barriers and the tree steps warnings.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %s -o - 2>%t.942.err | FileCheck --check-prefixes=CHECK,W64 %s
; RUN: FileCheck --check-prefixes=WARN,WARN64 %s < %t.942.err
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 %s -o - 2>%t.1201.err | FileCheck --check-prefixes=CHECK,W32 %s
; RUN: FileCheck --check-prefixes=WARN,WARN32 %s < %t.1201.err
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-thread-analysis=false -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %s -o - 2>/dev/null | FileCheck --check-prefix=BLIND %s
; The remarks say which pairs were dropped and why.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -pass-remarks-analysis=amdgpu-lds-barriers -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
; And the verifier, run on the result, finds no race but the one in
; tree_step_overlap that no barrier can fix.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 %s -o /dev/null 2>&1 | FileCheck --check-prefix=VERIFY %s

; tree_step_overlap warns: work-item 64 writes s[64], which work-item 0
; reads, inside `if (t < 65)` where no barrier may go; on wave32 also
; work-item 32 and 0 inside `if (t < 33)` (one wave on wave64). counters_overlap
; warns of a self-race: with bins 0..7, work-items t and t + 1 may
; increment the same byte in the same execution of the store.
; WARN-NOT: warning
; WARN: warning: {{.*}}WAR hazard on LDS{{.*}} cannot be covered
; WARN32-SAME: (and 1 more of this kind)
; WARN64-NOT: more of this kind
; WARN: warning: {{.*}}DS_WRITE_B8{{.*}}: different work-items may write the same LDS bytes in one execution of this instruction (address 0 + 4*tid.x + [0, 7] (1 bytes)
; WARN-NOT: warning

; REMARK: remark: {{.*}}no hazard between DS_READ_B32_gfx9 and DS_WRITE_B32_gfx9: different work-items touch different bytes; addresses 0 + 4*tid.x (4 bytes) and 0 + 4*tid.x (4 bytes), at most 256 work-items (256x1x1)
; REMARK: remark: {{.*}}no hazard between DS_WRITE_B32_gfx9 and DS_WRITE_B32_gfx9: different work-items touch different bytes; addresses 0 + 4*tid.x (4 bytes) and 1024 + 4*tid.x (4 bytes), at most 256 work-items
; REMARK: remark: {{.*}}no hazard between {{.*}} 0 <= tid.x <= 63
; REMARK: remark: {{.*}}no hazard between DS_READ_U8_gfx9 and DS_WRITE_B8_gfx9: different work-items touch different bytes; addresses 0 + 4*tid.x + [0, 3] (1 bytes) and 0 + 4*tid.x + [0, 3] (1 bytes)

; VERIFY-NOT: race
; VERIFY: WAR race on LDS{{.*}}
; VERIFY-NOT: race{{.*}}own_slot

; s[tid] = s[tid] + x: a work-item's own slot.
; CHECK-LABEL: own_slot:
; CHECK-NOT: {{s_barrier$|s_barrier_wait}}
; CHECK: s_endpgm
; BLIND-LABEL: own_slot:
; BLIND: {{s_barrier$|s_barrier_wait}}
; BLIND: s_endpgm

; s[tid] = s[tid + 1] + x: the neighbour's slot (WAR).
; CHECK-LABEL: neighbour_slot:
; CHECK: {{s_barrier$|s_barrier_wait}}
; CHECK: s_endpgm

; s[tid] = 0; s[tid + 256] = 0 with at most 256 work-items: no WAW.
; CHECK-LABEL: init_distinct:
; CHECK-NOT: {{s_barrier$|s_barrier_wait}}
; CHECK: s_endpgm

; The same with up to 512 work-items and room for them (s[t + 256] stays
; inside 768 slots): work-item 256 writes s[256] too.
; CHECK-LABEL: init_too_many_items:
; CHECK: {{s_barrier$|s_barrier_wait}}
; CHECK: s_endpgm

; Zero a table, then scatter to computed slots: a real WAW.
; CHECK-LABEL: init_then_scatter:
; CHECK: {{s_barrier$|s_barrier_wait}}
; CHECK: s_endpgm

; Two tree steps: reads of s[tid + 64] and writes of s[tid] for tid < 64 do
; not meet; on wave32 the one barrier is the RAW between the steps
; (s[tid + 32] for tid < 32 was written by work-item tid + 32 in step one,
; of the second wave). On wave64 the first wave alone runs both steps.
; CHECK-LABEL: tree_step:
; W32-COUNT-1: {{s_barrier$|s_barrier_wait}}
; W64-NOT: {{s_barrier$|s_barrier_wait}}
; CHECK-NOT: {{s_barrier$|s_barrier_wait}}
; CHECK: s_endpgm

; CHECK-LABEL: tree_step_overlap:
; CHECK: {{s_barrier$|s_barrier_wait}}
; CHECK: s_endpgm

; Per-work-item byte counters c[tid * 4 + (v & 3)]++ in a loop.
; CHECK-LABEL: counters:
; CHECK-NOT: {{s_barrier$|s_barrier_wait}}
; CHECK: s_endpgm
; BLIND-LABEL: counters:
; BLIND: {{s_barrier$|s_barrier_wait}}
; BLIND: s_endpgm

; c[tid * 4 + (v & 7)]: a bin reaches the next work-item's counters.
; CHECK-LABEL: counters_overlap:
; CHECK: {{s_barrier$|s_barrier_wait}}
; CHECK: s_endpgm

target triple = "amdgcn-amd-amdhsa"

@s = internal addrspace(3) global [512 x i32] poison, align 4
@c = internal addrspace(3) global [1024 x i8] poison, align 4
@big = internal addrspace(3) global [768 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @own_slot(i32 %x) #0 !reqd_work_group_size !0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  %v = load i32, ptr addrspace(3) %p
  %w = add i32 %v, %x
  store i32 %w, ptr addrspace(3) %p
  ret void
}

define amdgpu_kernel void @neighbour_slot(i32 %x) #0 !reqd_work_group_size !0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %t1 = add i32 %t, 1
  %p = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  %q = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t1
  %v = load i32, ptr addrspace(3) %q
  %w = add i32 %v, %x
  store i32 %w, ptr addrspace(3) %p
  ret void
}

define amdgpu_kernel void @init_distinct() #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %t256 = add i32 %t, 256
  %p = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  %q = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t256
  store volatile i32 0, ptr addrspace(3) %p
  store volatile i32 0, ptr addrspace(3) %q
  ret void
}

define amdgpu_kernel void @init_too_many_items() #1 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %t256 = add i32 %t, 256
  %p = getelementptr inbounds [768 x i32], ptr addrspace(3) @big, i32 0, i32 %t
  %q = getelementptr inbounds [768 x i32], ptr addrspace(3) @big, i32 0, i32 %t256
  store volatile i32 0, ptr addrspace(3) %p
  store volatile i32 0, ptr addrspace(3) %q
  ret void
}

define amdgpu_kernel void @init_then_scatter(ptr addrspace(1) %idx) #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  store i32 0, ptr addrspace(3) %p
  %ip = getelementptr inbounds i32, ptr addrspace(1) %idx, i32 %t
  %i = load i32, ptr addrspace(1) %ip
  %q = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %q
  ret void
}

define amdgpu_kernel void @tree_step(ptr addrspace(1) %in) #0 !reqd_work_group_size !0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  %c1 = icmp ult i32 %t, 64
  br i1 %c1, label %step1, label %mid
step1:
  %t64 = add i32 %t, 64
  %q1 = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t64
  %a1 = load i32, ptr addrspace(3) %p
  %b1 = load i32, ptr addrspace(3) %q1
  %s1 = add i32 %a1, %b1
  store i32 %s1, ptr addrspace(3) %p
  br label %mid
mid:
  %c2 = icmp ult i32 %t, 32
  br i1 %c2, label %step2, label %done
step2:
  %t32 = add i32 %t, 32
  %q2 = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t32
  %a2 = load i32, ptr addrspace(3) %p
  %b2 = load i32, ptr addrspace(3) %q2
  %s2 = add i32 %a2, %b2
  store i32 %s2, ptr addrspace(3) %p
  br label %done
done:
  ret void
}

define amdgpu_kernel void @tree_step_overlap(ptr addrspace(1) %in) #0 !reqd_work_group_size !0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  %c1 = icmp ult i32 %t, 65
  br i1 %c1, label %step1, label %mid
step1:
  %t64 = add i32 %t, 64
  %q1 = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t64
  %a1 = load i32, ptr addrspace(3) %p
  %b1 = load i32, ptr addrspace(3) %q1
  %s1 = add i32 %a1, %b1
  store i32 %s1, ptr addrspace(3) %p
  br label %mid
mid:
  %c2 = icmp ult i32 %t, 33
  br i1 %c2, label %step2, label %done
step2:
  %t32 = add i32 %t, 32
  %q2 = getelementptr inbounds [512 x i32], ptr addrspace(3) @s, i32 0, i32 %t32
  %a2 = load i32, ptr addrspace(3) %p
  %b2 = load i32, ptr addrspace(3) %q2
  %s2 = add i32 %a2, %b2
  store i32 %s2, ptr addrspace(3) %p
  br label %done
done:
  ret void
}

define amdgpu_kernel void @counters(ptr addrspace(1) %in, i32 %n) #0 !reqd_work_group_size !0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %base = shl i32 %t, 2
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %vp = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %i
  %v = load i32, ptr addrspace(1) %vp
  %bin = and i32 %v, 3
  %slot = add i32 %base, %bin
  %cp = getelementptr inbounds [1024 x i8], ptr addrspace(3) @c, i32 0, i32 %slot
  %old = load i8, ptr addrspace(3) %cp
  %new = add i8 %old, 1
  store i8 %new, ptr addrspace(3) %cp
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

define amdgpu_kernel void @counters_overlap(ptr addrspace(1) %in, i32 %n) #0 !reqd_work_group_size !0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %base = shl i32 %t, 2
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %vp = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %i
  %v = load i32, ptr addrspace(1) %vp
  %bin = and i32 %v, 7
  %slot = add i32 %base, %bin
  %cp = getelementptr inbounds [1024 x i8], ptr addrspace(3) @c, i32 0, i32 %slot
  %old = load i8, ptr addrspace(3) %cp
  %new = add i8 %old, 1
  store i8 %new, ptr addrspace(3) %cp
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; AMDGPU's IR passes turn a multiplication whose operands fit 24 bits into
; llvm.amdgcn.mul.u24: s[2 * tid] through it is still a work-item's own
; slot; through mul.i24 by a negative constant, too.
; CHECK-LABEL: mul24_own_slot:
; CHECK-NOT: {{s_barrier$|s_barrier_wait}}
; CHECK: s_endpgm
; BLIND-LABEL: mul24_own_slot:
; BLIND: {{s_barrier$|s_barrier_wait}}
define amdgpu_kernel void @mul24_own_slot(i32 %x) #0 !reqd_work_group_size !0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %o = call i32 @llvm.amdgcn.mul.u24.i32(i32 %t, i32 8)
  %p = getelementptr inbounds i8, ptr addrspace(3) @s, i32 %o
  %v = load i32, ptr addrspace(3) %p
  %w = add i32 %v, %x
  store i32 %w, ptr addrspace(3) %p
  ret void
}

; CHECK-LABEL: mul24_signed_own_slot:
; CHECK-NOT: {{s_barrier$|s_barrier_wait}}
; CHECK: s_endpgm
define amdgpu_kernel void @mul24_signed_own_slot(i32 %x) #0 !reqd_work_group_size !0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %o = call i32 @llvm.amdgcn.mul.i24.i32(i32 %t, i32 -8)
  %q = getelementptr inbounds i8, ptr addrspace(3) @s, i32 2044
  %p = getelementptr inbounds i8, ptr addrspace(3) %q, i32 %o
  %v = load i32, ptr addrspace(3) %p
  %w = add i32 %v, %x
  store i32 %w, ptr addrspace(3) %p
  ret void
}

; The neighbour's slot through mul.u24: a WAR across waves.
; CHECK-LABEL: mul24_neighbour:
; CHECK: {{s_barrier$|s_barrier_wait}}
; CHECK: s_endpgm
define amdgpu_kernel void @mul24_neighbour(i32 %x) #0 !reqd_work_group_size !0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %t1 = add i32 %t, 1
  %o = call i32 @llvm.amdgcn.mul.u24.i32(i32 %t, i32 4)
  %o1 = call i32 @llvm.amdgcn.mul.u24.i32(i32 %t1, i32 4)
  %p = getelementptr inbounds i8, ptr addrspace(3) @s, i32 %o
  %q = getelementptr inbounds i8, ptr addrspace(3) @s, i32 %o1
  %v = load i32, ptr addrspace(3) %q
  %w = add i32 %v, %x
  store i32 %w, ptr addrspace(3) %p
  ret void
}

declare i32 @llvm.amdgcn.mul.u24.i32(i32, i32)
declare i32 @llvm.amdgcn.mul.i24.i32(i32, i32)

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
attributes #1 = { "amdgpu-flat-work-group-size"="1,512" }
!0 = !{i32 256, i32 1, i32 1}
