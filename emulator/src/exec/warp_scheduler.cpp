// The warp scheduler: a block's lanes laid out in warps and schedule order, the choice of the next
// warp, and one block's life from set-up to its end.
#include <algorithm>
#include <random>

#include "check/events.h"
#include "exec/options.h"
#include "exec/shared_memory.h"
#include "exec/preempt.h"
#include "exec/warp_scheduler.h"

namespace cuemu::detail {
namespace {

template <class T>
void permute(std::vector<T>& v, schedule_kind kind, std::mt19937_64& rng) {
  if (kind == schedule_kind::reverse) std::reverse(v.begin(), v.end());
  if (kind == schedule_kind::random) std::shuffle(v.begin(), v.end(), rng);
}

}  // namespace

// The warp being advanced has nothing to run: resolve its pending collectives, else move on.
block_executor::lane* block_executor::pick_slow() {
  const unsigned nw = nwarps_;
  for (unsigned scanned = 0; scanned < nw;) {
    warp& w = warps_[warp_order_[cur_pos_]];
    cur_warp_ = &w;
    if (w.next_unstarted < w.count || w.ready) return pick();
    // Every lane of the warp has stopped: collectives that did not complete on arrival
    // (mismatches, exited lanes named, coalesced_threads) are resolved or reported here.
    if ((w.coll | w.conv) != 0 && resolve_collectives(w)) continue;
    if (faulted_) return nullptr;
    cur_pos_ = cur_pos_ + 1 == nw ? 0 : cur_pos_ + 1;
    ++scanned;
  }
  cur_warp_ = &warps_[warp_order_[cur_pos_]];
  // Only lanes that yielded while spinning are left: if anything changed since they were last
  // released, let them poll again; else the block stalls (run()).
  if (yielded_ != 0 && progress_mark() != round_mark_) {
    // The whole block waits on its polls, though something moved (a poll loop that runs a warp
    // collective or a barrier each round completes one every time): it may wait for a block
    // that has not started (CUB's look-back with blocks taken in reverse or random order).
    if (!helper_asked_ && ++spin_rounds_ >= kSpinRoundsBeforeHelper)
      helper_asked_ = ask_helper(*launch_);
    release_yielded();
    return pick();
  }
  return nullptr;
}


void block_executor::setup_block(const launch_state& launch, std::uint64_t schedule_salt) {
  last_errors_.clear();
  const exec_options& opt = options();
  const dim3 b = launch.block;
  const unsigned n = b.x * b.y * b.z;
  const bool random = opt.schedule == schedule_kind::random;
  const bool same = laid_out_ && b.x == shape_.x && b.y == shape_.y && b.z == shape_.z;
  const unsigned nwarps = (n + 31) / 32;
  if (!same || random) {
    lanes_.assign(n, lane{});
    for (unsigned i = 0; i < n; ++i) {
      lane& l = lanes_[i];
      l.tid = uint3{i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
      l.index = i;
      l.warp = i / 32;
      l.lane_id = i % 32;
    }
    warps_.assign(nwarps, warp{});
    warp_order_.resize(nwarps);
    std::mt19937_64 rng;
    if (random) rng.seed(opt.seed * 0x9e3779b97f4a7c15ull + schedule_salt);
    for (unsigned wi = 0; wi < nwarps; ++wi) {
      warp& w = warps_[wi];
      w.first = wi * 32;
      w.count = std::min(32u, n - w.first);
      w.existing = w.count == 32 ? ~0u : ((1u << w.count) - 1);
      std::vector<unsigned char> order(w.count);
      for (unsigned k = 0; k < w.count; ++k) order[k] = static_cast<unsigned char>(k);
      permute(order, opt.schedule, rng);
      for (unsigned k = 0; k < w.count; ++k) {
        w.order[k] = order[k];
        lanes_[w.first + order[k]].pos = k;
      }
      warp_order_[wi] = wi;
    }
    permute(warp_order_, opt.schedule, rng);
    slot_tid_.resize(n);
    slot_lane_.resize(n);
    slot_index_.resize(n);
    index_slot_.resize(n);
    for (const warp& w : warps_)
      for (unsigned k = 0; k < w.count; ++k) {
        lane& l = lanes_[w.first + w.order[k]];
        slot_tid_[w.first + k] = l.tid;
        slot_lane_[w.first + k] = &l;
        slot_index_[w.first + k] = l.index;
        index_slot_[l.index] = w.first + k;
      }
    slots_in_order_ = true;
    for (unsigned s = 0; s < n && slots_in_order_; ++s) slots_in_order_ = slot_index_[s] == s;
    batch_.tid = slot_tid_.data();
    batch_.linear = slots_in_order_ && b.y == 1 && b.z == 1;
    shape_ = b;
    laid_out_ = !random;
    nwarps_ = nwarps;
  } else {
    // Only the warps whose lanes left `unstarted` (a warp that ran as one batch did not). A
    // lane's runner is always set before it leaves `unstarted`.
    for (warp& w : warps_) {
      if (!w.dirty) continue;
      for (lane *l = &lanes_[w.first], *e = l + w.count; l != e; ++l) {
        l->state = lane_state::unstarted;
      }
    }
  }
  start_warps(false);
  live_ = n;
  at_barrier_ = 0;
  barrier_true_ = 0;
  yielded_ = 0;
  events_ = 0;
  round_mark_ = progress_mark();
  stall_mark_ = round_mark_;
  stall_rounds_ = 0;
  spin_rounds_ = 0;
  stalled_since_ = 0;
  seen_progress_ = ~0ull;
  helper_asked_ = false;
  preemptions_ = 0;
  grid_round_ = grid_wait_ = false;
  synccheck_ = opt.synccheck;
}

// Every lane of every warp alive and unstarted, the scheduler at the first warp in order.
void block_executor::start_warps(bool dirty) {
  for (warp& w : warps_) {
    w.converged = w.alive = w.existing;
    w.live_pos = w.existing;  // positions 0..count-1, like the lane ids
    w.ready = w.coll = w.conv = w.yielded = 0;
    w.sig[0] = w.sig[1] = 0;
    ++w.gen;
    w.dirty = dirty;
    w.cursor = 31;
    w.next_unstarted = 0;
  }
  cur_pos_ = 0;
  cur_warp_ = &warps_[warp_order_[0]];
  batch_.first = batch_.end = 0;
}

bool block_executor::run(launch_state& launch, uint3 block_idx, std::uint64_t schedule_salt) {
  launch_ = &launch;
  block_idx_ = block_idx;
  faulted_ = false;
  block_executor* outer = t_current_executor;
  t_current_executor = this;
  blockIdx = block_idx;
  blockDim = launch.block;
  gridDim = launch.grid;

  setup_block(launch, schedule_salt);
  running_launch_.store(&launch, std::memory_order_release);
  if (!preemptible_) {
    preemptible_ = true;
    preemption_register_worker();
    register_executor(this, true);
  }
  if (hooks::one_lane_per_runner) {
    // Every lane gets its own runner: make the structs here, on the worker's own fiber.
    for (runner* r : retired_) {
      r->stack = {};
      r->on = nullptr;
      r->retired = false;
      r->tsan_fiber = hooks::create_fiber_context();
      spare_.push_back(r);
    }
    retired_.clear();
    const std::size_t need = lanes_.size() + 1;
    while (spare_.size() < need) {
      auto* r = new runner;
      r->tsan_fiber = hooks::create_fiber_context();
      spare_.push_back(r);
      ++runners_made_;
    }
    retired_.reserve(runners_made_);
  }
  shared_memory_block_begin(launch);
  tokens_ = hooks::block_begin(launch, block_idx);

  // Start the first lane; the lanes switch among themselves and come back here when the block
  // is done, deadlocked or faulted.
  running_ = &sched_;
  batch_.current = nullptr;
  if (lane* first = pick()) switch_to(target_for(first));
  // Back here with lanes left: every one of them spins or waits for one that does, or the block
  // waits at this_grid().sync(). Let the rest of the grid run, then run them again.
  bool gave_up = false;
  while (!faulted_ && live_ != 0 && (yielded_ != 0 || grid_wait_)) {
    running_ = &sched_;
    batch_.current = nullptr;
    if (grid_wait_ ? !grid_barrier_released() : !stall()) {
      gave_up = true;
      break;
    }
    if (yielded_ != 0) release_yielded();
    if (lane* next = pick()) switch_to(target_for(next));
  }
  running_ = &sched_;
  batch_.current = nullptr;
  if (!faulted_ && !gave_up && live_ != 0) report_deadlock();
  const bool ok = !faulted_ && !gave_up;
  if (!ok) abandon_block();
  hooks::block_end(tokens_);
  tokens_ = nullptr;
  if (ok) shared_memory_block_end();  // a faulted block's lanes may still point into it
  t_current_executor = outer;
  running_launch_.store(nullptr, std::memory_order_relaxed);
  launch_ = nullptr;
  return ok;
}

unsigned block_executor::active_mask() const noexcept {
  const lane* l = cur();
  if (!l) return 0;
  const warp& w = warps_[l->warp];
  // After a warp collective, its participants; else the warp's lanes not exited
  // at the last barrier.
  if (l->state != lane_state::unstarted && l->active_gen == w.gen) return l->active;
  return w.converged;
}

bool block_executor::after_collective() const noexcept {
  const lane* l = cur();
  return l && l->state != lane_state::unstarted && l->active_gen == warps_[l->warp].gen;
}

unsigned block_executor::lane_id() const noexcept {
  const lane* l = cur();
  return l ? l->lane_id : 0;
}

const boost::context::stack_context* block_executor::current_stack() const noexcept {
  return running_ && running_ != &sched_ ? &running_->stack : nullptr;
}

bool block_executor::describe_current(uint3& block, uint3& thread) const noexcept {
  const lane* l = cur();
  if (!l) return false;
  block = block_idx_;
  thread = l->tid;
  return true;
}


cudaError_t block_executor::last_error(bool clear) noexcept {
  const lane* l = cur();
  if (!l) return cudaSuccess;
  for (auto it = last_errors_.begin(); it != last_errors_.end(); ++it)
    if (it->first == l->index) {
      const cudaError_t e = it->second;
      if (clear) last_errors_.erase(it);
      return e;
    }
  return cudaSuccess;
}

void block_executor::set_last_error(cudaError_t e) {
  const lane* l = cur();
  if (!l) return;
  for (auto& [index, error] : last_errors_)
    if (index == l->index) {
      error = e;
      return;
    }
  last_errors_.emplace_back(l->index, e);
}

}  // namespace cuemu::detail
