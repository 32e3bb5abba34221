; LDS DMA writes wave-size x lane-width bytes from its LDS base; LLVM's LDS
; memoperand says 4 bytes whatever the width. gfx950's 16-byte
; global_load_lds_dwordx4 of wave 0 covers bytes [0, 1024) of @s, so a read
; of s[200] (bytes 800..803) by every work-item needs the transfer's vmcnt
; wait and a barrier; with 4-byte lanes only [0, 256) would be written and
; the read would look independent. Likewise the 12-byte buffer form covers
; [0, 768) and s[100] (bytes 400..403).
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 -O2 -verify-machineinstrs %s -o - | FileCheck %s

@s = internal addrspace(3) global [1024 x i32] poison, align 16

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.global.load.lds(ptr addrspace(1), ptr addrspace(3), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8), ptr addrspace(3), i32, i32, i32, i32, i32)

; CHECK-LABEL: dwordx4:
; CHECK: global_load_lds_dwordx4
; CHECK-NOT: ds_read
; CHECK: s_waitcnt vmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_read_b32 {{v[0-9]+}}, {{v[0-9]+}} offset:800
define amdgpu_kernel void @dwordx4(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %t16 = shl i32 %t, 4
  %g = getelementptr i8, ptr addrspace(1) %in, i32 %t16
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %g, ptr addrspace(3) @s, i32 16, i32 0, i32 0)
  %q = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, i32 200
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  ret void
}

; CHECK-LABEL: buffer_dwordx3:
; CHECK: buffer_load_dwordx3 {{.*}} lds
; CHECK-NOT: ds_read
; CHECK: s_waitcnt vmcnt(0)
; CHECK-NEXT: s_barrier
; CHECK-NEXT: ds_read_b32 {{v[0-9]+}}, {{v[0-9]+}} offset:400
define amdgpu_kernel void @buffer_dwordx3(ptr addrspace(8) %rsrc, ptr addrspace(1) %out) #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %voff = mul i32 %t, 12
  call void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8) %rsrc, ptr addrspace(3) @s, i32 12, i32 %voff, i32 0, i32 0, i32 0)
  %q = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, i32 100
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  ret void
}

; Past the DMA's bytes: s[300] of the dwordx3 form (bytes 1200..1203) needs
; no barrier.
; CHECK-LABEL: buffer_dwordx3_beyond:
; CHECK-NOT: s_barrier
; CHECK: s_endpgm
define amdgpu_kernel void @buffer_dwordx3_beyond(ptr addrspace(8) %rsrc, ptr addrspace(1) %out) #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %voff = mul i32 %t, 12
  call void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8) %rsrc, ptr addrspace(3) @s, i32 12, i32 %voff, i32 0, i32 0, i32 0)
  %q = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, i32 300
  %v = load i32, ptr addrspace(3) %q
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %o
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
