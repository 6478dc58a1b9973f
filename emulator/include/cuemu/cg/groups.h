// Cooperative groups (namespace cooperative_groups), header-only, built on the emulator's block
// barrier and warp collectives (cuemu/sync_functions.h). Every member that synchronises takes
// the caller's file and line as defaulted trailing arguments, so deadlock and synccheck reports
// name the user's line rather than this header.
//
// Groups and their representation here:
//   thread_block            the whole block; sync() is __syncthreads.
//   thread_block_tile<N>    N = 1..32: a warp-level group (lane mask of the tile, shuffle width N);
//                           N = 64..1024: a multi-warp tile (see "multi-warp tiles" below).
//   coalesced_group         the lanes of one warp named by a mask (coalesced_threads(),
//                           labeled_partition, binary_partition, tiled_partition of a coalesced
//                           group); ranks are counted among the mask's lanes.
//   thread_group            the type-erased group every other group converts to (sync,
//                           thread_rank, size).
//   grid_group              ranks and sizes over the whole grid; sync() in a cooperative launch
//                           (cudaLaunchCooperativeKernel) waits for every block of the grid.
//
// Multi-warp tiles (N > 32) synchronise with the block barrier, so all threads of the block must
// reach the same multi-warp collective together (every sample and common use does); a block
// whose tiles diverge there is reported as a barrier problem rather than handled like a GPU.
#pragma once

#include <assert.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include "cuemu/sync_functions.h"

namespace cooperative_groups {

namespace details {

using ::cuemu::detail::source_location;

enum group_kind : unsigned char { kind_block, kind_warp, kind_multi_tile, kind_grid };

// Group type ids as CUDA numbers them (get_type()).
enum group_id : unsigned {
  coalesced_group_id = 1,
  grid_group_id = 2,
  thread_block_id = 3,
  multi_grid_group_id = 4,
  cluster_group_id = 5,
  multi_tile_group_id = 6,
};

inline unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned block_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned lane() { return block_rank() & 31u; }
inline unsigned lanemask_lt() { return (1u << lane()) - 1u; }
// The lanes of the calling warp that exist in the block (the last warp may be partial).
inline unsigned warp_existing_lanes() {
  const unsigned first = block_rank() & ~31u;
  const unsigned n = block_size() - first;
  return n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
}
// The mask of the size-n tile (n a power of two <= 32) holding the calling lane.
inline unsigned tile_mask(unsigned n) {
  const unsigned bits = n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
  return (bits << (lane() & ~(n - 1u))) & warp_existing_lanes();
}
// The lane of the k-th (0-based) set bit of mask, or 32 when there is none.
inline unsigned nth_lane(unsigned mask, unsigned k) {
  for (unsigned j = 0; j < 32; ++j) {
    if (mask & (1u << j)) {
      if (k == 0) return j;
      --k;
    }
  }
  return 32;
}
// Bit i of the result is bit (i-th lane of mask) of lanes: a lane mask in rank order.
inline unsigned pack_lanes(unsigned mask, unsigned lanes) {
  unsigned out = 0, rank = 0;
  for (unsigned j = 0; j < 32; ++j) {
    if (mask & (1u << j)) {
      if (lanes & (1u << j)) out |= 1u << rank;
      ++rank;
    }
  }
  return out;
}

[[noreturn]] inline void refuse(const char* what, source_location where) {
  // What the emulator cannot do: the kernel ends with a report naming the user's line, the
  // program sees a sticky error (cudaErrorAssert), and the process ends non-zero.
  ::cuemu::detail::device_unsupported(what, where.file, where.line);
}

// Warp shuffles of any trivially copyable type: 1, 2, 4 and 8 bytes move in one collective,
// larger types as 4-byte words (like CUDA's shuffle_dispatch).
template <class T>
T cg_shuffle(::cuemu::detail::warp_op op, unsigned mask, const T& v, int arg, int width,
          source_location where) {
  static_assert(std::is_trivially_copyable_v<T>, "cooperative groups shuffle trivially copyable types");
  if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) {
    return ::cuemu::detail::shuffle(op, mask, v, arg, width, where);
  } else {
    constexpr std::size_t words = (sizeof(T) + 3) / 4;
    std::uint32_t in[words] = {};
    std::uint32_t out[words];
    std::memcpy(in, &v, sizeof(T));
    for (std::size_t i = 0; i < words; ++i)
      out[i] = ::cuemu::detail::shuffle(op, mask, in[i], arg, width, where);
    T r;
    std::memcpy(&r, out, sizeof(T));
    return r;
  }
}

// A tile shuffle whose source lane lies in the tile's segment but past the end of a partial
// last warp (a block whose size is not a multiple of 32) reads 0, as lanes that were never
// launched do on a GPU (NVIDIA's reduction sample relies on it for blocks of 1 to 16 threads).
inline bool source_lane_missing(::cuemu::detail::warp_op op, int arg, unsigned width) {
  using ::cuemu::detail::warp_op;
  const int l = static_cast<int>(lane());
  const int lo = l & ~static_cast<int>(width - 1u);
  const int hi = lo + static_cast<int>(width) - 1;
  int j = l;
  bool valid = true;
  switch (op) {
    case warp_op::shfl_up: j = l - arg; valid = j >= lo; break;
    case warp_op::shfl_down: j = l + arg; valid = j <= hi; break;
    case warp_op::shfl_xor: j = l ^ (arg & 31); valid = j <= hi; break;
    default: j = lo + (arg & static_cast<int>(width - 1u)); break;
  }
  return valid && !(warp_existing_lanes() & (1u << j));
}
template <class T>
T tile_shuffle(::cuemu::detail::warp_op op, unsigned mask, const T& v, int arg, unsigned width,
               source_location where) {
  const T r = cg_shuffle<T>(op, mask, v, arg, static_cast<int>(width), where);
  if (warp_existing_lanes() != 0xffffffffu && source_lane_missing(op, arg, width)) return T{};
  return r;
}

// Scratch for multi-warp tiles: one slot per thread of the block, per worker thread (a worker
// runs one block at a time, like __shared__ here).
constexpr std::size_t multi_tile_slot_bytes = 32;
inline unsigned char* multi_tile_scratch() {
  alignas(16) static thread_local unsigned char buffer[1024 * multi_tile_slot_bytes];
  return buffer;
}

}  // namespace details

