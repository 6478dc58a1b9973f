// CPU meanings for the NVVM intrinsics that libdevice calls (rewrite.py renames
// @llvm.nvvm.X.Y to @__nvvm_X_Y) and for libdevice's plain float/double operations
// (@__cuemu_*), for libdevice on x86-64 (build.py). Compiled with clang -frounding-math
// -ffp-contract=off.
//
// Exact (the GPU's result is the IEEE result in the stated rounding direction, plus the GPU's
// NaN and flush-to-zero conventions): fma/add/mul/div/rcp/sqrt in rn/rz/rm/rp, conversions,
// floor/ceil/trunc/round(=rint), fabs, fmin/fmax, saturate, bit moves, integer helpers.
// The special function unit: RCP, RSQ, SQRT, EX2, LG2, SIN, COS, TANH, RCP64H and RSQ64H are
// sfu.c's models and tables of the H200's unit (measured on it).
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bits.h"

#pragma STDC FENV_ACCESS ON

// The GPU's NaN results: single precision gives the canonical 0x7fffffff whatever the inputs
// (payloads are not propagated).
// Double precision keeps x86's rules, as the H200 record shows: an input NaN's payload is kept
// (quieted), and an invalid operation gives 0xfff8000000000000.
static inline float canon_f(float r) { return r != r ? bitsf(0x7fffffffu) : r; }
static inline double canon_d(double r) { return r; }
static inline double quiet_d(double a) { return bitsd(dbits(a) | 0x0008000000000000ull); }
// A double operation with NaN operands gives the first NaN operand, quieted (the H200 record:
// __dadd_rn, atan2, pow); the host compiler may have swapped a commutative operation's operands.
static inline double nan2_d(double a, double b, double r) {
  if (r == r) return r;
  if (a != a) return quiet_d(a);
  if (b != b) return quiet_d(b);
  return r;
}
// fma's NaN operands: a, then c, then b (the H200's DFMA: tests/math/sampled's record).
static inline double nan3_d(double a, double b, double c, double r) {
  return r == r ? r : a != a ? quiet_d(a) : c != c ? quiet_d(c) : nan2_d(a, b, r);
}
static inline float ftz(float x) {
  return (fbits(x) & 0x7f800000u) == 0 ? bitsf(fbits(x) & 0x80000000u) : x;
}
// An .ftz operation's result R, whose exact value is EXACT (in double: exact, or rounded far
// below the float grid): the GPU flushes a result that is below the normal range before
// rounding, so one that rounds up to +-2^-126 becomes zero too.
static inline float ftz_tiny(float r, double exact) {
  return fabs(exact) < 0x1p-126 && r == r ? bitsf(fbits(r) & 0x80000000u) : ftz(r);
}

// fma, rint, floor, ceil and trunc in one instruction where the CPU has them (FMA, SSE4.1), else
// the C library's (exact either way). Chosen once at start-up; before that, the C library's.
static int has_fma, has_sse41;
__attribute__((constructor)) static void detect_cpu(void) {
  __builtin_cpu_init();
  has_fma = __builtin_cpu_supports("fma");
  has_sse41 = __builtin_cpu_supports("sse4.1");
}
#define HW(T, NAME, TARGET, BUILTIN, ARGS, PARAMS)                                              \
  __attribute__((target(TARGET))) static T NAME##_hw PARAMS { return BUILTIN ARGS; }
HW(float, fmaf, "fma", __builtin_fmaf, (a, b, c), (float a, float b, float c))
HW(double, fma, "fma", __builtin_fma, (a, b, c), (double a, double b, double c))
HW(float, rintf, "sse4.1", __builtin_rintf, (a), (float a))
HW(double, rint, "sse4.1", __builtin_rint, (a), (double a))
HW(float, floorf, "sse4.1", __builtin_floorf, (a), (float a))
HW(double, floor, "sse4.1", __builtin_floor, (a), (double a))
HW(float, ceilf, "sse4.1", __builtin_ceilf, (a), (float a))
HW(double, ceil, "sse4.1", __builtin_ceil, (a), (double a))
HW(float, truncf, "sse4.1", __builtin_truncf, (a), (float a))
HW(double, trunc, "sse4.1", __builtin_trunc, (a), (double a))
static inline float fma_f(float a, float b, float c) { return has_fma ? fmaf_hw(a, b, c) : fmaf(a, b, c); }
static inline double fma_d(double a, double b, double c) { return has_fma ? fma_hw(a, b, c) : fma(a, b, c); }
static inline float rint_f(float a) { return has_sse41 ? rintf_hw(a) : rintf(a); }
static inline double rint_d(double a) { return has_sse41 ? rint_hw(a) : rint(a); }
static inline float floor_f(float a) { return has_sse41 ? floorf_hw(a) : floorf(a); }
static inline double floor_d(double a) { return has_sse41 ? floor_hw(a) : floor(a); }
static inline float ceil_f(float a) { return has_sse41 ? ceilf_hw(a) : ceilf(a); }
static inline double ceil_d(double a) { return has_sse41 ? ceil_hw(a) : ceil(a); }
static inline float trunc_f(float a) { return has_sse41 ? truncf_hw(a) : truncf(a); }
static inline double trunc_d(double a) { return has_sse41 ? trunc_hw(a) : trunc(a); }

