// texture_probe: prints the exact bits of many texture reads, so that the output recorded on an
// H200 and the emulator's output can be diffed line by line and the hardware's filtering
// arithmetic fitted. Runtime API only; deterministic texel contents (printed in each header).
//
// Output, one case after another:
//   #case <id> shape=<1D|2D|3D|L1D|L2D|P2D|LIN> fmt=<u8|s8|u16|s16|f32|f16> ch=<1|4>
//         size=<W>x<H>x<D> layers=<L> layer=<l> filter=<point|linear> addr=<clamp|border|wrap|
//         mirror> norm=<0|1> read=<norm|elem> border=<4 hex floats> reads=<n> note=<text>
//         texels@<first>=<texel> <texel> ...      (one header line; see README.md)
//   <id> <coordinate bits...> -> <result bits...>
// Coordinates and results are the hex bits of floats: x (1D, L1D, LIN: the int index), x y (2D,
// P2D, L2D), x y z (3D); one result for one channel, four for four.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <tuple>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
                   cudaGetErrorString(e_));                                           \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

enum Shape { S1D, S2D, S3D, SL1D, SL2D, SP2D, SLIN };
enum Fmt { U8, S8, U16, S16, F32, F16 };
static const char* shape_name[] = {"1D", "2D", "3D", "L1D", "L2D", "P2D", "LIN"};
static const char* fmt_name[] = {"u8", "s8", "u16", "s16", "f32", "f16"};
static const int fmt_bytes[] = {1, 1, 2, 2, 4, 2};

// ---------------------------------------------------------------------------------------------
// Kernels: at[i] = (x, y, z, layer); one kernel per result type, the shape a uniform switch.
template <class T>
__global__ void sample(cudaTextureObject_t t, int shape, const float4* at, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 a = at[i];
  T r;
  switch (shape) {
    case S1D: r = tex1D<T>(t, a.x); break;
    case S2D:
    case SP2D: r = tex2D<T>(t, a.x, a.y); break;
    case S3D: r = tex3D<T>(t, a.x, a.y, a.z); break;
    case SL1D: r = tex1DLayered<T>(t, a.x, static_cast<int>(a.w)); break;
    case SL2D: r = tex2DLayered<T>(t, a.x, a.y, static_cast<int>(a.w)); break;
    default: r = tex1Dfetch<T>(t, static_cast<int>(a.x)); break;
  }
  out[i] = r;
}

// ---------------------------------------------------------------------------------------------
// Deterministic contents.
static std::uint32_t hash32(std::uint32_t a, std::uint32_t b) {
  std::uint32_t h = a * 0x9E3779B9u ^ (b + 0x7F4A7C15u);
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}
static std::uint32_t fbits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// A raw channel value (integer formats: the value; f32: the bits; f16: the half bits) drawn from
// a hash: the full range for integers, [-4, 4) for floats, half values of exponents -5..1.
static std::uint32_t random_value(Fmt f, std::uint32_t h) {
  switch (f) {
    case U8: return h & 0xFF;
    case S8: return static_cast<std::uint32_t>(static_cast<int>(h & 0xFF) - 128);
    case U16: return h & 0xFFFF;
    case S16: return static_cast<std::uint32_t>(static_cast<int>(h & 0xFFFF) - 32768);
    case F32: return fbits(static_cast<float>(h >> 8) * (8.f / 16777216.f) - 4.f);
    default: {  // half: sign, exponent 10..16, any mantissa
      const std::uint32_t e = 10 + (h >> 11) % 7;
      return ((h >> 31) << 15) | (e << 10) | (h & 0x3FF);
    }
  }
}

