// The CUDA Math API's double-precision functions and its functions of two or three arguments on
// 2^27 sampled inputs each (issue 14): every input comes from a generator written here (the same
// on the GPU and the host), concentrated on the edges: zeros, ones, powers of two, multiples of
// pi/2, overflow and underflow thresholds, integers and half-integers, subnormals, infinities
// and NaNs, with uniform bit patterns beside them. The GPU computes each function, the host of
// the same machine what the emulator computes (libdevice built for the CPU, as in
// ../exhaustive/exhaustive.cu), and the bits are compared. Runs on a machine with an NVIDIA GPU:
//
//   nvcc -O2 -arch=sm_90 -std=c++17 sampled.cu LIBDEVICE_X86_O -o sampled -lpthread
//   ./sampled [--only NAME,NAME...] > h200.txt
//
// Output, one block per function:
//   #fn NAME differing D of 134217728
//   diff SAMPLE INPUTS... GPU CPU    (the first 16 differing samples, in sample order)
//   hash CHUNK H D                   (FNV-1a over the GPU's results of the 2^20 samples CHUNK<<20
//                                     ..., each as 8 bytes, and how many differ on the host)
// With --chunk C it prints only the device's hash of chunk C per function ("hash NAME C H"):
// sampled_test.cpp runs that on the emulator and compares it with the record (h200.txt.gz).
// With --chunk C --host, the same from the host's functions, without a GPU.
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using u32 = std::uint32_t;
using u64 = std::uint64_t;

extern "C" {
#define D1(n) double __nv_##n(double) noexcept;
#define D2(n) double __nv_##n(double, double) noexcept;
#define F2(n) float __nv_##n(float, float) noexcept;
#define F3(n) float __nv_##n(float, float, float) noexcept;
#define D3(n) double __nv_##n(double, double, double) noexcept;
D1(sin) D1(cos) D1(tan) D1(asin) D1(acos) D1(atan) D1(sinh) D1(cosh) D1(tanh) D1(asinh)
D1(acosh) D1(atanh) D1(exp) D1(exp2) D1(exp10) D1(expm1) D1(log) D1(log2) D1(log10) D1(log1p)
D1(logb) D1(cbrt) D1(rcbrt) D1(sqrt) D1(rsqrt) D1(erf) D1(erfc) D1(erfinv) D1(erfcinv) D1(erfcx)
D1(normcdf) D1(normcdfinv) D1(lgamma) D1(tgamma) D1(j0) D1(j1) D1(y0) D1(y1) D1(sinpi) D1(cospi)
D1(cyl_bessel_i0) D1(cyl_bessel_i1) D1(round) D1(trunc) D1(floor) D1(ceil) D1(rint)
F2(atan2f) F2(powf) F2(hypotf) F2(rhypotf) F2(fmodf) F2(remainderf) F2(fdimf) F2(fmaxf)
F2(fminf) F2(nextafterf) F2(copysignf) F2(fast_fdividef) F2(fast_powf) F2(fdiv_rn) F2(fdiv_rz)
F2(fdiv_ru) F2(fdiv_rd) F2(fadd_rz) F2(fadd_ru) F2(fadd_rd) F2(fmul_rz) F2(fmul_ru) F2(fmul_rd)
D2(atan2) D2(pow) D2(hypot) D2(rhypot) D2(fmod) D2(remainder) D2(fdim) D2(fmax) D2(fmin)
D2(nextafter) D2(copysign) D2(ddiv_rn) D2(ddiv_rz) D2(ddiv_ru) D2(ddiv_rd) D2(dadd_rz)
D2(dadd_ru) D2(dadd_rd) D2(dmul_rz) D2(dmul_ru) D2(dmul_rd)
F3(fmaf) F3(fmaf_rz) F3(fmaf_ru) F3(fmaf_rd) D3(fma) D3(fma_rz) D3(fma_ru) D3(fma_rd)
D1(drcp_rn) D1(drcp_rz) D1(drcp_ru) D1(drcp_rd) D1(dsqrt_rn) D1(dsqrt_rz) D1(dsqrt_ru)
D1(dsqrt_rd) D2(dadd_rn) D2(dsub_rn) D2(dsub_rz) D2(dsub_ru) D2(dsub_rd) D2(dmul_rn)
F2(fadd_rn) F2(fsub_rn) F2(fsub_rz) F2(fsub_ru) F2(fsub_rd) F2(fmul_rn)
F3(fmaf_rn) F3(fmaf_ieee_rn) F3(fmaf_ieee_rz) F3(fmaf_ieee_ru) F3(fmaf_ieee_rd) F3(norm3df)
F3(rnorm3df) D3(fma_rn) D3(norm3d) D3(rnorm3d)
float __nv_norm4df(float, float, float, float) noexcept;
float __nv_rnorm4df(float, float, float, float) noexcept;
double __nv_norm4d(double, double, double, double) noexcept;
double __nv_rnorm4d(double, double, double, double) noexcept;
int __nv_ilogb(double) noexcept;
long long __nv_llrint(double) noexcept;
long long __nv_llround(double) noexcept;
void __nv_sincos(double, double*, double*) noexcept;
void __nv_sincospi(double, double*, double*) noexcept;
double __nv_modf(double, double*) noexcept;
double __nv_frexp(double, int*) noexcept;
double __nv_remquo(double, double, int*) noexcept;
float __nv_remquof(float, float, int*) noexcept;
double __nv_ldexp(double, int) noexcept;
double __nv_scalbn(double, int) noexcept;
float __nv_ldexpf(float, int) noexcept;
float __nv_scalbnf(float, int) noexcept;
double __nv_jn(int, double) noexcept;
double __nv_yn(int, double) noexcept;
float __nv_jnf(int, float) noexcept;
float __nv_ynf(int, float) noexcept;
#undef D1
#undef D2
#undef F2
#undef F3
#undef D3
#if !defined(__CUEMU__)
#include "../libdevice_host.h"
#endif
}

