// __CUDA_ARCH__ as nvcc gives it: the -arch value x 10 in device code, undefined in host code,
// for the same __host__ __device__ function; device variables of every kind shared between the
// two passes (nvcc compiles a .cu twice, and so does cuemu when the passes differ).
#include <cstdio>

__host__ __device__ int arch() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return 0;
#endif
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define PATH "device, sm_90 or later"
#elif defined(__CUDA_ARCH__)
#define PATH "device, before sm_90"
#else
#define PATH "host"
#endif

struct Tag {
  __host__ __device__ const char* where() const {
#ifdef __CUDA_ARCH__
    return "device";
#else
    return "host";
#endif
  }
  __device__ int scaled(int x) const;
};
__device__ int Tag::scaled(int x) const { return x * 10 + arch() / 100; }

template <int N>
__host__ __device__ int times() { return N * arch(); }

__device__ int dev_value = 7;
static __device__ int static_value = 3;
__constant__ int coeff[4] = {1, 2, 3, 4};
__managed__ int managed_count = 0;
namespace lib {
__device__ int ns_value = 11;
}

__device__ __noinline__ int only_device(int x) {
#if __CUDA_ARCH__ >= 900
  return x + 1;
#else
  return x - 1;
#endif
}

template <class T>
__global__ void generic(T* out) { out[threadIdx.x] = T(arch()) + T(coeff[threadIdx.x % 4]); }
template __global__ void generic<float>(float*);

static __global__ void report(int* out) {
  out[0] = arch();
  out[1] = times<2>();
  out[2] = dev_value;
  out[3] = static_value;
  out[4] = lib::ns_value;
  out[5] = only_device(1);
  out[6] = Tag().scaled(2);
  printf("device: %s, %s, arch %d\n", PATH, Tag().where(), arch());
  atomicAdd(&managed_count, 1);
}

int main() {
  std::printf("host: %s, %s, arch %d, times<2> %d\n", PATH, Tag().where(), arch(), times<2>());
#ifdef __CUDA_ARCH_LIST__
  std::printf("__CUDA_ARCH_LIST__ defined in host code\n");
#endif
  int* d = nullptr;
  cudaMalloc(&d, 8 * sizeof(int));
  const int v = 20, s = 30;
  cudaMemcpyToSymbol(dev_value, &v, sizeof v);
  cudaMemcpyToSymbol(static_value, &s, sizeof s);
  report<<<1, 1>>>(d);
  int h[7];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("arch %d, times<2> %d, dev_value %d, static_value %d, ns_value %d, only_device %d, scaled %d\n",
              h[0], h[1], h[2], h[3], h[4], h[5], h[6]);

  float* f = nullptr;
  cudaMalloc(&f, 4 * sizeof(float));
  void* args[] = {&f};
  cudaLaunchKernel(reinterpret_cast<const void*>(&generic<float>), dim3(1), dim3(4), args, 0, 0);
  float hf[4];
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  std::printf("generic<float>: %g %g %g %g\n", hf[0], hf[1], hf[2], hf[3]);

  int c[4];
  cudaMemcpyFromSymbol(c, coeff, sizeof c);
  cudaDeviceSynchronize();
  std::printf("coeff %d %d %d %d, managed_count %d\n", c[0], c[1], c[2], c[3], managed_count);
  const cudaError_t e = cudaGetLastError();
  std::printf("%s\n", cudaGetErrorString(e));
  return 0;
}
