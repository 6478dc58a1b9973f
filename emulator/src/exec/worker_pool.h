// Persistent worker OS threads that take the blocks of grids. Several grids can run at once (one
// per stream with work); each is a job, and the thread that submits a job works on it too, so a
// one-block launch never waits for another thread. Helper threads join a job when one of its
// items waits for others (blocks that spin on each other, this_grid().sync()).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cuemu::detail {

// body(i) for every i in [0, n): the blocks of one grid.
class pool_job {
 public:
  // `chunk`: the most items a thread may take at once (1: one at a time). More than one only
  // where no item waits for another (a block that spins or waits at grid sync needs every
  // block not yet started to be free for a helper to take): the items a thread took run one after
  // another on it.
  pool_job(std::size_t n, const std::function<void(std::size_t)>& body, std::size_t chunk = 1)
      : n_(n), chunk_(chunk < 1 ? 1 : chunk), body_(&body) {}
  pool_job(const pool_job&) = delete;
  pool_job& operator=(const pool_job&) = delete;
  // Items taken so far (by any thread; with chunks, some may not have started yet).
  std::size_t taken() const noexcept {
    const std::size_t t = next_.load(std::memory_order_relaxed);
    return t < n_ ? t : n_;
  }
  bool items_left() const noexcept { return next_.load(std::memory_order_relaxed) < n_; }

 private:
  friend class worker_pool;
  void drain();
  const std::size_t n_;
  const std::size_t chunk_;
  const std::function<void(std::size_t)>* const body_;
  // The next item to take (fetch_add, no lock), alone in its cache line: every worker writes it
  // once per block, and a neighbour read per block (the job's body, a launch's fields on the
  // submitting thread's stack) would miss each time another worker takes a block.
  alignas(64) std::atomic<std::size_t> next_{0};
  char next_line_[64 - sizeof(std::atomic<std::size_t>)];
  // Threads draining it (under the pool's mutex). Each runs one item at a time, so at most
  // busy_ items are in flight: a thread counts from when it is admitted until its drain ends.
  std::size_t busy_ = 0;
  // The most threads that may drain it at once, set by add_helper (the grid's residency).
  std::size_t max_busy_ = static_cast<std::size_t>(-1);
};
static_assert(alignof(pool_job) >= 64);

class worker_pool {
 public:
  using job = pool_job;

  static worker_pool& instance();
  ~worker_pool();

  // Runs every item of j, spread over the workers and this thread; returns when all are done.
  void run(job& j);
  unsigned workers() const noexcept { return workers_; }
  // Called from an item of j when it waits for others (a block whose threads spin, or wait at
  // this_grid().sync()): one more thread takes j's remaining items. False if none remain, or
  // if `max_busy` threads drain j already. From then on no thread joins j past `max_busy`, so
  // blocks in flight never pass a grid's residency, whichever threads start them.
  bool add_helper(job& j, std::size_t max_busy);

 private:
  explicit worker_pool(unsigned workers);
  job* pick_locked();
  void thread_main();
  void helper_main();

  unsigned workers_;
  std::vector<std::thread> threads_;
  std::vector<std::thread> helpers_;  // made on demand, kept for later jobs
  std::condition_variable helper_wake_;
  std::vector<job*> helper_jobs_;  // asked for, not yet taken (each counted busy already)
  unsigned helpers_idle_ = 0;
  std::mutex m_;
  std::condition_variable wake_, done_;
  bool stop_ = false;
  std::vector<job*> jobs_;  // running jobs, oldest first
  std::size_t next_pick_ = 0;
};

}  // namespace cuemu::detail
