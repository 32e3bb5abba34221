// One of the two kernels of the CMake recipe's test project.
#include <hip/hip_runtime.h>

extern "C" __global__ __launch_bounds__(256) void rotate(int *out) {
  __shared__ int tile[256];
  unsigned t = threadIdx.x;
  tile[t] = out[t];
  __syncthreads();
  out[t] = tile[(t + 1) & 255];
}
