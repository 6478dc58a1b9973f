// Bug: a full-warp mask is used in a branch that only half of the warp takes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void half_sum(const int* in, int* out) {
  int v = in[threadIdx.x];
  if (threadIdx.x < 16) {
    v += __shfl_down_sync(0xffffffffu, v, 8);  // BUG: lanes 16..31 never arrive
  }
  out[threadIdx.x] = v;
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(in, 0, 32 * sizeof(int));
  half_sum<<<1, 32>>>(in, out);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
