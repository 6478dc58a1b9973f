// __syncthreads and its variants: arrival, completion, release.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check/events.h"
#include "check/synccheck.h"
#include "exec/describe.h"
#include "exec/warp_scheduler.h"

namespace cuemu::detail {

void called_off_device(const char* what) {
  std::fprintf(stderr, "cuemu: %s called outside a kernel (from host code)\n", what);
  std::abort();
}

[[gnu::always_inline]] inline int block_executor::barrier(barrier_op op, int predicate,
                                                         source_location where) {
  lane& l = *cur();
  if (l.state == lane_state::unstarted) [[unlikely]] leave_batch(l);
  l.state = lane_state::at_barrier;
  l.bop = op;
  l.where = where;
  barrier_true_ += predicate != 0;
  ++at_barrier_;
  hooks::barrier_arrive(tokens_);
  if (at_barrier_ == live_) complete_barrier();
  wait_here(l);
  switch (op) {
    case barrier_op::count: return static_cast<int>(last_true_);
    case barrier_op::and_: return last_true_ == last_arrived_;
    case barrier_op::or_: return last_true_ != 0;
    default: return 0;
  }
}

int block_executor::barrier_entry(barrier_op op, int predicate, source_location where) {
  block_executor* e = t_current_executor;
  if (!e) [[unlikely]] called_off_device("__syncthreads");
  return e->barrier(op, predicate, where);
}

void block_executor::complete_barrier() {
  if (synccheck_) [[unlikely]] {
    std::vector<synccheck::barrier_wait> waits;
    std::vector<const lane*> who;
    for (const lane& l : lanes_) {
      if (l.state != lane_state::at_barrier) continue;
      waits.push_back({l.tid, l.bop, l.where});
      who.push_back(&l);
    }
    std::size_t culprit = 0;
    const std::string details = synccheck::barrier_divergence(waits, &culprit);
    if (!details.empty()) {
      fault_at(*who[culprit], "barrier divergence", details);
      return;
    }
  }
  hooks::barrier_complete(tokens_);
  // Every thread not exited is at the barrier: release them all; results are read on departure.
  last_true_ = barrier_true_;
  last_arrived_ = at_barrier_;
  barrier_true_ = 0;
  at_barrier_ = 0;
  for (warp& w : warps_) {
    w.ready = w.live_pos;
    w.cursor = 31;
    w.converged = w.alive;
  }
  cur_pos_ = 0;
  cur_warp_ = &warps_[warp_order_[0]];
}

}  // namespace cuemu::detail
