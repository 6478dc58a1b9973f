// The block executor: runs the CUDA threads of one block as coroutines under warp-synchronous
// scheduling. One executor per worker OS thread; a worker runs one block at a time.
//
// Coroutines on demand: a "runner" coroutine starts lanes one after another as plain calls. Only
// when a lane reaches a synchronisation point does its runner stay with it (suspended), and the
// next lane is started on another runner. A kernel that never synchronises therefore runs all its
// threads on one runner, with no context switch per thread. In the plain build a warp's lanes
// start in the kernel's own loop (run_lane_batch), their exits accounted for once per batch.
//
// Direct switches: a lane arriving at a synchronisation point records its arrival (O(1): counters
// and masks), and if that arrival completes the barrier or the warp collective, computes the
// results once for every participant. It then picks the next lane to run (`pick`: the warp being
// advanced first, its lanes round robin in schedule order, then the next warp) and switches
// straight to that lane's runner; the worker's own context (the "scheduler") is only resumed when
// the block is done, deadlocked or faulted. Every switch goes through switch_context
// (context_switch.h); a runner resumed by another runner stores the continuation of the runner
// that switched to it (`from_`).
#pragma once

#include <boost/context/fiber.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "check/events.h"
#include "exec/grid.h"
#include "exec/stack_pool.h"

namespace cuemu::detail {

// Whether the blocks of a launch run as loops over threads (exec/region_block.cpp): its kernel has
// a region form, CUEMU_EXEC is not `fibers`, and no checking mode observes each thread.
bool runs_as_loops(const launch_state& launch) noexcept;

struct region_block;

enum class lane_state : std::uint8_t {
  unstarted, running, ready, at_barrier, at_collective, yielded, exited,
  left_statement  // finished a statement a region form runs as coroutines (region_block::fibers)
};

class block_executor {
 public:
  explicit block_executor(std::size_t stack_size);
  ~block_executor();
  block_executor(const block_executor&) = delete;
  block_executor& operator=(const block_executor&) = delete;

  // Runs one block to completion. Returns false if it faulted (the fault is reported).
  bool run(launch_state& launch, uint3 block_idx, std::uint64_t schedule_salt);

  // The entry points of the intrinsics: the calling worker's executor (one TLS read), or a
  // report and abort when called outside a kernel.
  static int barrier_entry(barrier_op op, int predicate, source_location where);
  static std::uint64_t collective_entry(warp_op op, unsigned mask, std::uint64_t value, int arg,
                                        int width, source_location where);

  // Called on a lane (a CUDA thread of the running block).
  int barrier(barrier_op op, int predicate, source_location where);
  std::uint64_t collective(warp_op op, unsigned mask, std::uint64_t value, int arg, int width,
                           source_location where);
  unsigned active_mask() const noexcept;
  // Whether the running lane's last step was a warp collective (active_mask() is its participants).
  bool after_collective() const noexcept;
  // A poll of the running lane found it spinning (cuemu/progress.h): yield it so that the other
  // lanes of the block, and the other blocks of the grid, run. `now`: __nanosleep.
  void spin(const void* pc, bool now);
  // The running lane was interrupted in user code after running a whole time slice without a
  // switch (exec/preempt.cpp, from a signal handler on the lane's stack): let the others run.
  void preempt();
  // For the preemption timer: the lane running now (nullptr between lanes; in a batch, the one
  // its threadIdx names).
  const void* running_lane() const noexcept { return cur(); }
  unsigned lane_id() const noexcept;

  // The stack of the lane now running (for the stack-overflow report), or nullptr.
  const boost::context::stack_context* current_stack() const noexcept;
  bool describe_current(uint3& block, uint3& thread) const noexcept;
  // The linear index in its block of the CUDA thread running now, or -1 (racecheck's accesses).
  int current_thread_index() const noexcept {
    const lane* l = cur();
    return l ? static_cast<int>(l->index) : -1;
  }
  const launch_state* current_launch() const noexcept { return launch_; }
  launch_state* current_launch() noexcept { return launch_; }

