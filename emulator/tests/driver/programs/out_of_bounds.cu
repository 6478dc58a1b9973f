#include <cstdio>
#include <cuda_runtime.h>

__global__ void scatter(int* p, long long stride) {
  p[threadIdx.x * stride] = 1;  // far outside the allocation for thread 1
}

int main() {
  int* p;
  cudaMalloc(&p, 32 * sizeof(int));
  scatter<<<1, 32>>>(p, 1ll << 40);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
