// Arithmetic, comparison and min/max intrinsics and the C++ operators on the 16-bit types and
// their pairs. The operations are templates (cuemu::fp16::op_*); the CUDA names are non-template
// overloads for __half/__half2 and __nv_bfloat16/__nv_bfloat162, so implicit conversions work
// as with CUDA's declarations. NaN results are the canonical NaN 0x7fff (as on an H200, also for
// __hneg and __habs).
#pragma once

#include <cuemu/fp16/convert.h>
#include <cuemu/fp16/exact.h>

namespace cuemu::fp16 {

template <class S>
inline S op_neg(S a) noexcept {
  return isnan16(a) ? canonical_nan<S>() : make<S>(a.__x ^ 0x8000u);
}
template <class S>
inline S op_abs(S a) noexcept {
  return isnan16(a) ? canonical_nan<S>() : make<S>(a.__x & 0x7fffu);
}
// min/max: a NaN operand is ignored (both NaN: canonical NaN); -0 is below +0.
template <class S>
inline S op_min(S a, S b, bool nan_propagates) noexcept {
  const bool na = isnan16(a), nb = isnan16(b);
  if (na || nb) return (nan_propagates || (na && nb)) ? canonical_nan<S>() : (na ? b : a);
  const float fa = f32(a), fb = f32(b);
  if (fa == fb) return (a.__x & 0x8000u) ? a : b;
  return fa < fb ? a : b;
}
template <class S>
inline S op_max(S a, S b, bool nan_propagates) noexcept {
  const bool na = isnan16(a), nb = isnan16(b);
  if (na || nb) return (nan_propagates || (na && nb)) ? canonical_nan<S>() : (na ? b : a);
  const float fa = f32(a), fb = f32(b);
  if (fa == fb) return (a.__x & 0x8000u) ? b : a;
  return fa > fb ? a : b;
}

// Division. half: CUDA's sequence (hardware reciprocal, one product, a correction step for
// results near the subnormal range). bf16: the hardware's approximate float division
// (a times the hardware reciprocal of b), b pre-scaled when huge.
float rcp_approx_ftz(float x) noexcept;  // approx.h
float div_approx(float a, float b) noexcept;
inline __half op_div(__half a, __half b) noexcept {
  const float fa = f32(a), fb = f32(b);
  const float rcp = rcp_approx_ftz(fb);
  float fv = rcp * fa;
  __half v = round_to<__half>(fv);
  const __half av = op_abs(v);
  if (!isnan16(av) && f32(av) < f32(make<__half>(0x008f)) && f32(av) > 0.0f) {
    const float err = __builtin_fmaf(-fb, fv, fa);
    fv = __builtin_fmaf(rcp, err, fv);
    v = round_to<__half>(fv);
  }
  return v;
}
inline __nv_bfloat16 op_div(__nv_bfloat16 a, __nv_bfloat16 b) noexcept {
  const float fa = f32(a);
  float fb = f32(b);
  const bool big = __builtin_fabsf(fb) >= 0x1p126f;
  if (big) fb *= 0.25f;
  float r = div_approx(fa, fb);
  if (big) r = __builtin_fmaf(r, 0.25f, -0.0f);
  return round_to<__nv_bfloat16>(r);
}

enum cmp_op { eq, ne, lt, le, gt, ge };
template <class S>
inline bool op_cmp(S a, S b, cmp_op op, bool unordered) noexcept {
  if (isnan16(a) || isnan16(b)) return unordered;
  const float fa = f32(a), fb = f32(b);
  switch (op) {
    case eq: return fa == fb;
    case ne: return fa != fb;
    case lt: return fa < fb;
    case le: return fa <= fb;
    case gt: return fa > fb;
    default: return fa >= fb;
  }
}
template <class S>
inline int op_isinf(S a) noexcept {
  if (!traits<S>::format::is_inf(a.__x)) return 0;
  return (a.__x & 0x8000u) ? -1 : 1;
}
// Rounding to integral values (cvt.rni/rzi/rpi/rmi on the 16-bit value).
template <class S>
inline S op_round(S a, round_mode m) noexcept {
  if (isnan16(a)) return canonical_nan<S>();
  const float f = f32(a);
  float r = f;
  switch (m) {
    case round_mode::rn: r = __builtin_nearbyintf(f); break;
    case round_mode::rz: r = __builtin_truncf(f); break;
    case round_mode::ru: r = __builtin_ceilf(f); break;
    case round_mode::rd: r = __builtin_floorf(f); break;
  }
  return round_to<S>(r);
}
template <class S>
inline S one() noexcept {
  return round_to<S>(1.0f);
}

}  // namespace cuemu::fp16

