// Streams: queues of work (launches, copies, memsets, event records, waits, host functions), each
// run in order by its own thread, asynchronously to the host and concurrently with other streams.
//
// CUDA's implicit ordering, as an H200 keeps it:
//   - the legacy default stream (0 or cudaStreamLegacy) waits for earlier work of every blocking
//     stream, and a blocking stream's work waits for earlier work of the legacy stream;
//   - streams created with cudaStreamNonBlocking do neither;
//   - the per-thread default stream (cudaStreamPerThread, or 0 in code compiled with
//     --default-stream per-thread) is a blocking stream of its host thread.
// An item waits for the positions (stream, count of items) it depends on; positions only refer to
// work enqueued earlier, so waits cannot form a cycle.
//
// With CUEMU_STREAMS=sync (cuemu run --streams=sync) and in the racecheck runtime, work runs inside
// the call that issues it, in issue order, like a GPU with CUDA_LAUNCH_BLOCKING=1.
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <functional>
#include <mutex>
#include <pthread.h>
#include <sched.h>
#include <thread>
#include <unordered_set>
#include <vector>

#include <boost/container/small_vector.hpp>
#include <cuda_runtime_api.h>

#include "check/stream_events.h"
#include "exec/device_activity.h"
#include "exec/options.h"
#include "exec/worker_pool.h"
#include "runtime/graph.h"
#include "runtime/runtime.h"

struct CUstream_st {
  enum class role { created, legacy, per_thread };
  unsigned int flags = cudaStreamDefault;
  int priority = 0;
  unsigned long long id = 0;
  role kind = role::created;
  cudaLaunchAttributeValue policy{};     // cudaStreamAttributeAccessPolicyWindow
  // Never set: an H200 reports -1 (not one of the enumerators).
  cudaSynchronizationPolicy sync_policy = static_cast<cudaSynchronizationPolicy>(-1);
  // The queue, under the registry's mutex.
  struct item {
    std::function<void()> run;
    std::vector<cuemu::detail::stream_position> after;  // waits, on other streams
    bool taken = false;  // being run (by the stream's thread or by a host thread waiting for it)
  };
  std::deque<item> queue;
  std::uint64_t enqueued = 0, completed = 0;
  // The stream's thread waits on `wake` while its queue is empty (only an enqueue or the
  // stream's destruction can give it work), and on the registry's `done` while its front item
  // waits for other work.
  std::condition_variable wake;
  bool idle = false;
  bool has_thread = false;
  bool destroyed = false;  // cudaStreamDestroy: the thread ends once the queue is empty
  bool blocking() const { return !(flags & cudaStreamNonBlocking); }
};