  // The device runtime's last error of the CUDA thread running now (cudaGetLastError and
  // cudaPeekAtLastError in device code): per CUDA thread, cleared with each block.
  cudaError_t last_error(bool clear) noexcept;
  void set_last_error(cudaError_t e);
  // The launch whose block this executor runs now (read by other threads: exec/progress.cpp).
  const launch_state* running_launch() const noexcept {
    return running_launch_.load(std::memory_order_acquire);
  }

  // Ends the running CUDA thread with a fault (e.g. a failed device-side assert): the report is
  // printed, the error made sticky, the rest of the grid abandoned. Does not return.
  [[noreturn]] void fault_current_lane(const char* fault_class, const char* file, int line,
                                       const std::string& details, cudaError_t error,
                                       bool fails_process = true);

 private:
  struct runner;
  struct lane {
    uint3 tid{0, 0, 0};
    unsigned index = 0, warp = 0, lane_id = 0;
    unsigned pos = 0;  // position in its warp's schedule order
    lane_state state = lane_state::unstarted;
    runner* run = nullptr;
    // The synchronisation point it waits at.
    warp_op op = warp_op::syncwarp;
    barrier_op bop = barrier_op::sync;
    unsigned mask = 0;
    int arg = 0, width = 32;
    std::uint64_t value = 0, result = 0;
    source_location where{nullptr, 0};
    // __activemask() after a warp collective: its participants (valid while active_gen equals
    // its warp's gen, i.e. until the next barrier).
    unsigned active = 0, active_gen = 0;
  };
  // Lane masks are by lane id, except `ready` and `live_pos`, which are by schedule position.
  // A lane's `state` is exact except for lanes released (in `ready`) and not yet resumed, which
  // keep their waiting state (every reader looks at a warp only when it has no ready lanes), and
  // for the lanes of a warp that ran as one batch, which keep `unstarted` (has_exited).
  struct warp {
    unsigned first = 0, count = 0;  // lanes [first, first + count)
    unsigned existing = 0;          // mask of lanes that exist (a partial last warp has fewer)
    unsigned converged = 0;         // __activemask(): lanes not exited at the last sync point
    unsigned alive = 0;             // lanes not exited now
    unsigned live_pos = 0;          // positions of the lanes not exited
    unsigned ready = 0;             // positions of released lanes waiting to be resumed
    unsigned coll = 0;              // lanes waiting at a warp collective other than converge
    unsigned conv = 0;              // lanes waiting in coalesced_threads()
    unsigned yielded = 0;           // positions of lanes that yielded while spinning
    unsigned gen = 1;               // bumped by every barrier (see lane::active_gen)
    unsigned cursor = 31;           // position of the lane resumed last (round robin)
    bool dirty = false;             // a lane's state left `unstarted` in this block
    unsigned next_unstarted = 0;    // position in order
    unsigned char order[32] = {};   // lane ids within the warp, in schedule order
    std::uint64_t sig[2] = {};      // the last two collectives completed (op, lanes, results)
  };
  struct runner {
    boost::context::fiber ctx;
    boost::context::stack_context stack{};
    lane* on = nullptr;
    void* tsan_fiber = nullptr;
    bool retired = false;  // its coroutine has returned; deleted by whoever it switched to
  };

