// Double-buffered 16x16-tiled matrix multiply (256 work-items as 16x16)
// whose tiles go from global memory straight to LDS by LDS DMA
// (global_load_lds_dword, gfx942/gfx950). The loads of tile k+1 are in flight
// while tile k is multiplied; the vmcnt wait before the barrier must let
// them stay in flight (vmcnt(2), not vmcnt(0)).
#include <hip/hip_runtime.h>

// Pointers in the global and LDS address spaces, as the LDS DMA builtin takes.
typedef __attribute__((address_space(1))) void GlobalVoid;
typedef __attribute__((address_space(3))) void LocalVoid;

// Each wave's 64 lanes write 64 consecutive floats at Dst + 4 * lane.
__device__ static void loadTile(LocalVoid *Dst, const float *Src) {
  __builtin_amdgcn_global_load_lds((GlobalVoid *)(void *)Src, Dst, 4, 0, 0);
}

extern "C" __global__ __launch_bounds__(256) void
matmul_dma(float *c, const float *a, const float *b, int n) {
  __shared__ float as[2][256], bs[2][256];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned wave = (ty * 16 + tx) / 64;
  unsigned row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  int tiles = n / 16;
  float acc = 0.0f;
  loadTile((LocalVoid *)&as[0][wave * 64], a + row * n + tx);
  loadTile((LocalVoid *)&bs[0][wave * 64], b + ty * n + col);
  for (int k = 0; k < tiles; ++k) {
    int cur = k & 1;
    if (k + 1 < tiles) {
      loadTile((LocalVoid *)&as[cur ^ 1][wave * 64], a + row * n + (k + 1) * 16 + tx);
      loadTile((LocalVoid *)&bs[cur ^ 1][wave * 64], b + ((k + 1) * 16 + ty) * n + col);
    }
    __syncthreads(); // RAW: tile k is written by DMA of other waves
    for (int i = 0; i < 16; ++i)
      acc += as[cur][ty * 16 + i] * bs[cur][i * 16 + tx];
    __syncthreads(); // WAR: the DMA of tile k+2 overwrites this buffer
  }
  c[row * n + col] = acc;
}
