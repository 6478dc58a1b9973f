// Every block's thread 0 waits for a flag that only the grid's last block sets. With more blocks
// than an H200 keeps resident (1024 threads per block: 2 per multiprocessor, 132 of them), the
// last block never starts while the first ones spin: a GPU hangs here.
#include <cstdio>

__global__ void wait_for_last(int* flag) {
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) atomicExch(flag, 1);
  if (threadIdx.x == 0)
    while (atomicAdd(flag, 0) == 0) {
    }
}

int main() {
  int* flag;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  int per_sm = 0, sms = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, wait_for_last, 1024, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  std::printf("resident: %d x %d\n", sms, per_sm);
  wait_for_last<<<sms * per_sm + 1, 1024>>>(flag);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
