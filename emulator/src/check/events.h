// Where the checking modes attach to the scheduler. The runtime library is built once per mode
// (plain, memcheck = AddressSanitizer + alignment checks, racecheck = the emulator's own race
// detector fed by ThreadSanitizer's instrumentation); in the plain build every hook is an empty
// inline function. The scheduler calls these at its events: coroutine switches, lane begin/end,
// barrier and warp-collective arrival and completion, block and launch begin/end.
// Implementations: src/check/sanitizer_hooks.cpp (memcheck), src/check/racecheck.cpp. The
// executor asks about the running thread through exec/current_thread.h.
#pragma once

#include <cstddef>

#include <vector_types.h>

namespace cuemu::detail {

struct launch_state;

// The checker's state of the block a worker runs (racecheck: each thread's clock, the block's
// barrier epoch, what atomics made known).
struct block_tokens;

namespace hooks {

#if defined(CUEMU_MEMCHECK) || defined(CUEMU_RACECHECK)
constexpr bool active = true;
#else
constexpr bool active = false;
#endif

// racecheck ignores accesses to the running lane's own stack, so lanes share runners and
// stacks as in the plain build.
constexpr bool one_lane_per_runner = false;
constexpr bool pool_stacks = true;

// The target of a coroutine switch.
struct switch_target {
  const void* stack_bottom = nullptr;
  std::size_t stack_size = 0;
  void* tsan_fiber = nullptr;
};

#if defined(CUEMU_MEMCHECK) || defined(CUEMU_RACECHECK)
void* create_fiber_context();                 // a new runner's TSan fiber (nullptr otherwise)
void destroy_fiber_context(void* fiber);
void* current_fiber_context();                // the worker thread's own TSan fiber
void before_switch(const switch_target& to, void** fake_stack);
void after_switch(void* fake_stack, const void** from_bottom, std::size_t* from_size);
void before_final_switch(const switch_target& to);  // a coroutine leaving for good
void on_stack_reuse(void* bottom, std::size_t size);

void launch_begin(launch_state& launch);  // host thread, before any block
void launch_end(launch_state& launch);    // host thread, after every block
block_tokens* block_begin(const launch_state& launch, uint3 block_idx);  // worker, before lanes
void block_end(block_tokens* tokens);
void lane_begin(const launch_state& launch, void* fiber, const char* name);
void lane_end(const launch_state& launch);
// On a lane arriving at a barrier or warp collective (its interval ends there).
void barrier_arrive(block_tokens* t);
void collective_arrive(block_tokens* t);
// On the lane whose arrival completes a barrier, before any participant resumes.
void barrier_complete(block_tokens* t);
// On the lane whose arrival completes a warp collective: `participants` (lane ids of the warp
// starting at thread `warp_first`), `existing` (the warp's lanes).
void collective_complete(block_tokens* t, unsigned warp_first, unsigned participants,
                         unsigned existing);
// this_grid().sync() of a cooperative launch: a block's threads have all arrived (on its last
// lane); the last block of the grid arrived (under the grid's lock, before any block leaves); a
// block leaves (before its threads resume).
void grid_barrier_arrive(block_tokens* t);
void grid_barrier_complete();
void grid_barrier_release(block_tokens* t);
#else
inline void* create_fiber_context() { return nullptr; }
inline void destroy_fiber_context(void*) {}
inline void* current_fiber_context() { return nullptr; }
inline void before_switch(const switch_target&, void**) {}
inline void after_switch(void*, const void**, std::size_t*) {}
inline void before_final_switch(const switch_target&) {}
inline void on_stack_reuse(void*, std::size_t) {}
inline void launch_begin(launch_state&) {}
inline void launch_end(launch_state&) {}
inline block_tokens* block_begin(const launch_state&, uint3) { return nullptr; }
inline void block_end(block_tokens*) {}
inline void lane_begin(const launch_state&, void*, const char*) {}
inline void lane_end(const launch_state&) {}
inline void barrier_arrive(block_tokens*) {}
inline void collective_arrive(block_tokens*) {}
inline void barrier_complete(block_tokens*) {}
inline void collective_complete(block_tokens*, unsigned, unsigned, unsigned) {}
inline void grid_barrier_arrive(block_tokens*) {}
inline void grid_barrier_complete() {}
inline void grid_barrier_release(block_tokens*) {}
#endif

}  // namespace hooks
}  // namespace cuemu::detail
