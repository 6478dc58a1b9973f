// Inline PTX with a CPU meaning: grid dependency control (no-ops: launches run to completion in
// order), membar.gl (a fence) and %laneid (the linear thread index mod 32), plus a PTX fast path
// under #ifdef __CUDA_ARCH__ whose C++ fallback the emulator compiles.
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned load_nc(const unsigned* p) {
#ifdef __CUDA_ARCH__
  unsigned v;
  asm("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
#else
  return *p;
#endif
}

__global__ void lanes(unsigned* out, const unsigned* base, int* blocks) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  out[blockIdx.x * blockDim.x * blockDim.y + t] = lane + load_nc(base);
  asm volatile("membar.gl;" ::: "memory");
  if (t == 0) atomicAdd(blocks, 1);
  asm volatile("griddepcontrol.launch_dependents;");
}

int main() {
  const int threads = 8 * 6, n = 2 * threads;
  unsigned *out = nullptr, *base = nullptr;
  int* blocks = nullptr;
  cudaMallocManaged(&out, n * sizeof(unsigned));
  cudaMallocManaged(&base, sizeof(unsigned));
  cudaMallocManaged(&blocks, sizeof(int));
  *base = 1000;
  *blocks = 0;
  lanes<<<2, dim3(8, 6)>>>(out, base, blocks);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  unsigned sum = 0;
  for (int i = 0; i < n; ++i) sum += out[i] - 1000;
  // Per block: lanes 0..31 then 0..15, 496 + 120 = 616.
  std::printf("lane sum: %u\n", sum);
  std::printf("lane of thread (0,5) in block 1: %u\n", out[threads + 40] - 1000);
  std::printf("blocks: %d\n", *blocks);
  return 0;
}
