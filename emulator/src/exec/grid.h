// One kernel launch as the executor sees it: what to run, on which grid, and its shared state.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <cuemu/launch.h>
#include <cuemu/sync_functions.h>
#include <vector_types.h>

namespace cuemu::detail {

class pool_job;
struct launch_state;

// Work a grid's CUDA threads issued through the device runtime (dynamic parallelism): a child
// grid, or a copy or memset. It runs once the grid's blocks have finished, in the order (tail
// launches last, launching block, issue order); each child grid's own work runs right after it.
// Since CUDA 12 a parent cannot wait for its children (cudaDeviceSynchronize is gone from device
// code) and its grid completes only after all of them, so this is one of a GPU's schedules.
struct device_work {
  std::size_t block = 0;   // linear index of the issuing block
  std::uint64_t seq = 0;   // issue order within the grid
  bool tail = false;       // cudaStreamTailLaunch: after all the grid's other work
  std::shared_ptr<launch_state> grid;  // a child grid (its parameters owned by it), or
  std::function<void()> op;            // a copy or memset
};

struct launch_state {
  kernel_entry entry;
  std::string kernel_name;  // readable: "ns::k<float, 4>"
  dim3 grid, block;
  std::size_t dynamic_shared = 0;
  source_location site{nullptr, 0};  // the launch in host code
  std::atomic<bool> aborted{false};  // a fault in one block stops the others
  bool cooperative = false;          // cudaLaunchCooperativeKernel: this_grid().sync() allowed
  void* check_work = nullptr;        // the streams checker's work item the grid belongs to

  // Blocks in flight. A block whose threads all spin (or wait at this_grid().sync()) keeps its
  // worker thread and asks the pool for a helper thread to take the grid's next block, up to the
  // number of blocks an H200 keeps resident at once (exec/progress.cpp).
  std::size_t blocks = 0;                     // gridDim.x * gridDim.y * gridDim.z
  pool_job* job = nullptr;                    // the worker pool's job running its blocks
  int max_dynamic_shared = 0;                 // the kernel's attribute (occupancy)
  std::atomic<std::size_t> finished{0};       // blocks finished (cooperative launches)
  std::atomic<std::size_t> stalled{0};        // blocks waiting in their stall back-off now
  std::atomic<unsigned long long> progress{0};  // bumped when a stalled block moves on
  std::atomic<bool> livelock{false};          // reported (once per launch)
  std::atomic<unsigned> preempt_helpers{0};   // helpers asked for by preempted blocks

  // this_grid().sync() of a cooperative launch: blocks arrived in this generation.
  struct grid_barrier {
    std::mutex mutex;
    std::condition_variable cv;
    std::size_t arrived = 0;
    unsigned long long generation = 0;
  };
  std::unique_ptr<grid_barrier> grid_sync;  // made for cooperative launches only

  // Dynamic parallelism: 0 for a grid launched from the host, else its parent's depth + 1.
  int depth = 0;
  std::mutex work_mutex;
  std::vector<device_work> device_launched;  // issued by this grid's threads, not yet run
  std::atomic<std::uint64_t> issued{0};
};

// Blocks of the launch in flight now (run by a worker or helper), and finished
// (exec/progress.cpp; counted when asked, so that blocks pay nothing for them).
std::size_t in_flight(const launch_state& launch);
std::size_t finished(const launch_state& launch);

// The blocks of `launch`'s kernel an H200 keeps resident at once: multiprocessors x the blocks
// one of them keeps (block size, dynamic shared memory; runtime/launch.cpp). Computed when asked.
std::size_t resident_grid_limit(const launch_state& launch);
// The blocks one multiprocessor keeps resident (the occupancy rules of cudaOccupancy*).
int resident_blocks_per_multiprocessor(unsigned block_threads, std::size_t dynamic_shared,
                                       int max_dynamic_shared);

// Runs every block of the launch on the worker pool, then the work its threads launched (and
// theirs); returns when all are done (or aborted).
void run_grid(launch_state& launch);

// The linear index of the calling CUDA thread's block in `launch`'s grid.
inline std::size_t linear_block_index(const launch_state& launch) noexcept {
  return (static_cast<std::size_t>(blockIdx.z) * launch.grid.y + blockIdx.y) * launch.grid.x +
         blockIdx.x;
}

// Queues work issued by a CUDA thread of `launch`'s block `block` (runtime/device_runtime.cpp).
void issue_device_work(launch_state& launch, std::size_t block, device_work w);

// Readable kernel name from the translator's spelling and __PRETTY_FUNCTION__.
std::string kernel_display_name(const char* spelled, const char* pretty);

}  // namespace cuemu::detail
