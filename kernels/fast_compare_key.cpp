// fast_compare_key: common prefix of two token arrays. See fast_compare_key.h.
//
// Both element types reduce to one byte-level search: the first differing byte at offset d
// lies in element d / sizeof(T), and every element before it is equal.
#include "fast_compare_key.h"

#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#define FCK_X86 1
#include <immintrin.h>
#endif

namespace kernels {
namespace detail {
namespace {

inline uint64_t load64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The index of the first differing byte given a non-zero XOR of two little/big-endian words.
inline std::size_t first_set_byte(uint64_t x) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return static_cast<std::size_t>(__builtin_clzll(x)) / 8;
#else
  return static_cast<std::size_t>(__builtin_ctzll(x)) / 8;
#endif
}

// Word compares from `i`: shared tail of every implementation.
inline std::size_t tail(const unsigned char* a, const unsigned char* b, std::size_t i,
                        std::size_t n) {
  for (; i + 8 <= n; i += 8) {
    const uint64_t x = load64(a + i) ^ load64(b + i);
    if (x != 0) return i + first_set_byte(x);
  }
  for (; i < n; ++i)
    if (a[i] != b[i]) return i;
  return n;
}

}  // namespace

std::size_t first_difference_portable(const unsigned char* a, const unsigned char* b,
                                      std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {  // four words per step, one branch
    const uint64_t x0 = load64(a + i) ^ load64(b + i);
    const uint64_t x1 = load64(a + i + 8) ^ load64(b + i + 8);
    const uint64_t x2 = load64(a + i + 16) ^ load64(b + i + 16);
    const uint64_t x3 = load64(a + i + 24) ^ load64(b + i + 24);
    if ((x0 | x1 | x2 | x3) != 0) break;
  }
  return tail(a, b, i, n);
}

#ifdef FCK_X86

std::size_t first_difference_sse2(const unsigned char* a, const unsigned char* b,
                                  std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m128i e0 = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i)),
                                      _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)));
    const __m128i e1 =
        _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i + 16)),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i + 16)));
    const __m128i e2 =
        _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i + 32)),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i + 32)));
    const __m128i e3 =
        _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i + 48)),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i + 48)));
    const __m128i all = _mm_and_si128(_mm_and_si128(e0, e1), _mm_and_si128(e2, e3));
    if (_mm_movemask_epi8(all) != 0xFFFF) break;
  }
  for (; i + 16 <= n; i += 16) {
    const __m128i e = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i)),
                                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)));
    const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(e)) ^ 0xFFFFu;
    if (m != 0) return i + static_cast<std::size_t>(__builtin_ctz(m));
  }
  return tail(a, b, i, n);
}

__attribute__((target("avx2"))) std::size_t first_difference_avx2(const unsigned char* a,
                                                                  const unsigned char* b,
                                                                  std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 128 <= n; i += 128) {
    const __m256i e0 =
        _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i)),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i)));
    const __m256i e1 =
        _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i + 32)),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i + 32)));
    const __m256i e2 =
        _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i + 64)),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i + 64)));
    const __m256i e3 =
        _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i + 96)),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i + 96)));
    const __m256i all = _mm256_and_si256(_mm256_and_si256(e0, e1), _mm256_and_si256(e2, e3));
    if (_mm256_movemask_epi8(all) != -1) break;
  }
  for (; i + 32 <= n; i += 32) {
    const __m256i e =
        _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i)),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i)));
    const unsigned m = ~static_cast<unsigned>(_mm256_movemask_epi8(e));
    if (m != 0) return i + static_cast<std::size_t>(__builtin_ctz(m));
  }
  return tail(a, b, i, n);
}

bool cpu_has_avx2() noexcept {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}

#else  // not x86-64: the portable search stands in for the SIMD ones

std::size_t first_difference_sse2(const unsigned char* a, const unsigned char* b,
                                  std::size_t n) noexcept {
  return first_difference_portable(a, b, n);
}
std::size_t first_difference_avx2(const unsigned char* a, const unsigned char* b,
                                  std::size_t n) noexcept {
  return first_difference_portable(a, b, n);
}
bool cpu_has_avx2() noexcept { return false; }

#endif

}  // namespace detail

namespace {

constexpr std::size_t kShortKeyBytes = 64;

using SearchFn = std::size_t (*)(const unsigned char*, const unsigned char*, std::size_t) noexcept;

SearchFn pick() noexcept {
#ifdef FCK_X86
  return detail::cpu_has_avx2() ? &detail::first_difference_avx2 : &detail::first_difference_sse2;
#else
  return &detail::first_difference_portable;
#endif
}

template <typename T>
std::size_t common_prefix(const T* a, std::size_t na, const T* b, std::size_t nb) noexcept {
  const std::size_t n = na < nb ? na : nb;
  if (n == 0 || a == b) return n;
  const auto* pa = reinterpret_cast<const unsigned char*>(a);
  const auto* pb = reinterpret_cast<const unsigned char*>(b);
  const std::size_t bytes = n * sizeof(T);
  // Short keys: inline word compares beat the call through the dispatcher.
  if (bytes < kShortKeyBytes) return detail::tail(pa, pb, 0, bytes) / sizeof(T);
  static const SearchFn search = pick();
  return search(pa, pb, bytes) / sizeof(T);
}

}  // namespace

std::size_t fast_compare_key(const int32_t* a, std::size_t na, const int32_t* b,
                             std::size_t nb) noexcept {
  return common_prefix(a, na, b, nb);
}

std::size_t fast_compare_key(const int64_t* a, std::size_t na, const int64_t* b,
                             std::size_t nb) noexcept {
  return common_prefix(a, na, b, nb);
}

const char* fast_compare_key_impl() noexcept {
#ifdef FCK_X86
  return detail::cpu_has_avx2() ? "avx2" : "sse2";
#else
  return "portable";
#endif
}

}  // namespace kernels
