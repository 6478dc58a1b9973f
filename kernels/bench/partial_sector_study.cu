// What makes a row copy slow when its destination rows are not 32-byte aligned (issue 15), on an
// H200: the store_kv shape (two arrays, rows scattered to random cache slots), each variant against
// two cudaMemcpy of the same bytes in the same run (median of 21 timed runs).
//
//   nvcc -O3 -arch=sm_90 -std=c++17 kernels/bench/partial_sector_study.cu -o pss && ./pss
//   ./pss --part3
//
// Part 1 isolates the cost. Every variant moves aligned 16-byte chunks, one per lane, a warp per
// row; only where the chunks fall differs:
//   aligned      rows on 128-byte boundaries (the memcpy-like case);
//   dst+16       destination rows 16 bytes off (each warp store starts mid-sector: partial 32-byte
//                sectors at both ends of every store instruction);
//   src+16       source rows 16 bytes off (loads straddle sectors; stores aligned);
//   dst+32       destination rows 32 bytes off (whole sectors, 128-byte lines straddled);
//   skip16       aligned rows whose first 16 bytes are not written (one partial sector per row,
//                and every store instruction shifted by 16 bytes).
// Part 2 copies rows 4 bytes off (k + 4, cache + 4: the launcher's phase-0 case) as well as this
// study found: chunks on the destination's 128-byte grid (only the row's first and last sectors
// are partial), narrow stores at the two edges, 1 or 2 chunks per lane in flight, with and
// without an L2 prefetch of the two edge sectors (prefetch.global.L2) at the row's start.
// Part 3 (--part3, its own table) asks whether any copy path could do better than the partial
// sectors allow: aligned rows (128-byte aligned slots with a 128-byte gap after each, so no two
// rows share a sector), copied as in part 1 but with L lanes per row, then the same copy plus
// narrow stores that leave sectors of the gaps partly written, as a row 4 bytes off leaves its
// first and last sector:
//   gap          the aligned copy alone (the reference of this part);
//   gap+tail     plus 4 bytes into the gap after the row (one partial sector per row);
//   gap+2        plus 4 bytes into the gap before the row as well (two, as a +4 row has);
//   gap+2 pf     gap+2 with both partial sectors prefetched into L2 at the row's start;
//   +4 L u2 pf   part 2's best +4 kernel on the same sizes (dense slots), for comparison.
// If gap+2 loses to gap what +4 loses to aligned, the partial sectors are the whole cost.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#define CHECK(x)                                                                       \
  do {                                                                                 \
    cudaError_t e = (x);                                                               \
    if (e != cudaSuccess) {                                                            \
      std::printf("%s: %s (line %d)\n", #x, cudaGetErrorString(e), __LINE__);          \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

// Part 1: `chunks` aligned chunks from k + tok * B + soff + 16 * skip to cache + slot * B + doff + ...
__global__ void __launch_bounds__(256) shifted(uint8_t* kc, uint8_t* vc, const int64_t* idx,
                                               const uint8_t* k, const uint8_t* v, int n, int B,
                                               int doff, int soff, int skip, int chunks) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x, tok = t / 32, lane = t % 32;
  if (tok >= n) return;
  const int64_t slot = idx[tok];
  const uint4* a0 = reinterpret_cast<const uint4*>(k + int64_t{tok} * B + soff) + skip;
  const uint4* a1 = reinterpret_cast<const uint4*>(v + int64_t{tok} * B + soff) + skip;
  uint4* b0 = reinterpret_cast<uint4*>(kc + slot * B + doff) + skip;
  uint4* b1 = reinterpret_cast<uint4*>(vc + slot * B + doff) + skip;
  for (int c = lane; c < chunks; c += 32) {
    const uint4 x = a0[c], y = a1[c];
    b0[c] = x;
    b1[c] = y;
  }
}

__device__ __forceinline__ void prefetch_l2(const void* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

// Bytes [0, len) (len < 16, even) of d from s, which share their alignment mod 16: the widest
// aligned stores.
__device__ __forceinline__ void copy_edge(uint8_t* d, const uint8_t* s, int len) {
  int o = 0;
  const uintptr_t a = reinterpret_cast<uintptr_t>(d);
  if (len - o >= 2 && ((a + o) & 2)) { *reinterpret_cast<uint16_t*>(d + o) = *reinterpret_cast<const uint16_t*>(s + o); o += 2; }
  if (len - o >= 4 && ((a + o) & 4)) { *reinterpret_cast<uint32_t*>(d + o) = *reinterpret_cast<const uint32_t*>(s + o); o += 4; }
  if (len - o >= 8) { *reinterpret_cast<uint64_t*>(d + o) = *reinterpret_cast<const uint64_t*>(s + o); o += 8; }
  if (len - o >= 4) { *reinterpret_cast<uint32_t*>(d + o) = *reinterpret_cast<const uint32_t*>(s + o); o += 4; }
  if (len - o >= 2) { *reinterpret_cast<uint16_t*>(d + o) = *reinterpret_cast<const uint16_t*>(s + o); }
}

// Part 2: rows of B bytes at any even offset, source and destination equally off a 16-byte
// boundary; a group of L lanes per token, U chunks per lane per step.
template <int L, int U, bool kPrefetch>
__global__ void __launch_bounds__(256) on_grid(uint8_t* kc, uint8_t* vc, const int64_t* idx,
                                               const uint8_t* k, const uint8_t* v, int n, int B) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x, tok = t / L, lane = t % L;
  if (tok >= n) return;
  const int64_t slot = idx[tok];
  uint8_t* d[2] = {kc + slot * B, vc + slot * B};
  const uint8_t* s[2] = {k + int64_t{tok} * B, v + int64_t{tok} * B};
  const int lead = static_cast<int>(reinterpret_cast<uintptr_t>(d[0]) & 127);  // k and v alike here
  const int end = lead + B, total = (end + 15) >> 4;
  if (kPrefetch) {
    for (int q = 0; q < 2; ++q) {
      if (lane == 0 && (lead & 31)) prefetch_l2(d[q]);
      if (lane == L - 1 && (end & 31)) prefetch_l2(d[q] + B - 1);
    }
  }
  for (int c = lane; c < total; c += L * U) {
    uint4 x[2][U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int o = (c + u * L) * 16;
      if (o >= lead && o + 16 <= end)
        for (int q = 0; q < 2; ++q) x[q][u] = *reinterpret_cast<const uint4*>(s[q] - lead + o);
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int o = (c + u * L) * 16;
      for (int q = 0; q < 2; ++q) {
        if (o >= lead && o + 16 <= end) {
          *reinterpret_cast<uint4*>(d[q] - lead + o) = x[q][u];
        } else if (o < end) {
          const int lo = o > lead ? o : lead, hi = o + 16 < end ? o + 16 : end;
          if (lo < hi) copy_edge(d[q] - lead + lo, s[q] - lead + lo, hi - lo);
        }
      }
    }
  }
}

// Part 3: aligned rows at slot stride B + 128, one L-lane group per row, two chunks per lane in
// flight; kTail / kHead add a 4-byte store into the gap after / before the row (partial sectors).
template <int L, bool kTail, bool kHead, bool kPrefetch>
__global__ void __launch_bounds__(256) gapped(uint8_t* kc, uint8_t* vc, const int64_t* idx,
                                              const uint8_t* k, const uint8_t* v, int n, int B) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x, tok = t / L, lane = t % L;
  if (tok >= n) return;
  const int64_t slot = idx[tok];
  const int64_t stride = B + 128;
  uint8_t* d[2] = {kc + 128 + slot * stride, vc + 128 + slot * stride};
  const uint4* s[2] = {reinterpret_cast<const uint4*>(k + int64_t{tok} * B),
                       reinterpret_cast<const uint4*>(v + int64_t{tok} * B)};
  if (kPrefetch && lane == 0)
    for (int q = 0; q < 2; ++q) {
      if (kHead) prefetch_l2(d[q] - 4);
      if (kTail) prefetch_l2(d[q] + B);
    }
  const int chunks = B / 16;
  for (int c = lane; c < chunks; c += 2 * L) {
    uint4 x[2][2];
#pragma unroll
    for (int u = 0; u < 2; ++u)
      if (c + u * L < chunks)
        for (int q = 0; q < 2; ++q) x[q][u] = s[q][c + u * L];
#pragma unroll
    for (int u = 0; u < 2; ++u)
      if (c + u * L < chunks)
        for (int q = 0; q < 2; ++q) reinterpret_cast<uint4*>(d[q])[c + u * L] = x[q][u];
  }
  for (int q = 0; q < 2; ++q) {
    if (kHead && lane == 0) *reinterpret_cast<uint32_t*>(d[q] - 4) = static_cast<uint32_t>(tok);
    if (kTail && lane == L - 1) *reinterpret_cast<uint32_t*>(d[q] + B) = static_cast<uint32_t>(tok);
  }
}

// One (n, row bytes) case of a table: k and v of n rows, caches of `cache_bytes`, the slots a
// random permutation of n, a median timer (21 runs) and the memcpy baseline.
struct study_case {
  int n, B;
  size_t bytes;
  uint8_t *k = nullptr, *v = nullptr, *kc = nullptr, *vc = nullptr;
  int64_t* idx = nullptr;
  std::vector<uint8_t> host;
  std::vector<int64_t> slots;
  cudaEvent_t e0, e1;
  float memcpy_us = 0;

  study_case(int n_, int B_, size_t cache_bytes) : n(n_), B(B_), bytes(size_t(n_) * B_ + 256) {
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaMalloc(&k, bytes));
    CHECK(cudaMalloc(&v, bytes));
    CHECK(cudaMalloc(&kc, cache_bytes));
    CHECK(cudaMalloc(&vc, cache_bytes));
    CHECK(cudaMalloc(&idx, n * sizeof(int64_t)));
    host.resize(bytes);
    for (size_t i = 0; i < bytes; ++i) host[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
    CHECK(cudaMemcpy(k, host.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(v, host.data(), bytes, cudaMemcpyHostToDevice));
    slots.resize(n);
    for (int i = 0; i < n; ++i) slots[i] = i;
    std::shuffle(slots.begin(), slots.end(), std::mt19937(1));
    CHECK(cudaMemcpy(idx, slots.data(), n * sizeof(int64_t), cudaMemcpyHostToDevice));
    memcpy_us = median_us([&] {
      CHECK(cudaMemcpyAsync(kc, k, static_cast<size_t>(n) * B, cudaMemcpyDeviceToDevice));
      CHECK(cudaMemcpyAsync(vc, v, static_cast<size_t>(n) * B, cudaMemcpyDeviceToDevice));
    });
  }
  ~study_case() {
    cudaFree(k);
    cudaFree(v);
    cudaFree(kc);
    cudaFree(vc);
    cudaFree(idx);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
  }
  template <class Launch>
  float median_us(Launch launch) {
    std::vector<float> times;
    for (int r = 0; r < 21; ++r) {
      CHECK(cudaEventRecord(e0));
      launch();
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      times.push_back(ms * 1000.f);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
  }
};

int part3();

int main(int argc, char** argv) {
  if (argc > 1 && !std::strcmp(argv[1], "--part3")) return part3();
  const int ns[] = {16384, 131072, 524288};
  const int row_bytes[] = {256, 1024, 2048, 8192};
  std::printf("| n | row B | memcpy us | aligned | dst+16 | src+16 | dst+32 | skip16 | +4 grid u1 | +4 grid u2 | +4 grid u2 prefetch | +4 grid L16 u2 prefetch |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int n : ns)
    for (int B : row_bytes) {
      if (static_cast<size_t>(n) * B > (size_t{1} << 31)) continue;
      study_case c(n, B, static_cast<size_t>(n) * B + 256);
      uint8_t *k = c.k, *v = c.v, *kc = c.kc, *vc = c.vc;
      const int64_t* idx = c.idx;
      const size_t bytes = c.bytes;
      const float memcpy_us = c.memcpy_us;
      auto median_us = [&](auto launch) { return c.median_us(launch); };
      std::printf("| %d | %d | %.1f |", n, B, memcpy_us);
      const int blocks32 = static_cast<int>((int64_t{n} * 32 + 255) / 256);
      struct { int doff, soff, skip, fewer; } part1[] = {{0, 0, 0, 0}, {16, 0, 0, 0}, {0, 16, 0, 0}, {32, 0, 0, 0}, {0, 0, 1, 1}};
      for (const auto& p : part1) {
        const float us = median_us([&] {
          shifted<<<blocks32, 256>>>(kc, vc, idx, k, v, n, B, p.doff, p.soff, p.skip, B / 16 - p.fewer);
        });
        std::printf(" %.3f |", memcpy_us / us);
      }
      auto part2 = [&](auto kernel, int lanes) {
        const int blocks = static_cast<int>((int64_t{n} * lanes + 255) / 256);
        const float us = median_us([&] { kernel<<<blocks, 256>>>(kc + 4, vc + 4, idx, k + 4, v + 4, n, B); });
        // The copy is checked once: every row where its slot says, nothing else touched.
        CHECK(cudaMemset(kc, 0, bytes));
        kernel<<<blocks, 256>>>(kc + 4, vc + 4, idx, k + 4, v + 4, n, B);
        std::vector<uint8_t> got(bytes), want(bytes, 0);
        CHECK(cudaMemcpy(got.data(), kc, bytes, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) std::memcpy(&want[c.slots[i] * B + 4], &c.host[static_cast<size_t>(i) * B + 4], B);
        std::printf(got == want ? " %.3f |" : " %.3f (WRONG) |", memcpy_us / us);
      };
      part2(on_grid<32, 1, false>, 32);
      part2(on_grid<32, 2, false>, 32);
      part2(on_grid<32, 2, true>, 32);
      part2(on_grid<16, 2, true>, 16);
      std::printf("\n");
    }
  return 0;
}

int part3() {
  const int ns[] = {16384, 131072, 524288};
  const int row_bytes[] = {256, 1024, 2048, 8192};
  std::printf("| n | row B | lanes | memcpy us | gap | gap+tail | gap+2 | gap+2 pf | +4 L u2 pf | gap+2 / gap | +4 / gap |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int n : ns)
    for (int B : row_bytes) {
      if (static_cast<size_t>(n) * B > (size_t{1} << 31)) continue;
      study_case c(n, B, static_cast<size_t>(n) * (B + 128) + 256);
      uint8_t *k = c.k, *v = c.v, *kc = c.kc, *vc = c.vc;
      const int64_t* idx = c.idx;
      const float memcpy_us = c.memcpy_us;
      auto median_us = [&](auto launch) { return c.median_us(launch); };
      const int L = B >= 512 ? 32 : 16;
      const int blocks = static_cast<int>((int64_t{n} * L + 255) / 256);
      std::printf("| %d | %d | %d | %.1f |", n, B, L, memcpy_us);
      float r[5];
      int at = 0;
      auto time = [&](auto k16, auto k32, bool dense) {
        const float us = median_us([&] {
          if (dense) {
            (L == 16 ? k16 : k32)<<<blocks, 256>>>(kc + 4, vc + 4, idx, k + 4, v + 4, n, B);
          } else {
            (L == 16 ? k16 : k32)<<<blocks, 256>>>(kc, vc, idx, k, v, n, B);
          }
        });
        CHECK(cudaGetLastError());
        r[at++] = memcpy_us / us;
        std::printf(" %.3f |", memcpy_us / us);
      };
      time(gapped<16, false, false, false>, gapped<32, false, false, false>, false);
      time(gapped<16, true, false, false>, gapped<32, true, false, false>, false);
      time(gapped<16, true, true, false>, gapped<32, true, true, false>, false);
      time(gapped<16, true, true, true>, gapped<32, true, true, true>, false);
      time(on_grid<16, 2, true>, on_grid<32, 2, true>, true);
      std::printf(" %.3f | %.3f |\n", r[2] / r[0], r[4] / r[0]);
    }
  return 0;
}
