// The emulator's special function unit (emulator/src/libdevice/sfu.c and the PTX wrappers in
// shim.c) against the GPU's, on every input: each PTX instruction below runs on all 2^32 inputs
// on the GPU (the double ones on all 2^32 high words with a low word derived from the high word;
// div.approx on every divisor with a dividend derived from it), the host runs the emulator's
// function of that instruction from the libdevice object, and the bits are compared.
//
//   nvcc -O2 -arch=sm_90 -std=c++17 sfu_check.cu LIBDEVICE_X86_O -o sfu_check -lpthread
//   ./sfu_check [NAME...]
//
// Output per instruction: "NAME differing D of 4294967296", then up to 8 "diff INPUT GPU EMULATOR".
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

extern "C" {
float __asm_rcp_approx_ftz_f32(float);
float __nvvm_rsqrt_approx_f(float);
float __nvvm_rsqrt_approx_ftz_f(float);
float __nvvm_sqrt_approx_f(float);
float __nvvm_sqrt_approx_ftz_f(float);
float __nvvm_ex2_approx_f(float);
float __nvvm_ex2_approx_ftz_f(float);
float __nvvm_lg2_approx_f(float);
float __nvvm_lg2_approx_ftz_f(float);
float __nvvm_sin_approx_f(float);
float __nvvm_sin_approx_ftz_f(float);
float __nvvm_cos_approx_f(float);
float __nvvm_cos_approx_ftz_f(float);
float __nvvm_tanh_approx_f32(float);
float __nvvm_div_approx_f(float, float);
float __nvvm_div_approx_ftz_f(float, float);
double __nvvm_rcp_approx_ftz_d(double);
double __nvvm_rsqrt_approx_ftz_d(double);
double __nvvm_rsqrt_approx_d(double);
#include "../libdevice_host.h"
}

using u32 = uint32_t;
using u64 = uint64_t;

#define OPS                                                                             \
  X(rcp_ftz_f32, F, "rcp.approx.ftz.f32", __asm_rcp_approx_ftz_f32)                      \
  X(rsqrt_f32, F, "rsqrt.approx.f32", __nvvm_rsqrt_approx_f)                             \
  X(rsqrt_ftz_f32, F, "rsqrt.approx.ftz.f32", __nvvm_rsqrt_approx_ftz_f)                 \
  X(sqrt_f32, F, "sqrt.approx.f32", __nvvm_sqrt_approx_f)                                \
  X(sqrt_ftz_f32, F, "sqrt.approx.ftz.f32", __nvvm_sqrt_approx_ftz_f)                    \
  X(ex2_f32, F, "ex2.approx.f32", __nvvm_ex2_approx_f)                                   \
  X(ex2_ftz_f32, F, "ex2.approx.ftz.f32", __nvvm_ex2_approx_ftz_f)                       \
  X(lg2_f32, F, "lg2.approx.f32", __nvvm_lg2_approx_f)                                   \
  X(lg2_ftz_f32, F, "lg2.approx.ftz.f32", __nvvm_lg2_approx_ftz_f)                       \
  X(sin_f32, F, "sin.approx.f32", __nvvm_sin_approx_f)                                   \
  X(sin_ftz_f32, F, "sin.approx.ftz.f32", __nvvm_sin_approx_ftz_f)                       \
  X(cos_f32, F, "cos.approx.f32", __nvvm_cos_approx_f)                                   \
  X(cos_ftz_f32, F, "cos.approx.ftz.f32", __nvvm_cos_approx_ftz_f)                       \
  X(tanh_f32, F, "tanh.approx.f32", __nvvm_tanh_approx_f32)                              \
  X(div_f32, FF, "div.approx.f32", __nvvm_div_approx_f)                                  \
  X(div_ftz_f32, FF, "div.approx.ftz.f32", __nvvm_div_approx_ftz_f)                      \
  X(rcp_ftz_f64, D, "rcp.approx.ftz.f64", __nvvm_rcp_approx_ftz_d)                       \
  X(rsqrt_ftz_f64, D, "rsqrt.approx.ftz.f64", __nvvm_rsqrt_approx_ftz_d)                 \
  X(rsqrt_f64, D, "rsqrt.approx.f64", __nvvm_rsqrt_approx_d)

