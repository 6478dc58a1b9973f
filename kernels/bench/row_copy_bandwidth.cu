// GPU bandwidth of store_kv and the embedding, through the launchers (what ships) and through
// explicit kernel variants (tuning), next to a device-to-device cudaMemcpyAsync of the same bytes
// (spec section 6: >= 95% of it for n >= 16K rows). Needs a GPU; built by kernels/bench/run_gpu.sh:
//   nvcc -std=c++17 -O3 -arch=sm_90 -I kernels kernels/bench/row_copy_bandwidth.cu
//        kernels/launchers.cu -o row_copy_bandwidth
//   ./row_copy_bandwidth [--explore] [--quick] [--torch torch.csv] [--csv out.csv]
//   ./row_copy_bandwidth --quick --only embedding --from 16384   (one kernel's launcher rows)
//   ./row_copy_bandwidth --profile   (one run of each kernel under study, for Nsight Compute)
//
// Bytes (see RESULTS.md): store_kv moves 4*n*row payload bytes (read k and v, write two cache
// rows) plus n index bytes; the memcpy baseline is two cudaMemcpyAsync of n*row bytes, 4*n*row
// bytes read + written. The embedding (full vocabulary) moves 2*n*row (read a weight row, write an
// output row), its baseline one cudaMemcpyAsync of n*row; the sharded embedding reads only the
// rows of ids inside the shard: n*row written + valid*row read, against the same memcpy of n*row
// (ratio of bandwidths). Index bytes are never credited to the kernel: ratio = memcpy bandwidth
// over the kernel's payload bandwidth, which for store_kv and the full embedding is the ratio of
// the two times.
// Timing: CUDA events on one stream, warm-up first, median of many runs; when one run takes under
// 200 us, a CUDA graph of R back-to-back runs (about 2 ms) is replayed and the median replay / R
// reported, for the kernels and the memcpy alike. Every kernel run is verified afterwards on the
// GPU (whole cache / output compared with the inputs after poisoning the destination).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "embedding.cuh"
#include "launchers.h"
#include "store_kv.cuh"

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

namespace {

cudaStream_t g_stream;
int g_sms = 0;
bool g_quick = false;
const char* g_only = nullptr;  // --only store_kv|embedding: the launcher table of one kernel
int64_t g_from = 0;            // --from N: the launcher table from N rows
int g_failures = 0;

// ---------------------------------------------------------------- timing
using Op = std::function<void(cudaStream_t)>;

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median time of one op, in microseconds (graph replay for short ops).
double time_us(const Op& op) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < 2; ++i) op(g_stream);  // warm-up
  CK(cudaStreamSynchronize(g_stream));
  CK(cudaEventRecord(a, g_stream));
  for (int i = 0; i < 3; ++i) op(g_stream);
  CK(cudaEventRecord(b, g_stream));
  CK(cudaEventSynchronize(b));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, a, b));
  const double est_us = 1000.0 * ms / 3;
  std::vector<double> t;
  if (est_us < 200) {
    const int reps = static_cast<int>(std::min(2000.0, std::max(2.0, 2000.0 / std::max(est_us, 1.0))));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CK(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < reps; ++i) op(g_stream);
    CK(cudaStreamEndCapture(g_stream, &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    CK(cudaGraphLaunch(exec, g_stream));  // warm-up
    const int runs = g_quick ? 7 : 15;
    for (int i = 0; i < runs; ++i) {
      CK(cudaEventRecord(a, g_stream));
      CK(cudaGraphLaunch(exec, g_stream));
      CK(cudaEventRecord(b, g_stream));
      CK(cudaEventSynchronize(b));
      CK(cudaEventElapsedTime(&ms, a, b));
      t.push_back(1000.0 * ms / reps);
    }
    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
  } else {
    const int runs = static_cast<int>(std::max(5.0, std::min(g_quick ? 9.0 : 25.0, 300000.0 / est_us)));
    for (int i = 0; i < runs; ++i) {
      CK(cudaEventRecord(a, g_stream));
      op(g_stream);
      CK(cudaEventRecord(b, g_stream));
      CK(cudaEventSynchronize(b));
      CK(cudaEventElapsedTime(&ms, a, b));
      t.push_back(1000.0 * ms);
    }
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return median_of(t);
}

// ---------------------------------------------------------------- data
uint64_t lcg(uint64_t& s) { return (s = s * 6364136223846793005ull + 1442695040888963407ull) >> 17; }

__global__ void fill_kernel(uint32_t* p, int64_t words, uint32_t seed) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    uint32_t x = static_cast<uint32_t>(i) * 2654435761u ^ seed ^ static_cast<uint32_t>(i >> 32);
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    p[i] = x | 1u;  // never zero
  }
}

void fill(void* p, int64_t bytes, uint32_t seed) {
  fill_kernel<<<4 * g_sms, 256, 0, g_stream>>>(static_cast<uint32_t*>(p), bytes / 4, seed);
  CK(cudaGetLastError());
}

