// The 8-, 6- and 4-bit float types of cuda_fp8.h, cuda_fp6.h and cuda_fp4.h (the CUDA toolkit's
// own headers): conversions from float, double, half and bfloat16 with and without saturation,
// the x2/x4 vector types, and back to float and half; special values (zeros, subnormals, the
// largest finite values, infinities, NaN) and a sweep of ordinary values. Every result in hex.
#include <cstdio>
#include <cstring>
#include <cuda_fp8.h>
#include <cuda_fp6.h>
#include <cuda_fp4.h>

constexpr int kPer = 20;

__device__ unsigned bits(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}

__global__ void convert(const float* in, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = in[i];
  unsigned* o = out + i * kPer;
  o[0] = __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3);
  o[1] = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
  o[2] = __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2);
  o[3] = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
  o[4] = __nv_cvt_double_to_fp8(static_cast<double>(x) * 1.0000001, __NV_SATFINITE, __NV_E4M3);
  o[5] = __nv_cvt_halfraw_to_fp8(__half_raw(__float2half(x)), __NV_SATFINITE, __NV_E5M2);
  o[6] = __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw(__float2bfloat16(x)), __NV_NOSAT, __NV_E4M3);
  o[7] = __nv_cvt_float2_to_fp8x2(make_float2(x, -x * 0.5f), __NV_SATFINITE, __NV_E4M3);
  const __nv_fp8_e4m3 a(x);
  const __nv_fp8_e5m2 b(x);
  o[8] = bits(static_cast<float>(a));
  o[9] = bits(static_cast<float>(b));
  o[10] = __half_raw(__nv_cvt_fp8_to_halfraw(a.__x, __NV_E4M3)).x;
  const __nv_fp6_e2m3 c(x);
  const __nv_fp6_e3m2 d(x);
  o[11] = c.__x;
  o[12] = d.__x;
  o[13] = bits(static_cast<float>(c));
  o[14] = bits(static_cast<float>(d));
  const __nv_fp4_e2m1 e(x);
  o[15] = e.__x;
  o[16] = bits(static_cast<float>(e));
  const __nv_fp8x4_e4m3 q(make_float4(x, x * 2.f, -x, x * 0.25f));
  o[17] = q.__x;
  const float4 back = static_cast<float4>(q);
  o[18] = bits(back.y) ^ bits(back.w);
  o[19] = __nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundNearest) |
          (__nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest) << 8);
}

int main() {
  float h[256];
  int n = 0;
  const float special[] = {0.f, -0.f, 1.f, -1.f, 0.5f, 448.f, 449.f, 464.f, 480.f, 57344.f,
                           61440.f, 1e6f, -1e6f, 1.0f / 512, 1.0f / 1024, 1.0f / 4096, 1e-9f,
                           6.f, 7.5f, 8.f, 28.f, 30.f, 0.25f, 0.75f, 3.5f, 1e30f};
  for (float v : special) h[n++] = v;
  unsigned inf = 0x7f800000u, ninf = 0xff800000u, nan = 0x7fc00000u;
  std::memcpy(&h[n++], &inf, 4);
  std::memcpy(&h[n++], &ninf, 4);
  std::memcpy(&h[n++], &nan, 4);
  for (int i = 0; n < 160; ++i) h[n++] = (i - 60) * 0.173f * (1 + i % 9) * (i % 4 == 0 ? 17.f : 1.f);
  float* d_in;
  unsigned* d_out;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_out, n * kPer * sizeof(unsigned));
  cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  convert<<<(n + 63) / 64, 64>>>(d_in, d_out, n);
  static unsigned out[256 * kPer];
  cudaMemcpy(out, d_out, n * kPer * sizeof(unsigned), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    unsigned in_bits;
    std::memcpy(&in_bits, &h[i], 4);
    std::printf("%08x:", in_bits);
    for (int k = 0; k < kPer; ++k) std::printf(" %x", out[i * kPer + k]);
    std::printf("\n");
  }
  std::printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
