// Kernels of every shape the region translation meets, each checked against a CPU reference.
// regions_test runs this program with CUEMU_EXEC=loops and fibers and under other schedules
// (the output must be the same), and reads which path each kernel took from `cuemu cc -v`.
#include <cooperative_groups.h>
#include <cuda_fp16.h>

#include <cassert>
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

constexpr int kBlock = 128;

// 1. The tree reduction: a block-level for loop, variables live across barriers.
__global__ void tree_reduce(const float* in, float* out) {
  __shared__ float s[kBlock];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * kBlock + t];
  __syncthreads();
  for (unsigned stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// 2. A tiled matrix product: a loop over tiles bounded by a parameter, an accumulator array.
constexpr int kTile = 8;
__global__ void matmul(const float* a, const float* b, float* c, int n) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float acc[2] = {0.0f, 0.0f};
  for (int k0 = 0; k0 < n; k0 += kTile) {
    as[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc[k & 1] += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = acc[0] + acc[1];
}

// 3. while and do-while loops with a uniform counter; a uniform branch holding barriers.
__global__ void loops_and_branches(int* data, int rounds) {
  __shared__ int s[kBlock];
  const int t = threadIdx.x;
  int v = data[blockIdx.x * kBlock + t];
  int r = 0;
  while (r < rounds) {
    s[t] = v;
    __syncthreads();
    v += s[(t + 1) % kBlock];
    __syncthreads();
    ++r;
  }
  int k = 2;
  do {
    s[t] = v;
    __syncthreads();
    v ^= s[kBlock - 1 - t];
    __syncthreads();
    k -= 1;
  } while (k > 0);
  if (blockIdx.x % 2 == 0) {
    s[t] = v;
    __syncthreads();
    v = s[0] + t;
  } else {
    s[t] = 2 * v;
    __syncthreads();
    v = s[kBlock - 1] - t;
  }
  data[blockIdx.x * kBlock + t] = v;
}

// 4. Threads that return before a barrier (the barrier waits only for the others, as on Volta),
// and a parameter each thread moves.
__global__ void early_exit(const int* in, int* out, int n) {
  __shared__ int s[kBlock];
  in += blockIdx.x * kBlock;
  const int t = threadIdx.x;
  s[t] = 0;
  if (t >= n) return;
  s[t] = in[t] * 3;
  __syncthreads();
  out[blockIdx.x * kBlock + t] = s[t] + s[(t + 1) % n];
}

// 5. A template, and dynamic shared memory.
template <class T, int B>
__global__ void template_scan(const T* in, T* out) {
  extern __shared__ unsigned char raw[];
  T* s = reinterpret_cast<T*>(raw);
  const int t = threadIdx.x;
  s[t] = in[blockIdx.x * B + t];
  __syncthreads();
  for (int d = 1; d < B; d *= 2) {
    T x = t >= d ? s[t - d] : T(0);
    __syncthreads();
    s[t] += x;
    __syncthreads();
  }
  out[blockIdx.x * B + t] = s[t];
}

// 6. Warp shuffles of the whole warp, and __syncwarp(): each a point every thread reaches.
__global__ void warp_reduce(const unsigned* in, unsigned* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

template <class T>
__global__ void warp_collectives(const T* in, T* sum, T* scan, T* bcast) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31;
  T v = in[i];
  T all = v;
  for (int m = 1; m < 32; m *= 2) all += __shfl_xor_sync(0xffffffffu, all, m);
  T inc = v;
  for (int d = 1; d < 32; d *= 2) {
    const T up = __shfl_up_sync(0xffffffffu, inc, d);
    if (lane >= d) inc += up;
  }
  const T b = __shfl_sync(0xffffffffu, v, 3, 16);
  sum[i] = all;
  scan[i] = inc;
  bcast[i] = b;
}

__global__ void syncwarp_ring(const unsigned* in, unsigned* out, int iters) {
  __shared__ unsigned buf[kBlock];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31, base = threadIdx.x & ~31u;
  unsigned acc = in[i];
  for (int k = 0; k < iters; ++k) {
    buf[threadIdx.x] = acc;
    __syncwarp();
    acc = acc * 3u + buf[base + ((lane + 1) & 31)];
    __syncwarp();
  }
  out[i] = acc;
}

// 7-12: kernels that must stay on coroutines.
__global__ void divergent_halves(int* out) {  // legal on Volta: each half at its own barrier
  if (threadIdx.x < 32) {
    out[threadIdx.x] = 1;
    __syncthreads();
  } else {
    out[threadIdx.x] = 2;
    __syncthreads();
  }
}

__global__ void shuffle_and_barrier(const int* in, int* out) {
  __shared__ int s[kBlock / 32];
  int v = in[blockIdx.x * kBlock + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) s[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[1] + s[2] + s[3];
}

__device__ void sync_in_callee() { __syncthreads(); }
__global__ void barrier_in_callee(int* out) {
  __shared__ int s[kBlock];
  s[threadIdx.x] = threadIdx.x;
  sync_in_callee();
  out[threadIdx.x] = s[kBlock - 1 - threadIdx.x];
}

__global__ void spin_then_barrier(int* flag, int* out) {
  __shared__ int s[kBlock];
  if (threadIdx.x == 0) atomicExch(flag, 1);
  while (atomicAdd(flag, 0) == 0) {
  }
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % kBlock];
}

// A uniform break and continue in a loop that holds barriers: the loop's own, at block level.
__global__ void uniform_break_continue(int* out, int limit) {
  __shared__ int s[kBlock];
  int v = 0;
  for (int i = 0; i < 8; ++i) {
    if (i == limit) break;
    if (i % 2 == 1) continue;
    s[threadIdx.x] = i + static_cast<int>(threadIdx.x);
    __syncthreads();
    v += s[(threadIdx.x + 1) % kBlock];
    __syncthreads();
  }
  int w = 0, rounds = 0;
  while (true) {
    s[threadIdx.x] = w;
    __syncthreads();
    w += s[kBlock - 1 - threadIdx.x] + 1;
    __syncthreads();
    rounds += 1;
    if (rounds > limit) break;
  }
  out[threadIdx.x] = v * 100 + w;
}

// A thread-dependent break out of a loop that holds barriers: must stay on coroutines.
__global__ void break_out_of_barrier_loop(int* out, int limit) {
  __shared__ int s[kBlock];
  int v = 0;
  for (int i = 0; i < 8; ++i) {
    s[threadIdx.x] = i;
    __syncthreads();
    v += s[0];
    if (i == limit + static_cast<int>(threadIdx.x) / kBlock) break;
    __syncthreads();
  }
  out[threadIdx.x] = v;
}

__global__ void barrier_with_result(const int* in, int* out) {
  const int n = __syncthreads_count(in[threadIdx.x] > 0);
  const int all = __syncthreads_and(in[threadIdx.x] >= 0);
  int any = 0;
  any += __syncthreads_or(in[threadIdx.x] > 5);
  out[threadIdx.x] = n * 100 + all * 10 + any;
}

__global__ void ballot_count(const int* in, int* out) {
  const unsigned b = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0);
  out[threadIdx.x] = __popc(b);
}

// 20. The warp's votes and reductions, in blocks whose last warp may be partial (its missing
// lanes take no part).
__global__ void warp_votes(const int* in, unsigned* out) {
  const int v = in[threadIdx.x];
  const unsigned b = __ballot_sync(0xffffffffu, v > 2);
  const int any = __any_sync(0xffffffffu, v == 7);
  const int all = __all_sync(0xffffffffu, v >= 0);
  const unsigned sum = __reduce_add_sync(0xffffffffu, static_cast<unsigned>(v));
  const int lo = __reduce_min_sync(0xffffffffu, v - 3);
  const unsigned x = __reduce_xor_sync(0xffffffffu, static_cast<unsigned>(v) << (threadIdx.x & 7));
  out[threadIdx.x] = b ^ (any << 1) ^ (all << 2) ^ (sum << 8) ^ (static_cast<unsigned>(lo) << 16) ^ (x << 20);
}

// 21. Cooperative groups' barrier of the whole block (reduction's reduce0-3 shape): a region cut
// like __syncthreads(), the group object live across it.
namespace cg = cooperative_groups;
__global__ void cg_block_reduce(const int* in, int* out) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ int s[kBlock];
  const unsigned t = cta.thread_rank();
  s[t] = in[blockIdx.x * kBlock + t];
  cg::sync(cta);
  for (unsigned stride = 1; stride < cta.size(); stride *= 2) {
    if (t % (2 * stride) == 0) s[t] += s[t + stride];
    cta.sync();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// 22. Cooperative groups' tiles of a warp or less (reduction's reduce4-6 shape): their shuffles
// over segments of the tile's size, a lane past a partial warp's end reading 0; a tile's sync.
__global__ void cg_tile_reduce(const int* in, int* out) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(cta);
  const unsigned t = cta.thread_rank();
  int v = in[t];
  int w = v;
  for (int off = 16; off > 0; off >>= 1) v += tile32.shfl_down(v, off);
  for (int m = 1; m < 8; m <<= 1) w += tile8.shfl_xor(w, m);
  tile32.sync();
  const int fifth = tile8.shfl(w * 3, 5);
  out[t] = (tile32.thread_rank() == 0 ? v : 0) + w * 1000 + fifth * 7;
}

// 23. Tile shuffles in kernel templates: at block level on a value of a dependent type (loops);
// under a condition that differs between threads (reduction's reduce4-6: coroutines); on a tile
// whose type depends on the template's parameters (seen only per instantiation: coroutines).
template <class T>
__global__ void tile_shuffle_template(const T* in, T* out) {
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cg::this_thread_block());
  T v = in[threadIdx.x];
  for (int off = 8; off > 0; off /= 2) v += t16.shfl_xor(v, off);
  out[threadIdx.x] = v;
}
template <class T>
__global__ void tile_shuffle_in_branch(const T* in, T* out) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ T s[kBlock];
  s[threadIdx.x] = in[threadIdx.x];
  cg::sync(cta);
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  T v = s[threadIdx.x] + s[(threadIdx.x + 32) % kBlock];
  if (cta.thread_rank() < 32) {
    for (int off = 16; off > 0; off /= 2) v += tile32.shfl_down(v, off);
  }
  if (cta.thread_rank() == 0) out[0] = v;
}
template <unsigned N>
__global__ void dependent_tile(const int* in, int* out) {
  __shared__ int s[kBlock];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  int v = s[threadIdx.x];
  v += tile.shfl_down(v, 1);
  out[threadIdx.x] = v;
}

