// Host launchers for the row-copy kernels (store_kv, embedding). No PyTorch dependency: raw
// pointers, counts, byte strides and a cudaStream_t.
//
// Units: every size and stride in these structs is in BYTES (row_bytes, *_stride_bytes);
// counts (n, cache_rows, start, length) are in rows. element_size is the size in bytes of one
// element of a row (2, 4 or 8); it is used for validation only: the copy unit is chosen from the
// alignment of the data, never from the element type.
//
// Each launcher:
//   1. validates its arguments and returns a Status other than kOk (touching nothing, launching
//      nothing) on the first bad one; status_message() describes each code;
//   2. plans: the copy unit (CopyPath) and the number of warps per row (num_splits);
//   3. launches on `stream` (nothing is launched when n == 0) and returns kCudaError if
//      cudaGetLastError() reports a launch error (the cudaError_t is in LaunchPlan::cuda_error).
//      Like any cudaGetLastError() call this also clears (and reports) an error left pending by
//      an earlier call on this thread; a rejected call (status != kOk) never touches CUDA at all.
// The launch is asynchronous, like any kernel launch: synchronise the stream before reading.
//
// Copy path rule (store_kv: row_bytes, both strides and the four base pointers k_cache, v_cache,
// k, v; embedding: row_bytes, both strides and the pointers out, weight):
//   all multiples of 16 -> CopyPath::kUint4; else all multiples of 4 -> kUint32;
//   else all multiples of 2 -> kUint16; else kMisaligned.
// The path names the data's common alignment, not the width of the memory operations: every path
// stores whole aligned 16-byte chunks of the destination rows. On kUint4 rows are whole chunks;
// on kUint32 / kUint16 each row segment has a head and a tail of at most 14 bytes before / after
// its destination's 16-byte boundaries, copied 2 bytes at a time, and its source is loaded in
// aligned 16-byte chunks, realigned in registers when source and destination are off a 16-byte
// boundary by different amounts (kernels/row_range.cuh).
// Split rule: num_splits = 4 if row_bytes % 2048 == 0, 2 if row_bytes % 1024 == 0, else 1.
// Work items: n * num_splits row segments; each is copied by a lane group of `lanes` lanes (the
// smallest power of two <= 32 whose lanes cover the segment's 16-byte chunks, rounded up, with
// `unroll` chunks each, so short rows share a warp), each lane loading `unroll` chunks per source
// before storing them. unroll by kernel, on every path: store_kv 1, embedding 4.
// Grid: 128 threads (4 warps) per block, ceil(n * num_splits / (128 / lanes)) blocks, at most
// max_blocks (default and upper limit 2^31-1); the kernels loop grid-stride, so any n is covered.
// (Tuning and measurements: kernels/bench/RESULTS.md.)
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace kernels {

enum class Status : int {
  kOk = 0,
  kNullPointer,       // a required pointer is null while n > 0
  kNegativeCount,     // n < 0
  kBadRowBytes,       // row_bytes <= 0 or not a multiple of element_size
  kBadElementSize,    // element_size is not 2, 4 or 8
  kBadStride,         // a row stride is smaller than row_bytes or not a multiple of element_size
  kMisaligned,        // a row pointer or stride is odd, or indices/ids not aligned to their type
  kBadIndexType,      // index_type is not IndexType::kInt32 or kInt64
  kBadCacheRows,      // store_kv: cache_rows <= 0 while n > 0
  kBadShard,          // embedding: start < 0, length < 0 or start + length overflows int64
  kTooLarge,          // a byte offset (rows x stride) would overflow int64
  kBadMaxBlocks,      // max_blocks < 0
  kCudaError,         // the launch failed: see LaunchPlan::cuda_error
};

// A short human-readable description of a status code ("ok", "null pointer: ...").
const char* status_message(Status s);

enum class IndexType : int { kInt32 = 0, kInt64 = 1 };

// The copy unit; the value is its size in bytes.
enum class CopyPath : int { kNone = 0, kUint16 = 2, kUint32 = 4, kUint4 = 16 };
const char* copy_path_name(CopyPath p);  // "uint4", "uint32", "uint16", "none"

struct LaunchPlan {
  CopyPath path = CopyPath::kNone;  // kNone when nothing is launched (n == 0) or on error
  int num_splits = 0;               // segments per row: 1, 2 or 4 (0 on error)
  int64_t blocks = 0;               // grid size (0 when nothing is launched)
  int threads = 0;                  // block size (256)
  int lanes = 0;                    // lanes per work item (row segment): 1..32, a power of two
  int unroll = 0;                   // 16-byte chunks each lane loads per step before storing
  bool realign = false;             // uint32/uint16 paths: some row's source and destination are
                                    // off a 16-byte boundary by different amounts (realigned in
                                    // registers, a kernel of its own)
  cudaError_t cuda_error = cudaSuccess;
};

struct StoreKvArgs {
  void* k_cache = nullptr;          // cache_rows rows, row stride cache_stride_bytes
  void* v_cache = nullptr;          // same shape and stride as k_cache
  const void* indices = nullptr;    // n indices of index_type; one outside [0, cache_rows) is skipped
  const void* k = nullptr;          // n rows, row stride input_stride_bytes
  const void* v = nullptr;          // same shape and stride as k
  int64_t n = 0;                    // number of new tokens (rows to copy)
  int64_t row_bytes = 0;            // bytes per row (heads * head_dim * element_size)
  int64_t element_size = 2;         // 2, 4 or 8
  int64_t cache_rows = 0;           // rows in the cache (pool tokens)
  int64_t cache_stride_bytes = 0;   // >= row_bytes
  int64_t input_stride_bytes = 0;   // >= row_bytes
  IndexType index_type = IndexType::kInt32;
  int64_t max_blocks = 0;           // 0: no limit beyond the hardware's 2^31-1
};

struct EmbeddingArgs {
  void* out = nullptr;              // n rows, row stride out_stride_bytes
  const void* weight = nullptr;     // length rows (the shard), row stride weight_stride_bytes;
                                    // may be null when length == 0
  const void* ids = nullptr;        // n token ids of index_type
  int64_t n = 0;                    // number of tokens
  int64_t row_bytes = 0;            // bytes per row (hidden * element_size)
  int64_t element_size = 2;         // 2, 4 or 8
  int64_t start = 0;                // first vocabulary id of this shard, >= 0
  int64_t length = 0;               // rows in this shard, >= 0
  int64_t out_stride_bytes = 0;     // >= row_bytes
  int64_t weight_stride_bytes = 0;  // >= row_bytes
  IndexType index_type = IndexType::kInt32;
  int64_t max_blocks = 0;           // 0: no limit beyond the hardware's 2^31-1
};

// Validate and plan without launching (plan->cuda_error stays cudaSuccess).
Status plan_store_kv(const StoreKvArgs& args, LaunchPlan* plan);
Status plan_embedding(const EmbeddingArgs& args, LaunchPlan* plan);

// Validate, plan and launch on `stream`. `plan` may be null.
Status launch_store_kv(const StoreKvArgs& args, cudaStream_t stream, LaunchPlan* plan = nullptr);
Status launch_embedding(const EmbeddingArgs& args, cudaStream_t stream,
                        LaunchPlan* plan = nullptr);

}  // namespace kernels
