// synccheck: CUDA's rules for barriers and warp collectives, as an observer of the executor's
// synchronisation events. The executor calls these only when --check=synccheck is on, and raises
// the fault they describe on the thread they name.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <cuemu/sync_functions.h>
#include <vector_types.h>

namespace cuemu::detail::synccheck {

// A thread waiting at a barrier that has just completed.
struct barrier_wait {
  uint3 thread;
  barrier_op op;
  source_location where;
};

// On barrier_complete: `waits` in the block's thread order. If two threads wait at different
// __syncthreads (call sites or variants), the report's details, and in *culprit the index in
// `waits` of the thread to blame; else an empty string.
std::string barrier_divergence(const std::vector<barrier_wait>& waits, std::size_t* culprit);

// On shuffle_source: lane `lane` of a shuffle with `mask` reads lane `source`, outside the mask
// (its value is undefined on a GPU). The report's details.
std::string shuffle_source_outside_mask(warp_op op, unsigned lane, unsigned source, unsigned mask);

}  // namespace cuemu::detail::synccheck
