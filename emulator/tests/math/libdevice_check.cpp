// ld_check: a sanity test of libdevice compiled for x86-64 (make.sh builds it). It checks known
// bits (exact operations, conversions, a few correctly rounded values) and that the library
// functions stay within the maximum ulp errors that the CUDA Programming Guide documents, over
// random inputs, against glibc in double (float functions) or long double (double functions).
// The reference has its own error of up to about 1 ulp, so the bound allowed is the documented
// one plus 1. Exit status 0 when all pass.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
#define F(n) float __nv_##n(float);
#define D(n) double __nv_##n(double);
F(sinf) F(cosf) F(tanf) F(logf) F(log2f) F(log10f) F(log1pf) F(expf) F(exp2f) F(exp10f)
F(expm1f) F(atanf) F(asinf) F(acosf) F(sinhf) F(coshf) F(tanhf) F(cbrtf) F(erff) F(erfcf)
F(asinhf) F(acoshf) F(atanhf) F(lgammaf) F(tgammaf) F(rsqrtf) F(sqrtf)
D(sin) D(cos) D(tan) D(log) D(log2) D(exp) D(exp2) D(expm1) D(atan) D(asin) D(sinh) D(tanh)
D(cbrt) D(erf) D(erfc) D(log1p) D(lgamma) D(tgamma) D(rsqrt)
float __nv_fdiv_rz(float, float);
float __nv_fdiv_ru(float, float);
float __nv_fmaf_rd(float, float, float);
int __nv_float2int_rn(float);
int __nv_float2int_rz(float);
float __nv_int2float_rz(int);
double __nv_dsqrt_rd(double);
}

