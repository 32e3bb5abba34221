// Sub-histograms: each work-item counts into its own byte of every bin,
// `Bins[V * 128 + Slot(T)]++` with V a value loaded from global memory
// (any 32-bit value) and Slot(T) = 4 * (T & 31) + (T >> 5) a permutation
// of 0..127 for the 128 work-items of __launch_bounds__(128). Whatever V
// is, two work-items' bytes differ modulo 128, so they never meet: the
// unknown term has no range (the array is dynamic, and V * 128 may wrap),
// but it is a multiple of 128, which leaves the residue to the slot.
//
// subhist: no barrier inside the counting loop: the author's two, no
//   warning, and --check is quiet (before: 33 barriers, two in every
//   iteration of the unrolled loop, and a WAR race report).
// subhist_miss: V * 64: the slots of work-items T and T + 16 (say) differ
//   by 64, so two work-items may count into one byte; not proven, and
//   --check reports the race the author's code has.
// The unit test UnboundedResiduePairsAgreeWithBruteForce checks the rule.
//
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o %t.s 2>%t.err
// RUN: FileCheck %s < %t.s
// RUN: FileCheck --allow-empty --check-prefix=WARN %s < %t.err
// WARN-NOT: warning:
// RUN: not %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | FileCheck --check-prefix=RACE --implicit-check-not=error: %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx942 %s -o %t.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 128 --function _Z7subhistPKjPj %t.mir | FileCheck --check-prefix=ORACLE %s
#include <hip/hip_runtime.h>

// CHECK-LABEL: _Z7subhistPKjPj:
// CHECK-COUNT-2: s_barrier{{$}}
// CHECK-NOT: s_barrier{{$}}
// CHECK: s_endpgm
// ORACLE: races: 0
__global__ void __launch_bounds__(128) subhist(const unsigned *Data,
                                               unsigned *Out) {
  HIP_DYNAMIC_SHARED(unsigned char, Bins);
  unsigned T = threadIdx.x;
  unsigned Slot = 4 * (T & 31) + (T >> 5);
  for (int I = 0; I < 64; ++I)
    Bins[I * 128 + T] = 0;
  __syncthreads();
  for (int I = 0; I < 16; ++I) {
    unsigned V = Data[blockIdx.x * 2048 + I * 128 + T];
    Bins[V * 128 + Slot]++;
  }
  __syncthreads();
  Out[blockIdx.x * 128 + T] = Bins[T];
}

// CHECK-LABEL: _Z12subhist_missPKjPj:
// CHECK: s_barrier{{$}}
// CHECK: s_barrier{{$}}
// CHECK: s_barrier{{$}}
// CHECK: s_endpgm
// RACE: error: {{.*}}hip-sub-histogram.hip:[[#@LINE+11]]:{{.*}} race
__global__ void __launch_bounds__(128) subhist_miss(const unsigned *Data,
                                                    unsigned *Out) {
  HIP_DYNAMIC_SHARED(unsigned char, Bins);
  unsigned T = threadIdx.x;
  unsigned Slot = 4 * (T & 31) + (T >> 5);
  for (int I = 0; I < 64; ++I)
    Bins[I * 128 + T] = 0;
  __syncthreads();
  for (int I = 0; I < 16; ++I) {
    unsigned V = Data[blockIdx.x * 2048 + I * 128 + T];
    Bins[V * 64 + Slot]++;
  }
  __syncthreads();
  Out[blockIdx.x * 128 + T] = Bins[T];
}
