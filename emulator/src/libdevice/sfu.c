// The GPU's special function unit (MUFU) for the CPU: RCP, RSQ, SQRT and EX2 in single
// precision, RCP64H and RSQ64H in double precision, bit for bit as an H200 computes them.
//
// emulator/tests/math/sfu/sfu_probe.cu ran each operation on all 2^32 inputs of an H200 and
// found that the result depends only on part of the input, with no exception in its domain:
//   RCP:   the significand (1/x = 2^-e * RCP(m)), the same for both signs;
//   RSQ, SQRT: the significand and the exponent's parity;
//   EX2:   |x| truncated to 23 fraction bits, x = +-(n + f): 2^+-n * EX2(+-f);
//   RCP64H, RSQ64H: the high word's 20 significand bits (and parity); the low words of the input
//          and of the result play no part (the result's low word is zero; a NaN whose high word
//          reads as infinity is infinity to the unit).
// So each is one table over that part: sfu/NAME.2b.xz holds, per key, the GPU's result minus
// the correctly rounded value the key stands for (computed here exactly as the probe computed
// it), in ulps, -2..1, two bits per key (xz-compressed; build.py unpacks them and this file
// includes them). Denormal inputs and results are flushed to a zero of the same sign, NaN results
// are the canonical 0x7fffffff, as the unit does.
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bits.h"

