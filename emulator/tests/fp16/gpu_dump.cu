// GPU-only: records, for every one of the 65536 bit patterns, the results of the half and
// bfloat16 functions that CUDA computes with approximate hardware instructions (hexp, hlog,
// hsqrt, hrcp, ...), and the hardware reciprocal used by __hdiv. gen_tables turns this into
// emulator/include/cuemu/fp16/approx_tables.h. Build: nvcc -std=c++17 -arch=sm_90 gpu_dump.cu
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <vector>

#define FUNCS(X) X(hsqrt) X(hrsqrt) X(hrcp) X(hexp) X(hexp2) X(hexp10) X(hlog) X(hlog2) X(hlog10) \
                 X(hsin) X(hcos) X(htanh) X(htanh_approx)
#define COUNT(f) +1
constexpr int nfun = 0 FUNCS(COUNT);

__global__ void unary(unsigned short* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  const __half h = __ushort_as_half((unsigned short)i);
  const __nv_bfloat16 b = __ushort_as_bfloat16((unsigned short)i);
  int k = 0;
#define HALF(f) out[(k++) * 65536 + i] = __half_as_ushort(f(h));
#define BF(f) out[(k++) * 65536 + i] = __bfloat16_as_ushort(f(b));
  FUNCS(HALF)
  FUNCS(BF)
}
__global__ void rcp(unsigned* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  float fh = __half2float(__ushort_as_half((unsigned short)i)), rh;
  float fb = __bfloat162float(__ushort_as_bfloat16((unsigned short)i)), rb;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(rh) : "f"(fh));
  asm("rcp.approx.f32 %0, %1;" : "=f"(rb) : "f"(fb));
  out[i] = __float_as_uint(rh);
  out[65536 + i] = __float_as_uint(rb);
}
__global__ void divcheck(const unsigned* in, unsigned* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  float a = __uint_as_float(in[2 * i]), b = __uint_as_float(in[2 * i + 1]), r;
  asm("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  out[i] = __float_as_uint(r);
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  unsigned short* du;
  unsigned *dr, *din, *dd;
  cudaMalloc(&du, 2 * nfun * 65536 * 2);
  cudaMalloc(&dr, 2 * 65536 * 4);
  cudaMalloc(&din, 2 * 65536 * 4);
  cudaMalloc(&dd, 65536 * 4);
  std::vector<unsigned> in(2 * 65536);
  unsigned long long s = 88172645463325252ull;
  for (auto& v : in) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    v = (unsigned)(s >> 20) & 0xffff0000u;  // bf16 values as floats
  }
  cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  unary<<<256, 256>>>(du);
  rcp<<<256, 256>>>(dr);
  divcheck<<<256, 256>>>(din, dd);
  std::vector<unsigned short> u(2 * nfun * 65536);
  std::vector<unsigned> r(2 * 65536), d(65536);
  cudaMemcpy(u.data(), du, u.size() * 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(r.data(), dr, r.size() * 4, cudaMemcpyDeviceToHost);
  if (cudaMemcpy(d.data(), dd, d.size() * 4, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  FILE* f = fopen(argv[1], "wb");
  fwrite(u.data(), 2, u.size(), f);
  fwrite(r.data(), 4, r.size(), f);
  fwrite(in.data(), 4, in.size(), f);
  fwrite(d.data(), 4, d.size(), f);
  fclose(f);
  printf("dump: %d functions x 2 formats\n", nfun);
  return 0;
}
