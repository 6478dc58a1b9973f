// CUDA arrays: cudaMallocArray / cudaMalloc3DArray, their queries and copies to, from and between
// them. An array's elements live in device memory (an allocation of the runtime's table, so the
// copies and memcheck see it); copies are 3D copies (memory.cpp) with the array's element rows.
#include "runtime/array.h"

#include <cstdio>
#include <mutex>
#include <unordered_set>

#include <driver_functions.h>

#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

struct registry {
  std::mutex mutex;
  std::unordered_set<const cudaArray*> live;
};
registry& reg() {
  static registry* r = new registry;
  return *r;
}

bool valid_channel_bits(int b) { return b == 0 || b == 8 || b == 16 || b == 32; }

}  // namespace

std::size_t element_bytes(const cudaChannelFormatDesc& d) {
  if (!valid_channel_bits(d.x) || !valid_channel_bits(d.y) || !valid_channel_bits(d.z) ||
      !valid_channel_bits(d.w) || d.x == 0)
    return 0;
  // Channels are used in order and share one size (x, then y, z, w).
  const int n = 1 + (d.y != 0) + (d.z != 0) + (d.w != 0);
  if ((d.y && d.y != d.x) || (d.z && d.z != d.x) || (d.w && d.w != d.x) || (d.z && !d.y) ||
      (d.w && !d.z) || n == 3)
    return 0;
  if (d.f == cudaChannelFormatKindFloat && d.x == 8) return 0;
  if (d.f != cudaChannelFormatKindSigned && d.f != cudaChannelFormatKindUnsigned &&
      d.f != cudaChannelFormatKindFloat)
    return 0;
  return static_cast<std::size_t>(n) * d.x / 8;
}

const cudaArray* find_array(const void* a) {
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  return r.live.count(static_cast<const cudaArray*>(a)) ? static_cast<const cudaArray*>(a)
                                                         : nullptr;
}

cudaError_t resolve_copy_arrays(cudaMemcpy3DParms& p) {
  if (!p.srcArray && !p.dstArray) return cudaSuccess;
  const cudaArray* s = p.srcArray ? find_array(p.srcArray) : nullptr;
  const cudaArray* d = p.dstArray ? find_array(p.dstArray) : nullptr;
  if ((p.srcArray && !s) || (p.dstArray && !d)) return cudaErrorInvalidResourceHandle;
  if (s && d && s->elem != d->elem) return cudaErrorInvalidValue;
  const std::size_t elem = s ? s->elem : d->elem;  // the extent is in elements
  if (s) {
    p.srcPtr = make_cudaPitchedPtr(s->data, s->pitch(), s->width, s->rows());
    p.srcPos.x *= s->elem;
    p.srcArray = nullptr;
  }
  if (d) {
    p.dstPtr = make_cudaPitchedPtr(d->data, d->pitch(), d->width, d->rows());
    p.dstPos.x *= d->elem;
    p.dstArray = nullptr;
  }
  p.extent.width *= elem;
  // Rows and slices past the array's end are refused (its memory may continue further).
  for (const cudaArray* a : {s, d}) {
    if (!a) continue;
    const cudaPos& pos = a == s ? p.srcPos : p.dstPos;
    if (pos.y + p.extent.height > a->rows() || pos.z + p.extent.depth > a->slices())
      return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

}  // namespace cuemu::detail

using namespace cuemu::detail;

namespace {

cudaError_t allocate_array(cudaArray_t* out, const cudaChannelFormatDesc* desc, std::size_t w,
                           std::size_t h, std::size_t d, unsigned int flags) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!out || !desc) return record_error(cudaErrorInvalidValue);
  const std::size_t elem = element_bytes(*desc);
  if (elem == 0) return record_error(cudaErrorInvalidChannelDescriptor);
  if (flags & ~static_cast<unsigned>(cudaArrayLayered | cudaArraySurfaceLoadStore |
                                     cudaArrayTextureGather | cudaArrayCubemap))
    return record_error(cudaErrorInvalidValue);
  if (w == 0 || (d && !h && !(flags & cudaArrayLayered)) ||
      ((flags & cudaArrayLayered) && d == 0))
    return record_error(cudaErrorInvalidValue);
  // A cubemap: square faces, six of them (of each layer when layered).
  if ((flags & cudaArrayCubemap) && (w != h || d == 0 || d % 6 != 0 ||
                                     (!(flags & cudaArrayLayered) && d != 6)))
    return record_error(cudaErrorInvalidValue);
  auto* a = new cudaArray;
  a->desc = *desc;
  a->elem = elem;
  a->width = w;
  a->height = h;
  a->depth = d;
  a->flags = flags;
  const std::size_t bytes = a->pitch() * a->rows() * a->slices();
  void* p = nullptr;
  if (cudaError_t e = allocate_memory(&p, bytes, memory_kind::device, 0); e != cudaSuccess) {
    delete a;
    return record_error(e);
  }
  a->data = static_cast<char*>(p);
  {
    registry& r = reg();
    std::lock_guard lock(r.mutex);
    r.live.insert(a);
  }
  *out = a;
  return cudaSuccess;
}

