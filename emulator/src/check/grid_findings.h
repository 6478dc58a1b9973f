// Findings of a grid's CUDA threads held until the grid ends, so that a report names the same
// thread at any worker count and schedule: of the threads that meet a finding at one place (a
// checker's key: the access's code and the other side's), the first in block and thread order.
// Reported at once, in the order the workers ran, the report named whichever block a worker
// reached first. Each checker keeps its own (its places, its limit of reports).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "check/report.h"

namespace cuemu::detail {

struct launch_state;

// The calling CUDA thread's place in its grid: linear block << 32 | linear thread in the block
// (0 outside a CUDA thread).
std::uint64_t current_thread_order() noexcept;

class grid_findings {
 public:
  using place = std::pair<std::uintptr_t, std::size_t>;
  explicit grid_findings(int max_reports);

  // Whether a finding of the calling CUDA thread (of `order`) at `p` could still be reported:
  // not reported before, under the limit, no earlier thread of its grid holding one there.
  // Answers true outside a grid (the caller then reports at once).
  bool wanted(const launch_state* grid, const place& p, std::uint64_t order);
  // Holds the finding for the grid's end (kept only if no earlier thread holds one at `p`).
  // `file` is what r.file points to (the report keeps its own copy).
  void hold(const launch_state* grid, const place& p, std::uint64_t order, fault_report r,
            const char* file);
  // Reports a finding now unless `p` was reported before or the limit is reached.
  void report_once(const place& p, const fault_report& r);
  // The grid has ended: its held findings are reported in block and thread order.
  void grid_end(const launch_state* grid);
  // The process ends before its grids do (--timeout): every held finding is reported, unless a
  // frozen worker holds the lock.
  void report_all_now();

 private:
  struct held {
    std::uint64_t order = 0;
    fault_report report;
    std::string file;
  };
  std::mutex mutex_;
  std::set<place> reported_;
  int reports_ = 0;
  const int max_reports_;
  std::map<const launch_state*, std::map<place, held>> held_;
};

// What every checker's grid_findings holds, reported now (the timeout's report calls it first).
void report_held_findings();

}  // namespace cuemu::detail
