// The 16-bit floating-point types: __half and __nv_bfloat16 (2 bytes, 2-aligned), their pairs
// __half2 and __nv_bfloat162 (4 bytes, 4-aligned), and the raw structs. One template,
// scalar16<Format, Raw>, carries the encoding and CUDA's constructors and conversion operators;
// the CUDA types derive from it.
#pragma once

#include <cuemu/fp16/format.h>

#include <climits>
#include <limits>
#include <type_traits>
#include <cstdint>

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x;
  unsigned short y;
};
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x;
  unsigned short y;
};

namespace cuemu::fp16 {

// Half -> integer conversions: round in the given direction, saturate to the destination's
// range; NaN gives 0, or 0x8000000000000000 for the 64-bit destinations (the GPU's cvt).
template <class I, class F>
inline I to_integer(std::uint16_t b, round_mode mode) noexcept {
  if (F::is_nan(b)) {
    if (sizeof(I) == 8) return static_cast<I>(0x8000000000000000ull);
    return 0;
  }
  const double v = static_cast<double>(to_float<F>(b));
  double r = v;
  switch (mode) {
    case round_mode::rn: r = __builtin_nearbyint(v); break;
    case round_mode::rz: r = __builtin_trunc(v); break;
    case round_mode::ru: r = __builtin_ceil(v); break;
    case round_mode::rd: r = __builtin_floor(v); break;
  }
  constexpr I lo = std::numeric_limits<I>::min(), hi = std::numeric_limits<I>::max();
  if (r <= static_cast<double>(lo)) return lo;
  if (r >= static_cast<double>(hi)) return hi;
  return static_cast<I>(r);
}

template <class I, class F>
inline std::uint16_t from_integer(I v, round_mode mode) noexcept {
  if constexpr (std::is_signed_v<I>)
    return from_signed<F>(static_cast<long long>(v), mode);
  else
    return from_unsigned<F>(static_cast<unsigned long long>(v), mode);
}

template <class F, class Raw>
struct scalar16 {
  using format_type = F;
  using raw_type = Raw;
  unsigned short __x;

  scalar16() = default;
  constexpr scalar16(const Raw& r) noexcept : __x(r.x) {}
  scalar16(float f) noexcept : __x(from_float<F>(f, round_mode::rn)) {}
  scalar16(double d) noexcept : __x(from_double<F>(d, round_mode::rn)) {}
  scalar16(short v) noexcept : __x(from_integer<short, F>(v, round_mode::rn)) {}
  scalar16(unsigned short v) noexcept : __x(from_integer<unsigned short, F>(v, round_mode::rn)) {}
  scalar16(int v) noexcept : __x(from_integer<int, F>(v, round_mode::rn)) {}
  scalar16(unsigned int v) noexcept : __x(from_integer<unsigned int, F>(v, round_mode::rn)) {}
  scalar16(long v) noexcept : __x(from_integer<long, F>(v, round_mode::rn)) {}
  scalar16(unsigned long v) noexcept : __x(from_integer<unsigned long, F>(v, round_mode::rn)) {}
  scalar16(long long v) noexcept : __x(from_integer<long long, F>(v, round_mode::rn)) {}
  scalar16(unsigned long long v) noexcept
      : __x(from_integer<unsigned long long, F>(v, round_mode::rn)) {}

  operator Raw() const noexcept { return Raw{__x}; }
  operator Raw() const volatile noexcept { return Raw{__x}; }
  operator float() const noexcept { return to_float<F>(__x); }
  // Conversions to integers truncate (rz), as CUDA's operators do.
  operator signed char() const noexcept { return to_integer<signed char, F>(__x, round_mode::rz); }
  operator unsigned char() const noexcept {
    return to_integer<unsigned char, F>(__x, round_mode::rz);
  }
  operator char() const noexcept { return to_integer<char, F>(__x, round_mode::rz); }
  operator short() const noexcept { return to_integer<short, F>(__x, round_mode::rz); }
  operator unsigned short() const noexcept {
    return to_integer<unsigned short, F>(__x, round_mode::rz);
  }
  operator int() const noexcept { return to_integer<int, F>(__x, round_mode::rz); }
  operator unsigned int() const noexcept {
    return to_integer<unsigned int, F>(__x, round_mode::rz);
  }
  operator long() const noexcept { return to_integer<long, F>(__x, round_mode::rz); }
  operator unsigned long() const noexcept {
    return to_integer<unsigned long, F>(__x, round_mode::rz);
  }
  operator long long() const noexcept { return to_integer<long long, F>(__x, round_mode::rz); }
  operator unsigned long long() const noexcept {
    return to_integer<unsigned long long, F>(__x, round_mode::rz);
  }
  constexpr operator bool() const noexcept { return (__x & 0x7fffu) != 0; }
};

}  // namespace cuemu::fp16

