// Bug: every block accumulates into the same global counter without an atomic.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void count(int* total) {
  if (threadIdx.x == 0) *total += 1;  // BUG: should be atomicAdd(total, 1)
}

int main() {
  int* total;
  cudaMalloc(&total, sizeof(int));
  cudaMemset(total, 0, sizeof(int));
  count<<<8, 32>>>(total);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
