// Triple-buffered LDS-DMA pipeline (gfx942/gfx950, 256 work-items, 1-D):
// two stages are prefetched ahead; iteration i prefetches stage i+2 into
// slot (i + 2) % 3 and reads stage i from slot i % 3. The barrier at the
// loop top waits only for stage i: the DMA of stage i+1, issued one
// iteration earlier, stays in flight (vmcnt(1)). The prefetch is issued in
// every iteration (the last ones load the last stage again into a slot
// nobody reads any more), so that stage i+1 is always the newer transfer.
#include <hip/hip_runtime.h>

typedef __attribute__((address_space(1))) void GlobalVoid;
typedef __attribute__((address_space(3))) void LocalVoid;

#define THREADS 256
#define WAVE 64

__device__ static void prefetch(LocalVoid *Dst, const float *Src) {
  __builtin_amdgcn_global_load_lds((GlobalVoid *)(void *)Src, Dst, 4, 0, 0);
}

extern "C" __global__ __launch_bounds__(THREADS) void
dma_triple_buffer(float *out, const float *in, int stages) {
  __shared__ float buf[3 * THREADS];
  unsigned t = threadIdx.x;
  unsigned wave = t / WAVE;
  const float *src = in + blockIdx.x * stages * THREADS;
  float acc = 0.0f;
  prefetch((LocalVoid *)&buf[wave * WAVE], src + t);
  prefetch((LocalVoid *)&buf[THREADS + wave * WAVE], src + THREADS + t);
  for (int i = 0; i < stages; ++i) {
    __syncthreads(); // stage i has landed; stage i-1 is no longer read
    int next = i + 2 < stages ? i + 2 : stages - 1;
    prefetch((LocalVoid *)&buf[((i + 2) % 3) * THREADS + wave * WAVE],
             src + next * THREADS + t);
    acc += buf[(i % 3) * THREADS + ((t + 1) & (THREADS - 1))];
  }
  out[blockIdx.x * THREADS + t] = acc;
}