// The texel pairs the 1D sweeps interpolate between (channel c of a 4-channel texel: pair c).
struct Pair {
  std::uint32_t a, b;
};
static Pair pair_of(Fmt f, int k) {
  auto I = [](int v) { return static_cast<std::uint32_t>(v); };
  switch (f) {
    case U8: {
      static const int p[4][2] = {{0, 255}, {255, 0}, {17, 200}, {1, 2}};
      return {I(p[k][0]), I(p[k][1])};
    }
    case S8: {
      static const int p[4][2] = {{-128, 127}, {127, -127}, {-1, 1}, {-100, 3}};
      return {I(p[k][0]), I(p[k][1])};
    }
    case U16: {
      static const int p[4][2] = {{0, 65535}, {65535, 0}, {1000, 50000}, {1, 2}};
      return {I(p[k][0]), I(p[k][1])};
    }
    case S16: {
      static const int p[4][2] = {{-32768, 32767}, {32767, -32767}, {-1, 1}, {-12345, 23456}};
      return {I(p[k][0]), I(p[k][1])};
    }
    case F32: {
      static const float p[4][2] = {{1.f, 1.0000001f}, {0.f, 3.14159f}, {-1.f, 1.f}, {1e-3f, 1e5f}};
      return {fbits(p[k][0]), fbits(p[k][1])};
    }
    default: {  // 0, 1; 1, 1+2^-10; 0, 3.140625; -2, 65504
      static const std::uint32_t p[4][2] = {
          {0x0000, 0x3C00}, {0x3C00, 0x3C01}, {0x0000, 0x4248}, {0xC000, 0x7BFF}};
      return {p[k][0], p[k][1]};
    }
  }
}

// ---------------------------------------------------------------------------------------------
struct Case {
  Shape shape = S1D;
  Fmt fmt = U8;
  int ch = 1;
  int w = 8, h = 0, d = 0, layers = 0;  // array extents as given to the API (0: absent)
  int layer = 0;                         // the layer read by layered cases
  bool linear = true;
  cudaTextureAddressMode addr = cudaAddressModeClamp;
  bool norm = false;
  float border[4] = {0, 0, 0, 0};
  std::string note;
  std::vector<std::uint32_t> texels;  // raw channel values, texel-major (x fastest, then y, z/l)
  std::size_t print_first = 0, print_count = ~std::size_t(0);
  std::vector<float4> at;
};

static int g_id = 0;
static long long g_reads = 0;

static std::size_t texel_count(const Case& c) {
  return static_cast<std::size_t>(c.w) * (c.h ? c.h : 1) * (c.d ? c.d : 1) *
         (c.layers ? c.layers : 1);
}

static void fill_random(Case& c, std::uint32_t seed) {
  const std::size_t n = texel_count(c) * c.ch;
  c.texels.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    c.texels[i] = random_value(c.fmt, hash32(seed, static_cast<std::uint32_t>(i)));
}

static cudaChannelFormatDesc channel_desc(Fmt f, int ch) {
  const int bits = fmt_bytes[f] * 8;
  const cudaChannelFormatKind kind = f == U8 || f == U16   ? cudaChannelFormatKindUnsigned
                                     : f == S8 || f == S16 ? cudaChannelFormatKindSigned
                                                           : cudaChannelFormatKindFloat;
  if (f == F16) return ch == 1 ? cudaCreateChannelDescHalf() : cudaCreateChannelDescHalf4();
  return cudaCreateChannelDesc(bits, ch > 1 ? bits : 0, ch > 2 ? bits : 0, ch > 3 ? bits : 0,
                               kind);
}

static void pack(const Case& c, std::vector<unsigned char>& bytes) {
  const int b = fmt_bytes[c.fmt];
  bytes.assign(c.texels.size() * b, 0);
  for (std::size_t i = 0; i < c.texels.size(); ++i) {
    const std::uint32_t v = c.texels[i];
    std::memcpy(&bytes[i * b], &v, b);  // little endian: the low bytes
  }
}

static void print_value(std::string& s, Fmt f, std::uint32_t v) {
  char buf[16];
  if (f == F32)
    std::snprintf(buf, sizeof buf, "%08x", v);
  else if (f == F16)
    std::snprintf(buf, sizeof buf, "%04x", v & 0xFFFF);
  else
    std::snprintf(buf, sizeof buf, "%d", static_cast<int>(v));
  s += buf;
}

static void hexf(std::string& s, float f) {
  char buf[12];
  std::snprintf(buf, sizeof buf, " %08x", fbits(f));
  s += buf;
}

