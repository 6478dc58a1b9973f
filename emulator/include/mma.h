// Warp matrix multiply-accumulate (nvcuda::wmma), the C++ face of the tensor cores.
//
// A fragment holds a tile of a matrix spread over the 32 lanes of a warp: element e of lane l is
// element l + 32 e of the tile in row-major order (CUDA leaves the mapping unspecified, so a
// program may only rely on the same mapping for fragments of one shape and use). Loads and
// stores are done by each lane for its own elements. mma_sync exchanges the A and B elements
// through a per-warp scratch area between two __syncwarp, then each lane computes its own
// elements of D: products are exact (a half, bfloat16 or tf32 product fits a float) and
// accumulate in the accumulator's type, k in increasing order; integer tiles accumulate in 32
// bits with wraparound.
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

// The tile a fragment holds: matrix_a is M x K, matrix_b K x N, the accumulator M x N.
template <class Use, int M, int N, int K> struct tile;
template <int M, int N, int K> struct tile<matrix_a, M, N, K> {
  static constexpr int rows = M, cols = K;
};
template <int M, int N, int K> struct tile<matrix_b, M, N, K> {
  static constexpr int rows = K, cols = N;
};
template <int M, int N, int K> struct tile<accumulator, M, N, K> {
  static constexpr int rows = M, cols = N;
};

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

// Per-warp scratch for mma_sync's exchange: the lanes of a block run on one OS thread, one block
// at a time, so a thread-local area indexed by warp serves every warp of the block.
inline constexpr std::size_t kScratchPerWarp = 4096;
alignas(16) inline thread_local unsigned char t_scratch[32][kScratchPerWarp];

inline float to_float(__half v) { return __half2float(v); }
inline float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
inline float to_float(float v) { return v; }
inline double to_float(double v) { return v; }
inline int to_float(signed char v) { return v; }
inline int to_float(unsigned char v) { return v; }
inline int to_float(int v) { return v; }

template <class A> struct accumulate_in { using type = float; };
template <> struct accumulate_in<double> { using type = double; };
template <> struct accumulate_in<int> { using type = int; };

template <class A, class V> A from_value(V v) { return static_cast<A>(v); }
template <> inline __half from_value<__half, float>(float v) { return __float2half(v); }

}  // namespace detail

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
  static_assert(detail::valid_shape<Use, M, N, K, T>(),
                "cuemu: this wmma shape does not exist for this element type (m16n16k16, "
                "m32n8k16, m8n32k16; m16n16k8 for tf32; m8n8k4 for double)");

 public:
  using element_type = T;
  using storage_element_type = typename detail::storage<T>::type;
  static constexpr int rows = detail::tile<Use, M, N, K>::rows;
  static constexpr int cols = detail::tile<Use, M, N, K>::cols;
  static constexpr int num_elements = (rows * cols + 31) / 32;
  storage_element_type x[num_elements];
};

template <class Use, int M, int N, int K, class T, class L, class V>
inline void fill_fragment(fragment<Use, M, N, K, T, L>& f, const V& v) {
  using S = typename fragment<Use, M, N, K, T, L>::storage_element_type;
  const S s = static_cast<S>(v);
  for (int e = 0; e < f.num_elements; ++e) f.x[e] = s;
}

namespace detail {

// Element (r, c) of a tile stored at p with leading dimension ldm.
template <class S, class P>
inline S read(const P* p, unsigned ldm, int r, int c, bool row) {
  return static_cast<S>(row ? p[static_cast<std::size_t>(r) * ldm + c]
                            : p[static_cast<std::size_t>(c) * ldm + r]);
}

template <class F, class P>
inline void load(F& f, const P* p, unsigned ldm, bool row) {
  using S = typename F::storage_element_type;
  const unsigned lane = linear_thread() & 31u;
  for (int e = 0; e < F::num_elements; ++e) {
    const int t = static_cast<int>(lane) + 32 * e;
    if (t >= F::rows * F::cols) break;
    f.x[e] = read<S>(p, ldm, t / F::cols, t % F::cols, row);
  }
}

}  // namespace detail

// matrix_a / matrix_b: the layout is the fragment's.
template <class Use, int M, int N, int K, class T, class L, class P>
inline void load_matrix_sync(fragment<Use, M, N, K, T, L>& f, const P* p, unsigned ldm) {
  static_assert(!std::is_void_v<L>, "cuemu: a matrix_a/matrix_b fragment needs a layout");
  detail::load(f, p, ldm, std::is_same_v<L, row_major>);
}

