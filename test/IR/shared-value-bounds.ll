; Work-item ids bounded by values the workgroup shares, on gfx942
; (s_barrier) and gfx1201 (split barriers).
;
; blockDim.x is the 16-bit load at implicitarg_ptr + 12 (code object v5).
;
; tree: `if (t < k) s[t] += s[t + k]` with k = blockDim.x / 2 halved each
;   iteration. Inside one step the writes lie below k and the reads from k
;   on: one barrier, at the top of the loop, covers the steps of different
;   iterations and the loads before the loop.
; tree_overlap: the same with reads of s[t + k - 1], which the work-item
;   below writes in the same step: no barrier can separate them (inside
;   the branch), and the pass warns.
; halo: s[t + blockDim.x] written beside every s[t]: the launch size is
;   above every id, so the two never meet: no barrier between the stores.
; fill_stride: `for (i = t; i < 2048; i += blockDim.x) s[i] = 0`: each
;   work-item keeps to the slots t modulo blockDim.x; the fill needs no
;   barrier inside, one before the reads after it.
; fill_half_stride: steps of blockDim.x / 2: work-items t and
;   t + blockDim.x / 2 write the same slots, a write-after-write race.
; wave_partials: `if (t % 64 == 0) part[t / 64] = v`, a condition on a
;   function of the id: one writer per slot, and one barrier before the
;   reads; with `t % 32 == 0` (lane_partials) work-items 0 and 32 write
;   part[0] in one execution of the store, which the pass reports.
; first_lane: `if (t / 32 == 0) if (t % 32 == 0) part[0] = v`: both
;   conditions together leave work-item 0 alone (either alone does not).
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %s -o - 2>%t.942.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN %s < %t.942.err
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -O2 %s -o - 2>%t.1201.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN %s < %t.1201.err
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -pass-remarks-analysis=amdgpu-lds-barriers -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s

; WARN-NOT: warning
; WARN: warning: in function 'tree_overlap': {{.*}}WAR hazard on LDS{{.*}} cannot be covered
; WARN-NOT: warning
; WARN: warning: in function 'fill_half_stride': {{.*}}WAW hazard on LDS{{.*}} cannot be covered
; WARN-NOT: warning
; WARN: warning: in function 'lane_partials': {{.*}}different work-items may write the same LDS bytes in one execution of this instruction
; WARN-NOT: warning

; REMARK: remark: {{.*}}no hazard between DS_READ_B32_gfx9 and DS_WRITE_B32_gfx9 in one iteration of their loop: a guard on a value of that iteration keeps them apart (across iterations they may meet)

@tree.s = internal addrspace(3) global [1024 x float] poison, align 4
@overlap.s = internal addrspace(3) global [1024 x float] poison, align 4
@halo.s = internal addrspace(3) global [2048 x float] poison, align 4
@fill.s = internal addrspace(3) global [2048 x double] poison, align 8
@half.s = internal addrspace(3) global [2048 x double] poison, align 8

; CHECK-LABEL: tree:
; CHECK: {{s_barrier$|s_barrier_signal -1}}
; CHECK-NOT: {{s_barrier$|s_barrier_signal}}
; CHECK: s_endpgm
define amdgpu_kernel void @tree(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %ia = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %bdp = getelementptr inbounds i8, ptr addrspace(4) %ia, i64 12
  %bd16 = load i16, ptr addrspace(4) %bdp, align 4
  %bd = zext i16 %bd16 to i32
  %src = getelementptr inbounds float, ptr addrspace(1) %in, i32 %t
  %v = load float, ptr addrspace(1) %src
  %p = getelementptr inbounds float, ptr addrspace(3) @tree.s, i32 %t
  store float %v, ptr addrspace(3) %p
  %k0 = lshr i32 %bd, 1
  %none = icmp eq i32 %k0, 0
  br i1 %none, label %done, label %loop
loop:
  %k = phi i32 [ %k0, %entry ], [ %k.next, %latch ]
  %active = icmp ult i32 %t, %k
  br i1 %active, label %step, label %latch
step:
  %q = getelementptr inbounds float, ptr addrspace(3) %p, i32 %k
  %a = load float, ptr addrspace(3) %q
  %b = load float, ptr addrspace(3) %p
  %sum = fadd float %a, %b
  store float %sum, ptr addrspace(3) %p
  br label %latch
latch:
  %k.next = lshr i32 %k, 1
  %more = icmp ne i32 %k.next, 0
  br i1 %more, label %loop, label %done
done:
  %is0 = icmp eq i32 %t, 0
  br i1 %is0, label %write, label %exit
write:
  %r = load float, ptr addrspace(3) @tree.s
  store float %r, ptr addrspace(1) %out
  br label %exit
exit:
  ret void
}