__global__ void shuffle_after_return(const int* in, int* out, int n) {
  if (static_cast<int>(threadIdx.x) >= n) return;
  int v = in[threadIdx.x];
  v += __shfl_xor_sync(0xffffffffu, v, 1);
  out[threadIdx.x] = v;
}

// 19. Regions that read threadIdx only through what they call: a function, a constructor, a
// destructor (each must see its own thread's index, on every schedule).
__device__ int rotated() { return static_cast<int>((threadIdx.x + 5) % blockDim.x); }
struct at_thread {
  int t;
  __device__ at_thread() : t(static_cast<int>(threadIdx.x)) {}
};
struct tally {
  int* where;
  __device__ ~tally() { atomicAdd(where + threadIdx.x, 1000); }
};
__global__ void thread_index_in_callees(int* out, int* counts) {
  __shared__ int s[kBlock];
  s[threadIdx.x] = static_cast<int>(threadIdx.x) * 3;
  __syncthreads();
  const int a = s[rotated()];
  __syncthreads();
  at_thread who;
  s[who.t] = a + 1;
  __syncthreads();
  {
    tally k{counts};
    out[(kBlock - 1) - who.t] = s[kBlock - 1 - who.t];
  }
}

// 25. Regions that are one `if (t < L)`, t a copy of threadIdx.x that is only read and L uniform
// (a loop counter, a parameter): in a one-dimensional block only the threads below L run them.
// Threads that returned, a bound below zero, at zero and beyond the block, and a two-dimensional
// block (where threadIdx.x is not the slot: every thread runs the region) give the reference's
// sums; `u`, a copy of threadIdx.x that is changed, is no such bound.
__global__ void guarded_steps(const int* in, int* out, int live, int lim) {
  __shared__ int s[kBlock];
  int t = threadIdx.x;
  const int lin = static_cast<int>(threadIdx.y * blockDim.x) + t;
  int u = threadIdx.x;
  u = static_cast<int>(blockDim.x) - 1 - u;
  s[lin] = in[blockIdx.x * kBlock + lin];
  if (lin >= live) return;
  __syncthreads();
  for (int stride = (blockDim.y == 1 ? live : static_cast<int>(blockDim.x)) / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[lin] += s[lin + stride];
    __syncthreads();
  }
  if (t < lim) s[lin] = -s[lin];
  __syncthreads();
  if (u < 2) atomicAdd(&s[lin - t], 1000);
  __syncthreads();
  if (t == 0) out[blockIdx.x * 8 + threadIdx.y] = s[lin];
}

