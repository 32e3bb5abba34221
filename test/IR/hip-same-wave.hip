// Same-wave pairs: accesses that only the work-items of one wave run (the
// conditions on the id that dominate them keep the x id within one wave's
// run and the y and z ids at 0) are ordered by that wave's in-order DS
// operations: no barrier, no warning, no race report.
//
// reduce_tail: a tree reduction whose last six steps run under t < 32, one
//   wave on every target, without barriers. The author's three barriers
//   are all kept; with --strip-barriers the pass places two on wave64 (the
//   t < 64 step is wave 0's too) and three on wave32.
// tail64: the same steps under t < 64: one wave on gfx942, two on gfx1030,
//   where the WAR between them cannot be covered inside the branch.
// lagged: a lagged recurrence stepped through a history buffer by wave 0
//   alone (T < 32), a barrier after each step as the author wrote. Loop
//   strength reduction leaves the guard on `trunc (zext T)`, which is T:
//   the steps are wave 0's, and --strip-barriers keeps two barriers of the
//   author's ten, on every target (before: ten and a "cannot be covered"
//   warning; --check reported a race).
// wave_four: steps under `T >= 128 && T < 160`, which instcombine turns
//   into `(T & 992) == 128`: the ids that condition keeps are one wave's
//   on every target, so the steps need no barrier (before: three race
//   reports and a warning).
// reverse_small: a block of at most 32 work-items (`blockDim.x <= 32`,
//   a condition on the launch size, which holds in the whole workgroup)
//   is one wave on every target: its path reads what other work-items
//   wrote without a barrier, and --check is quiet (before: a race report).
// reverse_64: the near miss, `blockDim.x <= 64`, two waves on wave32: the
//   race is reported on gfx1030 only, and the pass's one barrier comes
//   before the branch there.
// The oracle runs every wave of the stripped outputs: no race. With the
// barriers deleted it finds the races.
//
// RUN: %hip_compile --arch=gfx942 %s -o /dev/null 2>&1 | count 0
// RUN: %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | count 0
// RUN: %hip_compile --arch=gfx942 %s -o - | FileCheck %s
// RUN: %hip_compile --arch=gfx1030 %s -o /dev/null 2>&1 | FileCheck --check-prefix=W32 %s
// RUN: %hip_compile --arch=gfx1030 %s -o - 2>/dev/null | FileCheck %s
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o - 2>&1 | FileCheck --check-prefix=STRIP64 %s
// RUN: %hip_compile --strip-barriers --arch=gfx1030 %s -o - 2>/dev/null | FileCheck --check-prefix=STRIP32 %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx942 %s -o %t.942.mir
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --function _Z11reduce_tailPKfPf %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx1030 %s -o %t.1030.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1030 --function _Z11reduce_tailPKfPf %t.1030.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --function _Z13volatile_tailPKfPf %t.942.mir | FileCheck --check-prefix=ORACLE-V %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1030 --function _Z13volatile_tailPKfPf %t.1030.mir | FileCheck --check-prefix=ORACLE-V %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --args 5 --items 256 --function _Z6laggedPji %t.942.mir | FileCheck --check-prefix=ORACLE-L %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1030 --addr reg --args 5 --items 256 --function _Z6laggedPji %t.1030.mir | FileCheck --check-prefix=ORACLE-L %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --function _Z9wave_fourPKfPf %t.942.mir | FileCheck --check-prefix=ORACLE-R %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1030 --addr reg --items 256 --function _Z9wave_fourPKfPf %t.1030.mir | FileCheck --check-prefix=ORACLE-R %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 32 --function _Z13reverse_smallPKfPf %t.942.mir | FileCheck --check-prefix=ORACLE-R %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1030 --addr reg --items 32 --function _Z13reverse_smallPKfPf %t.1030.mir | FileCheck --check-prefix=ORACLE-R %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1030 --addr reg --items 64 --function _Z10reverse_64PKfPf %t.1030.mir | FileCheck --check-prefix=ORACLE-R %s
// RUN: not %hip_compile --check --arch=gfx1030 %s -o /dev/null 2>&1 | FileCheck --check-prefix=RACE32 %s
// RUN: grep -v '^\s*S_BARRIER$' %t.942.mir > %t.none942.mir
// RUN: not %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --args 5 --items 256 --function _Z6laggedPji %t.none942.mir | FileCheck --check-prefix=ORACLE-LNONE %s
// RUN: grep -v '^\s*S_BARRIER$' %t.1030.mir > %t.none.mir
// RUN: not %python %S/../../utils/oracle/mir_exec.py --cpu gfx1030 --function _Z13volatile_tailPKfPf %t.none.mir | FileCheck --check-prefix=ORACLE-NONE %s
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(256) reduce_tail(const float *In,
                                                   float *Out) {
  __shared__ float S[256];
  unsigned T = threadIdx.x;
  S[T] = In[blockIdx.x * 256 + T];
  __syncthreads();
  for (unsigned K = 128; K > 32; K >>= 1) {
    if (T < K)
      S[T] += S[T + K];
    __syncthreads();
  }
  if (T < 32) {
    S[T] += S[T + 32];
    S[T] += S[T + 16];
    S[T] += S[T + 8];
    S[T] += S[T + 4];
    S[T] += S[T + 2];
    S[T] += S[T + 1];
  }
  if (T == 0)
    Out[blockIdx.x] = S[0];
}

