; Sync dependence: a value merged where the paths of a divergent branch
; meet is as divergent as the branch, even when every path defines it as a
; uniform constant, and a vector write under a partial EXEC keeps the other
; lanes' old values. A scalar branch on such a value (readfirstlane, a
; ballot, a compare of the merged vector) is taken by some waves only, so a
; barrier may not go inside it.
;
; found_any: the "did any lane of my wave do X" idiom, found = 1 set under
;   an EXEC branch ((t & 127) < 8) and voted after the join: waves with no
;   lane in the if skip the vote's branch;
; if_else_readfirstlane: v = 5 or 7 from a divergent if/else, then
;   readfirstlane(v) == 5: true in the first wave only;
; loop_exit_value: a counter of a loop whose exit differs per lane, read
;   after the loop (temporal divergence);
; uniform_if_else: the same if/else on a kernel argument: the merged value
;   is uniform, and the barrier goes inside the rarely taken branch;
; nested: found = 1 set under a uniform if inside a divergent one;
; loop_break: found = 1 on the early exit of a loop whose exit differs per
;   lane, voted on after the loop.
;
; The first three read the neighbour wave's slot inside the branch: the
; barrier must come before the branch. Before sync dependence was modelled
; the pass put it inside (those waves that skip the branch never arrive).
;
; The checker (in the pipeline, on the author's code) reports a barrier an
; author put inside such a branch: a vote, a readfirstlane of a merged
; value, a readfirstlane of a loop counter after a divergent loop; and it
; is silent on the pass's own output.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %t/w64.ll -o - 2>&1 | FileCheck --implicit-check-not=warning %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -O2 -verify-machineinstrs %t/w32.ll -o - 2>&1 | FileCheck --implicit-check-not=warning %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 -O2 -verify-machineinstrs %t/w32.ll -o - 2>&1 | FileCheck --implicit-check-not=warning %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 -verify-machineinstrs %t/w32.ll -o - 2>&1 | FileCheck --implicit-check-not=warning %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %t/w64.ll -o /dev/null 2>&1 | count 0
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 %t/w32.ll -o /dev/null 2>&1 | count 0
; RUN: %llc -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %t/check64.ll -o /dev/null 2>&1 | FileCheck --check-prefix=CHECKER %s
; RUN: %llc -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -O2 %t/check32.ll -o /dev/null 2>&1 | FileCheck --check-prefix=CHECKER %s
; RUN: %llc -amdgpu-lds-barriers-checker-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 %t/check32.ll -o /dev/null 2>&1 | FileCheck --check-prefix=CHECKER %s

; CHECK-LABEL: found_any:
; CHECK: s_cbranch_execz
; CHECK: ds_{{write|store}}_b32
; CHECK: {{s_barrier$|s_barrier_wait -1}}
; CHECK-NOT: s_barrier
; CHECK: s_cbranch_vccz [[END:.LBB[0-9_]+]]
; CHECK-NOT: s_barrier
; CHECK: [[END]]:

; CHECK-LABEL: if_else_readfirstlane:
; CHECK: v_readfirstlane_b32
; CHECK: {{s_barrier$|s_barrier_wait -1}}
; CHECK-NOT: s_barrier
; CHECK: s_cbranch_scc1 [[END:.LBB[0-9_]+]]
; CHECK-NOT: s_barrier
; CHECK: [[END]]:

; CHECK-LABEL: loop_exit_value:
; CHECK: s_cbranch_execnz
; CHECK: v_readfirstlane_b32
; CHECK: {{s_barrier$|s_barrier_wait -1}}
; CHECK-NOT: s_barrier
; CHECK: s_cbranch_scc1 [[END:.LBB[0-9_]+]]
; CHECK-NOT: s_barrier
; CHECK: [[END]]:

; CHECK-LABEL: uniform_if_else:
; CHECK: ds_{{write|store}}_b32
; CHECK-NOT: s_barrier
; CHECK: s_cbranch_scc{{[01]}} [[RARE:.LBB[0-9_]+]]
; CHECK-NOT: s_barrier
; CHECK: [[RARE]]: ; %rare
; CHECK: {{s_barrier$|s_barrier_wait -1}}
; CHECK-NEXT: ds_{{read|load}}_b32

; CHECK-LABEL: nested:
; CHECK: v_readfirstlane_b32
; CHECK: {{s_barrier$|s_barrier_wait -1}}
; CHECK-NOT: s_barrier
; CHECK: s_cbranch_scc1 [[END:.LBB[0-9_]+]]
; CHECK-NOT: s_barrier
; CHECK: [[END]]:

; CHECK-LABEL: loop_break:
; CHECK: ds_{{write|store}}_b32
; CHECK: {{s_barrier$|s_barrier_wait -1}}
; CHECK-NOT: s_barrier
; CHECK: s_cbranch_vccz [[END:.LBB[0-9_]+]]
; CHECK-NOT: s_barrier
; CHECK: [[END]]:

; CHECKER: warning: in function 'barrier_under_vote': amdgpu-lds-barriers: barrier in control flow that some waves may skip at S_BARRIER
; CHECKER: warning: in function 'barrier_under_readfirstlane': amdgpu-lds-barriers: barrier in control flow that some waves may skip at S_BARRIER
; CHECKER: warning: in function 'barrier_after_divergent_loop': amdgpu-lds-barriers: barrier in control flow that some waves may skip at S_BARRIER

;--- w64.ll
@s = internal addrspace(3) global [256 x i32] poison, align 4

; bool found = false; if ((t & 127) < 8) { g[t] = 1; found = true; }
; s[t] = t; if (ballot(found) != 0) out[t] = s[(t + 64) & 255];
define amdgpu_kernel void @found_any(ptr addrspace(1) %out, ptr addrspace(1) %g) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %m = and i32 %t, 127
  %c = icmp ult i32 %m, 8
  br i1 %c, label %then, label %join
then:
  %gp = getelementptr i32, ptr addrspace(1) %g, i32 %t
  store volatile i32 1, ptr addrspace(1) %gp
  br label %join
join:
  %found = phi i32 [ 1, %then ], [ 0, %entry ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %f = icmp ne i32 %found, 0
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %f)
  %any = icmp ne i64 %b, 0
  br i1 %any, label %use, label %end
use:
  %j = add i32 %t, 64
  %jm = and i32 %j, 255
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %jm
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}

