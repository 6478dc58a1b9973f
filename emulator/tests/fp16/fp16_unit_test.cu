// Hand-checked edge cases of cuda_fp16.h / cuda_bf16.h (host and device code are the same C++
// in the emulator; a kernel checks the device path and the atomics).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

static unsigned short hb(__half h) { return __half_as_ushort(h); }
static unsigned short bb(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }

TEST(Fp16, Layout) {
  EXPECT_EQ(sizeof(__half), 2u);
  EXPECT_EQ(alignof(__half), 2u);
  EXPECT_EQ(sizeof(__half2), 4u);
  EXPECT_EQ(alignof(__half2), 4u);
  EXPECT_EQ(sizeof(__nv_bfloat16), 2u);
  EXPECT_EQ(sizeof(__nv_bfloat162), 4u);
  EXPECT_EQ(alignof(__nv_bfloat162), 4u);
}

TEST(Fp16, FloatToHalfRounding) {
  EXPECT_EQ(hb(__float2half_rn(65520.f)), 0x7c00);  // rounds to +inf
  EXPECT_EQ(hb(__float2half_rz(65520.f)), 0x7bff);  // 65504
  EXPECT_EQ(hb(__float2half_rd(65520.f)), 0x7bff);
  EXPECT_EQ(hb(__float2half_ru(65504.5f)), 0x7c00);
  EXPECT_EQ(hb(__float2half_rn(65519.99f)), 0x7bff);
  EXPECT_EQ(hb(__float2half_rn(-65520.f)), 0xfc00);
  EXPECT_EQ(hb(__float2half_ru(-1e10f)), 0xfbff);
  EXPECT_EQ(hb(__float2half_rn(5.9604645e-8f)), 0x0001);  // min subnormal
  EXPECT_EQ(hb(__float2half_rn(2.9802322e-8f)), 0x0000);  // exactly half of it: ties to even
  EXPECT_EQ(hb(__float2half_rn(2.9802326e-8f)), 0x0001);
  EXPECT_EQ(hb(__float2half_ru(1e-40f)), 0x0001);
  EXPECT_EQ(hb(__float2half_rd(-1e-40f)), 0x8001);
  EXPECT_EQ(hb(__float2half_rn(-0.0f)), 0x8000);
  EXPECT_EQ(hb(__float2half_rn(1.0f + 0x1p-11f)), 0x3c00);          // tie, even below
  EXPECT_EQ(hb(__float2half_rn(1.0f + 3 * 0x1p-11f)), 0x3c02);      // tie, even above
  EXPECT_EQ(hb(__float2half_rn(1.0f + 0x1p-11f + 0x1p-20f)), 0x3c01);
  EXPECT_EQ(hb(__float2half_rn(__uint_as_float(0x7fc00000u))), 0x7fff);  // canonical NaN
  EXPECT_EQ(hb(__float2half(__uint_as_float(0xff812345u))), 0x7fff);
  EXPECT_EQ(hb(__half(1.0 / 3.0)), 0x3555);
  EXPECT_EQ(hb(__double2half(1.00048828125)), 0x3c00);  // exact tie in double, to even
}

TEST(Fp16, FloatToBf16Rounding) {
  EXPECT_EQ(bb(__float2bfloat16_rn(1.0f)), 0x3f80);
  EXPECT_EQ(bb(__float2bfloat16_rn(__uint_as_float(0x3f808000u))), 0x3f80);  // tie to even
  EXPECT_EQ(bb(__float2bfloat16_rn(__uint_as_float(0x3f818000u))), 0x3f82);
  EXPECT_EQ(bb(__float2bfloat16_rz(__uint_as_float(0x3f81ffffu))), 0x3f81);
  EXPECT_EQ(bb(__float2bfloat16_ru(__uint_as_float(0x3f810001u))), 0x3f82);
  EXPECT_EQ(bb(__float2bfloat16_rn(__uint_as_float(0x7f7fffffu))), 0x7f80);  // to inf
  EXPECT_EQ(bb(__float2bfloat16_rz(__uint_as_float(0x7f7fffffu))), 0x7f7f);
  EXPECT_EQ(bb(__float2bfloat16_rn(__uint_as_float(0x7fc00001u))), 0x7fff);
  EXPECT_EQ(bb(__float2bfloat16_rn(-0.0f)), 0x8000);
  EXPECT_EQ(bb(__float2bfloat16_rn(__uint_as_float(0x00008000u))), 0x0000);  // float subnormal tie
  EXPECT_EQ(bb(__float2bfloat16_rn(__uint_as_float(0x00018000u))), 0x0002);
}

TEST(Fp16, Integers) {
  EXPECT_EQ(hb(__int2half_rn(2049)), 0x6800);  // 2048, tie to even
  EXPECT_EQ(hb(__int2half_ru(2049)), 0x6801);
  EXPECT_EQ(hb(__int2half_rn(65520)), 0x7c00);
  EXPECT_EQ(hb(__int2half_rz(70000)), 0x7bff);
  EXPECT_EQ(hb(__ll2half_rd(-70000)), 0xfc00);
  EXPECT_EQ(__half2int_rn(__float2half(2.5f)), 2);
  EXPECT_EQ(__half2int_rn(__float2half(3.5f)), 4);
  EXPECT_EQ(__half2int_rd(__float2half(-2.5f)), -3);
  EXPECT_EQ(__half2uint_rn(__float2half(-3.0f)), 0u);
  EXPECT_EQ(__half2short_rz(__ushort_as_half(0x7c00)), 32767);
  EXPECT_EQ(__half2int_rn(__ushort_as_half(0x7e00)), 0);
  EXPECT_EQ(__half2ll_rn(__ushort_as_half(0x7e00)), (long long)0x8000000000000000ull);
  EXPECT_EQ(bb(__int2bfloat16_rn(257)), 0x4380);
  EXPECT_EQ(bb(__int2bfloat16_rn(259)), 0x4382);
  EXPECT_EQ(bb(__ull2bfloat16_rz(0xffffffffffffffffull)), 0x5f7f);
}

