#include "exec/worker_pool.h"

#include <algorithm>

#include "exec/options.h"

namespace cuemu::detail {

worker_pool& worker_pool::instance() {
  // Never destroyed: stream threads may still run grids while the program's statics go away.
  static worker_pool* pool = new worker_pool(options().workers);
  return *pool;
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

void pool_job::drain() {
  // One atomic add per item, or per chunk; n_, chunk_ and body_ are fixed for the job's life.
  const auto& body = *body_;
  if (chunk_ == 1) {
    for (std::size_t i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < n_;) body(i);
    return;
  }
  // Chunks shrink as the items run out (an eighth of what is left per worker, at most chunk_),
  // so that the last items still spread over the threads.
  const std::size_t threads = worker_pool::instance().workers();
  for (;;) {
    const std::size_t seen = next_.load(std::memory_order_relaxed);
    if (seen >= n_) return;
    std::size_t c = (n_ - seen) / (8 * threads);
    c = c < 1 ? 1 : c > chunk_ ? chunk_ : c;
    const std::size_t i = next_.fetch_add(c, std::memory_order_relaxed);
    if (i >= n_) return;
    const std::size_t end = i + c < n_ ? i + c : n_;
    for (std::size_t k = i; k < end; ++k) body(k);
  }
}

// A running job with items left, taken in turn so that concurrent grids share the workers.
worker_pool::job* worker_pool::pick_locked() {
  const std::size_t n = jobs_.size();
  for (std::size_t k = 0; k < n; ++k) {
    job* j = jobs_[(next_pick_ + k) % n];
    if (j->items_left() && j->busy_ < j->max_busy_) {
      next_pick_ = (next_pick_ + k + 1) % n;
      return j;
    }
  }
  return nullptr;
}

void worker_pool::thread_main() {
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    job* j = nullptr;
    wake_.wait(lock, [&] { return stop_ || (j = pick_locked()) != nullptr; });
    if (stop_) return;
    ++j->busy_;
    lock.unlock();
    j->drain();
    lock.lock();
    if (--j->busy_ == 0) done_.notify_all();
  }
}

// A helper: counted busy by add_helper before it runs; drains the job it was asked for, then
// waits to be asked again.
void worker_pool::helper_main() {
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    helper_wake_.wait(lock, [&] { return stop_ || !helper_jobs_.empty(); });
    if (stop_) return;
    job* j = helper_jobs_.back();
    helper_jobs_.pop_back();
    lock.unlock();
    j->drain();
    lock.lock();
    ++helpers_idle_;
    if (--j->busy_ == 0) done_.notify_all();
  }
}

bool worker_pool::add_helper(job& j, std::size_t max_busy) {
  std::lock_guard<std::mutex> lock(m_);
  j.max_busy_ = max_busy;
  if (stop_ || !j.items_left() || j.busy_ >= max_busy) return false;
  ++j.busy_;
  helper_jobs_.push_back(&j);
  if (helpers_idle_ != 0) {
    --helpers_idle_;
    helper_wake_.notify_one();
  } else {
    helpers_.emplace_back([this] { helper_main(); });
  }
  return true;
}

void worker_pool::run(job& j) {
  if (j.n_ == 0) return;
  // One block: this thread takes it; no other thread can share the job (a helper is asked only
  // for items left, by a block of the job that is already running).
  if (j.n_ == 1) {
    j.drain();
    return;
  }
  const bool wake_workers = j.n_ > 1 && workers_ > 1;
  {
    std::lock_guard<std::mutex> lock(m_);
    if (wake_workers && threads_.empty())
      for (unsigned t = 1; t < workers_; ++t) threads_.emplace_back([this] { thread_main(); });
    jobs_.push_back(&j);
    ++j.busy_;  // this thread
  }
  if (wake_workers) wake_.notify_all();
  j.drain();
  std::unique_lock<std::mutex> lock(m_);
  --j.busy_;
  done_.wait(lock, [&] { return j.busy_ == 0; });
  jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &j));
}

}  // namespace cuemu::detail
