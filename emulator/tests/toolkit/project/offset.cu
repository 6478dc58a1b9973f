// A kernel in a shared library.
#include <cuda_runtime.h>

__global__ void offset_kernel(int* data, int n, int by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += by;
}

void offset(int* data, int n, int by) { offset_kernel<<<(n + 255) / 256, 256>>>(data, n, by); }