// ---------------------------------------------------------------------------------------------
// thread_group: the type-erased group.
class thread_group {
 protected:
  details::group_kind kind_ = details::kind_block;
  bool tiled_ = false;       // a warp-level group made by a tile partition (lanes contiguous)
  unsigned mask_ = 0;        // warp-level groups: the lanes of the group in the warp
  unsigned size_ = 0;        // number of threads
  unsigned meta_rank_ = 0;   // rank of this group among its parent's partitions
  unsigned meta_size_ = 1;

  thread_group() = default;

 public:
  // Internal (used by the group types and partitions of this header).
  thread_group(details::group_kind k, bool tiled, unsigned mask, unsigned size, unsigned meta_rank,
               unsigned meta_size)
      : kind_(k), tiled_(tiled), mask_(mask), size_(size), meta_rank_(meta_rank),
        meta_size_(meta_size) {}

  static thread_group make_warp_group(unsigned mask, bool tiled, unsigned meta_rank,
                                      unsigned meta_size) {
    return thread_group(details::kind_warp, tiled, mask, static_cast<unsigned>(__builtin_popcount(mask)),
                        meta_rank, meta_size);
  }

  unsigned long long num_threads() const {
    switch (kind_) {
      case details::kind_block: return details::block_size();
      case details::kind_grid:
        return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z *
               details::block_size();
      default: return size_;
    }
  }
  unsigned long long size() const { return num_threads(); }
  unsigned long long thread_rank() const {
    switch (kind_) {
      case details::kind_block: return details::block_rank();
      case details::kind_warp:
        return static_cast<unsigned>(__builtin_popcount(mask_ & details::lanemask_lt()));
      case details::kind_multi_tile: return details::block_rank() & (size_ - 1u);
      case details::kind_grid: {
        const unsigned long long b =
            blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                             (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
        return b * details::block_size() + details::block_rank();
      }
    }
    return 0;
  }
  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }
  bool is_valid() const { return kind_ != details::kind_grid && (kind_ != details::kind_warp || mask_ != 0); }
  unsigned get_type() const {
    switch (kind_) {
      case details::kind_block: return details::thread_block_id;
      case details::kind_grid: return details::grid_group_id;
      case details::kind_multi_tile: return details::multi_tile_group_id;
      default: return details::coalesced_group_id;
    }
  }
  void sync(CUEMU_HERE_PARAMS) const {
    switch (kind_) {
      case details::kind_block:
      case details::kind_multi_tile:
        ::cuemu::detail::block_barrier(::cuemu::detail::barrier_op::sync, 1, CUEMU_HERE);
        break;
      case details::kind_warp:
        ::cuemu::detail::warp_collective(::cuemu::detail::warp_op::syncwarp, mask_, 0, 0, 32,
                                         CUEMU_HERE);
        break;
      case details::kind_grid:
        // A cooperative launch's grid barrier (a GPU traps in any other launch).
        ::cuemu::detail::block_barrier(::cuemu::detail::barrier_op::grid, 1, CUEMU_HERE);
        break;
    }
  }
  // Internal: the lane mask of a warp-level group.
  unsigned _lane_mask() const { return mask_; }
  bool _is_warp_level() const { return kind_ == details::kind_warp; }
};

