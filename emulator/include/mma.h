// Warp matrix multiply-accumulate (nvcuda::wmma), the C++ face of the tensor cores.
//
// A fragment is a lane's share of a tile, and CUDA leaves its layout unspecified (a GPU's
// fragments hold some elements twice). Here each lane holds what its own results need, so that
// mma_sync is a lane's own work, with no exchange between lanes:
// - the accumulator: element e of lane l is element t = l + 32 e of the M x N tile in row-major
//   order, row r_e = t / N, column c = l % N (the same for every e, since N divides 32);
// - matrix_a: rows r_0, r_1, ... of A, K elements each (x[e * K + k] = A(r_e, k));
// - matrix_b: column c of B (x[k] = B(k, c)).
// Products are exact (a half, bfloat16 or tf32 product fits a float) and accumulate in the
// accumulator's type, k in increasing order; integer tiles accumulate in 32 bits with wraparound.
//
// Shapes and types, as CUDA has them for sm_80 and later: m16n16k16, m32n8k16 and m8n32k16 of
// half, __nv_bfloat16, signed char and unsigned char (accumulators float or half, or int);
// m16n16k8 of precision::tf32 (float accumulator); m8n8k4 of double. Sub-byte types
// (experimental::precision::u4/s4/b1) are not provided.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <immintrin.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuemu/sync_functions.h>
#include <device_launch_parameters.h>

namespace nvcuda {
namespace wmma {

struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32 {};
}  // namespace precision

namespace detail {

// What a fragment of type T stores: tf32 is held in a float.
template <class T> struct storage { using type = T; };
template <> struct storage<precision::tf32> { using type = float; };

template <class Use, int M, int N, int K, class T> constexpr bool valid_shape() {
  if (std::is_same_v<Use, accumulator>)
    return (M == 16 && N == 16 && (K == 16 || K == 8)) || (M == 32 && N == 8 && K == 16) ||
           (M == 8 && N == 32 && K == 16) || (M == 8 && N == 8 && K == 4);
  if (std::is_same_v<T, double>) return M == 8 && N == 8 && K == 4;
  if (std::is_same_v<T, precision::tf32>) return M == 16 && N == 16 && K == 8;
  return (M == 16 && N == 16 && K == 16) || (M == 32 && N == 8 && K == 16) ||
         (M == 8 && N == 32 && K == 16);
}

// The calling CUDA thread's lane and warp (warps are 32 consecutive linear thread indices).
inline unsigned linear_thread() noexcept {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

inline float to_float(__half v) { return __half2float(v); }
inline float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
inline float to_float(float v) { return v; }
inline double to_float(double v) { return v; }
inline int to_float(signed char v) { return v; }
inline int to_float(unsigned char v) { return v; }
inline int to_float(int v) { return v; }

template <class A, class V> A from_value(V v) { return static_cast<A>(v); }
template <> inline __half from_value<__half, float>(float v) { return __float2half(v); }

// Elements a lane holds: see the top of this file.
template <class Use, int M, int N, int K> struct lane_share;
template <int M, int N, int K> struct lane_share<accumulator, M, N, K> {
  static constexpr int count = M * N / 32;
};
template <int M, int N, int K> struct lane_share<matrix_a, M, N, K> {
  static constexpr int count = M * N / 32 * K;
};
template <int M, int N, int K> struct lane_share<matrix_b, M, N, K> {
  static constexpr int count = K;
};

}  // namespace detail

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
  static_assert(detail::valid_shape<Use, M, N, K, T>(),
                "cuemu: this wmma shape does not exist for this element type (m16n16k16, "
                "m32n8k16, m8n32k16; m16n16k8 for tf32; m8n8k4 for double)");

