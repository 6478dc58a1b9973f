// A model of one MUFU operation over its key (see sfu.c), shared by sfu.c and the program that
// fits it at build time (sfu_fit.c), so that both compute a prediction the same way.
//
// The unit interpolates: a key's top bits choose a segment, its low UB bits a point u in it, and
// the result is a quadratic in u whose square term carries an error that depends on u alone
// (the squarer's). So per segment three coefficients, per u the squarer's error, all in fixed
// point, give floor(c0 + c1 u + c2 q(u)) ulps of the segment, in integer arithmetic. The
// keys where that is not the GPU's result (about 0.1% of them) are exceptions, found at build
// time by comparing every key with the table, and kept in a small hash table with their exact
// bits. The model is exact on every key by construction; the fit only decides how many
// exceptions there are, so how small and fast the model is.
#ifndef CUEMU_SFU_MODEL_H
#define CUEMU_SFU_MODEL_H
#include <stdint.h>

// An entry of a table of sfu/ (NAME.2b): the GPU's result for key K minus the correctly
// rounded value, -2..1 ulps, two bits per key, four keys per byte, the lowest in the low bits.
static inline int sfu_table_delta(const unsigned char* t, uint32_t k) {
  return (int)((t[k >> 2] >> (2 * (k & 3))) & 3u) - 2;
}

typedef struct {
  int64_t c0;       // ulps * 2^32
  int64_t c1;       // ulps * 2^32 per step of u
  int64_t c2;       // ulps * 2^16 per unit of (u / 2^UB)^2
  int32_t ulp_exp;  // one ulp of the segment is 2^ulp_exp
  int32_t unused;
} sfu_segment;

// The exceptions: 2^exc_log2 buckets of 8 keys each (0xffffffff: an empty slot), each key in the
// bucket its hash names; one bucket is one cache line, compared without branches.
typedef struct {
  uint32_t key[8];
  uint32_t bits[8];
} sfu_bucket;

typedef struct {
  const sfu_segment* seg;
  const int16_t* err;  // the squarer's error at u, in units of 2^(err_shift - 2 UB)
  const sfu_bucket* exc;
  uint32_t ub;         // bits of u
  uint32_t err_shift;
  uint32_t exc_log2;
} sfu_model;

static inline __attribute__((always_inline)) uint32_t sfu_hash(uint32_t key, uint32_t log2) {
  return log2 ? (key * 0x9E3779B1u) >> (32 - log2) : 0;
}

// The float bits of the prediction for KEY, exceptions aside.
static inline __attribute__((always_inline)) uint32_t sfu_predict(const sfu_model* m, uint32_t key) {
  const sfu_segment* s = &m->seg[key >> m->ub];
  const uint32_t u = key & ((1u << m->ub) - 1);
  const int64_t q = (int64_t)u * u + ((int64_t)m->err[u] * (1 << m->err_shift));  // < 2^(2 UB + 1)
  // c2 * q < 2^62: checked by the fit.
  const int64_t y32 = s->c0 + s->c1 * (int64_t)u + ((s->c2 * q) >> (2 * m->ub - 16));
  const int64_t y = y32 >> 32;  // floor
  if (y >= (1 << 23) && y < (1 << 24))
    return (uint32_t)(s->ulp_exp + 23 + 127) << 23 | ((uint32_t)y & 0x7fffffu);
  union { float f; uint32_t b; } r;
  union { uint64_t b; double d; } scale = {(uint64_t)(1023 + s->ulp_exp) << 52};
  r.f = (float)((double)y * scale.d);
  return r.b;
}

// The exception for KEY: 1 and its bits in *BITS if KEY is one, else 0.
static inline __attribute__((always_inline)) int sfu_exception(const sfu_bucket* exc, uint32_t exc_log2,
                                                               uint32_t key, uint32_t* bits) {
  const sfu_bucket* b = &exc[sfu_hash(key, exc_log2)];
  uint32_t hit = 0;
  for (int i = 0; i < 8; ++i) hit |= (uint32_t)(b->key[i] == key) << i;
  if (__builtin_expect(hit != 0, 0)) {
    *bits = b->bits[__builtin_ctz(hit)];
    return 1;
  }
  return 0;
}

// The GPU's float bits for KEY.
static inline __attribute__((always_inline)) uint32_t sfu_model_bits(const sfu_model* m, uint32_t key) {
  uint32_t bits;
  if (sfu_exception(m->exc, m->exc_log2, key, &bits)) return bits;
  return sfu_predict(m, key);
}

// LG2 and SIN are not a float per key but fixed-point values (36 and 37 fraction bits: sfu.c), so
// their models give those values: the same interpolation, floor(c0 + c1 u + c2 q(u)),
// with the coefficients in units * 2^16 (c2 per unit of (u / 2^UB)^2, the product in 128 bits),
// and an exception's bits the difference from the prediction.
typedef struct {
  int64_t c0, c1, c2;
} sfu_fixed_segment;

