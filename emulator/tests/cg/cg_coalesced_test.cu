// coalesced_group: coalesced_threads() (ranks among the active lanes), rank-based shfl,
// shfl_up, shfl_down, ballot packed by rank, any/all, match_any, tiled_partition of a coalesced
// group, labeled_partition and binary_partition (warpAggregatedAtomicsCG's patterns).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "device_buffer.h"

namespace cg = cooperative_groups;

static unsigned popc(unsigned m) { return static_cast<unsigned>(__builtin_popcount(m)); }
static int nth(unsigned m, unsigned k) {
  for (int j = 0; j < 32; ++j)
    if (m & (1u << j)) { if (k == 0) return j; --k; }
  return -1;
}

struct co_out {
  unsigned mask_size, rank, ballot, match;
  int idx, up, down, any, all;
  unsigned tile_rank, tile_size, tile_meta;
};


// The group of lanes with t % 3 != 0: made by binary_partition of the warp (by_exit = false) or
// by coalesced_threads() after the other lanes exited (by_exit = true).
__global__ void coalesced_ops(const int* in, co_out* out, bool by_exit) {
  const unsigned t = threadIdx.x;
  if (by_exit && t % 3 == 0) return;
  cg::coalesced_group g =
      by_exit ? cg::coalesced_threads()
              : cg::binary_partition(cg::tiled_partition<32>(cg::this_thread_block()), t % 3 != 0);
  const int v = in[t];
  co_out& o = out[t];
  o.mask_size = g.size();
  o.rank = g.thread_rank();
  o.idx = g.shfl(v, 2);
  o.up = g.shfl_up(v, 1);
  o.down = g.shfl_down(v, 3);
  o.ballot = g.ballot(v % 2 == 0);
  o.any = g.any(v == 40);
  o.all = g.all(v > 0);
  o.match = g.match_any(v % 4);
  cg::coalesced_group tile = cg::tiled_partition(g, 4);
  o.tile_rank = tile.thread_rank();
  o.tile_size = tile.size();
  o.tile_meta = tile.meta_group_rank();
  g.sync();
}

static void check_coalesced_ops(bool by_exit) {
  const unsigned n = 64;
  std::vector<int> h(n);
  for (unsigned i = 0; i < n; ++i) h[i] = static_cast<int>(i * 7 % 50 + 1);
  device_buffer<int> in(h);
  device_buffer<co_out> out(n);
  coalesced_ops<<<1, n>>>(in.ptr, out.ptr, by_exit);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto r = out.to_host();
  for (unsigned w = 0; w < n / 32; ++w) {
    unsigned mask = 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((w * 32 + l) % 3 != 0) mask |= 1u << l;
    const unsigned size = popc(mask);
    for (unsigned rank = 0; rank < size; ++rank) {
      const unsigned l = static_cast<unsigned>(nth(mask, rank)), t = w * 32 + l;
      const co_out& o = r[t];
      SCOPED_TRACE(testing::Message() << "thread " << t);
      EXPECT_EQ(o.mask_size, size);
      EXPECT_EQ(o.rank, rank);
      EXPECT_EQ(o.idx, h[w * 32 + nth(mask, 2)]);
      EXPECT_EQ(o.up, rank >= 1 ? h[w * 32 + nth(mask, rank - 1)] : h[t]);
      EXPECT_EQ(o.down, rank + 3 < size ? h[w * 32 + nth(mask, rank + 3)] : h[t]);
      unsigned ballot = 0, match = 0;
      int any = 0, all = 1;
      for (unsigned k = 0; k < size; ++k) {
        const int v = h[w * 32 + nth(mask, k)];
        if (v % 2 == 0) ballot |= 1u << k;
        if (v % 4 == h[t] % 4) match |= 1u << k;
        any |= v == 40;
        all &= v > 0;
      }
      EXPECT_EQ(o.ballot, ballot);
      EXPECT_EQ(o.any, any);
      EXPECT_EQ(o.all, all);
      EXPECT_EQ(o.match, match);
      EXPECT_EQ(o.tile_rank, rank % 4);
      EXPECT_EQ(o.tile_size, std::min(4u, size - rank / 4 * 4));
      EXPECT_EQ(o.tile_meta, rank / 4);
    }
  }
}

