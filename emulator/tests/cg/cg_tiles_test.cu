// thread_block_tile<N> (N = 1..32) from tiled_partition<N>, the dynamic tiled_partition(parent,
// n), tiles of tiles, the partial last warp, and multi-warp tiles (64..1024). Expected values
// follow the CUDA Programming Guide: a tile holds block ranks [k*N, (k+1)*N), its rank is the
// block rank mod N, shuffles use width N, ballot/match results have bit i = tile rank i.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "device_buffer.h"

namespace cg = cooperative_groups;

struct tile_out {
  unsigned rank, size, meta_rank, meta_size;
  int idx, up, down, xr;
  int any, all, ballot, match_any, match_all, match_all_pred;
  unsigned long long idx64;
};

template <unsigned N>
__global__ void tile_ops(const int* in, tile_out* out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<N> t = cg::tiled_partition<N>(b);
  const unsigned r = b.thread_rank();
  const int v = in[r];
  tile_out& o = out[r];
  o.rank = t.thread_rank();
  o.size = t.size();
  o.meta_rank = t.meta_group_rank();
  o.meta_size = t.meta_group_size();
  o.idx = t.shfl(v, static_cast<int>((t.thread_rank() + 1) % N));
  o.up = t.shfl_up(v, 1);
  o.down = t.shfl_down(v, 2);
  o.xr = t.shfl_xor(v, N > 1 ? 1 : 0);
  o.idx64 = t.shfl(static_cast<unsigned long long>(v) << 33, 0);
  o.any = t.any(v % 7 == 0);
  o.all = t.all(v >= 0);
  o.ballot = static_cast<int>(t.ballot(v % 2 == 0));
  o.match_any = static_cast<int>(t.match_any(v % 3));
  int pred = -1;
  o.match_all = static_cast<int>(t.match_all(v / 1000, pred));
  o.match_all_pred = pred;
  t.sync();
  cg::sync(t);
}

