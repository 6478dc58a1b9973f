// assert() and __trap() in device code. glibc's assert macro calls __assert_fail; the program's own
// definition here takes precedence over the C library's, whichever header order the user has.
// On a CUDA thread a failed assertion prints CUDA's message and ends the kernel with
// cudaErrorAssert (sticky, like a GPU); in host code it behaves as glibc's does.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "exec/current_thread.h"

extern "C" [[noreturn]] void __assert_fail(const char* assertion, const char* file,
                                           unsigned int line, const char* function) noexcept {
  using namespace cuemu::detail;
  uint3 block{}, thread{};
  if (!describe_current_thread(block, thread)) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, assertion);
    std::abort();
  }
  // The line a GPU prints, then the emulator's report.
  char gpu_line[1024];
  std::snprintf(gpu_line, sizeof gpu_line,
                "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file,
                line, function, block.x, block.y, block.z, thread.x, thread.y, thread.z, assertion);
  std::fflush(stdout);
  std::fputs(gpu_line, stderr);
  fault_current_thread("device-side assertion failed", file, static_cast<int>(line),
                        std::string("  assert(") + assertion + ") in " + function + "\n",
                        cudaErrorAssert, /*fails_process=*/false);
}

namespace cuemu::detail {
// __trap(): a GPU ends the kernel with cudaErrorLaunchFailure ("unspecified launch failure").
[[noreturn]] void device_trap(const char* file, int line) noexcept {
  uint3 block{}, thread{};
  if (!describe_current_thread(block, thread)) {
    std::fflush(stdout);
    std::fprintf(stderr, "cuemu: __trap() called from host code at %s:%d\n", file, line);
    std::abort();
  }
  fault_current_thread("trap", file, line,
                        "  __trap() ends the kernel; the program sees cudaErrorLaunchFailure "
                        "(unspecified launch failure)\n",
                        cudaErrorLaunchFailure, /*fails_process=*/false);
}

[[noreturn]] void device_unsupported(const char* what, const char* file, int line) noexcept {
  uint3 block{}, thread{};
  if (!describe_current_thread(block, thread)) {
    std::fflush(stdout);
    std::fprintf(stderr, "cuemu: %s (called from host code at %s:%d)\n", what, file, line);
    std::abort();
  }
  std::fflush(stdout);
  std::fprintf(stderr, "%s:%d: block: [%u,%u,%u], thread: [%u,%u,%u] %s\n", file, line, block.x,
               block.y, block.z, thread.x, thread.y, thread.z, what);
  fault_current_thread("unsupported by the emulator", file, line, std::string("  ") + what + "\n",
                        cudaErrorAssert, /*fails_process=*/true);
}
}  // namespace cuemu::detail