// 26. The same in a template, as cuda-samples' reduce2: `unsigned int tid = threadIdx.x;`, only
// read, indexing a T* (in the template the index has no conversion around it).
template <class T>
__global__ void guarded_template(const T* in, T* out) {
  extern __shared__ unsigned char raw[];
  T* sdata = reinterpret_cast<T*>(raw);
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// 27. CUDA's own math functions between barriers (__expf, rsqrtf, __fdividef: libdevice's
// functions, whose declarations a macro of cuemu/libdevice.h writes): they reach no barrier and
// read no threadIdx.
__global__ void fast_math(const float* in, float* out) {
  __shared__ float s[kBlock];
  const unsigned t = threadIdx.x;
  s[t] = __expf(in[t]) + rsqrtf(in[t] + 1.f);
  __syncthreads();
  out[t] = __fdividef(s[(t + 1) % kBlock], 2.f);
}

// 28. A variable a called function writes through a reference, live across a barrier: each
// thread's own (not one for the block: nothing the kernel writes proves it the same everywhere).
__device__ void set_to_thread(int& r) { r = static_cast<int>(threadIdx.x) * 7; }
__global__ void written_through_reference(int* out) {
  __shared__ int s[kBlock];
  int v = 0;
  set_to_thread(v);
  s[threadIdx.x] = v;
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % kBlock] + v;
}

// 29. A histogram: atomic updates whose old value is dropped, in loops (a device function's and
// the kernel's own), between barriers. Such a loop cannot wait for another thread, so the kernel
// runs as loops (spin_then_barrier's loop tests its atomic's value: coroutines).
constexpr int kBins = 16;
__device__ void count(unsigned* bins, int v) { atomicAdd(&bins[v % kBins], 1u); }
__global__ void histogram_atomics(const int* in, int n, unsigned* out) {
  __shared__ unsigned bins[kBins];
  if (threadIdx.x < kBins) bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) count(bins, in[i]);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) (void)atomicAdd(&out[b], bins[b]);
}

