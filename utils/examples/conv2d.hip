// 3 x 3 convolution of a w x h image (w and h multiples of 16), one 16 x 16
// output tile per workgroup of 16 x 16 work-items. The input tile with its
// one-pixel halo (18 x 18 = 324 pixels) is staged in LDS: work-item l loads
// pixel l, and the first 68 work-items also pixel l + 256; then one barrier
// before the 3 x 3 window reads.
#include <hip/hip_runtime.h>

#define TILE 16
#define IN (TILE + 2)

__device__ static float pixel(const float *img, int x, int y, int w, int h) {
  x = min(max(x, 0), w - 1);
  y = min(max(y, 0), h - 1);
  return img[y * w + x];
}

extern "C" __global__ __launch_bounds__(TILE * TILE) void
conv2d(float *out, const float *img, const float *filter, int w, int h) {
  __shared__ float tile[IN * IN];
  int tx = threadIdx.x, ty = threadIdx.y, l = ty * TILE + tx;
  int x0 = blockIdx.x * TILE - 1, y0 = blockIdx.y * TILE - 1;
  tile[l] = pixel(img, x0 + l % IN, y0 + l / IN, w, h);
  if (l + TILE * TILE < IN * IN) {
    int m = l + TILE * TILE;
    tile[m] = pixel(img, x0 + m % IN, y0 + m / IN, w, h);
  }
  __syncthreads(); // RAW: the window covers pixels other work-items loaded
  float acc = 0.0f;
  for (int dy = 0; dy < 3; ++dy)
    for (int dx = 0; dx < 3; ++dx)
      acc += filter[dy * 3 + dx] * tile[(ty + dy) * IN + tx + dx];
  out[(blockIdx.y * TILE + ty) * w + blockIdx.x * TILE + tx] = acc;
}