// EXPR of type T computed in rounding direction MODE. Device code runs in round to nearest, so
// that direction needs no switch of the floating-point environment (which costs tens of cycles).
#define ROUNDED(MODE, T, EXPR)                                                                  \
  __extension__({                                                                               \
    T r_;                                                                                       \
    if ((MODE) == FE_TONEAREST) {                                                               \
      r_ = (EXPR);                                                                              \
    } else {                                                                                    \
      fesetround(MODE);                                                                         \
      volatile T v_ = (EXPR);                                                                   \
      fesetround(FE_TONEAREST);                                                                 \
      r_ = v_;                                                                                  \
    }                                                                                           \
    r_;                                                                                         \
  })

#define MODES(X) X(rn, FE_TONEAREST) X(rz, FE_TOWARDZERO) X(rm, FE_DOWNWARD) X(rp, FE_UPWARD)

// ---- directed rounding without switching the floating-point environment ----
// An operation rounded toward zero, up or down gives the nearest result r or r's neighbour on
// the side of the exact result; an error-free transformation (TwoSum; the remainder of a
// product, quotient or square root by one fma) says which side, exactly, in round to nearest.
// fesetround twice took about 20 ns of every such call, 85x a plain operation (cuda-samples'
// interval arithmetic is made of them). Where the transformation is not exact (infinities,
// NaNs, overflow, results or operands near the underflow threshold, an exact zero, whose sign
// depends on the direction) the environment is switched as before.
// SIDE: the sign of (exact - r); r finite and nonzero.
#define DIRECTED(NAME, T, U, TOBITS, FROMBITS)                                                  \
  static inline T NAME(T r, int side, int mode) {                                               \
    if (side == 0 || mode == FE_TONEAREST) return r;                                            \
    int up; /* the step: toward +infinity or -infinity */                                       \
    if (mode == FE_UPWARD) {                                                                    \
      if (side < 0) return r;                                                                   \
      up = 1;                                                                                   \
    } else if (mode == FE_DOWNWARD) {                                                           \
      if (side > 0) return r;                                                                   \
      up = 0;                                                                                   \
    } else { /* toward zero: only a result of larger magnitude than the exact one moves */      \
      if ((r > 0) == (side > 0)) return r;                                                      \
      up = r < 0;                                                                               \
    }                                                                                           \
    const U u = TOBITS(r);                                                                      \
    return FROMBITS((r > 0) == up ? u + 1 : u - 1);                                             \
  }
DIRECTED(directed_d, double, u64, dbits, bitsd)
DIRECTED(directed_f, float, u32, fbits, bitsf)
#define SIGN(E) (((E) > 0) - ((E) < 0))
// Whether |x| lies in [LO, HI] (false for NaN).
#define WITHIN(x, LO, HI) (fabs(x) >= (LO) && fabs(x) <= (HI))

// a + b in MODE: TwoSum's error is exact for finite operands and a finite sum.
#define FAST_ADD(T, DIRECTED_FN, a, b, MODE, SLOW)                                              \
  __extension__({                                                                               \
    const T s_ = (a) + (b);                                                                     \
    T out_;                                                                                     \
    if ((MODE) == FE_TONEAREST) {                                                               \
      out_ = s_;                                                                                \
    } else if (s_ - s_ == 0 && s_ != 0) { /* finite, nonzero */                                 \
      const T bv_ = s_ - (a), av_ = s_ - bv_;                                                   \
      const T e_ = ((a) - av_) + ((b) - bv_);                                                   \
      out_ = DIRECTED_FN(s_, SIGN(e_), MODE);                                                   \
    } else {                                                                                    \
      out_ = SLOW;                                                                              \
    }                                                                                           \
    out_;                                                                                       \
  })
// a * b, a / b, sqrt(a) in MODE: the remainder by one fma is exact away from the underflow
// threshold (LO) and from overflow (HI).
#define FAST_MUL(T, DIRECTED_FN, FMA, a, b, MODE, LO, HI, SLOW)                                 \
  __extension__({                                                                               \
    const T p_ = (a) * (b);                                                                     \
    (MODE) == FE_TONEAREST ? p_                                                                 \
    : WITHIN(p_, LO, HI)   ? DIRECTED_FN(p_, SIGN(FMA((a), (b), -p_)), MODE)                    \
                           : (SLOW);                                                            \
  })
