#include <cuda_runtime.h>

__global__ void k(int* p) {
  p[threadIdx.x] = undeclared_name;
}

int main() { k<<<1, 1>>>(nullptr); }