define amdgpu_kernel void @tree_overlap(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %ia = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %bdp = getelementptr inbounds i8, ptr addrspace(4) %ia, i64 12
  %bd16 = load i16, ptr addrspace(4) %bdp, align 4
  %bd = zext i16 %bd16 to i32
  %src = getelementptr inbounds float, ptr addrspace(1) %in, i32 %t
  %v = load float, ptr addrspace(1) %src
  %p = getelementptr inbounds float, ptr addrspace(3) @overlap.s, i32 %t
  store float %v, ptr addrspace(3) %p
  %k0 = lshr i32 %bd, 1
  %none = icmp eq i32 %k0, 0
  br i1 %none, label %done, label %loop
loop:
  %k = phi i32 [ %k0, %entry ], [ %k.next, %latch ]
  %active = icmp ult i32 %t, %k
  br i1 %active, label %step, label %latch
step:
  %km1 = add i32 %k, -1
  %q = getelementptr inbounds float, ptr addrspace(3) %p, i32 %km1
  %a = load float, ptr addrspace(3) %q
  %b = load float, ptr addrspace(3) %p
  %sum = fadd float %a, %b
  store float %sum, ptr addrspace(3) %p
  br label %latch
latch:
  %k.next = lshr i32 %k, 1
  %more = icmp ne i32 %k.next, 0
  br i1 %more, label %loop, label %done
done:
  ret void
}

; CHECK-LABEL: halo:
; CHECK: {{s_barrier$|s_barrier_signal -1}}
; CHECK-NOT: {{s_barrier$|s_barrier_signal}}
; CHECK: s_endpgm
define amdgpu_kernel void @halo(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %ia = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %bdp = getelementptr inbounds i8, ptr addrspace(4) %ia, i64 12
  %bd16 = load i16, ptr addrspace(4) %bdp, align 4
  %bd = zext i16 %bd16 to i32
  %own = getelementptr inbounds float, ptr addrspace(3) @halo.s, i32 %t
  store float 1.0, ptr addrspace(3) %own
  %ti = add i32 %t, %bd
  %above = getelementptr inbounds float, ptr addrspace(3) @halo.s, i32 %ti
  store float 2.0, ptr addrspace(3) %above
  %r = add i32 %t, 1
  %next = getelementptr inbounds float, ptr addrspace(3) @halo.s, i32 %r
  %x = load float, ptr addrspace(3) %next
  %dst = getelementptr inbounds float, ptr addrspace(1) %out, i32 %t
  store float %x, ptr addrspace(1) %dst
  ret void
}

; CHECK-LABEL: fill_stride:
; CHECK: {{s_barrier$|s_barrier_signal -1}}
; CHECK-NOT: {{s_barrier$|s_barrier_signal}}
; CHECK: s_endpgm
define amdgpu_kernel void @fill_stride(ptr addrspace(1) %out) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %ia = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %bdp = getelementptr inbounds i8, ptr addrspace(4) %ia, i64 12
  %bd16 = load i16, ptr addrspace(4) %bdp, align 4
  %bd = zext i16 %bd16 to i32
  br label %loop
