// thread_block, thread_group, grid_group ranks and sizes, in 1-, 2- and 3-dimensional blocks
// and grids (x fastest), and block-wide sync through every spelling.
#include <cooperative_groups.h>

#include "device_buffer.h"

namespace cg = cooperative_groups;

struct block_info {
  unsigned rank, size, num, gx, gy, gz, tx, ty, tz, dx, dy, dz;
  unsigned long long grid_rank, grid_size, grid_blocks, grid_block_rank;
  unsigned tg_rank, tg_size, tg_type, free_rank, free_size;
  int valid, grid_valid;
};

__global__ void info(block_info* out) {
  cg::thread_block b = cg::this_thread_block();
  cg::grid_group g = cg::this_grid();
  cg::thread_group tg = b;
  const unsigned long long gi = g.thread_rank();
  block_info& o = out[gi];
  o.rank = b.thread_rank();
  o.size = b.size();
  o.num = b.num_threads();
  o.gx = b.group_index().x; o.gy = b.group_index().y; o.gz = b.group_index().z;
  o.tx = b.thread_index().x; o.ty = b.thread_index().y; o.tz = b.thread_index().z;
  o.dx = b.dim_threads().x; o.dy = b.dim_threads().y; o.dz = b.dim_threads().z;
  o.grid_rank = gi;
  o.grid_size = g.size();
  o.grid_blocks = g.num_blocks();
  o.grid_block_rank = g.block_rank();
  o.tg_rank = static_cast<unsigned>(tg.thread_rank());
  o.tg_size = static_cast<unsigned>(tg.size());
  o.tg_type = tg.get_type();
  o.free_rank = cg::thread_rank(b);
  o.free_size = cg::group_size(b);
  o.valid = b.is_valid();
  o.grid_valid = g.is_valid();
}

static void check_shape(dim3 grid, dim3 block) {
  const unsigned bs = block.x * block.y * block.z, nb = grid.x * grid.y * grid.z;
  device_buffer<block_info> out(bs * nb);
  info<<<grid, block>>>(out.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto r = out.to_host();
  std::vector<int> seen(bs * nb, 0);
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx)
        for (unsigned tz = 0; tz < block.z; ++tz)
          for (unsigned ty = 0; ty < block.y; ++ty)
            for (unsigned tx = 0; tx < block.x; ++tx) {
              const unsigned rank = tx + block.x * (ty + block.y * tz);
              const unsigned brank = bx + grid.x * (by + grid.y * bz);
              const unsigned gi = brank * bs + rank;
              const block_info& o = r[gi];
              ++seen[gi];
              EXPECT_EQ(o.rank, rank);
              EXPECT_EQ(o.size, bs);
              EXPECT_EQ(o.num, bs);
              EXPECT_EQ(o.tx, tx); EXPECT_EQ(o.ty, ty); EXPECT_EQ(o.tz, tz);
              EXPECT_EQ(o.gx, bx); EXPECT_EQ(o.gy, by); EXPECT_EQ(o.gz, bz);
              EXPECT_EQ(o.dx, block.x); EXPECT_EQ(o.dy, block.y); EXPECT_EQ(o.dz, block.z);
              EXPECT_EQ(o.grid_rank, gi);
              EXPECT_EQ(o.grid_size, static_cast<unsigned long long>(bs) * nb);
              EXPECT_EQ(o.grid_blocks, nb);
              EXPECT_EQ(o.grid_block_rank, brank);
              EXPECT_EQ(o.tg_rank, rank);
              EXPECT_EQ(o.tg_size, bs);
              EXPECT_EQ(o.tg_type, 3u);  // thread_block's group id
              EXPECT_EQ(o.free_rank, rank);
              EXPECT_EQ(o.free_size, bs);
              EXPECT_EQ(o.valid, 1);
              EXPECT_EQ(o.grid_valid, 0);  // not a cooperative launch
            }
  for (int s : seen) EXPECT_EQ(s, 1);
}

TEST(CgGroups, OneDimensional) { check_shape(dim3(3), dim3(96)); }
TEST(CgGroups, TwoDimensional) { check_shape(dim3(2, 3), dim3(8, 5)); }
TEST(CgGroups, ThreeDimensional) { check_shape(dim3(2, 1, 2), dim3(4, 3, 5)); }

// Block-wide sync through b.sync(), cg::sync(b) and a thread_group: a rotation through shared
// memory that needs every barrier.
__global__ void rotate(int* out, int steps) {
  __shared__ int s[256];
  cg::thread_block b = cg::this_thread_block();
  cg::thread_group g = b;
  const unsigned r = b.thread_rank(), n = b.size();
  int v = static_cast<int>(r);
  for (int i = 0; i < steps; ++i) {
    s[r] = v;
    if (i % 3 == 0) b.sync();
    else if (i % 3 == 1) cg::sync(b);
    else g.sync();
    v = s[(r + 1) % n];
    cg::sync(g);
  }
  out[r] = v;
}

TEST(CgGroups, BlockSyncOrdersSharedMemory) {
  for (unsigned n : {32u, 100u, 256u}) {
    device_buffer<int> out(n);
    rotate<<<1, n>>>(out.ptr, 7);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    auto r = out.to_host();
    for (unsigned t = 0; t < n; ++t) EXPECT_EQ(r[t], static_cast<int>((t + 7) % n)) << n << " " << t;
  }
}

// The simpleCooperativeGroups pattern: a reduction written once for thread_group, used with
// the block and with tiles of 16.
__device__ int sum_reduction(cg::thread_group g, int* x, int val) {
  const unsigned lane = g.thread_rank();
  for (unsigned i = g.size() / 2; i > 0; i /= 2) {
    x[lane] = val;
    g.sync();
    if (lane < i) val += x[lane + i];
    g.sync();
  }
  return g.thread_rank() == 0 ? val : -1;
}

__global__ void group_sums(int* block_sum, int* tile_sums) {
  extern __shared__ int work[];
  cg::thread_block b = cg::this_thread_block();
  const int s = sum_reduction(b, work, static_cast<int>(b.thread_rank()));
  if (b.thread_rank() == 0) *block_sum = s;
  b.sync();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(b);
  const unsigned off = b.thread_rank() - t16.thread_rank();
  const int ts = sum_reduction(t16, work + off, static_cast<int>(t16.thread_rank()));
  if (t16.thread_rank() == 0) tile_sums[t16.meta_group_rank()] = ts;
}

TEST(CgGroups, ThreadGroupReductionOverBlockAndTiles) {
  const unsigned n = 64;
  device_buffer<int> bsum(1), tsums(n / 16);
  group_sums<<<1, n, n * sizeof(int)>>>(bsum.ptr, tsums.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(bsum.to_host()[0], static_cast<int>(n * (n - 1) / 2));
  for (int v : tsums.to_host()) EXPECT_EQ(v, 120);
}
