// math_probe: prints the exact bits of the CUDA math library's results for a fixed set of inputs,
// so that the output of an H200 and the emulator's output can be compared bit for bit (issue 14).
// One self-contained program, runtime API only: it builds with nvcc (-arch=sm_90) and with
// `cuemu run`.
//
// Covered: the single- and double-precision functions of the CUDA Math API, the `__` intrinsics
// (hardware approximations and explicitly rounded arithmetic), the float/double/integer
// conversion intrinsics, and plain arithmetic in a kernel (op_*: + - * /, negation, 1/x, a*b+c
// as nvcc contracts it, float<->double conversion), whose NaN results are part of the record.
//
// Inputs (all computed on the host, so both sides evaluate the same bits):
//   - edge values: +-0, subnormals, the smallest normals, 1 and its neighbours, powers of 2 with
//     their neighbours, multiples of pi/2 with their neighbours, the overflow/underflow
//     thresholds of exp, exp2, exp10, sinh, tgamma, ..., +-inf, quiet and signalling NaNs with
//     payloads. Unary functions get all of them; functions of two or more arguments get the
//     product of a smaller subset.
//   - N pseudo-random inputs per function (option --n N, default 64), the same for every
//     function with the same argument types. Argument j of type T draws from its own SplitMix64
//     stream (seed 0x6D617468'00000000 + 16*j + code(T)); input i uses mode i % 4:
//       f/d: 0 raw bit pattern (any value, NaNs included), 1 uniform in [-1, 1),
//            2 uniform in [-16, 16), 3 random sign * 2^e * (1 + m), e uniform in [-24, 24), m a
//            random mantissa; for a ternary function mode 3 of the third argument is instead
//            -(a*b) rounded to nearest (cancellation of an fma);
//       i/l: raw bits (conversions); e: an exponent in [-300, 300]; k: an order in [0, 32).
//     Uniform values are exact: a random integer of 24 (float) or 53 (double) bits scaled.
//
// Output: for each function one header line, then one line per input:
//   #fn <name> <argument types>><result types>        e.g.  #fn atan2f ff>f
//   <name> <argument bits> -> <result bits>            e.g.  atan2f 3f800000 00000000 -> 3fc90fdb
// Types: f float (8 hex digits of its bits), d double (16), i int (8), l 64-bit int (16),
// e/k an int exponent or order (8). The last line is `math_probe: <N> results`.
// Usage: math_probe [--n N] [--only SUBSTRING]
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
                   cudaGetErrorString(e_));                                           \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

typedef unsigned long long u64;

// Arguments are passed as bits, 4 per input; results come back as bits, 2 per input.
#define A_f(j) __uint_as_float(static_cast<unsigned int>(a[j]))
#define A_d(j) __longlong_as_double(static_cast<long long>(a[j]))
#define A_i(j) static_cast<int>(static_cast<unsigned int>(a[j]))
#define A_u(j) static_cast<unsigned int>(a[j])
#define A_l(j) static_cast<long long>(a[j])
#define A_ul(j) static_cast<unsigned long long>(a[j])
#define R_f(v) static_cast<u64>(__float_as_uint(v))
#define R_d(v) static_cast<u64>(__double_as_longlong(v))
#define R_i(v) static_cast<u64>(static_cast<unsigned int>(v))
#define R_l(v) static_cast<u64>(v)

// Shorthands for the list below.
#define F1(fn) r[0] = R_f(fn(A_f(0)))
#define F2(fn) r[0] = R_f(fn(A_f(0), A_f(1)))
#define F3(fn) r[0] = R_f(fn(A_f(0), A_f(1), A_f(2)))
#define D1(fn) r[0] = R_d(fn(A_d(0)))
#define D2(fn) r[0] = R_d(fn(A_d(0), A_d(1)))
#define D3(fn) r[0] = R_d(fn(A_d(0), A_d(1), A_d(2)))
// sincos-like functions: both results (initialised, so that a result left unwritten prints 0).
#define FSC(fn)       \
  float s = 0.0f;     \
  float c = 0.0f;     \
  fn(A_f(0), &s, &c); \
  r[0] = R_f(s);      \
  r[1] = R_f(c)
#define DSC(fn)       \
  double s = 0.0;     \
  double c = 0.0;     \
  fn(A_d(0), &s, &c); \
  r[0] = R_d(s);      \
  r[1] = R_d(c)

// Once left out of the emulator's build, which did not declare it.
#define PROBE_MISSING_ON_EMULATOR(X) X(__tanhf, "f>f", F1(__tanhf))

