// Bug: a stencil reads one element before the start of its input.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void diff(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] - in[i - 1];  // BUG: i == 0 reads in[-1]
}

int main() {
  const int n = 64;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  diff<<<2, 32>>>(in, out, n);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