// Warp-aggregated increment (warpAggregatedAtomicsCG's filter_arr): every selected element gets
// a unique slot, and the counter equals the number selected.
__device__ int agg_inc(int* counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int res = 0;
  if (active.thread_rank() == 0) res = atomicAdd(counter, static_cast<int>(active.size()));
  res = active.shfl(res, 0);
  return res + static_cast<int>(active.thread_rank());
}
__global__ void filter_exit(int* dst, int* n, const int* src, int count) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= count || src[i] <= 0) return;  // non-selected lanes leave before the group forms
  dst[agg_inc(n)] = src[i];
}
__global__ void filter_branch(int* dst, int* n, const int* src, int count) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count && src[i] > 0) dst[agg_inc(n)] = src[i];  // divergent: needs real convergence
}

static void check_filter(bool branch) {
  const int count = 5000;
  std::vector<int> h(count);
  int selected = 0;
  for (int i = 0; i < count; ++i) {
    h[i] = (i * 7919) % 5 - 1;
    selected += h[i] > 0;
  }
  device_buffer<int> src(h), dst(count), n(1);
  if (branch) filter_branch<<<(count + 127) / 128, 128>>>(dst.ptr, n.ptr, src.ptr, count);
  else filter_exit<<<(count + 127) / 128, 128>>>(dst.ptr, n.ptr, src.ptr, count);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(n.to_host()[0], selected);
  auto d = dst.to_host();
  std::vector<int> hist(5, 0), want(5, 0);
  for (int i = 0; i < selected; ++i) {
    ASSERT_GT(d[i], 0);
    ++hist[d[i]];
  }
  for (int v : h)
    if (v > 0) ++want[v];
  EXPECT_EQ(hist, want);
}

TEST(CgCoalesced, RanksAmongLanesOfABinaryPartition) { check_coalesced_ops(false); }

TEST(CgCoalesced, CoalescedThreadsAfterOtherLanesExit) {
  check_coalesced_ops(true);
}

TEST(CgCoalesced, WarpAggregatedIncrementAfterExit) {
  check_filter(false);
}

TEST(CgCoalesced, WarpAggregatedIncrementInDivergentBranch) {
  check_filter(true);
}