cudaMemcpy3DParms copy_2d(cudaArray_t dst, std::size_t w_off, std::size_t h_off, void* dst_ptr,
                          std::size_t dpitch, cudaArray_const_t src, std::size_t src_w_off,
                          std::size_t src_h_off, const void* src_ptr, std::size_t spitch,
                          std::size_t width, std::size_t height, cudaMemcpyKind kind,
                          std::size_t rows_hint) {
  cudaMemcpy3DParms p{};
  p.dstArray = dst;
  p.srcArray = const_cast<cudaArray_t>(src);
  if (!dst) p.dstPtr = make_cudaPitchedPtr(dst_ptr, dpitch, width, rows_hint);
  if (!src) p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src_ptr), spitch, width, rows_hint);
  // Offsets and widths of the 2D array copies are in bytes; cudaMemcpy3D wants elements for the
  // array side: the conversion happens in array_copy (below), which knows the element size.
  p.dstPos = make_cudaPos(w_off, h_off, 0);
  p.srcPos = make_cudaPos(src_w_off, src_h_off, 0);
  p.extent = make_cudaExtent(width, height, 1);
  p.kind = kind;
  return p;
}

// A 2D copy with byte offsets and width into a 3D copy in elements where an array is involved.
cudaError_t array_copy(cudaMemcpy3DParms p, bool async, cudaStream_t stream) {
  const cudaArray* d = p.dstArray ? find_array(p.dstArray) : nullptr;
  const cudaArray* s = p.srcArray ? find_array(p.srcArray) : nullptr;
  if ((p.dstArray && !d) || (p.srcArray && !s)) return cudaErrorInvalidResourceHandle;
  const std::size_t elem = d ? d->elem : s->elem;
  if (p.extent.width % elem || (d && p.dstPos.x % d->elem) || (s && p.srcPos.x % s->elem))
    return cudaErrorInvalidValue;
  if (d) p.dstPos.x /= d->elem;
  if (s) p.srcPos.x /= s->elem;
  p.extent.width /= elem;
  return async ? cudaMemcpy3DAsync(&p, stream) : cudaMemcpy3D(&p);
}

}  // namespace

extern "C" cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc,
                                       size_t width, size_t height, unsigned int flags) {
  return allocate_array(array, desc, width, height, 0, flags);
}

extern "C" cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc,
                                         cudaExtent extent, unsigned int flags) {
  return allocate_array(array, desc, extent.width, extent.height, extent.depth, flags);
}

extern "C" cudaError_t cudaFreeArray(cudaArray_t array) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!array) return cudaSuccess;
  {
    registry& r = reg();
    std::lock_guard lock(r.mutex);
    if (!r.live.erase(array)) return record_error(cudaErrorInvalidValue);
  }
  synchronize_device();
  (void)release_device_memory(array->data);
  delete array;
  return cudaSuccess;
}

// Mipmapped arrays: not emulated (their level selection and filtering between levels are not
// modelled). The program learns it from the error; stderr names the call once.
namespace {
cudaError_t mipmaps_not_supported(const char* call) {
  static std::once_flag said;
  std::call_once(said, [call] {
    std::fprintf(stderr, "cuemu: %s: mipmapped arrays are not emulated (cudaErrorNotSupported)\n",
                 call);
  });
  return record_error(cudaErrorNotSupported);
}
}  // namespace

extern "C" cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t* mipmappedArray,
                                                const cudaChannelFormatDesc*, cudaExtent,
                                                unsigned int, unsigned int) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (mipmappedArray) *mipmappedArray = nullptr;
  return mipmaps_not_supported("cudaMallocMipmappedArray");
}

extern "C" cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t* levelArray,
                                                  cudaMipmappedArray_const_t, unsigned int) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (levelArray) *levelArray = nullptr;
  return mipmaps_not_supported("cudaGetMipmappedArrayLevel");
}

extern "C" cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!mipmappedArray) return cudaSuccess;
  return mipmaps_not_supported("cudaFreeMipmappedArray");
}

