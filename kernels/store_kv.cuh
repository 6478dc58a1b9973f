// store_kv: for each new token i, copy k[i] to k_cache[indices[i]] and v[i] to v_cache[indices[i]].
//
// A lane group (1 to 32 neighbouring lanes of a warp, 2^lane_shift) copies one work item: a token's
// row, or one of 2^split_shift segments of it in the split variant; groups walk the items
// grid-stride (row_range.cuh). Lanes copy neighbouring units of type V, so the accesses coalesce,
// and each lane loads kUnroll units of k and of v before storing any. V = uint4 for rows whose
// pointers and strides are all 16-byte aligned; V = uint8_t (a unit of one byte) for rows of any
// even alignment, which are still moved in aligned 16-byte chunks (kUnroll of them per lane and
// array), realigned in registers when k and k_cache rows (or v and v_cache rows) are off a
// 16-byte boundary by different amounts (row_range.cuh). Other V (uint32_t, uint16_t) copy plain
// units; the launcher no longer uses them (kernels/bench compares them). The index of a group's
// next item is loaded before the current item is copied, so its latency overlaps the copy instead
// of preceding it.
//
// Every length and stride below is counted in units of V (the launcher converts from bytes).
// An index outside [0, cache_rows) is skipped: that row of the cache is not written.
#pragma once

#include <cstdint>

#include "row_range.cuh"

namespace kernels {

template <typename V, typename Index, int kUnroll, bool kStream>
__global__ void __launch_bounds__(kMaxThreadsPerBlock)
store_kv_kernel(V* __restrict__ k_cache, V* __restrict__ v_cache,
                const Index* __restrict__ indices, const V* __restrict__ k,
                const V* __restrict__ v, int64_t n, int64_t row_units, int64_t cache_rows,
                int64_t cache_stride, int64_t input_stride, int split_shift, int lane_shift) {
  static_assert(kUnroll >= 1 && kUnroll <= 16, "kUnroll must be 1..16");
  GroupCursor g(lane_shift);
  const int lanes = 1 << lane_shift;
  const int64_t items = n << split_shift;
  const int64_t part_mask = (int64_t{1} << split_shift) - 1;
  const int64_t seg_units = (row_units + part_mask) >> split_shift;
  const SourceSpan k_span = source_span(k, n, input_stride, row_units);
  const SourceSpan v_span = source_span(v, n, input_stride, row_units);
  int64_t next = g.item < items ? static_cast<int64_t>(indices[g.item >> split_shift]) : 0;
  for (; g.item < items; g.item += g.step) {
    const int64_t token = g.item >> split_shift;
    const int64_t slot = next;
    if (g.item + g.step < items) next = static_cast<int64_t>(indices[(g.item + g.step) >> split_shift]);
    if (slot < 0 || slot >= cache_rows) continue;  // out of the pool: leave the cache alone
    const RowSegment seg(row_units, seg_units, g.item & part_mask);
    copy_two_rows<kUnroll, kStream>(k_cache + slot * cache_stride, v_cache + slot * cache_stride,
                                    k + token * input_stride, v + token * input_stride, seg.begin,
                                    seg.end, g.lane, lanes, k_span, v_span);
  }
}

}  // namespace kernels
