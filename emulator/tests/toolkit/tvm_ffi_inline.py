"""TVM-FFI's build helper (tvm_ffi.cpp.load_inline) with CUDA_HOME set to the emulator's toolkit:
it finds nvcc there, compiles the CUDA source with it, links against CUDA_HOME/lib64's cudart,
loads the module and calls the function, which launches a kernel.
    python tvm_ffi_inline.py BUILD_DIR"""
import sys

import tvm_ffi.cpp

CUDA_SOURCE = r"""
#include <cstdint>
#include <cuda_runtime.h>

__global__ void squares(long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (long long)i * i;
}

int64_t square_sum(int64_t n) {
  long long* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(long long)) != cudaSuccess) return -1;
  squares<<<(n + 127) / 128, 128>>>(d, (int)n);
  long long* h = new long long[n];
  cudaMemcpy(h, d, n * sizeof(long long), cudaMemcpyDeviceToHost);
  long long s = 0;
  for (int64_t i = 0; i < n; ++i) s += h[i];
  delete[] h;
  cudaFree(d);
  return s;
}
"""

module = tvm_ffi.cpp.load_inline("cuemu_square_sum", cuda_sources=CUDA_SOURCE, functions=["square_sum"],
                                 build_directory=sys.argv[1])
n = 1000
got, expected = module.square_sum(n), sum(i * i for i in range(n))
print(f"square_sum({n}) = {got}, expected {expected}: {'PASS' if got == expected else 'FAIL'}")
sys.exit(0 if got == expected else 1)
