// Faults between synchronisation points, always on: invalid memory accesses and other CPU
// exceptions in a CUDA thread, stack overflows (the guard page below every coroutine stack),
// and kernels still running after --timeout. Each ends the program with a report.
#pragma once

namespace cuemu::detail {

struct launch_state;

// Installs the handlers (once per process) and this worker thread's alternate signal stack.
void prepare_worker_signals();

// Starts / stops the --timeout watchdog around one launch (no-op without --timeout).
void watchdog_start(const launch_state& launch);
void watchdog_stop();

}  // namespace cuemu::detail
