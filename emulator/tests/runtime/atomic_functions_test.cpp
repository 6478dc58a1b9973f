// Atomics: values of single operations, then many OS threads hammering one location (blocks run
// on several worker threads, so the atomics must be real).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <climits>
#include <thread>
#include <vector>

namespace {

constexpr int k_threads = 8;
constexpr int k_iters = 20000;

template <class F>
void hammer(F f) {
  std::vector<std::thread> ts;
  for (int t = 0; t < k_threads; ++t) ts.emplace_back([&f, t] {
      for (int i = 0; i < k_iters; ++i) f(t, i);
    });
  for (auto& t : ts) t.join();
}

TEST(Atomics, SingleOperations) {
  int i = 5;
  EXPECT_EQ(atomicAdd(&i, 3), 5);
  EXPECT_EQ(i, 8);
  EXPECT_EQ(atomicSub(&i, 10), 8);
  EXPECT_EQ(i, -2);
  EXPECT_EQ(atomicExch(&i, 42), -2);
  EXPECT_EQ(atomicMin(&i, 7), 42);
  EXPECT_EQ(i, 7);
  EXPECT_EQ(atomicMax(&i, -1), 7);
  EXPECT_EQ(i, 7);
  EXPECT_EQ(atomicCAS(&i, 6, 100), 7);  // no match: unchanged
  EXPECT_EQ(i, 7);
  EXPECT_EQ(atomicCAS(&i, 7, 100), 7);
  EXPECT_EQ(i, 100);
  EXPECT_EQ(atomicAnd(&i, 0x0F), 100);
  EXPECT_EQ(i, 4);
  EXPECT_EQ(atomicOr(&i, 0x10), 4);
  EXPECT_EQ(atomicXor(&i, 0x14), 0x14);
  EXPECT_EQ(i, 0);

  unsigned int u = 0;
  EXPECT_EQ(atomicMin(&u, 5u), 0u);
  EXPECT_EQ(atomicMax(&u, 5u), 0u);
  EXPECT_EQ(u, 5u);
  long long ll = -10;
  EXPECT_EQ(atomicMax(&ll, 3LL), -10LL);
  EXPECT_EQ(atomicMin(&ll, -(1LL << 40)), 3LL);
  EXPECT_EQ(ll, -(1LL << 40));
  EXPECT_EQ(atomicOr(&ll, 1LL), -(1LL << 40));
  unsigned long long ull = 1;
  EXPECT_EQ(atomicAdd(&ull, 1ull << 40), 1ull);
  EXPECT_EQ(atomicCAS(&ull, (1ull << 40) + 1, 9ull), (1ull << 40) + 1);
  EXPECT_EQ(atomicExch(&ull, 3ull), 9ull);
  unsigned short us = 7;
  EXPECT_EQ(atomicCAS(&us, static_cast<unsigned short>(7), static_cast<unsigned short>(9)), 7);
  EXPECT_EQ(us, 9);
  float f = 1.5f;
  EXPECT_EQ(atomicAdd(&f, 2.0f), 1.5f);
  EXPECT_EQ(atomicExch(&f, -1.0f), 3.5f);
  double d = 0.25;
  EXPECT_EQ(atomicAdd(&d, 0.5), 0.25);
  EXPECT_EQ(d, 0.75);
  float4 v = make_float4(1, 2, 3, 4);
  const float4 old = atomicAdd(&v, make_float4(1, 1, 1, 1));
  EXPECT_EQ(old.w, 4.0f);
  EXPECT_EQ(v.w, 5.0f);
  // Scoped variants are the same operations.
  EXPECT_EQ(atomicAdd_block(&i, 2), 0);
  EXPECT_EQ(atomicAdd_system(&i, 2), 2);
  EXPECT_EQ(atomicCAS_block(&i, 4, 1), 4);
  EXPECT_EQ(atomicExch_system(&i, 0), 1);
}

TEST(Atomics, IncDecWrap) {
  // atomicInc: ((old >= val) ? 0 : (old + 1))
  unsigned int x = 0;
  EXPECT_EQ(atomicInc(&x, 2u), 0u);
  EXPECT_EQ(x, 1u);
  EXPECT_EQ(atomicInc(&x, 2u), 1u);
  EXPECT_EQ(x, 2u);
  EXPECT_EQ(atomicInc(&x, 2u), 2u);
  EXPECT_EQ(x, 0u);
  x = 10;  // already above val
  atomicInc(&x, 2u);
  EXPECT_EQ(x, 0u);
  x = UINT_MAX;
  atomicInc(&x, UINT_MAX);
  EXPECT_EQ(x, 0u);
  // atomicDec: (((old == 0) || (old > val)) ? val : (old - 1))
  x = 2;
  EXPECT_EQ(atomicDec(&x, 2u), 2u);
  EXPECT_EQ(x, 1u);
  atomicDec(&x, 2u);
  EXPECT_EQ(x, 0u);
  atomicDec(&x, 2u);
  EXPECT_EQ(x, 2u);
  x = 9;  // above val
  atomicDec(&x, 5u);
  EXPECT_EQ(x, 5u);
  x = 0;
  atomicDec_block(&x, 0u);
  EXPECT_EQ(x, 0u);
}

TEST(Atomics, ConcurrentIntegerAdds) {
  int i = 0;
  unsigned int u = 0;
  unsigned long long ull = 0;
  hammer([&](int, int) {
    atomicAdd(&i, 1);
    atomicAdd_block(&u, 2u);
    atomicAdd_system(&ull, 3ull);
  });
  EXPECT_EQ(i, k_threads * k_iters);
  EXPECT_EQ(u, 2u * k_threads * k_iters);
  EXPECT_EQ(ull, 3ull * k_threads * k_iters);
}

TEST(Atomics, ConcurrentFloatAdds) {
  float f = 0;
  double d = 0;
  hammer([&](int, int) {
    atomicAdd(&f, 1.0f);  // exact while below 2^24
    atomicAdd(&d, 0.5);
  });
  EXPECT_EQ(f, static_cast<float>(k_threads * k_iters));
  EXPECT_EQ(d, 0.5 * k_threads * k_iters);
}

TEST(Atomics, ConcurrentIncWraps) {
  unsigned int x = 0;
  hammer([&](int, int) { atomicInc(&x, 999u); });
  EXPECT_EQ(x, static_cast<unsigned int>(k_threads * k_iters) % 1000u);
  unsigned int y = 0;
  hammer([&](int, int) { atomicDec(&y, 999u); });
  // Each decrement from 0 wraps to 999: after n steps the value is (1000 - n % 1000) % 1000.
  EXPECT_EQ(y, (1000u - static_cast<unsigned int>(k_threads * k_iters) % 1000u) % 1000u);
}

TEST(Atomics, ConcurrentMinMaxAndBits) {
  int mn = INT_MAX, mx = INT_MIN;
  unsigned long long bits = 0;
  unsigned int xr = 0;
  hammer([&](int t, int i) {
    const int v = (t * 7919 + i * 104729) % 1000003 - 500000;
    atomicMin(&mn, v);
    atomicMax(&mx, v);
    atomicOr(&bits, 1ull << ((t * 8 + i) % 64));
    atomicXor(&xr, 1u << t);
  });
  int emn = INT_MAX, emx = INT_MIN;
  for (int t = 0; t < k_threads; ++t)
    for (int i = 0; i < k_iters; ++i) {
      const int v = (t * 7919 + i * 104729) % 1000003 - 500000;
      emn = std::min(emn, v);
      emx = std::max(emx, v);
    }
  EXPECT_EQ(mn, emn);
  EXPECT_EQ(mx, emx);
  EXPECT_EQ(bits, ~0ull);
  EXPECT_EQ(xr, 0u);  // each bit flipped an even number of times (k_iters is even)
}

TEST(Atomics, CasSpinLock) {
  int lock = 0;
  long long counter = 0;  // protected by the lock, not atomic
  hammer([&](int, int) {
    while (atomicCAS(&lock, 0, 1) != 0) {
    }
    ++counter;
    atomicExch(&lock, 0);
  });
  EXPECT_EQ(counter, static_cast<long long>(k_threads) * k_iters);
}

TEST(Atomics, CasBuildsOtherOperations) {
  // The classic CUDA idiom: a double max built from atomicCAS on the bit pattern.
  unsigned long long cell = static_cast<unsigned long long>(__double_as_longlong(-1e300));
  hammer([&](int t, int i) {
    const double v = t * 1000.0 + i;
    unsigned long long old = cell, assumed;
    do {
      assumed = old;
      const double cur = __longlong_as_double(static_cast<long long>(assumed));
      if (cur >= v) break;
      old = atomicCAS(&cell, assumed, static_cast<unsigned long long>(__double_as_longlong(v)));
    } while (assumed != old);
  });
  EXPECT_EQ(__longlong_as_double(static_cast<long long>(cell)),
            (k_threads - 1) * 1000.0 + (k_iters - 1));
}

struct alignas(16) pair128 {
  long long a, b;
};

TEST(Atomics, Cas128) {
  pair128 p{0, 0};
  hammer([&](int, int) {
    pair128 old = p, assumed;
    do {
      assumed = old;
      pair128 next{assumed.a + 1, assumed.b - 1};
      old = atomicCAS(&p, assumed, next);
    } while (old.a != assumed.a || old.b != assumed.b);
  });
  EXPECT_EQ(p.a, static_cast<long long>(k_threads) * k_iters);
  EXPECT_EQ(p.b, -static_cast<long long>(k_threads) * k_iters);
  const pair128 prev = atomicExch(&p, pair128{1, 2});
  EXPECT_EQ(prev.a, static_cast<long long>(k_threads) * k_iters);
  EXPECT_EQ(p.b, 2);
}

}  // namespace
