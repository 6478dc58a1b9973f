// See arch_unit_a.cu.
__host__ __device__ inline int unit_arch() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__ / 100;
#else
  return -1;
#endif
}

static __device__ int counter = 200;
static __global__ void bump(int* out) { out[0] = counter-- * 1000 + unit_arch(); }

int run_b() {
  int* d = nullptr;
  cudaMalloc(&d, sizeof(int));
  int h = 0;
  bump<<<1, 1>>>(d);
  bump<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  return h;
}
