// Block barriers and warp collectives: the synchronisation points of the emulator. Each one
// suspends the calling CUDA thread (a coroutine) until the scheduler completes it for every
// participant (src/exec). The call site is captured with __builtin_FILE/__builtin_LINE so that
// deadlock and synccheck reports name the user's line.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuemu/host_defines.h"

namespace cuemu::detail {

// grid: this_grid().sync() of a cooperative launch (the block's barrier, then the grid's).
enum class barrier_op : std::uint8_t { sync, count, and_, or_, grid };
enum class warp_op : std::uint8_t {
  syncwarp, shfl_idx, shfl_up, shfl_down, shfl_xor, ballot, any, all, match_any, match_all, converge,
  reduce_add_u, reduce_min_u, reduce_max_u, reduce_add_i, reduce_min_i, reduce_max_i,
  reduce_and, reduce_or, reduce_xor
};
const char* warp_op_name(warp_op op) noexcept;

// The rules of the warp's votes and reductions, shared by the executor (exec/warp_collectives.cpp)
// and the region form (cuemu/regions.h): a vote's result from the ballot of its participants
// `m`, and one step of a __reduce_*_sync (32-bit values; min/max signed for the _i forms).
inline std::uint64_t warp_vote_result(warp_op op, std::uint32_t ballot, std::uint32_t m) noexcept {
  return op == warp_op::ballot ? ballot : op == warp_op::any ? ballot != 0 : ballot == m;
}
inline std::uint32_t warp_reduce_step(warp_op op, std::uint32_t red, std::uint32_t v) noexcept {
  const auto si = [](std::uint32_t x) { return static_cast<std::int32_t>(x); };
  switch (op) {
    case warp_op::reduce_add_u: case warp_op::reduce_add_i: return red + v;
    case warp_op::reduce_min_u: return v < red ? v : red;
    case warp_op::reduce_max_u: return v > red ? v : red;
    case warp_op::reduce_min_i: return si(v) < si(red) ? v : red;
    case warp_op::reduce_max_i: return si(v) > si(red) ? v : red;
    case warp_op::reduce_and: return red & v;
    case warp_op::reduce_or: return red | v;
    case warp_op::reduce_xor: return red ^ v;
    default: return red;
  }
}

struct source_location {
  const char* file;
  int line;
};

// Returns the barrier's result (count of non-zero predicates, or 0/1 for and/or).
int block_barrier(barrier_op op, int predicate, source_location where);
// Returns this lane's result; `value` holds 4 or 8 bytes zero-extended, `arg` is the source
// lane / delta / lane mask of a shuffle, `width` its segment width.
std::uint64_t warp_collective(warp_op op, unsigned mask, std::uint64_t value, int arg, int width,
                              source_location where);
unsigned active_mask() noexcept;
// __activemask() at `where` (exec/intrinsics.cpp).
unsigned activemask_at(source_location where);
// Whether the running kernel was launched cooperatively (this_grid().sync() allowed).
bool grid_is_cooperative() noexcept;
// coalesced_threads(): the lanes of the calling warp waiting at this call site once every lane
// of the warp has stopped (at a synchronisation point or exited).
unsigned converged_lanes(source_location where);
unsigned lane_id() noexcept;

template <class T>
inline std::uint64_t to_bits(const T& v) {
  static_assert(std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8 ||
                                                    sizeof(T) == 2 || sizeof(T) == 1),
                "warp shuffles move 1, 2, 4 or 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}
template <class T>
inline T from_bits(std::uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

template <class T>
inline T shuffle(warp_op op, unsigned mask, T var, int arg, int width, source_location where) {
  return from_bits<T>(warp_collective(op, mask, to_bits(var), arg, width, where));
}

}  // namespace cuemu::detail

#define CUEMU_HERE_PARAMS const char *__cuemu_file = __builtin_FILE(), int __cuemu_line = __builtin_LINE()
#define CUEMU_HERE ::cuemu::detail::source_location{__cuemu_file, __cuemu_line}

inline void __syncthreads(CUEMU_HERE_PARAMS) {
  ::cuemu::detail::block_barrier(::cuemu::detail::barrier_op::sync, 1, CUEMU_HERE);
}
inline int __syncthreads_count(int predicate, CUEMU_HERE_PARAMS) {
  return ::cuemu::detail::block_barrier(::cuemu::detail::barrier_op::count, predicate, CUEMU_HERE);
}
inline int __syncthreads_and(int predicate, CUEMU_HERE_PARAMS) {
  return ::cuemu::detail::block_barrier(::cuemu::detail::barrier_op::and_, predicate, CUEMU_HERE);
}
inline int __syncthreads_or(int predicate, CUEMU_HERE_PARAMS) {
  return ::cuemu::detail::block_barrier(::cuemu::detail::barrier_op::or_, predicate, CUEMU_HERE);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, CUEMU_HERE_PARAMS) {
  ::cuemu::detail::warp_collective(::cuemu::detail::warp_op::syncwarp, mask, 0, 0, 32, CUEMU_HERE);
}
inline unsigned __activemask(CUEMU_HERE_PARAMS) { return ::cuemu::detail::activemask_at(CUEMU_HERE); }

template <class T>
inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32, CUEMU_HERE_PARAMS) {
  return ::cuemu::detail::shuffle(::cuemu::detail::warp_op::shfl_idx, mask, var, srcLane, width,
                                  CUEMU_HERE);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, CUEMU_HERE_PARAMS) {
  return ::cuemu::detail::shuffle(::cuemu::detail::warp_op::shfl_up, mask, var,
                                  static_cast<int>(delta), width, CUEMU_HERE);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32,
                          CUEMU_HERE_PARAMS) {
  return ::cuemu::detail::shuffle(::cuemu::detail::warp_op::shfl_down, mask, var,
                                  static_cast<int>(delta), width, CUEMU_HERE);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32, CUEMU_HERE_PARAMS) {
  return ::cuemu::detail::shuffle(::cuemu::detail::warp_op::shfl_xor, mask, var, laneMask, width,
                                  CUEMU_HERE);
}

inline unsigned __ballot_sync(unsigned mask, int predicate, CUEMU_HERE_PARAMS) {
  return static_cast<unsigned>(::cuemu::detail::warp_collective(
      ::cuemu::detail::warp_op::ballot, mask, predicate != 0, 0, 32, CUEMU_HERE));
}
inline int __any_sync(unsigned mask, int predicate, CUEMU_HERE_PARAMS) {
  return static_cast<int>(::cuemu::detail::warp_collective(
      ::cuemu::detail::warp_op::any, mask, predicate != 0, 0, 32, CUEMU_HERE));
}
inline int __all_sync(unsigned mask, int predicate, CUEMU_HERE_PARAMS) {
  return static_cast<int>(::cuemu::detail::warp_collective(
      ::cuemu::detail::warp_op::all, mask, predicate != 0, 0, 32, CUEMU_HERE));
}
inline unsigned __uni_sync(unsigned mask, int predicate, CUEMU_HERE_PARAMS) {
  const unsigned b = __ballot_sync(mask, predicate, __cuemu_file, __cuemu_line);
  return b == 0 || b == (mask & ::cuemu::detail::active_mask()) ? 1u : 0u;
}

// __match_any_sync / __match_all_sync on 32- and 64-bit values.
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value, CUEMU_HERE_PARAMS) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_any_sync takes 32- or 64-bit values");
  return static_cast<unsigned>(::cuemu::detail::warp_collective(
      ::cuemu::detail::warp_op::match_any, mask, ::cuemu::detail::to_bits(value), 0, 32,
      CUEMU_HERE));
}
template <class T>
inline unsigned __match_all_sync(unsigned mask, T value, int* pred, CUEMU_HERE_PARAMS) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_all_sync takes 32- or 64-bit values");
  const std::uint64_t r = ::cuemu::detail::warp_collective(
      ::cuemu::detail::warp_op::match_all, mask, ::cuemu::detail::to_bits(value), 0, 32,
      CUEMU_HERE);
  *pred = r != 0;
  return static_cast<unsigned>(r);
}

