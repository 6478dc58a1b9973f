#include <cstdio>
#include <cuda_runtime.h>

__device__ int deep(volatile int* p, int depth) {
  volatile char pad[1024];
  pad[0] = static_cast<char>(depth);
  if (depth == 0) return pad[0];
  return deep(p, depth - 1) + pad[0];
}

__global__ void recurse(int* out, int depth) { out[threadIdx.x] = deep(out, depth); }

int main() {
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  recurse<<<1, 32>>>(out, 100000);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
