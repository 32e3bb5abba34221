// One warning per cause: the exchange below sits under `if (t < n)`, a
// branch on the work-item, so no barrier can order it; unrolled four times
// it has a RAW hazard from the write to the read in each copy and a WAR
// hazard from each read to the next copy's write, and WAW hazards between
// the writes of consecutive copies. With source lines the pass reports one
// warning per pair of lines and kind, with the count of the other hazards
// between them (--check likewise); the warnings do not grow with the unroll
// factor. The launch bound keeps every work-item's own slot apart. (The
// barrier after the branch keeps the waves that skip it from ending at
// once: without it the branch would be an early exit, whose region can
// take barriers.)
// RUN: %hip_compile --arch=gfx942 %s -o /dev/null -- -g 2>&1 | FileCheck %s
// RUN: not %hip_compile --check --arch=gfx942 %s -o /dev/null -- -g 2>&1 | FileCheck --check-prefix=CHECKER %s
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(256) exchange(int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t < n) {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      s[(t + k) & 255] = k;
      out[t * 4 + k] = s[(t + k + 1) & 255];
    }
  }
  __syncthreads();
}

// CHECK-NOT: warning:
// CHECK-DAG: warning: {{.*}}hip-one-warning-per-cause.hip:23:{{[0-9]+}}: amdgpu-lds-barriers: RAW hazard {{.*}}cannot be covered{{.*}} (and {{[1-9][0-9]*}} more between the same source lines)
// CHECK-DAG: warning: {{.*}}hip-one-warning-per-cause.hip:22:{{[0-9]+}}: amdgpu-lds-barriers: WAR hazard {{.*}}cannot be covered{{.*}} (and {{[1-9][0-9]*}} more between the same source lines)
// CHECK-DAG: warning: {{.*}}hip-one-warning-per-cause.hip:22:{{[0-9]+}}: amdgpu-lds-barriers: WAW hazard {{.*}}cannot be covered{{.*}} (and {{[1-9][0-9]*}} more between the same source lines)
// CHECK-NOT: warning:
// CHECK: 3 warnings generated
// CHECKER-NOT: error:
// CHECKER-DAG: error: {{.*}}hip-one-warning-per-cause.hip:23:{{[0-9]+}}: amdgpu-lds-barriers: RAW race {{.*}} (and {{[1-9][0-9]*}} more between the same source lines)
// CHECKER-DAG: error: {{.*}}hip-one-warning-per-cause.hip:22:{{[0-9]+}}: amdgpu-lds-barriers: WAR race {{.*}} (and {{[1-9][0-9]*}} more between the same source lines)
// CHECKER-DAG: error: {{.*}}hip-one-warning-per-cause.hip:22:{{[0-9]+}}: amdgpu-lds-barriers: WAW race {{.*}} (and {{[1-9][0-9]*}} more between the same source lines)
// CHECKER-NOT: error:
// CHECKER: 3 errors generated