#define SFU_TABLE(NAME)                                                                    \
  __asm__(".section .rodata\n.p2align 6\n.globl __cuemu_sfu_" #NAME "\n.hidden __cuemu_sfu_" #NAME \
          "\n__cuemu_sfu_" #NAME ":\n.incbin \"" CUEMU_SFU_DIR "/" #NAME ".2b\"\n.text\n"); \
  extern const unsigned char __cuemu_sfu_##NAME[] __attribute__((visibility("hidden")));
SFU_TABLE(rcp)
SFU_TABLE(rsq)
SFU_TABLE(sqrt)
SFU_TABLE(ex2)
SFU_TABLE(rcp64h)
SFU_TABLE(rsq64h)

static inline u32 hiword(double d) { return (u32)(dbits(d) >> 32); }

static inline int delta(const unsigned char* t, u32 k) {
  return (int)((t[k >> 2] >> (2 * (k & 3))) & 3u) - 2;
}
static const u32 kNaN = 0x7fffffffu;

// A result R (the bits of the key's result) with E added to its exponent; zero (sign S) when it
// underflows, infinity when it overflows.
static inline float scale_f(u32 r, int e, u32 s) {
  const int re = (int)((r >> 23) & 0xff) + e;
  if (re <= 0) return bitsf(s);
  if (re >= 255) return bitsf(s | 0x7f800000u);
  return bitsf(s | (u32)re << 23 | (r & 0x7fffffu));
}
static inline double scale_hi(u32 r, int e, u32 s) {
  const int re = (int)((r >> 20) & 0x7ff) + e;
  if (re <= 0) return bitsd((u64)s << 32);
  if (re >= 2047) return bitsd((u64)(s | 0x7ff00000u) << 32);
  return bitsd((u64)(s | (u32)re << 20 | (r & 0xfffffu)) << 32);
}

float __cuemu_mufu_rcp(float x) {
  const u32 b = fbits(x), s = b & 0x80000000u, e = (b >> 23) & 0xff, m = b & 0x7fffffu;
  if (e == 0xff) return m ? bitsf(kNaN) : bitsf(s);
  if (e == 0) return bitsf(s | 0x7f800000u);
  const u32 r = fbits((float)(1.0 / (1.0 + m * 0x1p-23))) + delta(__cuemu_sfu_rcp, m);
  return scale_f(r, -((int)e - 127), s);
}

// RSQ and SQRT share the key: exponent parity and significand.
static inline u32 rsq_key(u32 b, int* half) {
  const int ue = (int)((b >> 23) & 0xff) - 127;
  *half = ue >> 1;  // floor
  return (u32)(ue & 1) << 23 | (b & 0x7fffffu);
}
static inline double rsq_arg(u32 k) {
  return (1.0 + (k & 0x7fffffu) * 0x1p-23) * ((k >> 23) ? 2.0 : 1.0);
}

float __cuemu_mufu_rsq(float x) {
  const u32 b = fbits(x), s = b & 0x80000000u, e = (b >> 23) & 0xff;
  if (e == 0xff && (b & 0x7fffffu)) return bitsf(kNaN);
  if (e == 0) return bitsf(s | 0x7f800000u);
  if (s) return bitsf(kNaN);
  if (e == 0xff) return 0.0f;
  int half;
  const u32 k = rsq_key(b, &half);
  const u32 r = fbits((float)(1.0 / sqrt(rsq_arg(k)))) + delta(__cuemu_sfu_rsq, k);
  return scale_f(r, -half, 0);
}

float __cuemu_mufu_sqrt(float x) {
  const u32 b = fbits(x), s = b & 0x80000000u, e = (b >> 23) & 0xff;
  if (e == 0xff && (b & 0x7fffffu)) return bitsf(kNaN);
  if (e == 0) return bitsf(s);
  if (s) return bitsf(kNaN);
  if (e == 0xff) return x;
  int half;
  const u32 k = rsq_key(b, &half);
  const u32 r = fbits((float)sqrt(rsq_arg(k))) + delta(__cuemu_sfu_sqrt, k);
  return scale_f(r, half, 0);
}

float __cuemu_mufu_ex2(float x) {
  const u32 b = fbits(x), s = b & 0x80000000u, e = (b >> 23) & 0xff;
  if (e == 0xff) return (b & 0x7fffffu) ? bitsf(kNaN) : (s ? 0.0f : x);
  if (e == 0) return 1.0f;
  const double a = fabs((double)x);
  if (a >= 128.0) return s ? 0.0f : bitsf(0x7f800000u);
  const u32 q = (u32)(a * 0x1p23);  // |x| in fixed point, 23 fraction bits, truncated
  const u32 f = q & 0x7fffffu;
  const int n = (int)(q >> 23);
  const double v = f * 0x1p-23;
  const u32 k = (s ? 1u << 23 : 0u) | f;
  const u32 r = fbits((float)exp2(s ? -v : v)) + delta(__cuemu_sfu_ex2, k);
  return scale_f(r, s ? -n : n, 0);
}

double __cuemu_mufu_rcp64h(double x) {
  const u32 h = hiword(x), s = h & 0x80000000u, e = (h >> 20) & 0x7ff, m = h & 0xfffffu;
  if (e == 0x7ff) return m ? bitsd(0x7fffffff00000000ull) : bitsd((u64)s << 32);
  if (e == 0) return bitsd((u64)(s | 0x7ff00000u) << 32);
  const u32 r = hiword(1.0 / (1.0 + m * 0x1p-20)) + delta(__cuemu_sfu_rcp64h, m);
  return scale_hi(r, -((int)e - 1023), s);
}

double __cuemu_mufu_rsq64h(double x) {
  const u32 h = hiword(x), s = h & 0x80000000u, e = (h >> 20) & 0x7ff, m = h & 0xfffffu;
  if (e == 0x7ff && m) return bitsd(0x7fffffff00000000ull);
  if (e == 0) return bitsd((u64)(s | 0x7ff00000u) << 32);
  if (s) return bitsd(0x7fffffff00000000ull);
  if (e == 0x7ff) return 0.0;
  const int ue = (int)e - 1023;
  const u32 k = (u32)(ue & 1) << 20 | m;
  const double arg = (1.0 + m * 0x1p-20) * ((ue & 1) ? 2.0 : 1.0);
  const u32 r = hiword(1.0 / sqrt(arg)) + delta(__cuemu_sfu_rsq64h, k);
  return scale_hi(r, -(ue >> 1), 0);
}