loop:
  %i = phi i32 [ %t, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr addrspace(3) @fill.s, i32 %i
  store double 0.0, ptr addrspace(3) %p
  %i.next = add nuw nsw i32 %i, %bd
  %more = icmp ult i32 %i.next, 2048
  br i1 %more, label %loop, label %done
done:
  %m = mul i32 %t, 5
  %j = and i32 %m, 2047
  %q = getelementptr inbounds double, ptr addrspace(3) @fill.s, i32 %j
  %x = load double, ptr addrspace(3) %q
  %dst = getelementptr inbounds double, ptr addrspace(1) %out, i32 %t
  store double %x, ptr addrspace(1) %dst
  ret void
}

define amdgpu_kernel void @fill_half_stride(ptr addrspace(1) %out) #0 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %ia = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %bdp = getelementptr inbounds i8, ptr addrspace(4) %ia, i64 12
  %bd16 = load i16, ptr addrspace(4) %bdp, align 4
  %bd = zext i16 %bd16 to i32
  %half = lshr i32 %bd, 1
  br label %loop
loop:
  %i = phi i32 [ %t, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr addrspace(3) @half.s, i32 %i
  store double 0.0, ptr addrspace(3) %p
  %i.next = add nuw nsw i32 %i, %half
  %more = icmp ult i32 %i.next, 2048
  br i1 %more, label %loop, label %done
done:
  ret void
}

@part.s = internal addrspace(3) global [4 x float] poison, align 4
@lane.s = internal addrspace(3) global [4 x float] poison, align 4

; CHECK-LABEL: wave_partials:
; CHECK: {{s_barrier$|s_barrier_signal -1}}
; CHECK-NOT: {{s_barrier$|s_barrier_signal}}
; CHECK: s_endpgm
define amdgpu_kernel void @wave_partials(ptr addrspace(1) %in, ptr addrspace(1) %out) #1 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %src = getelementptr inbounds float, ptr addrspace(1) %in, i32 %t
  %v = load float, ptr addrspace(1) %src
  %lane = and i32 %t, 63
  %first = icmp eq i32 %lane, 0
  br i1 %first, label %write, label %join
write:
  %w = lshr i32 %t, 6
  %p = getelementptr inbounds float, ptr addrspace(3) @part.s, i32 %w
  store float %v, ptr addrspace(3) %p
  br label %join
join:
  %is0 = icmp eq i32 %t, 0
  br i1 %is0, label %sum, label %exit
sum:
  %a = load float, ptr addrspace(3) @part.s
  %q = getelementptr inbounds float, ptr addrspace(3) @part.s, i32 3
  %b = load float, ptr addrspace(3) %q
  %r = fadd float %a, %b
  store float %r, ptr addrspace(1) %out
  br label %exit
exit:
  ret void
}

define amdgpu_kernel void @lane_partials(ptr addrspace(1) %in, ptr addrspace(1) %out) #1 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %src = getelementptr inbounds float, ptr addrspace(1) %in, i32 %t
  %v = load float, ptr addrspace(1) %src
  %lane = and i32 %t, 31
  %first = icmp eq i32 %lane, 0
  br i1 %first, label %write, label %exit
write:
  %w = lshr i32 %t, 6
  %p = getelementptr inbounds float, ptr addrspace(3) @lane.s, i32 %w
  store float %v, ptr addrspace(3) %p
  br label %exit
exit:
  ret void
}

@first.s = internal addrspace(3) global [4 x float] poison, align 4

define amdgpu_kernel void @first_lane(ptr addrspace(1) %in) #1 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %src = getelementptr inbounds float, ptr addrspace(1) %in, i32 %t
  %v = load float, ptr addrspace(1) %src
  %w = lshr i32 %t, 5
  %w0 = icmp eq i32 %w, 0
  br i1 %w0, label %wave0, label %exit
wave0:
  %lane = and i32 %t, 31
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %write, label %exit
write:
  store float %v, ptr addrspace(3) @first.s
  br label %exit
exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"amdhsa_code_object_version", i32 500}

; As the AMDGPU attributor marks kernels that read no y or z id: their
; launches are taken as one-dimensional.
attributes #0 = { "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" }
attributes #1 = { "amdgpu-flat-work-group-size"="1,256" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" }
