// Kernels that synchronise inside the __device__ functions they call (regions/inline_calls.h):
// the calls the translation writes out in the kernel, and the ones it leaves as calls. Each
// kernel's result is checked here against a CPU reference; regions_test checks which calls were
// written out and that both execution paths print the same.
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kBlock = 128;
constexpr int kBlocks = 3;
constexpr int kN = kBlock * kBlocks;

// A void function with barriers, called as a statement (cuda-samples' fp16ScalarProduct).
__device__ void halve_into(int* const v) {
  for (int w = kBlock / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) v[threadIdx.x] += v[threadIdx.x + w];
    __syncthreads();
  }
}

__global__ void void_call(const int* in, int* out) {
  __shared__ int s[kBlock];
  s[threadIdx.x] = in[blockIdx.x * kBlock + threadIdx.x];
  __syncthreads();
  halve_into(s);
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

// Functions returning values, calling each other, with parameters named like the kernel's
// variables, a result used in an expression (cuda-samples' scan).
__device__ unsigned inclusive(unsigned idata, volatile unsigned* s, unsigned size, cg::thread_block cta) {
  unsigned pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));
  s[pos] = 0;
  pos += size;
  s[pos] = idata;
  for (unsigned offset = 1; offset < size; offset <<= 1) {
    cg::sync(cta);
    unsigned t = s[pos] + s[pos - offset];
    cg::sync(cta);
    s[pos] = t;
  }
  return s[pos];
}

__device__ unsigned exclusive(unsigned idata, volatile unsigned* s, unsigned size, cg::thread_block cta) {
  return inclusive(idata, s, size, cta) - idata;
}

__global__ void nested_values(const unsigned* in, unsigned* out, unsigned size) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ unsigned s[2 * kBlock];
  const unsigned pos = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned idata = in[pos];
  unsigned e = exclusive(idata, s, size, cta);
  out[pos] = e + idata;  // the kernel's own idata and pos, live across the written-out barriers
}

