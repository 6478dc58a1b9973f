// The special function unit (MUFU) of the GPU, studied on all 2^32 inputs (issue 14).
//
// Each study runs one MUFU operation on every input, maps the input to a table key (the part of
// the input the unit is supposed to look at: the significand, or a fixed-point fraction) and the
// output to a normalised value (the exponent taken out), and stores the first value seen per key.
// A later input with the same key and a different value is a conflict: the supposed structure is
// wrong there. With no conflicts, the table and the structure give the unit's result for every
// input of the study's domain. The tables are written to DIR (raw little-endian uint32, 0xffffffff
// where no input reached a key) and the summary to stdout.
//
//   nvcc -O2 -arch=sm_90 -std=c++17 sfu_probe.cu -o sfu_probe && ./sfu_probe DIR [NAME...]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(x)                                                                       \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

using u32 = uint32_t;
using u64 = uint64_t;

__device__ __forceinline__ float bf(u32 u) { return __uint_as_float(u); }
__device__ __forceinline__ u32 fb(float f) { return __float_as_uint(f); }

#define MUFU_F(name, ptx)                                          \
  __device__ __forceinline__ float name(float x) {                 \
    float y;                                                       \
    asm volatile(ptx " %0, %1;" : "=f"(y) : "f"(x));               \
    return y;                                                      \
  }
MUFU_F(mufu_rcp, "rcp.approx.ftz.f32")
MUFU_F(mufu_rsq, "rsqrt.approx.ftz.f32")
MUFU_F(mufu_sqrt, "sqrt.approx.ftz.f32")
MUFU_F(mufu_ex2, "ex2.approx.ftz.f32")
MUFU_F(mufu_lg2, "lg2.approx.ftz.f32")
MUFU_F(mufu_tanh, "tanh.approx.f32")
// sin.approx.ftz.f32 is FMUL.RZ by 1/(2 pi) then MUFU.SIN; the key is the product.
MUFU_F(sin_approx, "sin.approx.ftz.f32")
MUFU_F(cos_approx, "cos.approx.ftz.f32")
__device__ __forceinline__ double mufu_rcp64h(double x) {
  double y;
  asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  return y;
}
__device__ __forceinline__ double mufu_rsq64h(double x) {
  double y;
  asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  return y;
}

constexpr float kInv2Pi = 0.15915493667125701904f;  // the FMUL.RZ constant of sin/cos.approx

