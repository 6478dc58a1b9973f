// The functions CUDA computes with approximate hardware instructions (hsqrt, hrsqrt, hrcp, hexp,
// hexp2, hexp10, hlog, hlog2, hlog10, hsin, hcos, htanh, htanh_approx, and the reciprocal inside
// __hdiv). Each is the correctly rounded result, except for the inputs listed in
// approx_tables.h, recorded from an H200 over all 65536 inputs (tests/fp16/gen_tables.cpp).
#pragma once

#include <cuemu/fp16/types.h>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace cuemu::fp16 {

enum approx_fn {
  fn_sqrt, fn_rsqrt, fn_rcp, fn_exp, fn_exp2, fn_exp10, fn_log, fn_log2, fn_log10, fn_sin,
  fn_cos, fn_tanh, fn_tanh_approx, approx_fn_count
};

// The exact function of the 16-bit input, rounded once to the format.
template <class F>
inline std::uint16_t approx_natural(int fn, std::uint16_t x) noexcept {
  const double v = to_float<F>(x);
  double r = 0;
  switch (fn) {
    case fn_sqrt: r = std::sqrt(v); break;
    case fn_rsqrt: r = 1.0 / std::sqrt(v); break;
    case fn_rcp: r = 1.0 / v; break;
    case fn_exp: r = std::exp(v); break;
    case fn_exp2: r = std::exp2(v); break;
    case fn_exp10: r = std::pow(10.0, v); break;
    case fn_log: r = std::log(v); break;
    case fn_log2: r = std::log2(v); break;
    case fn_log10: r = std::log10(v); break;
    case fn_sin: r = std::sin(v); break;
    case fn_cos: r = std::cos(v); break;
    default: r = std::tanh(v); break;
  }
  if (r != r) return F::nan_bits;
  return from_double<F>(r, round_mode::rn);
}

// Exceptions: sorted (input << 16 | output) words.
inline bool find_exception(const std::uint32_t* t, unsigned n, std::uint16_t x,
                           std::uint16_t* out) noexcept {
  unsigned lo = 0, hi = n;
  while (lo < hi) {
    const unsigned mid = (lo + hi) / 2;
    const std::uint16_t k = static_cast<std::uint16_t>(t[mid] >> 16);
    if (k == x) {
      *out = static_cast<std::uint16_t>(t[mid]);
      return true;
    }
    if (k < x) lo = mid + 1; else hi = mid;
  }
  return false;
}

// The hardware reciprocal (rcp.approx.f32) of a value whose significand has at most 11 bits:
// the reciprocal of the significand from a table of the 1024 significands 1.m (m on 10 bits),
// scaled by the exponent. ftz flushes subnormal inputs and results to zero.
inline float rcp_from_table(const std::uint32_t* mant, float x, bool ftz) noexcept {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  const std::uint32_t sign = u & 0x80000000u;
  std::uint32_t ex = (u >> 23) & 0xffu, fr = u & 0x7fffffu;
  if (ex == 0xffu) return fr ? x : std::copysign(0.0f, x);
  if (ex == 0 && (ftz || fr == 0)) return std::copysign(INFINITY, x);
  int e = static_cast<int>(ex) - 127;
  if (ex == 0) {  // subnormal input: normalise
    e = -126;
    while (!(fr & 0x800000u)) {
      fr <<= 1;
      --e;
    }
    fr &= 0x7fffffu;
  }
  if (fr & 0x1fffu) return 1.0f / x;  // not a 16-bit value's significand: not modelled
  const std::uint32_t r = mant[fr >> 13];  // reciprocal of 1.m, in (0.5, 1]
  float rf;
  std::memcpy(&rf, &r, 4);
  float v = std::ldexp(rf, -e);
  if (ftz && v != 0 && std::fabs(v) < 0x1p-126f) v = 0;
  std::uint32_t vu;
  std::memcpy(&vu, &v, 4);
  vu |= sign;
  std::memcpy(&v, &vu, 4);
  return v;
}

