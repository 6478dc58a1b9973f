// Events. Work completes inside the call that issues it, so an event is complete as soon as it
// is recorded: cudaEventRecord takes the steady_clock time of the call, cudaEventQuery and
// cudaEventSynchronize succeed at once, and cudaEventElapsedTime measures host time between the
// two record calls.
#include <chrono>
#include <mutex>
#include <unordered_set>

#include <cuda_runtime_api.h>

#include "runtime/runtime.h"

struct CUevent_st {
  unsigned int flags = cudaEventDefault;
  bool recorded = false;
  std::chrono::steady_clock::time_point time{};
};

namespace cuemu::detail {
namespace {

struct registry {
  std::mutex mutex;
  std::unordered_set<cudaEvent_t> events;
};

registry& reg() {
  static registry* r = new registry;  // never destroyed
  return *r;
}

cudaError_t create(cudaEvent_t* out, unsigned int flags) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!out) return record_error(cudaErrorInvalidValue);
  if (flags & ~static_cast<unsigned int>(cudaEventBlockingSync | cudaEventDisableTiming |
                                         cudaEventInterprocess))
    return record_error(cudaErrorInvalidValue);
  // An interprocess event must also disable timing.
  if ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming))
    return record_error(cudaErrorInvalidValue);
  auto* e = new CUevent_st;
  e->flags = flags;
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  r.events.insert(e);
  *out = e;
  return cudaSuccess;
}

}  // namespace

bool valid_event(cudaEvent_t e) {
  if (!e) return false;
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  return r.events.count(e) != 0;
}

void destroy_all_events() {
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  for (cudaEvent_t e : r.events) delete e;
  r.events.clear();
}

}  // namespace cuemu::detail

using namespace cuemu::detail;

#define CUEMU_STICKY_CHECK()                                            \
  do {                                                                  \
    if (cudaError_t s_ = sticky_error(); s_ != cudaSuccess) return s_;  \
  } while (0)

extern "C" cudaError_t cudaEventCreate(cudaEvent_t* event) {
  return create(event, cudaEventDefault);
}

extern "C" cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  return create(event, flags);
}

extern "C" cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                                unsigned int flags) {
  CUEMU_STICKY_CHECK();
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (flags & ~static_cast<unsigned int>(cudaEventRecordExternal))
    return record_error(cudaErrorInvalidValue);
  const auto now = std::chrono::steady_clock::now();
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  if (!event || r.events.count(event) == 0) return record_error(cudaErrorInvalidResourceHandle);
  event->recorded = true;
  event->time = now;
  return cudaSuccess;
}

extern "C" cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return cudaEventRecordWithFlags(event, stream, cudaEventRecordDefault);
}

extern "C" cudaError_t cudaEventQuery(cudaEvent_t event) {
  CUEMU_STICKY_CHECK();
  if (!valid_event(event)) return record_error(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  CUEMU_STICKY_CHECK();
  if (!valid_event(event)) return record_error(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

extern "C" cudaError_t cudaEventDestroy(cudaEvent_t event) {
  CUEMU_STICKY_CHECK();
  registry& r = reg();
  {
    std::lock_guard lock(r.mutex);
    if (!event || r.events.erase(event) == 0) return record_error(cudaErrorInvalidResourceHandle);
  }
  delete event;
  return cudaSuccess;
}

// CUDA's rules: an invalid handle, an event created with cudaEventDisableTiming, or an event that
// was never recorded gives cudaErrorInvalidResourceHandle.
extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  CUEMU_STICKY_CHECK();
  if (!ms) return record_error(cudaErrorInvalidValue);
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  if (!start || !end || r.events.count(start) == 0 || r.events.count(end) == 0)
    return record_error(cudaErrorInvalidResourceHandle);
  if ((start->flags & cudaEventDisableTiming) || (end->flags & cudaEventDisableTiming))
    return record_error(cudaErrorInvalidResourceHandle);
  if (!start->recorded || !end->recorded) return record_error(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(end->time - start->time).count();
  return cudaSuccess;
}
