#include "check/report.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
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

// The process that this program image started in: a copy made by fork without exec (a death
// test's child, whose reports its parent expects and judges by its exit status; CUDA itself
// works in such a child only after exec) has another process id.
const pid_t g_image_process = ::getpid();

// `cuemu run` names a file (CUEMU_REPORTS) that every process of the program appends a line to
// per report that fails it: the driver fails the run on a report from a process whose exit
// status the program did not pass on (driver/main.cpp). Processes the program started with exec
// take part; forks that did not exec do not.
void tell_the_driver(const fault_report& r) {
  if (::getpid() != g_image_process) return;
  const char* path = std::getenv("CUEMU_REPORTS");
  if (!path || !*path) return;
  const int fd = ::open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return;
  char line[256];
  const int n = std::snprintf(line, sizeof line, "%d: %s\n", static_cast<int>(::getpid()),
                              r.fault_class.c_str());
  if (n > 0) (void)!::write(fd, line, std::min<std::size_t>(n, sizeof line - 1));
  ::close(fd);
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
  tell_the_driver(r);
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