// The accumulator: the layout is given.
template <int M, int N, int K, class T, class P>
inline void load_matrix_sync(fragment<accumulator, M, N, K, T>& f, const P* p, unsigned ldm,
                             layout_t layout) {
  detail::load(f, p, ldm, layout == mem_row_major);
}

template <int M, int N, int K, class T, class P>
inline void store_matrix_sync(P* p, const fragment<accumulator, M, N, K, T>& f, unsigned ldm,
                              layout_t layout) {
  using F = fragment<accumulator, M, N, K, T>;
  const unsigned lane = detail::linear_thread() & 31u;
  for (int e = 0; e < F::num_elements; ++e) {
    const int t = static_cast<int>(lane) + 32 * e;
    if (t >= F::rows * F::cols) break;
    const int r = t / F::cols, c = t % F::cols;
    p[layout == mem_row_major ? static_cast<std::size_t>(r) * ldm + c
                              : static_cast<std::size_t>(c) * ldm + r] = f.x[e];
  }
}

// D = A B + C for the warp. satf (float accumulators): results clamped to the finite range, NaN
// to 0, as PTX's .satfinite.
template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class TD>
inline void mma_sync(fragment<accumulator, M, N, K, TD>& d,
                     const fragment<matrix_a, M, N, K, TA, LA>& a,
                     const fragment<matrix_b, M, N, K, TB, LB>& b,
                     const fragment<accumulator, M, N, K, TC>& c, bool satf = false) {
  using FA = fragment<matrix_a, M, N, K, TA, LA>;
  using FB = fragment<matrix_b, M, N, K, TB, LB>;
  using FD = fragment<accumulator, M, N, K, TD>;
  using SA = typename FA::storage_element_type;
  using SB = typename FB::storage_element_type;
  using Acc = typename detail::accumulate_in<
      std::conditional_t<std::is_same_v<TC, __half>, float, TC>>::type;
  static_assert(sizeof(SA) * FA::num_elements * 32 + sizeof(SB) * FB::num_elements * 32 <=
                detail::kScratchPerWarp);
  const unsigned mask = __activemask();
  const unsigned me = detail::linear_thread();
  const unsigned lane = me & 31u, warp = me >> 5;
  SA* sa = reinterpret_cast<SA*>(detail::t_scratch[warp]);
  SB* sb = reinterpret_cast<SB*>(detail::t_scratch[warp] + sizeof(SA) * FA::num_elements * 32);
  // Element t of a tile is element t / 32 of lane t % 32.
  for (int e = 0; e < FA::num_elements; ++e) sa[e * 32 + lane] = a.x[e];
  for (int e = 0; e < FB::num_elements; ++e) sb[e * 32 + lane] = b.x[e];
  __syncwarp(mask);
  typename FD::storage_element_type out[FD::num_elements];
  for (int e = 0; e < FD::num_elements; ++e) {
    const int t = static_cast<int>(lane) + 32 * e;
    if (t >= M * N) break;
    const int r = t / N, col = t % N;
    Acc acc = static_cast<Acc>(detail::to_float(c.x[e]));
    for (int k = 0; k < K; ++k) {
      const auto x = detail::to_float(sa[r * K + k]);
      const auto y = detail::to_float(sb[k * N + col]);
      if constexpr (std::is_same_v<Acc, int>)
        acc = static_cast<int>(static_cast<unsigned>(acc) +
                               static_cast<unsigned>(x) * static_cast<unsigned>(y));
      else if constexpr (std::is_same_v<Acc, double>)
        acc = __builtin_fma(x, y, acc);
      else
        acc = __builtin_fmaf(static_cast<float>(x), static_cast<float>(y), acc);
    }
    if constexpr (std::is_same_v<Acc, float>) {
      if (satf) {
        if (acc != acc) acc = 0.0f;
        else if (acc > 3.402823466e38f) acc = 3.402823466e38f;
        else if (acc < -3.402823466e38f) acc = -3.402823466e38f;
      }
    }
    out[e] = detail::from_value<typename FD::storage_element_type>(acc);
  }
  __syncwarp(mask);
  for (int e = 0; e < FD::num_elements; ++e) d.x[e] = out[e];
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
