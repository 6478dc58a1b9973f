// k<<<grid>>>(...): nvcc accepts a configuration of one argument; the blocks have one thread.
#include <cstdio>

__global__ void shape(unsigned* out) {
  atomicAdd(&out[0], 1u);
  out[1] = blockDim.x;
  out[2] = blockDim.y;
  out[3] = blockDim.z;
  out[4] = gridDim.x;
}

int main() {
  unsigned* d;
  cudaMallocManaged(&d, 5 * sizeof(unsigned));
  for (int i = 0; i < 5; ++i) d[i] = 0;
  shape<<<3>>>(d);
  cudaDeviceSynchronize();
  std::printf("blockDim %u %u %u, gridDim %u, threads %u\n", d[1], d[2], d[3], d[4], d[0]);
  return 0;
}