#define __CUEMU_FP16_CMP(S, S2, NAME, OP, UN)                                                   \
  __CUEMU_FP16_FN__ bool NAME(S a, S b) noexcept {                                             \
    return ::cuemu::fp16::op_cmp(a, b, ::cuemu::fp16::OP, UN);                                 \
  }                                                                                             \
  __CUEMU_FP16_FN__ S2 NAME##2(S2 a, S2 b) noexcept {                                          \
    const S o = ::cuemu::fp16::one<S>(), z = ::cuemu::fp16::make<S>(0);                        \
    return S2(NAME(a.x, b.x) ? o : z, NAME(a.y, b.y) ? o : z);                                 \
  }                                                                                             \
  __CUEMU_FP16_FN__ unsigned NAME##2_mask(S2 a, S2 b) noexcept {                               \
    return (NAME(a.x, b.x) ? 0xffffu : 0u) | (NAME(a.y, b.y) ? 0xffff0000u : 0u);              \
  }
#define __CUEMU_FP16_BCMP(S2, NAME, BNAME)                   \
  __CUEMU_FP16_FN__ bool BNAME(S2 a, S2 b) noexcept {        \
    return NAME(a.x, b.x) && NAME(a.y, b.y);                 \
  }

#define __CUEMU_FP16_LANES1(S2, NAME, F) \
  __CUEMU_FP16_FN__ S2 NAME(S2 a) noexcept { return S2(F(a.x), F(a.y)); }
#define __CUEMU_FP16_LANES2(S2, NAME, F) \
  __CUEMU_FP16_FN__ S2 NAME(S2 a, S2 b) noexcept { return S2(F(a.x, b.x), F(a.y, b.y)); }
#define __CUEMU_FP16_LANES3(S2, NAME, F)                           \
  __CUEMU_FP16_FN__ S2 NAME(S2 a, S2 b, S2 c) noexcept {           \
    return S2(F(a.x, b.x, c.x), F(a.y, b.y, c.y));                 \
  }

