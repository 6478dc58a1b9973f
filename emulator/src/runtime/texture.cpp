// Texture and surface objects: registries from the objects' handles to what they read, and the
// sampling of the GPU's texture units.
//
// A texture read turns its coordinates into texel indices: normalised coordinates are scaled by
// the size; point filtering takes the texel the coordinate falls in, linear filtering the two
// (four, eight) around coordinate - 0.5 with weights in 9-bit fixed point (8 fractional bits), as
// the CUDA programming guide describes the hardware; the rounding of the weights, the fixed point
// the texels are summed in and the border colour's conversion are those of an H200, fitted to its
// output of tests/texture_probe (README there; the test textures/texture_probe_test). Address modes: clamp, border (the border
// colour), and for normalised coordinates wrap and mirror (with unnormalised coordinates those
// two clamp). Channels read as normalised floats: unsigned n-bit v / (2^n - 1), signed
// max(v / (2^(n-1) - 1), -1); 16-bit float channels read as float.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include <cuda_runtime_api.h>
#include <texture_types.h>

#include <cuemu/fp16/format.h>

#include "exec/current_thread.h"
#include "runtime/array.h"
#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

// The memory a texture or surface object reads: elements of `elem` bytes, rows of `pitch`
// bytes, slices (3D) or layers of `slice` bytes.
struct image {
  const char* base = nullptr;
  cudaChannelFormatDesc desc{};
  int channels = 1;
  std::size_t elem = 0;
  std::size_t width = 1, height = 1, depth = 1, layers = 1;
  std::size_t pitch = 0, slice = 0;
  bool linear = false;  // a cudaResourceTypeLinear texture (tex1Dfetch only)
};

struct texture {
  cudaResourceDesc resource;
  cudaTextureDesc view;
  image img;
};

struct surface {
  cudaResourceDesc resource;
  image img;
  int dims = 1;  // of the array: 1, 2, 3; layered 1D: -1, layered 2D: -2
};

struct registry {
  std::mutex mutex;
  std::unordered_map<cudaTextureObject_t, texture> textures;
  std::unordered_map<cudaSurfaceObject_t, surface> surfaces;
  unsigned long long next = 1;
  // Bumped (under the mutex) by every creation and destruction: a thread's cached lookup is
  // good while it is unchanged.
  std::atomic<unsigned long long> generation{1};
};

registry& reg() {
  static registry* r = new registry;  // never destroyed
  return *r;
}

// The object a read names, or null. Each host thread keeps the one it found last, so a kernel's
// reads take no lock (a lock per read cost simplePitchLinearTexture half its time on two
// workers). Objects are not destroyed while kernels read them (as on a GPU), and an element of
// an unordered_map keeps its address while others are added.
template <class Object>
struct lookup_cache {
  unsigned long long generation = 0, handle = 0;
  const Object* object = nullptr;
};
template <class Object>
const Object* find_object(std::unordered_map<unsigned long long, Object>& objects,
                          unsigned long long handle) {
  thread_local lookup_cache<Object> c;
  registry& r = reg();
  if (c.handle == handle && c.generation == r.generation.load(std::memory_order_acquire))
    return c.object;
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = objects.find(handle);
  c.object = it == objects.end() ? nullptr : &it->second;
  c.handle = handle;
  c.generation = r.generation.load(std::memory_order_relaxed);
  return c.object;
}

int channel_count(const cudaChannelFormatDesc& d) {
  return 1 + (d.y != 0) + (d.z != 0) + (d.w != 0);
}