enum Kind { F, FF, D };
enum Op {
#define X(n, k, p, h) op_##n,
  OPS
#undef X
      op_count
};
const char* names[] = {
#define X(n, k, p, h) #n,
    OPS
#undef X
};

// The other operand (the dividend, or the low word of a double) of input i.
__host__ __device__ inline u32 partner(u32 i) {
  u32 h = i * 0x9e3779b9u;
  h ^= h >> 15;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  return h;
}

__global__ void evaluate(int op, u32 base, u64* out) {
  const u32 i = base + blockIdx.x * blockDim.x + threadIdx.x;
  const float x = __uint_as_float(i), a = __uint_as_float(partner(i));
  const double d = __hiloint2double((int)i, (int)partner(i));
  float r = 0;
  double rd = 0;
  switch (op) {
#define F_CASE(n, p)                                  \
  case op_##n:                                        \
    asm volatile(p " %0, %1;" : "=f"(r) : "f"(x));    \
    break;
#define FF_CASE(n, p)                                         \
  case op_##n:                                                \
    asm volatile(p " %0, %1, %2;" : "=f"(r) : "f"(a), "f"(x)); \
    break;
#define D_CASE(n, p)                                  \
  case op_##n:                                        \
    asm volatile(p " %0, %1;" : "=d"(rd) : "d"(d));   \
    break;
#define X(n, k, p, h) k##_CASE(n, p)
    OPS
#undef X
  }
  const bool dbl = op == op_rcp_ftz_f64 || op == op_rsqrt_ftz_f64 || op == op_rsqrt_f64;
  out[i - base] = dbl ? (u64)__double_as_longlong(rd) : (u64)__float_as_uint(r);
}

u64 host_value(int op, u32 i) {
  float x, a;
  std::memcpy(&x, &i, 4);
  const u32 p = partner(i);
  std::memcpy(&a, &p, 4);
  const u64 db = (u64)i << 32 | p;
  double d;
  std::memcpy(&d, &db, 8);
  auto fbits = [](float f) { u32 u; std::memcpy(&u, &f, 4); return (u64)u; };
  auto dbits = [](double v) { u64 u; std::memcpy(&u, &v, 8); return u; };
  switch (op) {
#define F_H(n, h) \
  case op_##n:    \
    return fbits(h(x));
#define FF_H(n, h) \
  case op_##n:     \
    return fbits(h(a, x));
#define D_H(n, h) \
  case op_##n:    \
    return dbits(h(d));
#define X(n, k, p, h) k##_H(n, h)
    OPS
#undef X
  }
  return 0;
}

int main(int argc, char** argv) {
  constexpr u64 kChunk = 1ull << 28;
  u64* dev = nullptr;
  if (cudaMalloc(&dev, kChunk * 8) != cudaSuccess) return 1;
  std::vector<u64> gpu(kChunk);
  unsigned threads = std::thread::hardware_concurrency();
  if (threads == 0) threads = 4;
  for (int op = 0; op < op_count; ++op) {
    bool want = argc < 2;
    for (int i = 1; i < argc; ++i) want |= std::string(argv[i]) == names[op];
    if (!want) continue;
    std::atomic<u64> differing{0};
    std::vector<std::string> shown;
    for (u64 base = 0; base < (1ull << 32); base += kChunk) {
      evaluate<<<kChunk / 256, 256>>>(op, (u32)base, dev);
      if (cudaMemcpy(gpu.data(), dev, kChunk * 8, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
      std::vector<std::vector<std::string>> first(threads);
      std::vector<std::thread> pool;
      for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
          u64 mine = 0;
          for (u64 i = t; i < kChunk; i += threads) {
            const u64 cpu = host_value(op, (u32)(base + i));
            if (cpu != gpu[i] && ++mine <= 8) {
              char line[96];
              std::snprintf(line, sizeof line, "diff %08x %llx %llx", (u32)(base + i),
                            (unsigned long long)gpu[i], (unsigned long long)cpu);
              first[t].push_back(line);
            }
          }
          differing += mine;
        });
      for (auto& th : pool) th.join();
      for (auto& f : first)
        for (auto& l : f)
          if (shown.size() < 8) shown.push_back(l);
    }
    std::printf("%s differing %llu of 4294967296\n", names[op], (unsigned long long)differing.load());
    for (auto& l : shown) std::printf("%s\n", l.c_str());
    std::fflush(stdout);
  }
  cudaFree(dev);
  return 0;
}
