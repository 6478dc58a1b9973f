// The emulator against plain serial C++ loops, in one program (issue 6, SPEC §6).
//
//   cuemu_bench                  for each worker count 1, 2, 4, .. all: the table (re-runs itself
//                                with CUEMU_WORKERS=w), then scaling, the self-checks, peak memory
//   cuemu_bench --child          one table with the CUEMU_WORKERS of the environment
//   cuemu_bench --peak           VmHWM around one tree reduction (MiB above its data)
//
// Env: CUEMU_BENCH_REPS (default 9 samples per median), CUEMU_BENCH_WORKERS="1 2" (worker counts),
// CUEMU_BENCH_ONLY=<substring> (only the workloads whose name contains it), CUEMU_BENCH_SCALE=k
// (the workloads k times larger; their names keep the sizes of scale 1).
// Each workload's emulator time is launch + cudaDeviceSynchronize; its serial time is the same
// work as a plain loop, timed alternately with it in the same process; both are medians.
#include <cuda_runtime.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "bench_common.h"
#include "switch_floor.h"

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

// --- kernels ---

// One warp per row, each lane a uint4 at a time; rows land at idx[row] (store_kv's shape). The
// body is also run by a plain loop over the grid's threads (bench_row_copy_thread_loop).
__host__ __device__ inline void row_copy_thread(const uint4* src, uint4* dst, const int* idx,
                                                int rows, unsigned block, unsigned dim,
                                                unsigned thread) {
  const int row = static_cast<int>((block * dim + thread) / 32);
  const int lane = static_cast<int>(thread & 31);
  if (row >= rows) return;
  const uint4* s = src + static_cast<size_t>(row) * bench::kVecsPerRow;
  uint4* d = dst + static_cast<size_t>(idx[row]) * bench::kVecsPerRow;
  for (int j = lane; j < bench::kVecsPerRow; j += 32) d[j] = s[j];
}

