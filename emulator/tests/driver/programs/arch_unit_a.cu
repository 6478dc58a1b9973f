// Two translation units whose passes differ, each with an internal-linkage kernel and device
// variable of the same names: they stay apart, as with nvcc (see arch_unit_b.cu).
#include <cstdio>

int run_b();

__host__ __device__ inline int unit_arch() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__ / 100;
#else
  return -1;
#endif
}

static __device__ int counter = 100;
static __global__ void bump(int* out) { out[0] = ++counter + unit_arch(); }

int main() {
  int* d = nullptr;
  cudaMalloc(&d, sizeof(int));
  int h = 0;
  for (int i = 0; i < 2; ++i) {
    bump<<<1, 1>>>(d);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("a: %d\n", h);
  }
  std::printf("b: %d\n", run_b());
  std::printf("host: %d\n", unit_arch());
  return 0;
}
