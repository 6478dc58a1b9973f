// Votes, matches and reductions across a warp, with full and partial masks.
#include "device_buffer.h"

__global__ void votes(const int* pred, unsigned* ballot, int* any, int* all) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const int p = pred[t];
  ballot[t] = __ballot_sync(0xffffffffu, p);
  any[t] = __any_sync(0xffffffffu, p);
  all[t] = __all_sync(0xffffffffu, p);
}

TEST(WarpVote, BallotAnyAll) {
  const int n = 128;  // 4 warps: none, all, lane 7 only, even lanes
  std::vector<int> p(n);
  for (int l = 0; l < 32; ++l) {
    p[l] = 0;
    p[32 + l] = l + 1;
    p[64 + l] = l == 7 ? 3 : 0;
    p[96 + l] = l % 2 == 0;
  }
  const unsigned expect[] = {0u, 0xffffffffu, 1u << 7, 0x55555555u};
  device_buffer<int> pred(p), any(n), all(n);
  device_buffer<unsigned> ballot(n);
  votes<<<2, 64>>>(pred.ptr, ballot.ptr, any.ptr, all.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  auto b = ballot.to_host();
  auto a = any.to_host();
  auto l = all.to_host();
  for (int t = 0; t < n; ++t) {
    EXPECT_EQ(b[t], expect[t / 32]);
    EXPECT_EQ(a[t], expect[t / 32] != 0 ? 1 : 0);
    EXPECT_EQ(l[t], expect[t / 32] == 0xffffffffu ? 1 : 0);
  }
}

__global__ void matches(const int* key, const long long* key64, unsigned* any, unsigned* all,
                        int* pred) {
  const unsigned t = threadIdx.x;
  any[t] = __match_any_sync(0xffffffffu, key[t]);
  int p = -1;
  all[t] = __match_all_sync(0xffffffffu, key64[t], &p);
  pred[t] = p;
}

TEST(WarpVote, MatchAnyAndAll) {
  std::vector<int> k(32);
  std::vector<long long> k64(32, 5ll << 40);
  for (int l = 0; l < 32; ++l) k[l] = l % 3;
  device_buffer<int> key(k), pred(32);
  device_buffer<long long> key64(k64);
  device_buffer<unsigned> any(32), all(32);
  matches<<<1, 32>>>(key.ptr, key64.ptr, any.ptr, all.ptr, pred.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  auto a = any.to_host();
  auto m = all.to_host();
  auto p = pred.to_host();
  const unsigned by_residue[] = {0x49249249u, 0x92492492u, 0x24924924u};
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(a[l], by_residue[l % 3]) << l;
    EXPECT_EQ(m[l], 0xffffffffu);
    EXPECT_EQ(p[l], 1);
  }
  // One different 64-bit key (differs only in the high half): no match for anyone.
  k64[9] = (5ll << 40) + (1ll << 33);
  device_buffer<long long> key64b(k64);
  matches<<<1, 32>>>(key.ptr, key64b.ptr, any.ptr, all.ptr, pred.ptr);
  m = all.to_host();
  p = pred.to_host();
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(m[l], 0u);
    EXPECT_EQ(p[l], 0);
  }
}

__global__ void reductions(const int* v, int* out) {
  const unsigned t = threadIdx.x;
  const int x = v[t];
  const unsigned u = static_cast<unsigned>(x);
  out[0 * 32 + t] = __reduce_add_sync(0xffffffffu, x);
  out[1 * 32 + t] = __reduce_min_sync(0xffffffffu, x);
  out[2 * 32 + t] = __reduce_max_sync(0xffffffffu, x);
  out[3 * 32 + t] = static_cast<int>(__reduce_min_sync(0xffffffffu, u));
  out[4 * 32 + t] = static_cast<int>(__reduce_max_sync(0xffffffffu, u));
  out[5 * 32 + t] = static_cast<int>(__reduce_and_sync(0xffffffffu, u | 0x100u));
  out[6 * 32 + t] = static_cast<int>(__reduce_or_sync(0xffffffffu, u & 0xffu));
  out[7 * 32 + t] = static_cast<int>(__reduce_xor_sync(0xffffffffu, u));
}

TEST(WarpVote, Reductions) {
  std::vector<int> v(32);
  for (int l = 0; l < 32; ++l) v[l] = (l * 7919) % 61 - 30;
  int add = 0, mn = v[0], mx = v[0];
  unsigned umn = 0xffffffffu, umx = 0, uand = 0xffffffffu, uor = 0, uxor = 0;
  for (int x : v) {
    add += x;
    mn = std::min(mn, x);
    mx = std::max(mx, x);
    const unsigned u = static_cast<unsigned>(x);
    umn = std::min(umn, u);
    umx = std::max(umx, u);
    uand &= u | 0x100u;
    uor |= u & 0xffu;
    uxor ^= u;
  }
  const int expect[] = {add, mn, mx, static_cast<int>(umn), static_cast<int>(umx),
                        static_cast<int>(uand), static_cast<int>(uor), static_cast<int>(uxor)};
  device_buffer<int> in(v), out(8 * 32);
  reductions<<<1, 32>>>(in.ptr, out.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  auto r = out.to_host();
  for (int k = 0; k < 8; ++k)
    for (int l = 0; l < 32; ++l) EXPECT_EQ(r[k * 32 + l], expect[k]) << "op " << k << " lane " << l;
}

// __syncwarp with a partial mask orders shared-memory writes between the lanes it names.
__global__ void syncwarp_exchange(int* out) {
  __shared__ int s[32];
  const unsigned lane = threadIdx.x;
  if (lane < 8) {
    s[lane] = static_cast<int>(lane * lane);
    __syncwarp(0xffu);
    out[lane] = s[7 - lane];
  } else {
    s[lane] = -1;
    __syncwarp(0xffffff00u);
    out[lane] = s[lane ^ 1];
  }
}

TEST(WarpVote, SyncwarpWithPartialMasks) {
  device_buffer<int> out(32);
  syncwarp_exchange<<<1, 32>>>(out.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  auto r = out.to_host();
  for (int l = 0; l < 8; ++l) EXPECT_EQ(r[l], (7 - l) * (7 - l));
  for (int l = 8; l < 32; ++l) EXPECT_EQ(r[l], -1);
}

__global__ void lane_info(unsigned* active) { active[threadIdx.x] = __activemask(); }

TEST(WarpVote, ActiveMaskOfAPartialWarp) {
  device_buffer<unsigned> a(40);
  lane_info<<<1, 40>>>(a.ptr);
  auto r = a.to_host();
  for (int t = 0; t < 40; ++t) EXPECT_EQ(r[t], t < 32 ? 0xffffffffu : 0xffu);
}
