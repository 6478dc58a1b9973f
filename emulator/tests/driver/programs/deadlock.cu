#include <cstdio>
#include <cuda_runtime.h>

__global__ void half_barrier(int* out) {
  const unsigned lane = threadIdx.x % 32;
  if (threadIdx.x < 32 || lane >= 16) {
    __syncthreads();
  } else {
    out[threadIdx.x] = __shfl_sync(0xffffffffu, 5, 0);
  }
}

int main() {
  int* out;
  cudaMalloc(&out, 64 * sizeof(int));
  half_barrier<<<1, 64>>>(out);
  std::printf("after launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