// Each study: bool map(u32 x, u32& key, u32& z, int& bin) -- false: outside the domain.
// bin: where a conflict is counted (0..255, the input's exponent field or the product's).
struct Rcp {  // MUFU.RCP: key sign|significand, value: result with the input's exponent added
  static constexpr u32 size = 1u << 24;
  __device__ bool map(u32 x, u32& k, u32& z, int& bin) const {
    const int e = (x >> 23) & 0xff;
    if (e < 3 || e > 252) return false;
    const u32 y = fb(mufu_rcp(bf(x)));
    k = (x >> 31) << 23 | (x & 0x7fffff);
    z = y + (u32)((e - 127) << 23);
    bin = e;
    return true;
  }
};
template <bool Sqrt>
struct Rsq {  // MUFU.RSQ / MUFU.SQRT: key exponent parity|significand
  static constexpr u32 size = 1u << 24;
  __device__ bool map(u32 x, u32& k, u32& z, int& bin) const {
    const int e = (x >> 23) & 0xff;
    if ((x >> 31) || e < 1 || e > 254) return false;
    const int ue = e - 127;
    const float y = Sqrt ? mufu_sqrt(bf(x)) : mufu_rsq(bf(x));
    k = (u32)(ue & 1) << 23 | (x & 0x7fffff);
    const int h = ue >> 1;  // floor
    z = fb(y) + (u32)((Sqrt ? -h : h) << 23);
    bin = e;
    return true;
  }
};
// MUFU.EX2 with the input as fixed point of F fraction bits. Floor: x = n + f, f in [0, 1);
// sign-magnitude (Floor false): |x| truncated, key sign|f.
template <int F, bool Floor>
struct Ex2 {
  static constexpr u32 size = Floor ? (1u << F) : (2u << F);
  __device__ bool map(u32 x, u32& k, u32& z, int& bin) const {
    const float xf = bf(x);
    const int e = (x >> 23) & 0xff;
    if (e == 0 || !(fabsf(xf) < 120.0f)) return false;
    const double s = (double)xf * (double)(1u << F);
    long long q = Floor ? (long long)floor(s) : (long long)trunc(fabs(s));
    const long long n = q >> F;
    const u32 f = (u32)(q & ((1ll << F) - 1));
    const u32 r = fb(mufu_ex2(xf));
    bin = e;
    if (Floor) {
      k = f;
      z = r - (u32)(n << 23);
    } else {
      k = (x >> 31) << F | f;
      z = (x >> 31) ? r + (u32)(n << 23) : r - (u32)(n << 23);
    }
    return true;
  }
};
// MUFU.LG2 of one binade (exponent field E): key significand, value the result's bits.
template <int E>
struct Lg2 {
  static constexpr u32 size = 1u << 23;
  __device__ bool map(u32 x, u32& k, u32& z, int& bin) const {
    if ((x >> 23) != (u32)E) return false;
    k = x & 0x7fffff;
    z = fb(mufu_lg2(bf(x)));
    bin = E;
    return true;
  }
};
// sin/cos.approx: key = the product r = x * kInv2Pi (RZ) as sign-magnitude fixed point of F bits,
// modulo one revolution; bin = the product's exponent field.
template <int F, bool Cos>
struct SinCos {
  static constexpr u32 size = 2u << F;
  __device__ bool map(u32 x, u32& k, u32& z, int& bin) const {
    const float xf = bf(x);
    if (!(fabsf(xf) < 1e30f)) return false;
    const float r = __fmul_rz(xf, kInv2Pi);
    const u32 rb = fb(r);
    const double s = fabs((double)r) * (double)(1u << F);
    const u64 q = (u64)s;
    k = (rb >> 31) << F | (u32)(q & ((1ull << F) - 1));
    z = fb(Cos ? cos_approx(xf) : sin_approx(xf));
    bin = (rb >> 23) & 0xff;
    return true;
  }
};
// MUFU.TANH: key = sign|exponent|top M significand bits.
template <int M>
struct Tanh {
  static constexpr u32 size = 1u << (9 + M);
  __device__ bool map(u32 x, u32& k, u32& z, int& bin) const {
    const int e = (x >> 23) & 0xff;
    if (e == 255) return false;
    k = x >> (23 - M);
    z = fb(mufu_tanh(bf(x)));
    bin = e;
    return true;
  }
};
// MUFU.TANH: key = sign | |x| in fixed point with F fraction bits, truncated, for 2^-8 <= |x| < 16;
// bin = the exponent field (which binades the fixed-point key holds for).
template <int F>
struct TanhFixed {
  static constexpr u32 size = 2u << (F + 4);
  __device__ bool map(u32 x, u32& k, u32& z, int& bin) const {
    const int e = (x >> 23) & 0xff;
    if (e < 127 - 8 || e >= 127 + 4) return false;
    const double s = fabs((double)bf(x)) * (double)(1u << F);
    k = (x >> 31) << (F + 4) | (u32)s;
    z = fb(mufu_tanh(bf(x)));
    bin = e;
    return true;
  }
};
// MUFU.RCP64H / RSQ64H on the high word X: key sign|20 significand bits (RCP) or exponent
// parity|20 bits (RSQ); value the result's high word with the exponent taken out. A result whose
// low word is not zero, or that changes when the input's low word is all ones instead of zero, is
// counted as low-word-nonzero.
template <bool Rsq64>
struct Hi64 {
  static constexpr u32 size = 1u << 21;
  __device__ bool map(u32 x, u32& k, u32& z, int& bin) const {
    const int e = (x >> 20) & 0x7ff;
    if (e < 3 || e > 2044 || (Rsq64 && (x >> 31))) return false;
    const double d = __hiloint2double((int)x, 0), d1 = __hiloint2double((int)x, -1);
    const double y = Rsq64 ? mufu_rsq64h(d) : mufu_rcp64h(d);
    const double y1 = Rsq64 ? mufu_rsq64h(d1) : mufu_rcp64h(d1);
    const u32 yh = (u32)__double2hiint(y), yl = (u32)__double2loint(y);
    const int ue = e - 1023;
    bin = e >> 3;
    if (yl != 0 || __double_as_longlong(y) != __double_as_longlong(y1)) {
      k = 0xffffffffu;
      return true;
    }
    if (Rsq64) {
      k = (u32)(ue & 1) << 20 | (x & 0xfffff);
      z = yh + (u32)((ue >> 1) << 20);
    } else {
      k = (x >> 31) << 20 | (x & 0xfffff);
      z = yh + (u32)(ue << 20);
    }
    return true;
  }
};

