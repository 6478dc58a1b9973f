// What the checkers may ask of the executor about the CUDA thread running on the calling worker,
// and the one thing they may ask it to do (end that thread with a fault). The checkers in
// src/check reach the executor through this header only; the executor tells them of its events
// through check/events.h.
#pragma once

#include <string>

#include <boost/context/stack_context.hpp>
#include <driver_types.h>
#include <vector_types.h>

#include "exec/grid.h"
#include "exec/stack_pool.h"

namespace cuemu::detail {

// All of these answer for the calling worker; false / nullptr / -1 outside a CUDA thread.
bool describe_current_thread(uint3& block, uint3& thread) noexcept;
const launch_state* current_thread_launch() noexcept;
// The linear index of the running CUDA thread in its block.
int current_thread_index() noexcept;
// The stack of the running CUDA thread (for the stack-overflow report).
const boost::context::stack_context* current_thread_stack() noexcept;

// Ends the running CUDA thread with a fault: the report is printed, the error made sticky, the
// rest of the grid abandoned. Only on a CUDA thread (describe_current_thread true); does not
// return.
[[noreturn]] void fault_current_thread(const char* fault_class, const char* file, int line,
                                       const std::string& details, cudaError_t error,
                                       bool fails_process = true);

}  // namespace cuemu::detail
