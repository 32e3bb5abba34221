// The few HIP device-side names the bundled examples use, so that they
// compile with clang-22 -nogpulib -nogpuinc (no HIP headers needed).
#ifndef LDS_EXAMPLE_H
#define LDS_EXAMPLE_H

#define __shared__ __attribute__((shared))
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __launch_bounds__(N) __attribute__((amdgpu_flat_work_group_size(1, N)))

#define threadIdx_x __builtin_amdgcn_workitem_id_x()
#define threadIdx_y __builtin_amdgcn_workitem_id_y()
#define blockIdx_x __builtin_amdgcn_workgroup_id_x()
#define blockIdx_y __builtin_amdgcn_workgroup_id_y()

// As in HIP: a workgroup release fence, the barrier, an acquire fence.
// utils/hip-compile.sh --strip-barriers deletes the barrier (the fences stay).
#define __syncthreads()                                                        \
  do {                                                                         \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");                     \
    __builtin_amdgcn_s_barrier();                                              \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");                     \
  } while (0)

typedef __attribute__((address_space(1))) void GlobalVoid;
typedef __attribute__((address_space(3))) void LocalVoid;

#endif
