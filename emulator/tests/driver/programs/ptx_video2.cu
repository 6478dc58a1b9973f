// The 2-way SIMD video instructions of PTX (vadd2, vsub2, vabsdiff2, vmin2, vmax2, vavrg2) on
// signed and unsigned halfwords, plain, saturated and with the .add accumulate; the 4-way vavrg4
// on signed bytes (negative sums); and %globaltimer_hi beside %globaltimer. Each result as an
// H200 computes it (expected/ptx_video2.txt).
#include <cstdio>

#define VIDEO(NAME, SUFFIX, TYPES)                                                           \
  __device__ unsigned NAME##SUFFIX##_plain(unsigned a, unsigned b, unsigned c) {            \
    unsigned d;                                                                              \
    asm(#NAME TYPES " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));                  \
    return d;                                                                                \
  }                                                                                          \
  __device__ unsigned NAME##SUFFIX##_sat(unsigned a, unsigned b, unsigned c) {              \
    unsigned d;                                                                              \
    asm(#NAME TYPES ".sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));              \
    return d;                                                                                \
  }                                                                                          \
  __device__ unsigned NAME##SUFFIX##_add(unsigned a, unsigned b, unsigned c) {              \
    unsigned d;                                                                              \
    asm(#NAME TYPES ".add %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));              \
    return d;                                                                                \
  }

VIDEO(vadd2, _u, ".u32.u32.u32")
VIDEO(vadd2, _s, ".s32.s32.s32")
VIDEO(vsub2, _u, ".u32.u32.u32")
VIDEO(vsub2, _s, ".s32.s32.s32")
VIDEO(vabsdiff2, _u, ".u32.u32.u32")
VIDEO(vabsdiff2, _s, ".s32.s32.s32")
VIDEO(vmin2, _u, ".u32.u32.u32")
VIDEO(vmin2, _s, ".s32.s32.s32")
VIDEO(vmax2, _u, ".u32.u32.u32")
VIDEO(vmax2, _s, ".s32.s32.s32")
VIDEO(vavrg2, _u, ".u32.u32.u32")
VIDEO(vavrg2, _s, ".s32.s32.s32")
VIDEO(vavrg4, _s, ".s32.s32.s32")
VIDEO(vadd2, _us, ".s32.u32.s32")

constexpr int kResults = 14 * 3;

__global__ void run(const unsigned* as, const unsigned* bs, int n, unsigned* out) {
  int k = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const unsigned a = as[i], b = bs[j], c = a ^ (b >> 3);
#define ALL(NAME)                  \
  out[k++] = NAME##_plain(a, b, c); \
  out[k++] = NAME##_sat(a, b, c);   \
  out[k++] = NAME##_add(a, b, c);
      ALL(vadd2_u) ALL(vadd2_s) ALL(vsub2_u) ALL(vsub2_s) ALL(vabsdiff2_u) ALL(vabsdiff2_s)
      ALL(vmin2_u) ALL(vmin2_s) ALL(vmax2_u) ALL(vmax2_s) ALL(vavrg2_u) ALL(vavrg2_s)
      ALL(vavrg4_s) ALL(vadd2_us)
    }
}

__global__ void timer(unsigned* out) {
  unsigned long long t0, t1;
  unsigned hi;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(hi));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  out[0] = hi >= static_cast<unsigned>(t0 >> 32) && hi <= static_cast<unsigned>(t1 >> 32);
  out[1] = hi != 0;
}

int main() {
  const unsigned as[] = {0x00000000u, 0xffff0001u, 0x7fff8000u, 0x12345678u, 0x80008000u,
                         0xfedcba98u, 0x00ff7f80u};
  const unsigned bs[] = {0xffffffffu, 0x00017fffu, 0x80017ffeu, 0x87654321u, 0x7fff7fffu,
                         0x10203040u, 0xff80ff81u};
  const int n = 7;
  unsigned *d_a, *d_b, *d;
  cudaMalloc(&d_a, sizeof as);
  cudaMalloc(&d_b, sizeof bs);
  cudaMalloc(&d, sizeof(unsigned) * n * n * kResults);
  cudaMemcpy(d_a, as, sizeof as, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, bs, sizeof bs, cudaMemcpyHostToDevice);
  run<<<1, 1>>>(d_a, d_b, n, d);
  static unsigned h[7 * 7 * kResults];
  cudaMemcpy(h, d, sizeof(unsigned) * n * n * kResults, cudaMemcpyDeviceToHost);
  int k = 0;
  for (int pair = 0; pair < n * n; ++pair) {
    std::printf("%08x %08x:", as[pair / n], bs[pair % n]);
    for (int r = 0; r < kResults; ++r) std::printf(" %08x", h[k++]);
    std::printf("\n");
  }
  timer<<<1, 1>>>(d);
  unsigned t[2];
  cudaMemcpy(t, d, sizeof t, cudaMemcpyDeviceToHost);
  std::printf("globaltimer_hi between two reads of globaltimer: %u, not zero: %u\n", t[0], t[1]);
  std::printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
