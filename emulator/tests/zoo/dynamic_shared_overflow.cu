// Bug: the kernel uses more dynamic shared memory than the launch asked for.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void stage(int* out) {
  extern __shared__ int buf[];
  buf[threadIdx.x * 2] = static_cast<int>(threadIdx.x);  // BUG: needs 2 ints per thread
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x];
}

int main() {
  int* out;
  cudaMalloc(&out, 64 * sizeof(int));
  stage<<<1, 64, 64 * sizeof(int)>>>(out);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
