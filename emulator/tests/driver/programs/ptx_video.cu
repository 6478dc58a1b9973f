// The 4-way SIMD video instructions of PTX (vadd4, vsub4, vabsdiff4, vmin4, vmax4, vavrg4):
// signed and unsigned bytes, saturation, and the .add merge (the only one ptxas accepts for the
// 4-way forms); each result as an H200
// computes it (expected/ptx_video.txt).
#include <cstdio>

#define VIDEO(NAME, TYPES)                                                                   \
  __device__ unsigned NAME##_plain(unsigned a, unsigned b, unsigned c) {                    \
    unsigned d;                                                                              \
    asm(#NAME TYPES " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));                  \
    return d;                                                                                \
  }                                                                                          \
  __device__ unsigned NAME##_sat(unsigned a, unsigned b, unsigned c) {                      \
    unsigned d;                                                                              \
    asm(#NAME TYPES ".sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));              \
    return d;                                                                                \
  }                                                                                          \
  __device__ unsigned NAME##_add(unsigned a, unsigned b, unsigned c) {                      \
    unsigned d;                                                                              \
    asm(#NAME TYPES ".add %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));              \
    return d;                                                                                \
  }

VIDEO(vabsdiff4, ".u32.u32.u32")
VIDEO(vadd4, ".u32.u32.u32")
VIDEO(vsub4, ".s32.s32.s32")
VIDEO(vmin4, ".s32.s32.s32")
VIDEO(vmax4, ".u32.u32.u32")
VIDEO(vavrg4, ".u32.u32.u32")

__global__ void run(unsigned* out) {
  const unsigned as[] = {0x00000000u, 0xff7f8001u, 0x12345678u, 0x80808080u, 0xfedcba98u};
  const unsigned bs[] = {0xffffffffu, 0x01807fffu, 0x87654321u, 0x7f7f7f7fu, 0x10203040u};
  int k = 0;
  for (unsigned a : as)
    for (unsigned b : bs) {
      const unsigned c = a ^ (b >> 3);
#define ALL(NAME)                  \
  out[k++] = NAME##_plain(a, b, c); \
  out[k++] = NAME##_sat(a, b, c);   \
  out[k++] = NAME##_add(a, b, c);
      ALL(vabsdiff4) ALL(vadd4) ALL(vsub4) ALL(vmin4) ALL(vmax4) ALL(vavrg4)
    }
}

int main() {
  unsigned* d;
  cudaMalloc(&d, 4096);
  run<<<1, 1>>>(d);
  unsigned h[600];
  cudaMemcpy(h, d, sizeof(unsigned) * 600, cudaMemcpyDeviceToHost);
  int k = 0;
  for (int pair = 0; pair < 25; ++pair) {
    std::printf("pair %d:", pair);
    for (int n = 0; n < 6; ++n)
      for (int f = 0; f < 3; ++f) std::printf(" %08x", h[k++]);
    std::printf("\n");
  }
  std::printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
