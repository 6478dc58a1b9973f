// Fits the models of sfu_model.h to the GPU's tables, at build time (build.py runs it):
//
//   sfu_fit DIR OUT.h
//
// DIR holds the unpacked tables NAME.2b of sfu/ (per key, the GPU's result minus the correctly
// rounded value, -2..1 ulps), lg2.dd (fit_lg2), sin.dd (fit_sin) and tanh.dd (pack_tanh). For RCP, RSQ, SQRT and
// EX2 it rebuilds every key's GPU result,
// fits the segments' quadratics and the squarer's error by alternating least squares, puts
// them in fixed point, and compares sfu_predict with the GPU on every key: the keys that differ
// become the model's exceptions. OUT.h defines sfu_model_NAME for sfu.c. Prints one line per
// operation: keys, exceptions.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "sfu_model.h"

static const char* dir;

// The first BYTES bytes of DIR/FILE.
static void* load_file(const char* file, size_t bytes) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE* f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "sfu_fit: cannot open %s\n", path); exit(1); }
  void* t = malloc(bytes);
  if (fread(t, 1, bytes, f) != bytes) { fprintf(stderr, "sfu_fit: %s is short\n", path); exit(1); }
  fclose(f);
  return t;
}

static unsigned char* load(const char* name, size_t keys) {
  char file[256];
  snprintf(file, sizeof file, "%s.2b", name);
  return load_file(file, keys / 4);
}

// The correctly rounded value each key stands for, exactly as sfu_probe.cu computed it.
static double rsq_arg(u32 k) { return (1.0 + (k & 0x7fffffu) * 0x1p-23) * ((k >> 23) ? 2.0 : 1.0); }
static float ref_rcp(u32 k) { return (float)(1.0 / (1.0 + k * 0x1p-23)); }
static float ref_rsq(u32 k) { return (float)(1.0 / sqrt(rsq_arg(k))); }
static float ref_sqrt(u32 k) { return (float)sqrt(rsq_arg(k)); }
static float ref_ex2(u32 k) {
  const double v = (k & 0x7fffffu) * 0x1p-23;
  return (float)exp2((k >> 23) ? -v : v);
}

// Solves the 3x3 system A x = b (Gaussian elimination with partial pivoting).
static void solve3(double A[3][3], double b[3], double x[3]) {
  for (int c = 0; c < 3; ++c) {
    int p = c;
    for (int r = c + 1; r < 3; ++r)
      if (fabs(A[r][c]) > fabs(A[p][c])) p = r;
    for (int j = 0; j < 3; ++j) { double t = A[c][j]; A[c][j] = A[p][j]; A[p][j] = t; }
    { double t = b[c]; b[c] = b[p]; b[p] = t; }
    for (int r = c + 1; r < 3; ++r) {
      const double f = A[r][c] / A[c][c];
      for (int j = c; j < 3; ++j) A[r][j] -= f * A[c][j];
      b[r] -= f * b[c];
    }
  }
  for (int r = 2; r >= 0; --r) {
    double s = b[r];
    for (int j = r + 1; j < 3; ++j) s -= A[r][j] * x[j];
    x[r] = s / A[r][r];
  }
}

// The GPU's result for each of the 2^KEY_BITS keys of table NAME.
static u32* gpu_results(const char* name, u32 key_bits, float (*ref)(u32)) {
  const u32 keys = 1u << key_bits;
  unsigned char* t = load(name, keys);
  u32* gpu = malloc(sizeof(u32) * keys);
  for (u32 k = 0; k < keys; ++k) gpu[k] = fbits(ref(k)) + (u32)sfu_table_delta(t, k);
  free(t);
  return gpu;
}

