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

thread_local block_executor* t_current = nullptr;

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

block_executor* current_executor() noexcept { return t_current; }

block_executor& worker_executor() {
  thread_local block_executor exec(options().stack_size);
  return exec;
}

block_executor::block_executor(std::size_t stack_size)
    : stacks_(std::make_unique<stack_pool>(stack_size)) {
  allocator_.pool = stacks_.get();
  scheduler_target_.tsan_fiber = hooks::current_fiber_context();
}

block_executor::~block_executor() {
  // Let idle runners leave their loop so their stacks go back to the pool. Runners still
  // holding a lane of an abandoned (faulted) block are left alone on purpose.
  shutting_down_ = true;
  std::vector<runner*> idle;
  idle.swap(idle_);
  for (runner* r : idle) {
    if (r->ctx) resume(r);
    hooks::destroy_fiber_context(r->tsan_fiber);
    delete r;
  }
}

block_executor::runner* block_executor::make_runner() {
  auto* r = new runner;
  r->ctx = boost::context::fiber(std::allocator_arg, recording_stack{stacks_.get(), &r->stack},
                                 [this, r](boost::context::fiber&& s) {
                                   return runner_main(r, std::move(s));
                                 });
  r->tsan_fiber = hooks::create_fiber_context();
  return r;
}

block_executor::runner* block_executor::take_runner() {
  if (idle_.empty()) return make_runner();
  runner* r = idle_.back();
  idle_.pop_back();
  return r;
}

void block_executor::resume(runner* r) {
  running_ = r;
  current_ = r->on;
  if (current_) threadIdx = current_->tid;
  r->ctx = switch_context(std::move(r->ctx), target_of(r));
  running_ = nullptr;
  current_ = nullptr;
  if (r->retired) {  // its coroutine has returned (racecheck: one lane per runner)
    hooks::destroy_fiber_context(r->tsan_fiber);
    delete r;
  }
}

hooks::switch_target block_executor::target_of(const runner* r) const {
  hooks::switch_target t;
  t.stack_bottom = stack_bottom(r->stack);
  t.stack_size = r->stack.size;
  t.tsan_fiber = r->tsan_fiber;
  return t;
}

void block_executor::yield_to_scheduler() {
  scheduler_ = switch_context(std::move(scheduler_), scheduler_target_);
}

boost::context::fiber block_executor::runner_main(runner* self, boost::context::fiber&& scheduler) {
  // First entry: learn the scheduler's stack for the sanitizers' switch annotations.
  hooks::after_switch(nullptr, &scheduler_target_.stack_bottom, &scheduler_target_.stack_size);
  scheduler_ = std::move(scheduler);
  while (!shutting_down_) {
    // Start the not yet started lanes of the warp being advanced, one after another, as plain
    // calls on this runner, until one of them stops at a synchronisation point.
    while (starting_ && !faulted_ && starting_->next_unstarted < starting_->count) {
      warp& w = *starting_;
      lane& l = lanes_[w.first + w.order[w.next_unstarted++]];
      l.run = self;
      self->on = &l;
      start_lane(l);
      self->on = nullptr;
      if (hooks::one_lane_per_runner) {
        self->retired = true;
        hooks::before_final_switch(scheduler_target_);
        return std::move(scheduler_);
      }
    }
    idle_.push_back(self);
    yield_to_scheduler();
  }
  hooks::before_final_switch(scheduler_target_);
  return std::move(scheduler_);
}

void block_executor::start_lane(lane& l) {
  l.state = lane_state::running;
  current_ = &l;
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
  l.state = lane_state::exited;
  --live_;
  current_ = nullptr;
}

