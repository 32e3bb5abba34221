// Loops whose steps are powers of two: a tree reduction's stride doubled
// each time round, a Blelloch scan's offset doubled on the way up and
// halved on the way down. The accesses of one step are functions of the
// id and of that power, `S[T]` and `S[T + I]` under `T % (2 * I) == 0`,
// or `S[Offset * (2 * T + 2) - 1]` and `S[Offset * (2 * T + 1) - 1]`:
// apart for every power of two (and 0, and the negated ones an arithmetic
// shift makes of 2^31), once the work-items whose access would wrap a
// no-wrap operation or leave the array are left out (undefined). The
// steps of different iterations still need the barrier between them.
//
// interleaved: the stride I doubled from 1, the writers under T % 2I == 0
//   (instcombine: (T & (2I - 1)) == 0). One barrier, at the top of the
//   loop body (the author wrote two); before, a "cannot be covered"
//   warning and a race report.
// strided: `K = 2 * I * T` under K < blockDim.x: the guard is not read,
//   the nuw/nsw of 2 * I * T and the array keep K + I off every K. Two
//   barriers as the author wrote; before, a warning and a race report.
// blelloch: the scan of GPU Gems 3 with a signed offset (the down-sweep
//   halves it by an arithmetic shift, which starts from the up-sweep's
//   last value: a merge of uniform loop exits). Four barriers as the
//   author wrote, no warning; before, two warnings and five race reports.
// hillis_steele: a scan whose reads `S[2 * T - Stride]` alone have the
//   stride in their address: no pair to tell apart in one step, so the
//   form is not kept, and the loop is not tracked by iteration (it was, and
//   the barrier before the loop had to move into it: four barriers, not
//   the author's three).
// interleaved_miss, blelloch_miss: the near misses, T % I == 0 (T + I is
//   another writer) and S[Offset * (2 * T + 3) - 1] (the next work-item's
//   read): warned about, reported by --check, and the oracle finds the
//   races in the output.
// The unit test PowerStepsAgreeWithTheInterpreter checks the rule on
// random loops of this kind against an interpreter of the IR.
//
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o %t.942.s 2>%t.942.err
// RUN: FileCheck --check-prefix=STRIP %s < %t.942.s
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning %s < %t.942.err
// RUN: %hip_compile --strip-barriers --arch=gfx1201 %s -o %t.1201.s 2>%t.1201.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning %s < %t.1201.err
// RUN: not %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | FileCheck --check-prefix=RACE --implicit-check-not=error: %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx942 %s -o %t.942.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --function _Z11interleavedPKfPf %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 100 --function _Z7stridedPKfPf %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --function _Z8blellochPfi %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --function _Z13hillis_steelePfPKfj %t.942.mir | FileCheck --check-prefix=ORACLE %s
// RUN: not %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --function _Z13blelloch_missPf %t.942.mir | FileCheck --check-prefix=MISS %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx1201 %s -o %t.1201.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1201 --addr reg --items 256 --function _Z8blellochPfi %t.1201.mir | FileCheck --check-prefix=ORACLE %s
// RUN: not %python %S/../../utils/oracle/mir_exec.py --cpu gfx1201 --addr reg --items 256 --function _Z16interleaved_missPKfPf %t.1201.mir | FileCheck --check-prefix=MISS %s
#include <hip/hip_runtime.h>