// ---------------------------------------------------------------------------------------------
// Warp-level groups: the collectives shared by thread_block_tile<N <= 32> and coalesced_group.
// Width is the shuffle segment for a tile (N), 32 for a coalesced group (ranks are mapped to
// lanes instead).
template <unsigned Width>
class warp_group_ops : public thread_group {
 protected:
  using thread_group::thread_group;
  warp_group_ops(const thread_group& g) : thread_group(g) {}
  static constexpr bool is_tile = Width != 0;
  unsigned lane_of_rank(unsigned r) const {
    if (is_tile) return (details::lane() & ~(Width - 1u)) + r;
    return details::nth_lane(mask_, r);
  }

 public:
  unsigned thread_rank() const {
    return static_cast<unsigned>(__builtin_popcount(mask_ & details::lanemask_lt()));
  }
  unsigned num_threads() const { return size_; }
  unsigned size() const { return size_; }
  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }
  void sync(CUEMU_HERE_PARAMS) const {
    ::cuemu::detail::warp_collective(::cuemu::detail::warp_op::syncwarp, mask_, 0, 0, 32,
                                     CUEMU_HERE);
  }

  template <class T>
  std::remove_cv_t<std::remove_reference_t<T>> shfl(T&& var, int src_rank, CUEMU_HERE_PARAMS) const {
    using V = std::remove_cv_t<std::remove_reference_t<T>>;
    if constexpr (is_tile) {
      return details::tile_shuffle<V>(::cuemu::detail::warp_op::shfl_idx, mask_, var, src_rank,
                                      Width, CUEMU_HERE);
    } else {
      unsigned l = details::nth_lane(mask_, static_cast<unsigned>(src_rank) % (size_ ? size_ : 1u));
      return details::cg_shuffle<V>(::cuemu::detail::warp_op::shfl_idx, mask_, var,
                                 static_cast<int>(l), 32, CUEMU_HERE);
    }
  }
  template <class T>
  std::remove_cv_t<std::remove_reference_t<T>> shfl_down(T&& var, unsigned delta,
                                                         CUEMU_HERE_PARAMS) const {
    using V = std::remove_cv_t<std::remove_reference_t<T>>;
    if constexpr (is_tile) {
      return details::tile_shuffle<V>(::cuemu::detail::warp_op::shfl_down, mask_, var,
                                      static_cast<int>(delta), Width, CUEMU_HERE);
    } else {
      const unsigned r = thread_rank() + delta;
      const unsigned l = r < size_ ? details::nth_lane(mask_, r) : details::lane();
      return details::cg_shuffle<V>(::cuemu::detail::warp_op::shfl_idx, mask_, var,
                                 static_cast<int>(l), 32, CUEMU_HERE);
    }
  }
  template <class T>
  std::remove_cv_t<std::remove_reference_t<T>> shfl_up(T&& var, unsigned delta,
                                                       CUEMU_HERE_PARAMS) const {
    using V = std::remove_cv_t<std::remove_reference_t<T>>;
    if constexpr (is_tile) {
      return details::tile_shuffle<V>(::cuemu::detail::warp_op::shfl_up, mask_, var,
                                      static_cast<int>(delta), Width, CUEMU_HERE);
    } else {
      const unsigned me = thread_rank();
      const unsigned l = delta <= me ? details::nth_lane(mask_, me - delta) : details::lane();
      return details::cg_shuffle<V>(::cuemu::detail::warp_op::shfl_idx, mask_, var,
                                 static_cast<int>(l), 32, CUEMU_HERE);
    }
  }
  // shfl_xor exists on tiles only (as in CUDA).
  template <class T, unsigned W = Width, class = std::enable_if_t<(W != 0)>>
  std::remove_cv_t<std::remove_reference_t<T>> shfl_xor(T&& var, unsigned lane_mask,
                                                        CUEMU_HERE_PARAMS) const {
    using V = std::remove_cv_t<std::remove_reference_t<T>>;
    return details::tile_shuffle<V>(::cuemu::detail::warp_op::shfl_xor, mask_, var,
                                    static_cast<int>(lane_mask), Width, CUEMU_HERE);
  }

  unsigned ballot(int predicate, CUEMU_HERE_PARAMS) const {
    const unsigned b = static_cast<unsigned>(::cuemu::detail::warp_collective(
        ::cuemu::detail::warp_op::ballot, mask_, predicate != 0, 0, 32, CUEMU_HERE));
    return details::pack_lanes(mask_, b);
  }
  int any(int predicate, CUEMU_HERE_PARAMS) const {
    return static_cast<int>(::cuemu::detail::warp_collective(
        ::cuemu::detail::warp_op::any, mask_, predicate != 0, 0, 32, CUEMU_HERE));
  }
  int all(int predicate, CUEMU_HERE_PARAMS) const {
    return static_cast<int>(::cuemu::detail::warp_collective(
        ::cuemu::detail::warp_op::all, mask_, predicate != 0, 0, 32, CUEMU_HERE));
  }
  template <class T>
  unsigned match_any(T value, CUEMU_HERE_PARAMS) const {
    static_assert(std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                  "match_any takes 32- or 64-bit values");
    const unsigned m = static_cast<unsigned>(::cuemu::detail::warp_collective(
        ::cuemu::detail::warp_op::match_any, mask_, ::cuemu::detail::to_bits(value), 0, 32,
        CUEMU_HERE));
    return details::pack_lanes(mask_, m);
  }
  template <class T>
  unsigned match_all(T value, int& pred, CUEMU_HERE_PARAMS) const {
    static_assert(std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                  "match_all takes 32- or 64-bit values");
    const unsigned m = static_cast<unsigned>(::cuemu::detail::warp_collective(
        ::cuemu::detail::warp_op::match_all, mask_, ::cuemu::detail::to_bits(value), 0, 32,
        CUEMU_HERE));
    pred = m != 0;
    return details::pack_lanes(mask_, m);
  }
};

