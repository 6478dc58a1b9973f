// Relocatable device code in a static library: a linear congruential sequence per element.
#include "common.h"

__global__ void fill_kernel(unsigned* data, int n, unsigned seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = (1664525u * (seed + i) + 1013904223u) >> 8;
}

void fill(unsigned* data, int n, unsigned seed) { fill_kernel<<<(n + 255) / 256, 256>>>(data, n, seed); }
