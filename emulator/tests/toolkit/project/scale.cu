// A kernel in a static library with relocatable device code: scale() calls a __device__
// function defined in main.cu (separable compilation).
#include <cuda_runtime.h>

extern __device__ int twice(int x);

__global__ void scale_kernel(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef BUG
  if (i <= n) out[i] = twice(in[i]);  // one past the end
#else
  if (i < n) out[i] = twice(in[i]);
#endif
}

void scale(const int* in, int* out, int n) { scale_kernel<<<(n + 127) / 128, 128>>>(in, out, n); }
