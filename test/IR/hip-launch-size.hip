// Kernels that are right only for the launch their authors use, which HIP
// cannot state in the source (reqd_work_group_size is OpenCL only), and
// -amdgpu-lds-barriers-workgroup-size, which states it: [KERNEL=]XxYxZ,
// KERNEL a symbol, a demangled name or a name without template arguments.
//
// halo: a 16x16 tile with a one-element halo, written by the work-items
//   on the tile's edges (`tx == 15`, `ty == 15`); a 17th work-item in x or
//   y would write a halo slot that an edge work-item writes. Without the
//   size: WAW windows between the tile and its halo (two more barriers
//   than the author's two), which --check reports; with halo=16x16: the author's two, and a
//   quiet --check. The oracle finds no race in the sized output under a
//   16x16 launch, and finds the WAW under a 16x17 launch that the size
//   excludes.
// rows: 16x4 work-items are one wave64: no barrier on gfx942, and two
//   waves on gfx1201, which keeps one.
// window: a template kernel whose loop steps by its block size, 64: one
//   wave64 with the size; the base name and the demangled name with
//   template arguments both name it.
// waves: per-wave partial sums, written by lane 0 of each wave at
//   `Flat / 64` of the flat id `ty * blockDim.x + tx`, into one array
//   that holds two tables. The kernel reads ty alone too (a row loop), so
//   the flat-id rule does not apply, and with blockDim.x unknown the
//   division has no form: a WAW warning and a --check report. With
//   waves=32x16, blockDim.x is 32 inside the division (and AMDGPU's 24-bit
//   multiplication of ty by it): no warning, a quiet --check.
// perm: sub-histograms whose slot permutation is computed from the launch
//   size, `B = __ffs(blockDim.x) - 3`, `(T & (1 << B) - 1) << 2 | T >> B`.
//   With perm=128, LLVM's constant folder evaluates the arithmetic on the
//   size, and the slots are a permutation of 0..127: the author's two
//   barriers, a quiet --check (without the size, 48 barriers and two
//   reports).
// column: a 64x4 stencil column whose LDS index `tx + (y0 + ty) * 64`
//   the SLP vectorizer computes as a lane of `(x0, y0) + (tx, ty)`: read
//   lane by lane, the three rows 256 apart are apart (before, a WAW
//   report and a second barrier). The oracle runs it under 64x4.
// Malformed sizes and sizes above the kernel's __launch_bounds__ are
// ignored with a warning, and the kernel is compiled as without them.
//
// RUN: %hip_compile --strip-barriers --arch=gfx942 %s -o %t.none.s 2>%t.none.err
// RUN: FileCheck --check-prefix=NONE %s < %t.none.s
// RUN: not %hip_compile --check --arch=gfx942 %s -o /dev/null 2>&1 | FileCheck --check-prefix=NONE-CHECK %s
// RUN: FileCheck --check-prefix=NONE-WARN --implicit-check-not=warning: %s < %t.none.err
// RUN: %hip_compile --strip-barriers --arch=gfx942 --pass-opt=-amdgpu-lds-barriers-workgroup-size=halo=16x16 --pass-opt=-amdgpu-lds-barriers-workgroup-size=rows=16x4 --pass-opt=-amdgpu-lds-barriers-workgroup-size=window=64 --pass-opt=-amdgpu-lds-barriers-workgroup-size=bounded=16x16 --pass-opt=-amdgpu-lds-barriers-workgroup-size=waves=32x16 --pass-opt=-amdgpu-lds-barriers-workgroup-size=perm=128 --pass-opt=-amdgpu-lds-barriers-workgroup-size=column=64x4 %s -o %t.sized.s 2>%t.sized.err
// RUN: FileCheck --check-prefix=SIZED %s < %t.sized.s
// RUN: FileCheck --check-prefix=SIZED-WARN --implicit-check-not=warning: %s < %t.sized.err
// RUN: %hip_compile --check --arch=gfx942 --pass-opt=-amdgpu-lds-barriers-workgroup-size=halo=16x16 --pass-opt=-amdgpu-lds-barriers-workgroup-size=rows=16x4 --pass-opt=-amdgpu-lds-barriers-workgroup-size=window=64 --pass-opt=-amdgpu-lds-barriers-workgroup-size=waves=32x16 --pass-opt=-amdgpu-lds-barriers-workgroup-size=perm=128 --pass-opt=-amdgpu-lds-barriers-workgroup-size=column=64x4 %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: %hip_compile --strip-barriers --arch=gfx942 "--pass-opt=-amdgpu-lds-barriers-workgroup-size=window<64u>=64" %s -o - 2>/dev/null | FileCheck --check-prefix=FULL-NAME %s
// RUN: %hip_compile --strip-barriers --arch=gfx1201 --pass-opt=-amdgpu-lds-barriers-workgroup-size=rows=16x4 %s -o - 2>/dev/null | FileCheck --check-prefix=WAVE32 %s
// RUN: %hip_compile --strip-barriers --arch=gfx942 --pass-opt=-amdgpu-lds-barriers-workgroup-size=halo=16x0 %s -o %t.bad.s 2>&1 | FileCheck --check-prefix=BAD %s
// RUN: FileCheck --check-prefix=NONE %s < %t.bad.s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx942 --pass-opt=-amdgpu-lds-barriers-workgroup-size=halo=16x16 %s -o %t.sized.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --dims 16,16,1 --function _Z4haloPKfPf %t.sized.mir | FileCheck --check-prefix=ORACLE %s
// RUN: not %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --dims 16,17,1 --function _Z4haloPKfPf %t.sized.mir | FileCheck --check-prefix=WIDER %s
// RUN: %hip_compile --strip-barriers --mir --arch=gfx942 --pass-opt=-amdgpu-lds-barriers-workgroup-size=column=64x4 %s -o %t.column.mir 2>/dev/null
// RUN: %python %S/../../utils/oracle/mir_exec.py --cpu gfx942 --addr reg --dims 64,4,1 --function _Z6columnPfPKfiiiiiiii %t.column.mir | FileCheck --check-prefix=ORACLE %s
#include <hip/hip_runtime.h>

