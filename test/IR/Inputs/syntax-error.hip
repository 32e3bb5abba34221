// Does not compile: hip-compile.sh must fail with clang's message.
#include <hip/hip_runtime.h>

extern "C" __global__ void broken(int *out) { out[threadIdx.x] = undeclared; }
