// A kernel waiting for its child with cudaDeviceSynchronize, as CUDA 11 allowed (CDP1). nvcc 13
// refuses it for sm_90 ("calling a __host__ function("cudaDeviceSynchronize") from a __global__
// function is not allowed"); the emulator reports the call where the kernel makes it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void child(int* x) { *x = 1; }
__global__ void parent(int* x) {
  child<<<1, 1>>>(x);
  cudaDeviceSynchronize();
  x[1] = x[0];
}

int main() {
  int* x;
  cudaMallocManaged(&x, 2 * sizeof(int));
  parent<<<1, 1>>>(x);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
