// Faults of a block: the deadlock report (who waits where), faults found by the scheduler or
// raised on a lane, and abandoning a faulted block.
#include <cstdlib>
#include <sstream>

#include "check/report.h"
#include "exec/current_thread.h"
#include "exec/describe.h"
#include "exec/warp_scheduler.h"

namespace cuemu::detail {

std::string block_executor::describe_wait(const lane& l) const {
  if (has_exited(l)) return "has exited";
  switch (l.state) {
    case lane_state::at_barrier:
      return std::string("waits in ") + barrier_name(l.bop) + " at " + site(l.where);
    case lane_state::at_collective:
      return std::string("waits in ") + warp_op_name(l.op) + " (mask " + hex(l.mask) + ") at " +
             site(l.where);
    case lane_state::yielded: return "spins at " + spin_site(l);
    case lane_state::exited: return "has exited";
    case lane_state::unstarted: return "has not started";
    case lane_state::left_statement:
      return "waits at the end of the statement at " + site(fiber_.where) +
             ", which the loop path runs as coroutines (a GPU would let it run on to a later "
             "barrier; CUEMU_EXEC=fibers runs the kernel as written)";
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
    leave_regions();
    switch_to(&sched_);
    std::abort();  // never resumed
  }
}

void block_executor::fault_current_lane(const char* fault_class, const char* file, int line,
                                        const std::string& details, cudaError_t error,
                                        bool fails_process) {
  // Between two regions of a region block no thread runs: the block's first names it.
  lane& l = cur() ? *cur() : lanes_.front();
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
  leave_regions();
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

bool describe_current_thread(uint3& block, uint3& thread) noexcept {
  const block_executor* e = current_executor();
  return e && e->describe_current(block, thread);
}

const launch_state* current_thread_launch() noexcept {
  const block_executor* e = current_executor();
  return e ? e->current_launch() : nullptr;
}

int current_thread_index() noexcept {
  const block_executor* e = current_executor();
  return e ? e->current_thread_index() : -1;
}

const boost::context::stack_context* current_thread_stack() noexcept {
  const block_executor* e = current_executor();
  return e ? e->current_stack() : nullptr;
}

void fault_current_thread(const char* fault_class, const char* file, int line,
                          const std::string& details, cudaError_t error, bool fails_process) {
  current_executor()->fault_current_lane(fault_class, file, line, details, error, fails_process);
}

}  // namespace cuemu::detail
