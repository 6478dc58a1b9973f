// The conversions of CUDA's explicitly rounded conversion intrinsics (__float2int_rd,
// __ll2float_ru, ...; cuemu/device_functions.h), as plain C++ with no CUDA names, so that a host
// program can compute what device code computes (tests/math/exhaustive compares them with an H200
// on every float). Float-to-integer conversions saturate to the destination range, as the GPU's
// cvt instructions do; a NaN gives 0 from a float to a 32-bit integer, and the sign bit alone
// (0x80000000, 0x8000000000000000) otherwise (the H200 record, tests/math).
#pragma once

#include <cmath>
#include <limits>

namespace cuemu::detail {
// Rounding directions: 0 to nearest even, 1 towards zero, 2 up, 3 down.
template <class I, class F>
inline I saturating_convert(F v) noexcept {
  if (v != v) return sizeof(I) == 4 && sizeof(F) == 4 ? I(0) : static_cast<I>(I(1) << (sizeof(I) * 8 - 1));
  if (v <= static_cast<F>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (v >= static_cast<F>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}
template <class F>
inline F round_mode(F v, int mode) noexcept {
  switch (mode) {
    case 0: return std::nearbyint(v);  // default environment: to nearest even
    case 1: return std::trunc(v);
    case 2: return std::ceil(v);
    default: return std::floor(v);
  }
}
// Integer -> floating point with a rounding direction (0 rn, 1 rz, 2 ru, 3 rd).
template <class F, class I>
inline F int_to_float(I v, int mode) noexcept {
  F r = static_cast<F>(v);  // round to nearest
  if (mode == 0) return r;
  const long double exact = static_cast<long double>(v);
  const long double got = static_cast<long double>(r);
  if (got == exact) return r;
  if (mode == 2) return got > exact ? r : std::nextafter(r, std::numeric_limits<F>::infinity());
  if (mode == 3) return got < exact ? r : std::nextafter(r, -std::numeric_limits<F>::infinity());
  // rz: towards zero
  if (exact > 0) return got < exact ? r : std::nextafter(r, F(0));
  return got > exact ? r : std::nextafter(r, F(0));
}
}  // namespace cuemu::detail
