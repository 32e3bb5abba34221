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

// WARN: warning: in function 'own_rows_wide': amdgpu-lds-barriers: DS_WRITE2ST64_B32_gfx9: different work-items may write the same LDS bytes in one execution of this instruction {{.*}}disjoint with at most 256 work-items
// WARN: 1 warning generated

// STRIP-LABEL: rows_loop:
// STRIP-COUNT-1: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: own_rows:
// STRIP-NOT: s_barrier
// STRIP-LABEL: own_rows_wide:
// STRIP: s_barrier

// RACE: 1 error generated
