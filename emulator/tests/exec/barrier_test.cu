// __syncthreads and its _count/_and/_or forms, threads that exit before a barrier, 3-D blocks.
#include "device_buffer.h"

__global__ void tree_sum(const int* in, int* out) {
  extern __shared__ int s[];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

TEST(Barrier, TreeReductionMatchesSerialSum) {
  for (unsigned threads : {1u, 2u, 32u, 64u, 256u, 1024u}) {
    const unsigned blocks = 5;
    std::vector<int> h(blocks * threads);
    for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<int>(i * 7 % 1000) - 300;
    device_buffer<int> in(h), out(blocks);
    tree_sum<<<blocks, threads, threads * sizeof(int)>>>(in.ptr, out.ptr);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    auto r = out.to_host();
    for (unsigned b = 0; b < blocks; ++b) {
      int expect = 0;
      for (unsigned i = 0; i < threads; ++i) expect += h[b * threads + i];
      EXPECT_EQ(r[b], expect) << "threads=" << threads << " block=" << b;
    }
  }
}

__global__ void barrier_forms(const int* pred, int* counts, int* ands, int* ors) {
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned n = blockDim.x * blockDim.y * blockDim.z;
  const int p = pred[blockIdx.x * n + t];
  const int c = __syncthreads_count(p);
  const int a = __syncthreads_and(p);
  const int o = __syncthreads_or(p);
  counts[blockIdx.x * n + t] = c;
  ands[blockIdx.x * n + t] = a;
  ors[blockIdx.x * n + t] = o;
}

TEST(Barrier, CountAndOrOverA3DBlock) {
  const dim3 block(8, 4, 3);  // 96 threads: three warps
  const unsigned n = 96, blocks = 4;
  std::vector<int> pred(blocks * n);
  // block 0: none true; block 1: all true (values other than 1 too); block 2: one; block 3: mixed
  for (unsigned i = 0; i < n; ++i) {
    pred[0 * n + i] = 0;
    pred[1 * n + i] = static_cast<int>(i) + 1;
    pred[2 * n + i] = i == 77 ? -5 : 0;
    pred[3 * n + i] = (i % 3) == 0;
  }
  const int expect_count[] = {0, 96, 1, 32};
  device_buffer<int> p(pred), c(blocks * n), a(blocks * n), o(blocks * n);
  barrier_forms<<<blocks, block>>>(p.ptr, c.ptr, a.ptr, o.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  auto hc = c.to_host(), ha = a.to_host(), ho = o.to_host();
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned i = 0; i < n; ++i) {
      EXPECT_EQ(hc[b * n + i], expect_count[b]);
      EXPECT_EQ(ha[b * n + i], expect_count[b] == 96 ? 1 : 0);
      EXPECT_EQ(ho[b * n + i], expect_count[b] > 0 ? 1 : 0);
    }
}

// CUDA counts exited threads as arrived: the remaining threads must not wait for them.
__global__ void early_exit(int* out, unsigned active) {
  __shared__ int s[512];
  if (threadIdx.x >= active) return;
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % active];
  __syncthreads();
  const int c = __syncthreads_count(1);
  out[512 + threadIdx.x] = c;
}

TEST(Barrier, ExitedThreadsCountAsArrived) {
  for (unsigned active : {1u, 31u, 33u, 200u, 512u}) {
    device_buffer<int> out(1024);
    early_exit<<<1, 512>>>(out.ptr, active);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    auto h = out.to_host();
    for (unsigned t = 0; t < active; ++t) {
      EXPECT_EQ(h[t], static_cast<int>((t + 1) % active));
      EXPECT_EQ(h[512 + t], static_cast<int>(active));
    }
  }
}

// Blocks spread over the workers: every block of a large grid runs exactly once.
__global__ void mark_blocks(int* seen) {
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&seen[blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)], 1);
}

TEST(Barrier, EveryBlockOfA3DGridRunsOnce) {
  const dim3 grid(13, 7, 3);
  const unsigned nblocks = 13 * 7 * 3;
  device_buffer<int> seen(nblocks);
  mark_blocks<<<grid, 64>>>(seen.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  auto h = seen.to_host();
  for (unsigned b = 0; b < nblocks; ++b) EXPECT_EQ(h[b], 1) << "block " << b;
}

// Warps that run as one batch without synchronising (the sync-free fast path), warps whose
// lanes synchronise from the middle of a batch, and blocks of both kinds one after another on
// the same executor: every thread's results must be those of the CUDA rules. In blocks of 16x6
// the batch loop stores the whole threadIdx, and the lane that synchronises is found from it.
__global__ void mixed_blocks(int* out) {
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x, b = blockIdx.x;
  const unsigned i = b * blockDim.x * blockDim.y + t;
  if (b % 2 == 0) {  // sync-free
    out[i] = static_cast<int>(i * 3);
    return;
  }
  if (t % 3 == 0) {  // exits before the barrier, from the middle of each warp
    out[i] = -1;
    return;
  }
  const int c = __syncthreads_count(t % 2);
  const unsigned m = __activemask();
  __syncwarp(m);
  out[i] = c * 1000 + __popc(m);
}

void check_mixed_blocks(bool two_d) {
  const unsigned blocks = 40, threads = 96;
  device_buffer<int> out(blocks * threads);
  if (two_d) mixed_blocks<<<blocks, dim3(16, 6)>>>(out.ptr);
  else mixed_blocks<<<blocks, threads>>>(out.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto h = out.to_host();
  // Expected: odd t not divisible by 3 count; every warp's lanes not divisible by 3 stay active.
  int odd = 0;
  for (unsigned t = 0; t < threads; ++t) odd += (t % 3 != 0) && (t % 2 == 1);
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t) {
      const unsigned i = b * threads + t;
      int want;
      if (b % 2 == 0) want = static_cast<int>(i * 3);
      else if (t % 3 == 0) want = -1;
      else {
        int active = 0;
        for (unsigned k = t / 32 * 32; k < t / 32 * 32 + 32; ++k) active += k % 3 != 0;
        want = odd * 1000 + active;
      }
      ASSERT_EQ(h[i], want) << "block " << b << " thread " << t;
    }
}

TEST(Barrier, SyncFreeAndSyncingBlocksOnOneExecutor) { check_mixed_blocks(false); }
TEST(Barrier, SyncFreeAndSyncingTwoDimensionalBlocksOnOneExecutor) { check_mixed_blocks(true); }