// The image a resource describes; an error when it is not one the emulator reads.
cudaError_t describe(const cudaResourceDesc& r, image& img, int* dims = nullptr) {
  switch (r.resType) {
    case cudaResourceTypeLinear: {
      const auto& l = r.res.linear;
      img.elem = element_bytes(l.desc);
      if (!l.devPtr || img.elem == 0 || l.sizeInBytes < img.elem) return cudaErrorInvalidValue;
      img.base = static_cast<const char*>(l.devPtr);
      img.desc = l.desc;
      img.width = l.sizeInBytes / img.elem;
      img.pitch = img.slice = l.sizeInBytes;
      img.linear = true;
      break;
    }
    case cudaResourceTypePitch2D: {
      const auto& p = r.res.pitch2D;
      img.elem = element_bytes(p.desc);
      if (!p.devPtr || img.elem == 0 || p.width == 0 || p.height == 0 ||
          p.pitchInBytes < p.width * img.elem)
        return cudaErrorInvalidValue;
      img.base = static_cast<const char*>(p.devPtr);
      img.desc = p.desc;
      img.width = p.width;
      img.height = p.height;
      img.pitch = p.pitchInBytes;
      img.slice = p.pitchInBytes * p.height;
      if (dims) *dims = 2;
      break;
    }
    case cudaResourceTypeArray: {
      const cudaArray* a = find_array(r.res.array.array);
      if (!a) return cudaErrorInvalidResourceHandle;
      img.base = a->data;
      img.desc = a->desc;
      img.elem = a->elem;
      img.width = a->width;
      img.height = a->rows();
      img.pitch = a->pitch();
      img.slice = a->pitch() * a->rows();
      const bool layered = a->flags & (cudaArrayLayered | cudaArrayCubemap);  // faces: layers
      if (layered)
        img.layers = a->slices();
      else
        img.depth = a->slices();
      if (dims) *dims = layered ? (a->height ? -2 : -1) : a->depth ? 3 : a->height ? 2 : 1;
      break;
    }
    default:
      return cudaErrorNotSupported;  // mipmapped arrays
  }
  img.channels = channel_count(img.desc);
  return cudaSuccess;
}

// Half texels: the fp16 format's exact conversion (cuemu/fp16/format.h).
float half_to_float(std::uint16_t h) { return fp16::to_float<fp16::half_format>(h); }

// One channel of one texel: its raw (sign-extended) value and its value as a float.
void load_channel(const image& img, const char* texel, int c, bool normalised, float& f,
                  unsigned& u) {
  const int bits = img.desc.x;
  const char* p = texel + c * bits / 8;
  switch (img.desc.f) {
    case cudaChannelFormatKindFloat:
      if (bits == 32) {
        std::memcpy(&f, p, 4);
        std::memcpy(&u, p, 4);
      } else {
        std::uint16_t h;
        std::memcpy(&h, p, 2);
        f = half_to_float(h);
        u = h;
      }
      return;
    case cudaChannelFormatKindSigned: {
      std::int32_t v = 0;
      if (bits == 8) v = *reinterpret_cast<const std::int8_t*>(p);
      if (bits == 16) std::memcpy(&v, p, 2), v = static_cast<std::int16_t>(v);
      if (bits == 32) std::memcpy(&v, p, 4);
      u = static_cast<unsigned>(v);
      if (normalised && bits < 32)
        f = std::max(static_cast<float>(v) / static_cast<float>((1 << (bits - 1)) - 1), -1.f);
      else
        std::memcpy(&f, &u, 4);  // an element read into a float: the bits, as on a GPU
      return;
    }
    default: {
      std::uint32_t v = 0;
      std::memcpy(&v, p, static_cast<std::size_t>(bits / 8));
      u = v;
      if (normalised && bits < 32)
        f = static_cast<float>(v) / static_cast<float>((1u << bits) - 1u);
      else
        std::memcpy(&f, &u, 4);
      return;
    }
  }
}

// A texel index along one axis after the address mode; -1: outside (border).
long long address(long long i, long long n, cudaTextureAddressMode mode, bool normalised) {
  if (i >= 0 && i < n) return i;  // inside: every mode keeps it
  if (!normalised && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror))
    mode = cudaAddressModeClamp;
  switch (mode) {
    case cudaAddressModeWrap: {
      const long long m = i % n;
      return m < 0 ? m + n : m;
    }
    case cudaAddressModeMirror: {
      long long m = i % (2 * n);
      if (m < 0) m += 2 * n;
      return m < n ? m : 2 * n - 1 - m;
    }
    case cudaAddressModeBorder:
      return i < 0 || i >= n ? -1 : i;
    default:
      return std::clamp<long long>(i, 0, n - 1);
  }
}

// --- Linear filtering ---------------------------------------------------------------------------
// The weights of the 2^axes corners (corner k: bit a set = the upper texel along axis a), in 1/256,
// summing to 256, from the fractions frac[a] (0..256, the upper texel's weight). An H200 splits
// the whole weight axis by axis, rounding halves up: z first (exactly), then x within each z
// slice (the x1 part is rounded: x1 = round(w * fx)), then y within each x column (the part on
// the same side as the column is rounded: in column x1, y1 = round(w * fy); in column x0,
// y0 = round(w * (1 - fy))); each complement is the rest of its parent.
int round_weight(int w, int f) { return (w * f + 128) >> 8; }

