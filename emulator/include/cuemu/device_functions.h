// CUDA's simple device functions, for code that runs on the CPU: bit reinterpretation, integer
// intrinsics, min/max, cache-hinted loads and stores (plain accesses here), fences, clocks,
// fast-math and explicitly rounded arithmetic, and the CUDA-only math functions. The C math
// library (sqrtf, expf, fminf, ...) is usable unqualified, as in CUDA.
//
// Included by <cuda_runtime.h>; <device_functions.h>, <math_functions.h>, <sm_20_intrinsics.h>,
// ... are thin includes of this header.
#pragma once

#include <cuemu/conversions.h>
#include <cuemu/host_defines.h>
#include <cuemu/libdevice.h>
#include <cuemu/progress.h>
#include <vector_types.h>

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include <atomic>
#include <cfenv>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <thread>
#include <type_traits>

#define __CUEMU_DF__ inline __host__ __device__

// ---------------------------------------------------------------------------------------------
// Bit reinterpretation
// ---------------------------------------------------------------------------------------------
__CUEMU_DF__ constexpr float __int_as_float(int x) noexcept { return __builtin_bit_cast(float, x); }
__CUEMU_DF__ constexpr int __float_as_int(float x) noexcept { return __builtin_bit_cast(int, x); }
__CUEMU_DF__ constexpr float __uint_as_float(unsigned int x) noexcept {
  return __builtin_bit_cast(float, x);
}
__CUEMU_DF__ constexpr unsigned int __float_as_uint(float x) noexcept {
  return __builtin_bit_cast(unsigned int, x);
}
__CUEMU_DF__ constexpr double __longlong_as_double(long long x) noexcept {
  return __builtin_bit_cast(double, x);
}
__CUEMU_DF__ constexpr long long __double_as_longlong(double x) noexcept {
  return __builtin_bit_cast(long long, x);
}
__CUEMU_DF__ constexpr double __hiloint2double(int hi, int lo) noexcept {
  return __builtin_bit_cast(double, static_cast<unsigned long long>(static_cast<unsigned int>(hi))
                                            << 32 |
                                        static_cast<unsigned int>(lo));
}
__CUEMU_DF__ constexpr int __double2hiint(double x) noexcept {
  return static_cast<int>(static_cast<unsigned int>(__builtin_bit_cast(unsigned long long, x) >> 32));
}
__CUEMU_DF__ constexpr int __double2loint(double x) noexcept {
  return static_cast<int>(static_cast<unsigned int>(__builtin_bit_cast(unsigned long long, x)));
}

