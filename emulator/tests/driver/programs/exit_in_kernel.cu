// exit() in a kernel: nvcc refuses to call a host function from device code.
#include <cstdlib>

__global__ void bail(const int* v) {
  if (v[threadIdx.x] < 0) exit(3);
}

int main() {
  int* v;
  cudaMalloc(&v, 4 * sizeof(int));
  bail<<<1, 4>>>(v);
  return 0;
}