bool block_executor::run(launch_state& launch, uint3 block_idx, std::uint64_t schedule_salt) {
  launch_ = &launch;
  block_idx_ = block_idx;
  faulted_ = false;
  block_executor* outer = t_current;
  t_current = this;
  blockIdx = block_idx;
  blockDim = launch.block;
  gridDim = launch.grid;

  const exec_options& opt = options();
  std::mt19937_64 rng(opt.seed * 0x9e3779b97f4a7c15ull + schedule_salt);
  const dim3 b = launch.block;
  const unsigned n = b.x * b.y * b.z;
  lanes_.assign(n, lane{});
  for (unsigned i = 0; i < n; ++i) {
    lane& l = lanes_[i];
    l.tid = uint3{i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
    l.index = i;
    l.warp = i / 32;
    l.lane_id = i % 32;
  }
  const unsigned nwarps = (n + 31) / 32;
  warps_.resize(nwarps);
  warp_order_.resize(nwarps);
  for (unsigned wi = 0; wi < nwarps; ++wi) {
    warp& w = warps_[wi];
    w.first = wi * 32;
    w.count = std::min(32u, n - w.first);
    w.existing = w.count == 32 ? ~0u : ((1u << w.count) - 1);
    w.converged = w.existing;
    w.order.resize(w.count);
    for (unsigned k = 0; k < w.count; ++k) w.order[k] = k;
    permute(w.order, opt.schedule, rng);
    w.next_unstarted = 0;
    warp_order_[wi] = wi;
  }
  permute(warp_order_, opt.schedule, rng);
  live_ = n;
  at_barrier_ = 0;
  barrier_generation_ = 0;
  shared_memory_block_begin(launch);
  tokens_ = hooks::block_begin(launch);

  bool ok = true;
  for (;;) {
    bool progress = false;
    for (unsigned wi : warp_order_) {
      progress |= advance_warp(warps_[wi]);
      if (faulted_) break;
    }
    if (faulted_) {
      ok = false;
      break;
    }
    if (live_ == 0) break;
    if (at_barrier_ == live_) {
      complete_barrier();
      continue;
    }
    if (!progress) {
      report_deadlock();
      ok = false;
      break;
    }
  }
  if (!ok) abandon_block();
  hooks::block_end(tokens_);
  tokens_ = nullptr;
  if (ok) shared_memory_block_end();  // a faulted block's lanes may still point into it
  starting_ = nullptr;
  t_current = outer;
  launch_ = nullptr;
  return ok;
}

bool block_executor::advance_warp(warp& w) {
  bool progress = false;
  starting_ = &w;
  for (;;) {
    bool did = false;
    while (w.next_unstarted < w.count && !faulted_) {
      resume(take_runner());
      did = true;
    }
    for (unsigned pos = 0; pos < w.count && !faulted_; ++pos) {
      lane& l = lanes_[w.first + w.order[pos]];
      if (l.state == lane_state::ready) {
        resume(l.run);
        did = true;
      }
    }
    if (faulted_) return true;
    if (!did && !resolve_collectives(w)) break;
    progress = true;
  }
  starting_ = nullptr;
  return progress;
}

int block_executor::barrier(barrier_op op, int predicate, source_location where) {
  lane& l = *current_;
  l.state = lane_state::at_barrier;
  l.bop = op;
  l.value = predicate != 0;
  l.where = where;
  l.generation = barrier_generation_;
  ++at_barrier_;
  hooks::barrier_arrive(tokens_, l.generation);
  yield_to_scheduler();
  hooks::barrier_depart(tokens_, l.generation);
  return static_cast<int>(l.result);
}

std::uint64_t block_executor::collective(warp_op op, unsigned mask, std::uint64_t value, int arg,
                                         int width, source_location where) {
  lane& l = *current_;
  l.op = op;
  l.mask = mask;
  l.where = where;
  if (!(mask & (1u << l.lane_id))) {
    fault_at(l, "invalid warp synchronization",
             std::string("  ") + warp_op_name(op) + " called by lane " + std::to_string(l.lane_id) +
                 " with mask " + hex(mask) + ", which does not name the calling lane\n");
  }
  const bool shuffle = op == warp_op::shfl_idx || op == warp_op::shfl_up ||
                       op == warp_op::shfl_down || op == warp_op::shfl_xor;
  if (shuffle && (width < 1 || width > 32 || (width & (width - 1)) != 0)) {
    fault_at(l, "invalid warp synchronization",
             std::string("  ") + warp_op_name(op) + " with width " + std::to_string(width) +
                 ": width must be a power of two from 1 to 32\n");
  }
  l.state = lane_state::at_collective;
  l.value = value;
  l.arg = arg;
  l.width = width;
  hooks::collective_arrive(tokens_, l.index, l.collectives & 1u);
  yield_to_scheduler();
  hooks::collective_depart(tokens_, l.index - l.lane_id, l.participants, l.peer_parities);
  ++l.collectives;
  return l.result;
}

unsigned block_executor::active_mask() const noexcept {
  return current_ ? warps_[current_->warp].converged : 0;
}

unsigned block_executor::lane_id() const noexcept { return current_ ? current_->lane_id : 0; }

const boost::context::stack_context* block_executor::current_stack() const noexcept {
  return running_ ? &running_->stack : nullptr;
}

bool block_executor::describe_current(uint3& block, uint3& thread) const noexcept {
  if (!current_) return false;
  block = block_idx_;
  thread = current_->tid;
  return true;
}

void block_executor::complete_barrier() {
  if (options().synccheck) {
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
  unsigned count = 0;
  for (const lane& l : lanes_)
    if (l.state == lane_state::at_barrier && l.value) ++count;
  for (lane& l : lanes_) {
    if (l.state != lane_state::at_barrier) continue;
    switch (l.bop) {
      case barrier_op::sync: l.result = 0; break;
      case barrier_op::count: l.result = count; break;
      case barrier_op::and_: l.result = count == at_barrier_; break;
      case barrier_op::or_: l.result = count != 0; break;
    }
    l.state = lane_state::ready;
  }
  at_barrier_ = 0;
  ++barrier_generation_;
  for (warp& w : warps_) update_converged(w);
}

void block_executor::update_converged(warp& w) {
  unsigned m = 0;
  for (unsigned k = 0; k < w.count; ++k)
    if (lanes_[w.first + k].state != lane_state::exited) m |= 1u << k;
  w.converged = m;
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
      if (o.state == lane_state::exited) {
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
    if (o.state != lane_state::exited && o.state != lane_state::at_collective &&
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

void block_executor::complete_collective(warp& w, unsigned m, const lane& first) {
  auto at = [&](unsigned j) -> lane& { return lanes_[w.first + j]; };
  std::uint64_t ballot = 0;
  for (unsigned j = 0; j < 32; ++j)
    if ((m & (1u << j)) && at(j).value) ballot |= 1u << j;
  const warp_op op = first.op;
  // Fold for the __reduce_*_sync family.
  std::uint32_t red = 0;
  bool seeded = false;
  for (unsigned j = 0; j < 32 && op >= warp_op::reduce_add_u; ++j) {
    if (!(m & (1u << j))) continue;
    const std::uint32_t v = static_cast<std::uint32_t>(at(j).value);
    if (!seeded) { red = v; seeded = true; continue; }
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
  bool all_equal = true;
  for (unsigned j = 0; j < 32; ++j)
    if ((m & (1u << j)) && at(j).value != first.value) all_equal = false;

  for (unsigned i = 0; i < 32; ++i) {
    if (!(m & (1u << i))) continue;
    lane& l = at(i);
    switch (op) {
      case warp_op::syncwarp: l.result = 0; break;
      case warp_op::shfl_idx: case warp_op::shfl_up: case warp_op::shfl_down:
      case warp_op::shfl_xor: {
        // PTX shfl.sync semantics: segmask selects the segment of `width` lanes; a source
        // outside the allowed range reads the caller's own value.
        const unsigned lane_no = l.lane_id;
        const unsigned segmask = (32u - static_cast<unsigned>(l.width)) & 31u;
        const unsigned b = static_cast<unsigned>(l.arg) & 31u;
        const unsigned min_lane = lane_no & segmask;
        const unsigned max_lane = min_lane | (31u & ~segmask);
        int j = 0;
        bool valid = true;
        switch (op) {
          case warp_op::shfl_up:
            j = static_cast<int>(lane_no) - static_cast<int>(b);
            valid = j >= static_cast<int>(min_lane);
            break;
          case warp_op::shfl_down:
            j = static_cast<int>(lane_no + b);
            valid = j <= static_cast<int>(max_lane);
            break;
          case warp_op::shfl_xor:
            j = static_cast<int>(lane_no ^ b);
            valid = j <= static_cast<int>(max_lane);
            break;
          default:
            j = static_cast<int>(min_lane | (b & ~segmask));
            valid = j <= static_cast<int>(max_lane);
            break;
        }
        if (valid && !(m & (1u << j)) && options().synccheck) {
          fault_at(l, "invalid warp synchronization",
                   std::string("  ") + warp_op_name(op) + " in lane " + std::to_string(lane_no) +
                       " reads lane " + std::to_string(j) + ", which is not in mask " + hex(l.mask) +
                       " (the value is undefined on a GPU)\n");
          return;
        }
        if (!valid || !(m & (1u << j))) j = static_cast<int>(lane_no);
        l.result = at(static_cast<unsigned>(j)).value;
        break;
      }
      case warp_op::ballot: l.result = ballot; break;
      case warp_op::any: l.result = ballot != 0; break;
      case warp_op::all: l.result = ballot == m; break;
      case warp_op::match_any: {
        std::uint64_t same = 0;
        for (unsigned j = 0; j < 32; ++j)
          if ((m & (1u << j)) && at(j).value == l.value) same |= 1u << j;
        l.result = same;
        break;
      }
      case warp_op::match_all: l.result = all_equal ? m : 0; break;
      case warp_op::converge: l.result = m; break;
      default: l.result = red; break;
    }
  }
  // Results are computed from the values before anyone resumes; now release the lanes.
  unsigned parities = 0;
  for (unsigned i = 0; i < 32; ++i)
    if ((m & (1u << i)) && (at(i).collectives & 1u)) parities |= 1u << i;
  for (unsigned i = 0; i < 32; ++i)
    if (m & (1u << i)) {
      at(i).participants = m;
      at(i).peer_parities = parities;
      at(i).state = lane_state::ready;
    }
  update_converged(w);
}

std::string block_executor::describe_wait(const lane& l) const {
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
    if (l.state == lane_state::exited) { ++i; continue; }
    const std::string what = describe_wait(l);
    std::size_t j = i + 1;
    while (j < lanes_.size() && lanes_[j].state != lane_state::exited &&
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
  if (current_ == &l) {
    // On the faulting lane: leave for good; the scheduler abandons the block.
    yield_to_scheduler();
    std::abort();  // never resumed
  }
}

void block_executor::fault_current_lane(const char* fault_class, const char* file, int line,
                                        const std::string& details, cudaError_t error) {
  lane& l = *current_;
  fault_report r;
  r.fault_class = fault_class;
  r.kernel = launch_->kernel_name;
  r.block = block_idx_;
  r.thread = l.tid;
  r.file = file;
  r.line = line;
  r.details = details;
  r.error = error;
  report_fault(r);
  faulted_ = true;
  launch_->aborted = true;
  yield_to_scheduler();
  std::abort();  // never resumed
}

void block_executor::abandon_block() {
  // Runners still holding lanes are suspended inside user code; unwinding them would run
  // user destructors in a broken state, so they and their stacks are deliberately leaked.
  for (lane& l : lanes_) {
    if (l.state != lane_state::exited && l.state != lane_state::unstarted && l.run) {
      l.run->on = nullptr;
      l.run = nullptr;
    }
  }
}

}  // namespace cuemu::detail
