// A 1 MiB array local to each CUDA thread: more than its stack (a stack overflow on the CPU).
#include <cstdio>

__global__ void big(int* out) {
  volatile char scratch[1 << 20];
  scratch[threadIdx.x] = 1;
  out[threadIdx.x] = scratch[threadIdx.x];
}

int main() {
  int* out;
  cudaMalloc(&out, 64 * sizeof(int));
  big<<<1, 4>>>(out);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
