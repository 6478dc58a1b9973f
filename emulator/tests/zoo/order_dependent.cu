// Bug: every thread of a warp writes its id to one location; which write lands depends on the
// order threads run in (a GPU gives an arbitrary one). --compare-schedules shows it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void last_writer(int* winner) {
  *winner = static_cast<int>(threadIdx.x);  // BUG: unordered writes to one address
}

int main() {
  int* w;
  cudaMalloc(&w, sizeof(int));
  last_writer<<<1, 32>>>(w);
  int h = -1;
  cudaMemcpy(&h, w, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("winner %d\n", h);
  return 0;
}