// Counts bytes of dst rows that differ from their expected source (store_kv: cache row slot[i]
// vs input row i; embedding: out row t vs weight row or zeros).
__global__ void verify_store(const uint8_t* kc, const uint8_t* vc, const uint8_t* k,
                             const uint8_t* v, const int32_t* idx, int64_t n, int64_t row,
                             unsigned long long* bad) {
  for (int64_t i = blockIdx.x; i < n; i += gridDim.x) {
    const int64_t s = idx[i];
    unsigned long long c = 0;
    for (int64_t j = threadIdx.x; j < row; j += blockDim.x)
      c += (kc[s * row + j] != k[i * row + j]) + (vc[s * row + j] != v[i * row + j]);
    if (c) atomicAdd(bad, c);
  }
}
__global__ void verify_embedding(const uint8_t* out, const uint8_t* w, const int32_t* ids,
                                 int64_t n, int64_t row, int64_t start, int64_t length,
                                 unsigned long long* bad) {
  for (int64_t t = blockIdx.x; t < n; t += gridDim.x) {
    const int64_t id = ids[t];
    const bool valid = id >= start && id - start < length;
    unsigned long long c = 0;
    for (int64_t j = threadIdx.x; j < row; j += blockDim.x)
      c += out[t * row + j] != (valid ? w[(id - start) * row + j] : 0);
    if (c) atomicAdd(bad, c);
  }
}

struct Buffers {
  int64_t max_n = 0, max_row = 0, vocab = 151936;
  uint8_t *k = nullptr, *v = nullptr, *kc = nullptr, *vc = nullptr, *out = nullptr, *w = nullptr;
  int32_t *idx = nullptr, *ids = nullptr;
  int32_t *idx_sorted = nullptr, *idx_ident = nullptr;  // index-pattern studies (--explore)
  int64_t* idx64 = nullptr;
  unsigned long long* bad = nullptr;
  static int64_t pool(int64_t n) { return n + n / 8; }
  void alloc(int64_t n, int64_t row) {
    max_n = n;
    max_row = row;
    const int64_t slack = 64;  // room for the misaligned (uint32 / uint16 path) views
    CK(cudaMalloc(&k, n * row + slack));
    CK(cudaMalloc(&v, n * row + slack));
    CK(cudaMalloc(&kc, pool(n) * row + slack));
    CK(cudaMalloc(&vc, pool(n) * row + slack));
    CK(cudaMalloc(&out, n * row + slack));
    CK(cudaMalloc(&w, vocab * row + slack));
    CK(cudaMalloc(&idx, pool(n) * sizeof(int32_t)));
    CK(cudaMalloc(&idx64, pool(n) * sizeof(int64_t)));
    CK(cudaMalloc(&idx_sorted, pool(n) * sizeof(int32_t)));
    CK(cudaMalloc(&idx_ident, pool(n) * sizeof(int32_t)));
    CK(cudaMalloc(&ids, n * sizeof(int32_t)));
    CK(cudaMalloc(&bad, sizeof(unsigned long long)));
    fill(k, n * row + slack, 1);
    fill(v, n * row + slack, 2);
    fill(w, vocab * row + slack, 3);
    CK(cudaStreamSynchronize(g_stream));
  }
  // Distinct random cache slots in [0, pool(n)) for n tokens; ids uniform in [0, vocab).
  void set_indices(int64_t n) {
    std::vector<int32_t> h(static_cast<size_t>(pool(n)));
    std::iota(h.begin(), h.end(), 0);
    uint64_t s = 42 + static_cast<uint64_t>(n);
    for (int64_t i = pool(n) - 1; i > 0; --i) std::swap(h[i], h[lcg(s) % (i + 1)]);
    std::vector<int64_t> h64(h.begin(), h.end());
    CK(cudaMemcpy(idx, h.data(), n * sizeof(int32_t), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(idx64, h64.data(), n * sizeof(int64_t), cudaMemcpyHostToDevice));
    std::vector<int32_t> sorted(h.begin(), h.begin() + n);
    std::sort(sorted.begin(), sorted.end());
    CK(cudaMemcpy(idx_sorted, sorted.data(), n * sizeof(int32_t), cudaMemcpyHostToDevice));
    std::iota(sorted.begin(), sorted.end(), 0);
    CK(cudaMemcpy(idx_ident, sorted.data(), n * sizeof(int32_t), cudaMemcpyHostToDevice));
    std::vector<int32_t> e(static_cast<size_t>(n));
    for (auto& x : e) x = static_cast<int32_t>(lcg(s) % vocab);
    CK(cudaMemcpy(ids, e.data(), n * sizeof(int32_t), cudaMemcpyHostToDevice));
  }
  unsigned long long take_bad() {
    unsigned long long h = 0;
    CK(cudaStreamSynchronize(g_stream));
    CK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
    CK(cudaMemset(bad, 0, sizeof h));
    return h;
  }
};
Buffers B;

// ---------------------------------------------------------------- variants
// An explicit kernel configuration (the launcher's knobs), for tuning.
struct Config {
  std::string name;
  int unroll = 4;
  bool stream = false;
  int threads = 256;
  int splits = 1;     // 0: upstream's rule by row bytes (4 for 2 KiB multiples, 2 for 1 KiB)
  int waves = 0;      // 0: one group per item (exact grid); else waves * resident blocks
  int lanes = 0;      // 0: smallest power of two covering the segment with `unroll` units/lane
  int pattern = 0;    // store_kv cache slots: 0 random distinct, 1 the same sorted, 2 slot = token
};

int upstream_splits(int64_t row_bytes) {
  return row_bytes % 2048 == 0 ? 4 : row_bytes % 1024 == 0 ? 2 : 1;
}
int log2i(int64_t x) {
  int s = 0;
  while ((int64_t{1} << s) < x) ++s;
  return s;
}

struct Grid {
  int split_shift, lane_shift;
  unsigned blocks;
  int threads;
};

template <class Kernel>
Grid plan_grid(const Config& c, Kernel kernel, int64_t n, int64_t row_units, int64_t row_bytes) {
  const int splits = c.splits == 0 ? upstream_splits(row_bytes) : c.splits;
  const int64_t seg = (row_units + splits - 1) / splits;
  int lanes = c.lanes;
  if (lanes == 0) {
    lanes = 1;
    while (lanes < 32 && lanes * int64_t{c.unroll} < seg) lanes *= 2;
  }
  const int64_t groups_per_block = c.threads / lanes;
  int64_t blocks = (n * splits + groups_per_block - 1) / groups_per_block;
  if (c.waves > 0) {
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, c.threads, 0));
    blocks = std::min<int64_t>(blocks, int64_t{c.waves} * per_sm * g_sms);
  }
  return Grid{log2i(splits), log2i(lanes), static_cast<unsigned>(blocks), c.threads};
}

