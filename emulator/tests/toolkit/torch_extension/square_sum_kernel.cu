// A kernel launched on memory of its own (no tensors): sum of i*i for i < n.
#include <cstdint>
#include <vector>

#include <cuda_runtime.h>
#include <torch/types.h>

__global__ void squares(long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (long long)i * i;
}

int64_t square_sum(int64_t n) {
  long long* d = nullptr;
  TORCH_CHECK(cudaMalloc(&d, n * sizeof(long long)) == cudaSuccess, "cudaMalloc failed");
  squares<<<(n + 127) / 128, 128>>>(d, (int)n);
  std::vector<long long> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(long long), cudaMemcpyDeviceToHost);
  cudaFree(d);
  long long s = 0;
  for (long long v : h) s += v;
  return s;
}
