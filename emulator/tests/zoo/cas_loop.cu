// Correct: the compare-and-swap loop of the CUDA Programming Guide (an atomic maximum of
// floats built on atomicCAS). The first read of the word is a plain load racing only with the
// other threads' atomics, which is how CUDA code is written everywhere: not a report.
#include <cstdio>
#include <cuda_runtime.h>

__device__ float atomic_max_float(float* addr, float value) {
  int* word = reinterpret_cast<int*>(addr);
  int old = *word, assumed;
  do {
    assumed = old;
    old = atomicCAS(word, assumed, __float_as_int(fmaxf(value, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void max_of(const float* in, int n, float* result) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomic_max_float(result, in[i]);
}

int main() {
  const int n = 2048;
  float *in, *result;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&result, sizeof(float));
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>((i * 37) % 1999);
  *result = -1.0f;
  max_of<<<n / 256, 256>>>(in, n, result);
  cudaDeviceSynchronize();
  std::printf("max %g (expected 1998)\n", *result);
  return *result == 1998.0f ? 0 : 1;
}
