// GPU bandwidth of store_kv and the embedding through the launchers, against a device-to-device
// cudaMemcpy of the same bytes (spec section 6: >= 95% of it for n >= 16K rows). Needs a GPU.
//   nvcc -std=c++17 -O2 -arch=sm_90 -I kernels kernels/bench/row_copy_bandwidth.cu
//        kernels/launchers.cu -o row_copy_bandwidth && ./row_copy_bandwidth
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "launchers.h"

#define CK(x)                                                                           \
  do {                                                                                  \
    cudaError_t e_ = (x);                                                               \
    if (e_ != cudaSuccess) {                                                            \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

namespace {

template <class F>
float median_ms(F f, int reps = 15) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  f();  // warm-up
  CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return t[t.size() / 2];
}

uint64_t lcg(uint64_t& s) { return (s = s * 6364136223846793005ull + 1442695040888963407ull) >> 17; }

void bench_store(int64_t n, int64_t row) {
  const int64_t pool = n + n / 8;
  char *kc, *vc, *k, *v;
  int32_t* idx;
  CK(cudaMalloc(&kc, pool * row));
  CK(cudaMalloc(&vc, pool * row));
  CK(cudaMalloc(&k, n * row));
  CK(cudaMalloc(&v, n * row));
  CK(cudaMalloc(&idx, n * sizeof(int32_t)));
  std::vector<int32_t> h(pool);
  std::iota(h.begin(), h.end(), 0);
  uint64_t s = 42;
  for (int64_t i = pool - 1; i > 0; --i) std::swap(h[i], h[lcg(s) % (i + 1)]);
  CK(cudaMemcpy(idx, h.data(), n * sizeof(int32_t), cudaMemcpyHostToDevice));
  CK(cudaMemset(k, 1, n * row));
  CK(cudaMemset(v, 2, n * row));
  kernels::StoreKvArgs a;
  a.k_cache = kc; a.v_cache = vc; a.indices = idx; a.k = k; a.v = v; a.n = n; a.row_bytes = row;
  a.element_size = 2; a.cache_rows = pool; a.cache_stride_bytes = row; a.input_stride_bytes = row;
  kernels::LaunchPlan p;
  const float tk = median_ms([&] {
    if (kernels::launch_store_kv(a, nullptr, &p) != kernels::Status::kOk) std::exit(2);
  });
  const float tc = median_ms([&] {
    CK(cudaMemcpyAsync(kc, k, n * row, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpyAsync(vc, v, n * row, cudaMemcpyDeviceToDevice));
  });
  const double bytes = 4.0 * n * row;  // read k, v; write two cache rows
  std::printf("store_kv  n=%-7lld row=%-5lld path=%-6s splits=%d  kernel %8.3f ms %7.1f GB/s | "
              "memcpy %8.3f ms %7.1f GB/s | ratio %.3f\n",
              static_cast<long long>(n), static_cast<long long>(row),
              kernels::copy_path_name(p.path), p.num_splits, tk, bytes / tk / 1e6, tc,
              bytes / tc / 1e6, tc / tk);
  CK(cudaFree(kc)); CK(cudaFree(vc)); CK(cudaFree(k)); CK(cudaFree(v)); CK(cudaFree(idx));
}

void bench_embedding(int64_t n, int64_t row, int64_t vocab) {
  char *out, *w, *src;
  int32_t* ids;
  CK(cudaMalloc(&out, n * row));
  CK(cudaMalloc(&src, n * row));  // the memcpy baseline's source: the same bytes, contiguous
  CK(cudaMemset(src, 4, n * row));
  CK(cudaMalloc(&w, vocab * row));
  CK(cudaMalloc(&ids, n * sizeof(int32_t)));
  std::vector<int32_t> h(n);
  uint64_t s = 7;
  for (auto& x : h) x = static_cast<int32_t>(lcg(s) % vocab);
  CK(cudaMemcpy(ids, h.data(), n * sizeof(int32_t), cudaMemcpyHostToDevice));
  CK(cudaMemset(w, 3, vocab * row));
  kernels::EmbeddingArgs a;
  a.out = out; a.weight = w; a.ids = ids; a.n = n; a.row_bytes = row; a.element_size = 2;
  a.start = 0; a.length = vocab; a.out_stride_bytes = row; a.weight_stride_bytes = row;
  kernels::LaunchPlan p;
  const float tk = median_ms([&] {
    if (kernels::launch_embedding(a, nullptr, &p) != kernels::Status::kOk) std::exit(2);
  });
  const float tc =
      median_ms([&] { CK(cudaMemcpyAsync(out, src, n * row, cudaMemcpyDeviceToDevice)); });
  const double bytes = 2.0 * n * row;
  std::printf("embedding n=%-7lld row=%-5lld path=%-6s splits=%d  kernel %8.3f ms %7.1f GB/s | "
              "memcpy %8.3f ms %7.1f GB/s | ratio %.3f\n",
              static_cast<long long>(n), static_cast<long long>(row),
              kernels::copy_path_name(p.path), p.num_splits, tk, bytes / tk / 1e6, tc,
              bytes / tc / 1e6, tc / tk);
  CK(cudaFree(out)); CK(cudaFree(w)); CK(cudaFree(ids)); CK(cudaFree(src));
}

}  // namespace

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n", prop.name);
  for (int64_t n : {16384, 131072, 524288}) bench_store(n, 2048);
  bench_store(524288, 1024);
  bench_store(524288, 256);
  for (int64_t n : {16384, 131072, 524288}) bench_embedding(n, 2048, 151936);
  bench_embedding(524288, 1024, 151936);
  return 0;
}