struct Stats {
  unsigned long long in_domain, conflicts, low_nonzero;
  unsigned long long bins[256];
  u32 ex_n;
  u32 ex[16][4];  // x, key, table value, this value
};

template <class S>
__global__ void study(S s, u32* table, Stats* st, u64 begin, u64 count) {
  const u64 stride = (u64)gridDim.x * blockDim.x;
  unsigned long long dom = 0;
  for (u64 i = begin + blockIdx.x * (u64)blockDim.x + threadIdx.x; i < begin + count; i += stride) {
    const u32 x = (u32)i;
    u32 k, z;
    int bin;
    if (!s.map(x, k, z, bin)) continue;
    ++dom;
    if (k == 0xffffffffu) {
      atomicAdd(&st->low_nonzero, 1ull);
      continue;
    }
    const u32 old = atomicCAS(&table[k], 0xffffffffu, z);
    if (old != 0xffffffffu && old != z) {
      atomicAdd(&st->conflicts, 1ull);
      atomicAdd(&st->bins[bin], 1ull);
      const u32 n = atomicAdd(&st->ex_n, 1u);
      if (n < 16) {
        st->ex[n][0] = x;
        st->ex[n][1] = k;
        st->ex[n][2] = old;
        st->ex[n][3] = z;
      }
    }
  }
  atomicAdd(&st->in_domain, dom);
}

// LG2 prediction: log2(x) = e + L(m), with L the binade [1, 2)'s results, rounded to float four
// ways; counts the mismatches of each rounding per exponent field.
__global__ void lg2_predict(const u32* l0, unsigned long long* mis) {
  const u64 stride = (u64)gridDim.x * blockDim.x;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < (1ull << 31); i += stride) {
    const u32 x = (u32)i;
    const int e = x >> 23;
    if (e == 0 || e == 255) continue;
    const double v = (double)(e - 127) + (double)bf(l0[x & 0x7fffff]);
    const u32 y = fb(mufu_lg2(bf(x)));
    const u32 p[4] = {fb(__double2float_rn(v)), fb(__double2float_rz(v)), fb(__double2float_rd(v)),
                      fb(__double2float_ru(v))};
    for (int r = 0; r < 4; ++r)
      if (p[r] != y) atomicAdd(&mis[r * 256 + e], 1ull);
  }
}

