// Integer results that C++ leaves undefined, in a kernel whose barrier splits it into regions (the
// emulator runs it as loops over threads, or as coroutines): shifts by the width or more,
// division and remainder by zero and MIN / -1 in 32 and 64 bits, float and double to integer
// types out of range and NaN, abs(INT_MIN). Each thread prints its results; the expected output
// is an H200's (expected/integer_rules.txt).
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

__global__ void rules(const unsigned* bits, const int* div, const float* f, const double* d,
                      unsigned long long* out) {
  __shared__ unsigned long long s[64 * 8];
  const int t = threadIdx.x;
  const unsigned x = bits[t];
  const int n = div[t];
  const long long w = static_cast<long long>(x) << 32 | bits[63 - t];
  unsigned long long r[8];
  r[0] = (x << (t + 3)) ^ (x >> (t + 1)) ^ static_cast<unsigned>(static_cast<int>(x) >> (t + 2));
  r[1] = static_cast<unsigned long long>(w << (t + 20)) ^ static_cast<unsigned long long>(w >> (2 * t));
  r[2] = static_cast<unsigned>(static_cast<int>(x) / n) ^ (static_cast<unsigned long long>(static_cast<int>(x) % n) << 32);
  r[3] = static_cast<unsigned long long>(w / n) ^ static_cast<unsigned long long>(w % (n * 3));
  r[4] = (x / static_cast<unsigned>(n)) ^ (static_cast<unsigned long long>(x % static_cast<unsigned>(n)) << 32);
  r[5] = static_cast<unsigned>(static_cast<int>(f[t])) ^ (static_cast<unsigned long long>(static_cast<unsigned>(f[t])) << 32);
  r[6] = static_cast<unsigned long long>(static_cast<long long>(d[t])) ^ static_cast<unsigned long long>(d[t]) ^
         static_cast<unsigned short>(static_cast<short>(f[t])) ^ (static_cast<unsigned long long>(static_cast<unsigned char>(d[t])) << 16);
  r[7] = static_cast<unsigned>(abs(static_cast<int>(x) | (t == 5 ? INT_MIN : 0))) ^
         (static_cast<unsigned long long>(static_cast<int>(x) == INT_MIN ? INT_MIN / n : 0) << 32);
  for (int k = 0; k < 8; ++k) s[t * 8 + k] = r[k];
  __syncthreads();
  for (int k = 0; k < 8; ++k) out[t * 8 + k] = s[(63 - t) * 8 + k];
}

int main() {
  unsigned* bits;
  int* div;
  float* f;
  double* d;
  unsigned long long* out;
  cudaMallocManaged(&bits, 64 * sizeof(unsigned));
  cudaMallocManaged(&div, 64 * sizeof(int));
  cudaMallocManaged(&f, 64 * sizeof(float));
  cudaMallocManaged(&d, 64 * sizeof(double));
  cudaMallocManaged(&out, 64 * 8 * sizeof(unsigned long long));
  for (int i = 0; i < 64; ++i) {
    bits[i] = i == 7 || i == 9 ? 0x80000000u : 0x9e3779b9u * (i + 1);
    div[i] = i % 7 == 0 ? 0 : i % 7 == 1 ? -1 : i % 7 - 3;
    const float v[] = {3e9f, -3e9f, 7e4f, -40000.5f, 1e20f, -1e20f, 255.9f, -0.9f, NAN, INFINITY, -INFINITY, 2147483648.0f};
    f[i] = v[i % 12] * (i % 24 < 12 ? 1.0f : 0.5f);
    const double dv[] = {1e19, -1e19, 9.3e18, -9.3e18, 4294967296.0, -1.5, NAN, -NAN, 300.7, -0.0, 1e300};
    d[i] = dv[i % 11] * (i % 22 < 11 ? 1.0 : 3.0);
  }
  rules<<<1, 64>>>(bits, div, f, d, out);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  for (int t = 0; t < 64; ++t) {
    std::printf("%2d", t);
    for (int k = 0; k < 8; ++k) std::printf(" %016llx", out[t * 8 + k]);
    std::printf("\n");
  }
  return 0;
}