// Places N keys into 2^log2 buckets of eight (about two per bucket; more buckets while one
// overflows), each with its bits.
static sfu_bucket* place(const u32* keys, const u32* bits, u32 n, u32* log2_out) {
  u32 log2 = 0;
  while ((2u << log2) < n) ++log2;
  sfu_bucket* exc = NULL;
  for (;; ++log2) {
    exc = realloc(exc, sizeof(sfu_bucket) << log2);
    memset(exc, 0xff, sizeof(sfu_bucket) << log2);
    u32 i = 0;
    for (; i < n; ++i) {
      sfu_bucket* b = &exc[sfu_hash(keys[i], log2)];
      int j = 0;
      while (j < 8 && b->key[j] != 0xffffffffu) ++j;
      if (j == 8) break;
      b->key[j] = keys[i];
      b->bits[j] = bits[i];
    }
    if (i == n) break;
  }
  *log2_out = log2;
  return exc;
}

static void print_buckets(FILE* out, const char* name, const sfu_bucket* exc, u32 log2) {
  fprintf(out, "static const sfu_bucket sfu_%s_exc[%u] __attribute__((aligned(64))) = {\n", name, 1u << log2);
  for (u32 i = 0; i < 1u << log2; ++i) {
    fprintf(out, "{{");
    for (int j = 0; j < 8; ++j) fprintf(out, "%uu,", exc[i].key[j]);
    fprintf(out, "},{");
    for (int j = 0; j < 8; ++j) fprintf(out, "%uu,", exc[i].bits[j]);
    fprintf(out, "}},\n");
  }
  fprintf(out, "};\n");
}

// Alternating least squares over KEYS targets in 2^UB points per segment, target k being
// [LO[k], HI[k] + 1): per segment the quadratic c0 + c1 x + c2 (x^2 + err(x)) (x = u / 2^UB)
// through the targets' middles, weighted by 1 / (HI - LO + 1); then per point the squarer's
// error err(x) every segment allows there (the middle of their intersection); ROUNDS times.
static void fit_segments(const double* lo, const double* hi, u32 keys, u32 ub, int rounds, double (*c)[3],
                         double* err) {
  const u32 points = 1u << ub, segs = keys >> ub;
  for (int round = 0; round < rounds; ++round) {
    for (u32 s = 0; s < segs; ++s) {
      double A[3][3] = {{0}}, b[3] = {0};
      for (u32 u = 0; u < points; ++u) {
        const u32 k = (s << ub) + u;
        const double x = (double)u / points, v[3] = {1.0, x, x * x + err[u]};
        const double y = 0.5 * (lo[k] + hi[k]) + 0.5, w = 1.0 / (hi[k] - lo[k] + 1);
        for (int i = 0; i < 3; ++i) {
          b[i] += w * v[i] * y;
          for (int j = 0; j < 3; ++j) A[i][j] += w * v[i] * v[j];
        }
      }
      solve3(A, b, c[s]);
    }
    if (round == rounds - 1) break;
    for (u32 u = 0; u < points; ++u) {
      const double x = (double)u / points;
      double l = -INFINITY, h = INFINITY;
      for (u32 s = 0; s < segs; ++s) {
        const u32 k = (s << ub) + u;
        const double y0 = c[s][0] + c[s][1] * x + c[s][2] * x * x;
        const double a = (lo[k] - y0) / c[s][2], z = (hi[k] + 1 - y0) / c[s][2];
        l = fmax(l, fmin(a, z));
        h = fmin(h, fmax(a, z));
      }
      err[u] = (l + h) / 2;
    }
  }
}

// The squarer's error per point in 16 bits, in units of 2^(*SHIFT - 2 UB).
static int16_t* squarer_table(const double* err, u32 ub, int* shift) {
  const u32 points = 1u << ub;
  double most = 0;
  for (u32 u = 0; u < points; ++u) most = fmax(most, fabs(ldexp(err[u], 2 * (int)ub)));
  *shift = 0;
  while (most / (1 << *shift) > 32000) ++*shift;
  int16_t* q = malloc(sizeof(int16_t) * points);
  for (u32 u = 0; u < points; ++u) q[u] = (int16_t)llround(ldexp(err[u], 2 * (int)ub - *shift));
  return q;
}