// Two NaN operands of atan2 (the first) and pow and fmod (the second), as the emulator's runtime
// applies the H200's choice (runtime/math_library.cpp).
inline double quieted(double v) {
  u64 b;
  std::memcpy(&b, &v, 8);
  b |= u64(1) << 51;
  std::memcpy(&v, &b, 8);
  return v;
}
inline double nan_first(double x, double y, double r) { return x != x && y != y ? quieted(x) : r; }
inline double nan_second(double x, double y, double r) { return x != x && y != y ? quieted(y) : r; }

// The explicitly rounded conversions' arithmetic, as cuemu's device code has it.
#include "../../../include/cuemu/conversions.h"
#include <cfenv>
// __double2float_r?: the conversion in the FPU's rounding direction, as the emulator does it.
inline float narrow(double x, int direction) {
  const int saved = std::fegetround();
  std::fesetround(direction);
  volatile double v = x;
  volatile float r = static_cast<float>(v);
  std::fesetround(saved);
  return r;
}
template <class T, class F>
T cvt(F x, int mode) {
  return ::cuemu::detail::saturating_convert<T>(::cuemu::detail::round_mode(x, mode));
}
// The plugin's NaN rules for a kernel's own arithmetic: a double operation with a NaN operand
// gives the first NaN operand quieted, sign kept; a float one the canonical NaN 0x7fffffff.
inline double keep_first(double x, double y, double r) {
  return x != x ? quieted(x) : y != y ? quieted(y) : r;
}
// The emulator's pick of two or more NaN operands of double norm3d, rnorm3d, norm4d and rnorm4d
// (cuemu/libdevice.h's norm_nan): libdevice's sum of magnitudes as the GPU orders its additions.
inline double norm_nan(double r, double a, double b, double c, double d = 0.0) {
  if (r == r || (a != a) + (b != b) + (c != c) + (d != d) < 2) return r;
  return quieted(d != d ? d : c != c ? c : a != a ? a : b);
}
inline float canon(float f) {
  if (f == f) return f;
  const u32 b = 0x7fffffffu;
  std::memcpy(&f, &b, 4);
  return f;
}
// Functions of two results, one entry per result.
template <class F>
__host__ __device__ inline double first_of(F f, double x) {
  double a = 0, b = 0;
  f(x, &a, &b);
  return a;
}
template <class F>
__host__ __device__ inline double second_of(F f, double x) {
  double a = 0, b = 0;
  f(x, &a, &b);
  return b;
}

