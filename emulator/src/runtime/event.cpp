// Events. cudaEventRecord queues a marker on the stream: the event is complete when the stream's
// work before it is, and its time is taken when the marker runs, so cudaEventElapsedTime measures
// the work between two records, not the host's calls. An event recorded again replaces its
// earlier record; one never recorded is complete.
//
// An event made with cudaEventInterprocess also counts its records and their completions in a
// page of shared memory (runtime/interprocess.h) that cudaIpcOpenEventHandle maps in other
// processes: a record takes the next number and its marker raises the completed count to it;
// waiting (query, synchronize, cudaStreamWaitEvent) is for the number of the latest record at the
// call, by whichever process made it. The page stays mapped, and the file open, until the
// process ends (a queued marker may still write it; a GPU opens a destroyed event's handle).
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "runtime/graph.h"
#include "runtime/interprocess.h"
#include "runtime/runtime.h"

namespace cuemu::detail {
// The shared page of an interprocess event.
struct shared_event {
  static constexpr int k_makers = 64;
  std::atomic<std::uint64_t> recorded{0};   // records so far, by any process
  std::atomic<std::uint64_t> completed{0};  // the highest record number whose marker ran
  std::atomic<std::int32_t> maker[k_makers]{};  // the process of record n, at n % k_makers
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
              "an event's counters are shared between processes");
}  // namespace cuemu::detail

