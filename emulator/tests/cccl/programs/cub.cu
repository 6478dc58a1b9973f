// CUB (CCCL): warp and block primitives in a kernel, and the device-wide algorithms (reduce,
// scan, radix sort, select). Output recorded on an H200.
#include <cub/cub.cuh>
#include <cstdio>

constexpr int kThreads = 128, kItems = 4;

__global__ void block_ops(const int* in, int* sums, int* scan, int* sorted, int* warp_scan) {
  using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>;
  using Store = cub::BlockStore<int, kThreads, kItems, cub::BLOCK_STORE_TRANSPOSE>;
  using Reduce = cub::BlockReduce<int, kThreads>;
  using Scan = cub::BlockScan<int, kThreads>;
  using Sort = cub::BlockRadixSort<int, kThreads, kItems>;
  using WarpReduce = cub::WarpReduce<int>;
  using WarpScan = cub::WarpScan<int>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
    typename Sort::TempStorage sort;
  } temp;
  __shared__ typename WarpReduce::TempStorage warp_reduce[kThreads / 32];
  __shared__ typename WarpScan::TempStorage warp_scan_temp[kThreads / 32];
  int items[kItems];
  Load(temp.load).Load(in, items);
  __syncthreads();
  const int total = Reduce(temp.reduce).Sum(items);
  if (threadIdx.x == 0) sums[0] = total;
  __syncthreads();
  const int lane_sum = WarpReduce(warp_reduce[threadIdx.x / 32]).Sum(items[0]);
  if (threadIdx.x % 32 == 0) sums[1 + threadIdx.x / 32] = lane_sum;
  int prefix = 0;
  WarpScan(warp_scan_temp[threadIdx.x / 32]).InclusiveSum(items[1], prefix);
  warp_scan[threadIdx.x] = prefix;
  int scanned[kItems];
  Scan(temp.scan).ExclusiveSum(items, scanned);
  __syncthreads();
  Store(temp.store).Store(scan, scanned);
  __syncthreads();
  Sort(temp.sort).Sort(items);
  __syncthreads();
  Store(temp.store).Store(sorted, items);
}

struct is_positive {
  __host__ __device__ bool operator()(int x) const { return x > 0; }
};

unsigned long long digest(const int* v, int n) {
  unsigned long long h = 1469598103934665603ull;
  for (int i = 0; i < n; ++i) h = (h ^ static_cast<unsigned>(v[i])) * 1099511628211ull;
  return h;
}

int main() {
  const int n = kThreads * kItems;
  int *in, *sums, *scan, *sorted, *warp_scan;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&sums, 8 * sizeof(int));
  cudaMallocManaged(&scan, n * sizeof(int));
  cudaMallocManaged(&sorted, n * sizeof(int));
  cudaMallocManaged(&warp_scan, kThreads * sizeof(int));
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101 - 50;
  block_ops<<<1, kThreads>>>(in, sums, scan, sorted, warp_scan);
  cudaDeviceSynchronize();
  std::printf("block sum %d, warp sums %d %d %d %d\n", sums[0], sums[1], sums[2], sums[3], sums[4]);
  std::printf("warp scan %d %d %d, digest %016llx\n", warp_scan[0], warp_scan[31], warp_scan[127],
              digest(warp_scan, kThreads));
  std::printf("block scan %d %d %d, digest %016llx\n", scan[1], scan[n / 2], scan[n - 1], digest(scan, n));
  std::printf("block sort %d %d %d %d, digest %016llx\n", sorted[0], sorted[1], sorted[n / 2], sorted[n - 1],
              digest(sorted, n));

  // Device-wide algorithms on 100000 items.
  const int m = 100000;
  int *keys, *out, *count;
  cudaMallocManaged(&keys, m * sizeof(int));
  cudaMallocManaged(&out, m * sizeof(int));
  cudaMallocManaged(&count, sizeof(int));
  for (int i = 0; i < m; ++i) keys[i] = static_cast<int>((i * 2654435761u) % 200001u) - 100000;
  void* temp = nullptr;
  size_t bytes = 0, need = 0;
  auto ensure = [&](size_t b) {
    if (b > bytes) {
      cudaFree(temp);
      cudaMalloc(&temp, b);
      bytes = b;
    }
  };
  cub::DeviceReduce::Sum(nullptr, need, keys, count, m);
  ensure(need);
  cub::DeviceReduce::Sum(temp, need, keys, count, m);
  cudaDeviceSynchronize();
  std::printf("DeviceReduce::Sum %d\n", *count);
  cub::DeviceScan::InclusiveSum(nullptr, need, keys, out, m);
  ensure(need);
  cub::DeviceScan::InclusiveSum(temp, need, keys, out, m);
  cudaDeviceSynchronize();
  std::printf("DeviceScan::InclusiveSum %d %d, digest %016llx\n", out[1], out[m - 1], digest(out, m));
  cub::DeviceSelect::If(nullptr, need, keys, out, count, m, is_positive());
  ensure(need);
  cub::DeviceSelect::If(temp, need, keys, out, count, m, is_positive());
  cudaDeviceSynchronize();
  std::printf("DeviceSelect::If %d selected, first %d, digest %016llx\n", *count, out[0], digest(out, *count));
  cub::DeviceRadixSort::SortKeys(nullptr, need, keys, out, m);
  ensure(need);
  cub::DeviceRadixSort::SortKeys(temp, need, keys, out, m);
  cudaDeviceSynchronize();
  std::printf("DeviceRadixSort::SortKeys %d %d %d, digest %016llx\n", out[0], out[m / 2], out[m - 1], digest(out, m));
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
