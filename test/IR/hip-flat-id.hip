// Kernels that read their work-item ids only in the flat id
// threadIdx.x + threadIdx.y * blockDim.x, and the launch sizes only there
// and in the flat size blockDim.x * blockDim.y, behave exactly as in the
// one-dimensional launch of the flat size, work-item by flat id: the
// waves hold the same work-items. The thread-index analysis takes them so,
// as a fact rather than an assumption (readsIdsOnlyAsFlatId).
//
// hist_flat: a shared histogram zeroed and read back in block-stride loops
//   over the flat id: two barriers, as the author wrote, no warning, and
//   --check is quiet. The oracle runs the output in 16x16, 8x32 and 100x2
//   launches (and on gfx1030, whose y ids come in their own register, in
//   16x16 and 256x1), with the launch sizes the kernel loads: no race; with
//   the barriers deleted, the zeroing races with the atomics.
// hist_mixed: the zeroing loop starts at threadIdx.x instead, so ids other
//   than the flat id are read: no equivalence, and in a 16x16 launch the
//   work-items (0, 0) and (0, 1) do zero one slot, a self-race the pass
//   warns about and the oracle finds.
//
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o %t.s 2>%t.err
// RUN: FileCheck --check-prefix=STRIP %s < %t.s
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning %s < %t.err
// RUN: not %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | FileCheck --check-prefix=CHECK-ERR --implicit-check-not=error: %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx942 %s -o %t.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --dims 16,16,1 --function _Z9hist_flatPKiPj %t.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --dims 8,32,1 --function _Z9hist_flatPKiPj %t.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --dims 100,2,1 --function _Z9hist_flatPKiPj %t.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx1030 %s -o %t.1030.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1030 --addr reg --dims 16,16,1 --function _Z9hist_flatPKiPj %t.1030.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx1030 --addr reg --items 256 --function _Z9hist_flatPKiPj %t.1030.mir | FileCheck --check-prefix=ORACLE %s
// RUN: grep -v '^\s*S_BARRIER$' %t.mir > %t.none.mir
// RUN: not %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --dims 16,16,1 --function _Z9hist_flatPKiPj %t.none.mir | FileCheck --check-prefix=ORACLE-NONE %s
// RUN: not %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --dims 16,16,1 --function _Z10hist_mixedPKiPj %t.mir | FileCheck --check-prefix=ORACLE-MIXED %s
#include <hip/hip_runtime.h>

__global__ void hist_flat(const int *In, unsigned *Out) {
  __shared__ unsigned H[256];
  int T = threadIdx.x + threadIdx.y * blockDim.x;
  int NT = blockDim.x * blockDim.y;
  for (int I = T; I < 256; I += NT)
    H[I] = 0;
  __syncthreads();
  atomicAdd(&H[In[blockIdx.x * NT + T] & 255], 1u);
  __syncthreads();
  for (int I = T; I < 256; I += NT)
    atomicAdd(&Out[I], H[I]);
}

__global__ void hist_mixed(const int *In, unsigned *Out) {
  __shared__ unsigned H[256];
  int T = threadIdx.x + threadIdx.y * blockDim.x;
  int NT = blockDim.x * blockDim.y;
  for (int I = threadIdx.x; I < 256; I += NT)
    H[I] = 0;
  __syncthreads();
  atomicAdd(&H[In[blockIdx.x * NT + T] & 255], 1u);
  __syncthreads();
  for (int I = T; I < 256; I += NT)
    atomicAdd(&Out[I], H[I]);
}

// STRIP-LABEL: _Z9hist_flatPKiPj:
// STRIP-COUNT-2: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: _Z10hist_mixedPKiPj:

// WARN: warning: in function '_Z10hist_mixedPKiPj': amdgpu-lds-barriers: DS_WRITE_B32_gfx9: different work-items may write the same LDS bytes in one execution of this instruction
// WARN: warning: in function '_Z10hist_mixedPKiPj': amdgpu-lds-barriers: WAW hazard
// WARN: 2 warnings generated

// CHECK-ERR: error: {{.*}}hip-flat-id.hip:{{[0-9]+}}:10: amdgpu-lds-barriers: WAW race {{.*}}: no barrier
// CHECK-ERR: 1 error generated

// ORACLE: _Z9hist_flatPKiPj: executed (21/21 runs complete), races: 0, hangs: 0
// ORACLE-NONE: _Z9hist_flatPKiPj: executed (21/21 runs complete), races: {{[1-9]}}
// ORACLE-NONE: race RAW: line {{[0-9]+}} wave {{[0-9]}} `DS_WRITE_B32
// ORACLE-NONE-NEXT: -> line {{[0-9]+}} wave {{[0-9]}} `DS_ADD_U32
// ORACLE-MIXED: _Z10hist_mixedPKiPj: executed (21/21 runs complete), races: 1, hangs: 0
// ORACLE-MIXED-NEXT: race SAME-WAW: line {{[0-9]+}} wave 0 `DS_WRITE_B32
