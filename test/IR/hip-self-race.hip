// Self-races and the launch bound that would decide a window. A store that
// different work-items of different waves may execute onto the same bytes
// in one execution is a race no barrier can order: a warning of its own,
// with the bound that would make the addresses disjoint when one would.
// RUN: %hip_compile --1d --strip-barriers --arch=gfx942 %s -o /dev/null -- -g 2>&1 | FileCheck --check-prefix=ONED %s
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o /dev/null -- -g 2>&1 | FileCheck --check-prefix=TWOD %s
// RUN: %hip_compile --1d --strip-barriers --remarks --arch=gfx1201 %s -o /dev/null 2>&1 | FileCheck --check-prefix=REMARK %s
#include <hip/hip_runtime.h>

// s[t & 255] with up to 1024 work-items: t and t + 256 write the same slot.
// ONED: warning: {{.*}}hip-self-race.hip:[[@LINE+4]]:{{.*}} DS_WRITE_B32{{.*}}different work-items may write the same LDS bytes in one execution of this instruction{{.*}}no barrier can order them; disjoint with at most 256 work-items (__launch_bounds__(256))
extern "C" __global__ void wrapped(int *out) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t & 255] = out[t];
  __syncthreads();
  out[t] = s[(t + 1) & 255];
}

// s[threadIdx.x] in a workgroup of 256 that may have rows: (x, 0) and
// (x, 1) would write the same slot, but that is an assumption about the
// launch (1-D, as the kernel's indexing says), not reported as a self-race.
// TWOD-NOT: hip-self-race.hip:[[@LINE+5]]:{{.*}}different work-items may write
// ONED-NOT: hip-self-race.hip:[[@LINE+4]]:{{.*}}different work-items may write
extern "C" __global__ __launch_bounds__(256) void rows(int *out) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  out[t] = s[255 - t];
}

// Atomic additions commute: eight counters shared by all work-items are
// no self-race, whatever the shape.
// TWOD-NOT: hip-self-race.hip:[[@LINE+4]]:{{.*}}different work-items may write
extern "C" __global__ __launch_bounds__(256) void counters(int *out) {
  __shared__ int c[8];
  unsigned t = threadIdx.x;
  atomicAdd(&c[t & 7], 1);
  __syncthreads();
  out[t] = c[t & 7];
}

// A window that a launch bound would remove: without __launch_bounds__ the
// kernel may have 1024 work-items, and work-item t + 512 reads the slot that
// work-item t writes; with at most 512 none does.
// REMARK: remark: inserted {{(split )?}}barrier{{.*}}RAW on LDS{{.*}}hip-self-race.hip:[[@LINE+6]]{{.*}}disjoint with at most 512 work-items (__launch_bounds__(512))
extern "C" __global__ void halves(int *out) {
  __shared__ int s[1024];
  unsigned t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  out[t] = s[(t + 512) & 1023] + s[t];
}

// Two arrays stored by one instruction: the two stores merge into a
// DS_WRITE2ST64 with a memoperand per array. The variables are distinct
// allocations (module-LDS lowering's scopes), so work-item t + 256 writing
// sa[t + 256] is no write to sb[t], whatever the launch.
// ONED-NOT: hip-self-race.hip:[[@LINE+5]]:{{.*}}different work-items may write
// TWOD-NOT: hip-self-race.hip:[[@LINE+4]]:{{.*}}different work-items may write
extern "C" __global__ void two_arrays(const double *a, double *out) {
  __shared__ double sa[256], sb[256];
  unsigned t = threadIdx.x;
  sa[t] = a[t], sb[t] = a[t + 1];
  __syncthreads();
  out[t] = sa[255 - t] + sb[255 - t];
}
