// Conversions between the 16-bit types and float, double and the integer types, in every
// rounding direction CUDA offers, plus the bit reinterpretations and the pair constructors.
#pragma once

#include <cuemu/fp16/types.h>
#include <vector_types.h>

#define __CUEMU_FP16_FN__ inline __host__ __device__

namespace cuemu::fp16 {
constexpr round_mode rn = round_mode::rn, rz = round_mode::rz, ru = round_mode::ru,
                     rd = round_mode::rd;
}

// --- float / double -> 16-bit ---------------------------------------------------------------
#define __CUEMU_FP16_FROM_FLOAT(T, P)                                                           \
  __CUEMU_FP16_FN__ T __float2##P(float a) noexcept { return ::cuemu::fp16::round_to<T>(a); }   \
  __CUEMU_FP16_FN__ T __float2##P##_rn(float a) noexcept {                                     \
    return ::cuemu::fp16::round_to<T>(a, ::cuemu::fp16::rn);                                   \
  }                                                                                             \
  __CUEMU_FP16_FN__ T __float2##P##_rz(float a) noexcept {                                     \
    return ::cuemu::fp16::round_to<T>(a, ::cuemu::fp16::rz);                                   \
  }                                                                                             \
  __CUEMU_FP16_FN__ T __float2##P##_ru(float a) noexcept {                                     \
    return ::cuemu::fp16::round_to<T>(a, ::cuemu::fp16::ru);                                   \
  }                                                                                             \
  __CUEMU_FP16_FN__ T __float2##P##_rd(float a) noexcept {                                     \
    return ::cuemu::fp16::round_to<T>(a, ::cuemu::fp16::rd);                                   \
  }                                                                                             \
  __CUEMU_FP16_FN__ T __double2##P(double a) noexcept { return ::cuemu::fp16::round_to<T>(a); }
__CUEMU_FP16_FROM_FLOAT(__half, half)
__CUEMU_FP16_FROM_FLOAT(__nv_bfloat16, bfloat16)
#undef __CUEMU_FP16_FROM_FLOAT

__CUEMU_FP16_FN__ float __half2float(__half a) noexcept { return ::cuemu::fp16::f32(a); }
__CUEMU_FP16_FN__ float __bfloat162float(__nv_bfloat16 a) noexcept {
  return ::cuemu::fp16::f32(a);
}
__CUEMU_FP16_FN__ float __low2float(__half2 a) noexcept { return ::cuemu::fp16::f32(a.x); }
__CUEMU_FP16_FN__ float __high2float(__half2 a) noexcept { return ::cuemu::fp16::f32(a.y); }
__CUEMU_FP16_FN__ float __low2float(__nv_bfloat162 a) noexcept { return ::cuemu::fp16::f32(a.x); }
__CUEMU_FP16_FN__ float __high2float(__nv_bfloat162 a) noexcept {
  return ::cuemu::fp16::f32(a.y);
}

// --- pairs ---------------------------------------------------------------------------------
__CUEMU_FP16_FN__ __half2 __float2half2_rn(float a) noexcept {
  const __half h = __float2half_rn(a);
  return __half2(h, h);
}
__CUEMU_FP16_FN__ __half2 __floats2half2_rn(float a, float b) noexcept {
  return __half2(__float2half_rn(a), __float2half_rn(b));
}
__CUEMU_FP16_FN__ __half2 __float22half2_rn(float2 a) noexcept {
  return __floats2half2_rn(a.x, a.y);
}
__CUEMU_FP16_FN__ float2 __half22float2(__half2 a) noexcept {
  float2 r;
  r.x = __half2float(a.x);
  r.y = __half2float(a.y);
  return r;
}
__CUEMU_FP16_FN__ __nv_bfloat162 __float2bfloat162_rn(float a) noexcept {
  const __nv_bfloat16 h = __float2bfloat16_rn(a);
  return __nv_bfloat162(h, h);
}
__CUEMU_FP16_FN__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b) noexcept {
  return __nv_bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(b));
}
__CUEMU_FP16_FN__ __nv_bfloat162 __float22bfloat162_rn(float2 a) noexcept {
  return __floats2bfloat162_rn(a.x, a.y);
}
__CUEMU_FP16_FN__ float2 __bfloat1622float2(__nv_bfloat162 a) noexcept {
  float2 r;
  r.x = __bfloat162float(a.x);
  r.y = __bfloat162float(a.y);
  return r;
}

// Pair construction and lane moves, generic over both pair types.
#define __CUEMU_FP16_PAIRS(S, S2, P, P2)                                                       \
  __CUEMU_FP16_FN__ S2 __##P##2##P2(S a) noexcept { return S2(a, a); }                         \
  __CUEMU_FP16_FN__ S2 __halves2##P2(S a, S b) noexcept { return S2(a, b); }                   \
  __CUEMU_FP16_FN__ S2 __lows2##P2(S2 a, S2 b) noexcept { return S2(a.x, b.x); }               \
  __CUEMU_FP16_FN__ S2 __highs2##P2(S2 a, S2 b) noexcept { return S2(a.y, b.y); }              \
  __CUEMU_FP16_FN__ S __low2##P(S2 a) noexcept { return a.x; }                                 \
  __CUEMU_FP16_FN__ S __high2##P(S2 a) noexcept { return a.y; }                                \
  __CUEMU_FP16_FN__ S2 __low2##P2(S2 a) noexcept { return S2(a.x, a.x); }                      \
  __CUEMU_FP16_FN__ S2 __high2##P2(S2 a) noexcept { return S2(a.y, a.y); }                     \
  __CUEMU_FP16_FN__ S2 __lowhigh2highlow(S2 a) noexcept { return S2(a.y, a.x); }
