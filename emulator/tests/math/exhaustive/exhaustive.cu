// Every single-precision unary function of the CUDA Math API on all 2^32 inputs (issue 14): the
// GPU computes them, and the host of the same machine computes what the emulator computes for
// them (libdevice built for the CPU, emulator/src/libdevice, called as cuemu's device code calls
// it), and compares the bits. Runs on a machine with an NVIDIA GPU:
//
//   nvcc -O2 -arch=sm_90 -std=c++17 exhaustive.cu LIBDEVICE_X86_O -o exhaustive -lpthread
//   ./exhaustive [--only NAME,NAME... | --part K/N] > h200.txt
//   ./exhaustive --host --only NAME,...   (no GPU: the emulator's hashes, per range)
//
// LIBDEVICE_X86_O: build/emulator/libdevice/libdevice_x86.o of an emulator build (the object's C
// library calls, __cuemu_host_*, are defined in ../libdevice_host.h as the C library's own).
//
// Output, one block per function:
//   #fn NAME  differing D of 4294967296
//   diff INPUT GPU CPU          (the first 16 differing inputs, in input order)
//   hash RANGE H D              (FNV-1a over the GPU's 2^24 results of inputs RANGE<<24 ...,
//                                and how many of them differ on the host)
// A result is one 32-bit word or two (64-bit integers; two results, the first in the low word),
// hashed word by word, low word first.
// The hashes let a test without a GPU check a range of the emulator's results against the H200
// (exhaustive_test.cpp); the counts go into COMPATIBILITY.md.
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

// What the emulator runs for each function (cuemu/device_functions.h, runtime/math_library.cpp):
// X(name, device expression of x, host expression of x).
extern "C" {
#define DECL(n) float __nv_##n(float) noexcept;
DECL(sinf) DECL(cosf) DECL(tanf) DECL(asinf) DECL(acosf) DECL(atanf) DECL(sinhf) DECL(coshf)
DECL(tanhf) DECL(asinhf) DECL(acoshf) DECL(atanhf) DECL(expf) DECL(exp2f) DECL(exp10f)
DECL(expm1f) DECL(logf) DECL(log2f) DECL(log10f) DECL(log1pf) DECL(logbf) DECL(cbrtf) DECL(erff)
DECL(erfcf) DECL(lgammaf) DECL(tgammaf) DECL(j0f) DECL(j1f) DECL(y0f) DECL(y1f) DECL(rsqrtf)
DECL(rcbrtf) DECL(erfinvf) DECL(erfcinvf) DECL(erfcxf) DECL(sinpif) DECL(cospif) DECL(normcdff)
DECL(normcdfinvf) DECL(cyl_bessel_i0f) DECL(cyl_bessel_i1f) DECL(frsqrt_rn) DECL(fsqrt_rz)
DECL(fsqrt_ru) DECL(fsqrt_rd) DECL(frcp_rz) DECL(frcp_ru) DECL(frcp_rd) DECL(fast_sinf)
DECL(fast_cosf) DECL(fast_tanf) DECL(fast_tanhf) DECL(fast_expf) DECL(fast_exp10f)
DECL(fast_logf) DECL(fast_log2f) DECL(fast_log10f) DECL(roundf) DECL(frcp_rn) DECL(fsqrt_rn)
#undef DECL
int __nv_ilogbf(float) noexcept;
long long __nv_llrintf(float) noexcept;
long long __nv_llroundf(float) noexcept;
float __nv_frexpf(float, int*) noexcept;
float __nv_modff(float, float*) noexcept;
void __nv_sincosf(float, float*, float*) noexcept;
void __nv_fast_sincosf(float, float*, float*) noexcept;
void __nv_sincospif(float, float*, float*) noexcept;
// libdevice's object calls these C library functions (build.py renames them); the emulator's
// runtime defines them itself.
#if !defined(__CUEMU__)
#include "../libdevice_host.h"
#endif
}

// The explicitly rounded conversions' arithmetic, as cuemu's device code has it.
#include "../../../include/cuemu/conversions.h"

