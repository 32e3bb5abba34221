// Block-stride loops, `for (i = threadIdx.x; i < n; i += blockDim.x)`:
// in each of its own iterations a work-item's index is its id modulo the
// launch size, which is above every id, so two work-items never write the
// same slot, whichever iterations they are in. The sum t + n * blockDim.x
// is exact when the access runs in every iteration and stays inside its
// LDS object (an access outside the object it is based on is undefined):
// no wrap-around can fold two work-items onto one slot.
//
// fill_stride: the loop then a barrier: one barrier, as the author wrote,
//   no warning, and --check is quiet.
// fill_dynamic: the same in dynamic LDS (extern __shared__), whose
//   allocation no target makes as large as 2^20 bytes: no iteration wraps
//   around either. One barrier, no warning, --check quiet.
// stride_copy: a copy loop, which the loop vectorizer versions on
//   `blockDim.x == 1` (a stride of one element), with the last iterations
//   of that version left to the scalar loop, which starts from their
//   merge. Only a launch of one work-item takes that version: its
//   accesses run where the launch size, and so every id, is bounded, and
//   the merge is t for any two work-items. One barrier, no warning, --check
//   quiet (before: a "cannot be covered" warning and a WAW race report).
// zero_bins: bins zeroed in a block-stride loop, counted with atomics,
//   flushed: two barriers, no warning. On gfx1201 its launch size is
//   loaded through an S_ADD_U64 of the kernel argument pointer, which the
//   oracle must add to read the size the launch has.
// stride_overlap: the near miss, Tile[K] and Tile[K + 1] in the same copy
//   loop: work-items t and t + 1 write the same slot, reported.
// half_stride: steps of blockDim.x / 2, not a multiple of the launch size:
//   work-items t and t + blockDim.x / 2 write the same slots (a real
//   write-after-write race), which the pass and the checker report.
// some_iterations: the store only in some iterations, so nothing bounds
//   the index in the others; the pass keeps to what it can prove and
//   reports the pair (a limit, not a race in this kernel).
// The executable oracle runs fill_stride and stride_copy in launches of
// 256, 100 and 1 work-items (it loads the launch's sizes): no race. The
// unit test BlockStridesAgreeWithEnumeration enumerates launches,
// work-items and iterations too.
//
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o %t.942.s 2>%t.942.err
// RUN: FileCheck --check-prefix=STRIP %s < %t.942.s
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning %s < %t.942.err
// RUN: %hip_compile --strip-barriers --arch=gfx1201 %s -o %t.1201.s 2>%t.1201.err
// RUN: FileCheck --check-prefix=STRIP12 %s < %t.1201.s
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning %s < %t.1201.err
// RUN: not %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | FileCheck --check-prefix=RACE --implicit-check-not=error: %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx942 %s -o %t.942.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --function _Z11fill_stridePKdPd %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --function _Z11stride_copyPKfPf %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 100 --function _Z11stride_copyPKfPf %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 1 --function _Z11stride_copyPKfPf %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx1201 %s -o %t.1201.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1201 --addr reg --items 256 --function _Z11stride_copyPKfPf %t.1201.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1201 --addr reg --items 256 --function _Z9zero_binsPKhiPj %t.1201.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 100 --function _Z9zero_binsPKhiPj %t.942.mir | FileCheck --check-prefix=ORACLE %s
#include <hip/hip_runtime.h>

__global__ void fill_stride(const double *In, double *Out) {
  __shared__ double S[4096];
  for (unsigned I = threadIdx.x; I < 4096; I += blockDim.x)
    S[I] = In[I];
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x * 5) & 4095];
}

__global__ void fill_dynamic(const int *In, int *Out, unsigned N) {
  extern __shared__ int D[];
  for (unsigned I = threadIdx.x; I < N; I += blockDim.x)
    D[I] = In[I];
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = D[(threadIdx.x * 5) % N];
}

__global__ void stride_copy(const float *In, float *Out) {
  __shared__ float Tile[128];
  for (unsigned K = threadIdx.x; K < 128; K += blockDim.x)
    Tile[K] = In[blockIdx.x * 128 + K];
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Tile[(threadIdx.x + 1) & 127];
}

