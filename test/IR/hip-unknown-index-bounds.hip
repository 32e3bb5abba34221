// An LDS address with a per-work-item term of known range but no work-item
// id in it (b[idx[t] & 255]) tells no two work-items apart, yet its bytes
// lie in b: module LDS lowering packs every variable of the kernel in one
// block, and the access is narrowed to the bytes it may touch in that
// block instead of the whole block.
//
// two_arrays: an atomic on Cnt and a read of Vals, both at data-dependent
//   indices, between two barriers: they cannot meet, so the two barriers
//   stay two (before, a third went between them and --check reported an
//   atomic race). The oracle runs the stripped output: no race.
// same_array: the near miss, the atomic on Vals itself: the pair meets,
//   --check reports the author's race and --strip-barriers moves the second
//   barrier between them (the final read of Cnt needs none: the first
//   barrier orders it after Cnt's initialization).
//
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o - 2>&1 | FileCheck --check-prefix=STRIP --implicit-check-not=warning %s
// RUN: not %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | FileCheck --check-prefix=RACE --implicit-check-not=error: %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx942 %s -o %t.mir
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --function _Z10two_arraysPKiS0_Pi %t.mir | FileCheck --check-prefix=ORACLE %s
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(256)
    two_arrays(const int *In, const int *Idx, int *Out) {
  __shared__ int Cnt[64];
  __shared__ int Vals[256];
  unsigned T = threadIdx.x;
  Vals[T] = In[T];
  if (T < 64)
    Cnt[T] = 0;
  __syncthreads();
  atomicAdd(&Cnt[In[blockIdx.x * 256 + T] & 63], 1);
  int V = Vals[Idx[T] & 255];
  __syncthreads();
  if (T < 64)
    Out[blockIdx.x * 64 + T] = Cnt[T] + V;
}

__global__ void __launch_bounds__(256)
    same_array(const int *In, const int *Idx, int *Out) {
  __shared__ int Cnt[64];
  __shared__ int Vals[256];
  unsigned T = threadIdx.x;
  Vals[T] = In[T];
  if (T < 64)
    Cnt[T] = 0;
  __syncthreads();
  atomicAdd(&Vals[In[blockIdx.x * 256 + T] & 255], 1);
  int V = Vals[Idx[T] & 255];
  __syncthreads();
  if (T < 64)
    Out[blockIdx.x * 64 + T] = Cnt[T] + V;
}

// STRIP-LABEL: _Z10two_arraysPKiS0_Pi:
// STRIP-COUNT-2: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z10same_arrayPKiS0_Pi:
// STRIP: s_barrier
// STRIP: ds_add_u32
// STRIP: s_barrier
// STRIP-NEXT: ds_read_b32 v{{[0-9]+}}, v{{[0-9]+}}{{$}}
// STRIP-NOT: s_barrier
// STRIP: .end_amdhsa_kernel

// RACE: error: {{.*}}hip-unknown-index-bounds.hip:48:11: amdgpu-lds-barriers: atomic race on LDS[0, 1024) between DS_ADD_U32{{.*}} and DS_READ_B32
// RACE: 1 error generated

// ORACLE: _Z10two_arraysPKiS0_Pi: executed (21/21 runs complete), races: 0, hangs: 0
