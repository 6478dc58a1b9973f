// Preemption of CUDA threads that run too long without reaching a point where the scheduler can
// switch (a spin on a plain or volatile load, which no poll sees): the signal handler yields the running lane if it was interrupted in the user's
// own code (never inside the emulator, a library or the C runtime). Each worker has a timer
// that signals it every 10 ms of its CPU time; the handler preempts a lane it finds running two
// ticks in a row.
#pragma once

namespace cuemu::detail {

class block_executor;

// Called by a worker thread when it starts running blocks: it may be preempted from now on;
// and when its executor goes.
void preemption_register_worker();
void preemption_unregister_worker();

}  // namespace cuemu::detail
