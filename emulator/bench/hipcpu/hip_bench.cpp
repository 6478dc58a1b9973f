// The emulator bench's workloads in HIP form, for ROCm's HIP-CPU (header-only, fibers, TBB):
// same kernels (hipLaunchKernelGGL instead of <<<>>>), same serial baselines, same table.
// Built by emulator/bench/run_hipcpu.sh against a HIP-CPU checkout given as argument.
//
// HIP has no masks: __shfl_down_sync(mask, v, d) is __shfl_down(v, d, width) (hipify drops the
// mask); HIP-CPU has no __syncwarp, so the __syncwarp kernel uses __syncthreads (a stronger
// barrier: same results).
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../bench_common.h"
#include "../switch_floor.h"

#define CK(x)                                                                            \
  do {                                                                                   \
    hipError_t e_ = (x);                                                                 \
    if (e_ != hipSuccess) {                                                              \
      std::printf("HIP error %s at %s:%d\n", hipGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

__global__ void row_copy(const uint4* src, uint4* dst, const int* idx, int rows) {
  const int row = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32);
  const int lane = static_cast<int>(threadIdx.x & 31);
  if (row >= rows) return;
  const uint4* s = src + static_cast<size_t>(row) * bench::kVecsPerRow;
  uint4* d = dst + static_cast<size_t>(idx[row]) * bench::kVecsPerRow;
  for (int j = lane; j < bench::kVecsPerRow; j += 32) d[j] = s[j];
}

__global__ void tree_reduce(const float* in, float* out) {
  __shared__ float s[bench::kReduceBlock];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * bench::kReduceBlock + t];
  __syncthreads();
  for (unsigned stride = bench::kReduceBlock / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// The 32-lane warp reduction as ported CUDA code reads: width 32.
__global__ void warp_sum_w32(const unsigned* in, unsigned* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down(v, off, 32);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

// The same with HIP's default width (warpSize, 64 in HIP-CPU), as hipify leaves it.
__global__ void warp_sum_wdefault(const unsigned* in, unsigned* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down(v, off);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

__global__ void syncwarp_heavy(const unsigned* in, unsigned* out, int iters) {
  __shared__ unsigned buf[bench::kSyncwarpBlock];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31, base = threadIdx.x & ~31u;
  unsigned acc = in[i];
  for (int k = 0; k < iters; ++k) {
    buf[threadIdx.x] = acc;
    __syncthreads();  // __syncwarp() in the CUDA version
    acc = acc * 3u + buf[base + ((lane + 1) & 31)];
    __syncthreads();
  }
  out[i] = acc;
}

__global__ void tiny(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x) * 2 + 1; }

namespace {

using bench::result;

template <class T>
T* dev_alloc(size_t n) {
  void* p = nullptr;
  CK(hipMalloc(&p, n * sizeof(T)));
  return static_cast<T*>(p);
}
template <class T>
void to_dev(T* d, const std::vector<T>& h) {
  CK(hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice));
}
template <class T>
std::vector<T> from_dev(const T* d, size_t n) {
  std::vector<T> h(n);
  CK(hipMemcpy(h.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
  return h;
}

result bench_row_copy() {
  using namespace bench;
  result r{"row_copy 16Kx2KiB"};
  const size_t nvec = static_cast<size_t>(kRows) * kVecsPerRow;
  std::vector<uint4> src(nvec), want(nvec);
  uint64_t s = 1;
  for (auto& v : src) v = make_uint4(mix(s), mix(s), mix(s), mix(s));
  std::vector<int> idx(kRows);
  for (int i = 0; i < kRows; ++i) idx[i] = static_cast<int>((i * 7919ull) % kRows);
  uint4 *dsrc = dev_alloc<uint4>(nvec), *ddst = dev_alloc<uint4>(nvec);
  int* didx = dev_alloc<int>(kRows);
  to_dev(dsrc, src);
  to_dev(didx, idx);
  const int grid = kRows * 32 / kRowThreads;
  time_pair(
      r,
      [&] {
        hipLaunchKernelGGL(row_copy, dim3(grid), dim3(kRowThreads), 0, 0, dsrc, ddst, didx, kRows);
        CK(hipDeviceSynchronize());
      },
      [&] { serial_row_copy(src.data(), want.data(), idx.data(), kRows); });
  r.check = compare(from_dev(ddst, nvec), want);
  CK(hipFree(dsrc));
  CK(hipFree(ddst));
  CK(hipFree(didx));
  return r;
}

result bench_tree_reduce() {
  using namespace bench;
  result r{"tree_reduce 1M f32 x256"};
  std::vector<float> in(kReduceN), want(kReduceN / kReduceBlock);
  uint64_t s = 2;
  for (auto& v : in) v = static_cast<float>(mix(s) % 2000001) / 1000.0f - 1000.0f;
  float* din = dev_alloc<float>(in.size());
  float* dout = dev_alloc<float>(want.size());
  to_dev(din, in);
  time_pair(
      r,
      [&] {
        hipLaunchKernelGGL(tree_reduce, dim3(kReduceN / kReduceBlock), dim3(kReduceBlock), 0, 0,
                           din, dout);
        CK(hipDeviceSynchronize());
      },
      [&] { serial_tree_reduce(in.data(), want.data(), kReduceN); });
  r.sync_ops = static_cast<double>(kReduceN) * kReduceBarriers;
  r.check = compare(from_dev(dout, want.size()), want);
  CK(hipFree(din));
  CK(hipFree(dout));
  return r;
}

template <class K>
result bench_warp_sum(const char* name, K kernel, int block) {
  using namespace bench;
  result r{name};
  std::vector<unsigned> in(kShflN), want(kShflN / 32);
  uint64_t s = 3;
  for (auto& v : in) v = static_cast<unsigned>(mix(s) % 1000);
  unsigned* din = dev_alloc<unsigned>(in.size());
  unsigned* dout = dev_alloc<unsigned>(want.size());
  to_dev(din, in);
  time_pair(
      r,
      [&] {
        hipLaunchKernelGGL(kernel, dim3(kShflN / block), dim3(block), 0, 0, din, dout);
        CK(hipDeviceSynchronize());
      },
      [&] { serial_warp_sum(in.data(), want.data(), kShflN); });
  r.shuffle_ops = static_cast<double>(kShflN) * kShflPerLane;
  r.check = compare(from_dev(dout, want.size()), want);
  CK(hipFree(din));
  CK(hipFree(dout));
  return r;
}

result bench_syncwarp() {
  using namespace bench;
  result r{"syncwarp x32 64K thr"};
  std::vector<unsigned> in(kSyncwarpN), want(kSyncwarpN);
  uint64_t s = 4;
  for (auto& v : in) v = static_cast<unsigned>(mix(s));
  unsigned* din = dev_alloc<unsigned>(in.size());
  unsigned* dout = dev_alloc<unsigned>(in.size());
  to_dev(din, in);
  time_pair(
      r,
      [&] {
        hipLaunchKernelGGL(syncwarp_heavy, dim3(kSyncwarpN / kSyncwarpBlock), dim3(kSyncwarpBlock),
                           0, 0, din, dout, kSyncwarpIters);
        CK(hipDeviceSynchronize());
      },
      [&] { serial_syncwarp(in.data(), want.data(), kSyncwarpN, kSyncwarpIters); });
  r.sync_ops = static_cast<double>(kSyncwarpN) * 2 * kSyncwarpIters;
  r.check = compare(from_dev(dout, want.size()), want);
  CK(hipFree(din));
  CK(hipFree(dout));
  return r;
}

result bench_launch() {
  using namespace bench;
  result r{"launch <<<1,32>>> (per)"};
  std::vector<int> want(32);
  int* dout = dev_alloc<int>(32);
  time_pair(
      r,
      [&] {
        for (int i = 0; i < kLaunchBatch; ++i) {
          hipLaunchKernelGGL(tiny, dim3(1), dim3(32), 0, 0, dout);
          CK(hipDeviceSynchronize());
        }
      },
      [&] {
        for (int i = 0; i < kLaunchBatch; ++i) {
          serial_tiny(want.data());
          asm volatile("" ::"r"(want.data()) : "memory");
        }
      });
  r.emu_ms /= kLaunchBatch;
  r.serial_ms /= kLaunchBatch;
  r.emu_cpu_ms /= kLaunchBatch;
  r.serial_cpu_ms /= kLaunchBatch;
  r.check = compare(from_dev(dout, 32), want);
  CK(hipFree(dout));
  return r;
}

}  // namespace

int main() {
  std::printf("HIP-CPU, %d samples per median (threads: TBB default)", bench::reps());
  if (bench::scale() != 1) std::printf(", CUEMU_BENCH_SCALE=%d (sizes below x%d)", bench::scale(), bench::scale());
  std::printf("\n");
  bench::print_header("hipcpu_ms");
  int fails = 0;
  std::vector<result> rows;
  auto show = [&](const result& r) {
    bench::print_row(r);
    rows.push_back(r);
    if (r.check != "ok") ++fails;
  };
  show(bench_row_copy());
  show(bench_tree_reduce());
  show(bench_warp_sum("warp_shfl_sum 1M i32", warp_sum_w32, bench::kShflBlock));
  show(bench_syncwarp());
  show(bench_launch());
  bench::print_floor(rows);
  std::printf("\nHIP-CPU warp-shuffle correctness (32-lane __shfl_down reduction, 1M ints):\n");
  bench::print_header("hipcpu_ms");
  for (int block : {256, 64, 32}) {
    const std::string b = std::to_string(block);
    bench::print_row(bench_warp_sum(("shfl w=32 block=" + b).c_str(), warp_sum_w32, block));
    bench::print_row(bench_warp_sum(("shfl w=dflt(64) block=" + b).c_str(), warp_sum_wdefault, block));
  }
  return fails ? 1 : 0;
}
