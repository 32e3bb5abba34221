// __restrict__ parameters of an inlined helper that point into one
// __shared__ array: the inliner turns them into alias-scope metadata that
// holds within one work-item only. Work-item t writes dst[t] and work-item
// t - 1 reads src[(t - 1 + 1) & 255], the same element: a cross-wave RAW.
// Stripped of its __syncthreads(), the kernel gets the barrier back between
// the write and the read, in the author's order, on gfx942 and gfx1201; the
// verifier finds it race-free.
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s | FileCheck --check-prefix=GFX942 %s
// RUN: %hip_compile --strip-barriers --verify --arch=gfx942 %s -o /dev/null
// RUN: %hip_compile --strip-barriers --arch=gfx1201 %s | FileCheck --check-prefix=GFX1201 %s
// RUN: %hip_compile --strip-barriers --verify --arch=gfx1201 %s -o /dev/null
#include <hip/hip_runtime.h>

__device__ __attribute__((always_inline)) static void
shift(int *__restrict__ dst, const int *__restrict__ src, int t, int v,
      int *__restrict__ out) {
  dst[t] = v;
  __syncthreads(); // RAW: src[(t + 1) & 255] is another work-item's dst
  out[t] = src[(t + 1) & 255];
}

// GFX942-LABEL: shift_kernel:
// GFX942: ds_write_b32
// GFX942-NEXT: s_waitcnt lgkmcnt(0)
// GFX942-NEXT: s_barrier
// GFX942-NEXT: ds_read_b32
// GFX1201-LABEL: shift_kernel:
// GFX1201: ds_store_b32
// GFX1201: s_barrier_signal -1
// GFX1201: s_barrier_wait -1
// GFX1201: ds_load_b32
extern "C" __global__ void __launch_bounds__(256)
shift_kernel(int *out, int half) {
  __shared__ int s[512];
  int t = threadIdx.x;
  int *p = s + (half & 256);
  shift(p, p, t, t * 3, out);
}
