// Plain float and double arithmetic in a kernel as nvcc compiles it (issue 14): nvcc contracts a
// multiply and a dependent add or subtract into one fused multiply-add (-fmad=true, its default),
// which rounds once, so `a * b + c` in a kernel differs from the same expression on a CPU in the
// last bits and, where the sum cancels, in all of them. Each shape below is one way code writes
// products and sums; the program computes every shape on 4096 inputs in a kernel and prints, per
// shape, a hash of the results' bits, how many results differ from the expression evaluated on
// the host (one rounding per operation), and the first results. The H200's output is the
// expectation (h200.txt): nvcc 13.0, -O2 -arch=sm_90.
//
//   nvcc -O2 -arch=sm_90 -std=c++17 contraction.cu -o contraction && ./contraction > h200.txt
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#if defined(__NVCC__) && !defined(__CUEMU__)
#pragma nv_diag_suppress 550  // a shape's unused inputs
#endif

constexpr int kN = 4096;
constexpr int kTerms = 8;

struct inputs {
  float a, b, c, d, e, f;
  double da, db, dc, dd, de, df;
  int flag;
};

// S(name, float expression), D(name, double expression); statements through an immediately
// called lambda. `x` and `y` are this input's rows of kTerms floats (doubles: dx, dy).
#define SHAPES(S, D)                                                                         \
  S(mad, a * b + c)                                                                          \
  S(msub, a * b - c)                                                                         \
  S(rsub, c - a * b)                                                                         \
  S(neg_mad, -(a * b) + c)                                                                   \
  S(neg_msub, -(a * b) - c)                                                                  \
  S(two_products, a * b + c * d)                                                             \
  S(two_products_sub, a * b - c * d)                                                         \
  S(three_products, a * b + c * d + e * f)                                                   \
  S(chain, (a * b + c) * d + e)                                                              \
  S(triple_product, a * b * c + d)                                                           \
  S(sum_then_product, (a + b) * c + d)                                                       \
  S(square_sum, a * a + b * b + c * c)                                                       \
  S(horner, ((a * e + b) * e + c) * e + d)                                                   \
  S(complex_re, a * c - b * d)                                                               \
  S(complex_im, a * d + b * c)                                                               \
  S(reused_product, [&] { float t = a * b; return (t + c) * (t - d); }())                    \
  S(stored_product, [&] { float t = a * b; keep[i] = t; return t + c; }())                   \
  S(product_in_sum_twice, [&] { float t = a * b; return (t + c) + (t + d); }())              \
  S(branch_between, [&] { float t = a * b; if (flag) t += c; else t -= d; return t; }())     \
  S(select_addend, a * b + (flag ? c : d))                                                   \
  S(dot, [&] { float s = 0; for (int k = 0; k < kTerms; ++k) s += x[k] * y[k]; return s; }()) \
  S(dot_sub, [&] { float s = c; for (int k = 0; k < kTerms; ++k) s -= x[k] * y[k]; return s; }()) \
  S(recurrence, [&] { float s = a; for (int k = 0; k < kTerms; ++k) s = s * e + x[k]; return s; }()) \
  S(lerp, a + e * (b - a))                                                                   \
  S(lerp2, (1.0f - e) * a + e * b)                                                           \
  S(by_constant, a * 3.0f + c)                                                               \
  S(product_plus_product_reused, [&] { float p = a * b, q = c * d; keep[i] = q; return p + q; }()) \
  S(fmul_rn_add, fmul_rn(a, b) + c)                                                        \
  S(fmaf_inner_product, fmaf(a, b, c * d))                                                   \
  S(to_double, (double)(a * b) + dc)                                                         \
  S(divide_add, a / b + c)                                                                   \
  D(dmad, da * db + dc)                                                                      \
  D(dmsub, da * db - dc)                                                                     \
  D(drsub, dc - da * db)                                                                     \
  D(dtwo_products, da * db + dc * dd)                                                        \
  D(dthree_products, da * db + dc * dd + de * df)                                            \
  D(dhorner, ((da * de + db) * de + dc) * de + dd)                                           \
  D(dcomplex_re, da * dc - db * dd)                                                          \
  D(ddot, [&] { double s = 0; for (int k = 0; k < kTerms; ++k) s += dx[k] * dy[k]; return s; }()) \
  D(dfloat_product, (double)a * (double)b + dc)                                              \
  D(dmixed, da * b + c)

