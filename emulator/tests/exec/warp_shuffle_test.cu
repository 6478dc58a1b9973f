// __shfl_sync/_up/_down/_xor for every width, 32- and 64-bit values, and a partial last warp.
// The expected values follow the CUDA Programming Guide's description of each intrinsic.
#include "device_buffer.h"

enum kind { IDX, UP, DOWN, XOR };

template <class T>
__global__ void shuffle(const T* in, T* out, int k, int arg, int width) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const T v = in[t];
  T r;
  switch (k) {
    case IDX: r = __shfl_sync(0xffffffffu, v, arg + static_cast<int>(threadIdx.x % 3), width); break;
    case UP: r = __shfl_up_sync(0xffffffffu, v, static_cast<unsigned>(arg), width); break;
    case DOWN: r = __shfl_down_sync(0xffffffffu, v, static_cast<unsigned>(arg), width); break;
    default: r = __shfl_xor_sync(0xffffffffu, v, arg, width); break;
  }
  out[t] = r;
}

// Source lane per the guide, for a full warp; -1 means "the caller's own value".
static int expected_source(int k, int lane, int arg, int width, int idx_offset) {
  const int seg = lane / width * width;
  switch (k) {
    case IDX: return seg + ((arg + idx_offset) % width + width) % width;
    case UP: return lane - seg >= arg ? lane - arg : -1;
    case DOWN: return lane - seg + arg < width ? lane + arg : -1;
    default: {
      // "each group of width consecutive threads can access elements from earlier groups, but
      // an attempt to access a later group returns the caller's own value"
      const int src = lane ^ arg;
      return src < seg + width ? src : -1;
    }
  }
}

template <class T>
void check_all(T base) {
  const int threads = 64;
  std::vector<T> h(threads);
  for (int i = 0; i < threads; ++i) h[i] = static_cast<T>(base * (i + 1) + i);
  device_buffer<T> in(h), out(threads);
  for (int width : {1, 2, 4, 8, 16, 32})
    for (int k : {IDX, UP, DOWN, XOR})
      for (int arg : {0, 1, 2, 3, 5, 8, 16, 31}) {
        if ((k == UP || k == DOWN) && arg >= 32) continue;
        shuffle<T><<<1, threads>>>(in.ptr, out.ptr, k, arg, width);
        ASSERT_EQ(cudaGetLastError(), cudaSuccess);
        auto r = out.to_host();
        for (int t = 0; t < threads; ++t) {
          const int lane = t % 32, warp_base = t / 32 * 32;
          const int src = expected_source(k, lane, arg, width, t % 3);
          const T expect = src < 0 ? h[t] : h[warp_base + src];
          ASSERT_EQ(r[t], expect) << "kind=" << k << " width=" << width << " arg=" << arg
                                  << " thread=" << t;
        }
      }
}

TEST(WarpShuffle, Int32EveryWidth) { check_all<int>(1000); }
TEST(WarpShuffle, FloatEveryWidth) { check_all<float>(0.5f); }
TEST(WarpShuffle, Int64EveryWidth) { check_all<long long>(1ll << 40); }
TEST(WarpShuffle, DoubleEveryWidth) { check_all<double>(1e100); }

// A warp reduction by __shfl_down_sync, the classic pattern HIP-CPU gets wrong with 32 lanes.
__global__ void warp_reduce(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}

TEST(WarpShuffle, ShuffleDownReduction) {
  const int n = 256 * 8;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 37) % 101 - 50;
  device_buffer<int> in(h), out(n / 32);
  warp_reduce<<<8, 256>>>(in.ptr, out.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  auto r = out.to_host();
  for (int w = 0; w < n / 32; ++w) {
    int s = 0;
    for (int i = 0; i < 32; ++i) s += h[w * 32 + i];
    EXPECT_EQ(r[w], s) << "warp " << w;
  }
}