; v = (t < 32) ? 5 : 7 through a divergent if/else; r = readfirstlane(v).
define amdgpu_kernel void @if_else_readfirstlane(ptr addrspace(1) %out, ptr addrspace(1) %g) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %t, 32
  br i1 %c, label %then, label %else
then:
  %g1 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  store volatile i32 1, ptr addrspace(1) %g1
  br label %join
else:
  %g2 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  %old = atomicrmw add ptr addrspace(1) %g2, i32 3 monotonic
  br label %join
join:
  %v = phi i32 [ 5, %then ], [ 7, %else ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  %cc = icmp eq i32 %r, 5
  br i1 %cc, label %rare, label %end
rare:
  %j = xor i32 %t, 64
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}

; i counts up to (t >> 5) + 1 in a loop whose exit differs per lane; after
; the loop readfirstlane(i) differs per wave (temporal divergence).
define amdgpu_kernel void @loop_exit_value(ptr addrspace(1) %out, ptr addrspace(1) %g) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %n = lshr i32 %t, 5
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %gi = getelementptr i32, ptr addrspace(1) %g, i32 %i
  store volatile i32 %i, ptr addrspace(1) %gi
  %i1 = add i32 %i, 1
  %d = icmp ugt i32 %i1, %n
  br i1 %d, label %exit, label %loop
exit:
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %i1)
  %cc = icmp eq i32 %r, 1
  br i1 %cc, label %rare, label %end
rare:
  %j = xor i32 %t, 64
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}

; The same if/else on a kernel argument: the branch is workgroup-uniform,
; so v and r are too, and the barrier may go inside %rare.
define amdgpu_kernel void @uniform_if_else(ptr addrspace(1) %out, ptr addrspace(1) %g, i32 %mode) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp eq i32 %mode, 0
  br i1 %c, label %then, label %else
then:
  %g1 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  store volatile i32 1, ptr addrspace(1) %g1
  br label %join
