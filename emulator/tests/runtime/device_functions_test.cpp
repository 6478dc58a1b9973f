// The simple device functions, on the host. Expected values are worked out from the CUDA Math
// API / intrinsics documentation.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <limits>

namespace {

TEST(DeviceFunctions, BitReinterpretation) {
  EXPECT_EQ(__int_as_float(0x3f800000), 1.0f);
  EXPECT_EQ(__float_as_int(2.0f), 0x40000000);
  EXPECT_EQ(__float_as_uint(-0.0f), 0x80000000u);
  EXPECT_EQ(__uint_as_float(0x7f800000u), std::numeric_limits<float>::infinity());
  EXPECT_EQ(__double_as_longlong(1.0), 0x3FF0000000000000LL);
  EXPECT_EQ(__longlong_as_double(0x4000000000000000LL), 2.0);
  EXPECT_EQ(__hiloint2double(0x3FF00000, 0), 1.0);
  EXPECT_EQ(__double2hiint(-2.0), static_cast<int>(0xC0000000u));
  EXPECT_EQ(__double2loint(__hiloint2double(7, 0x12345678)), 0x12345678);
  static_assert(__float_as_uint(1.0f) == 0x3f800000u);
}

TEST(DeviceFunctions, BitCounting) {
  EXPECT_EQ(__popc(0u), 0);
  EXPECT_EQ(__popc(0xFFFFFFFFu), 32);
  EXPECT_EQ(__popc(0x10101010u), 4);
  EXPECT_EQ(__popcll(0xFFFFFFFFFFFFFFFFull), 64);
  EXPECT_EQ(__clz(0), 32);
  EXPECT_EQ(__clz(1), 31);
  EXPECT_EQ(__clz(-1), 0);
  EXPECT_EQ(__clzll(0), 64);
  EXPECT_EQ(__clzll(1), 63);
  EXPECT_EQ(__ffs(0), 0);
  EXPECT_EQ(__ffs(1), 1);
  EXPECT_EQ(__ffs(8), 4);
  EXPECT_EQ(__ffs(INT_MIN), 32);
  EXPECT_EQ(__ffsll(0), 0);
  EXPECT_EQ(__ffsll(1LL << 40), 41);
  EXPECT_EQ(__brev(1u), 0x80000000u);
  EXPECT_EQ(__brev(0x0000FFFFu), 0xFFFF0000u);
  EXPECT_EQ(__brev(0x12345678u), 0x1E6A2C48u);
  EXPECT_EQ(__brevll(1ull), 1ull << 63);
  EXPECT_EQ(__brevll(0x00000000000000F0ull), 0x0F00000000000000ull);
}

TEST(DeviceFunctions, BytePerm) {
  const unsigned x = 0x11223344u, y = 0x55667788u;
  EXPECT_EQ(__byte_perm(x, y, 0x3210), x);             // identity
  EXPECT_EQ(__byte_perm(x, y, 0x7654), y);             // the second word
  EXPECT_EQ(__byte_perm(x, 0, 0x0123), 0x44332211u);   // byte swap
  EXPECT_EQ(__byte_perm(x, y, 0x5140), 0x77338844u);   // interleave
  EXPECT_EQ(__byte_perm(x, y, 0x0000), 0x44444444u);   // broadcast byte 0
  EXPECT_EQ(__byte_perm(x, y, 0xF8F8), __byte_perm(x, y, 0x7070));  // only 3 selector bits
}

TEST(DeviceFunctions, FunnelShift) {
  EXPECT_EQ(__funnelshift_l(0x80000000u, 0x1u, 1), 0x3u);
  EXPECT_EQ(__funnelshift_l(0x80000000u, 0x1u, 33), 0x3u);        // shift mod 32
  EXPECT_EQ(__funnelshift_lc(0x80000000u, 0x1u, 33), 0x80000000u);  // clamped to 32
  EXPECT_EQ(__funnelshift_l(0xAu, 0xBu, 0), 0xBu);
  EXPECT_EQ(__funnelshift_r(0x2u, 0x1u, 1), 0x80000001u);
  EXPECT_EQ(__funnelshift_r(0x2u, 0x1u, 32), 0x2u);                // 32 mod 32 = 0
  EXPECT_EQ(__funnelshift_rc(0x2u, 0x1u, 40), 0x1u);               // clamped to 32
  // Rotates.
  EXPECT_EQ(__funnelshift_l(0x80000001u, 0x80000001u, 4), 0x00000018u);
  EXPECT_EQ(__funnelshift_r(0x80000001u, 0x80000001u, 4), 0x18000000u);
}

TEST(DeviceFunctions, Multiplies) {
  EXPECT_EQ(__mul24(3, 4), 12);
  EXPECT_EQ(__mul24(0x00FFFFFF, 2), -2);  // 24-bit operands are sign-extended
  EXPECT_EQ(__mul24(0x7F000003, 2), 6);   // high byte ignored
  EXPECT_EQ(__umul24(0x01000003u, 2u), 6u);
  EXPECT_EQ(__mulhi(0x40000000, 8), 2);
  EXPECT_EQ(__mulhi(-1, 1), -1);
  EXPECT_EQ(__umulhi(0xFFFFFFFFu, 0xFFFFFFFFu), 0xFFFFFFFEu);
  EXPECT_EQ(__mul64hi(-1LL, 1LL), -1LL);
  EXPECT_EQ(__mul64hi(1LL << 62, 8LL), 2LL);
  EXPECT_EQ(__umul64hi(1ull << 63, 4ull), 2ull);
  EXPECT_EQ(__sad(-3, 5, 10u), 18u);
  EXPECT_EQ(__usad(3u, 10u, 1u), 8u);
  EXPECT_EQ(__hadd(INT_MAX, INT_MAX), INT_MAX);
  EXPECT_EQ(__hadd(-3, 0), -2);  // floor((-3)/2)
  EXPECT_EQ(__rhadd(1, 2), 2);
  EXPECT_EQ(__uhadd(UINT_MAX, UINT_MAX), UINT_MAX);
  EXPECT_EQ(__urhadd(1u, 2u), 2u);
  EXPECT_EQ(__dp4a(0x01020304, 0x01010101, 10), 20);
  EXPECT_EQ(__dp4a(static_cast<int>(0xFF000000u), 0x02000000, 0), -2);
  EXPECT_EQ(__dp4a(0xFF000000u, 0x02000000u, 0u), 510u);
}

TEST(DeviceFunctions, MinMax) {
  EXPECT_EQ(min(3, -4), -4);
  EXPECT_EQ(max(3u, 7u), 7u);
  EXPECT_EQ(min(2.5f, 1.5f), 1.5f);
  EXPECT_EQ(max(2.5, 8.0), 8.0);
  EXPECT_EQ(min(1LL << 40, 5LL), 5LL);
  EXPECT_EQ(max(std::size_t{3}, 9), std::size_t{9});  // mixed: usual arithmetic conversions
  EXPECT_EQ(min(-1, 1u), 1u);                           // int with unsigned: unsigned, as CUDA
  EXPECT_EQ(max(1, 2.5f), 2.5f);
  EXPECT_EQ(umin(4u, 2u), 2u);
  EXPECT_EQ(umax(4u, 2u), 4u);
  EXPECT_EQ(llmax(-5LL, 3LL), 3LL);
  EXPECT_EQ(ullmin(5ull, 3ull), 3ull);
  EXPECT_EQ(std::min(3, 4), 3);  // std is untouched
  {
    using namespace std;
    EXPECT_EQ(min(3, 4), 3);  // no ambiguity with std::min in scope
    EXPECT_EQ(max(1.0f, 2.0f), 2.0f);
  }
  EXPECT_EQ(min(std::nanf(""), 1.0f), 1.0f);  // fminf semantics
}

TEST(DeviceFunctions, LoadsAndStores) {
  const int4 v = make_int4(1, 2, 3, 4);
  EXPECT_EQ(__ldg(&v).w, 4);
  const float f = 2.5f;
  EXPECT_EQ(__ldcg(&f), 2.5f);
  EXPECT_EQ(__ldca(&f), 2.5f);
  EXPECT_EQ(__ldcs(&f), 2.5f);
  EXPECT_EQ(__ldlu(&f), 2.5f);
  EXPECT_EQ(__ldcv(&f), 2.5f);
  float4 out{};
  __stcg(&out, make_float4(1, 2, 3, 4));
  EXPECT_EQ(out.z, 3.0f);
  double d = 0;
  __stwt(&d, 1.5);
  __stcs(&d, d + 1);
  __stwb(&d, d + 1);
  EXPECT_EQ(d, 3.5);
}

TEST(DeviceFunctions, FencesAndClocks) {
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  const long long a = clock64();
  __nanosleep(1000);
  const long long b = clock64();
  EXPECT_GT(b, a);
  (void)clock();
}

TEST(DeviceFunctions, FastMath) {
  EXPECT_FLOAT_EQ(__fdividef(1.0f, 4.0f), 0.25f);
  EXPECT_NEAR(__expf(1.0f), 2.7182817f, 1e-6f);
  EXPECT_NEAR(__logf(2.7182817f), 1.0f, 1e-6f);
  EXPECT_NEAR(__sinf(0.5f), std::sin(0.5f), 1e-6f);
  EXPECT_NEAR(__cosf(0.5f), std::cos(0.5f), 1e-6f);
  EXPECT_NEAR(__powf(2.0f, 10.0f), 1024.0f, 1e-3f);
  EXPECT_NEAR(__exp10f(2.0f), 100.0f, 1e-4f);
  EXPECT_EQ(__saturatef(-1.0f), 0.0f);
  EXPECT_EQ(__saturatef(2.0f), 1.0f);
  EXPECT_EQ(__saturatef(0.25f), 0.25f);
  EXPECT_EQ(__saturatef(std::nanf("")), 0.0f);
  EXPECT_EQ(rsqrtf(4.0f), 0.5f);
  EXPECT_EQ(rsqrt(16.0), 0.25);
  EXPECT_EQ(__fsqrt_rn(9.0f), 3.0f);
  EXPECT_EQ(__frcp_rn(4.0f), 0.25f);
  EXPECT_EQ(__fmaf_rn(2.0f, 3.0f, 1.0f), 7.0f);
}

TEST(DeviceFunctions, DirectedRounding) {
  const float tiny = std::ldexp(1.0f, -30);
  EXPECT_EQ(__fadd_rn(1.0f, tiny), 1.0f);
  EXPECT_EQ(__fadd_rz(1.0f, tiny), 1.0f);
  EXPECT_EQ(__fadd_rd(1.0f, tiny), 1.0f);
  EXPECT_EQ(__fadd_ru(1.0f, tiny), 1.0f + std::ldexp(1.0f, -23));
  EXPECT_EQ(__fadd_rd(1.0f, -tiny), 1.0f - std::ldexp(1.0f, -24));
  EXPECT_EQ(__fadd_rz(-1.0f, -tiny), -1.0f);
  EXPECT_EQ(__fsub_ru(1.0f, tiny), 1.0f);
  EXPECT_LT(__fdiv_rz(1.0f, 3.0f), __fdiv_ru(1.0f, 3.0f));
  EXPECT_EQ(__fdiv_rd(1.0f, 3.0f), __fdiv_rz(1.0f, 3.0f));
  EXPECT_EQ(std::nextafter(__fsqrt_rd(2.0f), 2.0f), __fsqrt_ru(2.0f));
  EXPECT_EQ(std::nextafter(__fmul_rd(1.1f, 1.1f), 2.0f), __fmul_ru(1.1f, 1.1f));
  EXPECT_EQ(std::nextafter(__frcp_rd(3.0f), 1.0f), __frcp_ru(3.0f));
  EXPECT_EQ(__fmaf_ru(1.0f, 1.0f, tiny), 1.0f + std::ldexp(1.0f, -23));
  EXPECT_EQ(__dadd_ru(1.0, std::ldexp(1.0, -60)), 1.0 + std::ldexp(1.0, -52));
  EXPECT_EQ(__dadd_rn(1.0, std::ldexp(1.0, -60)), 1.0);
  EXPECT_LT(__ddiv_rd(1.0, 3.0), __ddiv_ru(1.0, 3.0));
  EXPECT_EQ(__fma_rz(1.0, 1.0, -std::ldexp(1.0, -60)), 1.0 - std::ldexp(1.0, -53));
  EXPECT_EQ(__double2float_rz(1.0 + std::ldexp(1.0, -30)), 1.0f);
  EXPECT_EQ(__double2float_ru(1.0 + std::ldexp(1.0, -30)), 1.0f + std::ldexp(1.0f, -23));
  // The rounding mode is restored.
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

TEST(DeviceFunctions, Conversions) {
  EXPECT_EQ(__float2int_rn(2.5f), 2);  // ties to even
  EXPECT_EQ(__float2int_rn(3.5f), 4);
  EXPECT_EQ(__float2int_rn(-2.5f), -2);
  EXPECT_EQ(__float2int_rz(-2.7f), -2);
  EXPECT_EQ(__float2int_ru(2.1f), 3);
  EXPECT_EQ(__float2int_rd(-2.1f), -3);
  EXPECT_EQ(__float2int_rn(std::nanf("")), 0);
  EXPECT_EQ(__float2int_rn(1e20f), INT_MAX);
  EXPECT_EQ(__float2int_rn(-1e20f), INT_MIN);
  EXPECT_EQ(__float2uint_rn(-5.0f), 0u);
  EXPECT_EQ(__float2uint_rz(4294967296.0f), UINT_MAX);
  EXPECT_EQ(__float2ll_rn(-1e30f), LLONG_MIN);
  EXPECT_EQ(__float2ull_rd(7.9f), 7ull);
  EXPECT_EQ(__double2int_rn(0.5), 0);
  EXPECT_EQ(__double2int_rn(1.5), 2);
  EXPECT_EQ(__double2ll_rz(-9.99), -9LL);
  EXPECT_EQ(__double2uint_ru(0.01), 1u);
  EXPECT_EQ(__int2float_rn(16777217), 16777216.0f);  // tie to even
  EXPECT_EQ(__int2float_rz(16777217), 16777216.0f);
  EXPECT_EQ(__int2float_ru(16777217), 16777218.0f);
  EXPECT_EQ(__int2float_rd(-16777217), -16777218.0f);
  EXPECT_EQ(__int2float_rz(-16777217), -16777216.0f);
  EXPECT_EQ(__uint2float_rn(3u), 3.0f);
  EXPECT_EQ(__ll2double_ru((1LL << 53) + 1), static_cast<double>((1LL << 53) + 2));
  EXPECT_EQ(__ull2float_rd(~0ull), 18446742974197923840.0f);
  EXPECT_EQ(__int2double_rn(-7), -7.0);
}

TEST(DeviceFunctions, CudaMathFunctions) {
  // The C library's functions are usable unqualified.
  EXPECT_EQ(sqrtf(16.0f), 4.0f);
  EXPECT_EQ(fabsf(-2.0f), 2.0f);
  EXPECT_EQ(fminf(1.0f, 2.0f), 1.0f);
  EXPECT_EQ(fmaxf(1.0f, 2.0f), 2.0f);
  EXPECT_EQ(floorf(1.5f), 1.0f);
  EXPECT_NEAR(expf(0.0f), 1.0f, 0);
  EXPECT_EQ(norm3df(2.0f, 3.0f, 6.0f), 7.0f);
  EXPECT_EQ(norm3d(2.0, 3.0, 6.0), 7.0);
  EXPECT_EQ(norm4df(1.0f, 1.0f, 1.0f, 1.0f), 2.0f);
  EXPECT_EQ(rnorm3df(2.0f, 3.0f, 6.0f), 1.0f / 7.0f);
  EXPECT_FLOAT_EQ(rhypotf(3.0f, 4.0f), 0.2f);
  EXPECT_FLOAT_EQ(rcbrtf(8.0f), 0.5f);
  float s = 0, c = 0;
  sincosf(0.5f, &s, &c);
  EXPECT_FLOAT_EQ(s, std::sin(0.5f));
  EXPECT_FLOAT_EQ(c, std::cos(0.5f));
  double sd = 0, cd = 0;
  sincos(0.25, &sd, &cd);
  EXPECT_DOUBLE_EQ(sd, std::sin(0.25));
  EXPECT_FLOAT_EQ(exp10f(2.0f), 100.0f);
  EXPECT_EQ(sinpif(1.0f), 0.0f);
  EXPECT_EQ(sinpif(0.5f), 1.0f);
  EXPECT_EQ(cospif(0.5f), 0.0f);
  EXPECT_EQ(cospi(1.0), -1.0);
  sincospif(0.5f, &s, &c);
  EXPECT_EQ(s, 1.0f);
  EXPECT_EQ(c, 0.0f);
  EXPECT_NEAR(erfinv(std::erf(0.5)), 0.5, 1e-14);
  EXPECT_NEAR(erfinvf(std::erf(-0.3f)), -0.3f, 1e-6f);
  EXPECT_NEAR(erfcinv(std::erfc(1.2)), 1.2, 1e-13);
  EXPECT_NEAR(normcdfinv(0.975), 1.959963984540054, 1e-12);
  EXPECT_NEAR(normcdf(1.959963984540054), 0.975, 1e-12);
  EXPECT_NEAR(normcdff(0.0f), 0.5f, 1e-7f);
  EXPECT_TRUE(std::isinf(erfinv(1.0)));
  EXPECT_NEAR(erfcx(2.0), std::exp(4.0) * std::erfc(2.0), 1e-15);
  float arr[3] = {2.0f, 3.0f, 6.0f};
  EXPECT_EQ(normf(3, arr), 7.0f);
}

}  // namespace