// Fits the model NAME to the first 2^KEY_BITS results of GPU, with 2^UB points per segment.
static void fit(FILE* out, const char* name, const u32* gpu, u32 key_bits, u32 ub) {
  const u32 keys = 1u << key_bits, points = 1u << ub, segs = keys >> ub;
  double* g = malloc(sizeof(double) * keys);  // the GPU's result in ulps of its segment
  int* ulp_exp = malloc(sizeof(int) * segs);
  for (u32 s = 0; s < segs; ++s) {
    ulp_exp[s] = (int)((gpu[(s << ub) + points / 2] >> 23) & 0xff) - 127 - 23;
    for (u32 u = 0; u < points; ++u) g[(s << ub) + u] = ldexp(bitsf(gpu[(s << ub) + u]), -ulp_exp[s]);
  }
  double* err = calloc(points, sizeof(double));  // the squarer's error at u, in units of 1
  double(*c)[3] = malloc(sizeof(double[3]) * segs);
  fit_segments(g, g, keys, ub, 4, c, err);  // each result's ulp: [g, g + 1)
  sfu_segment* seg = calloc(segs, sizeof(sfu_segment));
  int shift;
  int16_t* q = squarer_table(err, ub, &shift);
  for (u32 s = 0; s < segs; ++s) {
    seg[s].c0 = llround(ldexp(c[s][0], 32));
    seg[s].c1 = llround(ldexp(c[s][1], 32 - (int)ub));
    seg[s].c2 = llround(ldexp(c[s][2], 16));
    seg[s].ulp_exp = ulp_exp[s];
    if (fabs(c[s][2]) * ldexp(2.0, 2 * (int)ub) >= 0x1p62 / 65536) {
      fprintf(stderr, "sfu_fit: %s: segment %u's square term overflows\n", name, s);
      exit(1);
    }
  }
  sfu_model m = {seg, q, NULL, ub, (u32)shift, 0};
  u32 n = 0;
  u32* miss = malloc(sizeof(u32) * keys);
  for (u32 k = 0; k < keys; ++k)
    if (sfu_predict(&m, k) != gpu[k]) miss[n++] = k;
  u32* bits = malloc(sizeof(u32) * (n ? n : 1));
  for (u32 i = 0; i < n; ++i) bits[i] = gpu[miss[i]];
  u32 log2;
  sfu_bucket* exc = place(miss, bits, n, &log2);
  free(bits);
  m.exc = exc;
  m.exc_log2 = log2;
  for (u32 k = 0; k < keys; ++k)
    if (sfu_model_bits(&m, k) != gpu[k]) { fprintf(stderr, "sfu_fit: %s: key %u\n", name, k); exit(1); }
  printf("sfu_fit: %s: %u keys, %u segments of %u, %u exceptions (error shift %d)\n", name, keys, segs, points, n, shift);

  fprintf(out, "static const sfu_segment sfu_%s_seg[%u] = {\n", name, segs);
  for (u32 s = 0; s < segs; ++s)
    fprintf(out, "{%lldLL,%lldLL,%lldLL,%d,0},\n", (long long)seg[s].c0, (long long)seg[s].c1,
            (long long)seg[s].c2, seg[s].ulp_exp);
  fprintf(out, "};\nstatic const int16_t sfu_%s_err[%u] = {\n", name, points);
  for (u32 u = 0; u < points; ++u) fprintf(out, "%d,%s", q[u], (u % 16 == 15) ? "\n" : "");
  fprintf(out, "};\n");
  print_buckets(out, name, exc, log2);
  fprintf(out, "static const sfu_model sfu_model_%s = {sfu_%s_seg, sfu_%s_err, sfu_%s_exc, %u, %d, %u};\n",
          name, name, name, name, ub, shift, log2);
  free(miss); free(exc); free(q); free(seg); free(c); free(err); free(ulp_exp); free(g);
}

static void fit_table(FILE* out, const char* name, u32 key_bits, u32 ub, float (*ref)(u32)) {
  u32* gpu = gpu_results(name, key_bits, ref);
  fit(out, name, gpu, key_bits, ub);
  free(gpu);
}

