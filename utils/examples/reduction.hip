// Block sum of 256 floats: a tree reduction in LDS. The halving loop has a
// constant trip count, so clang unrolls it into eight steps.
#include <hip/hip_runtime.h>

extern "C" __global__ __launch_bounds__(256) void reduce(float *out,
                                                         const float *in) {
  __shared__ float partial[256];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * 256 + t];
  __syncthreads(); // RAW: the first step reads other work-items' slots
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (t < stride)
      partial[t] += partial[t + stride];
    __syncthreads(); // RAW: the next step reads what this one wrote
  }
  if (t == 0)
    out[blockIdx.x] = partial[0];
}