static void run(Case& c) {
  const int id = g_id++;
  {  // each coordinate once (the scattered points can repeat), so that keys are unique
    std::set<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>> seen;
    std::vector<float4> unique;
    for (const float4& a : c.at)
      if (seen.insert({fbits(a.x), fbits(a.y), fbits(a.z), fbits(a.w)}).second)
        unique.push_back(a);
    c.at.swap(unique);
  }
  const int n = static_cast<int>(c.at.size());
  const cudaChannelFormatDesc desc = channel_desc(c.fmt, c.ch);
  std::vector<unsigned char> bytes;
  pack(c, bytes);
  const std::size_t elem = static_cast<std::size_t>(fmt_bytes[c.fmt]) * c.ch;
  const std::size_t row = elem * c.w;
  const int rows = c.h ? c.h : 1;

  cudaArray_t arr = nullptr;
  void* mem = nullptr;
  cudaResourceDesc rd;
  std::memset(&rd, 0, sizeof rd);
  if (c.shape == S1D || c.shape == S2D) {
    CHECK(cudaMallocArray(&arr, &desc, c.w, c.h));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, bytes.data(), row, row, rows, cudaMemcpyHostToDevice));
  } else if (c.shape == S3D || c.shape == SL1D || c.shape == SL2D) {
    const bool layered = c.shape != S3D;
    const int slices = layered ? c.layers : c.d;
    CHECK(cudaMalloc3DArray(&arr, &desc, make_cudaExtent(c.w, c.h, slices),
                            layered ? cudaArrayLayered : 0));
    cudaMemcpy3DParms p;
    std::memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(bytes.data(), row, c.w, rows);
    p.dstArray = arr;
    p.extent = make_cudaExtent(c.w, rows, slices);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
  }
  if (arr) {
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
  } else if (c.shape == SP2D) {
    std::size_t pitch = 0;
    CHECK(cudaMallocPitch(&mem, &pitch, row, rows));
    CHECK(cudaMemcpy2D(mem, pitch, bytes.data(), row, row, rows, cudaMemcpyHostToDevice));
    rd.resType = cudaResourceTypePitch2D;
    rd.res.pitch2D.devPtr = mem;
    rd.res.pitch2D.desc = desc;
    rd.res.pitch2D.width = c.w;
    rd.res.pitch2D.height = rows;
    rd.res.pitch2D.pitchInBytes = pitch;
  } else {
    CHECK(cudaMalloc(&mem, bytes.size()));
    CHECK(cudaMemcpy(mem, bytes.data(), bytes.size(), cudaMemcpyHostToDevice));
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = mem;
    rd.res.linear.desc = desc;
    rd.res.linear.sizeInBytes = bytes.size();
  }
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  for (int a = 0; a < 3; ++a) td.addressMode[a] = c.addr;
  td.filterMode = c.linear ? cudaFilterModeLinear : cudaFilterModePoint;
  const bool int_fmt = c.fmt != F32 && c.fmt != F16;
  td.readMode = int_fmt ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  td.normalizedCoords = c.norm ? 1 : 0;
  for (int k = 0; k < 4; ++k) td.borderColor[k] = c.border[k];
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));

  float4* d_at = nullptr;
  CHECK(cudaMalloc(&d_at, sizeof(float4) * n));
  CHECK(cudaMemcpy(d_at, c.at.data(), sizeof(float4) * n, cudaMemcpyHostToDevice));
  std::vector<float> res(static_cast<std::size_t>(n) * c.ch);
  const int threads = 128, blocks = (n + threads - 1) / threads;
  if (c.ch == 1) {
    float* d_out = nullptr;
    CHECK(cudaMalloc(&d_out, sizeof(float) * n));
    sample<float><<<blocks, threads>>>(t, c.shape, d_at, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(res.data(), d_out, sizeof(float) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_out));
  } else {
    float4* d_out = nullptr;
    CHECK(cudaMalloc(&d_out, sizeof(float4) * n));
    sample<float4><<<blocks, threads>>>(t, c.shape, d_at, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(res.data(), d_out, sizeof(float4) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_out));
  }
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFree(d_at));
  if (arr) CHECK(cudaFreeArray(arr));
  if (mem) CHECK(cudaFree(mem));

  // Header.
  static const char* addr_name[] = {"wrap", "clamp", "mirror", "border"};
  std::string s;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "#case c%d shape=%s fmt=%s ch=%d size=%dx%dx%d layers=%d layer=%d filter=%s "
                "addr=%s norm=%d read=%s border=",
                id, shape_name[c.shape], fmt_name[c.fmt], c.ch, c.w, c.h, c.d, c.layers, c.layer,
                c.linear ? "linear" : "point", addr_name[c.addr], c.norm ? 1 : 0,
                int_fmt ? "norm" : "elem");
  s += buf;
  for (int k = 0; k < 4; ++k) {
    std::snprintf(buf, sizeof buf, k ? ",%08x" : "%08x", fbits(c.border[k]));
    s += buf;
  }
  std::snprintf(buf, sizeof buf, " reads=%d note=%s texels@%zu=", n,
                c.note.empty() ? "-" : c.note.c_str(), c.print_first);
  s += buf;
  const std::size_t count = texel_count(c);
  const std::size_t last = c.print_count > count - c.print_first ? count
                                                                  : c.print_first + c.print_count;
  for (std::size_t i = c.print_first; i < last; ++i) {
    if (i != c.print_first) s += ' ';
    for (int k = 0; k < c.ch; ++k) {
      if (k) s += ',';
      print_value(s, c.fmt, c.texels[i * c.ch + k]);
    }
  }
  std::puts(s.c_str());

  // Reads.
  const int axes = c.shape == S3D                                       ? 3
                   : c.shape == S2D || c.shape == SP2D || c.shape == SL2D ? 2
                                                                          : 1;
  for (int i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, "c%d", id);
    s = buf;
    const float xyz[3] = {c.at[i].x, c.at[i].y, c.at[i].z};
    for (int a = 0; a < axes; ++a) hexf(s, xyz[a]);
    s += " ->";
    for (int k = 0; k < c.ch; ++k) hexf(s, res[static_cast<std::size_t>(i) * c.ch + k]);
    std::puts(s.c_str());
  }
  g_reads += n;
}