// NONE-LABEL: _Z4haloPKfPf:
// NONE-COUNT-4: s_barrier{{$}}
// NONE-NOT: s_barrier{{$}}
// NONE: s_endpgm
// NONE-CHECK: error: {{.*}}WAW race on LDS[0, 1360) between DS_WRITE_B32_gfx9 ({{.*}}hip-launch-size.hip:[[#@LINE+16]]:{{.*}}) and DS_WRITE_B32_gfx9 ({{.*}}hip-launch-size.hip:[[#@LINE+20]]
// SIZED-LABEL: _Z4haloPKfPf:
// SIZED-COUNT-2: s_barrier{{$}}
// SIZED-NOT: s_barrier{{$}}
// SIZED: s_endpgm
// QUIET-NOT: error:
// QUIET-NOT: warning: {{.*}}amdgpu-lds
// ORACLE: races: 0
// WIDER: WAW
// BAD: warning: {{.*}}ignoring -amdgpu-lds-barriers-workgroup-size=halo=16x0 (not [KERNEL=]X[xY[xZ]] with sizes from 1 to 1024 and a product of at most 1024): the workgroup may have up to 1024 work-items
__global__ void halo(const float *In, float *Out) {
  __shared__ float Tile[18][18];
  __shared__ float Rows[16];
  unsigned Tx = threadIdx.x, Ty = threadIdx.y;
  unsigned I = blockIdx.x * 16 + Tx, J = blockIdx.y * 16 + Ty;
  unsigned N = gridDim.x * 16;
  Tile[Ty + 1][Tx + 1] = In[J * N + I];
  if (Tx == 0 && I >= 1)
    Tile[Ty + 1][0] = In[J * N + I - 1];
  if (Tx == 15)
    Tile[Ty + 1][17] = In[J * N + I + 1];
  if (Ty == 0 && J >= 1)
    Tile[0][Tx + 1] = In[(J - 1) * N + I];
  if (Ty == 15)
    Tile[17][Tx + 1] = In[(J + 1) * N + I];
  __syncthreads();
  float V = 0.25f * (Tile[Ty + 1][Tx] + Tile[Ty + 1][Tx + 2] +
                     Tile[Ty][Tx + 1] + Tile[Ty + 2][Tx + 1]);
  Out[J * N + I] = V;
  if (Tx == 0)
    Rows[Ty] = V;
  __syncthreads();
  if (Ty == 0 && Tx == 0) {
    float S = 0.0f;
    for (int K = 0; K < 16; ++K)
      S += Rows[K];
    Out[N * N + blockIdx.y * gridDim.x + blockIdx.x] = S;
  }
}

