// A term of unknown range in an LDS address, such as a loop counter with a
// runtime bound in s[i][t]: the access cannot leave its object (an access
// outside the object it is based on is undefined), so within the object
// the term is a multiple of the row size in a known range, and two
// work-items of one row never meet. A copy of an unrolled loop body that
// would step past the object runs in no execution without undefined
// behaviour: it meets nothing.
//
// rows_loop: rows filled in a loop of n iterations, then one row read in
//   another order: one barrier, as the author wrote, no warning, and
//   --check is quiet.
// own_rows: every work-item reads back only its own column: no barrier
//   (the author's one orders nothing).
// own_rows_wide: the same without __launch_bounds__(256): up to 1024
//   work-items, and s[0][t + 256] is s[1][t]. A real self-race under such
//   launches, which the pass and the checker report.
// rows_nounroll: own_rows_wide's rows one at a time. The row is a value
//   every work-item shares in one execution of the store, so no two
//   work-items write one slot there: no self-race warning (with a row per
//   work-item drawn freely, s[0][t + 256] and s[1][t] would be one). Across
//   iterations they are, which --check reports.
// halo: a 1-D stencil whose tile has room for 256 work-items and a halo
//   of 7 each side, s[t + 7] and, under t < 7, s[t] and s[t + 263]. Every
//   work-item reads s[t + 14], which stays inside the tile only for t <=
//   255: the launch has at most 256 work-items in x, so s[t + 7] never
//   meets s[t' + 263]. One barrier, no warning, --check quiet.
// halo_some_read: the same with the reads under a condition on the
//   global index: no access that every work-item runs bounds the launch,
//   and with more than 256 work-items s[t + 7] and s[t' + 263] are one
//   slot, a race that --check reports.
// The unit test ObjectBoundsHoldEveryAccessInside checks the bound by
// enumerating work-items and addresses inside the object.
//
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o %t.942.s 2>%t.942.err
// RUN: FileCheck --check-prefix=STRIP %s < %t.942.s
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning %s < %t.942.err
// RUN: not %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | FileCheck --check-prefix=RACE --implicit-check-not=error: %s
#include <hip/hip_runtime.h>

extern "C" __global__ __launch_bounds__(256) void rows_loop(const float *X,
                                                            float *Out, int N) {
  __shared__ float S[4][256];
  unsigned T = threadIdx.x;
  for (int I = 0; I < N; I++)
    S[I][T] = X[I * 256 + T];
  __syncthreads();
  Out[T] = S[1][255 - T];
}

extern "C" __global__ __launch_bounds__(256) void own_rows(const float *X,
                                                           float *Out, int N) {
  __shared__ float S[4][256];
  unsigned T = threadIdx.x;
  for (int I = 0; I < N; I++)
    S[I][T] = X[I * 256 + T];
  __syncthreads();
  float A = 0;
  for (int I = 0; I < N; I++)
    A += S[I][T];
  Out[T] = A;
}

extern "C" __global__ void own_rows_wide(const float *X, float *Out, int N) {
  __shared__ float S[4][256];
  unsigned T = threadIdx.x;
  for (int I = 0; I < N; I++)
    S[I][T] = X[I * 256 + T];
  // RACE: error: {{.*}}hip-object-bounds.hip:[[#@LINE-1]]:{{.*}}WAW race on LDS[0, 4096)
  __syncthreads();
  float A = 0;
  for (int I = 0; I < N; I++)
    A += S[I][T];
  Out[T] = A;
}

extern "C" __global__ void rows_nounroll(const float *X, float *Out, int N) {
  __shared__ float S[4][256];
  unsigned T = threadIdx.x;
#pragma clang loop unroll(disable) interleave(disable) vectorize(disable)
  for (int I = 0; I < N; I++)
    S[I][T] = X[I * 256 + T];
  // RACE: error: {{.*}}hip-object-bounds.hip:[[#@LINE-1]]:{{.*}}WAW race on LDS[0, 4096)
  __syncthreads();
  Out[T] = S[1][T];
}

#define HALO 7
#define TILE 256
extern "C" __global__ void halo(const int *In, int *Out) {
  __shared__ int S[TILE + 2 * HALO];
  int G = threadIdx.x + blockIdx.x * blockDim.x;
  int L = threadIdx.x + HALO;
  S[L] = In[G];
  if (threadIdx.x < HALO) {
    S[L - HALO] = In[G - HALO];
    S[L + TILE] = In[G + TILE];
  }
  __syncthreads();
  int Sum = 0;
  for (int K = -HALO; K <= HALO; K++)
    Sum += S[L + K];
  Out[G] = Sum;
}

extern "C" __global__ void halo_some_read(const int *In, int *Out, int N) {
  __shared__ int S[TILE + 2 * HALO];
  int G = threadIdx.x + blockIdx.x * blockDim.x;
  int L = threadIdx.x + HALO;
  S[L] = In[G];
  if (threadIdx.x < HALO) {
    S[L - HALO] = In[G - HALO];
    S[L + TILE] = In[G + TILE];
    // RACE: error: {{.*}}hip-object-bounds.hip:[[#@LINE-1]]:{{.*}}WAW race on LDS[0, 1080)
  }
  __syncthreads();
  if (G < N) {
    int Sum = 0;
    for (int K = -HALO; K <= HALO; K++)
      Sum += S[L + K];
    Out[G] = Sum;
  }
}

// WARN: warning: in function 'own_rows_wide': amdgpu-lds-barriers: DS_WRITE2ST64_B32_gfx9: different work-items may write the same LDS bytes in one execution of this instruction {{.*}}disjoint with at most 256 work-items
// WARN: 1 warning generated

// STRIP-LABEL: rows_loop:
// STRIP-COUNT-1: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: own_rows:
// STRIP-NOT: s_barrier
// STRIP-LABEL: own_rows_wide:
// STRIP: s_barrier
// STRIP-LABEL: halo:
// STRIP-COUNT-1: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: halo_some_read:
// STRIP: s_barrier

// RACE: 3 errors generated
