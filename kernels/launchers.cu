// Host launchers: validate, plan (copy unit, warps per row, grid), launch. See launchers.h.
#include "launchers.h"

#include <cstdint>

#include "embedding.cuh"
#include "row_range.cuh"
#include "store_kv.cuh"

namespace kernels {

const char* status_message(Status s) {
  switch (s) {
    case Status::kOk: return "ok";
    case Status::kNullPointer: return "null pointer: a required buffer is null while n > 0";
    case Status::kNegativeCount: return "negative count: n < 0";
    case Status::kBadRowBytes:
      return "bad row size: row_bytes must be > 0 and a multiple of element_size";
    case Status::kBadElementSize: return "unsupported element size: must be 2, 4 or 8 bytes";
    case Status::kBadStride:
      return "bad stride: a row stride is smaller than row_bytes or not a multiple of "
             "element_size";
    case Status::kMisaligned:
      return "misaligned: a row pointer or stride is not 2-byte aligned, or the index array is "
             "not aligned to its index type";
    case Status::kBadIndexType: return "unsupported index type: must be int32 or int64";
    case Status::kBadCacheRows: return "bad cache size: cache_rows must be > 0 while n > 0";
    case Status::kBadShard:
      return "bad shard: start and length must be >= 0 and start + length must fit in int64";
    case Status::kTooLarge: return "too large: a byte offset would overflow int64";
    case Status::kBadMaxBlocks: return "bad max_blocks: must be >= 0 (0 means no limit)";
    case Status::kCudaError: return "CUDA error: the kernel launch failed (see cuda_error)";
  }
  return "unknown status";
}

const char* copy_path_name(CopyPath p) {
  switch (p) {
    case CopyPath::kUint4: return "uint4";
    case CopyPath::kUint32: return "uint32";
    case CopyPath::kUint16: return "uint16";
    case CopyPath::kNone: return "none";
  }
  return "unknown";
}

namespace {

constexpr int64_t kMaxGridBlocks = 2147483647;         // gridDim.x limit, 2^31 - 1
constexpr int64_t kMaxRows = int64_t{1} << 56;          // keeps n * splits + grid step < 2^63
constexpr int64_t kInt64Max = INT64_MAX;
// 16-byte chunks each lane copies per step (loads in flight per lane and array), by kernel and
// path, as measured on an H200 (kernels/bench/RESULTS.md: the explore and study tables).
// store_kv on the uint4 path: a warp moves 512 contiguous bytes of k and of v per step (1 chunk per
// lane); more per lane lost because its scattered cache writes, not load latency, limit it. Its
// chunked paths (uint32 / uint16: 16-byte chunks between a narrow head and tail) gain from 2 per
// lane once a segment is over 256 bytes. The embedding, whose weight-row reads are scattered, gains
// from more loads in flight: 4 chunks per lane on the uint4 path, 2 on the chunked path with every
// row's phase 0 (whose occupancy the third and fourth cost), 8 when realigning.
int store_kv_unroll(bool chunked, bool /*realign*/, int64_t seg_bytes) {
  return chunked && seg_bytes > 256 ? 2 : 1;
}
int embedding_unroll(bool chunked, bool realign, int64_t /*seg_bytes*/) {
  return !chunked ? 4 : realign ? 8 : 2;
}
constexpr bool kStreaming = false;  // __ldcs/__stcs hints: no gain measured (RESULTS.md)

// The largest power of two (16, 4 or 2) dividing every value, or 0 if some value is odd.
int64_t common_alignment(const int64_t* values, int count) {
  uint64_t bits = 0;
  for (int i = 0; i < count; ++i) bits |= static_cast<uint64_t>(values[i]);
  if (bits % 16 == 0) return 16;
  if (bits % 4 == 0) return 4;
  if (bits % 2 == 0) return 2;
  return 0;
}

int64_t address(const void* p) { return static_cast<int64_t>(reinterpret_cast<uintptr_t>(p)); }

// Segments per row. store_kv's chunked paths (rows not 16-byte aligned) take whole rows: a cut
// 4 or 2 bytes off a sector boundary leaves two more partly written sectors per cut, and on the
// H200 whole rows reached 0.82 of memcpy at 512K x 2 KiB against 0.67 with 4 segments
// (kernels/bench/RESULTS.md, 2026-12-04).
int choose_splits(int64_t row_bytes, bool whole_rows) {
  if (whole_rows) return 1;
  if (row_bytes % 2048 == 0) return 4;
  if (row_bytes % 1024 == 0) return 2;
  return 1;
}

int log2_of(int64_t pow2) {
  int s = 0;
  while ((int64_t{1} << s) < pow2) ++s;
  return s;
}

// Lanes per work item: the smallest power of two (at most a warp) whose lanes cover the segment
// with `unroll` units each, so that short rows share a warp instead of idling lanes.
int choose_lanes(int64_t seg_units, int unroll) {
  const int64_t per_lane = (seg_units + unroll - 1) / unroll;
  int lanes = 1;
  while (lanes < kWarpSize && lanes < per_lane) lanes *= 2;
  return lanes;
}

bool valid_element_size(int64_t es) { return es == 2 || es == 4 || es == 8; }
bool valid_index_type(IndexType t) { return t == IndexType::kInt32 || t == IndexType::kInt64; }
int64_t index_size(IndexType t) { return t == IndexType::kInt64 ? 8 : 4; }
bool valid_stride(int64_t stride, int64_t row_bytes, int64_t es) {
  return stride >= row_bytes && stride % es == 0;
}
// Whether rows [0, rows) of `row_bytes` bytes at `stride` stay below 2^63 bytes.
bool fits(int64_t rows, int64_t stride, int64_t row_bytes) {
  if (rows <= 0) return true;
  if (rows > kMaxRows) return false;
  return rows - 1 <= (kInt64Max - row_bytes) / stride;
}

Status reject(LaunchPlan* plan, Status s) {
  if (plan != nullptr) *plan = LaunchPlan{};
  return s;
}

// Fills the parts of the plan common to both kernels once the path is known. Every path moves
// 16-byte chunks (the uint32 / uint16 paths between a narrow head and tail), so the lane group is
// sized by the segment's 16-byte chunks, rounded up.
Status finish_plan(LaunchPlan* plan, int64_t n, int64_t row_bytes, int64_t align,
                   int64_t max_blocks, int (*unroll_for)(bool, bool, int64_t),
                   bool realign = false, bool chunked_whole_rows = false) {
  LaunchPlan p;
  p.threads = kThreadsPerBlock;
  if (n > 0) {
    p.path = static_cast<CopyPath>(align);
    p.realign = align != 16 && realign;
    p.num_splits = choose_splits(row_bytes, chunked_whole_rows && align != 16);
    const int64_t seg_bytes = (row_bytes + p.num_splits - 1) / p.num_splits;
    p.unroll = unroll_for(align != 16, p.realign, seg_bytes);
    p.lanes = choose_lanes((seg_bytes + 15) / 16, p.unroll);
    const int64_t groups_per_block = kThreadsPerBlock / p.lanes;
    const int64_t items = n * p.num_splits;
    const int64_t cap = max_blocks > 0 && max_blocks < kMaxGridBlocks ? max_blocks : kMaxGridBlocks;
    const int64_t blocks = (items + groups_per_block - 1) / groups_per_block;
    p.blocks = blocks < cap ? blocks : cap;
  }
  if (plan != nullptr) *plan = p;
  return Status::kOk;
}

// ---- store_kv dispatch: path -> index type ----
// V: uint4 for the uint4 path, uint8_t (byte units, realigned 16-byte chunks) for the others.
template <typename V, typename Index, int kUnroll>
void store_kv_typed(const StoreKvArgs& a, const LaunchPlan& p, cudaStream_t stream) {
  constexpr int64_t u = sizeof(V);
  store_kv_kernel<V, Index, kUnroll, kStreaming>
      <<<static_cast<unsigned int>(p.blocks), p.threads, 0, stream>>>(
          static_cast<V*>(a.k_cache), static_cast<V*>(a.v_cache),
          static_cast<const Index*>(a.indices), static_cast<const V*>(a.k),
          static_cast<const V*>(a.v), a.n, a.row_bytes / u, a.cache_rows,
          a.cache_stride_bytes / u, a.input_stride_bytes / u, log2_of(p.num_splits),
          log2_of(p.lanes));
}

template <typename V, int kUnroll>
void store_kv_index(const StoreKvArgs& a, const LaunchPlan& p, cudaStream_t stream) {
  if (a.index_type == IndexType::kInt64) {
    store_kv_typed<V, int64_t, kUnroll>(a, p, stream);
  } else {
    store_kv_typed<V, int32_t, kUnroll>(a, p, stream);
  }
}

// The chunked kernels at the plan's unroll (store_kv_unroll(): 1 or 2).
template <typename V>
void store_kv_chunked(const StoreKvArgs& a, const LaunchPlan& p, cudaStream_t stream) {
  if (p.unroll == 2) {
    store_kv_index<V, 2>(a, p, stream);
  } else {
    store_kv_index<V, 1>(a, p, stream);
  }
}

// ---- embedding dispatch: path -> index type ----
template <typename V, typename Index, int kUnroll>
void embedding_typed(const EmbeddingArgs& a, const LaunchPlan& p, cudaStream_t stream) {
  constexpr int64_t u = sizeof(V);
  embedding_kernel<V, Index, kUnroll, kStreaming>
      <<<static_cast<unsigned int>(p.blocks), p.threads, 0, stream>>>(
          static_cast<V*>(a.out), static_cast<const V*>(a.weight),
          static_cast<const Index*>(a.ids), a.n, a.row_bytes / u, a.start, a.length,
          a.out_stride_bytes / u, a.weight_stride_bytes / u, log2_of(p.num_splits),
          log2_of(p.lanes));
}

template <typename V, int kUnroll>
void embedding_index(const EmbeddingArgs& a, const LaunchPlan& p, cudaStream_t stream) {
  if (a.index_type == IndexType::kInt64) {
    embedding_typed<V, int64_t, kUnroll>(a, p, stream);
  } else {
    embedding_typed<V, int32_t, kUnroll>(a, p, stream);
  }
}

// Launch errors: cudaGetLastError() after the launch.
Status launch_result(LaunchPlan* plan, LaunchPlan& p) {
  p.cuda_error = cudaGetLastError();
  if (plan != nullptr) *plan = p;
  return p.cuda_error == cudaSuccess ? Status::kOk : Status::kCudaError;
}

}  // namespace

Status plan_store_kv(const StoreKvArgs& a, LaunchPlan* plan) {
  if (a.n < 0) return reject(plan, Status::kNegativeCount);
  if (a.max_blocks < 0) return reject(plan, Status::kBadMaxBlocks);
  if (!valid_element_size(a.element_size)) return reject(plan, Status::kBadElementSize);
  if (a.row_bytes <= 0 || a.row_bytes % a.element_size != 0)
    return reject(plan, Status::kBadRowBytes);
  if (!valid_stride(a.cache_stride_bytes, a.row_bytes, a.element_size) ||
      !valid_stride(a.input_stride_bytes, a.row_bytes, a.element_size))
    return reject(plan, Status::kBadStride);
  if (!valid_index_type(a.index_type)) return reject(plan, Status::kBadIndexType);
  if (a.n == 0) return finish_plan(plan, 0, a.row_bytes, 0, a.max_blocks, store_kv_unroll);
  if (a.k_cache == nullptr || a.v_cache == nullptr || a.indices == nullptr || a.k == nullptr ||
      a.v == nullptr)
    return reject(plan, Status::kNullPointer);
  if (a.cache_rows <= 0) return reject(plan, Status::kBadCacheRows);
  if (!fits(a.cache_rows, a.cache_stride_bytes, a.row_bytes) ||
      !fits(a.n, a.input_stride_bytes, a.row_bytes))
    return reject(plan, Status::kTooLarge);
  const int64_t parts[] = {a.row_bytes,         a.cache_stride_bytes, a.input_stride_bytes,
                           address(a.k_cache), address(a.v_cache),   address(a.k),
                           address(a.v)};
  const int64_t align = common_alignment(parts, 7);
  if (align == 0 || address(a.indices) % index_size(a.index_type) != 0)
    return reject(plan, Status::kMisaligned);
  // Every row's source and destination are off a 16-byte boundary by the same amount when the
  // strides are multiples of 16 and each input is as far off as its cache.
  const bool realign = (a.cache_stride_bytes | a.input_stride_bytes) % 16 != 0 ||
                       (address(a.k) - address(a.k_cache)) % 16 != 0 ||
                       (address(a.v) - address(a.v_cache)) % 16 != 0;
  return finish_plan(plan, a.n, a.row_bytes, align, a.max_blocks, store_kv_unroll, realign,
                     /*chunked_whole_rows=*/true);
}

Status plan_embedding(const EmbeddingArgs& a, LaunchPlan* plan) {
  if (a.n < 0) return reject(plan, Status::kNegativeCount);
  if (a.max_blocks < 0) return reject(plan, Status::kBadMaxBlocks);
  if (!valid_element_size(a.element_size)) return reject(plan, Status::kBadElementSize);
  if (a.row_bytes <= 0 || a.row_bytes % a.element_size != 0)
    return reject(plan, Status::kBadRowBytes);
  if (!valid_stride(a.out_stride_bytes, a.row_bytes, a.element_size) ||
      !valid_stride(a.weight_stride_bytes, a.row_bytes, a.element_size))
    return reject(plan, Status::kBadStride);
  if (!valid_index_type(a.index_type)) return reject(plan, Status::kBadIndexType);
  if (a.start < 0 || a.length < 0 || a.start > kInt64Max - a.length)
    return reject(plan, Status::kBadShard);
  if (a.n == 0) return finish_plan(plan, 0, a.row_bytes, 0, a.max_blocks, embedding_unroll);
  if (a.out == nullptr || a.ids == nullptr || (a.weight == nullptr && a.length > 0))
    return reject(plan, Status::kNullPointer);
  if (!fits(a.length, a.weight_stride_bytes, a.row_bytes) ||
      !fits(a.n, a.out_stride_bytes, a.row_bytes))
    return reject(plan, Status::kTooLarge);
  const int64_t parts[] = {a.row_bytes, a.out_stride_bytes, a.weight_stride_bytes, address(a.out),
                           address(a.weight)};
  const int64_t align = common_alignment(parts, 5);
  if (align == 0 || address(a.ids) % index_size(a.index_type) != 0)
    return reject(plan, Status::kMisaligned);
  const bool realign = (a.out_stride_bytes | a.weight_stride_bytes) % 16 != 0 ||
                       (address(a.weight) - address(a.out)) % 16 != 0;
  return finish_plan(plan, a.n, a.row_bytes, align, a.max_blocks, embedding_unroll, realign);
}

Status launch_store_kv(const StoreKvArgs& a, cudaStream_t stream, LaunchPlan* plan) {
  LaunchPlan p;
  const Status s = plan_store_kv(a, &p);
  if (s != Status::kOk || p.blocks == 0) {
    if (plan != nullptr) *plan = p;
    return s;
  }
  if (p.path == CopyPath::kUint4) {
    store_kv_index<uint4, 1>(a, p, stream);
  } else if (p.realign) {  // kUint32, kUint16: 16-byte chunks, realigned in registers
    store_kv_chunked<RealignedByte>(a, p, stream);
  } else {  // kUint32, kUint16: 16-byte chunks, every row's phase 0
    store_kv_chunked<uint8_t>(a, p, stream);
  }
  return launch_result(plan, p);
}

Status launch_embedding(const EmbeddingArgs& a, cudaStream_t stream, LaunchPlan* plan) {
  LaunchPlan p;
  const Status s = plan_embedding(a, &p);
  if (s != Status::kOk || p.blocks == 0) {
    if (plan != nullptr) *plan = p;
    return s;
  }
  if (p.path == CopyPath::kUint4) {
    embedding_index<uint4, 4>(a, p, stream);
  } else if (p.realign) {  // kUint32, kUint16: 16-byte chunks, realigned in registers
    embedding_index<RealignedByte, 8>(a, p, stream);
  } else {  // kUint32, kUint16: 16-byte chunks, every row's phase 0
    embedding_index<uint8_t, 2>(a, p, stream);
  }
  return launch_result(plan, p);
}

}  // namespace kernels