void corner_weights(int axes, const int frac[3], int weight[8]) {
  if (axes == 1) {
    weight[0] = 256 - frac[0];
    weight[1] = frac[0];
    return;
  }
  const int slices = axes == 3 ? 2 : 1;
  for (int z = 0; z < slices; ++z) {
    const int wz = axes == 3 ? (z ? frac[2] : 256 - frac[2]) : 256;
    const int x1 = round_weight(wz, frac[0]), x0 = wz - x1;
    const int x1y1 = round_weight(x1, frac[1]);
    const int x0y0 = round_weight(x0, 256 - frac[1]);
    weight[z * 4 + 0] = x0y0;       // x0 y0
    weight[z * 4 + 1] = x1 - x1y1;  // x1 y0
    weight[z * 4 + 2] = x0 - x0y0;  // x0 y1
    weight[z * 4 + 3] = x1y1;       // x1 y1
  }
}

long long floor_div(long long a, long long b) {  // b > 0
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// A border colour channel as a normalised read's 8- or 16-bit texel holds it, in the units the
// filter sums: the 16-bit value first (the float product colour * 65535 or * 32767, halves
// rounded down), then, for 8-bit channels, the nearest 8-bit value (s8 as it is, u8 times 257).
long long border_texel(const image& img, float colour) {
  const bool is_signed = img.desc.f == cudaChannelFormatKindSigned;
  const long long full = is_signed ? 32767 : 65535;
  const float product = colour * static_cast<float>(full);
  const long long border16 =
      std::clamp(static_cast<long long>(std::ceil(static_cast<double>(product) - 0.5)), -full, full);
  if (img.desc.x != 8) return border16;
  const long long max8 = is_signed ? 127 : 255;
  const long long v8 = floor_div(2 * border16 * max8 + full, 2 * full);
  return is_signed ? v8 : v8 * 257;
}

// What a texel in those units reads as: unsigned / 65535, s8 / 127, s16 / 32767.
float normalised_value(const image& img, long long v) {
  if (img.desc.f != cudaChannelFormatKindSigned) return static_cast<float>(v) / 65535.f;
  return static_cast<float>(v) / (img.desc.x == 8 ? 127.f : 32767.f);
}

// Normalised reads of 8- and 16-bit integer channels filter in 16-bit fixed point: each texel
// becomes a 16-bit unorm (unsigned: v * 65535 / (2^n - 1), for u8 v * 257) or snorm (s16 as it
// is); the weighted sum is rounded to an integer R (halves up) and read as R / 65535, or
// max(R, -32767) / 32767. s8 texels are summed as they are, S = sum of weight * v (an s8 value
// with 8 fractional bits), and S becomes a 16-bit snorm as S + round(S' * 257 / 2048), where S'
// is S with 4 fractional bits (floor): S * 32767 / 32512 approximated as an H200 computes it
// (all 17 000 s8 channel reads of the texture probe). A border colour enters like a texel
// (border_texel).
void filter_normalised(const image& img, const float border_colour[4], const texel corner[8],
                       const bool border[8], const int weight[8], int corners, texel& out) {
  const bool is_signed = img.desc.f == cudaChannelFormatKindSigned;
  const int bits = img.desc.x;
  const bool s8 = is_signed && bits == 8;
  const long long full = is_signed ? 32767 : 65535;
  for (int c = 0; c < img.channels; ++c) {
    const long long border_value = border_texel(img, border_colour[c]);
    long long sum = 0;
    for (int k = 0; k < corners; ++k) {
      if (weight[k] == 0) continue;
      long long v;  // the texel: s8 as it is, others as 16-bit values
      if (border[k]) {
        v = border_value;
      } else {
        v = is_signed ? static_cast<int>(corner[k].u[c]) : static_cast<long long>(corner[k].u[c]);
        if (bits == 8 && !is_signed) v *= 257;
      }
      sum += weight[k] * v;
    }
    const long long r = s8 ? sum + floor_div(floor_div(sum, 16) * 257 + 1024, 2048)
                           : floor_div(sum + 128, 256);
    if (is_signed)
      out.f[c] = static_cast<float>(std::clamp(r, -full, full)) / 32767.f;
    else
      out.f[c] = static_cast<float>(r) / 65535.f;
  }
}

// `value` (an integer times 2^e) rounded to `digits` significant bits with halves away from zero,
// not below 2^min_exp (subnormals); exact in a float for digits <= 24.
float round_away(long long value, int e, int digits, int min_exp) {
  if (value == 0) return 0.f;
  const bool negative = value < 0;
  unsigned long long m = negative ? 0ull - static_cast<unsigned long long>(value)
                                  : static_cast<unsigned long long>(value);
  const int width = 64 - __builtin_clzll(m);
  const int lsb = std::max(e + width - digits, min_exp);  // exponent of the result's last bit
  if (lsb > e) {
    const int shift = lsb - e;
    m = shift >= 64 ? 0 : (m + (1ull << (shift - 1))) >> shift;
    e = lsb;
  }
  // m * 2^e, exact in a double (m below 2^25, e within a double's exponents), then to float:
  // exact, or infinity past the largest float, as ldexpf gives.
  double scale;
  const std::uint64_t bits = static_cast<std::uint64_t>(std::clamp(e, -1022, 1023) + 1023) << 52;
  std::memcpy(&scale, &bits, 8);
  const float r = static_cast<float>(static_cast<double>(m) * scale);
  return negative ? -r : r;
}

// Float channels (f32 and f16 element reads) filter in wide fixed point. A 2D (or 1D) read sums
// its corners as one plane, a 3D read each z plane on its own: in a plane, each texel with a
// non-zero weight is truncated (toward zero) to 4 bits below the last mantissa bit of the
// plane's largest such texel, multiplied by its weight and summed exactly. The plane with the
// finer last bit is floored to the other's before the two are added. The sum is rounded to the
// channel's precision (24 or 11 bits) with halves away from zero. A border colour enters as a
// texel of the channel's type (for half channels: the colour rounded toward zero to a half).
struct plane_sum {
  long long sum = 0;  // in units of 2^grid / 256
  int grid = INT32_MIN;
};

// A finite float as m * 2^e, m a signed integer of at most 24 bits (exactly).
struct float_parts {
  long long m;
  int e;
};
float_parts parts_of(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  const int biased = static_cast<int>((b >> 23) & 0xff);
  long long m = b & 0x7fffff;
  if (biased != 0) m |= 0x800000;
  return {b >> 31 ? -m : m, (biased != 0 ? biased : 1) - 150};
}
// frexp's exponent of a non-zero finite float: |f| in [2^(e-1), 2^e).
int frexp_exponent(const float_parts& p) {
  const unsigned long long a = static_cast<unsigned long long>(p.m < 0 ? -p.m : p.m);
  return p.e + 64 - __builtin_clzll(a);
}

plane_sum sum_plane(const float* value, const int* weight, int corners, int digits) {
  constexpr int guard = 4;
  plane_sum p;
  float_parts part[8];
  int emax = INT32_MIN;
  for (int k = 0; k < corners; ++k) {
    part[k] = parts_of(value[k]);
    if (weight[k] == 0 || part[k].m == 0) continue;
    emax = std::max(emax, frexp_exponent(part[k]));
  }
  if (emax == INT32_MIN) return p;  // all zero
  p.grid = emax - digits - guard;   // exponent of the fixed point's last bit
  for (int k = 0; k < corners; ++k) {
    if (weight[k] == 0 || part[k].m == 0) continue;
    // value * 2^-grid truncated toward zero: below 2^(digits + guard) in magnitude.
    const long long m = part[k].m;
    const int shift = part[k].e - p.grid;
    long long scaled;
    if (shift >= 0) scaled = m * (1ll << shift);
    else if (shift <= -63) scaled = 0;
    else scaled = m < 0 ? -((-m) >> -shift) : m >> -shift;
    p.sum += weight[k] * scaled;
  }
  return p;
}

float half_toward_zero(float f) {
  return half_to_float(fp16::from_float<fp16::half_format>(f, fp16::round_mode::rz));
}

void filter_float(const image& img, const texel corner[8], const bool border[8],
                  const int weight[8], int corners, texel& out) {
  const bool half = img.desc.x == 16;
  const int digits = half ? 11 : 24;
  for (int c = 0; c < img.channels; ++c) {  // the others read 0 (sample_face)
    float value[8];
    bool finite = true;
    for (int k = 0; k < corners; ++k) {
      value[k] = half && border[k] ? half_toward_zero(corner[k].f[c]) : corner[k].f[c];
      if (weight[k] != 0 && !std::isfinite(value[k])) finite = false;
    }
    if (!finite) {  // infinities and NaNs: the plain weighted sum
      float sum = 0.f;
      for (int k = 0; k < corners; ++k)
        if (weight[k]) sum += static_cast<float>(weight[k]) / 256.f * value[k];
      out.f[c] = sum;
      continue;
    }
    const int planes = corners == 8 ? 2 : 1, per_plane = corners / planes;
    plane_sum p[2];
    for (int z = 0; z < planes; ++z)
      p[z] = sum_plane(value + z * per_plane, weight + z * per_plane, per_plane, digits);
    if (planes == 2 && p[0].grid != INT32_MIN && p[1].grid != INT32_MIN && p[0].grid != p[1].grid) {
      plane_sum& fine = p[0].grid < p[1].grid ? p[0] : p[1];
      const int coarse = std::max(p[0].grid, p[1].grid);
      fine.sum = floor_div(fine.sum, 1ll << (coarse - fine.grid));
      fine.grid = coarse;
    }
    const int grid = std::max(p[0].grid, planes == 2 ? p[1].grid : INT32_MIN);
    if (grid == INT32_MIN) {
      out.f[c] = 0.f;
      continue;
    }
    long long sum = 0;
    for (int z = 0; z < planes; ++z)
      if (p[z].grid != INT32_MIN) sum += p[z].sum;
    // sum * 2^(grid - 8); halves: a subnormal half's last bit is 2^-24.
    out.f[c] = round_away(sum, grid - 8, digits, half ? -24 : -149);
  }
}

// std::floor without a library call (the runtime is built for every x86-64, without SSE4.1's
// roundsd): exact below 2^52, std::floor beyond and for NaN. (-0 gives +0: every caller turns the
// result into an index or a fraction.)
inline double floor_of(double x) {
  if (std::fabs(x) < 4503599627370496.0) {
    const double t = static_cast<double>(static_cast<long long>(x));
    return t > x ? t - 1.0 : t;
  }
  return std::floor(x);
}

// A normalised coordinate in texels: to fixed point first (truncated to 2^-24, which an H200's
// point samples show: 0.2f x 5 reads texel 0), then scaled by the size (exactly).
double scaled_normalised(double c, long long size) {
  return floor_of(c * 16777216.0) / 16777216.0 * static_cast<double>(size);
}

struct sampler {
  const texture& t;
  bool normalised_read;
  int axes;             // coordinates that address texels: 1, 2 or 3
  long long layer = 0;  // a layered read's layer

  // The texel at idx (axes_used coordinates, default axes) as floats (f) and raw channel values
  // (u); any coordinate -1: the border colour, and the answer is true.
  bool fetch(const long long idx[3], texel& out, int axes_used = 0) const {
    const image& img = t.img;
    if (axes_used == 0) axes_used = axes;
    std::memset(&out, 0, sizeof out);
    bool border = false;
    for (int a = 0; a < axes_used; ++a) border |= idx[a] < 0;
    if (border) {
      for (int c = 0; c < 4; ++c) {
        out.f[c] = t.view.borderColor[c];
        std::memcpy(&out.u[c], &out.f[c], 4);
      }
      return true;
    }
    const char* p = img.base + idx[0] * img.elem + (axes_used > 1 ? idx[1] : 0) * img.pitch +
                    (axes > 2 ? idx[2] : layer) * img.slice;
    for (int c = 0; c < img.channels; ++c)
      load_channel(img, p, c, normalised_read, out.f[c], out.u[c]);
    return false;
  }
};

}  // namespace

