// Conditions on the id that an `else` arm gives: the structurizer turns
// `if (t < 128) A else B` into llvm.amdgcn.if(t >= 128) for B, then
// llvm.amdgcn.else on the mask that if left for A. The lanes that run A
// are those where t >= 128 failed: A's accesses run with t < 128.
//
// split_tree: min and max tree reductions side by side, the low half of
//   the workgroup on one array and the high half on the other, each step
//   guarded by `idx < d` (the shape of a bit-packing kernel's bounds
//   reduction). Within a step the writes of S[idx] and reads of S[idx + d]
//   are apart in both arms; the steps from d = 32 on stay inside one wave
//   (t < 32 and 128 <= t < 160). The author wrote nine barriers; the pass
//   places three and says nothing, and --check is quiet (before: a "cannot
//   be covered" warning, nine barriers, and a race reported in the A arm).
//   On wave32 (gfx1201) the d = 32 step reads what another wave wrote:
//   four barriers. The oracle runs all four waves of the gfx942 output: no
//   race; without the barriers it finds one.
//
// RUN: %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | count 0
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o %t.s 2>&1 | count 0
// RUN: grep -E '^\s+s_barrier$' %t.s | count 3
// RUN: %hip_compile --strip-barriers --arch=gfx1201 %s -o - 2>&1 | FileCheck --check-prefix=GFX12 %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx942 %s -o %t.mir
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --args 256 --function _Z10split_treePKciPc %t.mir | FileCheck --check-prefix=ORACLE %s
// RUN: grep -v '^\s*S_BARRIER$' %t.mir > %t.none.mir
// RUN: not %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --args 256 --function _Z10split_treePKciPc %t.none.mir | FileCheck --check-prefix=ORACLE-NONE %s
// ORACLE: races: 0, hangs: 0
// ORACLE-NONE: race WAR
// GFX12-NOT: warning
// GFX12-COUNT-4: s_barrier_signal -1
// GFX12-NOT: s_barrier_signal
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(256) split_tree(const char *In, int End,
                                                  char *Out) {
  __shared__ char Low[256];
  __shared__ char High[256];
  Low[threadIdx.x] = In[threadIdx.x];
  High[threadIdx.x] = In[threadIdx.x + 256];
  __syncthreads();
  for (int D = 128; D > 0; D >>= 1) {
    if (threadIdx.x < 128) {
      int Idx = threadIdx.x;
      if (Idx < D && Idx + D < End)
        Low[Idx] = min(Low[Idx], Low[D + Idx]);
    } else {
      int Idx = threadIdx.x - 128;
      if (Idx < D && Idx + D < End)
        High[Idx] = max(High[Idx], High[D + Idx]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    Out[0] = Low[0];
    Out[1] = High[0];
  }
}