__CUEMU_FP16_PAIRS(__half, __half2, half, half2)
__CUEMU_FP16_PAIRS(__nv_bfloat16, __nv_bfloat162, bfloat16, bfloat162)
#undef __CUEMU_FP16_PAIRS
__CUEMU_FP16_FN__ __half2 make_half2(__half x, __half y) noexcept { return __half2(x, y); }
__CUEMU_FP16_FN__ __nv_bfloat162 make_bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) noexcept {
  return __nv_bfloat162(x, y);
}

// --- integers <-> 16-bit, every rounding direction -------------------------------------------
#define __CUEMU_FP16_INT_ONE(S, P, I, IN, M)                                                   \
  __CUEMU_FP16_FN__ S __##IN##2##P##_##M(I v) noexcept {                                       \
    return ::cuemu::fp16::make<S>(                                                              \
        ::cuemu::fp16::from_integer<I, ::cuemu::fp16::traits<S>::format>(v, ::cuemu::fp16::M)); \
  }                                                                                             \
  __CUEMU_FP16_FN__ I __##P##2##IN##_##M(S h) noexcept {                                       \
    return ::cuemu::fp16::to_integer<I, ::cuemu::fp16::traits<S>::format>(h.__x,                \
                                                                          ::cuemu::fp16::M);    \
  }
#define __CUEMU_FP16_INT_ALL(S, P, I, IN) \
  __CUEMU_FP16_INT_ONE(S, P, I, IN, rn)   \
  __CUEMU_FP16_INT_ONE(S, P, I, IN, rz)   \
  __CUEMU_FP16_INT_ONE(S, P, I, IN, ru)   \
  __CUEMU_FP16_INT_ONE(S, P, I, IN, rd)
#define __CUEMU_FP16_INTS(S, P)                          \
  __CUEMU_FP16_INT_ALL(S, P, int, int)                   \
  __CUEMU_FP16_INT_ALL(S, P, unsigned int, uint)         \
  __CUEMU_FP16_INT_ALL(S, P, short, short)               \
  __CUEMU_FP16_INT_ALL(S, P, unsigned short, ushort)     \
  __CUEMU_FP16_INT_ALL(S, P, long long, ll)              \
  __CUEMU_FP16_INT_ALL(S, P, unsigned long long, ull)    \
  __CUEMU_FP16_FN__ signed char __##P##2char_rz(S h) noexcept {                                \
    return ::cuemu::fp16::to_integer<signed char, ::cuemu::fp16::traits<S>::format>(            \
        h.__x, ::cuemu::fp16::rz);                                                              \
  }                                                                                             \
  __CUEMU_FP16_FN__ unsigned char __##P##2uchar_rz(S h) noexcept {                             \
    return ::cuemu::fp16::to_integer<unsigned char, ::cuemu::fp16::traits<S>::format>(          \
        h.__x, ::cuemu::fp16::rz);                                                              \
  }
__CUEMU_FP16_INTS(__half, half)
__CUEMU_FP16_INTS(__nv_bfloat16, bfloat16)
#undef __CUEMU_FP16_INTS
#undef __CUEMU_FP16_INT_ALL
#undef __CUEMU_FP16_INT_ONE

// --- bit reinterpretation --------------------------------------------------------------------
__CUEMU_FP16_FN__ short __half_as_short(__half h) noexcept { return static_cast<short>(h.__x); }
__CUEMU_FP16_FN__ unsigned short __half_as_ushort(__half h) noexcept { return h.__x; }
__CUEMU_FP16_FN__ __half __short_as_half(short i) noexcept {
  return ::cuemu::fp16::make<__half>(static_cast<unsigned short>(i));
}
__CUEMU_FP16_FN__ __half __ushort_as_half(unsigned short i) noexcept {
  return ::cuemu::fp16::make<__half>(i);
}
__CUEMU_FP16_FN__ short __bfloat16_as_short(__nv_bfloat16 h) noexcept {
  return static_cast<short>(h.__x);
}
__CUEMU_FP16_FN__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) noexcept { return h.__x; }
__CUEMU_FP16_FN__ __nv_bfloat16 __short_as_bfloat16(short i) noexcept {
  return ::cuemu::fp16::make<__nv_bfloat16>(static_cast<unsigned short>(i));
}
__CUEMU_FP16_FN__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short i) noexcept {
  return ::cuemu::fp16::make<__nv_bfloat16>(i);
}

// --- half <-> bfloat16 (explicit constructors in CUDA) ---------------------------------------
__CUEMU_FP16_FN__ __nv_bfloat16 __half2bfloat16(__half h) noexcept {
  return __float2bfloat16_rn(__half2float(h));
}
__CUEMU_FP16_FN__ __half __bfloat162half(__nv_bfloat16 h) noexcept {
  return __float2half_rn(__bfloat162float(h));
}
