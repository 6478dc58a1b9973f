// Shared by the row-copy kernels (store_kv, embedding): how the threads of a grid map onto
// (row, segment) work items, and the unrolled copy loops. Plain CUDA C++ (no inline PTX), compiled
// by nvcc and by the cuemu emulator, so the self-check runs exactly the shipped code.
//
// Work items and lane groups. A row of `row_units` units is cut into 2^split_shift segments
// (ceil split); item = token * 2^split_shift + segment. A group of 2^lane_shift neighbouring lanes
// of one warp (1 to 32 lanes: short rows share a warp, so no lane idles) copies one item; groups
// walk the items grid-stride, so any grid covers any n. Within an item, each lane moves kUnroll
// units per array per step, all loads first, then all stores, so kUnroll (x2 for store_kv)
// independent loads per lane are in flight instead of one.
#pragma once

#include <cstdint>

namespace kernels {

constexpr int kWarpSize = 32;
constexpr int kThreadsPerBlock = 128;     // block size the launchers use (4 warps)
constexpr int kMaxThreadsPerBlock = 256;  // __launch_bounds__ of the row-copy kernels

// Loads and stores with an optional streaming (evict-first) cache hint. The emulator's headers
// provide __ldcs / __stcs as plain accesses.
template <bool kStream, typename V>
__device__ __forceinline__ V load_unit(const V* p) {
  if (kStream) return __ldcs(p);
  return *p;
}
template <bool kStream, typename V>
__device__ __forceinline__ void store_unit(V* p, const V& x) {
  if (kStream) {
    __stcs(p, x);
  } else {
    *p = x;
  }
}

// Which work items the calling thread's lane group handles: first item, step, lane in group.
struct GroupCursor {
  int64_t item;
  int64_t step;
  int lane;
  __device__ __forceinline__ explicit GroupCursor(int lane_shift) {
    const int64_t thread = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    item = thread >> lane_shift;
    step = (static_cast<int64_t>(gridDim.x) * blockDim.x) >> lane_shift;
    lane = static_cast<int>(threadIdx.x & ((1u << lane_shift) - 1u));
  }
};

// Units [begin, end) of a row of `row_units` units that segment `part` copies when the row is cut
// into segments of `seg_units` (= ceil(row_units / splits)): every unit is covered once.
struct RowSegment {
  int64_t begin;
  int64_t end;
  __device__ __forceinline__ RowSegment(int64_t row_units, int64_t seg_units, int64_t part) {
    begin = part * seg_units;
    end = begin + seg_units < row_units ? begin + seg_units : row_units;
  }
};

// Copies units [i0, end) (i0 = segment begin + lane) of two rows at a lane stride of `lanes`:
// per step kUnroll units of each source are loaded before any is stored.
template <int kUnroll, bool kStream, typename V>
__device__ __forceinline__ void copy_two_rows(V* __restrict__ d0, V* __restrict__ d1,
                                              const V* __restrict__ s0, const V* __restrict__ s1,
                                              int64_t i0, int64_t end, int lanes) {
  for (int64_t i = i0; i < end; i += static_cast<int64_t>(lanes) * kUnroll) {
    V a[kUnroll];
    V b[kUnroll];
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t j = i + static_cast<int64_t>(u) * lanes;
      if (j < end) {
        a[u] = load_unit<kStream>(s0 + j);
        b[u] = load_unit<kStream>(s1 + j);
      } else {
        a[u] = V{};
        b[u] = V{};
      }
    }
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t j = i + static_cast<int64_t>(u) * lanes;
      if (j < end) {
        store_unit<kStream>(d0 + j, a[u]);
        store_unit<kStream>(d1 + j, b[u]);
      }
    }
  }
}

// One row: units [i0, end) of src to dst, kUnroll loads in flight per lane.
template <int kUnroll, bool kStream, typename V>
__device__ __forceinline__ void copy_row(V* __restrict__ dst, const V* __restrict__ src,
                                         int64_t i0, int64_t end, int lanes) {
  for (int64_t i = i0; i < end; i += static_cast<int64_t>(lanes) * kUnroll) {
    V a[kUnroll];
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t j = i + static_cast<int64_t>(u) * lanes;
      a[u] = j < end ? load_unit<kStream>(src + j) : V{};
    }
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t j = i + static_cast<int64_t>(u) * lanes;
      if (j < end) store_unit<kStream>(dst + j, a[u]);
    }
  }
}

// Zeros units [i0, end) of dst.
template <bool kStream, typename V>
__device__ __forceinline__ void zero_row(V* __restrict__ dst, int64_t i0, int64_t end, int lanes) {
  for (int64_t i = i0; i < end; i += lanes) store_unit<kStream>(dst + i, V{});
}

}  // namespace kernels
