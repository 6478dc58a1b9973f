// The warp scheduler's choice of the next lane (inline: every synchronisation point calls it).
// Included by the executor's own sources only.
#pragma once

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
inline void block_executor::wait_here(lane& l) {
  lane* next = pick();
  if (next != &l) {
    if (next && next->state != lane_state::unstarted) [[likely]] resume(*next);
    else switch_to(target_for(next));
  }
  l.state = lane_state::running;
}

}  // namespace cuemu::detail
