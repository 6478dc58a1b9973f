// A shared-memory histogram with atomics, checked against a count on the host.
#include <cstdio>
#include <vector>

#include "common.h"

__global__ void histogram(const unsigned* data, int n, unsigned* bins) {
  __shared__ unsigned local[kBins];
  if (threadIdx.x < kBins) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % kBins], 1u);
  __syncthreads();
  if (threadIdx.x < kBins) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main() {
  const int n = 100000;
  unsigned *d_data, *d_bins;
  cudaMalloc(&d_data, n * sizeof(unsigned));
  cudaMalloc(&d_bins, kBins * sizeof(unsigned));
  cudaMemset(d_bins, 0, kBins * sizeof(unsigned));
  fill(d_data, n, 12345u);
  histogram<<<8, 128>>>(d_data, n, d_bins);
  unsigned bins[kBins], expected[kBins] = {};
  cudaMemcpy(bins, d_bins, sizeof bins, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) ++expected[((1664525u * (12345u + i) + 1013904223u) >> 8) % kBins];
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("compute capability %d.%d\n", prop.major, prop.minor);
  report(bins, expected);
  cudaFree(d_data);
  cudaFree(d_bins);
  return 0;
}
