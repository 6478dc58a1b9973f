// Surface reads and writes in device code: surf1D/2D/3D, the layered and the cubemap forms, x in bytes, with
// the boundary mode of the call (cudaBoundaryModeTrap unless given).
#pragma once

#include <cstring>

#include "surface_types.h"

namespace cuemu::detail {
template <class T>
inline T surface_load(cudaSurfaceObject_t s, int dims, int x, int y, int z, int mode,
                      const char* file, int line) {
  T v{};
  if (const void* p = surface_address(s, dims, x, y, z, sizeof(T), mode, file, line))
    std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
inline void surface_store(const T& v, cudaSurfaceObject_t s, int dims, int x, int y, int z,
                          int mode, const char* file, int line) {
  if (void* p = surface_address(s, dims, x, y, z, sizeof(T), mode, file, line))
    std::memcpy(p, &v, sizeof(T));
}
}  // namespace cuemu::detail

#define CUEMU_SURFACE(DIM, DIMS, PARAMS, XYZ)                                                   \
  template <class T>                                                                            \
  inline __device__ T surf##DIM##read(                                                          \
      cudaSurfaceObject_t s, CUEMU_SURF_UNPAREN PARAMS,                                          \
      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,                                       \
      const char* file = __builtin_FILE(), int line = __builtin_LINE()) {                        \
    return ::cuemu::detail::surface_load<T>(s, DIMS, CUEMU_SURF_UNPAREN XYZ, mode, file, line); \
  }                                                                                             \
  template <class T>                                                                            \
  inline __device__ void surf##DIM##read(                                                       \
      T* out, cudaSurfaceObject_t s, CUEMU_SURF_UNPAREN PARAMS,                                  \
      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,                                       \
      const char* file = __builtin_FILE(), int line = __builtin_LINE()) {                        \
    *out = ::cuemu::detail::surface_load<T>(s, DIMS, CUEMU_SURF_UNPAREN XYZ, mode, file, line); \
  }                                                                                             \
  template <class T>                                                                            \
  inline __device__ void surf##DIM##write(                                                      \
      T v, cudaSurfaceObject_t s, CUEMU_SURF_UNPAREN PARAMS,                                     \
      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,                                       \
      const char* file = __builtin_FILE(), int line = __builtin_LINE()) {                        \
    ::cuemu::detail::surface_store<T>(v, s, DIMS, CUEMU_SURF_UNPAREN XYZ, mode, file, line);     \
  }
#define CUEMU_SURF_UNPAREN(...) __VA_ARGS__

// dims: 1, 2, 3; layered: 1D layered is 2 dims (layer as y), 2D layered 3 (layer as z).
CUEMU_SURFACE(1D, 1, (int x), (x, 0, 0))
CUEMU_SURFACE(2D, 2, (int x, int y), (x, y, 0))
CUEMU_SURFACE(3D, 3, (int x, int y, int z), (x, y, z))
CUEMU_SURFACE(1DLayered, -1, (int x, int layer), (x, 0, layer))
CUEMU_SURFACE(2DLayered, -2, (int x, int y, int layer), (x, y, layer))
// A cubemap array is a layered one of 6 faces (per cube): face = layer, layerFace = 6 * cube + face.
CUEMU_SURFACE(Cubemap, -2, (int x, int y, int face), (x, y, face))
CUEMU_SURFACE(CubemapLayered, -2, (int x, int y, int layerFace), (x, y, layerFace))
#undef CUEMU_SURFACE
#undef CUEMU_SURF_UNPAREN
