// Persistent worker OS threads that take the blocks of a grid. The launching thread works too,
// so a one-block launch never waits for another thread. Helper threads join a job when one of its
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

class worker_pool {
 public:
  static worker_pool& instance();
  ~worker_pool();

  // Runs body(i) for every i in [0, n), spread over the workers; returns when all are done.
  void parallel_for(std::size_t n, const std::function<void(std::size_t)>& body);
  unsigned workers() const noexcept { return workers_; }
  // Called from body(i) when that item waits for others (a block whose threads spin, or wait at
  // this_grid().sync()): one more thread takes the job's remaining items. False if none remain.
  bool add_helper();
  // Items of the current job taken so far (by any thread).
  std::size_t taken() const noexcept {
    const std::size_t t = next_.load(std::memory_order_relaxed);
    return t < n_ ? t : n_;
  }

 private:
  explicit worker_pool(unsigned workers);
  void work(std::size_t generation_seen);
  void thread_main();
  void helper_main();
  void drain();

  unsigned workers_;
  std::vector<std::thread> threads_;
  std::vector<std::thread> helpers_;  // made on demand, kept for later jobs
  std::condition_variable helper_wake_;
  unsigned helpers_wanted_ = 0, helpers_idle_ = 0;
  std::mutex launch_mutex_;  // one grid at a time
  std::mutex m_;
  std::condition_variable wake_, done_;
  std::size_t generation_ = 0;
  bool stop_ = false;
  // The current job.
  const std::function<void(std::size_t)>* body_ = nullptr;
  std::size_t n_ = 0;
  std::atomic<std::size_t> next_{0};  // the next block index to take (fetch_add, no lock)
  unsigned busy_ = 0;
};

}  // namespace cuemu::detail
