// One kernel launch as the executor sees it: what to run, on which grid, and its shared state.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>

#include <cuemu/launch.h>
#include <cuemu/sync_functions.h>
#include <vector_types.h>

namespace cuemu::detail {

struct launch_state {
  kernel_entry entry;
  std::string kernel_name;  // readable: "ns::k<float, 4>"
  dim3 grid, block;
  std::size_t dynamic_shared = 0;
  source_location site{nullptr, 0};  // the launch in host code
  std::atomic<bool> aborted{false};  // a fault in one block stops the others
};

// Runs every block of the launch on the worker pool; returns when all are done (or aborted).
void run_grid(launch_state& launch);

// Readable kernel name from the translator's spelling and __PRETTY_FUNCTION__.
std::string kernel_display_name(const char* spelled, const char* pretty);

}  // namespace cuemu::detail
