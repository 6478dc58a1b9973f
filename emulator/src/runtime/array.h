// CUDA arrays inside the runtime: the elements in device memory, rows of width elements packed
// (pitch = width x element size), then rows of the next slice or layer. Shared by the array API
// (array.cpp), copies (memory.cpp), textures and surfaces (texture.cpp).
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

struct cudaArray {
  cudaChannelFormatDesc desc{};
  std::size_t elem = 0;                        // bytes per element
  std::size_t width = 0, height = 0, depth = 0;  // as allocated (0: absent dimension)
  unsigned int flags = 0;                      // cudaArrayLayered, cudaArraySurfaceLoadStore...
  char* data = nullptr;
  std::size_t pitch() const { return width * elem; }
  std::size_t rows() const { return height ? height : 1; }
  std::size_t slices() const { return depth ? depth : 1; }
};

namespace cuemu::detail {
// The array if `a` names a live one (under the registry's lock while in use: arrays are freed
// only by cudaFreeArray, which a program must not race with its own use).
const cudaArray* find_array(const void* a);
// A 3D copy naming arrays as one between pitched memory (positions and extent in bytes).
cudaError_t resolve_copy_arrays(cudaMemcpy3DParms& p);
// Bytes per element of a channel format, 0 when invalid.
std::size_t element_bytes(const cudaChannelFormatDesc& d);
}  // namespace cuemu::detail
