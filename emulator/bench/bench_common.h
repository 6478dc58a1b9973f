// Shared by the emulator's bench (cuemu_bench.cu) and its HIP-CPU twin (hipcpu/hip_bench.cpp):
// the workloads' sizes, their plain serial C++ baselines, a median timer, /proc readers and the
// table printer. Host code only.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace bench {

// CUEMU_BENCH_SCALE=k (default 1) multiplies the sizes of the row copy, the reductions and the
// syncwarp workload (rows, elements, threads) by k: spread over many cores, a launch needs more
// work than on one before what it costs to start and end stops showing.
inline int scale() {
  static const int k = [] {
    const char* s = std::getenv("CUEMU_BENCH_SCALE");
    const int v = s ? std::atoi(s) : 1;
    return v >= 1 && v <= 1024 ? v : 1;
  }();
  return k;
}

// Workload sizes (issue 6), at scale 1.
inline const int kRows = 16 * 1024 * scale();  // row copy: 16K rows ...
constexpr int kRowBytes = 2048;               // ... of 2 KiB
constexpr int kVecsPerRow = kRowBytes / 16;   // uint4 per row
constexpr int kRowThreads = 128;              // 4 warps, one row per warp
inline const int kReduceN = (1 << 20) * scale();  // 1M floats, 256-thread blocks
constexpr int kReduceBlock = 256;
constexpr int kReduceBarriers = 9;            // 1 after the load + log2(256)
inline const int kShflN = (1 << 20) * scale();    // 1M ints, 256-thread blocks, 5 shuffles per lane
constexpr int kShflBlock = 256;
constexpr int kShflPerLane = 5;
inline const int kSyncwarpN = (1 << 16) * scale();  // 64K threads, 256-thread blocks
constexpr int kSyncwarpBlock = 256;
constexpr int kSyncwarpIters = 16;            // 2 __syncwarp per iteration
constexpr int kLaunchBatch = 50;              // launches per timed sample of <<<1, 32>>>

inline double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// CPU time of the whole process (all its threads): robust against other processes on a shared
// machine, where wall time is not.
inline double cpu_ms() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

