// Texture objects over linear memory: a registry from the object's handle to its descriptors.
#include <mutex>
#include <unordered_map>

#include <cuda_runtime_api.h>
#include <texture_types.h>

#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

struct texture {
  cudaResourceDesc resource;
  cudaTextureDesc view;
};

struct registry {
  std::mutex mutex;
  std::unordered_map<cudaTextureObject_t, texture> objects;
  cudaTextureObject_t next = 1;
};

registry& reg() {
  static registry* r = new registry;  // never destroyed
  return *r;
}

}  // namespace

const void* texture_element(cudaTextureObject_t tex, long long i, std::size_t bytes) {
  registry& r = reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.objects.find(tex);
  if (it == r.objects.end() || i < 0) return nullptr;
  const auto& linear = it->second.resource.res.linear;
  if (bytes == 0 || static_cast<std::size_t>(i + 1) * bytes > linear.sizeInBytes) return nullptr;
  return static_cast<const char*>(linear.devPtr) + static_cast<std::size_t>(i) * bytes;
}

}  // namespace cuemu::detail

using namespace cuemu::detail;

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* out, const cudaResourceDesc* res, const cudaTextureDesc* view,
                                    const cudaResourceViewDesc*) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!out || !res || !view) return record_error(cudaErrorInvalidValue);
  if (res->resType != cudaResourceTypeLinear || view->readMode != cudaReadModeElementType)
    return record_error(cudaErrorNotSupported);  // arrays, pitched memory, normalised reads: not yet
  if (!res->res.linear.devPtr || res->res.linear.sizeInBytes == 0) return record_error(cudaErrorInvalidValue);
  registry& r = reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  *out = r.next++;
  r.objects[*out] = texture{*res, *view};
  return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex) {
  registry& r = reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (tex == 0) return cudaSuccess;
  return r.objects.erase(tex) ? cudaSuccess : record_error(cudaErrorInvalidValue);
}

namespace {
// One of a texture object's descriptors, copied out under the registry's lock.
template <class T>
cudaError_t describe(T* out, cudaTextureObject_t tex, T texture::*field) {
  registry& r = reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.objects.find(tex);
  if (!out || it == r.objects.end()) return record_error(cudaErrorInvalidValue);
  *out = it->second.*field;
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* out, cudaTextureObject_t tex) {
  return describe(out, tex, &texture::resource);
}

cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* out, cudaTextureObject_t tex) {
  return describe(out, tex, &texture::view);
}