typedef struct {
  const sfu_fixed_segment* seg;
  const int16_t* err;  // as sfu_model's
  const sfu_bucket* exc;
  uint32_t ub;
  uint32_t err_shift;
  uint32_t exc_log2;
} sfu_fixed_model;

static inline __attribute__((always_inline)) int64_t sfu_fixed_predict(const sfu_fixed_model* m, uint32_t key) {
  const sfu_fixed_segment* s = &m->seg[key >> m->ub];
  const uint32_t u = key & ((1u << m->ub) - 1);
  const int64_t q = (int64_t)u * u + ((int64_t)m->err[u] * (1 << m->err_shift));
  const int64_t sq = (int64_t)(((__int128)s->c2 * q) >> (2 * m->ub));
  return (s->c0 + s->c1 * (int64_t)u + sq) >> 16;  // floor
}

static inline __attribute__((always_inline)) int64_t sfu_fixed_value(const sfu_fixed_model* m, uint32_t key) {
  uint32_t bits;
  const int64_t y = sfu_fixed_predict(m, key);
  if (sfu_exception(m->exc, m->exc_log2, key, &bits)) return y + (int32_t)bits;
  return y;
}

// The float bits of A 2^-FRAC (A < 2^44) truncated toward zero: how the unit turns its
// fixed-point results into floats.
static inline __attribute__((always_inline)) uint32_t sfu_fixed_rz_bits(uint64_t a, int frac) {
  if (a == 0) return 0;
  const int n = 63 - __builtin_clzll(a);
  const uint64_t mant = n > 23 ? a >> (n - 23) : a << (23 - n);
  return (uint32_t)(n - frac + 127) << 23 | ((uint32_t)mant & 0x7fffffu);
}

// MUFU.LG2's result for a normal x = 2^ue * (1 + key 2^-23), x != 1, from L = L(key) in units of
// 2^-36: the sum ue + L truncated toward zero to a float; a negative sum is taken as its ones'
// complement first (-(|ue| - L - 2^-36)).
static inline __attribute__((always_inline)) uint32_t sfu_lg2_bits(int32_t ue, int64_t l) {
  const int64_t v = (int64_t)ue * ((int64_t)1 << 36) + l;
  if (v < 0) return 0x80000000u | sfu_fixed_rz_bits((uint64_t)(-v - 1), 36);
  return sfu_fixed_rz_bits((uint64_t)v, 36);
}

// MUFU.TANH has no model: a table of its results (sfu_fit.c's pack_tanh). The unit's result is
// x below 2^-8 and 1 from 8 on (odd in x); in each binade between, it depends on x with its low
// J bits cleared. The layout, per binade: {exponent field, J}.
#define SFU_TANH_BINADES 11
static const int sfu_tanh_layout[SFU_TANH_BINADES][2] = {
    {119, 6}, {120, 6}, {121, 6}, {122, 5}, {123, 5}, {124, 4},
    {125, 4}, {126, 4}, {127, 3}, {128, 2}, {129, 3}};

// 64 keys: the first result (in units of 2^-scale of its binade), the first difference, the
// smallest second difference and where the 62 second differences' offsets from it start in the
// stream (bit position << 5 | their width in bits).
struct sfu_tanh_block {
  uint32_t v0;
  int32_t d1;
  int32_t d2_min;
  uint32_t pos_width;
};

// The result's bits for key K of the binade whose blocks start at FIRST_BLOCK.
static inline uint32_t sfu_tanh_decode(const struct sfu_tanh_block* blocks, const unsigned char* stream,
                                       uint32_t first_block, int scale, uint32_t k) {
  const struct sfu_tanh_block* b = &blocks[first_block + (k >> 6)];
  const uint32_t w = b->pos_width & 31u, i = k & 63u;
  uint64_t pos = b->pos_width >> 5;
  const uint64_t mask = (1ull << w) - 1;
  int64_t v = b->v0, d = b->d1;
  for (uint32_t t = 0; t < i; ++t, pos += w) {
    v += d;
    uint64_t word;
    __builtin_memcpy(&word, stream + (pos >> 3), 8);
    d += b->d2_min + (int64_t)((word >> (pos & 7)) & mask);
  }
  // v 2^-scale, v < 2^32 with at most 24 significant bits: a normal float.
  const int n = 63 - __builtin_clzll((uint64_t)v);
  const uint32_t mant = (uint32_t)(n > 23 ? (uint64_t)v >> (n - 23) : (uint64_t)v << (23 - n));
  return (uint32_t)(n - scale + 127) << 23 | (mant & 0x7fffffu);
}
#endif
