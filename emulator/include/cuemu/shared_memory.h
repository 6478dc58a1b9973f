// __shared__ variables under the checking modes: the translator lowers
//   __shared__ float s[256];
// to
//   float (&s)[256] = ::cuemu::detail::block_shared<float [256]>([] {});
// so that every variable is a separate heap object per block: AddressSanitizer then sees an
// overflow into a neighbouring array, ThreadSanitizer sees fresh memory in every block.
// (Without a checking mode, __shared__ is per-worker thread-local storage.)
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuemu::detail {

struct block_shared_box {
  std::uint64_t serial = ~std::uint64_t{0};
  void* storage = nullptr;
};

// This block's storage for the variable whose per-worker box is `box` (aligned to at least 128
// bytes, filled with a pattern so code that assumes zeroed shared memory shows). Out of line on
// purpose: the runtime is not instrumented, so ThreadSanitizer does not see the box's updates
// (one lane allocates, the others find it) as races of the user's code.
void* block_shared_storage(block_shared_box* box, std::size_t size, std::size_t alignment) noexcept;

template <class T, class Key>
T& block_shared(Key) noexcept {
  static thread_local block_shared_box box;  // one per declaration (Key) per worker
  return *static_cast<T*>(block_shared_storage(&box, sizeof(T), alignof(T)));
}

}  // namespace cuemu::detail