// Units the lane groups are sized by: V, or for V = uint8_t (the chunked kernels of the uint32 /
// uint16 paths) 16-byte chunks, rounded up, as the launcher does.
template <typename V>
int64_t plan_units(int64_t row_bytes) {
  return sizeof(V) == 1 ? (row_bytes + 15) / 16 : row_bytes / static_cast<int64_t>(sizeof(V));
}

template <typename V, int U, bool S>
void store_variant(const Config& c, const kernels::StoreKvArgs& a, cudaStream_t st) {
  constexpr int64_t u = sizeof(V);
  auto kern = kernels::store_kv_kernel<V, int32_t, U, S>;
  const Grid g = plan_grid(c, kern, a.n, plan_units<V>(a.row_bytes), a.row_bytes);
  kern<<<g.blocks, g.threads, 0, st>>>(
      static_cast<V*>(a.k_cache), static_cast<V*>(a.v_cache), static_cast<const int32_t*>(a.indices),
      static_cast<const V*>(a.k), static_cast<const V*>(a.v), a.n, a.row_bytes / u, a.cache_rows,
      a.cache_stride_bytes / u, a.input_stride_bytes / u, g.split_shift, g.lane_shift);
}

template <typename V, int U, bool S>
void embedding_variant(const Config& c, const kernels::EmbeddingArgs& a, cudaStream_t st) {
  constexpr int64_t u = sizeof(V);
  auto kern = kernels::embedding_kernel<V, int32_t, U, S>;
  const Grid g = plan_grid(c, kern, a.n, plan_units<V>(a.row_bytes), a.row_bytes);
  kern<<<g.blocks, g.threads, 0, st>>>(
      static_cast<V*>(a.out), static_cast<const V*>(a.weight), static_cast<const int32_t*>(a.ids),
      a.n, a.row_bytes / u, a.start, a.length, a.out_stride_bytes / u, a.weight_stride_bytes / u,
      g.split_shift, g.lane_shift);
}

// Dispatch on (unit bytes, unroll, stream) for the unrolls the tuning tries.
template <typename V>
void store_dispatch(const Config& c, const kernels::StoreKvArgs& a, cudaStream_t st) {
  switch (c.unroll * 2 + (c.stream ? 1 : 0)) {
    case 2: store_variant<V, 1, false>(c, a, st); break;
    case 3: store_variant<V, 1, true>(c, a, st); break;
    case 4: store_variant<V, 2, false>(c, a, st); break;
    case 8: store_variant<V, 4, false>(c, a, st); break;
    case 9: store_variant<V, 4, true>(c, a, st); break;
    case 16: store_variant<V, 8, false>(c, a, st); break;
    case 17: store_variant<V, 8, true>(c, a, st); break;
    case 32: store_variant<V, 16, false>(c, a, st); break;
    default: std::printf("no store variant unroll=%d stream=%d\n", c.unroll, c.stream); std::exit(3);
  }
}
template <typename V>
void embedding_dispatch(const Config& c, const kernels::EmbeddingArgs& a, cudaStream_t st) {
  switch (c.unroll * 2 + (c.stream ? 1 : 0)) {
    case 2: embedding_variant<V, 1, false>(c, a, st); break;
    case 3: embedding_variant<V, 1, true>(c, a, st); break;
    case 4: embedding_variant<V, 2, false>(c, a, st); break;
    case 8: embedding_variant<V, 4, false>(c, a, st); break;
    case 9: embedding_variant<V, 4, true>(c, a, st); break;
    case 16: embedding_variant<V, 8, false>(c, a, st); break;
    case 17: embedding_variant<V, 8, true>(c, a, st); break;
    case 32: embedding_variant<V, 16, false>(c, a, st); break;
    default: std::printf("no embedding variant unroll=%d stream=%d\n", c.unroll, c.stream); std::exit(3);
  }
}

