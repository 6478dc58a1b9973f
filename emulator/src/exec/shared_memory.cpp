#include "exec/shared_memory.h"

#include <malloc.h>
#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include <cuemu/launch.h>
#include <cuemu/shared_memory.h>

#include "check/stream_events.h"
#include "exec/grid.h"

#if defined(CUEMU_MEMCHECK)
#include <sanitizer/asan_interface.h>
#include <unordered_set>
#endif

namespace cuemu::detail {
namespace {

// The block a worker runs now: a __shared__ variable's box is per worker (thread_local), so the
// count is too (one shared counter, written by every worker per block, cost 3% of a small
// block's time at 16 workers).
thread_local std::uint64_t t_block_serial = 0;
thread_local std::vector<void*> t_block_objects;  // this worker's block's __shared__ objects

std::mutex g_launch_objects_mutex;
std::vector<void*> g_launch_objects;  // racecheck: freed when the kernel ends

#if defined(CUEMU_MEMCHECK)
// Every __shared__ object ever made (freed ones too), to name them in reports.
std::unordered_set<const void*>& shared_objects() {
  static std::unordered_set<const void*> s;
  return s;
}
#endif

char* worker_dynamic_buffer() {
  thread_local char* buffer = [] {
    void* p = mmap(nullptr, kDynamicSharedCapacity, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      std::fprintf(stderr, "cuemu: cannot map the dynamic shared memory of a worker\n");
      std::abort();
    }
    return static_cast<char*>(p);
  }();
  return buffer;
}

}  // namespace

void* dynamic_shared_memory() noexcept { return worker_dynamic_buffer(); }


namespace {
void* allocate_block_shared(std::size_t size, std::size_t alignment) noexcept {
  // At least 128 bytes: a GPU's shared variables sit in a window aligned far beyond their types,
  // and libraries rely on it (CUB binds an Uninitialized<T>, aligned to 16, as the T it holds,
  // aligned to 32); the alignment sanitizer would report such a binding here though no GPU faults.
  if (alignment < 128) alignment = 128;
  const std::size_t rounded = (size + alignment - 1) / alignment * alignment;
  void* p = std::aligned_alloc(alignment, rounded ? rounded : alignment);
  if (p) std::memset(p, 0xa5, rounded);  // like a GPU, shared memory starts with garbage
  if (!p) {
    std::fprintf(stderr, "cuemu: out of memory for a %zu-byte __shared__ variable\n", size);
    std::abort();
  }
#if defined(CUEMU_RACECHECK)
  std::lock_guard<std::mutex> lock(g_launch_objects_mutex);
  g_launch_objects.push_back(p);
#else
  t_block_objects.push_back(p);
#endif
#if defined(CUEMU_MEMCHECK)
  {
    std::lock_guard<std::mutex> lock(g_launch_objects_mutex);
    shared_objects().insert(p);
  }
#endif
  return p;
}
}  // namespace

void* block_shared_storage(block_shared_box* box, std::size_t size, std::size_t alignment) noexcept {
  if (box->serial != t_block_serial) {
    box->storage = allocate_block_shared(size, alignment);
    box->serial = t_block_serial;
  }
  return box->storage;
}

bool is_block_shared_object(const void* base) noexcept {
#if defined(CUEMU_MEMCHECK)
  std::lock_guard<std::mutex> lock(g_launch_objects_mutex);
  return shared_objects().count(base) != 0;
#else
  (void)base;
  return false;
#endif
}

namespace {
std::mutex g_tls_inits_mutex;
std::vector<const void* (*)()>& tls_inits() {
  static std::vector<const void* (*)()> v;
  return v;
}
thread_local std::size_t t_tls_inits_done = 0;
std::atomic<std::size_t> g_tls_inits_count{0};

// Runs, on this worker, the thread_local initialisations registered since its last block.
void run_worker_tls_inits() {
  if (t_tls_inits_done == g_tls_inits_count.load(std::memory_order_acquire)) return;
  std::vector<const void* (*)()> todo;
  {
    std::lock_guard<std::mutex> lock(g_tls_inits_mutex);
    todo.assign(tls_inits().begin() + static_cast<std::ptrdiff_t>(t_tls_inits_done), tls_inits().end());
  }
  for (auto* touch : todo) (void)touch();
  t_tls_inits_done += todo.size();
}
}  // namespace

void register_worker_tls_init(const void* (*touch)()) noexcept {
  std::lock_guard<std::mutex> lock(g_tls_inits_mutex);
  tls_inits().push_back(touch);
  g_tls_inits_count.store(tls_inits().size(), std::memory_order_release);
}

void shared_memory_block_begin(const launch_state& launch) {
  run_worker_tls_inits();
  ++t_block_serial;
  char* dyn = worker_dynamic_buffer();
  (void)dyn;
  (void)launch;
#if defined(CUEMU_MEMCHECK)
  // Bytes past this launch's dynamic size are out of bounds.
  // (The runtime is not instrumented, so the functions, not the ASAN_*_MEMORY_REGION macros.)
  __asan_unpoison_memory_region(dyn, launch.dynamic_shared);
  __asan_poison_memory_region(dyn + launch.dynamic_shared, kDynamicSharedCapacity - launch.dynamic_shared);
#endif
}

void shared_memory_block_end() {
  for (void* p : t_block_objects) {
    hooks::memory_released(p, malloc_usable_size(p));
    std::free(p);
  }
  t_block_objects.clear();
}

void shared_memory_launch_end() {
#if defined(CUEMU_RACECHECK)  // only racecheck keeps objects until the kernel ends
  std::lock_guard<std::mutex> lock(g_launch_objects_mutex);
  for (void* p : g_launch_objects) {
    hooks::memory_released(p, malloc_usable_size(p));
    std::free(p);
  }
  g_launch_objects.clear();
#endif
}

}  // namespace cuemu::detail
