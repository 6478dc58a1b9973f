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
  if (op == barrier_op::grid) [[unlikely]] grid_round_ = true;
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
  if (!e) [[unlikely]] called_off_device(op == barrier_op::grid ? "this_grid().sync()" : "__syncthreads");
  if (e->regions_) [[unlikely]] e->outside_regions("__syncthreads()", where);
  if (op == barrier_op::grid && !e->launch_->cooperative) [[unlikely]]
    e->fault_current_lane("invalid grid synchronization", where.file, where.line,
                          "  this_grid().sync() in a kernel not launched with "
                          "cudaLaunchCooperativeKernel: grid_group::is_valid() is false and a GPU "
                          "traps (unspecified launch failure)\n",
                          cudaErrorLaunchFailure);
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
  if (grid_round_) [[unlikely]] {
    // this_grid().sync(): the block's part is done; the grid's is not until every block's is.
    grid_round_ = false;
    hooks::grid_barrier_arrive(tokens_);
    grid_arrive();
    return;
  }
  hooks::barrier_complete(tokens_);
  release_barrier();
}

// Every thread not exited is at the barrier: release them all; results are read on departure.
void block_executor::release_barrier() {
  last_true_ = barrier_true_;
  last_arrived_ = at_barrier_;
  barrier_true_ = 0;
  at_barrier_ = 0;
  for (warp& w : warps_) {
    w.ready = w.live_pos;
    w.cursor = 31;
    w.converged = w.alive;
    ++w.gen;
  }
  cur_pos_ = 0;
  cur_warp_ = &warps_[warp_order_[0]];
  ++events_;
}
}  // namespace cuemu::detail