struct CUevent_st {
  unsigned int flags = cudaEventDefault;
  // Under the registry's mutex.
  unsigned long long generation = 0;   // records so far
  cuemu::detail::stream_position at;   // the latest record's place in its stream
  bool timed = false;                  // the latest record's marker ran and took `time`
  std::chrono::steady_clock::time_point time{};
  // cudaEventInterprocess: the shared page, and the handle that names it (its file's descriptor
  // is this process's when it made the event).
  cuemu::detail::shared_event* shared = nullptr;
  cuemu::detail::shared_file_handle handle{};
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

constexpr std::size_t k_event_page = 4096;
constexpr char k_event_magic[8] = {'c', 'u', 'e', 'm', 'u', 'E', 'V', 'T'};

// Whether process `pid` has ended (gone, or a zombie its parent has not reaped yet).
bool process_ended(std::int32_t pid) {
  if (::kill(pid, 0) != 0) return errno == ESRCH;
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  FILE* f = std::fopen(path, "r");
  if (!f) return true;
  char line[512] = {0};
  const bool read = std::fgets(line, sizeof line, f) != nullptr;
  std::fclose(f);
  const char* close = read ? std::strrchr(line, ')') : nullptr;  // "pid (name) state ..."
  return close && (close[2] == 'Z' || close[2] == 'X');
}

// Waits until record `number` of a shared event (and every earlier one) has completed: polls,
// backing off to a millisecond (the recording process gives no other signal). A record whose
// process ended before its marker ran never completes: every 100 ms the waiter asks, and gives
// up with a line on stderr rather than wait forever.
void wait_shared(const shared_event* s, std::uint64_t number) {
  auto pause = std::chrono::microseconds(1);
  auto since_asked = std::chrono::microseconds(0);
  while (s->completed.load(std::memory_order_acquire) < number) {
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
    since_asked += pause;
    if (since_asked < std::chrono::milliseconds(100)) continue;
    since_asked = {};
    const std::int32_t maker = s->maker[number % shared_event::k_makers].load();
    if (maker > 0 && maker != ::getpid() && process_ended(maker) &&
        s->completed.load(std::memory_order_acquire) < number) {
      std::fprintf(stderr,
                   "cuemu: waiting for an interprocess event recorded by process %d, which ended "
                   "before the record completed: the wait ends here\n",
                   static_cast<int>(maker));
      return;
    }
  }
}

void complete_shared(shared_event* s, std::uint64_t number) {
  std::uint64_t seen = s->completed.load(std::memory_order_relaxed);
  while (seen < number &&
         !s->completed.compare_exchange_weak(seen, number, std::memory_order_release)) {
  }
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
  if (flags & cudaEventInterprocess) {
    const int fd = create_shared_file("cuemu-ipc-event", k_event_page, &e->handle.ino);
    void* page = fd < 0 ? nullptr : map_shared_file(fd, k_event_page);
    if (!page) {
      if (fd >= 0) ::close(fd);
      delete e;
      return record_error(cudaErrorMemoryAllocation);
    }
    e->shared = new (page) shared_event;
    std::memcpy(e->handle.magic, k_event_magic, sizeof e->handle.magic);
    e->handle.pid = static_cast<std::int32_t>(::getpid());
    e->handle.fd = fd;
    e->handle.file_size = k_event_page;
  }
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

std::function<void()> interprocess_wait(cudaEvent_t e) {
  shared_event* s = e->shared;
  if (!s) return {};
  const std::uint64_t number = s->recorded.load(std::memory_order_acquire);
  return [s, number] { wait_shared(s, number); };
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
  shared_event* shared = event->shared;
  const std::uint64_t number =
      shared ? shared->recorded.fetch_add(1, std::memory_order_acq_rel) + 1 : 0;
  if (shared)
    shared->maker[number % shared_event::k_makers].store(static_cast<std::int32_t>(::getpid()));
  const stream_position at = enqueue(stream, [event, generation, shared, number] {
    const auto now = std::chrono::steady_clock::now();
    if (shared) complete_shared(shared, number);
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
  if (const shared_event* s = event->shared) {
    if (s->completed.load(std::memory_order_acquire) < s->recorded.load(std::memory_order_acquire))
      return cudaErrorNotReady;
  } else if (!reached(event_position(event))) {
    return cudaErrorNotReady;  // not recorded as an error
  }
  if (streams_synchronous()) wait_for(event_position(event));  // the streams checker learns it
  return sticky_error();
}

extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  CUEMU_STICKY_CHECK();
  if (!valid_event(event)) return record_error(cudaErrorInvalidResourceHandle);
  // An interprocess event: the latest record by any process; then this process's own latest
  // record (done by now), which tells the streams checker what the host has waited for.
  if (const shared_event* s = event->shared)
    wait_shared(s, s->recorded.load(std::memory_order_acquire));
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
  // An interprocess event's handle stays valid (an H100 opens the handle of a destroyed event):
  // its file stays open, and its page mapped, until the process ends.
  return cudaSuccess;
}

extern "C" cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t* handle, cudaEvent_t event) {
  CUEMU_STICKY_CHECK();
  if (!handle) return record_error(cudaErrorInvalidValue);
  if (!valid_event(event)) return record_error(cudaErrorInvalidResourceHandle);
  if (!event->shared) return record_error(cudaErrorInvalidResourceHandle);
  static_assert(sizeof(cudaIpcEventHandle_t) == sizeof(shared_file_handle));
  std::memcpy(handle, &event->handle, sizeof event->handle);
  return cudaSuccess;
}

extern "C" cudaError_t cudaIpcOpenEventHandle(cudaEvent_t* event, cudaIpcEventHandle_t handle) {
  CUEMU_STICKY_CHECK();
  if (!event) return record_error(cudaErrorInvalidValue);
  shared_file_handle h;
  std::memcpy(&h, &handle, sizeof h);
  // A handle that names no event cannot be mapped (an H100: cudaErrorMapBufferObjectFailed); one
  // of this process's own events, as a GPU says, no context to open it in.
  if (std::memcmp(h.magic, k_event_magic, sizeof h.magic) != 0 || h.file_size != k_event_page)
    return record_error(cudaErrorMapBufferObjectFailed);
  if (h.pid == static_cast<std::int32_t>(::getpid())) return record_error(cudaErrorDeviceUninitialized);
  const int fd = open_shared_file(h);
  if (fd < 0) return record_error(cudaErrorMapBufferObjectFailed);
  void* page = map_shared_file(fd, k_event_page);
  ::close(fd);
  if (!page) return record_error(cudaErrorMemoryAllocation);
  auto* e = new CUevent_st;
  e->flags = cudaEventInterprocess | cudaEventDisableTiming;
  e->shared = static_cast<shared_event*>(page);
  e->handle = h;
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  r.events.insert(e);
  *event = e;
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