// X(name, signature, body): the body reads the arguments a[] and writes the results r[].
// clang-format off
#define PROBE_LIST(X)                                                                              \
  /* ---- single precision, one argument ---- */                                                   \
  X(sinf, "f>f", F1(sinf)) X(cosf, "f>f", F1(cosf)) X(tanf, "f>f", F1(tanf))                       \
  X(asinf, "f>f", F1(asinf)) X(acosf, "f>f", F1(acosf)) X(atanf, "f>f", F1(atanf))                 \
  X(sinhf, "f>f", F1(sinhf)) X(coshf, "f>f", F1(coshf)) X(tanhf, "f>f", F1(tanhf))                 \
  X(asinhf, "f>f", F1(asinhf)) X(acoshf, "f>f", F1(acoshf)) X(atanhf, "f>f", F1(atanhf))           \
  X(expf, "f>f", F1(expf)) X(exp2f, "f>f", F1(exp2f)) X(exp10f, "f>f", F1(exp10f))                 \
  X(expm1f, "f>f", F1(expm1f)) X(logf, "f>f", F1(logf)) X(log2f, "f>f", F1(log2f))                 \
  X(log10f, "f>f", F1(log10f)) X(log1pf, "f>f", F1(log1pf)) X(logbf, "f>f", F1(logbf))             \
  X(sqrtf, "f>f", F1(sqrtf)) X(rsqrtf, "f>f", F1(rsqrtf)) X(cbrtf, "f>f", F1(cbrtf))               \
  X(rcbrtf, "f>f", F1(rcbrtf)) X(erff, "f>f", F1(erff)) X(erfcf, "f>f", F1(erfcf))                 \
  X(erfinvf, "f>f", F1(erfinvf)) X(erfcinvf, "f>f", F1(erfcinvf)) X(erfcxf, "f>f", F1(erfcxf))     \
  X(lgammaf, "f>f", F1(lgammaf)) X(tgammaf, "f>f", F1(tgammaf)) X(sinpif, "f>f", F1(sinpif))       \
  X(cospif, "f>f", F1(cospif)) X(normcdff, "f>f", F1(normcdff))                                    \
  X(normcdfinvf, "f>f", F1(normcdfinvf)) X(j0f, "f>f", F1(j0f)) X(j1f, "f>f", F1(j1f))             \
  X(y0f, "f>f", F1(y0f)) X(y1f, "f>f", F1(y1f)) X(cyl_bessel_i0f, "f>f", F1(cyl_bessel_i0f))       \
  X(cyl_bessel_i1f, "f>f", F1(cyl_bessel_i1f)) X(fabsf, "f>f", F1(fabsf))                          \
  X(floorf, "f>f", F1(floorf)) X(ceilf, "f>f", F1(ceilf)) X(truncf, "f>f", F1(truncf))             \
  X(roundf, "f>f", F1(roundf)) X(rintf, "f>f", F1(rintf)) X(nearbyintf, "f>f", F1(nearbyintf))     \
  X(__saturatef, "f>f", F1(__saturatef))                                                           \
  X(__sinf, "f>f", F1(__sinf)) X(__cosf, "f>f", F1(__cosf)) X(__tanf, "f>f", F1(__tanf))           \
  X(__expf, "f>f", F1(__expf)) X(__exp10f, "f>f", F1(__exp10f)) X(__logf, "f>f", F1(__logf))       \
  X(__log2f, "f>f", F1(__log2f)) X(__log10f, "f>f", F1(__log10f))                                  \
  X(__frsqrt_rn, "f>f", F1(__frsqrt_rn)) X(__fsqrt_rn, "f>f", F1(__fsqrt_rn))                      \
  X(__fsqrt_rz, "f>f", F1(__fsqrt_rz)) X(__fsqrt_ru, "f>f", F1(__fsqrt_ru))                        \
  X(__fsqrt_rd, "f>f", F1(__fsqrt_rd)) X(__frcp_rn, "f>f", F1(__frcp_rn))                          \
  X(__frcp_rz, "f>f", F1(__frcp_rz)) X(__frcp_ru, "f>f", F1(__frcp_ru))                            \
  X(__frcp_rd, "f>f", F1(__frcp_rd))                                                               \
  PROBE_MISSING_ON_EMULATOR(X)                                                                     \
  X(op_fneg, "f>f", r[0] = R_f(-A_f(0)))                                                           \
  X(op_frcp, "f>f", r[0] = R_f(1.0f / A_f(0)))                                                     \
  X(op_f2d, "f>d", r[0] = R_d(static_cast<double>(A_f(0))))                                        \
  X(ilogbf, "f>i", r[0] = R_i(ilogbf(A_f(0))))                                                     \
  X(lrintf, "f>l", r[0] = R_l(static_cast<long long>(lrintf(A_f(0)))))                             \
  X(llrintf, "f>l", r[0] = R_l(llrintf(A_f(0))))                                                   \
  X(lroundf, "f>l", r[0] = R_l(static_cast<long long>(lroundf(A_f(0)))))                           \
  X(llroundf, "f>l", r[0] = R_l(llroundf(A_f(0))))                                                 \
  X(__float2int_rn, "f>i", r[0] = R_i(__float2int_rn(A_f(0))))                                     \
  X(__float2int_rz, "f>i", r[0] = R_i(__float2int_rz(A_f(0))))                                     \
  X(__float2int_ru, "f>i", r[0] = R_i(__float2int_ru(A_f(0))))                                     \
  X(__float2int_rd, "f>i", r[0] = R_i(__float2int_rd(A_f(0))))                                     \
  X(__float2uint_rn, "f>i", r[0] = R_i(__float2uint_rn(A_f(0))))                                   \
  X(__float2uint_rz, "f>i", r[0] = R_i(__float2uint_rz(A_f(0))))                                   \
  X(__float2ll_rn, "f>l", r[0] = R_l(__float2ll_rn(A_f(0))))                                       \
  X(__float2ll_rz, "f>l", r[0] = R_l(__float2ll_rz(A_f(0))))                                       \
  X(__float2ull_rz, "f>l", r[0] = R_l(__float2ull_rz(A_f(0))))                                     \
  X(op_i2f, "i>f", r[0] = R_f(static_cast<float>(A_i(0))))                                         \
  X(__int2float_rz, "i>f", r[0] = R_f(__int2float_rz(A_i(0))))                                     \
  X(__int2float_ru, "i>f", r[0] = R_f(__int2float_ru(A_i(0))))                                     \
  X(__int2float_rd, "i>f", r[0] = R_f(__int2float_rd(A_i(0))))                                     \
  X(__uint2float_rn, "i>f", r[0] = R_f(__uint2float_rn(A_u(0))))                                   \
  X(__uint2float_rz, "i>f", r[0] = R_f(__uint2float_rz(A_u(0))))                                   \
  X(__ll2float_rn, "l>f", r[0] = R_f(__ll2float_rn(A_l(0))))                                       \
  X(__ll2float_rz, "l>f", r[0] = R_f(__ll2float_rz(A_l(0))))                                       \
  X(__ll2float_ru, "l>f", r[0] = R_f(__ll2float_ru(A_l(0))))                                       \
  X(__ull2float_rd, "l>f", r[0] = R_f(__ull2float_rd(A_ul(0))))                                    \
  X(sincosf, "f>ff", FSC(sincosf))                                                                 \
  X(__sincosf, "f>ff", FSC(__sincosf))                                                             \
  X(sincospif, "f>ff", FSC(sincospif))                                                             \
  X(modff, "f>ff", float ip = 0.0f; r[0] = R_f(modff(A_f(0), &ip)); r[1] = R_f(ip))                \
  X(frexpf, "f>fi", int e = 0; r[0] = R_f(frexpf(A_f(0), &e)); r[1] = R_i(e))                      \
  /* ---- single precision, two or more arguments ---- */                                          \
  X(atan2f, "ff>f", F2(atan2f)) X(powf, "ff>f", F2(powf)) X(hypotf, "ff>f", F2(hypotf))            \
  X(rhypotf, "ff>f", F2(rhypotf)) X(fmodf, "ff>f", F2(fmodf))                                      \
  X(remainderf, "ff>f", F2(remainderf)) X(fdividef, "ff>f", F2(fdividef))                          \
  X(fdimf, "ff>f", F2(fdimf)) X(fmaxf, "ff>f", F2(fmaxf)) X(fminf, "ff>f", F2(fminf))              \
  X(nextafterf, "ff>f", F2(nextafterf)) X(copysignf, "ff>f", F2(copysignf))                        \
  X(__fdividef, "ff>f", F2(__fdividef)) X(__powf, "ff>f", F2(__powf))                              \
  X(__fadd_rn, "ff>f", F2(__fadd_rn)) X(__fadd_rz, "ff>f", F2(__fadd_rz))                          \
  X(__fadd_ru, "ff>f", F2(__fadd_ru)) X(__fadd_rd, "ff>f", F2(__fadd_rd))                          \
  X(__fsub_rn, "ff>f", F2(__fsub_rn)) X(__fsub_rz, "ff>f", F2(__fsub_rz))                          \
  X(__fsub_ru, "ff>f", F2(__fsub_ru)) X(__fsub_rd, "ff>f", F2(__fsub_rd))                          \
  X(__fmul_rn, "ff>f", F2(__fmul_rn)) X(__fmul_rz, "ff>f", F2(__fmul_rz))                          \
  X(__fmul_ru, "ff>f", F2(__fmul_ru)) X(__fmul_rd, "ff>f", F2(__fmul_rd))                          \
  X(__fdiv_rn, "ff>f", F2(__fdiv_rn)) X(__fdiv_rz, "ff>f", F2(__fdiv_rz))                          \
  X(__fdiv_ru, "ff>f", F2(__fdiv_ru)) X(__fdiv_rd, "ff>f", F2(__fdiv_rd))                          \
  X(op_fadd, "ff>f", r[0] = R_f(A_f(0) + A_f(1))) X(op_fsub, "ff>f", r[0] = R_f(A_f(0) - A_f(1)))  \
  X(op_fmul, "ff>f", r[0] = R_f(A_f(0) * A_f(1))) X(op_fdiv, "ff>f", r[0] = R_f(A_f(0) / A_f(1)))  \
  X(remquof, "ff>fi", int q = 0; r[0] = R_f(remquof(A_f(0), A_f(1), &q)); r[1] = R_i(q))           \
  X(ldexpf, "fe>f", r[0] = R_f(ldexpf(A_f(0), A_i(1))))                                            \
  X(scalbnf, "fe>f", r[0] = R_f(scalbnf(A_f(0), A_i(1))))                                          \
  X(scalblnf, "fe>f", r[0] = R_f(scalblnf(A_f(0), static_cast<long>(A_i(1)))))                     \
  X(jnf, "kf>f", r[0] = R_f(jnf(A_i(0), A_f(1)))) X(ynf, "kf>f", r[0] = R_f(ynf(A_i(0), A_f(1))))  \
  X(fmaf, "fff>f", F3(fmaf)) X(__fmaf_rn, "fff>f", F3(__fmaf_rn))                                  \
  X(__fmaf_rz, "fff>f", F3(__fmaf_rz)) X(__fmaf_ru, "fff>f", F3(__fmaf_ru))                        \
  X(__fmaf_rd, "fff>f", F3(__fmaf_rd)) X(__fmaf_ieee_rn, "fff>f", F3(__fmaf_ieee_rn))              \
  X(__fmaf_ieee_rz, "fff>f", F3(__fmaf_ieee_rz))                                                   \
  X(norm3df, "fff>f", F3(norm3df)) X(rnorm3df, "fff>f", F3(rnorm3df))                              \
  X(op_fmad, "fff>f", r[0] = R_f(A_f(0) * A_f(1) + A_f(2)))                                        \
  X(norm4df, "ffff>f", r[0] = R_f(norm4df(A_f(0), A_f(1), A_f(2), A_f(3))))                        \
  X(rnorm4df, "ffff>f", r[0] = R_f(rnorm4df(A_f(0), A_f(1), A_f(2), A_f(3))))                      \
  /* ---- double precision, one argument ---- */                                                   \
  X(sin, "d>d", D1(sin)) X(cos, "d>d", D1(cos)) X(tan, "d>d", D1(tan))                             \
  X(asin, "d>d", D1(asin)) X(acos, "d>d", D1(acos)) X(atan, "d>d", D1(atan))                       \
  X(sinh, "d>d", D1(sinh)) X(cosh, "d>d", D1(cosh)) X(tanh, "d>d", D1(tanh))                       \
  X(asinh, "d>d", D1(asinh)) X(acosh, "d>d", D1(acosh)) X(atanh, "d>d", D1(atanh))                 \
  X(exp, "d>d", D1(exp)) X(exp2, "d>d", D1(exp2)) X(exp10, "d>d", D1(exp10))                       \
  X(expm1, "d>d", D1(expm1)) X(log, "d>d", D1(log)) X(log2, "d>d", D1(log2))                       \
  X(log10, "d>d", D1(log10)) X(log1p, "d>d", D1(log1p)) X(logb, "d>d", D1(logb))                   \
  X(sqrt, "d>d", D1(sqrt)) X(rsqrt, "d>d", D1(rsqrt)) X(cbrt, "d>d", D1(cbrt))                     \
  X(rcbrt, "d>d", D1(rcbrt)) X(erf, "d>d", D1(erf)) X(erfc, "d>d", D1(erfc))                       \
  X(erfinv, "d>d", D1(erfinv)) X(erfcinv, "d>d", D1(erfcinv)) X(erfcx, "d>d", D1(erfcx))           \
  X(lgamma, "d>d", D1(lgamma)) X(tgamma, "d>d", D1(tgamma)) X(sinpi, "d>d", D1(sinpi))             \
  X(cospi, "d>d", D1(cospi)) X(normcdf, "d>d", D1(normcdf)) X(normcdfinv, "d>d", D1(normcdfinv))   \
  X(j0, "d>d", D1(j0)) X(j1, "d>d", D1(j1)) X(y0, "d>d", D1(y0)) X(y1, "d>d", D1(y1))              \
  X(cyl_bessel_i0, "d>d", D1(cyl_bessel_i0)) X(cyl_bessel_i1, "d>d", D1(cyl_bessel_i1))            \
  X(fabs, "d>d", D1(fabs)) X(floor, "d>d", D1(floor)) X(ceil, "d>d", D1(ceil))                     \
  X(trunc, "d>d", D1(trunc)) X(round, "d>d", D1(round)) X(rint, "d>d", D1(rint))                   \
  X(nearbyint, "d>d", D1(nearbyint))                                                               \
  X(__dsqrt_rn, "d>d", D1(__dsqrt_rn)) X(__dsqrt_rz, "d>d", D1(__dsqrt_rz))                        \
  X(__dsqrt_ru, "d>d", D1(__dsqrt_ru)) X(__dsqrt_rd, "d>d", D1(__dsqrt_rd))                        \
  X(__drcp_rn, "d>d", D1(__drcp_rn)) X(__drcp_rz, "d>d", D1(__drcp_rz))                            \
  X(__drcp_ru, "d>d", D1(__drcp_ru)) X(__drcp_rd, "d>d", D1(__drcp_rd))                            \
  X(op_dneg, "d>d", r[0] = R_d(-A_d(0))) X(op_drcp, "d>d", r[0] = R_d(1.0 / A_d(0)))               \
  X(op_d2f, "d>f", r[0] = R_f(static_cast<float>(A_d(0))))                                         \
  X(__double2float_rn, "d>f", r[0] = R_f(__double2float_rn(A_d(0))))                               \
  X(__double2float_rz, "d>f", r[0] = R_f(__double2float_rz(A_d(0))))                               \
  X(__double2float_ru, "d>f", r[0] = R_f(__double2float_ru(A_d(0))))                               \
  X(__double2float_rd, "d>f", r[0] = R_f(__double2float_rd(A_d(0))))                               \
  X(ilogb, "d>i", r[0] = R_i(ilogb(A_d(0))))                                                       \
  X(lrint, "d>l", r[0] = R_l(static_cast<long long>(lrint(A_d(0)))))                               \
  X(llrint, "d>l", r[0] = R_l(llrint(A_d(0))))                                                     \
  X(lround, "d>l", r[0] = R_l(static_cast<long long>(lround(A_d(0)))))                             \
  X(llround, "d>l", r[0] = R_l(llround(A_d(0))))                                                   \
  X(__double2int_rn, "d>i", r[0] = R_i(__double2int_rn(A_d(0))))                                   \
  X(__double2int_rz, "d>i", r[0] = R_i(__double2int_rz(A_d(0))))                                   \
  X(__double2uint_ru, "d>i", r[0] = R_i(__double2uint_ru(A_d(0))))                                 \
  X(__double2ll_rd, "d>l", r[0] = R_l(__double2ll_rd(A_d(0))))                                     \
  X(__double2ull_rn, "d>l", r[0] = R_l(__double2ull_rn(A_d(0))))                                   \
  X(op_l2d, "l>d", r[0] = R_d(static_cast<double>(A_l(0))))                                        \
  X(__ll2double_rz, "l>d", r[0] = R_d(__ll2double_rz(A_l(0))))                                     \
  X(__ll2double_ru, "l>d", r[0] = R_d(__ll2double_ru(A_l(0))))                                     \
  X(__ull2double_rd, "l>d", r[0] = R_d(__ull2double_rd(A_ul(0))))                                  \
  X(sincos, "d>dd", DSC(sincos))                                                                   \
  X(sincospi, "d>dd", DSC(sincospi))                                                               \
  X(modf, "d>dd", double ip = 0.0; r[0] = R_d(modf(A_d(0), &ip)); r[1] = R_d(ip))                  \
  X(frexp, "d>di", int e = 0; r[0] = R_d(frexp(A_d(0), &e)); r[1] = R_i(e))                        \
  /* ---- double precision, two or more arguments ---- */                                          \
  X(atan2, "dd>d", D2(atan2)) X(pow, "dd>d", D2(pow)) X(hypot, "dd>d", D2(hypot))                  \
  X(rhypot, "dd>d", D2(rhypot)) X(fmod, "dd>d", D2(fmod)) X(remainder, "dd>d", D2(remainder))      \
  X(fdim, "dd>d", D2(fdim)) X(fmax, "dd>d", D2(fmax)) X(fmin, "dd>d", D2(fmin))                    \
  X(nextafter, "dd>d", D2(nextafter)) X(copysign, "dd>d", D2(copysign))                            \
  X(__dadd_rn, "dd>d", D2(__dadd_rn)) X(__dadd_rz, "dd>d", D2(__dadd_rz))                          \
  X(__dadd_ru, "dd>d", D2(__dadd_ru)) X(__dadd_rd, "dd>d", D2(__dadd_rd))                          \
  X(__dsub_rn, "dd>d", D2(__dsub_rn)) X(__dsub_rz, "dd>d", D2(__dsub_rz))                          \
  X(__dsub_ru, "dd>d", D2(__dsub_ru)) X(__dsub_rd, "dd>d", D2(__dsub_rd))                          \
  X(__dmul_rn, "dd>d", D2(__dmul_rn)) X(__dmul_rz, "dd>d", D2(__dmul_rz))                          \
  X(__dmul_ru, "dd>d", D2(__dmul_ru)) X(__dmul_rd, "dd>d", D2(__dmul_rd))                          \
  X(__ddiv_rn, "dd>d", D2(__ddiv_rn)) X(__ddiv_rz, "dd>d", D2(__ddiv_rz))                          \
  X(__ddiv_ru, "dd>d", D2(__ddiv_ru)) X(__ddiv_rd, "dd>d", D2(__ddiv_rd))                          \
  X(op_dadd, "dd>d", r[0] = R_d(A_d(0) + A_d(1))) X(op_dsub, "dd>d", r[0] = R_d(A_d(0) - A_d(1)))  \
  X(op_dmul, "dd>d", r[0] = R_d(A_d(0) * A_d(1))) X(op_ddiv, "dd>d", r[0] = R_d(A_d(0) / A_d(1)))  \
  X(remquo, "dd>di", int q = 0; r[0] = R_d(remquo(A_d(0), A_d(1), &q)); r[1] = R_i(q))             \
  X(ldexp, "de>d", r[0] = R_d(ldexp(A_d(0), A_i(1))))                                              \
  X(scalbn, "de>d", r[0] = R_d(scalbn(A_d(0), A_i(1))))                                            \
  X(jn, "kd>d", r[0] = R_d(jn(A_i(0), A_d(1)))) X(yn, "kd>d", r[0] = R_d(yn(A_i(0), A_d(1))))      \
  X(fma, "ddd>d", D3(fma)) X(__fma_rn, "ddd>d", D3(__fma_rn)) X(__fma_rz, "ddd>d", D3(__fma_rz))   \
  X(__fma_ru, "ddd>d", D3(__fma_ru)) X(__fma_rd, "ddd>d", D3(__fma_rd))                            \
  X(norm3d, "ddd>d", D3(norm3d)) X(rnorm3d, "ddd>d", D3(rnorm3d))                                  \
  X(op_dmad, "ddd>d", r[0] = R_d(A_d(0) * A_d(1) + A_d(2)))                                        \
  X(norm4d, "dddd>d", r[0] = R_d(norm4d(A_d(0), A_d(1), A_d(2), A_d(3))))                          \
  X(rnorm4d, "dddd>d", r[0] = R_d(rnorm4d(A_d(0), A_d(1), A_d(2), A_d(3))))                      \
  PROBE_LIST_REST(X)