// ---------------------------------------------------------------------------------------------
// Case builders.
static void set_pair_texels(Case& c, std::uint32_t seed, int at_texel, int first_pair) {
  fill_random(c, seed);
  for (int k = 0; k < c.ch; ++k) {
    const Pair p = pair_of(c.fmt, (first_pair + k) % 4);
    c.texels[static_cast<std::size_t>(at_texel) * c.ch + k] = p.a;
    c.texels[static_cast<std::size_t>(at_texel + 1) * c.ch + k] = p.b;
  }
}

static float4 P(float x, float y = 0.f, float z = 0.f, int layer = 0) {
  return make_float4(x, y, z, static_cast<float>(layer));
}

// 1D sweep between texels 2 and 3: x = 2.5 + k/steps, k = 0..steps (steps = 1024: every 1/256
// step and the points between), plus points 2^-16 either side of each half step (k + 1/2)/256
// for k < 64; divided by w for normalised coordinates.
static void sweep_1d(std::vector<float4>& at, float base, bool norm, int w, int layer,
                     int steps) {
  auto X = [&](double x) { return norm ? static_cast<float>(x / w) : static_cast<float>(x); };
  for (int k = 0; k <= steps; ++k)
    at.push_back(P(X(base + static_cast<double>(k) / steps), 0, 0, layer));
  for (int k = 0; k < 64; ++k)
    for (int sgn = -1; sgn <= 1; sgn += 2)
      at.push_back(P(X(base + (k + 0.5) / 256.0 + sgn / 65536.0), 0, 0, layer));
}

// At and outside the texture's edges: x = -1.5 .. 0.5 and w-0.5 .. w+1.5 in steps of 1/32.
static void edges_1d(std::vector<float4>& at, int w, int layer) {
  for (int k = 0; k <= 64; ++k) at.push_back(P(-1.5f + k / 32.f, 0, 0, layer));
  for (int k = 0; k <= 64; ++k) at.push_back(P(w - 0.5f + k / 32.f, 0, 0, layer));
}

// Normalised coordinates across and beyond [0, 1]: j/(16 w) for j = -24 .. 16w+24, and
// (k + 0.3)/w for k = -10 .. 20 (not exact after scaling).
static void norm_1d(std::vector<float4>& at, int w) {
  for (int j = -24; j <= 16 * w + 24; ++j) at.push_back(P(static_cast<float>(j) / (16.f * w)));
  for (int k = -10; k <= 20; ++k) at.push_back(P((k + 0.3f) / w));
}

