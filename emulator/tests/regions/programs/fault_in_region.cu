// One thread (77 of block 1) writes through a wild pointer in a region after a barrier that
// reads no threadIdx: the report must name that thread on both paths and every schedule.
#include <cstdio>

__global__ void wild_store(int* p) {
  __shared__ int s[128];
  const unsigned t = threadIdx.x;
  s[t] = static_cast<int>(t);
  __syncthreads();
  int* q = s[t] == 77 && blockIdx.x == 1 ? reinterpret_cast<int*>(16) : p + t;
  *q = s[(t + 1) % 128];  // line 11
}

int main() {
  int* p;
  cudaMalloc(&p, 128 * sizeof(int));
  wild_store<<<2, 128>>>(p);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