// Added 2026-12-05: the rest of the conversion and reinterpretation intrinsics, the integer
// intrinsics and functions, classification, nan/nanf, scalbln and the array norms. After the
// list above, so that its functions' inputs and output lines are unchanged.
#define PROBE_LIST_REST(X)                                                                         \
  /* ---- conversions in every rounding, reinterpretation, classification ---- */                 \
  X(__float2uint_ru, "f>i", r[0] = R_i(__float2uint_ru(A_f(0))))                                   \
  X(__float2uint_rd, "f>i", r[0] = R_i(__float2uint_rd(A_f(0))))                                   \
  X(__float2ll_ru, "f>l", r[0] = R_l(__float2ll_ru(A_f(0))))                                       \
  X(__float2ll_rd, "f>l", r[0] = R_l(__float2ll_rd(A_f(0))))                                       \
  X(__float2ull_rn, "f>l", r[0] = R_l(__float2ull_rn(A_f(0))))                                     \
  X(__float2ull_ru, "f>l", r[0] = R_l(__float2ull_ru(A_f(0))))                                     \
  X(__float2ull_rd, "f>l", r[0] = R_l(__float2ull_rd(A_f(0))))                                     \
  X(__float_as_int, "f>i", r[0] = R_i(__float_as_int(A_f(0))))                                     \
  X(__float_as_uint, "f>i", r[0] = R_i(__float_as_uint(A_f(0))))                                   \
  X(isnan_f, "f>i", r[0] = R_i(isnan(A_f(0)) ? 1 : 0))                                             \
  X(isinf_f, "f>i", r[0] = R_i(isinf(A_f(0)) ? 1 : 0))                                             \
  X(isfinite_f, "f>i", r[0] = R_i(isfinite(A_f(0)) ? 1 : 0))                                       \
  X(signbit_f, "f>i", r[0] = R_i(signbit(A_f(0)) ? 1 : 0))                                         \
  X(__int_as_float, "i>f", r[0] = R_f(__int_as_float(A_i(0))))                                     \
  X(__uint_as_float, "i>f", r[0] = R_f(__uint_as_float(A_u(0))))                                   \
  X(__int2float_rn, "i>f", r[0] = R_f(__int2float_rn(A_i(0))))                                     \
  X(__uint2float_ru, "i>f", r[0] = R_f(__uint2float_ru(A_u(0))))                                   \
  X(__uint2float_rd, "i>f", r[0] = R_f(__uint2float_rd(A_u(0))))                                   \
  X(__ll2float_rd, "l>f", r[0] = R_f(__ll2float_rd(A_l(0))))                                       \
  X(__ull2float_rn, "l>f", r[0] = R_f(__ull2float_rn(A_ul(0))))                                    \
  X(__ull2float_rz, "l>f", r[0] = R_f(__ull2float_rz(A_ul(0))))                                    \
  X(__ull2float_ru, "l>f", r[0] = R_f(__ull2float_ru(A_ul(0))))                                    \
  X(op_u2f, "i>f", r[0] = R_f(static_cast<float>(A_u(0))))                                         \
  X(op_ul2f, "l>f", r[0] = R_f(static_cast<float>(A_ul(0))))                                       \
  X(__int2double_rn, "i>d", r[0] = R_d(__int2double_rn(A_i(0))))                                   \
  X(__uint2double_rn, "i>d", r[0] = R_d(__uint2double_rn(A_u(0))))                                 \
  X(__double2int_ru, "d>i", r[0] = R_i(__double2int_ru(A_d(0))))                                   \
  X(__double2int_rd, "d>i", r[0] = R_i(__double2int_rd(A_d(0))))                                   \
  X(__double2uint_rn, "d>i", r[0] = R_i(__double2uint_rn(A_d(0))))                                 \
  X(__double2uint_rz, "d>i", r[0] = R_i(__double2uint_rz(A_d(0))))                                 \
  X(__double2uint_rd, "d>i", r[0] = R_i(__double2uint_rd(A_d(0))))                                 \
  X(__double2ll_rn, "d>l", r[0] = R_l(__double2ll_rn(A_d(0))))                                     \
  X(__double2ll_rz, "d>l", r[0] = R_l(__double2ll_rz(A_d(0))))                                     \
  X(__double2ll_ru, "d>l", r[0] = R_l(__double2ll_ru(A_d(0))))                                     \
  X(__double2ull_rz, "d>l", r[0] = R_l(__double2ull_rz(A_d(0))))                                   \
  X(__double2ull_ru, "d>l", r[0] = R_l(__double2ull_ru(A_d(0))))                                   \
  X(__double2ull_rd, "d>l", r[0] = R_l(__double2ull_rd(A_d(0))))                                   \
  X(op_d2i, "d>i", r[0] = R_i(static_cast<int>(A_d(0))))                                           \
  X(op_f2i, "f>i", r[0] = R_i(static_cast<int>(A_f(0))))                                           \
  X(op_f2u, "f>i", r[0] = R_i(static_cast<unsigned int>(A_f(0))))                                  \
  X(op_f2ll, "f>l", r[0] = R_l(static_cast<long long>(A_f(0))))                                    \
  X(op_f2ull, "f>l", r[0] = R_l(static_cast<unsigned long long>(A_f(0))))                          \
  X(op_f2s16, "f>i", r[0] = R_i(static_cast<short>(A_f(0))))                                       \
  X(op_f2u16, "f>i", r[0] = R_i(static_cast<unsigned short>(A_f(0))))                              \
  X(op_f2s8, "f>i", r[0] = R_i(static_cast<signed char>(A_f(0))))                                  \
  X(op_f2u8, "f>i", r[0] = R_i(static_cast<unsigned char>(A_f(0))))                                \
  X(op_d2u, "d>i", r[0] = R_i(static_cast<unsigned int>(A_d(0))))                                  \
  X(op_d2ll, "d>l", r[0] = R_l(static_cast<long long>(A_d(0))))                                    \
  X(op_d2ull, "d>l", r[0] = R_l(static_cast<unsigned long long>(A_d(0))))                          \
  X(op_d2s16, "d>i", r[0] = R_i(static_cast<short>(A_d(0))))                                       \
  X(op_d2u8, "d>i", r[0] = R_i(static_cast<unsigned char>(A_d(0))))                                \
  X(op_l2f, "l>f", r[0] = R_f(static_cast<float>(A_l(0))))                                         \
  X(op_ul2d, "l>d", r[0] = R_d(static_cast<double>(A_ul(0))))                                      \
  X(__double_as_longlong, "d>l", r[0] = R_l(__double_as_longlong(A_d(0))))                         \
  X(__double2hiint, "d>i", r[0] = R_i(__double2hiint(A_d(0))))                                     \
  X(__double2loint, "d>i", r[0] = R_i(__double2loint(A_d(0))))                                     \
  X(isnan_d, "d>i", r[0] = R_i(isnan(A_d(0)) ? 1 : 0))                                             \
  X(isinf_d, "d>i", r[0] = R_i(isinf(A_d(0)) ? 1 : 0))                                             \
  X(isfinite_d, "d>i", r[0] = R_i(isfinite(A_d(0)) ? 1 : 0))                                       \
  X(signbit_d, "d>i", r[0] = R_i(signbit(A_d(0)) ? 1 : 0))                                         \
  X(__longlong_as_double, "l>d", r[0] = R_d(__longlong_as_double(A_l(0))))                         \
  X(__ll2double_rn, "l>d", r[0] = R_d(__ll2double_rn(A_l(0))))                                     \
  X(__ll2double_rd, "l>d", r[0] = R_d(__ll2double_rd(A_l(0))))                                     \
  X(__ull2double_rn, "l>d", r[0] = R_d(__ull2double_rn(A_ul(0))))                                  \
  X(__ull2double_rz, "l>d", r[0] = R_d(__ull2double_rz(A_ul(0))))                                  \
  X(__ull2double_ru, "l>d", r[0] = R_d(__ull2double_ru(A_ul(0))))                                  \
  X(__hiloint2double, "ii>d", r[0] = R_d(__hiloint2double(A_i(0), A_i(1))))                        \
  /* ---- the rest of the floating-point functions ---- */                                         \
  X(__fmaf_ieee_ru, "fff>f", F3(__fmaf_ieee_ru)) X(__fmaf_ieee_rd, "fff>f", F3(__fmaf_ieee_rd))    \
  X(scalbln, "de>d", r[0] = R_d(scalbln(A_d(0), static_cast<long>(A_i(1)))))                       \
  X(nanf_dec, "i>f", char t[24]; r[0] = R_f(nanf(tag_of(A_u(0), 10, t))))                          \
  X(nanf_hex, "i>f", char t[24]; r[0] = R_f(nanf(tag_of(A_u(0), 16, t))))                          \
  X(nan_dec, "l>d", char t[24]; r[0] = R_d(nan(tag_of(A_ul(0), 10, t))))                           \
  X(nan_hex, "l>d", char t[24]; r[0] = R_d(nan(tag_of(A_ul(0), 16, t))))                           \
  X(normf_1, "f>f", float v[1] = {A_f(0)}; r[0] = R_f(normf(1, v)))                                \
  X(rnormf_1, "f>f", float v[1] = {A_f(0)}; r[0] = R_f(rnormf(1, v)))                              \
  X(normf_4, "ffff>f", float v[4] = {A_f(0), A_f(1), A_f(2), A_f(3)}; r[0] = R_f(normf(4, v)))     \
  X(rnormf_4, "ffff>f", float v[4] = {A_f(0), A_f(1), A_f(2), A_f(3)}; r[0] = R_f(rnormf(4, v)))   \
  X(norm_1, "d>d", double v[1] = {A_d(0)}; r[0] = R_d(norm(1, v)))                                 \
  X(rnorm_1, "d>d", double v[1] = {A_d(0)}; r[0] = R_d(rnorm(1, v)))                               \
  X(norm_4, "dddd>d", double v[4] = {A_d(0), A_d(1), A_d(2), A_d(3)}; r[0] = R_d(norm(4, v)))      \
  X(rnorm_4, "dddd>d", double v[4] = {A_d(0), A_d(1), A_d(2), A_d(3)}; r[0] = R_d(rnorm(4, v)))    \
  X(min_f, "ff>f", r[0] = R_f(min(A_f(0), A_f(1)))) X(max_f, "ff>f", r[0] = R_f(max(A_f(0), A_f(1)))) \
  X(min_d, "dd>d", r[0] = R_d(min(A_d(0), A_d(1)))) X(max_d, "dd>d", r[0] = R_d(max(A_d(0), A_d(1)))) \
  /* ---- integer intrinsics and functions ---- */                                                 \
  X(__brev, "i>i", r[0] = R_i(__brev(A_u(0)))) X(__brevll, "l>l", r[0] = R_l(__brevll(A_ul(0))))   \
  X(__clz, "i>i", r[0] = R_i(__clz(A_i(0)))) X(__clzll, "l>i", r[0] = R_i(__clzll(A_l(0))))        \
  X(__ffs, "i>i", r[0] = R_i(__ffs(A_i(0)))) X(__ffsll, "l>i", r[0] = R_i(__ffsll(A_l(0))))        \
  X(__popc, "i>i", r[0] = R_i(__popc(A_u(0)))) X(__popcll, "l>i", r[0] = R_i(__popcll(A_ul(0))))   \
  X(__byte_perm, "iii>i", r[0] = R_i(__byte_perm(A_u(0), A_u(1), A_u(2))))                         \
  X(__funnelshift_l, "iik>i", r[0] = R_i(__funnelshift_l(A_u(0), A_u(1), A_u(2))))                 \
  X(__funnelshift_lc, "iik>i", r[0] = R_i(__funnelshift_lc(A_u(0), A_u(1), A_u(2))))               \
  X(__funnelshift_r, "iik>i", r[0] = R_i(__funnelshift_r(A_u(0), A_u(1), A_u(2))))                 \
  X(__funnelshift_rc, "iik>i", r[0] = R_i(__funnelshift_rc(A_u(0), A_u(1), A_u(2))))               \
  X(__hadd, "ii>i", r[0] = R_i(__hadd(A_i(0), A_i(1))))                                            \
  X(__rhadd, "ii>i", r[0] = R_i(__rhadd(A_i(0), A_i(1))))                                          \
  X(__uhadd, "ii>i", r[0] = R_i(__uhadd(A_u(0), A_u(1))))                                          \
  X(__urhadd, "ii>i", r[0] = R_i(__urhadd(A_u(0), A_u(1))))                                        \
  X(__mul24, "ii>i", r[0] = R_i(__mul24(A_i(0), A_i(1))))                                          \
  X(__umul24, "ii>i", r[0] = R_i(__umul24(A_u(0), A_u(1))))                                        \
  X(__mulhi, "ii>i", r[0] = R_i(__mulhi(A_i(0), A_i(1))))                                          \
  X(__umulhi, "ii>i", r[0] = R_i(__umulhi(A_u(0), A_u(1))))                                        \
  X(__mul64hi, "ll>l", r[0] = R_l(__mul64hi(A_l(0), A_l(1))))                                      \
  X(__umul64hi, "ll>l", r[0] = R_l(__umul64hi(A_ul(0), A_ul(1))))                                  \
  X(__sad, "iii>i", r[0] = R_i(__sad(A_i(0), A_i(1), A_u(2))))                                     \
  X(__usad, "iii>i", r[0] = R_i(__usad(A_u(0), A_u(1), A_u(2))))                                   \
  X(abs_i, "i>i", r[0] = R_i(abs(A_i(0)))) X(llabs, "l>l", r[0] = R_l(llabs(A_l(0))))              \
  X(min_i, "ii>i", r[0] = R_i(min(A_i(0), A_i(1)))) X(max_i, "ii>i", r[0] = R_i(max(A_i(0), A_i(1)))) \
  X(umin, "ii>i", r[0] = R_i(umin(A_u(0), A_u(1)))) X(umax, "ii>i", r[0] = R_i(umax(A_u(0), A_u(1)))) \
  X(llmin, "ll>l", r[0] = R_l(llmin(A_l(0), A_l(1)))) X(llmax, "ll>l", r[0] = R_l(llmax(A_l(0), A_l(1)))) \
  X(ullmin, "ll>l", r[0] = R_l(ullmin(A_ul(0), A_ul(1))))                                          \
  X(ullmax, "ll>l", r[0] = R_l(ullmax(A_ul(0), A_ul(1))))                                          \
  /* ---- plain integer arithmetic in a kernel: division by zero, overflow, wide shifts ---- */    \
  X(op_idiv, "ii>i", r[0] = R_i(A_i(0) / A_i(1))) X(op_irem, "ii>i", r[0] = R_i(A_i(0) % A_i(1)))  \
  X(op_udiv, "ii>i", r[0] = R_i(A_u(0) / A_u(1))) X(op_urem, "ii>i", r[0] = R_i(A_u(0) % A_u(1)))  \
  X(op_ldiv, "ll>l", r[0] = R_l(A_l(0) / A_l(1))) X(op_lrem, "ll>l", r[0] = R_l(A_l(0) % A_l(1)))  \
  X(op_uldiv, "ll>l", r[0] = R_l(A_ul(0) / A_ul(1)))                                               \
  X(op_ulrem, "ll>l", r[0] = R_l(A_ul(0) % A_ul(1)))                                               \
  X(op_ineg, "i>i", r[0] = R_i(-A_i(0)))                                                           \
  X(op_shl, "ik>i", r[0] = R_i(A_u(0) << A_i(1))) X(op_ashr, "ik>i", r[0] = R_i(A_i(0) >> A_i(1))) \
  X(op_lshr, "ik>i", r[0] = R_i(A_u(0) >> A_i(1)))                                                 \
  X(op_shl64, "lk>l", r[0] = R_l(A_ul(0) << A_i(1)))                                               \
  X(op_ashr64, "lk>l", r[0] = R_l(A_l(0) >> A_i(1)))                                               \
  X(op_lshr64, "lk>l", r[0] = R_l(A_ul(0) >> A_i(1)))
