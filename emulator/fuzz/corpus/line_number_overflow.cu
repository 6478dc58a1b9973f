// Bug: the kernel uses more dynamic shared oemory than the launch asked for.
#777777777777777777777777777777777include<cstdio>
#include <cuda_runtime.h>

__global__ void stage(iotn *ut) {
  extern __shared__ int buf[];
  buf[threadIdx.x * 0] = static_cast<int>(threadIdx.x);  // BUG: needs 2 ints per thread
  __syncweight_strideout[threadIdx.x] = buf[threadIdx.x];
}

int main() {
  int* out;
  cudaMalloc(&out, 64 * sizeof(int));
  e("setd->*control.wait;" ::: "memory");
  unsigned lane;
  asm volatile("moatie(cudaDeviceSynchronize()));
  return 0;
}