// The chunked kernels at the unrolls --explore tries (few: each is a large kernel): uint8_t
// when every row's source and destination are equally far off a 16-byte boundary (the strides
// here are multiples of 16), RealignedByte otherwise, as the launcher chooses.
template <typename B>
void store_chunked_unroll(const Config& c, const kernels::StoreKvArgs& a, cudaStream_t st) {
  switch (c.unroll) {
    case 1: store_variant<B, 1, false>(c, a, st); break;
    case 2: store_variant<B, 2, false>(c, a, st); break;
    case 4: store_variant<B, 4, false>(c, a, st); break;
    default: std::printf("no chunked store variant unroll=%d\n", c.unroll); std::exit(3);
  }
}
void store_chunked_dispatch(const Config& c, const kernels::StoreKvArgs& a, cudaStream_t st) {
  const auto off = [](const void* p, const void* q) {
    return (reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(q)) % 16;
  };
  if (off(a.k, a.k_cache) != 0 || off(a.v, a.v_cache) != 0) {
    store_chunked_unroll<kernels::RealignedByte>(c, a, st);
  } else {
    store_chunked_unroll<uint8_t>(c, a, st);
  }
}
template <typename B>
void embedding_chunked_unroll(const Config& c, const kernels::EmbeddingArgs& a, cudaStream_t st) {
  switch (c.unroll) {
    case 2: embedding_variant<B, 2, false>(c, a, st); break;
    case 4: embedding_variant<B, 4, false>(c, a, st); break;
    case 8: embedding_variant<B, 8, false>(c, a, st); break;
    default: std::printf("no chunked embedding variant unroll=%d\n", c.unroll); std::exit(3);
  }
}
void embedding_chunked_dispatch(const Config& c, const kernels::EmbeddingArgs& a, cudaStream_t st) {
  if ((reinterpret_cast<uintptr_t>(a.weight) - reinterpret_cast<uintptr_t>(a.out)) % 16 != 0) {
    embedding_chunked_unroll<kernels::RealignedByte>(c, a, st);
  } else {
    embedding_chunked_unroll<uint8_t>(c, a, st);
  }
}

// ---------------------------------------------------------------- measurements
struct TorchRow {
  double index_put_us = 0, index_copy_us = 0, index_select_us = 0;
};
std::map<std::pair<int64_t, int64_t>, TorchRow> g_torch;
FILE* g_csv = nullptr;

std::string fmt_n(int64_t n) {
  char b[32];
  if (n >= 1024 && n % 1024 == 0) {
    std::snprintf(b, sizeof b, "%lldK", static_cast<long long>(n / 1024));
  } else {
    std::snprintf(b, sizeof b, "%lld", static_cast<long long>(n));
  }
  return b;
}