// The integers v whose v 2^-FRAC truncates to the float F >= 0: [*LO, *HI].
static void truncated_to(float f, int frac, int64_t* lo, int64_t* hi) {
  *lo = (int64_t)ceil(ldexp(f, frac));
  *hi = (int64_t)ceil(ldexp(nextafterf(f, INFINITY), frac)) - 1;
}

// Fits a fixed-point model (sfu_fixed_model) to 2^KEY_BITS keys whose values must lie in
// [LO[k], HI[k]], with 2^UB points per segment: alternating least squares as in fit(), on the
// intervals' middles weighted by their narrowness; the keys whose prediction falls outside
// become exceptions holding the difference to the interval's middle. Every key is then checked:
// its value in its interval and CHECK(key, value) (the GPU's float bits from it).
static void fit_fixed(FILE* out, const char* name, const int64_t* lo, const int64_t* hi, u32 key_bits, u32 ub,
                      int (*check)(u32 key, int64_t v)) {
  const u32 keys = 1u << key_bits, points = 1u << ub, segs = keys >> ub;
  double* err = calloc(points, sizeof(double));
  double(*c)[3] = malloc(sizeof(double[3]) * segs);
  double* dlo = malloc(sizeof(double) * keys);
  double* dhi = malloc(sizeof(double) * keys);
  for (u32 k = 0; k < keys; ++k) dlo[k] = (double)lo[k], dhi[k] = (double)hi[k];
  fit_segments(dlo, dhi, keys, ub, 8, c, err);
  free(dlo); free(dhi);
  sfu_fixed_segment* seg = calloc(segs, sizeof(sfu_fixed_segment));
  int shift;
  int16_t* q = squarer_table(err, ub, &shift);
  for (u32 s = 0; s < segs; ++s) {
    seg[s].c0 = llround(ldexp(c[s][0], 16));
    seg[s].c1 = llround(ldexp(c[s][1], 16 - (int)ub));
    seg[s].c2 = llround(ldexp(c[s][2], 16));
  }
  sfu_fixed_model m = {seg, q, NULL, ub, (u32)shift, 0};
  u32 n = 0;
  u32* miss = malloc(sizeof(u32) * keys);
  u32* delta = malloc(sizeof(u32) * keys);
  for (u32 k = 0; k < keys; ++k) {
    const int64_t y = sfu_fixed_predict(&m, k);
    if (y < lo[k] || y > hi[k]) {
      miss[n] = k;
      delta[n++] = (u32)(int32_t)((lo[k] + hi[k]) / 2 - y);
    }
  }
  u32 log2;
  sfu_bucket* exc = place(miss, delta, n, &log2);
  m.exc = exc;
  m.exc_log2 = log2;
  for (u32 k = 0; k < keys; ++k) {
    const int64_t v = sfu_fixed_value(&m, k);
    if (v < lo[k] || v > hi[k] || !check(k, v)) {
      fprintf(stderr, "sfu_fit: %s: key %u\n", name, k);
      exit(1);
    }
  }
  printf("sfu_fit: %s: %u keys, %u segments of %u, %u exceptions (error shift %d)\n", name, keys, segs, points, n, shift);
  fprintf(out, "static const sfu_fixed_segment sfu_%s_seg[%u] = {\n", name, segs);
  for (u32 s = 0; s < segs; ++s)
    fprintf(out, "{%lldLL,%lldLL,%lldLL},\n", (long long)seg[s].c0, (long long)seg[s].c1, (long long)seg[s].c2);
  fprintf(out, "};\nstatic const int16_t sfu_%s_err[%u] = {\n", name, points);
  for (u32 u = 0; u < points; ++u) fprintf(out, "%d,%s", q[u], (u % 16 == 15) ? "\n" : "");
  fprintf(out, "};\n");
  print_buckets(out, name, exc, log2);
  fprintf(out, "static const sfu_fixed_model sfu_model_%s = {sfu_%s_seg, sfu_%s_err, sfu_%s_exc, %u, %d, %u};\n",
          name, name, name, name, ub, shift, log2);
  free(miss); free(delta); free(exc); free(q); free(seg); free(c); free(err);
}

