#include "exec/stack_pool.h"

#include "check/events.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

namespace cuemu::detail {
namespace {
// Each guarded stack takes two of the process's memory mappings (the kernel allows 65530 by
// default). Past this many, stacks come from slabs of kSlab stacks in one mapping, without guard
// pages: a cooperative grid of a few hundred 1024-thread blocks keeps that many CUDA threads
// suspended at once.
constexpr long kGuardedStacks = 12000;
constexpr std::size_t kSlab = 64;
std::atomic<long> g_guarded{0};
}  // namespace

stack_pool::stack_pool(std::size_t usable_size) : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {
  size_ = (usable_size + page_ - 1) / page_ * page_;
}

stack_pool::~stack_pool() {
  for (auto& sc : free_)
    if (!slab_stacks_.count(sc.sp)) munmap(stack_bottom(sc) - page_, sc.size + page_);
  for (void* slab : slabs_) munmap(slab, size_ * kSlab);
}

boost::context::stack_context stack_pool::allocate() {
  if (!free_.empty()) {
    boost::context::stack_context sc = free_.back();
    free_.pop_back();
    hooks::on_stack_reuse(stack_bottom(sc), sc.size);  // AddressSanitizer: stale poison
    return sc;
  }
  if (hooks::pool_stacks && g_guarded.load(std::memory_order_relaxed) >= kGuardedStacks) {
    void* slab = mmap(nullptr, size_ * kSlab, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (slab != MAP_FAILED) {
      // Never unmapped: slab stacks stay in this pool's free list (kept, not returned).
      for (std::size_t k = 1; k < kSlab; ++k) {
        boost::context::stack_context more;
        more.size = size_;
        more.sp = static_cast<char*>(slab) + (k + 1) * size_;
        free_.push_back(more);
        slab_stacks_.insert(more.sp);
      }
      slabs_.push_back(slab);
      boost::context::stack_context sc;
      sc.size = size_;
      sc.sp = static_cast<char*>(slab) + size_;
      slab_stacks_.insert(sc.sp);
      return sc;
    }
  }
  g_guarded.fetch_add(1, std::memory_order_relaxed);
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
    if (!slab_stacks_.count(sc.sp)) munmap(stack_bottom(sc) - page_, sc.size + page_);
  }
}

}  // namespace cuemu::detail