else:
  %g2 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  %old = atomicrmw add ptr addrspace(1) %g2, i32 3 monotonic
  br label %join
join:
  %v = phi i32 [ 5, %then ], [ 7, %else ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  %cc = icmp eq i32 %r, 5
  br i1 %cc, label %rare, label %end, !prof !0
rare:
  %j = xor i32 %t, 64
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}

; A uniform if inside a divergent one sets found; readfirstlane after both
; joins.
define amdgpu_kernel void @nested(ptr addrspace(1) %out, ptr addrspace(1) %g, i32 %k) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %t, 100
  br i1 %c, label %outer, label %join
outer:
  %c2 = icmp eq i32 %k, 3
  br i1 %c2, label %inner, label %join
inner:
  %gp = getelementptr i32, ptr addrspace(1) %g, i32 %t
  store volatile i32 1, ptr addrspace(1) %gp
  br label %join
join:
  %found = phi i32 [ 0, %entry ], [ 0, %outer ], [ 1, %inner ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %found)
  %any = icmp ne i32 %r, 0
  br i1 %any, label %use, label %end
use:
  %j = add i32 %t, 64
  %jm = and i32 %j, 255
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %jm
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}
; found = 1 on the early exit of a loop whose exit differs per lane, voted
; on after the loop.
define amdgpu_kernel void @loop_break(ptr addrspace(1) %out, ptr addrspace(1) %g, i32 %n) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %gi = getelementptr i32, ptr addrspace(1) %g, i32 %t
  %v = load volatile i32, ptr addrspace(1) %gi
  %hit = icmp eq i32 %v, %i
  br i1 %hit, label %exit, label %latch
latch:
  %i1 = add i32 %i, 1
  %d = icmp ult i32 %i1, %n
  br i1 %d, label %loop, label %exit
exit:
  %found = phi i32 [ 1, %loop ], [ 0, %latch ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %f = icmp ne i32 %found, 0
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %f)
  %any = icmp ne i64 %b, 0
  br i1 %any, label %use, label %end
use:
  %j = add i32 %t, 64
  %jm = and i32 %j, 255
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %jm
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i64 @llvm.amdgcn.ballot.i64(i1)
attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
!0 = !{!"branch_weights", i32 1, i32 100}

;--- w32.ll
@s = internal addrspace(3) global [256 x i32] poison, align 4

; bool found = false; if ((t & 127) < 8) { g[t] = 1; found = true; }
; s[t] = t; if (ballot(found) != 0) out[t] = s[(t + 64) & 255];
define amdgpu_kernel void @found_any(ptr addrspace(1) %out, ptr addrspace(1) %g) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %m = and i32 %t, 127
  %c = icmp ult i32 %m, 8
  br i1 %c, label %then, label %join
then:
  %gp = getelementptr i32, ptr addrspace(1) %g, i32 %t
  store volatile i32 1, ptr addrspace(1) %gp
  br label %join
join:
  %found = phi i32 [ 1, %then ], [ 0, %entry ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %f = icmp ne i32 %found, 0
  %b = call i32 @llvm.amdgcn.ballot.i32(i1 %f)
  %any = icmp ne i32 %b, 0
  br i1 %any, label %use, label %end
use:
  %j = add i32 %t, 64
  %jm = and i32 %j, 255
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %jm
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}

; v = (t < 32) ? 5 : 7 through a divergent if/else; r = readfirstlane(v).
define amdgpu_kernel void @if_else_readfirstlane(ptr addrspace(1) %out, ptr addrspace(1) %g) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %t, 32
  br i1 %c, label %then, label %else
then:
  %g1 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  store volatile i32 1, ptr addrspace(1) %g1
  br label %join
else:
  %g2 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  %old = atomicrmw add ptr addrspace(1) %g2, i32 3 monotonic
  br label %join
join:
  %v = phi i32 [ 5, %then ], [ 7, %else ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  %cc = icmp eq i32 %r, 5
  br i1 %cc, label %rare, label %end
rare:
  %j = xor i32 %t, 64
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}

