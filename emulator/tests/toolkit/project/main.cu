// out[i] = 2 * in[i] + 7 through two libraries, checked against a loop on the host; a lambda
// kernel (--extended-lambda); the emulated device's compute capability (CMAKE_CUDA_ARCHITECTURES).
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

__device__ int twice(int x) { return 2 * x; }

void scale(const int* in, int* out, int n);
void offset(int* data, int n, int by);

template <class F>
__global__ void apply(int* data, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = f(data[i]);
}

int main() {
  const int n = 1000;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = i * 3 - 500;
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  scale(d_in, d_out, n);
  offset(d_out, n, 4);
  apply<<<4, 256>>>(d_out, n, [] __device__(int v) { return v + 3; });
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  const cudaError_t err = cudaDeviceSynchronize();
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += out[i] != 2 * in[i] + 7;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("compute capability %d.%d\n", prop.major, prop.minor);
  std::printf("%s: %d of %d wrong (%s)\n", wrong == 0 && err == cudaSuccess ? "PASS" : "FAIL", wrong, n,
              cudaGetErrorString(err));
  cudaFree(d_in);
  cudaFree(d_out);
  return wrong == 0 && err == cudaSuccess ? 0 : 1;
}
