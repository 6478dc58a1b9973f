// Bug: every thread adds to a shared counter with atomicAdd, then reads it without waiting for
// the others (the __syncthreads() between the two is missing): the value read depends on the
// order of the threads. A plain read racing with atomics, whose value the thread uses as it is
// (no atomic of its own on the word follows, unlike the compare-and-swap idiom).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void count_then_read(int* out) {
  __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  atomicAdd(&counter, 1);
  out[threadIdx.x] = counter;  // BUG: a __syncthreads() belongs before this read
}

int main() {
  int* out;
  cudaMallocManaged(&out, 96 * sizeof(int));
  count_then_read<<<1, 96>>>(out);
  cudaDeviceSynchronize();
  std::printf("thread 0 read %d, thread 95 read %d (expected 96 both)\n", out[0], out[95]);
  return 0;
}