inline int reps() {
  const char* s = std::getenv("CUEMU_BENCH_REPS");
  const int r = s ? std::atoi(s) : 0;
  return r > 0 ? r : 9;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// VmRSS / VmHWM of this process, in KiB.
inline long proc_status_kib(const char* key) {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long v = -1;
  const size_t k = std::strlen(key);
  while (std::fgets(line, sizeof line, f))
    if (!std::strncmp(line, key, k) && line[k] == ':') v = std::atol(line + k + 1);
  std::fclose(f);
  return v;
}

// Deterministic inputs.
inline uint64_t mix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// --- serial baselines: the same work as the kernels, as plain loops ---

template <class V>
void serial_row_copy(const V* src, V* dst, const int* idx, int rows) {
  for (int r = 0; r < rows; ++r) {
    const V* s = src + static_cast<size_t>(r) * kVecsPerRow;
    V* d = dst + static_cast<size_t>(idx[r]) * kVecsPerRow;
    for (int j = 0; j < kVecsPerRow; ++j) d[j] = s[j];
  }
}

// The kernel's tree, in the kernel's order of additions (so results are bitwise equal).
inline void serial_tree_reduce(const float* in, float* out, int n) {
  float s[kReduceBlock];
  for (int b = 0; b < n / kReduceBlock; ++b) {
    for (int t = 0; t < kReduceBlock; ++t) s[t] = in[b * kReduceBlock + t];
    for (int stride = kReduceBlock / 2; stride > 0; stride >>= 1)
      for (int t = 0; t < stride; ++t) s[t] += s[t + stride];
    out[b] = s[0];
  }
}

inline void serial_warp_sum(const unsigned* in, unsigned* out, int n) {
  for (int w = 0; w < n / 32; ++w) {
    unsigned v = 0;
    for (int l = 0; l < 32; ++l) v += in[w * 32 + l];
    out[w] = v;
  }
}

inline void serial_syncwarp(const unsigned* in, unsigned* out, int n, int iters) {
  unsigned acc[32], tmp[32];
  for (int w = 0; w < n / 32; ++w) {
    for (int l = 0; l < 32; ++l) acc[l] = in[w * 32 + l];
    for (int k = 0; k < iters; ++k) {
      for (int l = 0; l < 32; ++l) tmp[l] = acc[l];
      for (int l = 0; l < 32; ++l) acc[l] = acc[l] * 3u + tmp[(l + 1) & 31];
    }
    for (int l = 0; l < 32; ++l) out[w * 32 + l] = acc[l];
  }
}

inline void serial_tiny(int* out) {
  for (int t = 0; t < 32; ++t) out[t] = t * 2 + 1;
}

// --- the table ---

struct result {
  std::string name;
  double emu_ms = 0, serial_ms = 0;          // wall clock, medians
  double emu_cpu_ms = 0, serial_cpu_ms = 0;  // process CPU time, medians
  double sync_ops = 0;         // thread-barriers (or lane-__syncwarps) per launch, for ns/op
  double shuffle_ops = 0;      // lane-shuffles per launch
  std::string check;           // "ok", "FAIL ..." or "-"
};

// ns/thr/barrier and ns/lane/shfl: wall time over (threads x sync points), and in brackets CPU
// time (all workers) over the same: the CPU cost of one, whatever the load of the machine.
inline void print_header(const char* emu_label) {
  std::printf("%-26s %11s %11s %10s %10s %8s %8s %17s %17s  %s\n", "workload", emu_label, "(cpu_ms)",
              "serial_ms", "(cpu_ms)", "ratio", "(cpu)", "ns/thr/barrier", "ns/lane/shfl", "check");
}

inline void print_row(const result& r) {
  char ratio[32] = "-", cratio[32] = "-", bar[48] = "-", shf[48] = "-";
  if (r.serial_ms > 0) std::snprintf(ratio, sizeof ratio, "%.2fx", r.emu_ms / r.serial_ms);
  if (r.serial_cpu_ms > 0) std::snprintf(cratio, sizeof cratio, "%.2fx", r.emu_cpu_ms / r.serial_cpu_ms);
  if (r.sync_ops > 0)
    std::snprintf(bar, sizeof bar, "%.2f (%.2f)", r.emu_ms * 1e6 / r.sync_ops,
                  r.emu_cpu_ms * 1e6 / r.sync_ops);
  if (r.shuffle_ops > 0)
    std::snprintf(shf, sizeof shf, "%.2f (%.2f)", r.emu_ms * 1e6 / r.shuffle_ops,
                  r.emu_cpu_ms * 1e6 / r.shuffle_ops);
  std::printf("%-26s %11.4f %11.4f %10.4f %10.4f %8s %8s %17s %17s  %s\n", r.name.c_str(), r.emu_ms,
              r.emu_cpu_ms, r.serial_ms, r.serial_cpu_ms, ratio, cratio, bar, shf, r.check.c_str());
  std::fflush(stdout);
}

// Medians of the emulated (or HIP-CPU) run and of the serial loop, sampled alternately.
template <class E, class S>
void time_pair(result& r, E emu, S serial) {
  emu();
  serial();
  std::vector<double> te, ts, ce, cs;
  for (int i = 0; i < reps(); ++i) {
    const double c0 = cpu_ms(), t0 = now_ms();
    emu();
    const double c1 = cpu_ms(), t1 = now_ms();
    serial();
    const double c2 = cpu_ms(), t2 = now_ms();
    te.push_back(t1 - t0);
    ts.push_back(t2 - t1);
    ce.push_back(c1 - c0);
    cs.push_back(c2 - c1);
  }
  r.emu_ms = median(te);
  r.serial_ms = median(ts);
  r.emu_cpu_ms = median(ce);
  r.serial_cpu_ms = median(cs);
}

template <class T>
std::string compare(const std::vector<T>& got, const std::vector<T>& want) {
  size_t bad = 0, first = got.size();
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      if (!bad) first = i;
      ++bad;
    }
  if (!bad) return "ok";
  char buf[160];
  std::snprintf(buf, sizeof buf, "FAIL (%zu of %zu wrong, first at %zu)", bad, got.size(), first);
  return buf;
}

}  // namespace bench
