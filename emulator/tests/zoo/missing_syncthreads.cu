// Bug: threads read a neighbour's shared-memory slot without a __syncthreads in between.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void rotate(const int* in, int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = in[threadIdx.x];
  // BUG: __syncthreads() missing here
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 64 * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(in, 0, 64 * sizeof(int));
  rotate<<<1, 64>>>(in, out);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
