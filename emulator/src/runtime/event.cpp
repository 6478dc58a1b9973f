// Events. cudaEventRecord queues a marker on the stream: the event is complete when the stream's
// work before it is, and its time is taken when the marker runs, so cudaEventElapsedTime measures
// the work between two records, not the host's calls. An event recorded again replaces its
// earlier record; one never recorded is complete.
#include <chrono>
#include <mutex>
#include <unordered_set>
#include <vector>

#include <cuda_runtime_api.h>

#include "runtime/graph.h"
#include "runtime/runtime.h"

struct CUevent_st {
  unsigned int flags = cudaEventDefault;
  // Under the registry's mutex.
  unsigned long long generation = 0;   // records so far
  cuemu::detail::stream_position at;   // the latest record's place in its stream
  bool timed = false;                  // the latest record's marker ran and took `time`
  std::chrono::steady_clock::time_point time{};
};

namespace cuemu::detail {
namespace {

struct registry {
  std::mutex mutex;
  std::unordered_set<cudaEvent_t> events;
  std::vector<cudaEvent_t> destroyed;  // kept: a queued marker may still write to them
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

stream_position event_position(cudaEvent_t e) {
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  return e->at;
}

void destroy_all_events() {
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  for (cudaEvent_t e : r.events) r.destroyed.push_back(e);
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
  // Device code records events for cudaStreamWaitEvent ordering only (no timing, no queries).
  if (on_cuda_thread())
    return valid_device_stream(stream) && valid_event(event)
               ? cudaSuccess
               : record_error(cudaErrorInvalidResourceHandle);
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (flags & ~static_cast<unsigned int>(cudaEventRecordExternal))
    return record_error(cudaErrorInvalidValue);
  if (!valid_event(event)) return record_error(cudaErrorInvalidResourceHandle);
  if (cudaError_t x = capture_forbids_legacy(stream); x != cudaSuccess) return record_error(x);
  if (cudaError_t c; capture_event_record(event, stream, flags, c)) return record_error(c);
  registry& r = reg();
  unsigned long long generation;
  {
    std::lock_guard lock(r.mutex);
    if (!event || r.events.count(event) == 0) return record_error(cudaErrorInvalidResourceHandle);
    generation = ++event->generation;
    event->timed = false;
    event->at = {};
  }
  const stream_position at = enqueue(stream, [event, generation] {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(reg().mutex);
    if (event->generation != generation) return;  // recorded again since
    event->time = now;
    event->timed = true;
  }, {}, "cudaEventRecord");
  std::lock_guard lock(r.mutex);
  if (event->generation == generation) event->at = at;
  return cudaSuccess;
}

extern "C" cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return cudaEventRecordWithFlags(event, stream, cudaEventRecordDefault);
}

extern "C" cudaError_t cudaEventQuery(cudaEvent_t event) {
  CUEMU_STICKY_CHECK();
  if (!valid_event(event)) return record_error(cudaErrorInvalidResourceHandle);
  if (!reached(event_position(event))) return cudaErrorNotReady;  // not recorded as an error
  if (streams_synchronous()) wait_for(event_position(event));  // the streams checker learns it
  return sticky_error();
}

extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  CUEMU_STICKY_CHECK();
  if (!valid_event(event)) return record_error(cudaErrorInvalidResourceHandle);
  wait_for(event_position(event));
  flush_device_output();
  return sticky_error();
}

// Like CUDA: returns at once; a record still queued completes harmlessly.
extern "C" cudaError_t cudaEventDestroy(cudaEvent_t event) {
  CUEMU_STICKY_CHECK();
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  if (!event || r.events.erase(event) == 0) return record_error(cudaErrorInvalidResourceHandle);
  r.destroyed.push_back(event);
  return cudaSuccess;
}

// CUDA's rules: an invalid handle, an event created with cudaEventDisableTiming, or an event that
// was never recorded gives cudaErrorInvalidResourceHandle; one whose work is not done yet gives
// cudaErrorNotReady.
extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  CUEMU_STICKY_CHECK();
  if (!ms) return record_error(cudaErrorInvalidValue);
  registry& r = reg();
  std::unique_lock lock(r.mutex);
  if (!start || !end || r.events.count(start) == 0 || r.events.count(end) == 0)
    return record_error(cudaErrorInvalidResourceHandle);
  if ((start->flags & cudaEventDisableTiming) || (end->flags & cudaEventDisableTiming))
    return record_error(cudaErrorInvalidResourceHandle);
  if (start->generation == 0 || end->generation == 0)
    return record_error(cudaErrorInvalidResourceHandle);
  if (!start->timed || !end->timed) return cudaErrorNotReady;  // not recorded as an error
  *ms = std::chrono::duration<float, std::milli>(end->time - start->time).count();
  return cudaSuccess;
}
