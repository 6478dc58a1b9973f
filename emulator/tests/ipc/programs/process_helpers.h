// What the programs of this folder share: kernels that fill and add, a call's result printed by
// name, handles written as hex on a command line and read back, a count of wrong values.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

namespace {

__global__ void fill(int* p, int n, int v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

__global__ void add(int* p, int n, int v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += v;
}

void say(const char* what, cudaError_t e) { std::printf("%s: %s\n", what, cudaGetErrorName(e)); }

template <class H>
void to_hex(const H& h, char* out) {
  const auto* b = reinterpret_cast<const unsigned char*>(&h);
  for (unsigned i = 0; i < sizeof h; ++i) std::snprintf(out + 2 * i, 3, "%02x", b[i]);
}

template <class H>
H from_hex(const char* s) {
  H h;
  auto* b = reinterpret_cast<unsigned char*>(&h);
  for (unsigned i = 0; i < sizeof h; ++i) {
    unsigned v = 0;
    std::sscanf(s + 2 * i, "%2x", &v);
    b[i] = static_cast<unsigned char>(v);
  }
  return h;
}

// Counts the ints of p (device memory, n of them) that are not v + i.
int wrong(const int* p, int n, int v) {
  int* h = static_cast<int*>(std::malloc(sizeof(int) * n));
  cudaMemcpy(h, p, sizeof(int) * n, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != v + i;
  std::free(h);
  return bad;
}

}  // namespace