static int failures = 0;
static std::uint32_t fb(float f) { std::uint32_t u; std::memcpy(&u, &f, 4); return u; }
static std::uint64_t db(double d) { std::uint64_t u; std::memcpy(&u, &d, 8); return u; }
static void expect(const char* what, unsigned long long got, unsigned long long want) {
  if (got != want) {
    std::printf("FAIL %s: got %llx, want %llx\n", what, got, want);
    ++failures;
  }
}
static long long ordf(float f) {
  std::int32_t i;
  std::memcpy(&i, &f, 4);
  return i < 0 ? -static_cast<long long>(i & 0x7fffffff) : i;
}
static __int128 ordd(double f) {
  std::int64_t i;
  std::memcpy(&i, &f, 8);
  return i < 0 ? -static_cast<__int128>(i & 0x7fffffffffffffffLL) : i;
}
static std::uint64_t state = 1;
static std::uint64_t splitmix() {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

#define CHECK_F(n, ref, lo, hi, bound)                                                       \
  {                                                                                          \
    long long worst = 0;                                                                     \
    float at = 0;                                                                            \
    for (int i = 0; i < 100000; ++i) {                                                       \
      const float x = (lo) + ((hi) - (lo)) * static_cast<float>((splitmix() >> 40) * 0x1p-24); \
      const float e = static_cast<float>(ref);                                               \
      if (!std::isfinite(e)) continue;                                                       \
      const long long u = std::llabs(ordf(__nv_##n(x)) - ordf(e));                           \
      if (u > worst) worst = u, at = x;                                                      \
    }                                                                                        \
    const bool ok = worst <= (bound) + 1;                                                    \
    failures += !ok;                                                                         \
    std::printf("%s %-8s max %lld ulp (documented %d) at %a\n", ok ? "ok  " : "FAIL", #n,    \
                worst, bound, at);                                                           \
  }
#define CHECK_D(n, ref, lo, hi, bound)                                                       \
  {                                                                                          \
    long long worst = 0;                                                                     \
    double at = 0;                                                                           \
    for (int i = 0; i < 50000; ++i) {                                                        \
      const double x = (lo) + ((hi) - (lo)) * ((splitmix() >> 11) * 0x1p-53);               \
      const double e = static_cast<double>(ref);                                             \
      if (!std::isfinite(e)) continue;                                                       \
      const __int128 d = ordd(__nv_##n(x)) - ordd(e);                                        \
      const long long u = static_cast<long long>(d < 0 ? -d : d);                            \
      if (u > worst) worst = u, at = x;                                                      \
    }                                                                                        \
    const bool ok = worst <= (bound) + 1;                                                    \
    failures += !ok;                                                                         \
    std::printf("%s %-8s max %lld ulp (documented %d) at %a\n", ok ? "ok  " : "FAIL", #n,    \
                worst, bound, at);                                                           \
  }

int main() {
  // Known bits.
  expect("logf(2)", fb(__nv_logf(2.0f)), 0x3f317218);
  expect("expf(1)", fb(__nv_expf(1.0f)), 0x402df854);
  expect("sinf(0)", fb(__nv_sinf(0.0f)), 0);
  expect("sinf(-0)", fb(__nv_sinf(-0.0f)), 0x80000000);
  expect("cosf(0)", fb(__nv_cosf(0.0f)), 0x3f800000);
  expect("sqrtf(2)", fb(__nv_sqrtf(2.0f)), 0x3fb504f3);
  expect("sqrtf(-1)", fb(__nv_sqrtf(-1.0f)), 0x7fffffff);
  expect("logf(-1)", fb(__nv_logf(-1.0f)), 0x7fffffff);
  expect("__fdiv_rz(1,3)", fb(__nv_fdiv_rz(1.0f, 3.0f)), 0x3eaaaaaa);
  expect("__fdiv_ru(1,3)", fb(__nv_fdiv_ru(1.0f, 3.0f)), 0x3eaaaaab);
  expect("__fmaf_rd(1,1,-1e-30)", fb(__nv_fmaf_rd(1.0f, 1.0f, -1e-30f)), 0x3f7fffff);
  expect("__float2int_rn(2.5)", static_cast<unsigned>(__nv_float2int_rn(2.5f)), 2);
  expect("__float2int_rz(3e9)", static_cast<unsigned>(__nv_float2int_rz(3e9f)), 0x7fffffff);
  expect("__float2int_rz(nan)", static_cast<unsigned>(__nv_float2int_rz(NAN)), 0);
  expect("__int2float_rz(16777217)", fb(__nv_int2float_rz(16777217)), 0x4b800000);
  expect("log(2)", db(__nv_log(2.0)), 0x3fe62e42fefa39efull);
  expect("exp(1)", db(__nv_exp(1.0)), 0x4005bf0a8b145769ull);
  expect("__dsqrt_rd(2)", db(__nv_dsqrt_rd(2.0)), 0x3ff6a09e667f3bccull);
  // Documented accuracy (CUDA C++ Programming Guide, "Mathematical Functions").
  CHECK_F(sinf, std::sin(static_cast<double>(x)), -100.0f, 100.0f, 2)
  CHECK_F(cosf, std::cos(static_cast<double>(x)), -100.0f, 100.0f, 2)
  CHECK_F(tanf, std::tan(static_cast<double>(x)), -10.0f, 10.0f, 4)
  CHECK_F(logf, std::log(static_cast<double>(x)), 0.0f, 100.0f, 1)
  CHECK_F(log2f, std::log2(static_cast<double>(x)), 0.0f, 100.0f, 1)
  CHECK_F(log10f, std::log10(static_cast<double>(x)), 0.0f, 100.0f, 2)
  CHECK_F(log1pf, std::log1p(static_cast<double>(x)), -1.0f, 10.0f, 1)
  CHECK_F(expf, std::exp(static_cast<double>(x)), -80.0f, 80.0f, 2)
  CHECK_F(exp2f, std::exp2(static_cast<double>(x)), -120.0f, 120.0f, 2)
  CHECK_F(exp10f, std::pow(10.0, static_cast<double>(x)), -30.0f, 30.0f, 2)
  CHECK_F(expm1f, std::expm1(static_cast<double>(x)), -10.0f, 10.0f, 1)
  CHECK_F(atanf, std::atan(static_cast<double>(x)), -10.0f, 10.0f, 2)
  CHECK_F(asinf, std::asin(static_cast<double>(x)), -1.0f, 1.0f, 2)
  CHECK_F(acosf, std::acos(static_cast<double>(x)), -1.0f, 1.0f, 2)
  CHECK_F(sinhf, std::sinh(static_cast<double>(x)), -20.0f, 20.0f, 3)
  CHECK_F(coshf, std::cosh(static_cast<double>(x)), -20.0f, 20.0f, 2)
  CHECK_F(tanhf, std::tanh(static_cast<double>(x)), -5.0f, 5.0f, 2)
  CHECK_F(cbrtf, std::cbrt(static_cast<double>(x)), -100.0f, 100.0f, 1)
  CHECK_F(erff, std::erf(static_cast<double>(x)), -4.0f, 4.0f, 2)
  CHECK_F(erfcf, std::erfc(static_cast<double>(x)), -4.0f, 9.0f, 4)
  CHECK_F(asinhf, std::asinh(static_cast<double>(x)), -10.0f, 10.0f, 3)
  CHECK_F(acoshf, std::acosh(static_cast<double>(x)), 1.0f, 10.0f, 4)
  CHECK_F(atanhf, std::atanh(static_cast<double>(x)), -1.0f, 1.0f, 3)
  CHECK_F(lgammaf, std::lgamma(static_cast<double>(x)), 0.1f, 20.0f, 6)
  CHECK_F(tgammaf, std::tgamma(static_cast<double>(x)), 0.1f, 30.0f, 5)
  CHECK_F(rsqrtf, 1.0 / std::sqrt(static_cast<double>(x)), 0.0f, 100.0f, 2)
  CHECK_F(sqrtf, std::sqrt(static_cast<double>(x)), 0.0f, 100.0f, 0)
  CHECK_D(sin, sinl(x), -100.0, 100.0, 2)
  CHECK_D(cos, cosl(x), -100.0, 100.0, 2)
  CHECK_D(tan, tanl(x), -10.0, 10.0, 2)
  CHECK_D(log, logl(x), 0.0, 100.0, 1)
  CHECK_D(log2, log2l(x), 0.0, 100.0, 1)
  CHECK_D(exp, expl(x), -700.0, 700.0, 1)
  CHECK_D(exp2, exp2l(x), -1000.0, 1000.0, 1)
  CHECK_D(expm1, expm1l(x), -10.0, 10.0, 1)
  CHECK_D(atan, atanl(x), -10.0, 10.0, 2)
  CHECK_D(asin, asinl(x), -1.0, 1.0, 2)
  CHECK_D(sinh, sinhl(x), -20.0, 20.0, 2)
  CHECK_D(tanh, tanhl(x), -5.0, 5.0, 2)
  CHECK_D(cbrt, cbrtl(x), -100.0, 100.0, 1)
  CHECK_D(erf, erfl(x), -4.0, 4.0, 2)
  CHECK_D(erfc, erfcl(x), -4.0, 20.0, 5)
  CHECK_D(log1p, log1pl(x), -1.0, 10.0, 1)
  CHECK_D(lgamma, lgammal(x), 0.1, 20.0, 4)
  CHECK_D(tgamma, tgammal(x), 0.1, 30.0, 2)
  CHECK_D(rsqrt, 1.0L / sqrtl(x), 0.0, 100.0, 1)
  std::printf("%s: %d failure(s)\n", failures ? "FAIL" : "ok", failures);
  return failures ? 1 : 0;
}
