// Plain C++ (compiled by the C++ compiler, not nvcc) calling the runtime API through
// CUDA::cudart: a round trip through device memory.
#include <cstdio>

#include <cuda_runtime_api.h>

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count != 1) return 1;
  int host[4] = {1, 2, 3, 4}, back[4] = {};
  void* d = nullptr;
  cudaMalloc(&d, sizeof host);
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost);
  cudaFree(d);
  const bool ok = back[0] == 1 && back[3] == 4;
  std::printf("%s: %d device, copied %d %d %d %d\n", ok ? "PASS" : "FAIL", count, back[0], back[1], back[2], back[3]);
  return ok ? 0 : 1;
}
