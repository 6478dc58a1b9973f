// NVIDIA's libdevice, the CUDA math library that nvcc links into device code, compiled for the
// CPU when the emulator is built (src/libdevice): the __nv_* functions compute what an H200
// computes, bit for bit wherever the GPU's arithmetic alone decides the result (issue 14;
// COMPATIBILITY.md has the per-function record).
//
// Device code reaches them two ways. The C library's names (sinf, expf, pow, ...) are defined by
// the runtime (runtime/math_library.cpp) and dispatch by where they are called: in a CUDA thread
// to libdevice, in host code to the C library. CUDA's own names (rsqrtf, normcdff, __fdiv_rz,
// __sinf, ...) are defined in cuemu/device_functions.h on top of the declarations here.
#pragma once

// The C library's functions that device code gets from libdevice (__nv_NAME), by signature:
// X(NAME). The float and double forms of each are listed separately.
#define CUEMU_LIBM_F_F(X)                                                                        \
  X(sinf) X(cosf) X(tanf) X(asinf) X(acosf) X(atanf) X(sinhf) X(coshf) X(tanhf) X(asinhf)       \
  X(acoshf) X(atanhf) X(expf) X(exp2f) X(exp10f) X(expm1f) X(logf) X(log2f) X(log10f)           \
  X(log1pf) X(logbf) X(sqrtf) X(cbrtf) X(erff) X(erfcf) X(lgammaf) X(tgammaf) X(j0f) X(j1f)     \
  X(y0f) X(y1f) X(floorf) X(ceilf) X(truncf) X(roundf) X(rintf)
#define CUEMU_LIBM_D_D(X)                                                                        \
  X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(asinh) X(acosh)        \
  X(atanh) X(exp) X(exp2) X(exp10) X(expm1) X(log) X(log2) X(log10) X(log1p) X(cbrt) X(erf)     \
  X(erfc) X(lgamma) X(tgamma) X(j0) X(j1) X(y0) X(y1) X(floor) X(ceil) X(trunc) X(rint)
#define CUEMU_LIBM_F_FF(X)                                                                       \
  X(atan2f) X(powf) X(hypotf) X(fmodf) X(remainderf) X(fdimf) X(fmaxf) X(fminf) X(nextafterf)
#define CUEMU_LIBM_D_DD(X) X(atan2) X(pow) X(hypot) X(fmod) X(fdim) X(fmax) X(fmin)
#define CUEMU_LIBM_F_FFF(X) X(fmaf)
#define CUEMU_LIBM_D_DDD(X) X(fma)
// Others with a signature of their own (runtime/math_library.cpp): lrintf llrintf lroundf
// llroundf lrint llrint lround llround sincosf sincos frexpf modff modf remquof remquo ldexpf scalbnf
// ilogbf ilogb
// scalblnf jnf ynf jn yn.