// div.approx.f32 (CUDA's bfloat16 division): a times the hardware reciprocal of b; a subnormal
// b is scaled into the normal range first. (|b| >= 2^126 gives 0 on the GPU; CUDA's header
// pre-scales such b, so that case never reaches here.)
inline float div_from_table(const std::uint32_t* mant, float a, float b) noexcept {
  if (b != 0 && std::fabs(b) < 0x1p-126f) {
    volatile float q = a * rcp_from_table(mant, b * 0x1p24f, false);
    volatile float r = q * 0x1p24f;
    return r;
  }
  volatile float q = a * rcp_from_table(mant, b, false);
  return q;
}

}  // namespace cuemu::fp16

#ifndef CUEMU_FP16_GENERATING_TABLES
#include <cuemu/fp16/approx_tables.h>

namespace cuemu::fp16 {
inline float rcp_approx_ftz(float x) noexcept { return rcp_from_table(rcp_significands, x, true); }
inline float div_approx(float a, float b) noexcept {
  return div_from_table(rcp_significands, a, b);
}
template <class S>
inline S approx(int fn, S a) noexcept {
  using F = typename traits<S>::format;
  const bool h = std::is_same_v<S, __half>;
  std::uint16_t out;
  if (find_exception(h ? half_exceptions[fn] : bf16_exceptions[fn],
                     h ? half_exception_count[fn] : bf16_exception_count[fn], a.__x, &out))
    return make<S>(out);
  return make<S>(approx_natural<F>(fn, a.__x));
}
}  // namespace cuemu::fp16

#define __CUEMU_FP16_APPROX(S, S2, NAME, FN)                                                  \
  __CUEMU_FP16_FN__ S NAME(S a) noexcept { return ::cuemu::fp16::approx(::cuemu::fp16::FN, a); }
#define __CUEMU_FP16_APPROX_ALL(S, S2)                                  \
  __CUEMU_FP16_APPROX(S, S2, hsqrt, fn_sqrt)                            \
  __CUEMU_FP16_APPROX(S, S2, hrsqrt, fn_rsqrt)                          \
  __CUEMU_FP16_APPROX(S, S2, hrcp, fn_rcp)                              \
  __CUEMU_FP16_APPROX(S, S2, hexp, fn_exp)                              \
  __CUEMU_FP16_APPROX(S, S2, hexp2, fn_exp2)                            \
  __CUEMU_FP16_APPROX(S, S2, hexp10, fn_exp10)                          \
  __CUEMU_FP16_APPROX(S, S2, hlog, fn_log)                              \
  __CUEMU_FP16_APPROX(S, S2, hlog2, fn_log2)                            \
  __CUEMU_FP16_APPROX(S, S2, hlog10, fn_log10)                          \
  __CUEMU_FP16_APPROX(S, S2, hsin, fn_sin)                              \
  __CUEMU_FP16_APPROX(S, S2, hcos, fn_cos)                              \
  __CUEMU_FP16_APPROX(S, S2, htanh, fn_tanh)                            \
  __CUEMU_FP16_APPROX(S, S2, htanh_approx, fn_tanh_approx)              \
  __CUEMU_FP16_LANES1(S2, h2sqrt, hsqrt)                                \
  __CUEMU_FP16_LANES1(S2, h2rsqrt, hrsqrt)                              \
  __CUEMU_FP16_LANES1(S2, h2rcp, hrcp)                                  \
  __CUEMU_FP16_LANES1(S2, h2exp, hexp)                                  \
  __CUEMU_FP16_LANES1(S2, h2exp2, hexp2)                                \
  __CUEMU_FP16_LANES1(S2, h2exp10, hexp10)                              \
  __CUEMU_FP16_LANES1(S2, h2log, hlog)                                  \
  __CUEMU_FP16_LANES1(S2, h2log2, hlog2)                                \
  __CUEMU_FP16_LANES1(S2, h2log10, hlog10)                              \
  __CUEMU_FP16_LANES1(S2, h2sin, hsin)                                  \
  __CUEMU_FP16_LANES1(S2, h2cos, hcos)                                  \
  __CUEMU_FP16_LANES1(S2, h2tanh, htanh)                                \
  __CUEMU_FP16_LANES1(S2, h2tanh_approx, htanh_approx)
__CUEMU_FP16_APPROX_ALL(__half, __half2)
__CUEMU_FP16_APPROX_ALL(__nv_bfloat16, __nv_bfloat162)
#undef __CUEMU_FP16_APPROX_ALL
#undef __CUEMU_FP16_APPROX
#endif
