// Double-buffered LDS-DMA pipeline (gfx942/gfx950, 256 work-items, 1-D):
// iteration i prefetches stage i+1 into half ((i + 1) & 1) of the buffer
// by LDS DMA, then every work-item reads a neighbour's element of stage i
// from half i & 1. Within one iteration the prefetch and the reads touch
// different halves; across the back-edge the prefetch of iteration i+1
// overwrites the half iteration i read (WAR) and iteration i+1 reads what
// iteration i prefetched (RAW). One barrier at the loop top, after the
// previous stage's DMA is waited for, covers both: the prefetch issued
// below it stays in flight while the stage is read.
#include <hip/hip_runtime.h>

typedef __attribute__((address_space(1))) void GlobalVoid;
typedef __attribute__((address_space(3))) void LocalVoid;

#define THREADS 256
#define WAVE 64

// Each wave's 64 lanes write 64 consecutive floats at Dst + 4 * lane.
__device__ static void prefetch(LocalVoid *Dst, const float *Src) {
  __builtin_amdgcn_global_load_lds((GlobalVoid *)(void *)Src, Dst, 4, 0, 0);
}

extern "C" __global__ __launch_bounds__(THREADS) void
dma_double_buffer(float *out, const float *in, int stages) {
  __shared__ float buf[2 * THREADS];
  unsigned t = threadIdx.x;
  unsigned wave = t / WAVE;
  const float *src = in + blockIdx.x * stages * THREADS;
  float acc = 0.0f;
  prefetch((LocalVoid *)&buf[wave * WAVE], src + t);
  for (int i = 0; i < stages; ++i) {
    __syncthreads(); // stage i has landed; stage i-1 is no longer read
    if (i + 1 < stages)
      prefetch((LocalVoid *)&buf[((i + 1) & 1) * THREADS + wave * WAVE],
               src + (i + 1) * THREADS + t);
    acc += buf[(i & 1) * THREADS + ((t + 1) & (THREADS - 1))];
  }
  out[blockIdx.x * THREADS + t] = acc;
}
