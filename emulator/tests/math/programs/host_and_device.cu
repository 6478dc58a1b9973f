// One math function name, two libraries: in device code CUDA's (libdevice), in host code the C
// library's. The inputs are ones where the two differ by an ulp (sinf(1), logf, pow(3, 1), cbrt of
// a subnormal) or in a NaN's bits. A __host__ __device__ function gives each side its own answer;
// sinf(1.0f) on constants is folded by the compiler on both sides (the correctly rounded value,
// not libdevice's); pow with a constant exponent is not simplified; std:: spellings are the same
// functions. Prints the bits of every result.
#include <cmath>
#include <cstdio>
#include <cstring>

__host__ __device__ double both_pow(double x, double y) { return pow(x, y); }
__host__ __device__ float both_sinf(float x) { return sinf(x); }

struct inputs {
  float one, log_in, nan;
  double three, tiny;
};

__host__ __device__ void results(const inputs& in, float* f, double* d) {
  f[0] = sinf(in.one);
  f[1] = both_sinf(in.one);
  f[2] = std::sin(in.one);
  f[3] = sinf(1.0f);
  f[4] = logf(in.log_in);
  f[5] = sinf(in.nan);
  f[6] = atan2f(0.5f, in.one);
  d[0] = pow(in.three, 1.0);
  d[1] = both_pow(in.three, 1.0);
  d[2] = std::pow(in.three, 1.0);
  d[3] = pow(in.three, 2.0);
  d[4] = pow(in.three, 0.5);
  d[5] = cbrt(in.tiny);
  double s, c;
  sincos(in.three, &s, &c);
  d[6] = s;
  d[7] = c;
}

__global__ void device_side(inputs in, float* f, double* d) { results(in, f, d); }

void print(const char* side, const float* f, const double* d) {
  for (int i = 0; i < 7; ++i) {
    unsigned u;
    std::memcpy(&u, &f[i], 4);
    std::printf("%s f[%d] %08x\n", side, i, u);
  }
  for (int i = 0; i < 8; ++i) {
    unsigned long long u;
    std::memcpy(&u, &d[i], 8);
    std::printf("%s d[%d] %016llx\n", side, i, u);
  }
}

int main() {
  inputs in;
  in.one = 1.0f;
  const unsigned log_bits = 0x3d800001u, nan_bits = 0x7fc00000u;
  std::memcpy(&in.log_in, &log_bits, 4);
  std::memcpy(&in.nan, &nan_bits, 4);
  in.three = 3.0;
  const unsigned long long tiny_bits = 1;
  std::memcpy(&in.tiny, &tiny_bits, 8);

  float* df;
  double* dd;
  cudaMalloc(&df, 7 * sizeof(float));
  cudaMalloc(&dd, 8 * sizeof(double));
  device_side<<<1, 1>>>(in, df, dd);
  float f[7];
  double d[8];
  cudaMemcpy(f, df, sizeof f, cudaMemcpyDeviceToHost);
  cudaMemcpy(d, dd, sizeof d, cudaMemcpyDeviceToHost);
  print("device", f, d);
  results(in, f, d);
  print("host", f, d);
  cudaFree(df);
  cudaFree(dd);
  return 0;
}
