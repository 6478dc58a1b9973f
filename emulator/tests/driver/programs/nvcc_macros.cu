// The macros nvcc defines, seen by a .cu: code guarded by the CUDA version takes nvcc's branch.
#include <cstdio>

int main() {
#if defined(__NVCC__) && __CUDACC_VER_MAJOR__ >= 12
  std::printf("nvcc %d.%d.%d, runtime %d, api %d.%d\n", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__,
              __CUDACC_VER_BUILD__, CUDART_VERSION, __CUDA_API_VER_MAJOR__, __CUDA_API_VER_MINOR__);
#else
  std::printf("not nvcc 12+\n");
#endif
#ifdef __USE_FAST_MATH__
  std::printf("fast math\n");
#endif
  return 0;
}
