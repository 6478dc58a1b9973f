// Texture and surface objects: registries from the objects' handles to what they read, and the
// sampling of the GPU's texture units.
//
// A texture read turns its coordinates into texel indices: normalised coordinates are scaled by
// the size; point filtering takes the texel the coordinate falls in, linear filtering the two
// (four, eight) around coordinate - 0.5 with weights in 9-bit fixed point (8 fractional bits), as
// the CUDA programming guide describes the hardware. Address modes: clamp, border (the border
// colour), and for normalised coordinates wrap and mirror (with unnormalised coordinates those
// two clamp). Channels read as normalised floats: unsigned n-bit v / (2^n - 1), signed
// max(v / (2^(n-1) - 1), -1); 16-bit float channels read as float.
#include <algorithm>
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
};

registry& reg() {
  static registry* r = new registry;  // never destroyed
  return *r;
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

// Half texels: the fp16 format's exact conversions (cuemu/fp16/format.h).
float half_to_float(std::uint16_t h) { return fp16::to_float<fp16::half_format>(h); }
float round_to_half(float f) {
  return half_to_float(fp16::from_float<fp16::half_format>(f, fp16::round_mode::rn));
}

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

struct sampler {
  const texture& t;
  bool normalised_read;
  int axes;             // coordinates that address texels: 1, 2 or 3
  long long layer = 0;  // a layered read's layer

  void fetch(const long long idx[3], texel& out, float weight, bool accumulate) const {
    const image& img = t.img;
    float f[4] = {0, 0, 0, 0};
    unsigned u[4] = {0, 0, 0, 0};
    bool border = false;
    for (int a = 0; a < axes; ++a) border |= idx[a] < 0;
    if (border) {
      for (int c = 0; c < 4; ++c) {
        f[c] = t.view.borderColor[c];
        std::memcpy(&u[c], &f[c], 4);
      }
    } else {
      const char* p = img.base + idx[0] * img.elem + (axes > 1 ? idx[1] : 0) * img.pitch +
                      (axes > 2 ? idx[2] : layer) * img.slice;
      for (int c = 0; c < img.channels; ++c) load_channel(img, p, c, normalised_read, f[c], u[c]);
    }
    for (int c = 0; c < 4; ++c) {
      if (accumulate) {
        out.f[c] += weight * f[c];
      } else {
        out.f[c] = f[c];
        out.u[c] = u[c];
      }
    }
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
  registry& r = reg();
  std::unique_lock lock(r.mutex);
  auto it = r.textures.find(tex);
  if (it == r.textures.end()) return;  // a GPU reads garbage or faults; zeros here
  const texture& t = it->second;
  lock.unlock();  // objects are not destroyed while kernels read them (as on a GPU)
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
    if (ax >= ay && ax >= az) {
      face = x >= 0 ? 0 : 1, m = ax, sc = x >= 0 ? -z : z, tc = -y;
    } else if (ay >= az) {
      face = y >= 0 ? 2 : 3, m = ay, sc = x, tc = y >= 0 ? z : -z;
    } else {
      face = z >= 0 ? 4 : 5, m = az, sc = z >= 0 ? x : -x, tc = -y;
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
  float pos[3];
  for (int a = 0; a < s.axes; ++a) {
    float c = coord[a];
    // A normalised coordinate goes to fixed point first (truncated to 2^-24, which an H200's
    // point samples show: 0.2f x 5 reads texel 0), then scales by the size.
    if (normalised)
      c = static_cast<float>(std::floor(static_cast<double>(c) * 16777216.0) / 16777216.0 *
                             static_cast<double>(size[a]));
    pos[a] = c;
  }
  const bool linear = t.view.filterMode == cudaFilterModeLinear;
  if (!linear) {
    long long idx[3];
    for (int a = 0; a < s.axes; ++a)
      idx[a] = address(static_cast<long long>(std::floor(pos[a])), size[a],
                       t.view.addressMode[a], normalised);
    s.fetch(idx, out, 1.f, false);
    return;
  }
  long long lo[3], hi[3];
  float frac[3];
  for (int a = 0; a < s.axes; ++a) {
    const float b = pos[a] - 0.5f;
    const float fl = std::floor(b);
    // The weight in 9-bit fixed point with 8 fractional bits.
    frac[a] = std::nearbyint((b - fl) * 256.f) / 256.f;
    lo[a] = address(static_cast<long long>(fl), size[a], t.view.addressMode[a], normalised);
    hi[a] = address(static_cast<long long>(fl) + 1, size[a], t.view.addressMode[a], normalised);
  }
  const int corners = 1 << s.axes;
  for (int k = 0; k < corners; ++k) {
    long long idx[3];
    float w = 1.f;
    for (int a = 0; a < s.axes; ++a) {
      const bool upper = (k >> a) & 1;
      idx[a] = upper ? hi[a] : lo[a];
      w *= upper ? frac[a] : 1.f - frac[a];
    }
    s.fetch(idx, out, w, true);
  }
  // Half texels are filtered at half precision: the result is a half (as an H200's are).
  if (img.desc.f == cudaChannelFormatKindFloat && img.desc.x == 16)
    for (float& f : out.f) f = round_to_half(f);
  for (int c = 0; c < 4; ++c) std::memcpy(&out.u[c], &out.f[c], 4);
}
}  // namespace

void* surface_address(cudaSurfaceObject_t surf, int dims, int x, int y, int z, std::size_t bytes,
                      int mode, const char* file, int line) {
  registry& r = reg();
  std::unique_lock lock(r.mutex);
  auto it = r.surfaces.find(surf);
  if (it == r.surfaces.end()) {
    lock.unlock();
    fault_current_thread("invalid surface object", file, line,
                         "  the surface object " + std::to_string(surf) +
                             " was not created (or was destroyed)\n",
                         cudaErrorIllegalAddress, false);
  }
  const image img = it->second.img;
  lock.unlock();
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
  return handle;
}
template <class Map>
cudaError_t destroy_object(Map& objects, unsigned long long handle) {
  std::lock_guard<std::mutex> lock(reg().mutex);
  if (handle == 0) return cudaSuccess;
  return objects.erase(handle) ? cudaSuccess : record_error(cudaErrorInvalidValue);
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
