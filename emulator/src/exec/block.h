// The block executor: runs the CUDA threads of one block as coroutines under warp-synchronous
// scheduling. One executor per worker OS thread; a worker runs one block at a time.
//
// Coroutines on demand: a "runner" coroutine starts lanes of a warp one after another as plain
// calls. Only when a lane reaches a synchronisation point does its runner stay with it
// (suspended), and the next lane is started on another runner. A kernel that never
// synchronises therefore runs all its threads on one runner, with no context switch per thread.
#pragma once

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exec/check_hooks.h"
#include "exec/grid.h"
#include "exec/stack_pool.h"

namespace cuemu::detail {

enum class lane_state : std::uint8_t { unstarted, running, ready, at_barrier, at_collective, exited };

class block_executor {
 public:
  explicit block_executor(std::size_t stack_size);
  ~block_executor();
  block_executor(const block_executor&) = delete;
  block_executor& operator=(const block_executor&) = delete;

  // Runs one block to completion. Returns false if it faulted (the fault is reported).
  bool run(launch_state& launch, uint3 block_idx, std::uint64_t schedule_salt);

  // Called on a lane (a CUDA thread of the running block).
  int barrier(barrier_op op, int predicate, source_location where);
  std::uint64_t collective(warp_op op, unsigned mask, std::uint64_t value, int arg, int width,
                           source_location where);
  unsigned active_mask() const noexcept;
  unsigned lane_id() const noexcept;

  // The stack of the lane now running (for the stack-overflow report), or nullptr.
  const boost::context::stack_context* current_stack() const noexcept;
  bool describe_current(uint3& block, uint3& thread) const noexcept;
  const launch_state* current_launch() const noexcept { return launch_; }

  // Ends the running CUDA thread with a fault (e.g. a failed device-side assert): the report is
  // printed, the error made sticky, the rest of the grid abandoned. Does not return.
  [[noreturn]] void fault_current_lane(const char* fault_class, const char* file, int line,
                                       const std::string& details, cudaError_t error);

 private:
  struct runner;
  struct lane {
    uint3 tid{0, 0, 0};
    unsigned index = 0, warp = 0, lane_id = 0;
    lane_state state = lane_state::unstarted;
    runner* run = nullptr;
    // The synchronisation point it waits at.
    warp_op op = warp_op::syncwarp;
    barrier_op bop = barrier_op::sync;
    unsigned mask = 0;
    int arg = 0, width = 32;
    std::uint64_t value = 0, result = 0;
    unsigned participants = 0;  // of the warp collective it took part in
    unsigned generation = 0;    // of the barrier it waits at
    unsigned collectives = 0;   // warp collectives entered so far (racecheck token parity)
    unsigned peer_parities = 0; // racecheck: parities of the participants at completion
    source_location where{nullptr, 0};
  };
  struct warp {
    unsigned first = 0, count = 0;  // lanes [first, first + count)
    unsigned existing = 0;          // mask of lanes that exist (a partial last warp has fewer)
    unsigned converged = 0;         // __activemask(): lanes not exited at the last sync point
    std::vector<unsigned> order;    // lane indices within the warp, in schedule order
    unsigned next_unstarted = 0;    // position in order
  };
  struct runner {
    boost::context::fiber ctx;
    boost::context::stack_context stack{};
    lane* on = nullptr;
    void* tsan_fiber = nullptr;  // racecheck: this runner's ThreadSanitizer fiber
    bool retired = false;        // racecheck: ran its one lane; destroyed by the scheduler
  };

  runner* make_runner();
  runner* take_runner();
  void resume(runner* r);
  void yield_to_scheduler();
  hooks::switch_target target_of(const runner* r) const;
  boost::context::fiber runner_main(runner* self, boost::context::fiber&& scheduler);
  void start_lane(lane& l);

  bool advance_warp(warp& w);
  bool resolve_collectives(warp& w);
  void complete_barrier();
  void update_converged(warp& w);
  void complete_collective(warp& w, unsigned participants, const lane& first);
  void fault_at(const lane& l, const char* fault_class, const std::string& details);
  void report_deadlock();
  std::string describe_wait(const lane& l) const;
  void abandon_block();

  pooled_stack allocator_;
  std::unique_ptr<stack_pool> stacks_;
  std::vector<runner*> idle_;
  boost::context::fiber scheduler_;  // held by the running runner while a lane runs
  hooks::switch_target scheduler_target_;  // the worker's own stack and TSan fiber
  block_tokens* tokens_ = nullptr;
  unsigned barrier_generation_ = 0;

  launch_state* launch_ = nullptr;
  uint3 block_idx_{0, 0, 0};
  std::vector<lane> lanes_;
  std::vector<warp> warps_;
  std::vector<unsigned> warp_order_;
  warp* starting_ = nullptr;   // the warp whose unstarted lanes runners take
  lane* current_ = nullptr;    // the lane running now
  runner* running_ = nullptr;  // the runner running now
  unsigned live_ = 0;          // threads not exited
  unsigned at_barrier_ = 0;
  bool faulted_ = false;
  bool shutting_down_ = false;
};

// The executor of the calling worker thread, or nullptr outside a block.
block_executor* current_executor() noexcept;
// The worker's executor, created on first use with the configured stack size.
block_executor& worker_executor();

}  // namespace cuemu::detail
