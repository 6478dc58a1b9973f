// cg::reduce(group, value, op) over warp-level groups (thread_block_tile<N <= 32>,
// coalesced_group and the groups partitions make) and multi-warp tiles
// (thread_block_tile<64..1024>). Every member gets the result.
//
// 32-bit integers with plus/less/greater/bit_and/bit_or/bit_xor use one __reduce_*_sync, as a
// GPU of compute capability 8.0 or later does; other types fold in a tree over ranks
// (rank r combines with r + 1, then r + 2, ...: op(lower rank, higher rank)), then the value of
// rank 0 is broadcast. Floating-point sums may therefore differ in the last bits from a
// sequential sum, as on a GPU.
#pragma once

#include <type_traits>

#include "cuemu/cg/functional.h"
#include "cuemu/cg/groups.h"

namespace cooperative_groups {
namespace details {

template <class Op, class T>
constexpr int native_reduce_kind() {
  // 0: none; 1 add; 2 min; 3 max; 4 and; 5 or; 6 xor
  if constexpr (!(std::is_integral_v<T> && sizeof(T) == 4)) return 0;
  else if constexpr (std::is_same_v<Op, cooperative_groups::plus<T>>) return 1;
  else if constexpr (std::is_same_v<Op, cooperative_groups::less<T>>) return 2;
  else if constexpr (std::is_same_v<Op, cooperative_groups::greater<T>>) return 3;
  else if constexpr (std::is_same_v<Op, cooperative_groups::bit_and<T>>) return 4;
  else if constexpr (std::is_same_v<Op, cooperative_groups::bit_or<T>>) return 5;
  else if constexpr (std::is_same_v<Op, cooperative_groups::bit_xor<T>>) return 6;
  else return 0;
}

template <class T, class Op>
T warp_reduce(unsigned mask, T value, Op op, source_location where) {
  using ::cuemu::detail::warp_op;
  constexpr int native = native_reduce_kind<std::decay_t<Op>, T>();
  if constexpr (native != 0) {
    constexpr bool sgn = std::is_signed_v<T>;
    warp_op wo = warp_op::reduce_add_u;
    switch (native) {
      case 1: wo = sgn ? warp_op::reduce_add_i : warp_op::reduce_add_u; break;
      case 2: wo = sgn ? warp_op::reduce_min_i : warp_op::reduce_min_u; break;
      case 3: wo = sgn ? warp_op::reduce_max_i : warp_op::reduce_max_u; break;
      case 4: wo = warp_op::reduce_and; break;
      case 5: wo = warp_op::reduce_or; break;
      default: wo = warp_op::reduce_xor; break;
    }
    return static_cast<T>(static_cast<std::uint32_t>(::cuemu::detail::warp_collective(
        wo, mask, static_cast<std::uint32_t>(value), 0, 32, where)));
  } else {
    const unsigned size = static_cast<unsigned>(__builtin_popcount(mask));
    const unsigned rank = static_cast<unsigned>(__builtin_popcount(mask & lanemask_lt()));
    for (unsigned d = 1; d < size; d *= 2) {
      const unsigned src = rank + d < size ? nth_lane(mask, rank + d) : lane();
      const T other = cg_shuffle<T>(warp_op::shfl_idx, mask, value, static_cast<int>(src), 32, where);
      if (rank % (2 * d) == 0 && rank + d < size) value = op(value, other);
    }
    return cg_shuffle<T>(warp_op::shfl_idx, mask, value, static_cast<int>(nth_lane(mask, 0)), 32,
                      where);
  }
}

}  // namespace details

template <class G, class T, class Op>
inline std::decay_t<T> reduce(const G& group, T&& value, Op&& op, CUEMU_HERE_PARAMS) {
  using V = std::decay_t<T>;
  static_assert(std::is_base_of_v<thread_group, G>, "cg::reduce takes a cooperative group");
  if constexpr (G::_group_id == details::multi_tile_group_id) {
    return group.template _multi_reduce<V>(value, op, CUEMU_HERE);
  } else {
    static_assert(G::_group_id == details::coalesced_group_id,
                  "cg::reduce takes a thread_block_tile or a coalesced_group");
    return details::warp_reduce<V>(group._lane_mask(), static_cast<V>(value), op, CUEMU_HERE);
  }
}

}  // namespace cooperative_groups