namespace {
// A read of texture t (1D, 2D, 3D or layered) once the object is resolved.
void sample_face(const texture& t, bool normalised_read, texture_shape shape, float x, float y,
                 int layer, texel& out, float z = 0.f);
}  // namespace

void texture_read(cudaTextureObject_t tex, texture_shape shape, float x, float y, float z,
                  int layer, texel& out) {
  std::memset(&out, 0, sizeof out);
  const texture* found = find_object(reg().textures, tex);
  if (!found) return;  // a GPU reads garbage or faults; zeros here
  const texture& t = *found;
  const image& img = t.img;
  const bool normalised_read = t.view.readMode == cudaReadModeNormalizedFloat;
  if (shape == texture_shape::fetch) {  // linear memory, an integer index, no filtering
    const long long i = static_cast<long long>(x);
    if (i < 0 || static_cast<std::size_t>(i) >= img.width) return;  // zeros, as on a GPU
    const char* p = img.base + i * img.elem;
    for (int c = 0; c < img.channels; ++c)
      load_channel(img, p, c, normalised_read, out.f[c], out.u[c]);
    return;
  }
  if (shape == texture_shape::cubemap || shape == texture_shape::cubemap_layered) {
    // The face the direction (x, y, z) points at and the normalised coordinates on it, by the
    // CUDA programming guide's table; then a layered 2D read of that face.
    const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
    int face;
    float m, sc, tc;
    // Ties go to z, then y (an H200 reads the -y face for (0.9, -0.9, 0.2)).
    if (az >= ax && az >= ay) {
      face = z >= 0 ? 4 : 5, m = az, sc = z >= 0 ? x : -x, tc = -y;
    } else if (ay >= ax) {
      face = y >= 0 ? 2 : 3, m = ay, sc = x, tc = y >= 0 ? z : -z;
    } else {
      face = x >= 0 ? 0 : 1, m = ax, sc = x >= 0 ? -z : z, tc = -y;
    }
    const int cube = shape == texture_shape::cubemap_layered
                         ? static_cast<int>(std::min<unsigned long long>(
                               static_cast<unsigned>(layer), img.layers / 6 - 1))
                         : 0;
    texture cube_face = t;  // normalised coordinates on the face, clamped
    cube_face.view.normalizedCoords = 1;
    for (auto& mode : cube_face.view.addressMode) mode = cudaAddressModeClamp;
    const float u = (sc / m + 1.f) * 0.5f, v = (tc / m + 1.f) * 0.5f;
    sample_face(cube_face, normalised_read, texture_shape::d2_layered, u, v, cube * 6 + face, out);
    return;
  }
  sample_face(t, normalised_read, shape, x, y, layer, out, z);
}

