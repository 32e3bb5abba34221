// Inclusive prefix sum of 256 floats per workgroup (Hillis-Steele) with two
// LDS buffers that swap roles each step, so that one barrier per step
// suffices: step s reads buffer s % 2 and writes the other one.
#include <hip/hip_runtime.h>

extern "C" __global__ __launch_bounds__(256) void scan(float *out,
                                                       const float *in) {
  __shared__ float buf[2][256];
  unsigned t = threadIdx.x;
  buf[0][t] = in[blockIdx.x * 256 + t];
  __syncthreads(); // RAW: step 1 reads the neighbour's input
  unsigned src = 0;
  for (unsigned offset = 1; offset < 256; offset <<= 1) {
    float v = buf[src][t];
    if (t >= offset)
      v += buf[src][t - offset];
    buf[1 - src][t] = v;
    __syncthreads(); // RAW into the next step; WAR for the step after it
    src = 1 - src;
  }
  out[blockIdx.x * 256 + t] = buf[src][t];
}