 public:
  using element_type = T;
  using storage_element_type = typename detail::storage<T>::type;
  static constexpr int num_elements = detail::lane_share<Use, M, N, K>::count;
  storage_element_type x[num_elements];
};

template <class Use, int M, int N, int K, class T, class L, class V>
inline void fill_fragment(fragment<Use, M, N, K, T, L>& f, const V& v) {
  using S = typename fragment<Use, M, N, K, T, L>::storage_element_type;
  const S s = static_cast<S>(v);
  for (int e = 0; e < f.num_elements; ++e) f.x[e] = s;
}

namespace detail {

// Element (r, c) of a matrix stored at p with leading dimension ldm.
template <class S, class P>
inline S read(const P* p, unsigned ldm, int r, int c, bool row) {
  return static_cast<S>(row ? p[static_cast<std::size_t>(r) * ldm + c]
                            : p[static_cast<std::size_t>(c) * ldm + r]);
}

inline unsigned lane() noexcept { return linear_thread() & 31u; }

}  // namespace detail

// matrix_a / matrix_b: the layout is the fragment's.
template <int M, int N, int K, class T, class L, class P>
inline void load_matrix_sync(fragment<matrix_a, M, N, K, T, L>& f, const P* p, unsigned ldm) {
  static_assert(!std::is_void_v<L>, "cuemu: a matrix_a fragment needs a layout");
  using S = typename fragment<matrix_a, M, N, K, T, L>::storage_element_type;
  constexpr bool row = std::is_same_v<L, row_major>;
  const int l = static_cast<int>(detail::lane());
  for (int e = 0; e < M * N / 32; ++e) {
    const int r = (l + 32 * e) / N;
    for (int k = 0; k < K; ++k) f.x[e * K + k] = detail::read<S>(p, ldm, r, k, row);
  }
}

template <int M, int N, int K, class T, class L, class P>
inline void load_matrix_sync(fragment<matrix_b, M, N, K, T, L>& f, const P* p, unsigned ldm) {
  static_assert(!std::is_void_v<L>, "cuemu: a matrix_b fragment needs a layout");
  using S = typename fragment<matrix_b, M, N, K, T, L>::storage_element_type;
  constexpr bool row = std::is_same_v<L, row_major>;
  const int c = static_cast<int>(detail::lane()) % N;
  for (int k = 0; k < K; ++k) f.x[k] = detail::read<S>(p, ldm, k, c, row);
}

// The accumulator: the layout is given.
template <int M, int N, int K, class T, class P>
inline void load_matrix_sync(fragment<accumulator, M, N, K, T>& f, const P* p, unsigned ldm,
                             layout_t layout) {
  using S = typename fragment<accumulator, M, N, K, T>::storage_element_type;
  const int l = static_cast<int>(detail::lane());
  for (int e = 0; e < M * N / 32; ++e) {
    const int t = l + 32 * e;
    f.x[e] = detail::read<S>(p, ldm, t / N, t % N, layout == mem_row_major);
  }
}

template <int M, int N, int K, class T, class P>
inline void store_matrix_sync(P* p, const fragment<accumulator, M, N, K, T>& f, unsigned ldm,
                              layout_t layout) {
  const int l = static_cast<int>(detail::lane());
  for (int e = 0; e < M * N / 32; ++e) {
    const int t = l + 32 * e;
    const int r = t / N, c = t % N;
    p[layout == mem_row_major ? static_cast<std::size_t>(r) * ldm + c
                              : static_cast<std::size_t>(c) * ldm + r] = f.x[e];
  }
}

namespace detail {

// Element types to the type products are taken in, n at a time. half uses F16C (8 per
// instruction) where the CPU has it; a NaN becomes the canonical float NaN, as cvt.f32.f16 gives.
__attribute__((target("f16c"))) inline void halves_f16c(const __half* in, float* out, int n) {
  int i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i))));
  for (; i < n; ++i) out[i] = __half2float(in[i]);
  for (i = 0; i < n; ++i)
    if (out[i] != out[i]) out[i] = __builtin_bit_cast(float, 0x7fffffffu);
}
// __builtin_cpu_supports reads what libgcc found at start-up (no function-local static: its
// guard would be a race between CUDA threads for racecheck).
inline bool has_f16c() { return __builtin_cpu_supports("f16c"); }
inline void widen(const __half* in, float* out, int n) {
  if (has_f16c())
    halves_f16c(in, out, n);
  else
    for (int i = 0; i < n; ++i) out[i] = __half2float(in[i]);
}
inline void widen(const __nv_bfloat16* in, float* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = __bfloat162float(in[i]);
}
inline void widen(const float* in, float* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = in[i];
}
inline void widen(const double* in, double* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = in[i];
}
template <class C> inline void widen(const C* in, int* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = in[i];
}