#define __CUEMU_FP16_OPS(S, S2)                                                                 \
  __CUEMU_FP16_FN__ S __hadd(S a, S b) noexcept { return ::cuemu::fp16::add_rn(a, b); }        \
  __CUEMU_FP16_FN__ S __hsub(S a, S b) noexcept { return ::cuemu::fp16::sub_rn(a, b); }        \
  __CUEMU_FP16_FN__ S __hmul(S a, S b) noexcept { return ::cuemu::fp16::mul_rn(a, b); }        \
  __CUEMU_FP16_FN__ S __hadd_rn(S a, S b) noexcept { return ::cuemu::fp16::add_rn(a, b); }     \
  __CUEMU_FP16_FN__ S __hsub_rn(S a, S b) noexcept { return ::cuemu::fp16::sub_rn(a, b); }     \
  __CUEMU_FP16_FN__ S __hmul_rn(S a, S b) noexcept { return ::cuemu::fp16::mul_rn(a, b); }     \
  __CUEMU_FP16_FN__ S __hdiv(S a, S b) noexcept { return ::cuemu::fp16::op_div(a, b); }        \
  __CUEMU_FP16_FN__ S __hfma(S a, S b, S c) noexcept { return ::cuemu::fp16::fma_rn(a, b, c); } \
  __CUEMU_FP16_FN__ S __hadd_sat(S a, S b) noexcept {                                          \
    return ::cuemu::fp16::saturate(__hadd(a, b));                                              \
  }                                                                                             \
  __CUEMU_FP16_FN__ S __hsub_sat(S a, S b) noexcept {                                          \
    return ::cuemu::fp16::saturate(__hsub(a, b));                                              \
  }                                                                                             \
  __CUEMU_FP16_FN__ S __hmul_sat(S a, S b) noexcept {                                          \
    return ::cuemu::fp16::saturate(__hmul(a, b));                                              \
  }                                                                                             \
  __CUEMU_FP16_FN__ S __hfma_sat(S a, S b, S c) noexcept {                                     \
    return ::cuemu::fp16::saturate(__hfma(a, b, c));                                           \
  }                                                                                             \
  __CUEMU_FP16_FN__ S __hfma_relu(S a, S b, S c) noexcept {                                    \
    const S r = __hfma(a, b, c);                                                               \
    if (::cuemu::fp16::isnan16(r)) return r;                                                   \
    return ::cuemu::fp16::f32(r) < 0.0f ? ::cuemu::fp16::make<S>(0) : r;                       \
  }                                                                                             \
  __CUEMU_FP16_FN__ S __hneg(S a) noexcept { return ::cuemu::fp16::op_neg(a); }                \
  __CUEMU_FP16_FN__ S __habs(S a) noexcept { return ::cuemu::fp16::op_abs(a); }                \
  __CUEMU_FP16_FN__ S __hmin(S a, S b) noexcept { return ::cuemu::fp16::op_min(a, b, false); } \
  __CUEMU_FP16_FN__ S __hmax(S a, S b) noexcept { return ::cuemu::fp16::op_max(a, b, false); } \
  __CUEMU_FP16_FN__ S __hmin_nan(S a, S b) noexcept {                                          \
    return ::cuemu::fp16::op_min(a, b, true);                                                  \
  }                                                                                             \
  __CUEMU_FP16_FN__ S __hmax_nan(S a, S b) noexcept {                                          \
    return ::cuemu::fp16::op_max(a, b, true);                                                  \
  }                                                                                             \
  __CUEMU_FP16_FN__ bool __hisnan(S a) noexcept { return ::cuemu::fp16::isnan16(a); }          \
  __CUEMU_FP16_FN__ int __hisinf(S a) noexcept { return ::cuemu::fp16::op_isinf(a); }          \
  __CUEMU_FP16_FN__ S hfloor(S a) noexcept { return ::cuemu::fp16::op_round(a, ::cuemu::fp16::rd); } \
  __CUEMU_FP16_FN__ S hceil(S a) noexcept { return ::cuemu::fp16::op_round(a, ::cuemu::fp16::ru); }  \
  __CUEMU_FP16_FN__ S htrunc(S a) noexcept { return ::cuemu::fp16::op_round(a, ::cuemu::fp16::rz); } \
  __CUEMU_FP16_FN__ S hrint(S a) noexcept { return ::cuemu::fp16::op_round(a, ::cuemu::fp16::rn); }  \
  __CUEMU_FP16_CMP(S, S2, __heq, eq, false)                                                    \
  __CUEMU_FP16_CMP(S, S2, __hne, ne, false)                                                    \
  __CUEMU_FP16_CMP(S, S2, __hlt, lt, false)                                                    \
  __CUEMU_FP16_CMP(S, S2, __hle, le, false)                                                    \
  __CUEMU_FP16_CMP(S, S2, __hgt, gt, false)                                                    \
  __CUEMU_FP16_CMP(S, S2, __hge, ge, false)                                                    \
  __CUEMU_FP16_CMP(S, S2, __hequ, eq, true)                                                    \
  __CUEMU_FP16_CMP(S, S2, __hneu, ne, true)                                                    \
  __CUEMU_FP16_CMP(S, S2, __hltu, lt, true)                                                    \
  __CUEMU_FP16_CMP(S, S2, __hleu, le, true)                                                    \
  __CUEMU_FP16_CMP(S, S2, __hgtu, gt, true)                                                    \
  __CUEMU_FP16_CMP(S, S2, __hgeu, ge, true)                                                    \
  __CUEMU_FP16_BCMP(S2, __heq, __hbeq2)                                                        \
  __CUEMU_FP16_BCMP(S2, __hne, __hbne2)                                                        \
  __CUEMU_FP16_BCMP(S2, __hlt, __hblt2)                                                        \
  __CUEMU_FP16_BCMP(S2, __hle, __hble2)                                                        \
  __CUEMU_FP16_BCMP(S2, __hgt, __hbgt2)                                                        \
  __CUEMU_FP16_BCMP(S2, __hge, __hbge2)                                                        \
  __CUEMU_FP16_BCMP(S2, __hequ, __hbequ2)                                                      \
  __CUEMU_FP16_BCMP(S2, __hneu, __hbneu2)                                                      \
  __CUEMU_FP16_BCMP(S2, __hltu, __hbltu2)                                                      \
  __CUEMU_FP16_BCMP(S2, __hleu, __hbleu2)                                                      \
  __CUEMU_FP16_BCMP(S2, __hgtu, __hbgtu2)                                                      \
  __CUEMU_FP16_BCMP(S2, __hgeu, __hbgeu2)                                                      \
  __CUEMU_FP16_LANES2(S2, __hadd2, __hadd)                                                     \
  __CUEMU_FP16_LANES2(S2, __hsub2, __hsub)                                                     \
  __CUEMU_FP16_LANES2(S2, __hmul2, __hmul)                                                     \
  __CUEMU_FP16_LANES2(S2, __hadd2_rn, __hadd)                                                  \
  __CUEMU_FP16_LANES2(S2, __hsub2_rn, __hsub)                                                  \
  __CUEMU_FP16_LANES2(S2, __hmul2_rn, __hmul)                                                  \
  __CUEMU_FP16_LANES2(S2, __h2div, __hdiv)                                                     \
  __CUEMU_FP16_LANES2(S2, __hadd2_sat, __hadd_sat)                                             \
  __CUEMU_FP16_LANES2(S2, __hsub2_sat, __hsub_sat)                                             \
  __CUEMU_FP16_LANES2(S2, __hmul2_sat, __hmul_sat)                                             \
  __CUEMU_FP16_LANES2(S2, __hmin2, __hmin)                                                     \
  __CUEMU_FP16_LANES2(S2, __hmax2, __hmax)                                                     \
  __CUEMU_FP16_LANES2(S2, __hmin2_nan, __hmin_nan)                                             \
  __CUEMU_FP16_LANES2(S2, __hmax2_nan, __hmax_nan)                                             \
  __CUEMU_FP16_LANES3(S2, __hfma2, __hfma)                                                     \
  __CUEMU_FP16_LANES3(S2, __hfma2_sat, __hfma_sat)                                             \
  __CUEMU_FP16_LANES3(S2, __hfma2_relu, __hfma_relu)                                           \
  __CUEMU_FP16_LANES1(S2, __hneg2, __hneg)                                                     \
  __CUEMU_FP16_LANES1(S2, __habs2, __habs)                                                     \
  __CUEMU_FP16_LANES1(S2, h2floor, hfloor)                                                     \
  __CUEMU_FP16_LANES1(S2, h2ceil, hceil)                                                       \
  __CUEMU_FP16_LANES1(S2, h2trunc, htrunc)                                                     \
  __CUEMU_FP16_LANES1(S2, h2rint, hrint)                                                       \
  __CUEMU_FP16_FN__ S2 __hisnan2(S2 a) noexcept {                                              \
    const S o = ::cuemu::fp16::one<S>(), z = ::cuemu::fp16::make<S>(0);                        \
    return S2(__hisnan(a.x) ? o : z, __hisnan(a.y) ? o : z);                                   \
  }                                                                                             \
  __CUEMU_FP16_FN__ S __hmax3(S a, S b, S c) noexcept { return __hmax(__hmax(a, b), c); }      \
  __CUEMU_FP16_FN__ S __hmin3(S a, S b, S c) noexcept { return __hmin(__hmin(a, b), c); }      \
  /* C++ operators (CUDA's: == and the orderings are ordered, != is unordered) */             \
  __CUEMU_FP16_FN__ S operator+(const S& a, const S& b) noexcept { return __hadd(a, b); }      \
  __CUEMU_FP16_FN__ S operator-(const S& a, const S& b) noexcept { return __hsub(a, b); }      \
  __CUEMU_FP16_FN__ S operator*(const S& a, const S& b) noexcept { return __hmul(a, b); }      \
  __CUEMU_FP16_FN__ S operator/(const S& a, const S& b) noexcept { return __hdiv(a, b); }      \
  __CUEMU_FP16_FN__ S& operator+=(S& a, const S& b) noexcept { return a = __hadd(a, b); }      \
  __CUEMU_FP16_FN__ S& operator-=(S& a, const S& b) noexcept { return a = __hsub(a, b); }      \
  __CUEMU_FP16_FN__ S& operator*=(S& a, const S& b) noexcept { return a = __hmul(a, b); }      \
  __CUEMU_FP16_FN__ S& operator/=(S& a, const S& b) noexcept { return a = __hdiv(a, b); }      \
  __CUEMU_FP16_FN__ S& operator++(S& a) noexcept { return a = __hadd(a, ::cuemu::fp16::one<S>()); } \
  __CUEMU_FP16_FN__ S& operator--(S& a) noexcept { return a = __hsub(a, ::cuemu::fp16::one<S>()); } \
  __CUEMU_FP16_FN__ S operator++(S& a, int) noexcept {                                         \
    const S r = a;                                                                              \
    ++a;                                                                                        \
    return r;                                                                                   \
  }                                                                                             \
  __CUEMU_FP16_FN__ S operator--(S& a, int) noexcept {                                         \
    const S r = a;                                                                              \
    --a;                                                                                        \
    return r;                                                                                   \
  }                                                                                             \
  __CUEMU_FP16_FN__ S operator+(const S& a) noexcept { return a; }                             \
  __CUEMU_FP16_FN__ S operator-(const S& a) noexcept { return __hneg(a); }                     \
  __CUEMU_FP16_FN__ bool operator==(const S& a, const S& b) noexcept { return __heq(a, b); }   \
  __CUEMU_FP16_FN__ bool operator!=(const S& a, const S& b) noexcept { return __hneu(a, b); }  \
  __CUEMU_FP16_FN__ bool operator<(const S& a, const S& b) noexcept { return __hlt(a, b); }    \
  __CUEMU_FP16_FN__ bool operator<=(const S& a, const S& b) noexcept { return __hle(a, b); }   \
  __CUEMU_FP16_FN__ bool operator>(const S& a, const S& b) noexcept { return __hgt(a, b); }    \
  __CUEMU_FP16_FN__ bool operator>=(const S& a, const S& b) noexcept { return __hge(a, b); }   \
  __CUEMU_FP16_FN__ S2 operator+(const S2& a, const S2& b) noexcept { return __hadd2(a, b); }  \
  __CUEMU_FP16_FN__ S2 operator-(const S2& a, const S2& b) noexcept { return __hsub2(a, b); }  \
  __CUEMU_FP16_FN__ S2 operator*(const S2& a, const S2& b) noexcept { return __hmul2(a, b); }  \
  __CUEMU_FP16_FN__ S2 operator/(const S2& a, const S2& b) noexcept { return __h2div(a, b); }  \
  __CUEMU_FP16_FN__ S2& operator+=(S2& a, const S2& b) noexcept { return a = __hadd2(a, b); }  \
  __CUEMU_FP16_FN__ S2& operator-=(S2& a, const S2& b) noexcept { return a = __hsub2(a, b); }  \
  __CUEMU_FP16_FN__ S2& operator*=(S2& a, const S2& b) noexcept { return a = __hmul2(a, b); }  \
  __CUEMU_FP16_FN__ S2& operator/=(S2& a, const S2& b) noexcept { return a = __h2div(a, b); }  \
  __CUEMU_FP16_FN__ S2 operator+(const S2& a) noexcept { return a; }                           \
  __CUEMU_FP16_FN__ S2 operator-(const S2& a) noexcept { return __hneg2(a); }                  \
  __CUEMU_FP16_FN__ bool operator==(const S2& a, const S2& b) noexcept { return __hbeq2(a, b); } \
  __CUEMU_FP16_FN__ bool operator!=(const S2& a, const S2& b) noexcept { return __hbneu2(a, b); } \
  __CUEMU_FP16_FN__ bool operator<(const S2& a, const S2& b) noexcept { return __hblt2(a, b); } \
  __CUEMU_FP16_FN__ bool operator<=(const S2& a, const S2& b) noexcept { return __hble2(a, b); } \
  __CUEMU_FP16_FN__ bool operator>(const S2& a, const S2& b) noexcept { return __hbgt2(a, b); } \
  __CUEMU_FP16_FN__ bool operator>=(const S2& a, const S2& b) noexcept { return __hbge2(a, b); }

__CUEMU_FP16_OPS(__half, __half2)
__CUEMU_FP16_OPS(__nv_bfloat16, __nv_bfloat162)
#undef __CUEMU_FP16_OPS
#undef __CUEMU_FP16_CMP
#undef __CUEMU_FP16_BCMP
