// Histogram of 256 byte values with per-work-item sub-histograms, in the
// layout of the classic Histogram256 sample: 128 work-items, 8-bit counters
// at sub[value * 128 + slot(t)], where slot(t) = 4 * (t & 31) + (t >> 5)
// spreads neighbouring work-items over the LDS banks. The data is in the
// high bits of the index and the work-item in the low ones: slot is a
// permutation of [0, 128), so no two work-items share a counter whatever
// values they count. Barriers: after the zeroing (the author's; each
// work-item zeroes its own counters, so it orders nothing) and before the
// reduction, which reads every work-item's counters.
#include <hip/hip_runtime.h>

#define BINS 256
#define THREADS 128

extern "C" __global__ __launch_bounds__(THREADS) void
histogram256(unsigned *partial, const unsigned *data, int perThread) {
  __shared__ unsigned char sub[BINS * THREADS];
  unsigned t = threadIdx.x;
  unsigned slot = 4 * (t & 31) + (t >> 5);
  for (int bin = 0; bin < BINS; ++bin)
    sub[bin * THREADS + slot] = 0;
  __syncthreads();
  const unsigned *in = data + (blockIdx.x * THREADS + t) * perThread;
  for (int i = 0; i < perThread; ++i) {
    unsigned v = in[i];
    ++sub[(v & 0xff) * THREADS + slot];
    ++sub[((v >> 8) & 0xff) * THREADS + slot];
    ++sub[((v >> 16) & 0xff) * THREADS + slot];
    ++sub[(v >> 24) * THREADS + slot];
  }
  __syncthreads(); // RAW: the sums read every work-item's counters
  for (int b = 0; b < 2; ++b) {
    unsigned bin = t * 2 + b, sum = 0;
    for (int j = 0; j < THREADS; ++j)
      sum += sub[bin * THREADS + j];
    partial[blockIdx.x * BINS + bin] = sum;
  }
}
