// Bug: a shared-memory tree reduction with the __syncthreads() after the loads but none inside
// the halving loop, so a thread reads a partial sum its neighbour has not written yet (on a GPU
// the sum comes out wrong). THREADS per block: 256 by default; -DTHREADS=512 or 1024 too.
#include <cstdio>
#include <cuda_runtime.h>

#ifndef THREADS
#define THREADS 256
#endif

__global__ void tree_sum(const float* in, float* out) {
  __shared__ float s[THREADS];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * THREADS + t];
  __syncthreads();
  for (unsigned d = THREADS / 2; d > 0; d >>= 1) {
    if (t < d) s[t] += s[t + d];  // BUG: a __syncthreads() belongs after this line
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
  const int blocks = 4;
  float *in, *out;
  cudaMallocManaged(&in, blocks * THREADS * sizeof(float));
  cudaMallocManaged(&out, blocks * sizeof(float));
  for (int i = 0; i < blocks * THREADS; ++i) in[i] = 1.0f;
  tree_sum<<<blocks, THREADS>>>(in, out);
  cudaDeviceSynchronize();
  std::printf("block sums %g %g %g %g (expected %d each)\n", out[0], out[1], out[2], out[3], THREADS);
  return 0;
}