namespace cuemu::detail {
namespace {

// The positions a host thread waits for: a few streams at most, without an allocation.
using position_list = boost::container::small_vector<stream_position, 4>;

constexpr int k_least_priority = 0;
constexpr int k_greatest_priority = -5;

struct registry {
  std::mutex mutex;
  std::condition_variable done;                 // an item completed (any stream)
  int done_waiters = 0;                         // threads waiting on `done`
  std::unordered_set<cudaStream_t> streams;     // created, not destroyed: valid handles
  std::vector<CUstream_st*> queues;             // every queue ever made (never freed)
  std::atomic<unsigned long long> next_id{3};   // 0: legacy default, 1: per-thread default
  CUstream_st legacy;
  bool per_thread_default = false;              // 0 means cudaStreamPerThread
  bool exit_drain_registered = false;
  registry() {
    legacy.kind = CUstream_st::role::legacy;
    legacy.id = 0;
    queues.push_back(&legacy);
  }
};

registry& reg() {
  static registry* r = new registry;  // never destroyed: stream threads outlive statics
  return *r;
}

thread_local CUstream_st* t_per_thread = nullptr;

CUstream_st* per_thread_locked(registry& r) {
  if (!t_per_thread) {
    t_per_thread = new CUstream_st;
    t_per_thread->kind = CUstream_st::role::per_thread;
    t_per_thread->id = 1;
    r.queues.push_back(t_per_thread);
  }
  return t_per_thread;
}

bool is_special(cudaStream_t s) {
  return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread;
}

// The queue a handle names; the caller has validated it.
CUstream_st* resolve_locked(registry& r, cudaStream_t s) {
  if (s == cudaStreamLegacy) return &r.legacy;
  if (s == cudaStreamPerThread) return per_thread_locked(r);
  if (s == nullptr) return r.per_thread_default ? per_thread_locked(r) : &r.legacy;
  return s;
}

bool reached_locked(const stream_position& p) {
  return !p.stream || p.stream->completed >= p.count;
}

// The front item of s if it may start now (not taken, its waits reached).
CUstream_st::item* ready_front_locked(CUstream_st* s) {
  if (s->queue.empty()) return nullptr;
  CUstream_st::item& it = s->queue.front();
  if (it.taken) return nullptr;
  for (const stream_position& p : it.after)
    if (!reached_locked(p)) return nullptr;
  return &it;
}

// Runs s's ready front item on this thread (the lock is released meanwhile) and completes it.
void run_front_locked(registry& r, CUstream_st* s, CUstream_st::item& it,
                      std::unique_lock<std::mutex>& lock) {
  it.taken = true;
  std::function<void()> run = std::move(it.run);
  lock.unlock();
  run();
  run = nullptr;  // its captures (a launch's parameters) go before the item counts as done
  note_device_progress();
  lock.lock();
  s->queue.pop_front();
  ++s->completed;
  if (r.done_waiters != 0) r.done.notify_all();
}

// A stream's thread does not preempt the host thread that woke it when they share a core
// (SCHED_BATCH: no wake-up preemption; the same share of the processor otherwise). A host that
// launches and synchronises at once then runs the work itself without a thread switch.
thread_local bool t_batch_scheduled = false;

void batch_scheduling() {
  sched_param p{};
  t_batch_scheduled = pthread_setschedparam(pthread_self(), SCHED_BATCH, &p) == 0;
}


void stream_main(registry& r, CUstream_st* s) {
  batch_scheduling();
  std::unique_lock<std::mutex> lock(r.mutex);
  for (;;) {
    if (s->queue.empty()) {
      if (s->destroyed) {  // destroyed and drained
        s->has_thread = false;
        return;
      }
      s->idle = true;
      s->wake.wait(lock, [&] { return !s->queue.empty() || s->destroyed; });
      s->idle = false;
      continue;
    }
    CUstream_st::item* it = nullptr;
    // The front item waits for other work, or a host thread runs it: woken by completed work
    // anywhere (a wait may be over).
    ++r.done_waiters;
    r.done.wait(lock, [&] {
      return (it = ready_front_locked(s)) != nullptr || s->queue.empty();
    });
    --r.done_waiters;
    if (it) run_front_locked(r, s, *it, lock);
  }
}

// Waits until every position is reached; the calling host thread counts as waiting.
// A waiting host thread runs the work it waits for itself when that work has not started (no
// thread switch for a launch followed by a synchronisation; the host would only block meanwhile).
void wait_positions_locked(const position_list& ps, std::unique_lock<std::mutex>& lock) {
  registry& r = reg();
  host_wait_scope waiting;
  for (;;) {
    bool all = true;
    CUstream_st::item* it = nullptr;
    CUstream_st* from = nullptr;
    for (const stream_position& p : ps) {
      if (reached_locked(p)) continue;
      all = false;
      if (!it && (it = ready_front_locked(p.stream)) != nullptr) from = p.stream;
    }
    if (all) return;
    if (it) {
      run_front_locked(r, from, *it, lock);
      continue;
    }
    ++r.done_waiters;
    r.done.wait(lock);
    --r.done_waiters;
  }
}

void wait_positions(const position_list& ps) {
  std::unique_lock<std::mutex> lock(reg().mutex);
  wait_positions_locked(ps, lock);
}

// Where every queue stands now (the positions of its last item).
position_list all_positions_locked(registry& r) {
  position_list ps;
  for (CUstream_st* q : r.queues)
    if (q->enqueued > q->completed) ps.push_back({q, q->enqueued});
  return ps;
}

// At exit, like a GPU context torn down: queued work finishes first (its unsynchronised printf
// output is dropped, as on a GPU).
void drain_at_exit() {
  registry& r = reg();
  position_list ps;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    ps = all_positions_locked(r);
  }
  wait_positions(ps);
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
  r.queues.push_back(s);
  *out = s;
  return cudaSuccess;
}

// Looks a created stream up under the lock and copies its description out; false if unknown.
bool lookup(cudaStream_t s, unsigned int& flags, int& priority, unsigned long long& id) {
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  if (r.streams.count(s) == 0) return false;
  flags = s->flags;
  priority = s->priority;
  id = s->id;
  return true;
}

}  // namespace

host_code_scope::host_code_scope() {
  if (t_batch_scheduled) {
    sched_param p{};
    (void)pthread_setschedparam(pthread_self(), SCHED_OTHER, &p);
  }
}
host_code_scope::~host_code_scope() {
  if (t_batch_scheduled) {
    sched_param p{};
    (void)pthread_setschedparam(pthread_self(), SCHED_BATCH, &p);
  }
}