  runner* make_runner();
  runner* take_runner();
  void switch_to(runner* to);
  void resume(lane& next);
  void transfer(runner* to);
  void enter(runner* to) noexcept;
  void came_back(boost::context::fiber&& from, const void* bottom, std::size_t size);
  hooks::switch_target target_of(const runner* r) const;
  boost::context::fiber runner_main(runner* self, boost::context::fiber&& from);
  void run_lane(lane& l);
  void lane_exited(lane& l);
  unsigned long long begin_batch(lane& first);
  void finish_batch();
  void leave_batch(lane& l);
  void exit_slots(unsigned begin, unsigned end);
  // The lane running now (nullptr between lanes). A region block keeps only the running slot
  // (region_block::at), so that its loops store one number per thread.
  lane* cur() const noexcept {
    if (regions_) [[unlikely]] return static_cast<lane*>(region_lane());
    if (batch_.current || batch_.end == 0) return static_cast<lane*>(batch_.current);
    return batch_lane();
  }
  lane* batch_lane() const noexcept;  // in a batch: the lane threadIdx names (exec/lane_fiber.cpp)
  void* region_lane() const noexcept;  // exec/region_block.cpp
  void leave_regions() noexcept;       // also when a fault leaves the block's region form
  bool has_exited(const lane& l) const noexcept {
    return l.state == lane_state::exited || !(warps_[l.warp].alive & (1u << l.lane_id));
  }
  lane* pick();
  lane* pick_slow();
  void release_yielded();
  unsigned long long progress_mark() const noexcept;
  bool stall();
  bool ask_helper(launch_state& L);
  bool grid_barrier_released();
  void grid_arrive();
  std::string spin_site(const lane& l) const;
  const void* spin_pc(const lane& l) const {
    return l.index < spins_.size() ? spins_[l.index].pc : nullptr;
  }
  void release_barrier();
  // The region form (cuemu/regions.h, exec/region_block.cpp): the whole block in one call.
  bool use_regions() const noexcept;
  void run_regions();
  [[noreturn]] void outside_regions(const char* what, source_location where);
  // A statement of a region-form kernel run as coroutines (region_block::fibers): the lanes of
  // the threads that have not returned run it, and the runner of the region form (`join`), which
  // waits meanwhile, is resumed when the last of them leaves it.
  struct fiber_statement {
    void* f = nullptr;
    bool (*call)(void*, unsigned) = nullptr;
    void (*batch)(region_block&, lane_batch&, void*) = nullptr;  // region_block::fiber_batch
    runner* join = nullptr;
    source_location where{nullptr, 0};
    bool last = false;  // nothing synchronises after it: a lane that finishes it has left the block
    unsigned left = 0;  // lanes that finished it and wait at its end (lane_state::left_statement)
  };
  fiber_statement fiber_;
  void run_fiber_statement(source_location where, bool last, void* f, bool (*call)(void*, unsigned),
                           void (*batch)(region_block&, lane_batch&, void*));
  void run_fiber_lane(lane& l);
  void run_fiber_batch(lane& first, runner* self);
  void settle_fiber_lane(lane& l);
  void settle_fiber_slots(unsigned begin, unsigned end);
  friend struct region_block;
  void report_livelock();
  runner* target_for(lane* next);
  void wait_here(lane& l);
  void setup_block(const launch_state& launch, std::uint64_t schedule_salt);
  void start_warps(bool dirty);

  bool resolve_collectives(warp& w);
  bool same_collective(const warp& w, unsigned m, const lane& l) const;
  void complete_barrier();
  void complete_collective(warp& w, unsigned participants, const lane& first);
  template <warp_op Op> bool shuffle(warp& w, unsigned participants);
  void fault_at(const lane& l, const char* fault_class, const std::string& details);
  void invalid_collective(const lane& l, int width);
  void report_deadlock();
  std::string describe_wait(const lane& l) const;
  void abandon_block();

  std::unique_ptr<stack_pool> stacks_;
  std::vector<runner*> idle_;
  // racecheck: runner structs and their ThreadSanitizer fibers are made on the worker's own
  // fiber before the block starts (a fiber created by a lane's fiber would inherit that lane's
  // history, hiding its races; malloc/free of a struct on two lanes' fibers would look like a
  // race), and the structs are reused, never freed while lanes run.
  std::vector<runner*> spare_;    // with a fresh TSan fiber, for the lanes of this block
  std::vector<runner*> retired_;  // returned by this block's lanes; refreshed before the next
  std::size_t runners_made_ = 0;
  runner sched_;                           // the worker's own context (ctx held while lanes run)
  hooks::switch_target scheduler_target_;  // the worker's own stack and TSan fiber
  runner* running_ = &sched_;              // the runner (or the scheduler) running now
  runner* from_ = nullptr;                 // who switched to the runner running now
  block_tokens* tokens_ = nullptr;

