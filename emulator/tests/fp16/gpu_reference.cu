// Evaluates the cuda_fp16.h / cuda_bf16.h conversions and intrinsics over a fixed table of edge
// inputs and pseudo-random bit patterns, and prints one line per (function, inputs):
//   <function> <input bits...> <result bits>      (hexadecimal, no leading zeros)
// The same source runs on a GPU (nvcc -std=c++17 -arch=sm_90) and on the emulator; the GPU's
// output is recorded in expected/h200_fp16.txt and the emulator's must match it line for line.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

typedef unsigned long long u64;

// Input classes: how a job's operands are interpreted.
enum Kind { kF32, kF32x2, kF64, kI32, kU32, kI16, kU16, kI64, kU64, kH, kHH, kHHH, kB, kBB, kBBB,
            kH2, kH2H2, kH2H2H2, kB2, kB2B2, kB2B2B2 };

// The operations: X(name, kind, expression giving the result bits). Operands: fa/fb (float),
// da (double), ia (int), ua (unsigned), sa (short), usa (unsigned short), la (long long),
// ula (unsigned long long), ha/hb/hc (__half), ba/bb/bc (__nv_bfloat16), h2a/h2b/h2c (__half2),
// b2a/b2b/b2c (__nv_bfloat162).
#define HB(x) ((u64)__half_as_ushort(x))
#define BB(x) ((u64)__bfloat16_as_ushort(x))
#define H2B(x) (HB(__low2half(x)) | HB(__high2half(x)) << 16)
#define B2B(x) (BB(__low2bfloat16(x)) | BB(__high2bfloat16(x)) << 16)
#define F32B(x) ((u64)__float_as_uint(x))