// 2D points in a texture of w x h: a 17 x 17 grid between texels (1,2) and (2,3); 256 points
// with fractions in 1/256 steps spread over the texture; 64 with arbitrary fractions.
static void points_2d(std::vector<float4>& at, int w, int h, std::uint32_t seed, int layer) {
  for (int b = 0; b <= 16; ++b)
    for (int a = 0; a <= 16; ++a) at.push_back(P(1.5f + a / 16.f, 2.5f + b / 16.f, 0, layer));
  for (int i = 0; i < 256; ++i) {
    const std::uint32_t hx = hash32(seed, 2 * i), hy = hash32(seed, 2 * i + 1);
    at.push_back(P(0.5f + (hx % ((w - 1) * 256 + 1)) / 256.f,
                   0.5f + (hy % ((h - 1) * 256 + 1)) / 256.f, 0, layer));
  }
  for (int i = 0; i < 64; ++i) {
    const std::uint32_t hx = hash32(seed + 1, 2 * i), hy = hash32(seed + 1, 2 * i + 1);
    at.push_back(P(0.5f + (w - 1) * ((hx >> 8) / 16777216.f),
                   0.5f + (h - 1) * ((hy >> 8) / 16777216.f), 0, layer));
  }
}

// 2D points at and beyond the edges: a 17 x 17 grid over [-1.5, 0.5]^2 (steps of 1/8) and a
// 9 x 9 grid over [w-0.5, w+1.5] x [h-0.5, h+1.5] (steps of 1/4).
static void edges_2d(std::vector<float4>& at, int w, int h, int layer) {
  for (int b = 0; b <= 16; ++b)
    for (int a = 0; a <= 16; ++a) at.push_back(P(-1.5f + a / 8.f, -1.5f + b / 8.f, 0, layer));
  for (int b = 0; b <= 8; ++b)
    for (int a = 0; a <= 8; ++a)
      at.push_back(P(w - 0.5f + a / 4.f, h - 0.5f + b / 4.f, 0, layer));
}

// 3D points: a 9 x 9 x 9 grid between texels (1,1,1) and (2,2,2); 100 points in 1/256 steps;
// 50 with arbitrary fractions.
static void points_3d(std::vector<float4>& at, int w, int h, int d, std::uint32_t seed) {
  for (int c = 0; c <= 8; ++c)
    for (int b = 0; b <= 8; ++b)
      for (int a = 0; a <= 8; ++a) at.push_back(P(1.5f + a / 8.f, 1.5f + b / 8.f, 1.5f + c / 8.f));
  const int n[3] = {w, h, d};
  for (int i = 0; i < 150; ++i) {
    float v[3];
    for (int a = 0; a < 3; ++a) {
      const std::uint32_t hh = hash32(seed + (i >= 100), 3 * i + a);
      v[a] = i < 100 ? 0.5f + (hh % ((n[a] - 1) * 256 + 1)) / 256.f
                     : 0.5f + (n[a] - 1) * ((hh >> 8) / 16777216.f);
    }
    at.push_back(P(v[0], v[1], v[2]));
  }
}

static const float kBorderA[4] = {0.25f, 0.5f, 0.75f, 1.f};
static const float kBorderB[4] = {0.1f, 0.3f, 0.7f, 0.9f};
static const float kBorderS[4] = {-0.3f, 0.6f, -1.f, 0.123f};

static void set_border(Case& c, const float* b) {
  for (int k = 0; k < 4; ++k) c.border[k] = b[k];
}