bool valid_stream(cudaStream_t s) {
  if (is_special(s)) return true;
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  return r.streams.count(s) != 0;
}

bool streams_synchronous() { return options().sync_streams; }

CUstream_st* resolve_stream(cudaStream_t s) {
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  return resolve_locked(r, s);
}

bool is_legacy_stream(const CUstream_st* s) { return s->kind == CUstream_st::role::legacy; }
bool is_blocking_stream(const CUstream_st* s) { return s->blocking(); }

void set_per_thread_default_stream() {
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  r.per_thread_default = true;
}

stream_position enqueue(cudaStream_t handle, std::function<void()> work,
                        std::vector<stream_position> after, const char* what,
                        const std::string* name) {
  note_host_thread();
  if (streams_synchronous()) {
    registry& r = reg();
    CUstream_st* s;
    std::uint64_t at;
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      s = resolve_locked(r, handle);
      at = ++s->enqueued;
      ++s->completed;  // as good as done: it runs now, before the call returns
    }
    host_wait_scope waiting;  // the host is inside the call until the work is done
    hooks::stream_work_begin({s, s->id, s->kind == CUstream_st::role::legacy, s->blocking(), at,
                              after.data(), after.size(), what, name});
    work();
    hooks::stream_work_end();
    return {s, at};
  }
  registry& r = reg();
  std::unique_lock<std::mutex> lock(r.mutex);
  if (!r.exit_drain_registered) {
    // The pool first: its threads must outlive the drain (atexit handlers run in reverse).
    lock.unlock();
    (void)worker_pool::instance();
    lock.lock();
    if (!r.exit_drain_registered) {
      r.exit_drain_registered = true;
      std::atexit(drain_at_exit);
    }
  }
  CUstream_st* s = resolve_locked(r, handle);
  if (s->kind == CUstream_st::role::legacy) {
    for (CUstream_st* q : r.queues)
      if (q != s && q->blocking() && q->enqueued > q->completed) after.push_back({q, q->enqueued});
  } else if (s->blocking() && r.legacy.enqueued > r.legacy.completed) {
    after.push_back({&r.legacy, r.legacy.enqueued});
  }
  s->queue.push_back({std::move(work), std::move(after)});
  ++s->enqueued;
  const stream_position at{s, s->enqueued};
  if (!s->has_thread) {
    s->has_thread = true;
    std::thread([&r, s] { stream_main(r, s); }).detach();
  } else if (s->idle) {
    s->wake.notify_one();
  }
  return at;
}

stream_position stream_tail(cudaStream_t handle) {
  if (streams_synchronous()) return {};
  registry& r = reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  CUstream_st* s = resolve_locked(r, handle);
  return {s, s->enqueued};
}

void synchronize_stream(cudaStream_t handle) {
  note_host_thread();
  if (streams_synchronous()) {
    hooks::host_waited_stream(resolve_stream(handle));
    return;
  }
  registry& r = reg();
  position_list ps;
  std::unique_lock<std::mutex> lock(r.mutex);
  CUstream_st* s = resolve_locked(r, handle);
  if (s->kind == CUstream_st::role::legacy) {
    // Like an item on the legacy stream: also every blocking stream's earlier work.
    for (CUstream_st* q : r.queues)
      if (q->enqueued > q->completed && (q == s || q->blocking())) ps.push_back({q, q->enqueued});
  } else if (s->enqueued > s->completed) {
    ps.push_back({s, s->enqueued});
  }
  if (!ps.empty()) wait_positions_locked(ps, lock);
}

void synchronize_device() {
  note_host_thread();
  if (streams_synchronous()) {
    hooks::host_waited_device();
    return;
  }
  registry& r = reg();
  std::unique_lock<std::mutex> lock(r.mutex);
  const position_list ps = all_positions_locked(r);
  if (!ps.empty()) wait_positions_locked(ps, lock);
}

bool reached(const stream_position& p) {
  if (!p.stream) return true;
  registry& r = reg();
  std::lock_guard<std::mutex> lock(r.mutex);
  return reached_locked(p);
}

void wait_for(const stream_position& p) {
  note_host_thread();
  if (streams_synchronous()) {  // the work ran at its call
    hooks::host_waited(p);
    return;
  }
  if (!p.stream) return;
  wait_positions(position_list{p});
}

void destroy_all_streams() {
  synchronize_device();
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  for (cudaStream_t s : r.streams) {
    s->destroyed = true;
    s->wake.notify_one();
  }
  r.streams.clear();
  r.done.notify_all();
}

}  // namespace cuemu::detail