#define FAST_DIV(T, DIRECTED_FN, FMA, a, b, MODE, LO, HI, SLOW)                                 \
  __extension__({                                                                               \
    const T q_ = (a) / (b);                                                                     \
    (MODE) == FE_TONEAREST ? q_                                                                 \
    : WITHIN(q_, LO, HI) && WITHIN(a, LO, HI) && WITHIN(b, LO, HI)                              \
        ? DIRECTED_FN(q_, SIGN(FMA(-q_, (b), (a))) * SIGN(b), MODE)                             \
        : (SLOW);                                                                               \
  })
#define FAST_SQRT(T, DIRECTED_FN, FMA, SQRT, a, MODE, LO, HI, SLOW)                             \
  __extension__({                                                                               \
    const T r_ = SQRT(a);                                                                       \
    (MODE) == FE_TONEAREST ? r_                                                                 \
    : (a) > 0 && WITHIN(a, LO, HI) ? DIRECTED_FN(r_, SIGN(FMA(-r_, r_, (a))), MODE)            \
                                   : (SLOW);                                                    \
  })
// fma(a, b, c) in MODE, in single precision: a * b is exact in double, TwoSum gives the exact
// a * b + c as s + e, and s - r is exact (Sterbenz: s is within a factor 2 of the nonzero r, a
// normal float away from the underflow threshold), so the exact result lies on the side of r
// that (s - r) + e has. libdevice's expf, exp10f and erfcxf round one fma down on every call,
// fmodf, remainderf and remquof one toward zero per step. (Double fma keeps fesetround: its
// exact error needs more than one transformation.)
#define FAST_FMA_F(a, b, c, MODE, SLOW)                                                         \
  __extension__({                                                                               \
    const float r_ = fma_f((a), (b), (c));                                                      \
    float out_;                                                                                 \
    if ((MODE) == FE_TONEAREST) {                                                               \
      out_ = r_;                                                                                \
    } else if (WITHIN(r_, 0x1p-100f, 0x1p100f) && WITHIN(a, 0x1p-100f, 0x1p100f) &&            \
               WITHIN(b, 0x1p-100f, 0x1p100f) && fabsf(c) <= 0x1p100f) {                        \
      const double p_ = (double)(a) * (double)(b), c_ = (c);                                    \
      const double s_ = p_ + c_, bv_ = s_ - p_, av_ = s_ - bv_;                                 \
      const double e_ = (p_ - av_) + (c_ - bv_);                                                \
      out_ = directed_f(r_, SIGN((s_ - (double)r_) + e_), MODE);                                \
    } else {                                                                                    \
      out_ = SLOW;                                                                              \
    }                                                                                           \
    out_;                                                                                       \
  })
// The thresholds: a remainder needs the exponent range of the result plus the precision.
#define LO_D 0x1p-900
#define HI_D 0x1p900
#define LO_F 0x1p-90f
#define HI_F 0x1p90f