// NONE-WARN: warning: {{.*}}'_Z4rowsPKfPf': amdgpu-lds-barriers: DS_WRITE2_B32_gfx9: different work-items may write the same LDS bytes in one execution
// SIZED-LABEL: _Z4rowsPKfPf:
// SIZED-NOT: s_barrier{{$}}
// SIZED: s_endpgm
// WAVE32-LABEL: _Z4rowsPKfPf:
// WAVE32: s_barrier_signal -1
// WAVE32: s_endpgm
__global__ void rows(const float *In, float *Out) {
  __shared__ float Line[4][48];
  unsigned Tx = threadIdx.x, Ty = threadIdx.y;
  const float *Src = In + (blockIdx.y * 4 + Ty) * 1024 + blockIdx.x * 32 + Tx;
  for (int K = 0; K < 3; ++K)
    Line[Ty][Tx + 16 * K] = Src[16 * K];
  __syncthreads();
  float S = 0.0f;
  for (int K = -8; K <= 8; ++K)
    S += Line[Ty][Tx + 16 + K];
  Out[(blockIdx.y * 4 + Ty) * 1024 + blockIdx.x * 16 + Tx] = S;
}

// NONE-LABEL: _Z6windowILj64EEvPKjPjj:
// NONE-COUNT-1: s_barrier{{$}}
// NONE-NOT: s_barrier{{$}}
// NONE: s_endpgm
// SIZED-LABEL: _Z6windowILj64EEvPKjPjj:
// SIZED-NOT: s_barrier{{$}}
// SIZED: s_endpgm
// FULL-NAME-LABEL: _Z6windowILj64EEvPKjPjj:
// FULL-NAME-NOT: s_barrier{{$}}
// FULL-NAME: s_endpgm
template <unsigned B>
__global__ void window(const unsigned *In, unsigned *Out, unsigned N) {
  __shared__ unsigned Buf[B + 96];
  unsigned Base = blockIdx.x * blockDim.x;
  for (unsigned I = threadIdx.x; I < B + 96; I += B)
    if (Base + I < N)
      Buf[I] = In[Base + I];
  __syncthreads();
  unsigned S = 0;
  for (unsigned K = 0; K < 97; ++K)
    S += Buf[threadIdx.x + K];
  Out[Base + threadIdx.x] = S / 97;
}
template __global__ void window<64>(const unsigned *, unsigned *, unsigned);

// SIZED-WARN: warning: {{.*}}ignoring -amdgpu-lds-barriers-workgroup-size (256 work-items, more than the kernel's maximum of 128): the workgroup may have up to 128 work-items
__global__ void __launch_bounds__(128) bounded(float *Out) {
  __shared__ float S[128];
  S[threadIdx.x] = Out[threadIdx.x];
  __syncthreads();
  Out[threadIdx.x] = S[127 - threadIdx.x];
}

