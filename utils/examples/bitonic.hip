// Bitonic sort of 256 keys per workgroup of 128 work-items in LDS, in the
// shape of the classic shared-memory sorting network: in the step (size,
// stride) work-item t compares the pair (pos, pos + stride) with
// pos = 2 * t - (t & (stride - 1)), so that the 128 pairs cover the 256 keys
// once. Every step reads pairs that other work-items wrote in the step
// before: one barrier between steps, none inside a step.
#include <hip/hip_runtime.h>

__device__ static void compareSwap(unsigned &a, unsigned &b, bool ascending) {
  if ((a > b) == ascending) {
    unsigned tmp = a;
    a = b;
    b = tmp;
  }
}

extern "C" __global__ __launch_bounds__(128) void bitonic(unsigned *keys) {
  __shared__ unsigned s[256];
  unsigned t = threadIdx.x;
  unsigned *block = keys + blockIdx.x * 256;
  s[t] = block[t];
  s[t + 128] = block[t + 128];
  for (unsigned size = 2; size <= 256; size <<= 1) {
    bool ascending = ((t & (size / 2)) == 0) || size == 256;
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * t - (t & (stride - 1));
      compareSwap(s[pos], s[pos + stride], ascending);
    }
  }
  __syncthreads();
  block[t] = s[t];
  block[t + 128] = s[t + 128];
}