enum shape_id {
#define ID(n, ...) shape_##n,
  SHAPES(ID, ID)
#undef ID
      kShapes
};
static const char* const kNames[] = {
#define NAME(n, ...) #n,
    SHAPES(NAME, NAME)
#undef NAME
};
static const bool kIsDouble[] = {
#define F(n, ...) false,
#define DB(n, ...) true,
    SHAPES(F, DB)
#undef F
#undef DB
};

// __fmul_rn in device code; the host rounds every product anyway.
__host__ __device__ inline float fmul_rn(float a, float b) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}

// The arrays a kernel reads and writes.
struct data {
  const inputs* in;
  const float *xs, *ys;
  const double *dxs, *dys;
  float* keep;
  unsigned long long* out;
};

// One function and one kernel per shape, so that no shape shares a product with another (nvcc
// would compute a common a * b once, and a product with several uses is not contracted).
#define SHAPE_FN(n, T, U, ...)                                                                   \
  __host__ __device__ inline void shape_fn_##n(const data& p, int i) {                           \
    const float a = p.in[i].a, b = p.in[i].b, c = p.in[i].c, d = p.in[i].d, e = p.in[i].e,      \
                f = p.in[i].f;                                                                   \
    const double da = p.in[i].da, db = p.in[i].db, dc = p.in[i].dc, dd = p.in[i].dd,            \
                 de = p.in[i].de, df = p.in[i].df;                                               \
    const int flag = p.in[i].flag;                                                               \
    const float* x = p.xs + i * kTerms;                                                          \
    const float* y = p.ys + i * kTerms;                                                          \
    const double* dx = p.dxs + i * kTerms;                                                       \
    const double* dy = p.dys + i * kTerms;                                                       \
    float* keep = p.keep;                                                                        \
    (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)da, (void)db, (void)dc, (void)dd, \
        (void)de, (void)df, (void)flag, (void)x, (void)y, (void)dx, (void)dy, (void)keep;        \
    const T r = (__VA_ARGS__);                                                                   \
    U u;                                                                                         \
    memcpy(&u, &r, sizeof r);                                                                    \
    p.out[(size_t)shape_##n * kN + i] = u;                                                       \
  }                                                                                              \
  __global__ void shape_kernel_##n(data p) {                                                     \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;                                         \
    if (i < kN) shape_fn_##n(p, i);                                                              \
  }
#define FN_F(n, ...) SHAPE_FN(n, float, unsigned, __VA_ARGS__)
#define FN_D(n, ...) SHAPE_FN(n, double, unsigned long long, __VA_ARGS__)
SHAPES(FN_F, FN_D)
#undef FN_F
#undef FN_D

using host_fn = void (*)(const data&, int);
using kernel_fn = void (*)(data);
#define ENTRY(n, ...) {shape_fn_##n, shape_kernel_##n},
static const struct {
  host_fn host;
  kernel_fn kernel;
} kFns[] = {SHAPES(ENTRY, ENTRY)};
#undef ENTRY