; i counts up to (t >> 5) + 1 in a loop whose exit differs per lane; after
; the loop readfirstlane(i) differs per wave (temporal divergence).
define amdgpu_kernel void @loop_exit_value(ptr addrspace(1) %out, ptr addrspace(1) %g) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %n = lshr i32 %t, 5
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %gi = getelementptr i32, ptr addrspace(1) %g, i32 %i
  store volatile i32 %i, ptr addrspace(1) %gi
  %i1 = add i32 %i, 1
  %d = icmp ugt i32 %i1, %n
  br i1 %d, label %exit, label %loop
exit:
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %i1)
  %cc = icmp eq i32 %r, 1
  br i1 %cc, label %rare, label %end
rare:
  %j = xor i32 %t, 64
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}

; The same if/else on a kernel argument: the branch is workgroup-uniform,
; so v and r are too, and the barrier may go inside %rare.
define amdgpu_kernel void @uniform_if_else(ptr addrspace(1) %out, ptr addrspace(1) %g, i32 %mode) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp eq i32 %mode, 0
  br i1 %c, label %then, label %else
then:
  %g1 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  store volatile i32 1, ptr addrspace(1) %g1
  br label %join
else:
  %g2 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  %old = atomicrmw add ptr addrspace(1) %g2, i32 3 monotonic
  br label %join
join:
  %v = phi i32 [ 5, %then ], [ 7, %else ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  %cc = icmp eq i32 %r, 5
  br i1 %cc, label %rare, label %end, !prof !0
rare:
  %j = xor i32 %t, 64
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}

; A uniform if inside a divergent one sets found; readfirstlane after both
; joins.
define amdgpu_kernel void @nested(ptr addrspace(1) %out, ptr addrspace(1) %g, i32 %k) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %t, 100
  br i1 %c, label %outer, label %join
outer:
  %c2 = icmp eq i32 %k, 3
  br i1 %c2, label %inner, label %join
inner:
  %gp = getelementptr i32, ptr addrspace(1) %g, i32 %t
  store volatile i32 1, ptr addrspace(1) %gp
  br label %join
join:
  %found = phi i32 [ 0, %entry ], [ 0, %outer ], [ 1, %inner ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %found)
  %any = icmp ne i32 %r, 0
  br i1 %any, label %use, label %end
use:
  %j = add i32 %t, 64
  %jm = and i32 %j, 255
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %jm
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}
; found = 1 on the early exit of a loop whose exit differs per lane, voted
; on after the loop.
define amdgpu_kernel void @loop_break(ptr addrspace(1) %out, ptr addrspace(1) %g, i32 %n) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %gi = getelementptr i32, ptr addrspace(1) %g, i32 %t
  %v = load volatile i32, ptr addrspace(1) %gi
  %hit = icmp eq i32 %v, %i
  br i1 %hit, label %exit, label %latch
latch:
  %i1 = add i32 %i, 1
  %d = icmp ult i32 %i1, %n
  br i1 %d, label %loop, label %exit
exit:
  %found = phi i32 [ 1, %loop ], [ 0, %latch ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %f = icmp ne i32 %found, 0
  %b = call i32 @llvm.amdgcn.ballot.i32(i1 %f)
  %any = icmp ne i32 %b, 0
  br i1 %any, label %use, label %end
use:
  %j = add i32 %t, 64
  %jm = and i32 %j, 255
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %jm
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.ballot.i32(i1)
attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
!0 = !{!"branch_weights", i32 1, i32 100}

;--- check64.ll
@s = internal addrspace(3) global [256 x i32] poison, align 4
define amdgpu_kernel void @barrier_under_vote(ptr addrspace(1) %out, ptr addrspace(1) %g, i32 %a, i32 %b) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %t, 32
  br i1 %c, label %then, label %else
then:
  %g1 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  store volatile i32 1, ptr addrspace(1) %g1
  br label %join
else:
  %g2 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  %old = atomicrmw add ptr addrspace(1) %g2, i32 3 monotonic
  br label %join
join:
  %v = phi i32 [ %a, %then ], [ %b, %else ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %e = icmp eq i32 %v, %a
  %bal = call i64 @llvm.amdgcn.ballot.i64(i1 %e)
  %any = icmp ne i64 %bal, 0
  br i1 %any, label %vote, label %end
vote:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %j = xor i32 %t, 64
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}
; readfirstlane of a value merged after a divergent if/else, and of a
; counter after a loop whose exit differs per lane: the author's barrier
; inside the branch on it.
define amdgpu_kernel void @barrier_under_readfirstlane(ptr addrspace(1) %out, ptr addrspace(1) %g) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %t, 32
  br i1 %c, label %then, label %else
then:
  %g1 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  store volatile i32 1, ptr addrspace(1) %g1
  br label %join
else:
  %g2 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  %old = atomicrmw add ptr addrspace(1) %g2, i32 3 monotonic
  br label %join
join:
  %v = phi i32 [ 5, %then ], [ 7, %else ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  %cc = icmp eq i32 %r, 5
  br i1 %cc, label %rare, label %end
rare:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %j = xor i32 %t, 64
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}

define amdgpu_kernel void @barrier_after_divergent_loop(ptr addrspace(1) %out, ptr addrspace(1) %g) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %n = lshr i32 %t, 5
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %gi = getelementptr i32, ptr addrspace(1) %g, i32 %i
  store volatile i32 %i, ptr addrspace(1) %gi
  %i1 = add i32 %i, 1
  %d = icmp ugt i32 %i1, %n
  br i1 %d, label %exit, label %loop
exit:
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %i1)
  %cc = icmp eq i32 %r, 1
  br i1 %cc, label %rare, label %end