// ---------------------------------------------------------------------------------------------
// Integer intrinsics
// ---------------------------------------------------------------------------------------------
__CUEMU_DF__ constexpr int __popc(unsigned int x) noexcept { return __builtin_popcount(x); }
__CUEMU_DF__ constexpr int __popcll(unsigned long long x) noexcept {
  return __builtin_popcountll(x);
}
__CUEMU_DF__ constexpr int __clz(int x) noexcept {
  return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x));
}
__CUEMU_DF__ constexpr int __clzll(long long x) noexcept {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
__CUEMU_DF__ constexpr int __ffs(int x) noexcept { return __builtin_ffs(x); }
__CUEMU_DF__ constexpr int __ffsll(long long x) noexcept { return __builtin_ffsll(x); }
__CUEMU_DF__ constexpr unsigned int __brev(unsigned int x) noexcept {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
  return (x >> 16) | (x << 16);
}
__CUEMU_DF__ constexpr unsigned long long __brevll(unsigned long long x) noexcept {
  return static_cast<unsigned long long>(__brev(static_cast<unsigned int>(x))) << 32 |
         __brev(static_cast<unsigned int>(x >> 32));
}
// Byte n of the result is byte ((s >> 4n) & 7) of the 8-byte value {y:x} (x holds bytes 0..3).
__CUEMU_DF__ constexpr unsigned int __byte_perm(unsigned int x, unsigned int y,
                                                unsigned int s) noexcept {
  const unsigned long long v = static_cast<unsigned long long>(y) << 32 | x;
  unsigned int r = 0;
  for (int n = 0; n < 4; ++n) {
    const unsigned int sel = (s >> (4 * n)) & 7u;
    r |= static_cast<unsigned int>((v >> (8 * sel)) & 0xFFu) << (8 * n);
  }
  return r;
}
// Funnel shifts of the 64-bit value {hi:lo}: _l returns the upper 32 bits after a left shift,
// _r the lower 32 bits after a right shift; the shift is taken mod 32 (wrap) or clamped to 32 (c).
__CUEMU_DF__ constexpr unsigned int __funnelshift_l(unsigned int lo, unsigned int hi,
                                                    unsigned int shift) noexcept {
  const unsigned long long v = static_cast<unsigned long long>(hi) << 32 | lo;
  return static_cast<unsigned int>((v << (shift & 31u)) >> 32);
}
__CUEMU_DF__ constexpr unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi,
                                                     unsigned int shift) noexcept {
  const unsigned long long v = static_cast<unsigned long long>(hi) << 32 | lo;
  return static_cast<unsigned int>((v << (shift < 32u ? shift : 32u)) >> 32);
}
__CUEMU_DF__ constexpr unsigned int __funnelshift_r(unsigned int lo, unsigned int hi,
                                                    unsigned int shift) noexcept {
  const unsigned long long v = static_cast<unsigned long long>(hi) << 32 | lo;
  return static_cast<unsigned int>(v >> (shift & 31u));
}
__CUEMU_DF__ constexpr unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi,
                                                     unsigned int shift) noexcept {
  const unsigned long long v = static_cast<unsigned long long>(hi) << 32 | lo;
  return static_cast<unsigned int>(v >> (shift < 32u ? shift : 32u));
}
// 24-bit multiplies: the low 24 bits of each operand (sign-extended for __mul24), low 32 bits of
// the product.
__CUEMU_DF__ constexpr int __mul24(int x, int y) noexcept {
  const long long a = static_cast<int>(static_cast<unsigned int>(x) << 8) >> 8;
  const long long b = static_cast<int>(static_cast<unsigned int>(y) << 8) >> 8;
  return static_cast<int>(static_cast<unsigned int>(static_cast<unsigned long long>(a * b)));
}
__CUEMU_DF__ constexpr unsigned int __umul24(unsigned int x, unsigned int y) noexcept {
  return static_cast<unsigned int>(static_cast<unsigned long long>(x & 0xFFFFFFu) *
                                   (y & 0xFFFFFFu));
}
__CUEMU_DF__ constexpr int __mulhi(int x, int y) noexcept {
  return static_cast<int>((static_cast<long long>(x) * y) >> 32);
}
__CUEMU_DF__ constexpr unsigned int __umulhi(unsigned int x, unsigned int y) noexcept {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
__CUEMU_DF__ constexpr long long __mul64hi(long long x, long long y) noexcept {
  return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
__CUEMU_DF__ constexpr unsigned long long __umul64hi(unsigned long long x,
                                                     unsigned long long y) noexcept {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
__CUEMU_DF__ constexpr unsigned int __sad(int x, int y, unsigned int z) noexcept {
  return (x > y ? static_cast<unsigned int>(x) - static_cast<unsigned int>(y)
                : static_cast<unsigned int>(y) - static_cast<unsigned int>(x)) +
         z;
}
__CUEMU_DF__ constexpr unsigned int __usad(unsigned int x, unsigned int y,
                                           unsigned int z) noexcept {
  return (x > y ? x - y : y - x) + z;
}
__CUEMU_DF__ constexpr int __hadd(int x, int y) noexcept {
  return static_cast<int>((static_cast<long long>(x) + y) >> 1);
}
__CUEMU_DF__ constexpr int __rhadd(int x, int y) noexcept {
  return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1);
}
__CUEMU_DF__ constexpr unsigned int __uhadd(unsigned int x, unsigned int y) noexcept {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y) >> 1);
}
__CUEMU_DF__ constexpr unsigned int __urhadd(unsigned int x, unsigned int y) noexcept {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
// Dot products of packed bytes / half-words (sm_61+).
__CUEMU_DF__ constexpr int __dp4a(int srcA, int srcB, int c) noexcept {
  int r = c;
  for (int i = 0; i < 4; ++i)
    r += static_cast<signed char>(static_cast<unsigned int>(srcA) >> (8 * i)) *
         static_cast<signed char>(static_cast<unsigned int>(srcB) >> (8 * i));
  return r;
}
__CUEMU_DF__ constexpr unsigned int __dp4a(unsigned int srcA, unsigned int srcB,
                                           unsigned int c) noexcept {
  unsigned int r = c;
  for (int i = 0; i < 4; ++i) r += ((srcA >> (8 * i)) & 0xFFu) * ((srcB >> (8 * i)) & 0xFFu);
  return r;
}

// ---------------------------------------------------------------------------------------------
// min / max (CUDA declares them in the global namespace; std::min/std::max are unaffected:
// for equal argument types the non-template overloads below win over std's templates)
// ---------------------------------------------------------------------------------------------
#define __CUEMU_MINMAX(T)                                                         \
  __CUEMU_DF__ constexpr T min(T a, T b) noexcept { return b < a ? b : a; }      \
  __CUEMU_DF__ constexpr T max(T a, T b) noexcept { return a < b ? b : a; }
__CUEMU_MINMAX(int)
__CUEMU_MINMAX(unsigned int)
__CUEMU_MINMAX(long)
__CUEMU_MINMAX(unsigned long)
__CUEMU_MINMAX(long long)
__CUEMU_MINMAX(unsigned long long)
#undef __CUEMU_MINMAX
__CUEMU_DF__ float min(float a, float b) noexcept { return ::fminf(a, b); }
__CUEMU_DF__ float max(float a, float b) noexcept { return ::fmaxf(a, b); }
__CUEMU_DF__ double min(double a, double b) noexcept { return ::fmin(a, b); }
__CUEMU_DF__ double max(double a, double b) noexcept { return ::fmax(a, b); }
// Mixed arithmetic types (min(size_t, int), min(float, int), ...): the usual arithmetic
// conversions, like CUDA's mixed overloads (int with unsigned int gives unsigned int).
template <class A, class B,
          class = std::enable_if_t<std::is_arithmetic_v<A> && std::is_arithmetic_v<B> &&
                                   !std::is_same_v<A, B>>>
__CUEMU_DF__ constexpr auto min(A a, B b) noexcept -> std::common_type_t<A, B> {
  return ::min(static_cast<std::common_type_t<A, B>>(a), static_cast<std::common_type_t<A, B>>(b));
}
template <class A, class B,
          class = std::enable_if_t<std::is_arithmetic_v<A> && std::is_arithmetic_v<B> &&
                                   !std::is_same_v<A, B>>>
__CUEMU_DF__ constexpr auto max(A a, B b) noexcept -> std::common_type_t<A, B> {
  return ::max(static_cast<std::common_type_t<A, B>>(a), static_cast<std::common_type_t<A, B>>(b));
}
__CUEMU_DF__ constexpr unsigned int umin(unsigned int a, unsigned int b) noexcept {
  return b < a ? b : a;
}
__CUEMU_DF__ constexpr unsigned int umax(unsigned int a, unsigned int b) noexcept {
  return a < b ? b : a;
}
__CUEMU_DF__ constexpr long long llmin(long long a, long long b) noexcept { return b < a ? b : a; }
__CUEMU_DF__ constexpr long long llmax(long long a, long long b) noexcept { return a < b ? b : a; }
__CUEMU_DF__ constexpr unsigned long long ullmin(unsigned long long a,
                                                 unsigned long long b) noexcept {
  return b < a ? b : a;
}
__CUEMU_DF__ constexpr unsigned long long ullmax(unsigned long long a,
                                                 unsigned long long b) noexcept {
  return a < b ? b : a;
}

// ---------------------------------------------------------------------------------------------
// Cache-hinted loads and stores: plain accesses on the CPU.
// ---------------------------------------------------------------------------------------------
template <class T> __CUEMU_DF__ T __ldg(const T* p) { return *p; }
template <class T> __CUEMU_DF__ T __ldcg(const T* p) { return *p; }
template <class T> __CUEMU_DF__ T __ldca(const T* p) { return *p; }
template <class T> __CUEMU_DF__ T __ldcs(const T* p) { return *p; }
template <class T> __CUEMU_DF__ T __ldlu(const T* p) { return *p; }
template <class T> __CUEMU_DF__ T __ldcv(const T* p) { return *p; }
template <class T> __CUEMU_DF__ void __stcg(T* p, T v) { *p = v; }
template <class T> __CUEMU_DF__ void __stcs(T* p, T v) { *p = v; }
template <class T> __CUEMU_DF__ void __stwb(T* p, T v) { *p = v; }
template <class T> __CUEMU_DF__ void __stwt(T* p, T v) { *p = v; }

// ---------------------------------------------------------------------------------------------
// __trap(): ends the kernel with cudaErrorLaunchFailure and a report naming the line
// ---------------------------------------------------------------------------------------------
namespace cuemu::detail {
[[noreturn]] void device_trap(const char* file, int line) noexcept;
// A device-side use of what the emulator does not provide: a report, cudaErrorAssert, and a
// non-zero exit status whatever the program returns.
[[noreturn]] void device_unsupported(const char* what, const char* file, int line) noexcept;
}
[[noreturn]] inline __device__ void __trap(const char* __cuemu_file = __builtin_FILE(),
                                           int __cuemu_line = __builtin_LINE()) noexcept {
  ::cuemu::detail::device_trap(__cuemu_file, __cuemu_line);
}

// ---------------------------------------------------------------------------------------------
// Fences, clocks, sleep
// ---------------------------------------------------------------------------------------------
// A fence is also a poll (cuemu/progress.h): a thread that spins on plain loads with a fence
// in its loop yields to the others.
namespace cuemu::detail {
inline constexpr char fence_poll_tag = 0;
// The device's cycle counter: the emulated H200's clock rate (1980 MHz, cudaDevAttrClockRate)
// times the host's real time since the program started (src/exec/intrinsics.cpp).
long long device_clock_cycles() noexcept;
inline long long polled_clock() noexcept {
  const long long c = device_clock_cycles();
  return polled(&fence_poll_tag + 1, c);
}
}  // namespace cuemu::detail
__CUEMU_DF__ void __threadfence() noexcept {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  ::cuemu::detail::poll_event(&::cuemu::detail::fence_poll_tag);
}
__CUEMU_DF__ void __threadfence_block() noexcept {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  ::cuemu::detail::poll_event(&::cuemu::detail::fence_poll_tag);
}
__CUEMU_DF__ void __threadfence_system() noexcept {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  ::cuemu::detail::poll_event(&::cuemu::detail::fence_poll_tag);
}
// clock64() and clock() (the latter 32 bits wide, sign-extended to clock_t as the GPU's is) count
// cycles of the emulated device's clock, so loops that wait for N cycles take as long as on the
// GPU. In device code clock() is this one (the runtime provides the C library's symbol: host
// code gets process CPU time from it as before).
__CUEMU_DF__ long long clock64() noexcept { return ::cuemu::detail::polled_clock(); }
// SIMD video intrinsics on 2 x 16-bit and 4 x 8-bit lanes of an unsigned int.
namespace cuemu::detail {
template <int Bits, bool Signed, class F>
inline __host__ __device__ unsigned int simd(unsigned int a, unsigned int b, F f) noexcept {
  unsigned int r = 0;
  for (int k = 0; k < 32; k += Bits) {
    const unsigned int mask = (1u << Bits) - 1u;
    int x = static_cast<int>((a >> k) & mask), y = static_cast<int>((b >> k) & mask);
    if (Signed) {
      if (x & (1 << (Bits - 1))) x -= 1 << Bits;
      if (y & (1 << (Bits - 1))) y -= 1 << Bits;
    }
    r |= (static_cast<unsigned int>(f(x, y)) & mask) << k;
  }
  return r;
}
}  // namespace cuemu::detail
#define CUEMU_SIMD(name, bits, is_signed, expr)                                         \
  __CUEMU_DF__ unsigned int name(unsigned int a, unsigned int b) noexcept {            \
    return ::cuemu::detail::simd<bits, is_signed>(a, b, [](int x, int y) { return expr; }); \
  }
CUEMU_SIMD(__vmins2, 16, true, x < y ? x : y)
CUEMU_SIMD(__vminu2, 16, false, x < y ? x : y)
CUEMU_SIMD(__vmaxs2, 16, true, x > y ? x : y)
CUEMU_SIMD(__vmaxu2, 16, false, x > y ? x : y)
CUEMU_SIMD(__vmins4, 8, true, x < y ? x : y)
CUEMU_SIMD(__vminu4, 8, false, x < y ? x : y)
CUEMU_SIMD(__vmaxs4, 8, true, x > y ? x : y)
CUEMU_SIMD(__vmaxu4, 8, false, x > y ? x : y)
CUEMU_SIMD(__vadd2, 16, false, x + y)
CUEMU_SIMD(__vadd4, 8, false, x + y)
CUEMU_SIMD(__vsub2, 16, false, x - y)
CUEMU_SIMD(__vsub4, 8, false, x - y)
CUEMU_SIMD(__vabsdiffs2, 16, true, x > y ? x - y : y - x)
CUEMU_SIMD(__vabsdiffu2, 16, false, x > y ? x - y : y - x)
CUEMU_SIMD(__vabsdiffs4, 8, true, x > y ? x - y : y - x)
CUEMU_SIMD(__vabsdiffu4, 8, false, x > y ? x - y : y - x)
#undef CUEMU_SIMD

#define CUEMU_SIMD_B(name, bits, is_signed, expr)                                       \
  __CUEMU_DF__ unsigned int name(unsigned int a, unsigned int b) noexcept {            \
    return ::cuemu::detail::simd<bits, is_signed>(a, b, [](int x, int y) {               \
      constexpr int B = bits;                                                           \
      (void)B;                                                                          \
      return expr;                                                                      \
    });                                                                                 \
  }
#define CUEMU_SAT_S(v) ((v) < -(1 << (B - 1)) ? -(1 << (B - 1)) : (v) > (1 << (B - 1)) - 1 ? (1 << (B - 1)) - 1 : (v))
#define CUEMU_SAT_U(v) ((v) < 0 ? 0 : (v) > (1 << B) - 1 ? (1 << B) - 1 : (v))
CUEMU_SIMD_B(__vaddss2, 16, true, CUEMU_SAT_S(x + y))
CUEMU_SIMD_B(__vaddss4, 8, true, CUEMU_SAT_S(x + y))
CUEMU_SIMD_B(__vaddus2, 16, false, CUEMU_SAT_U(x + y))
CUEMU_SIMD_B(__vaddus4, 8, false, CUEMU_SAT_U(x + y))
CUEMU_SIMD_B(__vsubss2, 16, true, CUEMU_SAT_S(x - y))
CUEMU_SIMD_B(__vsubss4, 8, true, CUEMU_SAT_S(x - y))
CUEMU_SIMD_B(__vsubus2, 16, false, CUEMU_SAT_U(x - y))
CUEMU_SIMD_B(__vsubus4, 8, false, CUEMU_SAT_U(x - y))
CUEMU_SIMD_B(__vavgs2, 16, true, (x + y + ((x + y) >= 0 ? 1 : 0)) >> 1)
CUEMU_SIMD_B(__vavgs4, 8, true, (x + y + ((x + y) >= 0 ? 1 : 0)) >> 1)
CUEMU_SIMD_B(__vavgu2, 16, false, (x + y + 1) >> 1)
CUEMU_SIMD_B(__vavgu4, 8, false, (x + y + 1) >> 1)
CUEMU_SIMD_B(__vhaddu2, 16, false, (x + y) >> 1)
CUEMU_SIMD_B(__vhaddu4, 8, false, (x + y) >> 1)
#define CUEMU_SIMD_CMP(suffix, op, s2, s4)                            \
  CUEMU_SIMD_B(__vcmp##suffix##2, 16, s2, (x op y) ? -1 : 0)          \
  CUEMU_SIMD_B(__vcmp##suffix##4, 8, s4, (x op y) ? -1 : 0)           \
  CUEMU_SIMD_B(__vset##suffix##2, 16, s2, (x op y) ? 1 : 0)           \
  CUEMU_SIMD_B(__vset##suffix##4, 8, s4, (x op y) ? 1 : 0)
CUEMU_SIMD_CMP(eq, ==, false, false)
CUEMU_SIMD_CMP(ne, !=, false, false)
CUEMU_SIMD_CMP(ges, >=, true, true)
CUEMU_SIMD_CMP(geu, >=, false, false)
CUEMU_SIMD_CMP(gts, >, true, true)
CUEMU_SIMD_CMP(gtu, >, false, false)
CUEMU_SIMD_CMP(les, <=, true, true)
CUEMU_SIMD_CMP(leu, <=, false, false)
CUEMU_SIMD_CMP(lts, <, true, true)
CUEMU_SIMD_CMP(ltu, <, false, false)
#undef CUEMU_SIMD_CMP
// Unary forms: b is ignored.
#define CUEMU_SIMD_U(name, bits, is_signed, expr)                                        \
  __CUEMU_DF__ unsigned int name(unsigned int a) noexcept {                             \
    return ::cuemu::detail::simd<bits, is_signed>(a, 0u, [](int x, int) {                \
      constexpr int B = bits;                                                           \
      (void)B;                                                                          \
      return expr;                                                                      \
    });                                                                                 \
  }
CUEMU_SIMD_U(__vabs2, 16, true, x < 0 ? -x : x)
CUEMU_SIMD_U(__vabs4, 8, true, x < 0 ? -x : x)
CUEMU_SIMD_U(__vabsss2, 16, true, CUEMU_SAT_S(x < 0 ? -x : x))
CUEMU_SIMD_U(__vabsss4, 8, true, CUEMU_SAT_S(x < 0 ? -x : x))
CUEMU_SIMD_U(__vneg2, 16, true, -x)
CUEMU_SIMD_U(__vneg4, 8, true, -x)
CUEMU_SIMD_U(__vnegss2, 16, true, CUEMU_SAT_S(-x))
CUEMU_SIMD_U(__vnegss4, 8, true, CUEMU_SAT_S(-x))
#undef CUEMU_SIMD_U
#undef CUEMU_SIMD_B
#undef CUEMU_SAT_S
#undef CUEMU_SAT_U
// Sums of absolute differences of the lanes.
namespace cuemu::detail {
template <int Bits, bool Signed>
inline __host__ __device__ unsigned int sad(unsigned int a, unsigned int b) noexcept {
  unsigned int s = 0;
  simd<Bits, Signed>(a, b, [&s](int x, int y) {
    s += static_cast<unsigned int>(x > y ? x - y : y - x);
    return 0;
  });
  return s;
}
}  // namespace cuemu::detail
__CUEMU_DF__ unsigned int __vsads2(unsigned int a, unsigned int b) noexcept { return ::cuemu::detail::sad<16, true>(a, b); }
__CUEMU_DF__ unsigned int __vsads4(unsigned int a, unsigned int b) noexcept { return ::cuemu::detail::sad<8, true>(a, b); }
__CUEMU_DF__ unsigned int __vsadu2(unsigned int a, unsigned int b) noexcept { return ::cuemu::detail::sad<16, false>(a, b); }
__CUEMU_DF__ unsigned int __vsadu4(unsigned int a, unsigned int b) noexcept { return ::cuemu::detail::sad<8, false>(a, b); }

// Dot products of two 16-bit lanes of a with two bytes of b (the low or high pair), plus c.
namespace cuemu::detail {
template <class T, bool Hi>
inline __host__ __device__ T dp2a(T a, T b, T c) noexcept {
  constexpr bool s = static_cast<T>(-1) < 0;
  const unsigned int ua = static_cast<unsigned int>(a), ub = static_cast<unsigned int>(b);
  long long r = static_cast<long long>(c);
  for (int i = 0; i < 2; ++i) {
    const unsigned int h = (ua >> (16 * i)) & 0xffffu, y = (ub >> (8 * (i + (Hi ? 2 : 0)))) & 0xffu;
    const long long x = s ? static_cast<short>(h) : static_cast<long long>(h);
    const long long z = s ? static_cast<signed char>(y) : static_cast<long long>(y);
    r += x * z;
  }
  return static_cast<T>(r);
}
}  // namespace cuemu::detail
__CUEMU_DF__ int __dp2a_lo(int a, int b, int c) noexcept { return ::cuemu::detail::dp2a<int, false>(a, b, c); }
__CUEMU_DF__ unsigned int __dp2a_lo(unsigned int a, unsigned int b, unsigned int c) noexcept { return ::cuemu::detail::dp2a<unsigned int, false>(a, b, c); }
__CUEMU_DF__ int __dp2a_hi(int a, int b, int c) noexcept { return ::cuemu::detail::dp2a<int, true>(a, b, c); }
__CUEMU_DF__ unsigned int __dp2a_hi(unsigned int a, unsigned int b, unsigned int c) noexcept { return ::cuemu::detail::dp2a<unsigned int, true>(a, b, c); }

// DPX (sm_90): three-way and add-then min/max, with ReLU (clamped at 0), on 32-bit values or two
// 16-bit lanes (16-bit sums wrap), and the forms that also say which operand won.
namespace cuemu::detail {
template <bool Signed, class F>
inline __host__ __device__ unsigned int dpx16(unsigned int a, unsigned int b, unsigned int c, F f) noexcept {
  unsigned int r = 0;
  for (int k = 0; k < 32; k += 16) {
    int x = static_cast<int>((a >> k) & 0xffffu), y = static_cast<int>((b >> k) & 0xffffu),
        z = static_cast<int>((c >> k) & 0xffffu);
    if (Signed) x = static_cast<short>(x), y = static_cast<short>(y), z = static_cast<short>(z);
    r |= (static_cast<unsigned int>(f(x, y, z)) & 0xffffu) << k;
  }
  return r;
}
template <bool Signed>
inline __host__ __device__ int wrap16(int v) noexcept {
  return Signed ? static_cast<short>(v) : static_cast<int>(static_cast<unsigned short>(v));
}
}  // namespace cuemu::detail
#define CUEMU_MAX_(x, y) ((x) > (y) ? (x) : (y))
#define CUEMU_MIN_(x, y) ((x) < (y) ? (x) : (y))
__CUEMU_DF__ int __vimax_s32_relu(int a, int b) noexcept { return CUEMU_MAX_(CUEMU_MAX_(a, b), 0); }
__CUEMU_DF__ int __vimin_s32_relu(int a, int b) noexcept { return CUEMU_MAX_(CUEMU_MIN_(a, b), 0); }
__CUEMU_DF__ unsigned int __vimax_s16x2_relu(unsigned int a, unsigned int b) noexcept {
  return ::cuemu::detail::dpx16<true>(a, b, 0u, [](int x, int y, int) { return CUEMU_MAX_(CUEMU_MAX_(x, y), 0); });
}
__CUEMU_DF__ unsigned int __vimin_s16x2_relu(unsigned int a, unsigned int b) noexcept {
  return ::cuemu::detail::dpx16<true>(a, b, 0u, [](int x, int y, int) { return CUEMU_MAX_(CUEMU_MIN_(x, y), 0); });
}
#define CUEMU_DPX3(name, T, OP, relu)                                                        \
  __CUEMU_DF__ T name(T a, T b, T c) noexcept {                                              \
    const T r = OP(OP(a, b), c);                                                             \
    return relu ? (r > 0 ? r : static_cast<T>(0)) : r;                                                  \
  }
#define CUEMU_DPX3_16(name, is_signed, OP, relu)                                             \
  __CUEMU_DF__ unsigned int name(unsigned int a, unsigned int b, unsigned int c) noexcept { \
    return ::cuemu::detail::dpx16<is_signed>(a, b, c, [](int x, int y, int z) {              \
      const int r = OP(OP(x, y), z);                                                         \
      return relu ? CUEMU_MAX_(r, 0) : r;                                                    \
    });                                                                                      \
  }
CUEMU_DPX3(__vimax3_s32, int, CUEMU_MAX_, false)
CUEMU_DPX3(__vimax3_u32, unsigned int, CUEMU_MAX_, false)
CUEMU_DPX3(__vimin3_s32, int, CUEMU_MIN_, false)
CUEMU_DPX3(__vimin3_u32, unsigned int, CUEMU_MIN_, false)
CUEMU_DPX3(__vimax3_s32_relu, int, CUEMU_MAX_, true)
CUEMU_DPX3(__vimin3_s32_relu, int, CUEMU_MIN_, true)
CUEMU_DPX3_16(__vimax3_s16x2, true, CUEMU_MAX_, false)
CUEMU_DPX3_16(__vimax3_u16x2, false, CUEMU_MAX_, false)
CUEMU_DPX3_16(__vimin3_s16x2, true, CUEMU_MIN_, false)
CUEMU_DPX3_16(__vimin3_u16x2, false, CUEMU_MIN_, false)
CUEMU_DPX3_16(__vimax3_s16x2_relu, true, CUEMU_MAX_, true)
CUEMU_DPX3_16(__vimin3_s16x2_relu, true, CUEMU_MIN_, true)
#define CUEMU_DPXADD(name, T, OP, relu)                                                      \
  __CUEMU_DF__ T name(T a, T b, T c) noexcept {                                              \
    const T s = static_cast<T>(static_cast<unsigned int>(a) + static_cast<unsigned int>(b)); \
    const T r = OP(s, c);                                                                    \
    return relu ? (r > 0 ? r : static_cast<T>(0)) : r;                                                  \
  }
#define CUEMU_DPXADD_16(name, is_signed, OP, relu)                                           \
  __CUEMU_DF__ unsigned int name(unsigned int a, unsigned int b, unsigned int c) noexcept { \
    return ::cuemu::detail::dpx16<is_signed>(a, b, c, [](int x, int y, int z) {              \
      const int r = OP(::cuemu::detail::wrap16<is_signed>(x + y), z);                        \
      return relu ? CUEMU_MAX_(r, 0) : r;                                                    \
    });                                                                                      \
  }
CUEMU_DPXADD(__viaddmax_s32, int, CUEMU_MAX_, false)
CUEMU_DPXADD(__viaddmax_u32, unsigned int, CUEMU_MAX_, false)
CUEMU_DPXADD(__viaddmin_s32, int, CUEMU_MIN_, false)
CUEMU_DPXADD(__viaddmin_u32, unsigned int, CUEMU_MIN_, false)
CUEMU_DPXADD(__viaddmax_s32_relu, int, CUEMU_MAX_, true)
CUEMU_DPXADD(__viaddmin_s32_relu, int, CUEMU_MIN_, true)
CUEMU_DPXADD_16(__viaddmax_s16x2, true, CUEMU_MAX_, false)
CUEMU_DPXADD_16(__viaddmax_u16x2, false, CUEMU_MAX_, false)
CUEMU_DPXADD_16(__viaddmin_s16x2, true, CUEMU_MIN_, false)
CUEMU_DPXADD_16(__viaddmin_u16x2, false, CUEMU_MIN_, false)
CUEMU_DPXADD_16(__viaddmax_s16x2_relu, true, CUEMU_MAX_, true)
CUEMU_DPXADD_16(__viaddmin_s16x2_relu, true, CUEMU_MIN_, true)
#undef CUEMU_DPX3
#undef CUEMU_DPX3_16
#undef CUEMU_DPXADD
#undef CUEMU_DPXADD_16
// The larger (smaller) of a and b, and whether it was a (a >= b; a <= b).
__CUEMU_DF__ int __vibmax_s32(int a, int b, bool* pred) noexcept { *pred = a >= b; return a >= b ? a : b; }
__CUEMU_DF__ unsigned int __vibmax_u32(unsigned int a, unsigned int b, bool* pred) noexcept { *pred = a >= b; return a >= b ? a : b; }
__CUEMU_DF__ int __vibmin_s32(int a, int b, bool* pred) noexcept { *pred = a <= b; return a <= b ? a : b; }
__CUEMU_DF__ unsigned int __vibmin_u32(unsigned int a, unsigned int b, bool* pred) noexcept { *pred = a <= b; return a <= b ? a : b; }
namespace cuemu::detail {
template <bool Signed, bool Max>
inline __host__ __device__ unsigned int vib16(unsigned int a, unsigned int b, bool* hi, bool* lo) noexcept {
  unsigned int r = 0;
  for (int k = 0; k < 32; k += 16) {
    int x = static_cast<int>((a >> k) & 0xffffu), y = static_cast<int>((b >> k) & 0xffffu);
    if (Signed) x = static_cast<short>(x), y = static_cast<short>(y);
    const bool p = Max ? x >= y : x <= y;
    *(k ? hi : lo) = p;
    r |= (static_cast<unsigned int>(p ? x : y) & 0xffffu) << k;
  }
  return r;
}
}  // namespace cuemu::detail
__CUEMU_DF__ unsigned int __vibmax_s16x2(unsigned int a, unsigned int b, bool* hi, bool* lo) noexcept { return ::cuemu::detail::vib16<true, true>(a, b, hi, lo); }
__CUEMU_DF__ unsigned int __vibmax_u16x2(unsigned int a, unsigned int b, bool* hi, bool* lo) noexcept { return ::cuemu::detail::vib16<false, true>(a, b, hi, lo); }
__CUEMU_DF__ unsigned int __vibmin_s16x2(unsigned int a, unsigned int b, bool* hi, bool* lo) noexcept { return ::cuemu::detail::vib16<true, false>(a, b, hi, lo); }
__CUEMU_DF__ unsigned int __vibmin_u16x2(unsigned int a, unsigned int b, bool* hi, bool* lo) noexcept { return ::cuemu::detail::vib16<false, false>(a, b, hi, lo); }
#undef CUEMU_MAX_
#undef CUEMU_MIN_

// Address-space conversions. Every space is ordinary memory here: a generic address is the
// address in each space, and every address counts as global (so libraries take their portable
// paths rather than those built on shared-memory-only instructions).
__CUEMU_DF__ size_t __cvta_generic_to_global(const void* p) noexcept { return reinterpret_cast<size_t>(p); }
__CUEMU_DF__ size_t __cvta_generic_to_shared(const void* p) noexcept { return reinterpret_cast<size_t>(p); }
__CUEMU_DF__ size_t __cvta_generic_to_constant(const void* p) noexcept { return reinterpret_cast<size_t>(p); }
__CUEMU_DF__ size_t __cvta_generic_to_local(const void* p) noexcept { return reinterpret_cast<size_t>(p); }
__CUEMU_DF__ void* __cvta_global_to_generic(size_t a) noexcept { return reinterpret_cast<void*>(a); }
__CUEMU_DF__ void* __cvta_shared_to_generic(size_t a) noexcept { return reinterpret_cast<void*>(a); }
__CUEMU_DF__ void* __cvta_constant_to_generic(size_t a) noexcept { return reinterpret_cast<void*>(a); }
__CUEMU_DF__ void* __cvta_local_to_generic(size_t a) noexcept { return reinterpret_cast<void*>(a); }
__CUEMU_DF__ unsigned int __isGlobal(const void*) noexcept { return 1; }
__CUEMU_DF__ unsigned int __isShared(const void*) noexcept { return 0; }
__CUEMU_DF__ unsigned int __isConstant(const void*) noexcept { return 0; }
__CUEMU_DF__ unsigned int __isLocal(const void*) noexcept { return 0; }
__CUEMU_DF__ unsigned int __isClusterShared(const void*) noexcept { return 0; }
__CUEMU_DF__ unsigned int __isGridConstant(const void*) noexcept { return 0; }

// Programmatic dependent launch: launches run to completion in order here, so a grid's
// dependency is always complete and there is nothing to trigger.
__CUEMU_DF__ void cudaGridDependencySynchronize() noexcept {}
__CUEMU_DF__ void cudaTriggerProgrammaticLaunchCompletion() noexcept {}

// The calling thread yields to the others of its block (a thread that sleeps is waiting for
// something), then sleeps out what is left of `ns` (at most 1 ms, like the GPU's bound).
__CUEMU_DF__ void __nanosleep(unsigned int ns) noexcept {
  const auto start = std::chrono::steady_clock::now();
  ::cuemu::detail::spin_yield();
  const auto want = std::chrono::nanoseconds(ns < 1000000u ? ns : 1000000u);
  const auto slept = std::chrono::steady_clock::now() - start;
  if (slept < want) std::this_thread::sleep_for(want - slept);
}

// ---------------------------------------------------------------------------------------------
// The hardware approximations, as libdevice computes them. Their special function unit steps
// MUFU.EX2, RCP, RSQ, SQRT, LG2, SIN and COS are the H200's bits (src/libdevice/sfu.c); TANH is
// still a correctly rounded stand-in (issue 14): COMPATIBILITY.md shows how far each is.
// ---------------------------------------------------------------------------------------------
__CUEMU_DF__ float __fdividef(float x, float y) noexcept { return __nv_fast_fdividef(x, y); }
// a / b (nvcc makes it __fdividef under --use_fast_math), with the GPU's NaN.
__CUEMU_DF__ float fdividef(float x, float y) noexcept { return ::cuemu::detail::gpu_nan(x / y); }
__CUEMU_DF__ float __expf(float x) noexcept { return __nv_fast_expf(x); }
__CUEMU_DF__ float __exp10f(float x) noexcept { return __nv_fast_exp10f(x); }
__CUEMU_DF__ float __logf(float x) noexcept { return __nv_fast_logf(x); }
__CUEMU_DF__ float __log2f(float x) noexcept { return __nv_fast_log2f(x); }
__CUEMU_DF__ float __log10f(float x) noexcept { return __nv_fast_log10f(x); }
__CUEMU_DF__ float __sinf(float x) noexcept { return __nv_fast_sinf(x); }
__CUEMU_DF__ float __cosf(float x) noexcept { return __nv_fast_cosf(x); }
__CUEMU_DF__ float __tanf(float x) noexcept { return __nv_fast_tanf(x); }
__CUEMU_DF__ float __tanhf(float x) noexcept { return __nv_fast_tanhf(x); }
__CUEMU_DF__ void __sincosf(float x, float* s, float* c) noexcept { __nv_fast_sincosf(x, s, c); }
__CUEMU_DF__ float __powf(float x, float y) noexcept { return __nv_fast_powf(x, y); }
// Clamps to [0, 1]; NaN gives 0.
__CUEMU_DF__ float __saturatef(float x) noexcept {
  return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}

// ---------------------------------------------------------------------------------------------
// Explicitly rounded arithmetic, as libdevice computes it: the same roundings, and the GPU's
// NaN results (float: the canonical 0x7fffffff; double: the first NaN operand, quieted).
// ---------------------------------------------------------------------------------------------
#define __CUEMU_NV_ROUNDED(SUF)                                                                 \
  __CUEMU_DF__ float __fadd_##SUF(float a, float b) noexcept { return __nv_fadd_##SUF(a, b); }  \
  __CUEMU_DF__ float __fsub_##SUF(float a, float b) noexcept { return __nv_fsub_##SUF(a, b); }  \
  __CUEMU_DF__ float __fmul_##SUF(float a, float b) noexcept { return __nv_fmul_##SUF(a, b); }  \
  __CUEMU_DF__ float __fdiv_##SUF(float a, float b) noexcept { return __nv_fdiv_##SUF(a, b); }  \
  __CUEMU_DF__ float __frcp_##SUF(float a) noexcept { return __nv_frcp_##SUF(a); }              \
  __CUEMU_DF__ float __fmaf_##SUF(float a, float b, float c) noexcept {                        \
    return __nv_fmaf_##SUF(a, b, c);                                                            \
  }                                                                                             \
  __CUEMU_DF__ float __fsqrt_##SUF(float a) noexcept { return __nv_fsqrt_##SUF(a); }            \
  __CUEMU_DF__ double __dadd_##SUF(double a, double b) noexcept { return __nv_dadd_##SUF(a, b); } \
  __CUEMU_DF__ double __dsub_##SUF(double a, double b) noexcept { return __nv_dsub_##SUF(a, b); } \
  __CUEMU_DF__ double __dmul_##SUF(double a, double b) noexcept { return __nv_dmul_##SUF(a, b); } \
  __CUEMU_DF__ double __ddiv_##SUF(double a, double b) noexcept { return __nv_ddiv_##SUF(a, b); } \
  __CUEMU_DF__ double __drcp_##SUF(double a) noexcept { return __nv_drcp_##SUF(a); }            \
  __CUEMU_DF__ double __fma_##SUF(double a, double b, double c) noexcept {                     \
    return __nv_fma_##SUF(a, b, c);                                                             \
  }                                                                                             \
  __CUEMU_DF__ double __dsqrt_##SUF(double a) noexcept { return __nv_dsqrt_##SUF(a); }
__CUEMU_NV_ROUNDED(rz)
__CUEMU_NV_ROUNDED(ru)
__CUEMU_NV_ROUNDED(rd)
#undef __CUEMU_NV_ROUNDED
// Round to nearest, the environment device code runs in: add, subtract, multiply and divide
// inline (kernels use them in hot loops to keep nvcc from contracting), with the GPU's NaN rules
// (cuemu/libdevice.h).
__CUEMU_DF__ float __fadd_rn(float a, float b) noexcept { return ::cuemu::detail::gpu_nan(a + b); }
__CUEMU_DF__ float __fsub_rn(float a, float b) noexcept { return ::cuemu::detail::gpu_nan(a - b); }
__CUEMU_DF__ float __fmul_rn(float a, float b) noexcept { return ::cuemu::detail::gpu_nan(a * b); }
// IEEE whatever -prec-div says (libdevice's, which flushes under -ftz=true).
__CUEMU_DF__ float __fdiv_rn(float a, float b) noexcept { return __nv_fdiv_rn(a, b); }
__CUEMU_DF__ float __frcp_rn(float a) noexcept { return __nv_frcp_rn(a); }
__CUEMU_DF__ float __fmaf_rn(float a, float b, float c) noexcept { return __nv_fmaf_rn(a, b, c); }
__CUEMU_DF__ float __fsqrt_rn(float a) noexcept { return __nv_fsqrt_rn(a); }
__CUEMU_DF__ double __dadd_rn(double a, double b) noexcept {
  return ::cuemu::detail::gpu_nan(a, b, a + b);
}
__CUEMU_DF__ double __dsub_rn(double a, double b) noexcept {
  return ::cuemu::detail::gpu_nan(a, b, a - b);
}
__CUEMU_DF__ double __dmul_rn(double a, double b) noexcept {
  return ::cuemu::detail::gpu_nan(a, b, a * b);
}
__CUEMU_DF__ double __ddiv_rn(double a, double b) noexcept {
  return ::cuemu::detail::gpu_nan(a, b, a / b);
}
__CUEMU_DF__ double __drcp_rn(double a) noexcept { return __nv_drcp_rn(a); }
__CUEMU_DF__ double __fma_rn(double a, double b, double c) noexcept { return __nv_fma_rn(a, b, c); }
__CUEMU_DF__ double __dsqrt_rn(double a) noexcept { return __nv_dsqrt_rn(a); }
__CUEMU_DF__ float __frsqrt_rn(float a) noexcept { return __nv_frsqrt_rn(a); }

// ---------------------------------------------------------------------------------------------
// Conversions with explicit rounding (their arithmetic: cuemu/conversions.h).
// ---------------------------------------------------------------------------------------------
namespace cuemu::detail {
// f() with the FPU in rounding direction `mode`.
template <class F>
inline auto with_rounding(int mode, F f) noexcept {
  const int saved = std::fegetround();
  std::fesetround(mode);
  auto r = f();
  std::fesetround(saved);
  return r;
}
}  // namespace cuemu::detail

#define __CUEMU_F2I(SUF, M)                                                                     \
  __CUEMU_DF__ int __float2int_##SUF(float x) noexcept {                                       \
    return ::cuemu::detail::saturating_convert<int>(::cuemu::detail::round_mode(x, M));        \
  }                                                                                             \
  __CUEMU_DF__ unsigned int __float2uint_##SUF(float x) noexcept {                             \
    return ::cuemu::detail::saturating_convert<unsigned int>(::cuemu::detail::round_mode(x, M)); \
  }                                                                                             \
  __CUEMU_DF__ long long __float2ll_##SUF(float x) noexcept {                                  \
    return ::cuemu::detail::saturating_convert<long long>(::cuemu::detail::round_mode(x, M));  \
  }                                                                                             \
  __CUEMU_DF__ unsigned long long __float2ull_##SUF(float x) noexcept {                        \
    return ::cuemu::detail::saturating_convert<unsigned long long>(                             \
        ::cuemu::detail::round_mode(x, M));                                                     \
  }                                                                                             \
  __CUEMU_DF__ int __double2int_##SUF(double x) noexcept {                                     \
    return ::cuemu::detail::saturating_convert<int>(::cuemu::detail::round_mode(x, M));        \
  }                                                                                             \
  __CUEMU_DF__ unsigned int __double2uint_##SUF(double x) noexcept {                           \
    return ::cuemu::detail::saturating_convert<unsigned int>(::cuemu::detail::round_mode(x, M)); \
  }                                                                                             \
  __CUEMU_DF__ long long __double2ll_##SUF(double x) noexcept {                                \
    return ::cuemu::detail::saturating_convert<long long>(::cuemu::detail::round_mode(x, M));  \
  }                                                                                             \
  __CUEMU_DF__ unsigned long long __double2ull_##SUF(double x) noexcept {                      \
    return ::cuemu::detail::saturating_convert<unsigned long long>(                             \
        ::cuemu::detail::round_mode(x, M));                                                     \
  }                                                                                             \
  __CUEMU_DF__ float __int2float_##SUF(int x) noexcept {                                       \
    return ::cuemu::detail::int_to_float<float>(x, M);                                         \
  }                                                                                             \
  __CUEMU_DF__ float __uint2float_##SUF(unsigned int x) noexcept {                             \
    return ::cuemu::detail::int_to_float<float>(x, M);                                         \
  }                                                                                             \
  __CUEMU_DF__ float __ll2float_##SUF(long long x) noexcept {                                  \
    return ::cuemu::detail::int_to_float<float>(x, M);                                         \
  }                                                                                             \
  __CUEMU_DF__ float __ull2float_##SUF(unsigned long long x) noexcept {                        \
    return ::cuemu::detail::int_to_float<float>(x, M);                                         \
  }                                                                                             \
  __CUEMU_DF__ double __ll2double_##SUF(long long x) noexcept {                                \
    return ::cuemu::detail::int_to_float<double>(x, M);                                        \
  }                                                                                             \
  __CUEMU_DF__ double __ull2double_##SUF(unsigned long long x) noexcept {                      \
    return ::cuemu::detail::int_to_float<double>(x, M);                                        \
  }                                                                                             \
  __CUEMU_DF__ float __double2float_##SUF(double x) noexcept {                                 \
    return M == 0 ? static_cast<float>(x)                                                       \
                  : ::cuemu::detail::with_rounding(                                             \
                        M == 1 ? FE_TOWARDZERO : M == 2 ? FE_UPWARD : FE_DOWNWARD, [=]() {       \
                          volatile double v = x;                                                \
                          volatile float r = static_cast<float>(v);                             \
                          return static_cast<float>(r);                                         \
                        });                                                                     \
  }