__global__ void interleaved(const float *In, float *Out) {
  extern __shared__ float S[];
  unsigned T = threadIdx.x;
  S[T] = In[blockIdx.x * blockDim.x + T];
  __syncthreads();
  for (unsigned I = 1; I < blockDim.x; I *= 2) {
    if (T % (2 * I) == 0)
      S[T] += S[T + I];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = S[0];
}

__global__ void strided(const float *In, float *Out) {
  extern __shared__ float S[];
  unsigned T = threadIdx.x;
  S[T] = In[blockIdx.x * blockDim.x + T];
  __syncthreads();
  for (unsigned I = 1; I < blockDim.x; I *= 2) {
    unsigned K = 2 * I * T;
    if (K < blockDim.x)
      S[K] += S[K + I];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = S[0];
}

__global__ void blelloch(float *Data, int N) {
  extern __shared__ float S[];
  int T = threadIdx.x;
  S[2 * T] = Data[2 * T];
  S[2 * T + 1] = Data[2 * T + 1];
  int Offset = 1;
  for (int D = N >> 1; D > 0; D >>= 1) {
    __syncthreads();
    if (T < D)
      S[Offset * (2 * T + 2) - 1] += S[Offset * (2 * T + 1) - 1];
    Offset *= 2;
  }
  __syncthreads();
  if (T == 0)
    S[N - 1] = 0;
  for (int D = 1; D < N; D *= 2) {
    Offset >>= 1;
    __syncthreads();
    if (T < D) {
      int A = Offset * (2 * T + 1) - 1, B = Offset * (2 * T + 2) - 1;
      float X = S[A];
      S[A] = S[B];
      S[B] += X;
    }
  }
  __syncthreads();
  Data[2 * T] = S[2 * T];
  Data[2 * T + 1] = S[2 * T + 1];
}

__global__ void hillis_steele(float *Out, const float *In, unsigned N) {
  extern __shared__ float S[];
  int T = threadIdx.x;
  S[2 * T] = In[2 * T];
  S[2 * T + 1] = In[2 * T + 1];
  __syncthreads();
  float C0 = S[0], C1 = C0 + S[1];
  for (int Stride = 1; Stride < N; Stride *= 2) {
    if (2 * T >= Stride) {
      C0 = S[2 * T - Stride] + S[2 * T];
      C1 = S[2 * T + 1 - Stride] + S[2 * T + 1];
    }
    __syncthreads();
    S[2 * T] = C0;
    S[2 * T + 1] = C1;
    __syncthreads();
  }
  Out[2 * T] = S[2 * T];
  Out[2 * T + 1] = S[2 * T + 1];
}

__global__ void interleaved_miss(const float *In, float *Out) {
  extern __shared__ float S[];
  unsigned T = threadIdx.x;
  S[T] = In[blockIdx.x * blockDim.x + T];
  __syncthreads();
  for (unsigned I = 1; I < blockDim.x; I *= 2) {
    if (T % I == 0)
      S[T] += S[T + I];
    // RACE: error: {{.*}}hip-power-steps.hip:[[#@LINE-1]]:{{.*}}WAR race
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = S[0];
}

__global__ void blelloch_miss(float *Data) {
  extern __shared__ float S[];
  int T = threadIdx.x, N = 2 * blockDim.x;
  S[2 * T] = Data[2 * T];
  S[2 * T + 1] = Data[2 * T + 1];
  int Offset = 1;
  for (int D = N >> 1; D > 0; D >>= 1) {
    __syncthreads();
    if (T < D)
      S[Offset * (2 * T + 3) - 1] += S[Offset * (2 * T + 1) - 1];
    // RACE: error: {{.*}}hip-power-steps.hip:[[#@LINE-1]]:{{.*}}WAR race
    Offset *= 2;
  }
  __syncthreads();
  Data[2 * T] = S[2 * T];
}

// STRIP-LABEL: _Z11interleavedPKfPf:
// STRIP-COUNT-1: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z7stridedPKfPf:
// STRIP-COUNT-2: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z8blellochPfi:
// STRIP-COUNT-4: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z13hillis_steelePfPKfj:
// STRIP-COUNT-3: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z16interleaved_missPKfPf:

// WARN: warning: in function '_Z16interleaved_missPKfPf': amdgpu-lds-barriers: WAR hazard {{.*}} cannot be covered
// WARN: warning: in function '_Z13blelloch_missPf': amdgpu-lds-barriers: WAR hazard {{.*}} cannot be covered
// WARN: 2 warnings generated

// RACE: 2 errors generated

// ORACLE: executed ({{[0-9]+}}/{{[0-9]+}} runs complete), races: 0, hangs: 0
// MISS: executed ({{[0-9]+}}/{{[0-9]+}} runs complete), races: {{[1-9]}}