// The correctly rounded value a key stands for (the float result's bits; for the 64-bit studies,
// the double result's high word), so that the tables are written as small differences.
static u32 fbits(float f) { u32 u; std::memcpy(&u, &f, 4); return u; }
static float bitsf(u32 u) { float f; std::memcpy(&f, &u, 4); return f; }
static u32 hiword(double d) { u64 u; std::memcpy(&u, &d, 8); return (u32)(u >> 32); }
static u32 reference(const std::string& n, u32 k) {
  const double pi2 = 6.283185307179586476925;
  auto sgn = [](u32 s, double v) { return s ? -v : v; };
  if (n == "rcp") return fbits((float)sgn(k >> 23, 1.0 / (1.0 + (k & 0x7fffff) * 0x1p-23)));
  if (n == "rsq" || n == "sqrt") {
    const double x = (1.0 + (k & 0x7fffff) * 0x1p-23) * ((k >> 23) ? 2.0 : 1.0);
    return fbits((float)(n == "rsq" ? 1.0 / std::sqrt(x) : std::sqrt(x)));
  }
  if (n == "ex2_floor23") return fbits((float)std::exp2(k * 0x1p-23));
  if (n == "ex2_floor24") return fbits((float)std::exp2(k * 0x1p-24));
  if (n == "ex2_trunc23") return fbits((float)std::exp2(sgn(k >> 23, (k & 0x7fffff) * 0x1p-23)));
  if (n.rfind("lg2_e", 0) == 0) {
    const int e = std::atoi(n.c_str() + 5);
    return fbits((float)std::log2(std::ldexp(1.0 + (k & 0x7fffff) * 0x1p-23, e - 127)));
  }
  if (n == "sin23" || n == "cos23") {
    const double r = sgn(k >> 23, (k & 0x7fffff) * 0x1p-23);
    return fbits((float)(n == "sin23" ? std::sin(pi2 * r) : std::cos(pi2 * r)));
  }
  if (n.rfind("tanh", 0) == 0) {
    const int m = std::atoi(n.c_str() + 4);
    return fbits((float)std::tanh((double)bitsf(k << (23 - m))));
  }
  if (n == "rcp64h") return hiword(sgn(k >> 20, 1.0 / (1.0 + (k & 0xfffff) * 0x1p-20)));
  if (n == "rsq64h") {
    const double x = (1.0 + (k & 0xfffff) * 0x1p-20) * ((k >> 20) ? 2.0 : 1.0);
    return hiword(1.0 / std::sqrt(x));
  }
  return 0;
}

template <class S>
void run(const char* name, const char* dir, S s, u64 begin = 0, u64 count = 1ull << 32) {
  u32* table;
  Stats* st;
  CHECK(cudaMalloc(&table, (size_t)S::size * 4));
  CHECK(cudaMemset(table, 0xff, (size_t)S::size * 4));
  CHECK(cudaMallocManaged(&st, sizeof(Stats)));
  std::memset(st, 0, sizeof(Stats));
  study<<<132 * 8, 256>>>(s, table, st, begin, count);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<u32> host(S::size);
  CHECK(cudaMemcpy(host.data(), table, (size_t)S::size * 4, cudaMemcpyDeviceToHost));
  u64 filled = 0;
  for (u32 v : host) filled += v != 0xffffffffu;
  std::printf("study %s: domain %llu, keys %llu of %u, conflicts %llu, low-word-nonzero %llu\n",
              name, st->in_domain, (unsigned long long)filled, S::size, st->conflicts,
              st->low_nonzero);
  if (st->conflicts) {
    std::printf("  conflicts by bin:");
    for (int b = 0; b < 256; ++b)
      if (st->bins[b]) std::printf(" %d:%llu", b, st->bins[b]);
    std::printf("\n");
    for (u32 i = 0; i < st->ex_n && i < 16; ++i)
      std::printf("  x %08x key %08x table %08x this %08x\n", st->ex[i][0], st->ex[i][1],
                  st->ex[i][2], st->ex[i][3]);
  }
  // Written (as TABLE - reference, 0x7fffffff where no input reached the key) only when the
  // structure held, and always for the LG2 binades.
  const std::string n = name;
  if (st->conflicts == 0 || n.rfind("lg2_e", 0) == 0) {
    std::vector<int32_t> d(host.size());
    for (u32 k = 0; k < S::size; ++k)
      d[k] = host[k] == 0xffffffffu ? 0x7fffffff : (int32_t)(host[k] - reference(n, k));
    const std::string path = std::string(dir) + "/" + name + ".d32";
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
      std::fwrite(d.data(), 4, d.size(), f);
      std::fclose(f);
    }
  }
  if (std::string(name) == "lg2_e127") {
    unsigned long long* mis;
    CHECK(cudaMallocManaged(&mis, 4 * 256 * 8));
    std::memset(mis, 0, 4 * 256 * 8);
    lg2_predict<<<132 * 8, 256>>>(table, mis);
    CHECK(cudaDeviceSynchronize());
    const char* rn[4] = {"rn", "rz", "rd", "ru"};
    for (int r = 0; r < 4; ++r) {
      unsigned long long t = 0;
      for (int e = 0; e < 256; ++e) t += mis[r * 256 + e];
      std::printf("  lg2 predicted as e + L rounded %s: %llu mismatches;", rn[r], t);
      for (int e = 0; e < 256; ++e)
        if (mis[r * 256 + e] && (e < 120 || e > 134 || r == 0))
          std::printf(" %d:%llu", e, mis[r * 256 + e]);
      std::printf("\n");
    }
    CHECK(cudaFree(mis));
  }
  CHECK(cudaFree(table));
  CHECK(cudaFree(st));
}

