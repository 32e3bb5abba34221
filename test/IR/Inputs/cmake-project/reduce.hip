// One of the two kernels of the CMake recipe's test project.
#include <hip/hip_runtime.h>

extern "C" __global__ __launch_bounds__(256) void reduce(float *out,
                                                         const float *in) {
  __shared__ float partial[256];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (t < stride)
      partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = partial[0];
}
