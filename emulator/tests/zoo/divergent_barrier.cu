// Bug: two branches of a block reach different __syncthreads.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void split(int* out) {
  if (threadIdx.x < 32) {
    out[threadIdx.x] = 1;
    __syncthreads();  // BUG: the other half waits at a different barrier
  } else {
    out[threadIdx.x] = 2;
    __syncthreads();
  }
}

int main() {
  int* out;
  cudaMalloc(&out, 64 * sizeof(int));
  split<<<1, 64>>>(out);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