// ---- float arithmetic in a rounding direction, with and without ftz ----
#define FOPS(M, MODE)                                                                           \
  float __nvvm_fma_##M##_f(float a, float b, float c) {                                         \
    float r = FAST_FMA_F(a, b, c, MODE, ROUNDED(MODE, float, fma_f(a, b, c)));                                             \
    return canon_f(r);                                                                          \
  }                                                                                             \
  float __nvvm_fma_##M##_ftz_f(float a, float b, float c) {                                     \
    a = ftz(a), b = ftz(b), c = ftz(c);                                                         \
    return ftz_tiny(__nvvm_fma_##M##_f(a, b, c), fma_d((double)a, (double)b, (double)c));       \
  }                                                                                             \
  float __nvvm_add_##M##_f(float a, float b) {                                                  \
    float r = FAST_ADD(float, directed_f, a, b, MODE, ROUNDED(MODE, float, a + b)); return canon_f(r);                                   \
  }                                                                                             \
  float __nvvm_add_##M##_ftz_f(float a, float b) {                                              \
    a = ftz(a), b = ftz(b);                                                                     \
    return ftz_tiny(__nvvm_add_##M##_f(a, b), (double)a + (double)b);                           \
  }                                                                                             \
  float __nvvm_mul_##M##_f(float a, float b) {                                                  \
    float r = FAST_MUL(float, directed_f, fma_f, a, b, MODE, LO_F, HI_F, ROUNDED(MODE, float, a * b)); return canon_f(r);                                   \
  }                                                                                             \
  float __nvvm_mul_##M##_ftz_f(float a, float b) {                                              \
    a = ftz(a), b = ftz(b);                                                                     \
    return ftz_tiny(__nvvm_mul_##M##_f(a, b), (double)a * (double)b);                           \
  }                                                                                             \
  float __nvvm_div_##M##_f(float a, float b) {                                                  \
    float r = FAST_DIV(float, directed_f, fma_f, a, b, MODE, LO_F, HI_F, ROUNDED(MODE, float, a / b)); return canon_f(r);                                   \
  }                                                                                             \
  float __nvvm_div_##M##_ftz_f(float a, float b) {                                              \
    a = ftz(a), b = ftz(b);                                                                     \
    return ftz_tiny(__nvvm_div_##M##_f(a, b), (double)a / (double)b);                           \
  }                                                                                             \
  float __nvvm_rcp_##M##_f(float a) { return __nvvm_div_##M##_f(1.0f, a); }                     \
  float __nvvm_rcp_##M##_ftz_f(float a) { return __nvvm_div_##M##_ftz_f(1.0f, a); }             \
  float __nvvm_sqrt_##M##_f(float a) {                                                          \
    float r = FAST_SQRT(float, directed_f, fma_f, sqrtf, a, MODE, LO_F, HI_F, ROUNDED(MODE, float, sqrtf(a))); return canon_f(r);                                \
  }                                                                                             \
  float __nvvm_sqrt_##M##_ftz_f(float a) { return ftz(__nvvm_sqrt_##M##_f(ftz(a))); }           \
  double __nvvm_fma_##M##_d(double a, double b, double c) {                                     \
    double r = ROUNDED(MODE, double, fma_d(a, b, c)); return nan3_d(a, b, c, r);                \
  }                                                                                             \
  double __nvvm_add_##M##_d(double a, double b) {                                               \
    double r = FAST_ADD(double, directed_d, a, b, MODE, ROUNDED(MODE, double, a + b)); return nan2_d(a, b, r);                            \
  }                                                                                             \
  double __nvvm_mul_##M##_d(double a, double b) {                                               \
    double r = FAST_MUL(double, directed_d, fma_d, a, b, MODE, LO_D, HI_D, ROUNDED(MODE, double, a * b)); return nan2_d(a, b, r);                            \
  }                                                                                             \
  double __nvvm_div_##M##_d(double a, double b) {                                               \
    double r = FAST_DIV(double, directed_d, fma_d, a, b, MODE, LO_D, HI_D, ROUNDED(MODE, double, a / b)); return nan2_d(a, b, r);                            \
  }                                                                                             \
  double __nvvm_rcp_##M##_d(double a) { return __nvvm_div_##M##_d(1.0, a); }                    \
  double __nvvm_sqrt_##M##_d(double a) {                                                        \
    double r = FAST_SQRT(double, directed_d, fma_d, sqrt, a, MODE, LO_D, HI_D, ROUNDED(MODE, double, sqrt(a))); return canon_d(r);                               \
  }
MODES(FOPS)

// libdevice's plain IR arithmetic (fadd/fsub/fmul/fdiv): round to nearest, never contracted.
float __cuemu_fadd_f(float a, float b) { return canon_f(a + b); }
float __cuemu_fsub_f(float a, float b) { return canon_f(a - b); }
float __cuemu_fmul_f(float a, float b) { return canon_f(a * b); }
float __cuemu_fdiv_f(float a, float b) { return canon_f(a / b); }
// The -ftz=true build (rewrite.py --ftz): libdevice's plain float arithmetic as NVVM compiles it
// under -ftz, subnormal operands and results flushed to zero of their sign; comparisons and
// widening to double see flushed operands.
float __cuemu_ftz_f(float x) { return canon_f(ftz(x)); }  // cvt.ftz.f64.f32: a NaN canonical
float __cuemu_fadd_f_ftz(float a, float b) { return __nvvm_add_rn_ftz_f(a, b); }
float __cuemu_fsub_f_ftz(float a, float b) { return __nvvm_add_rn_ftz_f(a, -b); }
float __cuemu_fmul_f_ftz(float a, float b) { return __nvvm_mul_rn_ftz_f(a, b); }
float __cuemu_fdiv_f_ftz(float a, float b) { return __nvvm_div_rn_ftz_f(a, b); }
double __cuemu_fadd_d(double a, double b) { return nan2_d(a, b, a + b); }
double __cuemu_fsub_d(double a, double b) { return nan2_d(a, b, a - b); }
double __cuemu_fmul_d(double a, double b) { return nan2_d(a, b, a * b); }
double __cuemu_fdiv_d(double a, double b) { return nan2_d(a, b, a / b); }

// ---- conversions ----
// Float to integer: rounded in the direction, saturated (cvt.*i). A NaN gives 0 from a float to
// a 32-bit integer and the sign bit alone (0x80000000, 0x8000000000000000) from a float to a
// 64-bit integer or from a double to any, signed or not, as the H200 record shows.
#define F2I(NAME, T, LO, HI, ARG, ROUND, NAN_RESULT)                                            \
  T NAME(ARG x) {                                                                               \
    if (x != x) return (T)(NAN_RESULT);                                                         \
    ARG r = ROUND(x);                                                                           \
    if (r <= (ARG)(LO)) return (T)(LO);                                                         \
    if (r >= (ARG)(HI)) return (T)(HI);                                                         \
    return (T)r;                                                                                \
  }
