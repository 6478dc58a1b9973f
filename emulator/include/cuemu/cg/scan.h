// cg::inclusive_scan / cg::exclusive_scan over warp-level groups (thread_block_tile<N <= 32>,
// coalesced_group): Hillis-Steele over ranks, op(lower ranks, higher rank). Default op: plus.
// exclusive_scan gives rank 0 a value-initialised T (CUDA leaves it undefined for a general
// op).
#pragma once

#include <type_traits>

#include "cuemu/cg/functional.h"
#include "cuemu/cg/groups.h"

namespace cooperative_groups {
namespace details {

template <class T, class Op>
T warp_inclusive_scan(unsigned mask, T value, Op op, source_location where) {
  using ::cuemu::detail::warp_op;
  const unsigned size = static_cast<unsigned>(__builtin_popcount(mask));
  const unsigned rank = static_cast<unsigned>(__builtin_popcount(mask & lanemask_lt()));
  for (unsigned d = 1; d < size; d *= 2) {
    const unsigned src = rank >= d ? nth_lane(mask, rank - d) : lane();
    const T other = cg_shuffle<T>(warp_op::shfl_idx, mask, value, static_cast<int>(src), 32, where);
    if (rank >= d) value = op(other, value);
  }
  return value;
}

}  // namespace details

template <class G, class T, class Op>
inline std::decay_t<T> inclusive_scan(const G& group, T&& value, Op&& op, CUEMU_HERE_PARAMS) {
  static_assert(G::_group_id == details::coalesced_group_id,
                "cg::inclusive_scan takes a thread_block_tile (up to 32) or a coalesced_group");
  using V = std::decay_t<T>;
  return details::warp_inclusive_scan<V>(group._lane_mask(), static_cast<V>(value), op, CUEMU_HERE);
}
template <class G, class T>
inline std::decay_t<T> inclusive_scan(const G& group, T&& value, CUEMU_HERE_PARAMS) {
  using V = std::decay_t<T>;
  return inclusive_scan(group, static_cast<V>(value), plus<V>(), __cuemu_file, __cuemu_line);
}

template <class G, class T, class Op>
inline std::decay_t<T> exclusive_scan(const G& group, T&& value, Op&& op, CUEMU_HERE_PARAMS) {
  static_assert(G::_group_id == details::coalesced_group_id,
                "cg::exclusive_scan takes a thread_block_tile (up to 32) or a coalesced_group");
  using V = std::decay_t<T>;
  const unsigned mask = group._lane_mask();
  const V inc = details::warp_inclusive_scan<V>(mask, static_cast<V>(value), op, CUEMU_HERE);
  const unsigned rank = static_cast<unsigned>(__builtin_popcount(mask & details::lanemask_lt()));
  const unsigned src = rank >= 1 ? details::nth_lane(mask, rank - 1) : details::lane();
  const V prev = details::cg_shuffle<V>(::cuemu::detail::warp_op::shfl_idx, mask, inc,
                                     static_cast<int>(src), 32, CUEMU_HERE);
  return rank == 0 ? V() : prev;
}
template <class G, class T>
inline std::decay_t<T> exclusive_scan(const G& group, T&& value, CUEMU_HERE_PARAMS) {
  using V = std::decay_t<T>;
  return exclusive_scan(group, static_cast<V>(value), plus<V>(), __cuemu_file, __cuemu_line);
}

}  // namespace cooperative_groups
