// Bit-level model of the two 16-bit floating-point formats (IEEE binary16 "half" and bfloat16),
// and rounding of exact values to them in the four IEEE directions, done on integers so that
// every input is rounded exactly once (no double rounding through float).
#pragma once

#include <cstdint>
#include <cstring>

namespace cuemu::fp16 {

// Rounding directions, in the order CUDA names them: _rn, _rz, _ru, _rd.
enum class round_mode { rn, rz, ru, rd };

// A 16-bit format: 1 sign bit, E exponent bits, M fraction bits.
template <int E, int M>
struct format {
  static constexpr int exp_bits = E;
  static constexpr int frac_bits = M;
  static constexpr int bias = (1 << (E - 1)) - 1;
  static constexpr int emin = 1 - bias;  // exponent of the smallest normal number
  static constexpr int emax = bias;      // exponent of the largest finite number
  static constexpr std::uint16_t sign_mask = 0x8000u;
  static constexpr std::uint16_t inf_bits = static_cast<std::uint16_t>(((1u << E) - 1u) << M);
  static constexpr std::uint16_t max_bits = static_cast<std::uint16_t>(inf_bits - 1u);
  static constexpr std::uint16_t nan_bits = 0x7fffu;  // CUDA's canonical NaN, for both formats
  static constexpr bool is_nan(std::uint16_t b) noexcept { return (b & 0x7fffu) > inf_bits; }
  static constexpr bool is_inf(std::uint16_t b) noexcept { return (b & 0x7fffu) == inf_bits; }
  static constexpr bool is_zero(std::uint16_t b) noexcept { return (b & 0x7fffu) == 0; }
};
using half_format = format<5, 10>;
using bf16_format = format<8, 7>;

namespace detail {
inline int bit_width(std::uint64_t v) noexcept { return v ? 64 - __builtin_clzll(v) : 0; }
}  // namespace detail

// Rounds (-1)^neg * mant * 2^exp, plus a positive amount below mant's last bit when sticky is
// set, to format F in direction mode. mant == 0 gives a signed zero.
template <class F>
inline std::uint16_t encode(bool neg, std::uint64_t mant, int exp, bool sticky,
                            round_mode mode) noexcept {
  const std::uint16_t sign = neg ? F::sign_mask : 0;
  if (mant == 0 && !sticky) return sign;
  if (mant == 0) {  // only a sticky remainder: make it one bit far below everything
    mant = 1;
    exp -= 200;
  }
  const int top = detail::bit_width(mant) - 1;  // value in [2^(top+exp), 2^(top+exp+1))
  int e = top + exp;
  // Exponent of the last kept bit: M bits below the leading one, or the subnormal quantum.
  const int q = (e < F::emin ? F::emin : e) - F::frac_bits;
  std::uint64_t kept;
  bool half_bit = false, below = sticky;
  const int shift = q - exp;
  if (shift <= 0) {
    kept = mant << (-shift);  // exact (shift is small: at most M bits)
  } else if (shift > 64) {
    kept = 0;
    below = true;
  } else {
    kept = shift == 64 ? 0 : mant >> shift;
    const std::uint64_t rem = shift == 64 ? mant : mant & ((std::uint64_t{1} << shift) - 1);
    const std::uint64_t halfway = std::uint64_t{1} << (shift - 1);
    half_bit = (rem & halfway) != 0;
    below = below || (rem & (halfway - 1)) != 0;
  }
  const bool inexact = half_bit || below;
  bool up = false;
  switch (mode) {
    case round_mode::rn: up = half_bit && (below || (kept & 1)); break;
    case round_mode::rz: up = false; break;
    case round_mode::ru: up = inexact && !neg; break;
    case round_mode::rd: up = inexact && neg; break;
  }
  if (e > F::emax) {  // overflow before rounding
    const bool to_inf = mode == round_mode::rn || (mode == round_mode::ru && !neg) ||
                        (mode == round_mode::rd && neg);
    return static_cast<std::uint16_t>(sign | (to_inf ? F::inf_bits : F::max_bits));
  }
  // kept < 2^(M+1); for normals its leading bit lands on the exponent field's lowest bit, so
  // adding the biased exponent minus one composes the encoding, and a carry from rounding
  // moves into the exponent (up to infinity) by itself.
  std::uint32_t bits;
  if (e < F::emin) {
    bits = static_cast<std::uint32_t>(kept);
  } else {
    bits = (static_cast<std::uint32_t>(e + F::bias - 1) << F::frac_bits) +
           static_cast<std::uint32_t>(kept);
  }
  bits += up ? 1u : 0u;
  return static_cast<std::uint16_t>(sign | bits);
}

// float -> F (NaN gives the canonical NaN, as the GPU's cvt does).
template <class F>
inline std::uint16_t from_float(float f, round_mode mode) noexcept {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  const bool neg = (u >> 31) != 0;
  const std::uint32_t ex = (u >> 23) & 0xffu, fr = u & 0x7fffffu;
  if (ex == 0xffu) {
    if (fr) return F::nan_bits;
    return static_cast<std::uint16_t>((neg ? F::sign_mask : 0) | F::inf_bits);
  }
  if (ex == 0) return encode<F>(neg, fr, -149, false, mode);
  return encode<F>(neg, fr | 0x800000u, static_cast<int>(ex) - 150, false, mode);
}

// double -> F.
template <class F>
inline std::uint16_t from_double(double d, round_mode mode) noexcept {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
  const bool neg = (u >> 63) != 0;
  const std::uint32_t ex = static_cast<std::uint32_t>(u >> 52) & 0x7ffu;
  const std::uint64_t fr = u & ((std::uint64_t{1} << 52) - 1);
  if (ex == 0x7ffu) {
    if (fr)  // cvt from f64 keeps the sign and the payload's top bits, and sets the quiet bit
      return static_cast<std::uint16_t>((neg ? F::sign_mask : 0) | F::inf_bits |
                                        (1u << (F::frac_bits - 1)) |
                                        static_cast<std::uint16_t>(fr >> (52 - F::frac_bits)));
    return static_cast<std::uint16_t>((neg ? F::sign_mask : 0) | F::inf_bits);
  }
  if (ex == 0) return encode<F>(neg, fr, -1074, false, mode);
  return encode<F>(neg, fr | (std::uint64_t{1} << 52), static_cast<int>(ex) - 1075, false, mode);
}

// Integers -> F.
template <class F>
inline std::uint16_t from_signed(long long v, round_mode mode) noexcept {
  const bool neg = v < 0;
  const std::uint64_t m = neg ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  if (m == 0) return 0;  // integer zero is +0
  return encode<F>(neg, m, 0, false, mode);
}
template <class F>
inline std::uint16_t from_unsigned(unsigned long long v, round_mode mode) noexcept {
  if (v == 0) return 0;
  return encode<F>(false, v, 0, false, mode);
}

// F -> float: exact (both formats are subsets of binary32).
template <class F>
inline float to_float(std::uint16_t b) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(b & 0x8000u) << 16;
  const std::uint32_t ex = (b >> F::frac_bits) & ((1u << F::exp_bits) - 1u);
  const std::uint32_t fr = b & ((1u << F::frac_bits) - 1u);
  std::uint32_t u;
  if (ex == (1u << F::exp_bits) - 1u) {
    if (fr != 0 && F::exp_bits == 5)
      u = 0x7fffffffu;  // cvt.f32.f16 gives the canonical float NaN
    else
      u = sign | 0x7f800000u | (fr << (23 - F::frac_bits));  // inf; a bf16 NaN keeps its bits
  } else if (ex == 0) {
    if (fr == 0) {
      u = sign;
    } else {  // subnormal: normalise (in float it is normal for half; bf16 maps to float subnormals)
      if (F::exp_bits == 8) {
        u = sign | (fr << (23 - F::frac_bits));
      } else {
        int e = F::emin;
        std::uint32_t m = fr;
        while (!(m & (1u << F::frac_bits))) {
          m <<= 1;
          --e;
        }
        u = sign | (static_cast<std::uint32_t>(e + 127) << 23) |
            ((m & ((1u << F::frac_bits) - 1u)) << (23 - F::frac_bits));
      }
    }
  } else {
    u = sign | ((ex - F::bias + 127) << 23) | (fr << (23 - F::frac_bits));
  }
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace cuemu::fp16
