; Straight-line code through the whole llc pipeline on gfx942, the pass
; joining after si-memory-legalizer. Every work-item writes its own slot and
; reads its neighbour's, A[(tid + 1) & 255]: LLVM cannot prove the two
; independent, so the scheduler keeps their order, and another wave's write
; races with the read. The pass puts s_waitcnt lgkmcnt(0) (the write must be
; complete) and s_barrier between them, and nowhere else.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - | FileCheck %s
; Without -amdgpu-lds-barriers-in-pipeline the pipeline is stock: no barrier at all.
; RUN: %llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 -verify-machineinstrs %s -o - | FileCheck --check-prefix=STOCK %s

@a = internal addrspace(3) global [256 x i32] poison, align 4
@b = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()

; CHECK-LABEL: raw:
; CHECK-NOT: s_barrier
; CHECK: ds_write_b32
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
; STOCK-LABEL: raw:
; STOCK-NOT: s_barrier
; STOCK: s_endpgm
define amdgpu_kernel void @raw(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

; Two objects written, then both read: the two windows overlap, and one
; barrier before the first read covers both (the fewest barriers). The
; indices differ so that llc does not merge the accesses into one
; ds_write2/ds_read2.
; CHECK-LABEL: raw_two_windows_one_barrier:
; CHECK-NOT: s_barrier
; CHECK: ds_write_b32
; CHECK: ds_write_b32
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
define amdgpu_kernel void @raw_two_windows_one_barrier(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %tid
  %rev = sub i32 255, %tid
  %pb = getelementptr [256 x i32], ptr addrspace(3) @b, i32 0, i32 %rev
  store i32 %tid, ptr addrspace(3) %pa
  %x = mul i32 %tid, 3
  store i32 %x, ptr addrspace(3) %pb
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %qa = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %t2
  %u1 = add i32 %tid, 7
  %u2 = and i32 %u1, 255
  %qb = getelementptr [256 x i32], ptr addrspace(3) @b, i32 0, i32 %u2
  %va = load i32, ptr addrspace(3) %qa
  %vb = load i32, ptr addrspace(3) %qb
  %s = add i32 %va, %vb
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %o
  ret void
}

; The write and the read touch different LDS variables (LDS lowering's
; alias scopes tell them apart): no hazard, no barrier.
; CHECK-LABEL: distinct_objects:
; CHECK-NOT: s_barrier
; CHECK-DAG: ds_write_b32
; CHECK-DAG: ds_read_b32
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
define amdgpu_kernel void @distinct_objects(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @b, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

; Write-after-read: the neighbour's slot is read, then every work-item
; overwrites its own. The barrier waits for the read to complete.
; CHECK-LABEL: war:
; CHECK: ds_read_b32
; CHECK-NOT: ds_
; CHECK: s_waitcnt lgkmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_write_b32
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
define amdgpu_kernel void @war(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %q
  %p = getelementptr [256 x i32], ptr addrspace(3) @a, i32 0, i32 %tid
  %x = mul i32 %tid, 3
  store i32 %x, ptr addrspace(3) %p
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