namespace {
void sample_face(const texture& t, bool normalised_read, texture_shape shape, float x, float y,
                 int layer, texel& out, float z) {
  const image& img = t.img;
  sampler s{t, normalised_read, 1};
  s.axes = shape == texture_shape::d3 ? 3
           : shape == texture_shape::d2 || shape == texture_shape::d2_layered ? 2
                                                                              : 1;
  // The layer index is unsigned to the GPU: a negative one reads the last layer.
  if (shape == texture_shape::d1_layered || shape == texture_shape::d2_layered)
    s.layer = std::min<unsigned long long>(static_cast<unsigned>(layer), img.layers - 1);
  const float coord[3] = {x, y, z};
  const long long size[3] = {static_cast<long long>(img.width), static_cast<long long>(img.height),
                             static_cast<long long>(img.depth)};
  const bool normalised = t.view.normalizedCoords != 0;
  double pos[3] = {0, 0, 0};
  for (int a = 0; a < s.axes; ++a) {
    double c = coord[a];
    if (normalised) c = scaled_normalised(c, size[a]);
    pos[a] = c;
  }
  const bool linear = t.view.filterMode == cudaFilterModeLinear;
  if (!linear) {
    long long idx[3];
    for (int a = 0; a < s.axes; ++a)
      idx[a] = address(static_cast<long long>(floor_of(static_cast<float>(pos[a]))), size[a],
                       t.view.addressMode[a], normalised);
    s.fetch(idx, out);
    return;
  }
  // Linear filtering, as an H200 computes it (fitted bit for bit to its output, see
  // emulator/tests/texture_probe). A 1D array filters as a 2D one of height 1 read at y = 0: the
  // rows y = -1 and 0 each weigh half, which shows next to a border colour.
  const bool plain_1d = shape == texture_shape::d1;
  const int axes = plain_1d ? 2 : s.axes;
  if (plain_1d) pos[1] = 0.0;
  long long lo[3], hi[3];
  int frac[3];  // the weight of the upper texel, in 1/256
  for (int a = 0; a < axes; ++a) {
    // coordinate - 0.5, and its fraction rounded to 8 bits (halves up; 256 is kept: the weight
    // is 9-bit).
    double b = pos[a] - 0.5;
    // Clamp mode (and wrap and mirror, which clamp unnormalised coordinates) clamps the
    // coordinate itself to the edge texels' centres: outside them one texel has all the weight.
    const cudaTextureAddressMode mode = t.view.addressMode[a];
    if (mode == cudaAddressModeClamp || (!normalised && mode != cudaAddressModeBorder))
      b = std::clamp(b, 0.0, static_cast<double>(size[a] - 1));
    const double fl = floor_of(b);
    frac[a] = static_cast<int>(floor_of((b - fl) * 256.0 + 0.5));
    lo[a] = address(static_cast<long long>(fl), size[a], t.view.addressMode[a], normalised);
    hi[a] = address(static_cast<long long>(fl) + 1, size[a], t.view.addressMode[a], normalised);
  }
  int weight[8];
  corner_weights(axes, frac, weight);
  const int corners = 1 << axes;
  texel corner[8];
  bool border[8];
  for (int k = 0; k < corners; ++k) {
    long long idx[3];
    for (int a = 0; a < axes; ++a) idx[a] = (k >> a) & 1 ? hi[a] : lo[a];
    border[k] = s.fetch(idx, corner[k], axes);
  }
  if (normalised_read)
    filter_normalised(img, t.view.borderColor, corner, border, weight, corners, out);
  else
    filter_float(img, corner, border, weight, corners, out);
  for (int c = img.channels; c < 4; ++c) out.f[c] = 0.f;  // as point samples leave them
  for (int c = 0; c < 4; ++c) std::memcpy(&out.u[c], &out.f[c], 4);
}
}  // namespace

