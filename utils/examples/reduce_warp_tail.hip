// Block sum of 256 floats: a tree reduction in LDS down to two wavefronts'
// worth of partial sums, then the first wavefront finishes with cross-lane
// shuffles (no LDS, no barrier: one wavefront executes in lockstep). The
// number of tree steps depends on the wavefront size: one on wave64 targets
// (128 -> 64 lanes), two on wave32 targets.
#include <hip/hip_runtime.h>

extern "C" __global__ __launch_bounds__(256) void
reduce_warp_tail(float *out, const float *in) {
  __shared__ float partial[256];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * 256 + t];
  __syncthreads(); // RAW: the first step reads other work-items' slots
  for (unsigned stride = 128; stride > warpSize; stride >>= 1) {
    if (t < stride)
      partial[t] += partial[t + stride];
    __syncthreads(); // RAW: the next step reads what this one wrote
  }
  if (t < warpSize) {
    float v = partial[t] + partial[t + warpSize];
    for (int offset = warpSize / 2; offset > 0; offset >>= 1)
      v += __shfl_down(v, offset);
    if (t == 0)
      out[blockIdx.x] = v;
  }
}
