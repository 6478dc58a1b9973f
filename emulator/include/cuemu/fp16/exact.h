// Correctly rounded arithmetic on 16-bit values: the operation is carried out in double with
// round-to-odd (an error-free sum tells whether the double result is exact), and that result is
// rounded once to the 16-bit format. Round-to-odd to 53 bits followed by rounding to 11 or 8 bits
// equals a single rounding of the exact result, so add, sub, mul and fma all round exactly once,
// as the GPU's add/mul/fma.rn.f16 and .bf16 instructions do.
#pragma once

#include <cuemu/fp16/types.h>

#include <cmath>
#include <cstring>

namespace cuemu::fp16 {

// p + c rounded to double with round-to-odd. p and c are doubles; the sum's error is found
// with TwoSum (exact for finite values without overflow, which 16-bit inputs guarantee).
inline double add_round_odd(double p, double c) noexcept {
  const volatile double s = p + c;
  if (!std::isfinite(s)) return s;
  const double bb = s - p;
  const double e = (p - (s - bb)) + (c - bb);
  if (e == 0) return s;
  // Truncate toward zero, then make the last bit odd.
  double t = s;
  if ((e > 0) != (s > 0)) t = std::nextafter(s, 0.0);  // s was rounded away from zero
  std::uint64_t u;
  std::memcpy(&u, &t, 8);
  u |= 1u;
  std::memcpy(&t, &u, 8);
  return t;
}

template <class S>
inline S canonical_nan() noexcept {
  return make<S>(traits<S>::format::nan_bits);
}
template <class S>
inline bool isnan16(S a) noexcept {
  return traits<S>::format::is_nan(a.__x);
}

// a*b + c, rounded once (products of two 16-bit values are exact in double).
template <class S>
inline S fma_rn(S a, S b, S c) noexcept {
  const double da = f32(a), db = f32(b), dc = f32(c);
  const double p = da * db;
  const double r = add_round_odd(p, dc);
  if (r != r) return canonical_nan<S>();
  return round_to<S>(r);
}
template <class S>
inline S add_rn(S a, S b) noexcept {
  const double r = add_round_odd(f32(a), f32(b));
  if (r != r) return canonical_nan<S>();
  return round_to<S>(r);
}
template <class S>
inline S sub_rn(S a, S b) noexcept {
  const double r = add_round_odd(f32(a), -static_cast<double>(f32(b)));
  if (r != r) return canonical_nan<S>();
  return round_to<S>(r);
}
template <class S>
inline S mul_rn(S a, S b) noexcept {
  const double r = static_cast<double>(f32(a)) * f32(b);  // exact
  if (r != r) return canonical_nan<S>();
  return round_to<S>(r);
}
// Saturation to [0, 1]; NaN gives +0 (the .sat instruction modifier).
template <class S>
inline S saturate(S a) noexcept {
  if (isnan16(a)) return make<S>(0);
  const float f = f32(a);
  if (f <= 0.0f) return make<S>(a.__x & 0x7fffu ? 0 : a.__x & 0x7fffu);  // +0 (and -0 -> +0)
  if (f >= 1.0f) return round_to<S>(1.0f);
  return a;
}

}  // namespace cuemu::fp16