// A result as one 32-bit word (W 1) or two (W 2: a 64-bit integer, or two floats, the first in
// the low word), as the bits of an unsigned 64-bit value.
__host__ __device__ inline std::uint64_t F_(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
__host__ __device__ inline std::uint64_t FF_(float a, float b) { return F_(a) | F_(b) << 32; }
__host__ __device__ inline std::uint64_t D_(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
#define I_(v) static_cast<std::uint64_t>(static_cast<std::uint32_t>(v))
#define L_(v) static_cast<std::uint64_t>(v)

// X(name, words, device expression of x, host expression of x): each expression is the result's
// bits (F_, FF_, I_, L_); the host's is what the emulator's device code computes.
#define LD(n) X(n, 1, F_(n(x)), F_(__nv_##n(x)))
#define LD2(n, nv) X(n, 1, F_(n(x)), F_(__nv_##nv(x)))
// Two results through pointers: sincosf(x, &a, &b), frexpf/modff(x, &b) -> (a, b).
#define LDSC(n, nv) X(n, 2, ([x] { float a = 0, b = 0; n(x, &a, &b); return FF_(a, b); }()), \
                      ([x] { float a = 0, b = 0; __nv_##nv(x, &a, &b); return FF_(a, b); }()))
// cvt with rounding direction M (0 rn, 1 rz, 2 ru, 3 rd) to integer type T.
#define CV(n, W, T, M, R) X(n, W, R(n(x)), R(::cuemu::detail::saturating_convert<T>(::cuemu::detail::round_mode(x, M))))
#define CONVERSIONS(S, M)                                                                        \
  CV(__float2int_##S, 1, int, M, I_) CV(__float2uint_##S, 1, unsigned, M, I_)                    \
  CV(__float2ll_##S, 2, long long, M, L_) CV(__float2ull_##S, 2, unsigned long long, M, L_)
// What the emulator computes with the CPU's own instructions (correctly rounded, as the GPU) and
// the GPU's NaN results from its g++ plugin (src/gpu_fp): the canonical NaN 0x7fffffff; and the
// plugin's saturating conversions. The host here computes them by those rules.
inline float canon(float f) {
  if (f == f) return f;
  const std::uint32_t u = 0x7fffffffu;
  std::memcpy(&f, &u, 4);
  return f;
}
template <class T>
T to_int(float x) {  // cvt.rzi: through 32 bits (signed or unsigned as T) for narrower types
  using W = std::conditional_t<(sizeof(T) < 4), std::conditional_t<std::is_signed_v<T>, int, unsigned>, T>;
  return static_cast<T>(::cuemu::detail::saturating_convert<W>(std::trunc(x)));
}
#define FUNCTIONS                                                                                \
  LD(sinf) LD(cosf) LD(tanf) LD(asinf) LD(acosf) LD(atanf) LD(sinhf) LD(coshf) LD(tanhf)        \
  LD(asinhf) LD(acoshf) LD(atanhf) LD(expf) LD(exp2f) LD(exp10f) LD(expm1f) LD(logf) LD(log2f)  \
  LD(log10f) LD(log1pf) LD(logbf) LD(cbrtf) LD(erff) LD(erfcf) LD(lgammaf) LD(tgammaf) LD(j0f)  \
  LD(j1f) LD(y0f) LD(y1f) LD(rsqrtf) LD(rcbrtf) LD(erfinvf) LD(erfcinvf) LD(erfcxf) LD(sinpif)  \
  LD(cospif) LD(normcdff) LD(normcdfinvf) LD(cyl_bessel_i0f) LD(cyl_bessel_i1f) LD(roundf)      \
  LD2(__frsqrt_rn, frsqrt_rn) LD2(__fsqrt_rz, fsqrt_rz) LD2(__fsqrt_ru, fsqrt_ru)               \
  LD2(__fsqrt_rd, fsqrt_rd) LD2(__frcp_rz, frcp_rz) LD2(__frcp_ru, frcp_ru)                     \
  LD2(__frcp_rd, frcp_rd) LD2(__sinf, fast_sinf) LD2(__cosf, fast_cosf) LD2(__tanf, fast_tanf) \
  LD2(__tanhf, fast_tanhf) LD2(__expf, fast_expf) LD2(__exp10f, fast_exp10f)                    \
  LD2(__logf, fast_logf) LD2(__log2f, fast_log2f) LD2(__log10f, fast_log10f)                   \
  /* added 2026-12-05 */                                                                         \
  LD2(__frcp_rn, frcp_rn) LD2(__fsqrt_rn, fsqrt_rn) X(ilogbf, 1, I_(ilogbf(x)), I_(__nv_ilogbf(x)))  \
  X(llrintf, 2, L_(llrintf(x)), L_(__nv_llrintf(x))) X(lrintf, 2, L_(lrintf(x)), L_(__nv_llrintf(x)))  \
  X(llroundf, 2, L_(llroundf(x)), L_(__nv_llroundf(x)))                                          \
  X(lroundf, 2, L_(lroundf(x)), L_(__nv_llroundf(x)))                                            \
  X(frexpf, 2, ([x] { int e = 0; float m = frexpf(x, &e); return F_(m) | I_(e) << 32; }()),      \
    ([x] { int e = 0; float m = __nv_frexpf(x, &e); return F_(m) | I_(e) << 32; }()))            \
  X(modff, 2, ([x] { float i = 0; float f = modff(x, &i); return FF_(f, i); }()),                \
    ([x] { float i = 0; float f = __nv_modff(x, &i); return FF_(f, i); }()))                     \
  LDSC(sincosf, sincosf) LDSC(__sincosf, fast_sincosf) LDSC(sincospif, sincospif)                \
  CONVERSIONS(rn, 0) CONVERSIONS(rz, 1) CONVERSIONS(ru, 2) CONVERSIONS(rd, 3)                    \
  X(sqrtf, 1, F_(sqrtf(x)), F_(canon(std::sqrt(x))))                                         \
  X(fabsf, 1, F_(fabsf(x)), F_(canon(std::fabs(x))))                                         \
  X(floorf, 1, F_(floorf(x)), F_(canon(std::floor(x))))                                      \
  X(ceilf, 1, F_(ceilf(x)), F_(canon(std::ceil(x))))                                         \
  X(truncf, 1, F_(truncf(x)), F_(canon(std::trunc(x))))                                      \
  X(rintf, 1, F_(rintf(x)), F_(canon(std::nearbyint(x))))                                    \
  X(nearbyintf, 1, F_(nearbyintf(x)), F_(canon(std::nearbyint(x))))                          \
  X(__saturatef, 1, F_(__saturatef(x)), F_(x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f))         \
  X(op_fneg, 1, F_(-x), F_(canon(-x))) X(op_frcp, 1, F_(1.0f / x), F_(canon(1.0f / x)))  \
  X(op_f2d, 2, D_(static_cast<double>(x)),                            \
        D_(static_cast<double>(x)))                                \
  X(op_f2i, 1, I_(static_cast<int>(x)), I_(to_int<int>(x)))                                  \
  X(op_f2u, 1, I_(static_cast<unsigned>(x)), I_(to_int<unsigned>(x)))                        \
  X(op_f2ll, 2, L_(static_cast<long long>(x)), L_(to_int<long long>(x)))                     \
  X(op_f2ull, 2, L_(static_cast<unsigned long long>(x)), L_(to_int<unsigned long long>(x)))  \
  X(op_f2s16, 1, I_(static_cast<short>(x)), I_(to_int<short>(x)))                            \
  X(op_f2u16, 1, I_(static_cast<unsigned short>(x)), I_(to_int<unsigned short>(x)))          \
  X(op_f2s8, 1, I_(static_cast<signed char>(x)), I_(to_int<signed char>(x)))                 \
  X(op_f2u8, 1, I_(static_cast<unsigned char>(x)), I_(to_int<unsigned char>(x)))

constexpr unsigned kChunkLog = 28;  // inputs per GPU pass
constexpr std::size_t kChunk = std::size_t(1) << kChunkLog;
constexpr unsigned kRangeLog = 24;  // inputs per hash

enum fn_id {
#define X(n, w, d, h) id_##n,
  FUNCTIONS
#undef X
  fn_count
};
const char* const fn_names[] = {
#define X(n, w, d, h) #n,
    FUNCTIONS
#undef X
};
// Words of fn's result.
__host__ __device__ inline int fn_words(int fn) {
  switch (fn) {
#define X(n, w, d, h) \
  case id_##n:        \
    return w;
    FUNCTIONS
#undef X
  }
  return 1;
}

// Input base + i of function fn: its W words at out[W * i].
__global__ void evaluate(int fn, std::uint32_t base, std::uint32_t* out) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint32_t bits = base + static_cast<std::uint32_t>(i);
  const float x = __uint_as_float(bits);
  std::uint64_t r = 0;
  switch (fn) {
#define X(n, w, d, h) \
  case id_##n:        \
    r = d;            \
    break;
    FUNCTIONS
#undef X
  }
  const int w = fn_words(fn);
  out[w * i] = static_cast<std::uint32_t>(r);
  if (w == 2) out[w * i + 1] = static_cast<std::uint32_t>(r >> 32);
}

std::uint64_t host_value(int fn, float x) {
  switch (fn) {
#define X(n, w, d, h) \
  case id_##n:        \
    return h;
    FUNCTIONS
#undef X
  }
  return 0;
}


// `only`: empty (every function) or names separated by commas.
bool listed(const std::string& only, const char* name) {
  return only.empty() || ("," + only + ",").find("," + std::string(name) + ",") != std::string::npos;
}

int main(int argc, char** argv) {
  // --part K/N: only the functions whose index is K modulo N (to split a run).
  // --range R: no comparison; every function's device results on inputs R<<24 ... (R<<24) + 2^24
  // - 1, hashed as above ("hash NAME R H"): on the emulator, the emulator's (exhaustive_test).
  unsigned part = 0, parts = 1;
  long range = -1;
  std::string only;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--only") only = argv[i + 1];
    if (std::string(argv[i]) == "--part") std::sscanf(argv[i + 1], "%u/%u", &part, &parts);
    if (std::string(argv[i]) == "--range") range = std::strtol(argv[i + 1], nullptr, 10);
  }
  // --host: no GPU; the host's (the emulator's) results hashed per range as above ("hash NAME R
  // H"), to compare with a record's GPU hashes on a machine without a GPU.
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--host") {
      constexpr std::size_t n = std::size_t(1) << kRangeLog;
      unsigned threads = std::thread::hardware_concurrency();
      for (int fn = 0; fn < fn_count; ++fn) {
        if (!listed(only, fn_names[fn])) continue;
        std::vector<unsigned long long> hash(256);
        std::atomic<int> next{0};
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < (threads ? threads : 4); ++t)
          pool.emplace_back([&] {
            for (int r; (r = next.fetch_add(1)) < 256;) {
              unsigned long long h = 1469598103934665603ull;
              for (std::size_t i = 0; i < n; ++i) {
                const std::uint32_t in = static_cast<std::uint32_t>((std::size_t(r) << kRangeLog) + i);
                float x;
                std::memcpy(&x, &in, 4);
                const std::uint64_t v = host_value(fn, x);
                h = (h ^ static_cast<std::uint32_t>(v)) * 1099511628211ull;
                if (fn_words(fn) == 2) h = (h ^ static_cast<std::uint32_t>(v >> 32)) * 1099511628211ull;
              }
              hash[r] = h;
            }
          });
        for (auto& th : pool) th.join();
        for (int r = 0; r < 256; ++r) std::printf("hash %s %d %016llx\n", fn_names[fn], r, hash[r]);
        std::fflush(stdout);
      }
      return 0;
    }
  if (range >= 0) {
    constexpr std::size_t n = std::size_t(1) << kRangeLog;
    std::uint32_t* out = nullptr;
    if (range > 255 || cudaMalloc(&out, 2 * n * 4) != cudaSuccess) return 1;
    std::vector<std::uint32_t> got(2 * n);
    for (int fn = 0; fn < fn_count; ++fn) {
      if (!listed(only, fn_names[fn])) continue;
      evaluate<<<n / 256, 256>>>(fn, static_cast<std::uint32_t>(range) << kRangeLog, out);
      const std::size_t words = n * fn_words(fn);
      if (cudaMemcpy(got.data(), out, words * 4, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
      unsigned long long h = 1469598103934665603ull;
      for (std::size_t k = 0; k < words; ++k) h = (h ^ got[k]) * 1099511628211ull;
      std::printf("hash %s %ld %016llx\n", fn_names[fn], range, h);
    }
    cudaFree(out);
    return 0;
  }
  std::uint32_t* dev = nullptr;
  if (cudaMalloc(&dev, 2 * kChunk * 4) != cudaSuccess) return 1;
  std::vector<std::uint32_t> gpu(2 * kChunk);
  constexpr std::size_t kRange = std::size_t(1) << kRangeLog;
  constexpr std::size_t kRanges = kChunk / kRange;
  unsigned threads = std::thread::hardware_concurrency();
  if (threads == 0) threads = 4;
  for (int fn = 0; fn < fn_count; ++fn) {
    if (!listed(only, fn_names[fn])) continue;
    if (only.empty() && fn % parts != part) continue;
    unsigned long long differing = 0;
    std::vector<std::string> shown;
    std::vector<unsigned long long> hashes, range_differing;
    for (std::uint64_t base = 0; base < (std::uint64_t(1) << 32); base += kChunk) {
      evaluate<<<kChunk / 256, 256>>>(fn, static_cast<std::uint32_t>(base), dev);
      const int w = fn_words(fn);
      if (cudaMemcpy(gpu.data(), dev, w * kChunk * 4, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
      // Each 2^24 range on one host thread: its differing count, first differences and hash.
      std::vector<unsigned long long> count(kRanges), hash(kRanges);
      std::vector<std::vector<std::string>> first(kRanges);
      std::vector<std::thread> pool;
      std::atomic<std::size_t> next{0};
      for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&] {
          for (std::size_t r; (r = next.fetch_add(1)) < kRanges;) {
            unsigned long long h = 1469598103934665603ull;
            for (std::size_t i = r * kRange; i < (r + 1) * kRange; ++i) {
              for (int k = 0; k < w; ++k) h = (h ^ gpu[w * i + k]) * 1099511628211ull;
              const std::uint32_t in = static_cast<std::uint32_t>(base + i);
              float x;
              std::memcpy(&x, &in, 4);
              const std::uint64_t cpu = host_value(fn, x);
              const std::uint64_t got =
                  w == 2 ? gpu[w * i] | std::uint64_t(gpu[w * i + 1]) << 32 : gpu[w * i];
              if (cpu != got && ++count[r] <= 16) {
                char line[80];
                std::snprintf(line, sizeof line, "diff %08x %0*llx %0*llx", in, 8 * w,
                              static_cast<unsigned long long>(got), 8 * w,
                              static_cast<unsigned long long>(cpu));
                first[r].push_back(line);
              }
            }
            hash[r] = h;
          }
        });
      for (auto& th : pool) th.join();
      for (std::size_t r = 0; r < kRanges; ++r) {
        differing += count[r];
        for (auto& l : first[r])
          if (shown.size() < 16) shown.push_back(l);
        hashes.push_back(hash[r]);
        range_differing.push_back(count[r]);
      }
    }
    std::printf("#fn %s differing %llu of 4294967296\n", fn_names[fn], differing);
    for (auto& l : shown) std::printf("%s\n", l.c_str());
    for (std::size_t r = 0; r < hashes.size(); ++r)
      std::printf("hash %zu %016llx %llu\n", r, hashes[r], range_differing[r]);
    std::fflush(stdout);
  }
  cudaFree(dev);
  return 0;
}
