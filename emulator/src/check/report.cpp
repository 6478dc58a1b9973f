#include "check/report.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

std::atomic<int> g_faults{0};
std::atomic<bool> g_exit_nonzero{false};
std::mutex g_print;

void exit_nonzero_if_faulted() {
  if (g_exit_nonzero.load()) {
    std::fflush(nullptr);
    _exit(1);
  }
}

}  // namespace

void report_fault(const fault_report& r) {
  {
    std::lock_guard<std::mutex> lock(g_print);
    std::fflush(stdout);
    if (!r.origin.empty())
      std::fprintf(stderr, "cuemu: %s in %s at %s:%d\n", r.fault_class.c_str(), r.origin.c_str(),
                   r.file ? r.file : "<unknown>", r.line);
    else
      std::fprintf(stderr, "cuemu: %s in kernel %s block (%u,%u,%u) thread (%u,%u,%u) at %s:%d\n",
                   r.fault_class.c_str(), r.kernel.c_str(), r.block.x, r.block.y, r.block.z,
                   r.thread.x, r.thread.y, r.thread.z, r.file ? r.file : "<unknown>", r.line);
    if (!r.details.empty()) std::fputs(r.details.c_str(), stderr);
    std::fflush(stderr);
  }
  set_sticky_error(r.error);
  g_faults.fetch_add(1);
  if (!r.fails_process) return;
  static std::once_flag registered;
  std::call_once(registered, [] { std::atexit(exit_nonzero_if_faulted); });
  g_exit_nonzero.store(true);
}

int faults_reported() noexcept { return g_faults.load(); }

void reset_faults_for_testing() {
  g_exit_nonzero.store(false);
  reset_errors_for_testing();
}

}  // namespace cuemu::detail
