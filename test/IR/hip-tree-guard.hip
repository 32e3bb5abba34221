// Guards on a value the workgroup shares: the tree step
// `if (T < K) S[T] += S[T + K]` writes below K and reads from K on, so no
// two work-items of one step meet, whatever K is. The guard and the
// addresses hold K as one symbol; when K is a value of one loop iteration
// (the stride halved each time round), that holds only for accesses of
// one iteration, and the steps of different iterations still need a
// barrier between them.
//
// tree_stride: K from blockDim.x / 2 down to 1. With --strip-barriers the
//   pass places one barrier, at the top of the loop (it also covers the
//   loads before the loop); the author wrote two. --check is quiet.
// tree_nounroll: K from 128 down, the loop kept; the oracle runs all four
//   waves (eight on wave32): no race.
// step_arg: one step on a kernel argument (an unsigned short, so that
//   T + N cannot wrap around).
// half_overlap: reads S[T + K / 2], which other work-items of the same
//   step write: the pass warns, and --check reports the race.
// halo: a stencil tile whose right halo S[T + blockDim.x + R] lies above
//   every work-item's own S[T + R] (the id is below the launch size, an
//   implicit guard): one barrier, as the author wrote (two before, for a
//   write-after-write between them). The oracle runs it with the launch
//   size it loads: no race.
// halo_width: a convolution tile in dynamic LDS with halos of a
//   runtime width N on both sides: the left one at S[T - (blockDim.x -
//   N)] for T >= blockDim.x - N, below every S[N + T], the right one above
//   it. N comes from a kernel argument that the load-store vectorizer
//   loads with its neighbour, as a vector: one value the workgroup shares.
//   One barrier, as the author wrote, no warning (before: two, and
//   --check reported write-after-write races). Oracle: no race in 64 and
//   256 work-items.
// upper_step: a step of the upper half, `Idx < D` on `Idx = T - 128`,
//   which is `T - 128 < D`: T below D + 128, so the writes lie below the
//   reads. No barrier inside the step (before: a warning and a race
//   report).
// wrap_guard: the near miss, `T - 64 < S` with S an unsigned argument
//   of any value: for S near 2^32, T - 64 wraps and work-items below 64
//   pass too, so the guard bounds T from above only. Its two accesses are
//   not one wave's, and --check reports the race.
// minmax_halves: a min and a max tree side by side, the lower half of the
//   work-items on one array and the upper half on the other, each step
//   guarded by `Idx < D && Idx + D < End` (a select, as `&&` becomes): the
//   id bound holds under the conjunction, so the steps after the first
//   run in one wave each and need no barrier. Two barriers against the
//   author's eight (one per unrolled step, and one after the loads), no
//   warning; the oracle finds no race on gfx942, gfx1030 and gfx1201.
//
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o %t.942.s 2>%t.942.err
// RUN: FileCheck --check-prefix=STRIP %s < %t.942.s
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning %s < %t.942.err
// RUN: %hip_compile --strip-barriers --arch=gfx1201 %s -o %t.1201.s 2>%t.1201.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning %s < %t.1201.err
// RUN: not %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | FileCheck --check-prefix=RACE --implicit-check-not=error: %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx942 %s -o %t.942.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --items 256 --function _Z13tree_nounrollPKfPf %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --items 256 --function _Z8step_argPKfPft %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --function _Z4haloPKfPf %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 64 --args 5 --function _Z10halo_widthPKfPfii %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --args 5 --function _Z10halo_widthPKfPfii %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --args 5 --function _Z10upper_stepPKfPft %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --function _Z13minmax_halvesPKiPii %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx1030 %s -o %t.1030.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1030 --addr reg --items 256 --function _Z13minmax_halvesPKiPii %t.1030.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx1201 %s -o %t.1201.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1201 --addr reg --items 256 --function _Z13minmax_halvesPKiPii %t.1201.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1201 --items 256 --function _Z13tree_nounrollPKfPf %t.1201.mir | FileCheck --check-prefix=ORACLE %s
#include <hip/hip_runtime.h>