// 30. Half-precision sums in a loop before a barrier: cuda_fp16.h's arithmetic keeps a rounding
// in a volatile local, which is no poll (no other thread can write it): loops.
__global__ void half_accumulate(const int* in, int per, float* out) {
  __shared__ __half2 s[kBlock];
  __half2 v = __float2half2_rn(0.f);
  for (int k = 0; k < per; ++k) v = __hadd2(v, __half2half2(__int2half_rn(in[threadIdx.x * per + k])));
  s[threadIdx.x] = v;
  __syncthreads();
  const __half2 w = s[(threadIdx.x + 1) % kBlock];
  out[threadIdx.x] = __low2float(w) + __high2float(w);
}

template <class T>
static bool same(const std::vector<T>& a, const std::vector<T>& b) {
  return a == b;
}

int main() {
  const int blocks = 6;
  bool all = true;
  auto report = [&](const char* name, bool ok) {
    std::printf("%-26s %s\n", name, ok ? "ok" : "FAIL");
    all = all && ok;
  };
  {  // 1
    std::vector<float> h(blocks * kBlock);
    for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>((i * 7) % 13);
    float *d, *o;
    CK(cudaMalloc(&d, h.size() * 4));
    CK(cudaMalloc(&o, blocks * 4));
    CK(cudaMemcpy(d, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    tree_reduce<<<blocks, kBlock>>>(d, o);
    std::vector<float> r(blocks), want(blocks);
    CK(cudaMemcpy(r.data(), o, blocks * 4, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
      std::vector<float> s(h.begin() + b * kBlock, h.begin() + (b + 1) * kBlock);
      for (int st = kBlock / 2; st > 0; st >>= 1)
        for (int t = 0; t < st; ++t) s[t] += s[t + st];
      want[b] = s[0];
    }
    report("tree_reduce", same(r, want));
  }
  {  // 2
    const int n = 24;
    std::vector<float> a(n * n), b(n * n), want(n * n);
    for (int i = 0; i < n * n; ++i) {
      a[i] = static_cast<float>(i % 5) - 2;
      b[i] = static_cast<float>((i * 3) % 7) - 3;
    }
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        float acc[2] = {0, 0};
        for (int k = 0; k < n; ++k) acc[k & 1] += a[i * n + k] * b[k * n + j];
        want[i * n + j] = acc[0] + acc[1];
      }
    float *da, *db, *dc;
    CK(cudaMalloc(&da, n * n * 4));
    CK(cudaMalloc(&db, n * n * 4));
    CK(cudaMalloc(&dc, n * n * 4));
    CK(cudaMemcpy(da, a.data(), n * n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), n * n * 4, cudaMemcpyHostToDevice));
    matmul<<<dim3(n / kTile, n / kTile), dim3(kTile, kTile)>>>(da, db, dc, n);
    std::vector<float> c(n * n);
    CK(cudaMemcpy(c.data(), dc, n * n * 4, cudaMemcpyDeviceToHost));
    report("matmul", same(c, want));
  }
  {  // 3
    const int rounds = 3;
    std::vector<int> h(blocks * kBlock), want(h.size());
    for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<int>(i * 2654435761u % 1000);
    for (int b = 0; b < blocks; ++b) {
      std::vector<int> v(h.begin() + b * kBlock, h.begin() + (b + 1) * kBlock), s(kBlock);
      for (int r = 0; r < rounds; ++r) {
        s = v;
        for (int t = 0; t < kBlock; ++t) v[t] += s[(t + 1) % kBlock];
      }
      for (int k = 0; k < 2; ++k) {
        s = v;
        for (int t = 0; t < kBlock; ++t) v[t] ^= s[kBlock - 1 - t];
      }
      if (b % 2 == 0) {
        s = v;
        for (int t = 0; t < kBlock; ++t) v[t] = s[0] + t;
      } else {
        for (int t = 0; t < kBlock; ++t) s[t] = 2 * v[t];
        for (int t = 0; t < kBlock; ++t) v[t] = s[kBlock - 1] - t;
      }
      for (int t = 0; t < kBlock; ++t) want[b * kBlock + t] = v[t];
    }
    int* d;
    CK(cudaMalloc(&d, h.size() * 4));
    CK(cudaMemcpy(d, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    loops_and_branches<<<blocks, kBlock>>>(d, rounds);
    std::vector<int> r(h.size());
    CK(cudaMemcpy(r.data(), d, h.size() * 4, cudaMemcpyDeviceToHost));
    report("loops_and_branches", same(r, want));
  }
  {  // 4
    const int n = 100;
    std::vector<int> h(blocks * kBlock), want(h.size(), -1);
    for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<int>(i % 31);
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < n; ++t) want[b * kBlock + t] = h[b * kBlock + t] * 3 + h[b * kBlock + (t + 1) % n] * 3;
    int *d, *o;
    CK(cudaMalloc(&d, h.size() * 4));
    CK(cudaMalloc(&o, h.size() * 4));
    CK(cudaMemcpy(d, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(o, 0xff, h.size() * 4));
    early_exit<<<blocks, kBlock>>>(d, o, n);
    std::vector<int> r(h.size());
    CK(cudaMemcpy(r.data(), o, h.size() * 4, cudaMemcpyDeviceToHost));
    report("early_exit", same(r, want));
  }
  {  // 5
    constexpr int B = 64;
    std::vector<long long> h(blocks * B), want(h.size());
    for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<long long>(i % 9) - 4;
    for (int b = 0; b < blocks; ++b) {
      long long acc = 0;
      for (int t = 0; t < B; ++t) want[b * B + t] = acc += h[b * B + t];
    }
    long long *d, *o;
    CK(cudaMalloc(&d, h.size() * 8));
    CK(cudaMalloc(&o, h.size() * 8));
    CK(cudaMemcpy(d, h.data(), h.size() * 8, cudaMemcpyHostToDevice));
    template_scan<long long, B><<<blocks, B, B * sizeof(long long)>>>(d, o);
    std::vector<long long> r(h.size());
    CK(cudaMemcpy(r.data(), o, h.size() * 8, cudaMemcpyDeviceToHost));
    report("template_scan", same(r, want));
  }
  {  // 6
    const int n = blocks * kBlock;
    std::vector<unsigned> h(n), r(n / 32), want(n / 32);
    for (int i = 0; i < n; ++i) h[i] = static_cast<unsigned>(i * 2654435761u >> 7);
    unsigned *d, *o;
    CK(cudaMalloc(&d, n * 4));
    CK(cudaMalloc(&o, n / 32 * 4));
    CK(cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice));
    warp_reduce<<<blocks, kBlock>>>(d, o);
    CK(cudaMemcpy(r.data(), o, n / 32 * 4, cudaMemcpyDeviceToHost));
    // Each step reads lane l+off's value of the previous step (its own past the warp's end).
    for (int w = 0; w < n / 32; ++w) {
      unsigned v[32], nv[32];
      for (int l = 0; l < 32; ++l) v[l] = h[w * 32 + l];
      for (int off = 16; off > 0; off >>= 1) {
        for (int l = 0; l < 32; ++l) nv[l] = v[l] + (l + off < 32 ? v[l + off] : v[l]);
        for (int l = 0; l < 32; ++l) v[l] = nv[l];
      }
      want[w] = v[0];
    }
    report("warp_reduce", same(r, want));

    std::vector<long long> in(n), sum(n), scan(n), bc(n), wsum(n), wscan(n), wbc(n);
    for (int i = 0; i < n; ++i) in[i] = static_cast<long long>(i % 17) - 8;
    for (int w = 0; w < n / 32; ++w) {
      long long s = 0;
      for (int l = 0; l < 32; ++l) s += in[w * 32 + l];
      long long acc = 0;
      for (int l = 0; l < 32; ++l) {
        wsum[w * 32 + l] = s;
        wscan[w * 32 + l] = acc += in[w * 32 + l];
        wbc[w * 32 + l] = in[w * 32 + (l & ~15) + 3];
      }
    }
    long long *di, *ds, *dc, *db;
    for (long long** p : {&di, &ds, &dc, &db}) CK(cudaMalloc(p, n * 8));
    CK(cudaMemcpy(di, in.data(), n * 8, cudaMemcpyHostToDevice));
    warp_collectives<long long><<<blocks, kBlock>>>(di, ds, dc, db);
    CK(cudaMemcpy(sum.data(), ds, n * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(scan.data(), dc, n * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(bc.data(), db, n * 8, cudaMemcpyDeviceToHost));
    report("warp_collectives", same(sum, wsum) && same(scan, wscan) && same(bc, wbc));

    // A block of 80 threads: the last warp has 16 lanes (a lane past its end reads 0).
    warp_collectives<long long><<<1, 80>>>(di, ds, dc, db);
    CK(cudaMemcpy(sum.data(), ds, 80 * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(scan.data(), dc, 80 * 8, cudaMemcpyDeviceToHost));
    long long digest = 0;
    for (int i = 0; i < 80; ++i) digest = digest * 31 + sum[i] * 7 + scan[i];
    std::printf("partial warp digest %lld\n", digest);

    const int iters = 5;
    std::vector<unsigned> ring(n), wring(n);
    for (int w = 0; w < n / 32; ++w) {
      unsigned acc[32], tmp[32];
      for (int l = 0; l < 32; ++l) acc[l] = h[w * 32 + l];
      for (int k = 0; k < iters; ++k) {
        for (int l = 0; l < 32; ++l) tmp[l] = acc[l];
        for (int l = 0; l < 32; ++l) acc[l] = acc[l] * 3u + tmp[(l + 1) & 31];
      }
      for (int l = 0; l < 32; ++l) wring[w * 32 + l] = acc[l];
    }
    unsigned* dr;
    CK(cudaMalloc(&dr, n * 4));
    syncwarp_ring<<<blocks, kBlock>>>(d, dr, iters);
    CK(cudaMemcpy(ring.data(), dr, n * 4, cudaMemcpyDeviceToHost));
    report("syncwarp_ring", same(ring, wring));
  }
  int *d, *o, *flag;
  CK(cudaMalloc(&d, kBlock * 4));
  CK(cudaMalloc(&o, kBlock * 4));
  CK(cudaMalloc(&flag, 4));
  std::vector<int> ones(kBlock, 1);
  for (int i = 0; i < kBlock; i += 3) ones[i] = 0;
  CK(cudaMemcpy(d, ones.data(), kBlock * 4, cudaMemcpyHostToDevice));
  std::vector<int> r(kBlock);
  {
    divergent_halves<<<1, 64>>>(o);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(r.data(), o, 64 * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < 64; ++t) ok = ok && r[t] == (t < 32 ? 1 : 2);
    report("divergent_halves", ok);
  }
  {
    shuffle_and_barrier<<<1, kBlock>>>(d, o);
    CK(cudaMemcpy(r.data(), o, 4, cudaMemcpyDeviceToHost));
    int want = 0;
    for (int v : ones) want += v;
    report("shuffle_and_barrier", r[0] == want);
  }
  {
    barrier_in_callee<<<1, kBlock>>>(o);
    CK(cudaMemcpy(r.data(), o, kBlock * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < kBlock; ++t) ok = ok && r[t] == kBlock - 1 - t;
    report("barrier_in_callee", ok);
  }
  {
    CK(cudaMemset(flag, 0, 4));
    spin_then_barrier<<<1, kBlock>>>(flag, o);
    CK(cudaMemcpy(r.data(), o, kBlock * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < kBlock; ++t) ok = ok && r[t] == 1;
    report("spin_then_barrier", ok);
  }
  {
    uniform_break_continue<<<1, kBlock>>>(o, 5);
    CK(cudaMemcpy(r.data(), o, kBlock * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < kBlock; ++t) {
      int v = 0;
      for (int i = 0; i < 5; i += 2) v += i + (t + 1) % kBlock;
      ok = ok && r[t] == v * 100 + 63;  // w = 2w + 1, six rounds
    }
    report("uniform_break_continue", ok);
  }
  {
    break_out_of_barrier_loop<<<1, kBlock>>>(o, 8);
    CK(cudaMemcpy(r.data(), o, kBlock * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < kBlock; ++t) ok = ok && r[t] == 28;
    report("break_out_of_barrier_loop", ok);
  }
  {
    barrier_with_result<<<1, kBlock>>>(d, o);
    CK(cudaMemcpy(r.data(), o, kBlock * 4, cudaMemcpyDeviceToHost));
    int want = 0;
    for (int v : ones) want += v > 0;
    report("barrier_with_result", r[0] == want * 100 + 10 && r[kBlock - 1] == want * 100 + 10);
  }
  {
    ballot_count<<<1, 32>>>(d, o);
    CK(cudaMemcpy(r.data(), o, 32 * 4, cudaMemcpyDeviceToHost));
    int want = 0;
    for (int t = 0; t < 32; ++t) want += ones[t] > 0;
    report("ballot_count", r[0] == want && r[31] == want);
  }
  {
    shuffle_after_return<<<1, 32>>>(d, o, 32);
    CK(cudaMemcpy(r.data(), o, 32 * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < 32; ++t) ok = ok && r[t] == ones[t] + ones[t ^ 1];
    report("shuffle_after_return", ok);
  }
  {
    std::vector<int> in(blocks * kBlock), got(blocks);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * 2654435761u % 1001);
    int *di, *dv;
    CK(cudaMalloc(&di, in.size() * 4));
    CK(cudaMalloc(&dv, blocks * 4));
    CK(cudaMemcpy(di, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
    cg_block_reduce<<<blocks, kBlock>>>(di, dv);
    CK(cudaMemcpy(got.data(), dv, blocks * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int b = 0; b < blocks; ++b) {
      int want = 0;
      for (int t = 0; t < kBlock; ++t) want += in[b * kBlock + t];
      ok = ok && got[b] == want;
    }
    report("cg_block_reduce", ok);
  }
  {
    std::vector<int> in(kBlock), got(kBlock);
    for (int t = 0; t < kBlock; ++t) in[t] = (t * 29 + 3) % 101;
    int *di, *dv;
    CK(cudaMalloc(&di, kBlock * 4));
    CK(cudaMalloc(&dv, kBlock * 4));
    CK(cudaMemcpy(di, in.data(), kBlock * 4, cudaMemcpyHostToDevice));
    tile_shuffle_template<int><<<1, kBlock>>>(di, dv);
    CK(cudaMemcpy(got.data(), dv, kBlock * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < kBlock; ++t) {
      int seg = 0;
      for (int j = t & ~15; j < (t & ~15) + 16; ++j) seg += in[j];
      ok = ok && got[t] == seg;
    }
    report("tile_shuffle_template", ok);
    tile_shuffle_in_branch<int><<<1, kBlock>>>(di, dv);
    CK(cudaMemcpy(got.data(), dv, 4, cudaMemcpyDeviceToHost));
    int first64 = 0;
    for (int t = 0; t < 64; ++t) first64 += in[t];
    report("tile_shuffle_in_branch", got[0] == first64);
    dependent_tile<32><<<1, kBlock>>>(di, dv);
    CK(cudaMemcpy(got.data(), dv, kBlock * 4, cudaMemcpyDeviceToHost));
    ok = true;
    for (int t = 0; t < kBlock; ++t) ok = ok && got[t] == in[t] + ((t & 31) == 31 ? in[t] : in[t + 1]);
    report("dependent_tile", ok);
  }
  for (int n : {kBlock, 80}) {
    std::vector<int> in(kBlock);
    for (int t = 0; t < kBlock; ++t) in[t] = (t * 53 + n) % 997;
    int *di, *dv;
    CK(cudaMalloc(&di, kBlock * 4));
    CK(cudaMalloc(&dv, kBlock * 4));
    CK(cudaMemcpy(di, in.data(), kBlock * 4, cudaMemcpyHostToDevice));
    cg_tile_reduce<<<1, n>>>(di, dv);
    std::vector<int> got(n);
    CK(cudaMemcpy(got.data(), dv, n * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < n; ++t) {
      const int first = t & ~31, seg = t & ~7;
      int warp_sum = 0, seg_sum = 0;
      for (int j = first; j < first + 32 && j < n; ++j) warp_sum += in[j];
      for (int j = seg; j < seg + 8; ++j) seg_sum += in[j];
      ok = ok && got[t] == ((t & 31) == 0 ? warp_sum : 0) + seg_sum * 1000 + seg_sum * 3 * 7;
    }
    report(n == kBlock ? "cg_tile_reduce" : "cg_tile_reduce (partial warp)", ok);
  }
  for (int n : {kBlock, 80}) {
    std::vector<int> in(kBlock);
    for (int t = 0; t < kBlock; ++t) in[t] = (t * 37 + n) % 9;
    int* di;
    unsigned* dv;
    CK(cudaMalloc(&di, kBlock * 4));
    CK(cudaMalloc(&dv, kBlock * 4));
    CK(cudaMemcpy(di, in.data(), kBlock * 4, cudaMemcpyHostToDevice));
    warp_votes<<<1, n>>>(di, dv);
    std::vector<unsigned> got(n);
    CK(cudaMemcpy(got.data(), dv, n * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int w = 0; w * 32 < n; ++w) {
      const int lanes = n - w * 32 < 32 ? n - w * 32 : 32;
      unsigned b = 0, sum = 0, x = 0;
      int any = 0, all = 1, lo = 1 << 30;
      for (int l = 0; l < lanes; ++l) {
        const int v = in[w * 32 + l];
        if (v > 2) b |= 1u << l;
        any |= v == 7;
        all &= v >= 0;
        sum += static_cast<unsigned>(v);
        lo = v - 3 < lo ? v - 3 : lo;
        x ^= static_cast<unsigned>(v) << (l & 7);
      }
      const unsigned want = b ^ (any << 1) ^ (all << 2) ^ (sum << 8) ^ (static_cast<unsigned>(lo) << 16) ^ (x << 20);
      for (int l = 0; l < lanes; ++l) ok = ok && got[w * 32 + l] == want;
    }
    report(n == kBlock ? "warp_votes" : "warp_votes (partial warp)", ok);
  }
  {
    int* counts;
    CK(cudaMalloc(&counts, kBlock * 4));
    CK(cudaMemset(counts, 0, kBlock * 4));
    thread_index_in_callees<<<1, kBlock>>>(o, counts);
    std::vector<int> c(kBlock);
    CK(cudaMemcpy(r.data(), o, kBlock * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c.data(), counts, kBlock * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < kBlock; ++t) ok = ok && r[t] == ((t + 5) % kBlock) * 3 + 1 && c[t] == 1000;
    report("thread_index_in_callees", ok);
  }
  {  // 25
    struct shape { dim3 block; int live, lim; };
    const shape shapes[] = {{dim3(128), 128, -5}, {dim3(128), 64, 3}, {dim3(128), 128, 0},
                            {dim3(100), 64, 70}, {dim3(16, 8), 64, 1000}, {dim3(16, 8), 128, 5}};
    std::vector<int> h(blocks * kBlock);
    for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<int>((i * 5) % 11) - 4;
    int *d, *g;
    CK(cudaMalloc(&d, h.size() * 4));
    CK(cudaMalloc(&g, blocks * 8 * 4));
    CK(cudaMemcpy(d, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    bool ok = true;
    for (const shape& sh : shapes) {
      CK(cudaMemset(g, 0xff, blocks * 8 * 4));
      guarded_steps<<<blocks, sh.block>>>(d, g, sh.live, sh.lim);
      CK(cudaDeviceSynchronize());
      std::vector<int> got(blocks * 8), want(blocks * 8, -1);
      CK(cudaMemcpy(got.data(), g, got.size() * 4, cudaMemcpyDeviceToHost));
      const int bx = static_cast<int>(sh.block.x), by = static_cast<int>(sh.block.y);
      for (int b = 0; b < blocks; ++b) {
        std::vector<int> s(h.begin() + b * kBlock, h.begin() + b * kBlock + bx * by);
        for (int st = (by == 1 ? sh.live : bx) / 2; st > 0; st >>= 1)
          for (int lin = 0; lin < sh.live && lin < bx * by; ++lin)
            if (lin % bx < st) s[lin] += s[lin + st];
        for (int lin = 0; lin < sh.live && lin < bx * by; ++lin)
          if (lin % bx < sh.lim) s[lin] = -s[lin];
        for (int lin = 0; lin < sh.live && lin < bx * by; ++lin)
          if (bx - 1 - lin % bx < 2) s[lin - lin % bx] += 1000;
        for (int y = 0; y < by && y * bx < sh.live; ++y) want[b * 8 + y] = s[y * bx];
      }
      ok = ok && same(got, want);
    }
    report("guarded_steps", ok);
  }
  {  // 26
    bool ok = true;
    for (unsigned bx : {128u, 96u}) {
      std::vector<int> h(blocks * bx);
      for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<int>((i * 7) % 19) - 6;
      int *d, *g;
      CK(cudaMalloc(&d, h.size() * 4));
      CK(cudaMalloc(&g, blocks * 4));
      CK(cudaMemcpy(d, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
      guarded_template<int><<<blocks, bx, bx * sizeof(int)>>>(d, g);
      std::vector<int> got(blocks), want(blocks);
      CK(cudaMemcpy(got.data(), g, blocks * 4, cudaMemcpyDeviceToHost));
      for (int b = 0; b < blocks; ++b) {
        std::vector<int> v(h.begin() + b * bx, h.begin() + (b + 1) * bx);
        for (unsigned st = bx / 2; st > 0; st >>= 1)
          for (unsigned t = 0; t < st; ++t) v[t] += v[t + st];
        want[b] = v[0];
      }
      ok = ok && same(got, want);
      CK(cudaFree(d));
      CK(cudaFree(g));
    }
    report("guarded_template", ok);
  }
  {  // 27: the approximations are within a few ulp of the C library's functions; a thread that
     // read its neighbour's value before the barrier would read 0.
    std::vector<float> h(kBlock);
    for (int t = 0; t < kBlock; ++t) h[t] = static_cast<float>(t % 17) / 8.f;
    float *d, *o;
    CK(cudaMalloc(&d, kBlock * 4));
    CK(cudaMalloc(&o, kBlock * 4));
    CK(cudaMemcpy(d, h.data(), kBlock * 4, cudaMemcpyHostToDevice));
    fast_math<<<1, kBlock>>>(d, o);
    std::vector<float> r(kBlock);
    CK(cudaMemcpy(r.data(), o, kBlock * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < kBlock; ++t) {
      const float x = h[(t + 1) % kBlock];
      const double want = (std::exp(double(x)) + 1.0 / std::sqrt(double(x) + 1.0)) / 2.0;
      ok = ok && std::fabs(r[t] - want) <= 1e-5 * want;
    }
    CK(cudaFree(d));
    CK(cudaFree(o));
    report("fast_math", ok);
  }
  {  // 28
    int* o;
    CK(cudaMalloc(&o, kBlock * 4));
    written_through_reference<<<1, kBlock>>>(o);
    std::vector<int> r(kBlock);
    CK(cudaMemcpy(r.data(), o, kBlock * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < kBlock; ++t) ok = ok && r[t] == (t + 1) % kBlock * 7 + t * 7;
    CK(cudaFree(o));
    report("written_through_reference", ok);
  }
  {  // 29
    const int n = 5000;
    std::vector<int> h(n);
    std::vector<unsigned> want(kBins, 0), r(kBins);
    for (int i = 0; i < n; ++i) h[i] = (i * 37 + 11) % 1000, ++want[h[i] % kBins];
    int* d;
    unsigned* o;
    CK(cudaMalloc(&d, n * 4));
    CK(cudaMalloc(&o, kBins * 4));
    CK(cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(o, 0, kBins * 4));
    histogram_atomics<<<3, kBlock>>>(d, n, o);
    CK(cudaMemcpy(r.data(), o, kBins * 4, cudaMemcpyDeviceToHost));
    CK(cudaFree(d));
    CK(cudaFree(o));
    report("histogram_atomics", r == want);
  }
  {  // 30
    const int per = 9;
    std::vector<int> h(kBlock * per);
    for (int i = 0; i < kBlock * per; ++i) h[i] = (i * 7 + 3) % 5;
    int* d;
    float* o;
    CK(cudaMalloc(&d, h.size() * 4));
    CK(cudaMalloc(&o, kBlock * 4));
    CK(cudaMemcpy(d, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    half_accumulate<<<1, kBlock>>>(d, per, o);
    std::vector<float> r(kBlock);
    CK(cudaMemcpy(r.data(), o, kBlock * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < kBlock; ++t) {
      int sum = 0;
      for (int k = 0; k < per; ++k) sum += h[(t + 1) % kBlock * per + k];
      ok = ok && r[t] == 2.0f * sum;
    }
    CK(cudaFree(d));
    CK(cudaFree(o));
    report("half_accumulate", ok);
  }
  std::printf("%s\n", all ? "all ok" : "SOME FAILED");
  return all ? 0 : 1;
}
