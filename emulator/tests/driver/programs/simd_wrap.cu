// The SIMD video intrinsics that simd_dpx.cu leaves out: per-halfword and per-byte addition and
// subtraction with wrap-around, absolute differences, minimum and maximum (signed and unsigned),
// and __dp4a in its signed and unsigned forms; each result as an H200 computes it
// (expected/simd_wrap.txt).
#include <cstdio>

constexpr int kFunctions = 18;

__global__ void run(const unsigned* in, int n, unsigned* out) {
  const int i = threadIdx.x, j = blockIdx.x;
  const unsigned a = in[i], b = in[j], c = in[(i + 3 * j) % n];
  const unsigned r[kFunctions] = {
      __vadd2(a, b),       __vadd4(a, b),       __vsub2(a, b),       __vsub4(a, b),
      __vabsdiffs2(a, b),  __vabsdiffs4(a, b),  __vabsdiffu2(a, b),  __vabsdiffu4(a, b),
      __vmaxs2(a, b),      __vmaxs4(a, b),      __vmaxu2(a, b),      __vmaxu4(a, b),
      __vmins2(a, b),      __vmins4(a, b),      __vminu2(a, b),      __vminu4(a, b),
      static_cast<unsigned>(__dp4a(static_cast<int>(a), static_cast<int>(b), static_cast<int>(c))),
      __dp4a(a, b, c)};
  unsigned* o = out + (j * n + i) * kFunctions;
  for (int k = 0; k < kFunctions; ++k) o[k] = r[k];
}

int main() {
  const unsigned values[] = {0x00000000u, 0xffffffffu, 0x7fff8000u, 0x80007fffu, 0x01020304u,
                             0xfffefdfcu, 0x7f7f8080u, 0x80807f7fu, 0x12345678u, 0x9abcdef0u,
                             0x00ff00ffu, 0xff00ff00u, 0x7ffffffeu, 0x80000001u, 0x0001ffffu,
                             0xdeadbeefu};
  const int n = sizeof values / sizeof values[0];
  unsigned *d_in, *d_out;
  cudaMalloc(&d_in, sizeof values);
  cudaMalloc(&d_out, sizeof(unsigned) * n * n * kFunctions);
  cudaMemcpy(d_in, values, sizeof values, cudaMemcpyHostToDevice);
  run<<<n, n>>>(d_in, n, d_out);
  static unsigned h[16 * 16 * kFunctions];
  cudaMemcpy(h, d_out, sizeof(unsigned) * n * n * kFunctions, cudaMemcpyDeviceToHost);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      std::printf("%08x %08x:", values[i], values[j]);
      for (int k = 0; k < kFunctions; ++k) std::printf(" %08x", h[(j * n + i) * kFunctions + k]);
      std::printf("\n");
    }
  std::printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
