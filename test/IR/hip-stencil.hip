// The HIP flow: device code through stock clang-22 with the plugin in the
// pipeline (no MIR round trip), for gfx942 and gfx1201 (wave32). The
// kernel's __syncthreads() calls are missing; the pass places barriers
// before the `if (t == 0)` branch (never inside it), at the join, and at the
// top of the loop for the WAR across the back-edge. Inside the branch, the
// t == 0 work-item loads its own slot buf[1] after storing it: the
// thread-index analysis proves no other work-item's store reaches it, so
// nothing is reported (an index-blind analysis warns that this RAW cannot be
// covered; -amdgpu-lds-barriers-thread-analysis=false shows it).
// RUN: %clang_hip --offload-arch=gfx942 -mllvm -amdgpu-lds-barriers-in-pipeline %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=WARN %s
// WARN-NOT: warning
// RUN: %clang_hip --offload-arch=gfx942 -mllvm -amdgpu-lds-barriers-in-pipeline -mllvm -amdgpu-lds-barriers-thread-analysis=false %s -o /dev/null 2>&1 | FileCheck --check-prefix=BLIND %s
// BLIND: warning: {{.*}}RAW hazard on LDS{{.*}} between DS_WRITE_B32_gfx9 and DS_READ_B32_gfx9 cannot be covered
// RUN: %clang_hip --offload-arch=gfx942 -mllvm -amdgpu-lds-barriers-in-pipeline %s -o - | FileCheck --check-prefix=GFX942 %s
// RUN: %clang_hip --offload-arch=gfx1201 -mllvm -amdgpu-lds-barriers-in-pipeline %s -o - | FileCheck --check-prefix=GFX1201 %s
// RUN: %clang_hip --offload-arch=gfx942 %s -o - | FileCheck --check-prefix=STOCK %s

#define __shared__ __attribute__((shared))
#define __global__ __attribute__((global))

// GFX942-LABEL: stencil:
// GFX942: s_barrier
// GFX942-NEXT: ds_read2_b32
// GFX942: Inner Loop Header
// GFX942: s_waitcnt lgkmcnt(0)
// GFX942-NEXT: s_barrier
// GFX942-NEXT: s_waitcnt vmcnt(0)
// GFX942-NEXT: ds_write_b32
// GFX942-NEXT: s_and_saveexec_b64
// GFX942-NEXT: s_waitcnt lgkmcnt(0)
// GFX942-NEXT: s_barrier
// GFX942-NEXT: s_cbranch_execz
// GFX942-NOT: s_barrier
// GFX942: s_endpgm
// GFX1201-LABEL: stencil:
// GFX1201-NOT: s_barrier{{$}}
// GFX1201: s_barrier_signal -1
// GFX1201: s_barrier_wait -1
// GFX1201: s_endpgm
// STOCK-LABEL: stencil:
// STOCK-NOT: s_barrier
// STOCK: s_endpgm
extern "C" __global__ void stencil(float *out, const float *in, int n) {
  __shared__ float buf[258];
  unsigned t = __builtin_amdgcn_workitem_id_x();
  unsigned base = __builtin_amdgcn_workgroup_id_x() * 256;
  for (int it = 0; it < n; ++it) {
    buf[t + 1] = in[base + t];
    if (t == 0) {
      buf[0] = 0.0f;
      buf[257] = 0.0f;
    }
    float v = buf[t] + buf[t + 1] + buf[t + 2];
    out[base + t] += v;
  }
}
