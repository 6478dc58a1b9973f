#include "exec/worker_pool.h"

#include "exec/options.h"

namespace cuemu::detail {

worker_pool& worker_pool::instance() {
  static worker_pool pool(options().workers);
  return pool;
}

worker_pool::worker_pool(unsigned workers) : workers_(workers < 1 ? 1 : workers) {}

worker_pool::~worker_pool() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  wake_.notify_all();
  helper_wake_.notify_all();
  for (auto& t : threads_) t.join();
  for (auto& t : helpers_) t.join();
}

void worker_pool::drain() {
  // Take indices with one atomic add each; body_ and n_ are published under m_ before the
  // workers are woken (and read by them after taking m_), and stay fixed until all are done.
  const auto& body = *body_;
  const std::size_t n = n_;
  for (std::size_t i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < n;) body(i);
}

void worker_pool::thread_main() {
  std::size_t seen = 0;
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    ++busy_;
    lock.unlock();
    if (body_) drain();
    lock.lock();
    if (--busy_ == 0) done_.notify_all();
  }
}

// A helper: counted busy by add_helper before it runs; drains the job it was asked for, then
// waits to be asked again.
void worker_pool::helper_main() {
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    helper_wake_.wait(lock, [&] { return stop_ || helpers_wanted_ != 0; });
    if (stop_) return;
    --helpers_wanted_;
    lock.unlock();
    drain();
    lock.lock();
    ++helpers_idle_;
    if (--busy_ == 0) done_.notify_all();
  }
}

bool worker_pool::add_helper() {
  std::lock_guard<std::mutex> lock(m_);
  if (!body_ || stop_ || next_.load(std::memory_order_relaxed) >= n_) return false;
  ++busy_;
  ++helpers_wanted_;
  if (helpers_idle_ != 0) {
    --helpers_idle_;
    helper_wake_.notify_one();
  } else {
    helpers_.emplace_back([this] { helper_main(); });
  }
  return true;
}

void worker_pool::parallel_for(std::size_t n, const std::function<void(std::size_t)>& body) {
  if (n == 0) return;
  std::lock_guard<std::mutex> one_grid(launch_mutex_);
  if (n == 1) {  // nothing for a helper to take
    body(0);
    return;
  }
  const bool wake_workers = n > 1 && workers_ > 1;
  {
    std::lock_guard<std::mutex> lock(m_);
    if (wake_workers && threads_.empty())
      for (unsigned t = 1; t < workers_; ++t) threads_.emplace_back([this] { thread_main(); });
    body_ = &body;
    n_ = n;
    next_.store(0, std::memory_order_relaxed);
    if (wake_workers) ++generation_;
    ++busy_;  // this thread
  }
  if (wake_workers) wake_.notify_all();
  drain();
  std::unique_lock<std::mutex> lock(m_);
  --busy_;
  done_.wait(lock, [&] { return busy_ == 0; });
  body_ = nullptr;
  n_ = 0;
}

}  // namespace cuemu::detail
