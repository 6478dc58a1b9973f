// Cooperative launch and grid-wide barriers: a kernel whose phases are separated by
// cg::this_grid().sync(), launched with cudaLaunchCooperativeKernel and with cudaLaunchKernelEx
// (cudaLaunchAttributeCooperative); the occupancy the runtime reports for it; and the error for a
// cooperative grid one block larger than can be co-resident.
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kThreads = 128;
constexpr int kCap = 64;

__device__ long long block_sum(long long v) {
  __shared__ long long partial[kThreads / 32];
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  long long s = 0;
  for (int w = 0; w < kThreads / 32; ++w) s += partial[w];
  __syncthreads();
  return s;
}

// vals: one per thread; a, b: one per block; neighbour: one per thread; result[0]: the final sum,
// result[1]: number of grid.sync() calls block 0 made.
__global__ void phases(int* vals, long long* a, long long* b, int* neighbour, long long* result) {
  cg::grid_group grid = cg::this_grid();
  const int nblocks = gridDim.x;
  const int blk = blockIdx.x;
  const int gid = static_cast<int>(grid.thread_rank());
  const int nthreads = static_cast<int>(grid.size());
  int syncs = 0;

  // phase 1: every thread writes a value, every block writes its sum
  const int v = (gid * 37 + 11) % 1000;
  vals[gid] = v;
  const long long s = block_sum(v);
  if (threadIdx.x == 0) a[blk] = s;
  grid.sync();
  ++syncs;

  // phase 2: read the neighbouring blocks' sums and another block's thread values
  if (threadIdx.x == 0) b[blk] = a[(blk + nblocks - 1) % nblocks] + 2 * a[(blk + 1) % nblocks];
  neighbour[gid] = vals[(gid + kThreads) % nthreads];
  grid.sync();
  ++syncs;

  // phase 3: tree reduction of b over the blocks, one grid.sync() per level
  for (int stride = 1; stride < nblocks; stride *= 2) {
    if (threadIdx.x == 0 && blk % (2 * stride) == 0 && blk + stride < nblocks) b[blk] += b[blk + stride];
    grid.sync();
    ++syncs;
  }
  if (gid == 0) {
    result[0] = b[0];
    result[1] = syncs;
  }
}

struct buffers {
  int* vals;
  long long* a;
  long long* b;
  int* neighbour;
  long long* result;
};