__CUEMU_F2I(rn, 0)
__CUEMU_F2I(rz, 1)
__CUEMU_F2I(ru, 2)
__CUEMU_F2I(rd, 3)
#undef __CUEMU_F2I
__CUEMU_DF__ double __int2double_rn(int x) noexcept { return static_cast<double>(x); }
__CUEMU_DF__ double __uint2double_rn(unsigned int x) noexcept { return static_cast<double>(x); }

// ---------------------------------------------------------------------------------------------
// CUDA-only math functions (the C library's are used unqualified from <math.h>)
// ---------------------------------------------------------------------------------------------
// libdevice's algorithms (cuemu/libdevice.h).
__CUEMU_DF__ float rsqrtf(float x) noexcept { return __nv_rsqrtf(x); }
__CUEMU_DF__ double rsqrt(double x) noexcept { return __nv_rsqrt(x); }
__CUEMU_DF__ float rcbrtf(float x) noexcept { return __nv_rcbrtf(x); }
__CUEMU_DF__ double rcbrt(double x) noexcept { return __nv_rcbrt(x); }
__CUEMU_DF__ float rhypotf(float x, float y) noexcept { return __nv_rhypotf(x, y); }
__CUEMU_DF__ double rhypot(double x, double y) noexcept { return __nv_rhypot(x, y); }
__CUEMU_DF__ float norm3df(float a, float b, float c) noexcept { return __nv_norm3df(a, b, c); }
// Of two or more NaN operands, the one the GPU returns (cuemu/libdevice.h).
__CUEMU_DF__ double norm3d(double a, double b, double c) noexcept {
  return ::cuemu::detail::norm_nan(__nv_norm3d(a, b, c), a, b, c);
}
__CUEMU_DF__ float norm4df(float a, float b, float c, float d) noexcept {
  return __nv_norm4df(a, b, c, d);
}
__CUEMU_DF__ double norm4d(double a, double b, double c, double d) noexcept {
  return ::cuemu::detail::norm_nan(__nv_norm4d(a, b, c, d), a, b, c, d);
}
__CUEMU_DF__ float rnorm3df(float a, float b, float c) noexcept { return __nv_rnorm3df(a, b, c); }
__CUEMU_DF__ double rnorm3d(double a, double b, double c) noexcept {
  return ::cuemu::detail::norm_nan(__nv_rnorm3d(a, b, c), a, b, c);
}
__CUEMU_DF__ float rnorm4df(float a, float b, float c, float d) noexcept {
  return __nv_rnorm4df(a, b, c, d);
}
__CUEMU_DF__ double rnorm4d(double a, double b, double c, double d) noexcept {
  return ::cuemu::detail::norm_nan(__nv_rnorm4d(a, b, c, d), a, b, c, d);
}
__CUEMU_DF__ float normf(int dim, const float* a) noexcept { return __nv_normf(dim, a); }
__CUEMU_DF__ double norm(int dim, const double* a) noexcept { return __nv_norm(dim, a); }
__CUEMU_DF__ float rnormf(int dim, const float* a) noexcept { return __nv_rnormf(dim, a); }
__CUEMU_DF__ double rnorm(int dim, const double* a) noexcept { return __nv_rnorm(dim, a); }
__CUEMU_DF__ float normcdff(float x) noexcept { return __nv_normcdff(x); }
__CUEMU_DF__ double normcdf(double x) noexcept { return __nv_normcdf(x); }
__CUEMU_DF__ float erfinvf(float y) noexcept { return __nv_erfinvf(y); }
__CUEMU_DF__ double erfinv(double y) noexcept { return __nv_erfinv(y); }
__CUEMU_DF__ float erfcinvf(float y) noexcept { return __nv_erfcinvf(y); }
__CUEMU_DF__ double erfcinv(double y) noexcept { return __nv_erfcinv(y); }
__CUEMU_DF__ float normcdfinvf(float p) noexcept { return __nv_normcdfinvf(p); }
__CUEMU_DF__ double normcdfinv(double p) noexcept { return __nv_normcdfinv(p); }
__CUEMU_DF__ float erfcxf(float x) noexcept { return __nv_erfcxf(x); }
__CUEMU_DF__ double erfcx(double x) noexcept { return __nv_erfcx(x); }

