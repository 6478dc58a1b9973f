// tex1Dfetch<T>(texture object, index): an element of a texture object over linear memory; an
// index outside the resource reads zeros, as on a GPU.
#pragma once

#include <cstring>

#include "texture_types.h"

template <class T>
inline __device__ T tex1Dfetch(cudaTextureObject_t tex, int x) {
  T out{};
  if (const void* p = ::cuemu::detail::texture_element(tex, x, sizeof(T))) std::memcpy(&out, p, sizeof(T));
  return out;
}

template <class T>
inline __device__ void tex1Dfetch(T* out, cudaTextureObject_t tex, int x) {
  *out = tex1Dfetch<T>(tex, x);
}
