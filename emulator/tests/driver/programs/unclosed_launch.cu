#include <cuda_runtime.h>

__global__ void k(int* p) { p[0] = 1; }

int main() {
  int* p = nullptr;
  k<<<1, 1(p);
  return 0;
}
