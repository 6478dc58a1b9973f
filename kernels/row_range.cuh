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
#include <type_traits>

namespace kernels {

constexpr int kWarpSize = 32;
constexpr int kThreadsPerBlock = 128;     // block size the launchers use (4 warps)
constexpr int kMaxThreadsPerBlock = 256;  // __launch_bounds__ of the row-copy kernels

// Units of one byte (uint8_t, RealignedByte) select the chunked copies of rows of any even
// alignment (below). The unit of the kernels that realign: one byte like uint8_t, a type of its own so that a kernel
// instantiated with it is the realigning one (V = uint8_t: every row's phase is 0).
struct RealignedByte {
  uint8_t value;
};

template <typename B>
constexpr bool kIsByteUnit = sizeof(B) == 1;

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

// The bytes a kernel reads of a source tensor: from its first row's start to its last row's end
// (rows of `row_units` units, `stride` apart). The chunked copies below may load a whole aligned
// 16-byte chunk that reaches past a row into these bytes (a neighbouring row's) and drop them.
struct SourceSpan {
  const uint8_t* lo = nullptr;
  const uint8_t* hi = nullptr;
};
template <typename V>
__device__ __forceinline__ SourceSpan source_span(const V* first, int64_t rows, int64_t stride,
                                                  int64_t row_units) {
  SourceSpan s;
  if (rows > 0) {
    s.lo = reinterpret_cast<const uint8_t*>(first);
    s.hi = reinterpret_cast<const uint8_t*>(first + (rows - 1) * stride + row_units);
  }
  return s;
}

// Copies units [begin + lane, end) of two rows at a lane stride of `lanes`: per step kUnroll units
// of each source are loaded before any is stored. (The spans matter to the chunked copies only.)
template <int kUnroll, bool kStream, typename V>
__device__ __forceinline__ auto copy_two_rows(V* __restrict__ d0, V* __restrict__ d1,
                                              const V* __restrict__ s0, const V* __restrict__ s1,
                                              int64_t begin, int64_t end, int lane, int lanes,
                                              SourceSpan = {}, SourceSpan = {})
    -> std::enable_if_t<!kIsByteUnit<V>> {
  for (int64_t i = begin + lane; i < end; i += static_cast<int64_t>(lanes) * kUnroll) {
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

// One row: units [begin + lane, end) of src to dst, kUnroll loads in flight per lane.
template <int kUnroll, bool kStream, typename V>
__device__ __forceinline__ auto copy_row(V* __restrict__ dst, const V* __restrict__ src,
                                         int64_t begin, int64_t end, int lane, int lanes,
                                         SourceSpan = {})
    -> std::enable_if_t<!kIsByteUnit<V>> {
  for (int64_t i = begin + lane; i < end; i += static_cast<int64_t>(lanes) * kUnroll) {
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

// Zeros units [begin + lane, end) of dst.
template <bool kStream, typename V>
__device__ __forceinline__ auto zero_row(V* __restrict__ dst, int64_t begin, int64_t end, int lane,
                                         int lanes) -> std::enable_if_t<!kIsByteUnit<V>> {
  for (int64_t i = begin + lane; i < end; i += lanes) store_unit<kStream>(dst + i, V{});
}

// ---- Rows of any even alignment: 16-byte chunks, realigned in registers ----
//
// The launcher's uint32 and uint16 paths (a row pointer, stride or row size that is only a
// multiple of 4 or 2) run the kernels with a unit of one byte (V = uint8_t), which selects the
// overloads below. The alignment of a row's start must not set the width of the memory operations:
// rows 4 or 2 bytes off a 16-byte boundary moved in 4- or 2-byte units issue 4 to 8 times the
// memory instructions and each warp access straddles cache lines (RESULTS.md: 0.29-0.71 of
// memcpy). So a work item, the byte range [begin, end) of a row, is cut where the DESTINATION is
// 16-byte aligned:
//   head:     the bytes before dst's first 16-byte boundary (at most 14), copied as uint16;
//   interior: the whole aligned 16-byte chunks of dst after it, one 16-byte store each;
//   tail:     the bytes after the last whole chunk (at most 14), copied as uint16.
// The source of interior chunk c starts `phase` = (src - dst) mod 16 bytes into aligned source
// chunk c (the aligned chunks counted from the one holding the source of chunk 0). phase 0, when
// src and dst are off a 16-byte boundary by the same amount (every pointer shifted alike, the
// usual case), makes the interior a plain uint4 copy. Otherwise the lane of chunk c loads aligned
// source chunks c and c + 1 and combines them (realign()); it loads only chunk c itself: chunk
// c + 1 is its neighbour lane's chunk (__shfl_sync), for the group's last lane lane 0's next
// unrolled one, and for the last chunk of a step the last lane loads it (one extra load a step).
//
// Reads stay inside the source tensor: the aligned source chunks that hold bytes before the item's
// first source byte or past its last (only the first and the last chunk can) are loaded whole
// when those bytes lie inside the span the kernel reads anyway (`lo`, `hi`: from its first row's
// start to its last row's end; a neighbouring row's bytes, read and dropped), and otherwise with
// eight uint16 loads of the item's own bytes (the tensor's first and last rows). With that and the
// shuffles one chunk ahead of the stores (copy_chunks), the realigning embedding went from
// 0.82-0.90 to 0.92-0.97 of memcpy at 1-8 KiB rows from 128K rows on an H100 (RESULTS.md,
// 2026-12-06). (On a GPU a chunk holding one byte of an allocation lies inside its 256-byte
// granule, so even those could be loaded whole; but the emulator's memcheck sizes an allocation
// exactly and reports such a read, and a view's neighbour bytes need not be ours.)
//
// A group's lanes run the same chunk loop (its bounds depend on the item only), so the shuffles
// name the group's lanes (group_mask()) and groups of one warp may copy rows of other phases.

// The lanes of the calling thread's lane group (`lanes` neighbouring lanes, a power of two).
__device__ __forceinline__ unsigned group_mask(int lanes) {
  if (lanes >= kWarpSize) return 0xffffffffu;
  const unsigned first = (threadIdx.x % kWarpSize) & ~static_cast<unsigned>(lanes - 1);
  return ((1u << lanes) - 1u) << first;
}

// The 16 bytes that start `phase` bytes (even, 0..14) into the 32 bytes x, y (x first; the GPU is
// little-endian): whole words chosen by selects (skip 2 words, then 1), then a funnel shift by 0
// or 16 bits. No register array is indexed at run time (that would put it in local memory) and
// nothing branches on the phase.
__device__ __forceinline__ uint4 realign(const uint4& x, const uint4& y, int phase) {
  const bool skip2 = (phase & 8) != 0;
  const bool skip1 = (phase & 4) != 0;
  const unsigned shift = static_cast<unsigned>(phase & 2) * 8u;
  const uint32_t u0 = skip2 ? x.z : x.x, u1 = skip2 ? x.w : x.y, u2 = skip2 ? y.x : x.z;
  const uint32_t u3 = skip2 ? y.y : x.w, u4 = skip2 ? y.z : y.x, u5 = skip2 ? y.w : y.y;
  const uint32_t v0 = skip1 ? u1 : u0, v1 = skip1 ? u2 : u1, v2 = skip1 ? u3 : u2;
  const uint32_t v3 = skip1 ? u4 : u3, v4 = skip1 ? u5 : u4;
  uint4 r;
  r.x = __funnelshift_r(v0, v1, shift);
  r.y = __funnelshift_r(v1, v2, shift);
  r.z = __funnelshift_r(v2, v3, shift);
  r.w = __funnelshift_r(v3, v4, shift);
  return r;
}

// Lane `src_lane` of the group's (width `lanes`) value of a chunk, one 32-bit shuffle per word.
__device__ __forceinline__ uint4 shfl_chunk(unsigned mask, const uint4& v, int src_lane,
                                            int lanes) {
  uint4 r;
  r.x = __shfl_sync(mask, v.x, src_lane, lanes);
  r.y = __shfl_sync(mask, v.y, src_lane, lanes);
  r.z = __shfl_sync(mask, v.z, src_lane, lanes);
  r.w = __shfl_sync(mask, v.w, src_lane, lanes);
  return r;
}

// One row's share of a work item, cut as described above. `bytes` and the pointers are even.
struct ChunkedRow {
  uint8_t* dst;        // the item's first destination byte
  const uint8_t* src;  // its first source byte (null for a row of zeros)
  int64_t chunks;      // whole aligned 16-byte destination chunks after the head
  int64_t loads;       // aligned source chunks the interior reads: chunks, +1 unless phase is 0
  int head;            // bytes before dst's first 16-byte boundary (all of them if shorter): 0..14
  int edge;            // head + tail bytes: 0..28
  int phase;           // (src - dst) mod 16; 0 when there are no chunks
  int skew;            // chunk slots before chunk 0 on the destination's store grid (below)
  bool first_partial;  // aligned source chunk 0 starts before [lo, hi) (narrow loads)
  bool last_partial;   // aligned source chunk loads - 1 ends past [lo, hi) (narrow loads)

  // Byte offset (in the item, the same for src and dst) of head-or-tail uint16 number k.
  __device__ __forceinline__ int64_t edge_offset(int k) const {
    return 2 * k < head ? 2 * k : 2 * k + 16 * chunks;
  }
  __device__ __forceinline__ uint4* dst_chunk(int64_t c) const {
    return reinterpret_cast<uint4*>(dst + head) + c;
  }
  // Byte offset from src of aligned source chunk c (negative: it starts before the item).
  __device__ __forceinline__ int64_t src_chunk_offset(int64_t c) const {
    return head - phase + 16 * c;
  }
};

// kRealign false: the caller promises phase 0 (nothing of the source's address is computed).
// The store grid (kGrid): a group of `lanes` lanes stores `lanes` neighbouring chunks per
// instruction, and an H200 pays for every store that leaves a 32-byte sector partly written
// (kernels/bench/RESULTS.md: 20-29% of the bandwidth when each store starts mid-sector, as interior
// chunks starting on an odd 16-byte boundary do). So chunk slot 0 is the last 16 x min(lanes, 8)-
// byte boundary of the destination at or before chunk 0 (`skew` slots before it), and lane l
// stores the chunks of slots l, l + lanes, ...: each store instruction covers whole sectors (whole
// 128-byte lines for 8 lanes or more), and only the item's head and tail leave sectors partly
// written. Without kGrid, slot = chunk (skew 0).
// `lo`, `hi`: the source bytes the kernel may read beyond the item (null: only the item's).
template <bool kRealign = true, bool kGrid = false>
__device__ __forceinline__ ChunkedRow chunked_row(uint8_t* dst, const uint8_t* src, int64_t bytes,
                                                  int lanes, const uint8_t* lo = nullptr,
                                                  const uint8_t* hi = nullptr) {
  ChunkedRow r;
  r.dst = dst;
  r.src = src;
  const int to_boundary = static_cast<int>((16 - (reinterpret_cast<uintptr_t>(dst) & 15)) & 15);
  r.head = to_boundary < bytes ? to_boundary : static_cast<int>(bytes);
  r.chunks = (bytes - r.head) / 16;
  r.edge = static_cast<int>(bytes - 16 * r.chunks);
  const int tail = r.edge - r.head;
  r.phase = kRealign && r.chunks > 0
                ? static_cast<int>((reinterpret_cast<uintptr_t>(src) + r.head) & 15)
                : 0;
  r.loads = r.chunks + (r.phase != 0 ? 1 : 0);
  const int grid = lanes < 8 ? lanes : 8;  // chunks per grid unit (a power of two)
  r.skew = kGrid ? static_cast<int>((reinterpret_cast<uintptr_t>(dst + r.head) >> 4) &
                                    static_cast<uintptr_t>(grid - 1))
                 : 0;
  r.first_partial = r.phase > r.head && !(lo != nullptr && src + r.head - r.phase >= lo);
  r.last_partial = r.phase != 0 && r.phase + tail < 16 &&
                   !(hi != nullptr && src + r.src_chunk_offset(r.loads - 1) + 16 <= hi);
  return r;
}

// Aligned source chunk c of row r, c < r.loads: one 16-byte load, except for a first or last
// chunk that reaches outside the item (realigned rows only: with phase 0 the source chunks are the
// destination chunks' bytes): uint16 loads of the item's bytes, the other bytes zero (unused).
template <bool kStream>
__device__ __forceinline__ uint4 load_src_chunk(const ChunkedRow& r, int64_t c) {
  const int64_t at = r.src_chunk_offset(c);
  if (!(c == 0 && r.first_partial) && !(c == r.loads - 1 && r.last_partial))
    return load_unit<kStream>(reinterpret_cast<const uint4*>(r.src + at));
  const int first = c == 0 && r.first_partial ? (r.phase - r.head) / 2 : 0;
  const int past = c == r.loads - 1 && r.last_partial ? (r.phase + r.edge - r.head) / 2 : 8;
  // Eight predicated uint16 loads, unrolled so that they are issued back to back (one memory
  // latency; a loop with a run-time count waited for each load in turn).
  uint64_t lo = 0, hi = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    uint64_t h = 0;
    if (j >= first && j < past)
      h = load_unit<kStream>(reinterpret_cast<const uint16_t*>(r.src + at + 2 * j));
    if (j < 4) {
      lo |= h << (16 * j);
    } else {
      hi |= h << (16 * (j - 4));
    }
  }
  uint4 v;
  v.x = static_cast<uint32_t>(lo);
  v.y = static_cast<uint32_t>(lo >> 32);
  v.z = static_cast<uint32_t>(hi);
  v.w = static_cast<uint32_t>(hi >> 32);
  return v;
}

// The interiors of kRows rows (kRows loads of kUnroll chunks per lane and step in flight).
// kRealign false: every row has phase 0, chunk c of dst is aligned source chunk c.
template <int kRows, int kUnroll, bool kRealign, bool kStream>
__device__ __forceinline__ void copy_chunks(const ChunkedRow (&r)[kRows], int lane, int lanes,
                                            unsigned mask) {
  int64_t total = 0;  // chunk loop bound, the same for every lane of the group
  for (int k = 0; k < kRows; ++k) total = r[k].loads > total ? r[k].loads : total;
  const int64_t step = static_cast<int64_t>(lanes) * kUnroll;
  const int right = (lane + 1) & (lanes - 1);
  const bool last = lane == lanes - 1;
  for (int64_t c0 = 0; c0 < total; c0 += step) {
    uint4 x[kRows][kUnroll];
    uint4 after[kRows] = {};  // the last lane's: aligned source chunk c0 + step
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t c = c0 + static_cast<int64_t>(u) * lanes + lane;
      for (int k = 0; k < kRows; ++k) {
        if (c >= r[k].loads) {
          x[k][u] = uint4{};
        } else if (kRealign) {
          x[k][u] = load_src_chunk<kStream>(r[k], c);
        } else {  // phase 0: source chunk c holds only the item's bytes
          x[k][u] = load_unit<kStream>(reinterpret_cast<const uint4*>(r[k].src + r[k].head) + c);
        }
      }
    }
    if (kRealign) {
      for (int k = 0; k < kRows; ++k)
        after[k] = last && c0 + step < r[k].loads ? load_src_chunk<kStream>(r[k], c0 + step)
                                                  : uint4{};
    }
    for (int k = 0; k < kRows; ++k) {
      // Aligned source chunk c + 1 of this lane's chunk c is the right-hand lane's chunk c (for
      // the last lane: lane 0's next unrolled one, or `after`). The shuffles go one unrolled
      // chunk ahead of the stores, so that two shuffled chunks are live, not kUnroll (126 -> 110
      // registers at 8 chunks per lane on sm_90).
      uint4 here = kRealign ? shfl_chunk(mask, x[k][0], right, lanes) : uint4{};
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        uint4 ahead{};
        if (kRealign && u + 1 < kUnroll) ahead = shfl_chunk(mask, x[k][u + 1], right, lanes);
        const int64_t c = c0 + static_cast<int64_t>(u) * lanes + lane;
        if (c < r[k].chunks) {
          if (kRealign) {
            const uint4 next = !last ? here : u + 1 < kUnroll ? ahead : after[k];
            store_unit<kStream>(r[k].dst_chunk(c), realign(x[k][u], next, r[k].phase));
          } else {
            store_unit<kStream>(r[k].dst_chunk(c), x[k][u]);
          }
        }
        here = ahead;
      }
    }
  }
}

// The interiors of kRows rows of phase 0 on the destination's store grid (chunked_row<.., true>):
// slot s of the group holds chunk s - skew of each row, so every store instruction covers whole
// sectors. (A function of its own: the realigning kernels, written through this slot
// arithmetic, took 73-77 registers instead of 63-64 on sm_90 and sm_100.)
template <int kRows, int kUnroll, bool kStream>
__device__ __forceinline__ void copy_chunks_on_grid(const ChunkedRow (&r)[kRows], int lane,
                                                    int lanes) {
  int64_t total = 0;  // slot loop bound, the same for every lane of the group
  for (int k = 0; k < kRows; ++k) {
    const int64_t slots = r[k].chunks + r[k].skew;
    total = slots > total ? slots : total;
  }
  const int64_t step = static_cast<int64_t>(lanes) * kUnroll;
  // All loads of a step first, then each row's stores in turn (the rows' stores interleaved per
  // chunk measured about 6% slower on the H200 at 512K rows of 1-2 KiB).
  for (int64_t s0 = 0; s0 < total; s0 += step) {
    uint4 x[kRows][kUnroll];
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t slot = s0 + static_cast<int64_t>(u) * lanes + lane;
      for (int k = 0; k < kRows; ++k) {
        const int64_t c = slot - r[k].skew;
        if (c < 0 || c >= r[k].chunks) {
          x[k][u] = uint4{};
        } else {
          x[k][u] = load_unit<kStream>(reinterpret_cast<const uint4*>(r[k].src + r[k].head) + c);
        }
      }
    }
    for (int k = 0; k < kRows; ++k) {
      for (int u = 0; u < kUnroll; ++u) {
        const int64_t c = s0 + static_cast<int64_t>(u) * lanes + lane - r[k].skew;
        if (c >= 0 && c < r[k].chunks) store_unit<kStream>(r[k].dst_chunk(c), x[k][u]);
      }
    }
  }
}

// A hint that brings the 32-byte sector holding p into the GPU's L2 (inline PTX; the emulator
// translates it to nothing).
__device__ __forceinline__ void prefetch_sector(const void* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

// Bytes [begin, end) of kRows rows (the same range of each), the lanes of one group. kRealign:
// the kernel's rows may have any phase (realigned in registers); otherwise every row's phase is 0
// (the launcher's promise), and the kernel holds no realigning code: its registers would cost the
// common case occupancy (80 registers a thread instead of 32-48 measured, RESULTS.md).
// kGrid: stores on the destination's grid and the item's partly written edge sectors prefetched
// (store_kv's two scattered rows of phase 0, where both were measured; the embedding's rows and the
// realigning kernels keep the plain chunk order, whose registers were measured).
// lo, hi: per row, the source span the kernel reads anyway (null: the item's bytes only).
template <int kRows, int kUnroll, bool kRealign, bool kStream, bool kGrid = false>
__device__ __forceinline__ void copy_rows_chunked(uint8_t* const (&dst)[kRows],
                                                  const uint8_t* const (&src)[kRows],
                                                  int64_t begin, int64_t end, int lane, int lanes,
                                                  const uint8_t* const (&lo)[kRows],
                                                  const uint8_t* const (&hi)[kRows]) {
  ChunkedRow r[kRows];
  for (int k = 0; k < kRows; ++k)
    r[k] = chunked_row<kRealign, kGrid>(dst[k] + begin, src[k] + begin, end - begin, lanes, lo[k],
                                        hi[k]);
  // The item's first and last destination sectors, when it leaves them partly written: their
  // other bytes belong to a neighbouring row or segment, which another group writes at another
  // time, so the L2 has to read the sector before it can merge our bytes. Asking for it now lets
  // that read overlap the copy (measured on the H200 with 2 rows of 2 KiB 4 bytes off a
  // boundary: 0.80 -> 0.82 of memcpy; kernels/bench/partial_sector_study.cu).
  if (kGrid) {
    for (int k = 0; k < kRows; ++k) {
      if (lane == 0 && (reinterpret_cast<uintptr_t>(dst[k] + begin) & 31) != 0)
        prefetch_sector(dst[k] + begin);
      if (lane == lanes - 1 && (reinterpret_cast<uintptr_t>(dst[k] + end) & 31) != 0)
        prefetch_sector(dst[k] + end - 1);
    }
  }
  // The head and tail (at most 14 uint16) are loaded first, so that their latency overlaps the
  // interior's, and stored last: kEdge of them per lane (uint16 number lane + j * lanes), the rest
  // (groups of fewer than 14 / kEdge lanes: tiny segments) one at a time at the end. Measured on
  // the H200 (RESULTS.md): kEdge = kUnroll gained store_kv's two interleaved rows 7% at 2 chunks
  // per lane; one row (the embedding) lost up to 15% with more than one.
  constexpr int kEdge = kRows == 2 ? (kUnroll < 4 ? kUnroll : 4) : 1;
  uint16_t edge[kRows][kEdge];
  for (int k = 0; k < kRows; ++k) {
#pragma unroll
    for (int j = 0; j < kEdge; ++j) {
      const int h = lane + j * lanes;
      edge[k][j] = h < r[k].edge / 2 ? load_unit<kStream>(reinterpret_cast<const uint16_t*>(
                                           r[k].src + r[k].edge_offset(h)))
                                     : uint16_t{0};
    }
  }
  if constexpr (kGrid) {
    static_assert(!kRealign, "the store grid is for rows of phase 0");
    copy_chunks_on_grid<kRows, kUnroll, kStream>(r, lane, lanes);
  } else {
    copy_chunks<kRows, kUnroll, kRealign, kStream>(r, lane, lanes, group_mask(lanes));
  }
  for (int k = 0; k < kRows; ++k) {
    const int halves = r[k].edge / 2;
#pragma unroll
    for (int j = 0; j < kEdge; ++j) {
      const int h = lane + j * lanes;
      if (h < halves)
        store_unit<kStream>(reinterpret_cast<uint16_t*>(r[k].dst + r[k].edge_offset(h)),
                            edge[k][j]);
    }
    for (int h = lane + kEdge * lanes; h < halves; h += lanes) {
      const int64_t o = r[k].edge_offset(h);
      store_unit<kStream>(reinterpret_cast<uint16_t*>(r[k].dst + o),
                          load_unit<kStream>(reinterpret_cast<const uint16_t*>(r[k].src + o)));
    }
  }
}

// A unit of one byte: bytes [begin, end) of one row of any even alignment.
template <int kUnroll, bool kStream, typename B>
__device__ __forceinline__ auto copy_row(B* __restrict__ dst, const B* __restrict__ src,
                                         int64_t begin, int64_t end, int lane, int lanes,
                                         SourceSpan span = {})
    -> std::enable_if_t<kIsByteUnit<B>> {
  uint8_t* const d[1] = {reinterpret_cast<uint8_t*>(dst)};
  const uint8_t* const s[1] = {reinterpret_cast<const uint8_t*>(src)};
  const uint8_t* const lo[1] = {span.lo};
  const uint8_t* const hi[1] = {span.hi};
  copy_rows_chunked<1, kUnroll, std::is_same_v<B, RealignedByte>, kStream>(d, s, begin, end, lane,
                                                                          lanes, lo, hi);
}

// A unit of one byte: bytes [begin, end) of two rows of any even alignment (see above).
template <int kUnroll, bool kStream, typename B>
__device__ __forceinline__ auto copy_two_rows(B* __restrict__ d0, B* __restrict__ d1,
                                              const B* __restrict__ s0, const B* __restrict__ s1,
                                              int64_t begin, int64_t end, int lane, int lanes,
                                              SourceSpan span0 = {}, SourceSpan span1 = {})
    -> std::enable_if_t<kIsByteUnit<B>> {
  // The realigning kernels copy the two rows one after the other: interleaved, their shuffles and
  // selects for two rows took 105 registers a thread against 55 (store_kv at 0.33-0.60 of memcpy
  // against 0.40-0.70 one row at a time, RESULTS.md). Rows of phase 0 gain from both rows' loads in
  // flight at once.
  if constexpr (std::is_same_v<B, RealignedByte>) {
    // Two calls, not a loop over an array of spans: indexed at run time, the array took a stack
    // frame.
    copy_row<kUnroll, kStream>(d0, s0, begin, end, lane, lanes, span0);
    copy_row<kUnroll, kStream>(d1, s1, begin, end, lane, lanes, span1);
  } else {  // phase 0: every source chunk is the item's own
    uint8_t* const dst[2] = {reinterpret_cast<uint8_t*>(d0), reinterpret_cast<uint8_t*>(d1)};
    const uint8_t* const src[2] = {reinterpret_cast<const uint8_t*>(s0),
                                   reinterpret_cast<const uint8_t*>(s1)};
    const uint8_t* const none[2] = {nullptr, nullptr};
    copy_rows_chunked<2, kUnroll, false, kStream, true>(dst, src, begin, end, lane, lanes, none,
                                                        none);
  }
}

// A unit of one byte: zeros bytes [begin, end) of a row of any even alignment, aligned 16-byte
// stores between a uint16 head and tail.
template <bool kStream, typename B>
__device__ __forceinline__ auto zero_row(B* __restrict__ dst_unit, int64_t begin, int64_t end,
                                         int lane, int lanes) -> std::enable_if_t<kIsByteUnit<B>> {
  uint8_t* const dst = reinterpret_cast<uint8_t*>(dst_unit);
  const ChunkedRow r = chunked_row<false>(dst + begin, nullptr, end - begin, lanes);
  for (int64_t c = lane; c < r.chunks; c += lanes) store_unit<kStream>(r.dst_chunk(c), uint4{});
  for (int h = lane; h < r.edge / 2; h += lanes)
    store_unit<kStream>(reinterpret_cast<uint16_t*>(r.dst + r.edge_offset(h)), uint16_t{0});
}

}  // namespace kernels
