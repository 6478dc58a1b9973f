// Shared helpers of the self-check programs: a portable PRNG, FNV-1a digests, device buffers
// with a host mirror, whole-buffer byte comparison with a first-difference report, and the
// PASS/FAIL/digest output. Host code only; builds with nvcc and with the cuemu emulator.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace selfcheck {

// splitmix64: the same sequence on every platform and compiler.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) (bound > 0); the tiny modulo bias does not matter here.
  uint64_t below(uint64_t bound) { return next() % bound; }
  void fill(uint8_t* p, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      const uint64_t x = next();
      for (int b = 0; b < 8; ++b) p[i + b] = static_cast<uint8_t>(x >> (8 * b));
    }
    if (i < n) {
      const uint64_t x = next();
      for (int b = 0; b < 8 && i < n; ++i, ++b) p[i] = static_cast<uint8_t>(x >> (8 * b));
    }
  }

 private:
  uint64_t state_;
};

inline uint64_t fnv1a64(const uint8_t* p, size_t n) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001B3ull;
  }
  return h;
}

inline uint64_t seed_of(const std::string& name) {
  return fnv1a64(reinterpret_cast<const uint8_t*>(name.data()), name.size());
}

// One case's outcome: the first failure (empty if none) and the digests of its output buffers.
struct Case {
  std::string name;
  std::string error;
  std::vector<std::string> notes;  // extra lines printed after the PASS/FAIL line
  std::vector<std::pair<std::string, uint64_t>> digests;
  explicit Case(std::string n) : name(std::move(n)) {}
  bool ok() const { return error.empty(); }
  void fail(const std::string& msg) {
    if (error.empty()) error = msg;
  }
  bool cuda(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    fail(std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
    return false;
  }
};

// A device allocation mirrored by host bytes: `init` is what was uploaded, `got` what came back.
// The allocation has a guard zone of kGuard bytes on each side, filled with a fixed pattern and
// checked after every case, so a write just outside the buffer is caught too. A `tight` buffer
// has no guard zones: the allocation is exactly the buffer, so that under the emulator's memcheck
// (which sizes allocations exactly) any access past its last byte is reported.
class DeviceBuffer {
 public:
  static constexpr size_t kGuard = 256;  // keeps dev() 256-byte aligned, like cudaMalloc

  DeviceBuffer(std::string name, size_t bytes, size_t row_stride, bool is_output,
               bool tight = false)
      : name_(std::move(name)), row_stride_(row_stride ? row_stride : 1), output_(is_output),
        guard_(tight ? 0 : kGuard), init(bytes) {}
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (base_ != nullptr) cudaFree(base_);
  }

  bool upload(Case& c) {
    got.assign(init.size(), 0);
    std::vector<uint8_t> all(init.size() + 2 * guard_);
    guard_pattern(all.data(), guard_, 0);
    if (!init.empty()) std::memcpy(all.data() + guard_, init.data(), init.size());
    guard_pattern(all.data() + guard_ + init.size(), guard_, 1);
    if (all.empty()) return true;  // nothing to allocate (a tight empty buffer)
    if (!c.cuda(cudaMalloc(reinterpret_cast<void**>(&base_), all.size()), "cudaMalloc"))
      return false;
    return c.cuda(cudaMemcpy(base_, all.data(), all.size(), cudaMemcpyHostToDevice),
                  "cudaMemcpy to device");
  }
  // Downloads the buffer into `got` and checks both guard zones.
  bool download(Case& c) {
    std::vector<uint8_t> all(init.size() + 2 * guard_);
    if (all.empty()) return true;
    if (!c.cuda(cudaMemcpy(all.data(), base_, all.size(), cudaMemcpyDeviceToHost),
                "cudaMemcpy to host"))
      return false;
    if (!init.empty()) std::memcpy(got.data(), all.data() + guard_, init.size());
    uint8_t want[kGuard];
    for (int side = 0; side < 2; ++side) {
      guard_pattern(want, guard_, side);
      const uint8_t* have = all.data() + (side == 0 ? 0 : guard_ + init.size());
      for (size_t i = 0; i < guard_; ++i) {
        if (have[i] != want[i]) {
          char msg[256];
          std::snprintf(msg, sizeof msg,
                        "buffer %s: write outside the buffer, %zu bytes %s it: expected 0x%02x, "
                        "got 0x%02x",
                        name_.c_str(), side == 0 ? guard_ - i : i + 1,
                        side == 0 ? "before" : "after", want[i], have[i]);
          c.fail(msg);
          return false;
        }
      }
    }
    return true;
  }
  uint8_t* dev() const { return base_ + guard_; }
  const std::string& name() const { return name_; }
  bool is_output() const { return output_; }

