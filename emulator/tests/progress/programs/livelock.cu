// Hangs on purpose (do not run on a GPU without a timeout): thread 0 spins forever on a flag that
// nobody sets while the other threads of its block exit. An emulator must not hang silently: with
// --timeout it should report the kernel as still running, naming thread 0 and the spinning line.
#include <cstdio>

__global__ void spin_forever(int* flag, int* out) {
  if (threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[0] = 1;
  } else {
    out[threadIdx.x] = static_cast<int>(threadIdx.x);
  }
}

int main() {
  int *flag, *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  spin_forever<<<1, 64>>>(flag, out);
  std::printf("after launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
