// A fault in a thread of a kernel that does not synchronise, far from its block's first thread:
// the report names that thread. argv[1]: "1d" (blocks of 256, thread 200 of block 3) or "2d"
// (blocks of 8x6, thread (5,4) of block 1).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void touch1d(int* p, long long far) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = static_cast<int>(i);
  if (blockIdx.x == 3 && threadIdx.x == 200) p[far] = 1;
}

__global__ void touch2d(int* p, long long far) {
  const unsigned i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  p[i] = static_cast<int>(i);
  if (blockIdx.x == 1 && threadIdx.x == 5 && threadIdx.y == 4) p[far] = 1;
}

int main(int argc, char** argv) {
  int* p;
  cudaMalloc(&p, 4096 * sizeof(int));
  if (argc > 1 && std::strcmp(argv[1], "2d") == 0) touch2d<<<4, dim3(8, 6)>>>(p, 1ll << 40);
  else touch1d<<<8, 256>>>(p, 1ll << 40);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
