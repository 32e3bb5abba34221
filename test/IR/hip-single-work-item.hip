// Accesses of unknown address that only one work-item runs: work-item 0
// builds a sorted linked list in LDS through generic pointers it loads
// back from LDS (FLAT loads and stores, DS writes of the list head), as a
// kernel does when one work-item sets up a shared structure. No address
// is known, but the condition `threadIdx.x == 0` that dominates them
// leaves one work-item to run them all: no pair of them is a hazard
// between waves. The author's barrier after the build is needed (every
// work-item walks the list) and is the only one.
//
// sorted_list: before, --strip-barriers gave three "cannot be covered"
//   warnings and --check ten race reports; now neither says anything and
//   the pass places the author's one barrier.
// two_waves: work-item 0 stores through a pointer it loaded from LDS
//   (which may be anywhere, the pointer included), and work-item 64, of
//   another wave on every target, reads the pointer and through it: a race
//   with no barrier between them (--check reports it), where the pass
//   places its one barrier. The author's barrier between work-item 0's two
//   blocks orders nothing another work-item does: the pass drops it.
// chosen_array: a store through a pointer that selects one of two arrays,
//   by the work-items below 128. The form tells only who runs it, not
//   where it writes: no "different work-items may write the same LDS
//   bytes" warning, which needs an address that says so (nor was there
//   one when such accesses had no form).
//
// RUN: not %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | FileCheck --check-prefix=CHECKER %s
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o %t.942.s 2>&1 | count 0
// RUN: FileCheck %s < %t.942.s
// RUN: %hip_compile --strip-barriers --arch=gfx1201 %s -o %t.1201.s 2>&1 | count 0
// RUN: FileCheck --check-prefix=GFX12 %s < %t.1201.s
#include <hip/hip_runtime.h>

struct Node {
  int Value;
  Node *Next;
};

// CHECK-LABEL: _Z11sorted_listPKiiPi:
// CHECK: s_barrier
// CHECK-NOT: s_barrier
// CHECK: s_endpgm
// GFX12-LABEL: _Z11sorted_listPKiiPi:
// GFX12: s_barrier_signal -1
// GFX12-NOT: s_barrier_signal
// GFX12: s_endpgm
__global__ void __launch_bounds__(256) sorted_list(const int *In, int N,
                                                   int *Out) {
  __shared__ Node Pool[64];
  __shared__ Node *Head;
  if (threadIdx.x == 0) {
    Head = nullptr;
    for (int I = 0; I < N && I < 64; ++I) {
      Node *New = &Pool[I];
      New->Value = In[I];
      Node **Link = &Head;
      while (*Link && (*Link)->Value < New->Value)
        Link = &(*Link)->Next;
      New->Next = *Link;
      *Link = New;
    }
  }
  __syncthreads();
  int Rank = 0;
  for (Node *X = Head; X && X->Value < int(threadIdx.x); X = X->Next)
    ++Rank;
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Rank;
}

// CHECK-LABEL: _Z9two_wavesPKiPi:
// CHECK: s_barrier
// CHECK-NOT: s_barrier
// CHECK: s_endpgm
// GFX12-LABEL: _Z9two_wavesPKiPi:
// GFX12: s_barrier_signal -1
// GFX12-NOT: s_barrier_signal
// GFX12: s_endpgm
__global__ void __launch_bounds__(256) two_waves(const int *In, int *Out) {
  __shared__ int Buf[64];
  __shared__ int *Slot;
  if (threadIdx.x == 0) {
    Slot = &Buf[In[0] & 63];
    *Slot = In[1];
  }
  __syncthreads();
  if (threadIdx.x == 0)
    *Slot = In[2];
  if (threadIdx.x == 64)
    // CHECKER-NOT: amdgpu-lds-barriers
    // CHECKER: error: {{.*}}.hip:[[@LINE+2]]:{{[0-9]+}}: amdgpu-lds-barriers: opaque race {{.*}} between FLAT_STORE_DWORD ({{.*}}.hip:[[@LINE-3]]:{{.*}} and DS_READ_B64
    // CHECKER-NOT: amdgpu-lds-barriers
    Out[blockIdx.x] = *Slot;
}

// CHECK-LABEL: _Z12chosen_arrayPKiPi:
// CHECK: s_barrier
// CHECK-NOT: s_barrier
// CHECK: s_endpgm
__global__ void __launch_bounds__(256) chosen_array(const int *In, int *Out) {
  __shared__ int A[256];
  __shared__ int B[256];
  if (threadIdx.x < 128) {
    int *P = In[threadIdx.x] > 0 ? &A[threadIdx.x]
                                 : &B[In[threadIdx.x + 256] & 255];
    *P = threadIdx.x;
  }
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = A[threadIdx.x] + B[threadIdx.x];
}