#define __CUEMU_FP16_SCALAR(NAME, FMT, RAW)                                                  \
  struct __attribute__((aligned(2))) NAME : ::cuemu::fp16::scalar16<FMT, RAW> {              \
    using base = ::cuemu::fp16::scalar16<FMT, RAW>;                                           \
    using base::base;                                                                         \
    NAME() = default;                                                                         \
    template <class T, class = decltype(base(std::declval<T>()))>                             \
    NAME& operator=(T v) noexcept {                                                           \
      this->__x = base(v).__x;                                                                \
      return *this;                                                                           \
    }                                                                                         \
    NAME& operator=(const RAW& r) noexcept {                                                  \
      this->__x = r.x;                                                                        \
      return *this;                                                                           \
    }                                                                                         \
    volatile NAME& operator=(const RAW& r) volatile noexcept {                                \
      this->__x = r.x;                                                                        \
      return *this;                                                                           \
    }                                                                                         \
    NAME& operator=(const NAME&) = default;                                                   \
  };

#include <type_traits>
#include <utility>

__CUEMU_FP16_SCALAR(__half, ::cuemu::fp16::half_format, __half_raw)
__CUEMU_FP16_SCALAR(__nv_bfloat16, ::cuemu::fp16::bf16_format, __nv_bfloat16_raw)
#undef __CUEMU_FP16_SCALAR

namespace cuemu::fp16 {
// A pair of 16-bit values (x is the low half of the 32-bit word, as on the GPU).
template <class S, class Raw2>
struct pair16 {
  S x;
  S y;
  pair16() = default;
  constexpr pair16(const S& a, const S& b) noexcept : x(a), y(b) {}
  pair16(const Raw2& r) noexcept {
    x.__x = r.x;
    y.__x = r.y;
  }
  operator Raw2() const noexcept { return Raw2{x.__x, y.__x}; }
};
}  // namespace cuemu::fp16

struct __attribute__((aligned(4))) __half2 : ::cuemu::fp16::pair16<__half, __half2_raw> {
  using pair16::pair16;
  __half2() = default;
  __half2& operator=(const __half2_raw& r) noexcept {
    x.__x = r.x;
    y.__x = r.y;
    return *this;
  }
  __half2& operator=(const __half2&) = default;
};
struct __attribute__((aligned(4))) __nv_bfloat162
    : ::cuemu::fp16::pair16<__nv_bfloat16, __nv_bfloat162_raw> {
  using pair16::pair16;
  __nv_bfloat162() = default;
  __nv_bfloat162& operator=(const __nv_bfloat162_raw& r) noexcept {
    x.__x = r.x;
    y.__x = r.y;
    return *this;
  }
  __nv_bfloat162& operator=(const __nv_bfloat162&) = default;
};

typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "__half layout");
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "__half2 layout");
static_assert(sizeof(__nv_bfloat16) == 2 && alignof(__nv_bfloat16) == 2, "bf16 layout");
static_assert(sizeof(__nv_bfloat162) == 4 && alignof(__nv_bfloat162) == 4, "bf162 layout");
static_assert(std::is_trivially_copyable_v<__half> && std::is_trivially_copyable_v<__half2>,
              "trivially copyable");

namespace cuemu::fp16 {
// Traits the templated intrinsics dispatch on.
template <class T> struct traits;
template <> struct traits<__half> {
  using format = half_format;
  using pair = __half2;
};
template <> struct traits<__nv_bfloat16> {
  using format = bf16_format;
  using pair = __nv_bfloat162;
};
template <> struct traits<__half2> { using scalar = __half; };
template <> struct traits<__nv_bfloat162> { using scalar = __nv_bfloat16; };
template <class T>
inline constexpr bool is_scalar16 = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;
template <class T>
inline constexpr bool is_pair16 = std::is_same_v<T, __half2> || std::is_same_v<T, __nv_bfloat162>;

template <class S>
inline S make(std::uint16_t bits) noexcept {
  S s;
  s.__x = bits;
  return s;
}
template <class S>
inline float f32(S s) noexcept {
  return to_float<typename traits<S>::format>(s.__x);
}
template <class S>
inline S round_to(float f, round_mode m = round_mode::rn) noexcept {
  return make<S>(from_float<typename traits<S>::format>(f, m));
}
template <class S>
inline S round_to(double d, round_mode m = round_mode::rn) noexcept {
  return make<S>(from_double<typename traits<S>::format>(d, m));
}
}  // namespace cuemu::fp16
