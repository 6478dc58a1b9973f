// Faults between synchronisation points, always on: invalid memory accesses and other CPU
// exceptions in a CUDA thread, stack overflows (the guard page below every coroutine stack),
// and kernels still running after --timeout. Each ends the program with a report.
#pragma once

#include <memory>

namespace cuemu::detail {

struct launch_state;

// Installs the handlers (once per process) and this worker thread's alternate signal stack.
void prepare_worker_signals();

// The --timeout watchdog of one launch, for its lifetime (nothing without --timeout): a launch
// still running after the timeout is reported and the process ends.
class launch_watchdog {
 public:
  explicit launch_watchdog(const launch_state& launch);
  ~launch_watchdog();
  launch_watchdog(const launch_watchdog&) = delete;
  launch_watchdog& operator=(const launch_watchdog&) = delete;

 private:
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace cuemu::detail