void print_header() {
  std::printf("| op | variant | n | row B | plan | kernel us | kernel TB/s | memcpy us | memcpy TB/s |"
              " ratio | torch index_put TB/s | torch index_copy_ TB/s | x index_put |\n");
  std::printf("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
}

void report(const char* op, const std::string& variant, int64_t n, int64_t row,
            const std::string& plan, double t_us, double payload, double mc_us, double mc_bytes,
            unsigned long long bad, bool torch_cols) {
  const double kbw = payload / t_us / 1e6, mbw = mc_bytes / mc_us / 1e6;
  char tp[64] = "", tc[64] = "", tx[32] = "";
  auto it = g_torch.find({n, row});
  if (torch_cols && it != g_torch.end()) {
    const TorchRow& r = it->second;
    const double put = r.index_put_us > 0 ? payload / r.index_put_us / 1e6 : 0;
    if (std::strcmp(op, "store_kv") == 0) {
      if (r.index_put_us > 0) std::snprintf(tp, sizeof tp, "%.3f (%.1f us)", put, r.index_put_us);
      if (r.index_copy_us > 0)
        std::snprintf(tc, sizeof tc, "%.3f (%.1f us)", payload / r.index_copy_us / 1e6, r.index_copy_us);
      if (put > 0) std::snprintf(tx, sizeof tx, "%.1fx", kbw / put);
    } else if (r.index_select_us > 0) {
      const double sel = payload / r.index_select_us / 1e6;
      std::snprintf(tc, sizeof tc, "sel %.3f (%.1f us)", sel, r.index_select_us);
      std::snprintf(tx, sizeof tx, "%.1fx sel", kbw / sel);
    }
  }
  std::printf("| %s | %s | %s | %lld | %s | %.2f | %.3f | %.2f | %.3f | %.3f | %s | %s | %s |%s\n",
              op, variant.c_str(), fmt_n(n).c_str(), static_cast<long long>(row), plan.c_str(),
              t_us, kbw, mc_us, mbw, kbw / mbw, tp, tc, tx, bad ? " WRONG OUTPUT" : "");
  std::fflush(stdout);
  if (g_csv)
    std::fprintf(g_csv, "%s,%s,%lld,%lld,%s,%.4f,%.5f,%.4f,%.5f,%.5f,%llu\n", op, variant.c_str(),
                 static_cast<long long>(n), static_cast<long long>(row), plan.c_str(), t_us, kbw,
                 mc_us, mbw, kbw / mbw, bad);
  if (bad) ++g_failures;
}

std::string plan_str(const kernels::LaunchPlan& p) {
  char b[96];
  std::snprintf(b, sizeof b, "%s%s s%d l%d u%d b%lld", kernels::copy_path_name(p.path),
                p.realign ? " realign" : "", p.num_splits, p.lanes, p.unroll,
                static_cast<long long>(p.blocks));
  return b;
}
std::string config_str(const Config& c) {
  char b[96];
  std::snprintf(b, sizeof b, "u%d s%s t%d %s%s", c.unroll,
                c.splits == 0 ? "up" : std::to_string(c.splits).c_str(), c.threads,
                c.waves ? ("w" + std::to_string(c.waves)).c_str() : "exact",
                c.stream ? " cs" : "");
  return b;
}

// memcpy baselines, cached per shape.
std::map<std::pair<int64_t, int64_t>, double> g_mc2, g_mc1;
double memcpy2_us(int64_t n, int64_t row) {
  auto& t = g_mc2[{n, row}];
  if (t == 0)
    t = time_us([=](cudaStream_t st) {
      CK(cudaMemcpyAsync(B.kc, B.k, n * row, cudaMemcpyDeviceToDevice, st));
      CK(cudaMemcpyAsync(B.vc, B.v, n * row, cudaMemcpyDeviceToDevice, st));
    });
  return t;
}
double memcpy1_us(int64_t n, int64_t row) {
  auto& t = g_mc1[{n, row}];
  if (t == 0)
    t = time_us([=](cudaStream_t st) {
      CK(cudaMemcpyAsync(B.out, B.k, n * row, cudaMemcpyDeviceToDevice, st));
    });
  return t;
}

// store_kv args for a shape; `offset` bytes added to k and v, and `cache_offset` (-1: the same)
// to k_cache and v_cache, select the path (all 0: uint4; 4: uint32, 2: uint16; different
// offsets: rows whose source and destination are off a 16-byte boundary by different amounts,
// which the chunked kernels realign in registers).
kernels::StoreKvArgs store_args(int64_t n, int64_t row, int offset, bool int64, int pattern = 0,
                                int cache_offset = -1) {
  if (cache_offset < 0) cache_offset = offset;
  kernels::StoreKvArgs a;
  a.k_cache = B.kc + cache_offset;
  a.v_cache = B.vc + cache_offset;
  a.indices = int64 ? static_cast<const void*>(B.idx64)
                    : static_cast<const void*>(pattern == 1 ? B.idx_sorted
                                               : pattern == 2 ? B.idx_ident : B.idx);
  a.index_type = int64 ? kernels::IndexType::kInt64 : kernels::IndexType::kInt32;
  a.k = B.k + offset;
  a.v = B.v + offset;
  a.n = n;
  a.row_bytes = row;
  a.element_size = 2;
  a.cache_rows = Buffers::pool(n);
  a.cache_stride_bytes = row;
  a.input_stride_bytes = row;
  return a;
}

void run_store(const char* variant, int64_t n, int64_t row, int offset, const Op& op,
               const std::string& plan, bool torch_cols, const int32_t* idx = nullptr,
               int cache_offset = -1) {
  if (cache_offset < 0) cache_offset = offset;
  CK(cudaMemsetAsync(B.kc, 0, Buffers::pool(n) * row + 64, g_stream));
  CK(cudaMemsetAsync(B.vc, 0, Buffers::pool(n) * row + 64, g_stream));
  op(g_stream);
  verify_store<<<4 * g_sms, 256, 0, g_stream>>>(B.kc + cache_offset, B.vc + cache_offset,
                                                B.k + offset, B.v + offset, idx ? idx : B.idx, n,
                                                row, B.bad);
  CK(cudaGetLastError());
  const unsigned long long bad = B.take_bad();
  const double t = time_us(op);
  report("store_kv", variant, n, row, plan, t, 4.0 * n * row, memcpy2_us(n, row), 4.0 * n * row,
         bad, torch_cols);
}

// `pattern`: the cache slots (0 random distinct, 1 the same sorted, 2 slot = token).
void store_launcher(const char* variant, int64_t n, int64_t row, int offset, bool torch_cols,
                    int cache_offset = -1, int pattern = 0) {
  const kernels::StoreKvArgs a = store_args(n, row, offset, false, pattern, cache_offset);
  kernels::LaunchPlan p;
  if (kernels::plan_store_kv(a, &p) != kernels::Status::kOk) std::exit(2);
  run_store(variant, n, row, offset, [a](cudaStream_t st) {
    if (kernels::launch_store_kv(a, st) != kernels::Status::kOk) std::exit(2);
  }, plan_str(p), torch_cols, static_cast<const int32_t*>(a.indices), cache_offset);
}

// An explicit chunked (uint8_t) store_kv kernel, inputs shifted by `offset`, caches by
// `cache_offset` bytes.
void store_chunked_config(const Config& c, int64_t n, int64_t row, int offset, int cache_offset) {
  const kernels::StoreKvArgs a = store_args(n, row, offset, false, 0, cache_offset);
  const std::string name = c.name + " k+" + std::to_string(offset) + " cache+" +
                           std::to_string(cache_offset);
  run_store(name.c_str(), n, row, offset, [a, c](cudaStream_t st) {
    store_chunked_dispatch(c, a, st);
  }, config_str(c), false, nullptr, cache_offset);
}

void store_config(const Config& c, int64_t n, int64_t row, int offset) {
  const kernels::StoreKvArgs a = store_args(n, row, offset, false, c.pattern);
  const std::string name = c.name + " " + (offset == 0 ? "uint4" : offset == 4 ? "uint32" : "uint16") +
                           (c.pattern == 1 ? " sorted-slots" : c.pattern == 2 ? " slot=token" : "");
  run_store(name.c_str(), n, row, offset, [a, c, offset](cudaStream_t st) {
    if (offset == 0) store_dispatch<uint4>(c, a, st);
    else if (offset == 4) store_dispatch<uint32_t>(c, a, st);
    else store_dispatch<uint16_t>(c, a, st);
  }, config_str(c), false, static_cast<const int32_t*>(a.indices));
}

// Embedding: full vocabulary (start 0, length vocab) or a shard (the middle half of the ids).
kernels::EmbeddingArgs embedding_args(int64_t n, int64_t row, bool shard) {
  kernels::EmbeddingArgs a;
  a.out = B.out;
  a.ids = B.ids;
  a.n = n;
  a.row_bytes = row;
  a.element_size = 2;
  a.start = shard ? B.vocab / 4 : 0;
  a.length = shard ? B.vocab / 2 : B.vocab;
  a.weight = B.w;
  a.out_stride_bytes = row;
  a.weight_stride_bytes = row;
  return a;
}

void run_embedding(const std::string& variant, int64_t n, int64_t row, bool shard, const Op& op,
                   const std::string& plan, bool torch_cols, int offset = 0, int out_offset = -1) {
  if (out_offset < 0) out_offset = offset;
  const kernels::EmbeddingArgs a = embedding_args(n, row, shard);
  CK(cudaMemsetAsync(B.out, 0xA5, n * row + 64, g_stream));
  op(g_stream);
  verify_embedding<<<4 * g_sms, 256, 0, g_stream>>>(B.out + out_offset, B.w + offset, B.ids, n,
                                                    row, a.start, a.length, B.bad);
  CK(cudaGetLastError());
  const unsigned long long bad = B.take_bad();
  double payload = 2.0 * n * row;
  if (shard) {  // rows read: only ids inside the shard
    std::vector<int32_t> h(static_cast<size_t>(n));
    CK(cudaMemcpy(h.data(), B.ids, n * sizeof(int32_t), cudaMemcpyDeviceToHost));
    int64_t valid = 0;
    for (int32_t id : h) valid += id >= a.start && id - a.start < a.length;
    payload = static_cast<double>(n + valid) * row;
  }
  const double t = time_us(op);
  report(shard ? "embedding shard" : "embedding", variant, n, row, plan, t, payload,
         memcpy1_us(n, row), 2.0 * n * row, bad, torch_cols && !shard);
}

// `offset` bytes added to weight and `out_offset` (-1: the same) to out: 4: the uint32 path,
// 2: the uint16 path; different offsets: realigned rows.
void embedding_launcher(const char* variant, int64_t n, int64_t row, bool shard, int offset = 0,
                        int out_offset = -1) {
  if (out_offset < 0) out_offset = offset;
  kernels::EmbeddingArgs a = embedding_args(n, row, shard);
  a.out = B.out + out_offset;
  a.weight = B.w + offset;
  kernels::LaunchPlan p;
  if (kernels::plan_embedding(a, &p) != kernels::Status::kOk) std::exit(2);
  run_embedding(variant, n, row, shard, [a](cudaStream_t st) {
    if (kernels::launch_embedding(a, st) != kernels::Status::kOk) std::exit(2);
  }, plan_str(p), offset == 0 && out_offset == 0, offset, out_offset);
}

void embedding_chunked_config(const Config& c, int64_t n, int64_t row, int offset, int out_offset) {
  kernels::EmbeddingArgs a = embedding_args(n, row, false);
  a.out = B.out + out_offset;
  a.weight = B.w + offset;
  const std::string name = c.name + " w+" + std::to_string(offset) + " out+" +
                           std::to_string(out_offset);
  run_embedding(name, n, row, false,
                [a, c](cudaStream_t st) { embedding_chunked_dispatch(c, a, st); }, config_str(c),
                false, offset, out_offset);
}

void embedding_config(const Config& c, int64_t n, int64_t row, bool shard) {
  const kernels::EmbeddingArgs a = embedding_args(n, row, shard);
  run_embedding(c.name, n, row, shard, [a, c](cudaStream_t st) { embedding_dispatch<uint4>(c, a, st); },
                config_str(c), false);
}

void load_torch(const char* path) {
  FILE* f = std::fopen(path, "r");
  if (!f) {
    std::printf("(no PyTorch figures: %s not found)\n", path);
    return;
  }
  char op[64];
  long long n, row;
  double us;
  while (std::fscanf(f, " %63[^,],%lld,%lld,%lf", op, &n, &row, &us) == 4) {
    TorchRow& r = g_torch[{n, row}];
    if (!std::strcmp(op, "index_put")) r.index_put_us = us;
    if (!std::strcmp(op, "index_copy_")) r.index_copy_us = us;
    if (!std::strcmp(op, "index_select")) r.index_select_us = us;
  }
  std::fclose(f);
}

}  // namespace