// clang-format on

// nan()'s argument: the decimal or "0x"-prefixed hexadecimal digits of v.
static __device__ const char* tag_of(u64 v, int base, char* t) {
  char d[24];
  int n = 0;
  do {
    d[n++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v);
  int k = 0;
  if (base == 16) {
    t[k++] = '0';
    t[k++] = 'x';
  }
  while (n) t[k++] = d[--n];
  t[k] = 0;
  return t;
}

#define PROBE_DEFINE(name, sig, ...)                                                   \
  struct op_##name {                                                                   \
    static __device__ void run(const u64* a, u64* r) { __VA_ARGS__; }                  \
  };
PROBE_LIST(PROBE_DEFINE)

template <class Op>
__global__ void probe_kernel(const u64* in, u64* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) Op::run(in + 4 * i, out + 2 * i);
}

template <class Op>
static void launch(const u64* in, u64* out, int n) {
  probe_kernel<Op><<<(n + 127) / 128, 128>>>(in, out, n);
}

struct Entry {
  const char* name;
  const char* sig;
  void (*run)(const u64*, u64*, int);
};
#define PROBE_ENTRY(name, sig, ...) {#name, sig, &launch<op_##name>},
static const Entry entries[] = {PROBE_LIST(PROBE_ENTRY)};

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------
static std::uint32_t fb(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
static u64 db(double d) {
  u64 u;
  std::memcpy(&u, &d, 8);
  return u;
}
static float bf(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static double bd(u64 u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

// SplitMix64 (Steele, Lea, Flood 2014).
struct SplitMix64 {
  u64 s;
  u64 next() {
    u64 z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

static void add_unique_f(std::vector<u64>& v, float f) {
  const u64 b = fb(f);
  for (u64 x : v)
    if (x == b) return;
  v.push_back(b);
}
static void add_unique_bits(std::vector<u64>& v, u64 b) {
  for (u64 x : v)
    if (x == b) return;
  v.push_back(b);
}
// f and its neighbours (k ulps either side).
static void add_near_f(std::vector<u64>& v, float f, int k = 1) {
  float lo = f, hi = f;
  add_unique_f(v, f);
  for (int i = 0; i < k; ++i) {
    lo = std::nextafter(lo, -INFINITY);
    hi = std::nextafter(hi, INFINITY);
    add_unique_f(v, lo);
    add_unique_f(v, hi);
  }
}
static void add_unique_d(std::vector<u64>& v, double d) { add_unique_bits(v, db(d)); }
static void add_near_d(std::vector<u64>& v, double d, int k = 1) {
  double lo = d, hi = d;
  add_unique_d(v, d);
  for (int i = 0; i < k; ++i) {
    lo = std::nextafter(lo, -INFINITY);
    hi = std::nextafter(hi, INFINITY);
    add_unique_d(v, lo);
    add_unique_d(v, hi);
  }
}

static const double kPiOver2 = 1.57079632679489661923132169163975144;

static std::vector<u64> float_edges() {
  std::vector<u64> v;
  const std::uint32_t special[] = {
      0x00000000u, 0x80000000u,                                            // +-0
      0x00000001u, 0x80000001u, 0x00000002u, 0x00400000u, 0x007fffffu,     // subnormals
      0x807fffffu, 0x00800000u, 0x80800000u, 0x00800001u, 0x00ffffffu,     // smallest normals
      0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u,                  // max, inf
      0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0xffedcba9u, 0x7fffffffu,     // quiet NaNs
      0x7f800001u, 0x7fa00000u, 0xff812345u, 0x7fbfffffu,                  // signalling NaNs
  };
  for (std::uint32_t b : special) add_unique_bits(v, b);
  const int pos_pow[] = {-149, -127, -126, -100, -64, -32, -24, -23, -16, -8, -4, -3, -2, -1,
                         0,    1,    2,    3,    4,   8,   16,  23,  24,  31, 32, 64, 100, 126,
                         127};
  for (int k : pos_pow) add_near_f(v, std::ldexp(1.0f, k));
  const int neg_pow[] = {-126, -24, -2, -1, 0, 1, 2, 23, 24, 127};
  for (int k : neg_pow) add_near_f(v, -std::ldexp(1.0f, k));
  const float misc[] = {0.1f,   1.0f / 3,  0.75f, 1.5f,   -1.5f,  2.5f, -2.5f, -3.5f, 3.0f,
                        5.0f,   10.0f,     -10.0f, 100.0f, 1e-3f, 1e-10f, 1e10f, 1e30f, -1e30f,
                        123.456f, 1e-38f, 0.999f, -0.999f, 1e-5f, -1e-5f, 0.3f, 2.7182817f,
                        -0.75f, 6.0f, 1e22f, 8.5e37f};
  for (float f : misc) add_unique_f(v, f);
  const double pi_mult[] = {1, 2, 3, 4, 5, 6, 8, 16, 100, 1000, 32768, 1048576, 1e7};
  for (double k : pi_mult) add_near_f(v, static_cast<float>(k * kPiOver2));
  add_near_f(v, static_cast<float>(-kPiOver2));
  add_near_f(v, static_cast<float>(-2 * kPiOver2));
  // Thresholds: exp/expm1 overflow and underflow (to subnormal, to zero), exp2, exp10,
  // sinh/cosh overflow, tgamma overflow, erfc underflow, lgamma overflow.
  const float thresholds[] = {88.72283935546875f, 88.7228470f, -87.33654022216797f,
                              -103.27892303466797f, -103.97208404541016f, -149.5f, -150.0f,
                              -126.0f, 128.0f, 38.53183746337891f, -37.929779052734375f,
                              -44.85346984863281f, 89.41598510742188f, 35.04010009765625f,
                              10.05f, 4.0850e36f, -0.5f * 3.0f};
  for (float f : thresholds) add_near_f(v, f);
  return v;
}

static std::vector<u64> double_edges() {
  std::vector<u64> v;
  const u64 special[] = {
      0x0000000000000000ull, 0x8000000000000000ull,                          // +-0
      0x0000000000000001ull, 0x8000000000000001ull, 0x0000000000000002ull,   // subnormals
      0x0008000000000000ull, 0x000fffffffffffffull, 0x800fffffffffffffull,
      0x0010000000000000ull, 0x8010000000000000ull, 0x0010000000000001ull,   // smallest normals
      0x001fffffffffffffull,
      0x7fefffffffffffffull, 0xffefffffffffffffull, 0x7ff0000000000000ull,   // max, inf
      0xfff0000000000000ull,
      0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff8000012345678ull,   // quiet NaNs
      0xfffdcba987654321ull, 0x7fffffffffffffffull,
      0x7ff0000000000001ull, 0x7ff4000000000000ull, 0xfff0dead00000000ull,   // signalling NaNs
  };
  for (u64 b : special) add_unique_bits(v, b);
  const int pos_pow[] = {-1074, -1023, -1022, -600, -149, -126, -64, -53, -52, -32, -24, -16,
                         -8,    -4,    -2,    -1,   0,    1,    2,   3,   4,   8,   16,  24,
                         32,    52,    53,    64,   128,  600,  1022, 1023};
  for (int k : pos_pow) add_near_d(v, std::ldexp(1.0, k));
  const int neg_pow[] = {-1022, -53, -2, -1, 0, 1, 2, 52, 53, 1023};
  for (int k : neg_pow) add_near_d(v, -std::ldexp(1.0, k));
  const double misc[] = {0.1,  1.0 / 3, 0.75,  1.5,    -1.5,   2.5,    -2.5,   -3.5,  3.0,
                         5.0,  10.0,    -10.0, 100.0,  1e-3,   1e-10,  1e10,   1e300, -1e300,
                         123.456, 1e-308, 0.999, -0.999, 1e-5, -1e-5, 0.3, 2.718281828459045,
                         -0.75, 6.0, 1e22, 1e200};
  for (double d : misc) add_unique_d(v, d);
  const double pi_mult[] = {1, 2, 3, 4, 5, 6, 8, 16, 100, 1000, 32768, 1048576, 1e7, 1e15};
  for (double k : pi_mult) add_near_d(v, k * kPiOver2);
  add_near_d(v, -kPiOver2);
  add_near_d(v, -2 * kPiOver2);
  // exp overflow / underflow to subnormal / to zero, exp2, exp10, sinh, tgamma, erfc, lgamma.
  const double thresholds[] = {709.782712893384,   -708.3964185322641, -744.4400719213812,
                               -745.1332191019412, -1074.5,            -1075.0,
                               -1022.0,            1024.0,             308.25471555991675,
                               -307.6526555685888, -323.60724622623895, 710.4758600739439,
                               171.6243769563027,  27.226,             2.5563480000000001e305};
  for (double d : thresholds) add_near_d(v, d);
  // Float's thresholds in double too (conversions to float).
  add_near_d(v, static_cast<double>(FLT_MAX));
  add_near_d(v, 3.4028235677973366e38);  // the rounding boundary above FLT_MAX
  add_near_d(v, static_cast<double>(FLT_MIN));
  add_near_d(v, std::ldexp(1.0, -150));
  add_near_d(v, 1.0 + std::ldexp(1.0, -24));
  return v;
}

// The subsets used for the products of two or more arguments.
static std::vector<u64> float_pair_edges() {
  const std::uint32_t b[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x00800000u, 0x3f000000u,
                             0x3f800000u, 0xbf800000u, 0x3f7fffffu, 0xc0000000u, 0x40400000u,
                             0x41200000u, 0x4b800000u, 0x7f7fffffu,
                             0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7fd23456u, 0xffc00001u,
                             0x7f800123u};
  return std::vector<u64>(std::begin(b), std::end(b));
}
static std::vector<u64> float_triple_edges() {
  const std::uint32_t b[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x00800000u,
                             0x7f000000u, 0x7f800000u, 0x7fd23456u};
  return std::vector<u64>(std::begin(b), std::end(b));
}
static std::vector<u64> double_pair_edges() {
  std::vector<u64> v;
  const double d[] = {0.0, -0.0, 0.5, 1.0, -1.0, -2.0, 3.0, 10.0, 9007199254740992.0};
  for (double x : d) v.push_back(db(x));
  const u64 b[] = {0x0000000000000001ull, 0x0010000000000000ull, 0x3fefffffffffffffull,
                   0x7fefffffffffffffull, 0x7ff0000000000000ull,
                   0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff8000012345678ull,
                   0xfff8000000000001ull, 0x7ff0000000000123ull};
  for (u64 x : b) v.push_back(x);
  return v;
}
static std::vector<u64> double_triple_edges() {
  const u64 b[] = {0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull,
                   0xbff0000000000000ull, 0x0010000000000000ull, 0x7fe0000000000000ull,
                   0x7ff0000000000000ull, 0x7ff8000012345678ull};
  return std::vector<u64>(std::begin(b), std::end(b));
}
static std::vector<u64> exponent_edges() {
  const int e[] = {INT_MIN, -100000, -300, -278, -277, -150, -149, -127, -126, -2, -1,
                   0,       1,       2,    24,   126,  127,  128,  254,  255,  300, 100000,
                   INT_MAX};
  std::vector<u64> v;
  for (int x : e) v.push_back(static_cast<unsigned int>(x));
  return v;
}
static std::vector<u64> order_edges() {
  const int e[] = {0, 1, 2, 3, 5, 10, 50, -1, -2};
  std::vector<u64> v;
  for (int x : e) v.push_back(static_cast<unsigned int>(x));
  return v;
}
static std::vector<u64> int_edges(bool wide) {
  std::vector<u64> v;
  const long long e[] = {0, 1, -1, 2, 3, 7, 255, 16777215, 16777216, 16777217, 16777219,
                         33554433, -16777217, 2147483647, -2147483647 - 1, 2147483520,
                         2147483584, 2147483585, -2147483585};
  for (long long x : e) v.push_back(wide ? static_cast<u64>(x) : static_cast<unsigned int>(x));
  if (wide) {
    const u64 w[] = {0x7fffffffffffffffull, 0x8000000000000000ull, 0x0020000000000001ull,
                     0x0020000000000003ull, 0xffdfffffffffffffull, 0x7ffffffffffffdffull,
                     0x7ffffffffffffc00ull, 0xfffffffffffffc01ull, 0xffffffffffffffffull,
                     0x0000010000000001ull, 0x8000008000000000ull, 0x1234567890abcdefull};
    for (u64 x : w) v.push_back(x);
  }
  return v;
}

// Integers for functions of three (selectors, shift counts, bytes that differ in sign).
static std::vector<u64> int_triple_edges() {
  const std::uint32_t b[] = {0u, 1u, 0xffffffffu, 7u, 31u, 32u, 33u, 0x80000000u, 0x7fffffffu,
                             0x01234567u, 0x89abcdefu, 0x00007654u};
  return std::vector<u64>(std::begin(b), std::end(b));
}

static std::vector<u64> edges_of(char t, int arity) {
  switch (t) {
    case 'f': return arity == 1 ? float_edges() : arity == 2 ? float_pair_edges()
                                                             : float_triple_edges();
    case 'd': return arity == 1 ? double_edges() : arity == 2 ? double_pair_edges()
                                                              : double_triple_edges();
    case 'i': return arity == 3 ? int_triple_edges() : int_edges(false);
    case 'l': return int_edges(true);
    case 'e': return exponent_edges();
    default: return order_edges();  // 'k'
  }
}

static int type_code(char t) {
  switch (t) {
    case 'f': return 0;
    case 'd': return 1;
    case 'i': return 2;
    case 'l': return 3;
    case 'e': return 4;
    default: return 5;
  }
}

// Random argument j of type t for input i (see the header comment).
static u64 random_arg(char t, u64 r, int i) {
  const int mode = i % 4;
  switch (t) {
    case 'f': {
      if (mode == 0) return r & 0xffffffffu;
      if (mode == 1) return fb(static_cast<float>(static_cast<long long>(r >> 40) - (1 << 23)) *
                               0x1p-23f);
      if (mode == 2) return fb(static_cast<float>(static_cast<long long>(r >> 40) - (1 << 23)) *
                               0x1p-19f);
      const int e = static_cast<int>((r >> 23) % 48) - 24;
      return (r >> 63) << 31 | static_cast<u64>(127 + e) << 23 | (r & 0x7fffffu);
    }
    case 'd': {
      if (mode == 0) return r;
      if (mode == 1) return db(static_cast<double>(static_cast<long long>(r >> 11) -
                                                   (1ll << 52)) * 0x1p-52);
      if (mode == 2) return db(static_cast<double>(static_cast<long long>(r >> 11) -
                                                   (1ll << 52)) * 0x1p-48);
      const int e = static_cast<int>((r >> 52 & 0x7ff) % 48) - 24;
      return (r >> 63) << 63 | static_cast<u64>(1023 + e) << 52 | (r & 0xfffffffffffffull);
    }
    case 'i': return r & 0xffffffffu;
    case 'l': return r;
    case 'e': return static_cast<unsigned int>(static_cast<int>(r % 601) - 300);
    default: return static_cast<unsigned int>(r % 32);  // 'k'
  }
}

// The inputs of a function with argument types `args`: edge values, then n random ones.
static std::vector<u64> make_inputs(const std::string& args, int n) {
  const int arity = static_cast<int>(args.size());
  std::vector<std::vector<u64>> e(arity);
  for (int j = 0; j < arity; ++j) e[j] = edges_of(args[j], arity == 4 ? 3 : arity);
  std::vector<u64> in;
  if (arity <= 3) {  // the product of the edge sets
    size_t total = 1;
    for (int j = 0; j < arity; ++j) total *= e[j].size();
    for (size_t c = 0; c < total; ++c) {
      u64 a[4] = {0, 0, 0, 0};
      size_t rest = c;
      for (int j = arity - 1; j >= 0; --j) {
        a[j] = e[j][rest % e[j].size()];
        rest /= e[j].size();
      }
      in.insert(in.end(), a, a + 4);
    }
  } else {  // four arguments: the triple edges along the diagonal, the fourth 1 or -0 or inf
    for (size_t c = 0; c < e[0].size() * e[0].size(); ++c) {
      const u64 x = e[0][c % e[0].size()], y = e[0][c / e[0].size()];
      const u64 a[4] = {x, y, x, e[0][(c * 3) % e[0].size()]};
      in.insert(in.end(), a, a + 4);
    }
  }
  std::vector<SplitMix64> gen(arity);
  for (int j = 0; j < arity; ++j)
    gen[j].s = 0x6D61746800000000ull + 16 * static_cast<u64>(j) + type_code(args[j]);
  for (int i = 0; i < n; ++i) {
    u64 a[4] = {0, 0, 0, 0};
    for (int j = 0; j < arity; ++j) a[j] = random_arg(args[j], gen[j].next(), i);
    if (arity == 3 && i % 4 == 3) {  // c = -(a*b): the fma's cancellation
      if (args == "fff") a[2] = fb(-(bf(static_cast<std::uint32_t>(a[0])) *
                                     bf(static_cast<std::uint32_t>(a[1]))));
      if (args == "ddd") a[2] = db(-(bd(a[0]) * bd(a[1])));
    }
    in.insert(in.end(), a, a + 4);
  }
  return in;
}

static int hex_width(char t) { return (t == 'd' || t == 'l') ? 16 : 8; }

int main(int argc, char** argv) {
  int n = 64;
  const char* only = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--n") && i + 1 < argc) {
      n = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
      only = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--n N] [--only SUBSTRING]\n", argv[0]);
      return 2;
    }
  }
  if (n < 0) n = 0;

  std::vector<u64> host_out;
  u64* d_in = nullptr;
  u64* d_out = nullptr;
  size_t capacity = 0;
  long long results = 0;
  char line[256];
  for (const Entry& fn : entries) {
    if (only && !std::strstr(fn.name, only)) continue;
    const std::string sig = fn.sig;
    const std::string args = sig.substr(0, sig.find('>'));
    const std::string res = sig.substr(sig.find('>') + 1);
    const std::vector<u64> in = make_inputs(args, n);
    const int count = static_cast<int>(in.size() / 4);
    if (static_cast<size_t>(count) > capacity) {
      if (d_in) CHECK(cudaFree(d_in));
      if (d_out) CHECK(cudaFree(d_out));
      capacity = count;
      CHECK(cudaMalloc(&d_in, capacity * 4 * sizeof(u64)));
      CHECK(cudaMalloc(&d_out, capacity * 2 * sizeof(u64)));
    }
    CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(u64), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_out, 0, count * 2 * sizeof(u64)));
    fn.run(d_in, d_out, count);
    CHECK(cudaGetLastError());
    host_out.assign(static_cast<size_t>(count) * 2, 0);
    CHECK(cudaMemcpy(host_out.data(), d_out, host_out.size() * sizeof(u64),
                     cudaMemcpyDeviceToHost));
    std::printf("#fn %s %s\n", fn.name, fn.sig);
    for (int i = 0; i < count; ++i) {
      int len = std::snprintf(line, sizeof line, "%s", fn.name);
      for (size_t j = 0; j < args.size(); ++j)
        len += std::snprintf(line + len, sizeof line - len, " %0*llx", hex_width(args[j]),
                             in[4 * i + j]);
      len += std::snprintf(line + len, sizeof line - len, " ->");
      for (size_t j = 0; j < res.size(); ++j)
        len += std::snprintf(line + len, sizeof line - len, " %0*llx", hex_width(res[j]),
                             host_out[2 * i + j]);
      std::puts(line);
    }
    results += count;
  }
  if (d_in) CHECK(cudaFree(d_in));
  if (d_out) CHECK(cudaFree(d_out));
  std::printf("math_probe: %lld results\n", results);
  return 0;
}