// ---------------------------------------------------------------------------------------------
class coalesced_group : public warp_group_ops<0> {
 public:
  explicit coalesced_group(unsigned mask, unsigned meta_rank = 0, unsigned meta_size = 1,
                           bool tiled = false)
      : warp_group_ops<0>(thread_group::make_warp_group(mask, tiled, meta_rank, meta_size)) {}
  static constexpr unsigned _group_id = details::coalesced_group_id;
};

inline coalesced_group coalesced_threads(CUEMU_HERE_PARAMS) {
  // The lanes of the warp at this call site together, once every lane of the warp has stopped
  // (what a GPU's converged lanes are here).
  return coalesced_group(::cuemu::detail::converged_lanes(CUEMU_HERE));
}

// ---------------------------------------------------------------------------------------------
class thread_block;
template <unsigned N, class ParentT = void>
class thread_block_tile;

template <unsigned MaxBlockSize = 1024, unsigned TileCommunicationSize = 8,
          unsigned MaxNumWarps = 32>
struct block_tile_memory {
  // CUDA's scratch for multi-warp tiles; the emulator keeps its own, so this only reserves the
  // name (and a little space, so that taking its address is meaningful).
  alignas(16) unsigned char memory[16];
};

class thread_block : public thread_group {
  friend thread_block this_thread_block();
  template <unsigned B, unsigned C, unsigned W>
  friend thread_block this_thread_block(block_tile_memory<B, C, W>&);
  thread_block() : thread_group(details::kind_block, false, 0, 0, 0, 1) {}

