// Surface objects: the types of CUDA's surface_types.h. A surface object names a CUDA array
// created with cudaArraySurfaceLoadStore; surf*read / surf*write (surface_indirect_functions.h)
// address it in bytes along x.
#pragma once

#include <cstddef>

#include "cuemu/host_defines.h"
#include "driver_types.h"
#include "texture_types.h"

enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2,
};
enum cudaSurfaceFormatMode { cudaFormatModeForced = 0, cudaFormatModeAuto = 1 };

typedef unsigned long long cudaSurfaceObject_t;

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject,
                                    const struct cudaResourceDesc* pResDesc);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc* pResDesc,
                                             cudaSurfaceObject_t surfObject);

namespace cuemu::detail {
// The address of `bytes` bytes at byte x_bytes of row y, slice or layer z of a surface; nullptr
// when outside it in cudaBoundaryModeZero (reads give zeros, writes are dropped); clamped in
// cudaBoundaryModeClamp; in cudaBoundaryModeTrap the kernel faults (naming file and line).
void* surface_address(cudaSurfaceObject_t surf, int dims, int x_bytes, int y, int z,
                      std::size_t bytes, int mode, const char* file, int line);
}  // namespace cuemu::detail