// sinpi/cospi: C23 names that newer C libraries declare themselves.
#if !(defined(__GLIBC__) && defined(__GLIBC_PREREQ) && __GLIBC_PREREQ(2, 41))
__CUEMU_DF__ float sinpif(float x) noexcept { return __nv_sinpif(x); }
__CUEMU_DF__ double sinpi(double x) noexcept { return __nv_sinpi(x); }
__CUEMU_DF__ float cospif(float x) noexcept { return __nv_cospif(x); }
__CUEMU_DF__ double cospi(double x) noexcept { return __nv_cospi(x); }
#endif
__CUEMU_DF__ void sincospif(float x, float* s, float* c) noexcept { __nv_sincospif(x, s, c); }
__CUEMU_DF__ void sincospi(double x, double* s, double* c) noexcept { __nv_sincospi(x, s, c); }
// sincos/sincosf/exp10/exp10f are GNU extensions of <math.h>; declare them where the C library
// does not.
#if !defined(__USE_GNU)
__CUEMU_DF__ void sincosf(float x, float* s, float* c) noexcept {
  *s = ::sinf(x);
  *c = ::cosf(x);
}
__CUEMU_DF__ void sincos(double x, double* s, double* c) noexcept {
  *s = ::sin(x);
  *c = ::cos(x);
}
__CUEMU_DF__ float exp10f(float x) noexcept { return ::powf(10.0f, x); }
__CUEMU_DF__ double exp10(double x) noexcept { return ::pow(10.0, x); }
#endif
__CUEMU_DF__ float saturatef(float x) noexcept { return __saturatef(x); }