// NONE-WARN: warning: {{.*}}'_Z5wavesPKfPfi': amdgpu-lds-barriers: WAW hazard on LDS[0, 640) between DS_WRITE2_B32_gfx9 and DS_WRITE_B32_gfx9 cannot be covered
// NONE-CHECK: error: {{.*}}hip-launch-size.hip:[[#@LINE+23]]:{{.*}} WAW race
// SIZED-LABEL: _Z5wavesPKfPfi:
// SIZED-COUNT-1: s_barrier{{$}}
// SIZED-NOT: s_barrier{{$}}
// SIZED: s_endpgm
__global__ void waves(const float *In, float *Out, int Rows) {
  __shared__ int Mem[160];
  float *Partial = (float *)&Mem[64];
  unsigned Flat = threadIdx.y * blockDim.x + threadIdx.x;
  float S = 0.0f;
  int N = 0;
  for (int R = threadIdx.y; R < Rows; R += blockDim.y) {
    S += In[R * blockDim.x + threadIdx.x];
    ++N;
  }
  for (int O = 32; O > 0; O >>= 1) {
    S += __shfl_down(S, O);
    N += __shfl_down(N, O);
  }
  unsigned Lane = Flat % 64, Wave = Flat / 64;
  if (Lane == 0) {
    Partial[2 * Wave] = S;
    Partial[2 * Wave + 1] = S * S;
    Mem[Wave] = N;
  }
  __syncthreads();
  if (Flat < 8)
    Out[blockIdx.x * 8 + Flat] =
        (Partial[2 * Flat] + Partial[2 * Flat + 1]) / Mem[Flat];
}

// NONE-CHECK: error: {{.*}}hip-launch-size.hip:[[#@LINE+15]]:{{.*}} race
// SIZED-LABEL: _Z4permPKhPj:
// SIZED-COUNT-2: s_barrier{{$}}
// SIZED-NOT: s_barrier{{$}}
// SIZED: s_endpgm
__global__ void perm(const unsigned char *Data, unsigned *Out) {
  extern __shared__ unsigned char Bins[];
  int T = threadIdx.x, Size = blockDim.x;
  int B = __ffs(Size) - 3;
  int Slot = (T & (1 << B) - 1) << 2 | (T >> B);
  for (int I = 0; I < 256; ++I)
    Bins[I + 256 * Slot] = 0;
  __syncthreads();
  for (int I = 0; I < 16; ++I) {
    unsigned V = Data[(blockIdx.x * Size + T) * 16 + I];
    Bins[V * Size + Slot]++;
  }
  __syncthreads();
  for (int I = 0; I < 256 / Size; ++I) {
    int Bin = I * Size + Slot;
    unsigned S = 0;
    for (int J = 0; J < Size; ++J)
      S += Bins[Bin * Size + J];
    Out[blockIdx.x * 256 + Bin] = S;
  }
}

// SIZED-LABEL: _Z6columnPfPKfiiiiiiii:
// SIZED-COUNT-1: s_barrier{{$}}
// SIZED-NOT: s_barrier{{$}}
// SIZED: s_endpgm
using vec1 = __attribute__((__vector_size__(sizeof(float)))) float;
__constant__ float Coef[9];
__global__ void __launch_bounds__(256)
column(float *__restrict__ POut, const float *__restrict__ PIn, int Line,
       int Slice, int X0, int X1, int Y0, int Y1, int Z0, int Z1) {
  const int I = X0 + threadIdx.x + blockIdx.x * blockDim.x;
  const int J = Y0 + threadIdx.y + blockIdx.y * blockDim.y;
  const int K = Z0 + threadIdx.z + blockIdx.z * blockDim.z;
  size_t Pos = I + Line * J + Slice * K;
  size_t SPos = threadIdx.x + (Y0 + threadIdx.y) * 64;
  PIn += Pos;
  POut += Pos;
  const vec1 *In = reinterpret_cast<const vec1 *>(PIn);
  vec1 *Out = reinterpret_cast<vec1 *>(POut);
  __shared__ vec1 S[64 * 12];
  S[SPos - 256] = In[0 - 4 * Line];
  S[SPos] = In[0];
  S[SPos + 256] = In[4 * Line];
  __syncthreads();
  if (I >= X1 || J >= Y1 || K >= Z1)
    return;
  vec1 V = {0.0f};
  for (int R = 0; R <= 8; ++R)
    V += S[SPos + (R - 4) * 64] * Coef[R];
  Out[0] = V;
}