extern "C" {
#define CUEMU_DECLARE_F_F(n) float __nv_##n(float) noexcept;
#define CUEMU_DECLARE_D_D(n) double __nv_##n(double) noexcept;
#define CUEMU_DECLARE_F_FF(n) float __nv_##n(float, float) noexcept;
#define CUEMU_DECLARE_D_DD(n) double __nv_##n(double, double) noexcept;
#define CUEMU_DECLARE_F_FFF(n) float __nv_##n(float, float, float) noexcept;
#define CUEMU_DECLARE_D_DDD(n) double __nv_##n(double, double, double) noexcept;
CUEMU_LIBM_F_F(CUEMU_DECLARE_F_F)
CUEMU_LIBM_D_D(CUEMU_DECLARE_D_D)
CUEMU_LIBM_F_FF(CUEMU_DECLARE_F_FF)
CUEMU_LIBM_D_DD(CUEMU_DECLARE_D_DD)
CUEMU_LIBM_F_FFF(CUEMU_DECLARE_F_FFF)
CUEMU_LIBM_D_DDD(CUEMU_DECLARE_D_DDD)

// Single argument, CUDA's own names and the hardware approximations (fast_*).
#define CUEMU_NV_F_F(X)                                                                          \
  X(rsqrtf) X(rcbrtf) X(erfinvf) X(erfcinvf) X(erfcxf) X(sinpif) X(cospif) X(normcdff)           \
  X(normcdfinvf) X(cyl_bessel_i0f) X(cyl_bessel_i1f) X(frsqrt_rn) X(fsqrt_rn) X(fsqrt_rz)        \
  X(fsqrt_ru) X(fsqrt_rd) X(frcp_rn) X(frcp_rz) X(frcp_ru) X(frcp_rd) X(fast_sinf) X(fast_cosf)  \
  X(fast_tanf) X(fast_tanhf) X(fast_expf) X(fast_exp10f) X(fast_logf) X(fast_log2f)             \
  X(fast_log10f)
#define CUEMU_NV_D_D(X)                                                                          \
  X(rsqrt) X(rcbrt) X(erfinv) X(erfcinv) X(erfcx) X(sinpi) X(cospi) X(normcdf) X(normcdfinv)     \
  X(cyl_bessel_i0) X(cyl_bessel_i1) X(drcp_rn) X(drcp_rz) X(drcp_ru) X(drcp_rd) X(dsqrt_rn)      \
  X(dsqrt_rz) X(dsqrt_ru) X(dsqrt_rd)
#define CUEMU_NV_F_FF(X)                                                                         \
  X(rhypotf) X(fast_fdividef) X(fast_powf) X(fadd_rn) X(fadd_rz) X(fadd_ru) X(fadd_rd)           \
  X(fsub_rn) X(fsub_rz) X(fsub_ru) X(fsub_rd) X(fmul_rn) X(fmul_rz) X(fmul_ru) X(fmul_rd)        \
  X(fdiv_rn) X(fdiv_rz) X(fdiv_ru) X(fdiv_rd)
#define CUEMU_NV_D_DD(X)                                                                         \
  X(rhypot) X(dadd_rn) X(dadd_rz) X(dadd_ru) X(dadd_rd) X(dsub_rn) X(dsub_rz) X(dsub_ru)         \
  X(dsub_rd) X(dmul_rn) X(dmul_rz) X(dmul_ru) X(dmul_rd) X(ddiv_rn) X(ddiv_rz) X(ddiv_ru)        \
  X(ddiv_rd)
#define CUEMU_NV_F_FFF(X)                                                                        \
  X(fmaf_rn) X(fmaf_rz) X(fmaf_ru) X(fmaf_rd) X(fmaf_ieee_rn) X(fmaf_ieee_rz)            \
  X(fmaf_ieee_ru) X(fmaf_ieee_rd) X(norm3df) X(rnorm3df)
#define CUEMU_NV_D_DDD(X) X(norm3d) X(rnorm3d) X(fma_rn) X(fma_rz) X(fma_ru) X(fma_rd)
CUEMU_NV_F_F(CUEMU_DECLARE_F_F)
CUEMU_NV_D_D(CUEMU_DECLARE_D_D)
CUEMU_NV_F_FF(CUEMU_DECLARE_F_FF)
CUEMU_NV_D_DD(CUEMU_DECLARE_D_DD)
CUEMU_NV_F_FFF(CUEMU_DECLARE_F_FFF)
CUEMU_NV_D_DDD(CUEMU_DECLARE_D_DDD)
#undef CUEMU_DECLARE_F_F
#undef CUEMU_DECLARE_D_D
#undef CUEMU_DECLARE_F_FF
#undef CUEMU_DECLARE_D_DD
#undef CUEMU_DECLARE_F_FFF
#undef CUEMU_DECLARE_D_DDD

// The rest, one signature each.
float __nv_norm4df(float, float, float, float) noexcept;
float __nv_rnorm4df(float, float, float, float) noexcept;
double __nv_norm4d(double, double, double, double) noexcept;
double __nv_rnorm4d(double, double, double, double) noexcept;
float __nv_normf(int, const float*) noexcept;
float __nv_rnormf(int, const float*) noexcept;
double __nv_norm(int, const double*) noexcept;
double __nv_rnorm(int, const double*) noexcept;
long long __nv_llrintf(float) noexcept;
long long __nv_llroundf(float) noexcept;
long long __nv_llrint(double) noexcept;
long long __nv_llround(double) noexcept;
void __nv_sincosf(float, float*, float*) noexcept;
void __nv_fast_sincosf(float, float*, float*) noexcept;
void __nv_sincospif(float, float*, float*) noexcept;
void __nv_sincos(double, double*, double*) noexcept;
void __nv_sincospi(double, double*, double*) noexcept;
float __nv_frexpf(float, int*) noexcept;
float __nv_modff(float, float*) noexcept;
double __nv_modf(double, double*) noexcept;
float __nv_remquof(float, float, int*) noexcept;
double __nv_remquo(double, double, int*) noexcept;
float __nv_ldexpf(float, int) noexcept;
int __nv_ilogbf(float) noexcept;
int __nv_ilogb(double) noexcept;
float __nv_scalbnf(float, int) noexcept;
float __nv_jnf(int, float) noexcept;
float __nv_ynf(int, float) noexcept;
double __nv_jn(int, double) noexcept;
double __nv_yn(int, double) noexcept;
}

// The GPU's NaN results, where the emulator computes an operation itself: a float operation
// gives the canonical NaN; a double one the first NaN operand (or else its own NaN), quieted.
namespace cuemu::detail {
inline double quiet_nan(double n) noexcept {
  return __builtin_bit_cast(double, __builtin_bit_cast(unsigned long long, n) | 0x0008000000000000ull);
}
inline float gpu_nan(float r) noexcept { return r == r ? r : __builtin_bit_cast(float, 0x7fffffffu); }
inline double gpu_nan(double a, double b, double r) noexcept {
  return r == r ? r : quiet_nan(a != a ? a : b != b ? b : r);
}
// Double norm3d, rnorm3d, norm4d and rnorm4d with two or more NaN operands: libdevice sums the
// operands' magnitudes, (|a| + |b|) + |c| (+ |d|), and the NaN result is that sum's; on an H100/H200
// the first addition returns its first NaN operand and the later ones their second, each with its
// own sign (the CPU's additions return the first). Checked on tests/math/sampled's 2^27 inputs of
// each: the GPU's hash in all 128 chunks.
inline double norm_nan(double r, double a, double b, double c, double d = 0.0) noexcept {
  if (r == r || (a != a) + (b != b) + (c != c) + (d != d) < 2) return r;
  return quiet_nan(d != d ? d : c != c ? c : a != a ? a : b);
}
}  // namespace cuemu::detail
