// Static and dynamic shared memory: one instance per block, blocks never see each other's,
// extern __shared__ at function and namespace scope aliases one buffer, size limits.
#include "device_buffer.h"

// Each block fills its shared array with its own id, waits, and checks nobody else wrote.
__global__ void isolation(int* bad, int rounds) {
  __shared__ int s[256];
  __shared__ int tag;
  for (int r = 0; r < rounds; ++r) {
    const int id = static_cast<int>(blockIdx.x) * 1000 + r;
    s[threadIdx.x] = id;
    if (threadIdx.x == 0) tag = id;
    __syncthreads();
    for (int i = 0; i < 256; ++i)
      if (s[i] != id) atomicAdd(bad, 1);
    if (tag != id) atomicAdd(bad, 1);
    __syncthreads();
  }
}

TEST(SharedMemory, BlocksRunningAtTheSameTimeAreIsolated) {
  device_buffer<int> bad(1);
  isolation<<<64, 256>>>(bad.ptr, 4);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(bad.to_host()[0], 0);
}

extern __shared__ float ns_dynamic[];

__global__ void dynamic_alias(float* out, int n) {
  extern __shared__ __align__(16) unsigned char raw[];
  float* f = reinterpret_cast<float*>(raw);
  for (int i = threadIdx.x; i < n; i += blockDim.x) f[i] = static_cast<float>(i) * 0.5f;
  __syncthreads();
  // The namespace-scope declaration names the same memory. Each block writes its own slice.
  float* mine = out + blockIdx.x * (n + 1);
  for (int i = threadIdx.x; i < n; i += blockDim.x) mine[i] = ns_dynamic[n - 1 - i];
  if (threadIdx.x == 0) mine[n] = reinterpret_cast<uintptr_t>(raw) % 16 == 0 ? 1.f : 0.f;
}

TEST(SharedMemory, ExternSharedAtFunctionAndNamespaceScopeAlias) {
  const int n = 1000, blocks = 3;
  device_buffer<float> out(blocks * (n + 1));
  dynamic_alias<<<blocks, 128, n * sizeof(float)>>>(out.ptr, n);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  auto r = out.to_host();
  for (int b = 0; b < blocks; ++b) {
    for (int i = 0; i < n; ++i) EXPECT_EQ(r[b * (n + 1) + i], static_cast<float>(n - 1 - i) * 0.5f);
    EXPECT_EQ(r[b * (n + 1) + n], 1.f);
  }
}

__global__ void big_dynamic(int* out) {
  extern __shared__ int big[];
  const int n = 100 * 1024 / 4;
  for (int i = threadIdx.x; i < n; i += blockDim.x) big[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long s = 0;
    for (int i = 0; i < n; ++i) s += big[i];
    out[0] = static_cast<int>(s % 1000003);
  }
}

TEST(SharedMemory, DynamicAbove48KiBNeedsTheAttribute) {
  device_buffer<int> out(1);
  big_dynamic<<<1, 256, 100 * 1024>>>(out.ptr);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(out.to_host()[0], 0) << "a rejected launch must not run";
  ASSERT_EQ(cudaFuncSetAttribute(big_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024),
            cudaSuccess);
  big_dynamic<<<1, 256, 100 * 1024>>>(out.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  const long long n = 100 * 1024 / 4;
  EXPECT_EQ(out.to_host()[0], static_cast<int>((n * (n - 1) / 2) % 1000003));
  cudaFuncAttributes attr;
  ASSERT_EQ(cudaFuncGetAttributes(&attr, big_dynamic), cudaSuccess);
  EXPECT_EQ(attr.maxDynamicSharedSizeBytes, 100 * 1024);
}

// __shared__ inside a __device__ function is per block too.
__device__ int block_counter() {
  __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  atomicAdd(&counter, 1);
  __syncthreads();
  return counter;
}

__global__ void device_function_shared(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = block_counter(); }

TEST(SharedMemory, SharedInADeviceFunction) {
  device_buffer<int> out(4 * 96);
  device_function_shared<<<4, 96>>>(out.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  for (int v : out.to_host()) EXPECT_EQ(v, 96);
}
