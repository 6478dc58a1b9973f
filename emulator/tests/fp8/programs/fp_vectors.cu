// The two- and four-element 6- and 4-bit float types of cuda_fp6.h and cuda_fp4.h (the CUDA
// toolkit's own headers) and their pair conversions: from float2, double2, half2 and bfloat162
// in each rounding mode that the conversions take, back to half2 and float4; every result in hex,
// as an H200 computes it (expected/fp_vectors.txt).
#include <cstdio>
#include <cstring>
#include <cuda_fp4.h>
#include <cuda_fp6.h>

constexpr int kPer = 22;

__device__ unsigned bits(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}
__device__ unsigned h2bits(__half2_raw h) { return h.x | (static_cast<unsigned>(h.y) << 16); }

__global__ void convert(const float* in, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = in[i], y = in[(i * 7 + 3) % n];
  const float2 p = make_float2(x, y);
  const double2 pd = make_double2(x * 1.0000001, y * 0.9999999);
  const __half2 ph = __floats2half2_rn(x, y);
  const __nv_bfloat162 pb = __floats2bfloat162_rn(x, y);
  unsigned* o = out + i * kPer;
  int k = 0;
  o[k++] = __nv_cvt_float2_to_fp4x2(p, __NV_E2M1, cudaRoundNearest);
  o[k++] = __nv_cvt_double2_to_fp4x2(pd, __NV_E2M1, cudaRoundNearest);
  o[k++] = __nv_cvt_halfraw2_to_fp4x2(__half2_raw(ph), __NV_E2M1, cudaRoundNearest);
  o[k++] = __nv_cvt_bfloat16raw2_to_fp4x2(__nv_bfloat162_raw(pb), __NV_E2M1, cudaRoundNearest);
  o[k++] = h2bits(__nv_cvt_fp4x2_to_halfraw2(static_cast<__nv_fp4x2_storage_t>(o[0]), __NV_E2M1));
  o[k++] = __nv_cvt_float2_to_fp6x2(p, __NV_E2M3, cudaRoundNearest);
  o[k++] = __nv_cvt_float2_to_fp6x2(p, __NV_E3M2, cudaRoundNearest);
  o[k++] = __nv_cvt_double2_to_fp6x2(pd, __NV_E3M2, cudaRoundNearest);
  o[k++] = __nv_cvt_halfraw2_to_fp6x2(__half2_raw(ph), __NV_E2M3, cudaRoundNearest);
  o[k++] = __nv_cvt_bfloat16raw2_to_fp6x2(__nv_bfloat162_raw(pb), __NV_E3M2, cudaRoundNearest);
  o[k++] = h2bits(__nv_cvt_fp6x2_to_halfraw2(static_cast<__nv_fp6x2_storage_t>(o[5]), __NV_E2M3));
  o[k++] = h2bits(__nv_cvt_fp6x2_to_halfraw2(static_cast<__nv_fp6x2_storage_t>(o[6]), __NV_E3M2));
  const __nv_fp4x2_e2m1 a(p);
  const __nv_fp4x4_e2m1 b(make_float4(x, y, -x, x * y));
  const __nv_fp6x2_e2m3 c(p);
  const __nv_fp6x4_e3m2 d(make_float4(x, y, -x, x * y));
  o[k++] = a.__x;
  o[k++] = b.__x;
  o[k++] = c.__x;
  o[k++] = d.__x;
  const float2 af = static_cast<float2>(a);
  const float4 bf = static_cast<float4>(b);
  const float4 df = static_cast<float4>(d);
  o[k++] = bits(af.x) ^ (bits(af.y) >> 1);
  o[k++] = bits(bf.z) ^ (bits(bf.w) >> 1);
  o[k++] = bits(df.x) ^ (bits(df.w) >> 1);
  const __nv_fp4x2_e2m1 e(ph);
  const __nv_fp6x2_e3m2 f(pb);
  o[k++] = e.__x;
  o[k++] = f.__x;
  o[k++] = h2bits(__half2_raw(static_cast<__half2>(c)));
}

int main() {
  float h[256];
  int n = 0;
  const float special[] = {0.f, -0.f, 1.f, -1.f, 0.5f, 0.25f, 0.75f, 1.25f, 1.75f, 3.f, 5.f,
                           6.f, 7.f, 7.5f, 8.f, 12.f, 14.f, 28.f, 30.f, 32.f, 1e6f, -1e6f,
                           1.0f / 8, 1.0f / 16, 0.0625f * 3, 1e-9f, 0.1f, -2.5f, 3.5f, 1e30f};
  for (float v : special) h[n++] = v;
  unsigned inf = 0x7f800000u, ninf = 0xff800000u, nan = 0x7fc00000u;
  std::memcpy(&h[n++], &inf, 4);
  std::memcpy(&h[n++], &ninf, 4);
  std::memcpy(&h[n++], &nan, 4);
  for (int i = 0; n < 128; ++i) h[n++] = (i - 48) * 0.093f * (1 + i % 7) * (i % 5 == 0 ? 9.f : 1.f);
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