// tex2Dgather: component `comp` of the four texels a bilinear read of (x, y) would weigh, in the
// order of Direct3D's gather (the GPU's): (x0, y1), (x1, y1), (x1, y0), (x0, y0), where x0, x1
// are floor(x - 0.5) and the next texel after the address mode (the coordinate itself is not
// clamped: at a clamped edge both are the edge texel), as element or normalised values by the
// read mode. Fitted to an H200's answers (tests/textures/programs/texture_forms.cu).
void texture_gather(cudaTextureObject_t tex, float x, float y, int comp, texel& out) {
  std::memset(&out, 0, sizeof out);
  const texture* found = find_object(reg().textures, tex);
  if (!found) return;
  const texture& t = *found;
  const image& img = t.img;
  if (comp < 0 || comp > 3) comp = 0;
  sampler s{t, t.view.readMode == cudaReadModeNormalizedFloat, 2};
  const bool normalised = t.view.normalizedCoords != 0;
  const float coord[2] = {x, y};
  const long long size[2] = {static_cast<long long>(img.width),
                             static_cast<long long>(img.height)};
  long long lo[2], hi[2];
  for (int a = 0; a < 2; ++a) {
    double c = coord[a];
    if (normalised) c = scaled_normalised(c, size[a]);
    // The texel pair of coordinate - 0.5 in fixed point with 8 fractional bits (halves up), so
    // a coordinate a hair below a texel's centre picks that texel as the lower one.
    const double fl = std::floor(std::floor((c - 0.5) * 256.0 + 0.5) / 256.0);
    lo[a] = address(static_cast<long long>(fl), size[a], t.view.addressMode[a], normalised);
    hi[a] = address(static_cast<long long>(fl) + 1, size[a], t.view.addressMode[a], normalised);
  }
  const long long order[4][2] = {{lo[0], hi[1]}, {hi[0], hi[1]}, {hi[0], lo[1]}, {lo[0], lo[1]}};
  if (comp >= img.channels) return;  // a component the texels lack: zeros, border included
  for (int k = 0; k < 4; ++k) {
    const long long idx[3] = {order[k][0], order[k][1], 0};
    texel v;
    // A normalised read's border colour as the texel's format holds it (as linear filtering
    // takes it).
    if (s.fetch(idx, v) && s.normalised_read && img.desc.f != cudaChannelFormatKindFloat &&
        img.desc.x < 32)
      v.f[comp] = normalised_value(img, border_texel(img, t.view.borderColor[comp]));
    out.f[k] = v.f[comp];
    out.u[k] = v.u[comp];
  }
}

