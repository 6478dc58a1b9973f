// A kernel's own float and double arithmetic with NaN results on both sides of a barrier (the
// emulator runs it as loops over threads, whose regions g++ does not inline at -O0): each line is
// an operation of the math probe whose result the H200 recorded (../h200.txt.gz), printed as
// "name inputs -> result" in the probe's format.
#include <cstdio>

struct inputs {
  float f[2];
  double d[4];
};

__global__ void across(const inputs* in, unsigned long long* out) {
  __shared__ unsigned long long s[4];
  const int t = threadIdx.x;
  unsigned long long r = 0;
  if (t == 0) r = __float_as_uint(in->f[0] * in->f[1]);                      // 0 * inf
  if (t == 1) r = __float_as_uint(in->f[1] - in->f[1]);                      // inf - inf
  if (t == 2) r = __double_as_longlong(in->d[0] + in->d[1]);                 // NaN + NaN
  if (t == 3) r = __double_as_longlong(in->d[2] * in->d[3]);                 // 0 * inf
  s[t] = r;
  __syncthreads();
  out[t] = s[3 - t];
}

int main() {
  inputs* in;
  unsigned long long* out;
  cudaMallocManaged(&in, sizeof(inputs));
  cudaMallocManaged(&out, 4 * sizeof(unsigned long long));
  const unsigned fb[2] = {0x00000000u, 0x7f800000u};
  const unsigned long long db[4] = {0x7ff8000012345678ull, 0xfff8000000000001ull, 0, 0x7ff0000000000000ull};
  __builtin_memcpy(in->f, fb, sizeof fb);
  __builtin_memcpy(in->d, db, sizeof db);
  across<<<1, 4>>>(in, out);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  std::printf("op_fmul 00000000 7f800000 -> %08llx\n", out[3]);
  std::printf("op_fsub 7f800000 7f800000 -> %08llx\n", out[2]);
  std::printf("op_dadd 7ff8000012345678 fff8000000000001 -> %016llx\n", out[1]);
  std::printf("op_dmul 0000000000000000 7ff0000000000000 -> %016llx\n", out[0]);
  return 0;
}
