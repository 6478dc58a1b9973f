// Bug: a buffer is freed and then used by a kernel.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float* v, float s) { v[threadIdx.x] *= s; }

int main() {
  float* v;
  cudaMalloc(&v, 32 * sizeof(float));
  cudaMemset(v, 0, 32 * sizeof(float));
  cudaFree(v);
  scale<<<1, 32>>>(v, 2.f);  // BUG: v was freed
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