void* surface_address(cudaSurfaceObject_t surf, int dims, int x, int y, int z, std::size_t bytes,
                      int mode, const char* file, int line) {
  const surface* found = find_object(reg().surfaces, surf);
  if (!found) {
    fault_current_thread("invalid surface object", file, line,
                         "  the surface object " + std::to_string(surf) +
                             " was not created (or was destroyed)\n",
                         cudaErrorIllegalAddress, false);
  }
  const image& img = found->img;
  const long long row_bytes = static_cast<long long>(img.width * img.elem);
  const long long ny = dims == 1 || dims == -1 ? 1 : static_cast<long long>(img.height);
  const long long nz = dims == 3 ? static_cast<long long>(img.depth)
                       : dims < 0 ? static_cast<long long>(img.layers)
                                  : 1;
  long long X = x, Y = dims == 1 || dims == -1 ? 0 : y, Z = dims == 3 || dims < 0 ? z : 0;
  const bool outside = X < 0 || X + static_cast<long long>(bytes) > row_bytes || Y < 0 ||
                       Y >= ny || Z < 0 || Z >= nz;
  if (outside) {
    if (mode == cudaBoundaryModeZero) return nullptr;
    if (mode == cudaBoundaryModeClamp) {
      X = std::clamp<long long>(X, 0, row_bytes - static_cast<long long>(bytes));
      Y = std::clamp<long long>(Y, 0, ny - 1);
      Z = std::clamp<long long>(Z, 0, nz - 1);
    } else {
      fault_current_thread(
          "out-of-bounds surface access", file, line,
          "  " + std::to_string(bytes) + " bytes at x = " + std::to_string(x) + " bytes, y = " +
              std::to_string(y) + ", z = " + std::to_string(z) + " of a surface of " +
              std::to_string(row_bytes) + " bytes x " + std::to_string(ny) + " x " +
              std::to_string(nz) + " (cudaBoundaryModeTrap)\n",
          cudaErrorIllegalAddress, false);
    }
  }
  return const_cast<char*>(img.base) + X + Y * static_cast<long long>(img.pitch) +
         Z * static_cast<long long>(img.slice);
}

}  // namespace cuemu::detail

