// fast_compare_key: the length of the common prefix of two token arrays (the radix-tree key
// comparison of the prefix cache), on the CPU.
//
// Returns the number of leading positions i < min(na, nb) with a[i] == b[i]; the arrays may
// start at any address (no alignment required) and may be null when their length is 0.
// Vectorised: AVX2 (32-byte compares) when the CPU has it, checked once at run time, else SSE2
// on x86-64, else portable 8-byte word compares.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kernels {

std::size_t fast_compare_key(const int32_t* a, std::size_t na, const int32_t* b,
                             std::size_t nb) noexcept;
std::size_t fast_compare_key(const int64_t* a, std::size_t na, const int64_t* b,
                             std::size_t nb) noexcept;

// The implementation used by fast_compare_key: "avx2", "sse2" or "portable".
const char* fast_compare_key_impl() noexcept;

namespace detail {
// The byte-level kernels, exposed for the tests and the benchmark: the index of the first
// differing byte of a[0, n) and b[0, n), or n when they are equal.
std::size_t first_difference_portable(const unsigned char* a, const unsigned char* b,
                                      std::size_t n) noexcept;
std::size_t first_difference_sse2(const unsigned char* a, const unsigned char* b,
                                  std::size_t n) noexcept;  // portable where SSE2 is absent
std::size_t first_difference_avx2(const unsigned char* a, const unsigned char* b,
                                  std::size_t n) noexcept;  // portable where AVX2 is absent
bool cpu_has_avx2() noexcept;
}  // namespace detail

}  // namespace kernels