  // Compares the whole of `got` with `expected`; on a difference records the first one.
  bool compare(Case& c, const std::vector<uint8_t>& expected) const {
    if (expected.size() != got.size()) {
      c.fail("buffer " + name_ + ": reference has the wrong size");
      return false;
    }
    if (got.empty() || std::memcmp(expected.data(), got.data(), got.size()) == 0) return true;
    size_t i = 0;
    while (expected[i] == got[i]) ++i;
    char msg[256];
    std::snprintf(msg, sizeof msg,
                  "buffer %s, row %zu, byte %zu (offset %zu): expected 0x%02x, got 0x%02x",
                  name_.c_str(), i / row_stride_, i % row_stride_, i, expected[i], got[i]);
    c.fail(msg);
    return false;
  }
  void record_digest(Case& c) const {
    c.digests.emplace_back(name_, fnv1a64(got.data(), got.size()));
  }

 private:
  static void guard_pattern(uint8_t* p, size_t n, int side) {
    SplitMix64 rng(0x6775617264ull + static_cast<uint64_t>(side));  // "guard"
    rng.fill(p, n);
  }

  std::string name_;
  size_t row_stride_;
  bool output_;
  size_t guard_;
  uint8_t* base_ = nullptr;

 public:
  std::vector<uint8_t> init;  // uploaded contents
  std::vector<uint8_t> got;   // downloaded contents (sized by upload)
};

// Time spent in the cases' kernel launches and in their CPU reference's row loops (the same
// work done serially; copying the untouched initial contents is not counted).
inline double& kernel_ms() {
  static double total = 0;
  return total;
}
inline double& reference_ms() {
  static double total = 0;
  return total;
}
// Adds the time from its construction to its destruction to `total`.
class Stopwatch {
 public:
  explicit Stopwatch(double& total) : total_(total), t0_(std::chrono::steady_clock::now()) {}
  ~Stopwatch() {
    total_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count();
  }
  Stopwatch(const Stopwatch&) = delete;
  Stopwatch& operator=(const Stopwatch&) = delete;

 private:
  double& total_;
  std::chrono::steady_clock::time_point t0_;
};

template <class F>
auto timed(double& total, F&& f) {
  Stopwatch watch(total);
  return f();
}

class Report {
 public:
  void finish(const Case& c) {
    if (c.ok()) {
      std::printf("PASS %s\n", c.name.c_str());
      ++passed_;
    } else {
      std::printf("FAIL %s: %s\n", c.name.c_str(), c.error.c_str());
      ++failed_;
    }
    for (const auto& n : c.notes) std::printf("%s\n", n.c_str());
    for (const auto& d : c.digests)
      std::printf("digest %s %s %016" PRIx64 "\n", c.name.c_str(), d.first.c_str(), d.second);
    std::fflush(stdout);
  }
  int summary() const {
#ifdef __CUEMU__
    // On the emulator a launch runs to completion before it returns: the time in the launches is
    // the kernels' (emulator/bench prints it over the CPU reference's, the same work done serially).
    std::printf("selfcheck time: kernels %.3f ms, CPU reference %.3f ms\n", kernel_ms(),
                reference_ms());
#endif
    std::printf("selfcheck: %d passed, %d failed\n", passed_, failed_);
    return failed_ == 0 ? 0 : 1;
  }

 private:
  int passed_ = 0;
  int failed_ = 0;
};

// A random permutation prefix: `n` distinct values in [0, rows) (n <= rows).
inline std::vector<int64_t> distinct_slots(SplitMix64& rng, int64_t rows, int64_t n) {
  std::vector<int64_t> perm(static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) perm[static_cast<size_t>(i)] = i;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t j = i + static_cast<int64_t>(rng.below(static_cast<uint64_t>(rows - i)));
    std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(j)]);
  }
  perm.resize(static_cast<size_t>(n));
  return perm;
}

// Writes `values` into `bytes` as int32 or int64 (little-endian, as both the GPU and x86 are).
inline void store_indices(std::vector<uint8_t>& bytes, const std::vector<int64_t>& values,
                          bool int64) {
  const size_t w = int64 ? 8 : 4;
  bytes.assign(values.size() * w, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    if (int64) {
      const int64_t v = values[i];
      std::memcpy(&bytes[i * w], &v, w);
    } else {
      const int32_t v = static_cast<int32_t>(values[i]);
      std::memcpy(&bytes[i * w], &v, w);
    }
  }
}

// The grid the launchers document (kernels/launchers.h) for n rows of row_bytes with `splits`
// segments per row, each lane moving `unroll` 16-byte chunks per step (every copy path moves
// 16-byte chunks): a work item gets the smallest power-of-two lane group (at most 32) that covers
// its segment's chunks (rounded up) in one step, and a 128-thread block holds 128 / lanes items.
inline int64_t expected_blocks(int64_t n, int64_t row_bytes, int64_t splits, int64_t unroll) {
  const int64_t seg_bytes = (row_bytes + splits - 1) / splits;
  const int64_t seg = (seg_bytes + 15) / 16;
  int64_t lanes = 1;
  while (lanes < 32 && lanes * unroll < seg) lanes *= 2;
  const int64_t items_per_block = 128 / lanes;
  return (n * splits + items_per_block - 1) / items_per_block;
}

}  // namespace selfcheck
