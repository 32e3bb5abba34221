; Every generation's output assembles: the kernel goes through the whole
; pipeline with the pass to an object file (an opcode the subtarget lacks
; fails the encoding), and the assembly shows each generation's form.
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %s -o %t.gfx942.o
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -filetype=obj %s -o %t.gfx1030.o
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 -filetype=obj %s -o %t.gfx1100.o
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 -filetype=obj %s -o %t.gfx1201.o
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1250 -filetype=obj %s -o %t.gfx1250.o
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 %s -o - | FileCheck --check-prefix=GFX10 %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 %s -o - | FileCheck --check-prefix=GFX11 %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1201 %s -o - | FileCheck --check-prefix=SPLIT %s
; RUN: %llc -amdgpu-lds-barriers-in-pipeline -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1250 %s -o - | FileCheck --check-prefix=SPLIT %s

@lds = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()

; GFX10-LABEL: raw:
; GFX10: ds_write_b32
; GFX10: s_waitcnt lgkmcnt(0)
; GFX10-NEXT: s_barrier
; GFX10-NEXT: ds_read_b32
; GFX11-LABEL: raw:
; GFX11: ds_store_b32
; GFX11: global_load_b32
; GFX11-NEXT: s_waitcnt lgkmcnt(0)
; GFX11-NEXT: s_barrier
; GFX11-NEXT: ds_load_b32
; The signal follows the store at once; the global load that does not
; touch LDS stays between signal and wait.
; SPLIT-LABEL: raw:
; SPLIT: ds_store_b32
; SPLIT-NEXT: s_wait_dscnt 0x0
; SPLIT-NEXT: s_barrier_signal -1
; SPLIT: global_load_b32
; SPLIT: s_barrier_wait -1
; SPLIT-NEXT: ds_load_b32
define amdgpu_kernel void @raw(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  %g = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %x = load i32, ptr addrspace(1) %g
  %x2 = mul i32 %x, %x
  %t1 = add i32 %tid, 1
  %t2 = and i32 %t1, 255
  %q = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %t2
  %v = load i32, ptr addrspace(3) %q
  %s = add i32 %v, %x2
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %o
  ret void
}
