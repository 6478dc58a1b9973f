// Texture reads in device code: tex1Dfetch (linear memory, an integer index), tex1D, tex2D,
// tex3D, the layered and cubemap forms, the level-of-detail and gradient forms (level 0: mipmaps
// are not emulated) and tex2Dgather. The
// runtime samples the texture (runtime/texture.cpp), cubemaps by the face the direction points
// at; the result type picks the channels: a
// float type takes the filtered or normalised value, an integer type the raw channel value.
#pragma once

#include <cstring>
#include <type_traits>

#include "channel_descriptor.h"
#include "texture_types.h"

namespace cuemu::detail {
template <class T>
inline T texel_as(const texel& t) {
  using C = channels<T>;
  using S = typename C::scalar;
  T r{};
  S* p = reinterpret_cast<S*>(&r);
  for (int i = 0; i < C::n; ++i) {
    if constexpr (std::is_floating_point_v<S>) {
      p[i] = t.f[i];
    } else {
      S v;
      std::memcpy(&v, &t.u[i], sizeof(S));  // the low bytes (little-endian)
      p[i] = v;
    }
  }
  return r;
}
template <class T>
inline T texture_sample(cudaTextureObject_t tex, texture_shape s, float x, float y, float z,
                        int layer) {
  texel t;
  texture_read(tex, s, x, y, z, layer, t);
  return texel_as<T>(t);
}
}  // namespace cuemu::detail

#define CUEMU_TEXTURE_READ(NAME, PARAMS, ARGS)                                         \
  template <class T>                                                                   \
  inline __device__ T NAME(cudaTextureObject_t tex CUEMU_UNPAREN PARAMS) {             \
    return ::cuemu::detail::texture_sample<T> ARGS;                                    \
  }                                                                                    \
  template <class T>                                                                   \
  inline __device__ void NAME(T* out, cudaTextureObject_t tex CUEMU_UNPAREN PARAMS) {  \
    *out = ::cuemu::detail::texture_sample<T> ARGS;                                    \
  }
#define CUEMU_UNPAREN(...) __VA_ARGS__

using ::cuemu::detail::texture_shape;
CUEMU_TEXTURE_READ(tex1Dfetch, (, int x),
                   (tex, texture_shape::fetch, static_cast<float>(x), 0.f, 0.f, 0))
CUEMU_TEXTURE_READ(tex1D, (, float x), (tex, texture_shape::d1, x, 0.f, 0.f, 0))
CUEMU_TEXTURE_READ(tex2D, (, float x, float y), (tex, texture_shape::d2, x, y, 0.f, 0))
CUEMU_TEXTURE_READ(tex3D, (, float x, float y, float z), (tex, texture_shape::d3, x, y, z, 0))
CUEMU_TEXTURE_READ(tex1DLayered, (, float x, int layer),
                   (tex, texture_shape::d1_layered, x, 0.f, 0.f, layer))
CUEMU_TEXTURE_READ(tex2DLayered, (, float x, float y, int layer),
                   (tex, texture_shape::d2_layered, x, y, 0.f, layer))
CUEMU_TEXTURE_READ(texCubemap, (, float x, float y, float z),
                   (tex, texture_shape::cubemap, x, y, z, 0))
CUEMU_TEXTURE_READ(texCubemapLayered, (, float x, float y, float z, int layer),
                   (tex, texture_shape::cubemap_layered, x, y, z, layer))
CUEMU_TEXTURE_READ(tex1DLod, (, float x, float), (tex, texture_shape::d1, x, 0.f, 0.f, 0))
CUEMU_TEXTURE_READ(tex2DLod, (, float x, float y, float), (tex, texture_shape::d2, x, y, 0.f, 0))
CUEMU_TEXTURE_READ(tex3DLod, (, float x, float y, float z, float),
                   (tex, texture_shape::d3, x, y, z, 0))
CUEMU_TEXTURE_READ(tex1DLayeredLod, (, float x, int layer, float),
                   (tex, texture_shape::d1_layered, x, 0.f, 0.f, layer))
CUEMU_TEXTURE_READ(tex2DLayeredLod, (, float x, float y, int layer, float),
                   (tex, texture_shape::d2_layered, x, y, 0.f, layer))
CUEMU_TEXTURE_READ(texCubemapLod, (, float x, float y, float z, float),
                   (tex, texture_shape::cubemap, x, y, z, 0))
CUEMU_TEXTURE_READ(texCubemapLayeredLod, (, float x, float y, float z, int layer, float),
                   (tex, texture_shape::cubemap_layered, x, y, z, layer))
// The gradient forms: without mipmaps the gradients pick level 0, the read itself.
CUEMU_TEXTURE_READ(tex1DGrad, (, float x, float, float), (tex, texture_shape::d1, x, 0.f, 0.f, 0))
CUEMU_TEXTURE_READ(tex2DGrad, (, float x, float y, float2, float2),
                   (tex, texture_shape::d2, x, y, 0.f, 0))
CUEMU_TEXTURE_READ(tex3DGrad, (, float x, float y, float z, float4, float4),
                   (tex, texture_shape::d3, x, y, z, 0))
CUEMU_TEXTURE_READ(tex1DLayeredGrad, (, float x, int layer, float, float),
                   (tex, texture_shape::d1_layered, x, 0.f, 0.f, layer))
CUEMU_TEXTURE_READ(tex2DLayeredGrad, (, float x, float y, int layer, float2, float2),
                   (tex, texture_shape::d2_layered, x, y, 0.f, layer))
CUEMU_TEXTURE_READ(texCubemapGrad, (, float x, float y, float z, float4, float4),
                   (tex, texture_shape::cubemap, x, y, z, 0))
CUEMU_TEXTURE_READ(texCubemapLayeredGrad, (, float x, float y, float z, int layer, float4, float4),
                   (tex, texture_shape::cubemap_layered, x, y, z, layer))
#undef CUEMU_TEXTURE_READ
#undef CUEMU_UNPAREN

// tex2Dgather: component comp (0..3: x, y, z, w) of the four texels a bilinear read of (x, y)
// weighs, as the four components of T (runtime/texture.cpp gives the order).
template <class T>
inline __device__ T tex2Dgather(cudaTextureObject_t tex, float x, float y, int comp = 0) {
  ::cuemu::detail::texel t;
  ::cuemu::detail::texture_gather(tex, x, y, comp, t);
  return ::cuemu::detail::texel_as<T>(t);
}
template <class T>
inline __device__ void tex2Dgather(T* out, cudaTextureObject_t tex, float x, float y,
                                   int comp = 0) {
  *out = tex2Dgather<T>(tex, x, y, comp);
}
