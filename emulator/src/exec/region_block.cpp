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

bool block_executor::use_regions() const noexcept {
  return launch_->entry.regions && options().loops && !synccheck_;
}

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
  for (warp& w : warps_) w.dirty = true;
  batch_.current = nullptr;
  region_ = &rb;
  region_outer_ = t_regions;
  regions_ = true;
  t_regions = &rb;
  const kernel_entry& e = launch_->entry;
  e.invoke(e.fn, e.params);
  leave_regions();
  // Every thread has run to its end.
  for (warp& w : warps_) {
    w.alive = w.live_pos = 0;
    w.next_unstarted = w.count;
  }
  for (lane& l : lanes_) l.state = lane_state::exited;
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

void* region_block::alloc(std::size_t bytes, std::size_t align) {
  auto& a = static_cast<block_executor*>(owner)->region_arena_;
  for (;;) {
    if (a.chunk < a.chunks.size()) {
      const std::size_t at = (a.used + align - 1) / align * align;
      if (at + bytes <= a.sizes[a.chunk]) {
        a.used = at + bytes;
        return a.chunks[a.chunk].get() + at;
      }
      if (a.used != 0 || a.chunk + 1 < a.chunks.size()) {
        ++a.chunk;
        a.used = 0;
        continue;
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
