// Shared memory as the scheduler manages it: the per-worker dynamic buffer and, in the checking
// modes, the per-block heap objects that __shared__ variables become (cuemu/shared_memory.h).
#pragma once

#include <cstddef>

namespace cuemu::detail {

struct launch_state;

// Called by a worker before the lanes of a block run / after they all ended.
void shared_memory_block_begin(const launch_state& launch);
void shared_memory_block_end();
// Called on the host thread after the whole grid (racecheck frees the blocks' objects here,
// where every lane's accesses are ordered before the free).
void shared_memory_launch_end();

// Whether `base` is the start of a heap object made for a __shared__ variable (memcheck).
bool is_block_shared_object(const void* base) noexcept;

constexpr std::size_t kDynamicSharedCapacity = 232448;  // an H200's opt-in maximum (227 KiB)

}  // namespace cuemu::detail
