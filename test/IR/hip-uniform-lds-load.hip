// A value one work-item publishes through LDS and every work-item reads
// back after a barrier: `if (t == 0) flag = ...; __syncthreads(); if (flag)`.
// A DS read of a uniform address under a full EXEC reads one location in
// every wave; no write of it runs between the waves' reads when each of
// its hazard windows is covered by a barrier that all waves pass. By
// induction over the barriers the waves pass, the value is then the same
// in every wave, and the branches on it are workgroup-uniform. Where a
// window of such a load stays open (a race, or one placement cannot
// cover), the analysis is redone without reading that load as uniform.
//
// last_block: the last workgroup to finish sums the partial sums of all
//   the others, a second tree under `if (IsLast)`: its barriers are placed
//   (the author's 19 become 5), no warning, --check quiet.
// published_count: a trip count published by work-item 0; the loop's two
//   barriers, no warning, --check quiet.
// reset_after_read: the same, with work-item 0 clearing the count after
//   the loop without a barrier: a real WAR race with the other waves'
//   reads of it, which --check reports; the count may then differ between
//   waves, so the loop's barriers are reported as skippable too.
//   Placement covers the WAR with a barrier before the clearing.
// per_lane_flag: a flag read at a per-lane address (Flag[t & 1]): no
//   uniform value; the barrier under it stays where the author put it and
//   --check reports it.
// The executable oracle runs the placed code of every kernel with loaded
// values: no race, no hang; without the barrier that publishes IsLast it
// finds the race.
//
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o %t.942.s 2>%t.942.err
// RUN: FileCheck --check-prefix=STRIP %s < %t.942.s
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning %s < %t.942.err
// RUN: not %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | FileCheck --check-prefix=RACE --implicit-check-not=error: %s
// RUN: %hip_compile --strip-barriers --arch=gfx942 --pass-opt=-stop-after=si-insert-waitcnts %s -o %t.mir
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 %t.mir | FileCheck --check-prefix=ORACLE %s
// RUN: %python -c "import re,sys; s=open(sys.argv[1]).read(); i=s.index('name:            last_block'); j=s.index('S_BARRIER', s.index('DS_WRITE_B8', i)); open(sys.argv[2], 'w').write(s[:s.rfind(chr(10), 0, j)] + s[s.index(chr(10), j):])" %t.mir %t.nobarrier.mir
// RUN: not %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --items 256 --function last_block %t.nobarrier.mir | FileCheck --check-prefix=NOBARRIER %s
#include <hip/hip_runtime.h>

extern "C" __global__ void last_block(const float *In, float *Partial,
                                      float *Out, unsigned *Count) {
  __shared__ float Tile[256];
  __shared__ bool IsLast;
  unsigned T = threadIdx.x;
  Tile[T] = In[blockIdx.x * 256 + T];
  __syncthreads();
  for (unsigned S = 128; S > 0; S >>= 1) {
    if (T < S)
      Tile[T] += Tile[T + S];
    __syncthreads();
  }
  if (T == 0) {
    Partial[blockIdx.x] = Tile[0];
    __threadfence();
    IsLast = atomicAdd(Count, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (IsLast) {
    Tile[T] = T < gridDim.x ? Partial[T] : 0.0f;
    __syncthreads();
    for (unsigned S = 128; S > 0; S >>= 1) {
      if (T < S)
        Tile[T] += Tile[T + S];
      __syncthreads();
    }
    if (T == 0)
      *Out = Tile[0];
  }
}

extern "C" __global__ void published_count(const int *Counts, float *Data) {
  __shared__ int Rounds;
  __shared__ float Buf[256];
  unsigned T = threadIdx.x;
  if (T == 0)
    Rounds = Counts[blockIdx.x];
  __syncthreads();
  float Acc = 0;
  for (int R = 0; R < Rounds; ++R) {
    Buf[T] = Data[R * 256 + T];
    __syncthreads();
    Acc += Buf[255 - T];
    __syncthreads();
  }
  Data[T] = Acc;
}

extern "C" __global__ void reset_after_read(const int *Counts, float *Data) {
  __shared__ int Rounds;
  __shared__ float Buf[256];
  unsigned T = threadIdx.x;
  if (T == 0)
    Rounds = Counts[blockIdx.x];
  __syncthreads();
  float Acc = 0;
  for (int R = 0; R < Rounds; ++R) {
    Buf[T] = Data[R * 256 + T];
    __syncthreads();
    // RACE-DAG: error: {{.*}}hip-uniform-lds-load.hip:[[#@LINE-1]]:5: amdgpu-lds-barriers: barrier in control flow that some waves may skip
    Acc += Buf[255 - T];
    __syncthreads();
    // RACE-DAG: error: {{.*}}hip-uniform-lds-load.hip:[[#@LINE-1]]:5: amdgpu-lds-barriers: barrier in control flow that some waves may skip
  }
  if (T == 0)
    Rounds = 0;
  // RACE-DAG: error: {{.*}}hip-uniform-lds-load.hip:[[#@LINE-1]]:12: amdgpu-lds-barriers: WAR race on LDS[1024, 1028) between DS_READ_B32_gfx9 ({{.*}}hip-uniform-lds-load.hip:[[#@LINE-10]]:23) and DS_WRITE_B32_gfx9
  Data[T] = Acc;
}

extern "C" __global__ void per_lane_flag(const int *Flags, float *Data) {
  __shared__ int Flag[256];
  __shared__ float Buf[256];
  unsigned T = threadIdx.x;
  Flag[T] = Flags[blockIdx.x * 256 + T];
  __syncthreads();
  if (Flag[T & 1]) {
    Buf[T] = Data[T];
    __syncthreads();
    // RACE-DAG: error: {{.*}}hip-uniform-lds-load.hip:[[#@LINE-1]]:5: amdgpu-lds-barriers: barrier in control flow that some waves may skip
    Data[T] = Buf[255 - T];
  }
  __syncthreads();
  Buf[T] = 1.0f;
  __syncthreads();
  Data[T] += Buf[T ^ 64];
}

// RACE: 4 errors generated

// The self-check of the lit configuration names the kept barrier too.
// WARN: warning: in function 'per_lane_flag': amdgpu-lds-barriers: in the input: barrier in control flow that some waves may skip
// WARN: 1 warning generated

// STRIP-LABEL: last_block:
// STRIP: ds_write_b8 {{v[0-9]+}}, {{v[0-9]+}} offset:1024
// STRIP: s_barrier
// STRIP-NEXT: ds_read_u8 {{v[0-9]+}}, {{v[0-9]+}} offset:1024
// STRIP: s_cbranch_vccnz
// STRIP: s_barrier
// STRIP-LABEL: .Lfunc_end0:
// STRIP-LABEL: published_count:
// STRIP-COUNT-3: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: reset_after_read:
// STRIP-COUNT-4: s_barrier
// STRIP-NOT: s_barrier
// STRIP-LABEL: per_lane_flag:
// STRIP-COUNT-4: s_barrier
// STRIP-NOT: s_barrier

// ORACLE: last_block: executed ({{.*}}), races: 0, hangs: 0
// ORACLE: published_count: executed ({{.*}}), races: 0, hangs: 0
// ORACLE: reset_after_read: executed ({{.*}}), races: 0, hangs: 0
// ORACLE: per_lane_flag: executed ({{.*}}), races: 0, hangs: 0
// NOBARRIER: last_block: executed ({{.*}}), races: {{[1-9]}}
