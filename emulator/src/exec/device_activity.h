// What the whole emulated device and its host are doing, for the livelock rule: a grid whose
// blocks all spin is livelocked only when every block in flight on the device (any grid, any
// stream) spins, nothing anywhere made progress for a while, and every host thread that uses the
// runtime waits in a synchronising call (a free host thread may still store the awaited value).
#pragma once

namespace cuemu::detail {

// A host thread that queues work or waits for it (counted once per thread, until it exits).
void note_host_thread() noexcept;
// Marks the calling host thread as waiting for the device for its lifetime.
class host_wait_scope {
 public:
  host_wait_scope() noexcept;
  ~host_wait_scope();
  host_wait_scope(const host_wait_scope&) = delete;
  host_wait_scope& operator=(const host_wait_scope&) = delete;
};
// True when every counted host thread waits (or none is counted).
bool host_threads_all_wait() noexcept;

// Device-wide progress: stream work that completed (a grid, a copy, an event). Livelock
// detection of any grid sees it.
void note_device_progress() noexcept;
unsigned long long device_progress() noexcept;

}  // namespace cuemu::detail
