// Correct: the last-block reduction of threadFenceReduction (write a partial, __threadfence(),
// take a ticket with atomicInc; the block with the last ticket sums the partials), launched
// many times over blocks running on several workers at once. atomicInc is a compare-and-swap
// loop on a CPU; a block whose first attempt fails still releases and acquires when it
// succeeds, so the last block's reads are never a race.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ unsigned tickets = 0;

__global__ void sum_partials(int* partial, int* total) {
  partial[blockIdx.x] = static_cast<int>(blockIdx.x) + 1;
  __threadfence();
  const unsigned ticket = atomicInc(&tickets, gridDim.x);
  if (ticket == gridDim.x - 1) {
    int s = 0;
    for (unsigned i = 0; i < gridDim.x; ++i) s += partial[i];
    *total = s;
    tickets = 0;
  }
}

int main(int argc, char** argv) {
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 64;
  const int launches = argc > 2 ? std::atoi(argv[2]) : 2000;
  int *partial, *total;
  cudaMalloc(&partial, blocks * sizeof(int));
  cudaMalloc(&total, sizeof(int));
  int wrong = 0;
  for (int l = 0; l < launches; ++l) {
    cudaMemset(total, 0, sizeof(int));
    sum_partials<<<blocks, 1>>>(partial, total);
    int h = 0;
    cudaMemcpy(&h, total, sizeof h, cudaMemcpyDeviceToHost);
    if (h != blocks * (blocks + 1) / 2) ++wrong;
  }
  std::printf("%d launches of %d blocks, %d wrong totals\n", launches, blocks, wrong);
  return wrong == 0 ? 0 : 1;
}