// The chunked kernels of the uint32 / uint16 paths at other unrolls (chunks per lane and step),
// for equal (4, 4) and different (k+2 cache+6; w+2 out+0) offsets.
void explore_chunked(const std::vector<int64_t>& rows) {
  std::printf("\n## explore: chunked kernels (uint32 / uint16 paths), unrolls\n");
  print_header();
  for (int64_t n : {int64_t{16384}, int64_t{524288}}) {
    B.set_indices(n);
    for (int64_t row : rows) {
      for (int u : {1, 2, 4}) {
        Config c;
        c.name = "S" + std::to_string(u);
        c.unroll = u; c.splits = 0; c.threads = 128;
        store_chunked_config(c, n, row, 4, 4);
        store_chunked_config(c, n, row, 2, 6);
      }
      for (int u : {2, 4, 8}) {
        Config c;
        c.name = "E" + std::to_string(u);
        c.unroll = u; c.splits = 0; c.threads = 128;
        embedding_chunked_config(c, n, row, 4, 4);
        embedding_chunked_config(c, n, row, 2, 0);
      }
    }
  }
}

int main(int argc, char** argv) {
  bool explore = false, profile = false, study = false;
  const char* torch = nullptr;
  const char* csv = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--explore")) explore = true;
    else if (!std::strcmp(argv[i], "--quick")) g_quick = true;
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) g_only = argv[++i];
    else if (!std::strcmp(argv[i], "--from") && i + 1 < argc) g_from = std::atoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--profile")) profile = true;
    else if (!std::strcmp(argv[i], "--study")) study = true;
    else if (!std::strcmp(argv[i], "--torch") && i + 1 < argc) torch = argv[++i];
    else if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) csv = argv[++i];
    else {
      std::printf("usage: %s [--explore|--profile|--study] [--quick] [--only store_kv|embedding] [--from N] [--torch torch.csv] [--csv out.csv]\n", argv[0]);
      return 2;
    }
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  g_sms = prop.multiProcessorCount;
  CK(cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking));
  int drv = 0, rt = 0;
  CK(cudaDriverGetVersion(&drv));
  CK(cudaRuntimeGetVersion(&rt));
  std::printf("device: %s, %d SMs, %.0f MB L2; driver %d, runtime %d\n", prop.name, g_sms,
              prop.l2CacheSize / 1e6, drv, rt);
  if (torch) load_torch(torch);
  if (csv) g_csv = std::fopen(csv, "w");

  const std::vector<int64_t> ns = {1, 64, 1024, 16384, 131072, 524288};
  const std::vector<int64_t> rows = {256, 1024, 2048, 8192};
  if (profile) {
    B.alloc(131072, 2048);
  } else {
    B.alloc(ns.back(), rows.back());
  }

  if (study) {
    // Where the misaligned paths lose (RESULTS.md): the launcher at every offset pair and slot
    // order, so that the row edges' partial 32-byte sectors (written once per row, at random
    // places, or in order) can be told apart from the kernel's own instructions.
    std::printf("\n## study: misaligned rows, slot orders\n");
    print_header();
    for (int64_t n : {int64_t{16384}, int64_t{524288}}) {
      B.set_indices(n);
      for (int64_t row : rows) {
        const char* names[3] = {"random", "sorted", "slot=token"};
        for (int pat = 0; pat < 3; ++pat) {
          const struct { int k, cache; } offs[4] = {{0, 0}, {4, 4}, {2, 2}, {2, 6}};
          for (const auto& o : offs) {
            const std::string name = std::string("study ") + names[pat] + " k+" +
                                     std::to_string(o.k) + " cache+" + std::to_string(o.cache);
            store_launcher(name.c_str(), n, row, o.k, false, o.cache, pat);
          }
        }
        const struct { int w, out; } eoffs[5] = {{0, 0}, {4, 4}, {2, 2}, {2, 0}, {0, 2}};
        for (const auto& o : eoffs) {
          const std::string name = "study w+" + std::to_string(o.w) + " out+" + std::to_string(o.out);
          embedding_launcher(name.c_str(), n, row, false, o.w, o.out);
        }
      }
    }
    explore_chunked(rows);
    return 0;
  }

  if (profile) {
    // One run of each kernel under study at 128K rows of 2 KiB, for Nsight Compute.
    const int64_t n = 131072, row = 2048;
    B.set_indices(n);
    Config a;
    a.unroll = 1; a.splits = 0; a.threads = 128;
    Config d;
    d.unroll = 4; d.splits = 1; d.threads = 256;
    const kernels::StoreKvArgs rnd = store_args(n, row, 0, false, 0);
    const kernels::StoreKvArgs ident = store_args(n, row, 0, false, 2);
    if (kernels::launch_store_kv(rnd, g_stream) != kernels::Status::kOk) return 2;
    if (kernels::launch_store_kv(ident, g_stream) != kernels::Status::kOk) return 2;
    store_dispatch<uint4>(d, rnd, g_stream);
    // The misaligned paths: rows 4 bytes off (random slots, slot = token), realigned 2 / 6.
    for (const kernels::StoreKvArgs& m :
         {store_args(n, row, 4, false, 0), store_args(n, row, 4, false, 2),
          store_args(n, row, 2, false, 0, 6)})
      if (kernels::launch_store_kv(m, g_stream) != kernels::Status::kOk) return 2;
    if (kernels::launch_embedding(embedding_args(n, row, false), g_stream) != kernels::Status::kOk)
      return 2;
    // The embedding at 512K rows of 256 B: aligned, 4 bytes off (w+4 out+4), realigned (w+2 out+0).
    B.set_indices(524288);
    for (const std::array<int, 2>& o :
         {std::array<int, 2>{0, 0}, std::array<int, 2>{4, 4}, std::array<int, 2>{2, 0}}) {
      kernels::EmbeddingArgs e = embedding_args(524288, 256, false);
      e.weight = B.w + o[0];
      e.out = B.out + o[1];
      if (kernels::launch_embedding(e, g_stream) != kernels::Status::kOk) return 2;
    }
    CK(cudaMemcpyAsync(B.kc, B.k, n * row, cudaMemcpyDeviceToDevice, g_stream));
    CK(cudaStreamSynchronize(g_stream));
    std::printf("profile runs done\n");
    return 0;
  }

  if (explore) {
    // Tuning: explicit configurations of the same kernels, at the sizes the target is about.
    std::vector<Config> cs;
    auto add = [&](const char* name, int u, int splits, int threads, int waves, bool stream,
                   int pattern = 0) {
      Config c;
      c.name = name; c.unroll = u; c.splits = splits; c.threads = threads; c.waves = waves;
      c.stream = stream; c.pattern = pattern;
      cs.push_back(c);
      return c;
    };
    add("A", 1, 0, 128, 0, false);   // 1 unit per lane, upstream splits, 128 threads
    add("A256", 1, 0, 256, 0, false);
    add("Acs", 1, 0, 128, 0, true);  // streaming hints (u1 has no cs instantiation: falls back)
    add("C2", 2, 0, 128, 0, false);
    add("D", 4, 1, 256, 0, false);   // call-1 launcher
    add("G", 4, 0, 128, 0, false);
    add("Aw2", 1, 0, 128, 2, false);
    add("A-sorted", 1, 0, 128, 0, false, 1);
    add("A-ident", 1, 0, 128, 0, false, 2);
    add("D-ident", 4, 1, 256, 0, false, 2);
    cs[2].unroll = 4; cs[2].name = "Gcs"; cs[2].splits = 0;
    std::printf("\n## explore: store_kv uint4 (memcpy timed twice: m1 m2)\n");
    print_header();
    for (int64_t n : {int64_t{16384}, int64_t{131072}, int64_t{524288}}) {
      B.set_indices(n);
      for (int64_t row : rows) {
        for (const Config& c : cs) store_config(c, n, row, 0);
        const double m1 = memcpy2_us(n, row);
        g_mc2.erase({n, row});
        const double m2 = memcpy2_us(n, row);
        std::printf("memcpy-noise n=%lld row=%lld m1=%.2f m2=%.2f us (%.3f)\n",
                    static_cast<long long>(n), static_cast<long long>(row), m1, m2, m2 / m1);
      }
    }
    std::printf("\n## explore: store_kv uint32 / uint16, embedding uint4\n");
    print_header();
    for (int64_t n : {int64_t{16384}, int64_t{131072}, int64_t{524288}}) {
      B.set_indices(n);
      for (int64_t row : rows) {
        for (int u : {1, 2, 4, 8, 16}) {
          Config c;
          c.name = "U" + std::to_string(u) + "-sup-t128";
          c.unroll = u; c.splits = 0; c.threads = 128;
          if (n != 131072) store_config(c, n, row, 4);
          if (n != 131072 && (u == 4 || u == 8)) {  // the same narrow kernels on 16-byte-aligned rows
            Config al = c;
            al.name += " aligned-data";
            const kernels::StoreKvArgs a = store_args(n, row, 0, false);
            run_store((al.name + (u == 4 ? " uint32" : " uint16")).c_str(), n, row, 0,
                      [a, al, u](cudaStream_t st) {
                        if (u == 4) store_dispatch<uint32_t>(al, a, st);
                        else store_dispatch<uint16_t>(al, a, st);
                      }, config_str(al), false);
          }
          if (n != 131072 && u >= 2) store_config(c, n, row, 2);
        }
        for (const Config& c : cs)
          if (c.pattern == 0) embedding_config(c, n, row, false);
      }
    }
  }

  if (explore) explore_chunked(rows);

  std::printf("\n## launcher (what ships)\n");
  print_header();
  const bool stores = !g_only || !std::strcmp(g_only, "store_kv");
  const bool lookups = !g_only || !std::strcmp(g_only, "embedding");
  for (int64_t n : ns) {
    if (n < g_from) continue;
    B.set_indices(n);
    for (int64_t row : rows) {
      if (stores) {
      store_launcher("launcher", n, row, 0, true);
      if (!g_quick || n >= 16384) {
        store_launcher("launcher", n, row, 4, false);
        store_launcher("launcher", n, row, 2, false);
      }
      // Source and destination off a 16-byte boundary by different amounts (realigned in
      // registers): k, v shifted by 2 bytes, the caches by 6 (phase 12).
      if (n >= 16384) store_launcher("launcher k+2 cache+6", n, row, 2, false, 6);
      }
      if (!lookups) continue;
      embedding_launcher("launcher", n, row, false);
      embedding_launcher("launcher", n, row, true);
      if (!g_quick || n >= 16384) {
        embedding_launcher("launcher", n, row, false, 4);
        embedding_launcher("launcher", n, row, false, 2);
      }
      // Weight shifted by 2 bytes, out aligned (phase 2).
      if (n >= 16384) embedding_launcher("launcher w+2 out+0", n, row, false, 2, 0);
    }
  }
  if (g_csv) std::fclose(g_csv);
  std::printf("\nbench: %s\n", g_failures ? "WRONG OUTPUT in some rows" : "all outputs verified");
  return g_failures ? 1 : 0;
}
