// Vocabulary-parallel embedding lookup ("indexing"):
//   out[t] = weight[ids[t] - start]  when start <= ids[t] < start + length,
//   out[t] = a row of zeros          otherwise (ids of other shards, negative ids included).
//
// One warp per output row (kSplits warps per row in the split variant), lanes copy neighbouring
// units of type V; grid-stride loop over (row, segment) work items.
// Lengths and strides are counted in units of V. The shard test is done in signed 64-bit
// arithmetic on both sides (id >= start, then id - start < length), which cannot overflow because
// the launcher checks 0 <= start and start + length <= INT64_MAX.
#pragma once

#include <cstdint>

#include "row_range.cuh"

namespace kernels {

template <typename V, typename Index, int kSplits>
__global__ void __launch_bounds__(kThreadsPerBlock)
embedding_kernel(V* __restrict__ out, const V* __restrict__ weight,
                 const Index* __restrict__ ids, int64_t n, int64_t row_units, int64_t start,
                 int64_t length, int64_t out_stride, int64_t weight_stride) {
  static_assert(kSplits == 1 || kSplits == 2 || kSplits == 4, "kSplits must be 1, 2 or 4");
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int64_t items = n * kSplits;
  const int64_t step = grid_warp_count();
  for (int64_t item = global_warp_id(); item < items; item += step) {
    const int64_t token = item / kSplits;
    const int64_t id = static_cast<int64_t>(ids[token]);
    const bool valid = id >= start && id - start < length;
    const RowSegment<kSplits> seg(row_units, item % kSplits);
    V* __restrict__ dst = out + token * out_stride;
    if (valid) {
      const V* __restrict__ src = weight + (id - start) * weight_stride;
      for (int64_t i = seg.begin + lane; i < seg.end; i += kWarpSize) dst[i] = src[i];
    } else {
      for (int64_t i = seg.begin + lane; i < seg.end; i += kWarpSize) dst[i] = V{};
    }
  }
}

}  // namespace kernels