// MUFU.TANH per binade: for each exponent field e and j = 1..12, how many positive inputs give a
// different result from the input with its low j bits cleared (0: the unit ignores them, the
// binade's key is the top 23 - j significand bits); how many negative inputs do not give the
// negated result of their magnitude; how many results equal x itself and how many are 1.
struct TanhRuns {
  unsigned long long mis[256][13];
  unsigned long long odd[256], same[256], one[256];
};
__global__ void tanh_runs_kernel(TanhRuns* r) {
  // A warp covers 32 * 256 consecutive inputs of one binade; each lane 256 of them.
  const u64 lane_first = ((u64)blockIdx.x * blockDim.x + threadIdx.x) * 256;
  if (lane_first >= (1ull << 31)) return;
  unsigned mis[13] = {};
  unsigned odd = 0, same = 0, one = 0;
  for (u32 x = (u32)lane_first; x < (u32)lane_first + 256; ++x) {
    const float y = mufu_tanh(bf(x));
    for (int j = 1; j <= 12; ++j) mis[j] += fb(mufu_tanh(bf(x & ~((1u << j) - 1)))) != fb(y);
    odd += fb(mufu_tanh(bf(x | 0x80000000u))) != (fb(y) ^ 0x80000000u);
    same += fb(y) == x;
    one += y == 1.0f;
  }
  const int e = (int)(lane_first >> 23);
  for (int j = 1; j <= 12; ++j) {
    const unsigned s = __reduce_add_sync(0xffffffffu, mis[j]);
    if ((threadIdx.x & 31) == 0 && s) atomicAdd(&r->mis[e][j], (unsigned long long)s);
  }
  const unsigned so = __reduce_add_sync(0xffffffffu, odd), ss = __reduce_add_sync(0xffffffffu, same),
                 s1 = __reduce_add_sync(0xffffffffu, one);
  if ((threadIdx.x & 31) == 0) {
    if (so) atomicAdd(&r->odd[e], (unsigned long long)so);
    if (ss) atomicAdd(&r->same[e], (unsigned long long)ss);
    if (s1) atomicAdd(&r->one[e], (unsigned long long)s1);
  }
}
__global__ void tanh_table_kernel(u32 e, int j, u32* out) {
  const u32 n = 1u << (23 - j);
  for (u32 k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x)
    out[k] = fb(mufu_tanh(bf(e << 23 | k << j)));
}
// Prints the per-binade findings and writes DIR/tanh_table.u32: per binade that is neither all x
// nor all 1, a header (e, j, count) and the results of its 2^(23-j) keys (x = e|k<<j), as raw
// little-endian uint32, the first result and then each key's difference to the previous one.
void tanh_runs(const char* dir) {
  TanhRuns* r;
  CHECK(cudaMallocManaged(&r, sizeof(TanhRuns)));
  std::memset(r, 0, sizeof(TanhRuns));
  tanh_runs_kernel<<<(1u << 23) / 256, 256>>>(r);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const std::string path = std::string(dir) + "/tanh_table.u32";
  FILE* f = std::fopen(path.c_str(), "wb");
  u32* dev;
  CHECK(cudaMalloc(&dev, 4u << 23));
  std::vector<u32> host(1u << 23);
  for (int e = 0; e < 255; ++e) {
    int j = 0;
    while (j < 12 && r->mis[e][j + 1] == 0) ++j;
    const u64 all = 1ull << 23;
    std::printf("tanh binade %3d: ignored low bits %2d, odd-mismatch %llu, equal-x %llu, one %llu;"
                " mismatches by j:", e, j, r->odd[e], r->same[e], r->one[e]);
    for (int k = 1; k <= 12; ++k) std::printf(" %llu", r->mis[e][k]);
    std::printf("\n");
    if (r->same[e] == all || r->one[e] == all || !f) continue;
    tanh_table_kernel<<<1024, 256>>>((u32)e, j, dev);
    CHECK(cudaDeviceSynchronize());
    const u32 n = 1u << (23 - j);
    CHECK(cudaMemcpy(host.data(), dev, 4ull * n, cudaMemcpyDeviceToHost));
    const u32 hdr[3] = {(u32)e, (u32)j, n};
    std::fwrite(hdr, 4, 3, f);
    for (u32 k = n - 1; k > 0; --k) host[k] -= host[k - 1];  // first differences (xz-friendly)
    std::fwrite(host.data(), 4, n, f);
  }
  if (f) std::fclose(f);
  CHECK(cudaFree(dev));
  CHECK(cudaFree(r));
}

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  auto want = [&](const char* n) {
    if (argc <= 2) return true;
    for (int i = 2; i < argc; ++i)
      if (std::strcmp(argv[i], n) == 0) return true;
    return false;
  };
  if (want("rcp")) run("rcp", dir, Rcp{});
  if (want("rsq")) run("rsq", dir, Rsq<false>{});
  if (want("sqrt")) run("sqrt", dir, Rsq<true>{});
  if (want("ex2_floor23")) run("ex2_floor23", dir, Ex2<23, true>{});
  if (want("ex2_trunc23")) run("ex2_trunc23", dir, Ex2<23, false>{});
  if (want("ex2_floor24")) run("ex2_floor24", dir, Ex2<24, true>{});
  if (want("lg2_e127")) run("lg2_e127", dir, Lg2<127>{});
  if (want("lg2_e128")) run("lg2_e128", dir, Lg2<128>{});
  if (want("lg2_e126")) run("lg2_e126", dir, Lg2<126>{});
  if (want("lg2_e1")) run("lg2_e1", dir, Lg2<1>{});
  if (want("lg2_e64")) run("lg2_e64", dir, Lg2<64>{});
  if (want("lg2_e120")) run("lg2_e120", dir, Lg2<120>{});
  if (want("lg2_e125")) run("lg2_e125", dir, Lg2<125>{});
  if (want("lg2_e129")) run("lg2_e129", dir, Lg2<129>{});
  if (want("lg2_e134")) run("lg2_e134", dir, Lg2<134>{});
  if (want("lg2_e200")) run("lg2_e200", dir, Lg2<200>{});
  if (want("lg2_e254")) run("lg2_e254", dir, Lg2<254>{});
  if (want("sin23")) run("sin23", dir, SinCos<23, false>{});
  if (want("cos23")) run("cos23", dir, SinCos<23, true>{});
  if (want("sin24")) run("sin24", dir, SinCos<24, false>{});
  if (want("sin25")) run("sin25", dir, SinCos<25, false>{});
  if (want("tanh_f20")) run("tanh_f20", dir, TanhFixed<20>{});
  if (want("tanh_f22")) run("tanh_f22", dir, TanhFixed<22>{});
  if (want("cos25")) run("cos25", dir, SinCos<25, true>{});
  if (want("tanh11")) run("tanh11", dir, Tanh<11>{});
  if (want("tanh13")) run("tanh13", dir, Tanh<13>{});
  if (argc > 2 && want("tanh_runs")) tanh_runs(dir);
  if (want("rcp64h")) run("rcp64h", dir, Hi64<false>{});
  if (want("rsq64h")) run("rsq64h", dir, Hi64<true>{});
  return 0;
}
