#include "check/grid_findings.h"

#include <algorithm>
#include <vector>

#include "exec/current_thread.h"
#include "exec/grid.h"

namespace cuemu::detail {
namespace {
std::mutex g_all_mutex;
std::vector<grid_findings*>& all_findings() {
  static std::vector<grid_findings*> all;
  return all;
}
}  // namespace

grid_findings::grid_findings(int max_reports) : max_reports_(max_reports) {
  std::lock_guard<std::mutex> lock(g_all_mutex);
  all_findings().push_back(this);
}

void report_held_findings() {
  std::unique_lock<std::mutex> lock(g_all_mutex, std::try_to_lock);
  if (!lock.owns_lock()) return;
  for (grid_findings* f : all_findings()) f->report_all_now();
}

void grid_findings::report_all_now() {
  std::vector<const launch_state*> grids;
  {
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return;
    for (const auto& [grid, held] : held_) grids.push_back(grid);
  }
  for (const launch_state* g : grids) grid_end(g);
}

std::uint64_t current_thread_order() noexcept {
  const launch_state* l = current_thread_launch();
  uint3 b, t;
  if (!l || !describe_current_thread(b, t)) return 0;
  const dim3 g = l->grid, d = l->block;
  return (std::uint64_t{b.x + g.x * (b.y + g.y * b.z)} << 32) | (t.x + d.x * (t.y + d.y * t.z));
}

bool grid_findings::wanted(const launch_state* grid, const place& p, std::uint64_t order) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (reports_ >= max_reports_ || reported_.count(p)) return false;
  if (!grid) return true;
  auto g = held_.find(grid);
  if (g == held_.end()) return true;
  auto it = g->second.find(p);
  return it == g->second.end() || order < it->second.order;
}

void grid_findings::hold(const launch_state* grid, const place& p, std::uint64_t order,
                         fault_report r, const char* file) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, fresh] = held_[grid].try_emplace(p);
  if (!fresh && it->second.order <= order) return;
  it->second.order = order;
  it->second.report = std::move(r);
  it->second.file = file ? file : "";
}

void grid_findings::report_once(const place& p, const fault_report& r) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (reports_ >= max_reports_ || !reported_.insert(p).second) return;
    ++reports_;
  }
  report_fault(r);
}

void grid_findings::grid_end(const launch_state* grid) {
  std::vector<std::pair<place, held>> found;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = held_.find(grid);
    if (it == held_.end()) return;
    for (auto& [p, h] : it->second) found.emplace_back(p, std::move(h));
    held_.erase(it);
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.second.order < b.second.order; });
  for (auto& [p, h] : found) {
    h.report.file = h.file.empty() ? nullptr : h.file.c_str();
    report_once(p, h.report);
  }
}

}  // namespace cuemu::detail
