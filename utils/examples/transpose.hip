// Batched 16x16-tiled matrix transpose through LDS (256 work-items as 16x16).
#include <hip/hip_runtime.h>

extern "C" __global__ __launch_bounds__(256) void
transpose(float *out, const float *in, int width, int height, int batch) {
  __shared__ float tile[16][17]; // +1: no bank conflicts
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned bx = blockIdx.x * 16, by = blockIdx.y * 16;
  for (int b = 0; b < batch; ++b) { // one tile per matrix
    const float *src = in + (long)b * width * height;
    float *dst = out + (long)b * width * height;
    tile[ty][tx] = src[(by + ty) * width + bx + tx];
    __syncthreads(); // RAW: the tile is written by other work-items
    dst[(bx + ty) * height + by + tx] = tile[tx][ty];
    __syncthreads(); // WAR: the next matrix overwrites the tile
  }
}
