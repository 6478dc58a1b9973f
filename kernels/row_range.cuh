// Shared by the row-copy kernels: which (row, segment) a warp handles, and which units of the
// row belong to that segment. Plain CUDA C++, compiled by nvcc and by the cuemu emulator.
#pragma once

#include <cstdint>

namespace kernels {

constexpr int kWarpSize = 32;
constexpr int kThreadsPerBlock = 128;  // 4 warps per block
constexpr int kWarpsPerBlock = kThreadsPerBlock / kWarpSize;

// The global warp id of the calling thread and the number of warps in the grid, in 64-bit
// arithmetic so that a grid of 2^31-1 blocks does not overflow.
__device__ __forceinline__ int64_t global_warp_id() {
  return (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize;
}
__device__ __forceinline__ int64_t grid_warp_count() {
  return static_cast<int64_t>(gridDim.x) * blockDim.x / kWarpSize;
}

// Units [begin, end) of a row of `row_units` units that segment `part` of `kSplits` copies.
// The launcher only picks kSplits > 1 when the row divides evenly, but the ceiling split keeps
// every unit covered whatever the row length.
template <int kSplits>
struct RowSegment {
  int64_t begin;
  int64_t end;
  __device__ __forceinline__ RowSegment(int64_t row_units, int64_t part) {
    const int64_t per = (row_units + kSplits - 1) / kSplits;
    begin = part * per;
    end = begin + per < row_units ? begin + per : row_units;
  }
};

}  // namespace kernels
