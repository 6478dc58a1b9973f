// Producer/consumer between warps (and blocks) through a flag: warp 1 writes data, then sets a
// flag; warp 0 spins on the flag and then reads the data. The spinning warp only finishes if the
// producing warp makes progress while it spins. Variants: (a) atomicAdd(&flag, 0) spin with
// atomicExch to set, (b) cuda::atomic_ref<int, thread_scope_block> acquire/release, (c) a
// volatile spin with __threadfence_block() before the store, each with the flag in shared and in
// global memory; (d) block 0 of a 2-block grid spins on a global flag set by block 1.
#include <cstdio>
#include <cuda/atomic>

constexpr int kItems = 256;  // written by the 32 lanes of warp 1, 8 each

__device__ int value_of(int i, int variant) { return i * 7 + 1000 * variant + 3; }

__device__ void produce(int* s_data, int* g_data, int variant) {
  const int lane = threadIdx.x % 32;
  for (int k = 0; k < kItems / 32; ++k) {
    const int i = lane + 32 * k;
    s_data[i] = value_of(i, variant);
    g_data[i] = 2 * value_of(i, variant);
  }
  __syncwarp();
}

// Each lane of warp 0 sums its 8 items of each array: out[lane] (shared), out[32 + lane] (global).
__device__ void consume(const int* s_data, const int* g_data, int* out) {
  const int lane = threadIdx.x % 32;
  int s = 0, g = 0;
  for (int k = 0; k < kItems / 32; ++k) {
    const int i = lane + 32 * k;
    s += s_data[i];
    g += g_data[i];
  }
  out[lane] = s;
  out[32 + lane] = g;
}

// (a) atomics
template <bool GlobalFlag>
__global__ void variant_atomic(int* g_data, int* g_flag, int* out) {
  __shared__ int s_data[kItems];
  __shared__ int s_flag;
  if (threadIdx.x == 0) s_flag = 0;
  __syncthreads();
  int* flag = GlobalFlag ? g_flag : &s_flag;
  if (threadIdx.x >= 32) {
    produce(s_data, g_data, 1);
    if (threadIdx.x == 32) {
      __threadfence_block();
      atomicExch(flag, 1);
    }
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    __threadfence_block();
    consume(s_data, g_data, out);
  }
}

// (b) cuda::atomic_ref with block scope
template <bool GlobalFlag>
__global__ void variant_atomic_ref(int* g_data, int* g_flag, int* out) {
  __shared__ int s_data[kItems];
  __shared__ int s_flag;
  if (threadIdx.x == 0) s_flag = 0;
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> flag(GlobalFlag ? *g_flag : s_flag);
  if (threadIdx.x >= 32) {
    produce(s_data, g_data, 2);
    if (threadIdx.x == 32) flag.store(1, cuda::std::memory_order_release);
  } else {
    while (flag.load(cuda::std::memory_order_acquire) == 0) {
    }
    consume(s_data, g_data, out);
  }
}

// (c) volatile
template <bool GlobalFlag>
__global__ void variant_volatile(int* g_data, int* g_flag, int* out) {
  __shared__ int s_data[kItems];
  __shared__ int s_flag;
  if (threadIdx.x == 0) s_flag = 0;
  __syncthreads();
  volatile int* flag = GlobalFlag ? g_flag : &s_flag;
  if (threadIdx.x >= 32) {
    produce(s_data, g_data, 3);
    if (threadIdx.x == 32) {
      __threadfence_block();
      *flag = 1;
    }
  } else {
    while (*flag == 0) {
    }
    __threadfence_block();
    consume(s_data, g_data, out);
  }
}

