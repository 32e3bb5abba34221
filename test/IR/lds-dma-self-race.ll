; LDS DMA writes a wave's bytes from the first lane's address, so only
; different waves of one execution can write the same bytes: a slot per wave
; ((tid.x >> 6) * 256 with 64 lanes of 4 bytes) is no race, a slot per pair
; of waves ((tid.x >> 7) * 256) is one, reported like a ds_write's. Pins the
; diagnostic's LDS DMA path, which tests whether waves meet rather than
; work-items.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O2 %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=warning:

; CHECK: warning: {{.*}}GLOBAL_LOAD_LDS_DWORD{{.*}}: different work-items may write the same LDS bytes in one execution of this instruction (address 0 + ((tid.x >> 7) * 256) (256 bytes)

@s = internal addrspace(3) global [1024 x i32] poison, align 16

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.global.load.lds(ptr addrspace(1), ptr addrspace(3), i32, i32, i32)

define amdgpu_kernel void @wave_slots(ptr addrspace(1) %in) #0 !reqd_work_group_size !0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %w = lshr i32 %t, 6
  %slot = shl i32 %w, 8
  %d = getelementptr i8, ptr addrspace(3) @s, i32 %slot
  %t4 = shl i32 %t, 2
  %g = getelementptr i8, ptr addrspace(1) %in, i32 %t4
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %g, ptr addrspace(3) %d, i32 4, i32 0, i32 0)
  ret void
}

define amdgpu_kernel void @wave_pairs(ptr addrspace(1) %in) #0 !reqd_work_group_size !0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %w = lshr i32 %t, 7
  %slot = shl i32 %w, 8
  %d = getelementptr i8, ptr addrspace(3) @s, i32 %slot
  %t4 = shl i32 %t, 2
  %g = getelementptr i8, ptr addrspace(1) %in, i32 %t4
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %g, ptr addrspace(3) %d, i32 4, i32 0, i32 0)
  ret void
}
attributes #0 = { nounwind "amdgpu-flat-work-group-size"="1,256" }
!0 = !{i32 256, i32 1, i32 1}
