#include <cstdio>
#include <cuda_runtime.h>

__global__ void spin(volatile int* flag) {
  if (threadIdx.x == 3) {
    while (flag[0] == 0) {
    }
  }
}

int main() {
  int* flag;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  spin<<<1, 8>>>(flag);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