int main() {
  std::setvbuf(stdout, nullptr, _IOFBF, 1 << 20);
  const Fmt fmts[] = {U8, S8, U16, S16, F32, F16};

  // 1D linear sweeps between two texels of the pairs (unnormalised, clamp).
  for (Fmt f : fmts) {
    for (int p = 0; p < 3; p += 2) {  // one channel: pair 0, pair 2
      Case c;
      c.fmt = f, c.ch = 1, c.w = 8, c.note = "sweep-1/1024-x=2.5..3.5";
      set_pair_texels(c, 100 + f, 2, p);
      sweep_1d(c.at, 2.5, false, c.w, 0, 1024);
      run(c);
    }
    Case c;
    c.fmt = f, c.ch = 4, c.w = 8, c.note = "sweep-1/1024-x=2.5..3.5";
    set_pair_texels(c, 110 + f, 2, 0);
    sweep_1d(c.at, 2.5, false, c.w, 0, 1024);
    run(c);
  }
  // 1D far from the origin: a wide texture, x = 40000.5 + k/256.
  for (Fmt f : {U8, F32}) {
    Case c;
    c.fmt = f, c.ch = 1, c.w = 65536, c.note = "large-x=40000.5+k/256";
    fill_random(c, 120 + f);
    c.texels[40000] = pair_of(f, 0).a, c.texels[40001] = pair_of(f, 0).b;
    c.print_first = 39998, c.print_count = 6;
    for (int k = 0; k <= 256; ++k) c.at.push_back(P(40000.5f + k / 256.f));
    run(c);
  }
  // 1D normalised coordinates, clamp: the same sweep scaled by 1/w (w = 8 exact, w = 10 not).
  for (Fmt f : {U8, U16, F32, F16})
    for (int w : {8, 10}) {
      Case c;
      c.fmt = f, c.ch = 4, c.w = w, c.norm = true, c.note = "norm-sweep-(2.5+k/256)/w";
      set_pair_texels(c, 130 + f, 2, 0);
      sweep_1d(c.at, 2.5, true, c.w, 0, 256);
      run(c);
    }
  // 1D edges: clamp and border (two border colours; a signed one for signed formats).
  for (Fmt f : fmts)
    for (int m = 0; m < 3; ++m) {
      Case c;
      c.fmt = f, c.ch = 4, c.w = 8, c.note = "edges";
      c.addr = m == 0 ? cudaAddressModeClamp : cudaAddressModeBorder;  // clamp ignores the
      set_border(c, m < 2 ? kBorderA : (f == S8 || f == S16) ? kBorderS : kBorderB);  // colour
      set_pair_texels(c, 140 + f, 0, 0);
      for (int k = 0; k < 4; ++k) {  // the last texel: pair b values too
        c.texels[7 * 4 + k] = pair_of(f, k).b;
        c.texels[6 * 4 + k] = pair_of(f, k).a;
      }
      edges_1d(c.at, c.w, 0);
      run(c);
    }
  // 1D normalised: wrap and mirror for all formats, clamp and border for u8 and f32.
  for (Fmt f : fmts)
    for (cudaTextureAddressMode m : {cudaAddressModeWrap, cudaAddressModeMirror,
                                     cudaAddressModeClamp, cudaAddressModeBorder}) {
      if ((m == cudaAddressModeClamp || m == cudaAddressModeBorder) && f != U8 && f != F32)
        continue;
      Case c;
      c.fmt = f, c.ch = 4, c.w = 8, c.addr = m, c.norm = true, c.note = "norm-edges";
      set_border(c, kBorderA);
      set_pair_texels(c, 150 + f, 0, 0);
      for (int k = 0; k < 4; ++k) c.texels[7 * 4 + k] = pair_of(f, k).b;
      norm_1d(c.at, c.w);
      run(c);
    }

  // 2D arrays: random texels, grid and scattered points, clamp.
  for (Fmt f : fmts) {
    Case c;
    c.shape = S2D, c.fmt = f, c.ch = 4, c.w = 6, c.h = 6, c.note = "grid17+scatter";
    fill_random(c, 200 + f);
    points_2d(c.at, c.w, c.h, 210 + f, 0);
    run(c);
  }
  for (Fmt f : {U8, S16, F32, F16}) {  // one channel
    Case c;
    c.shape = S2D, c.fmt = f, c.ch = 1, c.w = 6, c.h = 6, c.note = "grid17+scatter";
    fill_random(c, 220 + f);
    points_2d(c.at, c.w, c.h, 230 + f, 0);
    run(c);
  }
  // 2D with extreme texels: channel k of the 2x2 block at (1,2) holds pair values.
  for (Fmt f : fmts) {
    Case c;
    c.shape = S2D, c.fmt = f, c.ch = 4, c.w = 4, c.h = 5, c.note = "grid17-extremes";
    fill_random(c, 240 + f);
    for (int k = 0; k < 4; ++k) {
      const Pair p = pair_of(f, k);
      c.texels[(2 * 4 + 1) * 4 + k] = p.a;
      c.texels[(2 * 4 + 2) * 4 + k] = p.b;
      c.texels[(3 * 4 + 1) * 4 + k] = p.b;
      c.texels[(3 * 4 + 2) * 4 + k] = k & 1 ? p.b : p.a;
    }
    for (int b = 0; b <= 16; ++b)
      for (int a = 0; a <= 16; ++a) c.at.push_back(P(1.5f + a / 16.f, 2.5f + b / 16.f));
    run(c);
  }
  // 2D border and clamp edges.
  for (Fmt f : {U8, S16, F32, F16})
    for (int m = 0; m < 2; ++m) {
      Case c;
      c.shape = S2D, c.fmt = f, c.ch = 4, c.w = 5, c.h = 4, c.note = "edges";
      c.addr = m ? cudaAddressModeBorder : cudaAddressModeClamp;
      set_border(c, f == S16 ? kBorderS : kBorderA);
      fill_random(c, 250 + f);
      edges_2d(c.at, c.w, c.h, 0);
      run(c);
    }
  // 2D normalised: wrap, mirror, clamp, border at (i + 0.3)/w, (j + 0.7)/h.
  for (Fmt f : {U8, F32})
    for (cudaTextureAddressMode m : {cudaAddressModeWrap, cudaAddressModeMirror,
                                     cudaAddressModeClamp, cudaAddressModeBorder}) {
      Case c;
      c.shape = S2D, c.fmt = f, c.ch = 4, c.w = 5, c.h = 6, c.addr = m, c.norm = true;
      c.note = "norm-(i+0.3)/w,(j+0.7)/h";
      set_border(c, kBorderA);
      fill_random(c, 260 + f);
      for (int j = -3; j <= 8; ++j)
        for (int i = -3; i <= 8; ++i) c.at.push_back(P((i + 0.3f) / c.w, (j + 0.7f) / c.h));
      run(c);
    }
  // 2D pitched linear memory.
  for (Fmt f : {U8, S16, F32, F16}) {
    Case c;
    c.shape = SP2D, c.fmt = f, c.ch = 4, c.w = 6, c.h = 6, c.note = "grid17+scatter";
    fill_random(c, 270 + f);
    points_2d(c.at, c.w, c.h, 280 + f, 0);
    run(c);
  }
  {
    Case c;
    c.shape = SP2D, c.fmt = U8, c.ch = 4, c.w = 5, c.h = 4, c.note = "edges";
    c.addr = cudaAddressModeBorder;
    set_border(c, kBorderA);
    fill_random(c, 290);
    edges_2d(c.at, c.w, c.h, 0);
    run(c);
  }
  // 2D layered (3 layers, layer 1 read).
  for (Fmt f : {U8, U16, F32, F16}) {
    Case c;
    c.shape = SL2D, c.fmt = f, c.ch = 4, c.w = 6, c.h = 6, c.layers = 3, c.layer = 1;
    c.note = "grid17+scatter";
    fill_random(c, 300 + f);
    points_2d(c.at, c.w, c.h, 310 + f, 1);
    run(c);
  }
  for (Fmt f : {U8, F32}) {
    Case c;
    c.shape = SL2D, c.fmt = f, c.ch = 4, c.w = 5, c.h = 4, c.layers = 3, c.layer = 2;
    c.note = "edges", c.addr = cudaAddressModeBorder;
    set_border(c, kBorderA);
    fill_random(c, 320 + f);
    edges_2d(c.at, c.w, c.h, 2);
    run(c);
  }
  // 1D layered (3 layers, layer 1 read): the pair sweep and the edges.
  for (Fmt f : {U8, S16, F32, F16}) {
    Case c;
    c.shape = SL1D, c.fmt = f, c.ch = 4, c.w = 8, c.layers = 3, c.layer = 1;
    c.note = "sweep-1/256-x=2.5..3.5";
    fill_random(c, 330 + f);
    for (int k = 0; k < 4; ++k) {
      c.texels[(8 + 2) * 4 + k] = pair_of(f, k).a;
      c.texels[(8 + 3) * 4 + k] = pair_of(f, k).b;
    }
    sweep_1d(c.at, 2.5, false, c.w, 1, 256);
    run(c);
  }
  for (Fmt f : {U8, F32}) {
    Case c;
    c.shape = SL1D, c.fmt = f, c.ch = 4, c.w = 8, c.layers = 3, c.layer = 1;
    c.note = "edges", c.addr = cudaAddressModeBorder;
    set_border(c, kBorderA);
    fill_random(c, 340 + f);
    edges_1d(c.at, c.w, 1);
    run(c);
  }

  // 3D arrays: random texels, 9x9x9 grid and scattered points, clamp.
  for (Fmt f : fmts) {
    Case c;
    c.shape = S3D, c.fmt = f, c.ch = 4, c.w = 4, c.h = 4, c.d = 4, c.note = "grid9+scatter";
    fill_random(c, 400 + f);
    points_3d(c.at, c.w, c.h, c.d, 410 + f);
    run(c);
  }
  {
    Case c;
    c.shape = S3D, c.fmt = F32, c.ch = 1, c.w = 4, c.h = 4, c.d = 4, c.note = "grid9+scatter";
    fill_random(c, 420);
    points_3d(c.at, c.w, c.h, c.d, 430);
    run(c);
  }
  for (Fmt f : {U8, F32}) {  // 3D border: a 9x9x9 grid over [-1.5, 1.5]^3 (steps of 3/8)
    Case c;
    c.shape = S3D, c.fmt = f, c.ch = 4, c.w = 3, c.h = 4, c.d = 5, c.note = "edges";
    c.addr = cudaAddressModeBorder;
    set_border(c, kBorderA);
    fill_random(c, 440 + f);
    for (int z = 0; z <= 8; ++z)
      for (int y = 0; y <= 8; ++y)
        for (int x = 0; x <= 8; ++x)
          c.at.push_back(P(-1.5f + x * 0.375f, -1.5f + y * 0.375f, -1.5f + z * 0.375f));
    run(c);
  }
  {  // 3D normalised wrap
    Case c;
    c.shape = S3D, c.fmt = F32, c.ch = 4, c.w = 3, c.h = 4, c.d = 5, c.note = "norm-wrap";
    c.addr = cudaAddressModeWrap, c.norm = true;
    fill_random(c, 450);
    for (int z = -1; z <= 5; ++z)
      for (int y = -1; y <= 4; ++y)
        for (int x = -1; x <= 3; ++x)
          c.at.push_back(P((x + 0.3f) / c.w, (y + 0.6f) / c.h, (z + 0.85f) / c.d));
    run(c);
  }

  // Controls: point filtering (unnormalised and normalised), element reads of float textures.
  for (Fmt f : {U8, S16, F32, F16})
    for (int norm = 0; norm < 2; ++norm) {
      Case c;
      c.fmt = f, c.ch = f == F32 ? 1 : 4, c.w = 8, c.linear = false, c.norm = norm != 0;
      c.note = "point-control";
      fill_random(c, 500 + f);
      for (int k = -24; k <= 96; ++k) c.at.push_back(P(norm ? (k / 8.f) / 8.f : k / 8.f));
      for (int k = -2; k <= 10; ++k) c.at.push_back(P(norm ? (k + 0.3f) / 8.f : k + 0.3f));
      run(c);
    }
  for (Fmt f : {U8, F32}) {
    Case c;
    c.shape = S2D, c.fmt = f, c.ch = 4, c.w = 5, c.h = 4, c.linear = false;
    c.note = "point-control";
    fill_random(c, 510 + f);
    for (int b = 0; b <= 10; ++b)
      for (int a = 0; a <= 12; ++a) c.at.push_back(P(-0.25f + a / 2.f, -0.25f + b / 2.f));
    run(c);
  }
  {
    Case c;
    c.shape = S3D, c.fmt = F32, c.ch = 1, c.w = 3, c.h = 4, c.d = 5, c.linear = false;
    c.note = "point-control";
    fill_random(c, 520);
    for (int z = 0; z <= 11; ++z)
      for (int y = 0; y <= 9; ++y)
        for (int x = 0; x <= 7; ++x)
          c.at.push_back(P(-0.25f + x * 0.5f, -0.25f + y * 0.5f, -0.25f + z * 0.5f));
    run(c);
  }
  // Linear memory (fetch only, point): float elements and u8x4 normalised.
  for (Fmt f : {F32, U8}) {
    Case c;
    c.shape = SLIN, c.fmt = f, c.ch = f == F32 ? 1 : 4, c.w = 16, c.linear = false;
    c.note = "fetch-index-in-x";
    fill_random(c, 530 + f);
    for (int k = 0; k < 16; ++k) c.at.push_back(P(static_cast<float>(k)));
    run(c);
  }

  std::printf("texture_probe: %lld reads\n", g_reads);
  std::fflush(stdout);
  return 0;
}
