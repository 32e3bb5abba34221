// Double-buffered pipeline through ordinary DS stores (every target, 256
// work-items, 1-D): iteration i loads stage i+1 from global memory into a
// register and stores it into half ((i + 1) & 1), then reads a neighbour's
// element of stage i from half i & 1. The store and the read of one
// iteration touch different halves; one barrier per iteration, at the loop
// top, orders the store of iteration i-1 before the reads of iteration i
// (RAW) and the reads of iteration i-1 before the store of iteration i
// (WAR).
#include <hip/hip_runtime.h>

#define THREADS 256

extern "C" __global__ __launch_bounds__(THREADS) void
ds_double_buffer(float *out, const float *in, int stages) {
  __shared__ float buf[2 * THREADS];
  unsigned t = threadIdx.x;
  const float *src = in + blockIdx.x * stages * THREADS;
  float acc = 0.0f;
  buf[t] = src[t];
  for (int i = 0; i < stages; ++i) {
    __syncthreads(); // stage i is stored; stage i-1 is no longer read
    if (i + 1 < stages)
      buf[((i + 1) & 1) * THREADS + t] = src[(i + 1) * THREADS + t];
    acc += buf[(i & 1) * THREADS + ((t + 1) & (THREADS - 1))];
  }
  out[blockIdx.x * THREADS + t] = acc;
}
