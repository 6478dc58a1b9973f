// Bugs in grids launched from device code, for the checkers: -DBUG=1 a child writes one element
// past its allocation; -DBUG=2 a tail launch reads device-heap memory a child has freed; -DBUG=3
// device code frees memory the host allocated with cudaMalloc (device code may free only what
// device code allocated). BUG=0 is correct.
#include <cstdio>
#include <cuda_runtime.h>

#ifndef BUG
#define BUG 0
#endif

__global__ void child_fill(int* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n + (BUG == 1 ? 1 : 0)) p[i] = i;
}
__global__ void child_free(int* p) {
  if (BUG == 2) cudaFree(p);
}
__global__ void tail_sum(const int* p, int n, int* out, bool free_it) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  *out = s;
  if (free_it) cudaFree(const_cast<int*>(p));
}
__global__ void parent(int* dev, int n, int* out) {
  child_fill<<<(n + 63) / 64, 64>>>(dev, n);
  int* heap = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&heap), 64 * sizeof(int));
  child_fill<<<1, 64>>>(heap, 64);
  child_free<<<1, 1>>>(heap);
  tail_sum<<<1, 1, 0, cudaStreamTailLaunch>>>(heap, 64, out + 1, BUG != 2);
  tail_sum<<<1, 1, 0, cudaStreamTailLaunch>>>(dev, n, out, BUG == 3);
}

int main() {
  const int n = 1000;
  int* dev;
  int* out;
  cudaMalloc(&dev, n * sizeof(int));
  cudaMallocManaged(&out, 2 * sizeof(int));
  parent<<<1, 1>>>(dev, n, out);
  const cudaError_t e = cudaDeviceSynchronize();
  printf("sums %d %d (%s)\n", out[0], out[1], cudaGetErrorName(e));
  return 0;
}