// LG2 (see sfu.c): sfu/lg2.dd holds the GPU's results for x in [1, 2) and then in [0.5, 1), per
// key (the significand) the difference of its float bits from the previous key's (int32; the
// first key's from 0). ue = 0 gives L truncated to a float, ue = -1 the truncated ones'
// complement 1 - L - 2^-36: together, for every key, the interval [lo, hi] of the values of L (in
// units of 2^-36) that give both results, and every other exponent's result with them. (x = 1
// gives 0 whatever L(0) is: the one key whose [1, 2) result is not L's.) The model is fitted to
// the intervals, each key's prediction must lie in its interval, and the keys where it does not
// become exceptions holding the difference to the interval's middle.
static const u32* gpu_lg2;  // the results of [1, 2), then [0.5, 1)
static int check_lg2(u32 k, int64_t l) {
  return (k == 0 || sfu_lg2_bits(0, l) == gpu_lg2[k]) && sfu_lg2_bits(-1, l) == gpu_lg2[(1u << 23) + k];
}

static void fit_lg2(FILE* out) {
  const u32 keys = 1u << 23;
  const int64_t one = (int64_t)1 << 36;
  int32_t* dd = (int32_t*)load_file("lg2.dd", 8 * (size_t)keys);
  u32* gpu = malloc(sizeof(u32) * 2 * keys);  // [1, 2), then [0.5, 1)
  for (u32 h = 0; h < 2; ++h) {
    u32 bits = 0;
    for (u32 k = 0; k < keys; ++k) gpu[h * keys + k] = bits += (u32)dd[h * keys + k];
  }
  free(dd);
  if (gpu[0] != 0) { fprintf(stderr, "sfu_fit: lg2: LG2(1) is not 0\n"); exit(1); }
  int64_t* lo = malloc(sizeof(int64_t) * keys);
  int64_t* hi = malloc(sizeof(int64_t) * keys);
  for (u32 k = 0; k < keys; ++k) {
    int64_t l1, h1, l, h;
    truncated_to(-bitsf(gpu[keys + k]), 36, &l1, &h1);  // 2^36 - 1 - L, truncated
    l = one - 1 - h1;
    h = one - 1 - l1;
    if (k != 0) {
      int64_t l0, h0;
      truncated_to(bitsf(gpu[k]), 36, &l0, &h0);  // L, truncated
      l = l > l0 ? l : l0;
      h = h < h0 ? h : h0;
    }
    if (l > h) { fprintf(stderr, "sfu_fit: lg2: key %u: no L gives both results\n", k); exit(1); }
    lo[k] = l;
    hi[k] = h;
  }
  gpu_lg2 = gpu;
  fit_fixed(out, "lg2", lo, hi, 23, 17, check_lg2);
  free(lo); free(hi); free(gpu);
}

// SIN and COS (see sfu.c): one function S of the 23 low bits f of the quadrant's fixed-point
// fraction, sin(2 pi f 2^-25) as a fixed-point value with 37 fraction bits truncated to a float.
// sfu/sin.dd holds S's results (float bits) per f, delta-coded as lg2.dd.
static const u32* gpu_sin;
static int check_sin(u32 k, int64_t v) { return v >= 0 && sfu_fixed_rz_bits((uint64_t)v, 37) == gpu_sin[k]; }

static void fit_sin(FILE* out) {
  const u32 keys = 1u << 23;
  int32_t* dd = (int32_t*)load_file("sin.dd", 4 * (size_t)keys);
  u32* gpu = malloc(sizeof(u32) * keys);
  u32 bits = 0;
  for (u32 k = 0; k < keys; ++k) gpu[k] = bits += (u32)dd[k];
  free(dd);
  int64_t* lo = malloc(sizeof(int64_t) * keys);
  int64_t* hi = malloc(sizeof(int64_t) * keys);
  for (u32 k = 0; k < keys; ++k) {
    const float f = bitsf(gpu[k]);
    if (!(f >= 0.0f) || f > 1.0f) { fprintf(stderr, "sfu_fit: sin: key %u: %a\n", k, f); exit(1); }
    truncated_to(f, 37, &lo[k], &hi[k]);
  }
  gpu_sin = gpu;
  fit_fixed(out, "sin", lo, hi, 23, 17, check_sin);
  free(lo); free(hi); free(gpu);
}