// SplitMix64.
static unsigned long long g_state = 0x636f6e7472616374ull;
static unsigned long long next64() {
  unsigned long long z = (g_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
// A value of either sign with magnitude in [2^-4, 2^4): a 24-bit (float) or 53-bit significand.
static double value(bool dbl) {
  const unsigned long long r = next64();
  const int e = (int)(r % 9) - 4;
  const double m = dbl ? 1.0 + (double)(r >> 11 & ((1ull << 52) - 1)) * 0x1p-52
                       : 1.0 + (double)(r >> 11 & ((1u << 23) - 1)) * 0x1p-23;
  return ((r >> 10) & 1 ? -m : m) * __builtin_ldexp(1.0, e);
}

int main() {
  std::vector<inputs> in(kN);
  std::vector<float> xs(kN * kTerms), ys(kN * kTerms);
  std::vector<double> dxs(kN * kTerms), dys(kN * kTerms);
  for (int i = 0; i < kN; ++i) {
    inputs& v = in[i];
    v.a = (float)value(false), v.b = (float)value(false), v.c = (float)value(false);
    v.d = (float)value(false), v.e = (float)value(false), v.f = (float)value(false);
    v.da = value(true), v.db = value(true), v.dc = value(true), v.dd = value(true);
    v.de = value(true), v.df = value(true);
    v.flag = (int)(next64() & 1);
    // Every other input: the addend cancels the product (nearly), where one rounding and two
    // differ the most.
    if (i % 2) {
      v.c = -(v.a * v.b) * (float)(1.0 + (double)(next64() % 64) * 0x1p-24);
      v.d = v.c * (1.0f + 0x1p-22f);
      v.dc = -(v.da * v.db) * (1.0 + (double)(next64() % 64) * 0x1p-53);
      v.dd = v.dc * (1.0 + 0x1p-50);
    }
    for (int k = 0; k < kTerms; ++k) {
      xs[i * kTerms + k] = (float)value(false), ys[i * kTerms + k] = (float)value(false);
      dxs[i * kTerms + k] = value(true), dys[i * kTerms + k] = value(true);
    }
  }
  inputs* d_in;
  float *d_xs, *d_ys, *d_keep;
  double *d_dxs, *d_dys;
  unsigned long long* d_out;
  cudaMalloc(&d_in, sizeof(inputs) * kN);
  cudaMalloc(&d_xs, 4 * kN * kTerms);
  cudaMalloc(&d_ys, 4 * kN * kTerms);
  cudaMalloc(&d_dxs, 8 * kN * kTerms);
  cudaMalloc(&d_dys, 8 * kN * kTerms);
  cudaMalloc(&d_keep, 4 * kN);
  cudaMalloc(&d_out, 8ull * kShapes * kN);
  cudaMemcpy(d_in, in.data(), sizeof(inputs) * kN, cudaMemcpyHostToDevice);
  cudaMemcpy(d_xs, xs.data(), 4 * kN * kTerms, cudaMemcpyHostToDevice);
  cudaMemcpy(d_ys, ys.data(), 4 * kN * kTerms, cudaMemcpyHostToDevice);
  cudaMemcpy(d_dxs, dxs.data(), 8 * kN * kTerms, cudaMemcpyHostToDevice);
  cudaMemcpy(d_dys, dys.data(), 8 * kN * kTerms, cudaMemcpyHostToDevice);
  const data dev{d_in, d_xs, d_ys, d_dxs, d_dys, d_keep, d_out};
  for (int s = 0; s < kShapes; ++s) kFns[s].kernel<<<kN / 128, 128>>>(dev);
  const cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    std::printf("contraction: %s\n", cudaGetErrorString(err));
    return 1;
  }
  std::vector<unsigned long long> out(kShapes * (size_t)kN), host(kShapes * (size_t)kN);
  std::vector<float> keep(kN);
  cudaMemcpy(out.data(), d_out, 8ull * kShapes * kN, cudaMemcpyDeviceToHost);
  const data hd{in.data(), xs.data(), ys.data(), dxs.data(), dys.data(), keep.data(), host.data()};
  for (int s = 0; s < kShapes; ++s)
    for (int i = 0; i < kN; ++i) kFns[s].host(hd, i);
  int fused_shapes = 0;
  for (int s = 0; s < kShapes; ++s) {
    unsigned long long h = 0xcbf29ce484222325ull;
    int differ = 0;
    for (int i = 0; i < kN; ++i) {
      const unsigned long long v = out[(size_t)s * kN + i];
      for (int k = 0; k < 8; ++k) h = (h ^ (v >> (8 * k) & 0xff)) * 0x100000001b3ull;
      differ += v != host[(size_t)s * kN + i];
    }
    fused_shapes += differ != 0;
    std::printf("%-28s %s hash %016llx differ-from-host %4d first", kNames[s],
                kIsDouble[s] ? "double" : "float ", h, differ);
    for (int i = 0; i < 4; ++i)
      std::printf(kIsDouble[s] ? " %016llx" : " %08llx", out[(size_t)s * kN + i]);
    std::printf("\n");
  }
  std::printf("contraction: %d shapes, %d differ from the host's evaluation\n", (int)kShapes,
              fused_shapes);
  return 0;
}
