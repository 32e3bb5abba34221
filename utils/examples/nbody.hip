// All-pairs n-body forces with a shared-memory tile of positions, in the
// shape of a common HIP sample: the whole computation, tile loop included,
// sits under `if (i < n)`, a condition on the work-item, and nothing
// follows it. The waves past n end there before any LDS access, and a
// barrier waits only for the waves that have not ended: an early exit, so
// the barriers inside are right, and the pass places the same two when
// the kernel's own are stripped.
#include <hip/hip_runtime.h>

struct Body {
  float X, Y, Z, W;
};

extern "C" __global__ __launch_bounds__(256) void
bodyForce(Body *pos, Body *vel, float dt, int n) {
  __shared__ Body tile[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  if (i < n) {
    float fx = 0.0f, fy = 0.0f, fz = 0.0f;
    for (int base = 0; base < n; base += 256) {
      tile[t] = pos[base + t];
      __syncthreads(); // RAW: the loop below reads other work-items' bodies
      for (int j = 0; j < 256; ++j) {
        float dx = tile[j].X - pos[i].X;
        float dy = tile[j].Y - pos[i].Y;
        float dz = tile[j].Z - pos[i].Z;
        float d2 = dx * dx + dy * dy + dz * dz + 1e-9f;
        float inv = __builtin_amdgcn_rsqf(d2);
        float inv3 = inv * inv * inv;
        fx += dx * inv3;
        fy += dy * inv3;
        fz += dz * inv3;
      }
      __syncthreads(); // WAR: the next tile overwrites what others read
    }
    vel[i].X += dt * fx;
    vel[i].Y += dt * fy;
    vel[i].Z += dt * fz;
  }
}