// TANH (see sfu.c): no model; sfu/tanh.dd holds the GPU's results (float bits, delta-coded as
// lg2.dd) of every key of the binades 2^-8 <= |x| < 8, the key being x with its low bits
// cleared (sfu_tanh_layout). They are packed here for random access: per binade, the results as
// integers in units of the smallest result's ulp; per block of 64 keys, the first value, the
// first difference, and the 62 second differences as unsigned offsets from their minimum in as
// many bits as they need. Writes DIR/tanh.pack (sfu.c includes it) and the binades' block
// indexes and scales to OUT.h; decodes every key again and compares.
static void pack_tanh(FILE* out) {
  u32 keys = 0;
  for (int i = 0; i < SFU_TANH_BINADES; ++i) keys += 1u << (23 - sfu_tanh_layout[i][1]);
  int32_t* dd = (int32_t*)load_file("tanh.dd", 4 * (size_t)keys);
  u32* gpu = malloc(sizeof(u32) * keys);
  u32 bits = 0;
  for (u32 k = 0; k < keys; ++k) gpu[k] = bits += (u32)dd[k];
  free(dd);
  const u32 blocks = keys / 64;
  struct sfu_tanh_block* hdr = calloc(blocks, sizeof *hdr);
  unsigned char* stream = calloc((size_t)blocks * 62 * 32 / 8 + 16, 1);
  u64 pos = 0;
  u32 first = 0, block = 0;
  int scale[SFU_TANH_BINADES];
  u32 first_block[SFU_TANH_BINADES];
  for (int i = 0; i < SFU_TANH_BINADES; ++i) {
    const u32 n = 1u << (23 - sfu_tanh_layout[i][1]);
    u32 min_e = 255;
    for (u32 k = 0; k < n; ++k) {
      const u32 r = gpu[first + k];
      if ((r >> 31) || ((r >> 23) & 0xff) == 0 || r >= 0x3f800000u) {
        fprintf(stderr, "sfu_fit: tanh: binade %d key %u: result %08x\n", sfu_tanh_layout[i][0], k, r);
        exit(1);
      }
      if (((r >> 23) & 0xff) < min_e) min_e = (r >> 23) & 0xff;
    }
    scale[i] = 150 - (int)min_e;  // value = result 2^scale, an integer below 2^32
    first_block[i] = block;
    for (u32 b0 = 0; b0 < n; b0 += 64, ++block) {
      int64_t v[64], d1[63], d2[62];
      for (int t = 0; t < 64; ++t) {
        const u32 r = gpu[first + b0 + t];
        const int e = (int)((r >> 23) & 0xff);
        v[t] = (int64_t)((r & 0x7fffffu) | 0x800000u) << (e - (int)min_e);
      }
      for (int t = 0; t < 63; ++t) d1[t] = v[t + 1] - v[t];
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      for (int t = 0; t < 62; ++t) {
        d2[t] = d1[t + 1] - d1[t];
        if (d2[t] < lo) lo = d2[t];
        if (d2[t] > hi) hi = d2[t];
      }
      int w = 0;
      while (w < 32 && (u64)(hi - lo) >> w) ++w;
      if (v[0] >= (1ll << 32) || d1[0] != (int32_t)d1[0] || lo != (int32_t)lo || w > 24) {
        fprintf(stderr, "sfu_fit: tanh: block %u does not pack\n", block);
        exit(1);
      }
      hdr[block] = (struct sfu_tanh_block){(u32)v[0], (int32_t)d1[0], (int32_t)lo, (u32)pos << 5 | (u32)w};
      if (pos >= (1u << 27)) { fprintf(stderr, "sfu_fit: tanh: stream too long\n"); exit(1); }
      for (int t = 0; t < 62; ++t, pos += (u64)w)
        for (int q = 0; q < w; ++q)
          if (((u64)(d2[t] - lo) >> q) & 1) stream[(pos + q) >> 3] |= (unsigned char)(1u << ((pos + q) & 7));
    }
    first += n;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/tanh.pack", dir);
  FILE* f = fopen(path, "wb");
  const size_t stream_bytes = (pos + 7) / 8 + 8;  // 8 bytes of slack: decoding reads 8 at a time
  if (!f || fwrite(hdr, sizeof *hdr, blocks, f) != blocks || fwrite(stream, 1, stream_bytes, f) != stream_bytes ||
      fclose(f) != 0) {
    fprintf(stderr, "sfu_fit: cannot write %s\n", path);
    exit(1);
  }
  fprintf(out, "static const int sfu_tanh_scale[SFU_TANH_BINADES] = {");
  for (int i = 0; i < SFU_TANH_BINADES; ++i) fprintf(out, "%s%d", i ? ", " : "", scale[i]);
  fprintf(out, "};\nstatic const unsigned sfu_tanh_first_block[SFU_TANH_BINADES] = {");
  for (int i = 0; i < SFU_TANH_BINADES; ++i) fprintf(out, "%s%u", i ? ", " : "", first_block[i]);
  fprintf(out, "};\n#define SFU_TANH_BLOCKS %uu\n", blocks);
  // Every key decoded as sfu.c decodes it.
  u32 wrong = 0;
  first = 0;
  for (int i = 0; i < SFU_TANH_BINADES; ++i) {
    const u32 n = 1u << (23 - sfu_tanh_layout[i][1]);
    for (u32 k = 0; k < n; ++k)
      wrong += sfu_tanh_decode(hdr, stream, first_block[i], scale[i], k) != gpu[first + k];
    first += n;
  }
  printf("sfu_fit: tanh: %u keys, %u blocks, %zu bytes, %u keys decoded wrong\n", keys, blocks,
         blocks * sizeof *hdr + stream_bytes, wrong);
  if (wrong) exit(1);
  free(hdr); free(stream); free(gpu);
}

int main(int argc, char** argv) {
  if (argc != 3) { fprintf(stderr, "usage: sfu_fit DIR OUT.h\n"); return 2; }
  dir = argv[1];
  FILE* out = fopen(argv[2], "w");
  if (!out) { fprintf(stderr, "sfu_fit: cannot write %s\n", argv[2]); return 1; }
  fprintf(out, "// Generated by sfu_fit.c from the tables of sfu/: do not edit.\n");
  // Segments: 128 per binade for RCP, 64 for RSQ, SQRT and EX2 (the fewest exceptions).
  fit_table(out, "rcp", 23, 16, ref_rcp);
  fit_table(out, "rsq", 24, 17, ref_rsq);
  fit_table(out, "sqrt", 24, 17, ref_sqrt);
  // EX2 of -f is half of EX2 of f's ones' complement (1 - f - 2^-23) on every key but f = 0:
  // checked here, so the model covers f >= 0 only.
  u32* ex2 = gpu_results("ex2", 24, ref_ex2);
  for (u32 k = 1; k < 1u << 23; ++k)
    if (ex2[(1u << 23) | k] != ex2[(1u << 23) - 1 - k] - (1u << 23)) {
      fprintf(stderr, "sfu_fit: ex2: the negative key %u is not the ones' complement's half\n", k);
      return 1;
    }
  if (ex2[0] != 0x3f800000u || ex2[1u << 23] != 0x3f800000u) {
    fprintf(stderr, "sfu_fit: ex2: EX2(+-0) is not 1\n");
    return 1;
  }
  fit(out, "ex2", ex2, 23, 17);
  free(ex2);
  fit_lg2(out);
  fit_sin(out);
  pack_tanh(out);
  return fclose(out) == 0 ? 0 : 1;
}
