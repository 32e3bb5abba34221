// All-pairs n-body forces with a shared-memory tile of positions, written so
// that every work-item reaches every barrier: the tile loop runs for the
// whole workgroup, the loads past n are clamped, and only the final update
// is under `if (i < n)`. Two barriers per tile: RAW after the tile is
// stored, WAR before the next tile overwrites it.
#include <hip/hip_runtime.h>

extern "C" __global__ __launch_bounds__(256) void
nbodyTile(float4 *vel, const float4 *pos, float dt, int n) {
  __shared__ float4 tile[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  float4 me = pos[min(i, n - 1)];
  float fx = 0.0f, fy = 0.0f, fz = 0.0f;
  for (int base = 0; base < n; base += 256) {
    tile[t] = pos[min(base + (int)t, n - 1)];
    __syncthreads(); // RAW: the loop below reads other work-items' bodies
    int count = min(256, n - base);
    for (int j = 0; j < count; ++j) {
      float dx = tile[j].x - me.x, dy = tile[j].y - me.y, dz = tile[j].z - me.z;
      float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-9f);
      float inv3 = inv * inv * inv * tile[j].w;
      fx += dx * inv3;
      fy += dy * inv3;
      fz += dz * inv3;
    }
    __syncthreads(); // WAR: the next tile overwrites what others read
  }
  if (i < n) {
    vel[i].x += dt * fx;
    vel[i].y += dt * fy;
    vel[i].z += dt * fz;
  }
}
