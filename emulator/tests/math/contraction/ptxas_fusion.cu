// The products ptxas fuses after NVVM (issue 14). NVVM contracts `p * q + r` in its own blocks
// and leaves a subtraction of a product, and a product computed in another block (a
// loop-invariant one, hoisted), as `mul.f32` and `sub.f32`/`add.f32` without a rounding mode,
// which ptxas may fuse too. Each shape runs in its own kernel on 4096 inputs; the host computes
// the candidates exactly (fmaf) and the program prints, per shape, how many results are the
// first candidate, the second, the unfused expression, or ambiguous (candidates equal). The
// GPU's output is ptxas_fusion_h100.txt: nvcc 13.0, -O2 -arch=sm_90, recorded on an H100
// (driver 580.159.04, 2026-12-05; the H200 was not to be had that day), which runs the same
// sm_90 SASS as an H200 with the same FFMA/FMUL/FADD arithmetic.
//
//   nvcc -O2 -arch=sm_90 -std=c++17 ptxas_fusion.cu -o pf && ./pf > ptxas_fusion_h100.txt
//
// - sub_*: p * q - r * s, ptxas fuses the left product, whichever was computed first;
// - args_*: a call's arguments (CUDA's vector operators are calls): nvcc computes them from left
//   to right, and fuses the product whose operands came first;
// - hoisted_*: a loop-invariant product added in the loop: fused in every iteration where its
//   operands are an immediate or a kernel parameter and one value, or a square; a product of two
//   loaded values stays one multiply;
// - one_use_*: a product with one use, an addition in a later block (after a branch or a loop):
//   fused.
#include <cmath>
#include <cstdio>
#define N 4096

#if defined(__NVCC__) && !defined(__CUEMU__)
#pragma nv_diag_suppress 550  // a shape's unused inputs
#endif

struct v2 {
  float x, y;
};
__host__ __device__ inline v2 operator*(v2 p, v2 q) { return {p.x * q.x, p.y * q.y}; }
__host__ __device__ inline v2 operator*(v2 p, float s) { return {p.x * s, p.y * s}; }
__host__ __device__ inline v2 operator+(v2 p, v2 q) { return {p.x + q.x, p.y + q.y}; }
__host__ __device__ inline float add2(float u, float v) { return u + v; }