 public:
  static constexpr unsigned _group_id = details::thread_block_id;
  static unsigned thread_rank() { return details::block_rank(); }
  static unsigned size() { return details::block_size(); }
  static unsigned num_threads() { return details::block_size(); }
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 dim_threads() { return blockDim; }
  static dim3 group_dim() { return blockDim; }
  static bool is_valid() { return true; }
  static void sync(CUEMU_HERE_PARAMS) {
    ::cuemu::detail::block_barrier(::cuemu::detail::barrier_op::sync, 1, CUEMU_HERE);
  }
  // barrier_arrive/barrier_wait (CUDA 12.x split barrier) are not provided.
};

inline thread_block this_thread_block() { return thread_block(); }
template <unsigned B, unsigned C, unsigned W>
inline thread_block this_thread_block(block_tile_memory<B, C, W>&) {
  return thread_block();
}

// ---------------------------------------------------------------------------------------------
// thread_block_tile<N>, N = 1, 2, 4, 8, 16, 32: a warp-level tile.
namespace details {
template <unsigned N>
constexpr bool single_warp_tile = N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32;
template <unsigned N>
constexpr bool multi_warp_tile = N == 64 || N == 128 || N == 256 || N == 512 || N == 1024;
template <unsigned N>
struct tile_base_select;
}  // namespace details

template <unsigned N, class ParentT>
class thread_block_tile : public warp_group_ops<(N <= 32 ? N : 32)> {
  static_assert(details::single_warp_tile<N> || details::multi_warp_tile<N>,
                "thread_block_tile size must be a power of two from 1 to 1024");
  using base = warp_group_ops<(N <= 32 ? N : 32)>;

 public:
  static constexpr unsigned _group_id =
      N <= 32 ? details::coalesced_group_id : details::multi_tile_group_id;
  static constexpr unsigned numThreads = N;

  // Made by tiled_partition<N>(parent): parent_rank is the caller's rank in the parent,
  // parent_size the parent's size.
  thread_block_tile(unsigned parent_rank, unsigned parent_size)
      : base(N <= 32 ? thread_group::make_warp_group(details::tile_mask(N <= 32 ? N : 32), true,
                                                     parent_rank / N, (parent_size + N - 1) / N)
                     : thread_group(details::kind_multi_tile, true, 0, N, parent_rank / N,
                                    (parent_size + N - 1) / N)) {}
  template <class P>
  thread_block_tile(const thread_block_tile<N, P>& o) : base(static_cast<const thread_group&>(o)) {}

  static constexpr unsigned num_threads() { return N; }
  static constexpr unsigned size() { return N; }
  static unsigned thread_rank() { return details::block_rank() & (N - 1u); }
  unsigned meta_group_rank() const { return this->meta_rank_; }
  unsigned meta_group_size() const { return this->meta_size_; }
  static bool is_valid() { return true; }

  void sync(CUEMU_HERE_PARAMS) const {
    if constexpr (N <= 32) {
      base::sync(__cuemu_file, __cuemu_line);
    } else {
      ::cuemu::detail::block_barrier(::cuemu::detail::barrier_op::sync, 1, CUEMU_HERE);
    }
  }

