// Per-work-item byte counters in LDS, then a sum over the work-items (256
// work-items): each work-item zeroes and increments only its own four
// counters, so only the sum, which reads every work-item's counters, needs
// a barrier. Without the thread-index analysis every increment conflicts
// with every other work-item's, inside a loop whose trip count depends on
// the work-item (no barrier may go there).
#include <hip/hip_runtime.h>

extern "C" __global__ __launch_bounds__(256) void
histogram(unsigned *out, const unsigned char *in, int n) {
  __shared__ unsigned char counts[256 * 4];
  unsigned t = threadIdx.x;
  for (int bin = 0; bin < 4; ++bin)
    counts[t * 4 + bin] = 0;
  for (int i = t; i < n; i += 256)
    ++counts[t * 4 + (in[i] & 3)];
  __syncthreads(); // RAW: the sum reads the other work-items' counters
  if (t < 4) {
    unsigned sum = 0;
    for (int j = 0; j < 256; ++j)
      sum += counts[j * 4 + t];
    out[blockIdx.x * 4 + t] = sum;
  }
}
