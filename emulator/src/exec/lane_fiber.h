// Lane fibers: the coroutine switches of the block executor (the hot path of every barrier and
// warp collective). Included by the executor's own sources only.
#pragma once

#include <device_launch_parameters.h>

#include "exec/block.h"
#include "exec/context_switch.h"

namespace cuemu::detail {

// The bookkeeping of a switch, on the side of the switcher: `to` runs from now on.
inline void block_executor::enter(runner* to) noexcept {
  running_ = to;
  lane* l = to->on;
  batch_.current = l;
  if (l) threadIdx = l->tid;  // a resumed lane marks itself running (wait_here)
}

// On the side of the resumed runner: store the continuation of whoever switched to it.
inline void block_executor::came_back(boost::context::fiber&& from, const void* bottom,
                                      std::size_t size) {
  runner* f = from_;
  if (f == &sched_) {
    // First learnt when the scheduler first resumes a runner: the worker's own stack, for the
    // sanitizers' switch annotations towards it.
    if constexpr (hooks::active) {
      if (bottom) {
        scheduler_target_.stack_bottom = bottom;
        scheduler_target_.stack_size = size;
      }
    }
  }
  if (f->retired) [[unlikely]] {  // its coroutine has returned (racecheck; shutdown)
    hooks::destroy_fiber_context(f->tsan_fiber);
    f->tsan_fiber = nullptr;
    if (hooks::one_lane_per_runner && !shutting_down_) retired_.push_back(f);  // capacity reserved
    else delete f;
  } else {
    f->ctx = std::move(from);
  }
}

inline void block_executor::switch_to(runner* to) {
  from_ = running_;
  enter(to);
  transfer(to);
}

// Resumes `next`, a lane suspended at a synchronisation point (the hot path of every barrier and
// collective): its runner is the one it stopped on.
inline void block_executor::resume(lane& next) {
  runner* to = next.run;
  from_ = running_;
  running_ = to;
  batch_.current = &next;
  threadIdx = next.tid;
  transfer(to);
}

inline void block_executor::transfer(runner* to) {
  const void* bottom = nullptr;
  std::size_t size = 0;
  // The target's description is only built where a sanitizer reads it.
  boost::context::fiber from =
      switch_context(std::move(to->ctx), hooks::active ? target_of(to) : hooks::switch_target{},
                     hooks::active ? &bottom : nullptr, hooks::active ? &size : nullptr);
  came_back(std::move(from), bottom, size);
}

inline block_executor::runner* block_executor::target_for(lane* next) {
  if (!next) [[unlikely]] {
    // The statement a region form runs as coroutines is done: back to the region form.
    if (fiber_.join && fiber_.left == live_ && !faulted_) return fiber_.join;
    return &sched_;
  }
  if (next->state == lane_state::unstarted) {
    runner* r = take_runner();
    r->on = next;
    next->run = r;
    return r;
  }
  return next->run;
}

}  // namespace cuemu::detail
