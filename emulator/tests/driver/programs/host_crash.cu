// A crash in host code, outside every kernel.
#include <cstdio>
#include <cstdlib>

__global__ void touch(int* p) { p[threadIdx.x] = 1; }

void write_through(int* p) { *p = 42; }

int main(int argc, char** argv) {
  int* d;
  cudaMalloc(&d, 4 * sizeof(int));
  touch<<<1, 4>>>(d);
  cudaDeviceSynchronize();
  if (argc > 1) std::abort();
  write_through(reinterpret_cast<int*>(16));
  return 0;
}