__global__ void __launch_bounds__(256) tail64(const float *In, float *Out) {
  __shared__ float S[256];
  unsigned T = threadIdx.x;
  S[T] = In[blockIdx.x * 256 + T];
  __syncthreads();
  if (T < 64) {
    S[T] += S[T + 64];
    S[T] += S[T + 32];
    // RACE32: error: {{.*}}hip-same-wave.hip:[[#@LINE-1]]:10: {{.*}}WAR race on LDS[0, 1024)
  }
  if (T == 0)
    Out[blockIdx.x] = S[0];
}

// volatile_tail: reduce_tail's steps through a `volatile` pointer, as the
//   classic warp reduction writes them: FLAT accesses whose generic pointer
//   is cast from the LDS array access that array (the same wave still runs
//   both ends), so they get the same barriers. The oracle computes their
//   LDS addresses from the aperture: with the barriers deleted it finds the
//   race between the tail's FLAT loads and another wave's DS writes.
__device__ void warpReduce(volatile float *S, unsigned T) {
  S[T] += S[T + 32];
  S[T] += S[T + 16];
  S[T] += S[T + 8];
  S[T] += S[T + 4];
  S[T] += S[T + 2];
  S[T] += S[T + 1];
}

__global__ void __launch_bounds__(256) volatile_tail(const float *In,
                                                     float *Out) {
  __shared__ float S[256];
  unsigned T = threadIdx.x;
  S[T] = In[blockIdx.x * 256 + T];
  __syncthreads();
  for (unsigned K = 128; K > 32; K >>= 1) {
    if (T < K)
      S[T] += S[T + K];
    __syncthreads();
  }
  if (T < 32)
    warpReduce(S, T);
  if (T == 0)
    Out[blockIdx.x] = S[0];
}

__global__ void __launch_bounds__(256) lagged(unsigned *X, int Rounds) {
  __shared__ unsigned Buf[512];
  unsigned *Hist = &Buf[256];
  int T = threadIdx.x;
  Buf[T] = X[T];
  __syncthreads();
  for (int R = 1; R < (Rounds & 7); R++) {
    for (int I = 0; I < 256; I += 32) {
      if (T < 32)
        Hist[I + T] = Hist[I + T - 24] + Hist[I + T - 100] + Hist[I + T - 256];
      __syncthreads();
    }
    X[R * 256 + T] = Buf[T] = Hist[T];
    __syncthreads();
  }
}

__global__ void __launch_bounds__(256) wave_four(const float *In, float *Out) {
  __shared__ float S[256];
  unsigned T = threadIdx.x;
  S[T] = In[T];
  __syncthreads();
  if (T >= 128 && T < 160) {
    S[T] += S[T ^ 1];
    S[T] += S[T ^ 2];
    S[T] += S[T ^ 4];
  }
  __syncthreads();
  Out[T] = S[255 - T];
}

__global__ void reverse_small(const float *In, float *Out) {
  __shared__ float S[1024];
  unsigned T = threadIdx.x, N = blockDim.x;
  S[T] = In[blockIdx.x * N + T];
  if (N <= 32) {
    Out[blockIdx.x * N + T] = S[N - 1 - T] + S[T ^ 1];
    return;
  }
  __syncthreads();
  Out[blockIdx.x * N + T] = S[N - 1 - T];
}
__global__ void reverse_64(const float *In, float *Out) {
  __shared__ float S[1024];
  unsigned T = threadIdx.x, N = blockDim.x;
  S[T] = In[blockIdx.x * N + T];
  if (N <= 64) {
    Out[blockIdx.x * N + T] = S[N - 1 - T] + S[T ^ 1];
    // RACE32: error: {{.*}}hip-same-wave.hip:[[#@LINE-1]]:31: {{.*}}RAW race on LDS[0, 4096) between DS_WRITE_B32{{.*}} and DS_READ_B32
    return;
  }
  __syncthreads();
  Out[blockIdx.x * N + T] = S[N - 1 - T];
}

