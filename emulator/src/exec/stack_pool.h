// Coroutine stacks: mmap'd, one PROT_NONE guard page below each, pooled per worker and reused
// last-in first-out (the most recently used stack is the one most likely still in cache). Past
// 12000 guarded stacks in the process (each takes two of the kernel's 65530 mappings), stacks
// come 64 to a mapping without guard pages.
#pragma once

#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <unordered_set>
#include <vector>

namespace cuemu::detail {

class stack_pool {
 public:
  explicit stack_pool(std::size_t usable_size);
  ~stack_pool();
  stack_pool(const stack_pool&) = delete;
  stack_pool& operator=(const stack_pool&) = delete;

  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& sc) noexcept;
  std::size_t usable_size() const noexcept { return size_; }

 private:
  std::size_t size_;
  std::size_t page_;
  std::vector<boost::context::stack_context> free_;
  std::unordered_set<void*> slab_stacks_;  // tops of the stacks from slabs (no guard page)
  std::vector<void*> slabs_;
};

// The StackAllocator handed to boost::context::fiber: forwards to a worker's pool.
struct pooled_stack {
  stack_pool* pool;
  boost::context::stack_context allocate() { return pool->allocate(); }
  void deallocate(boost::context::stack_context& sc) noexcept { pool->deallocate(sc); }
};

// Lowest address of the usable part of a stack (the guard page lies just below it).
inline char* stack_bottom(const boost::context::stack_context& sc) {
  return static_cast<char*>(sc.sp) - sc.size;
}

}  // namespace cuemu::detail
