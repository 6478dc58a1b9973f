// Correct C++20 CUDA code (mini-sglang's kernels are written this way): concepts, ranges,
// std::span, std::source_location, designated initialisers. Every checking mode must compile
// and run what the plain build does.
#include <algorithm>
#include <concepts>
#include <cstdio>
#include <numeric>
#include <ranges>
#include <source_location>
#include <span>
#include <vector>
#include <cuda_runtime.h>

template <class T>
concept element = std::integral<T> || std::floating_point<T>;

struct launch_shape {
  unsigned blocks, threads;
};

template <element T>
__global__ void scale(T* data, int n, T factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

template <element T>
__global__ void block_sum(const T* data, T* sums) {
  __shared__ T s[128];
  s[threadIdx.x] = data[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
    if (threadIdx.x < d) s[threadIdx.x] += s[threadIdx.x + d];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = s[0];
}

int check(bool ok, std::source_location where = std::source_location::current()) {
  if (!ok) std::printf("check failed at line %u\n", static_cast<unsigned>(where.line()));
  return ok ? 0 : 1;
}

int main() {
  constexpr launch_shape shape{.blocks = 8, .threads = 128};
  const int n = static_cast<int>(shape.blocks * shape.threads);
  std::vector<int> host(n);
  std::ranges::copy(std::views::iota(0, n), host.begin());
  int *data, *sums;
  cudaMalloc(&data, n * sizeof(int));
  cudaMalloc(&sums, shape.blocks * sizeof(int));
  cudaMemcpy(data, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  scale<<<shape.blocks, shape.threads>>>(data, n, 3);
  block_sum<<<shape.blocks, shape.threads>>>(data, sums);
  std::vector<int> got(shape.blocks);
  cudaMemcpy(got.data(), sums, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  int failures = 0;
  for (unsigned b : std::views::iota(0u, shape.blocks)) {
    std::span<const int> block(host.data() + b * shape.threads, shape.threads);
    failures += check(got[b] == 3 * std::accumulate(block.begin(), block.end(), 0));
  }
  std::printf("%s\n", failures ? "FAILED" : "block sums correct");
  cudaFree(data);
  cudaFree(sums);
  return failures;
}