#define F2I_ALL(SUF, R)                                                                         \
  F2I(__nvvm_f2i_##SUF, int32_t, INT32_MIN, INT32_MAX, float, R##_f, 0)                         \
  F2I(__nvvm_f2ui_##SUF, uint32_t, 0, UINT32_MAX, float, R##_f, 0)                              \
  F2I(__nvvm_f2ll_##SUF, int64_t, INT64_MIN, INT64_MAX, float, R##_f, 1ull << 63)               \
  F2I(__nvvm_f2ull_##SUF, uint64_t, 0, UINT64_MAX, float, R##_f, 1ull << 63)                    \
  F2I(__nvvm_d2i_##SUF, int32_t, INT32_MIN, INT32_MAX, double, R##_d, 1u << 31)                 \
  F2I(__nvvm_d2ui_##SUF, uint32_t, 0, UINT32_MAX, double, R##_d, 1u << 31)                      \
  F2I(__nvvm_d2ll_##SUF, int64_t, INT64_MIN, INT64_MAX, double, R##_d, 1ull << 63)              \
  F2I(__nvvm_d2ull_##SUF, uint64_t, 0, UINT64_MAX, double, R##_d, 1ull << 63)                   \
  int32_t __nvvm_f2i_##SUF##_ftz(float x) { return __nvvm_f2i_##SUF(ftz(x)); }                  \
  uint32_t __nvvm_f2ui_##SUF##_ftz(float x) { return __nvvm_f2ui_##SUF(ftz(x)); }               \
  int64_t __nvvm_f2ll_##SUF##_ftz(float x) { return __nvvm_f2ll_##SUF(ftz(x)); }                \
  uint64_t __nvvm_f2ull_##SUF##_ftz(float x) { return __nvvm_f2ull_##SUF(ftz(x)); }
F2I_ALL(rn, rint)
F2I_ALL(rz, trunc)
F2I_ALL(rm, floor)
F2I_ALL(rp, ceil)
// The saturation bounds above compare in the source type: INT32_MAX as a float is 2^31, so
// x >= 2^31 saturates, as it should; the 64-bit bounds likewise.

// libdevice's plain fptosi/fptoui/fptrunc: as the GPU's cvt.rzi / cvt.rn.
int32_t __cuemu_fptosi_f_i32(float x) { return __nvvm_f2i_rz(x); }
uint32_t __cuemu_fptoui_f_i32(float x) { return __nvvm_f2ui_rz(x); }
int32_t __cuemu_fptosi_d_i32(double x) { return __nvvm_d2i_rz(x); }
int64_t __cuemu_fptosi_d_i64(double x) { return __nvvm_d2ll_rz(x); }
float __cuemu_fptrunc_d_float(double x) { return canon_f((float)x); }
float __cuemu_fptrunc_d_float_ftz(double x) { return ftz(canon_f((float)x)); }

// Integer to float in a direction.
#define I2F(M, MODE)                                                                            \
  float __nvvm_i2f_##M(int32_t x) { float r = ROUNDED(MODE, float, (float)x); return r; }       \
  float __nvvm_ui2f_##M(uint32_t x) { float r = ROUNDED(MODE, float, (float)x); return r; }     \
  float __nvvm_ll2f_##M(int64_t x) { float r = ROUNDED(MODE, float, (float)x); return r; }      \
  float __nvvm_ull2f_##M(uint64_t x) { float r = ROUNDED(MODE, float, (float)x); return r; }    \
  double __nvvm_ll2d_##M(int64_t x) { double r = ROUNDED(MODE, double, (double)x); return r; }  \
  double __nvvm_ull2d_##M(uint64_t x) { double r = ROUNDED(MODE, double, (double)x); return r; } \
  float __nvvm_d2f_##M(double x) { float r = ROUNDED(MODE, float, (float)x); return canon_f(r); } \
  float __nvvm_d2f_##M##_ftz(double x) { return ftz(__nvvm_d2f_##M(x)); }
MODES(I2F)
double __nvvm_i2d_rn(int32_t x) { return (double)x; }
double __nvvm_ui2d_rn(uint32_t x) { return (double)x; }

// float -> half bits, to nearest even (cvt.rn.f16.f32); NaN gives 0x7fff.
static uint16_t f2h(float f) {
  const u32 u = fbits(f);
  const u32 sign = (u >> 16) & 0x8000u;
  const u32 a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return 0x7fffu;
  if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);  // rounds to inf
  if (a < 0x38800000u) {                                    // half subnormal or zero
    const float s = bitsf(a) * 16777216.0f;                 // x / 2^-24, exact
    return (uint16_t)(sign | (u32)rintf(s));
  }
  const u32 m = a + 0xc8000fffu + ((a >> 13) & 1u);         // rebias and round to nearest even
  return (uint16_t)(sign | (m >> 13));
}
uint16_t __nvvm_f2h_rn(float f) { return f2h(f); }
uint16_t __nvvm_f2h_rn_ftz(float f) { return f2h(ftz(f)); }

// ---- exact helpers ----
// abs is arithmetic on the GPU: a float NaN gives the canonical NaN, a double NaN itself, quieted
// and with its sign (the H200 record: fabsf, fabs).
float __nvvm_fabs_f(float x) { return canon_f(fabsf(x)); }
float __nvvm_fabs_ftz_f(float x) { return canon_f(fabsf(ftz(x))); }
double __nvvm_fabs_d(double x) { return x != x ? quiet_d(x) : fabs(x); }
// Rounding a float to an integer (cvt.rmi/rpi/rzi/rni.f32.f32): a NaN gives the canonical NaN
// (modff's integral part on the H200).
float __nvvm_floor_f(float x) { return canon_f(floor_f(x)); }
float __nvvm_floor_ftz_f(float x) { return canon_f(floor_f(ftz(x))); }
double __nvvm_floor_d(double x) { return floor_d(x); }
float __nvvm_ceil_f(float x) { return canon_f(ceil_f(x)); }
float __nvvm_ceil_ftz_f(float x) { return canon_f(ceil_f(ftz(x))); }
double __nvvm_ceil_d(double x) { return ceil_d(x); }
float __nvvm_trunc_f(float x) { return canon_f(trunc_f(x)); }
double __nvvm_trunc_d(double x) { return trunc_d(x); }
float __nvvm_round_f(float x) { return canon_f(rint_f(x)); }   // cvt.rni: to nearest even
double __nvvm_round_d(double x) { return rint_d(x); }
float __nvvm_saturate_f(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
float __nvvm_saturate_ftz_f(float x) { return __nvvm_saturate_f(ftz(x)); }
// min/max: a NaN operand gives the other one, two NaNs the canonical NaN, -0 < +0.
static inline float fmin_gpu(float a, float b) {
  if (a != a) return b != b ? bitsf(0x7fffffffu) : b;
  if (b != b) return a;
  if (a == b) return (fbits(a) & 0x80000000u) ? a : b;
  return a < b ? a : b;
}
static inline float fmax_gpu(float a, float b) {
  if (a != a) return b != b ? bitsf(0x7fffffffu) : b;
  if (b != b) return a;
  if (a == b) return (fbits(a) & 0x80000000u) ? b : a;
  return a > b ? a : b;
}
float __nvvm_fmin_f(float a, float b) { return fmin_gpu(a, b); }
float __nvvm_fmin_ftz_f(float a, float b) { return fmin_gpu(ftz(a), ftz(b)); }
float __nvvm_fmax_f(float a, float b) { return fmax_gpu(a, b); }
float __nvvm_fmax_ftz_f(float a, float b) { return fmax_gpu(ftz(a), ftz(b)); }
double __nvvm_fmin_d(double a, double b) {
  if (a != a) return b != b ? quiet_d(a) : b;
  if (b != b) return a;
  if (a == b) return (dbits(a) >> 63) ? a : b;
  return a < b ? a : b;
}
double __nvvm_fmax_d(double a, double b) {
  if (a != a) return b != b ? quiet_d(a) : b;
  if (b != b) return a;
  if (a == b) return (dbits(a) >> 63) ? b : a;
  return a > b ? a : b;
}
int32_t __nvvm_d2i_lo(double d) { return (int32_t)(u32)dbits(d); }
int32_t __nvvm_d2i_hi(double d) { return (int32_t)(u32)(dbits(d) >> 32); }
double __nvvm_lohi_i2d(int32_t lo, int32_t hi) { return bitsd((u64)(u32)hi << 32 | (u32)lo); }
int32_t __nvvm_mulhi_i(int32_t a, int32_t b) { return (int32_t)(((int64_t)a * b) >> 32); }
uint32_t __nvvm_mulhi_ui(uint32_t a, uint32_t b) { return (uint32_t)(((u64)a * b) >> 32); }
int64_t __nvvm_mulhi_ll(int64_t a, int64_t b) { return (int64_t)(((__int128)a * b) >> 64); }
uint64_t __nvvm_mulhi_ull(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }
int32_t __nvvm_sad_i(int32_t a, int32_t b, int32_t c) { return (a > b ? (u32)a - (u32)b : (u32)b - (u32)a) + (u32)c; }
uint32_t __nvvm_sad_ui(uint32_t a, uint32_t b, uint32_t c) { return (a > b ? a - b : b - a) + c; }
uint32_t __nvvm_prmt(uint32_t a, uint32_t b, uint32_t s) {
  const u64 v = (u64)b << 32 | a;
  u32 r = 0;
  for (int n = 0; n < 4; ++n) {
    const u32 sel = (s >> (4 * n)) & 7u;
    r |= (u32)((v >> (8 * sel)) & 0xffu) << (8 * n);
  }
  return r;
}

// ---- The special function unit ----
// MUFU.RCP/RSQ/SQRT/EX2/LG2/SIN/COS/TANH/RCP64H/RSQ64H are sfu.c's models of the H200's unit
// (TANH a packed table of its results). Around MUFU, each PTX instruction is what ptxas 13.0 emits
// for sm_90 (its non-ftz forms scale denormal inputs into range with ordinary FMULs).
float __cuemu_mufu_rcp(float), __cuemu_mufu_rsq(float), __cuemu_mufu_sqrt(float),
    __cuemu_mufu_ex2(float), __cuemu_mufu_lg2(float), __cuemu_mufu_sin(float), __cuemu_mufu_cos(float),
    __cuemu_mufu_tanh(float);
double __cuemu_mufu_rcp64h(double), __cuemu_mufu_rsq64h(double);

// sin/cos.approx: FMUL.RZ by 1/(2 pi) as a float, then MUFU.SIN/COS (which flushes a denormal
// product, so the ftz and non-ftz forms agree). The product of two floats is exact in double.
static float revolutions(float x) {
  const double p = (double)x * (double)0.15915493667125701904f;
  float r = (float)p;
  if (fabs((double)r) > fabs(p)) r = bitsf(fbits(r) - 1);  // one ulp toward zero
  return r;
}

static inline int below_normal(float x) { return !(fabsf(x) >= 0x1p-126f) && x == x; }

// ex2.approx.f32: FSETP.GEU x, -126; inputs below it are halved and the result squared.
float __nvvm_ex2_approx_f(float x) {
  if (x < -126.0f) {
    const float y = __cuemu_mufu_ex2(__cuemu_fmul_f(x, 0.5f));
    return __cuemu_fmul_f(y, y);
  }
  return __cuemu_mufu_ex2(x);
}
float __nvvm_ex2_approx_ftz_f(float x) { return __cuemu_mufu_ex2(x); }
float __nvvm_lg2_approx_f(float x) {
  if (below_normal(x)) return __cuemu_fadd_f(__cuemu_mufu_lg2(__cuemu_fmul_f(x, 0x1p24f)), -24.0f);
  return __cuemu_mufu_lg2(x);
}
float __nvvm_lg2_approx_ftz_f(float x) { return __cuemu_mufu_lg2(x); }
float __nvvm_rsqrt_approx_f(float x) {
  if (below_normal(x))
    return __cuemu_fmul_f(__cuemu_mufu_rsq(__cuemu_fmul_f(x, 0x1p24f)), 4096.0f);
  return __cuemu_mufu_rsq(x);
}
float __nvvm_rsqrt_approx_ftz_f(float x) { return __cuemu_mufu_rsq(x); }
float __nvvm_sqrt_approx_f(float x) {
  if (below_normal(x))
    return __cuemu_fmul_f(__cuemu_mufu_sqrt(__cuemu_fmul_f(x, 0x1p24f)), 0x1p-12f);
  return __cuemu_mufu_sqrt(x);
}
float __nvvm_sqrt_approx_ftz_f(float x) { return __cuemu_mufu_sqrt(x); }
float __nvvm_sin_approx_f(float x) { return __cuemu_mufu_sin(revolutions(x)); }
float __nvvm_sin_approx_ftz_f(float x) { return __cuemu_mufu_sin(revolutions(ftz(x))); }
float __nvvm_cos_approx_f(float x) { return __cuemu_mufu_cos(revolutions(x)); }
float __nvvm_cos_approx_ftz_f(float x) { return __cuemu_mufu_cos(revolutions(ftz(x))); }
float __nvvm_tanh_approx_f32(float x) { return __cuemu_mufu_tanh(x); }
// div.approx.f32: a divisor below the normal range scales both operands by 2^24; then
// a * MUFU.RCP(b).
float __nvvm_div_approx_f(float a, float b) {
  if (below_normal(b)) { a = __cuemu_fmul_f(a, 0x1p24f); b = __cuemu_fmul_f(b, 0x1p24f); }
  return __cuemu_fmul_f(__cuemu_mufu_rcp(b), a);
}
float __nvvm_div_approx_ftz_f(float a, float b) {
  return ftz(__cuemu_fmul_f(ftz(a), __cuemu_mufu_rcp(b)));
}
// div.full.f32 (float division under -prec-div=false): a divisor above 2^126 scales both
// operands by 1/4, then as div.approx (fitted to the math probe's op_fdiv on an H200, 425 of 425).
float __nvvm_div_full_f(float a, float b) {
  if (fabsf(b) > 0x1p126f) { a = __cuemu_fmul_f(a, 0.25f); b = __cuemu_fmul_f(b, 0.25f); }
  return __nvvm_div_approx_f(a, b);
}
float __nvvm_div_full_ftz_f(float a, float b) {
  if (fabsf(b) > 0x1p126f) { a = __cuemu_fmul_f(a, 0.25f); b = __cuemu_fmul_f(b, 0.25f); }
  return __nvvm_div_approx_ftz_f(a, b);
}
// libdevice's own float divisions in those builds (rewrite.py --div).
float __cuemu_fdiv_full_f(float a, float b) { return __nvvm_div_full_f(a, b); }
float __cuemu_fdiv_full_f_ftz(float a, float b) { return __nvvm_div_full_ftz_f(a, b); }
float __cuemu_fdiv_approx_f(float a, float b) { return __nvvm_div_approx_f(a, b); }
float __cuemu_fdiv_approx_f_ftz(float a, float b) { return __nvvm_div_approx_ftz_f(a, b); }
// rcp.approx.ftz.f64 is MUFU.RCP64H alone: 20 significand bits in, the high word out.
double __nvvm_rcp_approx_ftz_d(double x) { return __cuemu_mufu_rcp64h(x); }
// rsqrt.approx.f64: MUFU.RSQ64H and one refinement, y + (y*e)*(0.5 + 0.375*e) with
// e = 1 - x*y*y; zero, infinity, NaN, negative and denormal inputs on ptxas's slow path.
static double rsqrt64_refine(double x) {
  const double y = __cuemu_mufu_rsq64h(x);
  const double e = fma(x, -(y * y), 1.0);
  return fma(fma(e, 0.375, 0.5), y * e, y);
}
double __nvvm_rsqrt_approx_d(double x) {
  const u32 hi = (u32)(dbits(x) >> 32);
  if (hi - 0x100000u < 0x7fe00000u) return rsqrt64_refine(x);
  if (x == 0) return bitsd((u64)((hi & 0x80000000u) | 0x7ff00000u) << 32);
  if (x != x) return x + x;
  if (hi & 0x80000000u) return bitsd(0xfff8000000000000ull);
  if (x == INFINITY) return 0.0;
  return rsqrt64_refine(x * 0x1p54) * 0x1p27;
}
double __nvvm_rsqrt_approx_ftz_d(double x) { return __cuemu_mufu_rsq64h(x); }

// ---- libdevice's inline PTX (rewrite.py maps each asm string to one of these) ----
#define ASM_SUB(M, MODE)                                                                        \
  float __asm_sub_##M##_f32(float a, float b) {                                                 \
    float r = FAST_ADD(float, directed_f, a, -b, MODE, ROUNDED(MODE, float, a - b)); return canon_f(r);                                   \
  }                                                                                             \
  float __asm_sub_##M##_ftz_f32(float a, float b) { return ftz(__asm_sub_##M##_f32(ftz(a), ftz(b))); } \
  double __asm_sub_##M##_f64(double a, double b) {                                              \
    double r = FAST_ADD(double, directed_d, a, -b, MODE, ROUNDED(MODE, double, a - b)); return nan2_d(a, b, r);                            \
  }
MODES(ASM_SUB)
// bfind.shiftamt.u32: the left shift that brings the highest set bit to bit 31; 0xffffffff for 0.
uint32_t __asm_bfind_shiftamt_u32(uint32_t x) { return x ? (uint32_t)__builtin_clz(x) : 0xffffffffu; }
// setp.equ.f64 p, a, b; selp.f64 r, c, d, p: c when a == b or either is NaN.
double __asm_selp_equ_f64(double a, double b, double c, double d) {
  return (a == b || a != a || b != b) ? c : d;
}
// rcp.approx.ftz.f32 (MUFU.RCP) and rsqrt.approx.ftz.f64 (MUFU.RSQ64H).
float __asm_rcp_approx_ftz_f32(float x) { return __cuemu_mufu_rcp(x); }
double __asm_rsqrt_approx_ftz_f64(double x) { return __cuemu_mufu_rsq64h(x); }

// llvm.convert.from.fp16 (in __nv_half2float) lowers to this libcall on x86-64 with LLVM 14.
float __gnu_h2f_ieee(uint16_t h) {
  const u32 sign = (u32)(h & 0x8000u) << 16;
  const u32 e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1f) return bitsf(sign | 0x7f800000u | m << 13);
  if (e != 0) return bitsf(sign | (e + 112) << 23 | m << 13);
  return bitsf(sign) + (sign ? -1.0f : 1.0f) * (float)m * 0x1p-24f;
}
