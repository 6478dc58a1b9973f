// Mipmapped arrays are not emulated: each call answers cudaErrorNotSupported (and cuemu says so on
// stderr), and the program goes on.
#include <cstdio>
int main() {
  cudaMipmappedArray_t m = nullptr;
  cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
  const cudaError_t e = cudaMallocMipmappedArray(&m, &d, make_cudaExtent(16, 16, 0), 4);
  std::printf("cudaMallocMipmappedArray: %s, null %d\n", cudaGetErrorName(e), m == nullptr);
  cudaArray_t level = nullptr;
  std::printf("cudaGetMipmappedArrayLevel: %s\n",
              cudaGetErrorName(cudaGetMipmappedArrayLevel(&level, m, 0)));
  std::printf("cudaFreeMipmappedArray(null): %s\n", cudaGetErrorName(cudaFreeMipmappedArray(m)));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