  // Multi-warp tiles: shuffle from a rank through the block's scratch, bracketed by barriers.
  template <class T, unsigned M = N, std::enable_if_t<(M > 32), int> = 0>
  std::remove_cv_t<std::remove_reference_t<T>> shfl(T&& var, unsigned src_rank,
                                                    CUEMU_HERE_PARAMS) const {
    using V = std::remove_cv_t<std::remove_reference_t<T>>;
    static_assert(sizeof(V) <= details::multi_tile_slot_bytes, "multi-warp tile shuffles take values up to 32 bytes");
    unsigned char* s = details::multi_tile_scratch();
    const unsigned base_rank = details::block_rank() - thread_rank();
    if (thread_rank() == src_rank) std::memcpy(s + details::block_rank() * details::multi_tile_slot_bytes, &var, sizeof(V));
    ::cuemu::detail::block_barrier(::cuemu::detail::barrier_op::sync, 1, CUEMU_HERE);
    V r;
    std::memcpy(&r, s + (base_rank + src_rank % N) * details::multi_tile_slot_bytes, sizeof(V));
    ::cuemu::detail::block_barrier(::cuemu::detail::barrier_op::sync, 1, CUEMU_HERE);
    return r;
  }
  template <class T, unsigned M = N, std::enable_if_t<(M <= 32), int> = 0>
  std::remove_cv_t<std::remove_reference_t<T>> shfl(T&& var, int src_rank,
                                                    CUEMU_HERE_PARAMS) const {
    return base::shfl(std::forward<T>(var), src_rank, __cuemu_file, __cuemu_line);
  }
  // Multi-warp tiles: every thread gets the fold of the tile's values in rank order.
  template <class T, class Op>
  T _multi_reduce(const T& value, Op op, ::cuemu::detail::source_location where) const {
    static_assert(sizeof(T) <= details::multi_tile_slot_bytes, "multi-warp tile reductions take values up to 32 bytes");
    unsigned char* s = details::multi_tile_scratch();
    const unsigned base_rank = details::block_rank() - thread_rank();
    std::memcpy(s + details::block_rank() * details::multi_tile_slot_bytes, &value, sizeof(T));
    ::cuemu::detail::block_barrier(::cuemu::detail::barrier_op::sync, 1, where);
    T acc;
    std::memcpy(&acc, s + base_rank * details::multi_tile_slot_bytes, sizeof(T));
    for (unsigned r = 1; r < N; ++r) {
      T v;
      std::memcpy(&v, s + (base_rank + r) * details::multi_tile_slot_bytes, sizeof(T));
      acc = op(acc, v);
    }
    ::cuemu::detail::block_barrier(::cuemu::detail::barrier_op::sync, 1, where);
    return acc;
  }
};

// tiled_partition<N>(parent): parent is a thread_block or a larger thread_block_tile.
template <unsigned N>
inline thread_block_tile<N> tiled_partition(const thread_block& parent) {
  return thread_block_tile<N>(parent.thread_rank(), parent.size());
}
template <unsigned N, unsigned M, class P>
inline thread_block_tile<N> tiled_partition(const thread_block_tile<M, P>& parent) {
  static_assert(N <= M, "tiled_partition<N> of a tile needs N <= the tile's size");
  return thread_block_tile<N>(parent.thread_rank(), M);
}

// Dynamic tiled_partition(parent, n): n a power of two from 1 to 32; the result is a warp-level
// group (CUDA returns a thread_group, or a coalesced_group for a coalesced parent).
inline thread_group tiled_partition(const thread_group& parent, unsigned tilesz) {
  if (tilesz == 0 || tilesz > 32 || (tilesz & (tilesz - 1)) != 0)
    details::refuse("tiled_partition(parent, n): n must be a power of two from 1 to 32",
                    {__builtin_FILE(), __builtin_LINE()});
  const unsigned prank = static_cast<unsigned>(parent.thread_rank());
  const unsigned psize = static_cast<unsigned>(parent.size());
  if (parent._is_warp_level()) {
    // Ranks prank/tilesz*tilesz .. +tilesz-1 of the parent, whatever its lanes.
    const unsigned pmask = parent._lane_mask();
    const unsigned first = prank / tilesz * tilesz;
    unsigned mask = 0;
    for (unsigned r = first; r < first + tilesz && r < psize; ++r)
      mask |= 1u << details::nth_lane(pmask, r);
    return thread_group::make_warp_group(mask, true, prank / tilesz, (psize + tilesz - 1) / tilesz);
  }
  return thread_group::make_warp_group(details::tile_mask(tilesz), true, prank / tilesz,
                                       (psize + tilesz - 1) / tilesz);
}
inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned tilesz) {
  const thread_group g = tiled_partition(static_cast<const thread_group&>(parent), tilesz);
  return coalesced_group(g._lane_mask(), g.meta_group_rank(), g.meta_group_size(), true);
}

