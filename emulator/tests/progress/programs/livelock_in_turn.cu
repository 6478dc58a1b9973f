// Hangs on purpose (do not run on a GPU without a timeout): warps wait for a flag that nobody
// sets, in the two shapes of poll loop that CCCL's look-back scans use. `warp_vote`: every lane
// polls, and the warp votes with __any_sync each round (a warp collective completes every time,
// with the same result). `fence_and_load`: a fence and an atomic load in turn (two polls, each
// reading what it read the round before). `leader_broadcast`: lane 0 polls and broadcasts with
// __shfl_sync each round (the same result every time). A GPU spins forever in all three. Which
// kernel: the first argument (vote, fence or broadcast).
#include <cstdio>
#include <cstring>

__global__ void warp_vote(int* flag) {
  int v;
  do {
    v = atomicAdd(flag, 0);
  } while (__any_sync(0xffffffffu, v == 0));
}

__global__ void fence_and_load(int* flag) {
  int v;
  do {
    __threadfence();
    v = atomicAdd(flag, 0);
  } while (v == 0);
}

__global__ void leader_broadcast(int* flag) {
  int v = 0;
  do {
    if ((threadIdx.x & 31) == 0) v = atomicAdd(flag, 0);
    v = __shfl_sync(0xffffffffu, v, 0);
  } while (v == 0);
}

int main(int argc, char** argv) {
  int* flag;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  if (argc > 1 && std::strcmp(argv[1], "fence") == 0) fence_and_load<<<2, 64>>>(flag);
  else if (argc > 1 && std::strcmp(argv[1], "broadcast") == 0) leader_broadcast<<<2, 64>>>(flag);
  else warp_vote<<<2, 64>>>(flag);
  std::printf("after launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
