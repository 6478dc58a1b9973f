// Shadow memory for the detectors of the racecheck runtime (racecheck.cpp, streamcheck.cpp): for
// every 4 KiB page of the program's memory an array of cells, one per 8 bytes, found through a
// two-level table and carved out of one reserved range (zero pages until touched), so that one
// mapping serves however much memory the program touches. Cells of one page are updated under
// one of a set of striped spin locks.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace cuemu::detail {

struct alignas(64) stripe_lock {
  std::atomic<bool> held{false};
  void lock() noexcept {
    while (held.exchange(true, std::memory_order_acquire))
      while (held.load(std::memory_order_relaxed)) __builtin_ia32_pause();
  }
  void unlock() noexcept { held.store(false, std::memory_order_release); }
};

template <class Cell>
class shadow_memory {
 public:
  static constexpr unsigned kPageBits = 12;
  static constexpr std::size_t kCellsPerPage = (std::size_t{1} << kPageBits) / 8;

  // `name` names the detector in the message of a failed reservation.
  constexpr shadow_memory(const char* name, std::size_t arena_bytes)
      : name_(name), arena_bytes_(arena_bytes) {}

  // The cells of the page holding address a (nullptr past the 47-bit address space); made when
  // absent (zero cells).
  Cell* page_of(std::uintptr_t a) {
    const std::uintptr_t page = a >> kPageBits;
    const std::uintptr_t i1 = page >> kL2Bits, i2 = page & ((std::uintptr_t{1} << kL2Bits) - 1);
    if (i1 >= (std::uintptr_t{1} << kL1Bits)) return nullptr;
    l2_node* n = get_or_make(l1_[i1], sizeof(l2_node));
    return get_or_make(n->pages[i2], sizeof(Cell) * kCellsPerPage);
  }
  // The same, or nullptr when no cell of the page was ever made.
  Cell* find_page_of(std::uintptr_t a) const {
    const std::uintptr_t page = a >> kPageBits;
    const std::uintptr_t i1 = page >> kL2Bits, i2 = page & ((std::uintptr_t{1} << kL2Bits) - 1);
    if (i1 >= (std::uintptr_t{1} << kL1Bits)) return nullptr;
    const l2_node* n = l1_[i1].load(std::memory_order_acquire);
    return n ? n->pages[i2].load(std::memory_order_acquire) : nullptr;
  }
  static Cell& cell_in(Cell* page, std::uintptr_t a) { return page[(a >> 3) & (kCellsPerPage - 1)]; }
  stripe_lock& lock_of(std::uintptr_t a) { return locks_[(a >> kPageBits) & 1023]; }

  // Zeroes the cells of [a, a + n) (whole granules) where any were made.
  void clear(std::uintptr_t a, std::size_t n) {
    std::uintptr_t p = a & ~std::uintptr_t{7};
    const std::uintptr_t end = a + n;
    while (p < end) {
      const std::uintptr_t page_end = std::min(end, ((p >> kPageBits) + 1) << kPageBits);
      if (Cell* cells = find_page_of(p)) {
        stripe_lock& lk = lock_of(p);
        lk.lock();
        Cell* first = &cell_in(cells, p);
        const std::size_t count = (page_end - p + 7) / 8;
        std::memset(static_cast<void*>(first), 0, count * sizeof(Cell));
        lk.unlock();
      }
      p = page_end;
    }
  }

 private:
  static constexpr unsigned kL2Bits = 18, kL1Bits = 47 - kPageBits - kL2Bits;
  struct l2_node {
    std::atomic<Cell*> pages[std::size_t{1} << kL2Bits];
  };

  char* arena() {
    std::call_once(arena_once_, [this] {
      void* p = mmap(nullptr, arena_bytes_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) {
        std::fprintf(stderr, "cuemu: %s cannot reserve its shadow memory\n", name_);
        std::abort();
      }
      madvise(p, arena_bytes_, MADV_HUGEPAGE);  // fewer page faults where the kernel allows it
      base_ = static_cast<char*>(p);
    });
    return base_;
  }

  template <class T>
  T* get_or_make(std::atomic<T*>& slot, std::size_t bytes) {
    T* p = slot.load(std::memory_order_acquire);
    if (p) return p;
    std::lock_guard<std::mutex> lock(make_mutex_);
    p = slot.load(std::memory_order_acquire);
    if (p) return p;
    const std::size_t at = used_.fetch_add(bytes);
    if (at + bytes > arena_bytes_) {
      std::fprintf(stderr, "cuemu: %s ran out of shadow memory\n", name_);
      std::abort();
    }
    p = reinterpret_cast<T*>(arena() + at);
    slot.store(p, std::memory_order_release);
    return p;
  }

  const char* name_;
  std::size_t arena_bytes_;
  std::once_flag arena_once_;
  char* base_ = nullptr;
  std::atomic<std::size_t> used_{0};
  std::mutex make_mutex_;
  std::atomic<l2_node*> l1_[std::size_t{1} << kL1Bits] = {};
  stripe_lock locks_[1024];
};

}  // namespace cuemu::detail
