// A complete CUDA program: it prints the same lines on a GPU.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e = (x);                                                             \
    if (e != cudaSuccess) {                                                          \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__);    \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

__global__ void square(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * v[i];
}

int main(int argc, char** argv) {
  const int n = 100;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int* d = nullptr;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  square<<<(n + 31) / 32, 32>>>(d, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  std::printf("sum of squares: %ld\n", sum);
  for (int i = 1; i < argc; ++i) std::printf("arg %d: %s\n", i, argv[i]);
  CHECK(cudaFree(d));
  return argc > 1 && argv[1][0] == 'x' ? 3 : 0;
}
