// Inline PTX without a CPU meaning: cuemu reports the line and the instruction.
#include <cuda_runtime.h>

__global__ void copy4(const uint4* in, uint4* out) {
  uint4 v;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(in + threadIdx.x));
  out[threadIdx.x] = v;
}

int main() {
  copy4<<<1, 1>>>(nullptr, nullptr);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
