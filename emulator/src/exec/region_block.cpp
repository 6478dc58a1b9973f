// A block of a kernel that has a region form (cuemu/regions.h): run in one call of the kernel
// on one runner, its threads as loops between the barriers, instead of a coroutine per thread.
// Taken when the kernel has one, CUEMU_EXEC is not `fibers`, and no checking mode observes the
// block (synccheck and the instrumented builds need each thread's own arrivals).
#include <algorithm>
#include <string>

#include <cuemu/regions.h>

#include "exec/options.h"
#include "exec/warp_scheduler.h"

namespace cuemu::detail {

bool runs_as_loops(const launch_state& launch) noexcept {
  return launch.entry.regions && options().loops && !options().synccheck && !hooks::active;
}

bool block_executor::use_regions() const noexcept { return runs_as_loops(*launch_); }

void block_executor::run_regions() {
  const unsigned n = static_cast<unsigned>(lanes_.size());
  region_block rb;
  rb.tid = slot_tid_.data();
  rb.n = rb.live = rb.at = n;
  region_exited_.assign(n, 0);
  rb.exited = region_exited_.data();
  rb.owner = this;
  rb.index_of = slot_index_.data();
  rb.slot_of = index_slot_.data();
  rb.identity = slots_in_order_;
  rb.linear = batch_.linear;
  if (rb.linear) threadIdx = uint3{0, 0, 0};
  region_arena_.chunk = region_arena_.used = 0;
  // The lanes keep `unstarted` (their warps' dirty flags stay clear) unless a statement runs as
  // coroutines (run_fiber_statement marks every warp dirty): the next block's setup_block then
  // has no lane to reset, as after a warp that ran as one batch.
  batch_.current = nullptr;
  region_ = &rb;
  region_outer_ = t_regions;
  regions_ = true;
  t_regions = &rb;
  const kernel_entry& e = launch_->entry;
  e.invoke(e.fn, e.params);
  leave_regions();
  // Every thread has run to its end (has_exited: no lane is alive in its warp).
  for (warp& w : warps_) {
    w.alive = w.live_pos = 0;
    w.next_unstarted = w.count;
  }
  live_ = 0;
  batch_.current = nullptr;
}

void block_executor::leave_regions() noexcept {
  if (!regions_) return;
  t_regions = region_outer_;
  regions_ = false;
  region_ = nullptr;
}

void* block_executor::region_lane() const noexcept {
  return region_->at < region_->n ? slot_lane_[region_->at] : nullptr;
}

void block_executor::outside_regions(const char* what, source_location where) {
  fault_current_lane("internal error", where.file, where.line,
                     std::string("  ") + what +
                         " reached in a kernel running as loops over threads: the region "
                         "translation missed it (run with CUEMU_EXEC=fibers, and please report "
                         "the kernel)\n",
                     cudaErrorLaunchFailure);
}

void region_block::run_fibers(source_location where, bool last, void* f, bool (*call)(void*, unsigned),
                              void (*batch)(region_block&, lane_batch&, void*)) {
  static_cast<block_executor*>(owner)->run_fiber_statement(where, last, f, call, batch);
}

// On the runner of the region form, between two of its regions: every lane starts afresh (a
// thread that returned earlier leaves at once when it starts, so that the warps and the barrier
// count what exists), and this runner waits until every lane has finished the statement.
void block_executor::run_fiber_statement(source_location where, bool last, void* f,
                                         bool (*call)(void*, unsigned),
                                         void (*batch)(region_block&, lane_batch&, void*)) {
  region_block& rb = *region_;
  if (rb.live == 0) return;
  runner* const self = running_;
  lane* const own = self->on;
  self->on = nullptr;
  fiber_ = {f, call, batch, self, where, last, 0};
  regions_ = false;
  t_regions = region_outer_;
  for (lane& l : lanes_) l.state = lane_state::unstarted;
  start_warps(true);
  for (warp& w : warps_)  // __activemask(): the lanes that have not returned
    for (unsigned k = 0; k < w.count; ++k)
      if (region_exited_[w.first + k])
        w.converged &= ~(1u << static_cast<lane*>(slot_lane_[w.first + k])->lane_id);
  live_ = static_cast<unsigned>(lanes_.size());
  at_barrier_ = barrier_true_ = 0;
  yielded_ = 0;
  batch_.current = nullptr;
  if (lane* first = pick()) switch_to(target_for(first));
  // Resumed by the lane that left last (target_for).
  fiber_ = {};
  self->on = own;
  running_ = self;
  batch_.current = nullptr;
  regions_ = true;
  t_regions = region_;
}

// `first` and the unstarted lanes after it (begin_batch) run the statement as plain calls on this
// runner until one synchronises; it leaves the batch (leave_batch settles the ones before it) and
// keeps this runner, and comes back here when it has finished the statement.
void block_executor::run_fiber_batch(lane& first, runner* self) {
  const unsigned long long epoch = begin_batch(first);
  fiber_.batch(*region_, batch_, fiber_.f);
  if (batch_.epoch == epoch) {  // none of them synchronised
    settle_fiber_slots(batch_.first, batch_.end);
    batch_.first = batch_.end = 0;
    batch_.current = nullptr;
    if (at_barrier_ == live_ && live_ != 0) complete_barrier();
  } else {
    settle_fiber_lane(*self->on);
  }
}

// A lane has finished the statement: gone from the block if it returned from the kernel or
// nothing synchronises after the statement, else waiting at its end (lane_state::left_statement).
void block_executor::settle_fiber_lane(lane& l) {
  warps_[l.warp].dirty = true;
  if (fiber_.last || region_exited_[index_slot_[l.index]]) {
    lane_exited(l);
    return;
  }
  l.state = lane_state::left_statement;
  batch_.current = nullptr;
  ++fiber_.left;
}

// The lanes of slots [begin, end), started by a batch, have finished the statement.
void block_executor::settle_fiber_slots(unsigned begin, unsigned end) {
  for (unsigned s = begin; s < end; ++s) {
    lane& x = *static_cast<lane*>(slot_lane_[s]);
    warp& w = warps_[x.warp];
    w.dirty = true;
    if (fiber_.last || region_exited_[s]) {
      x.state = lane_state::exited;
      w.alive &= ~(1u << x.lane_id);
      w.live_pos &= ~(1u << x.pos);
      --live_;
    } else {
      x.state = lane_state::left_statement;
      ++fiber_.left;
    }
  }
}

// One lane's part of a statement run as coroutines (on its runner, from runner_main).
void block_executor::run_fiber_lane(lane& l) {
  const unsigned s = index_slot_[l.index];
  warps_[l.warp].dirty = true;
  if (!region_exited_[s]) {
    l.state = lane_state::running;
    batch_.current = &l;
    threadIdx = l.tid;
    bool go;
    try {
      go = fiber_.call(fiber_.f, s);
    } catch (const thread_exit_signal&) {
      go = false;
    }
    if (!go) {
      region_exited_[s] = 1;
      --region_->live;
    }
  }
  settle_fiber_lane(l);
}

// The arena's next chunk with room (a new one, twice the last, when none has): region_block::alloc
// bumps within it until it is full.
void* region_block::alloc_chunk(std::size_t bytes, std::size_t align) {
  auto& a = static_cast<block_executor*>(owner)->region_arena_;
  for (;;) {
    if (a.chunk < a.chunks.size()) {
      unsigned char* const base = a.chunks[a.chunk].get();
      const std::uintptr_t place =
          (reinterpret_cast<std::uintptr_t>(base) + a.used + align - 1) & ~(std::uintptr_t{align} - 1);
      if (place + bytes <= reinterpret_cast<std::uintptr_t>(base) + a.sizes[a.chunk]) {
        a.used = place + bytes - reinterpret_cast<std::uintptr_t>(base);
        arena_at = base + a.used;
        arena_end = base + a.sizes[a.chunk];
        // From here the bumps are region_block::alloc's: the chunk counts as used up.
        a.used = a.sizes[a.chunk];
        return reinterpret_cast<void*>(place);
      }
      if (a.chunk + 1 < a.chunks.size() || a.used != 0) {
        ++a.chunk;
        a.used = 0;
        if (a.chunk < a.chunks.size()) continue;
      }
    }
    const std::size_t size = std::max<std::size_t>({bytes + align, 64 * 1024,
                                                    a.sizes.empty() ? 0 : 2 * a.sizes.back()});
    a.chunks.emplace_back(new unsigned char[size]);
    a.sizes.push_back(size);
    a.chunk = a.chunks.size() - 1;
    a.used = 0;
  }
}

}  // namespace cuemu::detail
