// A kernel that spins for a while (for signal tests): one CUDA thread waits for a flag.
#include <cstdio>

__global__ void wait_for(volatile int* flag) {
  while (*flag == 0) {
  }
}

int main() {
  int* flag;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  std::printf("launching\n");
  std::fflush(stdout);
  wait_for<<<1, 1>>>(flag);
  cudaDeviceSynchronize();
  return 0;
}