// ---------------------------------------------------------------------------------------------
// Math API additions (issue 4, fp16 work): names of the CUDA Math API that were still missing.
// ---------------------------------------------------------------------------------------------
// fmaf with IEEE semantics in each rounding direction (never flushed to zero).
__CUEMU_DF__ float __fmaf_ieee_rn(float a, float b, float c) noexcept { return __nv_fmaf_ieee_rn(a, b, c); }
__CUEMU_DF__ float __fmaf_ieee_rz(float a, float b, float c) noexcept { return __nv_fmaf_ieee_rz(a, b, c); }
__CUEMU_DF__ float __fmaf_ieee_ru(float a, float b, float c) noexcept { return __nv_fmaf_ieee_ru(a, b, c); }
__CUEMU_DF__ float __fmaf_ieee_rd(float a, float b, float c) noexcept { return __nv_fmaf_ieee_rd(a, b, c); }
// Classification helpers of CUDA's math_functions.h for double.
__CUEMU_DF__ int __isnand(double x) noexcept { return x != x; }
__CUEMU_DF__ int __isinfd(double x) noexcept { return std::isinf(x) ? 1 : 0; }
__CUEMU_DF__ int __signbitd(double x) noexcept { return std::signbit(x) ? 1 : 0; }
// Regular modified cylindrical Bessel functions of orders 0 and 1.
__CUEMU_DF__ double cyl_bessel_i0(double x) noexcept { return __nv_cyl_bessel_i0(x); }
__CUEMU_DF__ double cyl_bessel_i1(double x) noexcept { return __nv_cyl_bessel_i1(x); }
__CUEMU_DF__ float cyl_bessel_i0f(float x) noexcept { return __nv_cyl_bessel_i0f(x); }
__CUEMU_DF__ float cyl_bessel_i1f(float x) noexcept { return __nv_cyl_bessel_i1f(x); }

#undef __CUEMU_DF__
