// cg::reduce with plus/less/greater/bit_and/bit_or/bit_xor on int, unsigned, float, double and
// a user type, over tiles of every size and over coalesced groups; inclusive_scan and
// exclusive_scan. Every member gets the reduction; scans are in rank order.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include "device_buffer.h"

namespace cg = cooperative_groups;

enum op_kind { PLUS, LESS, GREATER, AND, OR, XOR };

template <class T, unsigned N>
__global__ void tile_reduce(const T* in, T* out, int op) {
  auto t = cg::tiled_partition<N>(cg::this_thread_block());
  const unsigned r = cg::this_thread_block().thread_rank();
  const T v = in[r];
  T x{};
  switch (op) {
    case PLUS: x = cg::reduce(t, v, cg::plus<T>()); break;
    case LESS: x = cg::reduce(t, v, cg::less<T>()); break;
    case GREATER: x = cg::reduce(t, v, cg::greater<T>()); break;
    default:
      if constexpr (std::is_integral_v<T>) {
        if (op == AND) x = cg::reduce(t, v, cg::bit_and<T>());
        else if (op == OR) x = cg::reduce(t, v, cg::bit_or<T>());
        else x = cg::reduce(t, v, cg::bit_xor<T>());
      }
  }
  out[r] = x;
}

template <class T>
T fold(int op, T a, T b) {
  switch (op) {
    case PLUS: return a + b;
    case LESS: return b < a ? b : a;
    case GREATER: return a < b ? b : a;
    default:
      if constexpr (std::is_integral_v<T>) {
        if (op == AND) return a & b;
        if (op == OR) return a | b;
        return a ^ b;
      }
      return a;
  }
}

template <class T, unsigned N>
void check_reduce(int op) {
  const unsigned n = 128;
  std::vector<T> h(n);
  for (unsigned i = 0; i < n; ++i)
    h[i] = static_cast<T>(std::is_signed_v<T> ? static_cast<long>((i * 97) % 61) - 30
                                              : static_cast<long>((i * 2654435761u) % 100000));
  device_buffer<T> in(h), out(n);
  tile_reduce<T, N><<<1, n>>>(in.ptr, out.ptr, op);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto r = out.to_host();
  for (unsigned i = 0; i < n; ++i) {
    const unsigned base = i / N * N;
    T e = h[base];
    for (unsigned k = 1; k < N; ++k) e = fold(op, e, h[base + k]);
    if constexpr (std::is_floating_point_v<T>) EXPECT_NEAR(r[i], e, 1e-3) << i;
    else EXPECT_EQ(r[i], e) << "N=" << N << " op=" << op << " i=" << i;
  }
}

TEST(CgReduce, IntAllOpsAllSizes) {
  for (int op : {PLUS, LESS, GREATER, AND, OR, XOR}) {
    check_reduce<int, 1>(op); check_reduce<int, 2>(op); check_reduce<int, 4>(op);
    check_reduce<int, 8>(op); check_reduce<int, 16>(op); check_reduce<int, 32>(op);
  }
}
TEST(CgReduce, UnsignedAndLong) {
  for (int op : {PLUS, LESS, GREATER, AND, OR, XOR}) {
    check_reduce<unsigned, 32>(op); check_reduce<unsigned, 8>(op);
    check_reduce<long long, 32>(op); check_reduce<long long, 4>(op);
  }
}
TEST(CgReduce, FloatingPoint) {
  for (int op : {PLUS, LESS, GREATER}) {
    check_reduce<float, 32>(op); check_reduce<float, 16>(op);
    check_reduce<double, 32>(op); check_reduce<double, 2>(op);
  }
}

// A 16-byte user type moves through shuffles as four words.
struct int4sum { int a, b, c, d; };
struct add4 {
  __device__ int4sum operator()(const int4sum& x, const int4sum& y) const {
    return {x.a + y.a, x.b + y.b, x.c + y.c, x.d + y.d};
  }
};
__global__ void struct_reduce(int4sum* out) {
  auto t = cg::tiled_partition<32>(cg::this_thread_block());
  const int r = static_cast<int>(t.thread_rank());
  out[threadIdx.x] = cg::reduce(t, int4sum{r, 2 * r, 1, -r}, add4());
}
TEST(CgReduce, UserTypeAndOp) {
  device_buffer<int4sum> out(64);
  struct_reduce<<<1, 64>>>(out.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (const int4sum& s : out.to_host()) {
    EXPECT_EQ(s.a, 496); EXPECT_EQ(s.b, 992); EXPECT_EQ(s.c, 32); EXPECT_EQ(s.d, -496);
  }
}

// Coalesced groups: reduce and scans over the lanes of a binary partition.
__global__ void coalesced_reduce_scan(const int* in, int* out) {
  const unsigned t = threadIdx.x;
  cg::coalesced_group g =
      cg::binary_partition(cg::tiled_partition<32>(cg::this_thread_block()), t % 4 != 1);
  if (t % 4 == 1) { g.sync(); return; }
  const int v = in[t];
  out[3 * t + 0] = cg::reduce(g, v, cg::plus<int>());
  out[3 * t + 1] = cg::inclusive_scan(g, v);
  out[3 * t + 2] = cg::exclusive_scan(g, v, cg::plus<int>());
}
TEST(CgScan, CoalescedReduceAndScans) {
  const unsigned n = 64;
  std::vector<int> h(n);
  for (unsigned i = 0; i < n; ++i) h[i] = static_cast<int>(i * i % 17);
  device_buffer<int> in(h), out(3 * n);
  coalesced_reduce_scan<<<1, n>>>(in.ptr, out.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto r = out.to_host();
  for (unsigned w = 0; w < n; w += 32) {
    int total = 0;
    for (unsigned k = w; k < w + 32; ++k)
      if (k % 4 != 1) total += h[k];
    int run = 0;
    for (unsigned k = w; k < w + 32; ++k) {
      if (k % 4 == 1) continue;
      EXPECT_EQ(r[3 * k + 0], total) << k;
      EXPECT_EQ(r[3 * k + 2], run) << k;
      run += h[k];
      EXPECT_EQ(r[3 * k + 1], run) << k;
    }
  }
}

// Scans on tiles with a non-default op (max).
template <unsigned N>
__global__ void tile_scan(const int* in, int* out) {
  auto t = cg::tiled_partition<N>(cg::this_thread_block());
  const unsigned r = threadIdx.x;
  out[2 * r] = cg::inclusive_scan(t, in[r], cg::greater<int>());
  out[2 * r + 1] = cg::exclusive_scan(t, in[r]);
}
template <unsigned N>
void check_tile_scan() {
  const unsigned n = 64;
  std::vector<int> h(n);
  for (unsigned i = 0; i < n; ++i) h[i] = static_cast<int>((i * 37) % 23) - 5;
  device_buffer<int> in(h), out(2 * n);
  tile_scan<N><<<1, n>>>(in.ptr, out.ptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto r = out.to_host();
  for (unsigned i = 0; i < n; ++i) {
    const unsigned base = i / N * N;
    int mx = h[base], sum = 0;
    for (unsigned k = base; k <= i; ++k) mx = std::max(mx, h[k]);
    for (unsigned k = base; k < i; ++k) sum += h[k];
    EXPECT_EQ(r[2 * i], mx) << N << " " << i;
    EXPECT_EQ(r[2 * i + 1], sum) << N << " " << i;
  }
}
TEST(CgScan, TilesEverySize) {
  check_tile_scan<1>(); check_tile_scan<2>(); check_tile_scan<4>();
  check_tile_scan<8>(); check_tile_scan<16>(); check_tile_scan<32>();
}