  launch_state* launch_ = nullptr;
  uint3 block_idx_{0, 0, 0};
  std::vector<lane> lanes_;
  // (lane index, error) of the lanes whose device runtime call failed in this block: rare, so
  // a list, emptied at each block, rather than a field every block would reset.
  std::vector<std::pair<unsigned, cudaError_t>> last_errors_;
  std::vector<warp> warps_;
  std::vector<unsigned> warp_order_;
  dim3 shape_{0, 0, 0};        // the block shape lanes_/warps_ were laid out for
  bool laid_out_ = false;      // lanes_/warps_ hold the fixed (non-random) layout for shape_
  unsigned nwarps_ = 0;
  unsigned cur_pos_ = 0;       // position in warp_order_ of the warp being advanced
  warp* cur_warp_ = nullptr;   // that warp
  // Slots are block positions w.first + pos, in schedule order: each slot's threadIdx and lane
  // (for pick() and the sync-free path of cuemu/launch.h). batch_.current is the lane running
  // now, but in a batch, whose loop stores only threadIdx (cur()).
  lane_batch batch_;
  std::vector<uint3> slot_tid_;
  std::vector<void*> slot_lane_;
  unsigned live_ = 0;          // threads not exited
  unsigned at_barrier_ = 0;    // threads waiting at the barrier
  unsigned barrier_true_ = 0;  // of them, with a non-zero predicate
  unsigned last_arrived_ = 0, last_true_ = 0;  // of the barrier completed last
  // Spinning lanes and blocks (cuemu/progress.h, exec/progress.cpp).
  unsigned yielded_ = 0;                  // lanes in the warps' `yielded` masks
  unsigned long long events_ = 0;         // lane exits, barriers and collectives completed
  unsigned long long round_mark_ = 0;     // progress_mark() when yielded lanes were last released
  unsigned long long stall_mark_ = 0;     // progress_mark() at the last stall
  unsigned stall_rounds_ = 0;             // stalls in a row without progress (the back-off)
  unsigned spin_rounds_ = 0;              // its lanes released to poll again without a stall
  static constexpr unsigned kSpinRoundsBeforeHelper = 12;  // then a helper takes the next block
  double stalled_since_ = 0;
  unsigned long long seen_progress_ = ~0ull;  // the launch's progress at the last stall
  bool helper_asked_ = false;             // a helper thread took over the grid's other blocks
  // Cooperative launches: the block waits at this_grid().sync() for this generation to end.
  bool grid_round_ = false;  // a thread arrived at the block's barrier through this_grid().sync()
  bool grid_wait_ = false;
  unsigned long long grid_generation_ = 0;
  mutable std::unordered_map<const void*, std::string> spin_sites_;  // reports: pc -> file:line
  // Per lane (by index), where and on what it spun when it last yielded: the livelock report, and
  // its poll record when it resumes. Apart from the lanes, which the hot paths walk.
  struct spin_record {
    const void* pc = nullptr;
    const volatile void* addr = nullptr, *addr2 = nullptr;
    unsigned long long value = 0, value2 = 0;
  };
  std::vector<spin_record> spins_;
  std::atomic<const launch_state*> running_launch_{nullptr};
  bool preemptible_ = false;                  // registered with the preemption monitor
  unsigned preemptions_ = 0;                  // of this block
  bool synccheck_ = false;
  bool regions_ = false;  // the running block runs its region form
  region_block* region_ = nullptr;        // its loops' state
  region_block* region_outer_ = nullptr;  // t_regions before it
  std::vector<unsigned char> region_exited_;
  std::vector<unsigned> slot_index_, index_slot_;  // slot <-> linear thread index
  bool slots_in_order_ = false;                     // slot == linear index for every thread
  struct region_arena {
    std::vector<std::unique_ptr<unsigned char[]>> chunks;
    std::vector<std::size_t> sizes;
    std::size_t chunk = 0, used = 0;
  } region_arena_;
  bool faulted_ = false;
  bool shutting_down_ = false;
};


// Executors are listed for in_flight() (exec/progress.cpp).
void register_executor(const block_executor* e, bool add);

// The executor of the calling worker thread, or nullptr outside a block.
inline block_executor* current_executor() noexcept { return t_current_executor; }
// The worker's executor, created on first use with the configured stack size.
block_executor& worker_executor();

}  // namespace cuemu::detail
