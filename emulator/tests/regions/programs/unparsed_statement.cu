// A kernel with a statement clang cannot parse as the region translation sees the file (here a
// type the emulator's own build defines and clang's parse does not): clang leaves the statement
// out of its AST, so the translation must keep the kernel on coroutines rather than write a
// region form without it. The program checks the statement ran.
#include <cstdio>

#ifndef __CUEMU_REGIONS_PARSE__
typedef int hidden_int;
#endif

__device__ hidden_int twice(int x) { return 2 * x; }

__global__ void doubles(const int* in, int* out) {
  __shared__ int s[64];
  int v = in[threadIdx.x];
  v = twice(v);
  s[threadIdx.x] = v;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

int main() {
  int h[64], r[64];
  for (int i = 0; i < 64; ++i) h[i] = i * 3 + 1;
  int *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof r);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  doubles<<<1, 64>>>(in, out);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 64; ++i) bad += r[i] != 2 * h[63 - i];
  std::printf("%s\n", bad ? "WRONG" : "ok");
  return bad ? 1 : 0;
}
