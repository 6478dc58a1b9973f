// Bug: a shared-memory tile is indexed one past its end, into the neighbouring __shared__ array.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void tiles(const int* in, int* out) {
  __shared__ int a[32];
  __shared__ int b[32];
  a[threadIdx.x] = in[threadIdx.x];
  b[threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = a[threadIdx.x + 1] + b[threadIdx.x];  // BUG: a[32] for the last thread
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(in, 0, 32 * sizeof(int));
  tiles<<<1, 32>>>(in, out);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
