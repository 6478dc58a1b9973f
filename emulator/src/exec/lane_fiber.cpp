// Lane fibers: runners (coroutines on pooled stacks) started on demand, the lanes they run, and
// the sync-free batches of the kernel's own loop.
#include <algorithm>
#include <cstdio>

#include "check/events.h"
#include "exec/lane_fiber.h"
#include "exec/options.h"
#include "exec/preempt.h"
#include "exec/warp_scheduler.h"

namespace cuemu::detail {
namespace {

// Records the stack a runner gets, for the stack-overflow report.
struct recording_stack {
  stack_pool* pool;
  boost::context::stack_context* out;
  boost::context::stack_context allocate() {
    *out = pool->allocate();
    return *out;
  }
  void deallocate(boost::context::stack_context& sc) noexcept { pool->deallocate(sc); }
};

}  // namespace

block_executor& worker_executor() {
  thread_local block_executor exec(options().stack_size);
  return exec;
}

block_executor::block_executor(std::size_t stack_size)
    : stacks_(std::make_unique<stack_pool>(stack_size)) {
  scheduler_target_.tsan_fiber = hooks::current_fiber_context();
}

block_executor::~block_executor() {
  if (preemptible_) {
    preemption_unregister_worker();
    register_executor(this, false);
  }
  // Let idle runners leave their loop so their stacks go back to the pool. Runners still
  // holding a lane of an abandoned (faulted) block are left alone on purpose.
  shutting_down_ = true;
  running_ = &sched_;
  batch_.current = nullptr;
  while (!idle_.empty()) {
    runner* r = idle_.back();
    idle_.pop_back();
    r->on = nullptr;
    switch_to(r);  // it returns for good; came_back deletes it
  }
  for (runner* r : spare_) {
    hooks::destroy_fiber_context(r->tsan_fiber);
    delete r;
  }
  for (runner* r : retired_) delete r;
}

block_executor::runner* block_executor::make_runner() {
  runner* r;
  if (!spare_.empty()) {  // racecheck: made before the block, with its TSan fiber
    r = spare_.back();
    spare_.pop_back();
  } else {
    r = new runner;
    r->tsan_fiber = hooks::create_fiber_context();
  }
  r->ctx = boost::context::fiber(std::allocator_arg, recording_stack{stacks_.get(), &r->stack},
                                 [this, r](boost::context::fiber&& s) {
                                   return runner_main(r, std::move(s));
                                 });
  return r;
}

block_executor::runner* block_executor::take_runner() {
  if (idle_.empty()) return make_runner();
  runner* r = idle_.back();
  idle_.pop_back();
  return r;
}

hooks::switch_target block_executor::target_of(const runner* r) const {
  if (r == &sched_) return scheduler_target_;
  hooks::switch_target t;
  t.stack_bottom = stack_bottom(r->stack);
  t.stack_size = r->stack.size;
  t.tsan_fiber = r->tsan_fiber;
  return t;
}


boost::context::fiber block_executor::runner_main(runner* self, boost::context::fiber&& from) {
  {
    const void* bottom = nullptr;
    std::size_t size = 0;
    hooks::after_switch(nullptr, &bottom, &size);
    came_back(std::move(from), bottom, size);
  }
  while (!shutting_down_) {
    // Run the lane given to this runner, then, as plain calls on this runner, the not yet
    // started lanes that come next, until one of them stops at a synchronisation point (its
    // arrival switches away from inside run_lane, and this runner stays with it).
    lane* next;
    for (;;) {
      lane& l = *self->on;
      if (fiber_.call) [[unlikely]] {
        // A statement of the region form, as coroutines.
        if (!hooks::active && l.state == lane_state::unstarted) run_fiber_batch(l, self);
        else run_fiber_lane(l);
      } else if (!hooks::active && l.state == lane_state::unstarted && use_regions()) {
        run_regions();  // every lane of the block
      } else if (!hooks::active && l.state == lane_state::unstarted) {
        // The kernel's own loop runs this lane and the rest of its warp's unstarted lanes.
        const unsigned long long epoch = begin_batch(l);
        launch_->entry.run_batch(batch_, launch_->entry.params);
        if (batch_.epoch == epoch) finish_batch();  // none of them synchronised
        else lane_exited(*self->on);  // the one that did (it kept this runner) has finished
      } else {
        run_lane(l);
      }
      next = faulted_ ? nullptr : pick();
      if (!next || next->state != lane_state::unstarted || hooks::one_lane_per_runner) break;
      self->on = next;
      next->run = self;
    }
    self->on = nullptr;
    runner* to = target_for(next);
    if (hooks::one_lane_per_runner) {
      self->retired = true;
      from_ = self;
      enter(to);
      hooks::before_final_switch(target_of(to));
      return std::move(to->ctx);
    }
    idle_.push_back(self);
    switch_to(to);  // resumed with a new lane in self->on, or to shut down
  }
  self->retired = true;
  from_ = self;
  enter(&sched_);
  hooks::before_final_switch(scheduler_target_);
  return std::move(sched_.ctx);
}

void block_executor::run_lane(lane& l) {
  warps_[l.warp].dirty = true;
  l.state = lane_state::running;
  batch_.current = &l;
  threadIdx = l.tid;
  const kernel_entry& e = launch_->entry;
  if (hooks::active) {
    char name[96];
    std::snprintf(name, sizeof name, "block (%u,%u,%u) thread (%u,%u,%u)", block_idx_.x,
                  block_idx_.y, block_idx_.z, l.tid.x, l.tid.y, l.tid.z);
    hooks::lane_begin(*launch_, l.run ? l.run->tsan_fiber : nullptr, name);
  }
  e.invoke(e.fn, e.params);
  hooks::lane_end(*launch_);
  lane_exited(l);
}

void block_executor::lane_exited(lane& l) {
  l.state = lane_state::exited;
  warp& w = warps_[l.warp];
  w.alive &= ~(1u << l.lane_id);
  w.live_pos &= ~(1u << l.pos);
  --live_;
  batch_.current = nullptr;
  // The barrier completes when every thread not exited has arrived.
  if (at_barrier_ == live_ && live_ != 0) complete_barrier();
}

// A batch: `first` (just picked, unstarted) and the unstarted lanes after it in its warp's
// schedule order. In the forward order the warps after it that no lane has started join it:
// the scheduler would start them next, each as a batch of its own, and their slots follow (one
// batch per block for a kernel that does not synchronise, its bookkeeping once). Returns the
// epoch, which changes if one of them synchronises.
unsigned long long block_executor::begin_batch(lane& first) {
  warp& w = warps_[first.warp];
  batch_.current = nullptr;  // the lane running is the one threadIdx names (cur())
  batch_.first = w.first + first.pos;
  batch_.end = w.first + w.count;
  w.next_unstarted = w.count;  // all taken by the batch
  if (slots_in_order_) {
    for (unsigned k = first.warp + 1; k < nwarps_; ++k) {
      warp& x = warps_[k];
      if (x.next_unstarted != 0 || x.ready != 0 || x.first != batch_.end) break;
      x.next_unstarted = x.count;
      batch_.end += x.count;
    }
  }
  return batch_.epoch;
}

// Also asked from signal handlers (the preemption timer, faults), which may come before the batch
// loop has stored its first lane's threadIdx: an index outside the block is no lane.
block_executor::lane* block_executor::batch_lane() const noexcept {
  const uint3 t = threadIdx;
  if (t.x >= shape_.x || t.y >= shape_.y || t.z >= shape_.z) return nullptr;
  return const_cast<lane*>(&lanes_[t.x + shape_.x * (t.y + shape_.y * t.z)]);
}

// Lanes in slots [begin, end) (of one warp or, in the forward order, of consecutive warps) have
// returned from the kernel.
void block_executor::exit_slots(unsigned begin, unsigned end) {
  while (begin < end) {
    warp& w = warps_[begin / 32];  // warp wi's slots are [32 wi, 32 wi + count) (setup_block)
    const unsigned stop = std::min(end, w.first + w.count);
    if (begin == w.first && stop == w.first + w.count) {
      // The whole warp, the common case: its lanes keep `unstarted` (see has_exited), so neither
      // this nor the next block's set-up touches them.
      w.alive = w.live_pos = 0;
    } else {
      w.dirty = true;
      unsigned ids = 0, pos = 0;
      for (unsigned s = begin; s < stop; ++s) {
        lane& x = *static_cast<lane*>(slot_lane_[s]);
        x.state = lane_state::exited;
        ids |= 1u << x.lane_id;
        pos |= 1u << x.pos;
      }
      w.alive &= ~ids;
      w.live_pos &= ~pos;
    }
    live_ -= stop - begin;
    begin = stop;
  }
}

// Every lane of the batch ran to its end without synchronising.
void block_executor::finish_batch() {
  exit_slots(batch_.first, batch_.end);
  batch_.first = batch_.end = 0;
  batch_.current = nullptr;
  if (at_barrier_ == live_ && live_ != 0) complete_barrier();
}

// Lane `l`, started by a batch, has reached a synchronisation point: the lanes before it in the
// batch have exited, it keeps the runner it runs on, and the lanes after it are unstarted again
// (the next of them starts on another runner).
void block_executor::leave_batch(lane& l) {
  warp& w = warps_[l.warp];
  w.dirty = true;
  if (fiber_.call) [[unlikely]] settle_fiber_slots(batch_.first, w.first + l.pos);
  else exit_slots(batch_.first, w.first + l.pos);
  // The warps after its own that joined the batch are not started; the scheduler is at its warp,
  // as if each warp had been a batch of its own.
  for (unsigned k = l.warp + 1; k < nwarps_ && warps_[k].first < batch_.end; ++k)
    warps_[k].next_unstarted = 0;
  if (slots_in_order_) {
    cur_pos_ = l.warp;
    cur_warp_ = &w;
  }
  l.state = lane_state::running;
  l.run = running_;
  running_->on = &l;
  w.next_unstarted = l.pos + 1;
  batch_.current = &l;
  batch_.first = batch_.end = 0;
  ++batch_.epoch;
}

}  // namespace cuemu::detail
