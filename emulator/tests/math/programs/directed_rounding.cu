// The rounding-mode intrinsics (__fadd_rd, __dmul_ru, __fsqrt_rz, __fmaf_rd, ...) against the CPU's own
// directed rounding: the host computes each operation with fesetround, the device with the
// emulator's libdevice (which no longer switches the floating-point environment where an
// error-free transformation decides the direction). Inputs: random bit patterns (NaNs,
// infinities, subnormals, huge and tiny values), values of few significant bits (exact results,
// ties), and random values of moderate size (the transformation's own range), in both
// precisions. Prints the number of results that differ per operation (NaNs count as equal: their
// bits are the GPU's rules, checked by the math probe) and exits 1 if any does.
//   cuemu run -O2 directed_rounding.cu
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#define N (1 << 18)

struct rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

template <class T, class U>
T from_bits(U u) {
  T t;
  std::memcpy(&t, &u, sizeof t);
  return t;
}

// Input k of a stream: a third random bits, a third few-bit values, a third moderate values.
double input_d(rng& r, int k) {
  const uint64_t b = r.next();
  switch (k % 3) {
    case 0: return from_bits<double>(b);
    case 1: return std::ldexp(static_cast<double>(static_cast<int64_t>(b >> 40) % 4097 - 2048),
                              static_cast<int>((b >> 8) % 200) - 100);
    default: return std::ldexp(static_cast<double>(b >> 11) * 0x1p-53 + 0.5,
                               static_cast<int>(b % 120) - 60) * ((b >> 7) & 1 ? -1 : 1);
  }
}
float input_f(rng& r, int k) {
  const uint64_t b = r.next();
  switch (k % 3) {
    case 0: return from_bits<float>(static_cast<uint32_t>(b));
    case 1: return std::ldexp(static_cast<float>(static_cast<int64_t>(b >> 40) % 257 - 128),
                              static_cast<int>((b >> 8) % 60) - 30);
    default: return std::ldexp(static_cast<float>(b >> 40) * 0x1p-24f + 0.5f,
                               static_cast<int>(b % 40) - 20) * ((b >> 7) & 1 ? -1 : 1);
  }
}

#define OPS_F(X)                                                                     \
  X(fadd, __fadd_rn, __fadd_rz, __fadd_ru, __fadd_rd, a + b)                         \
  X(fsub, __fsub_rn, __fsub_rz, __fsub_ru, __fsub_rd, a - b)                         \
  X(fmul, __fmul_rn, __fmul_rz, __fmul_ru, __fmul_rd, a * b)                         \
  X(fdiv, __fdiv_rn, __fdiv_rz, __fdiv_ru, __fdiv_rd, a / b)                         \
  X(frcp, RCP_F(rn), RCP_F(rz), RCP_F(ru), RCP_F(rd), 1.0f / a)                      \
  X(fsqrt, SQRT_F(rn), SQRT_F(rz), SQRT_F(ru), SQRT_F(rd), std::sqrt(a))
#define OPS_D(X)                                                                     \
  X(dadd, __dadd_rn, __dadd_rz, __dadd_ru, __dadd_rd, a + b)                         \
  X(dsub, __dsub_rn, __dsub_rz, __dsub_ru, __dsub_rd, a - b)                         \
  X(dmul, __dmul_rn, __dmul_rz, __dmul_ru, __dmul_rd, a * b)                         \
  X(ddiv, __ddiv_rn, __ddiv_rz, __ddiv_ru, __ddiv_rd, a / b)                         \
  X(drcp, RCP_D(rn), RCP_D(rz), RCP_D(ru), RCP_D(rd), 1.0 / a)                       \
  X(dsqrt, SQRT_D(rn), SQRT_D(rz), SQRT_D(ru), SQRT_D(rd), std::sqrt(a))
// One-argument intrinsics called as two-argument ones (b unused).
#define RCP_F(m) [](float x, float) { return __frcp_##m(x); }
#define SQRT_F(m) [](float x, float) { return __fsqrt_##m(x); }
#define RCP_D(m) [](double x, double) { return __drcp_##m(x); }
#define SQRT_D(m) [](double x, double) { return __dsqrt_##m(x); }

#define KERNEL(name, rn, rz, ru, rd, expr)                                           \
  template <class T>                                                                 \
  __global__ void k_##name(const T* a, const T* b, T* o) {                           \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;                             \
    o[4 * i + 0] = (rn)(a[i], b[i]);                                                 \
    o[4 * i + 1] = (rz)(a[i], b[i]);                                                 \
    o[4 * i + 2] = (ru)(a[i], b[i]);                                                 \
    o[4 * i + 3] = (rd)(a[i], b[i]);                                                 \
  }
