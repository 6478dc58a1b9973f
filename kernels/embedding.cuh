// Vocabulary-parallel embedding lookup ("indexing"):
//   out[t] = weight[ids[t] - start]  when start <= ids[t] < start + length,
//   out[t] = a row of zeros          otherwise (ids of other shards, negative ids included).
//
// A lane group (1 to 32 neighbouring lanes of a warp) copies one work item: an output row, or one
// of 2^split_shift segments of it in the split variant; groups walk the items grid-stride
// (row_range.cuh). Lanes copy neighbouring units of type V, kUnroll loads in flight per lane; the
// id of a group's next item is loaded before the current item is copied. V = uint4 for 16-byte
// aligned rows, uint8_t (a unit of one byte) for rows of any even alignment, moved in aligned
// 16-byte chunks realigned in registers (row_range.cuh); zero rows likewise use aligned 16-byte
// stores between a narrow head and tail.
// Lengths and strides are counted in units of V. The shard test is done in signed 64-bit
// arithmetic on both sides (id >= start, then id - start < length), which cannot overflow because
// the launcher checks 0 <= start and start + length <= INT64_MAX.
#pragma once

#include <cstdint>

#include "row_range.cuh"

namespace kernels {

template <typename V, typename Index, int kUnroll, bool kStream>
__global__ void __launch_bounds__(kMaxThreadsPerBlock)
embedding_kernel(V* __restrict__ out, const V* __restrict__ weight,
                 const Index* __restrict__ ids, int64_t n, int64_t row_units, int64_t start,
                 int64_t length, int64_t out_stride, int64_t weight_stride, int split_shift,
                 int lane_shift) {
  static_assert(kUnroll >= 1 && kUnroll <= 16, "kUnroll must be 1..16");
  GroupCursor g(lane_shift);
  const int lanes = 1 << lane_shift;
  const int64_t items = n << split_shift;
  const int64_t part_mask = (int64_t{1} << split_shift) - 1;
  const int64_t seg_units = (row_units + part_mask) >> split_shift;
  const SourceSpan span = source_span(weight, length, weight_stride, row_units);
  int64_t next = g.item < items ? static_cast<int64_t>(ids[g.item >> split_shift]) : 0;
  for (; g.item < items; g.item += g.step) {
    const int64_t token = g.item >> split_shift;
    const int64_t id = next;
    if (g.item + g.step < items) next = static_cast<int64_t>(ids[(g.item + g.step) >> split_shift]);
    const bool valid = id >= start && id - start < length;
    const RowSegment seg(row_units, seg_units, g.item & part_mask);
    V* __restrict__ dst = out + token * out_stride;
    if (valid) {
      copy_row<kUnroll, kStream>(dst, weight + (id - start) * weight_stride, seg.begin, seg.end,
                                 g.lane, lanes, span);
    } else {
      zero_row<kStream>(dst, seg.begin, seg.end, g.lane, lanes);
    }
  }
}

}  // namespace kernels
