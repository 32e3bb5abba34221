// A 1-D stencil through LDS, HIP without the HIP headers (compiles with
// clang-22 -nogpulib -nogpuinc). Its __syncthreads() calls are missing on
// purpose: the pass places them.
#define __shared__ __attribute__((shared))
#define __global__ __attribute__((global))

extern "C" __global__ void stencil(float *out, const float *in, int n) {
  __shared__ float buf[258];
  unsigned t = __builtin_amdgcn_workitem_id_x();
  unsigned base = __builtin_amdgcn_workgroup_id_x() * 256;
  for (int it = 0; it < n; ++it) {
    buf[t + 1] = in[base + t];
    if (t == 0) {
      buf[0] = 0.0f;
      buf[257] = 0.0f;
    }
    // __syncthreads() belongs here (RAW: neighbours' slots)...
    float v = buf[t] + buf[t + 1] + buf[t + 2];
    // ...and here (WAR: the next iteration overwrites what others read).
    out[base + t] += v;
  }
}