// A template, called twice, in a loop every thread runs alike.
template <typename T, int N>
__device__ T block_sum(T v, T* sh) {
  sh[threadIdx.x] = v;
  __syncthreads();
  for (int w = N / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  T r = sh[0];
  __syncthreads();
  return r;
}

__global__ void template_twice(const int* in, long long* out) {
  __shared__ long long l[kBlock];
  __shared__ float f[kBlock];
  const int x = in[blockIdx.x * kBlock + threadIdx.x];
  long long total = 0;
  for (int round = 1; round <= 3; ++round) total += block_sum<long long, kBlock>((long long)x * round, l);
  const float halves = block_sum<float, kBlock>(x * 0.5f, f);
  if (threadIdx.x == 0) out[blockIdx.x] = total + (long long)halves;
}

// Not written out: a return before its end (the statement runs as coroutines).
__device__ int early_return(int* s, int v) {
  s[threadIdx.x] = v;
  __syncthreads();
  if (v < 0) return -1;
  return s[(threadIdx.x + 1) % kBlock];
}

__global__ void stays_a_call(const int* in, int* out) {
  __shared__ int s[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  out[i] = early_return(s, in[i]);
}

// Not written out: it prints its own name, which a kernel's copy would change.
__device__ void named(int* s) {
  __syncthreads();
  if (threadIdx.x == 0 && blockIdx.x == 0 && s[0] >= 0) std::printf("in %s\n", __func__);
}

// Not written out: the kernel's variable `scale` would hide the global its body reads.
__device__ int scale = 3;
__device__ int scaled_neighbour(int* s) {
  __syncthreads();
  return s[(threadIdx.x + 1) % kBlock] * scale;
}

__global__ void kept_calls(const int* in, int* out) {
  __shared__ int s[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  s[threadIdx.x] = in[i];
  named(s);
  const int scale = 2;
  out[i] = scaled_neighbour(s) + scale;
}

// In a kernel template: a call that does not depend on its parameters is written out too.
template <int Scale>
__global__ void in_template(const int* in, int* out) {
  __shared__ int s[kBlock];
  s[threadIdx.x] = in[blockIdx.x * kBlock + threadIdx.x] * Scale;
  __syncthreads();
  halve_into(s);
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

// Results through reference parameters bound to the kernel's variables (cuda-samples' dxtc):
// the body names those variables, which live across its barriers.
struct best_of {
  int value, lane;
};
__device__ void block_max(int* s, int v, int& best, best_of& at) {
  s[threadIdx.x] = v;
  __syncthreads();
  for (int w = kBlock / 2; w > 0; w /= 2) {
    if (static_cast<int>(threadIdx.x) < w && s[threadIdx.x + w] > s[threadIdx.x]) s[threadIdx.x] = s[threadIdx.x + w];
    __syncthreads();
  }
  best = s[0];
  at.value = best;
  at.lane = v == best ? static_cast<int>(threadIdx.x) : -1;
  __syncthreads();
}

__global__ void reference_results(const int* in, int* out) {
  __shared__ int s[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  int best = 0;
  best_of at[1];
  block_max(s, in[i], best, at[0]);
  out[i] = best * 1000 + at[0].lane;
}

int main() {
  std::vector<int> h(kN);
  for (int i = 0; i < kN; ++i) h[i] = (i * 37) % 101 - 20;
  int *in, *out;
  unsigned *uin, *uout;
  long long* lout;
  cudaMallocManaged(&in, kN * sizeof(int));
  cudaMallocManaged(&out, kN * sizeof(int));
  cudaMallocManaged(&uin, kN * sizeof(unsigned));
  cudaMallocManaged(&uout, kN * sizeof(unsigned));
  cudaMallocManaged(&lout, kBlocks * sizeof(long long));
  for (int i = 0; i < kN; ++i) in[i] = h[i], uin[i] = static_cast<unsigned>(h[i] + 20);
  bool all = true;
  auto report = [&](const char* name, bool ok) {
    std::printf("%s: %s\n", name, ok ? "ok" : "WRONG");
    all = all && ok;
  };

  void_call<<<kBlocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int b = 0; b < kBlocks; ++b) {
    int sum = 0;
    for (int t = 0; t < kBlock; ++t) sum += h[b * kBlock + t];
    ok = ok && out[b] == sum;
  }
  report("void_call", ok);

  nested_values<<<kBlocks, kBlock>>>(uin, uout, kBlock);
  cudaDeviceSynchronize();
  ok = true;
  for (int b = 0; b < kBlocks; ++b) {
    unsigned run = 0;
    for (int t = 0; t < kBlock; ++t) {
      run += uin[b * kBlock + t];
      ok = ok && uout[b * kBlock + t] == run;
    }
  }
  report("nested_values", ok);

  template_twice<<<kBlocks, kBlock>>>(in, lout);
  cudaDeviceSynchronize();
  ok = true;
  for (int b = 0; b < kBlocks; ++b) {
    long long sum = 0;
    for (int t = 0; t < kBlock; ++t) sum += h[b * kBlock + t];
    ok = ok && lout[b] == 6 * sum + static_cast<long long>(sum * 0.5f);
  }
  report("template_twice", ok);

  stays_a_call<<<kBlocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  ok = true;
  for (int i = 0; i < kN; ++i) {
    const int b = i / kBlock, t = i % kBlock;
    ok = ok && out[i] == (h[i] < 0 ? -1 : h[b * kBlock + (t + 1) % kBlock]);
  }
  report("stays_a_call", ok);

  in_template<3><<<kBlocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  ok = true;
  for (int b = 0; b < kBlocks; ++b) {
    int sum = 0;
    for (int t = 0; t < kBlock; ++t) sum += 3 * h[b * kBlock + t];
    ok = ok && out[b] == sum;
  }
  report("in_template", ok);

  reference_results<<<kBlocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  ok = true;
  for (int i = 0; i < kN; ++i) {
    const int b = i / kBlock, t = i % kBlock;
    int best = h[b * kBlock];
    for (int u = 0; u < kBlock; ++u) best = best > h[b * kBlock + u] ? best : h[b * kBlock + u];
    ok = ok && out[i] == best * 1000 + (h[i] == best ? t : -1);
  }
  report("reference_results", ok);

  for (int i = 0; i < kN; ++i) in[i] = h[i] + 20;
  kept_calls<<<kBlocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  ok = true;
  for (int i = 0; i < kN; ++i) {
    const int b = i / kBlock, t = i % kBlock;
    ok = ok && out[i] == in[b * kBlock + (t + 1) % kBlock] * 3 + 2;
  }
  report("kept_calls", ok);

  std::printf("%s\n", all ? "all ok" : "SOME WRONG");
  return all ? 0 : 1;
}