#define CUEMU_WARP_REDUCE(name, op, T)                                                        \
  inline T name(unsigned mask, T value, CUEMU_HERE_PARAMS) {                                  \
    return static_cast<T>(::cuemu::detail::warp_collective(                                   \
        ::cuemu::detail::warp_op::op, mask, static_cast<std::uint32_t>(value), 0, 32,         \
        CUEMU_HERE));                                                                         \
  }
CUEMU_WARP_REDUCE(__reduce_add_sync, reduce_add_u, unsigned)
CUEMU_WARP_REDUCE(__reduce_min_sync, reduce_min_u, unsigned)
CUEMU_WARP_REDUCE(__reduce_max_sync, reduce_max_u, unsigned)
CUEMU_WARP_REDUCE(__reduce_add_sync, reduce_add_i, int)
CUEMU_WARP_REDUCE(__reduce_min_sync, reduce_min_i, int)
CUEMU_WARP_REDUCE(__reduce_max_sync, reduce_max_i, int)
CUEMU_WARP_REDUCE(__reduce_and_sync, reduce_and, unsigned)
CUEMU_WARP_REDUCE(__reduce_or_sync, reduce_or, unsigned)
CUEMU_WARP_REDUCE(__reduce_xor_sync, reduce_xor, unsigned)
#undef CUEMU_WARP_REDUCE
