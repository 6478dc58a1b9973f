// Kernels the region translation cuts into loops except for one or more block-level statements,
// which run as coroutines (region_block::fibers): a barrier or warp collective reached through a
// called function, a barrier or shuffles under a condition that differs between threads, a
// thread returning inside such a statement. Each kernel is checked against a CPU reference;
// regions_test runs this program on both execution paths and under other schedules (the output
// must be the same) and reads which statements ran as coroutines from `cuemu cc -v`.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                              \
  do {                                                                     \
    cudaError_t e_ = (x);                                                  \
    if (e_ != cudaSuccess) {                                               \
      std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorName(e_)); \
      std::exit(1);                                                        \
    }                                                                      \
  } while (0)

constexpr int kBlock = 256;

// A block's sum through shared memory: barriers inside a called function (__noinline__: the
// call stays a call, not written out in the kernel; written_out.cu has those).
__device__ __noinline__ int block_sum(int* s, int v) {
  s[threadIdx.x] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (static_cast<int>(threadIdx.x) < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  const int r = s[0];
  __syncthreads();
  return r;
}

// A warp's sum: shuffles inside a called function (__noinline__, as above).
__device__ __noinline__ int warp_sum(int v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// 1. Both callees between regions; their results live across later barriers.
__global__ void callee_sync(const int* in, int* out) {
  __shared__ int s[kBlock];
  __shared__ int warps[kBlock / 32];
  const int t = static_cast<int>(threadIdx.x);
  const int v = in[blockIdx.x * kBlock + t];
  const int total = block_sum(s, v);       // as coroutines
  const int mine = warp_sum(v * (t + 1));  // as coroutines
  if (t % 32 == 0) warps[t / 32] = mine;
  __syncthreads();
  int w = 0;
  for (int k = 0; k < kBlock / 32; ++k) w += warps[k];
  out[blockIdx.x * kBlock + t] = total * 1000 + w % 1000 + v;
}

// 2. The last warp's reduction under `if (t < 32)`: a condition that differs between threads.
__global__ void last_warp(const int* in, int* out) {
  __shared__ int s[kBlock];
  const int t = static_cast<int>(threadIdx.x);
  s[t] = in[blockIdx.x * kBlock + t];
  __syncthreads();
  for (int k = kBlock / 2; k > 32; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t < 32) {  // as coroutines
    int x = s[t] + s[t + 32];
    for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
    s[t] = x;
  }
  __syncthreads();
  out[blockIdx.x * kBlock + t] = s[t % 32] - t;
}

// 3. Each half of the block at a barrier of its own (legal since Volta), then a region with no
// barrier after it: a thread that finishes the statement takes part in no later barrier.
__global__ void split_barriers(int* out) {
  __shared__ int s[kBlock];
  const int t = static_cast<int>(threadIdx.x);
  if (t < kBlock / 2) {  // as coroutines
    s[t] = t;
    __syncthreads();
    s[t] += s[t + kBlock / 2];
  } else {
    s[t] = 2 * t;
    __syncthreads();
  }
  out[blockIdx.x * kBlock + t] = s[t];
}

// 4. Threads that return inside a statement run as coroutines are gone from the regions after
// it: the barrier after it counts only the others, and they do not store.
__global__ void return_inside(const int* in, int* out) {
  __shared__ int s[kBlock];
  const int t = static_cast<int>(threadIdx.x);
  s[t] = in[blockIdx.x * kBlock + t];
  __syncthreads();
  if (s[t] % 5 == 0) {  // as coroutines
    __syncwarp(__activemask());
    return;
  }
  __syncthreads();
  out[blockIdx.x * kBlock + t] = s[(t + 1) % kBlock] + 1;
}

// 5. A call inside a block-level loop that also holds barriers of its own: the loop stays a
// loop of regions, the call in it runs as coroutines each time round.
__global__ void callee_in_loop(const int* in, int* out, int rounds) {
  __shared__ int s[kBlock];
  const int t = static_cast<int>(threadIdx.x);
  int acc = in[blockIdx.x * kBlock + t];
  for (int r = 0; r < rounds; ++r) {
    s[t] = acc;
    __syncthreads();
    acc = s[(t + r + 1) % kBlock] + warp_sum(acc) % 7;  // as coroutines
    __syncthreads();
  }
  out[blockIdx.x * kBlock + t] = acc;
}

// 6. A multiply-add in a device function too large to be inlined, reached from a statement run
// as coroutines: nvcc contracts it into one fused multiply-add on every path.
__device__ __noinline__ float fused(const float* a, int n, float x) {
  float r = 0.0f;
  for (int i = 0; i < n; ++i) r = r * x + a[i];
  return r;
}
__global__ void contracted_callee(const float* a, float* out) {
  __shared__ int s[kBlock];
  const int t = static_cast<int>(threadIdx.x);
  const float x = 1.0f + static_cast<float>(t) * 0.0078125f;
  const int total = block_sum(s, 1);  // as coroutines
  out[t] = fused(a, 9, x) + static_cast<float>(total - kBlock);
}

// 7. __restrict__ pointer parameters the kernel moves: each thread's own copy, without the
// qualifier (a per-thread store of restrict pointers is not valid C++).
__global__ void restrict_params(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ int s[kBlock], r[kBlock];
  in += blockIdx.x * kBlock;
  out += blockIdx.x * kBlock;
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[kBlock - 1 - threadIdx.x] + block_sum(r, 1);  // as coroutines
}

int main() {
  const int blocks = 3, n = blocks * kBlock;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = static_cast<int>((i * 2654435761u) >> 9 & 1023);
  int *in, *out;
  CK(cudaMalloc(&in, n * sizeof(int)));
  CK(cudaMalloc(&out, n * sizeof(int)));
  CK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  std::vector<int> got(n);
  bool all = true;
  auto report = [&](const char* name, auto want) {
    CK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += got[i] != want(i / kBlock, i % kBlock);
    std::printf("%s: %s\n", name, bad ? "WRONG" : "ok");
    all = all && bad == 0;
  };
  auto at = [&](int b, int t) { return h[b * kBlock + t]; };

  callee_sync<<<blocks, kBlock>>>(in, out);
  CK(cudaGetLastError());
  report("callee_sync", [&](int b, int t) {
    int total = 0, w = 0;
    for (int k = 0; k < kBlock; ++k) total += at(b, k);
    for (int k = 0; k < kBlock; k += 32) {
      int m = 0;
      for (int l = 0; l < 32; ++l) m += at(b, k + l) * (k + l + 1);
      w += m;
    }
    return total * 1000 + w % 1000 + at(b, t);
  });

  last_warp<<<blocks, kBlock>>>(in, out);
  report("last_warp", [&](int b, int t) {
    int total = 0;
    for (int k = 0; k < kBlock; ++k) total += at(b, k);
    return total - t;
  });

  split_barriers<<<blocks, kBlock>>>(out);
  report("split_barriers", [&](int, int t) { return t < kBlock / 2 ? t + 2 * (t + kBlock / 2) : 2 * t; });

  CK(cudaMemset(out, 0xff, n * sizeof(int)));
  return_inside<<<blocks, kBlock>>>(in, out);
  report("return_inside", [&](int b, int t) { return at(b, t) % 5 == 0 ? -1 : at(b, (t + 1) % kBlock) + 1; });

  const int rounds = 4;
  callee_in_loop<<<blocks, kBlock>>>(in, out, rounds);
  report("callee_in_loop", [&](int b, int t) {
    std::vector<int> acc(kBlock), next(kBlock);
    for (int k = 0; k < kBlock; ++k) acc[k] = at(b, k);
    for (int r = 0; r < rounds; ++r) {
      // warp_sum: a lane whose source lane is past the warp's end reads its own value.
      std::vector<int> ws(acc);
      for (int o = 16; o > 0; o >>= 1) {
        std::vector<int> v(ws);
        for (int k = 0; k < kBlock; ++k) ws[k] = v[k] + (k % 32 + o < 32 ? v[k + o] : v[k]);
      }
      for (int k = 0; k < kBlock; ++k) next[k] = acc[(k + r + 1) % kBlock] + ws[k] % 7;
      acc = next;
    }
    return acc[t];
  });

  restrict_params<<<blocks, kBlock>>>(in, out);
  report("restrict_params", [&](int b, int t) { return at(b, kBlock - 1 - t) + kBlock; });

  float ha[9], *da, *dout;
  for (int i = 0; i < 9; ++i) ha[i] = 0.1f * static_cast<float>(i + 1) - 0.33f;
  CK(cudaMalloc(&da, sizeof ha));
  CK(cudaMalloc(&dout, kBlock * sizeof(float)));
  CK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
  contracted_callee<<<1, kBlock>>>(da, dout);
  std::vector<float> gf(kBlock);
  CK(cudaMemcpy(gf.data(), dout, kBlock * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0, unfused_equal = 0;
  for (int t = 0; t < kBlock; ++t) {
    const float x = 1.0f + static_cast<float>(t) * 0.0078125f;
    float fma_r = 0.0f, plain = 0.0f;
    for (int i = 0; i < 9; ++i) {
      fma_r = std::fma(fma_r, x, ha[i]);
      volatile float p = plain * x;
      plain = p + ha[i];
    }
    bad += gf[t] != fma_r;
    unfused_equal += plain == fma_r;
  }
  // The inputs are chosen so that rounding once or twice differs for most threads.
  std::printf("contracted_callee: %s\n", bad == 0 && unfused_equal < kBlock / 2 ? "ok" : "WRONG");
  all = all && bad == 0 && unfused_equal < kBlock / 2;
  std::printf("%s\n", all ? "all ok" : "FAILED");
  return all ? 0 : 1;
}
