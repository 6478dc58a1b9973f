// __trap() in a kernel: the kernel ends with cudaErrorLaunchFailure; the program decides.
#include <cstdio>

__global__ void guard(const int* v) {
  if (v[blockIdx.x * blockDim.x + threadIdx.x] < 0)
    __trap();
}

int main() {
  int h[8] = {1, 2, 3, 4, 5, 6, -7, 8};
  int* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  guard<<<2, 4>>>(d);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("launch: %s %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  return e == cudaErrorLaunchFailure ? 3 : 0;
}
