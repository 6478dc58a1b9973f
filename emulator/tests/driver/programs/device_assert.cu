// assert() in a kernel: CUDA's message, then cudaErrorAssert for the rest of the program.
#include <cassert>
#include <cstdio>

__global__ void check_positive(const int* v) {
  assert(v[threadIdx.x] > 0);
}

int main() {
  int h[8] = {1, 2, 3, 4, 5, -6, 7, 8};
  int* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  check_positive<<<1, 5>>>(d);
  std::printf("first: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  check_positive<<<1, 8>>>(d);
  std::printf("second: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::printf("later: %s\n", cudaGetErrorName(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost)));
  return 0;
}