#define CONV_INT(X, P, PB, K, I, IN, A)                 \
  X(IN##2##P##_rn, K, PB(__##IN##2##P##_rn(I)))      \
  X(IN##2##P##_rz, K, PB(__##IN##2##P##_rz(I)))      \
  X(IN##2##P##_ru, K, PB(__##IN##2##P##_ru(I)))      \
  X(IN##2##P##_rd, K, PB(__##IN##2##P##_rd(I)))      \
  X(P##2##IN##_rn, K##_FROM, (u64)(__##P##2##IN##_rn(A)))  \
  X(P##2##IN##_rz, K##_FROM, (u64)(__##P##2##IN##_rz(A)))  \
  X(P##2##IN##_ru, K##_FROM, (u64)(__##P##2##IN##_ru(A)))  \
  X(P##2##IN##_rd, K##_FROM, (u64)(__##P##2##IN##_rd(A)))

#define UNARY_MATH(X, K, PB, A) \
  X(sqrt, K, PB(hsqrt(A)))       \
  X(rsqrt, K, PB(hrsqrt(A)))     \
  X(rcp, K, PB(hrcp(A)))         \
  X(exp, K, PB(hexp(A)))         \
  X(exp2, K, PB(hexp2(A)))       \
  X(exp10, K, PB(hexp10(A)))     \
  X(log, K, PB(hlog(A)))         \
  X(log2, K, PB(hlog2(A)))       \
  X(log10, K, PB(hlog10(A)))     \
  X(sin, K, PB(hsin(A)))         \
  X(cos, K, PB(hcos(A)))         \
  X(tanh, K, PB(htanh(A)))       \
  X(tanh_approx, K, PB(htanh_approx(A))) \
  X(floor, K, PB(hfloor(A)))     \
  X(ceil, K, PB(hceil(A)))       \
  X(trunc, K, PB(htrunc(A)))     \
  X(rint, K, PB(hrint(A)))       \
  X(neg, K, PB(__hneg(A)))       \
  X(abs, K, PB(__habs(A)))       \
  X(isnan, K, (u64)__hisnan(A))  \
  X(isinf, K, (u64)(unsigned)__hisinf(A)) \
  X(opneg, K, PB(-(A)))

#define UNARY_MATH2(X, K, PB2, A) \
  X(sqrt2, K, PB2(h2sqrt(A)))      \
  X(rsqrt2, K, PB2(h2rsqrt(A)))    \
  X(rcp2, K, PB2(h2rcp(A)))        \
  X(exp2_, K, PB2(h2exp(A)))       \
  X(exp2x2, K, PB2(h2exp2(A)))     \
  X(exp10x2, K, PB2(h2exp10(A)))   \
  X(log2_, K, PB2(h2log(A)))       \
  X(log2x2, K, PB2(h2log2(A)))     \
  X(log10x2, K, PB2(h2log10(A)))   \
  X(sin2, K, PB2(h2sin(A)))        \
  X(cos2, K, PB2(h2cos(A)))        \
  X(floor2, K, PB2(h2floor(A)))    \
  X(ceil2, K, PB2(h2ceil(A)))      \
  X(trunc2, K, PB2(h2trunc(A)))    \
  X(rint2, K, PB2(h2rint(A)))      \
  X(neg2, K, PB2(__hneg2(A)))      \
  X(abs2, K, PB2(__habs2(A)))      \
  X(isnan2, K, PB2(__hisnan2(A)))  \
  X(swap2, K, PB2(__lowhigh2highlow(A)))

#define BINARY(X, K, PB, A, B)             \
  X(add, K, PB(__hadd(A, B)))              \
  X(sub, K, PB(__hsub(A, B)))              \
  X(mul, K, PB(__hmul(A, B)))              \
  X(div, K, PB(__hdiv(A, B)))              \
  X(add_sat, K, PB(__hadd_sat(A, B)))      \
  X(sub_sat, K, PB(__hsub_sat(A, B)))      \
  X(mul_sat, K, PB(__hmul_sat(A, B)))      \
  X(add_rn, K, PB(__hadd_rn(A, B)))        \
  X(sub_rn, K, PB(__hsub_rn(A, B)))        \
  X(mul_rn, K, PB(__hmul_rn(A, B)))        \
  X(min, K, PB(__hmin(A, B)))              \
  X(max, K, PB(__hmax(A, B)))              \
  X(min_nan, K, PB(__hmin_nan(A, B)))      \
  X(max_nan, K, PB(__hmax_nan(A, B)))      \
  X(opadd, K, PB((A) + (B)))               \
  X(opdiv, K, PB((A) / (B)))               \
  X(cmp, K, (u64)(__heq(A, B) | __hne(A, B) << 1 | __hlt(A, B) << 2 | __hle(A, B) << 3 |          \
                  __hgt(A, B) << 4 | __hge(A, B) << 5 | __hequ(A, B) << 6 | __hneu(A, B) << 7 |  \
                  __hltu(A, B) << 8 | __hleu(A, B) << 9 | __hgtu(A, B) << 10 |                    \
                  __hgeu(A, B) << 11 | ((A) == (B)) << 12 | ((A) != (B)) << 13 |                  \
                  ((A) < (B)) << 14 | ((A) <= (B)) << 15 | ((A) > (B)) << 16 |                    \
                  ((A) >= (B)) << 17))

#define BINARY2(X, K, PB2, A, B, P2)              \
  X(add2, K, PB2(__hadd2(A, B)))              \
  X(sub2, K, PB2(__hsub2(A, B)))              \
  X(mul2, K, PB2(__hmul2(A, B)))              \
  X(div2, K, PB2(__h2div(A, B)))              \
  X(add2_sat, K, PB2(__hadd2_sat(A, B)))      \
  X(mul2_sat, K, PB2(__hmul2_sat(A, B)))      \
  X(min2, K, PB2(__hmin2(A, B)))              \
  X(max2, K, PB2(__hmax2(A, B)))              \
  X(max2_nan, K, PB2(__hmax2_nan(A, B)))      \
  X(eq2, K, PB2(__heq2(A, B)))                \
  X(ne2, K, PB2(__hne2(A, B)))                \
  X(lt2, K, PB2(__hlt2(A, B)))                \
  X(geu2, K, PB2(__hgeu2(A, B)))              \
  X(neu2, K, PB2(__hneu2(A, B)))              \
  X(lows, K, PB2(__lows2##P2(A, B)))         \
  X(highs, K, PB2(__highs2##P2(A, B)))       \
  X(opmul2, K, PB2((A) * (B)))                \
  X(cmp2, K, (u64)(__hbeq2(A, B) | __hbne2(A, B) << 1 | __hblt2(A, B) << 2 | __hble2(A, B) << 3 | \
                   __hbgt2(A, B) << 4 | __hbge2(A, B) << 5 | __hbequ2(A, B) << 6 |               \
                   __hbneu2(A, B) << 7 | __hbltu2(A, B) << 8 | __hbleu2(A, B) << 9 |             \
                   __hbgtu2(A, B) << 10 | __hbgeu2(A, B) << 11 | ((A) == (B)) << 12 |            \
                   ((A) != (B)) << 13))                                                           \
  X(mask2, K, (u64)__heq2_mask(A, B) | (u64)__hltu2_mask(A, B) << 32)

#define OPS(X)                                                                    \
  X(f2h, kF32, HB(__float2half(fa)))                                              \
  X(f2h_rn, kF32, HB(__float2half_rn(fa)))                                        \
  X(f2h_rz, kF32, HB(__float2half_rz(fa)))                                        \
  X(f2h_ru, kF32, HB(__float2half_ru(fa)))                                        \
  X(f2h_rd, kF32, HB(__float2half_rd(fa)))                                        \
  X(f2h_ctor, kF32, HB(__half(fa)))                                               \
  X(f2h2_rn, kF32, H2B(__float2half2_rn(fa)))                                     \
  X(f2bf, kF32, BB(__float2bfloat16(fa)))                                         \
  X(f2bf_rn, kF32, BB(__float2bfloat16_rn(fa)))                                   \
  X(f2bf_rz, kF32, BB(__float2bfloat16_rz(fa)))                                   \
  X(f2bf_ru, kF32, BB(__float2bfloat16_ru(fa)))                                   \
  X(f2bf_rd, kF32, BB(__float2bfloat16_rd(fa)))                                   \
  X(f2bf_ctor, kF32, BB(__nv_bfloat16(fa)))                                       \
  X(f2bf2_rn, kF32, B2B(__float2bfloat162_rn(fa)))                                \
  X(fs2h2, kF32x2, H2B(__floats2half2_rn(fa, fb)))                                \
  X(f22h2, kF32x2, H2B(__float22half2_rn(make_float2(fa, fb))))                   \
  X(fs2bf2, kF32x2, B2B(__floats2bfloat162_rn(fa, fb)))                           \
  X(d2h, kF64, HB(__double2half(da)))                                             \
  X(d2bf, kF64, BB(__double2bfloat16(da)))                                        \
  X(d2h_ctor, kF64, HB(__half(da)))                                               \
  CONV_INT(X, half, HB, kI32, ia, int, ha)                                            \
  CONV_INT(X, half, HB, kU32, ua, uint, ha)                                           \
  CONV_INT(X, half, HB, kI16, sa, short, ha)                                          \
  CONV_INT(X, half, HB, kU16, usa, ushort, ha)                                        \
  CONV_INT(X, half, HB, kI64, la, ll, ha)                                             \
  CONV_INT(X, half, HB, kU64, ula, ull, ha)                                           \
  CONV_INT(X, bfloat16, BB, kI32B, ia, int, ba)                                       \
  CONV_INT(X, bfloat16, BB, kU32B, ua, uint, ba)                                      \
  CONV_INT(X, bfloat16, BB, kI16B, sa, short, ba)                                     \
  CONV_INT(X, bfloat16, BB, kU16B, usa, ushort, ba)                                   \
  CONV_INT(X, bfloat16, BB, kI64B, la, ll, ba)                                        \
  CONV_INT(X, bfloat16, BB, kU64B, ula, ull, ba)                                      \
  X(h2f, kH, F32B(__half2float(ha)))                                              \
  X(h2f_op, kH, F32B((float)ha))                                                  \
  X(h2char_rz, kH, (u64)(unsigned char)__half2char_rz(ha))                        \
  X(h2uchar_rz, kH, (u64)__half2uchar_rz(ha))                                     \
  X(h2int_op, kH, (u64)(unsigned)(int)ha)                                         \
  X(bf2f, kB, F32B(__bfloat162float(ba)))                                         \
  X(bf2char_rz, kB, (u64)(unsigned char)__bfloat162char_rz(ba))                   \
  X(bf2uchar_rz, kB, (u64)__bfloat162uchar_rz(ba))                                \
  UNARY_MATH(X, kH, HB, ha)                                                       \
  UNARY_MATH(X, kB, BB, ba)                                                       \
  UNARY_MATH2(X, kH2, H2B, h2a)                                                   \
  UNARY_MATH2(X, kB2, B2B, b2a)                                                   \
  BINARY(X, kHH, HB, ha, hb)                                                      \
  BINARY(X, kBB, BB, ba, bb)                                                      \
  X(fma, kHHH, HB(__hfma(ha, hb, hc)))                                            \
  X(fma_sat, kHHH, HB(__hfma_sat(ha, hb, hc)))                                    \
  X(fma, kBBB, BB(__hfma(ba, bb, bc)))                                            \
  X(fma_sat, kBBB, BB(__hfma_sat(ba, bb, bc)))                                    \
  BINARY2(X, kH2H2, H2B, h2a, h2b, half2)                                                \
  BINARY2(X, kB2B2, B2B, b2a, b2b, bfloat162)                                                \
  X(fma2, kH2H2H2, H2B(__hfma2(h2a, h2b, h2c)))                                   \
  X(fma2_sat, kH2H2H2, H2B(__hfma2_sat(h2a, h2b, h2c)))                           \
  X(fma2, kB2B2B2, B2B(__hfma2(b2a, b2b, b2c)))

// Integer conversion kinds: the "to 16-bit" ops take an integer, the "from" ops a 16-bit value.
enum { kI32B = 100, kU32B, kI16B, kU16B, kI64B, kU64B };
#define kI32_FROM kH
#define kU32_FROM kH
#define kI16_FROM kH
#define kU16_FROM kH
#define kI64_FROM kH
#define kU64_FROM kH
#define kI32B_FROM kB
#define kU32B_FROM kB
#define kI16B_FROM kB
#define kU16B_FROM kB
#define kI64B_FROM kB
#define kU64B_FROM kB

#define X_ENUM(name, kind, expr) op_##name##_##kind,
enum Op { OPS(X_ENUM) op_count };
struct OpInfo {
  const char* name;
  int kind;
};
#define X_INFO(name, kind, expr) {#name, kind},
static const OpInfo op_info[] = {OPS(X_INFO)};

struct Job {
  int op;
  u64 a, b, c;
};

__device__ u64 evaluate(const Job& j) {
  const u64 a = j.a, b = j.b, c = j.c;
  const float fa = __uint_as_float((unsigned)a), fb = __uint_as_float((unsigned)b);
  const double da = __longlong_as_double((long long)a);
  const int ia = (int)a;
  const unsigned ua = (unsigned)a;
  const short sa = (short)a;
  const unsigned short usa = (unsigned short)a;
  const long long la = (long long)a;
  const u64 ula = a;
  const __half ha = __ushort_as_half((unsigned short)a), hb = __ushort_as_half((unsigned short)b),
               hc = __ushort_as_half((unsigned short)c);
  const __nv_bfloat16 ba = __ushort_as_bfloat16((unsigned short)a),
                      bb = __ushort_as_bfloat16((unsigned short)b),
                      bc = __ushort_as_bfloat16((unsigned short)c);
  const __half2 h2a = __halves2half2(__ushort_as_half((unsigned short)a), __ushort_as_half((unsigned short)(a >> 16)));
  const __half2 h2b = __halves2half2(__ushort_as_half((unsigned short)b), __ushort_as_half((unsigned short)(b >> 16)));
  const __half2 h2c = __halves2half2(__ushort_as_half((unsigned short)c), __ushort_as_half((unsigned short)(c >> 16)));
  const __nv_bfloat162 b2a = __halves2bfloat162(__ushort_as_bfloat16((unsigned short)a), __ushort_as_bfloat16((unsigned short)(a >> 16)));
  const __nv_bfloat162 b2b = __halves2bfloat162(__ushort_as_bfloat16((unsigned short)b), __ushort_as_bfloat16((unsigned short)(b >> 16)));
  const __nv_bfloat162 b2c = __halves2bfloat162(__ushort_as_bfloat16((unsigned short)c), __ushort_as_bfloat16((unsigned short)(c >> 16)));
  (void)fa; (void)fb; (void)da; (void)ia; (void)ua; (void)sa; (void)usa; (void)la; (void)ula;
  (void)h2c; (void)b2c;
  switch (j.op) {
#define X_CASE(name, kind, expr) \
  case op_##name##_##kind: return (expr);
    OPS(X_CASE)
    default: return ~0ull;
  }
}
__global__ void run_jobs(const Job* jobs, u64* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = evaluate(jobs[i]);
}

// --- inputs ------------------------------------------------------------------------------------
static u64 rng_state = 0x9E3779B97F4A7C15ull;
static u64 rnd() {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}
static unsigned fbits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static u64 dbits(double d) { u64 u; memcpy(&u, &d, 8); return u; }

static std::vector<u64> half_edges() {
  return {0x0000, 0x8000, 0x0001, 0x8001, 0x0002, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x3c00, 0xbc00,
          0x3c01, 0x3bff, 0x3800, 0x3e00, 0x4000, 0xc000, 0x4200, 0x3555, 0x7bff, 0xfbff, 0x7bfe,
          0x6800, 0x6bff, 0x5c00, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7dff, 0x7fff, 0xffff,
          0x1400, 0x0200, 0x3a00, 0x3d00, 0x4500, 0xc500, 0x4248, 0x3248, 0x32b3, 0x5cb0, 0x2b7c,
          0x1f79, 0x25cf, 0xc13b, 0xc1ef};
}
static std::vector<u64> bf16_edges() {
  return {0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x8080, 0x3f80, 0xbf80, 0x3f81, 0x3f7f,
          0x3f00, 0x3fc0, 0x4000, 0xc000, 0x4040, 0x3eab, 0x7f7f, 0xff7f, 0x7f7e, 0x7f00, 0x0100,
          0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0x7fff, 0xffff, 0x3b80, 0x4780, 0x4f00, 0x5f00,
          0x3fa0, 0x40a0, 0xc0a0, 0x0040, 0x3e80};
}

int main() {
  std::vector<Job> jobs;
  auto add = [&](int op, u64 a, u64 b = 0, u64 c = 0) { jobs.push_back(Job{op, a, b, c}); };

  // Float inputs: edges, values around half/bf16 rounding points, random bit patterns.
  std::vector<u64> floats;
  const float fe[] = {0.0f, -0.0f, 1.0f, -1.0f, 65504.0f, 65519.99f, 65520.0f, -65520.0f,
                      65536.0f, 1e10f, -1e10f, 3.4028235e38f, 5.9604645e-8f, 2.9802322e-8f,
                      2.9802326e-8f, 2.9802319e-8f, 8.940697e-8f, 6.097555e-5f, 6.1035156e-5f,
                      6.1035153e-5f, 1e-40f, -1e-40f, 1.4e-45f, 1.1754942e-38f, 1.1754944e-38f,
                      0.1f, 0.3333333f, -2.5f, 1000000.0f, 3.0e-8f, 1.0f / 3.0f, 65505.0f, 65535.0f};
  for (float f : fe) floats.push_back(fbits(f));
  const unsigned fspecial[] = {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u,
                               0x7fa00000u, 0xff812345u, 0x7fffffffu, 0x00000001u, 0x80000001u,
                               0x007fffffu, 0x00400000u, 0x7f7fffffu, 0xff7fffffu};
  for (unsigned u : fspecial) floats.push_back(u);
  // Around half ties: 1 + k*2^-11 and neighbours, and the same in other binades.
  for (int k = 0; k < 8; ++k)
    for (int e = -26; e <= 16; e += 3)
      for (int d = -1; d <= 1; ++d) {
        float base = ldexpf(1.0f + k * ldexpf(1.0f, -11), e);
        floats.push_back(fbits(base) + d);
        floats.push_back((fbits(base) + d) | 0x80000000u);
      }
  // Around bf16 ties: low 16 bits 0x8000 +- 1, and 0x7fff.
  for (int i = 0; i < 100; ++i) {
    unsigned hi = (unsigned)rnd() & 0xffff0000u;
    floats.push_back(hi | 0x8000u);
    floats.push_back(hi | 0x8001u);
    floats.push_back(hi | 0x7fffu);
  }
  // Random floats in half range and with half ties, and raw random bit patterns.
  for (int i = 0; i < 300; ++i) {
    unsigned r = (unsigned)rnd();
    unsigned exp = 127 - 27 + (unsigned)(rnd() % 46);
    unsigned u = (r & 0x80000000u) | exp << 23 | (r & 0x7fffffu);
    if (i % 3 == 0) u = (u & ~0x1fffu) | 0x1000u;  // exact ties for normal halves
    floats.push_back(u);
  }
  for (int i = 0; i < 200; ++i) floats.push_back((unsigned)rnd());
  for (u64 f : floats) {
    for (int op = 0; op < op_count; ++op)
      if (op_info[op].kind == kF32) add(op, f);
  }
  for (size_t i = 0; i + 1 < floats.size(); i += 7)
    for (int op = 0; op < op_count; ++op)
      if (op_info[op].kind == kF32x2) add(op, floats[i], floats[i + 1]);

  // Doubles.
  std::vector<u64> doubles;
  const double de[] = {0.0, -0.0, 1.0, 65504.0, 65519.999999, 65520.0, 65520.000001, 1e300, -1e300,
                       5.9604644775390625e-8, 2.98023223876953125e-8, 2.9802322387695316e-8,
                       1e-310, 1.0000000000000002, 1.00048828125, 1.000488281250001,
                       1.00390625, 1.0039062500000002, 3.3895313892515355e38, 3.402823669209385e38,
                       1.1754943508222875e-38, 9.183549615799121e-41};
  for (double d : de) { doubles.push_back(dbits(d)); doubles.push_back(dbits(-d)); }
  doubles.push_back(0x7ff0000000000000ull);
  doubles.push_back(0xfff8000000000000ull);
  doubles.push_back(0x7ff0000000000001ull);
  for (int i = 0; i < 300; ++i) {
    u64 r = rnd();
    u64 exp = 1023 - 140 + rnd() % 280;
    u64 u = (r & 0x800fffffffffffffull) | exp << 52;
    if (i % 4 == 0) u = (u & ~((1ull << 42) - 1)) | (1ull << 41);  // half-ish ties
    if (i % 4 == 1) u = (u & ~((1ull << 45) - 1)) | (1ull << 44);  // bf16 ties
    doubles.push_back(u);
  }
  for (u64 d : doubles)
    for (int op = 0; op < op_count; ++op)
      if (op_info[op].kind == kF64) add(op, d);

  // Integers.
  std::vector<u64> ints = {0, 1, (u64)-1, 2047, 2048, 2049, 2050, 2051, 4097, 4098, 4099, 65504,
                           65519, 65520, 65535, 65536, 16777216, 16777217, 0x7fffffff,
                           0x80000000ull, 0xffffffffull, 255, 256, 257, 258, 259, 384, 385, 32767,
                           32768, 0x8000000000000000ull, 0x7fffffffffffffffull, (u64)-65504,
                           (u64)-65520, (u64)-2049, (u64)-257, 0x0180000000000000ull,
                           0x0180000000000001ull, 0x0100000000000000ull, 0xfffffffffffffffeull};
  for (int i = 0; i < 100; ++i) {
    u64 r = rnd();
    ints.push_back(r >> (rnd() % 64));
    ints.push_back((u64)-(long long)(r >> (rnd() % 64)));
  }
  for (u64 v : ints)
    for (int op = 0; op < op_count; ++op) {
      const int k = op_info[op].kind;
      if (k == kI32 || k == kU32 || k == kI32B || k == kU32B) add(op, v & 0xffffffffull);
      if (k == kI16 || k == kU16 || k == kI16B || k == kU16B) add(op, v & 0xffffull);
      if (k == kI64 || k == kU64 || k == kI64B || k == kU64B) add(op, v);
    }

  // 16-bit values: edges plus random patterns.
  std::vector<u64> hv = half_edges(), bv = bf16_edges();
  for (int i = 0; i < 200; ++i) hv.push_back(rnd() & 0xffff);
  for (int i = 0; i < 200; ++i) bv.push_back(rnd() & 0xffff);
  for (int op = 0; op < op_count; ++op) {
    if (op_info[op].kind == kH) for (u64 v : hv) add(op, v);
    if (op_info[op].kind == kB) for (u64 v : bv) add(op, v);
  }
  // Pairs: edges x edges, random pairs of nearby magnitudes, and random patterns.
  auto near = [&](u64 v, int frac_bits) {  // a random value within a few binades of v
    u64 r = rnd();
    long e = (long)((v >> frac_bits) & ((0x7fff >> frac_bits))) + (long)(r % 7) - 3;
    if (e < 0) e = 0;
    const long emax = (0x7fff >> frac_bits) - 1;
    if (e > emax) e = emax;
    return ((r >> 8) & 0x8000) | ((u64)e << frac_bits) | ((r >> 20) & ((1u << frac_bits) - 1));
  };
  for (int op = 0; op < op_count; ++op) {
    const int k = op_info[op].kind;
    if (k != kHH && k != kBB) continue;
    const bool h = k == kHH;
    const std::vector<u64>& edges = h ? half_edges() : bf16_edges();
    const bool all = strcmp(op_info[op].name, "cmp") == 0 || strcmp(op_info[op].name, "min") == 0 ||
                     strcmp(op_info[op].name, "max") == 0;
    for (size_t i = 0; i < edges.size(); ++i)
      for (size_t j = 0; j < edges.size(); ++j)
        if (all || (i * 7 + j) % 4 == 0) add(op, edges[i], edges[j]);
    for (int i = 0; i < 400; ++i) {
      const u64 x = rnd() & 0xffff;
      add(op, x, i % 2 ? near(x, h ? 10 : 7) : rnd() & 0xffff);
    }
  }
  for (int op = 0; op < op_count; ++op) {
    const int k = op_info[op].kind;
    if (k != kHHH && k != kBBB) continue;
    const bool h = k == kHHH;
    const std::vector<u64>& edges = h ? half_edges() : bf16_edges();
    for (size_t i = 0; i < edges.size(); ++i)
      for (size_t j = 0; j < edges.size(); j += 3) add(op, edges[i], edges[j], edges[(i + j) % edges.size()]);
    for (int i = 0; i < 1500; ++i) {
      const u64 x = rnd() & 0xffff, y = rnd() & 0xffff;
      // c near the product, so that cancellation and ties are exercised.
      const u64 p = h ? __half_as_ushort(__float2half(__half2float(__ushort_as_half((unsigned short)x)) *
                                                      __half2float(__ushort_as_half((unsigned short)y))))
                      : __bfloat16_as_ushort(__float2bfloat16(__bfloat162float(__ushort_as_bfloat16((unsigned short)x)) *
                                                              __bfloat162float(__ushort_as_bfloat16((unsigned short)y))));
      add(op, x, y, i % 3 == 0 ? rnd() & 0xffff : (near(p, h ? 10 : 7) ^ (i % 2 ? 0x8000 : 0)));
    }
  }
  // Pairs of pairs.
  for (int op = 0; op < op_count; ++op) {
    const int k = op_info[op].kind;
    const bool h = k == kH2 || k == kH2H2 || k == kH2H2H2;
    const std::vector<u64>& v = h ? hv : bv;
    auto pick = [&]() { return v[rnd() % v.size()] | v[rnd() % v.size()] << 16; };
    if (k == kH2 || k == kB2) for (int i = 0; i < 150; ++i) add(op, pick());
    if (k == kH2H2 || k == kB2B2) for (int i = 0; i < 150; ++i) add(op, pick(), pick());
    if (k == kH2H2H2 || k == kB2B2B2) for (int i = 0; i < 150; ++i) add(op, pick(), pick(), pick());
  }

  const int n = (int)jobs.size();
  fprintf(stderr, "%d evaluations\n", n);
  Job* djobs = nullptr;
  u64* dout = nullptr;
  if (cudaMalloc(&djobs, n * sizeof(Job)) != cudaSuccess || cudaMalloc(&dout, n * sizeof(u64)) != cudaSuccess) {
    fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(djobs, jobs.data(), n * sizeof(Job), cudaMemcpyHostToDevice);
  run_jobs<<<(n + 255) / 256, 256>>>(djobs, dout, n);
  std::vector<u64> out(n);
  if (cudaMemcpy(out.data(), dout, n * sizeof(u64), cudaMemcpyDeviceToHost) != cudaSuccess) {
    fprintf(stderr, "kernel failed\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    const Job& j = jobs[i];
    const int k = op_info[j.op].kind;
    const int nin = (k == kHHH || k == kBBB || k == kH2H2H2 || k == kB2B2B2) ? 3
                    : (k == kHH || k == kBB || k == kH2H2 || k == kB2B2 || k == kF32x2) ? 2 : 1;
    const char* fmt = k == kH || k == kHH || k == kHHH || k == kH2 || k == kH2H2 || k == kH2H2H2 ? "h" : k == kB || k == kBB || k == kBBB || k == kB2 || k == kB2B2 || k == kB2B2B2 ? "b" : "";
    if (nin == 1) printf("%s%s %llx %llx\n", op_info[j.op].name, fmt, j.a, out[i]);
    if (nin == 2) printf("%s%s %llx %llx %llx\n", op_info[j.op].name, fmt, j.a, j.b, out[i]);
    if (nin == 3) printf("%s%s %llx %llx %llx %llx\n", op_info[j.op].name, fmt, j.a, j.b, j.c, out[i]);
  }
  cudaFree(djobs);
  cudaFree(dout);
  return 0;
}
