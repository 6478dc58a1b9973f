// Bug: a uint4 copy at an address that is only 4-byte aligned (a GPU faults).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void copy16(const unsigned* src, unsigned* dst) {
  const uint4* s = reinterpret_cast<const uint4*>(src + 1);  // BUG: src + 1 is not 16-aligned
  uint4 v = s[threadIdx.x];
  reinterpret_cast<uint4*>(dst)[threadIdx.x] = v;
}

int main() {
  unsigned *src, *dst;
  cudaMalloc(&src, 1024);
  cudaMalloc(&dst, 1024);
  cudaMemset(src, 0, 1024);
  copy16<<<1, 8>>>(src, dst);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
