// Softmax of one row of 1024 floats per workgroup of 256 work-items. Two
// block reductions through the same LDS array, the maximum and then the sum
// of the exponentials, each a tree of eight steps whose result every
// work-item reads from red[0]. Between them a barrier keeps the second
// reduction's stores from overwriting red[0] before everyone has read it.
#include <hip/hip_runtime.h>

__device__ static float blockReduce(float *red, float v, bool isMax) {
  unsigned t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (t < stride)
      red[t] = isMax ? fmaxf(red[t], red[t + stride]) : red[t] + red[t + stride];
    __syncthreads();
  }
  return red[0];
}

extern "C" __global__ __launch_bounds__(256) void softmax(float *out,
                                                          const float *in) {
  __shared__ float red[256];
  unsigned t = threadIdx.x;
  const float *row = in + blockIdx.x * 1024;
  float x[4], m = -INFINITY;
  for (int i = 0; i < 4; ++i) {
    x[i] = row[t + 256 * i];
    m = fmaxf(m, x[i]);
  }
  m = blockReduce(red, m, true);
  __syncthreads(); // WAR: red[0] is read by all before the next reduction
  float sum = 0.0f;
  for (int i = 0; i < 4; ++i) {
    x[i] = __expf(x[i] - m);
    sum += x[i];
  }
  sum = blockReduce(red, sum, false);
  for (int i = 0; i < 4; ++i)
    out[blockIdx.x * 1024 + t + 256 * i] = x[i] / sum;
}
