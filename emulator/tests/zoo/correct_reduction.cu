// A correct program using what the checkers watch: static and dynamic shared memory, barriers,
// warp shuffles and votes, atomics across blocks. Under every --check mode: no report.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reduce(const float* in, float* total, int n) {
  __shared__ float partial[8];
  extern __shared__ float stage[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage[threadIdx.x] = i < n ? in[i] : 0.f;
  __syncthreads();
  float v = stage[(threadIdx.x + 1) % blockDim.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    float w = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.f;
    const unsigned any = __ballot_sync(0xffffffffu, w != 0.f);
    for (int o = 16; o > 0; o >>= 1) w += __shfl_xor_sync(0xffffffffu, w, o);
    if (threadIdx.x == 0 && any) atomicAdd(total, w);
  }
}

int main() {
  const int n = 4096, threads = 256;
  float* h = new float[n];
  double expect = 0;
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i % 7), expect += i % 7;
  float *in, *total;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&total, sizeof(float));
  cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(total, 0, sizeof(float));
  reduce<<<n / threads, threads, threads * sizeof(float)>>>(in, total, n);
  float got = 0;
  cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost);
  std::printf("total %.0f expected %.0f\n", got, expect);
  cudaFree(in);
  cudaFree(total);
  delete[] h;
  return got == static_cast<float>(expect) ? 0 : 1;
}
