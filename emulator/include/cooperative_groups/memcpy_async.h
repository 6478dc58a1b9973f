// <cooperative_groups/memcpy_async.h>: cg::memcpy_async, cg::wait and cg::wait_prior.
// The group's threads copy the bytes when they call memcpy_async, each its own contiguous share,
// and wait()/wait_prior() synchronise the group: one legal schedule of an asynchronous copy that
// completes by the wait (reading the destination before it is, as on a GPU, a race).
#pragma once

#include <cstddef>
#include <cstring>

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class Group, class Size>
inline void memcpy_async(const Group& group, void* dst, const void* src, Size size) {
  const std::size_t bytes = static_cast<std::size_t>(size);
  const std::size_t n = group.num_threads(), rank = group.thread_rank();
  const std::size_t share = (bytes + n - 1) / n;
  const std::size_t begin = rank * share < bytes ? rank * share : bytes;
  const std::size_t end = begin + share < bytes ? begin + share : bytes;
  if (begin < end) std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin, end - begin);
}

// memcpy_async(group, dst, dst_count, src, src_count): the elements of the shorter range.
template <class Group, class T>
inline void memcpy_async(const Group& group, T* dst, std::size_t dst_count, const T* src, std::size_t src_count) {
  memcpy_async(group, static_cast<void*>(dst), static_cast<const void*>(src),
               (dst_count < src_count ? dst_count : src_count) * sizeof(T));
}

template <class Group>
inline void wait(const Group& group) {
  group.sync();
}

template <unsigned int NumStages, class Group>
inline void wait_prior(const Group& group) {
  group.sync();
}

}  // namespace cooperative_groups
