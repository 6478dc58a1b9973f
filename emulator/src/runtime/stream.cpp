// Streams. Every launch, copy, memset and host callback runs to completion, in issue order,
// inside the call that enqueues it (see cuda_runtime_api.h): a stream is only a validated handle
// with flags and a priority, always idle. Stream capture (graphs) is not emulated.
#include <atomic>
#include <mutex>
#include <unordered_set>

#include <cuda_runtime_api.h>

#include "runtime/runtime.h"

struct CUstream_st {
  unsigned int flags = cudaStreamDefault;
  int priority = 0;
  unsigned long long id = 0;
};

namespace cuemu::detail {
namespace {

constexpr int k_least_priority = 0;
constexpr int k_greatest_priority = -5;

struct registry {
  std::mutex mutex;
  std::unordered_set<cudaStream_t> streams;
  std::atomic<unsigned long long> next_id{3};  // 0: legacy default, 1: per-thread default
};

registry& reg() {
  static registry* r = new registry;  // never destroyed: the launch path may ask at exit
  return *r;
}

bool is_special(cudaStream_t s) {
  return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread;
}

cudaError_t create(cudaStream_t* out, unsigned int flags, int priority) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!out) return record_error(cudaErrorInvalidValue);
  if (flags & ~static_cast<unsigned int>(cudaStreamNonBlocking))
    return record_error(cudaErrorInvalidValue);
  // Like CUDA, a priority outside the device's range is clamped to it.
  if (priority < k_greatest_priority) priority = k_greatest_priority;
  if (priority > k_least_priority) priority = k_least_priority;
  auto* s = new CUstream_st;
  s->flags = flags;
  s->priority = priority;
  registry& r = reg();
  s->id = r.next_id++;
  std::lock_guard lock(r.mutex);
  r.streams.insert(s);
  *out = s;
  return cudaSuccess;
}

// Looks a created stream up under the lock and copies it out; false if the handle is unknown.
bool lookup(cudaStream_t s, CUstream_st& out) {
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  if (r.streams.count(s) == 0) return false;
  out = *s;
  return true;
}

}  // namespace

bool valid_stream(cudaStream_t s) {
  if (is_special(s)) return true;
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  return r.streams.count(s) != 0;
}

void destroy_all_streams() {
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  for (cudaStream_t s : r.streams) delete s;
  r.streams.clear();
}

}  // namespace cuemu::detail

using namespace cuemu::detail;

#define CUEMU_STICKY_CHECK()                                            \
  do {                                                                  \
    if (cudaError_t s_ = sticky_error(); s_ != cudaSuccess) return s_;  \
  } while (0)

extern "C" cudaError_t cudaStreamCreate(cudaStream_t* pStream) {
  return create(pStream, cudaStreamDefault, 0);
}

extern "C" cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  return create(pStream, flags, 0);
}

extern "C" cudaError_t cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags,
                                                    int priority) {
  return create(pStream, flags, priority);
}

extern "C" cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  if (is_special(stream)) return record_error(cudaErrorInvalidResourceHandle);
  registry& r = reg();
  {
    std::lock_guard lock(r.mutex);
    if (r.streams.erase(stream) == 0) return record_error(cudaErrorInvalidResourceHandle);
  }
  delete stream;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
  CUEMU_STICKY_CHECK();
  if (!priority) return record_error(cudaErrorInvalidValue);
  if (is_special(hStream)) {
    *priority = 0;
    return cudaSuccess;
  }
  CUstream_st s;
  if (!lookup(hStream, s)) return record_error(cudaErrorInvalidResourceHandle);
  *priority = s.priority;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
  CUEMU_STICKY_CHECK();
  if (!flags) return record_error(cudaErrorInvalidValue);
  if (is_special(hStream)) {
    *flags = cudaStreamDefault;
    return cudaSuccess;
  }
  CUstream_st s;
  if (!lookup(hStream, s)) return record_error(cudaErrorInvalidResourceHandle);
  *flags = s.flags;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long* streamId) {
  CUEMU_STICKY_CHECK();
  if (!streamId) return record_error(cudaErrorInvalidValue);
  if (is_special(hStream)) {
    *streamId = hStream == cudaStreamPerThread ? 1 : 0;
    return cudaSuccess;
  }
  CUstream_st s;
  if (!lookup(hStream, s)) return record_error(cudaErrorInvalidResourceHandle);
  *streamId = s.id;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int* device) {
  CUEMU_STICKY_CHECK();
  if (!device) return record_error(cudaErrorInvalidValue);
  if (!valid_stream(hStream)) return record_error(cudaErrorInvalidResourceHandle);
  *device = 0;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

// Always complete: work ran inside the calls that issued it.
extern "C" cudaError_t cudaStreamQuery(cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                           unsigned int flags) {
  CUEMU_STICKY_CHECK();
  if (!valid_stream(stream) || !valid_event(event))
    return record_error(cudaErrorInvalidResourceHandle);
  if (flags & ~static_cast<unsigned int>(cudaEventWaitExternal))
    return record_error(cudaErrorInvalidValue);
  return cudaSuccess;
}

// The callback runs at once, on the calling thread, with the status of the stream's work.
extern "C" cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                             void* userData, unsigned int flags) {
  CUEMU_STICKY_CHECK();
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (!callback || flags != 0) return record_error(cudaErrorInvalidValue);
  callback(stream, cudaSuccess, userData);
  return cudaSuccess;
}

extern "C" cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  CUEMU_STICKY_CHECK();
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (!fn) return record_error(cudaErrorInvalidValue);
  fn(userData);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                             cudaStreamCaptureStatus* pCaptureStatus) {
  CUEMU_STICKY_CHECK();
  if (!pCaptureStatus) return record_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  *pCaptureStatus = cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
