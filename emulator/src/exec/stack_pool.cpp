#include "exec/stack_pool.h"

#include "check/events.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <new>

namespace cuemu::detail {

stack_pool::stack_pool(std::size_t usable_size) : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {
  size_ = (usable_size + page_ - 1) / page_ * page_;
}

stack_pool::~stack_pool() {
  for (auto& sc : free_) munmap(stack_bottom(sc) - page_, sc.size + page_);
}

boost::context::stack_context stack_pool::allocate() {
  if (!free_.empty()) {
    boost::context::stack_context sc = free_.back();
    free_.pop_back();
    hooks::on_stack_reuse(stack_bottom(sc), sc.size);  // AddressSanitizer: stale poison
    return sc;
  }
  const std::size_t total = size_ + page_;
  void* base = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                    -1, 0);
  if (base == MAP_FAILED) {
    std::fprintf(stderr,
                 "cuemu: cannot map a %zu-byte coroutine stack (too many live CUDA threads, or "
                 "--stack-size too large)\n",
                 total);
    std::abort();
  }
  mprotect(base, page_, PROT_NONE);  // guard page: an overflow faults instead of corrupting
  boost::context::stack_context sc;
  sc.size = size_;
  sc.sp = static_cast<char*>(base) + total;
  return sc;
}

void stack_pool::deallocate(boost::context::stack_context& sc) noexcept {
  if (!hooks::pool_stacks) {  // ThreadSanitizer: a fresh mapping per lane, no shared history
    munmap(stack_bottom(sc) - page_, sc.size + page_);
    return;
  }
  try {
    free_.push_back(sc);
  } catch (const std::bad_alloc&) {
    munmap(stack_bottom(sc) - page_, sc.size + page_);
  }
}

}  // namespace cuemu::detail
