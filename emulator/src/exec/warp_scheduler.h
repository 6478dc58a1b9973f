// The warp scheduler's choice of the next lane (inline: every synchronisation point calls it).
// Included by the executor's own sources only.
#pragma once

#include <cuemu/progress.h>

#include "exec/lane_fiber.h"

namespace cuemu::detail {

// The next lane to run: the warp being advanced first (its unstarted lanes in order, then its
// released lanes round robin from the one resumed last), then the next warp in schedule order.
// Returns nullptr when no lane can run (the block is done, deadlocked or faulted). An unstarted
// lane returned is taken (its warp's next_unstarted advanced).
inline block_executor::lane* block_executor::pick() {
  warp& w = *cur_warp_;
  unsigned pos;
  if (w.next_unstarted < w.count) {
    pos = w.next_unstarted++;
  } else if (w.ready) {
    const unsigned after = w.ready & (~1u << w.cursor);  // positions after the cursor
    pos = static_cast<unsigned>(__builtin_ctz(after ? after : w.ready));
    w.ready &= ~(1u << pos);
  } else {
    return pick_slow();
  }
  w.cursor = pos;
  return static_cast<lane*>(slot_lane_[w.first + pos]);
}

// The calling lane has recorded its arrival at a synchronisation point: run others until it is
// released and resumed.
// Its count of polls goes with it (the worker's t_spin serves the lane running): the lanes of a
// warp that poll between collectives (CUB's look-back: a load, a fence, __any_sync) interleave
// at every round, and counts reset at each change of lane would never see the warp spin.
inline void block_executor::wait_here(lane& l) {
  spin_watch& s = t_spin;
  const volatile void* const addr = s.addr, *const addr2 = s.addr2;
  const unsigned long long value = s.value, value2 = s.value2;
  const unsigned same = s.same, polls = s.polls;
  lane* next = pick();
  if (next != &l) {
    if (next && next->state != lane_state::unstarted) [[likely]] resume(*next);
    else switch_to(target_for(next));
    s.lane = &l;
    s.addr = addr;
    s.value = value;
    s.addr2 = addr2;
    s.value2 = value2;
    s.same = same;
    s.polls = polls;
  }
  l.state = lane_state::running;
}

}  // namespace cuemu::detail
