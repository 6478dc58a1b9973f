// Patterns of NVIDIA's cuda-samples, reduced: threadFenceReduction's "last block finishes the
// sum" (__threadfence + atomicInc + a __shared__ flag), reduction/simpleTemplates' SharedMemory<T>
// (extern __shared__ arrays of different types in one program), and reduction's kernel 4 on a
// block smaller than a warp (tile shuffles from lanes that were never launched read 0).
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <vector>

namespace cg = cooperative_groups;

template <class T>
struct SharedMemory {
  __device__ operator T*() {
    extern __shared__ int smem_int[];
    return reinterpret_cast<T*>(smem_int);
  }
};
template <>
struct SharedMemory<double> {
  __device__ operator double*() {
    extern __shared__ double smem_double[];
    return smem_double;
  }
};

__device__ unsigned retirement_count = 0;

template <class T>
__global__ void sum_last_block(const T* in, T* partial, T* out, unsigned n) {
  T* s = SharedMemory<T>();
  cg::thread_block b = cg::this_thread_block();
  const unsigned t = threadIdx.x;
  T v = 0;
  for (unsigned i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) v += in[i];
  s[t] = v;
  cg::sync(b);
  for (unsigned k = blockDim.x / 2; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    cg::sync(b);
  }
  __shared__ bool am_last;
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    const unsigned ticket = atomicInc(&retirement_count, gridDim.x);
    am_last = ticket == gridDim.x - 1;
  }
  cg::sync(b);
  if (am_last && t == 0) {
    T total = 0;
    for (unsigned i = 0; i < gridDim.x; ++i) total += partial[i];
    *out = total;
    retirement_count = 0;  // ready for the next launch, as the sample does
  }
}

template <class T>
void check_sum(unsigned n, unsigned blocks, unsigned threads) {
  std::vector<T> h(n);
  T want = 0;
  for (unsigned i = 0; i < n; ++i) want += h[i] = static_cast<T>(i % 13);
  T *in, *partial, *out;
  cudaMalloc(&in, n * sizeof(T));
  cudaMalloc(&partial, blocks * sizeof(T));
  cudaMalloc(&out, sizeof(T));
  cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  for (int run = 0; run < 3; ++run) {
    cudaMemset(out, 0, sizeof(T));
    sum_last_block<T><<<blocks, threads, threads * sizeof(T)>>>(in, partial, out, n);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    T got = 0;
    cudaMemcpy(&got, out, sizeof(T), cudaMemcpyDeviceToHost);
    EXPECT_EQ(got, want) << "run " << run;
  }
  unsigned count = 1;
  cudaMemcpyFromSymbol(&count, retirement_count, sizeof count);
  EXPECT_EQ(count, 0u);
  cudaFree(in);
  cudaFree(partial);
  cudaFree(out);
}

TEST(SamplePatterns, LastBlockSumInt) { check_sum<int>(100000, 37, 128); }
TEST(SamplePatterns, LastBlockSumDouble) { check_sum<double>(50000, 16, 64); }
TEST(SamplePatterns, LastBlockSumFloatOneBlock) { check_sum<float>(1000, 1, 256); }

template <unsigned BlockSize>
__global__ void reduce4_like(const int* in, int* out, unsigned n) {
  cg::thread_block cta = cg::this_thread_block();
  int* sdata = SharedMemory<int>();
  const unsigned tid = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  int sum = i < n ? in[i] : 0;
  if (i + BlockSize < n) sum += in[i + BlockSize];
  sdata[tid] = sum;
  cg::sync(cta);
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] = sum = sum + sdata[tid + s];
    cg::sync(cta);
  }
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    if (BlockSize >= 64) sum += sdata[tid + 32];
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2) sum += tile32.shfl_down(sum, offset);
  }
  if (cta.thread_rank() == 0) out[blockIdx.x] = sum;
}

template <unsigned B>
void check_reduce4(unsigned n) {
  std::vector<int> h(n);
  int want = 0;
  for (unsigned i = 0; i < n; ++i) want += h[i] = static_cast<int>(i * 7 % 11);
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  reduce4_like<B><<<1, B, (B <= 32 ? 2 * B : B) * sizeof(int)>>>(in, out, n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  int got = 0;
  cudaMemcpy(&got, out, sizeof(int), cudaMemcpyDeviceToHost);
  EXPECT_EQ(got, want) << "block " << B << " n " << n;
  cudaFree(in);
  cudaFree(out);
}

TEST(SamplePatterns, Reduce4EveryBlockSize) {
  check_reduce4<1>(2); check_reduce4<2>(4); check_reduce4<4>(8); check_reduce4<8>(16);
  check_reduce4<16>(32); check_reduce4<32>(64); check_reduce4<64>(128); check_reduce4<256>(512);
}