// X(name, kind, device expression, host expression): kind D (double x), FF (float x, y), DD,
// FFF (x, y, z), DDD; added 2026-12-05: DL and DF (double x to an integer, to a float), DE and
// FE (x and an exponent e), KD and KF (an order k and x), DDL and FFL (x, y to an integer), LD,
// LF and IF (a 64-bit or 32-bit integer l to a double or float).
#define D(n) X(n, D, n(x), __nv_##n(x))
#define FF(n) X(n, FF, n(x, y), __nv_##n(x, y))
#define FF2(n, nv) X(n, FF, n(x, y), __nv_##nv(x, y))
#define DD(n) X(n, DD, n(x, y), __nv_##n(x, y))
#define DD2(n, nv) X(n, DD, n(x, y), __nv_##nv(x, y))
#define FFF2(n, nv) X(n, FFF, n(x, y, z), __nv_##nv(x, y, z))
#define DDD2(n, nv) X(n, DDD, n(x, y, z), __nv_##nv(x, y, z))
#define CONVERSIONS_D(S, M)                                                                        \
  X(__double2int_##S, DL, __double2int_##S(x), cvt<int>(x, M))                                     \
  X(__double2uint_##S, DL, __double2uint_##S(x), cvt<unsigned>(x, M))                              \
  X(__double2ll_##S, DL, __double2ll_##S(x), cvt<long long>(x, M))                                 \
  X(__double2ull_##S, DL, __double2ull_##S(x), cvt<unsigned long long>(x, M))
#define CONVERSIONS_L(S, M)                                                                        \
  X(__ll2double_##S, LD, __ll2double_##S(l), ::cuemu::detail::int_to_float<double>(l, M))         \
  X(__ull2double_##S, LD, __ull2double_##S(ul), ::cuemu::detail::int_to_float<double>(ul, M))     \
  X(__ll2float_##S, LF, __ll2float_##S(l), ::cuemu::detail::int_to_float<float>(l, M))            \
  X(__ull2float_##S, LF, __ull2float_##S(ul), ::cuemu::detail::int_to_float<float>(ul, M))        \
  X(__int2float_##S, IF, __int2float_##S(i), ::cuemu::detail::int_to_float<float>(i, M))          \
  X(__uint2float_##S, IF, __uint2float_##S(ui), ::cuemu::detail::int_to_float<float>(ui, M))
#define FUNCTIONS                                                                                 \
  D(sin) D(cos) D(tan) D(asin) D(acos) D(atan) D(sinh) D(cosh) D(tanh) D(asinh) D(acosh)          \
  D(atanh) D(exp) D(exp2) D(exp10) D(expm1) D(log) D(log2) D(log10) D(log1p) D(logb) D(cbrt)      \
  D(rcbrt) D(sqrt) D(rsqrt) D(erf) D(erfc) D(erfinv) D(erfcinv) D(erfcx) D(normcdf)               \
  D(normcdfinv) D(lgamma) D(tgamma) D(j0) D(j1) D(y0) D(y1) D(sinpi) D(cospi) D(cyl_bessel_i0)    \
  D(cyl_bessel_i1) D(round) D(trunc) D(floor) D(ceil) D(rint)                                    \
  FF(atan2f) FF(powf) FF(hypotf) FF(rhypotf) FF(fmodf) FF(remainderf) FF(fdimf) FF(fmaxf)         \
  FF(fminf) FF(nextafterf) FF(copysignf) FF2(__fdividef, fast_fdividef) FF2(__powf, fast_powf)    \
  FF2(fdividef, fdiv_rn) FF2(__fdiv_rn, fdiv_rn) FF2(__fdiv_rz, fdiv_rz) FF2(__fdiv_ru, fdiv_ru)  \
  FF2(__fdiv_rd, fdiv_rd) FF2(__fadd_rz, fadd_rz) FF2(__fadd_ru, fadd_ru) FF2(__fadd_rd, fadd_rd) \
  FF2(__fmul_rz, fmul_rz) FF2(__fmul_ru, fmul_ru) FF2(__fmul_rd, fmul_rd)                         \
  X(atan2, DD, atan2(x, y), nan_first(x, y, __nv_atan2(x, y)))                                    \
  X(pow, DD, pow(x, y), nan_second(x, y, __nv_pow(x, y)))                                         \
  X(fmod, DD, fmod(x, y), nan_second(x, y, __nv_fmod(x, y)))                                      \
  DD(hypot) DD(rhypot) DD(remainder) DD(fdim) DD(fmax) DD(fmin) DD(nextafter) DD(copysign)        \
  DD2(__ddiv_rn, ddiv_rn) DD2(__ddiv_rz, ddiv_rz) DD2(__ddiv_ru, ddiv_ru) DD2(__ddiv_rd, ddiv_rd) \
  DD2(__dadd_rz, dadd_rz) DD2(__dadd_ru, dadd_ru) DD2(__dadd_rd, dadd_rd) DD2(__dmul_rz, dmul_rz) \
  DD2(__dmul_ru, dmul_ru) DD2(__dmul_rd, dmul_rd)                                                 \
  FFF2(fmaf, fmaf) FFF2(__fmaf_rz, fmaf_rz) FFF2(__fmaf_ru, fmaf_ru) FFF2(__fmaf_rd, fmaf_rd)     \
  DDD2(fma, fma) DDD2(__fma_rz, fma_rz) DDD2(__fma_ru, fma_ru) DDD2(__fma_rd, fma_rd)         \
  /* added 2026-12-05 */                                                                          \
  X(__drcp_rn, D, __drcp_rn(x), __nv_drcp_rn(x)) X(__drcp_rz, D, __drcp_rz(x), __nv_drcp_rz(x))   \
  X(__drcp_ru, D, __drcp_ru(x), __nv_drcp_ru(x)) X(__drcp_rd, D, __drcp_rd(x), __nv_drcp_rd(x))   \
  X(__dsqrt_rn, D, __dsqrt_rn(x), __nv_dsqrt_rn(x)) X(__dsqrt_rz, D, __dsqrt_rz(x), __nv_dsqrt_rz(x)) \
  X(__dsqrt_ru, D, __dsqrt_ru(x), __nv_dsqrt_ru(x)) X(__dsqrt_rd, D, __dsqrt_rd(x), __nv_dsqrt_rd(x)) \
  X(ilogb, DL, ilogb(x), __nv_ilogb(x)) X(llrint, DL, llrint(x), __nv_llrint(x))                  \
  X(llround, DL, llround(x), __nv_llround(x))                                                     \
  CONVERSIONS_D(rn, 0) CONVERSIONS_D(rz, 1) CONVERSIONS_D(ru, 2) CONVERSIONS_D(rd, 3)              \
  X(__double2float_rn, DF, __double2float_rn(x), static_cast<float>(x))                          \
  X(__double2float_rz, DF, __double2float_rz(x), narrow(x, FE_TOWARDZERO))                        \
  X(__double2float_ru, DF, __double2float_ru(x), narrow(x, FE_UPWARD))                            \
  X(__double2float_rd, DF, __double2float_rd(x), narrow(x, FE_DOWNWARD))                          \
  X(sincos_sin, D, first_of([](double v, double* a, double* b) { sincos(v, a, b); }, x),        \
    first_of(__nv_sincos, x))                                                                     \
  X(sincos_cos, D, second_of([](double v, double* a, double* b) { sincos(v, a, b); }, x),       \
    second_of(__nv_sincos, x))                                                                    \
  X(sincospi_sin, D, first_of([](double v, double* a, double* b) { sincospi(v, a, b); }, x),    \
    first_of(__nv_sincospi, x))                                                                   \
  X(sincospi_cos, D, second_of([](double v, double* a, double* b) { sincospi(v, a, b); }, x),   \
    second_of(__nv_sincospi, x))                                                                  \
  X(modf_frac, D, ([x] { double i = 0; return modf(x, &i); }()),                                 \
    ([x] { double i = 0; return __nv_modf(x, &i); }()))                                           \
  X(modf_int, D, ([x] { double i = 0; modf(x, &i); return i; }()),                                \
    ([x] { double i = 0; __nv_modf(x, &i); return i; }()))                                        \
  X(frexp_mant, D, ([x] { int e = 0; return frexp(x, &e); }()),                                   \
    ([x] { int e = 0; return __nv_frexp(x, &e); }()))                                             \
  X(frexp_exp, DL, ([x] { int e = 0; frexp(x, &e); return e; }()),                                \
    ([x] { int e = 0; __nv_frexp(x, &e); return e; }()))                                          \
  X(remquo_rem, DD, ([x, y] { int q = 0; return remquo(x, y, &q); }()),                           \
    ([x, y] { int q = 0; return nan_second(x, y, __nv_remquo(x, y, &q)); }()))                     \
  X(remquo_quo, DDL, ([x, y] { int q = 0; remquo(x, y, &q); return q; }()),                       \
    ([x, y] { int q = 0; __nv_remquo(x, y, &q); return q; }()))                                   \
  X(remquof_rem, FF, ([x, y] { int q = 0; return remquof(x, y, &q); }()),                         \
    ([x, y] { int q = 0; return __nv_remquof(x, y, &q); }()))                                     \
  X(remquof_quo, FFL, ([x, y] { int q = 0; remquof(x, y, &q); return q; }()),                     \
    ([x, y] { int q = 0; __nv_remquof(x, y, &q); return q; }()))                                  \
  X(ldexp, DE, ldexp(x, e), __nv_ldexp(x, e)) X(scalbn, DE, scalbn(x, e), __nv_scalbn(x, e))      \
  X(ldexpf, FE, ldexpf(x, e), __nv_ldexpf(x, e)) X(scalbnf, FE, scalbnf(x, e), __nv_scalbnf(x, e)) \
  X(jn, KD, jn(k, x), __nv_jn(k, x)) X(yn, KD, yn(k, x), __nv_yn(k, x))                           \
  X(jnf, KF, jnf(k, x), __nv_jnf(k, x)) X(ynf, KF, ynf(k, x), __nv_ynf(k, x))                     \
  DD2(__dadd_rn, dadd_rn) DD2(__dsub_rn, dsub_rn) DD2(__dsub_rz, dsub_rz) DD2(__dsub_ru, dsub_ru) \
  DD2(__dsub_rd, dsub_rd) DD2(__dmul_rn, dmul_rn) FF2(__fadd_rn, fadd_rn) FF2(__fsub_rn, fsub_rn) \
  FF2(__fsub_rz, fsub_rz) FF2(__fsub_ru, fsub_ru) FF2(__fsub_rd, fsub_rd) FF2(__fmul_rn, fmul_rn) \
  FFF2(__fmaf_rn, fmaf_rn) FFF2(__fmaf_ieee_rn, fmaf_ieee_rn) FFF2(__fmaf_ieee_rz, fmaf_ieee_rz)  \
  FFF2(__fmaf_ieee_ru, fmaf_ieee_ru) FFF2(__fmaf_ieee_rd, fmaf_ieee_rd) FFF2(norm3df, norm3df)    \
  FFF2(rnorm3df, rnorm3df) DDD2(__fma_rn, fma_rn)                                                 \
  X(norm3d, DDD, norm3d(x, y, z), norm_nan(__nv_norm3d(x, y, z), x, y, z))                        \
  X(rnorm3d, DDD, rnorm3d(x, y, z), norm_nan(__nv_rnorm3d(x, y, z), x, y, z))                     \
  CONVERSIONS_L(rn, 0) CONVERSIONS_L(rz, 1) CONVERSIONS_L(ru, 2) CONVERSIONS_L(rd, 3)            \
  X(norm4df, FFFF, norm4df(x, y, z, u), __nv_norm4df(x, y, z, u))                                 \
  X(rnorm4df, FFFF, rnorm4df(x, y, z, u), __nv_rnorm4df(x, y, z, u))                              \
  X(norm4d, DDDD, norm4d(x, y, z, u), norm_nan(__nv_norm4d(x, y, z, u), x, y, z, u))              \
  X(rnorm4d, DDDD, rnorm4d(x, y, z, u), norm_nan(__nv_rnorm4d(x, y, z, u), x, y, z, u))           \
  X(scalbln, DE, scalbln(x, static_cast<long>(e)), __nv_scalbn(x, e))                             \
  X(scalblnf, FE, scalblnf(x, static_cast<long>(e)), __nv_scalbnf(x, e))                          \
  X(min_d, DD, min(x, y), __nv_fmin(x, y)) X(max_d, DD, max(x, y), __nv_fmax(x, y))               \
  X(min_f, FF, min(x, y), __nv_fminf(x, y)) X(max_f, FF, max(x, y), __nv_fmaxf(x, y))             \
  /* plain arithmetic: the CPU's instruction and the plugin's NaN rules (src/gpu_fp) */           \
  X(op_dadd, DD, x + y, keep_first(x, y, x + y)) X(op_dsub, DD, x - y, keep_first(x, y, x - y))   \
  X(op_dmul, DD, x * y, keep_first(x, y, x * y)) X(op_ddiv, DD, x / y, keep_first(x, y, x / y))   \
  X(op_fadd, FF, x + y, canon(x + y)) X(op_fsub, FF, x - y, canon(x - y))                         \
  X(op_fmul, FF, x * y, canon(x * y)) X(op_fdiv, FF, x / y, canon(x / y))                         \
  X(op_dneg, D, -x, keep_first(x, x, -x)) X(op_drcp, D, 1.0 / x, keep_first(x, x, 1.0 / x))       \
  X(fabs_d, D, fabs(x), keep_first(x, x, std::fabs(x)))                                           \
  X(nearbyint_d, D, nearbyint(x), keep_first(x, x, std::nearbyint(x)))                            \
  X(op_d2f, DF, static_cast<float>(x), static_cast<float>(x))

enum kind { D, FF, DD, FFF, DDD, DL, DF, DE, FE, KD, KF, DDL, FFL, LD, LF, IF, FFFF, DDDD };
enum fn_id {
#define X(n, k, d, h) id_##n,
  FUNCTIONS
#undef X
  fn_count
};
const char* const fn_names[] = {
#define X(n, k, d, h) #n,
    FUNCTIONS
#undef X
};
const kind fn_kinds[] = {
#define X(n, k, d, h) k,
    FUNCTIONS
#undef X
};
int arity(kind k) {
  switch (k) {
    case D: case DL: case DF: case LD: case LF: case IF: return 1;
    case FFF: case DDD: return 3;
    case FFFF: case DDDD: return 4;
    default: return 2;
  }
}
bool is_double(kind k) {
  switch (k) {
    case FF: case FFF: case FE: case KF: case FFL: case IF: case FFFF: return false;
    default: return true;
  }
}

constexpr unsigned kSamplesLog = 27;  // samples per function: 134,217,728 (at least 10^8)
constexpr unsigned kChunkLog = 20;    // samples per hash
constexpr unsigned kPassLog = 24;     // samples per GPU pass
constexpr u64 kSamples = u64(1) << kSamplesLog;

// ---- The generator: operand J of sample I of function FN, as the bits of a float or double ----
__host__ __device__ inline u64 mix(u64 z) {  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Edges of single and double precision: values where functions change behaviour.
__host__ __device__ inline double edge(unsigned k, bool dbl) {
  switch (k % 24) {
    case 0: return 0.0;
    case 1: return 1.0;
    case 2: return 2.0;
    case 3: return 0.5;
    case 4: return 1.5707963267948966;   // pi/2
    case 5: return 3.141592653589793;    // pi
    case 6: return 0.6931471805599453;   // ln 2
    case 7: return 10.0;
    case 8: return dbl ? 709.782712893384 : 88.72283935546875;    // exp overflows above
    case 9: return dbl ? -708.3964185322641 : -87.33654022216797;  // exp's result subnormal
    case 10: return dbl ? -745.1332191019411 : -103.97208404541016;  // exp underflows
    case 11: return dbl ? 1.7976931348623157e308 : 3.4028234663852886e38;  // largest
    case 12: return dbl ? 2.2250738585072014e-308 : 1.1754943508222875e-38;  // smallest normal
    case 13: return dbl ? 4.9406564584124654e-324 : 1.401298464324817e-45;  // smallest subnormal
    case 14: return 0.75;
    case 15: return 4.0;
    case 16: return 1e10;
    case 17: return 171.62437695630271;  // tgamma overflows (double)
    case 18: return 35.04010009765625;   // tgammaf overflows
    case 19: return 3.0;
    case 20: return 0.3;
    case 21: return 1e-10;
    case 22: return 2.5;
    default: return 6.283185307179586;   // 2 pi
  }
}

__host__ __device__ inline u64 operand_bits(int fn, u64 i, int j, bool dbl) {
  const u64 h = mix((u64(fn) << 56) ^ (u64(j) << 48) ^ mix(i + 0x9e3779b97f4a7c15ull));
  const u64 r = h >> 4;
  const u64 sign = (r & 1) ? (dbl ? u64(1) << 63 : u64(1) << 31) : 0;
  auto bits = [dbl](double v) -> u64 {
    if (dbl) {
      u64 b;
      std::memcpy(&b, &v, 8);
      return b;
    }
    const float f = static_cast<float>(v);
    u32 b;
    std::memcpy(&b, &f, 4);
    return b;
  };
  switch (h & 15) {
    case 0: case 1: case 2: case 3:  // any bit pattern
      return dbl ? r ^ (r << 60) : r & 0xffffffffull;
    case 4: case 5: case 6: {  // an edge, a few ulps either side (up to 2^12)
      const u64 e = bits(edge(static_cast<unsigned>(r >> 1), dbl)) | sign;
      const u64 off = (r >> 9) & 0xfff;
      return ((r >> 21) & 1) ? e + off : (e >= off ? e - off : off - e);
    }
    case 7: {  // a power of two (any exponent) times 1 +- a few ulps
      const unsigned span = dbl ? 2046 : 254;
      const u64 ex = 1 + (r >> 1) % span, off = (r >> 13) & 0xff;
      const u64 p = dbl ? ex << 52 : ex << 23;
      return sign | (((r >> 22) & 1) ? p + off : p - off);
    }
    case 8: case 9: {  // moderate: 2^[-12, 12) with a random significand
      const u64 ex = (dbl ? 1023 : 127) - 12 + (r >> 1) % 24;
      return sign | (dbl ? (ex << 52 | (r >> 6 & 0xfffffffffffffull)) : (ex << 23 | (r >> 6 & 0x7fffff)));
    }
    case 10: {  // an integer or half-integer, |v| <= 100
      const double v = static_cast<double>(static_cast<int>((r >> 1) % 401) - 200) / 2;
      return bits(v);
    }
    case 11: {  // a multiple of pi/2 up to 2^20 of them, a few ulps either side
      const double k = static_cast<double>((r >> 1) % (u64(1) << ((r >> 21) % 21)));
      const u64 e = bits(k * 1.5707963267948966) | sign;
      const u64 off = (r >> 30) & 0x3f;
      return ((r >> 40) & 1) ? e + off : (e >= off ? e - off : e);
    }
    case 12: {  // subnormal
      return sign | (dbl ? (r >> 8) & 0xfffffffffffffull : (r >> 8) & 0x7fffff);
    }
    case 13: {  // infinity or NaN (any payload)
      const u64 m = ((r >> 1) & 3) == 0 ? 0 : (r >> 3);
      return sign | (dbl ? (0x7ffull << 52 | (m & 0xfffffffffffffull)) : (0xffull << 23 | (m & 0x7fffff)));
    }
    default:  // near 1: 1 +- up to 2^-10
      return bits(1.0 + static_cast<double>(static_cast<int64_t>((r >> 1) & 0x1fffff) - 0x100000) * 0x1p-30) | sign;
  }
}

// Operand J of sample I: for a second or third operand, one time in eight the first operand
// itself, its negation or a neighbour (x == y, x == -y and ties decide there).
__host__ __device__ inline u64 operand(int fn, u64 i, int j, bool dbl) {
  const u64 b = operand_bits(fn, i, j, dbl);
  if (j == 0) return b;
  const u64 h = mix(i ^ (u64(fn) << 40) ^ 0x5851f42d4c957f2dull);
  if ((h & 7) != 0) return b;
  const u64 x = operand_bits(fn, i, 0, dbl);
  switch ((h >> 3) & 3) {
    case 0: return x;
    case 1: return x ^ (dbl ? u64(1) << 63 : u64(1) << 31);
    case 2: return x + 1;
    default: return x - 1;
  }
}

__host__ __device__ inline float as_f(u64 b) {
  const u32 v = static_cast<u32>(b);
  float f;
  std::memcpy(&f, &v, 4);
  return f;
}
__host__ __device__ inline double as_d(u64 b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
__host__ __device__ inline u64 bits_f(float f) {
  u32 v;
  std::memcpy(&v, &f, 4);
  return v;
}
__host__ __device__ inline u64 bits_d(double d) {
  u64 v;
  std::memcpy(&v, &d, 8);
  return v;
}

// Each kind's operands as typed variables x, y, z, and its result as 8 bytes.
#define ARGS_D const double x = as_d(a), y = 0, z = 0;
#define ARGS_DD const double x = as_d(a), y = as_d(b), z = 0;
#define ARGS_DDD const double x = as_d(a), y = as_d(b), z = as_d(c);
#define ARGS_FF const float x = as_f(a), y = as_f(b), z = 0;
#define ARGS_FFF const float x = as_f(a), y = as_f(b), z = as_f(c);
#define BITS_D(e) bits_d(e)
#define BITS_DD(e) bits_d(e)
#define BITS_DDD(e) bits_d(e)
#define BITS_FF(e) bits_f(e)
#define BITS_FFF(e) bits_f(e)
// An exponent (mostly within +-1100, one time in 16 beyond int's edges) and a Bessel order
// (mostly 0-40, one time in 16 negative or large) from an operand's bits.
__host__ __device__ inline int exponent_of(u64 b) {
  if ((b >> 60) == 0) return (b & 1) ? 2147483647 : -2147483647 - 1;
  return static_cast<int>((b >> 8) % 2201) - 1100;
}
__host__ __device__ inline int order_of(u64 b) {
  if ((b >> 60) == 1) return static_cast<int>((b >> 8) % 2001) - 1000;
  return static_cast<int>((b >> 8) % 41);
}
#define ARGS_DL const double x = as_d(a), y = 0, z = 0;
#define ARGS_DF ARGS_DL
#define ARGS_DE const double x = as_d(a), y = 0, z = 0; const int e = exponent_of(b);
#define ARGS_FE const float x = as_f(a), y = 0, z = 0; const int e = exponent_of(b);
#define ARGS_KD const double x = as_d(a), y = 0, z = 0; const int k = order_of(b);
#define ARGS_KF const float x = as_f(a), y = 0, z = 0; const int k = order_of(b);
#define ARGS_DDL ARGS_DD
#define ARGS_FFL ARGS_FF
#define ARGS_LD                                                                                    \
  const double y = 0, z = 0;                                                                       \
  const long long l = static_cast<long long>(a);                                                   \
  const unsigned long long ul = a;                                                                 \
  const double x = 0;                                                                              \
  (void)x, (void)l, (void)ul;
#define ARGS_LF ARGS_LD
#define ARGS_IF                                                                                    \
  const double x = 0, y = 0, z = 0;                                                                \
  const int i = static_cast<int>(static_cast<u32>(a));                                             \
  const unsigned ui = static_cast<u32>(a);                                                         \
  (void)x, (void)i, (void)ui;
#define ARGS_FFFF const float x = as_f(a), y = as_f(b), z = as_f(c), u = as_f(operand(fn, i, 3, dbl));
#define ARGS_DDDD const double x = as_d(a), y = as_d(b), z = as_d(c), u = as_d(operand(fn, i, 3, dbl));
#define BITS_FFFF(e) bits_f(e)
#define BITS_DDDD(e) bits_d(e)
#define BITS_DL(e) static_cast<u64>(e)
#define BITS_DF(e) bits_f(e)
#define BITS_DE(e) bits_d(e)
#define BITS_FE(e) bits_f(e)
#define BITS_KD(e) bits_d(e)
#define BITS_KF(e) bits_f(e)
#define BITS_DDL(e) static_cast<u64>(e)
#define BITS_FFL(e) static_cast<u64>(e)
#define BITS_LD(e) bits_d(e)
#define BITS_LF(e) bits_f(e)
#define BITS_IF(e) bits_f(e)

__global__ void evaluate(int fn, bool dbl, u64 base, u64* out) {
  const u64 i = base + u64(blockIdx.x) * blockDim.x + threadIdx.x;
  const u64 a = operand(fn, i, 0, dbl), b = operand(fn, i, 1, dbl), c = operand(fn, i, 2, dbl);
  u64 r = 0;
  switch (fn) {
#define X(n, k, d, h)   \
  case id_##n: {        \
    ARGS_##k            \
    (void)y, (void)z;   \
    r = BITS_##k(d);    \
    break;              \
  }
    FUNCTIONS
#undef X
  }
  out[i - base] = r;
}

u64 host_value(int fn, u64 i) {
  const bool dbl = is_double(fn_kinds[fn]);
  const u64 a = operand(fn, i, 0, dbl), b = operand(fn, i, 1, dbl), c = operand(fn, i, 2, dbl);
  switch (fn) {
#define X(n, k, d, h)   \
  case id_##n: {        \
    ARGS_##k            \
    (void)y, (void)z;   \
    return BITS_##k(h); \
  }
    FUNCTIONS
#undef X
  }
  return 0;
}

// `only`: empty (every function) or names separated by commas.
bool listed(const std::string& only, const char* name) {
  return only.empty() || ("," + only + ",").find("," + std::string(name) + ",") != std::string::npos;
}

unsigned long long fnv(unsigned long long h, u64 v) {
  for (int k = 0; k < 8; ++k) h = (h ^ ((v >> (8 * k)) & 0xff)) * 1099511628211ull;
  return h;
}

int main(int argc, char** argv) {
  std::string only;
  long chunk = -1;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--only") only = argv[i + 1];
    if (std::string(argv[i]) == "--chunk") chunk = std::strtol(argv[i + 1], nullptr, 10);
  }
  constexpr u64 kChunk = u64(1) << kChunkLog, kPass = u64(1) << kPassLog;
  bool host = false;
  for (int i = 1; i < argc; ++i) host |= std::string(argv[i]) == "--host";
  if (chunk >= 0 && host) {  // --host: the host's (the emulator's library's) hash, no GPU
    if (chunk >= long(kSamples / kChunk)) return 1;
    for (int fn = 0; fn < fn_count; ++fn) {
      if (!listed(only, fn_names[fn])) continue;
      unsigned long long h = 1469598103934665603ull;
      for (u64 i = 0; i < kChunk; ++i) h = fnv(h, host_value(fn, (u64(chunk) << kChunkLog) + i));
      std::printf("hash %s %ld %016llx\n", fn_names[fn], chunk, h);
    }
    return 0;
  }
  if (chunk >= 0) {  // the device's hash of one chunk per function, nothing compared
    u64* out = nullptr;
    if (chunk >= long(kSamples / kChunk) || cudaMalloc(&out, kChunk * 8) != cudaSuccess) return 1;
    std::vector<u64> got(kChunk);
    for (int fn = 0; fn < fn_count; ++fn) {
      if (!listed(only, fn_names[fn])) continue;
      evaluate<<<kChunk / 256, 256>>>(fn, is_double(fn_kinds[fn]), u64(chunk) << kChunkLog, out);
      if (cudaMemcpy(got.data(), out, kChunk * 8, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
      unsigned long long h = 1469598103934665603ull;
      for (u64 v : got) h = fnv(h, v);
      std::printf("hash %s %ld %016llx\n", fn_names[fn], chunk, h);
    }
    cudaFree(out);
    return 0;
  }
  u64* dev = nullptr;
  if (cudaMalloc(&dev, kPass * 8) != cudaSuccess) return 1;
  std::vector<u64> gpu(kPass);
  constexpr u64 kChunks = kPass / kChunk;
  unsigned threads = std::thread::hardware_concurrency();
  if (threads == 0) threads = 4;
  for (int fn = 0; fn < fn_count; ++fn) {
    if (!listed(only, fn_names[fn])) continue;
    const int n_in = arity(fn_kinds[fn]);
    const bool dbl = is_double(fn_kinds[fn]);
    unsigned long long differing = 0;
    std::vector<std::string> shown;
    std::vector<unsigned long long> hashes, chunk_differing;
    for (u64 base = 0; base < kSamples; base += kPass) {
      evaluate<<<kPass / 256, 256>>>(fn, dbl, base, dev);
      if (cudaMemcpy(gpu.data(), dev, kPass * 8, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
      std::vector<unsigned long long> count(kChunks), hash(kChunks);
      std::vector<std::vector<std::string>> first(kChunks);
      std::vector<std::thread> pool;
      std::atomic<u64> next{0};
      for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&] {
          for (u64 q; (q = next.fetch_add(1)) < kChunks;) {
            unsigned long long h = 1469598103934665603ull;
            for (u64 i = q * kChunk; i < (q + 1) * kChunk; ++i) {
              h = fnv(h, gpu[i]);
              const u64 cpu = host_value(fn, base + i);
              if (cpu != gpu[i] && ++count[q] <= 16) {
                char line[160];
                int len = std::snprintf(line, sizeof line, "diff %llu", (unsigned long long)(base + i));
                for (int j = 0; j < n_in; ++j)
                  len += std::snprintf(line + len, sizeof line - len, dbl ? " %016llx" : " %08llx",
                                       (unsigned long long)operand(fn, base + i, j, dbl));
                std::snprintf(line + len, sizeof line - len, dbl ? " %016llx %016llx" : " %08llx %08llx",
                              (unsigned long long)gpu[i], (unsigned long long)cpu);
                first[q].push_back(line);
              }
            }
            hash[q] = h;
          }
        });
      for (auto& th : pool) th.join();
      for (u64 q = 0; q < kChunks; ++q) {
        differing += count[q];
        for (auto& l : first[q])
          if (shown.size() < 16) shown.push_back(l);
        hashes.push_back(hash[q]);
        chunk_differing.push_back(count[q]);
      }
    }
    std::printf("#fn %s differing %llu of %llu\n", fn_names[fn], differing, (unsigned long long)kSamples);
    for (auto& l : shown) std::printf("%s\n", l.c_str());
    for (std::size_t q = 0; q < hashes.size(); ++q)
      std::printf("hash %zu %016llx %llu\n", q, hashes[q], chunk_differing[q]);
    std::fflush(stdout);
  }
  cudaFree(dev);
  return 0;
}
