// Fault reports: the one place that prints "cuemu: <class> in kernel ..." and makes the
// process end with a non-zero status.
#pragma once

#include <string>

#include <driver_types.h>
#include <vector_types.h>

namespace cuemu::detail {

struct fault_report {
  std::string fault_class;  // "deadlock", "invalid warp synchronization", ...
  std::string kernel;
  // Not a CUDA thread's finding: what it is of ("host code", "cudaMemcpyAsync (issued to ...)");
  // the header then names it instead of a kernel, block and thread.
  std::string origin;
  uint3 block{0, 0, 0};
  uint3 thread{0, 0, 0};
  const char* file = nullptr;
  int line = 0;
  std::string details;  // further lines, each ending in '\n'
  cudaError_t error = cudaErrorLaunchFailure;  // the sticky error the program then sees
  // Whether the process must end non-zero whatever the program does. False for what a GPU shows
  // the program as an error it can handle (a device-side assert, __trap): its own exit status
  // stands, the report is on stderr.
  bool fails_process = true;
};

// Prints the report to stderr, makes `error` sticky, and (fails_process) arranges for the
// process to exit with a non-zero status even if the program ignores the error.
void report_fault(const fault_report& r);

// Number of faults reported so far (tests use it).
int faults_reported() noexcept;
// For in-process tests of faults: forget the reported faults and the sticky error.
void reset_faults_for_testing();

}  // namespace cuemu::detail