// (d) across blocks: block 1 writes 64 values and sets the flag; block 0 (thread 0) spins, then
// all of block 0 copies what block 1 wrote.
__global__ void across_blocks(int* g_data, int* g_flag, int* out) {
  if (blockIdx.x == 1) {
    g_data[threadIdx.x] = threadIdx.x * threadIdx.x + 11;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      atomicExch(g_flag, 1);
    }
  } else {
    if (threadIdx.x == 0) {
      while (atomicAdd(g_flag, 0) == 0) {
      }
      __threadfence();
    }
    __syncthreads();
    out[threadIdx.x] = g_data[threadIdx.x];
  }
}

using kernel_t = void (*)(int*, int*, int*);

static bool run_variant(const char* name, kernel_t k, int variant, int* d_data, int* d_flag, int* d_out) {
  cudaMemset(d_data, 0, kItems * sizeof(int));
  cudaMemset(d_flag, 0, sizeof(int));
  cudaMemset(d_out, 0, 64 * sizeof(int));
  k<<<1, 64>>>(d_data, d_flag, d_out);
  const cudaError_t err = cudaDeviceSynchronize();
  int out[64];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  long long got_s = 0, got_g = 0, want_s = 0, want_g = 0;
  bool lanes_ok = true;
  for (int lane = 0; lane < 32; ++lane) {
    int ws = 0;
    for (int k2 = 0; k2 < kItems / 32; ++k2) ws += (lane + 32 * k2) * 7 + 1000 * variant + 3;
    lanes_ok = lanes_ok && out[lane] == ws && out[32 + lane] == 2 * ws;
    got_s += out[lane];
    got_g += out[32 + lane];
    want_s += ws;
    want_g += 2 * ws;
  }
  const bool ok = err == cudaSuccess && lanes_ok && got_s == want_s && got_g == want_g;
  std::printf("%-22s %s shared sum %lld (cpu %lld) global sum %lld (cpu %lld) lane0 %d lane31 %d %s\n", name,
              cudaGetErrorName(err), got_s, want_s, got_g, want_g, out[0], out[31], ok ? "ok" : "MISMATCH");
  return ok;
}

int main() {
  int *d_data, *d_flag, *d_out;
  cudaMalloc(&d_data, kItems * sizeof(int));
  cudaMalloc(&d_flag, sizeof(int));
  cudaMalloc(&d_out, 64 * sizeof(int));
  bool ok = true;
  ok &= run_variant("atomic/shared-flag", variant_atomic<false>, 1, d_data, d_flag, d_out);
  ok &= run_variant("atomic/global-flag", variant_atomic<true>, 1, d_data, d_flag, d_out);
  ok &= run_variant("atomic_ref/shared-flag", variant_atomic_ref<false>, 2, d_data, d_flag, d_out);
  ok &= run_variant("atomic_ref/global-flag", variant_atomic_ref<true>, 2, d_data, d_flag, d_out);
  ok &= run_variant("volatile/shared-flag", variant_volatile<false>, 3, d_data, d_flag, d_out);
  ok &= run_variant("volatile/global-flag", variant_volatile<true>, 3, d_data, d_flag, d_out);

  cudaMemset(d_data, 0, kItems * sizeof(int));
  cudaMemset(d_flag, 0, sizeof(int));
  cudaMemset(d_out, 0, 64 * sizeof(int));
  across_blocks<<<2, 64>>>(d_data, d_flag, d_out);
  const cudaError_t err = cudaDeviceSynchronize();
  int out[64];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  bool blocks_ok = err == cudaSuccess;
  long long sum = 0, want = 0;
  for (int i = 0; i < 64; ++i) {
    blocks_ok = blocks_ok && out[i] == i * i + 11;
    sum += out[i];
    want += i * i + 11;
  }
  std::printf("across blocks: %s block 1 wrote", cudaGetErrorName(err));
  for (int i : {0, 1, 2, 31, 63}) std::printf(" [%d]=%d", i, out[i]);
  std::printf(" sum %lld (cpu %lld) %s\n", sum, want, blocks_ok ? "ok" : "MISMATCH");
  ok &= blocks_ok;
  std::printf("%s\n", ok ? "all ok" : "MISMATCH");
  return 0;
}
