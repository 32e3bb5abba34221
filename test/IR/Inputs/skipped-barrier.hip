// nbody.hip's tile loop under `if (i < n)`, followed by a workgroup sum
// through LDS that every work-item joins. The waves past n skip the tile
// loop's two barriers and go on to the sum's: they do not end, so the other
// waves' barriers pair with theirs wrongly (a hang or a race).
#include <hip/hip_runtime.h>

extern "C" __global__ __launch_bounds__(256) void
partialSums(const float *in, float *out, int n) {
  __shared__ float tile[256];
  __shared__ float sum[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  float acc = 0.0f;
  if (i < n) {
    for (int base = 0; base < n; base += 256) {
      tile[t] = in[base + t];
      __syncthreads();
      for (int j = 0; j < 256; ++j)
        acc += tile[j] * in[i];
      __syncthreads();
    }
  }
  sum[t] = acc;
  __syncthreads();
  if (t == 0) {
    float s = 0.0f;
    for (int j = 0; j < 256; ++j)
      s += sum[j];
    out[blockIdx.x] = s;
  }
}
