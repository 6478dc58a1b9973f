// Bug: the last thread writes one element past the end of a cudaMalloc'd buffer.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = i;  // BUG: <= instead of <
}

int main() {
  const int n = 100;
  int* out;
  cudaMalloc(&out, n * sizeof(int));
  fill<<<1, 128>>>(out, n);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
