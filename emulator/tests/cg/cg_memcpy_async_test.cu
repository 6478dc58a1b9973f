// cg::memcpy_async, cg::wait and cg::wait_prior (<cooperative_groups/memcpy_async.h>): a whole
// block and a warp tile copying global memory to shared memory, byte counts that do not divide
// among the threads, the element-count form (the shorter range is copied), cuda::aligned_size_t,
// and a two-stage pipeline that waits for the older copy with wait_prior<1>.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>

#include "device_buffer.h"

namespace cg = cooperative_groups;

// Each block copies `bytes` bytes of src (from byte blockIdx.x * bytes) into shared memory, then
// thread t writes the shared bytes t, t + blockDim.x, ... to dst.
__global__ void block_copy(const unsigned char* src, unsigned char* dst, unsigned bytes) {
  extern __shared__ unsigned char smem[];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem, src + blockIdx.x * bytes, bytes);
  cg::wait(block);
  for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) dst[blockIdx.x * bytes + i] = smem[i];
}

// Each warp copies its own 32-int slice with a tile, in the element-count form; src_count is
// shorter than dst_count for odd warps, which leaves the rest of their slice as it was (-1).
__global__ void tile_copy(const int* src, int* dst) {
  __shared__ int smem[4][32];
  cg::thread_block block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  const unsigned w = warp.meta_group_rank();
  smem[w][warp.thread_rank()] = -1;
  warp.sync();
  cg::memcpy_async(warp, smem[w], 32, src + w * 32, w % 2 ? 20 : 32);
  cg::wait(warp);
  dst[w * 32 + warp.thread_rank()] = smem[w][warp.thread_rank()];
}

// A two-stage pipeline over `chunks` chunks of 256 floats: copy chunk k + 1 while summing chunk k
// (wait_prior<1> waits for all but the newest copy). Thread t sums elements t and t + 128 of every
// chunk; out[t] is its total.
__global__ void pipelined_sum(const float* src, float* out, int chunks) {
  __shared__ float stage[2][256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, stage[0], src, cuda::aligned_size_t<16>(256 * sizeof(float)));
  float sum = 0.f;
  for (int k = 0; k < chunks; ++k) {
    if (k + 1 < chunks) {
      cg::memcpy_async(block, stage[(k + 1) % 2], src + (k + 1) * 256,
                       cuda::aligned_size_t<16>(256 * sizeof(float)));
      cg::wait_prior<1>(block);
    } else {
      cg::wait(block);
    }
    sum += stage[k % 2][threadIdx.x] + stage[k % 2][threadIdx.x + 128];
    block.sync();  // every thread is done with this stage before it is refilled
  }
  out[threadIdx.x] = sum;
}

static std::vector<unsigned char> bytes_of(unsigned n) {
  std::vector<unsigned char> v(n);
  for (unsigned i = 0; i < n; ++i) v[i] = static_cast<unsigned char>(i * 131 + 7);
  return v;
}

// Byte counts below, at and above the thread count, not multiples of it.
TEST(CgMemcpyAsync, BlockCopiesEveryByte) {
  for (unsigned threads : {32u, 96u, 129u}) {
    for (unsigned bytes : {1u, 31u, 129u, 1000u, 4099u}) {
      SCOPED_TRACE(testing::Message() << threads << " threads, " << bytes << " bytes");
      const unsigned blocks = 3;
      const auto h = bytes_of(blocks * bytes);
      device_buffer<unsigned char> src(h), dst(blocks * bytes);
      block_copy<<<blocks, threads, bytes>>>(src.ptr, dst.ptr, bytes);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      EXPECT_EQ(dst.to_host(), h);
    }
  }
}

TEST(CgMemcpyAsync, TileCopiesTheShorterRange) {
  std::vector<int> h(128);
  for (int i = 0; i < 128; ++i) h[i] = i * 3 + 1;
  device_buffer<int> src(h), dst(128);
  tile_copy<<<1, 128>>>(src.ptr, dst.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto d = dst.to_host();
  for (int i = 0; i < 128; ++i) {
    const int w = i / 32, lane = i % 32;
    EXPECT_EQ(d[i], w % 2 && lane >= 20 ? -1 : h[i]) << "element " << i;
  }
}

TEST(CgMemcpyAsync, TwoStagePipelineWithWaitPrior) {
  const int chunks = 7;
  std::vector<float> h(chunks * 256);
  for (int i = 0; i < chunks * 256; ++i) h[i] = static_cast<float>(i % 97) * 0.25f;
  device_buffer<float> src(h), out(128);
  pipelined_sum<<<1, 128>>>(src.ptr, out.ptr, chunks);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto d = out.to_host();
  for (int t = 0; t < 128; ++t) {
    float want = 0.f;  // the kernel's order of additions; the values are exact in float
    for (int k = 0; k < chunks; ++k) want += h[k * 256 + t] + h[k * 256 + t + 128];
    EXPECT_EQ(d[t], want) << "thread " << t;
  }
}