__global__ void row_copy(const uint4* src, uint4* dst, const int* idx, int rows) {
  row_copy_thread(src, dst, idx, rows, blockIdx.x, blockDim.x, threadIdx.x);
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

__global__ void warp_sum(const unsigned* in, unsigned* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

__global__ void syncwarp_heavy(const unsigned* in, unsigned* out, int iters) {
  __shared__ unsigned buf[bench::kSyncwarpBlock];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31, base = threadIdx.x & ~31u;
  unsigned acc = in[i];
  for (int k = 0; k < iters; ++k) {
    buf[threadIdx.x] = acc;
    __syncwarp();
    acc = acc * 3u + buf[base + ((lane + 1) & 31)];
    __syncwarp();
  }
  out[i] = acc;
}

__global__ void tiny(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x) * 2 + 1; }

namespace {

using bench::result;

template <class T>
T* dev_alloc(size_t n) {
  T* p = nullptr;
  CK(cudaMalloc(&p, n * sizeof(T)));
  return p;
}

template <class T>
void to_dev(T* d, const std::vector<T>& h) {
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
}

template <class T>
std::vector<T> from_dev(const T* d, size_t n) {
  std::vector<T> h(n);
  CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// The row copy against a serial baseline `serial(src, want, idx, grid)` that fills `want`.
template <class Serial>
result bench_row_copy_against(const char* name, uint64_t seed, Serial serial) {
  using namespace bench;
  result r{name};
  const size_t nvec = static_cast<size_t>(kRows) * kVecsPerRow;
  std::vector<uint4> src(nvec), want(nvec);
  uint64_t s = seed;
  for (auto& v : src) v = make_uint4(mix(s), mix(s), mix(s), mix(s));
  std::vector<int> idx(kRows);
  for (int i = 0; i < kRows; ++i) idx[i] = static_cast<int>((i * 7919ull) % kRows);  // a permutation
  uint4 *dsrc = dev_alloc<uint4>(nvec), *ddst = dev_alloc<uint4>(nvec);
  int* didx = dev_alloc<int>(kRows);
  to_dev(dsrc, src);
  to_dev(didx, idx);
  const unsigned grid = kRows * 32 / kRowThreads;
  time_pair(
      r,
      [&] {
        row_copy<<<grid, kRowThreads>>>(dsrc, ddst, didx, kRows);
        CK(cudaDeviceSynchronize());
      },
      [&] { serial(src.data(), want.data(), idx.data(), grid); });
  r.check = compare(from_dev(ddst, nvec), want);
  CK(cudaFree(dsrc));
  CK(cudaFree(ddst));
  CK(cudaFree(didx));
  return r;
}

result bench_row_copy() {
  return bench_row_copy_against(
      "row_copy 16Kx2KiB", 1,
      [](const uint4* src, uint4* want, const int* idx, unsigned) {
        bench::serial_row_copy(src, want, idx, bench::kRows);
      });
}

// The same kernel against the same body run by a plain loop over the grid's threads (no
// emulator): what remains is the emulator's own cost; the loop's cost over serial_row_copy is
// that of the CUDA form of the copy (a lane's uint4s 512 B apart).
result bench_row_copy_thread_loop() {
  return bench_row_copy_against(
      "row_copy vs thread loop", 3,
      [](const uint4* src, uint4* want, const int* idx, unsigned grid) {
        for (unsigned b = 0; b < grid; ++b)
          for (unsigned t = 0; t < static_cast<unsigned>(bench::kRowThreads); ++t)
            row_copy_thread(src, want, idx, bench::kRows, b, bench::kRowThreads, t);
      });
}

// The same kernel against its body with the block's lanes in lockstep, as a translation that cut
// the kernel at its loop's head would run it: a loop over threads up to the loop (each thread's
// row pointers and counter stored per thread), then, while a thread is still in the loop, one
// iteration of every such thread. Each pass copies a row's 512 contiguous bytes per warp (the
// serial loop's order), paid for with the per-thread state (issue 16: is lockstep the way to the
// serial copy's time?).
result bench_row_copy_lockstep() {
  return bench_row_copy_against(
      "row_copy vs lockstep", 5,
      [](const uint4* src, uint4* want, const int* idx, unsigned grid) {
        constexpr unsigned n = bench::kRowThreads;
        const uint4* s[n];
        uint4* d[n];
        int j[n];
        for (unsigned b = 0; b < grid; ++b) {
          for (unsigned t = 0; t < n; ++t) {
            const int row = static_cast<int>((b * n + t) / 32);
            j[t] = row < bench::kRows ? static_cast<int>(t & 31) : bench::kVecsPerRow;
            if (row >= bench::kRows) continue;
            s[t] = src + static_cast<size_t>(row) * bench::kVecsPerRow;
            d[t] = want + static_cast<size_t>(idx[row]) * bench::kVecsPerRow;
          }
          for (bool any = true; any;) {
            any = false;
            for (unsigned t = 0; t < n; ++t) {
              const int k = j[t];
              if (k >= bench::kVecsPerRow) continue;
              d[t][k] = s[t][k];
              j[t] = k + 32;
              any |= k + 32 < bench::kVecsPerRow;
            }
          }
        }
      });
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
        tree_reduce<<<kReduceN / kReduceBlock, kReduceBlock>>>(din, dout);
        CK(cudaDeviceSynchronize());
      },
      [&] { serial_tree_reduce(in.data(), want.data(), kReduceN); });
  r.sync_ops = static_cast<double>(kReduceN) * kReduceBarriers;
  r.check = compare(from_dev(dout, want.size()), want);
  CK(cudaFree(din));
  CK(cudaFree(dout));
  return r;
}

result bench_warp_sum() {
  using namespace bench;
  result r{"warp_shfl_sum 1M i32"};
  std::vector<unsigned> in(kShflN), want(kShflN / 32);
  uint64_t s = 3;
  for (auto& v : in) v = static_cast<unsigned>(mix(s) % 1000);
  unsigned* din = dev_alloc<unsigned>(in.size());
  unsigned* dout = dev_alloc<unsigned>(want.size());
  to_dev(din, in);
  time_pair(
      r,
      [&] {
        warp_sum<<<kShflN / kShflBlock, kShflBlock>>>(din, dout);
        CK(cudaDeviceSynchronize());
      },
      [&] { serial_warp_sum(in.data(), want.data(), kShflN); });
  r.shuffle_ops = static_cast<double>(kShflN) * kShflPerLane;
  r.check = compare(from_dev(dout, want.size()), want);
  CK(cudaFree(din));
  CK(cudaFree(dout));
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
        syncwarp_heavy<<<kSyncwarpN / kSyncwarpBlock, kSyncwarpBlock>>>(din, dout, kSyncwarpIters);
        CK(cudaDeviceSynchronize());
      },
      [&] { serial_syncwarp(in.data(), want.data(), kSyncwarpN, kSyncwarpIters); });
  r.sync_ops = static_cast<double>(kSyncwarpN) * 2 * kSyncwarpIters;
  r.check = compare(from_dev(dout, want.size()), want);
  CK(cudaFree(din));
  CK(cudaFree(dout));
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
          tiny<<<1, 32>>>(dout);
          CK(cudaDeviceSynchronize());
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
  CK(cudaFree(dout));
  return r;
}