using namespace cuemu::detail;

#define CUEMU_STICKY_CHECK()                                            \
  do {                                                                  \
    if (cudaError_t s_ = sticky_error(); s_ != cudaSuccess) return s_;  \
  } while (0)

extern "C" cudaError_t cudaStreamCreate(cudaStream_t* pStream) {
  if (on_cuda_thread()) return device_stream_create(pStream, cudaStreamDefault);
  return create(pStream, cudaStreamDefault, 0);
}

extern "C" cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  if (on_cuda_thread()) return device_stream_create(pStream, flags);
  return create(pStream, flags, 0);
}

extern "C" cudaError_t cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags,
                                                    int priority) {
  return create(pStream, flags, priority);
}

// Like CUDA: returns at once; work still queued on the stream completes, then its thread ends.
extern "C" cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  if (on_cuda_thread()) return device_stream_destroy(stream);
  if (is_special(stream)) return record_error(cudaErrorInvalidResourceHandle);
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  if (r.streams.erase(stream) == 0) return record_error(cudaErrorInvalidResourceHandle);
  stream->destroyed = true;  // the record stays: other streams' waits may name it
  stream->wake.notify_one();
  r.done.notify_all();
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
  CUEMU_STICKY_CHECK();
  if (!priority) return record_error(cudaErrorInvalidValue);
  if (is_special(hStream)) {
    *priority = 0;
    return cudaSuccess;
  }
  unsigned int f;
  int p;
  unsigned long long id;
  if (!lookup(hStream, f, p, id)) return record_error(cudaErrorInvalidResourceHandle);
  *priority = p;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
  CUEMU_STICKY_CHECK();
  if (!flags) return record_error(cudaErrorInvalidValue);
  if (is_special(hStream)) {
    *flags = cudaStreamDefault;
    return cudaSuccess;
  }
  unsigned int f;
  int p;
  unsigned long long id;
  if (!lookup(hStream, f, p, id)) return record_error(cudaErrorInvalidResourceHandle);
  *flags = f;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long* streamId) {
  CUEMU_STICKY_CHECK();
  if (!streamId) return record_error(cudaErrorInvalidValue);
  if (is_special(hStream)) {
    const bool per_thread = hStream == cudaStreamPerThread ||
                            (hStream == nullptr && reg().per_thread_default);
    *streamId = per_thread ? 1 : 0;
    return cudaSuccess;
  }
  unsigned int f;
  int p;
  unsigned long long id;
  if (!lookup(hStream, f, p, id)) return record_error(cudaErrorInvalidResourceHandle);
  *streamId = id;
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
  if (on_cuda_thread()) device_call_unsupported("cudaStreamSynchronize()");
  CUEMU_STICKY_CHECK();
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (cudaError_t c = capture_forbids_sync(stream); c != cudaSuccess) return record_error(c);
  synchronize_stream(stream);
  flush_device_output();
  return sticky_error();
}

extern "C" cudaError_t cudaStreamQuery(cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (cudaError_t c = capture_forbids_sync(stream); c != cudaSuccess) return record_error(c);
  if (!reached(stream_tail(stream))) return cudaErrorNotReady;  // not recorded as an error
  if (streams_synchronous()) hooks::host_waited_stream(resolve_stream(stream));
  return sticky_error();
}

extern "C" cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                           unsigned int flags) {
  CUEMU_STICKY_CHECK();
  // Device code: its grid's work runs one item at a time in issue order, so an event recorded
  // earlier has completed before anything issued after this call starts.
  if (on_cuda_thread())
    return valid_device_stream(stream) && valid_event(event)
               ? cudaSuccess
               : record_error(cudaErrorInvalidResourceHandle);
  if (!valid_stream(stream) || !valid_event(event))
    return record_error(cudaErrorInvalidResourceHandle);
  if (flags & ~static_cast<unsigned int>(cudaEventWaitExternal))
    return record_error(cudaErrorInvalidValue);
  if (cudaError_t c; capture_event_wait(stream, event, flags, c)) return record_error(c);
  const stream_position p = event_position(event);
  // An interprocess event: its latest record by any process, and this process's own (which
  // tells the streams checker of the order).
  if (std::function<void()> wait = interprocess_wait(event)) {
    std::vector<stream_position> after;
    if (p.stream) after.push_back(p);
    enqueue(stream, std::move(wait), std::move(after), "cudaStreamWaitEvent");
    return cudaSuccess;
  }
  // An event never recorded is complete: nothing to wait for.
  if (p.stream) enqueue(stream, [] {}, {p}, "cudaStreamWaitEvent");
  return cudaSuccess;
}