OPS_F(KERNEL)
OPS_D(KERNEL)

// fmaf in each direction (libdevice's expf, fmodf, ... round one inside): a third input.
__global__ void k_fmaf(const float* a, const float* b, const float* c, float* o) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[4 * i + 0] = __fmaf_rn(a[i], b[i], c[i]);
  o[4 * i + 1] = __fmaf_rz(a[i], b[i], c[i]);
  o[4 * i + 2] = __fmaf_ru(a[i], b[i], c[i]);
  o[4 * i + 3] = __fmaf_rd(a[i], b[i], c[i]);
}

template <class T>
bool same(T x, T y) {
  if (x != x && y != y) return true;
  return std::memcmp(&x, &y, sizeof x) == 0;
}

int main() {
  const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
  float *fa, *fb, *fc, *fo;
  double *da, *db, *dO;
  cudaMallocManaged(&fa, N * sizeof(float));
  cudaMallocManaged(&fb, N * sizeof(float));
  cudaMallocManaged(&fc, N * sizeof(float));
  cudaMallocManaged(&fo, 4 * N * sizeof(float));
  cudaMallocManaged(&da, N * sizeof(double));
  cudaMallocManaged(&db, N * sizeof(double));
  cudaMallocManaged(&dO, 4 * N * sizeof(double));
  rng r{12345};
  for (int i = 0; i < N; ++i) {
    fa[i] = input_f(r, i), fb[i] = input_f(r, i / 3), fc[i] = input_f(r, i / 9);
    // Every other c nearly cancels a * b: the fma's exact result far below its operands.
    if (i % 2) fc[i] = -fa[i] * fb[i] * (1.0f + 0x1p-20f * (i % 7));
    da[i] = input_d(r, i), db[i] = input_d(r, i / 3);
  }
  long total = 0;
#define CHECK(name, rn, rz, ru, rd, expr, T, A, B, O)                                \
  {                                                                                  \
    k_##name<T><<<N / 256, 256>>>(A, B, O);                                          \
    cudaDeviceSynchronize();                                                         \
    long bad = 0;                                                                    \
    for (int i = 0; i < N; ++i)                                                      \
      for (int m = 0; m < 4; ++m) {                                                  \
        const T a = A[i], b = B[i];                                                  \
        (void)b;                                                                     \
        std::fesetround(modes[m]);                                                   \
        volatile T want = (expr);                                                    \
        std::fesetround(FE_TONEAREST);                                               \
        if (!same<T>(O[4 * i + m], want)) {                                          \
          if (bad < 3)                                                               \
            std::printf("  %s mode %d: %a %a -> %a, CPU %a\n", #name, m, (double)a,  \
                        (double)b, (double)O[4 * i + m], (double)want);              \
          ++bad;                                                                     \
        }                                                                            \
      }                                                                              \
    std::printf("%-6s %ld of %d differ\n", #name, bad, 4 * N);                       \
    total += bad;                                                                    \
  }
#define CHECK_F(name, rn, rz, ru, rd, expr) CHECK(name, rn, rz, ru, rd, expr, float, fa, fb, fo)
#define CHECK_D(name, rn, rz, ru, rd, expr) CHECK(name, rn, rz, ru, rd, expr, double, da, db, dO)
  OPS_F(CHECK_F)
  OPS_D(CHECK_D)
  {
    k_fmaf<<<N / 256, 256>>>(fa, fb, fc, fo);
    cudaDeviceSynchronize();
    long bad = 0;
    for (int i = 0; i < N; ++i)
      for (int m = 0; m < 4; ++m) {
        std::fesetround(modes[m]);
        volatile float want = std::fma(fa[i], fb[i], fc[i]);
        std::fesetround(FE_TONEAREST);
        if (!same<float>(fo[4 * i + m], want)) {
          if (bad < 3)
            std::printf("  fmaf mode %d: %a %a %a -> %a, CPU %a\n", m, (double)fa[i], (double)fb[i],
                        (double)fc[i], (double)fo[4 * i + m], (double)want);
          ++bad;
        }
      }
    std::printf("%-6s %ld of %d differ\n", "fmaf", bad, 4 * N);
    total += bad;
  }
  std::printf("%ld differ in all\n", total);
  return total ? 1 : 0;
}
