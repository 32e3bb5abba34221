// --strip-barriers removes the source's barriers after the optimizers, so
// the pass synchronizes the author's order of LDS accesses. The kernel
// reads out of an LDS array through __restrict__ pointers of an inlined
// helper: within one work-item they never alias, so had the barrier gone
// before the IR optimizer, the read of src[(t + 1) & 255] (another
// work-item's dst[t]) could be hoisted above the store and the kernel would
// read stale values, barrier or not. The sequence of LDS instructions of the
// stripped kernel must equal the hand-written kernel's, on gfx942 and
// gfx1201, and the pass must put a barrier back between them.
//
// The second kernel guards a store and a load with the same condition on
// either side of __syncthreads(). Without the barrier (a convergent call)
// between them, SimplifyCFG merges the two `if (t < n)` into one divergent
// region, where no barrier can go: the store and the load of s[t ^ 1] would
// race, and the pass could only warn.
// RUN: %hip_compile --stock --arch=gfx942 %s | grep -E '^\s+ds_' > %t.stock942
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s > %t.strip942.s 2> %t.err942
// RUN: count 0 < %t.err942
// RUN: grep -E '^\s+ds_' %t.strip942.s | diff %t.stock942 -
// RUN: FileCheck --check-prefix=GFX942 %s < %t.strip942.s
// RUN: %hip_compile --stock --arch=gfx1201 %s | grep -E '^\s+ds_' > %t.stock1201
// RUN: %hip_compile --strip-barriers --arch=gfx1201 %s > %t.strip1201.s 2> %t.err1201
// RUN: count 0 < %t.err1201
// RUN: grep -E '^\s+ds_' %t.strip1201.s | diff %t.stock1201 -
// RUN: FileCheck --check-prefix=GFX1201 %s < %t.strip1201.s
// The source's barriers are gone, not kept: guarded_pairs starts with one
// that orders nothing; the stock compile has 3 barriers, the stripped 2.
// RUN: %hip_compile --stock --arch=gfx942 %s | grep -E '^\s+s_barrier$' | count 3
// RUN: grep -E '^\s+s_barrier$' %t.strip942.s | count 2
// The stock compile has the barriers the pass must reproduce.
// RUN: %hip_compile --stock --arch=gfx942 %s | FileCheck --check-prefix=STOCK %s
// STOCK-LABEL: rotate_kernel:
// STOCK: ds_write_b32
// STOCK-NOT: ds_
// STOCK: s_barrier
// STOCK-NEXT: ds_read_b32
// STOCK-LABEL: guarded_pairs:
// STOCK: ds_write_b32
// STOCK-NOT: ds_
// STOCK: s_barrier
// STOCK-NOT: ds_
// STOCK: ds_read_b32
#include <hip/hip_runtime.h>

__device__ __attribute__((always_inline)) static void
rotate(int *__restrict__ dst, const int *__restrict__ src, int t, int v,
       int *__restrict__ out) {
  dst[t] = v;
  __syncthreads(); // RAW: src[(t + 1) & 255] is work-item t + 1's dst
  out[t] = src[(t + 1) & 255];
}

// GFX942-LABEL: rotate_kernel:
// GFX942: ds_write_b32
// GFX942-NOT: ds_
// GFX942: s_waitcnt lgkmcnt(0)
// GFX942-NEXT: s_barrier
// GFX942-NOT: ds_
// GFX942: ds_read_b32
// GFX942: s_endpgm
// GFX1201-LABEL: rotate_kernel:
// GFX1201: ds_store_b32
// GFX1201-NOT: ds_
// GFX1201: s_barrier_signal -1
// GFX1201-NOT: ds_
// GFX1201: s_barrier_wait -1
// GFX1201-NOT: ds_
// GFX1201: ds_load_b32
// GFX1201: s_endpgm
extern "C" __global__ void __launch_bounds__(256) rotate_kernel(int *out,
                                                                int sel) {
  __shared__ int s[512];
  int t = threadIdx.x;
  int *p = s + (sel & 256);
  rotate(p, p, t, out[t], out + 1024);
}

// GFX942-LABEL: guarded_pairs:
// GFX942: s_and_saveexec_b64
// GFX942-NEXT: s_cbranch_execz
// GFX942-NOT: s_barrier
// GFX942: ds_write_b32
// GFX942-NEXT: .LBB
// GFX942-NEXT: s_or_b64 exec
// GFX942-NOT: ds_
// GFX942: s_barrier
// GFX942-NOT: ds_
// GFX942: s_cbranch_execz
// GFX942-NEXT: ; %bb.
// GFX942-NOT: {{s_barrier|ds_|^.LBB}}
// GFX942: ds_read_b32
// GFX1201-LABEL: guarded_pairs:
// GFX1201: ds_store_b32
// GFX1201: s_barrier_signal -1
// GFX1201-NOT: ds_
// GFX1201: s_barrier_wait -1
// GFX1201-NOT: ds_
// GFX1201: s_cbranch_execz
// GFX1201-NEXT: ; %bb.
// GFX1201-NOT: {{s_barrier|ds_|^.LBB}}
// GFX1201: ds_load_b32
extern "C" __global__ void __launch_bounds__(256) guarded_pairs(int *out,
                                                                int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  __syncthreads(); // orders nothing: the pass does not put it back
  if (t < n)
    s[t] = out[t];
  __syncthreads(); // RAW: work-item t reads work-item t ^ 1's slot
  if (t < n)
    out[t] = s[t ^ 1];
}
