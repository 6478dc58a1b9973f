// Where a kernel's printf output appears among the host's own lines: a GPU keeps it in a buffer
// and writes it out at the next synchronisation (device, stream or event synchronize, a blocking
// cudaMemcpy), so host lines printed between a launch and that point come first.
#include <cstdio>

__global__ void hello(int k) { printf("kernel %d thread %d\n", k, threadIdx.x); }

int main() {
  hello<<<1, 2>>>(1);
  printf("host: after launch 1\n");
  cudaDeviceSynchronize();
  printf("host: after cudaDeviceSynchronize\n");

  int* d = nullptr;
  int h = 0;
  cudaMalloc(&d, sizeof(int));
  hello<<<1, 1>>>(2);
  printf("host: before a blocking cudaMemcpy\n");
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("host: after the cudaMemcpy\n");

  cudaStream_t s;
  cudaStreamCreate(&s);
  hello<<<1, 1, 0, s>>>(3);
  printf("host: before cudaStreamSynchronize\n");
  cudaStreamSynchronize(s);
  printf("host: after cudaStreamSynchronize\n");

  cudaEvent_t e;
  cudaEventCreate(&e);
  hello<<<1, 1, 0, s>>>(4);
  cudaEventRecord(e, s);
  printf("host: before cudaEventSynchronize\n");
  cudaEventSynchronize(e);
  printf("host: after cudaEventSynchronize\n");

  cudaEventDestroy(e);
  cudaStreamDestroy(s);
  cudaFree(d);
  printf("host: done\n");
  return 0;
}
