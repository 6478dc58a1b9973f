// store_kv: for each new token i, copy k[i] to k_cache[indices[i]] and v[i] to v_cache[indices[i]].
//
// One warp per row (kSplits warps per row in the split variant); the lanes of a warp copy
// neighbouring units of type V (uint4, uint32_t or uint16_t), so the accesses coalesce.
// A grid-stride loop over (row, segment) work items lets any grid size cover any n.
//
// Every length and stride below is counted in units of V (the launcher converts from bytes).
// An index outside [0, cache_rows) is skipped: that row of the cache is not written.
#pragma once

#include <cstdint>

#include "row_range.cuh"

namespace kernels {

template <typename V, typename Index, int kSplits>
__global__ void __launch_bounds__(kThreadsPerBlock)
store_kv_kernel(V* __restrict__ k_cache, V* __restrict__ v_cache,
                const Index* __restrict__ indices, const V* __restrict__ k,
                const V* __restrict__ v, int64_t n, int64_t row_units, int64_t cache_rows,
                int64_t cache_stride, int64_t input_stride) {
  static_assert(kSplits == 1 || kSplits == 2 || kSplits == 4, "kSplits must be 1, 2 or 4");
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int64_t items = n * kSplits;
  const int64_t step = grid_warp_count();
  for (int64_t item = global_warp_id(); item < items; item += step) {
    const int64_t token = item / kSplits;
    const int64_t slot = static_cast<int64_t>(indices[token]);
    if (slot < 0 || slot >= cache_rows) continue;  // out of the pool: leave the cache alone
    const RowSegment<kSplits> seg(row_units, item % kSplits);
    V* __restrict__ kd = k_cache + slot * cache_stride;
    V* __restrict__ vd = v_cache + slot * cache_stride;
    const V* __restrict__ ks = k + token * input_stride;
    const V* __restrict__ vs = v + token * input_stride;
    for (int64_t i = seg.begin + lane; i < seg.end; i += kWarpSize) {
      kd[i] = ks[i];
      vd[i] = vs[i];
    }
  }
}

}  // namespace kernels