// ---------------------------------------------------------------------------------------------
// labeled_partition / binary_partition of a warp-level group: coalesced groups of the lanes
// with the same label (__match_any_sync) or predicate (__ballot_sync).
template <class G, class Label>
inline coalesced_group labeled_partition(const G& parent, Label label, CUEMU_HERE_PARAMS) {
  static_assert(std::is_integral_v<Label>, "labeled_partition takes an integral label");
  static_assert(std::is_base_of_v<thread_group, G>, "labeled_partition takes a group");
  const unsigned pmask = parent._lane_mask();
  std::uint64_t v = sizeof(Label) <= 4 ? static_cast<std::uint32_t>(label)
                                      : static_cast<std::uint64_t>(label);
  const unsigned m = static_cast<unsigned>(::cuemu::detail::warp_collective(
      ::cuemu::detail::warp_op::match_any, pmask, v, 0, 32, CUEMU_HERE));
  return coalesced_group(m);
}
template <class G>
inline coalesced_group binary_partition(const G& parent, bool pred, CUEMU_HERE_PARAMS) {
  static_assert(std::is_base_of_v<thread_group, G>, "binary_partition takes a group");
  const unsigned pmask = parent._lane_mask();
  const unsigned b = static_cast<unsigned>(::cuemu::detail::warp_collective(
      ::cuemu::detail::warp_op::ballot, pmask, pred ? 1 : 0, 0, 32, CUEMU_HERE));
  return coalesced_group(pred ? (pmask & b) : (pmask & ~b));
}

// ---------------------------------------------------------------------------------------------
class grid_group : public thread_group {
  friend grid_group this_grid();
  grid_group() : thread_group(details::kind_grid, false, 0, 0, 0, 1) {}

 public:
  static constexpr unsigned _group_id = details::grid_group_id;
  // True in a cooperative launch (cudaLaunchCooperativeKernel), where sync() is allowed.
  static bool is_valid() { return ::cuemu::detail::grid_is_cooperative(); }
  static unsigned long long num_blocks() {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  }
  static unsigned long long block_rank() {
    return blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                            (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  }
  static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 dim_blocks() { return gridDim; }
  static dim3 group_dim() { return gridDim; }
  static unsigned long long num_threads() { return num_blocks() * details::block_size(); }
  static unsigned long long size() { return num_threads(); }
  static unsigned long long thread_rank() {
    return block_rank() * details::block_size() + details::block_rank();
  }
  static dim3 dim_threads() { return blockDim; }
  void sync(CUEMU_HERE_PARAMS) const { thread_group::sync(__cuemu_file, __cuemu_line); }
};
inline grid_group this_grid() { return grid_group(); }

// ---------------------------------------------------------------------------------------------
// Free functions.
template <class G>
inline void sync(const G& g, CUEMU_HERE_PARAMS) {
  g.sync(__cuemu_file, __cuemu_line);
}
template <class G>
inline auto thread_rank(const G& g) -> decltype(g.thread_rank()) {
  return g.thread_rank();
}
template <class G>
inline auto group_size(const G& g) -> decltype(g.num_threads()) {
  return g.num_threads();
}

// invoke_one: one thread of the group (its rank 0, the lane elect.sync picks in a warp) calls fn;
// invoke_one_broadcast (coalesced groups and tiles) also gives every thread the result.
template <class Group, class Fn, class... Args>
inline void invoke_one(const Group& group, Fn&& fn, Args&&... args) {
  if (group.thread_rank() == 0) std::forward<Fn>(fn)(std::forward<Args>(args)...);
}
template <class Group, class Fn, class... Args>
inline auto invoke_one_broadcast(const Group& group, Fn&& fn, Args&&... args)
    -> std::remove_reference_t<decltype(std::forward<Fn>(fn)(std::forward<Args>(args)...))> {
  using result_type = decltype(std::forward<Fn>(fn)(std::forward<Args>(args)...));
  static_assert(!std::is_same_v<result_type, void>,
                "For invocables returning void invoke_one should be used instead");
  std::remove_cv_t<std::remove_reference_t<result_type>> result{};
  if (group.thread_rank() == 0) result = std::forward<Fn>(fn)(std::forward<Args>(args)...);
  return group.shfl(result, 0);
}

}  // namespace cooperative_groups