int child() {
  const char* w = std::getenv("CUEMU_WORKERS");
  std::printf("CUEMU_WORKERS=%s, %d samples per median", w ? w : "(all)", bench::reps());
  if (bench::scale() != 1) std::printf(", CUEMU_BENCH_SCALE=%d (sizes below x%d)", bench::scale(), bench::scale());
  std::printf("\n");
  bench::print_header("emulator_ms");
  // CUEMU_BENCH_ONLY=substring runs only the matching workloads (for profiling one of them).
  const char* only = std::getenv("CUEMU_BENCH_ONLY");
  auto want = [&](const char* name) { return !only || std::strstr(name, only) != nullptr; };
  std::vector<result> rows;
  if (want("row_copy")) rows.push_back(bench_row_copy());
  if (want("row_copy")) rows.push_back(bench_row_copy_thread_loop());
  if (want("row_copy")) rows.push_back(bench_row_copy_lockstep());
  if (want("tree_reduce")) rows.push_back(bench_tree_reduce());
  if (want("warp_shfl_sum")) rows.push_back(bench_warp_sum());
  if (want("syncwarp")) rows.push_back(bench_syncwarp());
  if (want("launch")) rows.push_back(bench_launch());
  int fails = 0;
  for (const result& r : rows) {
    bench::print_row(r);
    if (r.check != "ok") ++fails;
  }
  // The CPU cost per synchronisation point against the floor of any coroutine-per-thread design.
  if (want("tree_reduce") || want("warp_shfl_sum") || want("syncwarp")) bench::print_floor(rows);
  for (const result& r : rows) std::printf("#EMU\t%s\t%.6f\n", r.name.c_str(), r.emu_ms);
  return fails ? 1 : 0;
}

int peak() {
  using namespace bench;
  const long rss0 = proc_status_kib("VmRSS");
  std::vector<float> in(kReduceN), out(kReduceN / kReduceBlock);
  uint64_t s = 2;
  for (auto& v : in) v = static_cast<float>(mix(s) % 1000);
  float* din = dev_alloc<float>(in.size());
  float* dout = dev_alloc<float>(out.size());
  to_dev(din, in);
  CK(cudaMemset(dout, 0, out.size() * sizeof(float)));
  const long before = proc_status_kib("VmHWM");
  tree_reduce<<<kReduceN / kReduceBlock, kReduceBlock>>>(din, dout);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  const long hwm = proc_status_kib("VmHWM");
  const double data_mib = 2.0 * (in.size() + out.size()) * sizeof(float) / (1 << 20);
  std::printf("#PEAK\t%ld\t%ld\t%ld\t%.3f\n", rss0, before, hwm, data_mib);
  return 0;
}

std::string self_path() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  buf[n] = 0;
  return buf;
}

