// fast_compare_key against std::mismatch on equal prefixes of several lengths (the difference at
// the last position, so the whole key is scanned), plus each byte-level implementation.
//   build-kernels/bin/fast_compare_key_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "fast_compare_key.h"

namespace {

template <typename T>
struct Keys {
  std::vector<T> a, b;
  explicit Keys(std::size_t n) : a(n), b(n) {
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] = static_cast<T>(i * 2654435761u);
    if (n > 0) b[n - 1] ^= 1;
  }
};

template <typename T>
void BM_fast_compare_key(benchmark::State& state) {
  const Keys<T> k(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    const T* a = k.a.data();
    const T* b = k.b.data();
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    benchmark::DoNotOptimize(kernels::fast_compare_key(a, k.a.size(), b, k.b.size()));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0) *
                          static_cast<int64_t>(sizeof(T)) * 2);
}

template <typename T>
void BM_std_mismatch(benchmark::State& state) {
  const Keys<T> k(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    const T* a = k.a.data();
    const T* b = k.b.data();
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    const std::size_t n = std::min(k.a.size(), k.b.size());
    benchmark::DoNotOptimize(std::mismatch(a, a + n, b).first - a);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0) *
                          static_cast<int64_t>(sizeof(T)) * 2);
}

using Fn = std::size_t (*)(const unsigned char*, const unsigned char*, std::size_t) noexcept;
template <Fn F>
void BM_impl_int32(benchmark::State& state) {
  if (F == &kernels::detail::first_difference_avx2 && !kernels::detail::cpu_has_avx2()) {
    state.SkipWithError("no AVX2 on this CPU");
    return;
  }
  const Keys<int32_t> k(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    const auto* a = reinterpret_cast<const unsigned char*>(k.a.data());
    const auto* b = reinterpret_cast<const unsigned char*>(k.b.data());
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    benchmark::DoNotOptimize(F(a, b, k.a.size() * 4));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0) * 8);
}

void lengths(benchmark::internal::Benchmark* b) {
  for (int n : {4, 16, 64, 256, 1024, 4096, 32768}) b->Arg(n);
}

}  // namespace

BENCHMARK(BM_fast_compare_key<int32_t>)->Apply(lengths);
BENCHMARK(BM_std_mismatch<int32_t>)->Apply(lengths);
BENCHMARK(BM_fast_compare_key<int64_t>)->Apply(lengths);
BENCHMARK(BM_std_mismatch<int64_t>)->Apply(lengths);
BENCHMARK(BM_impl_int32<&kernels::detail::first_difference_portable>)->Apply(lengths);
BENCHMARK(BM_impl_int32<&kernels::detail::first_difference_sse2>)->Apply(lengths);
BENCHMARK(BM_impl_int32<&kernels::detail::first_difference_avx2>)->Apply(lengths);

BENCHMARK_MAIN();