TEST(Fp16, Arithmetic) {
  const __half one = __float2half(1.0f), eps = __ushort_as_half(0x1400);  // 2^-10
  EXPECT_EQ(hb(__hadd(one, __ushort_as_half(0x0e00))), 0x3c00);
  EXPECT_EQ(hb(__hadd(one, eps)), 0x3c01);
  EXPECT_EQ(hb(__hmul(__float2half(65504.f), __float2half(2.f))), 0x7c00);
  EXPECT_EQ(hb(__hadd_sat(__float2half(0.75f), __float2half(0.5f))), 0x3c00);
  EXPECT_EQ(hb(__hsub_sat(__float2half(0.25f), __float2half(0.5f))), 0x0000);
  // fma rounds once: (1+2^-10)(1-2^-10) - 1 = -2^-20 exactly.
  EXPECT_EQ(hb(__hfma(__ushort_as_half(0x3c01), __ushort_as_half(0x3bfe), __float2half(-1.f))),
            0x8010);
  EXPECT_EQ(hb(__hdiv(__float2half(1.f), __float2half(3.f))), 0x3555);
  EXPECT_EQ(hb(__hneg(__float2half(0.f))), 0x8000);
  EXPECT_EQ(hb(__hmin(__ushort_as_half(0x7e00), one)), 0x3c00);
  EXPECT_EQ(hb(__hmin_nan(__ushort_as_half(0x7e00), one)), 0x7fff);
  EXPECT_TRUE(__hisnan(__ushort_as_half(0x7c01)));
  EXPECT_EQ(__hisinf(__ushort_as_half(0xfc00)), -1);
  EXPECT_FALSE(__heq(__ushort_as_half(0x7e00), __ushort_as_half(0x7e00)));
  EXPECT_TRUE(__hequ(__ushort_as_half(0x7e00), one));
  EXPECT_TRUE(__ushort_as_half(0x7e00) != one);
  EXPECT_TRUE(__heq(__ushort_as_half(0x8000), __ushort_as_half(0x0000)));
  __half h = one;
  h += one;
  ++h;
  EXPECT_EQ(hb(h), 0x4200);
  EXPECT_EQ(hb(hsqrt(__float2half(4.f))), 0x4000);
  EXPECT_EQ(bb(__hadd(__float2bfloat16(1.f), __float2bfloat16(1.f))), 0x4000);
}

TEST(Fp16, Half2) {
  const __half2 a = __floats2half2_rn(1.f, 2.f), b = __floats2half2_rn(3.f, -4.f);
  const __half2 s = __hadd2(a, b);
  EXPECT_EQ(hb(__low2half(s)), 0x4400);
  EXPECT_EQ(hb(__high2half(s)), 0xc000);
  EXPECT_EQ(hb(__low2half(__lowhigh2highlow(a))), 0x4000);
  EXPECT_EQ(__heq2_mask(a, a), 0xffffffffu);
  EXPECT_TRUE(__hbeq2(a, a));
  EXPECT_FALSE(__hblt2(a, b));
  const float2 f = __half22float2(__hmul2(a, b));
  EXPECT_EQ(f.x, 3.f);
  EXPECT_EQ(f.y, -8.f);
  EXPECT_EQ(__low2float(a), 1.f);
  EXPECT_EQ(__high2float(a), 2.f);
}

__global__ void accumulate(__half* h, __half2* h2, __nv_bfloat16* b, __nv_bfloat162* b2,
                           __half* shuffled) {
  atomicAdd(h, __float2half(1.f));
  atomicAdd(h2, __floats2half2_rn(1.f, 2.f));
  atomicAdd(b, __float2bfloat16(1.f));
  atomicAdd(b2, __floats2bfloat162_rn(1.f, 2.f));
  const __half v = __shfl_sync(0xffffffffu, __int2half_rn((int)threadIdx.x), 0);
  if (threadIdx.x == 5 && blockIdx.x == 0) *shuffled = v;  // one writer: no race between blocks
}

TEST(Fp16, AtomicsAndShuffles) {
  __half *h, *sh;
  __half2* h2;
  __nv_bfloat16* b;
  __nv_bfloat162* b2;
  cudaMallocManaged(&h, sizeof(__half));
  cudaMallocManaged(&sh, sizeof(__half));
  cudaMallocManaged(&h2, sizeof(__half2));
  cudaMallocManaged(&b, sizeof(__nv_bfloat16));
  cudaMallocManaged(&b2, sizeof(__nv_bfloat162));
  *h = __float2half(0.f);
  *h2 = __floats2half2_rn(0.f, 0.f);
  *b = __float2bfloat16(0.f);
  *b2 = __floats2bfloat162_rn(0.f, 0.f);
  accumulate<<<4, 64>>>(h, h2, b, b2, sh);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(__half2float(*h), 256.f);
  EXPECT_EQ(__low2float(*h2), 256.f);
  EXPECT_EQ(__high2float(*h2), 512.f);
  EXPECT_EQ(__bfloat162float(*b), 256.f);
  EXPECT_EQ(__high2float(*b2), 512.f);
  EXPECT_EQ(__half2float(*sh), 0.f);
  cudaFree(h);
  cudaFree(sh);
  cudaFree(h2);
  cudaFree(b);
  cudaFree(b2);
}