template <unsigned N>
void check_tiles(unsigned block) {
  std::vector<int> h(block);
  for (unsigned i = 0; i < block; ++i) h[i] = static_cast<int>((i * 37 + 11) % 101);
  device_buffer<int> in(h);
  device_buffer<tile_out> out(block);
  tile_ops<N><<<1, block>>>(in.ptr, out.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto r = out.to_host();
  for (unsigned i = 0; i < block; ++i) {
    const unsigned rank = i % N, base = i - rank;
    const tile_out& o = r[i];
    SCOPED_TRACE(testing::Message() << "N=" << N << " block=" << block << " thread=" << i);
    EXPECT_EQ(o.rank, rank);
    EXPECT_EQ(o.size, N);
    EXPECT_EQ(o.meta_rank, i / N);
    EXPECT_EQ(o.meta_size, (block + N - 1) / N);
    EXPECT_EQ(o.idx, h[base + (rank + 1) % N]);
    EXPECT_EQ(o.up, rank >= 1 ? h[i - 1] : h[i]);
    EXPECT_EQ(o.down, rank + 2 < N ? h[i + 2] : h[i]);
    EXPECT_EQ(o.xr, h[base + (rank ^ (N > 1 ? 1u : 0u))]);
    EXPECT_EQ(o.idx64, static_cast<unsigned long long>(h[base]) << 33);
    int any = 0, all = 1, ballot = 0, ma = 0, same = 1;
    for (unsigned k = 0; k < N; ++k) {
      const int w = h[base + k];
      any |= w % 7 == 0;
      all &= w >= 0;
      if (w % 2 == 0) ballot |= 1 << k;
      if (w % 3 == h[i] % 3) ma |= 1 << k;
      if (w / 1000 != h[base] / 1000) same = 0;
    }
    EXPECT_EQ(o.any, any);
    EXPECT_EQ(o.all, all);
    EXPECT_EQ(o.ballot, ballot);
    EXPECT_EQ(o.match_any, ma);
    EXPECT_EQ(o.match_all_pred, same);
    EXPECT_EQ(static_cast<unsigned>(o.match_all), same ? (N == 32 ? 0xffffffffu : (1u << N) - 1) : 0u);
  }
}

TEST(CgTiles, Size1) { check_tiles<1>(64); }
TEST(CgTiles, Size2) { check_tiles<2>(64); }
TEST(CgTiles, Size4) { check_tiles<4>(96); }
TEST(CgTiles, Size8) { check_tiles<8>(64); }
TEST(CgTiles, Size16) { check_tiles<16>(128); }
TEST(CgTiles, Size32) { check_tiles<32>(128); }

// In a 2-D block the tiles follow the block rank (x fastest), not threadIdx.x.
__global__ void tile_2d(unsigned* out) {
  cg::thread_block b = cg::this_thread_block();
  auto t = cg::tiled_partition<8>(b);
  const unsigned r = b.thread_rank();
  out[2 * r] = t.meta_group_rank();
  out[2 * r + 1] = t.shfl(r, 7);
}
TEST(CgTiles, TwoDimensionalBlockUsesBlockRank) {
  const dim3 block(4, 6);
  device_buffer<unsigned> out(2 * 24);
  tile_2d<<<1, block>>>(out.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto r = out.to_host();
  for (unsigned i = 0; i < 24; ++i) {
    EXPECT_EQ(r[2 * i], i / 8);
    EXPECT_EQ(r[2 * i + 1], i / 8 * 8 + 7);
  }
}

// Dynamic tiled_partition(parent, n) -> thread_group, and a tile of a tile.
__global__ void dynamic_tiles(unsigned* out, unsigned n) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_group g = cg::tiled_partition(b, n);
  auto t32 = cg::tiled_partition<32>(b);
  auto t4 = cg::tiled_partition<4>(t32);
  cg::thread_group g2 = cg::tiled_partition(t32, 2);
  const unsigned r = b.thread_rank();
  out[6 * r + 0] = static_cast<unsigned>(g.thread_rank());
  out[6 * r + 1] = static_cast<unsigned>(g.size());
  out[6 * r + 2] = t4.thread_rank();
  out[6 * r + 3] = t4.meta_group_rank();
  out[6 * r + 4] = static_cast<unsigned>(g2.thread_rank());
  g.sync();
  g2.sync();
  out[6 * r + 5] = t4.meta_group_size();
}
TEST(CgTiles, DynamicPartitionAndTileOfTile) {
  const unsigned block = 64;
  for (unsigned n : {1u, 2u, 4u, 8u, 16u, 32u}) {
    device_buffer<unsigned> out(6 * block);
    dynamic_tiles<<<1, block>>>(out.ptr, n);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    auto r = out.to_host();
    for (unsigned i = 0; i < block; ++i) {
      EXPECT_EQ(r[6 * i + 0], i % n);
      EXPECT_EQ(r[6 * i + 1], n);
      EXPECT_EQ(r[6 * i + 2], i % 4);
      EXPECT_EQ(r[6 * i + 3], (i % 32) / 4);
      EXPECT_EQ(r[6 * i + 4], i % 2);
      EXPECT_EQ(r[6 * i + 5], 8u);
    }
  }
}

// A block smaller than a warp (NVIDIA's reduction sample, last pass): tile32.shfl_down from
// lanes that were never launched reads 0, so the classic loop sums the existing lanes.
__global__ void small_block_sum(const int* in, int* out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> t = cg::tiled_partition<32>(b);
  int v = in[b.thread_rank()];
  for (int off = t.size() / 2; off > 0; off /= 2) v += t.shfl_down(v, off);
  if (b.thread_rank() == 0) *out = v;
}
TEST(CgTiles, PartialWarpReadsZeroFromMissingLanes) {
  for (unsigned n : {1u, 2u, 3u, 8u, 17u, 31u}) {
    std::vector<int> h(n);
    int sum = 0;
    for (unsigned i = 0; i < n; ++i) sum += h[i] = static_cast<int>(i * 5 + 1);
    device_buffer<int> in(h), out(1);
    small_block_sum<<<1, n>>>(in.ptr, out.ptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(out.to_host()[0], sum) << n;
  }
}

// Multi-warp tiles: ranks, meta ranks, shfl, reduce, sync (the reduction sample's kernel 9).
template <unsigned N>
__global__ void multi_tile(const int* in, int* out) {
  __shared__ cg::block_tile_memory<1024> scratch;
  cg::thread_block b = cg::this_thread_block(scratch);
  auto t = cg::tiled_partition<N>(b);
  const unsigned r = b.thread_rank();
  const int v = in[r];
  const int sum = cg::reduce(t, v, cg::plus<int>());
  t.sync();
  const int last = t.shfl(v, N - 1);
  if (blockIdx.x != 0) return;  // both blocks compute; one writes (no race between blocks)
  out[5 * r + 0] = static_cast<int>(t.thread_rank());
  out[5 * r + 1] = static_cast<int>(t.meta_group_rank());
  out[5 * r + 2] = static_cast<int>(t.meta_group_size());
  out[5 * r + 3] = sum;
  out[5 * r + 4] = last;
}
template <unsigned N>
void check_multi(unsigned block) {
  std::vector<int> h(block);
  for (unsigned i = 0; i < block; ++i) h[i] = static_cast<int>(i * 3 + 1);
  device_buffer<int> in(h), out(5 * block);
  multi_tile<N><<<2, block>>>(in.ptr, out.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto r = out.to_host();
  for (unsigned i = 0; i < block; ++i) {
    const unsigned base = i / N * N;
    int sum = 0;
    for (unsigned k = 0; k < N; ++k) sum += h[base + k];
    EXPECT_EQ(r[5 * i + 0], static_cast<int>(i % N));
    EXPECT_EQ(r[5 * i + 1], static_cast<int>(i / N));
    EXPECT_EQ(r[5 * i + 2], static_cast<int>(block / N));
    EXPECT_EQ(r[5 * i + 3], sum);
    EXPECT_EQ(r[5 * i + 4], h[base + N - 1]);
  }
}
TEST(CgTiles, MultiWarp64) { check_multi<64>(256); }
TEST(CgTiles, MultiWarp128) { check_multi<128>(256); }
TEST(CgTiles, MultiWarp512) { check_multi<512>(1024); }
