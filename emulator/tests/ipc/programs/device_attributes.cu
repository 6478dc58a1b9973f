// The device attributes that CUDA's runtime header calls reserved but the driver API names (the
// stream memory operations, virtual memory management, shareable handle types, tensor maps,
// multicast, ...), and the values past the last attribute: what cudaDeviceGetAttribute answers
// for each (a value, or the error's name). None depends on the GPU's size or clocks, so an H100
// and an H200 print the same.
#include <cstdio>

#include <cuda_runtime.h>

int main() {
  const int attributes[] = {44,  92,  93,  94,  96,  102, 103, 104, 105, 107, 110, 122,
                            123, 124, 127, 128, 129, 132, 136, 137, 141, 145, 146, 147,
                            148, 149, 150, 160, 1000};
  for (int a : attributes) {
    int v = 0;
    const cudaError_t e = cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(a), 0);
    const cudaError_t last = cudaGetLastError();
    if (e == cudaSuccess)
      std::printf("%d: %d\n", a, v);
    else
      std::printf("%d: %s (last error %s)\n", a, cudaGetErrorName(e), cudaGetErrorName(last));
  }
  return 0;
}
