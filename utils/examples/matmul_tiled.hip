// Tiled matrix product C = A * B of n x n floats (n a multiple of 16), one
// 16 x 16 tile of C per workgroup of 16 x 16 work-items. Each step of the k
// loop stages one tile of A and one of B in LDS: a barrier after the stores
// (RAW: every work-item reads a row and a column that others wrote) and one
// before the next step's stores (WAR: others may still read the old tiles).
#include <hip/hip_runtime.h>

#define TILE 16

extern "C" __global__ __launch_bounds__(TILE * TILE) void
matmul_tiled(float *C, const float *A, const float *B, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    As[ty][tx] = A[row * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