extern "C" cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent,
                                        unsigned int* flags, cudaArray_t array) {
  const cudaArray* a = find_array(array);
  if (!a) return record_error(cudaErrorInvalidResourceHandle);
  if (desc) *desc = a->desc;
  if (extent) *extent = make_cudaExtent(a->width, a->height, a->depth);
  if (flags) *flags = a->flags;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  if (!desc) return record_error(cudaErrorInvalidValue);
  const cudaArray* a = find_array(array);
  if (!a) return record_error(cudaErrorInvalidResourceHandle);
  *desc = a->desc;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                           const void* src, size_t spitch, size_t width,
                                           size_t height, cudaMemcpyKind kind) {
  return record_error(array_copy(copy_2d(dst, wOffset, hOffset, nullptr, 0, nullptr, 0, 0, src,
                                         spitch, width, height, kind, height),
                                 false, nullptr));
}

extern "C" cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                const void* src, size_t spitch, size_t width,
                                                size_t height, cudaMemcpyKind kind,
                                                cudaStream_t stream) {
  return record_error(array_copy(copy_2d(dst, wOffset, hOffset, nullptr, 0, nullptr, 0, 0, src,
                                         spitch, width, height, kind, height),
                                 true, stream));
}

extern "C" cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src,
                                             size_t wOffset, size_t hOffset, size_t width,
                                             size_t height, cudaMemcpyKind kind) {
  return record_error(array_copy(copy_2d(nullptr, 0, 0, dst, dpitch, src, wOffset, hOffset,
                                         nullptr, 0, width, height, kind, height),
                                 false, nullptr));
}

extern "C" cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src,
                                                  size_t wOffset, size_t hOffset, size_t width,
                                                  size_t height, cudaMemcpyKind kind,
                                                  cudaStream_t stream) {
  return record_error(array_copy(copy_2d(nullptr, 0, 0, dst, dpitch, src, wOffset, hOffset,
                                         nullptr, 0, width, height, kind, height),
                                 true, stream));
}

extern "C" cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst,
                                                size_t hOffsetDst, cudaArray_const_t src,
                                                size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
                                                size_t height, cudaMemcpyKind kind) {
  return record_error(array_copy(copy_2d(dst, wOffsetDst, hOffsetDst, nullptr, 0, src, wOffsetSrc,
                                         hOffsetSrc, nullptr, 0, width, height, kind, height),
                                 false, nullptr));
}

// The deprecated 1D forms: count bytes from (wOffset, hOffset), row after row: whole rows from a
// row's start, or a part of one row (a span that starts inside a row and goes on into the next:
// cudaErrorInvalidValue). copy(width, height) makes the 2D copy.
template <class Copy2D>
cudaError_t linear_span(cudaArray_const_t array, std::size_t wOffset, std::size_t count,
                        Copy2D copy) {
  const cudaArray* a = find_array(array);
  if (!a) return record_error(cudaErrorInvalidResourceHandle);
  if (wOffset == 0 && count % a->pitch() == 0) return copy(a->pitch(), count / a->pitch());
  if (wOffset + count > a->pitch()) return record_error(cudaErrorInvalidValue);
  return copy(count, std::size_t{1});
}

extern "C" cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                         const void* src, size_t count, cudaMemcpyKind kind) {
  return linear_span(dst, wOffset, count, [&](std::size_t w, std::size_t h) {
    return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, w, w, h, kind);
  });
}

extern "C" cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                              const void* src, size_t count, cudaMemcpyKind kind,
                                              cudaStream_t stream) {
  return linear_span(dst, wOffset, count, [&](std::size_t w, std::size_t h) {
    return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, w, w, h, kind, stream);
  });
}

extern "C" cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset,
                                           size_t hOffset, size_t count, cudaMemcpyKind kind) {
  return linear_span(src, wOffset, count, [&](std::size_t w, std::size_t h) {
    return cudaMemcpy2DFromArray(dst, w, src, wOffset, hOffset, w, h, kind);
  });
}

extern "C" cudaError_t cudaMemcpyFromArrayAsync(void* dst, cudaArray_const_t src, size_t wOffset,
                                                size_t hOffset, size_t count, cudaMemcpyKind kind,
                                                cudaStream_t stream) {
  return linear_span(src, wOffset, count, [&](std::size_t w, std::size_t h) {
    return cudaMemcpy2DFromArrayAsync(dst, w, src, wOffset, hOffset, w, h, kind, stream);
  });
}

// Both arrays' spans must have the same shape (the source's is checked against the destination's
// rows by the 2D copy).
extern "C" cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                              cudaArray_const_t src, size_t wOffsetSrc,
                                              size_t hOffsetSrc, size_t count,
                                              cudaMemcpyKind kind) {
  const cudaArray* s = find_array(src);
  if (!s) return record_error(cudaErrorInvalidResourceHandle);
  return linear_span(dst, wOffsetDst, count, [&](std::size_t w, std::size_t h) {
    if (h > 1 && (wOffsetSrc != 0 || s->pitch() != w)) return record_error(cudaErrorInvalidValue);
    return cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, w,
                                    h, kind);
  });
}