static bool check(const char* how, cudaError_t launch, int nblocks, const buffers& d) {
  const cudaError_t err = cudaDeviceSynchronize();
  const int n = nblocks * kThreads;
  std::vector<int> neighbour(n);
  std::vector<long long> a(nblocks);
  long long result[2];
  cudaMemcpy(neighbour.data(), d.neighbour, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(a.data(), d.a, nblocks * sizeof(long long), cudaMemcpyDeviceToHost);
  cudaMemcpy(result, d.result, sizeof result, cudaMemcpyDeviceToHost);
  // CPU
  std::vector<long long> want_a(nblocks, 0);
  for (int g = 0; g < n; ++g) want_a[g / kThreads] += (g * 37 + 11) % 1000;
  long long want_total = 0;
  for (int blk = 0; blk < nblocks; ++blk)
    want_total += want_a[(blk + nblocks - 1) % nblocks] + 2 * want_a[(blk + 1) % nblocks];
  int levels = 0;
  for (int stride = 1; stride < nblocks; stride *= 2) ++levels;
  bool ok = launch == cudaSuccess && err == cudaSuccess && result[0] == want_total && result[1] == 2 + levels;
  long long nsum = 0, want_nsum = 0;
  for (int g = 0; g < n; ++g) {
    const int w = ((g + kThreads) % n * 37 + 11) % 1000;
    ok = ok && neighbour[g] == w;
    nsum += neighbour[g];
    want_nsum += w;
  }
  for (int blk = 0; blk < nblocks; ++blk) ok = ok && a[blk] == want_a[blk];
  std::printf("%s: launch %s sync %s grid %d x %d\n", how, cudaGetErrorName(launch), cudaGetErrorName(err), nblocks,
              kThreads);
  std::printf("  block sums a[0]=%lld a[1]=%lld a[%d]=%lld (cpu %lld %lld %lld)\n", a[0], a[1], nblocks - 1,
              a[nblocks - 1], want_a[0], want_a[1], want_a[nblocks - 1]);
  std::printf("  neighbour sum %lld (cpu %lld) reduction %lld (cpu %lld) grid syncs %lld (cpu %d) %s\n", nsum,
              want_nsum, result[0], want_total, result[1], 2 + levels, ok ? "ok" : "MISMATCH");
  return ok;
}

static void clear(const buffers& d, int nblocks) {
  cudaMemset(d.vals, 0, nblocks * kThreads * sizeof(int));
  cudaMemset(d.neighbour, 0, nblocks * kThreads * sizeof(int));
  cudaMemset(d.a, 0, nblocks * sizeof(long long));
  cudaMemset(d.b, 0, nblocks * sizeof(long long));
  cudaMemset(d.result, 0, 2 * sizeof(long long));
}

int main() {
  int dev = 0, sms = 0, coop = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev);
  std::printf("multiProcessorCount %d cooperativeLaunch %d\n", sms, coop);
  for (int bs : {32, 128, 256, 512, 1024}) {
    int per_sm = -1;
    const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, bs, 0);
    std::printf("occupancy at %4d threads: %d blocks per SM (%s)\n", bs, per_sm, cudaGetErrorName(e));
  }
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, kThreads, 0);
  const int max_grid = per_sm * sms;
  const int nblocks = max_grid < kCap ? max_grid : kCap;
  std::printf("max co-resident grid at %d threads: %d blocks; using %d blocks\n", kThreads, max_grid, nblocks);

  buffers d;
  const int alloc_blocks = max_grid + 1;
  cudaMalloc(&d.vals, alloc_blocks * kThreads * sizeof(int));
  cudaMalloc(&d.neighbour, alloc_blocks * kThreads * sizeof(int));
  cudaMalloc(&d.a, alloc_blocks * sizeof(long long));
  cudaMalloc(&d.b, alloc_blocks * sizeof(long long));
  cudaMalloc(&d.result, 2 * sizeof(long long));
  void* args[] = {&d.vals, &d.a, &d.b, &d.neighbour, &d.result};
  bool ok = true;

  clear(d, nblocks);
  cudaError_t launch =
      cudaLaunchCooperativeKernel(reinterpret_cast<void*>(phases), dim3(nblocks), dim3(kThreads), args, 0, 0);
  ok &= check("cudaLaunchCooperativeKernel", launch, nblocks, d);

  clear(d, nblocks);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(nblocks);
  cfg.blockDim = dim3(kThreads);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = 0;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  launch = cudaLaunchKernelEx(&cfg, phases, d.vals, d.a, d.b, d.neighbour, d.result);
  ok &= check("cudaLaunchKernelEx cooperative", launch, nblocks, d);

  // A smaller, odd-sized grid too.
  clear(d, 5);
  launch = cudaLaunchCooperativeKernel(reinterpret_cast<void*>(phases), dim3(5), dim3(kThreads), args, 0, 0);
  ok &= check("cudaLaunchCooperativeKernel", launch, 5, d);

  // One block more than can be co-resident.
  launch = cudaLaunchCooperativeKernel(reinterpret_cast<void*>(phases), dim3(max_grid + 1), dim3(kThreads), args, 0, 0);
  std::printf("cudaLaunchCooperativeKernel with %d blocks (max + 1): %s\n", max_grid + 1, cudaGetErrorName(launch));
  std::printf("  then cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  cfg.gridDim = dim3(max_grid + 1);
  launch = cudaLaunchKernelEx(&cfg, phases, d.vals, d.a, d.b, d.neighbour, d.result);
  std::printf("cudaLaunchKernelEx cooperative with %d blocks (max + 1): %s\n", max_grid + 1, cudaGetErrorName(launch));
  std::printf("  then cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("  then cudaDeviceSynchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));

  // Still usable afterwards.
  clear(d, nblocks);
  launch = cudaLaunchCooperativeKernel(reinterpret_cast<void*>(phases), dim3(nblocks), dim3(kThreads), args, 0, 0);
  ok &= check("cudaLaunchCooperativeKernel after the error", launch, nblocks, d);
  std::printf("%s\n", ok ? "all ok" : "MISMATCH");
  return 0;
}
