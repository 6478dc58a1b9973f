// Single-pass inclusive prefix sum with decoupled look-back over 1<<20 ints: 1024 tiles of 256
// threads x 4 items. A block takes its tile id from an atomic counter (so every predecessor of a
// tile has started), scans its tile, publishes its aggregate (status 1) -- or, for tile 0, its
// inclusive prefix (status 2) -- as one 64-bit word {status, value} through cuda::atomic_ref, then
// walks back over its predecessors, polling each with __nanosleep backoff until it has a status,
// adding aggregates until it meets an inclusive prefix. A tile only finishes if the tiles it waits
// for make progress while it spins.
#include <cstdio>
#include <cuda/atomic>
#include <vector>

constexpr int kThreads = 256;
constexpr int kItemsPerThread = 4;
constexpr int kTile = kThreads * kItemsPerThread;
constexpr int kTiles = 1024;
constexpr int kN = kTile * kTiles;  // 1 << 20

constexpr unsigned long long kAggregate = 1ull << 32;
constexpr unsigned long long kPrefix = 2ull << 32;

using status_ref = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

__device__ int block_exclusive_scan(int x, int* total) {
  __shared__ int warp_sums[kThreads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int v = x;
  for (int d = 1; d < 32; d *= 2) {
    const int y = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += y;
  }
  if (lane == 31) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int w = lane < kThreads / 32 ? warp_sums[lane] : 0;
    for (int d = 1; d < 32; d *= 2) {
      const int y = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += y;
    }
    if (lane < kThreads / 32) warp_sums[lane] = w;  // inclusive over warps
  }
  __syncthreads();
  *total = warp_sums[kThreads / 32 - 1];
  const int before = warp > 0 ? warp_sums[warp - 1] : 0;
  return before + v - x;
}

__global__ void scan(const int* in, int* out, unsigned long long* status, unsigned* tile_counter) {
  __shared__ int s_tile, s_exclusive;
  if (threadIdx.x == 0) s_tile = static_cast<int>(atomicAdd(tile_counter, 1u));
  __syncthreads();
  const int tile = s_tile;
  const int base = tile * kTile + threadIdx.x * kItemsPerThread;
  int items[kItemsPerThread];
  int sum = 0;
  for (int k = 0; k < kItemsPerThread; ++k) {
    items[k] = in[base + k];
    sum += items[k];
  }
  int aggregate;
  const int thread_prefix = block_exclusive_scan(sum, &aggregate);

  if (threadIdx.x == 0) {
    int exclusive = 0;
    if (tile == 0) {
      status_ref(status[0]).store(kPrefix | static_cast<unsigned>(aggregate), cuda::std::memory_order_release);
    } else {
      status_ref(status[tile]).store(kAggregate | static_cast<unsigned>(aggregate), cuda::std::memory_order_release);
      int j = tile - 1;
      for (;;) {
        unsigned long long s;
        unsigned backoff = 32;
        while (((s = status_ref(status[j]).load(cuda::std::memory_order_acquire)) >> 32) == 0) {
          __nanosleep(backoff);
          if (backoff < 1024) backoff *= 2;
        }
        exclusive += static_cast<int>(static_cast<unsigned>(s));
        if ((s & ~0xffffffffull) == kPrefix) break;
        --j;
      }
      status_ref(status[tile]).store(kPrefix | static_cast<unsigned>(exclusive + aggregate),
                                     cuda::std::memory_order_release);
    }
    s_exclusive = exclusive;
  }
  __syncthreads();
  int run = s_exclusive + thread_prefix;
  for (int k = 0; k < kItemsPerThread; ++k) {
    run += items[k];
    out[base + k] = run;
  }
}

int main() {
  std::vector<int> in(kN), out(kN), want(kN);
  for (int i = 0; i < kN; ++i) in[i] = static_cast<int>((i * 2654435761u) >> 28);  // 0..15
  long long acc = 0;
  for (int i = 0; i < kN; ++i) {
    acc += in[i];
    want[i] = static_cast<int>(acc);
  }
  int *d_in, *d_out;
  unsigned long long* d_status;
  unsigned* d_counter;
  cudaMalloc(&d_in, kN * sizeof(int));
  cudaMalloc(&d_out, kN * sizeof(int));
  cudaMalloc(&d_status, kTiles * sizeof(unsigned long long));
  cudaMalloc(&d_counter, sizeof(unsigned));
  cudaMemcpy(d_in, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice);
  bool all_ok = true;
  for (int rep = 0; rep < 3; ++rep) {
    cudaMemset(d_out, 0, kN * sizeof(int));
    cudaMemset(d_status, 0, kTiles * sizeof(unsigned long long));
    cudaMemset(d_counter, 0, sizeof(unsigned));
    scan<<<kTiles, kThreads>>>(d_in, d_out, d_status, d_counter);
    const cudaError_t err = cudaDeviceSynchronize();
    cudaMemcpy(out.data(), d_out, kN * sizeof(int), cudaMemcpyDeviceToHost);
    std::vector<unsigned long long> status(kTiles);
    cudaMemcpy(status.data(), d_status, kTiles * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < kN; ++i) bad += out[i] != want[i];
    int not_prefix = 0;
    for (int t = 0; t < kTiles; ++t)
      not_prefix += status[t] != (kPrefix | static_cast<unsigned>(want[(t + 1) * kTile - 1]));
    const bool ok = err == cudaSuccess && bad == 0 && not_prefix == 0;
    all_ok &= ok;
    std::printf("run %d: %s", rep, cudaGetErrorName(err));
    for (int i : {0, 1, 2, 1023, 1024, kN / 2, kN - 2}) std::printf(" out[%d]=%d (cpu %d)", i, out[i], want[i]);
    std::printf(" total %d (cpu %d) wrong %d tiles without inclusive prefix %d %s\n", out[kN - 1], want[kN - 1],
                bad, not_prefix, ok ? "ok" : "MISMATCH");
  }
  std::printf("%s\n", all_ok ? "all ok" : "MISMATCH");
  return 0;
}