// In converged code coalesced_threads() is the whole warp (the partial last warp included).
__global__ void converged_group(unsigned* out) {
  cg::coalesced_group g = cg::coalesced_threads();
  out[2 * threadIdx.x] = g.size();
  out[2 * threadIdx.x + 1] = g.thread_rank();
}
TEST(CgCoalesced, ConvergedWarpIsTheWholeWarp) {
  const unsigned n = 40;
  device_buffer<unsigned> out(2 * n);
  converged_group<<<1, n>>>(out.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto r = out.to_host();
  for (unsigned i = 0; i < n; ++i) {
    EXPECT_EQ(r[2 * i], i < 32 ? 32u : 8u) << i;
    EXPECT_EQ(r[2 * i + 1], i % 32) << i;
  }
}

// labeled_partition + reduce(greater) + binary_partition (atomicAggMaxMulti's pattern).
__global__ void labeled(const int* bucket, const int* value, int* out) {
  const unsigned t = threadIdx.x;
  cg::coalesced_group active = cg::coalesced_threads();
  auto lg = cg::labeled_partition(active, bucket[t]);
  out[6 * t + 0] = static_cast<int>(lg.thread_rank());
  out[6 * t + 1] = static_cast<int>(lg.size());
  out[6 * t + 2] = cg::reduce(lg, value[t], cg::greater<int>());
  out[6 * t + 3] = lg.shfl(value[t], 0);
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  auto lt = cg::labeled_partition(tile, bucket[t] % 2);
  out[6 * t + 4] = static_cast<int>(lt.size());
  auto bp = cg::binary_partition(tile, value[t] > 50);
  out[6 * t + 5] = static_cast<int>(bp.thread_rank() * 100 + bp.size());
}
TEST(CgCoalesced, LabeledAndBinaryPartition) {
  const unsigned n = 64;
  std::vector<int> b(n), v(n);
  for (unsigned i = 0; i < n; ++i) {
    b[i] = static_cast<int>((i * 13) % 5);
    v[i] = static_cast<int>((i * 29) % 97);
  }
  device_buffer<int> db(b), dv(v), out(6 * n);
  labeled<<<1, n>>>(db.ptr, dv.ptr, out.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto r = out.to_host();
  for (unsigned i = 0; i < n; ++i) {
    const unsigned w = i / 32 * 32;
    int rank = 0, size = 0, mx = -1, first = -1, lsize = 0, brank = 0, bsize = 0;
    for (unsigned k = w; k < w + 32; ++k) {
      if (b[k] == b[i]) {
        if (k < i) ++rank;
        ++size;
        mx = std::max(mx, v[k]);
        if (first < 0) first = v[k];
      }
      if (b[k] % 2 == b[i] % 2) ++lsize;
      if ((v[k] > 50) == (v[i] > 50)) {
        if (k < i) ++brank;
        ++bsize;
      }
    }
    EXPECT_EQ(r[6 * i + 0], rank) << i;
    EXPECT_EQ(r[6 * i + 1], size) << i;
    EXPECT_EQ(r[6 * i + 2], mx) << i;
    EXPECT_EQ(r[6 * i + 3], first) << i;
    EXPECT_EQ(r[6 * i + 4], lsize) << i;
    EXPECT_EQ(r[6 * i + 5], brank * 100 + bsize) << i;
  }
}

// invoke_one: exactly one thread of each group calls the function (the group's rank 0, as
// elect.sync picks the lowest lane); invoke_one_broadcast gives every thread of the group what
// that call returned. Groups: tiles of 8 of a block of 64, and the coalesced lanes t % 3 != 0.
__global__ void invoke_ops(unsigned* calls, unsigned* caller, unsigned* got) {
  const unsigned t = threadIdx.x;
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  cg::invoke_one(tile, [&] {
    atomicAdd(&calls[0], 1u);
    caller[t / 8] = t;
  });
  got[t] = cg::invoke_one_broadcast(tile, [&] { return atomicAdd(&calls[1], 1u) * 1000 + t; });
  if (t % 3 != 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    cg::invoke_one(g, [&] { atomicAdd(&calls[2], 1u); });
    got[64 + t] = cg::invoke_one_broadcast(g, [&] { return t; });
  }
}

TEST(CoalescedGroup, InvokeOneCallsOnceAndBroadcasts) {
  device_buffer<unsigned> calls(std::vector<unsigned>(3, 0)), caller(8), got(128);
  invoke_ops<<<1, 64>>>(calls.ptr, caller.ptr, got.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto c = calls.to_host(), who = caller.to_host(), g = got.to_host();
  EXPECT_EQ(c[0], 8u);  // one call per tile
  EXPECT_EQ(c[1], 8u);
  EXPECT_EQ(c[2], 2u);  // one per warp's coalesced group
  for (unsigned k = 0; k < 8; ++k) EXPECT_EQ(who[k], 8 * k) << k;
  for (unsigned t = 0; t < 64; ++t) {
    EXPECT_EQ(g[t] % 1000, t / 8 * 8) << t;          // the tile's rank 0 made the call
    EXPECT_EQ(g[t], g[t / 8 * 8]) << t;              // and every thread got its result
    unsigned first = t / 32 * 32;  // the warp's lowest lane with t % 3 != 0
    while (first % 3 == 0) ++first;
    if (t % 3 != 0) EXPECT_EQ(g[64 + t], first) << t;
  }
}
