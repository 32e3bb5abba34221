// Two LDS buffers used in turn through swapped pointers (every target, 256
// work-items, 1-D): iteration i stores stage i+1 through `next` and reads a
// neighbour's element of stage i through `cur`, then the pointers swap.
// `cur` and `next` never point to the same buffer in one iteration: one
// barrier per iteration, at the loop top, as the author wrote it.
#include <hip/hip_runtime.h>

#define THREADS 256

extern "C" __global__ __launch_bounds__(THREADS) void
ds_rotating_buffers(float *out, const float *in, int stages) {
  __shared__ float a[THREADS], b[THREADS];
  unsigned t = threadIdx.x;
  const float *src = in + blockIdx.x * stages * THREADS;
  float *cur = a, *next = b;
  float acc = 0.0f;
  cur[t] = src[t];
  for (int i = 0; i < stages; ++i) {
    __syncthreads(); // stage i is stored; stage i-1 is no longer read
    if (i + 1 < stages)
      next[t] = src[(i + 1) * THREADS + t];
    acc += cur[(t + 1) & (THREADS - 1)];
    float *tmp = cur;
    cur = next;
    next = tmp;
  }
  out[blockIdx.x * THREADS + t] = acc;
}