// Runs `cmd`; returns its exit status, its stdout in `out`.
int run_capture(const std::string& cmd, std::string& out) {
  out.clear();
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// `share(i)` for i in [0, w) on w plain host threads (the calling thread and w - 1 started once,
// released together per run): wall ms, median of bench::reps() (the first run touches the pages).
template <class Share>
double plain_threads_ms(unsigned w, Share share) {
  std::atomic<unsigned> generation{0}, done{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < w; ++i)
    pool.emplace_back([&, i] {
      unsigned seen = 0;
      for (;;) {
        unsigned g;
        while ((g = generation.load(std::memory_order_acquire)) == seen)
          if (stop.load(std::memory_order_relaxed)) return;
        seen = g;
        share(i);
        done.fetch_add(1, std::memory_order_release);
      }
    });
  std::vector<double> t;
  for (int k = 0; k < bench::reps() + 1; ++k) {
    done.store(0);
    const double t0 = bench::now_ms();
    generation.fetch_add(1, std::memory_order_release);
    share(0);
    while (done.load(std::memory_order_acquire) != w - 1) {
    }
    if (k > 0) t.push_back(bench::now_ms() - t0);
  }
  stop = true;
  for (auto& th : pool) th.join();
  return bench::median(t);
}

// The ceiling of the row copy's scaling: the serial loop split over w plain host threads. A
// memory-bound copy stops scaling where this does, whatever runs it.
double plain_threads_row_copy_ms(unsigned w) {
  using bench::kRows;
  using bench::kVecsPerRow;
  std::vector<uint4> src(static_cast<size_t>(kRows) * kVecsPerRow), dst(src.size());
  std::vector<int> idx(kRows);
  uint64_t seed = 1;
  for (auto& v : src) v = make_uint4(static_cast<unsigned>(bench::mix(seed)), 1, 2, 3);
  for (int r = 0; r < kRows; ++r) idx[r] = (r * 7919) % kRows;
  return plain_threads_ms(w, [&](unsigned i) {
    const int r0 = static_cast<int>(static_cast<long>(kRows) * i / w);
    const int r1 = static_cast<int>(static_cast<long>(kRows) * (i + 1) / w);
    bench::serial_row_copy(src.data() + static_cast<size_t>(r0) * kVecsPerRow, dst.data(),
                           idx.data() + r0, r1 - r0);
  });
}

// The same for work that stays in a core's cache (the tree reduction's serial loop, its blocks
// split over the threads): what the machine gives such work from one core to w, whatever runs
// it (cores that share a physical core or a clock budget show here).
double plain_threads_tree_reduce_ms(unsigned w) {
  using bench::kReduceBlock;
  using bench::kReduceN;
  std::vector<float> in(kReduceN), out(kReduceN / kReduceBlock);
  uint64_t seed = 2;
  for (auto& v : in) v = static_cast<float>(bench::mix(seed) % 1000);
  const int blocks = kReduceN / kReduceBlock;
  return plain_threads_ms(w, [&](unsigned i) {
    const int b0 = static_cast<int>(static_cast<long>(blocks) * i / w);
    const int b1 = static_cast<int>(static_cast<long>(blocks) * (i + 1) / w);
    // Eight times over: a run long enough to time at 16 threads.
    for (int rep = 0; rep < 8; ++rep)
      bench::serial_tree_reduce(in.data() + static_cast<size_t>(b0) * kReduceBlock, out.data() + b0,
                                (b1 - b0) * kReduceBlock);
  });
}

int parent() {
  const std::string self = self_path();
  const std::string dir = self.substr(0, self.rfind('/'));
  const unsigned ncpu = std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> workers;
  if (const char* s = std::getenv("CUEMU_BENCH_WORKERS")) {
    for (char* p = const_cast<char*>(s); *p;) {
      char* end;
      const unsigned long v = std::strtoul(p, &end, 10);
      if (end == p) { ++p; continue; }
      workers.push_back(static_cast<unsigned>(v));
      p = end;
    }
  } else {
    for (unsigned w = 1; w < ncpu; w *= 2) workers.push_back(w);
    workers.push_back(ncpu);
  }
  std::printf("cuemu_bench: %u hardware threads; worker counts:", ncpu);
  for (unsigned w : workers) std::printf(" %u", w);
  std::printf("\n\n");
  int status = 0;
  std::map<std::string, std::map<unsigned, double>> emu;  // workload -> workers -> ms
  std::vector<std::string> order;
  for (unsigned w : workers) {
    std::string out;
    const int rc = run_capture("CUEMU_WORKERS=" + std::to_string(w) + " '" + self + "' --child", out);
    if (rc != 0) status = 1;
    size_t pos = 0;
    while (pos < out.size()) {
      size_t nl = out.find('\n', pos);
      if (nl == std::string::npos) nl = out.size();
      const std::string line = out.substr(pos, nl - pos);
      pos = nl + 1;
      if (line.rfind("#EMU\t", 0) == 0) {
        const size_t t2 = line.find('\t', 5);
        const std::string name = line.substr(5, t2 - 5);
        if (!emu.count(name)) order.push_back(name);
        emu[name][w] = std::atof(line.c_str() + t2 + 1);
      } else {
        std::printf("%s\n", line.c_str());
      }
    }
    if (rc != 0) std::printf("FAIL: child with CUEMU_WORKERS=%u exited with %d\n", w, rc);
    std::printf("\n");
  }

  // The self-checks, timed as whole programs (wall clock, median of 3), when built beside us.
  const char* checks[] = {"store_kv_check", "embedding_check"};
  bool any_check = false;
  for (const char* c : checks) {
    const std::string path = dir + "/" + c;
    if (access(path.c_str(), X_OK) != 0) continue;
    if (!any_check) {
      std::printf("self-checks (whole program, wall ms, median of 3; then, at %u worker%s, the time "
                  "in its kernels over its CPU reference's, the same work done serially):\n%-26s",
                  workers.front(), workers.front() == 1 ? "" : "s", "program");
      for (unsigned w : workers) std::printf(" %10s%-3u", "workers=", w);
      std::printf("  %-32s  check\n", "kernels / CPU reference");
      any_check = true;
    }
    std::printf("%-26s", c);
    std::string verdict = "ok";
    std::vector<double> kernels_ms, reference_ms;
    for (unsigned w : workers) {
      std::vector<double> t;
      for (int i = 0; i < 3; ++i) {
        std::string out;
        const double t0 = bench::now_ms();
        const int rc = run_capture("CUEMU_WORKERS=" + std::to_string(w) + " '" + path + "' 2>&1", out);
        t.push_back(bench::now_ms() - t0);
        if (rc != 0 || out.find("\nFAIL ") != std::string::npos || out.rfind("FAIL ", 0) == 0)
          verdict = "FAIL";
        double k = 0, r = 0;
        const size_t at = out.find("selfcheck time: ");
        if (w == workers.front() && at != std::string::npos &&
            std::sscanf(out.c_str() + at, "selfcheck time: kernels %lf ms, CPU reference %lf ms",
                        &k, &r) == 2) {
          kernels_ms.push_back(k);
          reference_ms.push_back(r);
        }
      }
      const double m = bench::median(t);
      std::printf(" %13.1f", m);
      emu[std::string("selfcheck ") + c][w] = m;
    }
    char ratio[64] = "-";
    if (!kernels_ms.empty()) {
      const double k = bench::median(kernels_ms), r = bench::median(reference_ms);
      std::snprintf(ratio, sizeof ratio, "%.2fx (%.1f / %.1f ms)", r > 0 ? k / r : 0.0, k, r);
    }
    if (verdict != "ok") status = 1;
    std::printf("  %-32s  %s\n", ratio, verdict.c_str());
    order.push_back(std::string("selfcheck ") + c);
  }
  if (any_check) std::printf("\n");

  if (workers.size() > 1) {
    std::printf("scaling (emulator time at %u worker / at w workers):\n%-26s", workers.front(),
                "workload");
    for (unsigned w : workers) std::printf("  w=%-5u", w);
    std::printf("\n");
    for (const std::string& name : order) {
      std::printf("%-26s", name.c_str());
      const double base = emu[name][workers.front()];
      for (unsigned w : workers) std::printf("  %6.2fx", base / emu[name][w]);
      std::printf("\n");
    }
    // The hardware's ceiling for the memory-bound row copy: plain threads, same copy.
    std::map<unsigned, double> plain;
    for (unsigned w : workers) plain[w] = plain_threads_row_copy_ms(w);
    std::printf("%-26s", "row_copy, plain threads");
    for (unsigned w : workers) std::printf("  %6.2fx", plain[workers.front()] / plain[w]);
    std::printf("   (the serial loop on w host threads: the ceiling)\n");
    std::map<unsigned, double> plain_tree;
    for (unsigned w : workers) plain_tree[w] = plain_threads_tree_reduce_ms(w);
    std::printf("%-26s", "tree_reduce, plain threads");
    for (unsigned w : workers) std::printf("  %6.2fx", plain_tree[workers.front()] / plain_tree[w]);
    std::printf("   (its serial loop on w host threads: the machine's own scaling)\n");
    std::printf("\n");
  }

  std::printf("peak memory around one tree reduction (1M floats; data = host + device copies):\n");
  for (unsigned w : {1u, ncpu}) {
    std::string out;
    run_capture("CUEMU_WORKERS=" + std::to_string(w) + " '" + self + "' --peak", out);
    long rss0 = 0, before = 0, hwm = 0;
    double data = 0;
    if (std::sscanf(out.c_str(), "#PEAK\t%ld\t%ld\t%ld\t%lf", &rss0, &before, &hwm, &data) == 4) {
      const double above = (hwm - rss0) / 1024.0 - data;
      std::printf("  workers=%u: VmRSS at start %.1f MiB, VmHWM before launch %.1f MiB, after %.1f "
                  "MiB; data %.1f MiB; peak above start + data: %.1f MiB (%s 64 MiB target)\n",
                  w, rss0 / 1024.0, before / 1024.0, hwm / 1024.0, data, above,
                  above <= 64 ? "within" : "OVER");
    } else {
      std::printf("  workers=%u: FAIL (no #PEAK line)\n", w);
      status = 1;
    }
    if (ncpu == 1) break;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "--child") return child();
  if (mode == "--peak") return peak();
  return parent();
}
