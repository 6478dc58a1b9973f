#include "exec/block.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>

#include <device_launch_parameters.h>

#include "check/report.h"
#include "exec/context_switch.h"
#include "exec/options.h"
#include "exec/shared_memory.h"

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

template <class T>
void permute(std::vector<T>& v, schedule_kind kind, std::mt19937_64& rng) {
  if (kind == schedule_kind::reverse) std::reverse(v.begin(), v.end());
  if (kind == schedule_kind::random) std::shuffle(v.begin(), v.end(), rng);
}

std::string hex(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

std::string site(source_location w) {
  return std::string(w.file ? w.file : "<unknown>") + ":" + std::to_string(w.line);
}

std::string triple(uint3 t) {
  return "(" + std::to_string(t.x) + "," + std::to_string(t.y) + "," + std::to_string(t.z) + ")";
}

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
      if (!hooks::active && l.state == lane_state::unstarted) {
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
// schedule order. Returns the epoch, which changes if one of them synchronises.
unsigned long long block_executor::begin_batch(lane& first) {
  warp& w = warps_[first.warp];
  batch_.first = w.first + first.pos;
  batch_.end = w.first + w.count;
  w.next_unstarted = w.count;  // all taken by the batch
  return batch_.epoch;
}

// Lanes in slots [begin, end) (of one warp) have returned from the kernel.
void block_executor::exit_slots(unsigned begin, unsigned end) {
  if (begin == end) return;
  const lane& f = *static_cast<const lane*>(slot_lane_[begin]);
  warp& w = warps_[f.warp];
  if (begin == w.first && end == w.first + w.count) {
    // The whole warp, the common case: its lanes keep `unstarted` (see has_exited), so neither
    // this nor the next block's set-up touches them.
    w.alive = w.live_pos = 0;
  } else {
    w.dirty = true;
    unsigned ids = 0, pos = 0;
    for (unsigned s = begin; s < end; ++s) {
      lane& x = *static_cast<lane*>(slot_lane_[s]);
      x.state = lane_state::exited;
      ids |= 1u << x.lane_id;
      pos |= 1u << x.pos;
    }
    w.alive &= ~ids;
    w.live_pos &= ~pos;
  }
  live_ -= end - begin;
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
  exit_slots(batch_.first, w.first + l.pos);
  l.state = lane_state::running;
  l.run = running_;
  running_->on = &l;
  w.next_unstarted = l.pos + 1;
  batch_.first = batch_.end = 0;
  ++batch_.epoch;
}

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
  return nullptr;
}

inline block_executor::runner* block_executor::target_for(lane* next) {
  if (!next) [[unlikely]] return &sched_;
  if (next->state == lane_state::unstarted) {
    runner* r = take_runner();
    r->on = next;
    next->run = r;
    return r;
  }
  return next->run;
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

void block_executor::setup_block(const launch_state& launch, std::uint64_t schedule_salt) {
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
    for (const warp& w : warps_)
      for (unsigned k = 0; k < w.count; ++k) {
        lane& l = lanes_[w.first + w.order[k]];
        slot_tid_[w.first + k] = l.tid;
        slot_lane_[w.first + k] = &l;
      }
    batch_.tid = slot_tid_.data();
    batch_.lane = slot_lane_.data();
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
  for (warp& w : warps_) {
    w.converged = w.alive = w.existing;
    w.live_pos = w.existing;  // positions 0..count-1, like the lane ids
    w.ready = w.coll = w.conv = 0;
    w.dirty = false;
    w.cursor = 31;
    w.next_unstarted = 0;
  }
  cur_pos_ = 0;
  cur_warp_ = &warps_[warp_order_[0]];
  batch_.first = batch_.end = 0;
  live_ = n;
  at_barrier_ = 0;
  barrier_true_ = 0;
  synccheck_ = opt.synccheck;
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
  running_ = &sched_;
  batch_.current = nullptr;
  if (!faulted_ && live_ != 0) report_deadlock();
  const bool ok = !faulted_;
  if (!ok) abandon_block();
  hooks::block_end(tokens_);
  tokens_ = nullptr;
  if (ok) shared_memory_block_end();  // a faulted block's lanes may still point into it
  t_current_executor = outer;
  launch_ = nullptr;
  return ok;
}

[[noreturn, gnu::cold, gnu::noinline]] static void called_off_device(const char* what) {
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

// Errors of a collective's arguments, found on arrival (cold: builds the report).
void block_executor::invalid_collective(const lane& l, int width) {
  if (!(l.mask & (1u << l.lane_id))) {
    fault_at(l, "invalid warp synchronization",
             std::string("  ") + warp_op_name(l.op) + " called by lane " +
                 std::to_string(l.lane_id) + " with mask " + hex(l.mask) +
                 ", which does not name the calling lane\n");
  }
  fault_at(l, "invalid warp synchronization",
           std::string("  ") + warp_op_name(l.op) + " with width " + std::to_string(width) +
               ": width must be a power of two from 1 to 32\n");
}

bool block_executor::same_collective(const warp& w, unsigned m, const lane& l) const {
  const lane* L = &lanes_[w.first];
  for (unsigned rest = m; rest; rest &= rest - 1) {
    const lane& o = L[__builtin_ctz(rest)];
    if (o.op != l.op || o.mask != l.mask) return false;
  }
  return true;
}

[[gnu::always_inline]] inline std::uint64_t block_executor::collective(
    warp_op op, unsigned mask, std::uint64_t value, int arg, int width, source_location where) {
  lane& l = *cur();
  if (l.state == lane_state::unstarted) [[unlikely]] leave_batch(l);
  l.op = op;
  l.mask = mask;
  l.where = where;
  const unsigned bit = 1u << l.lane_id;
  const bool shuffle = op >= warp_op::shfl_idx && op <= warp_op::shfl_xor;
  if (!(mask & bit) || (shuffle && (width < 1 || width > 32 || (width & (width - 1)) != 0)))
      [[unlikely]]
    invalid_collective(l, width);
  l.state = lane_state::at_collective;
  l.value = value;
  l.arg = arg;
  l.width = width;
  hooks::collective_arrive(tokens_);
  warp& w = warps_[l.warp];
  if (op == warp_op::converge) {
    w.conv |= bit;  // resolved once every lane of the warp has stopped
  } else {
    w.coll |= bit;
    const unsigned m = mask & w.existing;
    if ((w.coll & m) == m && same_collective(w, m, l)) complete_collective(w, m, l);
  }
  wait_here(l);
  return l.result;
}

int block_executor::barrier_entry(barrier_op op, int predicate, source_location where) {
  block_executor* e = t_current_executor;
  if (!e) [[unlikely]] called_off_device("__syncthreads");
  return e->barrier(op, predicate, where);
}

std::uint64_t block_executor::collective_entry(warp_op op, unsigned mask, std::uint64_t value,
                                               int arg, int width, source_location where) {
  block_executor* e = t_current_executor;
  if (!e) [[unlikely]] called_off_device(warp_op_name(op));
  return e->collective(op, mask, value, arg, width, where);
}

unsigned block_executor::active_mask() const noexcept {
  const lane* l = cur();
  return l ? warps_[l->warp].converged : 0;
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

void block_executor::complete_barrier() {
  if (synccheck_) {
    // Barrier divergence: threads of the block waiting at different __syncthreads call sites.
    const lane* first = nullptr;
    for (const lane& l : lanes_) {
      if (l.state != lane_state::at_barrier) continue;
      if (!first) { first = &l; continue; }
      if (l.where.line != first->where.line || l.bop != first->bop ||
          std::strcmp(l.where.file ? l.where.file : "", first->where.file ? first->where.file : "") != 0) {
        fault_at(l, "barrier divergence",
                 "  thread " + triple(l.tid) + " " + describe_wait(l) + "\n  thread " +
                     triple(first->tid) + " " + describe_wait(*first) +
                     "\n  (all threads of a block must reach the same __syncthreads; a GPU may "
                     "hang or mix the two)\n");
        return;
      }
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

bool block_executor::resolve_collectives(warp& w) {
  bool any = false;
  for (unsigned k = 0; k < w.count; ++k) {
    lane& l = lanes_[w.first + k];
    if (l.state != lane_state::at_collective) continue;
    if (l.op == warp_op::converge) continue;  // resolved below, once nothing else can move
    const unsigned m = l.mask & w.existing;
    bool complete = true;
    for (unsigned j = 0; j < w.count; ++j) {
      if (!(m & (1u << j))) continue;
      lane& o = lanes_[w.first + j];
      if (has_exited(o)) {
        fault_at(l, "invalid warp synchronization",
                 std::string("  ") + warp_op_name(l.op) + " with mask " + hex(l.mask) +
                     " names lane " + std::to_string(j) + " (thread " + triple(o.tid) +
                     "), which has exited\n");
        return true;
      }
      if (o.state != lane_state::at_collective) {
        complete = false;
        break;
      }
      if (o.op != l.op || o.mask != l.mask) {
        fault_at(l, "warp collective mismatch",
                 std::string("  lane ") + std::to_string(l.lane_id) + " waits in " +
                     warp_op_name(l.op) + " with mask " + hex(l.mask) + " at " + site(l.where) +
                     "\n  lane " + std::to_string(j) + " waits in " + warp_op_name(o.op) +
                     " with mask " + hex(o.mask) + " at " + site(o.where) + "\n");
        return true;
      }
    }
    if (!complete) continue;
    complete_collective(w, m, l);
    any = true;
  }
  if (any) return true;
  // coalesced_threads(): when every lane of the warp has stopped, the lanes waiting at the same
  // call site form the group (a GPU's converged lanes at that point).
  for (unsigned k = 0; k < w.count; ++k) {
    const lane& o = lanes_[w.first + k];
    if (!has_exited(o) && o.state != lane_state::at_collective &&
        o.state != lane_state::at_barrier)
      return false;
  }
  for (unsigned k = 0; k < w.count; ++k) {
    lane& l = lanes_[w.first + k];
    if (l.state != lane_state::at_collective || l.op != warp_op::converge) continue;
    unsigned m = 0;
    for (unsigned j = 0; j < w.count; ++j) {
      const lane& o = lanes_[w.first + j];
      if (o.state == lane_state::at_collective && o.op == warp_op::converge &&
          o.where.line == l.where.line &&
          (o.where.file == l.where.file ||
           (o.where.file && l.where.file && std::strcmp(o.where.file, l.where.file) == 0)))
        m |= 1u << j;
    }
    complete_collective(w, m, l);
    return true;
  }
  return false;
}

// The results of one shuffle for participants `m` (lane ids), one loop per op. PTX shfl.sync
// semantics: segmask selects the segment of `width` lanes; a source outside the allowed range
// reads the caller's own value, a source that was never launched reads 0. Returns false if it
// faulted (synccheck: a source outside the mask).
template <warp_op Op>
bool block_executor::shuffle(warp& w, unsigned m) {
  lane* L = &lanes_[w.first];
  for (unsigned rest = m; rest; rest &= rest - 1) {
    lane& l = L[__builtin_ctz(rest)];
    const unsigned lane_no = l.lane_id;
    const unsigned segmask = (32u - static_cast<unsigned>(l.width)) & 31u;
    const unsigned b = static_cast<unsigned>(l.arg) & 31u;
    const unsigned min_lane = lane_no & segmask;
    const unsigned max_lane = min_lane | (31u & ~segmask);
    unsigned j;
    bool valid;
    if constexpr (Op == warp_op::shfl_up) {
      j = lane_no - b;
      valid = static_cast<int>(j) >= static_cast<int>(min_lane);
    } else if constexpr (Op == warp_op::shfl_down) {
      j = lane_no + b;
      valid = j <= max_lane;
    } else if constexpr (Op == warp_op::shfl_xor) {
      j = lane_no ^ b;
      valid = j <= max_lane;
    } else {
      j = min_lane | (b & ~segmask);
      valid = j <= max_lane;
    }
    if (!valid) {
      l.result = l.value;
      continue;
    }
    if (j >= w.count) [[unlikely]] {
      // A lane past the end of a partial last warp was never launched: an H200 reads 0
      // (measured; NVIDIA's reduction samples rely on it for blocks under 32 threads).
      l.result = 0;
      continue;
    }
    if (!(m & (1u << j))) [[unlikely]] {
      if (synccheck_) {
        fault_at(l, "invalid warp synchronization",
                 std::string("  ") + warp_op_name(Op) + " in lane " + std::to_string(lane_no) +
                     " reads lane " + std::to_string(j) + ", which is not in mask " +
                     hex(l.mask) + " (the value is undefined on a GPU)\n");
        return false;
      }
      l.result = l.value;
      continue;
    }
    l.result = L[j].value;
  }
  return true;
}

// Computes every participant's result once (from the values as they arrived), then releases
// them. `m`: the participants (lane ids).
void block_executor::complete_collective(warp& w, unsigned m, const lane& first) {
  lane* L = &lanes_[w.first];
  const warp_op op = first.op;
  switch (op) {
    case warp_op::syncwarp:
      break;
    case warp_op::shfl_idx: if (!shuffle<warp_op::shfl_idx>(w, m)) return; break;
    case warp_op::shfl_up: if (!shuffle<warp_op::shfl_up>(w, m)) return; break;
    case warp_op::shfl_down: if (!shuffle<warp_op::shfl_down>(w, m)) return; break;
    case warp_op::shfl_xor: if (!shuffle<warp_op::shfl_xor>(w, m)) return; break;
    case warp_op::ballot: case warp_op::any: case warp_op::all: {
      std::uint64_t ballot = 0;
      for (unsigned rest = m; rest; rest &= rest - 1) {
        const unsigned j = static_cast<unsigned>(__builtin_ctz(rest));
        if (L[j].value) ballot |= 1u << j;
      }
      const std::uint64_t r = op == warp_op::ballot ? ballot
                              : op == warp_op::any  ? std::uint64_t{ballot != 0}
                                                    : std::uint64_t{ballot == m};
      for (unsigned rest = m; rest; rest &= rest - 1) L[__builtin_ctz(rest)].result = r;
      break;
    }
    case warp_op::match_any:
      for (unsigned rest = m; rest; rest &= rest - 1) {
        lane& l = L[__builtin_ctz(rest)];
        std::uint64_t same = 0;
        for (unsigned r2 = m; r2; r2 &= r2 - 1) {
          const unsigned j = static_cast<unsigned>(__builtin_ctz(r2));
          if (L[j].value == l.value) same |= 1u << j;
        }
        l.result = same;
      }
      break;
    case warp_op::match_all: {
      bool all_equal = true;
      for (unsigned rest = m; rest; rest &= rest - 1)
        if (L[__builtin_ctz(rest)].value != first.value) all_equal = false;
      for (unsigned rest = m; rest; rest &= rest - 1)
        L[__builtin_ctz(rest)].result = all_equal ? m : 0;
      break;
    }
    case warp_op::converge:
      for (unsigned rest = m; rest; rest &= rest - 1) L[__builtin_ctz(rest)].result = m;
      break;
    default: {  // the __reduce_*_sync family
      std::uint32_t red = static_cast<std::uint32_t>(L[__builtin_ctz(m)].value);
      for (unsigned rest = m & (m - 1); rest; rest &= rest - 1) {
        const std::uint32_t v = static_cast<std::uint32_t>(L[__builtin_ctz(rest)].value);
        switch (op) {
          case warp_op::reduce_add_u: case warp_op::reduce_add_i: red += v; break;
          case warp_op::reduce_min_u: red = std::min(red, v); break;
          case warp_op::reduce_max_u: red = std::max(red, v); break;
          case warp_op::reduce_min_i: red = static_cast<std::uint32_t>(std::min(static_cast<std::int32_t>(red), static_cast<std::int32_t>(v))); break;
          case warp_op::reduce_max_i: red = static_cast<std::uint32_t>(std::max(static_cast<std::int32_t>(red), static_cast<std::int32_t>(v))); break;
          case warp_op::reduce_and: red &= v; break;
          case warp_op::reduce_or: red |= v; break;
          case warp_op::reduce_xor: red ^= v; break;
          default: break;
        }
      }
      for (unsigned rest = m; rest; rest &= rest - 1) L[__builtin_ctz(rest)].result = red;
      break;
    }
  }
  hooks::collective_complete(tokens_, w.first, m, w.existing);
  // Results are computed from the values before anyone resumes; now release the lanes.
  unsigned ready = 0;
  for (unsigned rest = m; rest; rest &= rest - 1) {
    lane& l = L[__builtin_ctz(rest)];
    l.state = lane_state::ready;
    ready |= 1u << l.pos;
  }
  w.ready |= ready;
  if (op == warp_op::converge) w.conv &= ~m;
  else w.coll &= ~m;
  w.converged = w.alive;
}

std::string block_executor::describe_wait(const lane& l) const {
  if (has_exited(l)) return "has exited";
  switch (l.state) {
    case lane_state::at_barrier: {
      static const char* names[] = {"__syncthreads", "__syncthreads_count", "__syncthreads_and",
                                    "__syncthreads_or"};
      return std::string("waits in ") + names[static_cast<int>(l.bop)] + " at " + site(l.where);
    }
    case lane_state::at_collective:
      return std::string("waits in ") + warp_op_name(l.op) + " (mask " + hex(l.mask) + ") at " +
             site(l.where);
    case lane_state::exited: return "has exited";
    case lane_state::unstarted: return "has not started";
    default: return "is running";
  }
}

void block_executor::report_deadlock() {
  // Group consecutive threads that wait at the same place.
  std::ostringstream d;
  const lane* culprit = nullptr;
  std::size_t i = 0;
  while (i < lanes_.size()) {
    const lane& l = lanes_[i];
    if (has_exited(l)) { ++i; continue; }
    const std::string what = describe_wait(l);
    std::size_t j = i + 1;
    while (j < lanes_.size() && !has_exited(lanes_[j]) &&
           describe_wait(lanes_[j]) == what)
      ++j;
    d << "  thread" << (j - i > 1 ? "s " : " ") << triple(l.tid);
    if (j - i > 1) d << ".." << triple(lanes_[j - 1].tid);
    d << " " << what << "\n";
    if (!culprit && l.state == lane_state::at_collective) culprit = &l;
    i = j;
  }
  // Explain why the first waiting warp collective cannot complete.
  if (culprit) {
    const warp& w = warps_[culprit->warp];
    const unsigned m = culprit->mask & w.existing;
    for (unsigned j = 0; j < w.count; ++j) {
      const lane& o = lanes_[w.first + j];
      if ((m & (1u << j)) && o.state != lane_state::at_collective) {
        d << "  the " << warp_op_name(culprit->op) << " at " << site(culprit->where)
          << " cannot complete: lane " << j << " of its warp, named in mask " << hex(culprit->mask)
          << ", " << describe_wait(o) << "\n";
        break;
      }
    }
    if ((culprit->mask & ~w.existing) != 0) {
      d << "  (mask " << hex(culprit->mask) << " also names lanes that do not exist in this warp)\n";
    }
  } else {
    for (const lane& l : lanes_)
      if (l.state == lane_state::at_barrier) { culprit = &l; break; }
    d << "  __syncthreads cannot complete: " << at_barrier_ << " of " << live_
      << " threads still in the block have arrived\n";
  }
  if (!culprit) culprit = &lanes_.front();
  fault_report r;
  r.fault_class = "deadlock";
  r.kernel = launch_->kernel_name;
  r.block = block_idx_;
  r.thread = culprit->tid;
  r.file = culprit->where.file;
  r.line = culprit->where.line;
  r.details = d.str();
  r.error = cudaErrorLaunchFailure;
  report_fault(r);
  faulted_ = true;
  launch_->aborted = true;
}

void block_executor::fault_at(const lane& l, const char* fault_class, const std::string& details) {
  fault_report r;
  r.fault_class = fault_class;
  r.kernel = launch_->kernel_name;
  r.block = block_idx_;
  r.thread = l.tid;
  r.file = l.where.file;
  r.line = l.where.line;
  r.details = details;
  r.error = cudaErrorLaunchFailure;
  report_fault(r);
  faulted_ = true;
  launch_->aborted = true;
  if (running_ != &sched_) {
    // On a lane (the faulting one, or the one whose arrival found the fault): leave for good;
    // the scheduler abandons the block.
    switch_to(&sched_);
    std::abort();  // never resumed
  }
}

void block_executor::fault_current_lane(const char* fault_class, const char* file, int line,
                                        const std::string& details, cudaError_t error,
                                        bool fails_process) {
  lane& l = *cur();
  fault_report r;
  r.fault_class = fault_class;
  r.kernel = launch_->kernel_name;
  r.block = block_idx_;
  r.thread = l.tid;
  r.file = file;
  r.line = line;
  r.details = details;
  r.error = error;
  r.fails_process = fails_process;
  report_fault(r);
  faulted_ = true;
  launch_->aborted = true;
  switch_to(&sched_);
  std::abort();  // never resumed
}

void block_executor::abandon_block() {
  // Runners still holding lanes are suspended inside user code; unwinding them would run
  // user destructors in a broken state, so they and their stacks are deliberately leaked.
  for (lane& l : lanes_) {
    if (!has_exited(l) && l.state != lane_state::unstarted && l.run) {
      l.run->on = nullptr;
      l.run = nullptr;
    }
  }
}

}  // namespace cuemu::detail