// The callback runs on the stream's thread once the stream's earlier work is done, with the
// status of that work (a sticky error, if a kernel faulted).
extern "C" cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                             void* userData, unsigned int flags) {
  CUEMU_STICKY_CHECK();
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (!callback || flags != 0) return record_error(cudaErrorInvalidValue);
  if (cudaError_t x = capture_forbids_legacy(stream); x != cudaSuccess) return record_error(x);
  if (capturing(stream)) return record_error(capture_forbids_sync(stream));  // as CUDA: unsupported
  enqueue(stream, [stream, callback, userData] {
    flush_device_output();
    host_code_scope user_code;
    callback(stream, sticky_error(), userData);
  }, {}, "cudaStreamAddCallback");
  return cudaSuccess;
}

extern "C" cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  CUEMU_STICKY_CHECK();
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (!fn) return record_error(cudaErrorInvalidValue);
  if (cudaError_t x = capture_forbids_legacy(stream); x != cudaSuccess) return record_error(x);
  if (capturing(stream)) {
    node_body b;
    b.type = cudaGraphNodeTypeHost;
    b.host = {fn, userData};
    return record_error(capture_node(stream, std::move(b)));
  }
  enqueue(stream, [fn, userData] {
    flush_device_output();
    host_code_scope user_code;
    fn(userData);
  }, {}, "cudaLaunchHostFunc");
  return cudaSuccess;
}

// --- attributes: kept and reported; they change only how a GPU caches and schedules ---

extern "C" cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                              const cudaStreamAttrValue* value) {
  CUEMU_STICKY_CHECK();
  if (!value) return record_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  CUstream_st* s = resolve_locked(r, stream);
  switch (attr) {
    case cudaStreamAttributeAccessPolicyWindow: {
      const cudaAccessPolicyWindow& w = value->accessPolicyWindow;
      if (w.hitRatio < 0.f || w.hitRatio > 1.f ||
          w.num_bytes > static_cast<std::size_t>(device_properties().accessPolicyMaxWindowSize))
        return record_error(cudaErrorInvalidValue);
      s->policy.accessPolicyWindow = w;
      return cudaSuccess;
    }
    case cudaStreamAttributeSynchronizationPolicy:
      if (value->syncPolicy < cudaSyncPolicyAuto || value->syncPolicy > cudaSyncPolicyBlockingSync)
        return record_error(cudaErrorInvalidValue);
      s->sync_policy = value->syncPolicy;
      return cudaSuccess;
    case cudaStreamAttributePriority: {
      int p = value->priority;
      if (p < k_greatest_priority) p = k_greatest_priority;
      if (p > k_least_priority) p = k_least_priority;
      s->priority = p;
      return cudaSuccess;
    }
    case cudaStreamAttributeMemSyncDomainMap:
    case cudaStreamAttributeMemSyncDomain:
      return cudaSuccess;
    default:
      return record_error(cudaErrorInvalidValue);
  }
}

extern "C" cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                              cudaStreamAttrValue* value) {
  CUEMU_STICKY_CHECK();
  if (!value) return record_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  CUstream_st* s = resolve_locked(r, stream);
  switch (attr) {
    case cudaStreamAttributeAccessPolicyWindow:
      value->accessPolicyWindow = s->policy.accessPolicyWindow;
      return cudaSuccess;
    case cudaStreamAttributeSynchronizationPolicy:
      value->syncPolicy = s->sync_policy;
      return cudaSuccess;
    case cudaStreamAttributePriority:
      value->priority = s->priority;
      return cudaSuccess;
    case cudaStreamAttributeMemSyncDomainMap:
      value->memSyncDomainMap = {};
      return cudaSuccess;
    case cudaStreamAttributeMemSyncDomain:
      value->memSyncDomain = cudaLaunchMemSyncDomainDefault;
      return cudaSuccess;
    default:
      return record_error(cudaErrorInvalidValue);
  }
}

extern "C" cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
  CUEMU_STICKY_CHECK();
  if (!valid_stream(dst) || !valid_stream(src)) return record_error(cudaErrorInvalidResourceHandle);
  registry& r = reg();
  std::lock_guard lock(r.mutex);
  CUstream_st* d = resolve_locked(r, dst);
  CUstream_st* s = resolve_locked(r, src);
  d->policy = s->policy;
  d->sync_policy = s->sync_policy;
  d->priority = s->priority;
  return cudaSuccess;
}