__global__ void zero_bins(const unsigned char *In, int N, unsigned *Out) {
  __shared__ unsigned Bins[64];
  for (unsigned I = threadIdx.x; I < 64; I += blockDim.x)
    Bins[I] = 0;
  __syncthreads();
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += blockDim.x * gridDim.x)
    atomicAdd(&Bins[In[I] % 64], 1u);
  __syncthreads();
  for (unsigned I = threadIdx.x; I < 64; I += blockDim.x)
    atomicAdd(&Out[I], Bins[I]);
}

__global__ void stride_overlap(const float *In, float *Out) {
  __shared__ float Tile[129];
  for (unsigned K = threadIdx.x; K < 128; K += blockDim.x) {
    Tile[K] = In[blockIdx.x * 128 + K];
    Tile[K + 1] = In[blockIdx.x * 128 + K];
  }
  // RACE: error: {{.*}}hip-block-stride.hip:[[#@LINE-3]]:13: {{.*}}WAW race on LDS[0, 516)
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Tile[(threadIdx.x + 1) & 127];
}

__global__ void half_stride(const double *In, double *Out) {
  __shared__ double S[4096];
  for (unsigned I = threadIdx.x; I < 4096; I += blockDim.x / 2)
    S[I] = In[I];
  // RACE: error: {{.*}}hip-block-stride.hip:[[#@LINE-1]]:10: {{.*}}WAW race on LDS[0, 32768)
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x * 5) & 4095];
}

__global__ void some_iterations(const double *In, double *Out) {
  __shared__ double S[4096];
  for (unsigned I = threadIdx.x; I < 4096; I += blockDim.x)
    if (In[I] > 0)
      S[I] = In[I];
  // RACE: error: {{.*}}hip-block-stride.hip:[[#@LINE-1]]:12: {{.*}}WAW race on LDS[0, 32768)
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x * 5) & 4095];
}

// WARN: warning: in function '_Z14stride_overlapPKfPf': amdgpu-lds-barriers: DS_WRITE2_B32{{.*}}: different work-items may write the same LDS bytes
// WARN: warning: in function '_Z14stride_overlapPKfPf': amdgpu-lds-barriers: WAW hazard on LDS[0, 516) {{.*}} cannot be covered
// WARN: warning: in function '_Z11half_stridePKdPd': amdgpu-lds-barriers: WAW hazard on LDS[0, 32768) {{.*}} cannot be covered
// WARN: warning: in function '_Z15some_iterationsPKdPd': amdgpu-lds-barriers: WAW hazard on LDS[0, 32768) {{.*}} cannot be covered
// WARN: 4 warnings generated

// STRIP-LABEL: _Z11fill_stridePKdPd:
// STRIP-COUNT-1: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z12fill_dynamicPKiPij:
// STRIP-COUNT-1: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z11stride_copyPKfPf:
// STRIP-COUNT-1: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z9zero_binsPKhiPj:
// STRIP-COUNT-2: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z14stride_overlapPKfPf:
// STRIP-LABEL: _Z11half_stridePKdPd:

// STRIP12-LABEL: _Z11fill_stridePKdPd:
// STRIP12: s_barrier_signal -1
// STRIP12: s_barrier_wait -1
// STRIP12-NOT: s_barrier
// STRIP12-LABEL: _Z12fill_dynamicPKiPij:
// STRIP12: s_barrier_signal -1
// STRIP12: s_barrier_wait -1
// STRIP12-NOT: s_barrier
// STRIP12-LABEL: _Z11stride_copyPKfPf:
// STRIP12: s_barrier_signal -1
// STRIP12: s_barrier_wait -1
// STRIP12-NOT: s_barrier
// STRIP12-LABEL: _Z9zero_binsPKhiPj:
// STRIP12: s_barrier_signal -1
// STRIP12: s_barrier_wait -1
// STRIP12: s_barrier_signal -1
// STRIP12: s_barrier_wait -1
// STRIP12-NOT: s_barrier
// STRIP12-LABEL: _Z14stride_overlapPKfPf:
// STRIP12-LABEL: _Z11half_stridePKdPd:

// ORACLE: races: 0, hangs: 0

// RACE: 3 errors generated
