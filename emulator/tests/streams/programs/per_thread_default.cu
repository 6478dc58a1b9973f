// nvcc --default-stream per-thread: stream 0 is each host thread's own default stream, so two
// host threads' kernels on stream 0 run at once (each waits for the other's flag). With the
// legacy default stream they would run one after the other and never finish.
#include <cuda.h>

#include <cstdio>
#include <thread>

__global__ void handshake(volatile int* mine, volatile int* theirs, int* out, int value) {
  *mine = 1;
  while (*theirs == 0) {
  }
  *out = value;
}

int main() {
  int* d;
  cudaMalloc(&d, 4 * sizeof(int));
  cudaMemset(d, 0, 4 * sizeof(int));
  cudaDeviceSynchronize();
  // Load the kernel before two launches race for it (CUDA's lazy module loading).
  handshake<<<1, 1>>>(d + 3, d + 3, d + 2, 0);
  cudaDeviceSynchronize();
  std::thread a([d] {
    handshake<<<1, 1>>>(d + 0, d + 1, d + 2, 7);
    cudaStreamSynchronize(0);
  });
  std::thread b([d] {
    handshake<<<1, 1>>>(d + 1, d + 0, d + 3, 9);
    cudaStreamSynchronize(0);
  });
  a.join();
  b.join();
  int h[4];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("CUDA_VERSION >= 12000: %s\n", CUDA_VERSION >= 12000 ? "yes" : "no");
  printf("both kernels finished: %d %d\n", h[2], h[3]);
  cudaFree(d);
  return 0;
}