template <class S> struct product_type { using type = float; };
template <> struct product_type<double> { using type = double; };
template <> struct product_type<signed char> { using type = int; };
template <> struct product_type<unsigned char> { using type = int; };

// acc[e] += sum over k of a[e * K + k] * b[k], k in increasing order. A float product of two
// 11-bit (or shorter) significands is exact, so `+` after `*` rounds once, like an FMA.
template <int E, int K>
inline void dot_float(const float* a, const float* b, float* acc) {
  for (int e = 0; e < E; ++e) {
    float s = acc[e];
    for (int k = 0; k < K; ++k) s += a[e * K + k] * b[k];
    acc[e] = s;
  }
}
template <int E, int K>
__attribute__((target("fma"))) inline void dot_double_fma(const double* a, const double* b,
                                                          double* acc) {
  for (int e = 0; e < E; ++e)
    for (int k = 0; k < K; ++k) acc[e] = __builtin_fma(a[e * K + k], b[k], acc[e]);
}
template <int E, int K>
inline void dot_double(const double* a, const double* b, double* acc) {
  if (__builtin_cpu_supports("fma")) {
    dot_double_fma<E, K>(a, b, acc);
    return;
  }
  for (int e = 0; e < E; ++e)
    for (int k = 0; k < K; ++k) acc[e] = __builtin_fma(a[e * K + k], b[k], acc[e]);
}
template <int E, int K>
inline void dot_int(const int* a, const int* b, int* acc) {  // 32 bits, wrapping
  for (int e = 0; e < E; ++e) {
    unsigned s = static_cast<unsigned>(acc[e]);
    for (int k = 0; k < K; ++k)
      s += static_cast<unsigned>(a[e * K + k]) * static_cast<unsigned>(b[k]);
    acc[e] = static_cast<int>(s);
  }
}

}  // namespace detail

// D = A B + C for the warp, each lane its own elements. satf (float accumulators): results
// clamped to the finite range, NaN to 0, as PTX's .satfinite.
template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class TD>
inline void mma_sync(fragment<accumulator, M, N, K, TD>& d,
                     const fragment<matrix_a, M, N, K, TA, LA>& a,
                     const fragment<matrix_b, M, N, K, TB, LB>& b,
                     const fragment<accumulator, M, N, K, TC>& c, bool satf = false) {
  using D = typename fragment<accumulator, M, N, K, TD>::storage_element_type;
  using SA = typename fragment<matrix_a, M, N, K, TA, LA>::storage_element_type;
  using P = typename detail::product_type<SA>::type;
  constexpr int E = M * N / 32;
  P pa[E * K], pb[K], acc[E];
  detail::widen(a.x, pa, E * K);
  detail::widen(b.x, pb, K);
  for (int e = 0; e < E; ++e) acc[e] = static_cast<P>(detail::to_float(c.x[e]));
  if constexpr (std::is_same_v<P, int>)
    detail::dot_int<E, K>(pa, pb, acc);
  else if constexpr (std::is_same_v<P, double>)
    detail::dot_double<E, K>(pa, pb, acc);
  else
    detail::dot_float<E, K>(pa, pb, acc);
  for (int e = 0; e < E; ++e) {
    if constexpr (std::is_same_v<P, float>) {
      if (satf) {
        if (acc[e] != acc[e]) acc[e] = 0.0f;
        else if (acc[e] > 3.402823466e38f) acc[e] = 3.402823466e38f;
        else if (acc[e] < -3.402823466e38f) acc[e] = -3.402823466e38f;
      }
    }
    d.x[e] = detail::from_value<D>(acc[e]);
  }
}

// cvt.rna.tf32.f32: to 10 fraction bits, rounding to nearest, ties away from zero.
inline float __float_to_tf32(float in) {
  std::uint32_t u;
  std::memcpy(&u, &in, sizeof u);
  if ((u & 0x7f800000u) != 0x7f800000u) {  // finite
    u += 0x1000u;
    u &= 0xffffe000u;
  }
  float out;
  std::memcpy(&out, &u, sizeof out);
  return out;
}

}  // namespace wmma
}  // namespace nvcuda
