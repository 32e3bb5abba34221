// A plain load of global memory at a uniform address under a full EXEC, in
// a kernel, is read as workgroup-uniform even when it is a vector load (a
// byte, which has no scalar load on gfx9): a write of the location by
// another work-item between two waves' reads would be a data race on
// global memory, which the program may not have. Volatile and atomic loads
// (a flag another workgroup sets) stay per lane.
//
// pack: a tile loop whose bounds divide by a bit count loaded as a byte
//   (`*NumBitsPtr`): its two barriers are kept, no warning, and --check is
//   quiet (it reported both as barriers some waves may skip). The oracle
//   runs the output: no race, no hang.
// pack_volatile: the same count through a volatile pointer: the loop may
//   run a different number of times in each wave, as --check reports and
//   --strip-barriers warns.
//
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o %t.s 2>%t.err
// RUN: FileCheck --check-prefix=STRIP %s < %t.s
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning %s < %t.err
// RUN: not %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | FileCheck --check-prefix=CHECK-ERR --implicit-check-not=error: %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx942 %s -o %t.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --function _Z4packPKhPKmPKcPj %t.mir | FileCheck --check-prefix=ORACLE %s
#include <hip/hip_runtime.h>

template <bool Volatile>
__device__ void packTiles(const unsigned char *NumBitsPtr, const size_t *NumPtr,
                          const char *In, unsigned *Out) {
  __shared__ unsigned char Buffer[256];
  const size_t Num = *NumPtr;
  int NumBits;
  if constexpr (Volatile)
    NumBits = *(volatile const unsigned char *)NumBitsPtr;
  else
    NumBits = *NumBitsPtr;
  size_t const StartBit = blockIdx.x * 256 * 32u;
  int const Start = min(StartBit / (size_t)NumBits, Num);
  int const End = min((StartBit + 256 * 32u) / (size_t)NumBits, Num);
  unsigned Val = 0;
  for (int Tile = Start; Tile < End; Tile += 256) {
    __syncthreads();
    if (Tile + threadIdx.x < Num)
      Buffer[threadIdx.x] = In[Tile + threadIdx.x];
    __syncthreads();
    Val += Buffer[(threadIdx.x + 1) % 256];
  }
  Out[blockIdx.x * 256 + threadIdx.x] = Val;
}

__global__ void pack(const unsigned char *NumBitsPtr, const size_t *NumPtr,
                     const char *In, unsigned *Out) {
  packTiles<false>(NumBitsPtr, NumPtr, In, Out);
}

__global__ void pack_volatile(const unsigned char *NumBitsPtr,
                              const size_t *NumPtr, const char *In,
                              unsigned *Out) {
  packTiles<true>(NumBitsPtr, NumPtr, In, Out);
  // CHECK-ERR: error: {{.*}}: amdgpu-lds-barriers: barrier in control flow that some waves may skip {{.*}}hip-uniform-global-load.hip:[[@LINE-1]]:3 ] ] ] ]) in bb.{{[0-9]+}} (and 1 more between the same source lines)
}

// STRIP-LABEL: _Z4packPKhPKmPKcPj:
// STRIP-COUNT-2: s_barrier
// STRIP-NOT: s_barrier
// STRIP: .end_amdhsa_kernel

// WARN: warning: in function '_Z13pack_volatilePKhPKmPKcPj': amdgpu-lds-barriers: in the input: barrier in control flow that some waves may skip
// WARN: 1 warning generated

// CHECK-ERR: 1 error generated

// ORACLE: _Z4packPKhPKmPKcPj: executed (21/21 runs complete), races: 0, hangs: 0
