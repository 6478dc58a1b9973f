// SIMD video intrinsics on 2 x 16-bit and 4 x 8-bit lanes, __dp2a_lo/_hi, and sm_90's DPX
// functions (three-way and add-then min/max, ReLU forms, the forms that report the winner): each
// result as an H200 computes it (expected/simd_dpx.txt).
#include <cstdio>

#define BIN(F) F(a, b)
__global__ void run(const unsigned* in, int n, unsigned* out) {
  int k = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const unsigned a = in[i], b = in[j], c = in[(i + 2 * j) % n];
      const int sa = static_cast<int>(a), sb = static_cast<int>(b), sc = static_cast<int>(c);
      unsigned r[] = {
          __vaddss2(a, b), __vaddss4(a, b), __vaddus2(a, b), __vaddus4(a, b),
          __vsubss2(a, b), __vsubss4(a, b), __vsubus2(a, b), __vsubus4(a, b),
          __vavgs2(a, b), __vavgs4(a, b), __vavgu2(a, b), __vavgu4(a, b),
          __vhaddu2(a, b), __vhaddu4(a, b),
          __vcmpeq2(a, b), __vcmpeq4(a, b), __vcmpne2(a, b), __vcmpne4(a, b),
          __vcmpges2(a, b), __vcmpges4(a, b), __vcmpgeu2(a, b), __vcmpgeu4(a, b),
          __vcmpgts2(a, b), __vcmpgts4(a, b), __vcmpgtu2(a, b), __vcmpgtu4(a, b),
          __vcmples2(a, b), __vcmples4(a, b), __vcmpleu2(a, b), __vcmpleu4(a, b),
          __vcmplts2(a, b), __vcmplts4(a, b), __vcmpltu2(a, b), __vcmpltu4(a, b),
          __vseteq2(a, b), __vseteq4(a, b), __vsetne2(a, b), __vsetne4(a, b),
          __vsetges2(a, b), __vsetges4(a, b), __vsetgeu2(a, b), __vsetgeu4(a, b),
          __vsetgts2(a, b), __vsetgts4(a, b), __vsetgtu2(a, b), __vsetgtu4(a, b),
          __vsetles2(a, b), __vsetles4(a, b), __vsetleu2(a, b), __vsetleu4(a, b),
          __vsetlts2(a, b), __vsetlts4(a, b), __vsetltu2(a, b), __vsetltu4(a, b),
          __vabs2(a), __vabs4(a), __vabsss2(a), __vabsss4(a),
          __vneg2(a), __vneg4(a), __vnegss2(a), __vnegss4(a),
          __vsads2(a, b), __vsads4(a, b), __vsadu2(a, b), __vsadu4(a, b),
          static_cast<unsigned>(__dp2a_lo(sa, sb, sc)), static_cast<unsigned>(__dp2a_hi(sa, sb, sc)),
          __dp2a_lo(a, b, c), __dp2a_hi(a, b, c),
          static_cast<unsigned>(__vimax_s32_relu(sa, sb)), static_cast<unsigned>(__vimin_s32_relu(sa, sb)),
          __vimax_s16x2_relu(a, b), __vimin_s16x2_relu(a, b),
          static_cast<unsigned>(__vimax3_s32(sa, sb, sc)), __vimax3_u32(a, b, c),
          static_cast<unsigned>(__vimin3_s32(sa, sb, sc)), __vimin3_u32(a, b, c),
          static_cast<unsigned>(__vimax3_s32_relu(sa, sb, sc)), static_cast<unsigned>(__vimin3_s32_relu(sa, sb, sc)),
          __vimax3_s16x2(a, b, c), __vimax3_u16x2(a, b, c), __vimin3_s16x2(a, b, c), __vimin3_u16x2(a, b, c),
          __vimax3_s16x2_relu(a, b, c), __vimin3_s16x2_relu(a, b, c),
          static_cast<unsigned>(__viaddmax_s32(sa, sb, sc)), __viaddmax_u32(a, b, c),
          static_cast<unsigned>(__viaddmin_s32(sa, sb, sc)), __viaddmin_u32(a, b, c),
          static_cast<unsigned>(__viaddmax_s32_relu(sa, sb, sc)), static_cast<unsigned>(__viaddmin_s32_relu(sa, sb, sc)),
          __viaddmax_s16x2(a, b, c), __viaddmax_u16x2(a, b, c), __viaddmin_s16x2(a, b, c), __viaddmin_u16x2(a, b, c),
          __viaddmax_s16x2_relu(a, b, c), __viaddmin_s16x2_relu(a, b, c)};
      for (unsigned v : r) out[k++] = v;
      bool p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12;
      out[k++] = static_cast<unsigned>(__vibmax_s32(sa, sb, &p1));
      out[k++] = __vibmax_u32(a, b, &p2);
      out[k++] = static_cast<unsigned>(__vibmin_s32(sa, sb, &p3));
      out[k++] = __vibmin_u32(a, b, &p4);
      out[k++] = __vibmax_s16x2(a, b, &p5, &p6);
      out[k++] = __vibmax_u16x2(a, b, &p7, &p8);
      out[k++] = __vibmin_s16x2(a, b, &p9, &p10);
      out[k++] = __vibmin_u16x2(a, b, &p11, &p12);
      out[k++] = p1 | p2 << 1 | p3 << 2 | p4 << 3 | p5 << 4 | p6 << 5 | p7 << 6 | p8 << 7 |
                 p9 << 8 | p10 << 9 | p11 << 10 | p12 << 11;
    }
}

int main() {
  const unsigned in[] = {0x00000000u, 0xffffffffu, 0x7fff8000u, 0x80017ffeu, 0x12345678u,
                         0xfe01ff80u, 0x7f7f8080u, 0x00010002u};
  const int n = sizeof in / sizeof in[0];
  unsigned *d_in, *d_out;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_out, 64 * 128 * sizeof(unsigned));
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  run<<<1, 1>>>(d_in, n, d_out);
  static unsigned h[64 * 128];
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  const int per = 101;
  for (int p = 0; p < n * n; ++p) {
    std::printf("%d,%d:", p / n, p % n);
    for (int i = 0; i < per; ++i) std::printf(" %x", h[p * per + i]);
    std::printf("\n");
  }
  std::printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