// blockDim.x = 48: the second warp has 16 lanes; a full mask names lanes that do not exist,
// which take no part. Shuffle down within 16 lanes.
__global__ void partial_warp(int* out) {
  int v = static_cast<int>(threadIdx.x);
  const int r = __shfl_down_sync(0xffffffffu, v, 4, 16);
  const unsigned b = __ballot_sync(0xffffffffu, 1);
  out[threadIdx.x] = r;
  out[64 + threadIdx.x] = static_cast<int>(b);
}

TEST(WarpShuffle, PartialLastWarp) {
  device_buffer<int> out(128);
  partial_warp<<<1, 48>>>(out.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  auto r = out.to_host();
  for (int t = 0; t < 48; ++t) {
    EXPECT_EQ(r[t], (t % 16) + 4 < 16 ? t + 4 : t);
    EXPECT_EQ(static_cast<unsigned>(r[64 + t]), t < 32 ? 0xffffffffu : 0x0000ffffu);
  }
}

// Divergent halves shuffle separately with their own masks.
__global__ void divergent_halves(int* out) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  int r;
  if (lane < 16) r = __shfl_xor_sync(0x0000ffffu, lane * 10, 1);
  else r = __shfl_sync(0xffff0000u, lane * 100, 16);
  out[threadIdx.x] = r;
}

TEST(WarpShuffle, DivergentHalvesWithTheirOwnMasks) {
  device_buffer<int> out(32);
  divergent_halves<<<1, 32>>>(out.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  auto r = out.to_host();
  for (int l = 0; l < 32; ++l) EXPECT_EQ(r[l], l < 16 ? (l ^ 1) * 10 : 1600);
}

// Shuffles that read lanes of a partial warp that were never launched. Expected values recorded
// on an H200 (CUDA 13.0): a valid source lane that does not exist reads 0; a source outside the
// width segment reads the caller's own value; votes see only the launched lanes.
__global__ void missing_lanes(int* out, int mode) {
  const int v = 100 + static_cast<int>(threadIdx.x);
  int r = 0;
  switch (mode) {
    case 0: r = __shfl_down_sync(0xffffffffu, v, 8); break;
    case 1: r = __shfl_sync(0xffffffffu, v, 20); break;
    case 2: r = __shfl_xor_sync(0xffffffffu, v, 16); break;
    case 3: r = static_cast<int>(__ballot_sync(0xffffffffu, 1)); break;
    default: {
      const float f = 1.5f + static_cast<float>(threadIdx.x);
      r = static_cast<int>(__shfl_down_sync(0xffffffffu, f, 8) * 10);
    }
  }
  out[threadIdx.x] = r;
}

TEST(WarpShuffle, LanesNeverLaunchedReadZeroLikeAnH200) {
  struct row { int threads, mode; std::vector<int> expect; };
  const std::vector<row> h200 = {
      {16, 0, {108, 109, 110, 111, 112, 113, 114, 115, 0, 0, 0, 0, 0, 0, 0, 0}},
      {16, 1, std::vector<int>(16, 0)},
      {16, 2, std::vector<int>(16, 0)},
      {16, 3, std::vector<int>(16, 65535)},
      {16, 4, {95, 105, 115, 125, 135, 145, 155, 165, 0, 0, 0, 0, 0, 0, 0, 0}},
      {20, 0, {108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 0, 0, 0, 0, 0, 0, 0, 0}},
      {20, 2, {116, 117, 118, 119, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 101, 102, 103}},
      {20, 3, std::vector<int>(20, 1048575)},
  };
  device_buffer<int> out(64);
  for (const row& r : h200) {
    missing_lanes<<<1, r.threads>>>(out.ptr, r.mode);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    auto got = out.to_host();
    for (int t = 0; t < r.threads; ++t)
      EXPECT_EQ(got[t], r.expect[t]) << "threads=" << r.threads << " mode=" << r.mode << " t=" << t;
  }
}