// name, the kernel's statements in parentheses (they write o[i]; n is 1 at run time), the first
// candidate, the second (NAN where there is one fused result), the unfused value.
#define SHAPES(X)                                                                                  \
  X(sub_left_first, ({ float p = x[i] * y[i]; float q = z[i] * w[i]; o[i] = p - q; }),           \
    fmaf(x[i], y[i], -(z[i] * w[i])), fmaf(-z[i], w[i], x[i] * y[i]), x[i] * y[i] - z[i] * w[i])  \
  X(sub_right_first, ({ float q = z[i] * w[i]; float p = x[i] * y[i]; o[i] = p - q; }),          \
    fmaf(x[i], y[i], -(z[i] * w[i])), fmaf(-z[i], w[i], x[i] * y[i]), x[i] * y[i] - z[i] * w[i])  \
  X(args_vector, ({ v2 p{x[i], y[i]}, q{z[i], w[i]}; o[i] = (p * p * c + q * q * d).x; }),       \
    fmaf(x[i] * x[i], c, z[i] * z[i] * d), fmaf(z[i] * z[i], d, x[i] * x[i] * c),                 \
    x[i] * x[i] * c + z[i] * z[i] * d)                                                            \
  X(args_call, ({ o[i] = add2((x[i] + 1.0f) * y[i], (z[i] + 1.0f) * w[i]); }),                   \
    fmaf(x[i] + 1.0f, y[i], (z[i] + 1.0f) * w[i]), fmaf(z[i] + 1.0f, w[i], (x[i] + 1.0f) * y[i]), \
    (x[i] + 1.0f) * y[i] + (z[i] + 1.0f) * w[i])                                                  \
  X(hoisted_immediate, ({ for (int k = 0; k < n; ++k) o[i + k * N] = x[i + k * N] - c * 3.0f; }), \
    fmaf(c, -3.0f, x[i]), NAN, x[i] - c * 3.0f)                                                   \
  X(hoisted_loaded_immediate,                                                                     \
    ({ const float a = y[i]; for (int k = 0; k < n; ++k) o[i + k * N] = x[i + k * N] - a * 9.0f; }), \
    fmaf(y[i], -9.0f, x[i]), NAN, x[i] - y[i] * 9.0f)                                             \
  X(hoisted_square, ({ for (int k = 0; k < n; ++k) o[i + k * N] = x[i + k * N] + c * c; }),      \
    fmaf(c, c, x[i]), NAN, x[i] + c * c)                                                          \
  X(hoisted_two_values,                                                                           \
    ({ const float a = y[i], b = z[i]; for (int k = 0; k < n; ++k) o[i + k * N] = x[i + k * N] + a * b; }), \
    fmaf(y[i], z[i], x[i]), NAN, x[i] + y[i] * z[i])                                              \
  X(hoisted_two_parameters, ({ for (int k = 0; k < n; ++k) o[i + k * N] = x[i + k * N] - c * d; }), \
    fmaf(-c, d, x[i]), NAN, x[i] - c * d)                                                         \
  X(hoisted_loaded_parameter,                                                                     \
    ({ const float a = y[i]; for (int k = 0; k < n; ++k) o[i + k * N] = x[i + k * N] + a * d; }), \
    fmaf(y[i], d, x[i]), NAN, x[i] + y[i] * d)                                                    \
  X(one_use_after_branch, ({ const float t = x[i] * y[i]; float r = w[i]; if (z[i] > 0) r = t + z[i]; o[i] = r; }), \
    z[i] > 0 ? fmaf(x[i], y[i], z[i]) : w[i], NAN, z[i] > 0 ? x[i] * y[i] + z[i] : w[i])           \
  X(one_use_after_loop,                                                                           \
    ({ const float t = x[i] * y[i]; float s = 0; for (int k = 0; k < n; ++k) s += w[i + k * N]; o[i] = t + z[i] + s; }), \
    fmaf(x[i], y[i], z[i]) + w[i], NAN, x[i] * y[i] + z[i] + w[i])

#define UNPAREN(...) __VA_ARGS__
#define K(name, body, ...)                                                                         \
  __global__ void k_##name(const float* x, const float* y, const float* z, const float* w, float c, \
                           float d, int n, float* o) {                                            \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;                                           \
    UNPAREN body                                                                                   \
  }
SHAPES(K)

int main() {
  float *x, *y, *z, *w, *o;
  cudaMallocManaged(&x, N * 4);
  cudaMallocManaged(&y, N * 4);
  cudaMallocManaged(&z, N * 4);
  cudaMallocManaged(&w, N * 4);
  cudaMallocManaged(&o, N * 4);
  unsigned long long st = 271828;
  auto rnd = [&]() {
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((st >> 40) & 0xffffff) / 16777216.0f * 4 - 2;
  };
  for (int i = 0; i < N; ++i) x[i] = rnd(), y[i] = rnd(), z[i] = rnd(), w[i] = rnd();
  // Every other input: the addend nearly cancels the product the shape adds to it.
  for (int i = 1; i < N; i += 2) w[i] = (x[i] * y[i]) / z[i] * (1.0f + 0x1p-20f);
  const float c = 1.2345678f, d = -0.87654321f;
#define RUN(name, body, F1, F2, F0)                                                               \
  {                                                                                                \
    k_##name<<<N / 128, 128>>>(x, y, z, w, c, d, 1, o);                                            \
    cudaDeviceSynchronize();                                                                       \
    int first = 0, second = 0, none = 0, amb = 0;                                                  \
    for (int i = 0; i < N; ++i) {                                                                  \
      const float f1 = F1, f2 = F2, f0 = F0;                                                       \
      const bool m1 = o[i] == f1, m2 = o[i] == f2, m0 = o[i] == f0;                                \
      if (m1 && !m2 && !m0) ++first;                                                               \
      else if (m2 && !m1 && !m0) ++second;                                                         \
      else if (m0 && !m1 && !m2) ++none;                                                           \
      else ++amb;                                                                                  \
    }                                                                                              \
    printf("%-24s first %4d second %4d none %4d ambiguous %4d\n", #name, first, second, none, amb); \
  }
  SHAPES(RUN)
}
