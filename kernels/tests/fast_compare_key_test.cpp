// fast_compare_key against std::mismatch: empty, equal, a difference at every position 0..130
// for both element types, unequal lengths, unaligned starts, and each byte-level implementation.
#include "fast_compare_key.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace {

template <typename T>
std::size_t reference(const T* a, std::size_t na, const T* b, std::size_t nb) {
  const std::size_t n = std::min(na, nb);
  return static_cast<std::size_t>(std::mismatch(a, a + n, b).first - a);
}

template <typename T>
std::vector<T> tokens(std::size_t n, uint64_t seed) {
  std::vector<T> v(n);
  uint64_t s = seed;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<T>(s >> 17);
  }
  return v;
}

template <typename T>
class FastCompareKeyTest : public ::testing::Test {};
using TokenTypes = ::testing::Types<int32_t, int64_t>;
TYPED_TEST_SUITE(FastCompareKeyTest, TokenTypes);

TYPED_TEST(FastCompareKeyTest, Empty) {
  using T = TypeParam;
  const std::vector<T> a = tokens<T>(8, 1);
  EXPECT_EQ(kernels::fast_compare_key(static_cast<const T*>(nullptr), 0,
                                      static_cast<const T*>(nullptr), 0),
            0u);
  EXPECT_EQ(kernels::fast_compare_key(a.data(), 0, a.data(), 8), 0u);
  EXPECT_EQ(kernels::fast_compare_key(a.data(), 8, static_cast<const T*>(nullptr), 0), 0u);
}

TYPED_TEST(FastCompareKeyTest, EqualArraysOfEveryLength) {
  using T = TypeParam;
  for (std::size_t n = 0; n <= 300; ++n) {
    const std::vector<T> a = tokens<T>(n, 7);
    const std::vector<T> b = a;  // a different buffer with the same tokens
    EXPECT_EQ(kernels::fast_compare_key(a.data(), n, b.data(), n), n) << "n=" << n;
    EXPECT_EQ(kernels::fast_compare_key(a.data(), n, a.data(), n), n) << "same pointer, n=" << n;
  }
}

TYPED_TEST(FastCompareKeyTest, DifferenceAtEveryPosition) {
  using T = TypeParam;
  for (std::size_t n : {131u, 200u, 1000u}) {
    const std::vector<T> a = tokens<T>(n, 11);
    for (std::size_t pos = 0; pos <= 130; ++pos) {
      // Change one byte at a time (lowest, highest, middle) so every byte lane is exercised.
      for (std::size_t byte : {std::size_t{0}, sizeof(T) - 1, sizeof(T) / 2}) {
        std::vector<T> b = a;
        reinterpret_cast<unsigned char*>(&b[pos])[byte] ^= 0x40;
        const std::size_t want = reference(a.data(), n, b.data(), n);
        ASSERT_EQ(want, pos);
        EXPECT_EQ(kernels::fast_compare_key(a.data(), n, b.data(), n), want)
            << "n=" << n << " pos=" << pos << " byte=" << byte;
        EXPECT_EQ(kernels::fast_compare_key(b.data(), n, a.data(), n), want);
      }
    }
  }
}

TYPED_TEST(FastCompareKeyTest, SignAndExtremeValues) {
  using T = TypeParam;
  std::vector<T> a(70, std::numeric_limits<T>::min());
  std::vector<T> b = a;
  b[69] = std::numeric_limits<T>::max();
  EXPECT_EQ(kernels::fast_compare_key(a.data(), a.size(), b.data(), b.size()), 69u);
  b[69] = a[69];
  b[33] = -1;
  EXPECT_EQ(kernels::fast_compare_key(a.data(), a.size(), b.data(), b.size()), 33u);
}

TYPED_TEST(FastCompareKeyTest, UnequalLengths) {
  using T = TypeParam;
  const std::vector<T> a = tokens<T>(500, 3);
  for (std::size_t na : {0u, 1u, 7u, 8u, 33u, 64u, 129u, 500u}) {
    for (std::size_t nb : {0u, 5u, 16u, 100u, 257u, 500u}) {
      const std::size_t want = std::min(na, nb);
      EXPECT_EQ(kernels::fast_compare_key(a.data(), na, a.data() + 0, nb), want);
      const std::vector<T> b(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(nb));
      EXPECT_EQ(kernels::fast_compare_key(a.data(), na, b.data(), nb), want)
          << "na=" << na << " nb=" << nb;
      EXPECT_EQ(kernels::fast_compare_key(b.data(), nb, a.data(), na), want);
    }
  }
}

TYPED_TEST(FastCompareKeyTest, UnalignedStarts) {
  using T = TypeParam;
  const std::size_t n = 300;
  const std::vector<T> src = tokens<T>(n, 5);
  // Copies placed at every byte offset 0..31 of raw storage (memcpy'd, so no misaligned T
  // object is ever formed through a typed access in the test itself).
  std::vector<unsigned char> store_a(n * sizeof(T) + 64), store_b(n * sizeof(T) + 64);
  for (std::size_t oa = 0; oa < 32; oa += 3) {
    for (std::size_t ob = 0; ob < 32; ob += 5) {
      std::memcpy(store_a.data() + oa, src.data(), n * sizeof(T));
      std::memcpy(store_b.data() + ob, src.data(), n * sizeof(T));
      const std::size_t pos = (oa * 31 + ob * 7) % n;
      store_b[ob + pos * sizeof(T)] ^= 1;
      const T* a = reinterpret_cast<const T*>(store_a.data() + oa);
      const T* b = reinterpret_cast<const T*>(store_b.data() + ob);
      EXPECT_EQ(kernels::fast_compare_key(a, n, b, n), pos) << "oa=" << oa << " ob=" << ob;
    }
  }
}

// Each byte-level implementation, whatever the dispatcher picks on this machine.
TEST(FastCompareKeyImpl, EveryImplementationAgrees) {
  std::vector<unsigned char> a(700);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<unsigned char>(i * 37 + 11);
  using Fn = std::size_t (*)(const unsigned char*, const unsigned char*, std::size_t) noexcept;
  std::vector<Fn> fns = {&kernels::detail::first_difference_portable,
                         &kernels::detail::first_difference_sse2};
  if (kernels::detail::cpu_has_avx2()) fns.push_back(&kernels::detail::first_difference_avx2);
  for (Fn fn : fns) {
    for (std::size_t n = 0; n <= 300; n += (n < 140 ? 1 : 13)) {
      EXPECT_EQ(fn(a.data(), a.data(), n), n);
      for (std::size_t pos = 0; pos < n; pos += (pos < 140 ? 1 : 11)) {
        std::vector<unsigned char> b(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n));
        b[pos] ^= 0x80;
        ASSERT_EQ(fn(a.data(), b.data(), n), pos) << "n=" << n << " pos=" << pos;
      }
    }
  }
  const char* impl = kernels::fast_compare_key_impl();
  EXPECT_TRUE(std::strcmp(impl, "avx2") == 0 || std::strcmp(impl, "sse2") == 0 ||
              std::strcmp(impl, "portable") == 0);
}

}  // namespace
