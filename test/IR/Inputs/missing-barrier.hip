// A rotate through LDS whose author forgot __syncthreads() between the
// store and the read of the neighbour's slot.
#include <hip/hip_runtime.h>

extern "C" __global__ __launch_bounds__(256) void rotate(int *out) {
  __shared__ int tile[256];
  unsigned t = threadIdx.x;
  tile[t] = out[t];
  out[t] = tile[(t + 1) & 255]; // needs __syncthreads() before it
}