__global__ void tree_stride(const float *In, float *Out) {
  __shared__ float S[1024];
  unsigned T = threadIdx.x;
  S[T] = In[blockIdx.x * blockDim.x + T];
  __syncthreads();
  for (unsigned K = blockDim.x / 2; K != 0; K /= 2) {
    if (T < K)
      S[T] += S[T + K];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = S[0];
}

__global__ void __launch_bounds__(256) tree_nounroll(const float *In,
                                                     float *Out) {
  __shared__ float S[256];
  unsigned T = threadIdx.x;
  S[T] = In[blockIdx.x * 256 + T];
  __syncthreads();
#pragma nounroll
  for (unsigned K = 128; K != 0; K >>= 1) {
    if (T < K)
      S[T] += S[T + K];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = S[0];
}

__global__ void __launch_bounds__(256) step_arg(const float *In, float *Out,
                                                unsigned short N) {
  __shared__ float S[512];
  unsigned T = threadIdx.x;
  S[T] = In[T];
  S[T + 256] = In[T + 256];
  __syncthreads();
  if (T < N)
    S[T] += S[T + N];
  __syncthreads();
  Out[T] = S[T];
}

__global__ void __launch_bounds__(256) half_overlap(const float *In,
                                                    float *Out) {
  __shared__ float S[512];
  unsigned T = threadIdx.x;
  S[T] = In[T];
  __syncthreads();
  for (unsigned K = 128; K != 0; K >>= 1) {
    if (T < K)
      S[T] += S[T + K / 2];
      // RACE: error: {{.*}}hip-tree-guard.hip:[[#@LINE-1]]:12: {{.*}}WAR race on LDS[0, 2048) between DS_READ{{.*}} and DS_WRITE_B32
    __syncthreads();
  }
  Out[T] = S[T];
}

__global__ void halo(const float *In, float *Out) {
  extern __shared__ float S[];
  int T = threadIdx.x;
  int G = blockIdx.x * blockDim.x + T;
  S[T + 3] = In[G];
  if (T < 3) {
    S[T] = G >= 3 ? In[G - 3] : 0.f;
    S[T + blockDim.x + 3] = In[G + blockDim.x];
  }
  __syncthreads();
  float Sum = 0;
  for (int K = 0; K <= 6; ++K)
    Sum += S[T + K];
  Out[G] = Sum;
}

__global__ void __launch_bounds__(256) minmax_halves(const int *In, int *Out,
                                                     int N) {
  __shared__ int Min[128], Max[128];
  int T = threadIdx.x;
  int End = min(N - (int)blockIdx.x * 128, 128);
  if (T < 128)
    Min[T] = In[blockIdx.x * 256 + T];
  else
    Max[T - 128] = In[blockIdx.x * 256 + T];
  __syncthreads();
  for (int D = 64; D > 0; D >>= 1) {
    if (T < 128) {
      int Idx = T;
      if (Idx < D && Idx + D < End)
        Min[Idx] = min(Min[Idx], Min[Idx + D]);
    } else {
      int Idx = T - 128;
      if (Idx < D && Idx + D < End)
        Max[Idx] = max(Max[Idx], Max[Idx + D]);
    }
    __syncthreads();
  }
  if (T == 0) {
    Out[2 * blockIdx.x] = Min[0];
    Out[2 * blockIdx.x + 1] = Max[0];
  }
}

__global__ void halo_width(const float *In, float *Out, int Width,
                           int MaskWidth) {
  extern __shared__ float S[];
  unsigned T = threadIdx.x, B = blockDim.x;
  int N = MaskWidth / 2;
  int Left = (blockIdx.x - 1) * B + T, Right = (blockIdx.x + 1) * B + T;
  if (T >= B - N)
    S[T - (B - N)] = Left < 0 ? 0.f : In[Left];
  S[N + T] = In[blockIdx.x * B + T];
  if (T < N)
    S[T + B + N] = Right >= Width ? 0.f : In[Right];
  __syncthreads();
  float Sum = 0;
  for (int K = 0; K < MaskWidth; ++K)
    Sum += S[T + K];
  Out[blockIdx.x * B + T] = Sum;
}

__global__ void __launch_bounds__(256) upper_step(const float *In,
                                                  float *Out,
                                                  unsigned short D) {
  __shared__ float S[256];
  unsigned T = threadIdx.x;
  S[T] = In[T];
  __syncthreads();
  if (T >= 128) {
    int Idx = T - 128;
    if (Idx < D)
      S[Idx + 128] += S[Idx + 128 + D];
  }
  __syncthreads();
  Out[T] = S[255 - T];
}

__global__ void __launch_bounds__(128) wrap_guard(float *Out, unsigned S) {
  __shared__ float A[128];
  unsigned T = threadIdx.x;
  if (T - 64 < S) {
    A[T ^ 1] = T;
    Out[T] = A[(T + 32) & 127];
    // RACE: error: {{.*}}hip-tree-guard.hip:[[#@LINE-1]]:14: {{.*}}RAW race on LDS[0, 512)
  }
}

// WARN: warning: in function '_Z12half_overlapPKfPf': amdgpu-lds-barriers: WAR hazard on LDS[0, 2048) between DS_READ{{.*}} cannot be covered
// WARN-NEXT: 1 warning generated

// STRIP-LABEL: _Z11tree_stridePKfPf:
// STRIP-COUNT-1: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z13tree_nounrollPKfPf:
// STRIP-LABEL: _Z4haloPKfPf:
// STRIP-COUNT-1: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z13minmax_halvesPKiPii:
// STRIP-COUNT-2: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z10halo_widthPKfPfii:
// STRIP-COUNT-1: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z10upper_stepPKfPft:
// STRIP-COUNT-2: s_barrier
// STRIP-NOT: s_barrier
// STRIP: .end_amdhsa_kernel

// RACE: 2 errors generated

// ORACLE: executed ({{[0-9]+}}/{{[0-9]+}} runs complete), races: 0, hangs: 0