using namespace cuemu::detail;

namespace {
// The registry's operations on texture and surface objects alike.
template <class Map>
unsigned long long register_object(Map& objects, typename Map::mapped_type object) {
  registry& r = reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  const unsigned long long handle = r.next++;
  objects.emplace(handle, std::move(object));
  r.generation.fetch_add(1, std::memory_order_release);
  return handle;
}
template <class Map>
cudaError_t destroy_object(Map& objects, unsigned long long handle) {
  registry& r = reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (handle == 0) return cudaSuccess;
  if (!objects.erase(handle)) return record_error(cudaErrorInvalidValue);
  r.generation.fetch_add(1, std::memory_order_release);
  return cudaSuccess;
}
template <class Map, class Field>
cudaError_t copy_out(Map& objects, unsigned long long handle,
                     Field Map::mapped_type::*field, Field* out) {
  std::lock_guard<std::mutex> lock(reg().mutex);
  auto it = objects.find(handle);
  if (!out || it == objects.end()) return record_error(cudaErrorInvalidValue);
  *out = it->second.*field;
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* out, const cudaResourceDesc* res,
                                    const cudaTextureDesc* view, const cudaResourceViewDesc* rv) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!out || !res || !view) return record_error(cudaErrorInvalidValue);
  if (rv) return record_error(cudaErrorNotSupported);  // resource views
  texture t{*res, *view, {}};
  if (cudaError_t e = describe(*res, t.img); e != cudaSuccess) return record_error(e);
  // Linear filtering and normalised reads need float results: float channels, or 8/16-bit
  // integer channels read as normalised floats.
  const bool float_channels = t.img.desc.f == cudaChannelFormatKindFloat;
  if (view->readMode == cudaReadModeNormalizedFloat && (float_channels || t.img.desc.x == 32))
    return record_error(cudaErrorInvalidValue);
  if (view->filterMode == cudaFilterModeLinear && !float_channels &&
      view->readMode != cudaReadModeNormalizedFloat)
    return record_error(cudaErrorInvalidFilterSetting);  // as an H200 answers
  *out = register_object(reg().textures, std::move(t));
  return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex) {
  return destroy_object(reg().textures, tex);
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* out, cudaTextureObject_t tex) {
  return copy_out(reg().textures, tex, &texture::resource, out);
}

cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* out, cudaTextureObject_t tex) {
  return copy_out(reg().textures, tex, &texture::view, out);
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* out, const cudaResourceDesc* res) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!out || !res) return record_error(cudaErrorInvalidValue);
  if (res->resType != cudaResourceTypeArray) return record_error(cudaErrorInvalidValue);
  surface s{*res, {}, 1};
  if (cudaError_t e = describe(*res, s.img, &s.dims); e != cudaSuccess) return record_error(e);
  // An array made without cudaArraySurfaceLoadStore is accepted, as an H200 accepts it.
  *out = register_object(reg().surfaces, std::move(s));
  return cudaSuccess;
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf) {
  return destroy_object(reg().surfaces, surf);
}

cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* out, cudaSurfaceObject_t surf) {
  return copy_out(reg().surfaces, surf, &surface::resource, out);
}
