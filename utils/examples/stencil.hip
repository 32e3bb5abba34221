// A 1-D three-point stencil through LDS, repeated n times over the same
// 256-element block: each iteration stages the block with zero borders,
// then every work-item reads its two neighbours' slots.
#include <hip/hip_runtime.h>

extern "C" __global__ __launch_bounds__(256) void stencil(float *out,
                                                          const float *in,
                                                          int n) {
  __shared__ float buf[258];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * 256;
  for (int it = 0; it < n; ++it) {
    buf[t + 1] = in[base + t];
    if (t == 0) {
      buf[0] = 0.0f;
      buf[257] = 0.0f;
    }
    __syncthreads(); // RAW: neighbours' slots
    float v = buf[t] + buf[t + 1] + buf[t + 2];
    __syncthreads(); // WAR: the next iteration overwrites what others read
    out[base + t] += v;
  }
}