// W32: warning: in function '_Z6tail64PKfPf': amdgpu-lds-barriers: WAR hazard on LDS[0, 1024) between DS_READ{{.*}} cannot be covered: every point that separates them depends on the divergent branch
// W32-NEXT: 1 warning generated
// CHECK-LABEL: _Z11reduce_tailPKfPf:
// CHECK-COUNT-3: s_barrier
// CHECK-NOT: s_barrier
// CHECK-LABEL: _Z6tail64PKfPf:
// CHECK-COUNT-1: s_barrier
// CHECK-NOT: s_barrier
// CHECK-LABEL: _Z13volatile_tailPKfPf:
// CHECK-COUNT-3: s_barrier
// CHECK-NOT: s_barrier
// CHECK-LABEL: _Z6laggedPji:
// CHECK-COUNT-10: s_barrier
// CHECK-NOT: s_barrier
// CHECK: .end_amdhsa_kernel

// STRIP64-NOT: warning
// STRIP64-LABEL: _Z11reduce_tailPKfPf:
// STRIP64-COUNT-2: s_barrier
// STRIP64-NOT: s_barrier
// STRIP64-LABEL: _Z6tail64PKfPf:
// STRIP64-COUNT-1: s_barrier
// STRIP64-NOT: s_barrier
// STRIP64-LABEL: _Z13volatile_tailPKfPf:
// STRIP64-COUNT-2: s_barrier
// STRIP64-NOT: s_barrier
// STRIP64: flat_load_dword
// STRIP64-NOT: s_barrier
// STRIP64-LABEL: _Z6laggedPji:
// STRIP64-COUNT-2: s_barrier
// STRIP64-NOT: s_barrier
// STRIP64-LABEL: _Z9wave_fourPKfPf:
// STRIP64-COUNT-2: s_barrier
// STRIP64-NOT: s_barrier
// STRIP64-LABEL: _Z13reverse_smallPKfPf:
// STRIP64-COUNT-1: s_barrier
// STRIP64-NOT: s_barrier
// STRIP64-LABEL: _Z10reverse_64PKfPf:
// STRIP64-COUNT-1: s_barrier
// STRIP64-NOT: s_barrier
// STRIP64: .end_amdhsa_kernel
// STRIP32-LABEL: _Z11reduce_tailPKfPf:
// STRIP32-COUNT-3: s_barrier
// STRIP32-NOT: s_barrier
// STRIP32-LABEL: _Z6tail64PKfPf:
// STRIP32-LABEL: _Z13volatile_tailPKfPf:
// STRIP32-COUNT-3: s_barrier
// STRIP32-NOT: s_barrier
// STRIP32-LABEL: _Z6laggedPji:
// STRIP32-COUNT-2: s_barrier
// STRIP32-NOT: s_barrier
// STRIP32-LABEL: _Z9wave_fourPKfPf:
// STRIP32-COUNT-2: s_barrier
// STRIP32-NOT: s_barrier
// STRIP32-LABEL: _Z13reverse_smallPKfPf:
// STRIP32-COUNT-1: s_barrier
// STRIP32-NOT: s_barrier
// STRIP32-LABEL: _Z10reverse_64PKfPf:
// STRIP32-COUNT-1: s_barrier
// STRIP32-NOT: s_barrier
// STRIP32: .end_amdhsa_kernel

// ORACLE: _Z11reduce_tailPKfPf: executed (21/21 runs complete), races: 0, hangs: 0
// ORACLE-V: _Z13volatile_tailPKfPf: executed (21/21 runs complete), races: 0, hangs: 0
// ORACLE-NONE: _Z13volatile_tailPKfPf: executed (21/21 runs complete), races: {{[1-9]}}
// ORACLE-NONE: race RAW: line {{[0-9]+}} wave {{[1-9]}} `DS_WRITE_B32
// ORACLE-NONE: -> line {{[0-9]+}} wave 0 `{{.*}} = FLAT_LOAD_DWORD
// ORACLE-L: _Z6laggedPji: executed (35/35 runs complete), races: 0, hangs: 0
// ORACLE-LNONE: _Z6laggedPji: executed (35/35 runs complete), races: {{[1-9]}}
// ORACLE-R: executed (21/21 runs complete), races: 0, hangs: 0
// RACE32: 2 errors generated