rare:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %j = xor i32 %t, 64
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.workitem.id.x()
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare void @llvm.amdgcn.s.barrier()
attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }

;--- check32.ll
@s = internal addrspace(3) global [256 x i32] poison, align 4
define amdgpu_kernel void @barrier_under_vote(ptr addrspace(1) %out, ptr addrspace(1) %g, i32 %a, i32 %b) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %t, 32
  br i1 %c, label %then, label %else
then:
  %g1 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  store volatile i32 1, ptr addrspace(1) %g1
  br label %join
else:
  %g2 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  %old = atomicrmw add ptr addrspace(1) %g2, i32 3 monotonic
  br label %join
join:
  %v = phi i32 [ %a, %then ], [ %b, %else ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %e = icmp eq i32 %v, %a
  %bal = call i32 @llvm.amdgcn.ballot.i32(i1 %e)
  %any = icmp ne i32 %bal, 0
  br i1 %any, label %vote, label %end
vote:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %j = xor i32 %t, 64
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}
; readfirstlane of a value merged after a divergent if/else, and of a
; counter after a loop whose exit differs per lane: the author's barrier
; inside the branch on it.
define amdgpu_kernel void @barrier_under_readfirstlane(ptr addrspace(1) %out, ptr addrspace(1) %g) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %t, 32
  br i1 %c, label %then, label %else
then:
  %g1 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  store volatile i32 1, ptr addrspace(1) %g1
  br label %join
else:
  %g2 = getelementptr i32, ptr addrspace(1) %g, i32 %t
  %old = atomicrmw add ptr addrspace(1) %g2, i32 3 monotonic
  br label %join
join:
  %v = phi i32 [ 5, %then ], [ 7, %else ]
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  %cc = icmp eq i32 %r, 5
  br i1 %cc, label %rare, label %end
rare:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %j = xor i32 %t, 64
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}

define amdgpu_kernel void @barrier_after_divergent_loop(ptr addrspace(1) %out, ptr addrspace(1) %g) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %n = lshr i32 %t, 5
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %gi = getelementptr i32, ptr addrspace(1) %g, i32 %i
  store volatile i32 %i, ptr addrspace(1) %gi
  %i1 = add i32 %i, 1
  %d = icmp ugt i32 %i1, %n
  br i1 %d, label %exit, label %loop
exit:
  %p = getelementptr i32, ptr addrspace(3) @s, i32 %t
  store i32 %t, ptr addrspace(3) %p
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %i1)
  %cc = icmp eq i32 %r, 1
  br i1 %cc, label %rare, label %end
rare:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %j = xor i32 %t, 64
  %q = getelementptr i32, ptr addrspace(3) @s, i32 %j
  %x = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o
  br label %end
end:
  ret void
}
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.ballot.i32(i1)
declare void @llvm.amdgcn.s.barrier()
attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
